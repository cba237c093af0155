"""What each seat scores: trick penalties, doubling, finishing places, totals.

This module owns every number of the rules: the COMPLEX penalties
(R-CX-5), the three doubling cases (R-DBL-4, R-DBL-5), the TRIX places
(R-TX-4), Team Totals and the match result (R-MATCH-7, R-MATCH-8).

>>> from trixcomplex.cards import parse_card
>>> trick = [parse_card(c) for c in ("5H", "KH", "QD", "9H")]
>>> trick_points(trick, leader=0, taker=1, doubled=())   # the -125 trick of R-CX-5
(0, -125, 0, 0)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from attrs import field, frozen

from .cards import Card, Rank, Suit, cards_of, suit_mask
from .moves import Contract
from .rulesets import TrickRules
from .seats import TEAMS

__all__ = [
    "DIAMONDS",
    "DIAMOND_PENALTY",
    "DOUBLABLE",
    "KING_OF_HEARTS",
    "KING_OF_HEARTS_PENALTY",
    "QUEENS",
    "QUEEN_PENALTY",
    "TRICK_PENALTY",
    "TRIX_PLACES",
    "DealResult",
    "DoubledCard",
    "MatchResult",
    "Score",
    "SeatBreakdown",
    "doubled_card_points",
    "match_result",
    "team_totals",
    "trick_points",
    "trix_points",
    "winners",
]

TRICK_PENALTY = -15
"""Charged to the taker of every COMPLEX trick (R-CX-5)."""
DIAMOND_PENALTY = -10
"""Charged for every ♦ in a trick (R-CX-5)."""
QUEEN_PENALTY = -25
"""Charged for every undoubled Queen in a trick (R-CX-5)."""
KING_OF_HEARTS_PENALTY = -75
"""Charged for an undoubled K♥ (R-CX-5)."""
TRIX_PLACES = (200, 150, 100, 50)
"""Points for 1st, 2nd, 3rd and 4th to empty their hand in TRIX (R-TX-4)."""

KING_OF_HEARTS = Card.of(Rank.KING, Suit.HEARTS)
DIAMONDS = suit_mask(Suit.DIAMONDS)
"""The set of the 13 diamonds."""
QUEENS = sum(1 << Card.of(Rank.QUEEN, s) for s in Suit)
"""The set of the four Queens."""
DOUBLABLE = QUEENS | (1 << KING_OF_HEARTS)
"""The cards that can be doubled: K♥ and the Queens (R-DBL-1)."""


def plain_penalty(card: Card, rules: TrickRules | None = None) -> int:
    """The undoubled penalty of K♥ (−75) or a Queen (−25), 0 for other cards.

    With ``rules`` (a contract under a ruleset), that contract's values.
    """
    if rules is not None:
        if card == KING_OF_HEARTS:
            return rules.king_of_hearts
        return rules.queen if card.rank is Rank.QUEEN else 0
    if card == KING_OF_HEARTS:
        return KING_OF_HEARTS_PENALTY
    return QUEEN_PENALTY if card.rank is Rank.QUEEN else 0


def doubled_card_points(
    card: Card, doubler: int, taker: int, leader: int, rules: TrickRules | None = None
) -> tuple[int, tuple[int, int, int, int]]:
    """The case (1, 2 or 3) and the four seats' points for a doubled card (R-DBL-4).

    The card's plain penalty is replaced by these points; the trick and
    diamond penalties are charged separately (R-DBL-5).

    >>> doubled_card_points(KING_OF_HEARTS, doubler=2, taker=1, leader=0)
    (1, (0, -150, 75, 0))
    >>> doubled_card_points(KING_OF_HEARTS, doubler=2, taker=2, leader=0)
    (2, (75, 0, -150, 0))
    >>> doubled_card_points(KING_OF_HEARTS, doubler=2, taker=2, leader=2)
    (3, (0, 0, -75, 0))
    """
    v = -plain_penalty(card, rules)
    points = [0, 0, 0, 0]
    if taker != doubler:
        case = 1
        points[taker] -= 2 * v
        points[doubler] += v
    elif leader != doubler:
        case = 2
        points[doubler] -= 2 * v
        points[leader] += v
    else:
        case = 3
        points[doubler] -= v
    return case, (points[0], points[1], points[2], points[3])


def trick_points(
    cards: Sequence[Card],
    leader: int,
    taker: int,
    doubled: Sequence[tuple[Card, int]],
    rules: TrickRules | None = None,
) -> tuple[int, int, int, int]:
    """The four seats' points for one finished COMPLEX trick (R-CX-5, R-DBL-4).

    ``doubled`` lists the deal's doubled cards with their doublers.  With
    ``rules``, the trick of that contract under that ruleset (R-CL-2 … R-CL-7).
    """
    mask = 0
    for card in cards:
        mask |= 1 << card
    if rules is not None and not rules.standard:
        return _contract_trick_points(cards, mask, leader, taker, doubled, rules)
    points = [0, 0, 0, 0]
    points[taker] = TRICK_PENALTY + DIAMOND_PENALTY * (mask & DIAMONDS).bit_count()
    if mask & DOUBLABLE:
        doublers = dict(doubled)
        for card in cards_of(mask & DOUBLABLE):
            doubler = doublers.get(card)
            if doubler is None:
                points[taker] += plain_penalty(card)
            else:
                _, extra = doubled_card_points(card, doubler, taker, leader)
                for seat in range(4):
                    points[seat] += extra[seat]
    return (points[0], points[1], points[2], points[3])


def _contract_trick_points(
    cards: Sequence[Card],
    mask: int,
    leader: int,
    taker: int,
    doubled: Sequence[tuple[Card, int]],
    rules: TrickRules,
) -> tuple[int, int, int, int]:
    """:func:`trick_points` for any trick contract under any ruleset."""
    points = [0, 0, 0, 0]
    points[taker] = rules.trick + rules.diamond * (mask & DIAMONDS).bit_count()
    charged = mask & DOUBLABLE
    if charged and (rules.queen or rules.king_of_hearts):
        doublers = dict(doubled)
        for card in cards_of(charged):
            doubler = doublers.get(card)
            if doubler is None:
                points[taker] += plain_penalty(card, rules)
            else:
                _, extra = doubled_card_points(card, doubler, taker, leader, rules)
                for seat in range(4):
                    points[seat] += extra[seat]
    return (points[0], points[1], points[2], points[3])


def trix_points(
    finishing_order: Sequence[int], places: Sequence[int] = TRIX_PLACES
) -> tuple[int, int, int, int]:
    """The four seats' points for a TRIX finishing order (R-TX-4).

    ``places`` are the points of 1st … 4th (a ruleset's ``trix_places``).

    >>> trix_points([2, 0, 3, 1])
    (150, 50, 200, 100)
    """
    points = [0, 0, 0, 0]
    for place, seat in enumerate(finishing_order):
        points[seat] = places[place]
    return (points[0], points[1], points[2], points[3])


def team_totals(seats: Sequence[int]) -> tuple[int, int]:
    """Team Totals from four seat scores: seats 0+2 and 1+3 (R-MATCH-7)."""
    return (seats[TEAMS[0][0]] + seats[TEAMS[0][1]], seats[TEAMS[1][0]] + seats[TEAMS[1][1]])


class MatchResult(enum.Enum):
    """The outcome of a finished match (R-MATCH-8).

    Partnership rulesets end in ``TEAM0``, ``TEAM1`` or ``DRAW``; individual
    rulesets (R-IND-1, R-CL-1) in ``SEAT0`` … ``SEAT3`` for a single winner or
    ``SHARED`` when several seats share the best total.
    """

    TEAM0 = "team0"
    TEAM1 = "team1"
    DRAW = "draw"
    SEAT0 = "seat0"
    SEAT1 = "seat1"
    SEAT2 = "seat2"
    SEAT3 = "seat3"
    SHARED = "shared"

    def __str__(self) -> str:
        return self.value


def match_result(teams: Sequence[int], *, lowest_wins: bool = False) -> MatchResult:
    """The winner of a finished match by Team Totals; equal totals draw (R-MATCH-8).

    ``lowest_wins`` for reversed scores (R-OPT-6).
    """
    first, second = (teams[1], teams[0]) if lowest_wins else (teams[0], teams[1])
    if first > second:
        return MatchResult.TEAM0
    if second > first:
        return MatchResult.TEAM1
    return MatchResult.DRAW


_SEAT_RESULTS = (MatchResult.SEAT0, MatchResult.SEAT1, MatchResult.SEAT2, MatchResult.SEAT3)


def winners(
    seats: Sequence[int], *, partnership: bool = True, lowest_wins: bool = False
) -> tuple[MatchResult, tuple[int, ...]]:
    """The result of a finished match and its winning seats.

    Partnership: the winning team's two seats, all four on a draw (R-MATCH-8).
    Individual: the seats with the best total, ties shared (R-IND-1).

    >>> winners([10, 40, -90, 40], partnership=False)
    (<MatchResult.SHARED: 'shared'>, (1, 3))
    >>> winners([10, 40, -90, 40])
    (<MatchResult.TEAM1: 'team1'>, (1, 3))
    """
    if partnership:
        result = match_result(team_totals(seats), lowest_wins=lowest_wins)
        if result is MatchResult.DRAW:
            return result, (0, 1, 2, 3)
        return result, TEAMS[0] if result is MatchResult.TEAM0 else TEAMS[1]
    best = min(seats) if lowest_wins else max(seats)
    top = tuple(s for s in range(4) if seats[s] == best)
    return (_SEAT_RESULTS[top[0]] if len(top) == 1 else MatchResult.SHARED), top


@frozen
class DoubledCard:
    """A doubled card of a finished COMPLEX deal and what it cost (R-DBL-4).

    ``taker`` took the trick holding it, ``leader`` led that trick, ``case``
    is 1, 2 or 3 and ``points`` the four seats' points for this card alone
    (the trick's −15 and any diamond −10 are not included).
    """

    card: Card
    doubler: int
    taker: int
    leader: int
    case: int
    points: tuple[int, int, int, int]


@frozen
class SeatBreakdown:
    """What one seat took in a deal, for a scoresheet.

    In COMPLEX: tricks taken, diamonds taken, Queens taken and whether it took
    K♥ (``queens`` and ``king_of_hearts`` count every Queen and the K♥ taken,
    doubled or not).  The doubled ones among them are kept apart in
    ``doubled_queens`` and ``doubled_king_of_hearts`` (they score by R-DBL-4,
    not R-CX-5); :attr:`plain_queens` and :attr:`plain_king_of_hearts` are
    the undoubled ones.  In TRIX: its finishing ``place`` (1–4).  The doubled
    ones are read from the deal (:attr:`DealResult.doubled`): they are not
    written to JSON, so a breakdown read back from a saved view has them empty
    (a saved state is rebuilt from its moves and has them).

    >>> from trixcomplex.cards import parse_card
    >>> qs, qh = parse_card("QS"), parse_card("QH")
    >>> b = SeatBreakdown.taken(2, 0, (qs, qh), False, doubled_queens=(qh,))
    >>> [str(q) for q in b.plain_queens], b.plain_king_of_hearts
    (['QS'], False)
    """

    tricks: int = 0
    diamonds: int = 0
    queens: tuple[Card, ...] = ()
    king_of_hearts: bool = False
    place: int | None = None
    # Derived from the deal's doubled cards, so not part of the JSON formats
    # (init=False: the converter skips them) nor of equality.
    doubled_queens: tuple[Card, ...] = field(default=(), init=False, eq=False)
    doubled_king_of_hearts: bool = field(default=False, init=False, eq=False)

    @classmethod
    def taken(
        cls,
        tricks: int,
        diamonds: int,
        queens: tuple[Card, ...],
        king_of_hearts: bool,
        *,
        doubled_queens: tuple[Card, ...] = (),
        doubled_king_of_hearts: bool = False,
    ) -> SeatBreakdown:
        """What a seat took in a trick deal, the doubled cards among it named apart."""
        made = cls(tricks, diamonds, queens, king_of_hearts)
        object.__setattr__(made, "doubled_queens", doubled_queens)
        object.__setattr__(made, "doubled_king_of_hearts", doubled_king_of_hearts)
        return made

    @property
    def plain_queens(self) -> tuple[Card, ...]:
        """The Queens taken that were not doubled (charged by R-CX-5)."""
        return tuple(q for q in self.queens if q not in self.doubled_queens)

    @property
    def plain_king_of_hearts(self) -> bool:
        """Whether the seat took K♥ undoubled (charged by R-CX-5)."""
        return self.king_of_hearts and not self.doubled_king_of_hearts


@frozen
class DealResult:
    """One finished deal: its contract, owner, points and breakdown.

    ``number`` is 1–8, ``kingdom`` 1–4; ``points`` are the four seats' points
    for this deal; ``seats`` the per-seat breakdown; ``doubled`` every doubled
    card with its case; ``finishing_order`` the TRIX order (empty in COMPLEX).
    """

    number: int
    kingdom: int
    contract: Contract
    owner: int
    points: tuple[int, int, int, int]
    seats: tuple[SeatBreakdown, SeatBreakdown, SeatBreakdown, SeatBreakdown]
    doubled: tuple[DoubledCard, ...] = ()
    finishing_order: tuple[int, ...] = ()


@frozen
class Score:
    """The scores of a match so far (see :func:`trixcomplex.score`).

    ``seats`` are the cumulative scores over finished deals, ``teams`` the
    Team Totals, ``deals`` the finished deals in order, ``current`` the points
    already charged in the deal being played (all zero between deals),
    ``result`` the winner once the match is over, else ``None``, and
    ``winners`` the winning seats once it is over (all four on a draw).
    """

    seats: tuple[int, int, int, int]
    teams: tuple[int, int]
    deals: tuple[DealResult, ...]
    current: tuple[int, int, int, int]
    result: MatchResult | None
    winners: tuple[int, ...] = ()
