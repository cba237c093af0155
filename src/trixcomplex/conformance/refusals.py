"""Moves a state must refuse, each with the clause it breaks: :func:`refusals`.

The candidates are every kind of move a client or a host could send now — a
card played by each seat, a pass, a choice of each contract, a double of a
doublable card (and of one that is not), a redeal demand, a deck, a timeout —
less the moves the state allows.  The clause of each is the one the engine
names when it refuses it.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(1)))
>>> refused = refusals(state)
>>> type(refused[0].move).__name__, refused[0].rule  # a deck while the owner chooses
('Deal', 'R-MATCH-5')
>>> all(r.move not in tc.legal_moves(state) for r in refused)
True
"""

from __future__ import annotations

import attrs

from ..core.cards import ALL_CARDS
from ..core.engine import MatchState, Phase, apply, legal_moves
from ..core.errors import TrixError
from ..core.moves import Choose, Contract, Deal, Double, Move, Pass, Play, Redeal, Timeout
from ..core.rules import DOUBLABLE

__all__ = ["Refusal", "candidate_moves", "refusal_of", "refusals"]

_WINDOWS = (Phase.CHOOSE, Phase.DOUBLE)
_ORDERED_DECK = Deal(ALL_CARDS)
_NOT_DOUBLABLE = next(c for c in ALL_CARDS if not DOUBLABLE >> c & 1)


@attrs.frozen
class Refusal:
    """A move the rules refuse in some state, and the clause (``R-…``) it breaks."""

    move: Move
    rule: str


def candidate_moves(state: MatchState) -> list[Move]:
    """Every move of every kind that could be sent in ``state``, simplest first: the host
    moves, then per seat its plays, pass, choices, doubles and redeal demand."""
    moves: list[Move] = [_ORDERED_DECK, Timeout()]
    for seat in range(4):
        moves += [Play(seat, card) for card in ALL_CARDS]
        moves.append(Pass(seat))
        moves += [Choose(seat, contract) for contract in Contract]
        moves.append(Double(seat, []))
        moves += [Double(seat, [c]) for c in ALL_CARDS if DOUBLABLE >> c & 1]
        moves.append(Double(seat, [_NOT_DOUBLABLE]))
        moves.append(Redeal(seat))
    return moves


def _allowed(state: MatchState, move: Move, listed: frozenset[Move]) -> bool:
    if isinstance(move, Deal):
        return state.phase is Phase.DEAL
    if isinstance(move, Timeout):
        return state.phase in _WINDOWS
    return move in listed


def refusal_of(state: MatchState, move: Move) -> Refusal | None:
    """The refusal of ``move`` in ``state`` with the clause it breaks, or ``None`` if the
    rules allow it."""
    try:
        apply(state, move)
    except TrixError as exc:
        return Refusal(move, exc.rule or "R-MATCH-2")
    return None


def refusals(state: MatchState, limit: int | None = None) -> list[Refusal]:
    """The candidate moves (:func:`candidate_moves`) ``state`` refuses, in their order,
    each with its clause: the first ``limit`` of them, or all."""
    listed = frozenset(legal_moves(state))
    out: list[Refusal] = []
    for move in candidate_moves(state):
        if _allowed(state, move, listed):
            continue
        refusal = refusal_of(state, move)
        if refusal is not None:
            out.append(refusal)
            if limit is not None and len(out) >= limit:
                break
    return out
