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
from operator import itemgetter
from typing import Any, TypeAlias, TypeVar

from attrs import Attribute, field, frozen

from ._speed import plain_bits, shuffled_deck
from .cards import _BITS, ALL_CARDS, Card, CardParseError, as_card, parse_card
from .errors import TrixError
from .jsonio import brief, check_json
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
    "Redeal",
    "Timeout",
    "canonical_move",
    "move_from_json",
    "move_to_json",
]


class Contract(enum.Enum):
    """The contracts: COMPLEX and TRIX of a partnership Kingdom (R-MATCH-1), and the
    four trick contracts of classic Trix (see :mod:`trixcomplex.core.rulesets`)."""

    COMPLEX = "COMPLEX"
    TRIX = "TRIX"
    KING_OF_HEARTS = "KING_OF_HEARTS"
    QUEENS = "QUEENS"
    DIAMONDS = "DIAMONDS"
    LTOOSH = "LTOOSH"
    # Combined contracts (R-OPT-9): two or more of the four classic trick
    # contracts played as one deal, named by their parts in the order above.
    KING_OF_HEARTS_QUEENS = "KING_OF_HEARTS+QUEENS"
    KING_OF_HEARTS_DIAMONDS = "KING_OF_HEARTS+DIAMONDS"
    KING_OF_HEARTS_LTOOSH = "KING_OF_HEARTS+LTOOSH"
    QUEENS_DIAMONDS = "QUEENS+DIAMONDS"
    QUEENS_LTOOSH = "QUEENS+LTOOSH"
    DIAMONDS_LTOOSH = "DIAMONDS+LTOOSH"
    KING_OF_HEARTS_QUEENS_DIAMONDS = "KING_OF_HEARTS+QUEENS+DIAMONDS"
    KING_OF_HEARTS_QUEENS_LTOOSH = "KING_OF_HEARTS+QUEENS+LTOOSH"
    KING_OF_HEARTS_DIAMONDS_LTOOSH = "KING_OF_HEARTS+DIAMONDS+LTOOSH"
    QUEENS_DIAMONDS_LTOOSH = "QUEENS+DIAMONDS+LTOOSH"
    KING_OF_HEARTS_QUEENS_DIAMONDS_LTOOSH = "KING_OF_HEARTS+QUEENS+DIAMONDS+LTOOSH"

    # Members are singletons compared by identity, so the identity hash agrees
    # with ``==``; it is computed in C, where Enum's own hashes the name in
    # Python (~60 ns): the engine looks a contract's TrickRules up twice a card.
    __hash__ = object.__hash__

    @classmethod
    def _missing_(cls, value: object) -> Contract | None:
        # A combination given by its parts: a list or tuple of names or members.
        if isinstance(value, (list, tuple)) and len(value) > 1:
            try:
                parts = {Contract(v) for v in value}
            except ValueError:
                return None
            if len(parts) == len(value) and all(p.value in _COMBINABLE for p in parts):
                names = [n for n in _COMBINABLE if Contract(n) in parts]
                return cls("+".join(names))
        return None

    @property
    def parts(self) -> tuple[Contract, ...]:
        """The contracts played in this deal: itself, or a combination's parts (R-OPT-9).

        >>> Contract.QUEENS.parts
        (<Contract.QUEENS: 'QUEENS'>,)
        >>> [c.value for c in Contract(["DIAMONDS", "QUEENS"]).parts]
        ['QUEENS', 'DIAMONDS']
        """
        return _PARTS[self]

    @property
    def is_combined(self) -> bool:
        """Whether this is a combination of two or more trick contracts (R-OPT-9)."""
        return len(_PARTS[self]) > 1

    @property
    def other(self) -> Contract:
        """The other contract of a COMPLEX/TRIX Kingdom."""
        if self is Contract.COMPLEX:
            return Contract.TRIX
        if self is Contract.TRIX:
            return Contract.COMPLEX
        raise ValueError(f"{self.value} has no single other contract")

    @property
    def is_trick_contract(self) -> bool:
        """Whether tricks are played (every contract but TRIX)."""
        return self is not Contract.TRIX

    def __str__(self) -> str:
        return self.value


_COMBINABLE = ("KING_OF_HEARTS", "QUEENS", "DIAMONDS", "LTOOSH")
_PARTS = {c: tuple(Contract(p) for p in c.value.split("+")) for c in Contract}
COMBINATIONS = tuple(c for c in Contract if len(_PARTS[c]) > 1)
"""The 11 combined contracts of R-OPT-9, pairs first."""


def as_cards(values: Iterable[object]) -> frozenset[Card]:
    if isinstance(values, str):
        raise CardParseError(f"expected a collection of cards, not the string {brief(values, 40)}")
    cards = [as_card(v) for v in values]
    result = frozenset(cards)
    if len(result) != len(cards):
        raise ValueError("the same card is named twice")
    return result


def _to_deck(values: Iterable[object]) -> tuple[Card, ...]:
    if isinstance(values, str):
        raise CardParseError(f"expected a list of 52 cards, not the string {brief(values, 40)}")
    deck = tuple(as_card(v) for v in values)
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
        """A deal shuffled by ``rng`` (a seeded ``Random`` or ``SystemRandom``): the deck
        ``rng.shuffle`` leaves, from the same calls to ``rng`` in the same order.

        When ``rng`` draws as :class:`random.Random` itself does, the shuffle's loop
        calls its ``getrandbits`` directly (``_speed.shuffled_deck``, the playout's
        shuffle: about 4 µs a deal instead of 9, issue 44); any other generator is
        asked to ``shuffle``.

        >>> a, b = random.Random(5), random.Random(5)
        >>> deck = list(ALL_CARDS); b.shuffle(deck)
        >>> Deal.shuffled(a).deck == tuple(deck) and a.getstate() == b.getstate()
        True
        """
        # A permutation of the 52 cards needs no re-check: skip the converter.
        deal = object.__new__(cls)
        object.__setattr__(deal, "deck", shuffled_deck(rng, plain_bits(rng)))
        return deal

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The 13 cards this deal gives ``seat``, in deck order."""
        return self.hands()[check_seat(seat)]

    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """The four hands this deal gives, seat by seat: the card at position ``i``
        of the deck goes to seat ``i % 4`` (R-MATCH-2), each hand in deck order.

        >>> [len(h) for h in Deal.shuffled(random.Random(1)).hands()]
        [13, 13, 13, 13]
        """
        return _dealt(self.deck)

    def hand_masks(self) -> tuple[int, int, int, int]:
        """The four hands this deal gives as card sets, seat by seat (:meth:`hands`, each
        as the set of its cards).

        Each card's bit is looked up once for the whole deck, in C, and the bits are
        dealt as their cards are (``_dealt``, the split of :meth:`hands`): one look-up
        of 52 keys instead of one of 13 keys per hand, a fifth fewer machine
        instructions for the four hands (issue 44).  A hand's cards are
        distinct, so its set is the sum of their bits.

        >>> deal = Deal.shuffled(random.Random(1))
        >>> from trixcomplex.core.cards import mask_of
        >>> deal.hand_masks() == tuple(mask_of(hand) for hand in deal.hands())
        True
        """
        a, b, c, d = _dealt(itemgetter(*self.deck)(_BITS))
        return (sum(a), sum(b), sum(c), sum(d))

    def __str__(self) -> str:
        return "deal"


_T = TypeVar("_T")


def _dealt(deck: tuple[_T, ...]) -> tuple[tuple[_T, ...], ...]:
    """What each seat is dealt of ``deck`` (or of anything laid out in deck order): the
    item at position ``i`` goes to seat ``i % 4`` (R-MATCH-2)."""
    return (deck[0::4], deck[1::4], deck[2::4], deck[3::4])


@frozen
class Choose:
    """The Kingdom owner picks the contract of the deal (R-MATCH-5).

    Under R-OPT-9 ``contract`` may be a combination (give its parts as a list:
    ``Choose(0, ["QUEENS", "DIAMONDS"])``); in JSON it is then written as the
    list of its parts.
    """

    seat: int = field(validator=_seat)
    contract: Contract = field(converter=Contract)

    def __str__(self) -> str:
        return f"seat {self.seat} chooses {' + '.join(p.value for p in self.contract.parts)}"


@frozen
class Double:
    """One asked seat's single answer in the doubling window (R-DBL-2).

    ``cards`` are the doublable cards it doubles, possibly none.
    """

    seat: int = field(validator=_seat)
    cards: frozenset[Card] = field(default=frozenset(), converter=as_cards)

    def __str__(self) -> str:
        if not self.cards:
            return f"seat {self.seat} doubles nothing"
        return f"seat {self.seat} doubles " + " ".join(str(c) for c in sorted(self.cards))


@frozen
class Play:
    """A card played to a trick (COMPLEX) or laid on a row (TRIX)."""

    seat: int = field(validator=_seat)
    card: Card = field(converter=as_card)

    def __str__(self) -> str:
        return f"seat {self.seat} plays {self.card}"


@frozen
class Pass:
    """A TRIX pass, legal only without a legal card (R-TX-3)."""

    seat: int = field(validator=_seat)

    def __str__(self) -> str:
        return f"seat {self.seat} passes"


@frozen
class Redeal:
    """A demand for a new deal by a seat with a bad TRIX hand (R-OPT-8).

    Only with the ``bad_hand_redeal`` option of classic Trix; never in the
    default ruleset, where nothing causes a redeal (R-MATCH-2).
    """

    seat: int = field(validator=_seat)

    def __str__(self) -> str:
        return f"seat {self.seat} demands a redeal"


@frozen
class Timeout:
    """The host's timer ran out (R-MATCH-6 while choosing, R-DBL-3 while doubling)."""

    def __str__(self) -> str:
        return "timeout"


PlayerMove: TypeAlias = Choose | Double | Play | Pass | Redeal
"""A move made by a seat: what :func:`~trixcomplex.legal_moves` lists."""

Move: TypeAlias = Deal | Choose | Double | Play | Pass | Redeal | Timeout
"""Any move, including the chance move :class:`Deal` and the host's :class:`Timeout`."""


class MoveFormatError(TrixError):
    """A JSON object that is not a move of the record format.

    ``code`` says what is wrong (``move.unknown-key``, ``move.bad-card``, …;
    see :data:`~trixcomplex.core.errors.ERROR_CODES`); ``rule`` names the rules
    clause the bad value breaks (``"R-CARD-2"`` for a bad card code,
    ``"R-MATCH-2"`` for a bad deck, ``"R-SEAT-1"`` for a bad seat, …), or is
    ``None`` when the object is simply not of the record format (an unknown
    kind or key, a missing key).
    """

    code = "move.not-object"

    def __init__(self, message: str, rule: str | None = None, *, code: str | None = None) -> None:
        super().__init__(message, code=code, rule=rule)


def move_to_json(move: Move) -> dict[str, Any]:
    """The record-format JSON object of ``move`` (canonical card codes)."""
    if isinstance(move, Play):
        return {"move": "play", "seat": move.seat, "card": str(move.card)}
    if isinstance(move, Pass):
        return {"move": "pass", "seat": move.seat}
    if isinstance(move, Double):
        return {"move": "double", "seat": move.seat, "cards": [str(c) for c in sorted(move.cards)]}
    if isinstance(move, Choose):
        return {"move": "choose", "seat": move.seat, "contract": _contract_json(move.contract)}
    if isinstance(move, Deal):
        return {"move": "deal", "deck": [str(c) for c in move.deck]}
    if isinstance(move, Timeout):
        return {"move": "timeout"}
    if isinstance(move, Redeal):
        return {"move": "redeal", "seat": move.seat}
    raise TypeError(f"not a move: {move!r}")


_CONTRACT_NAMES = tuple(c.value for c in Contract if not c.is_combined)


def _contract_json(contract: Contract) -> str | list[str]:
    """A contract in a choose move: its name, or a combination's parts as a list (R-OPT-9)."""
    parts = contract.parts
    return [p.value for p in parts] if len(parts) > 1 else contract.value


_KEYS = {
    "deal": ("deck",),
    "choose": ("seat", "contract"),
    "double": ("seat", "cards"),
    "timeout": (),
    "play": ("seat", "card"),
    "pass": ("seat",),
    "redeal": ("seat",),
}


MAX_MOVE_ITEMS = 120
"""Most JSON values in one move (a deal holds 56)."""


def move_from_json(obj: object) -> Move:
    """The move of a record-format JSON object; :class:`MoveFormatError` if malformed.

    A seat is a JSON number with no fraction, ``1`` or ``1.0`` (one value to
    JSON Schema and JavaScript alike, so the published move schema accepts
    exactly what this does); ``true`` is not a seat.
    Unknown keys, missing keys, wrong types and bad card codes are rejected,
    as is anything that is not plain JSON data or is larger than any move
    (:data:`MAX_MOVE_ITEMS` values, nesting 3 deep, short strings).  The
    message shows a bounded prefix of the bad value.

    >>> try:
    ...     move_from_json({"move": "pass", "seat": 10**5000})
    ... except MoveFormatError as exc:
    ...     print(exc.code, "-", exc)
    move.too-large - a move holds at $.seat an integer of 16610 bits (at most 64)

    A move in the canonical form :func:`move_to_json` writes is read by table
    lookup first (:func:`canonical_move`): nearly every move there is.
    """
    move = canonical_move(obj)
    if move is not None:
        return move
    if not isinstance(obj, dict):
        raise MoveFormatError(
            f"a move is a JSON object, not {type(obj).__name__}", code="move.not-object"
        )
    try:
        check_json(obj, max_items=MAX_MOVE_ITEMS, max_depth=3, max_string=100, what="a move")
    except TrixError as exc:
        code = "move.too-large" if exc.code == "json.too-large" else "move.not-json"
        raise MoveFormatError(str(exc), code=code) from None
    kind = obj.get("move")
    if not isinstance(kind, str) or kind not in _KEYS:
        raise MoveFormatError(f"unknown move kind {_shown(kind)}", code="move.unknown-kind")
    keys = set(_KEYS[kind])
    extra = sorted(k for k in obj if k != "move" and k not in keys)
    if extra:
        raise MoveFormatError(
            f"unknown key {_shown(extra[0])} in a {kind} move", code="move.unknown-key"
        )
    missing = sorted(k for k in keys if k not in obj)
    if missing:
        raise MoveFormatError(
            f"a {kind} move needs the key {missing[0]!r}", code="move.missing-key"
        )
    seat = _json_integer(obj.get("seat"))
    if "seat" in keys and (type(seat) is not int or not 0 <= seat <= 3):
        raise MoveFormatError(
            f"seat must be an integer 0..3, not {_shown(obj['seat'])}",
            "R-SEAT-1",
            code="move.bad-seat",
        )
    try:
        return _move_of(kind, obj, seat)
    except MoveFormatError:
        raise
    except CardParseError as exc:
        raise MoveFormatError(str(exc), "R-CARD-2", code="move.bad-card") from None
    except ValueError as exc:
        # Deal: not 52 distinct cards; Double: a card named twice.
        if kind == "deal":
            raise MoveFormatError(str(exc), "R-MATCH-2", code="move.bad-deck") from None
        raise MoveFormatError(str(exc), "R-DBL-2", code="move.repeated-card") from None


def _shown(value: object) -> str:
    """A bad value for a message: a string as its ``repr`` (cut to 40), else :func:`brief`."""
    return repr(value[:40]) if isinstance(value, str) else brief(value, 40)


def _json_integer(value: object) -> object:
    """``value``, or the integer a float with no fraction stands for (``1.0``, ``-0.0``).

    JSON has one kind of number: ``1.0`` and ``1`` are the same value to JSON
    Schema and to JavaScript, so a move's seat may be written either way.
    """
    if type(value) is float and value.is_integer():
        return int(value)
    return value


def _move_of(kind: str, obj: dict[str, Any], seat: Any) -> Move:
    """The move of a checked object of kind ``kind`` (its keys are right, ``seat`` its seat)."""
    if kind == "play":
        if not isinstance(obj["card"], str):
            raise MoveFormatError(
                f"card must be a card code string, not {_shown(obj['card'])}",
                "R-CARD-2",
                code="move.bad-card",
            )
        return Play(seat, parse_card(obj["card"]))
    if kind == "pass":
        return Pass(seat)
    if kind == "redeal":
        return Redeal(seat)
    if kind == "double":
        cards = obj["cards"]
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise MoveFormatError(
                "cards must be a list of card code strings", "R-CARD-2", code="move.bad-card"
            )
        return Double(seat, cards)
    if kind == "choose":
        named = obj["contract"]
        if isinstance(named, list) and all(n in _CONTRACT_NAMES for n in named):
            try:
                return Choose(seat, Contract(named))
            except ValueError:
                raise MoveFormatError(
                    "a combined contract is a list of two or more distinct contracts of "
                    f"{', '.join(_COMBINABLE)}, not {_shown(named)}",
                    "R-OPT-9",
                    code="move.bad-contract",
                ) from None
        if named not in _CONTRACT_NAMES:
            raise MoveFormatError(
                f"contract must be one of {', '.join(_CONTRACT_NAMES)} (or a list of "
                f"two or more trick contracts, R-OPT-9), not {_shown(named)}",
                "R-MATCH-1",
                code="move.bad-contract",
            )
        return Choose(seat, Contract(named))
    if kind == "deal":
        deck = obj["deck"]
        if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
            raise MoveFormatError(
                "deck must be a list of 52 card code strings", "R-MATCH-2", code="move.bad-deck"
            )
        return Deal(deck)
    return Timeout()


# -- the canonical form, read by table lookup --------------------------------------

PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(seat, card) for card in ALL_CARDS) for seat in range(4)
)
"""``PLAYS[seat][card]``: the one interned :class:`Play` of each seat and card
(the engine lists these, and :func:`canonical_move` reads them)."""
PASSES: tuple[tuple[Pass], ...] = tuple((Pass(seat),) for seat in range(4))
"""``PASSES[seat]``: the one-move tuple of the interned :class:`Pass` of ``seat``."""

_CARD_OF_CODE: dict[str, Card] = {str(card): card for card in ALL_CARDS}
_PLAY_OF: dict[tuple[int, str], Play] = {
    (seat, str(card)): PLAYS[seat][card] for seat in range(4) for card in ALL_CARDS
}
_PASS_OF: dict[int, Pass] = {seat: PASSES[seat][0] for seat in range(4)}
_REDEAL_OF: dict[int, Redeal] = {seat: Redeal(seat) for seat in range(4)}
_TIMEOUT = Timeout()
_CHOOSE_OF: dict[tuple[int, str], Choose] = {
    (seat, contract.value): Choose(seat, contract)
    for seat in range(4)
    for contract in Contract
    if not contract.is_combined  # a combination is written as a list of its parts
}


def canonical_move(raw: object) -> Move | None:
    """The move ``raw`` stands for if it is in canonical form, by table lookup; else ``None``.

    Canonical: exactly the object :func:`move_to_json` writes for any move but
    a combined choice (a double's cards in any order), with exact JSON types (a
    ``bool`` is not a seat, nor is ``1.0``) and canonical card codes.  ``None``
    means only "not canonical": :func:`move_from_json` then reads it the strict
    way, which accepts every form the record format allows and names what is
    wrong with the rest.  Plays and passes are the interned ones
    (:data:`PLAYS`, :data:`PASSES`), the very moves the engine lists.

    >>> canonical_move({"move": "play", "seat": 2, "card": "TD"})
    Play(seat=2, card=Card('TD'))
    >>> canonical_move({"move": "play", "seat": True, "card": "TD"}) is None
    True
    """
    if type(raw) is not dict:
        return None
    kind = raw.get("move")
    if type(kind) is not str:
        return None
    size = len(raw)
    if kind == "deal":
        deck = raw.get("deck")
        if size != 2 or type(deck) is not list or len(deck) != 52:
            return None
        cards = [_CARD_OF_CODE.get(code) if type(code) is str else None for code in deck]
        if None in cards or len(set(cards)) != 52:
            return None
        return Deal(cards)
    if kind == "timeout":
        return _TIMEOUT if size == 1 else None
    seat = raw.get("seat")
    if type(seat) is not int:
        return None
    if kind == "play":
        card = raw.get("card")
        return _PLAY_OF.get((seat, card)) if size == 3 and type(card) is str else None
    if kind == "pass":
        return _PASS_OF.get(seat) if size == 2 else None
    if kind == "redeal":
        return _REDEAL_OF.get(seat) if size == 2 else None
    if kind == "choose":
        name = raw.get("contract")
        return _CHOOSE_OF.get((seat, name)) if size == 3 and type(name) is str else None
    if kind == "double":
        codes = raw.get("cards")
        if size == 3 and type(codes) is list and 0 <= seat <= 3:
            cards = [_CARD_OF_CODE.get(code) if type(code) is str else None for code in codes]
            if None not in cards and len(set(cards)) == len(cards):
                return Double(seat, cards)
    return None
