"""The conformance suite (issue 28): cases, the protocol, the reference engine, the checker.

The engine passes its own suite through the protocol, and each planted bug of
``conformance_bugs`` (one per rule family) is found and named by its clause.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import trixcomplex as tc
from conformance_bugs import BUGS, Broken
from trixcomplex.conformance.cases import (
    CLAUSES,
    FORMAT,
    VERSION,
    CaseFormatError,
    clause_cases,
    random_cases,
    read_cases,
)
from trixcomplex.conformance.check import LocalEngine, SubprocessEngine, check_cases
from trixcomplex.conformance.engine import ReferenceEngine
from trixcomplex.conformance.protocol import decode

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BUGGY = f"{sys.executable} {Path(__file__).with_name('conformance_bugs.py')}"
REFERENCE = f"{sys.executable} -m trixcomplex.conformance.engine"


@pytest.fixture(scope="module")
def cases() -> list[Any]:
    """The clause cases and positions of random matches of two presets."""
    return clause_cases() + random_cases(tc.PARTNERSHIP, 8) + random_cases(tc.CLASSIC, 8)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "trixcomplex", "conformance", *args],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )  # fmt: skip


def test_every_clause_of_the_rules_has_a_hand_picked_case(cases: list[Any]) -> None:
    """Every clause the rules pages name (R-…) has its own case, chosen for it."""
    named = set()
    for page in ("rules.rst", "rulesets.rst"):
        named |= set(re.findall(r"^(R-[A-Z]+-\d+)\s*$", (DOCS / page).read_text(), re.M))
    assert len(named) > 40
    assert named <= set(CLAUSES), sorted(named - set(CLAUSES))
    assert {c["clause"] for c in cases if c["clause"]} == set(CLAUSES)


def test_cases_are_versioned_json_lines_with_everything_an_engine_must_say(
    cases: list[Any],
) -> None:
    for case in cases:
        assert case["format"] == FORMAT and case["version"] == VERSION
        moves = [tc.move_from_json(m) for m in case["moves"]]
        state = tc.replay(tc.Record(ruleset=case["ruleset"], moves=moves))
        assert case["legal"] == [[tc.move_to_json(m) for m in tc.legal_moves(state, s)]
                                 for s in range(4)]  # fmt: skip
        for refused in case["refused"]:
            with pytest.raises(tc.IllegalMoveError) as caught:
                tc.apply(state, tc.move_from_json(refused["move"]))
            assert caught.value.rule == refused["rule"]
        after = state if case["next"] is None else tc.apply(state, tc.move_from_json(case["next"]))
        assert case["score"] == tc.to_json(tc.score(after))
        assert case["views"] == [tc.to_json(tc.view(after, s)) for s in (0, 1, 2, 3, None)]
    refused_rules = {r["rule"] for c in cases for r in c["refused"]}
    assert {"R-CX-2", "R-TX-2", "R-TX-3", "R-DBL-1", "R-MATCH-5", "R-SEAT-1"} <= refused_rules


def test_the_engine_passes_its_own_suite(cases: list[Any]) -> None:
    report = check_cases(cases, LocalEngine(ReferenceEngine()))
    assert report.disagreements == []
    assert report.checked == len(cases) and report.skipped == 0


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_each_planted_bug_is_found_and_named_by_its_clause(bug: str, cases: list[Any]) -> None:
    """One planted bug per rule family (follow suit, trick winner, charges, doubling, TRIX
    rows, passes, places, ownership, timeouts, hidden hands, first lead, contract choice)."""
    report = check_cases(cases, LocalEngine(Broken(bug)))
    assert BUGS[bug][0] in report.clauses(), sorted(report.clauses())


@pytest.mark.parametrize("bug", ["hidden_hands", "follow_suit"])
def test_a_reproduction_replays_the_disagreement(bug: str, cases: list[Any]) -> None:
    """The shortest reproduction of each clause, sent to the broken engine and to the
    reference, gets different answers to its last request (and the same to the others)."""
    report = check_cases(cases, LocalEngine(Broken(bug)))
    found = next(d for d, _ in report.grouped() if d.clause == BUGS[bug][0])
    lines = [decode(line) for line in found.reproduction().splitlines()]
    broken, reference = Broken(bug), ReferenceEngine()
    answers = [(broken.handle(r), reference.handle(r)) for r in lines]
    assert all(a == b for a, b in answers[:-1])
    assert answers[-1][0] != answers[-1][1]


def test_the_cli_exports_cases_and_checks_the_reference_engine(tmp_path: Path) -> None:
    done = cli("export", str(tmp_path), "--cases", str(len(CLAUSES) + 6), "--ruleset", " Classic")
    assert done.returncode == 0, done.stderr
    path = tmp_path / "cases.jsonl"
    assert done.stdout.strip() == f"wrote {len(read_cases(path))} cases to {path}"
    assert {c["ruleset"] for c in read_cases(path) if c["clause"] is None} == {"classic"}
    done = cli("check", "--engine", REFERENCE, "--cases-file", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert " 0 disagreements" in done.stdout


def test_the_cli_reports_a_broken_engine_with_clause_and_reproduction() -> None:
    done = cli("check", "--engine", f"{BUGGY} owner_rotation", "--cases", "4")
    assert done.returncode == 1, done.stderr
    assert re.search(r"^R-MATCH-4 view \(case .*\): expected .* got ", done.stdout, re.M)
    assert '  reproduction:\n    {"cmd":"new_match"' in done.stdout


def test_an_engine_over_a_real_pipe_sees_the_same_as_in_process(cases: list[Any]) -> None:
    engine = SubprocessEngine(f"{BUGGY} trick_winner")
    try:
        report = check_cases(cases[:20], engine)
    finally:
        engine.close()
    expected = check_cases(cases[:20], LocalEngine(Broken("trick_winner")))
    assert report.disagreements == expected.disagreements != []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "--engine", "no-such-engine-command"], "cannot start 'no-such-engine-command'"),
        (["check", "--engine", "true", "--cases", "1"], "the engine exited"),
        # An engine that reads the request, then answers what is not JSON (reading first:
        # one that prints and exits before the request is written has exited, a race).
        (
            ["check", "--engine", f"{sys.executable} -c 'input(); print(1)'", "--cases", "1"],
            "answered",
        ),
        (["check", "--engine", "true", "--cases-file", "/nonexistent/cases"], "cannot read"),
        (["export", "/proc/no/such/dir"], "cannot write"),
    ],
)
def test_bad_input_gets_one_line_and_no_traceback(args: list[str], message: str) -> None:
    done = cli(*args)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_an_unknown_version_or_format_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps({"format": FORMAT, "version": VERSION + 1}) + "\n")
    with pytest.raises(CaseFormatError, match="version 2 unknown"):
        read_cases(path)
    path.write_text('{"format": "other"}\n')
    with pytest.raises(CaseFormatError, match="not a trixcomplex-conformance case"):
        read_cases(path)
