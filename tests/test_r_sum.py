"""Deal and Kingdom sums, Team Totals (R-SUM-1, R-CX-6, R-DBL-5, R-TX-4, R-MATCH-7)."""

from __future__ import annotations

import pytest

import trixcomplex as tc
from builders import SUITS_DEAL, finish_deal, random_match, start_complex


def test_r_sum_1_a_hand_built_kingdom_with_doubling_sums_to_zero() -> None:
    """COMPLEX with every doublable card doubled, then TRIX, both on SUITS_DEAL (owner seat 1)."""
    state = finish_deal(start_complex(SUITS_DEAL, {0: "QS", 1: "KH QH", 2: "QD", 3: "QC"}))
    assert state.results[0].points == (25, -575, 25, 25)
    assert sum(tc.score(state).teams) == -500  # half a Kingdom: not zero yet
    state = finish_deal(tc.apply(state, SUITS_DEAL))  # deal 2: TRIX, nobody chooses
    assert state.results[1].contract is tc.Contract.TRIX
    assert state.results[1].points == (50, 200, 150, 100)
    assert state.scores == (75, -375, 175, 125)
    assert sum(state.scores) == 0
    assert tc.score(state).teams == (250, -250)


@pytest.mark.parametrize("seed", range(10, 16))
def test_r_sum_1_every_kingdom_of_a_random_match_sums_to_zero(seed: int) -> None:
    states = random_match(seed)
    results = states[-1].results
    for k in range(4):
        complex_deal, trix_deal = sorted(results[2 * k : 2 * k + 2], key=lambda r: r.contract.value)
        assert sum(complex_deal.points) == -500  # R-CX-6 / R-DBL-5, with random doubles
        assert sum(trix_deal.points) == 500  # R-TX-4
        assert sum(complex_deal.points) + sum(trix_deal.points) == 0
    for state in states:
        if state.phase in (tc.Phase.DEAL, tc.Phase.OVER) and len(state.results) % 2 == 0:
            assert sum(tc.score(state).teams) == 0
            assert sum(state.scores) == 0


def test_r_sum_1_team_totals_are_opposite_at_the_end() -> None:
    final = random_match(16)[-1]
    teams = tc.score(final).teams
    assert teams[0] == -teams[1]
    assert sum(final.scores) == 0
