"""Hypothesis properties over random complete matches (seeded, random doubles and timeouts).

Checks R-CX-6, R-DBL-5, R-TX-4, R-SUM-1 and R-MATCH-7 on whole matches, and the
engine's contract: cards in one place, to-act status, listed moves apply,
unlisted moves are rejected without change, determinism, structural sharing.

The tests at the end run the same properties for every preset ruleset and a few
option variants (``builders.RULESET_VARIANTS``): R-SET-2, R-CL-2 … R-CL-8, R-IND-1,
R-CLP-1, R-OPT-1 … R-OPT-8 (docs/rulesets.rst).
"""

from __future__ import annotations

import copy
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import (
    RULESET_VARIANTS,
    all_candidate_moves,
    assert_cards_in_one_place,
    assert_to_act_matches_legal_moves,
    deal_total,
    every_candidate_move,
    is_listed,
    random_match_of,
)
from trixcomplex import testing as kit
from trixcomplex.core.scoring import KING_OF_HEARTS
from trixcomplex.core.trix import playable

SEEDS = st.integers(0, 2**32 - 1)


@settings(max_examples=40)
@given(SEEDS)
def test_r_cx_6_r_dbl_5_r_tx_4_deal_sums_with_any_doubling(seed: int) -> None:
    """R-CX-6, R-DBL-5: a COMPLEX deal sums to −500; R-TX-4: a TRIX deal to +500."""
    final = random_match_of(tc.PARTNERSHIP, seed)[-1]
    assert len(final.results) == 8
    for result in final.results:
        if result.contract is tc.Contract.COMPLEX:
            assert sum(result.points) == -500
            assert sum(s.tricks for s in result.seats) == 13
            assert sorted(d.case for d in result.doubled) == sorted(
                1 if d.taker != d.doubler else 2 if d.leader != d.doubler else 3
                for d in result.doubled
            )
        else:
            assert sum(result.points) == 500
            assert sorted(result.finishing_order) == [0, 1, 2, 3]
            assert sorted(result.points) == [50, 100, 150, 200]


@settings(max_examples=40)
@given(SEEDS)
def test_r_sum_1_kingdoms_sum_to_zero_and_team_totals_cancel(seed: int) -> None:
    """R-SUM-1, R-MATCH-7, R-MATCH-8."""
    states = random_match_of(tc.PARTNERSHIP, seed)
    final = states[-1]
    for k in range(4):
        pair = final.results[2 * k : 2 * k + 2]
        assert {r.kingdom for r in pair} == {k + 1}
        assert sum(sum(r.points) for r in pair) == 0
    for state in states:
        s = tc.score(state)
        assert s.teams == (s.seats[0] + s.seats[2], s.seats[1] + s.seats[3])
        if state.phase in (tc.Phase.DEAL, tc.Phase.OVER) and len(state.results) % 2 == 0:
            assert sum(s.teams) == 0
    s = tc.score(final)
    assert s.result is (
        tc.MatchResult.DRAW
        if s.teams[0] == s.teams[1]
        else tc.MatchResult.TEAM0
        if s.teams[0] > s.teams[1]
        else tc.MatchResult.TEAM1
    )


@settings(max_examples=25)
@given(SEEDS)
def test_every_card_in_one_place_and_to_act_matches_legal_moves(seed: int) -> None:
    for state in random_match_of(tc.PARTNERSHIP, seed):
        assert_cards_in_one_place(state)
        assert_to_act_matches_legal_moves(state)


@settings(max_examples=15)
@given(SEEDS, st.integers(0, 2**32 - 1))
def test_listed_moves_apply_and_unlisted_moves_are_rejected_unchanged(
    seed: int, pick_seed: int
) -> None:
    states = random_match_of(tc.PARTNERSHIP, seed)
    pick = random.Random(pick_seed)
    deal = tc.Deal.shuffled(pick)
    for state in pick.sample(states, 6):
        twin = copy.deepcopy(state)
        for listed in tc.legal_moves(state):
            after = tc.apply(state, listed)
            assert after.history.last == listed
        for move in all_candidate_moves(state, deal):
            if is_listed(state, move):
                tc.apply(state, move)
                continue
            try:
                tc.apply(state, move)
            except tc.IllegalMoveError as err:
                assert err.move is move and err.rule.startswith("R-")
                assert str(err).endswith(f"({err.rule})")
            else:
                raise AssertionError(f"unlisted move {move} was accepted")
        assert state == twin and hash(state) == hash(twin)


@settings(max_examples=20)
@given(SEEDS)
def test_same_moves_give_equal_states(seed: int) -> None:
    first = random_match_of(tc.PARTNERSHIP, seed)
    second = random_match_of(tc.PARTNERSHIP, seed)
    assert first == second
    assert [hash(s) for s in first] == [hash(s) for s in second]
    replay = tc.new_match()
    for move, expected in zip(first[-1].history, first[1:], strict=True):
        replay = tc.apply(replay, move)
        assert replay == expected and hash(replay) == hash(expected)
        assert replay is not expected


@settings(max_examples=20)
@given(SEEDS)
def test_successors_share_unchanged_parts(seed: int) -> None:
    states = random_match_of(tc.PARTNERSHIP, seed)
    for old, new in itertools.pairwise(states):
        assert new.history._prev is old.history
        if len(new.results) == len(old.results):
            assert new.results is old.results
        else:
            assert new.results[:-1] == old.results
            assert all(a is b for a, b in zip(old.results, new.results, strict=False))
        if old.phase is new.phase and new.phase.plays_tricks:
            assert old.trick_deal is not None and new.trick_deal is not None
            assert new.trick_deal.doubled is old.trick_deal.doubled
            if len(new.trick_deal.tricks) == len(old.trick_deal.tricks):
                assert new.trick_deal.tricks is old.trick_deal.tricks
            assert all(
                a is b for a, b in zip(old.trick_deal.tricks, new.trick_deal.tricks, strict=False)
            )
        if (
            old.phase in (tc.Phase.COMPLEX, tc.Phase.TRICKS, tc.Phase.TRIX)
            and new.phase is old.phase
        ):
            for seat in range(4):
                if seat != old.turn:
                    assert new.hands[seat] is old.hands[seat]


@settings(max_examples=25)
@given(SEEDS)
def test_trix_never_deadlocks_and_every_window_asks_someone(seed: int) -> None:
    """R-TX-3 (some seat always holds a legal card), R-DBL-2 (K♥ is always held, so asked)."""
    for state in random_match_of(tc.PARTNERSHIP, seed):
        if state.phase is tc.Phase.TRIX:
            assert state.trix is not None
            held = state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3]
            assert held & playable(state.trix.table)
        if state.phase is tc.Phase.DOUBLE:
            assert state.window is not None and state.window.waiting()
            assert any(state.window.asked[s] >> KING_OF_HEARTS & 1 for s in range(4))


# -- every ruleset (issue 8) ---------------------------------------------------------

VARIANTS = pytest.mark.parametrize("ruleset", RULESET_VARIANTS, ids=lambda r: r.name)


@VARIANTS
@settings(max_examples=15)
@given(st.data())
def test_r_cl_8_every_deal_sums_to_its_contract_total(
    ruleset: tc.Ruleset, data: st.DataObject
) -> None:
    """R-CL-2 … R-CL-8, R-CX-6, R-TX-4, R-OPT-3, R-OPT-6: each deal sums to its contract's
    total whatever is doubled; the trick contracts end as their clauses say; only the
    contract's own cards are doubled, and nothing without R-OPT-1's ``doubling``."""
    final = data.draw(kit.matches(ruleset))[-1]
    if ruleset.combined_contracts:  # R-OPT-9: fewer deals when contracts are combined
        assert 8 <= len(final.results) <= ruleset.deals_per_match
    else:
        assert len(final.results) == ruleset.deals_per_match
    for result in final.results:
        assert sum(result.points) == deal_total(ruleset, result.contract)
        contract, seats = result.contract, result.seats
        tricks = sum(s.tricks for s in seats)
        if contract is tc.Contract.TRIX:
            assert sorted(result.finishing_order) == [0, 1, 2, 3]
            assert result.points == tuple(
                ruleset.trix_places[result.finishing_order.index(s)] for s in range(4)
            )
            continue
        parts = contract.parts  # a combined deal ends when each part's end holds (R-OPT-9)
        if tc.Contract.COMPLEX in parts or tc.Contract.LTOOSH in parts:
            assert tricks == 13
        if tc.Contract.KING_OF_HEARTS in parts:  # ends with the trick holding K♥
            assert sum(s.king_of_hearts for s in seats) == 1 and 1 <= tricks <= 13
        if tc.Contract.QUEENS in parts:
            assert sum(len(s.queens) for s in seats) == 4 and tricks <= 13
        if tc.Contract.DIAMONDS in parts:
            assert sum(s.diamonds for s in seats) == 13 and 4 <= tricks <= 13
        if contract is tc.Contract.LTOOSH:
            per_trick = -10 if ruleset.swapped_scores else -15
            sign = -1 if ruleset.reversed_scores else 1
            assert result.points == tuple(sign * per_trick * s.tricks for s in seats)
        doublable = set().union(
            *(
                {
                    tc.Contract.COMPLEX: {"KH", "QS", "QH", "QD", "QC"},
                    tc.Contract.KING_OF_HEARTS: {"KH"},
                    tc.Contract.QUEENS: {"QS", "QH", "QD", "QC"},
                }.get(part, set())
                for part in parts
            )
        )
        assert {str(d.card) for d in result.doubled} <= (doublable if ruleset.doubling else set())
        penalty = 1 if ruleset.reversed_scores else -1  # the sign of a penalty
        for d in result.doubled:  # R-DBL-4's three cases, written out
            v = penalty * (75 if str(d.card) == "KH" else 25)
            expected = [0, 0, 0, 0]
            if d.taker != d.doubler:
                expected[d.taker], expected[d.doubler] = 2 * v, -v
                case = 1
            elif d.leader != d.doubler:
                expected[d.doubler], expected[d.leader] = 2 * v, -v
                case = 2
            else:
                expected[d.doubler], case = v, 3
            assert (d.case, d.points) == (case, tuple(expected))


@VARIANTS
@settings(max_examples=12)
@given(st.data())
def test_r_cl_8_kingdoms_sum_to_zero_and_the_result_follows_the_totals(
    ruleset: tc.Ruleset, data: st.DataObject
) -> None:
    """R-CL-8, R-SUM-1, R-SET-2: every Kingdom sums to 0, plays each contract once under one
    owner (in order with R-OPT-5); Team Totals add to 0 after complete Kingdoms; the result
    is the best team (R-CLP-1) or seat (R-IND-1, R-CL-1), lowest with R-OPT-6."""
    states = data.draw(kit.matches(ruleset))
    final = states[-1]
    first_owner = final.results[0].owner
    kingdoms = [[r for r in final.results if r.kingdom == k + 1] for k in range(4)]
    assert sum(len(kingdom) for kingdom in kingdoms) == len(final.results)
    ends = set()  # how many deals are finished when a Kingdom ends
    for k, kingdom in enumerate(kingdoms):
        ends.add(kingdom[-1].number)
        assert [r.number for r in kingdom] == list(range(kingdom[0].number, kingdom[-1].number + 1))
        assert {r.owner for r in kingdom} == {(first_owner + k) % 4}
        # each contract once, alone or as a part of a combined deal (R-SET-2, R-OPT-9)
        assert sorted(p.value for r in kingdom for p in r.contract.parts) == sorted(
            c.value for c in ruleset.contracts
        )
        if not ruleset.combined_contracts:
            assert len(kingdom) == ruleset.deals_per_kingdom
        if ruleset.fixed_order:
            assert tuple(r.contract for r in kingdom) == ruleset.contracts
        assert sum(sum(r.points) for r in kingdom) == 0
    for state in states:
        s = tc.score(state)
        assert s.teams == (s.seats[0] + s.seats[2], s.seats[1] + s.seats[3])
        if state.phase in (tc.Phase.DEAL, tc.Phase.OVER) and len(state.results) in ends:
            assert sum(s.teams) == 0 and sum(s.seats) == 0
    s = tc.score(final)
    best = min if ruleset.reversed_scores else max
    if ruleset.worst_seat_loses:  # R-OPT-10: the team of the worst seat loses
        worst = (max if ruleset.reversed_scores else min)(s.seats)
        losers = {seat % 2 for seat in range(4) if s.seats[seat] == worst}
        if losers == {0, 1}:
            assert (s.result, s.winners) == (tc.MatchResult.DRAW, (0, 1, 2, 3))
        elif losers == {0}:
            assert (s.result, s.winners) == (tc.MatchResult.TEAM1, (1, 3))
        else:
            assert (s.result, s.winners) == (tc.MatchResult.TEAM0, (0, 2))
    elif ruleset.partnership:
        top = best(s.teams)
        if s.teams[0] == s.teams[1]:
            assert (s.result, s.winners) == (tc.MatchResult.DRAW, (0, 1, 2, 3))
        elif s.teams[0] == top:
            assert (s.result, s.winners) == (tc.MatchResult.TEAM0, (0, 2))
        else:
            assert (s.result, s.winners) == (tc.MatchResult.TEAM1, (1, 3))
    else:
        winning = tuple(i for i in range(4) if s.seats[i] == best(s.seats))
        assert s.winners == winning
        single = tc.MatchResult(f"seat{winning[0]}")
        assert s.result is (single if len(winning) == 1 else tc.MatchResult.SHARED)


@VARIANTS
@settings(max_examples=8)
@given(st.data())
def test_every_ruleset_keeps_cards_in_one_place_and_to_act(
    ruleset: tc.Ruleset, data: st.DataObject
) -> None:
    """Every card in one place (trick contracts that end early leave their unplayed cards in
    hand until the deal ends; between deals hands are empty); to-act matches legal_moves,
    the bad hand's Redeal included (R-OPT-8); the doubling window asks exactly the holders
    of the contract's doublable cards (R-CL-7)."""
    redeals = 0
    for state in data.draw(kit.matches(ruleset)):
        kit.check_state(state)  # the kit's invariants, and the suite's own below
        assert_cards_in_one_place(state)
        assert_to_act_matches_legal_moves(state)
        if state.phase is tc.Phase.DOUBLE:
            assert state.window is not None and state.window.waiting()
            doublable = ruleset.trick_rules(state.contract).doublable  # type: ignore[arg-type]
            assert state.window.asked == tuple(h & doublable for h in state.hands)
        if state.phase is tc.Phase.TRIX:
            assert state.trix is not None
            held = state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3]
            assert held & playable(state.trix.table)
        if isinstance(state.history.last, tc.Redeal):
            redeals += 1
            assert state.phase is tc.Phase.DEAL and state.hands == (0, 0, 0, 0)
        if state.phase is tc.Phase.CHOOSE:
            assert not ruleset.fixed_order and len(state.remaining_contracts) > 1
    if not ruleset.bad_hand_redeal:
        assert redeals == 0


@VARIANTS
@settings(max_examples=6)
@given(SEEDS, st.integers(0, 2**32 - 1))
def test_every_ruleset_listed_moves_apply_and_unlisted_are_rejected_unchanged(
    ruleset: tc.Ruleset, seed: int, pick_seed: int
) -> None:
    """Every listed move applies; every other move of any kind (every contract chosen,
    every seat's Redeal included) raises IllegalMoveError and leaves the state equal."""
    states = kit.random_match(ruleset, seed)
    pick = random.Random(pick_seed)
    deal = tc.Deal.shuffled(pick)
    chosen = pick.sample(states, 5)
    chosen += [
        s for s in states if tc.legal_moves(s) and isinstance(tc.legal_moves(s)[0], tc.Redeal)
    ][:1]
    for state in chosen:
        twin = copy.deepcopy(state)
        for listed in tc.legal_moves(state):
            assert tc.apply(state, listed).history.last == listed
        for move in every_candidate_move(state, deal):
            if is_listed(state, move):
                tc.apply(state, move)
                continue
            try:
                tc.apply(state, move)
            except tc.IllegalMoveError as err:
                assert err.move is move and err.rule.startswith("R-")
                assert str(err).endswith(f"({err.rule})") and "\n" not in str(err)
            else:
                raise AssertionError(f"unlisted move {move} was accepted")
        assert state == twin and hash(state) == hash(twin)


@VARIANTS
@settings(max_examples=4)
@given(SEEDS)
def test_every_ruleset_same_moves_give_equal_states(ruleset: tc.Ruleset, seed: int) -> None:
    """Determinism: the same moves give equal, hash-equal states under every ruleset."""
    first = kit.random_match(ruleset, seed)
    assert first == kit.random_match(ruleset, seed)
    replay = tc.new_match(ruleset)
    for move, expected in zip(first[-1].history, first[1:], strict=True):
        replay = tc.apply(replay, move)
        assert replay == expected and hash(replay) == hash(expected)


SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))
PENALTY_CARDS = {  # R-OPT-2: the cards a void seat must discard first, by contract
    tc.Contract.KING_OF_HEARTS: 1 << tc.parse_card("KH"),
    tc.Contract.QUEENS: sum(1 << tc.parse_card(q) for q in ("QS", "QH", "QD", "QC")),
    tc.Contract.DIAMONDS: SUIT_MASKS[2],
}


def is_bad_hand(hand: int) -> bool:
    """R-OPT-8 written out: four 2s, or three 2s and the 3 of the fourth suit."""
    twos = [bool(hand >> (13 * s) & 1) for s in range(4)]
    threes = [bool(hand >> (13 * s + 1) & 1) for s in range(4)]
    return all(twos) or (sum(twos) == 3 and threes[twos.index(False)])


@VARIANTS
@settings(max_examples=6)
@given(SEEDS)
def test_r_cl_2_r_opt_2_r_opt_8_listed_moves_obey_the_contract_rules(
    ruleset: tc.Ruleset, seed: int
) -> None:
    """In every state of a random match: no heart lead in King of Hearts while holding
    another suit (R-CL-2, unless R-OPT-4); a void seat discards a penalty card first
    (R-OPT-2); a trick contract that ends early is played while its penalty cards are
    not all taken (R-CL-2 … R-CL-4); Redeal is offered only to a bad hand before the
    first TRIX card or pass (R-OPT-8)."""
    for state in kit.random_match(ruleset, seed):
        moves = tc.legal_moves(state)
        redeals = [m for m in moves if isinstance(m, tc.Redeal)]
        if redeals:
            assert ruleset.bad_hand_redeal and state.phase is tc.Phase.TRIX
            assert not any(isinstance(m, (tc.Play, tc.Pass)) for m in state.history.since_deal())
            assert [is_bad_hand(h) for h in state.hands].count(True) == 1
            assert all(is_bad_hand(state.hands[m.seat]) for m in redeals)
        elif ruleset.bad_hand_redeal and state.phase is tc.Phase.TRIX:
            since = state.history.since_deal()
            fresh = not any(isinstance(m, (tc.Play, tc.Pass)) for m in since)
            assert not (fresh and any(is_bad_hand(h) for h in state.hands))
        if not state.phase.plays_tricks:
            continue
        assert state.trick_deal is not None and state.turn is not None
        contract, trick = state.contract, state.trick_deal.trick
        hand = state.hands[state.turn]
        cards = {1 << m.card for m in moves if isinstance(m, tc.Play)}
        assert contract is not None
        parts = contract.parts  # R-OPT-9: a combined deal obeys each part's rule
        penalty_cards = 0
        for part in parts:
            penalty_cards |= PENALTY_CARDS.get(part, 0)
        if all(part in PENALTY_CARDS for part in parts):  # ends early: not yet
            left = state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3]
            for card in trick:
                left |= 1 << card
            assert left & penalty_cards, "the deal should have ended"
        if not trick:  # a lead: any card, but no heart while holding another suit in K♥
            others = hand & ~SUIT_MASKS[1]
            restricted = tc.Contract.KING_OF_HEARTS in parts and not ruleset.free_heart_leads
            assert sum(cards) == (others if restricted and others else hand)
        elif not hand & SUIT_MASKS[trick[0] // 13]:  # void in the led suit
            must = hand & penalty_cards
            if ruleset.penalty_cards_first and must:
                assert sum(cards) == must
            else:
                assert sum(cards) == hand
