"""A PettingZoo AEC environment: the four seats of a match, one acting at a time.

>>> from trixcomplex.rl.pettingzoo import env
>>> game = env(ruleset="partnership", seed=3)
>>> game.reset()
>>> game.possible_agents
['seat_0', 'seat_1', 'seat_2', 'seat_3']
>>> returns = dict.fromkeys(game.possible_agents, 0.0)
>>> for agent in game.agent_iter():
...     observation, reward, termination, truncation, info = game.last()
...     returns[agent] += reward
...     if termination or truncation:
...         action = None
...     else:
...         action = int(observation["action_mask"].nonzero()[0][0])  # a policy goes here
...     game.step(action)
>>> teams = game.unwrapped.table.view(None).score.teams
>>> returns["seat_0"] == returns["seat_2"] == teams[0], returns["seat_1"] == teams[1]
(True, True)

- Agents ``seat_0`` … ``seat_3`` are the seats.  The seat to act is the
  engine's turn seat; in the doubling window every seat is asked in seat
  order and a seat with nothing to double has the single action
  :data:`~trixcomplex.io.actions.NOTHING_DOUBLED` (see
  :mod:`trixcomplex.rl.table`), so the turn order reveals nothing (R-HID-2).
- Observations are ``{"observation": observation_tensor(view),
  "action_mask": int8 mask}``: the agent's own view only; the mask is all
  zeros for an agent not to act.  Each agent's view and tensor are brought
  up to date when it is observed, over the moves since its last
  observation (:class:`~trixcomplex.rl.observation.Observer`).
- Deals are chance, shuffled by the environment's RNG, seeded by
  ``seed`` (at construction or in :meth:`reset`).
- Rewards are the changes of each seat's running total (its team's Team
  Total in a partnership ruleset), charged as tricks are taken and deals
  end; negated under reversed scores, so higher is always better.
- ``parallel_env`` does not exist: PettingZoo's ``aec_to_parallel`` needs
  every live agent to act once per cycle in a fixed order, while here the
  taker of a trick leads the next one and a TRIX seat with an empty hand is
  skipped.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from ..core.extras import needs_extra
from ..core.rulesets import Ruleset
from ..io.actions import NUM_ACTIONS
from ..io.render import table_text
from .observation import OBSERVATION_BOUND, OBSERVATION_SHAPE, Observer
from .table import Table

with needs_extra("rl", "trixcomplex.rl.pettingzoo"):  # a missing package names its extra
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

__all__ = ["AGENTS", "env", "raw_env"]

AGENTS = ["seat_0", "seat_1", "seat_2", "seat_3"]
"""The agent names, by seat."""


def _ruleset(ruleset: str | Ruleset) -> Ruleset:
    return ruleset if isinstance(ruleset, Ruleset) else Ruleset.from_name(ruleset)


def observation_space() -> spaces.Dict:
    """The space of one agent's observation (the same for every agent)."""
    return spaces.Dict(
        {
            "observation": spaces.Box(
                -OBSERVATION_BOUND, OBSERVATION_BOUND, OBSERVATION_SHAPE, np.float32
            ),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }
    )


class raw_env(AECEnv):  # type: ignore[misc]
    """The environment without PettingZoo's wrappers; :func:`env` is the usual entry."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "trix_complex_v1",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        ruleset: str | Ruleset = "partnership",
        seed: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.ruleset = _ruleset(ruleset)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self._seed = seed
        self._observation_space = observation_space()
        self._action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_spaces = dict.fromkeys(AGENTS, self._observation_space)
        self.action_spaces = dict.fromkeys(AGENTS, self._action_space)
        self._rng = random.Random(seed)
        self.table = Table.new(self.ruleset)
        self._observer = Observer()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        seat = AGENTS.index(agent)
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if self.table.to_act == seat:
            mask[list(self.table.legal_actions())] = 1
        table = self.table
        tensor = self._observer.tensor(table.state, seat, table.steps)  # a new array, the caller's
        return {"observation": tensor, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed = seed
        self._rng = random.Random(self._seed)
        self._action_space.seed(self._seed)
        self.table = Table.new(self.ruleset)
        self._observer = Observer()  # each seat's tensor, brought up to date when observed
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self._totals = self.table.totals()
        self._advance()

    def _advance(self) -> None:
        """Deal while chance is to act; then select the seat to act (or end)."""
        while self.table.to_act == -1:
            self.table = self.table.deal(self._rng)
        if self.table.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = AGENTS[self.table.to_act]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        self._cumulative_rewards[agent] = 0.0
        self.table = self.table.act(int(action))
        totals = self.table.totals()
        self.rewards = {a: float(totals[s] - self._totals[s]) for s, a in enumerate(AGENTS)}
        self._totals = totals
        self._advance()
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        """The spectator's view of the table as text (nothing hidden)."""
        if self.render_mode is None:
            return None
        return table_text(self.table.view(None))

    def close(self) -> None:
        pass


def env(
    ruleset: str | Ruleset = "partnership", seed: int | None = None,
    render_mode: str | None = None,
) -> AECEnv:  # fmt: skip
    """The AEC environment of a match of ``ruleset`` (a name or a :class:`~trixcomplex.Ruleset`),
    its deals shuffled by an RNG seeded with ``seed``, wrapped in PettingZoo's
    order-enforcing and bounds-checking wrappers."""
    game: AECEnv = raw_env(ruleset=ruleset, seed=seed, render_mode=render_mode)
    game = wrappers.AssertOutOfBoundsWrapper(game)
    return wrappers.OrderEnforcingWrapper(game)
