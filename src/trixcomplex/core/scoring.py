"""What each seat scores: trick penalties, doubling, finishing places, totals.

This module applies the numbers of a ruleset (they live only in
:mod:`trixcomplex.core.rulesets`): what a trick costs (R-CX-5), the three
doubling cases (R-DBL-4, R-DBL-5), the TRIX places (R-TX-4), Team Totals
and the match result (R-MATCH-7, R-MATCH-8, R-IND-1).

>>> from trixcomplex.core.cards import parse_card
>>> from trixcomplex.core.rulesets import PARTNERSHIP
>>> trick = [parse_card(c) for c in ("5H", "KH", "QD", "9H")]
>>> rules = PARTNERSHIP.trick_rules(Contract.COMPLEX)
>>> trick_points(trick, leader=0, taker=1, doubled=(), rules=rules)   # R-CX-5's -125 trick
(0, -125, 0, 0)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from attrs import field, frozen

from .cards import Card
from .moves import Contract
from .rulesets import DIAMONDS, DOUBLABLE, KING_OF_HEARTS, QUEENS, Ruleset, TrickRules
from .seats import TEAMS, team_of

__all__ = [
    "DIAMONDS",
    "DOUBLABLE",
    "KING_OF_HEARTS",
    "QUEENS",
    "DealResult",
    "DoubledCard",
    "MatchResult",
    "Score",
    "SeatBreakdown",
    "doubled_card_points",
    "match_outcome",
    "match_result",
    "plain_penalties",
    "plain_penalty",
    "taken_points",
    "team_totals",
    "trick_points",
    "trix_points",
    "winners",
    "worst_seats",
]


def plain_penalty(card: Card, rules: TrickRules) -> int:
    """The undoubled points of K♥ or a Queen under ``rules`` (0 for other cards).

    >>> from trixcomplex.core.rulesets import PARTNERSHIP
    >>> plain_penalty(KING_OF_HEARTS, PARTNERSHIP.trick_rules(Contract.COMPLEX))
    -75
    """
    return plain_penalties(1 << card, rules)


def plain_penalties(cards: int, rules: TrickRules) -> int:
    """The undoubled points of the K♥ and Queens among the card set ``cards`` under
    ``rules``, together (other cards cost nothing here; R-CX-5, R-CL-3, R-CL-4).

    >>> from trixcomplex.core.cards import parse_card
    >>> from trixcomplex.core.rulesets import PARTNERSHIP
    >>> rules = PARTNERSHIP.trick_rules(Contract.COMPLEX)
    >>> kh, qs, two = (parse_card(c) for c in ("KH", "QS", "2S"))
    >>> plain_penalties(1 << kh | 1 << qs | 1 << two, rules)   # R-CX-5: -75 -25
    -100
    """
    points = rules.queen * (cards & QUEENS).bit_count()
    return points + rules.king_of_hearts if cards >> KING_OF_HEARTS & 1 else points


def doubled_card_points(
    card: Card, doubler: int, taker: int, leader: int, rules: TrickRules
) -> tuple[int, tuple[int, int, int, int]]:
    """The case (1, 2 or 3) and the four seats' points for a doubled card (R-DBL-4).

    The card's plain penalty is replaced by these points; the trick and
    diamond penalties are charged separately (R-DBL-5).

    >>> from trixcomplex.core.rulesets import PARTNERSHIP
    >>> rules = PARTNERSHIP.trick_rules(Contract.COMPLEX)
    >>> doubled_card_points(KING_OF_HEARTS, doubler=2, taker=1, leader=0, rules=rules)
    (1, (0, -150, 75, 0))
    >>> doubled_card_points(KING_OF_HEARTS, doubler=2, taker=2, leader=0, rules=rules)
    (2, (75, 0, -150, 0))
    >>> doubled_card_points(KING_OF_HEARTS, doubler=2, taker=2, leader=2, rules=rules)
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


def taken_points(tricks: int, cards: int, rules: TrickRules, doubled: int = 0) -> int:
    """What a seat scores for taking ``tricks`` tricks holding the card set ``cards``
    under ``rules``: each trick, each ♦ and each Queen and the K♥ plainly (R-CX-5,
    R-CL-2 … R-CL-7), except the cards of the set ``doubled``, whose cost
    :func:`doubled_card_points` gives instead (their trick and ♦ still count
    here, R-DBL-5).

    The one place these charges are decided: :func:`trick_points` calls it for
    one trick, and a finished deal's result for all the tricks a seat took
    (the charges add up card by card and trick by trick, so the two agree).

    >>> from trixcomplex.core.cards import mask_of, parse_card
    >>> from trixcomplex.core.rulesets import PARTNERSHIP
    >>> rules = PARTNERSHIP.trick_rules(Contract.COMPLEX)
    >>> taken = mask_of(parse_card(c) for c in ("KH", "QD", "2D", "5S"))
    >>> taken_points(2, taken, rules)   # 2 tricks -15 each, 2 ♦ -10 each, K♥ -75, Q♦ -25
    -150
    >>> taken_points(2, taken, rules, doubled=1 << KING_OF_HEARTS)   # the K♥ costed apart
    -75
    """
    points = tricks * rules.trick + rules.diamond * (cards & DIAMONDS).bit_count()
    charged = cards & DOUBLABLE & ~doubled
    if charged and (rules.queen or rules.king_of_hearts):  # a Queen or K♥ that costs
        points += plain_penalties(charged, rules)
    return points


def trick_points(
    cards: Sequence[Card],
    leader: int,
    taker: int,
    doubled: Sequence[tuple[Card, int]],
    rules: TrickRules,
) -> tuple[int, int, int, int]:
    """The four seats' points for one finished trick under ``rules`` (R-CX-5, R-DBL-4,
    R-CL-2 … R-CL-7).

    ``doubled`` lists the deal's doubled cards with their doublers.  The
    taker pays :func:`taken_points` of the trick; a doubled card in it is
    shared by its case instead (:func:`doubled_card_points`).
    """
    a, b, c, d = cards  # a trick has four cards
    mask = 1 << a | 1 << b | 1 << c | 1 << d
    if doubled and mask & DOUBLABLE:
        for card, _ in doubled:
            if mask >> card & 1:  # a doubled one: the seats share its cost (R-DBL-4)
                return _doubled_trick_points(mask, leader, taker, doubled, rules)
    value = taken_points(1, mask, rules)  # the taker pays it all (R-CX-5)
    if taker == 0:
        return (value, 0, 0, 0)
    if taker == 1:
        return (0, value, 0, 0)
    return (0, 0, value, 0) if taker == 2 else (0, 0, 0, value)


def _doubled_trick_points(
    mask: int,
    leader: int,
    taker: int,
    doubled: Sequence[tuple[Card, int]],
    rules: TrickRules,
) -> tuple[int, int, int, int]:
    """:func:`trick_points` of the trick of the card set ``mask``, carrying a doubled
    card: each doubled card by its case (R-DBL-4), the rest of the trick plainly,
    to the taker (R-DBL-5, R-CX-5)."""
    p0 = p1 = p2 = p3 = 0
    here = 0
    for card, doubler in doubled:
        if mask >> card & 1:
            here |= 1 << card
            _, (a, b, c, d) = doubled_card_points(card, doubler, taker, leader, rules)
            p0, p1, p2, p3 = p0 + a, p1 + b, p2 + c, p3 + d
    value = taken_points(1, mask, rules, here)
    if taker == 0:
        return (p0 + value, p1, p2, p3)
    if taker == 1:
        return (p0, p1 + value, p2, p3)
    return (p0, p1, p2 + value, p3) if taker == 2 else (p0, p1, p2, p3 + value)


def trix_points(finishing_order: Sequence[int], places: Sequence[int]) -> tuple[int, int, int, int]:
    """The four seats' points for a TRIX finishing order (R-TX-4).

    ``places`` are the points of 1st … 4th (a ruleset's ``trix_places``).

    >>> trix_points([2, 0, 3, 1], (200, 150, 100, 50))
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


def worst_seats(seats: Sequence[int], *, lowest_wins: bool = False) -> tuple[int, ...]:
    """The seats with the worst total: the lowest, or the highest when the lowest
    wins (R-OPT-6); R-OPT-10's losing team is theirs.

    >>> worst_seats([10, -45, -40, 75]), worst_seats([10, -45, -40, 75], lowest_wins=True)
    ((1,), (3,))
    """
    worst = max(seats) if lowest_wins else min(seats)
    return tuple(s for s in range(4) if seats[s] == worst)


_SEAT_RESULTS = (MatchResult.SEAT0, MatchResult.SEAT1, MatchResult.SEAT2, MatchResult.SEAT3)


def winners(
    seats: Sequence[int],
    *,
    partnership: bool = True,
    lowest_wins: bool = False,
    worst_seat_loses: bool = False,
) -> tuple[MatchResult, tuple[int, ...]]:
    """The result of a finished match and its winning seats.

    Partnership: the winning team's two seats, all four on a draw (R-MATCH-8).
    Individual: the seats with the best total, ties shared (R-IND-1).  With
    ``worst_seat_loses`` (partnership): the team of the seat with the worst
    total loses; worst totals tied across the two teams draw (R-OPT-10).

    >>> winners([10, 40, -90, 40], partnership=False)
    (<MatchResult.SHARED: 'shared'>, (1, 3))
    >>> winners([10, 40, -90, 40])
    (<MatchResult.TEAM1: 'team1'>, (1, 3))
    >>> winners([10, -45, -40, 75], worst_seat_loses=True)   # teams 0: -30, 1: +30
    (<MatchResult.TEAM0: 'team0'>, (0, 2))
    """
    if partnership:
        if worst_seat_loses:
            losing = {team_of(s) for s in worst_seats(seats, lowest_wins=lowest_wins)}
            if len(losing) == 2:
                return MatchResult.DRAW, (0, 1, 2, 3)
            result = MatchResult.TEAM1 if losing == {0} else MatchResult.TEAM0
        else:
            result = match_result(team_totals(seats), lowest_wins=lowest_wins)
        if result is MatchResult.DRAW:
            return result, (0, 1, 2, 3)
        return result, TEAMS[0] if result is MatchResult.TEAM0 else TEAMS[1]
    best = min(seats) if lowest_wins else max(seats)
    top = tuple(s for s in range(4) if seats[s] == best)
    return (_SEAT_RESULTS[top[0]] if len(top) == 1 else MatchResult.SHARED), top


def match_outcome(seats: Sequence[int], ruleset: Ruleset) -> tuple[MatchResult, tuple[int, ...]]:
    """The result of a finished match of ``ruleset`` with final seat totals ``seats``,
    and its winning seats (R-MATCH-8, R-IND-1, R-OPT-6).

    >>> from trixcomplex.core.rulesets import CLASSIC, PARTNERSHIP
    >>> match_outcome([10, 40, -90, 40], PARTNERSHIP), match_outcome([10, 40, -90, 40], CLASSIC)
    ((<MatchResult.TEAM1: 'team1'>, (1, 3)), (<MatchResult.SHARED: 'shared'>, (1, 3)))
    """
    return winners(
        seats,
        partnership=ruleset.partnership,
        lowest_wins=ruleset.reversed_scores,
        worst_seat_loses=ruleset.worst_seat_loses,
    )


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

    >>> from trixcomplex.core.cards import parse_card
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
        return _taken(
            cls, tricks, diamonds, queens, king_of_hearts, doubled_queens, doubled_king_of_hearts
        )

    @property
    def plain_queens(self) -> tuple[Card, ...]:
        """The Queens taken that were not doubled (charged by R-CX-5)."""
        return tuple(q for q in self.queens if q not in self.doubled_queens)

    @property
    def plain_king_of_hearts(self) -> bool:
        """Whether the seat took K♥ undoubled (charged by R-CX-5)."""
        return self.king_of_hearts and not self.doubled_king_of_hearts


_new = object.__new__
(
    _set_tricks, _set_diamonds, _set_queens, _set_king_of_hearts, _set_place,
    _set_doubled_queens, _set_doubled_king_of_hearts,
) = (SeatBreakdown.__dict__[name].__set__ for name in (
    "tricks", "diamonds", "queens", "king_of_hearts", "place",
    "doubled_queens", "doubled_king_of_hearts",
))  # fmt: skip


def _taken(
    cls: type[SeatBreakdown],
    tricks: int,
    diamonds: int,
    queens: tuple[Card, ...],
    king_of_hearts: bool,
    doubled_queens: tuple[Card, ...],
    doubled_king_of_hearts: bool,
) -> SeatBreakdown:
    """:meth:`SeatBreakdown.taken`, positional, its slots set directly: four of these
    end every trick deal (``complex_result``)."""
    made: SeatBreakdown = _new(cls)
    _set_tricks(made, tricks)
    _set_diamonds(made, diamonds)
    _set_queens(made, queens)
    _set_king_of_hearts(made, king_of_hearts)
    _set_place(made, None)
    _set_doubled_queens(made, doubled_queens)
    _set_doubled_king_of_hearts(made, doubled_king_of_hearts)
    return made


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
