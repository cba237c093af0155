"""COMPLEX: the trick-taking contract (R-CX-1 … R-CX-6).

Which cards are legal (:func:`legal_cards`: R-CX-2, with R-CL-2 and
R-OPT-2 for the classic contracts), who wins a trick (:func:`trick_winner`,
R-CX-3), when the deal ends (:func:`trick_deal_over`: R-CX-4, R-CL-2 …
R-CL-4), and the deal's breakdown.  What a trick costs is decided in
:mod:`trixcomplex.core.scoring`.  Every trick contract (COMPLEX, and King of
Hearts, Queens, Diamonds and Ltoosh of classic Trix) is played by these
functions with its :class:`~trixcomplex.TrickRules`.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from ._speed import positional_builder
from .cards import _BITS, Card, cards_of
from .moves import Contract
from .rulesets import TrickRules
from .scoring import (
    DIAMONDS,
    KING_OF_HEARTS,
    QUEENS,
    DealResult,
    DoubledCard,
    SeatBreakdown,
    _taken,
    doubled_card_points,
    taken_points,
)
from .tuplerecord import TupleRecord

__all__ = [
    "TRICKS_PER_DEAL",
    "Trick",
    "TrickDeal",
    "card_set",
    "complex_result",
    "legal_cards",
    "taken_result",
    "tally_tricks",
    "trick_deal_over",
    "trick_winner",
]

TRICKS_PER_DEAL = 13
"""All 13 tricks are always played (R-CX-4)."""

_tnew = tuple.__new__
_SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))
_HEARTS = _SUIT_MASKS[1]
# _SUIT_OF[card]: the cards of ``card``'s suit, one lookup where ``_SUIT_MASKS[card // 13]``
# was a division of a Card (an int subclass: no fast path) and a lookup, once a card in
# legal_cards and once a trick in trick_winner (issue 44).
_SUIT_OF = tuple(_SUIT_MASKS[card // 13] for card in range(52))
_KING_OF_HEARTS = 1 << KING_OF_HEARTS


class Trick(TupleRecord):
    """A finished trick: who led it, the cards in play order, who took it."""

    __slots__ = ()

    leader: int
    cards: tuple[Card, Card, Card, Card]
    taker: int

    def __new__(cls, leader: int, cards: tuple[Card, Card, Card, Card], taker: int) -> Trick:
        return _tnew(cls, (leader, cards, taker))

    def played_by(self, seat: int) -> Card:
        """The card ``seat`` played to this trick."""
        return self.cards[(seat - self.leader) % 4]


class TrickDeal(TupleRecord):
    """The progress of a trick deal: COMPLEX, King of Hearts, Queens, Diamonds,
    Ltoosh or a combined contract (the old name ``ComplexDeal`` is deprecated).

    ``leader`` leads the trick in progress, whose cards so far are ``trick``
    (in play order); ``tricks`` are the finished tricks; ``doubled`` the
    revealed doubles as ``(card, doubler)`` pairs; ``points`` the four seats'
    points charged so far this deal.  A frozen value (a
    :class:`~trixcomplex.core.tuplerecord.TupleRecord`, built in one call).
    """

    __slots__ = ()

    leader: int
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    doubled: tuple[tuple[Card, int], ...]
    points: tuple[int, int, int, int]

    def __new__(
        cls,
        leader: int,
        trick: tuple[Card, ...],
        tricks: tuple[Trick, ...],
        doubled: tuple[tuple[Card, int], ...],
        points: tuple[int, int, int, int],
    ) -> TrickDeal:
        return _tnew(cls, (leader, trick, tricks, doubled, points))

    @property
    def led_suit(self) -> int | None:
        """The suit led to the trick in progress, or ``None`` before its lead."""
        return self.trick[0] // 13 if self.trick else None


def legal_cards(hand: int, trick: Sequence[Card], rules: TrickRules) -> int:
    """The cards of ``hand`` that may be played to ``trick`` under ``rules``.

    A seat holding the led suit must follow it (R-CX-2); a seat void in it
    must discard one of the contract's penalty cards if it holds one
    (R-OPT-2), else plays any card.  No heart lead while holding another
    suit in King of Hearts (R-CL-2, unless R-OPT-4).

    >>> from trixcomplex.core.cards import mask_of, parse_card, cards_of
    >>> from trixcomplex.core.rulesets import PARTNERSHIP
    >>> hand = mask_of(parse_card(c) for c in ("2S", "9S", "KH"))
    >>> rules = PARTNERSHIP.trick_rules(Contract.COMPLEX)
    >>> [str(c) for c in cards_of(legal_cards(hand, (parse_card("AS"),), rules))]
    ['2S', '9S']
    """
    if trick:
        follow = hand & _SUIT_OF[trick[0]]
        if follow:
            return follow
        return hand & rules.discard_first or hand
    if rules.no_heart_lead and hand & ~_HEARTS:
        return hand & ~_HEARTS
    return hand


def trick_winner(leader: int, cards: Sequence[Card]) -> int:
    """The seat winning the trick so far: the highest card of the led suit (R-CX-3).

    ``cards`` are the cards played so far (one to four), in play order; for
    a full trick this is its taker, who leads the next trick.

    >>> from trixcomplex.core.cards import parse_card
    >>> trick_winner(3, [parse_card(c) for c in ("5H", "AS", "9H")])
    1
    """
    if len(cards) == 4:  # a full trick (the hot path): unrolled, the cards unpacked at once
        a, b, c, d = cards
        bits = _BITS  # a card's bit looked up: a shift of a Card misses the int fast path
        best = ((bits[a] | bits[b] | bits[c] | bits[d]) & _SUIT_OF[a]).bit_length() - 1
        return (leader + (0 if a == best else 1 if b == best else 2 if c == best else 3)) % 4
    led = _SUIT_OF[cards[0]]
    mask = 0
    for card in cards:
        mask |= 1 << card
    best = (mask & led).bit_length() - 1  # the highest card of the led suit
    return (leader + cards.index(best)) % 4


def trick_deal_over(tricks: int, cards_left: int, rules: TrickRules) -> bool:
    """Whether a trick deal ends after ``tricks`` finished tricks, with ``cards_left``
    (the cards still held, as a set) in the hands.

    All 13 tricks are played (R-CX-4), unless the contract ends once its
    penalty cards are all taken (R-CL-2 … R-CL-4).
    """
    ends = rules.ends_when_taken
    return tricks == TRICKS_PER_DEAL or bool(ends and not ends & cards_left)


def complex_result(
    number: int,
    owner: int,
    deal: TrickDeal,
    *,
    contract: Contract,
    kingdom: int,
    rules: TrickRules,
) -> DealResult:
    """The :class:`DealResult` of a finished trick deal of ``contract``, played
    with ``rules`` in Kingdom ``kingdom``: what each seat took, tallied from
    ``deal.tricks``, scored by :func:`taken_result` (``deal.points``, the
    running total of its tricks' :func:`~trixcomplex.core.scoring.trick_points`, adds up
    to the same)."""
    tricks, won, carried = tally_tricks(deal.tricks, card_set(deal.doubled))
    return taken_result(number, owner, contract, kingdom, rules, deal.doubled, tricks, won, carried)


def tally_tricks(tricks: Sequence[Trick], doubled: int) -> tuple[list[int], list[int], list[Trick]]:
    """What each seat took in ``tricks``: how many tricks, the set of their cards, and
    the tricks carrying a card of the set ``doubled`` (in play order), as
    :func:`taken_result` reads them.

    >>> first = Trick(0, (Card(0), Card(1), Card(2), Card(10)), 3)
    >>> tally_tricks((first,), 1 << 10) == ([0, 0, 0, 1], [0, 0, 0, 0b10000000111], [first])
    True
    """
    # Each trick's four cards are distinct, so a seat took a quarter of the cards it won
    # as tricks: counted from the sets, not kept per trick; a card's bit read from
    # _BITS (a shift of a Card, an int subclass, misses the int fast path).  Together
    # 4.0 → 2.7 µs a deal's tally (issue 44).
    won = [0, 0, 0, 0]
    bits = _BITS
    carried: list[Trick] = []
    for trick in tricks:
        a, b, c, d = trick.cards
        mask = bits[a] | bits[b] | bits[c] | bits[d]
        won[trick.taker] |= mask
        if mask & doubled:
            carried.append(trick)
    w, x, y, z = won
    taken = [w.bit_count() >> 2, x.bit_count() >> 2, y.bit_count() >> 2, z.bit_count() >> 2]
    return taken, won, carried


def card_set(pairs: Sequence[tuple[Card, int]]) -> int:
    """The set of the cards of ``(card, seat)`` pairs (a deal's doubles).

    >>> card_set(((Card(10), 1), (Card(24), 3))) == 1 << 10 | 1 << 24
    True
    """
    mask = 0
    for card, _ in pairs:  # mask_of, without a generator (read at every trick deal's end)
        mask |= 1 << card
    return mask


def taken_result(
    number: int,
    owner: int,
    contract: Contract,
    kingdom: int,
    rules: TrickRules,
    doubled: tuple[tuple[Card, int], ...],
    tricks: Sequence[int],
    won: Sequence[int],
    carried: Sequence[Trick],
) -> DealResult:
    """The :class:`DealResult` of a finished trick deal from what each seat took.

    ``tricks[s]`` and ``won[s]`` are how many tricks seat ``s`` took and the
    set of their cards; ``carried`` the tricks holding a doubled card, in play
    order; ``doubled`` the deal's doubles as ``(card, doubler)`` pairs.  What
    each doubled card cost (R-DBL-4) is read from the trick that carried it;
    each seat's points are what it took (:func:`~trixcomplex.core.scoring.taken_points`,
    the doubled cards apart) plus its share of the doubled cards' costs: the
    sum, seat by seat, of the deal's :func:`~trixcomplex.core.scoring.trick_points`,
    as the charges add up card by card.  :func:`complex_result` tallies a
    deal's tricks into these; the fast playout tallies them as it plays.
    """
    doubled_set = card_set(doubled)
    p0 = taken_points(tricks[0], won[0], rules, doubled_set)
    p1 = taken_points(tricks[1], won[1], rules, doubled_set)
    p2 = taken_points(tricks[2], won[2], rules, doubled_set)
    p3 = taken_points(tricks[3], won[3], rules, doubled_set)
    costs: list[DoubledCard] = []
    if carried:
        # Each carrying trick's card set worked out once, and the doubled cards taken in
        # card order (the order the result lists them in, so no sort after): the
        # doubled deals' results were a third of a random COMPLEX deal's time (issue 44).
        bits = _BITS
        found = [
            (bits[a] | bits[b] | bits[c] | bits[d], trick)
            for trick in carried
            for a, b, c, d in (trick.cards,)
        ]
        costed = _costed(rules)
        for card, doubler in sorted(doubled):  # each doubled card, and the trick that carried it
            bit = bits[card]
            for mask, trick in found:
                if mask & bit:
                    taker, leader = trick.taker, trick.leader
                    key = bit.bit_length() << 6 | doubler << 4 | taker << 2 | leader
                    made = costed.get(key)
                    if made is None:
                        case, cost = doubled_card_points(card, doubler, taker, leader, rules)
                        made = costed[key] = DoubledCard(card, doubler, taker, leader, case, cost)
                    costs.append(made)
                    cost = made.points
                    p0, p1, p2, p3 = p0 + cost[0], p1 + cost[1], p2 + cost[2], p3 + cost[3]
                    break
    seats = (
        _breakdown(tricks[0], won[0], doubled_set),
        _breakdown(tricks[1], won[1], doubled_set),
        _breakdown(tricks[2], won[2], doubled_set),
        _breakdown(tricks[3], won[3], doubled_set),
    )
    return DealResult(number, kingdom, contract, owner, (p0, p1, p2, p3), seats, tuple(costs), ())


def _costed(rules: TrickRules) -> dict[int, DoubledCard]:
    """The :class:`DoubledCard`\\ s already worked out under ``rules``, by card, doubler,
    taker and leader: a doubled card's cost is a frozen value decided by those four and
    the rules (:func:`~trixcomplex.core.scoring.doubled_card_points`, R-DBL-4), so each
    is built once and shared, as :func:`_breakdown` shares breakdowns (about 1.2 µs a
    doubled card saved; a random COMPLEX deal doubles two or three).  Kept per rules
    object by identity (a ruleset keeps one per contract), for at most 64 of them."""
    held = _COSTED.get(id(rules))
    if held is None or held[0] is not rules:
        if len(_COSTED) >= 64:
            _COSTED.clear()
        held = _COSTED[id(rules)] = (rules, {})
    return held[1]


_COSTED: dict[int, tuple[TrickRules, dict[int, DoubledCard]]] = {}


def _breakdown(tricks: int, taken: int, doubled: int) -> SeatBreakdown:
    """What a seat took, as a :class:`SeatBreakdown`: ``tricks`` tricks holding the
    card set ``taken``, the doubled cards among them named apart (``doubled``:
    the deal's doubled cards).

    A breakdown is a frozen value decided by four small numbers (the tricks, the
    diamonds, the Queens and K♥ taken, those of them doubled), so each is built once
    and shared (:data:`_BREAKDOWNS`): four end every trick deal, and building one
    (seven slots set) cost about 0.9 µs against 0.25 µs for the look-up (issue 44).
    """
    penalty = taken & _QUEENS_AND_KING
    key = tricks | (taken & DIAMONDS).bit_count() << 4 | penalty << 8 | (penalty & doubled) << 60
    made = _BREAKDOWNS.get(key)
    if made is None:
        queens = penalty & QUEENS
        made = _BREAKDOWNS[key] = _taken(
            SeatBreakdown, tricks, (taken & DIAMONDS).bit_count(), _QUEENS_OF[queens],
            bool(taken & _KING_OF_HEARTS), _QUEENS_OF[queens & doubled],
            bool(taken & _KING_OF_HEARTS & doubled),
        )  # fmt: skip
    return made


_QUEENS_AND_KING = QUEENS | _KING_OF_HEARTS
_BREAKDOWNS: dict[int, SeatBreakdown] = {}
""":func:`_breakdown`'s answers by their key: at most 14 × 14 × 32 × 32 (tricks,
diamonds, the Queens and K♥ taken, those doubled), a few thousand in practice."""


# _QUEENS_OF[queens]: cards_of(queens) for each of the 16 sets of Queens (read four
# times a trick deal; cards_of reads a 52-bit set a byte at a time).
_QUEENS_OF = {mask: cards_of(mask) for mask in range(1 << 4) for mask in [
    sum(1 << q for i, q in enumerate(cards_of(QUEENS)) if mask >> i & 1)
]}  # fmt: skip


new_trick = positional_builder(Trick)
"""``Trick(leader, cards, taker)`` in one call (see :mod:`trixcomplex.core._speed`)."""
new_trick_deal = positional_builder(TrickDeal)
"""``TrickDeal(leader, trick, tricks, doubled, points)`` in one call."""


RENAMED = {"ComplexDeal": "TrickDeal"}
"""Old public names of this module's, kept as deprecated aliases: old -> new."""


def renamed(module: str, name: str) -> Any:
    """The value of the deprecated old name ``name`` (see :data:`RENAMED`) of
    ``module``, with a :class:`DeprecationWarning`; ``AttributeError`` for any
    other name.  Each module that exports the new name answers the old one
    with it, from its ``__getattr__``."""
    new = RENAMED.get(name)
    if new is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    warnings.warn(f"{name} is deprecated: use {new}", DeprecationWarning, stacklevel=3)
    return globals()[new]


def __getattr__(name: str) -> Any:
    return renamed(__name__, name)
