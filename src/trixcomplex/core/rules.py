"""The rules as pure functions: the public helpers for rendering, the CLI and bots.

Each rule is decided by exactly one function, and the engine itself
(:func:`~trixcomplex.apply`, :func:`~trixcomplex.legal_moves`, the fast
:func:`~trixcomplex.playout`) calls the very same function.  This module
gathers them under one public name, so that nothing above the engine needs
the contract modules' internals.  Card sets are 52-bit ints (bit ``c`` for
card ``c``), as in :class:`~trixcomplex.MatchState`; ``rules`` arguments are
a contract's :class:`~trixcomplex.TrickRules` under a ruleset
(``ruleset.trick_rules(contract)``).

>>> import trixcomplex as tc
>>> from trixcomplex import rules
>>> cards = [tc.parse_card(c) for c in ("5H", "KH", "QD", "9H")]
>>> rules.trick_winner(0, cards)                      # K♥ is the highest heart
1
>>> complex_rules = tc.PARTNERSHIP.trick_rules(tc.Contract.COMPLEX)
>>> rules.trick_points(cards, 0, 1, (), complex_rules)   # R-CX-5: -15 -75 -10 -25
(0, -125, 0, 0)

Which cards are legal:

- :func:`trick_legal_cards` — in a trick, under every :class:`~trixcomplex.TrickRules`
  (R-CX-2, R-CL-2, R-OPT-2, R-OPT-4);
- :func:`trix_playable`, :func:`trix_playable_after`, :func:`trix_legal_cards` — in TRIX
  (R-TX-2);
  :func:`row_ends` — a TRIX row's ends.

Tricks: :func:`trick_winner` (the current winner, and a full trick's taker,
R-CX-3), :func:`trick_points` (what a trick costs: R-CX-5, R-DBL-4, R-DBL-5,
R-CL-2 … R-CL-7; every number read from the rules), :func:`taken_points`
(what the tricks and cards a seat took cost, the doubled cards apart: the
charges both a trick and a finished deal's result are scored by),
:func:`combine_trick_rules`
(a combined deal's rules, R-OPT-9),
:func:`doubled_card_points`, :func:`plain_penalty`, :func:`plain_penalties`,
:func:`trick_deal_over` (R-CX-4, R-CL-2 … R-CL-4), :data:`TRICKS_PER_DEAL`,
:func:`card_set` (the cards of a deal's doubles), :func:`tally_tricks` (what
each seat took, for a deal's result).

TRIX: :func:`next_to_lay` (R-TX-1; :data:`NEXT_TO_LAY`, its answers for every
set of seats holding cards), :func:`gone_out` (the finishing order
and the last place, R-TX-4), :func:`trix_points`, :func:`bad_hand`,
:func:`redeal_window` and :func:`redeal_seat` (R-OPT-8).

A deal's result from what the players report (the score keeper's):
:func:`reported_trick_result` and :func:`reported_trix_result`, scored by the very
functions that score a played deal.

The match: :func:`kingdom_after` and :func:`match_finished` (the Kingdom and the
match's end, read from the finished deals; R-MATCH-1, R-OPT-9),
:func:`choosable_contracts` (the owner's choices, R-MATCH-5, R-OPT-9),
:func:`kingdom_of`, :func:`played_in_kingdom`, :func:`starts_kingdom` (by deal
number, without R-OPT-9), :func:`deal_owner`, :func:`owner_before`
(R-MATCH-1, R-MATCH-3, R-MATCH-4), :data:`SEVEN_OF_HEARTS`,
:func:`team_totals` (R-MATCH-7), :func:`standings` (each seat's total as it
counts for the seat: R-MATCH-7, R-OPT-6), :func:`match_outcome` (R-MATCH-8,
R-IND-1, R-OPT-6, R-OPT-10) and :func:`worst_seats`.

The card sets :data:`KING_OF_HEARTS` (a card), :data:`QUEENS`,
:data:`DIAMONDS` and :data:`DOUBLABLE` (R-DBL-1).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .kingdoms import (
    SEVEN_OF_HEARTS,
    choosable_contracts,
    deal_owner,
    kingdom_after,
    kingdom_of,
    match_finished,
    owner_before,
    played_in_kingdom,
    starts_kingdom,
)
from .moves import Contract
from .rulesets import DIAMONDS, DOUBLABLE, KING_OF_HEARTS, QUEENS, Ruleset, combine_trick_rules
from .scoring import (
    DealResult,
    SeatBreakdown,
    doubled_card_points,
    match_outcome,
    plain_penalties,
    plain_penalty,
    taken_points,
    team_totals,
    trick_points,
    trix_points,
    worst_seats,
)
from .state import redeal_seat, redeal_window
from .tricks import (
    TRICKS_PER_DEAL,
    Trick,
    card_set,
    taken_result,
    tally_tricks,
    trick_deal_over,
    trick_winner,
)
from .tricks import legal_cards as trick_legal_cards
from .trix import NEXT_TO_LAY, bad_hand, gone_out, next_to_lay, row_ends
from .trix import legal_cards as trix_legal_cards
from .trix import playable as trix_playable
from .trix import playable_after as trix_playable_after

__all__ = [
    "DIAMONDS",
    "DOUBLABLE",
    "KING_OF_HEARTS",
    "NEXT_TO_LAY",
    "QUEENS",
    "SEVEN_OF_HEARTS",
    "TRICKS_PER_DEAL",
    "bad_hand",
    "card_set",
    "choosable_contracts",
    "combine_trick_rules",
    "deal_owner",
    "doubled_card_points",
    "gone_out",
    "kingdom_after",
    "kingdom_of",
    "match_finished",
    "match_outcome",
    "next_to_lay",
    "owner_before",
    "plain_penalties",
    "plain_penalty",
    "played_in_kingdom",
    "redeal_seat",
    "redeal_window",
    "reported_trick_result",
    "reported_trix_result",
    "row_ends",
    "standings",
    "starts_kingdom",
    "taken_points",
    "tally_tricks",
    "team_totals",
    "trick_deal_over",
    "trick_legal_cards",
    "trick_points",
    "trick_winner",
    "trix_legal_cards",
    "trix_playable",
    "trix_playable_after",
    "trix_points",
    "worst_seats",
]


def standings(seats: Sequence[int], ruleset: Ruleset) -> tuple[int, int, int, int]:
    """Each seat's total as it counts for that seat, from four seat totals: its
    team's Team Total in a partnership ruleset (R-MATCH-7), else its own; negated
    under ``reversed_scores`` (R-OPT-6), so that higher is always better.

    >>> from trixcomplex.core.rulesets import CLASSIC, PARTNERSHIP
    >>> standings([10, -45, -40, 75], PARTNERSHIP)
    (-30, 30, -30, 30)
    >>> standings([10, -45, -40, 75], CLASSIC.evolve(reversed_scores=True))
    (-10, 45, 40, -75)
    """
    sign = -1 if ruleset.reversed_scores else 1
    if ruleset.partnership:
        team = team_totals(seats)
        return (sign * team[0], sign * team[1], sign * team[0], sign * team[1])
    return (sign * seats[0], sign * seats[1], sign * seats[2], sign * seats[3])


def reported_trick_result(
    number: int,
    kingdom: int,
    contract: Contract,
    owner: int,
    ruleset: Ruleset,
    tricks: Sequence[int],
    won: Sequence[int],
    doubled: Sequence[tuple[Card, int, int, int]],
) -> DealResult:
    """The :class:`~trixcomplex.DealResult` of a trick deal of ``contract`` from what each
    seat took, as players report it: ``tricks[s]`` tricks and the card set ``won[s]``
    (its K♥, Queens and diamonds are what count), and each doubled card as ``(card,
    doubler, taker, leader)`` (the seat that doubled it, the seat that took it and the
    seat that led that trick, R-DBL-4).

    Scored by the function that scores a played deal (``taken_result``: R-CX-5,
    R-CL-2 … R-CL-5, R-DBL-4, R-DBL-5, R-OPT-9), so a reported deal and the same deal
    played score alike.  Each doubled card's trick is read from a stand-in trick
    holding that card alone, led by its leader and taken by its taker: the only facts
    of that trick R-DBL-4 reads.  The outcome is not checked here (see
    :func:`trixcomplex.io.scorekeeper.score_deal`).

    >>> from trixcomplex.core.cards import parse_card
    >>> from trixcomplex.core.rulesets import PARTNERSHIP
    >>> kh = parse_card("KH")
    >>> everything = (1 << 52) - 1
    >>> result = reported_trick_result(1, 1, Contract.COMPLEX, 0, PARTNERSHIP,
    ...     (13, 0, 0, 0), (everything, 0, 0, 0), [(kh, 1, 0, 0)])
    >>> result.points   # -500, but the doubled K♥ costs seat 0 -150 and pays seat 1 +75
    (-575, 75, 0, 0)
    """
    pairs = tuple((card, doubler) for card, doubler, _, _ in doubled)
    carried = [Trick(leader, (card, card, card, card), taker) for card, _, taker, leader in doubled]
    rules = ruleset.trick_rules(contract)
    return taken_result(number, owner, contract, kingdom, rules, pairs, tricks, won, carried)


_PLACES = tuple(SeatBreakdown(place=p) for p in (1, 2, 3, 4))


def reported_trix_result(
    number: int, kingdom: int, owner: int, ruleset: Ruleset, finishing_order: Sequence[int]
) -> DealResult:
    """The :class:`~trixcomplex.DealResult` of a TRIX deal with the finishing order
    ``finishing_order`` (all four seats, first out first), scored by :func:`trix_points`
    with the ruleset's places (R-TX-4, R-OPT-6), as a played TRIX deal is.

    >>> from trixcomplex.core.rulesets import PARTNERSHIP
    >>> reported_trix_result(2, 1, 0, PARTNERSHIP, (2, 0, 3, 1)).points
    (150, 50, 200, 100)
    """
    order = tuple(finishing_order)
    points = trix_points(order, ruleset.trix_places)
    seats = (
        _PLACES[order.index(0)], _PLACES[order.index(1)],
        _PLACES[order.index(2)], _PLACES[order.index(3)],
    )  # fmt: skip
    return DealResult(number, kingdom, Contract.TRIX, owner, points, seats, (), order)
