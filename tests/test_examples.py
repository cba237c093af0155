"""Every script in ``examples/`` runs on its own, without input, and prints what it promises.

Each script is run as a subprocess with the interpreter running the tests;
a new example must add its expected output lines to :data:`EXPECTED`.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SCRIPTS = sorted(EXAMPLES.glob("*.py"))

EXPECTED: dict[str, list[str]] = {
    "audit_record.py": [
        "replay report:",
        "  complete: true",
        "all invariants hold",  # R-CX-6, R-TX-4, R-SUM-1, R-DBL-4, R-MATCH-4
        ", rule R-CX-2: move ",  # the tampered revoke is rejected
    ],
    "custom_bot.py": [
        "DuckingBot as side A, 24 seeded matches per pairing",
        "DuckingBot vs RandomBot",
        "DuckingBot vs RuleBot",
        "win rate",
    ],
    "host_loop.py": [
        "deal 1: seat ",
        "doubles revealed: ",
        "Trick 1 of 13:",
        "Your hand:",
        "forced move auto-played: ",
        "Scoresheet",
        "Result: ",
    ],
    "ismcts_vs_bots.py": [
        "ISMCTS (5 simulations a move, random rollouts) against trixcomplex bots",
        "ISMCTS vs RuleBot: win rate ",
        "ISMCTS vs MonteCarloBot(worlds=4): win rate ",
        "(95% CI ",
    ],
    "seeded_match.py": [
        "RuleBot (seats 0, 2) against RandomBot (seats 1, 3), seed 7",
        "Scoresheet                                seat 0  seat 1  seat 2  seat 3",
        "Deal 8  Kingdom 4",
        "Result: ",
    ],
}


def run(script: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(script), *args],
        cwd=EXAMPLES.parent,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=600,  # a hang guard only (on a busy machine too); speed is not tested here
        check=False,
    )


def test_there_are_at_least_four_examples_each_with_expectations() -> None:
    assert len(SCRIPTS) >= 4
    assert sorted(EXPECTED) == [script.name for script in SCRIPTS]


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_example_runs_and_prints_what_it_promises(script: Path) -> None:
    docstring = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8")))
    assert docstring, f"{script.name} needs a module docstring saying what it shows"
    proc = run(script)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    assert proc.stderr == ""
    for expected in EXPECTED[script.name]:
        assert expected in proc.stdout, f"{script.name} did not print {expected!r}"


def test_seeded_match_is_reproducible_and_depends_on_the_seed() -> None:
    """R-MATCH-2: a fresh shuffle per deal, all from the seed; the same seed, the same match."""
    script = EXAMPLES / "seeded_match.py"
    first, again, other = run(script), run(script), run(script, "--seed", "8")
    assert first.returncode == again.returncode == other.returncode == 0
    assert first.stdout == again.stdout
    assert first.stdout.split("\n", 1)[1] != other.stdout.split("\n", 1)[1]
