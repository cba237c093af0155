"""The sequential table the adapters play on: one seat acts at a time, by action id.

Game-AI frameworks (OpenSpiel, PettingZoo's AEC API, Gymnasium) want exactly
one actor at a time: a chance node or one player.  The engine has two
moments where several seats may move:

- **The doubling window** (R-DBL-2, R-DBL-3): every asked seat answers in
  secret, in any order.  Who was asked must stay hidden (R-HID-2), so the
  table asks *all four seats in seat order*, 0 to 3: a seat that holds no
  doublable card (or has answered) has the single legal action
  :data:`~trixcomplex.io.actions.NOTHING_DOUBLED`, which the table absorbs.
  The answer that would close the window is held back until seat 3 has
  answered, so when the window closes tells nothing either.
- **A bad TRIX hand** (R-OPT-8) may demand a redeal out of turn, before the
  first card or pass, and who holds one is secret.  With ``bad_hand_redeal``
  the table opens every TRIX deal with a *redeal round*: seats 0 to 3 are
  asked in order, each with the actions :data:`~trixcomplex.io.actions.PASS`
  (no redeal) and, for the bad hand only, :data:`~trixcomplex.io.actions.REDEAL`.
  A redeal deals anew at once; otherwise the owner plays first.

Otherwise the seat to act is ``state.turn`` (public), and a deal is chance:
:meth:`Table.deal` shuffles with an RNG, or :meth:`Table.deal_card` adds one
card at a time (OpenSpiel's explicit chance nodes; card ``i`` goes to seat
``i % 4``, R-MATCH-2).

>>> import random
>>> import trixcomplex as tc
>>> table = Table.new(tc.PARTNERSHIP).deal(random.Random(7))
>>> table.to_act == table.state.owner, table.legal_actions()
(True, (54, 55))
>>> table = table.act(54)   # COMPLEX: the window opens; seats are asked 0, 1, 2, 3
>>> table.to_act, table.window_seat
(0, 0)
"""

from __future__ import annotations

import random

from attrs import evolve, field, frozen

from ..bots import Bot, offer_redeal
from ..core.cards import ALL_CARDS, Card
from ..core.engine import MatchState, Phase, apply, apply_step, new_match, score
from ..core.errors import IllegalMoveError
from ..core.moves import PASSES, PLAYS, Deal, Double
from ..core.rules import redeal_seat, redeal_window, standings
from ..core.rulesets import Ruleset
from ..core.runner import CardStep
from ..core.steps import Ask, DealCards, Forced, OfferRedeal, Step, next_step
from ..io.actions import (
    NOTHING_DOUBLED,
    PASS,
    REDEAL,
    action_to_move,
    legal_actions,
    move_to_action,
)
from ..knowledge.views import View, view

__all__ = ["CHANCE", "TERMINAL", "Table", "totals"]

CHANCE = -1
"""``Table.to_act`` while a card is to be dealt."""
TERMINAL = -4
"""``Table.to_act`` once the game is over."""

_NOTHING = (NOTHING_DOUBLED,)
_NO_REDEAL = (PASS,)
# Phases read in the methods as module constants: on Python 3.11 an enum member read
# from its class (``Phase.OVER`` in a function) is not specialized, about 150 ns against
# 20 for a global (see core/state.py); ``is_over`` is read at every step.
_OVER, _DEAL, _DOUBLE = Phase.OVER, Phase.DEAL, Phase.DOUBLE


def _after_offers(state: MatchState) -> Step:
    """:func:`~trixcomplex.next_step` of ``state``, any redeal offer settled: the
    table's redeal round asks every seat before anyone plays (R-OPT-8), so an
    :class:`~trixcomplex.OfferRedeal` still standing was declined there."""
    step = next_step(state)
    return step.otherwise if type(step) is OfferRedeal else step


@frozen
class Table:
    """A match played one actor at a time (see the module docs).

    - ``state``: the engine's state.
    - ``dealt``: the cards dealt so far of the deal in progress (card by card).
    - ``window_seat``: the seat asked now in the doubling window, else ``None``.
    - ``held``: the answer that closes the window, held until seat 3 has answered.
    - ``redeal_seat``: the seat asked now in the redeal round, else ``None``.
    - ``deals``: end the game after this many finished deals (0: the whole match).
    - ``steps``: the deal runner's :class:`~trixcomplex.core.runner.CardStep` of the
      card or pass that led to ``state`` (``()`` after any other action), for
      the observers to read (:meth:`~trixcomplex.rl.observation.Observer.tensor`);
      not compared.
    """

    state: MatchState
    dealt: tuple[Card, ...] = ()
    window_seat: int | None = None
    held: Double | None = None
    deals: int = 0
    redeal_seat: int | None = None
    steps: tuple[CardStep, ...] = field(default=(), eq=False, repr=False)

    @classmethod
    def new(cls, ruleset: Ruleset, deals: int = 0) -> Table:
        """A new match of ``ruleset``, waiting for its first deal."""
        if deals < 0:
            raise ValueError(f"deals must be 0 (the whole match) or more, not {deals}")
        return cls(new_match(ruleset), deals=deals)

    @property
    def is_over(self) -> bool:
        """The match is over, or ``deals`` deals are finished."""
        state = self.state
        if state.phase is _OVER:
            return True
        return bool(self.deals) and state.phase is _DEAL and len(state.results) >= self.deals

    @property
    def to_act(self) -> int:
        """The seat to act, :data:`CHANCE` while dealing, :data:`TERMINAL` when over."""
        if self.is_over:
            return TERMINAL
        if self.window_seat is not None:
            return self.window_seat
        if self.redeal_seat is not None:
            return self.redeal_seat
        turn = self.state.turn
        if turn is not None:  # a seat to play or choose: the one next_step asks (or forces)
            return turn
        step = _after_offers(self.state)
        if type(step) is DealCards:
            return CHANCE
        if type(step) is Forced:
            return step.move.seat
        assert type(step) is Ask
        return step.seats[0]

    def view(self, seat: int | None) -> View:
        """What ``seat`` sees (the engine's :func:`~trixcomplex.view`)."""
        return view(self.state, seat)

    def legal_actions(self) -> tuple[int, ...]:
        """The action ids of the seat to act (``()`` for chance and when over)."""
        seat = self.to_act
        if seat < 0:
            return ()
        actions = legal_actions(self.state, seat)
        if self.window_seat is not None and not actions:
            return _NOTHING
        if self.redeal_seat is not None:
            return _NO_REDEAL + ((REDEAL,) if redeal_seat(self.state) == seat else ())
        return actions

    def act(self, action: int) -> Table:
        """The table after the seat to act plays ``action``.

        Raises :class:`~trixcomplex.io.actions.ActionError` for an illegal action;
        ``ValueError`` when no seat is to act.
        """
        seat = self.to_act
        if seat < 0:
            raise ValueError("no seat is to act: " + ("a card is to be dealt" if seat == CHANCE
                                                      else "the game is over"))  # fmt: skip
        if self.redeal_seat is not None:
            return self._redeal_answer(seat, action)
        if self.window_seat is not None:
            return self._answer(seat, action)
        if type(action) is int and 0 <= action <= PASS:  # a card or a TRIX pass
            # The deal runner checks the card itself (and says why it is refused); the
            # action id's own error comes from action_to_move then.
            move = PLAYS[seat][action] if action < PASS else PASSES[seat][0]
            try:
                state, step = apply_step(self.state, move)
            except IllegalMoveError:
                action_to_move(self.state, seat, action)
                raise
        else:
            state, step = apply_step(self.state, action_to_move(self.state, seat, action))
        return self._after(state, () if step is None else (step,))

    def _answer(self, seat: int, action: int) -> Table:
        state, held = self.state, self.held
        if self.legal_actions() == _NOTHING:
            if action != NOTHING_DOUBLED:
                raise IllegalMoveError(action, f"seat {seat} has nothing to double", "R-DBL-2")
        else:
            move = action_to_move(state, seat, action)
            if state.to_act == frozenset((seat,)):
                held = move  # type: ignore[assignment]  # the closing answer waits
            else:
                state = apply(state, move)
        if seat < 3:  # Table(...) in field order, as Table.at (evolve reads every field)
            return Table(state, self.dealt, seat + 1, held, self.deals, self.redeal_seat, ())
        if held is not None:
            state = apply(state, held)
        return self._after(state)

    def _redeal_answer(self, seat: int, action: int) -> Table:
        if action == REDEAL:
            return self._after(apply(self.state, action_to_move(self.state, seat, action)))
        if action != PASS:
            raise IllegalMoveError(action, f"seat {seat} may only pass or demand a redeal now",
                                   "R-OPT-8")  # fmt: skip
        return Table(self.state, self.dealt, self.window_seat, self.held, self.deals,
                     seat + 1 if seat < 3 else None, ())  # fmt: skip

    def _after(self, state: MatchState, steps: tuple[CardStep, ...] = ()) -> Table:
        return Table.at(state, self.deals, steps)

    @staticmethod
    def at(state: MatchState, deals: int = 0, steps: tuple[CardStep, ...] = ()) -> Table:
        """The table as a move to ``state`` leaves it (``steps``: the runner's step of that
        move, if a card or pass): the doubling window's or the redeal round's first seat
        asked if one opens, ``deals`` as :meth:`new`'s.  A table in a deal's card play,
        with no window or round open, is ``Table.at(state, deals)``: what
        :class:`~trixcomplex.rl.vector.TablesEnv` keeps of it between card steps.

        >>> import random, trixcomplex as tc
        >>> table = Table.new(tc.PARTNERSHIP).deal(random.Random(7))
        >>> Table.at(table.state) == table
        True
        """
        window = 0 if state.phase is _DOUBLE else None
        redeal = 0 if redeal_window(state) else None
        # Table(...) in field order: evolve() reads every field by name (a card step's cost).
        return Table(state, (), window, None, deals, redeal, steps)

    def bot_action(self, bot: Bot, rng: random.Random, seen: View | None = None) -> int:
        """The action ``bot`` picks for the seat to act, from that seat's view (``seen``,
        if given, must be ``self.view(seat)``) and legal moves only; in the redeal round
        it is asked :func:`~trixcomplex.bots.offer_redeal`."""
        seat = self.to_act
        actions = self.legal_actions()
        if self.redeal_seat is not None:
            if actions == _NO_REDEAL:  # no bad hand: nothing to ask
                return PASS
            return REDEAL if offer_redeal(bot, self.state, seat, rng) else PASS
        if self.window_seat is None:
            step = _after_offers(self.state)
            if type(step) is Forced:  # R-TX-5: the seat's one legal move
                return move_to_action(step.move)
        elif actions == _NOTHING:  # nothing to double, or answered
            return NOTHING_DOUBLED
        legal = [action_to_move(self.state, seat, a) for a in actions]
        return move_to_action(bot.choose(seen or self.view(seat), legal, rng))

    def chance_outcomes(self) -> tuple[Card, ...]:
        """The cards not dealt yet, each equally likely next (while dealing)."""
        dealt = set(self.dealt)
        return tuple(c for c in ALL_CARDS if c not in dealt)

    def deal_card(self, card: int) -> Table:
        """The table after dealing ``card`` to seat ``len(dealt) % 4`` (R-MATCH-2)."""
        if self.to_act != CHANCE:
            raise ValueError("no card is to be dealt now")
        card = ALL_CARDS[card]
        if card in self.dealt:
            raise IllegalMoveError(card, f"{card} is dealt already", "R-MATCH-2")
        dealt = (*self.dealt, card)
        if len(dealt) < 52:
            return evolve(self, dealt=dealt, steps=())
        return self._after(apply(self.state, Deal(dealt)))

    def deal(self, rng: random.Random) -> Table:
        """The table after a whole deal shuffled by ``rng``."""
        if self.to_act != CHANCE or self.dealt:
            raise ValueError("no deal is to be made now")
        return self._after(apply(self.state, Deal.shuffled(rng)))

    def totals(self) -> tuple[int, int, int, int]:
        """Each seat's running total (:func:`totals` of the table's state)."""
        return totals(self.state)

    def __deepcopy__(self, memo: dict[int, object]) -> Table:
        """A table is a frozen value all the way down (the engine's states are), so it
        is its own deep copy: a framework's clone of a game state (OpenSpiel deep-copies
        each one it explores) costs nothing instead of walking the whole match.

        >>> import copy, trixcomplex as tc
        >>> table = Table.new(tc.PARTNERSHIP)
        >>> copy.deepcopy(table) is table
        True
        """
        return self


def totals(state: MatchState) -> tuple[int, int, int, int]:
    """Each seat's running total, the deal in progress included: its team's in a
    partnership ruleset (R-MATCH-7), else its own; negated under ``reversed_scores``
    (R-OPT-6), so that higher is always better
    (:func:`~trixcomplex.core.rules.standings`).  What the adapters reward.

    >>> import trixcomplex as tc
    >>> totals(tc.new_match())
    (0, 0, 0, 0)
    """
    s = score(state)
    seats = [a + b for a, b in zip(s.seats, s.current, strict=True)]
    return standings(seats, state.ruleset)
