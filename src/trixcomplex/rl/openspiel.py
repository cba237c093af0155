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
- The observation tensor is :func:`~trixcomplex.rl.observation_tensor` of the
  player's :class:`~trixcomplex.View`, the observation string its
  :func:`~trixcomplex.rl.observation_string` (with a last line in the redeal
  round, which asks the player).  The information state adds
  whether the table's redeal round asks the player (:func:`redeal_round_asks`,
  under ``bad_hand_redeal``): its tensor is the observation tensor and one
  last entry, 1 in the round (:data:`INFORMATION_STATE_SHAPE`), its string the
  view as canonical JSON (:func:`~trixcomplex.to_json`) with
  ``"redeal_round": true`` added in the round.  The view holds
  the current deal's public history, the finished deals only as scores, so
  the information state does not have perfect recall across deals.
- Returns (terminal): each seat's total, its team's Team Total in a partnership
  ruleset (R-MATCH-7), negated under reversed scores (R-OPT-6).
- ``resample_from_infostate`` draws a world with :func:`~trixcomplex.sample_world`
  (OpenSpiel's ISMCTS uses it); serialization is OpenSpiel's, by action history.
- :meth:`TrixComplexState.from_table` starts a state at any
  :class:`~trixcomplex.rl.table.Table`; :class:`ISMCTSPlayer` is OpenSpiel's
  ISMCTS as a trixcomplex bot, deciding from its seat's view.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Sequence
from typing import Any

from attrs import evolve, frozen

from ..core.cards import ALL_CARDS
from ..core.engine import Phase, apply
from ..core.extras import needs_extra
from ..core.moves import PlayerMove, Timeout
from ..core.playout import playout
from ..core.rulesets import RULESETS, Ruleset
from ..io.actions import NUM_ACTIONS, REDEAL, action_name, move_to_action
from ..io.render import table_text
from ..io.serialize import to_json
from ..knowledge.views import View
from ..knowledge.worlds import sample_world
from .observation import OBSERVATION_SHAPE, Observer
from .table import CHANCE, TERMINAL, Table

with needs_extra("rl", "trixcomplex.rl.openspiel"):  # a missing package names its extra
    import numpy as np
    import numpy.typing as npt
with needs_extra("openspiel", "trixcomplex.rl.openspiel"):
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

__all__ = [
    "GAME_NAME",
    "INFORMATION_STATE_SHAPE",
    "ISMCTSPlayer",
    "TrixComplexGame",
    "TrixComplexState",
    "redeal_round_asks",
]

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
        return TrixComplexState.from_table(
            self.get_game(), evolve(self.table, state=world, held=None, steps=())
        )

    @classmethod
    def from_table(cls, game: TrixComplexGame, table: Table) -> TrixComplexState:
        """The state of ``game`` at ``table`` (which must play ``game.ruleset`` and stop
        after ``game.deals`` deals): a search can start anywhere, not only at a new match.

        >>> import random, pyspiel, trixcomplex as tc
        >>> game = pyspiel.load_game("python_trix_complex", {"deals": 1})
        >>> table = Table.new(tc.PARTNERSHIP, deals=1).deal(random.Random(7))
        >>> state = TrixComplexState.from_table(game, table)
        >>> state.current_player() == table.state.owner, state.legal_actions()
        (True, [54, 55])
        """
        if table.state.ruleset != game.ruleset or table.deals != game.deals:
            raise ValueError(
                f"a table of {table.state.ruleset.name} stopping after {table.deals} deal(s) "
                f"is not a state of {game}"
            )
        state = cls(game)
        state.table = table
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
    return apply(table.state, Timeout())


@frozen
class ISMCTSPlayer:
    """A trixcomplex bot that decides with OpenSpiel's ISMCTS, from its seat's view only.

    Information Set Monte Carlo Tree Search (Cowling, Powley and Whitehouse
    2011; OpenSpiel's ``open_spiel.python.algorithms.ismcts.ISMCTSBot``)
    grows one tree over the seat's information sets: each of its
    ``simulations`` draws a world the seat cannot tell from the real one
    (:meth:`TrixComplexState.resample_from_infostate`, i.e.
    :func:`~trixcomplex.sample_world`), walks the tree by UCT (exploration
    constant ``uct_c``, in points) and scores a new leaf by ``rollouts``
    random playouts.  The search ends with the deal in progress: a state's
    returns are the seats' totals when the deal is over (team totals in a
    partnership ruleset), so a contract is chosen for what it scores now.

    - :meth:`choose` (the :class:`~trixcomplex.bots.Bot` protocol) and
      :meth:`wants_redeal` draw a world from the view with
      :func:`~trixcomplex.sample_world` (ISMCTS resamples from it anyway, so
      any world the seat cannot tell apart from the truth is as good as the
      truth) and search from there;
    - :meth:`step` searches from an OpenSpiel state of this game (a host
      that plays through the adapter), for the seat to act.

    Every random number comes from ``rng``: a decision is reproducible
    from its seed.  The cost grows with ``simulations`` (a few ms each).

    >>> from trixcomplex.bots import RuleBot
    >>> from trixcomplex.host.tournament import play_numbered_match
    >>> player = ISMCTSPlayer(simulations=5)
    >>> outcome = play_numbered_match([player, RuleBot()], 1, 0)
    >>> outcome.teams[0] + outcome.teams[1] == 0   # a whole match, points sum to zero
    True
    """

    simulations: int = 20
    uct_c: float = 200.0
    rollouts: int = 1

    def __attrs_post_init__(self) -> None:
        if self.simulations < 1 or self.rollouts < 1:
            raise ValueError(
                f"ISMCTSPlayer needs at least one simulation and one rollout, not "
                f"simulations={self.simulations}, rollouts={self.rollouts}"
            )

    def choose(self, view: View, legal: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """The legal move ISMCTS picks from a world drawn from ``view``."""
        if len(legal) == 1:
            return legal[0]
        by_action = {move_to_action(m): m for m in legal}
        world = sample_world(view, rng)
        window = view.seat if world.phase is Phase.DOUBLE else None
        table = Table(world, deals=len(world.results) + 1, window_seat=window)
        return by_action[self.step(_state_at(table), rng)]

    def wants_redeal(self, view: View, rng: random.Random) -> bool:
        """Whether ISMCTS demands the redeal a bad TRIX hand may (R-OPT-8)."""
        world = sample_world(view, rng)
        table = Table(world, deals=len(world.results) + 1, redeal_seat=view.seat)
        return self.step(_state_at(table), rng) == REDEAL

    def step(self, state: TrixComplexState, rng: random.Random) -> int:
        """The action ISMCTS picks for the seat to act in ``state`` (searched from
        that seat's information state: every simulation resamples the world)."""
        resample = random.Random(rng.getrandbits(64)).random
        search = _ViewKeyedISMCTS(
            state.get_game(),
            _Playouts(self.rollouts, random.Random(rng.getrandbits(64))),
            uct_c=self.uct_c,
            max_simulations=self.simulations,
            random_state=np.random.RandomState(rng.getrandbits(32)),
        )
        search.set_resampler(lambda s, player: s.resample_from_infostate(player, resample))
        return int(search.step(state))


class _ViewKeyedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS with the information sets keyed by the seat's
    :class:`~trixcomplex.View` itself (two states are in one information set
    exactly when their views are equal) instead of its JSON string, and by
    whether the table's redeal round is asking (:func:`redeal_round_asks`), as the
    information state is."""

    def get_state_key(self, state: TrixComplexState) -> tuple[int, bool, View]:
        player, table = state.current_player(), state.table
        seen = state.observer.view(table.state, player, table.steps)
        return player, redeal_round_asks(state, player), seen


class _Playouts(mcts.Evaluator):  # type: ignore[misc]
    """OpenSpiel's random-rollout evaluation, played by the engine's
    :func:`~trixcomplex.playout` (uniformly random legal moves, as
    ``mcts.RandomRolloutEvaluator``, on plain locals instead of one OpenSpiel
    state per move): the returns at the end of the game, averaged over
    ``rollouts`` playouts."""

    def __init__(self, rollouts: int, rng: random.Random) -> None:
        self.rollouts, self.rng = rollouts, rng

    def evaluate(self, state: TrixComplexState) -> npt.NDArray[np.float64]:
        total = np.zeros(4)
        for _ in range(self.rollouts):
            table = state.table
            start = table.state if table.held is None else apply(table.state, table.held)
            table = evolve(table, state=start, dealt=(), window_seat=None, held=None,
                           redeal_seat=None, steps=())  # fmt: skip
            while not table.is_over:
                table = evolve(table, state=playout(table.state, self.rng))
            total += table.totals()
        return total / self.rollouts

    def prior(self, state: TrixComplexState) -> list[tuple[int, float]]:
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


def _state_at(table: Table) -> TrixComplexState:
    """The OpenSpiel state of ``table`` (in the game of its ruleset and horizon)."""
    return TrixComplexState.from_table(_game(table.state.ruleset.name, table.deals), table)


@functools.cache
def _game(ruleset: str, deals: int) -> TrixComplexGame:
    return TrixComplexGame({"ruleset": ruleset, "deals": deals})


INFORMATION_STATE_SHAPE: tuple[int] = (OBSERVATION_SHAPE[0] + 1,)
"""The information-state tensor's shape: the observation tensor, then one entry set
in the table's redeal round (:func:`redeal_round_asks`)."""


def redeal_round_asks(state: TrixComplexState, player: int) -> bool:
    """Whether the table's redeal round asks ``player`` now (R-OPT-8).

    The round shows in no view: the TRIX owner sees the same when asked whether to
    demand a redeal and, just after, for its first card.  OpenSpiel's algorithms key
    their tables by the information state, which must tell the two questions apart
    (they offer different actions), so the information-state string carries
    ``"redeal_round": true`` and the tensor a last entry of 1 in the round.  The round
    asks every seat in seat order, so it tells nothing about the hands.
    """
    return state.table.redeal_seat == player


class ViewObserver:
    """OpenSpiel's observer protocol over the player's view (tensor and strings).

    The information state is the observation and whether the redeal round asks the
    player (:func:`redeal_round_asks`).
    """

    def __init__(self, information_state: bool) -> None:
        self.information_state = information_state
        shape = INFORMATION_STATE_SHAPE if information_state else OBSERVATION_SHAPE
        self.tensor: npt.NDArray[np.float32] = np.zeros(shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TrixComplexState, player: int) -> None:
        table = state.table
        seen = state.observer.tensor(table.state, player, table.steps)
        if not self.information_state:
            self.tensor[:] = seen
            return
        self.tensor[:-1] = seen
        self.tensor[-1] = float(redeal_round_asks(state, player))

    def string_from(self, state: TrixComplexState, player: int) -> str:
        table = state.table
        seen = state.observer.view(table.state, player, table.steps)
        asked = redeal_round_asks(state, player)
        if self.information_state:
            shown = to_json(seen) | ({"redeal_round": True} if asked else {})
            return json.dumps(shown, sort_keys=True, separators=(",", ":"))
        note = "\nRedeal round: asked whether to demand a redeal" if asked else ""
        return table_text(seen) + note


pyspiel.register_game(_GAME_TYPE, TrixComplexGame)
