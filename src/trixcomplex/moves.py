"""Moves: small frozen records, one class per kind of move.

Chance is a move too: :class:`Deal` carries the shuffled deck, so the engine
holds no randomness of its own.  :class:`Timeout` is the host's timer.

>>> import random
>>> deal = Deal.shuffled(random.Random(7))
>>> len(deal.deck)
52
>>> move_to_json(Play(2, "AS"))
{'move': 'play', 'seat': 2, 'card': 'AS'}
>>> move = move_from_json({"move": "double", "seat": 1, "cards": ["KH", "QS"]})
>>> move.seat, sorted(move.cards)
(1, [Card('QS'), Card('KH')])
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable
from typing import Any, TypeAlias

from attrs import Attribute, field, frozen

from .cards import ALL_CARDS, Card, CardParseError, parse_card
from .seats import check_seat

__all__ = [
    "Choose",
    "Contract",
    "Deal",
    "Double",
    "Move",
    "MoveFormatError",
    "Pass",
    "Play",
    "PlayerMove",
    "Timeout",
    "move_from_json",
    "move_to_json",
]


class Contract(enum.Enum):
    """The two contracts of a Kingdom (R-MATCH-1)."""

    COMPLEX = "COMPLEX"
    TRIX = "TRIX"

    @property
    def other(self) -> Contract:
        """The other contract of the Kingdom."""
        return Contract.TRIX if self is Contract.COMPLEX else Contract.COMPLEX

    def __str__(self) -> str:
        return self.value


def _to_card(value: object) -> Card:
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return parse_card(value)
    if type(value) is int and 0 <= value < 52:
        return ALL_CARDS[value]
    raise CardParseError(f"not a card: {value!r}")


def _to_cards(values: Iterable[object]) -> frozenset[Card]:
    if isinstance(values, str):
        raise CardParseError(f"expected a collection of cards, not the string {values!r}")
    cards = [_to_card(v) for v in values]
    result = frozenset(cards)
    if len(result) != len(cards):
        raise ValueError("the same card is named twice")
    return result


def _to_deck(values: Iterable[object]) -> tuple[Card, ...]:
    if isinstance(values, str):
        raise CardParseError(f"expected a list of 52 cards, not the string {values!r}")
    deck = tuple(_to_card(v) for v in values)
    if len(deck) != 52:
        raise ValueError(f"a deck has 52 cards, not {len(deck)}")
    if len(set(deck)) != 52:
        dupes = sorted({c for c in deck if deck.count(c) > 1})
        raise ValueError("a deck has 52 distinct cards; repeated: " + " ".join(map(str, dupes)))
    return deck


def _seat(_instance: object, _attribute: Attribute[int], value: int) -> None:
    check_seat(value)


@frozen
class Deal:
    """The shuffle of a new deal: the 52 cards in deck order.

    Card ``i`` goes to seat ``i % 4`` (R-MATCH-2).  The deck is checked when
    the move is built: 52 distinct cards, or ``ValueError``.
    """

    deck: tuple[Card, ...] = field(converter=_to_deck)

    @classmethod
    def shuffled(cls, rng: random.Random) -> Deal:
        """A deal shuffled by ``rng`` (a seeded ``Random`` or ``SystemRandom``)."""
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        return cls(tuple(deck))

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The 13 cards this deal gives ``seat``, in deck order."""
        return self.deck[check_seat(seat) :: 4]

    def __str__(self) -> str:
        return "deal"


@frozen
class Choose:
    """The Kingdom owner picks the contract of the Kingdom's first deal (R-MATCH-5)."""

    seat: int = field(validator=_seat)
    contract: Contract = field(converter=Contract)

    def __str__(self) -> str:
        return f"seat {self.seat} chooses {self.contract.value}"


@frozen
class Double:
    """One asked seat's single answer in the doubling window (R-DBL-2).

    ``cards`` are the doublable cards it doubles, possibly none.
    """

    seat: int = field(validator=_seat)
    cards: frozenset[Card] = field(default=frozenset(), converter=_to_cards)

    def __str__(self) -> str:
        if not self.cards:
            return f"seat {self.seat} doubles nothing"
        return f"seat {self.seat} doubles " + " ".join(str(c) for c in sorted(self.cards))


@frozen
class Play:
    """A card played to a trick (COMPLEX) or laid on a row (TRIX)."""

    seat: int = field(validator=_seat)
    card: Card = field(converter=_to_card)

    def __str__(self) -> str:
        return f"seat {self.seat} plays {self.card}"


@frozen
class Pass:
    """A TRIX pass, legal only without a legal card (R-TX-3)."""

    seat: int = field(validator=_seat)

    def __str__(self) -> str:
        return f"seat {self.seat} passes"


@frozen
class Timeout:
    """The host's timer ran out (R-MATCH-6 while choosing, R-DBL-3 while doubling)."""

    def __str__(self) -> str:
        return "timeout"


PlayerMove: TypeAlias = Choose | Double | Play | Pass
"""A move made by a seat: what :func:`~trixcomplex.legal_moves` lists."""

Move: TypeAlias = Deal | Choose | Double | Play | Pass | Timeout
"""Any move, including the chance move :class:`Deal` and the host's :class:`Timeout`."""


class MoveFormatError(ValueError):
    """A JSON object that is not a move of RECORD.md."""


def move_to_json(move: Move) -> dict[str, Any]:
    """The RECORD.md JSON object of ``move`` (canonical card codes)."""
    if isinstance(move, Play):
        return {"move": "play", "seat": move.seat, "card": str(move.card)}
    if isinstance(move, Pass):
        return {"move": "pass", "seat": move.seat}
    if isinstance(move, Double):
        return {"move": "double", "seat": move.seat, "cards": [str(c) for c in sorted(move.cards)]}
    if isinstance(move, Choose):
        return {"move": "choose", "seat": move.seat, "contract": move.contract.value}
    if isinstance(move, Deal):
        return {"move": "deal", "deck": [str(c) for c in move.deck]}
    if isinstance(move, Timeout):
        return {"move": "timeout"}
    raise TypeError(f"not a move: {move!r}")


_KEYS = {
    "deal": ("deck",),
    "choose": ("seat", "contract"),
    "double": ("seat", "cards"),
    "timeout": (),
    "play": ("seat", "card"),
    "pass": ("seat",),
}


def move_from_json(obj: object) -> Move:
    """The move of a RECORD.md JSON object; :class:`MoveFormatError` if malformed.

    Unknown keys, missing keys, wrong types and bad card codes are rejected.
    """
    if not isinstance(obj, dict):
        raise MoveFormatError(f"a move is a JSON object, not {type(obj).__name__}")
    kind = obj.get("move")
    if not isinstance(kind, str) or kind not in _KEYS:
        raise MoveFormatError(f"unknown move kind {kind!r:.40}")
    keys = set(_KEYS[kind])
    extra = sorted(str(k) for k in obj if k != "move" and k not in keys)
    if extra:
        raise MoveFormatError(f"unknown key {extra[0]!r:.40} in a {kind} move")
    missing = sorted(k for k in keys if k not in obj)
    if missing:
        raise MoveFormatError(f"a {kind} move needs the key {missing[0]!r}")
    if "seat" in keys and (type(obj["seat"]) is not int or not 0 <= obj["seat"] <= 3):
        raise MoveFormatError(f"seat must be an integer 0..3, not {obj['seat']!r:.40}")
    try:
        if kind == "play":
            if not isinstance(obj["card"], str):
                raise MoveFormatError(f"card must be a card code string, not {obj['card']!r:.40}")
            return Play(obj["seat"], parse_card(obj["card"]))
        if kind == "pass":
            return Pass(obj["seat"])
        if kind == "double":
            cards = obj["cards"]
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                raise MoveFormatError("cards must be a list of card code strings")
            return Double(obj["seat"], cards)
        if kind == "choose":
            if obj["contract"] not in ("COMPLEX", "TRIX"):
                raise MoveFormatError(
                    f"contract must be 'COMPLEX' or 'TRIX', not {obj['contract']!r:.40}"
                )
            return Choose(obj["seat"], Contract(obj["contract"]))
        if kind == "deal":
            deck = obj["deck"]
            if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck[:60]):
                raise MoveFormatError("deck must be a list of 52 card code strings")
            return Deal(deck)
        return Timeout()
    except MoveFormatError:
        raise
    except ValueError as exc:
        raise MoveFormatError(str(exc)) from None
