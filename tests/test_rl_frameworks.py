"""The adapters pass their frameworks' own conformance tests: PettingZoo's ``api_test``
and ``seed_test``, Gymnasium's ``check_env``, OpenSpiel's ``random_sim_test`` (with
serialization), and OpenSpiel's ISMCTS runs on the game."""

from __future__ import annotations

import random
import warnings

import gymnasium.utils.env_checker as gym_checker
import numpy as np
import pettingzoo.test as pettingzoo_test
import pyspiel
import pytest

import trixcomplex as tc
import trixcomplex.rl.openspiel  # registers the game
from trixcomplex.bots import RandomBot, RuleBot
from trixcomplex.io.actions import NUM_ACTIONS
from trixcomplex.rl import OBSERVATION_SHAPE
from trixcomplex.rl.gymnasium import SeatEnv
from trixcomplex.rl.pettingzoo import env, raw_env

PRESETS = list(tc.RULESETS)
VARIANTS = [
    "classic+bad_hand_redeal=True",
    "classic+reversed_scores=True",
    "classic+combined_contracts=True",
    "classic-partnership+combined_contracts=True",
]


# -- PettingZoo ------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", PRESETS + VARIANTS)
def test_pettingzoo_api_test_passes(ruleset: str) -> None:
    """PettingZoo's own API conformance test, on a whole match of every preset."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Dict observations: the same advice as for its own games
        pettingzoo_test.api_test(env(ruleset=ruleset, seed=1), num_cycles=3000)


@pytest.mark.parametrize("ruleset", ["partnership", "classic"])
def test_pettingzoo_seed_test_passes(ruleset: str) -> None:
    """PettingZoo's seed test: the same seed gives the same episode."""
    pettingzoo_test.seed_test(lambda: env(ruleset=ruleset), num_cycles=300)


def test_pettingzoo_rewards_sum_to_the_team_totals_and_masks_match() -> None:
    """R-MATCH-7: each agent's rewards over a match sum to its team's Team Total; only the
    agent to act has a non-empty mask; different seeds deal differently."""
    game = env(ruleset="partnership", seed=11)
    game.reset()
    returns = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        obs, reward, term, trunc, _ = game.last()
        returns[agent] += reward
        assert obs["observation"].shape == OBSERVATION_SHAPE
        for other in game.agents:
            if other != agent:
                assert not game.observe(other)["action_mask"].any()
        game.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[-1]))
    teams = game.unwrapped.table.view(None).score.teams
    assert [returns[a] for a in game.possible_agents] == [teams[0], teams[1], teams[0], teams[1]]
    hands = []
    for seed in (1, 2):
        other = raw_env(seed=seed)
        other.reset()
        hands.append(other.table.view(0).hand)
    assert hands[0] != hands[1]


def test_pettingzoo_has_no_parallel_env() -> None:
    """Documented: the AEC-to-parallel conversion does not apply (the taker leads next)."""
    assert raw_env.metadata["is_parallelizable"] is False
    assert not hasattr(trixcomplex.rl.pettingzoo, "parallel_env")


# -- Gymnasium -------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", PRESETS)
def test_gymnasium_check_env_passes(ruleset: str) -> None:
    """Gymnasium's own environment checker, for a seat of every preset."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no registered spec: render modes are not tried
        gym_checker.check_env(SeatEnv(seat=1, opponents=RuleBot(), ruleset=ruleset))


def test_gymnasium_episode_returns_the_seat_total_and_rejects_illegal_actions() -> None:
    """R-MATCH-8, R-IND-1: the rewards of an episode sum to the seat's final total (its
    own in an individual ruleset); an illegal action ends the episode, applying nothing."""
    env_ = SeatEnv(seat=3, opponents=[RandomBot(), RuleBot(), RandomBot()], ruleset="classic")
    obs, _ = env_.reset(seed=4)
    total, done = 0.0, False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size and env_.table.to_act == 3
        obs, reward, done, _, _ = env_.step(int(legal[0]))
        total += reward
    assert total == tc.score(env_.table.state).seats[3]
    obs, _ = env_.reset(seed=4)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env_.table
    _, reward, terminated, _, info = env_.step(illegal)
    assert terminated and info["illegal_action"] and reward == env_.illegal_reward
    assert env_.table == before
    with pytest.raises(ValueError, match="R-SEAT-1"):
        SeatEnv(seat=4)


# -- OpenSpiel -------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", PRESETS + VARIANTS)
def test_openspiel_random_sim_test_passes_with_serialization(ruleset: str) -> None:
    """OpenSpiel's own random simulation test, serializing and deserializing states, on
    the first two deals of every preset and two variants."""
    game = pyspiel.load_game("python_trix_complex", {"ruleset": ruleset, "deals": 2})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.slow
def test_openspiel_random_sim_test_passes_on_a_whole_match() -> None:
    """OpenSpiel's random simulation test on a whole partnership match (deals=0)."""
    game = pyspiel.load_game("python_trix_complex")
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_openspiel_game_deals_one_card_per_chance_node_and_hides_hands() -> None:
    """R-MATCH-2, R-HID-1: 52 uniform chance nodes; card i goes to seat i % 4; a player's
    information state and observation tensor do not change when an unseen card moves."""
    game = pyspiel.load_game("python_trix_complex", {"ruleset": "partnership", "deals": 1})
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.observation_tensor_shape() == list(OBSERVATION_SHAPE)
    worlds = []
    for deck in (list(range(52)), [0, 1, 2, 3, 4, 6, 5, *range(7, 52)]):
        state = game.new_initial_state()
        for card in deck:
            outcomes = state.chance_outcomes()
            assert len(outcomes) == 52 - len(state.history())
            assert all(p == pytest.approx(1 / len(outcomes)) for _, p in outcomes)
            state.apply_action(card)
        worlds.append(state)
    a, b = worlds  # 7S and 8S exchanged between seats 1 and 2
    assert a.table.state.hand(0) == tuple(tc.Card(i) for i in range(0, 52, 4))
    for seat in (0, 3):
        assert a.information_state_string(seat) == b.information_state_string(seat)
        assert a.observation_tensor(seat) == b.observation_tensor(seat)
    assert a.information_state_string(1) != b.information_state_string(1)


def test_openspiel_serialization_round_trips() -> None:
    """A state serialized mid-match and deserialized plays on identically."""
    game = pyspiel.load_game("python_trix_complex", {"ruleset": "classic", "deals": 2})
    state = game.new_initial_state()
    rng = random.Random(3)
    while len(state.history()) < 130:
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else None
        state.apply_action(rng.choice(actions or state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert again.history() == state.history() and str(again) == str(state)
    assert again.table == state.table


@pytest.mark.slow
def test_openspiel_ismcts_plays_a_game_with_resampled_worlds() -> None:
    """OpenSpiel's ISMCTS runs on the game (its resampling goes through sample_world) and
    every resampled state looks the same to the player, doubling window included."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_trix_complex", {"ruleset": "partnership", "deals": 2})
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), uct_c=200.0,
        max_simulations=4, random_state=np.random.RandomState(1),
    )  # fmt: skip
    state = game.new_initial_state()
    rng = random.Random(5)
    windows = resampled = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        player = state.current_player()
        sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.legal_actions() == state.legal_actions()
        assert sample.table.state.hand(player) == state.table.state.hand(player)
        resampled += sample.table.state.hands != state.table.state.hands
        windows += state.table.window_seat is not None
        state.apply_action(bot.step(state))
    assert windows == 4 and len(state.returns()) == 4  # one COMPLEX window, four seats
    assert resampled > 50  # the other hands are drawn anew, not the true ones


@pytest.mark.parametrize("ruleset", ["classic+bad_hand_redeal=True", "partnership"])
def test_openspiel_an_information_state_has_one_set_of_legal_actions(ruleset: str) -> None:
    """R-OPT-8: OpenSpiel's algorithms key their tables by the information state, so two
    decisions of a player with the same information-state string (or tensor) must offer
    the same actions.  The table's redeal round asks the TRIX owner whether to demand a
    redeal before it asks for the first card, with the same view: the information state
    says which question is asked.  A whole Kingdom of random play, every decision."""
    game = pyspiel.load_game("python_trix_complex", {"ruleset": ruleset, "deals": 5})
    by_string: dict[tuple[int, str], list[int]] = {}
    by_tensor: dict[tuple[int, tuple[float, ...]], list[int]] = {}
    rng = random.Random(11)
    rounds = 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            player, legal = state.current_player(), state.legal_actions()
            asked = state.table.redeal_seat is not None
            rounds += asked
            assert state.information_state_tensor(player)[-1] == float(asked)
            assert ('"redeal_round":true' in state.information_state_string(player)) is asked
            assert ("Redeal round: asked" in state.observation_string(player)) is asked
            key = (player, state.information_state_string(player))
            assert by_string.setdefault(key, legal) == legal, key[1]
            tensor = (player, tuple(state.information_state_tensor(player)))
            assert by_tensor.setdefault(tensor, legal) == legal
            state.apply_action(rng.choice(legal))
    assert rounds >= (8 if "bad_hand" in ruleset else 0)  # each TRIX deal: 4 seats asked
