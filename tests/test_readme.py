"""The README's tour: every comment in it is true (issue 15, item 6)."""

from __future__ import annotations

import random
import re
import tomllib
from pathlib import Path

import pytest

import trixcomplex as tc

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def _tour() -> list[str]:
    text = README.read_text(encoding="utf-8")
    block = text.split("```python\n", 1)[1].split("```", 1)[0]
    return block.splitlines()


def test_the_tour_runs_and_its_comments_are_true() -> None:
    """R-MATCH-3, R-MATCH-6, R-DBL-2, R-HID-1: each line of the tour does what its comment says."""
    lines = _tour()
    assert any("tc.legal_moves(state, seat=3)" in line for line in lines)
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
    assert (state.phase, state.to_act, state.owner) == (tc.Phase.CHOOSE, frozenset({0}), 0)
    assert tc.parse_card("7H") in state.hand(0)
    state = tc.apply(state, tc.Timeout())
    assert state.contract is tc.Contract.COMPLEX and state.to_act == frozenset({0, 3})
    answers = tc.legal_moves(state, seat=3)
    assert len(answers) == 8 and answers[0] == tc.Double(3, [])
    assert answers[1:4] == (tc.Double(3, ["QS"]), tc.Double(3, ["QH"]), tc.Double(3, ["QS", "QH"]))
    assert tc.legal_moves(state, seat=2) == ()
    assert tc.forced_move(state, 3) is None
    with pytest.raises(tc.IllegalMoveError, match=r"the doubling window is open \(R-DBL-2\)"):
        tc.apply(state, tc.Play(0, "AS"))
    assert tc.score(state).current == (0, 0, 0, 0) and tc.ledger(state) == ()
    assert tc.replay(tc.Record.of(state)) == state
    mine = tc.view(state, 3)
    assert isinstance(tc.to_json(mine), dict) and isinstance(tc.dumps(mine), str)
    assert tc.loads(tc.View, tc.dumps(mine)) == mine
    namespace: dict[str, object] = {}
    code = "\n".join(line for line in lines if 'tc.Play(0, "AS")' not in line)
    exec(compile(code, str(README), "exec"), namespace)  # the rest runs as written
    assert re.search(r"frozenset\(\{0, 3\}\)", "\n".join(lines))


def _section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_quick_start_is_two_commands() -> None:
    commands = re.findall(r"```sh\n(.*?)\n```", _section("Quick start"), re.S)
    assert commands == [
        "python -m pip install . && trixcomplex demo --seed 7",
        'python -m pip install -e ".[test]" && python -m pytest',
    ]


def test_every_extra_is_in_the_readmes_table_once_and_only_there() -> None:
    """Issue 30 item 4: the extras are listed once, in README, and each install line
    works today (from a checkout) or says it is for the published package."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    table = re.findall(r"^\| `([a-z]+)` +\|", _section("Install"), re.M)
    assert sorted(table) == sorted(extras["optional-dependencies"])
    for page in [README, *sorted((ROOT / "docs").glob("*.rst"))]:
        for paragraph in page.read_text(encoding="utf-8").split("\n\n"):
            if re.search(r"pip install\s+\"?trixcomplex\b", paragraph):
                assert "published" in paragraph, f"{page.name}: index-only: {paragraph}"


def test_the_changelog_is_in_keep_a_changelog_form_and_names_the_formats() -> None:
    """Issue 30 item 5: release headings, the six kinds of change, and a 0.1.0 entry whose
    summary (read in two minutes) names the record and state formats at the versions the
    code writes, and every extra."""
    from trixcomplex.io.records import VERSION as RECORD_VERSION
    from trixcomplex.io.serialize import STATE_VERSION

    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## (.*)$", text, re.M)
    assert releases[0] == "[Unreleased]"
    for heading in releases[1:]:
        assert re.fullmatch(r"\[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}", heading), heading
    kinds = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
    assert set(re.findall(r"^### (.*)$", text, re.M)) <= kinds
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    entry = text.split(f"\n## [{version}] - ", 1)[1].split("\n## ", 1)[0]
    summary = entry.split("\n### ", 1)[0]  # what it is, the formats, the extras
    assert f'`"format": "trixcomplex-record"` | {RECORD_VERSION} |' in summary
    assert f'`"format": "trixcomplex-state"` | {STATE_VERSION} |' in summary
    unreleased = text.split("\n## [Unreleased]", 1)[1].split("\n## ", 1)[0]
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for extra in extras["optional-dependencies"]:  # in the release, or added since
        assert f"`{extra}`" in summary or f"`{extra}` extra" in unreleased, extra
    assert len(summary.split()) < 500  # read in two minutes
