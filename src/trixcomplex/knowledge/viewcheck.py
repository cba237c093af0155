"""Checking a view that came from outside (a client, a file): :func:`check_view`.

A :class:`~trixcomplex.View` built by :func:`~trixcomplex.view` is always
consistent.  One read from JSON may have been tampered with: a seat number 5
in ``laid``, a playing view of deal 0, a DEAL view holding a hand, a finished
deal's points +10.  :func:`~trixcomplex.from_json` runs :func:`check_view` on
every view it reads (its ranges and its score history, :func:`check_score`,
first), and :func:`~trixcomplex.sample_world` runs :func:`check_view_ranges`
before it samples and checks the world it returns.

>>> import random
>>> import attrs
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(1)))
>>> check_view(tc.view(state, 2))
>>> try:
...     check_view(attrs.evolve(tc.view(state, 2), deal_number=0))
... except tc.TrixError as exc:
...     print(exc.code, "-", exc)
view.inconsistent - inconsistent view: deal_number 0 in phase CHOOSE (1..8 while playing)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core.cards import Card, Rank, Suit
from ..core.engine import DealResult, DoubledCard, Phase, SeatBreakdown
from ..core.errors import TrixError
from ..core.moves import Contract
from ..core.rules import (
    DIAMONDS,
    KING_OF_HEARTS,
    QUEENS,
    choosable_contracts,
    deal_owner,
    doubled_card_points,
    kingdom_after,
    match_finished,
    taken_points,
    team_totals,
    trix_points,
)
from ..core.rulesets import Ruleset, TrickRules
from .views import View

__all__ = ["check_score", "check_view", "check_view_ranges"]

_PLAYING = (Phase.CHOOSE, Phase.DOUBLE, Phase.COMPLEX, Phase.TRICKS, Phase.TRIX)


def _fail(reason: str, rule: str | None = None) -> TrixError:
    suffix = f" ({rule})" if rule is not None else ""
    return TrixError(f"inconsistent view: {reason}{suffix}", code="view.inconsistent", rule=rule)


def _seat_ok(value: object) -> bool:
    return type(value) is int and 0 <= value <= 3


def check_view_ranges(view: View) -> None:
    """Raise :class:`~trixcomplex.TrixError` (``view.inconsistent``) unless every seat
    number, deal number and hand size of ``view`` is in range for its phase and ruleset."""
    if view.seat is not None and not _seat_ok(view.seat):
        raise _fail(f"a seat is an int from 0 to 3 or None, not {view.seat!r:.40}")
    seats = [("owner", view.owner), ("turn", view.turn), ("leader", view.leader)]
    seats += [("redeals", s) for s in view.redeals]
    seats += [("finishing_order", s) for s in view.finishing_order]
    seats += [("laid", s) for s, _ in view.laid] + [("passes", s) for s, _ in view.passes]
    seats += [("doubled", s) for _, s in view.doubled]
    seats += [("tricks", t.leader) for t in view.tricks] + [
        ("tricks", t.taker) for t in view.tricks
    ]
    for name, seat in seats:
        if seat is not None and not _seat_ok(seat):
            raise _fail(f"{name} names seat {seat!r}, not 0..3")
    last = view.ruleset.deals_per_match
    if view.phase in _PLAYING:
        if not 1 <= view.deal_number <= last:
            raise _fail(
                f"deal_number {view.deal_number} in phase {view.phase.value} "
                f"(1..{last} while playing)"
            )
        if view.owner is None:
            raise _fail(f"no Kingdom owner in phase {view.phase.value}")
    elif view.phase is Phase.DEAL and not 0 <= view.deal_number < last + bool(view.redeals):
        # waiting for the next deal, or for the same deal again after a redeal (R-OPT-8)
        most = last if view.redeals else last - 1
        raise _fail(f"deal_number {view.deal_number} while waiting for a deal (0..{most})")
    elif view.phase is Phase.OVER and view.deal_number != len(view.score.deals):
        raise _fail(
            f"deal_number {view.deal_number} in a finished match "
            f"(must be {len(view.score.deals)}, the deals played)"
        )
    if any(not 0 <= n <= 13 for n in view.hand_sizes):
        raise _fail(f"hand sizes {list(view.hand_sizes)} are not 0..13")
    if view.phase not in _PLAYING and (view.hand or any(view.hand_sizes)):
        raise _fail(f"cards in hand in phase {view.phase.value}")
    own = 0 if view.seat is None else view.hand_sizes[view.seat]
    if len(view.hand) != own:
        raise _fail(f"a hand of {len(view.hand)} cards, but its hand size is {own}")


def check_view(view: View) -> None:
    """Raise :class:`~trixcomplex.TrixError` (``view.inconsistent``) unless some state of
    the match shows exactly ``view`` to its seat.

    The ranges (:func:`check_view_ranges`) and the score history
    (:func:`check_score`) are checked first, then a world is sampled
    (:func:`~trixcomplex.sample_world`) and its view compared with ``view``:
    a view that passes is one a reachable deal could show, after finished
    deals that add up as the rules say.
    """
    from .worlds import sample_world  # worlds checks ranges with this module

    check_view_ranges(view)  # sample_world checks them too: first, for their messages
    check_score(view)
    try:
        sample_world(view, random.Random(0))
    except TrixError:
        raise
    except Exception as exc:  # a made-up view may trip any check of the sampler
        raise _fail(f"no state shows this view ({type(exc).__name__})") from None


# -- the score history ----------------------------------------------------------------

_QUEEN_OF_DIAMONDS = Card.of(Rank.QUEEN, Suit.DIAMONDS)
_PLAIN_DIAMONDS = tuple(c for c in range(52) if DIAMONDS >> c & 1 and c != _QUEEN_OF_DIAMONDS)
"""The twelve diamonds that are not a Queen, in order."""


def check_score(view: View) -> None:
    """Raise :class:`~trixcomplex.TrixError` (``view.inconsistent``, naming the field and
    the clause) unless ``view.score`` is a history a match of ``view.ruleset`` can have
    left, as far as the view's own facts tell.

    - At most the ruleset's deals, numbered 1, 2, … in order, each in the Kingdom
      the deals before it leave, none after the match is over (R-MATCH-1, R-OPT-9).
    - Each deal's contract one the Kingdom had left to play (R-SET-2, R-OPT-5, R-OPT-9).
    - The owner the same through a Kingdom and the next seat after it (R-MATCH-4);
      the view's own owner follows the last finished deal's the same way.
    - Each deal sums to its contract's total, :meth:`~trixcomplex.Ruleset.deal_total`
      (R-CX-6, R-DBL-5, R-TX-4, R-CL-8).
    - A trick deal's breakdown is one its cards allow (each card taken once, at most
      four a trick, every penalty card taken by the end: R-CX-4, R-CL-2 … R-CL-5),
      its doubled cards are doublable in the contract and cost what their case says
      (R-DBL-1, R-CL-7, R-DBL-4), and each seat's points are what it took
      (R-CX-5, R-DBL-5).  A TRIX deal's points and places follow from its
      finishing order (R-TX-4).
    - The seat totals are the sums of the deals' points; the Team Totals follow from
      them (R-MATCH-7).

    What no view can tell (who held 7♥ in deal 1, which tricks a seat took, who
    doubled) is trusted: see "Trusted from the server" on the "Hidden information"
    page.

    >>> import random, attrs
    >>> import trixcomplex as tc
    >>> final = tc.playout(tc.new_match(), random.Random(1), until="match")
    >>> seen = tc.view(final, None)
    >>> check_score(seen)
    >>> first = seen.score.deals[0]
    >>> cheat = attrs.evolve(first, points=(first.points[0] + 10, *first.points[1:]))
    >>> try:
    ...     check_score(attrs.evolve(seen, score=attrs.evolve(seen.score, deals=(cheat,
    ...         *seen.score.deals[1:]))))
    ... except tc.TrixError as exc:
    ...     print(exc.code, exc.rule)
    view.inconsistent R-CL-8
    """
    ruleset, score = view.ruleset, view.score
    deals = score.deals
    totals = [0, 0, 0, 0]
    for index, deal in enumerate(deals):
        where = f"score.deals[{index}]"
        _check_deal_order(deal, deals[:index], ruleset, where)
        _check_deal_points(deal, ruleset, where)
        _add_points(totals, deal.points)
    if list(score.seats) != totals:
        raise _fail(
            f"score.seats {list(score.seats)} are not the sums of the deals' points {totals}",
            "R-MATCH-7",
        )
    if score.teams != team_totals(score.seats):
        raise _fail(f"score.teams {list(score.teams)} do not follow from score.seats", "R-MATCH-7")
    _check_current_deal(view)


def _check_deal_order(
    deal: DealResult, before: Sequence[DealResult], ruleset: Ruleset, where: str
) -> None:
    """A finished deal's number, Kingdom, contract and owner follow from the deals before it."""
    number = len(before) + 1
    if deal.number != number:
        raise _fail(f"{where}.number is {deal.number!r:.20}, not {number}", "R-MATCH-1")
    if before and match_finished(before, ruleset):
        raise _fail(f"{where}: the match was over after deal {len(before)}", "R-MATCH-1")
    kingdom, used = kingdom_after(before, ruleset)
    if deal.kingdom != kingdom:
        raise _fail(f"{where}.kingdom is {deal.kingdom!r:.20}, not {kingdom}", "R-MATCH-1")
    left = tuple(c for c in ruleset.contracts if c not in used)
    allowed = left[:1] if ruleset.fixed_order else choosable_contracts(left, ruleset)
    if deal.contract not in allowed:
        names = ", ".join(c.value for c in allowed)
        raise _fail(
            f"{where}.contract {deal.contract.value} is not one Kingdom {kingdom} had left "
            f"to play ({names})",
            "R-SET-2",
        )
    if type(deal.owner) is not int or not 0 <= deal.owner <= 3:
        raise _fail(f"{where}.owner names seat {deal.owner!r:.20}, not 0..3", "R-MATCH-4")
    if before:  # deal 1's owner held 7H (R-MATCH-3): the view cannot tell
        owner = deal_owner(number, (), before[-1].owner, ruleset, before)
        if deal.owner != owner:
            raise _fail(
                f"{where}.owner is seat {deal.owner}, not seat {owner} (the Kingdom owner "
                "rotates after each Kingdom)",
                "R-MATCH-4",
            )


def _add_points(totals: list[int], points: Sequence[int]) -> None:
    """Add the four seats' ``points`` to ``totals``."""
    for seat in range(4):
        totals[seat] += points[seat]


def _check_current_deal(view: View) -> None:
    """The view's own deal number and Kingdom owner follow the finished deals."""
    deals = view.score.deals
    done = len(deals)
    if view.phase is Phase.OVER:
        if not match_finished(deals, view.ruleset):
            raise _fail(f"a finished match after {done} deals, which do not end it", "R-MATCH-1")
        owner: int | None = deals[-1].owner
    else:
        if deals and match_finished(deals, view.ruleset):
            raise _fail(f"phase {view.phase.value} after the match's last deal", "R-MATCH-1")
        waiting = view.phase is Phase.DEAL and not view.redeals  # for the next deal
        number = done if waiting else done + 1  # the deal being played, or dealt again
        if view.deal_number != number:
            raise _fail(
                f"deal_number {view.deal_number} in phase {view.phase.value} after "
                f"{done} finished deals (must be {number})",
                "R-MATCH-1",
            )
        if waiting:
            owner = deals[-1].owner if deals else None
        elif deals:
            owner = deal_owner(number, (), deals[-1].owner, view.ruleset, deals)
        else:  # deal 1: its owner was dealt 7H (R-MATCH-3)
            return
    if view.owner != owner:
        raise _fail(
            f"owner is seat {view.owner}, but the finished deals make it seat {owner}",
            "R-MATCH-4",
        )


def _check_deal_points(deal: DealResult, ruleset: Ruleset, where: str) -> None:
    """A finished deal sums to its contract's total and its points follow from its
    breakdown (a trick deal) or its finishing order (TRIX)."""
    total = ruleset.deal_total(deal.contract)
    if sum(deal.points) != total:
        raise _fail(
            f"{where}.points {list(deal.points)} sum to {sum(deal.points)}; every "
            f"{deal.contract.value} deal sums to {total}",
            "R-CL-8",
        )
    if deal.contract is Contract.TRIX:
        _check_trix_deal(deal, ruleset, where)
    else:
        _check_trick_deal(deal, ruleset.trick_rules(deal.contract), where)


def _check_trix_deal(deal: DealResult, ruleset: Ruleset, where: str) -> None:
    order = deal.finishing_order
    if sorted(order) != [0, 1, 2, 3]:
        raise _fail(
            f"{where}.finishing_order {list(order)!r:.40} does not name each seat once", "R-TX-4"
        )
    places = tuple(SeatBreakdown(place=order.index(seat) + 1) for seat in range(4))
    if deal.seats != places or deal.doubled:
        raise _fail(f"{where}.seats are not the places of its finishing order", "R-TX-4")
    if deal.points != trix_points(order, ruleset.trix_places):
        raise _fail(f"{where}.points are not the places of its finishing order", "R-TX-4")


def _check_trick_deal(deal: DealResult, rules: TrickRules, where: str) -> None:
    if deal.finishing_order:
        raise _fail(f"{where}.finishing_order is not empty in a trick deal", "R-TX-4")
    taken = [_taken_cards(b, f"{where}.seats[{seat}]") for seat, b in enumerate(deal.seats)]
    tricks = sum(b.tricks for b in deal.seats)
    penalty = QUEENS | (1 << KING_OF_HEARTS)
    named = 0  # the Queens and K♥ taken, each by one seat only
    for cards in taken:
        if named & cards & penalty:
            raise _fail(f"{where}.seats name a Queen or K♥ twice", "R-CX-5")
        named |= cards & penalty
    if not 1 <= tricks <= 13 or (not rules.ends_when_taken and tricks != 13):
        raise _fail(f"{where}.seats take {tricks} tricks in all", "R-CX-4")
    diamonds = sum(b.diamonds for b in deal.seats)
    queens, king = (named & QUEENS).bit_count(), named >> KING_OF_HEARTS & 1
    # The 17 diamonds, Queens and K♥ not taken were still in the hands at the end.
    untaken = 17 - diamonds - (queens - (named >> _QUEEN_OF_DIAMONDS & 1)) - king
    # Every card is taken once all 13 tricks are played; a deal ending early ends
    # once all its own penalty cards are taken (R-CX-4, R-CL-2 … R-CL-4).
    every = DIAMONDS | penalty if tricks == 13 else rules.ends_when_taken
    if (
        diamonds > 13
        or untaken > 52 - 4 * tricks
        or (every & DIAMONDS == DIAMONDS and diamonds != 13)
        or (every & QUEENS == QUEENS and queens != 4)
        or (every >> KING_OF_HEARTS & 1 and not king)
    ):
        raise _fail(f"{where}.seats do not account for the cards the deal took", "R-CX-4")
    doubled = _check_doubles(deal.doubled, taken, rules, where)
    points = [taken_points(b.tricks, taken[s], rules, doubled) for s, b in enumerate(deal.seats)]
    for cost in deal.doubled:  # each seat's share of the doubled cards (R-DBL-4)
        _add_points(points, cost.points)
    if list(deal.points) != points:
        raise _fail(
            f"{where}.points {list(deal.points)} are not what its seats took ({points})",
            "R-CX-5",
        )


def _taken_cards(breakdown: SeatBreakdown, where: str) -> int:
    """A card set scoring as ``breakdown``: its Queens, its K♥, and as many diamonds."""
    tricks, diamonds, queens = breakdown.tricks, breakdown.diamonds, breakdown.queens
    if breakdown.place is not None:
        raise _fail(f"{where}.place is {breakdown.place!r:.20} in a trick deal", "R-TX-4")
    if not 0 <= tricks <= 13 or not 0 <= diamonds <= 13:
        raise _fail(f"{where} takes {tricks!r:.20} tricks and {diamonds!r:.20} diamonds", "R-CX-4")
    cards = 1 << KING_OF_HEARTS if breakdown.king_of_hearts else 0
    for queen in queens:
        if not QUEENS >> queen & 1 or cards >> queen & 1:
            raise _fail(
                f"{where}.queens {[str(q) for q in queens]} are not distinct Queens", "R-CX-5"
            )
        cards |= 1 << queen
    plain = diamonds - (cards >> _QUEEN_OF_DIAMONDS & 1)
    if plain < 0 or cards.bit_count() + plain > 4 * tricks:
        raise _fail(f"{where} holds more cards than its {tricks} tricks", "R-CX-4")
    for card in _PLAIN_DIAMONDS[:plain]:
        cards |= 1 << card
    return cards


def _check_doubles(
    doubled: Sequence[DoubledCard], taken: Sequence[int], rules: TrickRules, where: str
) -> int:
    """The set of a trick deal's doubled cards, each doublable in the deal, taken by
    its taker and costing what its case says (R-DBL-1, R-CL-7, R-DBL-4)."""
    cards = 0
    for i, cost in enumerate(doubled):
        at = f"{where}.doubled[{i}]"
        card = cost.card
        if not rules.doublable >> card & 1 or cards >> card & 1:
            raise _fail(f"{at}: {card} cannot be doubled (again) in this deal", "R-DBL-1")
        cards |= 1 << card
        seats = (cost.doubler, cost.taker, cost.leader)
        if any(type(s) is not int or not 0 <= s <= 3 for s in seats):
            raise _fail(f"{at} names a seat that is not 0..3", "R-DBL-4")
        if not taken[cost.taker] >> card & 1:
            raise _fail(f"{at}: seat {cost.taker} did not take {card}", "R-DBL-4")
        case, points = doubled_card_points(card, cost.doubler, cost.taker, cost.leader, rules)
        if (cost.case, cost.points) != (case, points):
            raise _fail(f"{at} costs case {case} {list(points)}, not what it says", "R-DBL-4")
    return cards
