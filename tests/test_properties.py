"""Hypothesis properties over random complete matches (seeded, random doubles and timeouts).

Checks R-CX-6, R-DBL-5, R-TX-4, R-SUM-1 and R-MATCH-7 on whole matches, and the
engine's contract: cards in one place, to-act status, listed moves apply,
unlisted moves are rejected without change, determinism, structural sharing.
"""

from __future__ import annotations

import copy
import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import (
    all_candidate_moves,
    assert_cards_in_one_place,
    assert_to_act_matches_legal_moves,
    is_listed,
)
from trixcomplex.scoring import KING_OF_HEARTS
from trixcomplex.trix import playable

SEEDS = st.integers(0, 2**32 - 1)


def random_match_with(seed: int) -> list[tc.MatchState]:
    """A complete match: shuffles, contract choices, doubles and timeouts all drawn from ``seed``.

    The timeout rate differs per match (never, sometimes, mostly), so the choosing
    and doubling windows close both by answers and by timeouts.
    """
    rng = random.Random(seed)
    timeout_rate = rng.choice((0.0, 0.2, 0.8))
    state = tc.new_match()
    states = [state]
    while not state.is_over:
        if state.phase is tc.Phase.DEAL:
            move: tc.Move = tc.Deal.shuffled(rng)
        elif state.phase in (tc.Phase.CHOOSE, tc.Phase.DOUBLE) and rng.random() < timeout_rate:
            move = tc.Timeout()
        else:
            move = rng.choice(tc.legal_moves(state))
        state = tc.apply(state, move)
        states.append(state)
    return states


@settings(max_examples=40)
@given(SEEDS)
def test_r_cx_6_r_dbl_5_r_tx_4_deal_sums_with_any_doubling(seed: int) -> None:
    """R-CX-6, R-DBL-5: a COMPLEX deal sums to −500; R-TX-4: a TRIX deal to +500."""
    final = random_match_with(seed)[-1]
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
    states = random_match_with(seed)
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
    for state in random_match_with(seed):
        assert_cards_in_one_place(state)
        assert_to_act_matches_legal_moves(state)


@settings(max_examples=15)
@given(SEEDS, st.integers(0, 2**32 - 1))
def test_listed_moves_apply_and_unlisted_moves_are_rejected_unchanged(
    seed: int, pick_seed: int
) -> None:
    states = random_match_with(seed)
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
    first = random_match_with(seed)
    second = random_match_with(seed)
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
    states = random_match_with(seed)
    for old, new in itertools.pairwise(states):
        assert new.history._prev is old.history
        if len(new.results) == len(old.results):
            assert new.results is old.results
        else:
            assert new.results[:-1] == old.results
            assert all(a is b for a, b in zip(old.results, new.results, strict=False))
        if old.phase is new.phase is tc.Phase.COMPLEX:
            assert old.complex is not None and new.complex is not None
            assert new.complex.doubled is old.complex.doubled
            if len(new.complex.tricks) == len(old.complex.tricks):
                assert new.complex.tricks is old.complex.tricks
            assert all(a is b for a, b in zip(old.complex.tricks, new.complex.tricks, strict=False))
        if old.phase in (tc.Phase.COMPLEX, tc.Phase.TRIX) and new.phase is old.phase:
            for seat in range(4):
                if seat != old.turn:
                    assert new.hands[seat] is old.hands[seat]


@settings(max_examples=25)
@given(SEEDS)
def test_trix_never_deadlocks_and_every_window_asks_someone(seed: int) -> None:
    """R-TX-3 (some seat always holds a legal card), R-DBL-2 (K♥ is always held, so asked)."""
    for state in random_match_with(seed):
        if state.phase is tc.Phase.TRIX:
            assert state.trix is not None
            held = state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3]
            assert held & playable(state.trix.table)
        if state.phase is tc.Phase.DOUBLE:
            assert state.window is not None and state.window.waiting()
            assert any(state.window.asked[s] >> KING_OF_HEARTS & 1 for s in range(4))
