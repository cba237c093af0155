"""Cards, suits, ranks and card sets (R-CARD-1, R-CARD-2).

A :class:`Card` is an ``int`` from 0 to 51 (``suit * 13 + rank - 2``), so
card sets are plain 52-bit integers: bit ``i`` set means card ``i`` is in the
set.  The 52 cards are interned; ``Card`` objects compare, hash and sort like
their index (suit ♠ ♥ ♦ ♣, then rank 2 … A).

>>> card = parse_card("10♦")
>>> str(card), card.suit.symbol, card.rank.name
('TD', '♦', 'TEN')
>>> [str(c) for c in cards_of(mask_of(parse_card(s) for s in ("QS", "2S", "KH")))]
['2S', 'QS', 'KH']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Sequence
from typing import TypeVar

from .errors import TrixError
from .jsonio import brief

__all__ = [
    "ALL_CARDS",
    "ALL_MASK",
    "Card",
    "CardParseError",
    "Rank",
    "Suit",
    "as_card",
    "bit",
    "card_count",
    "cards_of",
    "mask_of",
    "parse_card",
    "suit_mask",
]


class Suit(enum.IntEnum):
    """The four suits, in the order of R-CARD-2 (S, H, D, C)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        """The suit letter of the text form: ``S``, ``H``, ``D`` or ``C``."""
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol: ♠, ♥, ♦ or ♣."""
        return "♠♥♦♣"[self]


class Rank(enum.IntEnum):
    """The ranks 2 … A; a higher value is a higher card (R-CARD-1)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """The rank character of the text form (``T`` for the ten)."""
        return "23456789TJQKA"[self - 2]


class CardParseError(TrixError):
    """A card code that is not of the R-CARD-2 text form (code ``bad-card``)."""

    code = "bad-card"

    def __init__(self, message: str) -> None:
        super().__init__(message, rule="R-CARD-2")


class Card(int):
    """One of the 52 cards; an ``int`` (its index) with a suit and a rank.

    Build one with :meth:`Card.of`, :func:`parse_card` or ``Card.from_index``;
    all of them return the interned instance.
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise ValueError(f"card index must be 0..51, not {index!r}")
        return _CARDS[index] if _CARDS else int.__new__(cls, index)

    @staticmethod
    def of(rank: Rank | int, suit: Suit | int) -> Card:
        """The card of that rank and suit."""
        if not 2 <= rank <= 14 or not 0 <= suit <= 3:
            raise ValueError(f"no card of rank {rank!r} and suit {suit!r}")
        return _CARDS[suit * 13 + rank - 2]

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with that index (0..51)."""
        return Card(index)

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return _SUITS[self // 13]

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return _RANKS[self % 13]

    @property
    def mask(self) -> int:
        """The one-card set holding this card."""
        return 1 << self

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, e.g. ``10♦`` (for people, not files)."""
        rank = "10" if self % 13 == 8 else "23456789TJQKA"[self % 13]
        return rank + "♠♥♦♣"[self // 13]

    def __str__(self) -> str:
        return _CODES[self]

    def __repr__(self) -> str:
        return f"Card({_CODES[self]!r})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (int(self),))


_SUITS = tuple(Suit)
_RANKS = tuple(Rank)
_CODES = tuple(r + s for s in "SHDC" for r in "23456789TJQKA")
_CARDS: tuple[Card, ...] = ()
_CARDS = tuple(Card(i) for i in range(52))
_BY_CODE = dict(zip(_CODES, _CARDS, strict=True))

ALL_CARDS: tuple[Card, ...] = _CARDS
"""The 52 cards in index order."""

ALL_MASK = (1 << 52) - 1
"""The set of all 52 cards."""

_SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))

_RANK_CHARS = {c: r for r, c in zip(range(2, 15), "23456789TJQKA", strict=True)}
_RANK_CHARS.update({c.lower(): r for c, r in _RANK_CHARS.items() if c.isalpha()})
_RANK_CHARS["10"] = 10
_SUIT_CHARS = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3}
_SUIT_CHARS.update({"s": 0, "h": 1, "d": 2, "c": 3})


def parse_card(text: str) -> Card:
    """Parse the R-CARD-2 text form of a card.

    Accepts exactly the documented forms: a rank ``2``–``9``, ``T``, ``10``,
    ``J``, ``Q``, ``K`` or ``A``, then a suit ``S``, ``H``, ``D``, ``C`` or a
    symbol ``♠ ♥ ♦ ♣``, letters in either case (``TD``, ``10D``, ``td``,
    ``10♦``, ``q♦``).  Nothing else: no surrounding spaces, no other
    symbols (``♡``), no Unicode case folding (``Qſ``).  Raises
    :class:`CardParseError` (a :class:`~trixcomplex.TrixError`) naming the
    input otherwise.

    >>> parse_card("7h"), parse_card("10♥")
    (Card('7H'), Card('TH'))
    >>> try:
    ...     parse_card(" QS")
    ... except CardParseError as exc:
    ...     print(exc.code, exc.rule)
    bad-card R-CARD-2
    """
    if type(text) is str:
        card = _BY_CODE.get(text)  # the canonical code, as records and saved states write it
        if card is not None:
            return card
    elif not isinstance(text, str):
        raise CardParseError(f"card code must be a string, not {type(text).__name__}")
    rank = _RANK_CHARS.get(text[:-1]) if 2 <= len(text) <= 3 else None
    suit = _SUIT_CHARS.get(text[-1]) if rank is not None else None
    if rank is None or suit is None:
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise CardParseError(f"not a card: {shown!r} (expected e.g. 'TD', '7H', '10♦')")
    return _CARDS[suit * 13 + rank - 2]


def as_card(value: object) -> Card:
    """The card named by ``value``: a :class:`Card`, a code (R-CARD-2) or an index 0..51.

    Bad text or an index out of range raises :class:`CardParseError` (a
    ``ValueError``); a value of another type raises ``TypeError``.

    >>> as_card("10♦"), as_card(0), as_card(parse_card("KH"))
    (Card('TD'), Card('2S'), Card('KH'))
    """
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return parse_card(value)
    if type(value) is int:
        if 0 <= value < 52:
            return _CARDS[value]
        raise CardParseError(f"not a card: {brief(value, 40)} (a card index is 0..51)")
    raise TypeError(
        f"not a card: {brief(value, 40)} (expected a Card, an index 0..51 or a code like 'QH')"
    )


def bit(card: int) -> int:
    """The one-card set of ``card``."""
    return 1 << card


def suit_mask(suit: Suit | int) -> int:
    """The set of all 13 cards of ``suit``."""
    return _SUIT_MASKS[suit]


def mask_of(cards: Iterable[int]) -> int:
    """The set holding ``cards``."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


_BITS = tuple(1 << i for i in range(52))


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a set, in index order (by suit, then rank).

    A hot path (views, worlds, records): the set is read a byte at a time from
    a table of the cards of every byte, 7 lookups instead of a loop per card.
    Only a set of the 52 cards is read this way; others go card by card.

    >>> cards_of(0b101 << 12)
    (Card('AS'), Card('3H'))
    """
    if not mask >> 52 and mask >= 0:
        b = _BYTE_CARDS
        return (
            b[0][mask & 0xFF]
            + b[1][mask >> 8 & 0xFF]
            + b[2][mask >> 16 & 0xFF]
            + b[3][mask >> 24 & 0xFF]
            + b[4][mask >> 32 & 0xFF]
            + b[5][mask >> 40 & 0xFF]
            + b[6][mask >> 48]
        )
    return tuple(_iter_cards(mask))


def _iter_cards(mask: int) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield _CARDS[low.bit_length() - 1]
        mask ^= low


T = TypeVar("T")
_LOW_BIT = tuple((b & -b).bit_length() - 1 for b in range(256))


def byte_table(items: Sequence[T]) -> tuple[tuple[tuple[T, ...], ...], ...]:
    """``table[k][b]``: the items of the cards 8k … 8k+7 set in the byte ``b``, by card.

    ``items`` holds one item per card index (52).  A set's items are then 7
    lookups and tuple joins (see :func:`cards_of`).  Each entry is the one
    for ``b`` without its lowest card, that card's item put in front: built
    in a few milliseconds at import.

    >>> byte_table(range(52))[6][0b1101]
    (48, 50, 51)
    """
    table = []
    for k in range(7):
        row: list[tuple[T, ...]] = [()]
        for b in range(1, 256):
            i = 8 * k + _LOW_BIT[b]
            rest = row[b & (b - 1)]
            row.append((items[i], *rest) if i < 52 else rest)
        table.append(tuple(row))
    return tuple(table)


_BYTE_CARDS = byte_table(_CARDS)  # _BYTE_CARDS[k][b]: the cards 8k … 8k+7 of the byte b


def card_count(mask: int) -> int:
    """How many cards a set holds."""
    return mask.bit_count()
