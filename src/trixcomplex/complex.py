"""COMPLEX: the trick-taking contract (R-CX-1 … R-CX-6).

Following suit (R-CX-2), who takes a trick (R-CX-3), thirteen tricks
(R-CX-4), and the deal's breakdown.  What a trick costs is decided in
:mod:`trixcomplex.scoring`.  The trick contracts of classic Trix (King of
Hearts, Queens, Diamonds, Ltoosh) are played by the same rules with the
additions of :func:`contract_legal_cards` (R-CL-2, R-OPT-2).
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from .cards import Card, cards_of
from .moves import Contract
from .rulesets import TrickRules
from .scoring import (
    DIAMONDS,
    DOUBLABLE,
    KING_OF_HEARTS,
    DealResult,
    DoubledCard,
    SeatBreakdown,
    doubled_card_points,
)

__all__ = [
    "TRICKS_PER_DEAL",
    "ComplexDeal",
    "Trick",
    "complex_result",
    "contract_legal_cards",
    "legal_cards",
    "trick_taker",
]

TRICKS_PER_DEAL = 13
"""All 13 tricks are always played (R-CX-4)."""

_SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))
_HEARTS = _SUIT_MASKS[1]


@frozen
class Trick:
    """A finished trick: who led it, the cards in play order, who took it."""

    leader: int
    cards: tuple[Card, Card, Card, Card]
    taker: int

    def played_by(self, seat: int) -> Card:
        """The card ``seat`` played to this trick."""
        return self.cards[(seat - self.leader) % 4]


@frozen
class ComplexDeal:
    """The progress of a COMPLEX deal.

    ``leader`` leads the trick in progress, whose cards so far are ``trick``
    (in play order); ``tricks`` are the finished tricks; ``doubled`` the
    revealed doubles as ``(card, doubler)`` pairs; ``points`` the four seats'
    points charged so far this deal.
    """

    leader: int
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    doubled: tuple[tuple[Card, int], ...]
    points: tuple[int, int, int, int]

    @property
    def led_suit(self) -> int | None:
        """The suit led to the trick in progress, or ``None`` before its lead."""
        return self.trick[0] // 13 if self.trick else None


def legal_cards(hand: int, trick: Sequence[Card]) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (R-CX-2).

    A seat holding the led suit must follow it; otherwise any card goes.
    """
    if trick:
        follow = hand & _SUIT_MASKS[trick[0] // 13]
        if follow:
            return follow
    return hand


def contract_legal_cards(hand: int, trick: Sequence[Card], rules: TrickRules) -> int:
    """:func:`legal_cards` for any trick contract under any ruleset.

    On top of R-CX-2: no heart lead while holding another suit in King of
    Hearts (R-CL-2, unless R-OPT-4), and a seat void in the led suit must
    discard one of the contract's penalty cards if it holds one (R-OPT-2).
    """
    if trick:
        follow = hand & _SUIT_MASKS[trick[0] // 13]
        if follow:
            return follow
        discard = hand & rules.discard_first
        return discard or hand
    if rules.no_heart_lead and hand & ~_HEARTS:
        return hand & ~_HEARTS
    return hand


def trick_taker(leader: int, cards: tuple[Card, ...]) -> int:
    """The seat winning ``cards`` (1 to 4, in play order, led by ``leader``): the
    highest card of the led suit (R-CX-3).  Of a full trick, the seat taking it."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    best = (mask & _SUIT_MASKS[cards[0] // 13]).bit_length() - 1  # the highest led card
    return (leader + cards.index(best)) % 4


def complex_result(
    number: int,
    owner: int,
    deal: ComplexDeal,
    *,
    contract: Contract = Contract.COMPLEX,
    kingdom: int | None = None,
    rules: TrickRules | None = None,
) -> DealResult:
    """The :class:`DealResult` of a finished COMPLEX deal.

    For a classic trick contract give its ``contract``, ``kingdom`` and
    ``rules``; ``kingdom`` defaults to that of a two-contract Kingdom.
    """
    tricks = [0, 0, 0, 0]
    diamonds = [0, 0, 0, 0]
    queens: list[list[Card]] = [[], [], [], []]
    king = [False, False, False, False]
    doubled_by = dict(deal.doubled)
    doubled: list[DoubledCard] = []
    for trick in deal.tricks:
        taker = trick.taker
        tricks[taker] += 1
        a, b, c, d = trick.cards
        mask = 1 << a | 1 << b | 1 << c | 1 << d
        diamonds[taker] += (mask & DIAMONDS).bit_count()
        if not mask & DOUBLABLE:  # most tricks: no K♥, no Queen
            continue
        for card in cards_of(mask & DOUBLABLE):
            if card == KING_OF_HEARTS:
                king[taker] = True
            else:
                queens[taker].append(card)
            if card in doubled_by:
                doubler = doubled_by[card]
                case, points = doubled_card_points(card, doubler, taker, trick.leader, rules)
                doubled.append(DoubledCard(card, doubler, taker, trick.leader, case, points))
    seats = tuple(
        SeatBreakdown.taken(
            tricks[s], diamonds[s], tuple(sorted(queens[s])), king[s],
            doubled_queens=tuple(sorted(
                d.card for d in doubled if d.taker == s and d.card != KING_OF_HEARTS
            )),
            doubled_king_of_hearts=any(d.taker == s and d.card == KING_OF_HEARTS for d in doubled),
        )
        for s in range(4)
    )  # fmt: skip
    return DealResult(
        number=number,
        kingdom=(number + 1) // 2 if kingdom is None else kingdom,
        contract=contract,
        owner=owner,
        points=deal.points,
        seats=(seats[0], seats[1], seats[2], seats[3]),
        doubled=tuple(sorted(doubled, key=lambda d: d.card)),
    )


# The engine's fast constructors: what ``ComplexDeal(...)`` and ``Trick(...)``
# build, without attrs' ``__init__`` (one per card played; see state.py).
_new = object.__new__
_set_leader = ComplexDeal.__dict__["leader"].__set__
_set_trick = ComplexDeal.__dict__["trick"].__set__
_set_tricks = ComplexDeal.__dict__["tricks"].__set__
_set_doubled = ComplexDeal.__dict__["doubled"].__set__
_set_points = ComplexDeal.__dict__["points"].__set__


def _complex_deal(
    leader: int,
    trick: tuple[Card, ...],
    tricks: tuple[Trick, ...],
    doubled: tuple[tuple[Card, int], ...],
    points: tuple[int, int, int, int],
) -> ComplexDeal:
    """``ComplexDeal(leader, trick, tricks, doubled, points)`` for the hot path."""
    deal: ComplexDeal = _new(ComplexDeal)
    _set_leader(deal, leader)
    _set_trick(deal, trick)
    _set_tricks(deal, tricks)
    _set_doubled(deal, doubled)
    _set_points(deal, points)
    return deal


_set_trick_leader = Trick.__dict__["leader"].__set__
_set_trick_cards = Trick.__dict__["cards"].__set__
_set_trick_taker = Trick.__dict__["taker"].__set__


def _trick(leader: int, cards: tuple[Card, Card, Card, Card], taker: int) -> Trick:
    """``Trick(leader, cards, taker)`` for the hot path."""
    trick: Trick = _new(Trick)
    _set_trick_leader(trick, leader)
    _set_trick_cards(trick, cards)
    _set_trick_taker(trick, taker)
    return trick
