"""The plain-text scoresheet says what the engine scored (R-MATCH-7, R-MATCH-8, R-DBL-4, R-TX-4)."""

from __future__ import annotations

import re

import pytest

import trixcomplex as tc
from builders import random_match
from trixcomplex.io.scoresheet import format_scoresheet

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


# -- other rulesets (R-SET-1) ------------------------------------------------------------

RECORDS = __import__("pathlib").Path(__file__).resolve().parent / "records"


def _golden(name: str) -> tc.MatchState:
    import json

    data = json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))
    return tc.replay(tc.Record.from_json(data))


CONTRACT_NAMES = {
    tc.Contract.KING_OF_HEARTS: "King of Hearts",
    tc.Contract.QUEENS: "Queens",
    tc.Contract.DIAMONDS: "Diamonds",
    tc.Contract.LTOOSH: "Ltoosh",
    tc.Contract.TRIX: "TRIX",
}


def test_r_set_1_the_header_names_the_ruleset() -> None:
    """R-SET-1: the second line names the game, its length and what decides it."""
    assert format_scoresheet(tc.new_match(tc.CLASSIC)).splitlines()[1] == (
        "Ruleset: classic (20 deals, individual totals decide)"
    )
    lines = format_scoresheet(tc.new_match(tc.CLASSIC_PARTNERSHIP.evolve(reversed_scores=True)))
    assert lines.splitlines()[1] == (
        "Ruleset: classic-partnership+reversed_scores=True "
        "(20 deals, Team Totals decide, lowest wins)"
    )
    assert format_scoresheet(tc.new_match(tc.CLASSIC)).splitlines()[-1] == (
        "Result: in progress, 0 of 20 deals played"
    )


def test_r_cl_1_every_classic_deal_is_listed_by_its_contract_name_in_aligned_columns() -> None:
    """R-CL-1 … R-CL-5: each deal's line names its contract as people do, with its points;
    the seat columns line up with the header."""
    state = _golden("classic")
    lines = format_scoresheet(state).splitlines()
    width = len(lines[0])
    for deal in state.results:
        head = (
            f"Deal {deal.number}  Kingdom {deal.kingdom}  owner seat {deal.owner}  "
            f"{CONTRACT_NAMES[deal.contract]}"
        )
        line = next(ln for ln in lines if ln.startswith(head + " "))
        assert [int(v) for v in line[len(head) :].split()] == list(deal.points)
        assert len(line) == width
    assert not any(ln.startswith("  Team Totals") for ln in lines)  # individual game


def test_r_cl_2_to_r_cl_4_deals_that_ended_early_say_after_how_many_tricks() -> None:
    """R-CL-2 … R-CL-4: a deal that stops once its penalty cards are taken says so;
    Ltoosh (R-CL-5) and full deals do not."""
    state = _golden("classic")
    sheet = format_scoresheet(state)
    blocks = re.split(r"\n(?=Deal )", sheet)
    early = 0
    for deal in state.results:
        block = next(b for b in blocks if b.startswith(f"Deal {deal.number}  "))
        played = sum(s.tricks for s in deal.seats)
        if deal.contract.is_trick_contract and played < 13:
            assert f"  ended early after {played} of 13 tricks" in block
            early += 1
        else:
            assert "ended early" not in block
        if deal.contract is tc.Contract.LTOOSH:
            assert played == 13
    assert early > 0


@pytest.mark.parametrize(
    ("scores", "last"),
    [
        ((300, -100, -100, -100), "Result: seat 0 wins with 300"),
        ((-100, 200, 200, -300), "Result: seats 1 and 2 share the win with 200"),
        ((50, -150, 50, 50), "Result: seats 0, 2 and 3 share the win with 50"),
    ],
)
def test_r_ind_1_individual_results(scores: tuple[int, int, int, int], last: str) -> None:
    """R-IND-1, R-CL-1: the best individual total wins; a tie for it is shared."""
    import attrs

    state = attrs.evolve(_golden("classic"), scores=scores)
    assert format_scoresheet(state).splitlines()[-1] == last


def test_r_opt_6_reversed_scores_the_lowest_total_wins() -> None:
    """R-OPT-6: with reversed scores the lowest total wins, individual or team."""
    import attrs

    final = _golden("classic")
    low = attrs.evolve(
        final, scores=(300, -100, 0, -200), ruleset=final.ruleset.evolve(reversed_scores=True)
    )
    assert format_scoresheet(low).splitlines()[-1] == "Result: seat 3 wins with -200"
    team = attrs.evolve(low, ruleset=tc.CLASSIC_PARTNERSHIP.evolve(reversed_scores=True))
    assert format_scoresheet(team).splitlines()[-1] == "Result: team1 wins, 300 to -300"


def test_r_opt_8_a_redeal_is_noted_before_the_deal_it_replaced() -> None:
    """R-OPT-8: the seat that demanded a redeal, before the deal played in its place."""
    state = _golden("classic_redeal")
    moves = state.history.moves()
    redeal = next(m for m in moves if isinstance(m, tc.Redeal))
    waiting = tc.replay(tc.Record(state.ruleset.name, moves[: moves.index(redeal) + 1]))
    number = waiting.deal_number
    note = f"Deal {number} redealt: seat {redeal.seat} showed a bad hand (R-OPT-8)"
    lines = format_scoresheet(state).splitlines()
    at = lines.index(note)
    assert lines[at + 1].startswith(f"Deal {number}  Kingdom ")
    assert sum("redealt" in ln for ln in lines) == 1
    # While the new shuffle is awaited, the note stands above the result line.
    assert format_scoresheet(waiting).splitlines()[-2:] == [
        note,
        f"Result: in progress, {number - 1} of 20 deals played",
    ]
