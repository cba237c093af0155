"""What comes next in a match: the one function every host asks, :func:`next_step`.

A host (the loop of :mod:`trixcomplex.host.loop`, the server's table, the
reinforcement-learning table) must decide, after every move, what happens
next.  :func:`next_step` answers from the state alone, with one of five small
frozen values:

- :class:`DealCards` — a chance node: the dealer shuffles and deals
  (R-MATCH-2); ``again`` after a redeal (R-OPT-8);
- :class:`OfferRedeal` — a seat holding a bad TRIX hand may demand a redeal
  out of turn (R-OPT-8): the host offers it first, and goes on with
  ``otherwise`` if the seat declines;
- :class:`Forced` — the seat to move has exactly one legal move, which the
  host may play for it (R-TX-5);
- :class:`Ask` — the seats that may move now: the seat to play, or in the
  doubling window every seat still to answer, in seat order (R-DBL-2);
- :class:`MatchOver` — nothing more: the match is over (R-MATCH-1).

The host keeps what is its own: the clock, the shuffle, whom it shows what.
The answer needs nothing but the engine face (:func:`~trixcomplex.legal_moves`
and :func:`~trixcomplex.core.rules.redeal_seat`), holds no clock and does no
I/O, so it sits in the core, below every host: the server and the RL table
follow it without loading the host loop.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.new_match()
>>> tc.next_step(state)
DealCards(again=False)
>>> state = tc.apply(state, tc.Deal.shuffled(random.Random(7)))
>>> tc.next_step(state)                   # the Kingdom owner chooses a contract
Ask(seats=(0,))
>>> state = tc.apply(state, tc.Choose(0, tc.Contract.COMPLEX))
>>> tc.next_step(state)                   # the window: the seats holding K♥ or a Queen
Ask(seats=(0, 3))

Driving a whole match by it alone:

>>> rng, state = random.Random(1), tc.new_match()
>>> while not isinstance(step := tc.next_step(state), tc.MatchOver):
...     if isinstance(step, tc.DealCards):
...         move = tc.Deal.shuffled(rng)
...     elif isinstance(step, tc.OfferRedeal):
...         move = tc.Redeal(step.seat)
...     elif isinstance(step, tc.Forced):
...         move = step.move
...     else:
...         move = rng.choice(tc.legal_moves(state, step.seats[0]))
...     state = tc.apply(state, move)
>>> len(tc.score(state).deals)
8
"""

from __future__ import annotations

from typing import TypeAlias

from attrs import frozen

from .engine import MatchState, Phase, legal_moves
from .moves import PlayerMove, Redeal
from .rules import redeal_seat

__all__ = [
    "Ask",
    "DealCards",
    "Forced",
    "MatchOver",
    "OfferRedeal",
    "Step",
    "next_step",
    "step_and_moves",
]


@frozen
class DealCards:
    """A chance node: the dealer must shuffle and deal (R-MATCH-2).

    ``again`` is true when the deal in progress was thrown in by a redeal
    (R-OPT-8) and must be dealt anew: a host that keeps a separate shuffle for
    redeals (so a redeal in one match does not shift another's decks) uses it.
    """

    again: bool = False


@frozen
class OfferRedeal:
    """``seat`` holds a bad TRIX hand and may demand a redeal out of turn (R-OPT-8).

    The host offers it before anyone moves; if the seat declines, the host goes
    on with ``otherwise`` (a :class:`Forced` or an :class:`Ask`).  Who holds a
    bad hand is secret: a host must not show anyone that it made an offer.
    """

    seat: int
    otherwise: Forced | Ask


@frozen
class Forced:
    """The seat to move has exactly this one legal move (R-TX-5): a single legal
    card, a forced TRIX pass, or the last contract left to choose.  A host may
    play it for the seat after a delay of its own choosing; the player may
    still act before that."""

    move: PlayerMove


@frozen
class Ask:
    """The seats that may move now, in seat order: the seat to play or choose,
    or in the doubling window every seat that has not answered yet (R-DBL-2).
    A seat asked may have a real choice; its legal moves are
    ``legal_moves(state, seat)``."""

    seats: tuple[int, ...]


@frozen
class MatchOver:
    """The match is over (R-MATCH-1): no step is left."""


Step: TypeAlias = DealCards | OfferRedeal | Forced | Ask | MatchOver
"""What :func:`next_step` returns."""

_OVER = MatchOver()
_FIRST_DEAL, _DEAL_AGAIN = DealCards(again=False), DealCards(again=True)
_ALONE = tuple(Ask((seat,)) for seat in range(4))
_DEAL, _DOUBLE = Phase.DEAL, Phase.DOUBLE  # module constants: an enum member lookup is slow


def next_step(state: MatchState) -> Step:
    """What comes next in ``state``: deal, offer a redeal, play a forced move, ask, or nothing.

    A pure function of the state.  In order:

    - the match is over: :class:`MatchOver` (R-MATCH-1);
    - waiting for a deal: :class:`DealCards` (R-MATCH-2), ``again`` after a
      redeal (R-OPT-8);
    - the doubling window: :class:`Ask` with every seat still to answer
      (R-DBL-2; answers are never forced: each asked seat may double or not);
    - otherwise the seat to play or choose has one legal move: :class:`Forced`
      (R-TX-5), else :class:`Ask` with that seat; and if another seat holds a
      bad TRIX hand before the first card, that step is wrapped in an
      :class:`OfferRedeal` to it (R-OPT-8).  A seat to play that holds the bad
      hand itself finds :class:`~trixcomplex.Redeal` among its legal moves.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
    >>> state = tc.apply(state, tc.Choose(0, tc.Contract.TRIX))
    >>> while not isinstance(step := tc.next_step(state), tc.Forced):
    ...     state = tc.apply(state, tc.legal_moves(state)[0])
    >>> tc.legal_moves(state, step.move.seat) == (step.move,)
    True
    """
    return step_and_moves(state)[0]


_NO_MOVES: tuple[PlayerMove, ...] = ()


def step_and_moves(state: MatchState) -> tuple[Step, tuple[PlayerMove, ...]]:
    """:func:`next_step`, with the legal moves of the seat it names: the seat to play
    or choose (of an :class:`Ask` or :class:`Forced`, and of an
    :class:`OfferRedeal`'s ``otherwise``), or in the doubling window the first
    seat asked; ``()`` for :class:`DealCards` and :class:`MatchOver`.

    For a host loop that asks that seat next: the moves are listed once.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
    >>> step, moves = step_and_moves(state)
    >>> moves == tc.legal_moves(state, step.seats[0])
    True
    """
    turn = state.turn
    if turn is not None:  # a seat to play or choose
        legal = legal_moves(state, turn)
        step: Step = Forced(legal[0]) if len(legal) == 1 else _ALONE[turn]
        if state.ruleset.bad_hand_redeal:
            bad = redeal_seat(state)
            if bad is not None and bad != turn:
                step = OfferRedeal(bad, step)  # type: ignore[arg-type]
        return step, legal
    phase = state.phase
    if phase is _DOUBLE:  # the doubling window (R-DBL-2)
        seats = tuple(sorted(state.to_act))
        return Ask(seats), legal_moves(state, seats[0])
    if phase is _DEAL:
        return (_DEAL_AGAIN if type(state.history.last) is Redeal else _FIRST_DEAL), _NO_MOVES
    return _OVER, _NO_MOVES
