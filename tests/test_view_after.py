"""view_after and view_after_moves: a seat's view brought up to date move by move
(issue 14, deliverable 6), and the incremental observation tensors built on them.

The contract: ``view_after(view(s, seat), m, apply(s, m)) == view(apply(s, m), seat)``
for every move of every ruleset, for every seat and the spectator, with every
field equal to the previous view's being the very same object; the incremental
tensor is bit-identical to the full one; and the incremental path keeps hidden
information hidden (R-HID-1 … R-HID-3): worlds a seat cannot tell apart give it
identical incremental views and tensors.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import Iterator

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import VIEW_RULESETS, VIEWERS, random_match
from test_views import deal_start, unseen_deals
from trixcomplex import testing as kit
from trixcomplex.rl.observation import Observer, observation_tensor

_OPTIONS = tuple(option for option in kit.OPTIONS if option != "partnership")
"""The table options (R-OPT-1 … R-OPT-10); the partnership form is the presets'."""


def _variants() -> list[tc.Ruleset]:
    """Every preset, each preset with every option it accepts switched on at once, and
    each preset with each option it accepts flipped alone."""
    out: dict[str, tc.Ruleset] = {r.name: r for r in (*tc.RULESETS.values(), *VIEW_RULESETS)}
    for preset in tc.RULESETS.values():
        every = preset
        for option in _OPTIONS:
            with contextlib.suppress(ValueError):  # e.g. R-OPT-9, R-OPT-10: not for this preset
                every = every.evolve(**{option: True})
            try:
                alone = preset.evolve(**{option: not getattr(preset, option)})
            except ValueError:
                continue
            out[alone.name] = alone
        out[every.name] = every
    return list(out.values())


RULESETS = _variants()
IDS = [r.name for r in RULESETS]
FIELDS = [f.name for f in attrs.fields(tc.View)]


def steps(states: list[tc.MatchState]) -> Iterator[tuple[tc.MatchState, tc.Move, tc.MatchState]]:
    """``(before, move, after)`` for every move of the match."""
    for before, after in itertools.pairwise(states):
        move = after.history.last
        assert move is not None
        yield before, move, after


def assert_shares_unchanged(previous: tc.View, new: tc.View) -> None:
    """Every field of ``new`` equal to ``previous``'s is the very same object."""
    for name in FIELDS:
        old, value = getattr(previous, name), getattr(new, name)
        if old == value:
            assert value is old, name


def same(a: np.ndarray, b: np.ndarray) -> bool:
    """Bit-identical, same dtype and shape."""
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# -- the contract ------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_view_after_is_the_view_after_every_move(ruleset: tc.Ruleset) -> None:
    """Issue 14 (6): for every move of a random match and every seat and the spectator,
    ``view_after(view(s, seat), m, apply(s, m)) == view(apply(s, m), seat)``; fields
    that did not change are the previous view's own objects."""
    kinds = set()
    for before, move, after in steps(kit.random_match(ruleset, 1)):
        kinds.add(type(move))
        for seat in VIEWERS:
            previous = tc.view(before, seat)
            new = tc.view_after(previous, move, after)
            assert new == tc.view(after, seat), (type(move).__name__, seat)
            assert type(new) is tc.View
            assert_shares_unchanged(previous, new)
    assert {tc.Deal, tc.Play} <= kinds, kinds  # the match was played through


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_view_after_chained_over_a_whole_match_is_the_view_at_every_step(
    ruleset: tc.Ruleset,
) -> None:
    """Issue 14 (6): one view per seat, only ever brought up to date by view_after from
    the start of the match, equals view() at every step; so does its tensor, built
    incrementally from the previous tensor (bit-identical, float32)."""
    states = kit.random_match(ruleset, 2)
    seen = {seat: tc.view(states[0], seat) for seat in VIEWERS}
    tensors = {seat: observation_tensor(seen[seat]) for seat in VIEWERS}
    for _, move, after in steps(states):
        for seat in VIEWERS:
            new = tc.view_after(seen[seat], move, after)
            full = tc.view(after, seat)
            assert new == full, (type(move).__name__, seat)
            tensor = observation_tensor(new, previous=(seen[seat], tensors[seat]))
            assert same(tensor, observation_tensor(full)), (type(move).__name__, seat)
            assert np.array_equal(tensor, observation_tensor(full))
            seen[seat], tensors[seat] = new, tensor


@settings(max_examples=25, deadline=None)
@given(
    ruleset=st.sampled_from(RULESETS),
    seed=st.integers(0, 10**6),
    pick=st.randoms(use_true_random=False),
)
def test_view_after_moves_catches_up_over_any_stretch(
    ruleset: tc.Ruleset, seed: int, pick: random.Random
) -> None:
    """Issue 14 (6): a view brought up to date over several moves at once (as the
    adapters do when a seat is observed) equals view(); an Observer asked for random
    seats at random moments gives view() and the full tensor, bit for bit."""
    states = kit.random_match(ruleset, seed)
    observer = Observer()
    for i in range(0, len(states), max(1, len(states) // 60)):
        j = min(len(states) - 1, i + pick.randrange(1, 12))
        seat = pick.choice(VIEWERS)
        moves = states[j].history.moves()[len(states[i].history) :]
        previous = tc.view(states[i], seat)
        if moves:
            caught_up = tc.view_after_moves(previous, moves, states[j])
            assert caught_up == tc.view(states[j], seat)
            assert_shares_unchanged(previous, caught_up)
        assert observer.view(states[j], seat) == tc.view(states[j], seat)
        tensor = observer.tensor(states[j], seat)
        assert same(tensor, observation_tensor(tc.view(states[j], seat)))
        assert tensor.flags.writeable and tensor.flags.owndata  # the caller's own copy
        tensor[:] = -1.0  # changing it changes nothing the observer keeps
        assert same(observer.tensor(states[j], seat), observation_tensor(tc.view(states[j], seat)))


def test_view_after_of_another_seats_answer_is_the_previous_view_itself() -> None:
    """R-HID-2: an answer in the doubling window changes nothing another seat sees."""
    for states in (random_match(seed) for seed in range(3)):
        for before, move, after in steps(states):
            if type(move) is tc.Double and after.phase is tc.Phase.DOUBLE:
                for seat in VIEWERS:
                    if seat != move.seat:
                        previous = tc.view(before, seat)
                        assert tc.view_after(previous, move, after) is previous
                return
    raise AssertionError("no doubling answer that left the window open")


def test_view_after_given_a_stale_view_still_gives_the_view() -> None:
    """A previous view that is not the one just before the move (a wrong input) is
    detected where it is cheap to see, and the full view is given."""
    states = random_match(5)
    checked = 0
    for i in range(2, len(states)):
        move = states[i].history.last
        if type(move) is tc.Play and states[i].phase is states[i - 2].phase:
            stale = tc.view(states[i - 2], 0)  # two moves old, not one
            assert tc.view_after(stale, move, states[i]) == tc.view(states[i], 0)
            checked += 1
    assert checked > 50


# -- hidden information on the incremental path -------------------------------------


@settings(max_examples=12, deadline=None)
@given(
    ruleset=st.sampled_from(RULESETS),
    seed=st.integers(0, 10**6),
    pick=st.randoms(use_true_random=False),
)
def test_r_hid_1_incremental_views_and_tensors_cannot_tell_unseen_worlds_apart(
    ruleset: tc.Ruleset, seed: int, pick: random.Random
) -> None:
    """R-HID-1 … R-HID-3: a seat follows a deal move by move (view_after and the
    incremental tensor, through an Observer) in the real world and in a world with two
    unseen cards of other seats swapped at the deal; at every step both give it the
    same view and a bit-identical tensor, as they do the spectator."""
    states = kit.random_match(ruleset, seed)
    i = pick.choice([k for k, s in enumerate(states) if s.phase.plays_cards])
    seat = pick.choice([0, 1, 2, 3])
    real = states[deal_start(states, i) + 1 : i + 1]
    for other, a, b in unseen_deals(states, i, seat, pick):
        ours, theirs = Observer(), Observer()
        for here, there in zip(real, other, strict=True):
            for who in (seat, None):
                assert ours.view(here, who) == theirs.view(there, who)
                assert same(ours.tensor(here, who), theirs.tensor(there, who))
        holders = [h for h in range(4) if (states[i].hands[h] >> a | states[i].hands[h] >> b) & 1]
        assert all(tc.view(states[i], h) != tc.view(other[-1], h) for h in holders)
        return


# -- the adapters observe through an Observer ----------------------------------------


def test_pettingzoo_observations_are_the_full_tensors_and_the_callers_own() -> None:
    """Issue 14 (3, 6): every observation the AEC env gives equals the full tensor of the
    agent's view; changing one the caller got changes nothing the env gives next."""
    from trixcomplex.rl.pettingzoo import AGENTS, env

    game = env(ruleset="classic", seed=4)
    game.reset()
    rng = random.Random(4)
    for n, agent in enumerate(game.agent_iter(max_iter=400)):
        observation, _, termination, truncation, _ = game.last()
        table = game.unwrapped.table
        tensor = observation["observation"]
        assert same(tensor, observation_tensor(tc.view(table.state, AGENTS.index(agent))))
        tensor[:] = 7.0  # the caller's copy
        other = AGENTS[(AGENTS.index(agent) + n) % 4]
        assert same(game.observe(other)["observation"],
                    observation_tensor(tc.view(table.state, AGENTS.index(other))))  # fmt: skip
        done = termination or truncation
        game.step(None if done else rng.choice(np.flatnonzero(observation["action_mask"])))


def test_openspiel_clones_and_deserialized_states_observe_their_own_state() -> None:
    """Issue 14 (4, 6): a cloned or deserialized OpenSpiel state starts its observations
    afresh; after both go their own ways each observes its own state (tensors and
    strings), never the other's."""
    import pyspiel

    import trixcomplex.rl.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_trix_complex", {"ruleset": "classic", "deals": 2})
    rng = random.Random(3)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        for player in range(4):
            state.observation_tensor(player)  # the observer follows the state
        if rng.random() < 0.25:
            twins = [state.clone(), game.deserialize_state(state.serialize())]
            for twin in twins:
                if len(twin.legal_actions()) > 1:
                    twin.apply_action(twin.legal_actions()[-1])
            state.apply_action(state.legal_actions()[0])
            for _ in range(3):  # the three go their own ways, observed in turn
                for twin in (state, *twins):
                    if twin.is_terminal() or twin.is_chance_node():
                        continue
                    for player in range(4):
                        seen = tc.view(twin.table.state, player)
                        assert np.array_equal(
                            np.asarray(twin.observation_tensor(player), np.float32),
                            observation_tensor(seen),
                        )
                        assert twin.observation_string(player) == tc.render.table_text(seen)
                        checked += 1
                    if twin is not state:
                        twin.apply_action(rng.choice(twin.legal_actions()))
            continue
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 80
