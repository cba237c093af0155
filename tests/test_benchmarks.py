"""The benchmark scripts keep working (CI does not time them, so nothing else runs them).

``benchmarks/bench.py`` measures the goals of issue 16 against a yardstick and a
reference floor; these tests check what they count, not how fast anything is.
"""

from __future__ import annotations

import random
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

import trixcomplex as tc

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench
from floor import floor


def test_the_floor_plays_the_yardsticks_games() -> None:
    """R-CX-4, R-TX-4: both play the 52 cards of a trick deal and a TRIX deal's cards
    until three seats are out (the fourth seat's last cards are never laid)."""
    for seed in range(3):
        plays = bench.yardstick(random.Random(seed), 4)
        assert plays == floor(random.Random(seed), 4)
        assert 4 * 52 + 4 * 39 <= plays < 8 * 52


def test_self_play_and_playouts_count_every_card_play() -> None:
    """R-MATCH-1: a partnership match is four trick deals and four TRIX deals."""
    played = bench.selfplay(range(2), tc.PARTNERSHIP) + bench.playouts(range(2), tc.PARTNERSHIP)
    for state in played:
        assert state.is_over
        plays = bench.card_plays([state])
        assert 4 * 52 + 4 * 39 <= plays < 8 * 52


def test_by_move_names_every_move_and_prints_a_row_for_each_kind(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rng = random.Random(3)
    state = tc.new_match()
    kinds: Counter[str] = Counter()
    while not state.is_over:
        move = (
            tc.Deal.shuffled(rng)
            if state.phase is tc.Phase.DEAL
            else rng.choice(tc.legal_moves(state))
        )
        kinds[bench.move_kind(state, move)] += 1
        state = tc.apply(state, move)
    assert kinds["Deal"] == 8 and kinds["contract choice"] == 4
    assert kinds["a trick deal's last card"] == 4 and kinds["a TRIX deal's last card"] == 4
    assert sum(kinds[f"trick card {n}"] for n in (1, 2, 3, 4)) == 4 * 52 - 4
    bench.by_move(range(1, 3), tc.PARTNERSHIP, passes=1)
    out = capsys.readouterr().out
    for kind in kinds:
        assert kind in out
    assert "the moves in match order" in out


def test_a_strength_row_split_among_processes_is_the_row_played_whole(tmp_path: Path) -> None:
    """``strength.py --start K`` plays a row from match K, appending to the shared
    ``--out``: the two parts, in either order, give the matches a whole run gives."""
    import json

    import strength

    def rows(path: Path) -> dict[int, dict[str, object]]:
        found = {}
        for line in path.read_text().splitlines():
            row = json.loads(line)
            del row["ms_per_decision"]  # CPU time, not a result
            found[row["index"]] = row
        return found

    whole, parts = tmp_path / "whole.jsonl", tmp_path / "parts.jsonl"
    strength._run("rule:1,random", 4, 7, whole, tc.PARTNERSHIP)
    strength._run("rule:1,random", 4, 7, parts, tc.PARTNERSHIP, start=2)
    assert sorted(rows(parts)) == [2, 3]
    strength._run("rule:1,random", 2, 7, parts, tc.PARTNERSHIP)
    assert rows(parts) == rows(whole) and sorted(rows(whole)) == [0, 1, 2, 3]


def test_a_strength_name_changes_a_bots_settings_and_rejects_bad_ones() -> None:
    """``NAME[field=value,...]`` is the bot with those settings changed; a bad setting is
    one ``ValueError`` naming the bot, before any match is played."""
    import doctest

    import strength

    assert doctest.testmod(strength).failed == 0
    searcher = strength.bot("mc2[worlds=20, caution=0.5]")
    assert (searcher.worlds, searcher.caution) == (20, 0.5)  # type: ignore[attr-defined]
    assert strength.bot("mc[policy=rule2]").policy == "rule2"  # type: ignore[attr-defined]
    assert strength.sides("mc2[worlds=20,caution=0.5],rule") == ["mc2[worlds=20,caution=0.5]",
                                                                 "rule"]  # fmt: skip
    for bad, says in [
        ("mc2[worlds=x]", "'worlds' must be"),
        ("mc2[wrlds=3]", ".*unexpected keyword argument 'wrlds'"),
        ("mc2[worlds]", "settings are field=value"),
    ]:
        with pytest.raises(ValueError, match=f"bad bot '{re.escape(bad)}': {says}"):
            strength.bot(bad)
    with pytest.raises(ValueError, match="give two bot names"):
        strength.sides("mc2")


def test_versus_compares_two_rows_match_by_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--versus`` pairs two rows of one seed by match index: the margin difference is
    the mean of the matches' differences, over the matches both rows played."""
    import json

    import strength

    new, old = tmp_path / "new.jsonl", tmp_path / "old.jsonl"
    strength._run("rule,random", 4, 7, new, tc.PARTNERSHIP)
    strength._run("rule:1,random", 6, 7, old, tc.PARTNERSHIP)
    margins = [{r["index"]: r["margin"] for r in map(json.loads, p.read_text().splitlines())}
               for p in (new, old)]  # fmt: skip
    expected = sum(margins[0][i] - margins[1][i] for i in range(4)) / 4
    capsys.readouterr()
    strength._versus(new, old)
    said = capsys.readouterr().out
    assert "rule,random against rule:1,random on the same 4 matches" in said
    assert f"margin {expected:+.0f} a match" in said
    other = tmp_path / "other.jsonl"
    strength._run("rule:1,random", 2, 8, other, tc.PARTNERSHIP)
    with pytest.raises(ValueError, match="played seed 8"):
        strength._versus(new, other)


def test_bytecodes_counts_each_function_and_its_loop_exactly() -> None:
    """``bytecodes.py`` (issue 44) counts what each function runs, exactly: a loop twice
    as long runs twice its loop's bytecodes more, and the caller's are its own."""
    import bytecodes

    def loop(n: int) -> int:
        total = 0
        for i in range(n):
            total += i
        return total

    def run(n: int) -> None:
        loop(n)

    short = bytecodes.count(lambda: run(10))
    long = bytecodes.count(lambda: run(20))
    key = next(k for k in short if k[1] == "loop")
    assert long[key] - short[key] == short[key] - bytecodes.count(lambda: run(0))[key] > 0
    assert (
        long[next(k for k in long if k[1] == "run")]
        == short[next(k for k in short if k[1] == "run")]
    )


def test_side_by_side_times_two_builds_in_one_process() -> None:
    """``side_by_side.py`` (issue 44) imports the base as ``trixcomplex_base`` beside the
    head and prints each row's median ratio and quartiles; this checkout against itself."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "side_by_side.py"), str(root), str(root),
         "--rounds", "3", "--rows", "playout", "self-play"],
        capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    lines = done.stdout.splitlines()
    assert re.search(r"trixcomplex_base/__init__\.py$", lines[0])
    assert lines[1].endswith("src/trixcomplex/__init__.py")
    rows = [line for line in lines if "median" in line]
    assert [row.split()[0] for row in rows] == ["playout", "self-play"]
    for row in rows:
        assert re.search(r"median \d+\.\d{3} \(quartiles \d+\.\d{3}–\d+\.\d{3}\)", row)


def test_side_by_side_base_copy_plays_the_same_matches_as_the_head(tmp_path: Path) -> None:
    """The renamed copy is the same engine under another name: its own modules (none
    shared with ``trixcomplex``), and the same random playouts, move for move."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    script = (
        "import sys, random; sys.path.insert(0, sys.argv[1]); import side_by_side as s;"
        "from pathlib import Path; import trixcomplex as h;"
        "b = s.import_base(Path(sys.argv[2]), Path(sys.argv[3]));"
        "assert b is not h and b.playout is not h.playout;"
        "assert b.core.runner.__name__ == 'trixcomplex_base.core.runner';"
        "one = lambda tc, n: [str(m) for m in tc.playout(tc.new_match(), random.Random(n),"
        " until='match').history];"
        "assert all(one(b, n) == one(h, n) for n in range(3)); print('same')"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(root / "benchmarks"), str(root), str(tmp_path)],
        capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    assert done.stdout.strip() == "same"


def test_instructions_runs_each_rows_workload_and_reads_valgrinds_total(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``instructions.py`` (issue 44): each row's workload runs as valgrind would run it,
    and the total is read from cachegrind's summary line; without a base it says so."""
    import instructions

    for row in instructions.ROWS:
        instructions.worker(row, 1)
    line = "==4242== I   refs:      51,220,182\n"
    found = instructions.TOTAL.search(line)
    assert found is not None and int(found[1].replace(",", "")) == 51_220_182
    with pytest.raises(SystemExit):
        instructions.main([])
    assert "the base checkout is required" in capsys.readouterr().err
