"""The OpenSpiel game ``"python_trix_complex"``: importing this module registers it.

>>> import pyspiel
>>> import trixcomplex.rl.openspiel  # registers the game
>>> game = pyspiel.load_game("python_trix_complex", {"ruleset": "classic", "deals": 1})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())   # the deal, one card at a time
(True, 52)
>>> for card in range(52):
...     state.apply_action(card)
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()][:2]
(2, ['choose TRIX', 'choose KING_OF_HEARTS'])

- Parameters: ``ruleset`` (a preset or variant name, default ``"partnership"``;
  in a game string write a variant's options with ``:`` and ``;``, as in
  ``python_trix_complex(ruleset=classic+bad_hand_redeal:True;show_twos:True)``)
  and ``deals`` (the game ends after that many finished deals; 0, the
  default, plays the whole match).
- Chance: each deal is 52 explicit chance nodes, one card each, uniform over
  the cards not dealt yet; the ``i``-th card dealt goes to seat ``i % 4``
  (R-MATCH-2), as in OpenSpiel's Hearts and Bridge.
- Players are the seats; actions are :mod:`trixcomplex.io.actions` ids.  In the
  doubling window every seat is asked in seat order (see
  :mod:`trixcomplex.rl.table`), so the turn order reveals nothing (R-HID-2).
- Observation and information-state tensors are
  :func:`~trixcomplex.rl.observation_tensor` of the player's
  :class:`~trixcomplex.View`; the observation string is its
  :func:`~trixcomplex.rl.observation_string`, the information-state string
  the view as canonical JSON (:func:`~trixcomplex.to_json`).  The view holds
  the current deal's public history, the finished deals only as scores, so
  the information state does not have perfect recall across deals.
- Returns (terminal): each seat's total, its team's Team Total in a partnership
  ruleset (R-MATCH-7), negated under reversed scores (R-OPT-6).
- ``resample_from_infostate`` draws a world with :func:`~trixcomplex.sample_world`
  (OpenSpiel's ISMCTS uses it); serialization is OpenSpiel's, by action history.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel
from attrs import evolve

from ..core.cards import ALL_CARDS
from ..core.engine import Phase
from ..core.moves import Timeout
from ..core.rulesets import RULESETS, Ruleset
from ..io.actions import NUM_ACTIONS, action_name
from ..io.render import table_text
from ..io.serialize import to_json
from ..knowledge.worlds import sample_world
from .observation import OBSERVATION_SHAPE, Observer
from .table import CHANCE, TERMINAL, Table

__all__ = ["GAME_NAME", "TrixComplexGame", "TrixComplexState"]

GAME_NAME = "python_trix_complex"
"""The name the game is registered under."""

_MAX_DEALS = 4 * max(r.deals_per_kingdom for r in RULESETS.values())
_POINTS_PER_DEAL = 1000  # no seat or team wins or loses more in one deal

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Trix Complex (trixcomplex: partnership, individual and classic Trix)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"ruleset": "partnership", "deals": 0},
)


class TrixComplexGame(pyspiel.Game):  # type: ignore[misc]
    """The game; build it with ``pyspiel.load_game("python_trix_complex", {...})``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_GAME_TYPE.parameter_specification, **(params or {})}
        name = str(params["ruleset"]).replace(":", "=").replace(";", ",")
        self.ruleset = Ruleset.from_name(name)
        # OpenSpiel's game strings split on "=" and ",": spell the options with ":" and ";".
        params["ruleset"] = name.replace("=", ":").replace(",", ";")
        self.deals = int(params["deals"])
        deals = self.deals or self.ruleset.deals_per_match
        # Per deal: 52 cards dealt, 52 laid or played, up to 3 passes per card laid,
        # a choice and 4 window answers; twice over for redeals.
        per_deal = 52 + 52 * 4 + 1 + 4
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=4,
            min_utility=-float(_POINTS_PER_DEAL * deals),
            max_utility=float(_POINTS_PER_DEAL * deals),
            utility_sum=None,
            max_game_length=2 * per_deal * deals,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> TrixComplexState:
        return TrixComplexState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ViewObserver:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ViewObserver(information_state=perfect_recall)


class TrixComplexState(pyspiel.State):  # type: ignore[misc]
    """A state of the game: a :class:`~trixcomplex.rl.table.Table`."""

    def __init__(self, game: TrixComplexGame) -> None:
        super().__init__(game)
        self.table = Table.new(game.ruleset, game.deals)
        # The players' views and tensors, brought up to date when asked for; a clone
        # (a deep copy) or an unpickled state starts with an empty one.
        self.observer = Observer()

    def current_player(self) -> int:
        seat = self.table.to_act
        if seat == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if seat == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.table.legal_actions()) if player == self.table.to_act else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cards = self.table.chance_outcomes()
        return [(int(c), 1.0 / len(cards)) for c in cards]

    def _apply_action(self, action: int) -> None:
        if self.table.to_act == CHANCE:
            self.table = self.table.deal_card(action)
        else:
            self.table = _close_resampled_window(self.table.act(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {ALL_CARDS[action]}"
        return action_name(action)

    def is_terminal(self) -> bool:
        return self.table.is_over

    def returns(self) -> list[float]:
        if not self.table.is_over:
            return [0.0, 0.0, 0.0, 0.0]
        return [float(t) for t in self.table.totals()]

    def resample_from_infostate(self, player: int, sampler: Any) -> TrixComplexState:
        """A state ``player`` cannot tell from this one, drawn by :func:`~trixcomplex.sample_world`.

        In the doubling window, a held answer of another seat is dropped (the
        sample has it unanswered); seats asked earlier in the round whose
        answers the sample lacks double nothing when the round ends (R-DBL-3).
        """
        rng = random.Random(int(sampler() * 2**52))
        world = sample_world(self.observer.view(self.table.state, player), rng)
        state = TrixComplexState(self.get_game())
        state.table = evolve(self.table, state=world, held=None, steps=())
        return state

    def __str__(self) -> str:
        return (
            table_text(self.table.view(None))
            + "\nhands: "
            + " | ".join(" ".join(str(c) for c in self.table.state.hand(s)) for s in range(4))
        )


def _close_resampled_window(table: Table) -> Table:
    """A round that ended with the engine's window still open (only in a world drawn by
    ``resample_from_infostate``) is closed by a timeout: the unanswered double nothing."""
    if table.window_seat is None and table.state.phase is Phase.DOUBLE:
        return evolve(table, state=_timeout(table), window_seat=None, steps=())
    return table


def _timeout(table: Table) -> Any:
    from ..core.engine import apply

    return apply(table.state, Timeout())


class ViewObserver:
    """OpenSpiel's observer protocol over the player's view (tensor and strings)."""

    def __init__(self, information_state: bool) -> None:
        self.information_state = information_state
        self.tensor: npt.NDArray[np.float32] = np.zeros(OBSERVATION_SHAPE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TrixComplexState, player: int) -> None:
        table = state.table
        self.tensor[:] = state.observer.tensor(table.state, player, table.steps)

    def string_from(self, state: TrixComplexState, player: int) -> str:
        table = state.table
        seen = state.observer.view(table.state, player, table.steps)
        if self.information_state:
            return json.dumps(to_json(seen), sort_keys=True, separators=(",", ":"))
        return table_text(seen)


pyspiel.register_game(_GAME_TYPE, TrixComplexGame)
