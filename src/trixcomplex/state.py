"""The match state: one immutable value per moment of the match.

A :class:`MatchState` is a frozen attrs class; :func:`trixcomplex.apply`
returns a new one and shares every unchanged part (hands, finished tricks,
results, the move history) with its predecessor instead of copying it.
States compare by value and are hashable.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import TYPE_CHECKING

from attrs import frozen

from .cards import Card, cards_of
from .complex import ComplexDeal
from .doubling import DoublingWindow
from .moves import Contract, Deal
from .scoring import DealResult
from .trix import TrixDeal

if TYPE_CHECKING:
    from .moves import Move

__all__ = ["History", "MatchState", "Phase"]


class Phase(enum.Enum):
    """What the match is waiting for."""

    DEAL = "DEAL"
    """A shuffle: the chance move :class:`~trixcomplex.Deal` (R-MATCH-2)."""
    CHOOSE = "CHOOSE"
    """The Kingdom owner's choice of contract (R-MATCH-5, R-MATCH-6)."""
    DOUBLE = "DOUBLE"
    """The hidden doubling window before the first trick (R-DBL-2, R-DBL-3)."""
    COMPLEX = "COMPLEX"
    """Tricks of a COMPLEX deal (R-CX-1 … R-CX-6)."""
    TRIX = "TRIX"
    """Cards laid in a TRIX deal (R-TX-1 … R-TX-5)."""
    OVER = "OVER"
    """The match is finished (R-MATCH-8)."""


class History:
    """The moves of a match so far: a persistent list sharing its prefix.

    Appending makes a new one-node list pointing at the old one, so every
    state of a match shares its history with its predecessors.

    >>> from trixcomplex.moves import Timeout
    >>> h = History.EMPTY.append(Timeout())
    >>> len(h), list(h), h == History.EMPTY.append(Timeout())
    (1, [Timeout()], True)
    """

    __slots__ = ("_hash", "_len", "_move", "_prev")
    EMPTY: History

    _prev: History | None
    _move: Move | None
    _len: int
    _hash: int

    def __init__(self, prev: History | None = None, move: Move | None = None) -> None:
        set_ = object.__setattr__
        set_(self, "_prev", prev)
        set_(self, "_move", move)
        set_(self, "_len", 0 if prev is None else prev._len + 1)
        set_(self, "_hash", 0x5EED if prev is None else hash((prev._hash, move)))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("History is immutable")

    def append(self, move: Move) -> History:
        """This history with ``move`` added at the end."""
        return History(self, move)

    @property
    def last(self) -> Move | None:
        """The latest move, or ``None`` for an empty history."""
        return self._move

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[Move]:
        return iter(self.moves())

    def moves(self) -> tuple[Move, ...]:
        """All moves, oldest first."""
        out = []
        node: History | None = self
        while node is not None and node._prev is not None:
            out.append(node._move)
            node = node._prev
        out.reverse()
        return tuple(out)  # type: ignore[arg-type]

    def since_deal(self) -> tuple[Move, ...]:
        """The moves of the current deal, starting with its :class:`Deal` (empty before one)."""
        out = []
        node: History | None = self
        while node is not None and node._prev is not None:
            out.append(node._move)
            if isinstance(node._move, Deal):
                out.reverse()
                return tuple(out)  # type: ignore[arg-type]
            node = node._prev
        return ()

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, History):
            return NotImplemented
        a: History | None = self
        b: History | None = other
        if self._len != other._len or self._hash != other._hash:
            return False
        while a is not b:
            assert a is not None and b is not None
            if a._move != b._move:
                return False
            a, b = a._prev, b._prev
        return True

    def __repr__(self) -> str:
        return f"<History of {self._len} moves>"

    def __reduce__(self) -> tuple[object, tuple[tuple[Move, ...]]]:
        return (_history_of, (self.moves(),))


def _history_of(moves: tuple[Move, ...]) -> History:
    history = History.EMPTY
    for move in moves:
        history = history.append(move)
    return history


History.EMPTY = History()

_NOBODY: frozenset[int] = frozenset()
_ONLY = tuple(frozenset({s}) for s in range(4))


@frozen
class MatchState:
    """The whole match at one moment; build it with :func:`trixcomplex.new_match`.

    Fields:

    - ``phase``: what the match waits for (:class:`Phase`).
    - ``deal_number``: deals dealt so far, 0 before the first and 8 in the last.
    - ``owner``: the current Kingdom's owner (``None`` before the first deal).
    - ``contract``: the contract of the deal being played, or ``None``.
    - ``hands``: the four hands as card sets (52-bit ints).
    - ``turn``: the seat to move in CHOOSE, COMPLEX and TRIX, else ``None``.
    - ``window``: the open doubling window (only in DOUBLE).
    - ``complex`` / ``trix``: the progress of the deal being played.
    - ``scores``: the seats' cumulative scores over finished deals.
    - ``results``: the finished deals.
    - ``history``: every move so far, the shuffles included.

    Hands and the doubling window are secrets: give a seat a
    :func:`~trixcomplex.view`, never the state itself.
    """

    phase: Phase
    deal_number: int
    owner: int | None
    contract: Contract | None
    hands: tuple[int, int, int, int]
    turn: int | None
    window: DoublingWindow | None
    complex: ComplexDeal | None
    trix: TrixDeal | None
    scores: tuple[int, int, int, int]
    results: tuple[DealResult, ...]
    history: History

    @property
    def kingdom(self) -> int:
        """The current Kingdom, 1–4 (0 before the first deal)."""
        return (self.deal_number + 1) // 2

    @property
    def to_act(self) -> frozenset[int]:
        """The seats that may move now (empty while waiting for a deal and when over)."""
        if self.turn is not None:
            return _ONLY[self.turn]
        if self.window is not None:
            return self.window.waiting()
        return _NOBODY

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, sorted by suit then rank."""
        return cards_of(self.hands[seat])

    @property
    def is_over(self) -> bool:
        """Whether the match is finished."""
        return self.phase is Phase.OVER
