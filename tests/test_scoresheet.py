"""The plain-text scoresheet says what the engine scored (R-MATCH-7, R-MATCH-8, R-DBL-4, R-TX-4)."""

from __future__ import annotations

import re

import pytest

import trixcomplex as tc
from builders import random_match
from trixcomplex.scoresheet import format_scoresheet

DRAWN_SEED = 0  # random_match(0) ends with equal Team Totals


def _final(seed: int) -> tc.MatchState:
    return random_match(seed)[-1]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_r_match_7_lists_every_deal_with_points_and_running_totals(seed: int) -> None:
    state = _final(seed)
    sheet = format_scoresheet(state)
    running = [0, 0, 0, 0]
    for deal in state.results:
        head = (
            f"Deal {deal.number}  Kingdom {deal.kingdom}  owner seat {deal.owner}  "
            f"{deal.contract.value}"
        )
        line = next(ln for ln in sheet.splitlines() if ln.startswith(head))
        assert [int(x) for x in line[len(head) :].split()] == list(deal.points)
        running = [running[s] + deal.points[s] for s in range(4)]
        after = next(
            ln for ln in sheet.splitlines() if ln.strip().startswith(f"after deal {deal.number} ")
        )
        assert [int(x) for x in after.split()[3:]] == running
        teams = (running[0] + running[2], running[1] + running[3])
        assert f"Team Totals: team 0 {teams[0]}, team 1 {teams[1]}" in sheet
    assert running == list(state.scores)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_r_match_8_result_line_names_the_winner(seed: int) -> None:
    state = _final(seed)
    result = tc.score(state)
    last = format_scoresheet(state).splitlines()[-1]
    assert last == f"Result: {result.result} wins, {result.teams[0]} to {result.teams[1]}"


def test_r_match_8_equal_totals_are_a_draw() -> None:
    state = _final(DRAWN_SEED)
    assert tc.score(state).result is tc.MatchResult.DRAW
    teams = tc.score(state).teams
    assert format_scoresheet(state).splitlines()[-1] == f"Result: draw, {teams[0]} to {teams[1]}"


def test_r_dbl_4_every_doubled_card_with_doubler_taker_case_and_payments() -> None:
    seen_cases = set()
    for seed in range(1, 8):
        state = _final(seed)
        sheet = format_scoresheet(state)
        for deal in state.results:
            for d in deal.doubled:
                paid = ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(d.points) if p)
                expected = (
                    f"  doubled {d.card} by seat {d.doubler}, taken by seat {d.taker} "
                    f"(led by seat {d.leader}): case {d.case}, {paid}"
                )
                assert expected in sheet.splitlines()
                seen_cases.add(d.case)
    assert seen_cases == {1, 2, 3}


def test_r_tx_4_finishing_order_is_listed() -> None:
    state = _final(5)
    sheet = format_scoresheet(state).splitlines()
    trix = [d for d in state.results if d.contract is tc.Contract.TRIX]
    assert len(trix) == 4
    for deal in trix:
        order = ", ".join(f"seat {s}" for s in deal.finishing_order)
        assert f"  finishing order: {order}" in sheet


def test_unfinished_match_is_in_progress() -> None:
    states = random_match(3)
    mid = next(s for s in states if s.deal_number == 3 and s.phase is tc.Phase.COMPLEX)
    assert format_scoresheet(mid).splitlines()[-1] == (
        "Result: in progress, deal 3 (Kingdom 2, COMPLEX) being played"
    )
    between = next(s for s in states if s.phase is tc.Phase.DEAL and s.results)
    n = len(between.results)
    assert format_scoresheet(between).splitlines()[-1] == (
        f"Result: in progress, {n} of 8 deals played"
    )
    choosing = next(s for s in states if s.phase is tc.Phase.CHOOSE)
    assert "contract not chosen" in format_scoresheet(choosing)


def test_plain_text_without_colour_codes() -> None:
    sheet = format_scoresheet(_final(2))
    assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f]", sheet)
    assert not sheet.endswith("\n")


def test_r_cx_5_r_tx_4_deal_in_progress_shows_points_so_far_or_seats_out() -> None:
    states = random_match(3)
    mid = next(
        s
        for s in states
        if s.phase is tc.Phase.COMPLEX and s.complex and len(s.complex.tricks) == 5
    )
    assert mid.complex is not None
    line = format_scoresheet(mid).splitlines()[-2]
    assert line.startswith(f"  deal {mid.deal_number} so far")
    assert [int(x) for x in line.split()[4:]] == list(mid.complex.points)
    out = next(s for s in states if s.trix is not None and s.trix.finishing_order)
    assert out.trix is not None
    seats = ", ".join(f"seat {s}" for s in out.trix.finishing_order)
    assert f"  deal {out.deal_number} so far: out {seats}" in format_scoresheet(out)
