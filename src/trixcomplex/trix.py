"""TRIX: the card-laying contract (R-TX-1 … R-TX-4).

Each suit's row starts with its Jack and grows one card at a time at either
end (R-TX-2).  The table is a card set: the cards laid so far.

>>> from trixcomplex.cards import parse_card, mask_of, cards_of
>>> table = mask_of(parse_card(c) for c in ("JS", "TS"))
>>> [str(c) for c in cards_of(playable(table))]
['9S', 'QS', 'JH', 'JD', 'JC']
"""

from __future__ import annotations

from attrs import frozen

__all__ = ["TrixDeal", "legal_cards", "playable", "row_ends"]

_JACK = 9  # rank index of the Jack within a suit (2 is 0)


def _next_in_suit(row: int) -> int:
    """For a 13-bit row pattern (bit r = rank index r laid), the playable ranks."""
    if not row >> _JACK & 1:
        return 1 << _JACK
    low = (row & -row).bit_length() - 1
    high = row.bit_length() - 1
    nxt = 0
    if low > 0:
        nxt |= 1 << (low - 1)
    if high < 12:
        nxt |= 1 << (high + 1)
    return nxt


_NEXT = [0] * 8192
for _row in range(8192):
    if not _row or _row >> _JACK & 1:
        _NEXT[_row] = _next_in_suit(_row)
del _row


def playable(table: int) -> int:
    """Every card that may be laid on ``table`` now, whoever holds it (R-TX-2)."""
    nxt = _NEXT
    return (
        nxt[table & 0x1FFF]
        | nxt[table >> 13 & 0x1FFF] << 13
        | nxt[table >> 26 & 0x1FFF] << 26
        | nxt[table >> 39 & 0x1FFF] << 39
    )


def _playable_card(table: int, card: int) -> bool:
    """Whether ``card`` may be laid on ``table``: ``playable(table)`` for one card (hot path)."""
    suit, rank = divmod(card, 13)
    return bool(_NEXT[table >> (13 * suit) & 0x1FFF] >> rank & 1)


def legal_cards(hand: int, table: int) -> int:
    """The cards of ``hand`` that may be laid on ``table`` (R-TX-2)."""
    return hand & playable(table)


def row_ends(table: int, suit: int) -> tuple[int, int] | None:
    """The lowest and highest rank (2–14) laid in ``suit``, or ``None`` if not started."""
    row = table >> (13 * suit) & 0x1FFF
    if not row:
        return None
    return ((row & -row).bit_length() + 1, row.bit_length() + 1)


@frozen
class TrixDeal:
    """The progress of a TRIX deal: the cards laid and who has gone out, in order."""

    table: int
    finishing_order: tuple[int, ...]


# The engine's fast constructor: what ``TrixDeal(...)`` builds, without attrs'
# ``__init__`` (one per card laid; see state.py).
_new = object.__new__
_set_table = TrixDeal.__dict__["table"].__set__
_set_finishing_order = TrixDeal.__dict__["finishing_order"].__set__


def _trix_deal(table: int, finishing_order: tuple[int, ...]) -> TrixDeal:
    """``TrixDeal(table, finishing_order)`` for the hot path."""
    deal: TrixDeal = _new(TrixDeal)
    _set_table(deal, table)
    _set_finishing_order(deal, finishing_order)
    return deal
