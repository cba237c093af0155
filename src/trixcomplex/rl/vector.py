"""A Gymnasium vector environment: many tables of self-play, stepped together.

>>> import numpy as np
>>> from trixcomplex.rl.vector import TablesEnv
>>> tables = TablesEnv(num_envs=8, ruleset="partnership")
>>> observations, info = tables.reset(seed=7)
>>> observations["observation"].shape, observations["action_mask"].shape
((8, 1232), (8, 103))
>>> rng = np.random.default_rng(0)
>>> for _ in range(50):
...     legal = observations["action_mask"]
...     actions = (rng.random(legal.shape) * legal).argmax(axis=1)  # a policy goes here
...     observations, rewards, terminated, truncated, info = tables.step(actions)
>>> info["seat"].shape, rewards.dtype.name, bool(truncated.any())
((8,), 'float64', False)

Every table is a :class:`~trixcomplex.rl.table.Table` played by one policy for
all four seats (self-play), exactly as the PettingZoo environment
(:mod:`trixcomplex.rl.pettingzoo`) plays it, one acting seat at a time:

- **An agent step** is one action of the seat to act at one table; a call
  of :meth:`TablesEnv.step` is ``num_envs`` agent steps.  The seat to act is
  the engine's turn seat, or each seat in turn in the doubling window and
  the redeal round (see :mod:`trixcomplex.rl.table`; a seat with nothing to
  double has the single action ``NOTHING_DOUBLED``, and that is a step too).
  Deals are chance, shuffled by the table's own RNG; they are not steps.
- **Observations** are ``{"observation": (num_envs, 1232) float32,
  "action_mask": (num_envs, 103) int8}``: row ``i`` is the tensor and the
  legal actions of the seat to act at table ``i``, bit for bit the single-table
  ones (:func:`~trixcomplex.rl.observation.observation_tensor` of its
  :func:`~trixcomplex.view`, kept up to date by the same
  :class:`~trixcomplex.rl.observation.SeatsTracker` the PettingZoo and
  Gymnasium environments use, written into the batch).  A mask is the legal
  actions of :meth:`Table.legal_actions <trixcomplex.rl.table.Table.legal_actions>`;
  in a deal's card play, the deal runner's own legal cards of the seat to
  act (or the pass, R-TX-3), which it hands over as it steps the card before
  (:func:`~trixcomplex.core.runner.run_deal`'s move source).  ``info["seat"]``
  says whose observation each row is.
- **Rewards**: ``rewards[i]`` is what this step changed the running total of
  the seat that acted at table ``i`` (its team's Team Total in a partnership
  ruleset, negated under reversed scores: higher is better).
  ``info["rewards"]``, ``(num_envs, 4)``, is what the step changed every
  seat's total, the PettingZoo environment's rewards: summed over a match,
  each seat's column is its final total.
- **Autoreset** is Gymnasium's ``NEXT_STEP`` mode
  (``metadata["autoreset_mode"]``): the step that ends a table's match
  returns ``terminated[i] = True`` and the last observation of the seat that
  moved last (its mask all zeros); the next step ignores ``actions[i]`` and
  starts table ``i``'s next match (reward 0, not terminated).  A match never
  truncates.
- **Seeding**: ``reset(seed=s)`` seeds table ``i``'s RNG with ``s + i``
  (Gymnasium's own convention for vector environments), ``reset(seed=[...])``
  one seed per table; the table's next matches go on with its RNG.  Table
  ``i`` deals what ``pettingzoo.env(seed=s + i)`` deals: the same seed and
  actions give the same trajectories.
- **Actions** that are not legal raise
  :class:`~trixcomplex.io.actions.ActionError` naming the table, before any
  table moves (nothing is applied).

By default each step hands out new arrays; ``copy=False`` hands out the
environment's own batch arrays, overwritten by the next step (no copy: for
a loop that consumes them at once).

There is no PettingZoo parallel form: a parallel environment asks every live
agent for an action each cycle, while here one seat acts at a time and the
taker of a trick leads the next (as :mod:`trixcomplex.rl.pettingzoo` says);
``info["seat"]`` routes each row to its seat's policy.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..core.engine import MatchState
from ..core.moves import PASSES, PLAYS
from ..core.rules import standings
from ..core.rulesets import Ruleset
from ..core.runner import STOP, CardStep, MoveSource, run_deal
from ..io.actions import NUM_ACTIONS, PASS, ActionError
from .observation import OBSERVATION_SHAPE, SeatsTracker
from .pettingzoo import _ruleset, observation_space
from .table import CHANCE, TERMINAL, Table
from .table import totals as totals_of

__all__ = ["TablesEnv"]

_Obs = dict[str, npt.NDArray[Any]]
_Actions = npt.NDArray[np.integer[Any]] | Sequence[int]
_Floats = npt.NDArray[np.float64]
_Bools = npt.NDArray[np.bool_]
_NO_CHANGE = (0, 0, 0, 0)
_PASS_ONLY = (PASS,)


def _one_move(ask: list[Any]) -> MoveSource:
    """A move source for :func:`~trixcomplex.core.runner.run_deal` that plays ``ask[0]``
    and stops before the next move, keeping that seat's legal cards in ``ask[1]``."""

    def source(turn: int, legal: int) -> Any:
        move = ask[0]
        if move is None:
            ask[1] = legal
            return STOP
        ask[0] = None
        return move

    return source


class TablesEnv(VectorEnv[_Obs, _Actions, npt.NDArray[Any]]):
    """``num_envs`` tables of ``ruleset`` in self-play, stepped together (see the module
    docs).  ``deals``: end each match after this many deals (0: the whole match)."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (Gymnasium's)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int,
        ruleset: str | Ruleset = "partnership",
        deals: int = 0,
        copy: bool = True,
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise ValueError(f"num_envs must be an int of at least 1, not {num_envs!r}")
        self.num_envs = num_envs
        self.ruleset = _ruleset(ruleset)
        Table.new(self.ruleset, deals)  # deals checked
        self.deals = deals
        self.copy = copy
        self.render_mode = None
        self.single_observation_space = observation_space()
        self.single_action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        n = num_envs
        # The batch arrays every step writes in place (handed out as copies unless copy=False):
        self._tensors = np.zeros((n, *OBSERVATION_SHAPE), np.float32)
        self._masks = np.zeros((n, NUM_ACTIONS), np.int8)
        self._legal_masks = np.zeros((n, NUM_ACTIONS), np.int8)  # checked: the env's own
        self._seat_of = np.zeros(n, np.int64)
        # The trackers' buffers, one block: table i's seat s's tensor is _trackers_block[i,
        # 1 + s], so a step's observations are one take of whole rows (see _observe).
        self._trackers_block = np.zeros((n, 5, *OBSERVATION_SHAPE), np.float32)
        self._tracked_rows = self._trackers_block.reshape(n * 5, *OBSERVATION_SHAPE)
        self._first_rows = np.arange(1, 5 * n, 5)  # table i's seat 0's row
        self._rows_taken = np.zeros(n, np.intp)
        self._everywhere = np.ones(n, np.bool_)  # the info masks: every table has each key
        self._everywhere_index = np.arange(n)
        # The deal runner's move source for one card step (see step): ask[0] is the move
        # to play; asked for the next seat's move, it keeps that seat's legal cards in
        # ask[1] and stops the run.
        self._ask: list[Any] = [None, 0]
        self._source = _one_move(self._ask)
        # Each table's match: the table, its RNG, its tracker, the seats' totals, the seat
        # to act (its last mover once over) and its legal actions:
        self._tables: list[Table | None] = []  # None: Table.at(the state) (see step)
        self._states: list[MatchState] = []
        self._last: list[tuple[CardStep, ...]] = []  # the runner's step of the last move
        self._rngs: list[random.Random] = []
        self._trackers: list[SeatsTracker] = []
        self._totals: list[tuple[int, int, int, int]] = []
        self._seats: list[int] = []
        self._cards: list[int] = []  # the runner's legal cards of the seat to act, as bits
        self._listed: dict[int, tuple[int, ...]] = {}  # else the table's listed actions
        self._over: list[bool] = []

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[_Obs, dict[str, Any]]:
        """A new match at every table, each table's RNG seeded (see the module docs):
        the first observations and the info."""
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, (int, np.integer)):
            seed = int(seed)
            super().reset(seed=seed)  # the environment's own np_random, as Gymnasium seeds it
            seeds = [seed + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"{len(seeds)} seeds for {n} tables: one seed per table")
        self._rngs = [random.Random(s) for s in seeds]
        tables = [self._new_table(self._rngs[i]) for i in range(n)]
        self._tables = list[Table | None](tables)
        self._states = [table.state for table in tables]
        self._last = [table.steps for table in tables]
        self._trackers = [SeatsTracker(self._trackers_block[i]) for i in range(n)]
        self._totals = [table.totals() for table in tables]
        self._seats = [table.to_act for table in tables]
        self._cards = [0] * n
        self._listed = {i: table.legal_actions() for i, table in enumerate(tables)}
        self._over = [False] * n
        self._observe()
        return self._observations(), self._info(np.zeros((n, 4)))

    def _new_table(self, rng: random.Random) -> Table:
        """A new match dealt by ``rng``, up to its first seat to act."""
        table = Table.new(self.ruleset, self.deals)
        while table.to_act == CHANCE:
            table = table.deal(rng)
        return table

    def step(self, actions: _Actions) -> tuple[_Obs, _Floats, _Bools, _Bools, dict[str, Any]]:
        """Play ``actions[i]`` at each table ``i`` (ignored at a table whose match ended on
        the last step: it starts its next match): ``(observations, rewards, terminated,
        truncated, info)``."""
        n = self.num_envs
        if not self._tables:
            raise ValueError("no match is dealt yet: call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (n,) or chosen.dtype.kind not in "iu":
            raise ActionError(chosen.shape, f"one int action per table: shape ({n},)", "R-SEAT-1")
        moves: list[int] = chosen.tolist()
        self._check(chosen, moves)  # every action checked before any table moves
        tables, seats, over, cards = self._tables, self._seats, self._over, self._cards
        listed: dict[int, tuple[int, ...]] = {}
        changes = np.zeros((n, 4))
        rewards = np.zeros(n)
        terminated = np.zeros(n, np.bool_)
        rngs, totals, states, last, deals = (
            self._rngs,
            self._totals,
            self._states,
            self._last,
            self.deals,
        )
        ask, source, ruleset = self._ask, self._source, self.ruleset
        table: Table | None
        steps: tuple[CardStep, ...]
        for i in range(n):
            if over[i]:  # NEXT_STEP autoreset
                table = tables[i] = self._new_table(rngs[i])
                states[i], last[i] = table.state, table.steps
                self._trackers[i] = SeatsTracker(self._trackers_block[i])
                totals[i] = table.totals()
                seats[i], over[i] = table.to_act, False
                listed[i] = table.legal_actions()
                continue
            seat, action, table = seats[i], moves[i], tables[i]
            if action <= PASS and (
                table is None or (table.window_seat is None and table.redeal_seat is None)
            ):
                # A card or a TRIX pass in a deal's card play (no window or redeal round
                # open): Table.act's card branch, the deal runner's one step, without a
                # Table built around it.  The runner takes the move from ``source`` (the
                # action was checked against the mask above) and, asking ``source`` for
                # the next seat's move, hands it that seat's legal cards: the next mask
                # (R-CX-2, R-TX-2; none: the pass, R-TX-3), which the runner decided.
                # While the deal goes on, no window or round opens (Table.at) and the
                # runner's step names the seat to play next, so the table is kept as its
                # state alone (tables[i] None: it is Table.at(state, deals)), built only
                # when the deal ends or asked for.
                ask[0] = PLAYS[seat][action] if action < PASS else PASSES[seat][0]
                ran: list[CardStep] = []
                state = run_deal(states[i], source, (), 0, ran)
                card_step = ran[0]
                states[i] = state
                steps = last[i] = (card_step,)
                if not card_step.deal_over:  # most steps: done here
                    tables[i] = None
                    seats[i] = card_step.turn  # type: ignore[assignment]
                    legal = cards[i] = ask[1]
                    if not legal:
                        listed[i] = _PASS_ONLY
                    gained = card_step.points  # a trick's points change the totals
                    if gained is not None and gained != _NO_CHANGE:
                        # totals() is standings() of the seats' scores, the deal's points
                        # so far (a trick deal's) added: sums and a sign, so what a trick
                        # changed is standings() of its points (R-MATCH-7, R-OPT-6).
                        change = standings(gained, ruleset)
                        before = totals[i]
                        totals[i] = (before[0] + change[0], before[1] + change[1],
                                     before[2] + change[2], before[3] + change[3])  # fmt: skip
                        changes[i] = change
                        rewards[i] = change[seat]
                    continue
                table = tables[i] = Table.at(state, deals, steps)
                to_act: int = table.to_act
            else:
                table = table or Table.at(states[i], deals)
                # An answer in the doubling window or the redeal round that leaves it open
                # changes no total (nothing is scored before a card is played): the
                # totals are not read again.
                in_round = table.window_seat is not None or table.redeal_seat is not None
                table = tables[i] = table.act(action)
                states[i] = table.state
                steps = last[i] = table.steps
                to_act = table.to_act
                if in_round and (table.window_seat is not None or table.redeal_seat is not None):
                    seats[i], cards[i] = to_act, 0
                    listed[i] = table.legal_actions()
                    continue
            if to_act == CHANCE:
                assert table is not None
                rng = rngs[i]
                while to_act == CHANCE:
                    table = table.deal(rng)
                    to_act = table.to_act
                tables[i], states[i] = table, table.state
                steps = last[i] = table.steps
            # The totals change only with a trick's points or a deal's end (the runner's
            # CardStep says), else with a move that is not a card (rare): read then only.
            if not steps or steps[-1].deal_over or (steps[-1].points or _NO_CHANGE) != _NO_CHANGE:
                self._pay(i, seat, changes, rewards)
            if to_act == TERMINAL:
                terminated[i] = over[i] = True
                cards[i] = 0
            else:
                seats[i] = to_act
                if table is not None:  # a table built: its own listing of the actions
                    cards[i] = 0
                    listed[i] = table.legal_actions()
        self._listed = listed
        self._observe()
        return (self._observations(), rewards, terminated, np.zeros(n, np.bool_),
                self._info(changes))  # fmt: skip

    def _pay(self, i: int, seat: int, changes: _Floats, rewards: _Floats) -> None:
        """Read table ``i``'s totals again and write what they changed (``seat`` moved)."""
        before, after = self._totals[i], totals_of(self._states[i])
        if after != before:
            self._totals[i] = after
            changes[i] = (after[0] - before[0], after[1] - before[1],
                          after[2] - before[2], after[3] - before[3])  # fmt: skip
            rewards[i] = after[seat] - before[seat]

    def _check(self, chosen: npt.NDArray[np.integer[Any]], moves: list[int]) -> None:
        """Raise :class:`ActionError` naming the first table whose action is not in its
        mask (a table whose match ended takes any action)."""
        masks = self._legal_masks
        if (chosen < NUM_ACTIONS).all() and (chosen >= 0).all():
            if masks[self._everywhere_index, chosen].all():  # ufuncs only: np.clip costs more
                return
            legal = masks[self._everywhere_index, chosen] != 0
        else:  # an id out of range: no mask entry is read for it
            legal = np.zeros(self.num_envs, np.bool_)
            inside = (chosen < NUM_ACTIONS) & (chosen >= 0)
            legal[inside] = masks[self._everywhere_index[inside], chosen[inside]] != 0
        if not legal.all():
            legal |= np.array(self._over, np.bool_)
            if not legal.all():
                i = int(legal.argmin())
                allowed = np.flatnonzero(masks[i]).tolist()
                raise ActionError(
                    moves[i], f"not a legal action of seat {self._seats[i]} at table {i} "
                    f"(legal: {', '.join(map(str, allowed))})", "R-SEAT-1",
                )  # fmt: skip

    def _observe(self) -> None:
        """Write every table's observation and mask into the batch arrays."""
        trackers, states, seats, last = self._trackers, self._states, self._seats, self._last
        for tracker, state, seat, steps in zip(trackers, states, seats, last, strict=True):
            tracker.follow(state, seat, steps)
        # Each table's tracker keeps every seat's tensor in full: the movers' are copied
        # into the batch whole, by one take of rows (a take of each tensor's entries
        # turned to its seat cost a vector step 9%).
        self._seat_of[:] = seats
        taken = self._rows_taken
        np.add(self._first_rows, self._seat_of, out=taken)
        self._tracked_rows.take(taken, axis=0, out=self._tensors, mode="clip")
        # The masks: the runner's legal card sets, one bit a card (the card's action id),
        # unpacked at once; then the rows of the tables whose actions are listed.
        masks = self._legal_masks
        packed = np.array(self._cards, "<u8").view(np.uint8).reshape(self.num_envs, 8)
        masks[:, :64] = np.unpackbits(packed, axis=1, bitorder="little")
        masks[:, 64:] = 0
        if self._listed:
            width = NUM_ACTIONS
            masks.put([i * width + a for i, legal in self._listed.items() for a in legal], 1)

    def _observations(self) -> _Obs:
        if self.copy:
            return {"observation": self._tensors.copy(), "action_mask": self._legal_masks.copy()}
        np.copyto(self._masks, self._legal_masks)
        return {"observation": self._tensors, "action_mask": self._masks}

    def _info(self, changes: npt.NDArray[np.float64]) -> dict[str, Any]:
        """Gymnasium's vector info: per key an array over the tables, and ``_key`` saying
        which tables have it (all)."""
        everywhere = self._everywhere.copy() if self.copy else self._everywhere
        seat = self._seat_of.copy() if self.copy else self._seat_of
        return {"seat": seat, "_seat": everywhere, "rewards": changes, "_rewards": everywhere}

    @property
    def tables(self) -> tuple[Table, ...]:
        """The tables, as they stand (their matches' states)."""
        deals = self.deals
        return tuple(table or Table.at(state, deals, steps)
                     for table, state, steps in zip(self._tables, self._states, self._last,
                                                    strict=True))  # fmt: skip
