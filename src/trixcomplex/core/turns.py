"""Who is asked now, and the next player move: the pure step every host loop takes.

A host asks the seat to move (:func:`seat_to_move`); with ``bad_hand_redeal``
a seat holding a bad TRIX hand is first offered the redeal it may demand out
of turn (:func:`redeal_claimant`, R-OPT-8); a seat with one legal move is not
asked (R-TX-5).  :func:`next_move` puts these together over a ``decide``
function: the host loop (:mod:`trixcomplex.host.loop`) runs it between bots,
and the Monte Carlo bot runs it in the worlds it imagines.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
>>> next_move(state, lambda st, seat, legal: legal[0]) in tc.legal_moves(state)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .engine import MatchState, Phase, legal_moves
from .moves import Move, PlayerMove, Redeal

__all__ = ["Decide", "Offer", "next_move", "redeal_claimant", "seat_to_move"]

Decide = Callable[[MatchState, int, Sequence[PlayerMove]], Move]
"""How a player's move is found: ``decide(state, seat, legal)`` returns a
legal move, or :class:`~trixcomplex.Timeout` while choosing or doubling."""

Offer = Callable[[MatchState, int], bool]
"""Whether ``seat`` demands the redeal it may demand out of turn (R-OPT-8)."""


def seat_to_move(state: MatchState) -> int:
    """The seat a host asks now: the seat to play, or in the doubling window
    the lowest seat still to answer (answers are secret, so their order is
    the host's, R-DBL-2)."""
    return state.turn if state.turn is not None else min(state.to_act)


def redeal_claimant(state: MatchState, seat: int) -> int | None:
    """The seat other than ``seat`` that may demand a redeal now (R-OPT-8), if any.

    Read from :func:`~trixcomplex.legal_moves`: only a seat holding a bad
    TRIX hand before the first card lists :class:`~trixcomplex.Redeal`.
    """
    if state.phase is not Phase.TRIX or not state.ruleset.bad_hand_redeal:
        return None
    for other in range(4):
        if other != seat and Redeal(other) in legal_moves(state, other):
            return other
    return None


def next_move(
    state: MatchState, decide: Decide, offer: Offer | None = None, *, forced: bool = True
) -> Move:
    """The next player move of ``state`` (never a :class:`~trixcomplex.Deal`).

    A redeal out of turn is offered first (``offer``; none when ``None``),
    then a single legal move is played without asking (``forced``, R-TX-5),
    else ``decide`` is asked.
    """
    seat = seat_to_move(state)
    if offer is not None:
        bad = redeal_claimant(state, seat)
        if bad is not None and offer(state, bad):
            return Redeal(bad)
    legal = legal_moves(state, seat)
    if forced and len(legal) == 1:
        return legal[0]
    return decide(state, seat, legal)
