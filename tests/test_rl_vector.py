"""TablesEnv, the vector environment of many self-play tables (issue 44, deliverable 3).

The contract: every table is a :class:`~trixcomplex.rl.table.Table` played one acting
seat at a time, and the batch holds, row by row, what the single-table adapters give:
the observation tensor of the seat to act bit for bit (the pure encoder
``observation_tensor(view(...))`` and the PettingZoo environment's), its legal actions
as the mask, the PettingZoo rewards; Gymnasium's own vector machinery
(``SyncVectorEnv`` over single tables, ``RecordEpisodeStatistics``,
``DictInfoToList``, ``batch_space``) agrees with it, autoreset included
(``NEXT_STEP``); tables are seeded ``seed + i``; an illegal action changes nothing.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.vector.utils import batch_space
from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics

import trixcomplex as tc
from trixcomplex.io.actions import NUM_ACTIONS, ActionError
from trixcomplex.rl import observation_tensor
from trixcomplex.rl.pettingzoo import AGENTS, observation_space, raw_env
from trixcomplex.rl.table import CHANCE, Table
from trixcomplex.rl.vector import TablesEnv

RULESETS = [
    ("partnership", 0),  # whole matches
    ("classic", 2),
    ("classic+bad_hand_redeal=True", 3),  # the redeal round (R-OPT-8)
    ("classic+combined_contracts=True", 2),  # R-OPT-9
    ("classic+reversed_scores=True,show_twos=True", 2),  # R-OPT-6, R-OPT-7
]


def legal_choices(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row (0 where the mask is empty: a table whose
    match just ended ignores its action)."""
    return (rng.random(masks.shape) * masks).argmax(axis=1)


class SelfPlayTable(gymnasium.Env[dict[str, Any], int]):
    """The reference: one table in self-play as a single Gymnasium environment, built from
    the single-table parts only (``Table``, the full ``observation_tensor`` of the acting
    seat's ``view``, ``Table.totals``); ``reset(seed=None)`` goes on with its RNG."""

    def __init__(self, ruleset: str, deals: int) -> None:
        self.observation_space = observation_space()
        self.action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self.ruleset, self.deals = tc.Ruleset.from_name(ruleset), deals
        self.rng = random.Random()

    def _observe(self) -> tuple[dict[str, Any], dict[str, Any]]:
        mask = np.zeros(NUM_ACTIONS, np.int8)
        mask[list(self.table.legal_actions())] = 1
        tensor = observation_tensor(self.table.view(self.seat))
        return {"observation": tensor, "action_mask": mask}, {"seat": self.seat}

    def _deal(self) -> None:
        while self.table.to_act == CHANCE:
            self.table = self.table.deal(self.rng)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:
            self.rng = random.Random(seed)
        self.table = Table.new(self.ruleset, self.deals)
        self._deal()
        self.seat = self.table.to_act
        observation, info = self._observe()
        return observation, {**info, "rewards": np.zeros(4)}

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        before, mover = self.table.totals(), self.seat
        self.table = self.table.act(int(action))
        self._deal()
        changes = np.array(self.table.totals(), float) - before
        if not self.table.is_over:
            self.seat = self.table.to_act
        observation, info = self._observe()
        return observation, float(changes[mover]), self.table.is_over, False, {
            **info, "rewards": changes}  # fmt: skip


@pytest.mark.parametrize(("ruleset", "deals"), RULESETS)
def test_the_batch_is_gymnasiums_own_sync_vector_env_of_single_tables(
    ruleset: str, deals: int
) -> None:
    """Gymnasium's reference vector environment (``SyncVectorEnv``, NEXT_STEP autoreset)
    over single self-play tables observed by the full encoder gives, step after step
    across autoresets, exactly the batch of TablesEnv: observations bit for bit
    (``exact``), masks, rewards, terminations, truncations and infos."""
    n, seed, rng = 3, 40, np.random.default_rng(1)
    ours = TablesEnv(n, ruleset, deals=deals)
    reference = SyncVectorEnv(
        [lambda: SelfPlayTable(ruleset, deals)] * n, autoreset_mode=AutoresetMode.NEXT_STEP
    )
    assert ours.observation_space == reference.observation_space
    assert ours.single_observation_space == reference.single_observation_space
    assert ours.action_space == reference.action_space
    assert ours.metadata["autoreset_mode"] is reference.metadata["autoreset_mode"]
    got, want = ours.reset(seed=seed), reference.reset(seed=seed)
    assert data_equivalence(got, want, exact=True)
    ended = np.zeros(n, int)
    steps = 0
    while ended.min() < 2 if deals else ended.min() < 1:
        actions = legal_choices(got[0]["action_mask"], rng)
        got, want = ours.step(actions), reference.step(actions)
        for part, name in zip(got, ("observations", "rewards", "terminated", "truncated", "info"),
                              strict=True):  # fmt: skip
            assert data_equivalence(part, want[("observations", "rewards", "terminated",
                                                "truncated", "info").index(name)], exact=True), (
                name, steps)  # fmt: skip
        ended += got[2]
        steps += 1
    assert steps > 100


@pytest.mark.parametrize("ruleset", ["partnership", "classic+bad_hand_redeal=True"])
def test_every_row_is_the_pettingzoo_observation_mask_and_rewards(ruleset: str) -> None:
    """Table i is ``pettingzoo`` ``raw_env(seed=seed + i)``: the same deals; at every step
    of a whole match its row is that environment's observation of the agent to act
    (the SeatsTracker's) and the full encoder's, bit for bit, the mask lists exactly
    the table's legal actions, ``info["rewards"]`` are the PettingZoo rewards and
    summed over the match give each seat its final total (R-MATCH-7); ``rewards`` is
    the mover's."""
    n, seed, rng = 2, 9, np.random.default_rng(5)
    tables = TablesEnv(n, ruleset)
    games = [raw_env(ruleset=ruleset, seed=seed + i) for i in range(n)]
    for game in games:
        game.reset()
    observations, info = tables.reset(seed=seed)
    sums = np.zeros((n, 4))
    live = [True] * n
    while any(live):
        for i in range(n):
            if not live[i]:
                continue
            table = tables.tables[i]
            seat = int(info["seat"][i])
            assert seat == table.to_act
            tensor = observations["observation"][i]
            assert np.array_equal(tensor, observation_tensor(table.view(seat)))
            assert tensor.tobytes() == observation_tensor(table.view(seat)).tobytes()
            assert np.flatnonzero(observations["action_mask"][i]).tolist() == list(
                table.legal_actions()
            )
            game = games[i]
            assert game.agent_selection == AGENTS[seat]
            seen = game.observe(AGENTS[seat])
            assert seen["observation"].tobytes() == tensor.tobytes()
            assert np.array_equal(seen["action_mask"], observations["action_mask"][i])
        actions = legal_choices(observations["action_mask"], rng)
        movers = info["seat"].copy()
        observations, rewards, terminated, _, info = tables.step(actions)
        for i in range(n):
            if not live[i]:
                continue
            sums[i] += info["rewards"][i]
            assert rewards[i] == info["rewards"][i][movers[i]]
            games[i].step(int(actions[i]))
            assert info["rewards"][i].tolist() == [games[i].rewards[a] for a in AGENTS]
            assert terminated[i] == games[i].terminations[AGENTS[movers[i]]]
            if terminated[i]:
                live[i] = False
                final = tables.tables[i]
                assert final.is_over and sums[i].tolist() == list(final.totals())
                assert not observations["action_mask"][i].any()  # no seat to act
                assert info["seat"][i] == movers[i]  # the last mover's observation
                assert (
                    observations["observation"][i].tobytes()
                    == observation_tensor(final.view(int(movers[i]))).tobytes()
                )


def test_autoreset_starts_the_next_match_on_the_next_step_with_the_tables_rng() -> None:
    """NEXT_STEP autoreset: the step after a match's end ignores the table's action (any
    int, even an illegal one), gives reward 0 and not terminated, and starts a new match
    dealt by the table's RNG, going on (not seeded again): its deal is not the first
    match's, and Gymnasium's RecordEpisodeStatistics counts each match once with its
    return (the sum of the mover rewards) and length (its agent steps)."""
    tables = RecordEpisodeStatistics(TablesEnv(2, "classic", deals=1))
    observations, _ = tables.reset(seed=3)
    first_deal = [t.state.hands for t in tables.unwrapped.tables]  # no card played yet
    rng = np.random.default_rng(2)
    returns, lengths, done = np.zeros(2), np.zeros(2, int), np.zeros(2, bool)
    episodes = 0
    for _ in range(400):
        actions = legal_choices(observations["action_mask"], rng)
        actions[done] = 999  # ignored: the table starts anew
        observations, rewards, terminated, truncated, info = tables.step(actions)
        assert not truncated.any()
        if done.any():
            assert not rewards[done].any() and not terminated[done].any()
            for i in np.flatnonzero(done):
                table = tables.unwrapped.tables[i]
                assert not table.state.results and table.state.hands != first_deal[i]
                assert sum(map(int.bit_count, table.state.hands)) == 52  # a fresh deal
                assert observations["action_mask"][i].any()
        returns += np.where(done, 0, rewards)
        lengths += ~done
        if terminated.any():
            episodes += int(terminated.sum())
            stats = info["episode"]
            for i in np.flatnonzero(terminated):
                assert stats["r"][i] == pytest.approx(returns[i]) and stats["l"][i] == lengths[i]
                returns[i], lengths[i] = 0, 0
        done = terminated
    assert episodes >= 4


def test_the_same_seed_gives_the_same_trajectories_and_seeds_are_per_table() -> None:
    """Seeding: the same seed and actions give identical batches (autoresets included);
    another seed deals otherwise; ``seed=[...]`` seeds each table, ``seed=s`` is
    ``[s, s + 1, ...]``; a seed list of the wrong length is refused."""

    def run(seed: Any) -> list[Any]:
        tables, rng = TablesEnv(3, "classic", deals=1), np.random.default_rng(0)
        out: list[Any] = [tables.reset(seed=seed)]
        for _ in range(120):
            out.append(tables.step(legal_choices(out[-1][0]["action_mask"], rng)))
        return out

    assert data_equivalence(run(5), run(5), exact=True)
    assert data_equivalence(run(5), run([5, 6, 7]), exact=True)
    assert not data_equivalence(run(5)[0], run(6)[0], exact=True)
    one = TablesEnv(3, "classic")
    one.reset(seed=4)
    assert one.np_random_seed == 4  # Gymnasium's own generator, seeded as its envs seed it
    one.reset(seed=[1, 1, 2])
    hands = [t.state.hands for t in one.tables]
    assert hands[0] == hands[1] != hands[2]
    with pytest.raises(ValueError, match="one seed per table"):
        one.reset(seed=[1, 2])


def test_an_illegal_action_names_the_table_and_moves_no_table() -> None:
    """R-SEAT-1: an action that is not legal at its table raises ActionError naming the
    table and the seat, before any table moves (the earlier tables' legal actions are
    not applied either); a batch of the wrong shape is refused the same way, and a step
    before any reset says to reset first."""
    tables = TablesEnv(3, "partnership")
    with pytest.raises(ValueError, match=r"call reset\(\) before step\(\)"):
        tables.step(np.zeros(3, int))
    observations, _ = tables.reset(seed=np.int64(1))
    before = tables.tables
    actions = legal_choices(observations["action_mask"], np.random.default_rng(0))
    actions[2] = int(np.flatnonzero(observations["action_mask"][2] == 0)[0])
    with pytest.raises(ActionError, match=r"at table 2.*R-SEAT-1"):
        tables.step(actions)
    assert all(a is b for a, b in zip(tables.tables, before, strict=True))
    with pytest.raises(ActionError, match="one int action per table"):
        tables.step(actions[:2])
    with pytest.raises(ValueError, match="num_envs"):
        TablesEnv(0)


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 2**40])
def test_an_action_out_of_range_is_refused_and_a_mask_written_over_checks_nothing(
    bad: int,
) -> None:
    """R-SEAT-1: an action id outside 0..102 (it would index past its table's mask) is
    refused naming the table, before any table moves; the actions are checked against
    the environment's own masks, so a caller writing over the ``copy=False`` mask it
    was handed does not make an illegal action legal."""
    tables = TablesEnv(2, "classic+combined_contracts=True", copy=False)
    observations, _ = tables.reset(seed=5)
    rng = np.random.default_rng(1)
    nearest = min(max(bad, 0), NUM_ACTIONS - 1)  # the id an unchecked index would read
    while not observations["action_mask"][1, nearest]:  # that id legal at table 1 now
        observations = tables.step(legal_choices(observations["action_mask"], rng))[0]
    before = tables.tables
    actions = legal_choices(observations["action_mask"], rng)
    actions[1] = bad
    with pytest.raises(ActionError, match="at table 1"):
        tables.step(actions.astype(np.int64))
    assert all(a.state is b.state for a, b in zip(tables.tables, before, strict=True))
    illegal = int(np.flatnonzero(observations["action_mask"][0] == 0)[0])
    observations["action_mask"][0, illegal] = 1  # the caller's scribble
    actions[:] = legal_choices(observations["action_mask"], rng)
    actions[0] = illegal
    with pytest.raises(ActionError, match="at table 0"):
        tables.step(actions)
    assert all(a.state is b.state for a, b in zip(tables.tables, before, strict=True))


def test_spaces_info_and_copies_follow_gymnasiums_vector_conventions() -> None:
    """The batched spaces are Gymnasium's ``batch_space`` of the single ones; every batch
    is in the observation space; the info converts with Gymnasium's ``DictInfoToList``
    (a ``_key`` mask per key); by default each step's arrays are new, with
    ``copy=False`` they are the environment's own, overwritten by the next step."""
    tables = TablesEnv(4, "classic")
    assert tables.observation_space == batch_space(tables.single_observation_space, 4)
    assert tables.action_space == batch_space(tables.single_action_space, 4)
    assert tables.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    observations, _ = tables.reset(seed=2)
    rng = np.random.default_rng(3)
    for _ in range(30):
        assert tables.observation_space.contains(observations)
        later = tables.step(legal_choices(observations["action_mask"], rng))
        assert later[0]["observation"] is not observations["observation"]
        observations = later[0]
    listed = DictInfoToList(TablesEnv(2, "classic"))
    _, infos = listed.reset(seed=1)
    assert [sorted(i) for i in infos] == [["rewards", "seat"]] * 2
    shared = TablesEnv(2, "classic", copy=False)
    first, _ = shared.reset(seed=1)
    second = shared.step(legal_choices(first["action_mask"], rng))[0]
    assert second["observation"] is first["observation"]


@pytest.mark.parametrize("ruleset", ["partnership", "classic+bad_hand_redeal=True"])
def test_the_table_asks_the_seat_the_engine_asks(ruleset: str) -> None:
    """``Table.to_act`` reads the turn seat whenever the engine has one (the stepping's
    shortcut): it is always the seat :func:`~trixcomplex.next_step` asks or forces
    (R-SEAT-1, R-TX-5), outside the table's own doubling and redeal rounds (R-DBL-2,
    R-OPT-8), over two whole matches of random play."""
    checked = 0
    for seed in range(2):
        rng = random.Random(seed)
        table = Table.new(tc.Ruleset.from_name(ruleset))
        while not table.is_over:
            if table.to_act == CHANCE:
                table = table.deal(rng)
                continue
            if table.window_seat is None and table.redeal_seat is None:
                step = tc.next_step(table.state)
                if isinstance(step, tc.OfferRedeal):
                    step = step.otherwise
                asked = step.move.seat if isinstance(step, tc.Forced) else step.seats[0]
                assert table.to_act == asked
                checked += 1
            table = table.act(rng.choice(table.legal_actions()))
    assert checked > 500


@pytest.mark.parametrize(("ruleset", "deals"), RULESETS[:3])
def test_every_table_is_the_single_table_played_with_the_same_actions(
    ruleset: str, deals: int
) -> None:
    """Between card steps the vector loop keeps a table as its state alone and builds it
    again with ``Table.at`` only when asked: at every step of two matches a table of
    ``TablesEnv.tables`` equals (doubling window, held answer, redeal round and all,
    R-DBL-2, R-OPT-8) the single :class:`Table` that ``act`` and ``deal`` made of the
    same actions and the same seeded deals, and holds the deal runner's same step of
    the last move (what its tracker reads)."""
    n, seed, rng = 2, 3, np.random.default_rng(2)
    tables = TablesEnv(n, ruleset, deals=deals)
    observations, _ = tables.reset(seed=seed)
    rngs = [random.Random(seed + i) for i in range(n)]
    singles = [Table.new(tc.Ruleset.from_name(ruleset), deals) for _ in range(n)]
    ended, restart, steps = [0] * n, [False] * n, 0
    while min(ended) < 2:
        for i in range(n):
            if restart[i]:
                singles[i], restart[i] = Table.new(tc.Ruleset.from_name(ruleset), deals), False
            while singles[i].to_act == CHANCE:
                singles[i] = singles[i].deal(rngs[i])
            got = tables.tables[i]
            assert got == singles[i], (i, steps)
            assert got.steps == singles[i].steps, (i, steps)
        actions = legal_choices(observations["action_mask"], rng)
        observations, _, terminated, _, _ = tables.step(actions)
        for i in range(n):
            if singles[i].is_over:  # the autoreset step: the action ignored
                restart[i] = True
                continue
            singles[i] = singles[i].act(int(actions[i]))
            ended[i] += bool(terminated[i])
        steps += 1
    assert steps > 100


def test_the_benchmark_counts_agent_steps_not_autoresets() -> None:
    """``benchmarks/rl_overhead.py --vector`` counts one agent step per table whose action
    was played: a table's autoreset step (its action ignored) is none; its rounds step
    the tables on from where the last round left them (reset once, before the rounds:
    the steady state), each counted alike."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import rl_overhead

    class Counting(TablesEnv):
        played = resets = calls_to_reset = 0

        def reset(self, **kwargs: Any) -> Any:
            self.calls_to_reset += 1
            return super().reset(**kwargs)

        def step(self, actions: Any) -> Any:
            self.resets += sum(self._over)
            self.played += self.num_envs - sum(self._over)
            return super().step(actions)

    tables = Counting(3, "classic", deals=1, copy=False)
    assert rl_overhead.vector(tables, 150, 1) == tables.played
    assert tables.resets >= 3 and tables.played == 3 * 150 - tables.resets
    tables = Counting(3, "classic", deals=1, copy=False)
    rounds = rl_overhead.Vector(tables, 100, 1)
    counts = [rounds() for _ in range(3)]
    assert tables.calls_to_reset == 1 and sum(counts) == tables.played
    assert tables.played == 3 * 300 - tables.resets and tables.resets >= 3
