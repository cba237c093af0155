"""Who is asked now, and the next player move: the pure step every host loop takes.

What comes next is :func:`~trixcomplex.next_step`'s answer; this module
turns it into a player move over a ``decide`` function.  A host asks the
seat to move (:func:`seat_to_move`); with ``bad_hand_redeal`` a seat holding
a bad TRIX hand is first offered the redeal it may demand out of turn
(:func:`redeal_claimant`, R-OPT-8); a seat with one legal move is not asked
(R-TX-5).  :func:`next_move` puts these together: the host loop
(:mod:`trixcomplex.host.loop`) runs it between bots, and the Monte Carlo bot
runs it in the worlds it imagines.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
>>> next_move(state, lambda st, seat, legal: legal[0]) in tc.legal_moves(state)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .engine import MatchState
from .moves import Move, PlayerMove, Redeal
from .rules import redeal_seat
from .steps import Ask, Forced, OfferRedeal, Step, step_and_moves

__all__ = ["Decide", "Offer", "move_for_step", "next_move", "redeal_claimant", "seat_to_move"]

Decide = Callable[[MatchState, int, Sequence[PlayerMove]], Move]
"""How a player's move is found: ``decide(state, seat, legal)`` returns a
legal move, or :class:`~trixcomplex.Timeout` while choosing or doubling."""

Offer = Callable[[MatchState, int], bool]
"""Whether ``seat`` demands the redeal it may demand out of turn (R-OPT-8)."""


def seat_to_move(state: MatchState) -> int:
    """The seat a host asks now: the seat to play, or in the doubling window
    the lowest seat still to answer (answers are secret, so their order is
    the host's, R-DBL-2): the first seat of :func:`~trixcomplex.next_step`'s
    :class:`~trixcomplex.Ask`."""
    return state.turn if state.turn is not None else min(state.to_act)


def redeal_claimant(state: MatchState, seat: int) -> int | None:
    """The seat other than ``seat`` that may demand a redeal now (R-OPT-8), if any:
    the seat :func:`~trixcomplex.next_step` offers a redeal to
    (:func:`~trixcomplex.core.rules.redeal_seat`)."""
    bad = redeal_seat(state)
    return bad if bad is not None and bad != seat else None


def next_move(
    state: MatchState, decide: Decide, offer: Offer | None = None, *, forced: bool = True
) -> Move:
    """The next player move of ``state`` (never a :class:`~trixcomplex.Deal`), by
    :func:`~trixcomplex.next_step`.

    A redeal out of turn is offered first (``offer``; none when ``None``),
    then a single legal move is played without asking (``forced``, R-TX-5),
    else ``decide`` is asked.  ``ValueError`` if no player move is due.
    """
    step, legal = step_and_moves(state)
    return move_for_step(state, step, legal, decide, offer, forced)


def move_for_step(
    state: MatchState,
    step: Step,
    legal: tuple[PlayerMove, ...],
    decide: Decide,
    offer: Offer | None = None,
    forced: bool = True,
) -> Move:
    """The player move ``step`` of ``state`` leads to (``legal``: the moves of the
    seat it names, as :func:`~trixcomplex.core.steps.step_and_moves` gives them):
    :func:`next_move`'s answer, for a host loop that has the step already.
    ``ValueError`` for :class:`~trixcomplex.DealCards` and
    :class:`~trixcomplex.MatchOver`: no player move is due."""
    if type(step) is OfferRedeal:
        if offer is not None and offer(state, step.seat):
            return Redeal(step.seat)
        step = step.otherwise
    if type(step) is Forced:
        return step.move if forced else decide(state, step.move.seat, (step.move,))
    if type(step) is Ask:
        return decide(state, step.seats[0], legal)
    raise ValueError(f"no player move is due in phase {state.phase.value}: {step}")
