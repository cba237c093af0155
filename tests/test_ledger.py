"""The ledger: every charge and award traced to its clause (issue 15).

Hand-built tricks with exact entries (R-CX-5, R-DBL-4, R-DBL-5, R-TX-4) and
the property that the ledger sums exactly to every seat's deal scores and
totals, for every ruleset, over random matches.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import HEARTS_DEAL, VIEW_RULESETS, random_match, random_match_of, start_complex
from builders import plays as play_cards
from trixcomplex.knowledge.ledger import (
    LedgerEntry,
    contract_clause,
    part_clauses,
    tricks_and_places,
)


def _c(codes: str) -> tuple[tc.Card, ...]:
    return tuple(tc.parse_card(c) for c in codes.split())


def test_r_cx_5_the_stacked_trick_is_one_entry_to_its_taker() -> None:
    """R-CX-5: 5♥ K♥ Q♦ 9♥ costs its taker −125 (trick, ♦, Queen, K♥), one entry."""
    state = play_cards(start_complex(HEARTS_DEAL), "5H KH QD 9H")
    assert tc.ledger(state) == (
        LedgerEntry(1, 1, tc.Contract.COMPLEX, 1, None, 1, -125, _c("5H KH QD 9H"), "R-CX-5"),
    )
    assert tc.score(state).current == (0, -125, 0, 0)


def test_r_dbl_4_case_2_and_r_dbl_5_doubled_card_entries_apart() -> None:
    """R-DBL-4 case 2, R-DBL-5: seat 1 doubles K♥ and takes it on seat 0's lead: the
    trick's −15 −10 −25 stay R-CX-5 (−50), the K♥ is R-DBL-4 case 2: −150 to the
    doubler, +75 to the leader; doubler, taker, leader and case are named."""
    state = play_cards(start_complex(HEARTS_DEAL, {1: "KH"}), "5H KH QD 9H")
    kh = tc.parse_card("KH")
    where = (1, 1, tc.Contract.COMPLEX, 1, None)
    assert tc.ledger(state) == (
        LedgerEntry(*where, 1, -50, _c("5H KH QD 9H"), "R-CX-5"),
        LedgerEntry(*where, 0, 75, (kh,), "R-DBL-4", (), 1, 1, 0, 2),
        LedgerEntry(*where, 1, -150, (kh,), "R-DBL-4", (), 1, 1, 0, 2),
    )


def test_r_dbl_4_case_1_doubler_gains_taker_pays() -> None:
    """R-DBL-4 case 1: seat 0 doubles Q♠ and leads it, seat 1 takes it with A♠: −50 to
    seat 1 and +25 to seat 0 (R-DBL-4); the trick's −15, the 2♦'s −10 and the plain
    Q♣'s −25 are the taker's R-CX-5 entry."""
    state = play_cards(start_complex(HEARTS_DEAL, {0: "QS"}), "QS AS 2D QC")
    qs = tc.parse_card("QS")
    where = (1, 1, tc.Contract.COMPLEX, 1, None)
    assert tc.ledger(state) == (
        LedgerEntry(*where, 1, -50, _c("QS AS 2D QC"), "R-CX-5"),
        LedgerEntry(*where, 0, 25, (qs,), "R-DBL-4", (), 0, 1, 0, 1),
        LedgerEntry(*where, 1, -50, (qs,), "R-DBL-4", (), 0, 1, 0, 1),
    )


def test_r_tx_4_finishing_places_are_ledger_entries() -> None:
    """R-TX-4: a TRIX deal's four places are four entries summing to +500."""
    states = random_match(3, timeout_rate=0.0)
    final = states[-1]
    trix = [e for e in tc.ledger(final) if e.contract is tc.Contract.TRIX]
    assert trix and all(e.rule == "R-TX-4" and e.trick is None for e in trix)
    by_deal: dict[int, list[LedgerEntry]] = {}
    for e in trix:
        by_deal.setdefault(e.deal, []).append(e)
    for entries in by_deal.values():
        assert sorted(e.place or 0 for e in entries) == [1, 2, 3, 4]
        assert sum(e.points for e in entries) == 500
        assert {e.place: e.points for e in entries} == {1: 200, 2: 150, 3: 100, 4: 50}


def test_r_opt_3_and_r_opt_6_options_are_named() -> None:
    """R-OPT-3, R-OPT-6: entries whose numbers an option changed name the option."""
    rs = tc.CLASSIC.evolve(swapped_scores=True, reversed_scores=True)
    final = random_match_of(rs, 5)[-1]
    entries = tc.ledger(final)
    assert all("R-OPT-6" in e.options for e in entries)
    diamonds = [e for e in entries if e.contract is tc.Contract.DIAMONDS]
    assert diamonds and all("R-OPT-3" in e.options and e.rule == "R-CL-4" for e in diamonds)
    assert all(e.points > 0 for e in diamonds)  # reversed: a charge becomes a gain


def test_contract_clauses() -> None:
    """Each contract's charges have their clause: R-CX-5, R-CL-2 … R-CL-5, R-TX-4;
    a combination of trick contracts (R-OPT-9) cites R-OPT-9 and its parts' clauses."""
    single = [c for c in tc.Contract if not c.is_combined]
    assert [contract_clause(c) for c in single] == [
        "R-CX-5", "R-TX-4", "R-CL-2", "R-CL-3", "R-CL-4", "R-CL-5",
    ]  # fmt: skip
    combined = [c for c in tc.Contract if c.is_combined]
    assert len(combined) == 11
    assert {contract_clause(c) for c in combined} == {"R-OPT-9"}
    kh_ltoosh = tc.Contract(["LTOOSH", "KING_OF_HEARTS"])
    assert part_clauses(kh_ltoosh) == ("R-CL-2", "R-CL-5")


def test_r_opt_9_a_combined_trick_is_one_entry_citing_r_opt_9() -> None:
    """R-OPT-9: the first charged trick of a combined Queens + Diamonds deal is
    entered under R-OPT-9 and the entries sum to the deal's current scores."""
    ruleset = tc.CLASSIC.evolve(combined_contracts=True)
    state = tc.apply(tc.new_match(ruleset), HEARTS_DEAL)
    combined = tc.Contract(["QUEENS", "DIAMONDS"])
    state = tc.apply(state, tc.Choose(state.owner, combined))
    while state.phase is tc.Phase.DOUBLE:
        state = tc.apply(state, tc.Double(min(state.to_act), []))
    leader = state.turn
    assert leader is not None
    while True:
        seat = state.turn
        assert seat is not None
        state = tc.apply(state, tc.legal_moves(state, seat)[0])
        if tc.ledger(state) or state.phase is not tc.Phase.TRICKS:
            break
    entries = tc.ledger(state)
    assert entries and {e.rule for e in entries if e.doubler is None} <= {"R-OPT-9"}
    assert all(e.contract is combined for e in entries)
    assert _sums(entries) == list(tc.score(state).current)


def _sums(entries: tuple[LedgerEntry, ...], deal: int | None = None) -> list[int]:
    return [
        sum(e.points for e in entries if e.seat == s and (deal is None or e.deal == deal))
        for s in range(4)
    ]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), which=st.integers(0, len(VIEW_RULESETS) - 1))
def test_r_sum_ledger_sums_to_every_deal_and_total(seed: int, which: int) -> None:
    """R-CX-5, R-DBL-5, R-TX-4, R-CL-8: over random matches of every ruleset the
    ledger sums exactly to each seat's points in every deal and to its totals;
    mid-deal, the finished tricks sum to the deal's points so far."""
    ruleset = VIEW_RULESETS[which]
    states = random_match_of(ruleset, seed, bad_hands=True)
    final = states[-1]
    entries = tc.ledger(final)
    assert _sums(entries) == list(final.scores)
    for result in final.results:
        assert _sums(entries, result.number) == list(result.points)
    for doubled in (e for e in entries if e.rule == "R-DBL-4"):
        assert doubled.case in (1, 2, 3) and doubled.doubler is not None
        assert doubled.taker is not None and doubled.leader is not None
    middle = states[len(states) // 2]
    if middle.complex is not None:
        mid = [e for e in tc.ledger(middle) if e.deal == middle.deal_number]
        assert [sum(e.points for e in mid if e.seat == s) for s in range(4)] == list(
            tc.score(middle).current
        )


@pytest.mark.parametrize("ruleset", [tc.PARTNERSHIP, tc.CLASSIC, tc.INDIVIDUAL_COMPLEX])
def test_every_finished_trick_is_listed_once(ruleset: tc.Ruleset) -> None:
    """R-CX-4: every trick played appears once in order (13 per COMPLEX deal)."""
    final = random_match_of(ruleset, 11)[-1]
    tricks = [t for t in tricks_and_places(final) if t.number]
    per_deal: dict[int, list[int]] = {}
    for t in tricks:
        per_deal.setdefault(t.deal, []).append(t.number)
    for numbers in per_deal.values():
        assert numbers == list(range(1, len(numbers) + 1))
    for result in final.results:
        if result.contract is tc.Contract.COMPLEX:
            assert len(per_deal[result.number]) == 13


def test_seat_breakdown_keeps_doubled_cards_apart() -> None:
    """R-DBL-4: SeatBreakdown counts every Queen/K♥ taken in ``queens``/``king_of_hearts``
    (their documented meaning) and keeps the doubled ones apart."""
    state = play_cards(start_complex(HEARTS_DEAL, {1: "KH", 0: "QS"}), "5H KH QD 9H")
    while state.phase is tc.Phase.COMPLEX:
        state = tc.apply(state, tc.legal_moves(state)[0])
    deal = state.results[-1]
    b = deal.seats[1]
    assert b.king_of_hearts and b.doubled_king_of_hearts and not b.plain_king_of_hearts
    assert tc.parse_card("QD") in b.plain_queens
    for seat in deal.seats:
        assert set(seat.plain_queens) | set(seat.doubled_queens) == set(seat.queens)
        assert not set(seat.plain_queens) & set(seat.doubled_queens)
    doubled_queens = [d.card for d in deal.doubled if d.card != tc.parse_card("KH")]
    assert sorted(q for s in deal.seats for q in s.doubled_queens) == doubled_queens
