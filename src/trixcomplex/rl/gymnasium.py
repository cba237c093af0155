"""A Gymnasium environment: one seat learns, the three others are played by bots.

>>> from trixcomplex.bots import RuleBot
>>> from trixcomplex.rl.gymnasium import SeatEnv
>>> env = SeatEnv(seat=0, opponents=RuleBot(), ruleset="partnership")
>>> observation, info = env.reset(seed=1)
>>> total, done = 0.0, False
>>> while not done:
...     action = int(observation["action_mask"].nonzero()[0][-1])  # a policy goes here
...     observation, reward, terminated, truncated, info = env.step(action)
...     total += reward
...     done = terminated or truncated
>>> total == env.table.view(None).score.teams[0]
True

- The observation is ``{"observation": observation_tensor(view), "action_mask":
  int8 mask}`` of the learning seat's own view (see :mod:`trixcomplex.rl.observation`).
- ``opponents`` is one :class:`~trixcomplex.bots.Bot` for the three other
  seats, or a sequence of three (for the seats after ``seat``, in seat
  order).  Bots see only their own views and legal moves.
- The reward is the change of the seat's running total (its team's in a
  partnership ruleset; negated under reversed scores) since its last action.
- An illegal action ends the episode with ``illegal_reward`` and
  ``info["illegal_action"] = True`` (nothing is applied).
- The doubling window asks every seat in seat order (see
  :mod:`trixcomplex.rl.table`); the deals are shuffled by the environment's
  seeded RNG (``reset(seed=...)``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..bots.base import Bot
from ..core.extras import needs_extra
from ..core.rulesets import Ruleset
from ..io.actions import NUM_ACTIONS
from ..io.render import table_text
from .observation import Observer
from .pettingzoo import _ruleset, observation_space
from .table import CHANCE, Table

with needs_extra("rl", "trixcomplex.rl.gymnasium"):  # a missing package names its extra
    import gymnasium
    import numpy as np

__all__ = ["SeatEnv"]

_Obs = dict[str, Any]


class SeatEnv(gymnasium.Env[_Obs, np.int64]):
    """One seat of a match as a single-agent environment (see the module docs)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012  (Gymnasium's)

    def __init__(
        self,
        seat: int = 0,
        opponents: Bot | Sequence[Bot] | None = None,
        ruleset: str | Ruleset = "partnership",
        illegal_reward: float = -1000.0,
        render_mode: str | None = None,
    ) -> None:
        if seat not in (0, 1, 2, 3):
            raise ValueError(f"seat must be 0..3, not {seat!r} (R-SEAT-1)")
        if opponents is None:
            from ..bots import RandomBot

            opponents = RandomBot()
        bots = list(opponents) if isinstance(opponents, Sequence) else [opponents] * 3
        if len(bots) != 3:
            raise ValueError(f"opponents: one bot or three, not {len(bots)}")
        self.seat = seat
        self.bots = {(seat + 1 + i) % 4: bot for i, bot in enumerate(bots)}
        self.ruleset = _ruleset(ruleset)
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self.table = Table.new(self.ruleset)
        self._observer = Observer()
        self._rng = random.Random(0)
        self._total = 0

    def _observation(self) -> _Obs:
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if self.table.to_act == self.seat:
            mask[list(self.table.legal_actions())] = 1
        table = self.table
        tensor = self._observer.tensor(table.state, self.seat, table.steps)  # the caller's
        return {"observation": tensor, "action_mask": mask}

    def _play_others(self) -> None:
        """Deal and let the bots move until the learning seat is to act or the match is over."""
        table = self.table
        while not table.is_over and table.to_act != self.seat:
            seat = table.to_act
            if seat == CHANCE:
                table = table.deal(self._rng)
                continue
            seen = self._observer.view(table.state, seat, table.steps)
            table = table.act(table.bot_action(self.bots[seat], self._rng, seen))
        self.table = table

    def _reward(self) -> float:
        total = self.table.totals()[self.seat]
        reward, self._total = total - self._total, total
        return float(reward)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[_Obs, dict[str, Any]]:
        """A new match (deals drawn from ``seed``), played by the bots up to the seat's
        first decision: the seat's observation and an empty info dict."""
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(2**62)))
        self.table = Table.new(self.ruleset)
        self._observer = Observer()  # every seat's view and tensor, up to date when asked for
        self._total = 0
        self._play_others()
        self._reward()
        return self._observation(), {}

    def step(self, action: np.int64 | int) -> tuple[_Obs, float, bool, bool, dict[str, Any]]:
        """Play ``action`` (an action id) for the seat, then the bots up to its next
        decision: ``(observation, reward, terminated, truncated, info)``."""
        if self.table.is_over:
            raise ValueError("the match is over: call reset()")
        if int(action) not in self.table.legal_actions():
            return self._observation(), self.illegal_reward, True, False, {"illegal_action": True}
        self.table = self.table.act(int(action))
        self._play_others()
        return self._observation(), self._reward(), self.table.is_over, False, {}

    def render(self) -> str | None:
        """The learning seat's view of the table as text."""
        if self.render_mode != "ansi":
            return None
        return table_text(self.table.view(self.seat))
