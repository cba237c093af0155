"""The doubling window of COMPLEX (R-DBL-1 … R-DBL-3).

Every seat holding K♥ or a Queen answers once, in secret, with the set of
those cards it doubles.  The window closes when all asked seats have
answered or on a timeout; then all doubles are revealed at once.  What a
doubled card costs is decided in :mod:`trixcomplex.core.scoring`.
"""

from __future__ import annotations

from .cards import Card, cards_of
from .scoring import DOUBLABLE
from .tuplerecord import TupleRecord

__all__ = ["DoublingWindow", "doubling_subsets", "open_window"]

_tnew = tuple.__new__
# _SEAT_SETS[bits]: the seats s with bit s set (interned frozensets).
_SEAT_SETS = tuple(frozenset(s for s in range(4) if bits >> s & 1) for bits in range(16))


class DoublingWindow(TupleRecord):
    """The open doubling window.

    ``asked[s]`` is the set of doublable cards seat ``s`` holds (0: never
    asked); ``answers[s]`` its answer so far (``None``: not yet answered).
    This is the engine's secret: views show a seat only its own part (R-HID-2).
    A frozen value (a :class:`~trixcomplex.core.tuplerecord.TupleRecord`).
    """

    __slots__ = ()

    asked: tuple[int, int, int, int]
    answers: tuple[int | None, int | None, int | None, int | None]

    def __new__(
        cls,
        asked: tuple[int, int, int, int],
        answers: tuple[int | None, int | None, int | None, int | None],
    ) -> DoublingWindow:
        return _tnew(cls, (asked, answers))

    def waiting(self) -> frozenset[int]:
        """The seats asked that have not answered yet."""
        asked, answers = self.asked, self.answers
        return _SEAT_SETS[
            bool(asked[0] and answers[0] is None)
            | bool(asked[1] and answers[1] is None) << 1
            | bool(asked[2] and answers[2] is None) << 2
            | bool(asked[3] and answers[3] is None) << 3
        ]

    def answer(self, seat: int, cards: int) -> DoublingWindow:
        """The window after ``seat`` answers with the set ``cards``."""
        answers = list(self.answers)
        answers[seat] = cards
        return _tnew(DoublingWindow, (self.asked, tuple(answers)))

    def revealed(self) -> tuple[tuple[Card, int], ...]:
        """The doubles as ``(card, doubler)`` pairs, by card; unanswered seats double nothing.

        >>> asked = (1 << 10, 0, 1 << 36 | 1 << 23, 0)   # Q♠; Q♦ and Q♥
        >>> window = DoublingWindow(asked, (1 << 10, None, 1 << 36, None))
        >>> [(str(card), seat) for card, seat in window.revealed()]
        [('QS', 0), ('QD', 2)]
        """
        a, b, c, d = self.answers
        key = (a or 0, b or 0, c or 0, d or 0)
        pairs = _REVEALED.get(key)
        if pairs is None:
            pairs = _revealed(*key)
            if len(_REVEALED) < _REVEALED_KEPT:
                _REVEALED[key] = pairs
        return pairs


def _revealed(a: int, b: int, c: int, d: int) -> tuple[tuple[Card, int], ...]:
    """:meth:`DoublingWindow.revealed` of the four seats' doubled sets."""
    # A card is held, so doubled, by one seat only: the pairs come in card order.
    return tuple([
        (card, 0 if a >> card & 1 else 1 if b >> card & 1 else 2 if c >> card & 1 else 3)
        for card in cards_of(a | b | c | d)
    ])  # fmt: skip


# The revealed doubles of each set of answers met so far, read once per doubling
# window (``_revealed`` is about 1.2 µs of a playout's 4 µs window).  In play every
# answer is a subset of the five doublable cards and each card has one holder, so
# there are at most 5 ** 5 = 3,125 keys (each card undoubled or doubled by one of
# four seats); the memo stops growing at 4,096 whatever windows are built by hand.
_REVEALED: dict[tuple[int, int, int, int], tuple[tuple[Card, int], ...]] = {}
_REVEALED_KEPT = 4096


def open_window(hands: tuple[int, int, int, int], doublable: int = DOUBLABLE) -> DoublingWindow:
    """The window after a COMPLEX deal: each holder of K♥ or a Queen is asked (R-DBL-2).

    ``doublable`` narrows the cards for a classic contract (R-CL-7).
    """
    d = doublable
    return DoublingWindow(
        (hands[0] & d, hands[1] & d, hands[2] & d, hands[3] & d), (None, None, None, None)
    )


def doubling_subsets(asked: int) -> tuple[int, ...]:
    """Every subset of the set ``asked``, the empty set first."""
    subsets = [0]
    for card in cards_of(asked):
        subsets += [s | (1 << card) for s in subsets]
    return tuple(subsets)
