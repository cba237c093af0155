"""The last tricks, solved exactly: every layout of the unseen cards, every card played.

In the last two or three tricks of a trick contract few cards are unseen,
and the layouts of them that agree with the view (hand sizes, the suits a
seat has shown out of, the cards it cannot hold, the doubled cards it is
known to hold) are few: at most 90 with two tricks left, 1,680 with three.
:func:`layouts` lists them; :func:`solve` plays every one out exactly, each
side choosing its best card with all the hands open (my side maximising my
:func:`worth`, the others minimising it: a partnership's opponents, or in an
individual ruleset everybody else); :func:`endgame_values` gives, per legal
card of mine, its value summed over the layouts (weighted, when the layouts
are weighted by how likely they made the play seen so far).

>>> from trixcomplex.bots.club import position
>>> sit = position(0, "AS 2H", out="KS 3H QS 4H JS 5H")
>>> len(list(layouts(sit)))
90
>>> len(list(layouts(position(0, "AS 2H", out="KS 3H QS 4H JS 5H", voids={1: "S"}))))
18

With the hands open, leading A♠ takes a clean trick and throws the last spade
trick, and Q♦ on it, to seat 3 (+35 to my side); leading 2♠ makes seat 1 win
with K♠ and then take its own Q♦ (+65):

>>> sit = position(0, "AS 2S", out="KS QD 3S 4S 5S 6S")
>>> hands = (sit.hand, _cards("KS QD"), _cards("3S 4S"), _cards("5S 6S"))
>>> [(str(card), value) for card, value in card_values(sit, hands)]
[('2S', 65), ('AS', 35)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import attrs

from ..core.cards import ALL_CARDS, Card, cards_of, mask_of, parse_card
from ..core.rules import DOUBLABLE, trick_legal_cards, trick_points, trick_winner
from ..core.rulesets import Ruleset, TrickRules
from .situation import Situation

__all__ = [
    "ENDGAME_LAYOUTS",
    "card_values",
    "endgame_card",
    "endgame_values",
    "layouts",
    "solve",
    "worth",
]


def _cards(text: str) -> int:
    """A card set from cards separated by spaces (for the examples)."""
    return mask_of(parse_card(c) for c in text.split())


def worth(points: Sequence[int], seat: int, ruleset: Ruleset) -> int:
    """What the four seats' ``points`` are worth to ``seat``: in a partnership ruleset
    its team's minus the other team's (R-MATCH-8), in an individual one three times its
    own minus the others' (R-IND-1); negated under reversed scores (R-OPT-6).

    >>> from trixcomplex.core.rulesets import PARTNERSHIP
    >>> worth((-15, 0, -25, 0), 1, PARTNERSHIP)
    40
    """
    if ruleset.partnership:
        team = seat % 2
        value = points[team] + points[team + 2] - points[1 - team] - points[3 - team]
    else:
        value = 4 * points[seat] - sum(points)
    return -value if ruleset.reversed_scores else value


def layouts(sit: Situation) -> Iterator[tuple[int, int, int, int]]:
    """Every deal of the unseen cards to the other seats that agrees with what ``sit``
    knows, as four hands (card sets; mine is my hand)."""
    others = [s for s in range(4) if s != sit.seat]
    unseen = sit.unseen
    allowed = {s: sit.may_hold(s) | (sit.known[s] & unseen) for s in others}
    sizes = {s: sit.hand_sizes[s] for s in others}
    hands = [0, 0, 0, 0]
    hands[sit.seat] = sit.hand

    def deal(k: int, left: int) -> Iterator[tuple[int, int, int, int]]:
        if k == len(others):
            if not left:
                yield (hands[0], hands[1], hands[2], hands[3])
            return
        seat = others[k]
        must = sit.known[seat] & unseen
        pool = left & allowed[seat] & ~must
        need = sizes[seat] - must.bit_count()
        if need < 0 or pool.bit_count() < need:
            return
        for extra in _subsets(pool, need):
            hands[seat] = must | extra
            yield from deal(k + 1, left & ~hands[seat])

    yield from deal(0, unseen)


def _subsets(pool: int, size: int) -> Iterator[int]:
    """The subsets of the card set ``pool`` with ``size`` cards."""
    if size == 0:
        yield 0
        return
    cards = cards_of(pool)
    if len(cards) < size:
        return
    first = 1 << cards[0]
    rest = pool & ~first
    for sub in _subsets(rest, size - 1):
        yield first | sub
    yield from _subsets(rest, size)


@attrs.frozen
class _Table:
    """What stays the same while the last tricks are solved."""

    me: int
    ruleset: Ruleset
    rules: TrickRules
    doubled: tuple[tuple[Card, int], ...]


_Memo = dict[tuple[object, ...], float]
"""Solved positions: the exact value of each (a bound found in a narrow window is
not kept)."""

_INF = float("inf")

_ADJACENT = sum(1 << c for c in range(52) if c % 13 != 12) & ~(DOUBLABLE | DOUBLABLE >> 1)
"""The cards whose next higher card is of the same suit, neither of the two a card
that may be doubled (K♥, a Queen): such a pair in one hand plays alike."""


def solve(
    table: _Table,
    hands: tuple[int, int, int, int],
    trick: tuple[Card, ...],
    leader: int,
    memo: _Memo,
    alpha: float = -_INF,
    beta: float = _INF,
) -> float:
    """The value to ``table.me`` (:func:`worth` of the points still to come) of the
    position, every seat playing its side's best card with all hands open.

    An alpha-beta search: a value at or below ``alpha`` or at or above ``beta``
    is only a bound (the caller has a better choice elsewhere); with the full
    window it is exact.  Of two cards of one suit next to each other in a hand
    (no card between them left anywhere, neither K♥ nor a Queen) only the lower
    is tried: they take the same tricks and cost the same.
    """
    if not any(hands) and not trick:
        return 0
    key = (hands, trick, leader)
    found = memo.get(key)
    if found is not None:
        return found
    a, b = alpha, beta
    seat = (leader + len(trick)) % 4
    mine = seat == table.me or (table.ruleset.partnership and seat % 2 == table.me % 2)
    legal = trick_legal_cards(hands[seat], trick, table.rules)
    legal &= ~((legal & _ADJACENT) << 1)
    best = -_INF if mine else _INF
    for card in cards_of(legal):
        value = _after(table, hands, trick, leader, seat, card, memo, a, b)
        if mine:
            if value > best:
                best = value
                a = max(a, value)
        elif value < best:
            best = value
            b = min(b, value)
        if a >= b:
            break
    if alpha < best < beta:
        memo[key] = best
    return best


def _after(
    table: _Table,
    hands: tuple[int, int, int, int],
    trick: tuple[Card, ...],
    leader: int,
    seat: int,
    card: Card,
    memo: _Memo,
    alpha: float = -_INF,
    beta: float = _INF,
) -> float:
    """The value after ``seat`` plays ``card`` (within ``alpha``, ``beta``: :func:`solve`)."""
    held = list(hands)
    held[seat] &= ~(1 << card)
    now = (held[0], held[1], held[2], held[3])
    played = (*trick, ALL_CARDS[card])
    if len(played) < 4:
        return solve(table, now, played, leader, memo, alpha, beta)
    taker = trick_winner(leader, played)
    points = trick_points(played, leader, taker, table.doubled, table.rules)
    gained = worth(points, table.me, table.ruleset)
    return gained + solve(table, now, (), taker, memo, alpha - gained, beta - gained)


def _table(sit: Situation) -> _Table | None:
    """The solver's table for ``sit``, or ``None`` for a contract whose rules are not
    the ruleset's own (a combined contract: the playouts decide)."""
    contract = sit.trick_contract
    if contract not in sit.ruleset.contracts:
        return None
    return _Table(sit.seat, sit.ruleset, sit.ruleset.trick_rules(contract), sit.doubled)


def card_values(
    sit: Situation,
    hands: tuple[int, int, int, int],
    memo: _Memo | None = None,
) -> list[tuple[Card, int]]:
    """Per legal card of mine, its exact value (:func:`worth` of the points to come)
    when the four ``hands`` are these, best first (the lower card first on a tie).
    Raises ``ValueError`` for a combined contract (no rules of its own)."""
    table = _table(sit)
    if table is None:
        raise ValueError(
            f"no exact solve for {sit.trick_contract.value}: not a contract of its own"
        )
    memo = {} if memo is None else memo
    legal = cards_of(trick_legal_cards(sit.hand, sit.trick, table.rules))
    values = [
        (c, int(_after(table, hands, sit.trick, sit.leader, sit.seat, c, memo))) for c in legal
    ]
    return sorted(values, key=lambda cv: (-cv[1], cv[0]))


def endgame_values(
    sit: Situation,
    weigh: Callable[[tuple[int, int, int, int]], float] | None = None,
    limit: int | None = None,
) -> tuple[list[Card], list[float], int] | None:
    """My legal cards, each one's mean value over every layout (:func:`layouts`), each
    layout solved exactly (:func:`card_values`), and the number of layouts.  ``weigh``,
    if given, is a function of the four hands giving a layout's weight (the mean is
    then weighted).  ``limit``, if given, is a budget: when more layouts agree with
    the view, only ``limit`` of them, spread evenly over the list, are solved (the
    number returned is still that of every layout).  ``None`` for a combined
    contract (the playouts decide), or when no layout agrees with the view or every
    one weighs nothing."""
    if _table(sit) is None:
        return None
    every = list(layouts(sit))
    total = len(every)
    if limit is not None and total > limit:
        every = [every[i * total // limit] for i in range(limit)]
    memo: _Memo = {}
    totals: dict[Card, float] = {}
    weights = 0.0
    for hands in every:
        weight = 1.0 if weigh is None else weigh(hands)
        weights += weight
        for card, value in card_values(sit, hands, memo):
            totals[card] = totals.get(card, 0.0) + weight * value
    if not weights:
        return None
    cards = sorted(totals)
    return cards, [totals[c] / weights for c in cards], total


ENDGAME_LAYOUTS = 90
"""The budget of :func:`endgame_card`: the layouts of the last two tricks it solves
(every one: there are at most 90); a layout of three tricks takes about six times as
long, so of the hundreds of the last three an even spread of 15 is solved (a few ms of
CPU on average; the rare slow one, in a classic contract where few cards are decided
early, takes up to about a tenth of a second)."""


def endgame_card(sit: Situation, tactic: Card, budget: int = ENDGAME_LAYOUTS) -> Card | None:
    """The card of the best mean exact value over the layouts of the unseen cards
    (:func:`endgame_values`, each layout equally likely; when more agree with the
    view than ``budget`` allows, an even spread of them: ``budget`` layouts of two
    tricks, one sixth as many of three), ``tactic`` (the card the tactics chose) on a
    tie; ``None`` when there is no exact solve (a combined contract).

    RuleBot version 2 plays it in the last tricks.  Here, over the 90 layouts,
    cashing A♠ first is worth +1.7 to my side on average and leading 2♠ (the low
    lead the tactics like) −25: the 2♠ may lose to K♠, whose holder then
    leads me into taking the last trick with Q♦ on it:

    >>> from trixcomplex.bots.club import position
    >>> sit = position(0, "AS 2S", out="KS QD 3S 4S 5S 6S")
    >>> [round(v, 1) for v in endgame_values(sit)[1]]
    [-25.0, 1.7]
    >>> str(endgame_card(sit, parse_card("2S")))
    'AS'

    A budget below the 90 layouts solves an even spread of them, and a small one can
    mislead:

    >>> str(endgame_card(sit, parse_card("2S"), budget=10))
    '2S'
    """
    tricks = sit.hand.bit_count()  # the tricks left, this one included
    solved = endgame_values(sit, limit=max(1, budget // 6 ** max(0, tricks - 2)))
    if solved is None:
        return None
    cards, means, _ = solved
    if tactic not in cards:
        return None
    best = max(means)
    if means[cards.index(tactic)] >= best - 1e-9:
        return tactic
    return cards[means.index(best)]
