"""Golden records: checked-in matches replay to their checked-in reports.

Like OpenSpiel's playthroughs: a change in the engine that changes any
score, legality or the record format shows up as a failing comparison
here.  Regenerate with ``python tests/records/make_records.py`` (see its
docstring) and review the diff before committing it.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import trixcomplex as tc
from trixcomplex.cli.replay import run_replay
from trixcomplex.core.scoring import KING_OF_HEARTS

RECORDS = Path(__file__).resolve().parent / "records"
GOLDEN = ("doubling_cases", "draw", "timeouts", "jackless_trix", "classic", "classic_redeal")
BROKEN = sorted(p.name.removesuffix(".error.txt") for p in RECORDS.glob("*.error.txt"))


def _load(name: str) -> object:
    return json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))


def _replayed(name: str) -> tc.MatchState:
    return tc.replay(tc.Record.from_json(_load(name)))


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_record_replays_to_its_expected_report(name: str) -> None:
    """R-MATCH-1 … R-MATCH-8: the whole match, every deal's scores and the result."""
    expected = json.loads((RECORDS / f"{name}.expected.json").read_text(encoding="utf-8"))
    state = _replayed(name)
    assert tc.replay_report(state) == expected
    assert expected["complete"] is True
    assert len(expected["deals"]) == state.ruleset.deals_per_match


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_record_cli_json_matches(name: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    status = run_replay(
        str(RECORDS / f"{name}.json"), as_json=True, stdin=io.StringIO(), stdout=out, stderr=err
    )
    expected = json.loads((RECORDS / f"{name}.expected.json").read_text(encoding="utf-8"))
    assert (status, err.getvalue()) == (0, "")
    assert json.loads(out.getvalue()) == expected


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_record_is_written_back_identically(name: str) -> None:
    """Canonical form: reading then writing a golden record changes nothing."""
    data = _load(name)
    assert tc.Record.from_json(data).to_json() == data


def test_r_dbl_4_golden_doubling_cases_cover_all_three_cases_for_king_and_queen() -> None:
    state = _replayed("doubling_cases")
    seen = {
        ("KH" if d.card == KING_OF_HEARTS else "Q", d.case)
        for deal in state.results
        for d in deal.doubled
    }
    assert seen == {(k, c) for k in ("KH", "Q") for c in (1, 2, 3)}
    for deal in state.results:
        if deal.contract is tc.Contract.COMPLEX:
            assert sum(deal.points) == -500  # R-DBL-5


def test_r_match_8_golden_draw_has_equal_team_totals() -> None:
    state = _replayed("draw")
    result = tc.score(state)
    assert result.result is tc.MatchResult.DRAW
    assert result.teams[0] == result.teams[1]


def test_r_match_6_r_dbl_3_golden_timeouts_in_both_windows() -> None:
    record = tc.Record.from_json(_load("timeouts"))
    state = tc.new_match()
    phases = set()
    early_close = False
    for move in record.moves:
        if isinstance(move, tc.Timeout):
            phases.add(state.phase)
            if state.phase is tc.Phase.DOUBLE:
                assert state.window is not None
                early_close |= bool(state.window.waiting())
                after = tc.apply(state, move)
                # Unanswered seats double nothing (R-DBL-3).
                assert after.trick_deal is not None
                doublers = {seat for _, seat in after.trick_deal.doubled}
                assert not doublers & state.window.waiting()
            else:
                after = tc.apply(state, move)
                assert after.contract is tc.Contract.COMPLEX  # R-MATCH-6
            state = after
        else:
            state = tc.apply(state, move)
    assert phases == {tc.Phase.CHOOSE, tc.Phase.DOUBLE}
    assert early_close


def test_r_tx_3_golden_jackless_trix_start_opens_with_a_pass() -> None:
    record = tc.Record.from_json(_load("jackless_trix"))
    state = tc.new_match()
    found = False
    for move in record.moves:
        opening = isinstance(state.history.last, tc.Choose | tc.Deal)
        if state.phase is tc.Phase.TRIX and opening and isinstance(move, tc.Pass):
            assert move.seat == state.owner  # R-TX-1: the owner plays first
            assert not any(c.rank is tc.Rank.JACK for c in state.hand(move.seat))
            found = True
        state = tc.apply(state, move)
    assert found


def _rule_of(line: str) -> str | None:
    """The clause a one-line error ends with, ``(R-CX-2)``, or ``None``."""
    tail = line.rstrip("\n").rpartition("(")[2]
    return tail[:-1] if tail.startswith("R-") and tail.endswith(")") else None


@pytest.mark.parametrize("name", BROKEN)
def test_broken_record_gives_its_one_line_error(name: str) -> None:
    expected = (RECORDS / f"{name}.error.txt").read_text(encoding="utf-8")
    path = str(RECORDS / f"{name}.json")
    out, err = io.StringIO(), io.StringIO()
    status = run_replay(path, as_json=False, stdin=io.StringIO(), stdout=out, stderr=err)
    assert status == 1
    assert out.getvalue() == ""
    assert err.getvalue() == f"{path}: {expected}"
    assert expected.count("\n") == 1
    out, err = io.StringIO(), io.StringIO()  # --json: the error's JSON on stdout (issue 12)
    status = run_replay(path, as_json=True, stdin=io.StringIO(), stdout=out, stderr=err)
    assert (status, err.getvalue()) == (1, "")
    error = json.loads(out.getvalue())
    assert error["message"] == expected.rstrip("\n")
    assert error["rule"] == _rule_of(expected)


def test_broken_records_name_the_rules() -> None:
    rules = {}
    for name in BROKEN:
        try:
            tc.replay_json(_load(name))
        except tc.RecordError as exc:
            rules[name] = exc.rule
    assert rules == {
        "broken_card_code": "R-CARD-2",
        "broken_deck": "R-MATCH-2",
        "broken_follow_suit": "R-CX-2",
        "broken_pass": "R-TX-3",
        "broken_timeout": "R-MATCH-6",
        "broken_unknown_key": None,
        "broken_heart_lead": "R-CL-2",
        "broken_redeal": "R-OPT-8",
        "broken_redeal_partnership": "R-MATCH-2",
        "broken_ruleset": None,
    }


# -- other rulesets (R-SET-1) ------------------------------------------------------


def test_r_set_1_golden_records_name_their_ruleset_and_replay_under_it() -> None:
    """R-SET-1: each record's ruleset is the replayed state's; a record replayed under
    another ruleset would not reach the same state."""
    names = {name: _load(name)["ruleset"] for name in GOLDEN}  # type: ignore[index]
    assert names["classic"] == "classic"
    assert names["classic_redeal"] == "classic-partnership+bad_hand_redeal=True"
    assert names["draw"] == "partnership"
    for name, ruleset in names.items():
        state = _replayed(name)
        assert state.ruleset == tc.Ruleset.from_name(ruleset)
        assert tc.Record.of(state).to_json() == _load(name)


def test_r_cl_1_r_cl_7_golden_classic_match() -> None:
    """R-CL-1: 20 deals, each contract once per Kingdom, individual result; R-CL-7: a
    doubled K♥ and doubled Queens; R-CL-8: each Kingdom's deals sum to 0."""
    state = _replayed("classic")
    assert len(state.results) == 20
    for kingdom in range(1, 5):
        deals = [d for d in state.results if d.kingdom == kingdom]
        assert sorted(d.contract.value for d in deals) == sorted(
            c.value for c in tc.CLASSIC.contracts
        )
        assert sum(sum(d.points) for d in deals) == 0
    kings = [d for d in state.results if d.contract is tc.Contract.KING_OF_HEARTS and d.doubled]
    queens = [d for d in state.results if d.contract is tc.Contract.QUEENS and d.doubled]
    assert kings and queens
    assert {d.card for deal in kings for d in deal.doubled} == {KING_OF_HEARTS}
    summary = tc.score(state)
    assert summary.result in {tc.MatchResult(f"seat{s}") for s in range(4)} | {
        tc.MatchResult.SHARED
    }
    assert tc.replay_report(state)["result"] == summary.result.value


def test_r_opt_8_golden_redeal_record() -> None:
    """R-OPT-8: the redeal is read and written back, the seat held a bad hand in TRIX,
    and the same deal number was dealt again by the same owner."""
    from trixcomplex.core.rules import bad_hand

    data = _load("classic_redeal")
    assert {"move": "redeal", "seat": 2} in data["moves"]  # type: ignore[index]
    record = tc.Record.from_json(data)
    state = tc.new_match(tc.Ruleset.from_name(record.ruleset))
    redeals = 0
    for move in record.moves:
        if isinstance(move, tc.Redeal):
            assert state.phase is tc.Phase.TRIX and bad_hand(state.hands[move.seat])
            after = tc.apply(state, move)
            assert after.phase is tc.Phase.DEAL and after.deal_number == state.deal_number
            redeals += 1
            number, owner = state.deal_number, state.owner
            state = after
            continue
        state = tc.apply(state, move)
        if redeals and isinstance(move, tc.Deal) and state.deal_number == number:
            assert state.owner == owner
    assert redeals == 1 and state.is_over
    assert len(state.results) == 20  # the redeal is not a deal of its own
