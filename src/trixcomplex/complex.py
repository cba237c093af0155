"""COMPLEX: the trick-taking contract (R-CX-1 … R-CX-6).

Following suit (R-CX-2), who takes a trick (R-CX-3), thirteen tricks
(R-CX-4), and the deal's breakdown.  What a trick costs is decided in
:mod:`trixcomplex.scoring`.
"""

from __future__ import annotations

from attrs import frozen

from .cards import Card
from .moves import Contract
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
    "legal_cards",
    "trick_taker",
]

TRICKS_PER_DEAL = 13
"""All 13 tricks are always played (R-CX-4)."""

_SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))


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


def legal_cards(hand: int, trick: tuple[Card, ...]) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (R-CX-2).

    A seat holding the led suit must follow it; otherwise any card goes.
    """
    if trick:
        follow = hand & _SUIT_MASKS[trick[0] // 13]
        if follow:
            return follow
    return hand


def trick_taker(leader: int, cards: tuple[Card, ...]) -> int:
    """The seat taking a full trick: highest card of the led suit (R-CX-3)."""
    suit = cards[0] // 13
    best = 0
    for i in range(1, 4):
        card = cards[i]
        if card // 13 == suit and card > cards[best]:
            best = i
    return (leader + best) % 4


def complex_result(number: int, owner: int, deal: ComplexDeal) -> DealResult:
    """The :class:`DealResult` of a finished COMPLEX deal."""
    tricks = [0, 0, 0, 0]
    diamonds = [0, 0, 0, 0]
    queens: list[list[Card]] = [[], [], [], []]
    king = [False, False, False, False]
    doubled_by = dict(deal.doubled)
    doubled: list[DoubledCard] = []
    for trick in deal.tricks:
        taker = trick.taker
        tricks[taker] += 1
        for card in trick.cards:
            bit = 1 << card
            if bit & DIAMONDS:
                diamonds[taker] += 1
            if bit & DOUBLABLE:
                if card == KING_OF_HEARTS:
                    king[taker] = True
                else:
                    queens[taker].append(card)
                if card in doubled_by:
                    doubler = doubled_by[card]
                    case, points = doubled_card_points(card, doubler, taker, trick.leader)
                    doubled.append(DoubledCard(card, doubler, taker, trick.leader, case, points))
    seats = tuple(
        SeatBreakdown(tricks[s], diamonds[s], tuple(sorted(queens[s])), king[s]) for s in range(4)
    )
    return DealResult(
        number=number,
        kingdom=(number + 1) // 2,
        contract=Contract.COMPLEX,
        owner=owner,
        points=deal.points,
        seats=(seats[0], seats[1], seats[2], seats[3]),
        doubled=tuple(sorted(doubled, key=lambda d: d.card)),
    )
