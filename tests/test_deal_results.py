"""The deal-level engine against references written out from the rules (docs/rules.rst).

What a trick costs (``trick_points``: R-CX-5, R-DBL-4, R-DBL-5, R-CL-2 … R-CL-7),
the result of a finished trick deal (``complex_result`` / ``taken_result``:
the per-seat breakdown and the doubled cards' cases, R-CX-5, R-DBL-4), the
Kingdom after a deal end (``results_after``: R-MATCH-1, R-SET-2, R-OPT-9),
``apply_listed`` (R-MATCH-5, R-DBL-1, R-DBL-2) and the engine's fast
constructors, over every preset ruleset and the option variants.  The
references below count card by card with ``Card.rank``/``Card.suit`` instead
of card sets, so they share no code with the engine's.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import RULESET_VARIANTS
from trixcomplex import testing as kit
from trixcomplex.core import kingdoms, match, scoring
from trixcomplex.core import tricks as cx
from trixcomplex.core.cards import ALL_CARDS, cards_of
from trixcomplex.core.rulesets import TrickRules, combine_trick_rules

KH = tc.parse_card("KH")
SEEDS = st.integers(0, 2**32 - 1)


def every_trick_rules() -> list[TrickRules]:
    """The trick rules of every contract of every ruleset variant, combined ones included."""
    found: list[TrickRules] = []
    for ruleset in RULESET_VARIANTS:
        for contract in ruleset.contracts:
            if contract is not tc.Contract.TRIX:
                found.append(ruleset.trick_rules(contract))
        if ruleset.combined_contracts:
            trick = [c for c in ruleset.contracts if c is not tc.Contract.TRIX]
            found.append(combine_trick_rules(ruleset.trick_rules(c) for c in trick[:2]))
            found.append(combine_trick_rules(ruleset.trick_rules(c) for c in trick))
    return found


TRICK_RULES = every_trick_rules()


def plain(card: tc.Card, rules: TrickRules) -> int:
    """R-CX-5 (and R-CL-3/4): an undoubled K♥ or Queen costs its taker the rules' figure."""
    if card == KH:
        return rules.king_of_hearts
    return rules.queen if card.rank is tc.Rank.QUEEN else 0


def doubled_case(
    card: tc.Card, doubler: int, taker: int, leader: int, rules: TrickRules
) -> tuple[int, list[int]]:
    """R-DBL-4's three cases, written out: the case and the four seats' points."""
    v = -plain(card, rules)  # the card's value, positive
    points = [0, 0, 0, 0]
    if taker != doubler:  # case 1: the taker pays double, the doubler gains it once
        points[taker], points[doubler] = -2 * v, v
        return 1, points
    if leader != doubler:  # case 2: the doubler took it on another's lead
        points[doubler], points[leader] = -2 * v, v
        return 2, points
    points[doubler] = -v  # case 3: the doubler led and took it
    return 3, points


def reference_trick_points(
    cards: Sequence[tc.Card],
    leader: int,
    taker: int,
    doubled: dict[tc.Card, int],
    rules: TrickRules,
) -> list[int]:
    points = [0, 0, 0, 0]
    points[taker] += rules.trick  # R-CX-5: every trick
    points[taker] += rules.diamond * sum(c.suit is tc.Suit.DIAMONDS for c in cards)
    for card in cards:
        if card in doubled:  # R-DBL-4: the doubled card's points replace its penalty
            _, extra = doubled_case(card, doubled[card], taker, leader, rules)
            points = [a + b for a, b in zip(points, extra, strict=True)]
        else:
            points[taker] += plain(card, rules)
    return points


@settings(max_examples=300)
@given(st.data())
def test_r_cx_5_r_dbl_4_trick_points_match_the_rules_written_out(data: st.DataObject) -> None:
    """R-CX-5, R-DBL-4, R-DBL-5, R-CL-2 … R-CL-7: any four cards, any leader, doubles among the
    rules' doublable cards: the points are the reference's, for every contract's rules."""
    rules = data.draw(st.sampled_from(TRICK_RULES))
    picked = data.draw(st.lists(st.sampled_from(ALL_CARDS), min_size=4, max_size=4, unique=True))
    leader = data.draw(st.integers(0, 3))
    taker = tc.rules.trick_winner(leader, picked)
    doubled = {
        card: data.draw(st.integers(0, 3))
        for card in cards_of(rules.doublable)
        if data.draw(st.booleans())
    }
    pairs = tuple(sorted(doubled.items()))
    got = tc.rules.trick_points(picked, leader, taker, pairs, rules)
    assert list(got) == reference_trick_points(picked, leader, taker, doubled, rules)


@settings(max_examples=300)
@given(st.data())
def test_r_cx_5_taken_points_add_up_the_tricks_and_cards_taken(data: st.DataObject) -> None:
    """R-CX-5, R-DBL-5, R-CL-2 … R-CL-7: what a seat scores for any number of tricks and any
    set of cards taken is each trick's and each card's charge summed, the doubled cards
    charged only as diamonds (their cost is the doubling's), for every contract's rules."""
    rules = data.draw(st.sampled_from(TRICK_RULES))
    chosen = data.draw(st.lists(st.sampled_from(ALL_CARDS), max_size=52, unique=True))
    tricks = data.draw(st.integers(0, 13))
    doubled = [c for c in cards_of(rules.doublable) if data.draw(st.booleans())]
    expected = rules.trick * tricks
    for card in chosen:
        expected += rules.diamond * (card.suit is tc.Suit.DIAMONDS)
        if card not in doubled:
            expected += plain(card, rules)
    mask, doubled_set = sum(1 << c for c in chosen), sum(1 << c for c in doubled)
    assert scoring.taken_points(tricks, mask, rules, doubled_set) == expected
    assert tc.rules.taken_points(tricks, mask, rules) == scoring.taken_points(
        tricks, mask, rules, 0
    )


def test_r_cx_5_plain_penalties_of_a_set_add_up_the_cards() -> None:
    """R-CX-5, R-CL-3, R-CL-4: the undoubled cost of a card set is its cards' costs summed."""
    charged = cards_of(scoring.DOUBLABLE)
    others = (tc.parse_card("2S"), tc.parse_card("AD"), tc.parse_card("KS"))
    for rules in TRICK_RULES:
        for bits in range(1 << 8):
            chosen = [c for i, c in enumerate(charged + others) if bits >> i & 1]
            mask = sum(1 << c for c in chosen)
            assert scoring.plain_penalties(mask, rules) == sum(plain(c, rules) for c in chosen)
            for card in chosen:
                assert scoring.plain_penalty(card, rules) == plain(card, rules)


# -- finished trick deals -------------------------------------------------------


def finished_trick_deals(
    states: list[tc.MatchState],
) -> list[tuple[tc.MatchState, tc.TrickDeal, tc.DealResult]]:
    """Each trick deal of a match: the state before its last card, the finished deal
    (every trick), and the result the engine recorded."""
    found = []
    for before, after in itertools.pairwise(states):
        deal = before.trick_deal
        if deal is None or after.phase not in (tc.Phase.DEAL, tc.Phase.OVER):
            continue
        if len(after.results) == len(before.results):
            continue
        last = after.history.last
        assert isinstance(last, tc.Play)
        cards = (*deal.trick, last.card)
        taker = tc.rules.trick_winner(deal.leader, cards)
        trick = tc.Trick(deal.leader, cards, taker)  # type: ignore[arg-type]
        done = tc.TrickDeal(
            taker, (), (*deal.tricks, trick), deal.doubled, after.results[-1].points
        )
        found.append((before, done, after.results[-1]))
    return found


def check_result(
    result: tc.DealResult, deal: tc.TrickDeal, rules: TrickRules, number: int, owner: int
) -> None:
    """The result of ``deal`` counted card by card (R-CX-5, R-DBL-4)."""
    doubled = dict(deal.doubled)
    assert result.number == number and result.owner == owner
    assert result.finishing_order == ()
    points = [0, 0, 0, 0]
    for seat in range(4):
        taken = [t for t in deal.tricks if t.taker == seat]
        cards = [c for t in taken for c in t.cards]
        queens = tuple(sorted(c for c in cards if c.rank is tc.Rank.QUEEN))
        breakdown = result.seats[seat]
        assert breakdown.tricks == len(taken)
        assert breakdown.diamonds == sum(c.suit is tc.Suit.DIAMONDS for c in cards)
        assert breakdown.queens == queens
        assert breakdown.king_of_hearts == (KH in cards)
        assert breakdown.place is None
        assert breakdown.doubled_queens == tuple(q for q in queens if q in doubled)
        assert breakdown.doubled_king_of_hearts == (KH in cards and KH in doubled)
    expected = []
    for trick in deal.tricks:
        got = reference_trick_points(trick.cards, trick.leader, trick.taker, doubled, rules)
        points = [a + b for a, b in zip(points, got, strict=True)]
        for card in trick.cards:
            if card in doubled:
                case, extra = doubled_case(card, doubled[card], trick.taker, trick.leader, rules)
                expected.append(
                    (card, doubled[card], trick.taker, trick.leader, case, tuple(extra))
                )
    assert list(result.points) == points
    assert [attrs.astuple(d) for d in result.doubled] == sorted(expected)
    assert all(type(d) is tc.DoubledCard for d in result.doubled)


@pytest.mark.parametrize("ruleset", RULESET_VARIANTS, ids=lambda r: r.name)
@settings(max_examples=6, deadline=None)
@given(SEEDS)
def test_r_cx_5_r_dbl_4_trick_deal_results_match_a_card_by_card_count(
    ruleset: tc.Ruleset, seed: int
) -> None:
    """R-CX-5, R-DBL-4, R-CL-2 … R-CL-7, R-OPT-9: every finished trick deal of a random
    match of every ruleset: the recorded result (through ``apply``), ``complex_result`` of
    the finished deal and ``taken_result`` of its tally all equal the reference count."""
    states = kit.random_match(ruleset, seed)
    deals = finished_trick_deals(states)
    assert deals or not any(c is not tc.Contract.TRIX for c in ruleset.contracts)
    for before, done, recorded in deals:
        assert before.contract is not None and before.owner is not None
        rules = ruleset.trick_rules(before.contract)
        kingdom = before.kingdom
        again = cx.complex_result(
            before.deal_number, before.owner, done,
            contract=before.contract, kingdom=kingdom, rules=rules,
        )  # fmt: skip
        won = [sum(1 << c for t in done.tricks if t.taker == s for c in t.cards) for s in range(4)]
        count = [sum(t.taker == s for t in done.tricks) for s in range(4)]
        doubled = cx.card_set(done.doubled)
        carried = [t for t in done.tricks if sum(1 << c for c in t.cards) & doubled]
        tallied = cx.taken_result(
            before.deal_number, before.owner, before.contract, kingdom, rules,
            done.doubled, count, won, carried,
        )  # fmt: skip
        for result in (recorded, again, tallied):
            assert result == recorded and result.kingdom == kingdom
            assert result.contract is before.contract
            check_result(result, done, rules, before.deal_number, before.owner)
        # The result's points, scored from what each seat took, are the deal's running
        # points (its tricks' trick_points summed as they were played).
        deal, last = before.trick_deal, done.tricks[-1]
        assert deal is not None
        lastly = tc.rules.trick_points(last.cards, last.leader, last.taker, deal.doubled, rules)
        assert recorded.points == tuple(a + b for a, b in zip(deal.points, lastly, strict=True))


def test_r_dbl_4_hand_built_deal_names_each_doubled_card_with_its_trick() -> None:
    """R-DBL-4: two doubled cards in one trick and one undoubled Queen elsewhere:
    each doubled card is read from the trick that carried it, by card order."""
    rules = tc.PARTNERSHIP.trick_rules(tc.Contract.COMPLEX)
    c = tc.parse_card
    tricks = (
        tc.Trick(0, (c("5H"), c("KH"), c("QH"), c("9H")), 1),  # KH doubled by 2, QH by 1
        tc.Trick(1, (c("QS"), c("2S"), c("3S"), c("4S")), 1),  # QS undoubled
    )
    deal = tc.TrickDeal(1, (), tricks, ((c("QH"), 1), (c("KH"), 2)), (0, 0, 0, 0))
    result = cx.complex_result(3, 0, deal, contract=tc.Contract.COMPLEX, kingdom=2, rules=rules)
    # QH: doubler 1 took it on seat 0's lead (case 2); KH: taker 1 is not the doubler 2 (case 1).
    assert [(str(d.card), d.doubler, d.taker, d.leader, d.case) for d in result.doubled] == [
        ("QH", 1, 1, 0, 2),
        ("KH", 2, 1, 0, 1),
    ]
    assert result.doubled[0].points == (25, -50, 0, 0)
    assert result.doubled[1].points == (0, -150, 75, 0)
    # Seat 1: two tricks (-30), the undoubled QS (-25) and both doubled cards' shares.
    assert result.points == (25, -30 - 25 - 50 - 150, 75, 0)
    seat = result.seats[1]
    assert (seat.tricks, seat.diamonds, seat.king_of_hearts) == (2, 0, True)
    assert [str(q) for q in seat.queens] == ["QS", "QH"]
    assert [str(q) for q in seat.doubled_queens] == ["QH"] and seat.doubled_king_of_hearts
    assert result.seats[0] == tc.SeatBreakdown() and result.seats[0].doubled_queens == ()


def test_r_dbl_4_doubled_cards_are_listed_by_card_whatever_the_order_of_the_doubles() -> None:
    """R-DBL-4: a deal's doubles given out of card order still list by card."""
    rules = tc.PARTNERSHIP.trick_rules(tc.Contract.COMPLEX)
    c = tc.parse_card
    tricks = (
        tc.Trick(0, (c("5H"), c("KH"), c("9H"), c("2H")), 1),
        tc.Trick(1, (c("QS"), c("2S"), c("3S"), c("4S")), 1),
    )
    pairs = ((c("KH"), 3), (c("QS"), 0))  # KH (card 24) before QS (card 10)
    deal = tc.TrickDeal(1, (), tricks, pairs, (0, 0, 0, 0))
    result = cx.complex_result(1, 0, deal, contract=tc.Contract.COMPLEX, kingdom=1, rules=rules)
    assert [str(d.card) for d in result.doubled] == ["QS", "KH"]
    assert [d.case for d in result.doubled] == [1, 1]


def test_r_dbl_4_doubled_card_costs_are_kept_per_rules_object_and_bounded() -> None:
    """R-DBL-4: a doubled card's cost, built once and shared (``tricks._costed``),
    is kept apart for each rules object: the same card, doubler, taker and leader
    under doubled penalties cost double; and the table of rules objects stays
    bounded however many rules objects a process makes."""
    rules = tc.PARTNERSHIP.trick_rules(tc.Contract.COMPLEX)
    dearer = attrs.evolve(rules, king_of_hearts=2 * rules.king_of_hearts)
    c = tc.parse_card
    tricks = (tc.Trick(0, (c("5H"), c("KH"), c("9H"), c("2H")), 1),)
    deal = tc.TrickDeal(1, (), tricks, ((c("KH"), 3),), (0, 0, 0, 0))
    cheap = cx.complex_result(1, 0, deal, contract=tc.Contract.COMPLEX, kingdom=1, rules=rules)
    dear = cx.complex_result(1, 0, deal, contract=tc.Contract.COMPLEX, kingdom=1, rules=dearer)
    assert cheap.doubled[0].points == (0, -150, 0, 75)
    assert dear.doubled[0].points == (0, -300, 0, 150)
    many = [attrs.evolve(rules, trick=-i) for i in range(1, 200)]
    for other in many:
        cx.complex_result(1, 0, deal, contract=tc.Contract.COMPLEX, kingdom=1, rules=other)
        assert len(cx._COSTED) <= 64
    again = cx.complex_result(1, 0, deal, contract=tc.Contract.COMPLEX, kingdom=1, rules=rules)
    assert again == cheap and again.doubled == cheap.doubled


def test_queens_table_lists_every_set_of_queens() -> None:
    """The breakdown's table of Queens gives ``cards_of`` of each of the 16 sets."""
    queens = cards_of(scoring.QUEENS)
    assert len(queens) == 4 and len(cx._QUEENS_OF) == 16
    for bits in range(16):
        chosen = sum(1 << q for i, q in enumerate(queens) if bits >> i & 1)
        assert cx._QUEENS_OF[chosen] == cards_of(chosen)


# -- the Kingdom after a deal end -------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESET_VARIANTS, ids=lambda r: r.name)
def test_r_match_1_results_after_remembers_the_fresh_count(ruleset: tc.Ruleset) -> None:
    """R-MATCH-1, R-SET-2, R-OPT-9: after each deal end, the Kingdom worked out from the
    answer before it equals a fresh count; a result from another Kingdom is counted afresh."""
    results = kit.random_match(ruleset, 3)[-1].results
    for n in range(len(results)):
        before = results[:n]
        kingdoms.kingdom_after(before, ruleset)  # remembered, as the engine's deal asks it
        more = kingdoms.results_after(before, results[n], ruleset)
        assert more == results[: n + 1]
        assert kingdoms.kingdom_after(more, ruleset) == kingdoms._kingdom_after(more, ruleset)
        stray = attrs.evolve(results[n], kingdom=results[n].kingdom + 1)
        odd = kingdoms.results_after(before, stray, ruleset)
        assert kingdoms.kingdom_after(odd, ruleset) == kingdoms._kingdom_after(odd, ruleset)


# -- apply_listed, and the fast constructors ----------------------------------------


@pytest.mark.parametrize("ruleset", RULESET_VARIANTS, ids=lambda r: r.name)
def test_r_match_5_r_dbl_2_apply_listed_is_apply_for_every_listed_move(
    ruleset: tc.Ruleset,
) -> None:
    """R-MATCH-5, R-DBL-1, R-DBL-2: for a move ``legal_moves`` listed, ``apply_listed``
    gives exactly what ``apply`` gives (choices, doubling answers, and any other move)."""
    rng = random.Random(4)
    kinds: set[type] = set()
    for state in kit.random_match(ruleset, 4, timeouts=False)[::3]:
        if state.phase in (tc.Phase.DEAL, tc.Phase.OVER):
            continue
        moves = tc.legal_moves(state)
        for move in rng.sample(moves, min(4, len(moves))):
            kinds.add(type(move))
            after = match.apply_listed(state, move)
            assert after == tc.apply(state, move) and type(after) is tc.MatchState
    assert tc.Choose in kinds or ruleset.fixed_order
    assert tc.Double in kinds or not ruleset.doubling
