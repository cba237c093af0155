"""TRIX: the card-laying contract (R-TX-1 … R-TX-4).

Each suit's row starts with its Jack and grows one card at a time at either
end (R-TX-2).  The table is a card set: the cards laid so far.

>>> from trixcomplex.core.cards import parse_card, mask_of, cards_of
>>> table = mask_of(parse_card(c) for c in ("JS", "TS"))
>>> [str(c) for c in cards_of(playable(table))]
['9S', 'QS', 'JH', 'JD', 'JC']
>>> layable(0b0110, 0b1100)  # the playable cards held (R-TX-2)
4
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ._speed import positional_builder
from .seats import next_seat
from .tuplerecord import TupleRecord, tuple_field

__all__ = [
    "TrixDeal",
    "bad_hand",
    "bad_hand_seat",
    "gone_out",
    "layable",
    "legal_cards",
    "next_to_lay",
    "playable",
    "playable_after",
    "row_ends",
]

_JACK = 9  # rank index of the Jack within a suit (2 is 0)


def _playable_ranks() -> list[int]:
    """``table[row]``: the playable ranks of a 13-bit row (bit r: rank index r laid).

    The empty row plays its Jack; a row holding its Jack plays the rank
    below its lowest and the one above its highest; other rows never occur
    (0).  A row with its Jack is the ranks below it (9 bits, each pattern
    giving the rank below its lowest) and above it (3 bits, giving the rank
    above its highest): 8 slices of 512, not 8,192 sums.
    """
    below = [0 if b & 1 else 1 << (b & -b).bit_length() - 2 for b in range(1, 512)]
    below.insert(0, 1 << _JACK - 1)  # only the Jack: the 10 is next
    table = [0] * 8192
    table[0] = 1 << _JACK
    for a in range(8):  # the ranks above the Jack laid
        above = 0 if a & 4 else 1 << a.bit_length() + _JACK + 1
        start = 1 << _JACK | a << _JACK + 1
        table[start : start + 512] = [b | above for b in below]
    return table


_ALL_ROWS = (1 << 52) - 1  # every card of the four rows
_NEXT = _playable_ranks()


def playable(table: int) -> int:
    """Every card that may be laid on ``table`` now, whoever holds it (R-TX-2)."""
    nxt = _NEXT
    return (
        nxt[table & 0x1FFF]
        | nxt[table >> 13 & 0x1FFF] << 13
        | nxt[table >> 26 & 0x1FFF] << 26
        | nxt[table >> 39 & 0x1FFF] << 39
    )


def playable_after(can: int, table: int, card: int) -> int:
    """``playable(table)``, given ``can``, what was playable before ``card`` was laid
    to make ``table``: only the card's row is read again (R-TX-2; a playout's
    per-card update).

    >>> from trixcomplex.core.cards import parse_card
    >>> js = parse_card("JS")
    >>> playable_after(playable(0), 1 << js, js) == playable(1 << js)
    True
    """
    shift = _ROW_SHIFT[card]
    return can & _OTHER_ROWS[card] | _NEXT[table >> shift & 0x1FFF] << shift


# Per card: where its row starts in a card set, and every other row's cards (one
# lookup each instead of the arithmetic, once per card laid).
_ROW_SHIFT = tuple(13 * (card // 13) for card in range(52))
_OTHER_ROWS = tuple(_ALL_ROWS & ~(0x1FFF << 13 * (card // 13)) for card in range(52))


def legal_cards(hand: int, table: int) -> int:
    """The cards of ``hand`` that may be laid on ``table`` (R-TX-2)."""
    return layable(hand, playable(table))


layable: Callable[[int, int], int] = operator.and_
"""``layable(hand, can)``: the cards of ``hand`` that may be laid when ``can``
(``playable(table)``) is what may be laid now, whoever holds it: the playable
cards held (R-TX-2).  None of them: the seat passes (R-TX-3).

The rule is the intersection of the two sets, so the function is
:func:`operator.and_` itself: one C call instead of a Python function doing
the same (about 20 ns a call less, ``timeit``), which the deal runner pays once
per TRIX card or pass (issue 44, docs/performance.rst).  It is still the one
function deciding what may be laid (the module's doctest shows it).
"""


def next_to_lay(hands: Sequence[int], seat: int) -> int:
    """The next seat after ``seat`` with cards in hand; empty hands are skipped (R-TX-1).

    :data:`NEXT_TO_LAY` holds its answers by the set of seats holding cards:

    >>> next_to_lay((5, 9, 0, 7), 3), NEXT_TO_LAY[3][0b1011]   # seat 2 is out
    (0, 0)
    >>> next_to_lay((5, 0, 3, 0), 0), NEXT_TO_LAY[0][0b0101]   # seats 1 and 3 are out
    (2, 2)
    """
    nxt = next_seat(seat)
    while nxt != seat and not hands[nxt]:  # empty hands are skipped
        nxt = next_seat(nxt)
    return nxt


NEXT_TO_LAY = tuple(
    tuple(next_to_lay(tuple(holders >> s & 1 for s in range(4)), seat) for holders in range(16))
    for seat in range(4)
)
"""``NEXT_TO_LAY[seat][holders]``: :func:`next_to_lay` after ``seat`` for each set of
seats still holding cards (bit ``s`` set for seat ``s``), worked out by that very
function at import (R-TX-1).  The playout keeps the set as seats go out and reads
the next seat with one lookup instead of a call per move (examples: see
:func:`next_to_lay`)."""


def gone_out(order: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """The finishing order once ``seat`` has emptied its hand (R-TX-4).

    When three seats are out the fourth is last and the deal ends at once:
    the order then holds all four seats.  (Classic Trix is sometimes played on "until
    everyone is out"; the last seat's place, hence every score, is the same.)

    >>> gone_out((2,), 0), gone_out((2, 0), 3)
    ((2, 0), (2, 0, 3, 1))
    """
    order += (seat,)
    if len(order) == 3:
        order += (6 - order[0] - order[1] - order[2],)  # the seat not out: 0+1+2+3 = 6
    return order


_TWOS = tuple(1 << (13 * suit) for suit in range(4))
_THREES = tuple(1 << (13 * suit + 1) for suit in range(4))


def bad_hand(hand: int) -> bool:
    """Four 2s, or three 2s and the 3 of the fourth suit (R-OPT-8)."""
    twos = [bool(hand & two) for two in _TWOS]
    if all(twos):
        return True
    if sum(twos) == 3:
        missing = twos.index(False)
        return bool(hand & _THREES[missing])
    return False


def bad_hand_seat(hands: Sequence[int]) -> int | None:
    """The seat holding a bad hand (at most one can), or ``None`` (R-OPT-8)."""
    for seat in range(4):
        if bad_hand(hands[seat]):
            return seat
    return None


def row_ends(table: int, suit: int) -> tuple[int, int] | None:
    """The lowest and highest rank (2–14) laid in ``suit``, or ``None`` if not started."""
    row = table >> (13 * suit) & 0x1FFF
    if not row:
        return None
    return ((row & -row).bit_length() + 1, row.bit_length() + 1)


class TrixDeal(TupleRecord):
    """The progress of a TRIX deal: the cards laid and who has gone out, in order.

    Its fields are ``table`` and ``finishing_order``; ``playable`` is derived
    from the table and kept with it, because every TRIX turn asks for it:

    >>> from trixcomplex.core.cards import parse_card
    >>> deal = TrixDeal(1 << parse_card("JS"), ())
    >>> deal.playable == playable(deal.table), deal
    (True, TrixDeal(table=512, finishing_order=()))
    """

    __slots__ = ()

    table: int
    finishing_order: tuple[int, ...]

    if TYPE_CHECKING:
        playable: int
    else:
        playable = tuple_field(
            2,
            "Every card that may be laid now, whoever holds it: ``playable(table)`` "
            "(R-TX-2); derived from ``table``, not a field.",
        )

    def __new__(cls, table: int, finishing_order: tuple[int, ...]) -> TrixDeal:
        return _tnew(cls, (table, finishing_order, playable(table)))


_tnew = tuple.__new__
new_trix_deal = positional_builder(TrixDeal, "playable")
"""``TrixDeal(table, finishing_order)`` given its ``playable`` set too, in one call."""
