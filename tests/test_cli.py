"""The ``trixcomplex`` command end to end: demo, play, simulate, replay, bad input."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import trixcomplex as tc
from trixcomplex.cli import main
from trixcomplex.cli.play import _parse_answer
from trixcomplex.io.records import Record


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "trixcomplex", *args],
        input=stdin, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip  # a hang guard only, long enough for a machine running two suites


def _main(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _read_until(proc: subprocess.Popen[str], prompt: str) -> str:
    """What ``proc`` prints up to and including ``prompt``."""
    assert proc.stdout is not None
    seen = ""
    while not seen.endswith(prompt):
        char = proc.stdout.read(1)
        assert char, f"{prompt!r} never came"
        seen += char
    return seen


def _play_until_prompt() -> subprocess.Popen[str]:
    """``trixcomplex play --seed 2`` running, waiting at its first ``Your move>`` prompt."""
    import signal

    proc = subprocess.Popen(
        [sys.executable, "-m", "trixcomplex", "play", "--seed", "2"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # even when run
    )  # fmt: skip  # from a background job, which starts with SIGINT ignored
    _read_until(proc, "Your move> ")
    return proc


# -- demo -------------------------------------------------------------------------


def test_r_match_1_demo_plays_eight_deals_and_names_the_winner() -> None:
    """R-MATCH-1, R-MATCH-8: README's first command: 8 deals, scoresheet, winner."""
    done = _run("demo", "--seed", "7")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for n in range(1, 9):
        assert f"Deal {n}, Kingdom {(n + 1) // 2}" in out
    assert "Scoresheet" in out
    assert "Result:" not in out  # the result is printed once, in words, on the last line
    assert "wins" in out.splitlines()[-1] or "draw" in out.splitlines()[-1]
    assert sum(1 for line in out.splitlines() if " wins" in line or "draw" in line) == 1
    assert "took" in out and "finishing order" in out
    assert _run("demo", "--seed", "7").stdout == out  # reproducible


def test_demo_with_other_bots(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--bots takes one name for all seats or four, one per seat."""
    status, out, _ = _main(
        monkeypatch, capsys, "demo", "--seed", "2", "--bots", "rule,random,rule,random"
    )
    assert status == 0
    assert "seat 1 RandomBot" in out and "seat 2 RuleBot" in out


# -- play -------------------------------------------------------------------------


def test_r_match_1_play_a_whole_match_from_a_script(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-MATCH-1, R-CX-4: answering "1" to every question plays a whole match; exit 0."""
    status, out, err = _main(monkeypatch, capsys, "play", "--seed", "3", "--seat", "2",
                             stdin="1\n" * 400)  # fmt: skip
    assert status == 0, err
    assert out.count("Scoresheet") == 8  # after each deal
    takes = out.count("takes the trick (") + out.count("you take the trick (")
    assert takes == 4 * 13  # R-CX-4: every trick of the four COMPLEX deals is narrated
    assert "Your hand (seat 2):" in out and "Your moves: 1)" in out
    assert "wins" in out.splitlines()[-1] or "draw" in out.splitlines()[-1]


def test_r_tx_5_play_auto_plays_forced_moves_with_a_note(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-TX-5: a single legal move is played for the person, with a note."""
    _, out, _ = _main(monkeypatch, capsys, "play", "--seed", "3", stdin="1\n" * 400)
    assert "(only one legal move:" in out and "played for you)" in out


def test_play_wrong_input_asks_again_and_eof_ends_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Wrong input gets a clear message and a new question; EOF exits 1 with a message."""
    status, out, err = _main(monkeypatch, capsys, "play", "--seed", "3", stdin="xyz\n99\n\n")
    assert status == 1
    assert "not a move: 'xyz'" in out and "99 is not a move number" in out
    assert out.count("try again") == 2
    assert "Input ended" in out and "Traceback" not in out + err


def test_play_eof_in_a_subprocess_has_no_traceback() -> None:
    """EOF on stdin: exit status 1, a message, no traceback."""
    done = _run("play", "--seed", "1", stdin="")
    assert done.returncode == 1
    assert "Input ended" in done.stdout and "Traceback" not in done.stderr


def test_play_ctrl_c_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C while asked for a move: exit status 130, no traceback."""

    class Interrupt(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", Interrupt())
    assert main(["play", "--seed", "1"]) == 130
    assert "interrupted" in capsys.readouterr().err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_play_sigint_in_a_subprocess_exits_130() -> None:
    """A real Ctrl-C (SIGINT) at the prompt: exit status 130, one line, no traceback."""
    import signal

    proc = _play_until_prompt()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.strip() == "interrupted"


def test_r_tx_3_answers_number_card_code_and_pass() -> None:
    """R-TX-3: a move is a number, a card code (any R-CARD-2 form) or "pass"."""
    legal = [tc.Play(0, "9S"), tc.Play(0, "TH")]
    assert _parse_answer("2", legal) == tc.Play(0, "TH")
    assert _parse_answer("10h", legal) == tc.Play(0, "TH")
    assert _parse_answer(" 9♠ ", legal) == tc.Play(0, "9S")
    assert _parse_answer("QS", legal) == "Q♠ is not a legal card now"
    assert "cannot pass" in str(_parse_answer("pass", legal))
    assert _parse_answer("PASS", [tc.Pass(0)]) == tc.Pass(0)
    assert _parse_answer("0", legal) == "0 is not a move number: choose 1 to 2"


def test_r_dbl_2_and_r_match_5_answers_for_doubling_and_choosing() -> None:
    """R-DBL-2: answer with the cards to double or "nothing"; R-MATCH-5: "trix"/"complex"."""
    legal = [
        tc.Double(1, []),
        tc.Double(1, ["QS"]),
        tc.Double(1, ["KH"]),
        tc.Double(1, ["QS", "KH"]),
    ]
    assert _parse_answer("nothing", legal) == tc.Double(1, [])
    assert _parse_answer("kh qs", legal) == tc.Double(1, ["QS", "KH"])
    assert "cannot double" in str(_parse_answer("QD", legal))
    choose = [tc.Choose(2, tc.Contract.COMPLEX), tc.Choose(2, tc.Contract.TRIX)]
    assert _parse_answer("Trix", choose) == choose[1]


# -- simulate -----------------------------------------------------------------------


def test_simulate_writes_records_that_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-MATCH-8: --records DIR holds one record file per match; each replays complete."""
    argv = ["simulate", "--bots", "rule,random", "--matches", "4", "--seed", "1"]
    status, out, err = _main(monkeypatch, capsys, *argv, "--records", str(tmp_path))
    assert status == 0, err
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 4
    for f in files:
        obj = json.loads(f.read_text())
        assert obj["format"] == "trixcomplex-record"
        assert tc.replay(Record.from_json(obj)).is_over
    assert "A wins (RuleBot)" in out and "95% CI" in out


def test_simulate_takes_the_versioned_and_sized_bot_names(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--bots rule:1,rule:2`` names RuleBot's two versions (``bot_named``), not a
    ``module:factory`` bot in a module called ``rule``."""
    argv = ["simulate", "--bots", "rule:1,rule:2", "--matches", "2", "--seed", "3"]
    status, out, err = _main(monkeypatch, capsys, *argv)
    assert status == 0, err
    assert "RuleBot (A) vs RuleBot (B)" in out


def test_simulate_plain_text_without_rich(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without rich (a plain `pip install .`): a stderr counter and a plain table."""
    for name in ("rich", "rich.console", "rich.progress", "rich.table"):
        monkeypatch.setitem(sys.modules, name, None)
    status, out, err = _main(monkeypatch, capsys, "simulate", "--matches", "2", "--seed", "4")
    assert status == 0
    assert "2/2 matches" in err
    assert out.startswith("RuleBot (A) vs RandomBot (B)\n")
    assert "mean margin (A - B)" in out and "B wins (RandomBot)" in out


def test_simulate_jobs_give_the_same_table(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--jobs N runs on a process pool: the same summary as in process."""
    monkeypatch.setenv("TRIXCOMPLEX_PLAIN", "1")
    one = _main(monkeypatch, capsys, "simulate", "--matches", "4", "--seed", "8")
    two = _main(monkeypatch, capsys, "simulate", "--matches", "4", "--seed", "8", "--jobs", "2")
    assert one[0] == two[0] == 0 and one[1] == two[1]


# -- replay ------------------------------------------------------------------------


def test_replay_json_and_a_bad_file(tmp_path: Path) -> None:
    """trixcomplex replay FILE --json reports the match; a missing file is one line, exit 2
    (a bad command line; a record that fails its checks is exit 1)."""
    state = tc.simulate([tc.bots.RuleBot(), tc.bots.RandomBot()], 1, seed=2).matches[0].record
    path = tmp_path / "m.json"
    path.write_text(json.dumps(state.to_json()))
    done = _run("replay", str(path), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["complete"] is True
    bad = _run("replay", str(tmp_path / "missing.json"))
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


# -- bad arguments -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--matches", "0"], "positive integer"),
        (["simulate", "--bots", "rule,alpha"], "unknown bot 'alpha'"),
        (["play", "--seat", "5"], "a seat is 0, 1, 2 or 3"),
        (["demo", "--seed", "x"], "invalid int value"),
        (["fly"], "invalid choice"),
        ([], "required"),
        (["demo", "--ruleset", "nope"], "unknown ruleset 'nope'"),
        (["play", "--ruleset", "classic+fast=True"], "bad ruleset option 'fast=True'"),
        (["simulate", "--ruleset", "classic+doubling=maybe"], "bad ruleset option"),
    ],
)
def test_bad_arguments_exit_2_with_one_error_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bad arguments: argparse's usage and one error line naming the problem; exit 2."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert sum(1 for line in err.splitlines() if "error:" in line) == 1


def test_wrong_bot_counts_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--bots with the wrong number of names for the command: one line, exit 2."""
    assert _main(monkeypatch, capsys, "simulate", "--bots", "rule,rule,rule")[0] == 2
    assert _main(monkeypatch, capsys, "play", "--bots", "rule,rule")[0] == 2
    assert _main(monkeypatch, capsys, "demo", "--bots", "rule,mc")[0] == 2


# -- rulesets (R-SET-1, R-SET-2, R-CL-1, R-OPT-8) -----------------------------------


def test_r_cl_1_demo_classic_narrates_twenty_deals_choices_and_the_winner(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-CL-1, R-SET-2: `demo --ruleset classic`: 20 deals in 4 Kingdoms of 5, each
    chosen by its owner but the last of each Kingdom, and the individual winner."""
    status, out, err = _main(monkeypatch, capsys, "demo", "--ruleset", "classic", "--seed", "3")
    assert status == 0, err
    assert "ruleset classic" in out.splitlines()[0]
    for n in range(1, 21):
        assert f"Deal {n}, Kingdom {(n + 4) // 5}, owner seat" in out
    assert out.count("(the last contract)") == 4
    assert out.count("(chosen by seat ") == 16
    assert "King of Hearts (chosen by seat" in out and "KING_OF_HEARTS" not in out
    assert "took K♥: -75" in out or "took K♥: -150" in out
    last = out.splitlines()[-1]
    assert last.startswith(("Seat ", "Seats ")) and ("wins with" in last or "share" in last)


def test_r_opt_8_demo_notes_redeals_and_r_opt_5_the_fixed_order(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-OPT-8: a redeal is narrated under its deal; R-OPT-5: no choice in a fixed order."""
    rs = "classic+bad_hand_redeal=True"
    status, out, _ = _main(monkeypatch, capsys, "demo", "--ruleset", rs, "--seed", "3")
    assert status == 0 and "demanded a redeal (R-OPT-8)" in out
    rs = "classic+doubling=False,fixed_order=True"
    status, out, _ = _main(monkeypatch, capsys, "demo", "--ruleset", rs, "--seed", "3")
    assert status == 0 and out.count("(in the fixed order)") == 20
    assert "doubled" not in out and "no doubles" not in out  # R-OPT-1


def test_r_cl_1_play_classic_from_a_script(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-CL-1, R-CL-2: `play --ruleset classic` answering "1" to everything: 20 deals,
    no partner, King of Hearts narrated with its own penalties; exit 0."""
    status, out, err = _main(monkeypatch, capsys, "play", "--ruleset", "classic", "--seed", "3",
                             "--seat", "1", stdin="1\n" * 2000)  # fmt: skip
    assert status == 0, err
    assert "every seat plays for itself (classic, 20 deals)" in out.splitlines()[0]
    assert out.count("Scoresheet") == 20
    assert "King of Hearts" in out and "(no points)" in out  # a K♥-free trick costs nothing
    assert out.splitlines()[-1].startswith(("Seat ", "Seats "))


def test_r_opt_8_play_asks_the_person_with_a_bad_hand_about_a_redeal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-OPT-8: holding a bad TRIX hand out of turn, the person is asked "Redeal?";
    "yes" demands it and the deal number is dealt again."""
    status, out, err = _main(
        monkeypatch, capsys, "play", "--ruleset", "classic+bad_hand_redeal=True",
        "--seed", "3", "--seat", "0", stdin="yes\n1\n" * 3000,
    )  # fmt: skip
    assert status == 0, err
    assert "Redeal? (yes/no)> you demanded a redeal (R-OPT-8)" in out


def test_r_set_2_and_r_opt_8_answers_name_contracts_and_redeal() -> None:
    """R-SET-2: a contract is chosen by its name (any case, spaces or underscores);
    R-OPT-8: "redeal" demands a redeal when it is one of the moves."""
    choose = [tc.Choose(2, c) for c in (tc.Contract.KING_OF_HEARTS, tc.Contract.LTOOSH)]
    assert _parse_answer("King of Hearts", choose) == choose[0]
    assert _parse_answer("ltoosh", choose) == choose[1]
    assert "not one of the contracts left" in str(_parse_answer("queens", choose))
    legal = [tc.Redeal(1), tc.Play(1, "2S")]
    assert _parse_answer("redeal", legal) == tc.Redeal(1)
    assert "cannot demand a redeal" in str(_parse_answer("redeal", legal[1:]))


def test_r_cl_8_simulate_with_a_ruleset_reports_its_contracts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-CL-8: `simulate --ruleset classic` names the ruleset, one row per contract, and
    what a side's win means in an individual ruleset."""
    monkeypatch.setenv("TRIXCOMPLEX_PLAIN", "1")
    status, out, _ = _main(monkeypatch, capsys, "simulate", "--ruleset", "classic",
                           "--matches", "2", "--seed", "1")  # fmt: skip
    assert status == 0
    assert "ruleset " in out and " classic\n" in out
    for contract in tc.CLASSIC.contracts:
        assert f"{contract.value} points per deal" in out
    assert "a side wins" in out


# -- issue 15: what a demanding user expects -----------------------------------------

_ALL_CODES = [f"{r}{s}" for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10",
                                                   "J", "Q", "K", "A")]  # fmt: skip
_CARD_CODE = re.compile(r"\b(10|[2-9TJQKA])[SHDC]\b")


def test_r_match_2_play_shows_the_engine_s_reason_and_announces_trix_places() -> None:
    """R-MATCH-2, R-CX-2, R-TX-4: a refused card gets the engine's own reason, in card
    symbols ("seat 0 does not hold Q♣"); each seat going out in TRIX is announced."""
    script = ("\n".join(_ALL_CODES) + "\n1\n") * 300  # try every card, then the first move
    done = _run("play", "--seed", "3", "--seat", "0", stdin=script)
    assert done.returncode == 0, done.stderr[-500:]
    out = done.stdout
    assert re.search(r"seat 0 does not hold [2-9JQKA1][0]?[♠♥♦♣] \(R-MATCH-2\); try again", out)
    assert "must follow suit" in out and "(R-CX-2); try again" in out
    for place in ("1st", "2nd", "3rd"):
        assert re.search(rf"-> (you go|seat \d goes) out: {place} place \(R-TX-4\)", out)


class _Terminal(io.StringIO):
    """Standard input of a terminal: Ctrl-D ends one read (``readline`` gives ``""``), and
    the terminal reads on after it.  ``None`` in ``lines`` is a Ctrl-D."""

    def __init__(self, lines: list[str | None]) -> None:
        super().__init__()
        self.lines = lines

    def readline(self, size: int | None = -1) -> str:
        if not self.lines:
            return ""
        line = self.lines.pop(0)
        return "" if line is None else line + "\n"


def _deal_2_hand(out: str) -> str:
    found = re.search(r"\nDeal 2 \(Kingdom 1\).*?\nYour hand \(seat 0\): ([^\n]*)", out, re.S)
    assert found, out[-2000:]
    return found.group(1)


def test_play_ctrl_d_offers_to_save_and_resume_keeps_the_matchs_seed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Ctrl-D offers to save (the seed goes in the record's metadata); ``play --resume``
    prints the match's seed, not a new one, and its next deals are that seed's (R-MATCH-2)."""
    saved = tmp_path / "saved.json"
    monkeypatch.setattr(sys, "stdin", _Terminal(["1", "1", "1", None, str(saved)]))
    status = main(["play", "--seed", "2"])
    out = capsys.readouterr().out
    assert status == 1 and "Input ended" in out and "Save the match" in out
    assert f"--resume {saved}" in out
    record = json.loads(saved.read_text())
    assert record["meta"] == {"seed": 2}
    status, resumed, _ = _main(monkeypatch, capsys, "play", "--resume", str(saved),
                               stdin="1\n" * 600)  # fmt: skip
    assert status == 0
    assert resumed.splitlines()[0].startswith("trixcomplex play, seed 2: ")
    assert "resumed at deal 1" in resumed.splitlines()[0]
    _, fresh, _ = _main(monkeypatch, capsys, "play", "--seed", "2", stdin="1\n" * 600)
    assert _deal_2_hand(resumed) == _deal_2_hand(fresh)


def test_play_shows_the_table_before_each_move_played_for_the_person(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-TX-5: a run of forced moves is auto-played, and the table is shown for each."""
    _, out, _ = _main(monkeypatch, capsys, "play", "--seed", "3", stdin="1\n" * 400)
    lines = out.splitlines()
    forced = [i for i, line in enumerate(lines) if line.startswith("(only one legal move:")]
    assert len(forced) > 5
    for i in forced:
        assert lines[i - 1].startswith("Your hand (seat 0): "), lines[i - 3 : i + 1]


def test_play_ctrl_c_offers_to_save_and_resume_goes_on(tmp_path: Path) -> None:
    """Ctrl-C offers to save the match; ``play --resume FILE`` goes on from there."""
    import signal

    saved = tmp_path / "saved.json"
    proc = _play_until_prompt()
    proc.send_signal(signal.SIGINT)
    seen = _read_until(proc, "(Enter: do not save)> ")  # answer once asked, as a person does
    out, err = proc.communicate(f"{saved}\n", timeout=60)
    assert proc.returncode == 130 and err.strip() == "interrupted"
    assert "Save the match" in seen and f"--resume {saved}" in out
    record = json.loads(saved.read_text())
    assert record["moves"] and record["format"] == "trixcomplex-record"
    done = _run("play", "--resume", str(saved), "--seed", "5", stdin="1\n" * 600)
    assert done.returncode == 0, done.stderr
    assert "resumed at deal 1" in done.stdout.splitlines()[0]
    assert done.stdout.count("Scoresheet") == 8
    bad = _run("play", "--resume", str(tmp_path / "none.json"))
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_version_and_plain_help() -> None:
    """--version prints the version; the help has no reST markup and lists the presets;
    the top-level help describes every ruleset option and mc:N with its cost per decision,
    once: the commands' helps point to it instead of repeating it (issue 30)."""
    done = _run("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"trixcomplex {tc.__version__}"
    options = ("doubling", "penalty_cards_first", "swapped_scores", "free_heart_leads",
               "fixed_order", "reversed_scores", "show_twos", "bad_hand_redeal")  # fmt: skip
    for args in (("--help",), ("demo", "--help"), ("play", "--help"), ("simulate", "--help")):
        text = _run(*args).stdout
        assert "``" not in text and ":class:" not in text and ":func:" not in text
        for preset in tc.RULESETS:
            assert preset in text
        if args == ("--help",):
            for option in options:
                assert re.search(rf"{option}: R-OPT-\d: \w", text), (args, option)
            assert "mc:N" in text and "playouts" in text
        else:
            assert not re.search(r"R-OPT-\d: ", text), args  # the epilog is not repeated
            assert "trixcomplex --help" in text


def test_every_option_with_a_default_shows_it_in_its_help() -> None:
    """``simulate --help`` names the ``--bots`` default, and so does every other option."""
    import argparse

    from trixcomplex.cli import _parser

    parser = _parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in commands.choices.items():
        for action in command._actions:
            if action.option_strings and action.default not in (None, False, argparse.SUPPRESS):
                assert "default" in (action.help or ""), (name, action.option_strings)
    assert "default rule,random" in _run("simulate", "--help").stdout


def test_ruleset_options_match_the_ruleset() -> None:
    """Every boolean option of Ruleset is documented in the CLI, and nothing else."""
    import attrs

    from trixcomplex.cli import RULESET_OPTIONS

    options = {a.name for a in attrs.fields(tc.Ruleset) if a.type in (bool, "bool") and a.init}
    assert set(RULESET_OPTIONS) == options - {"partnership"}


def test_help_lists_every_bot_form_the_parser_takes_and_only_those(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 43 (4): the bots, presets and ruleset options of ``--help`` come from the
    parser's tables: every form listed is taken (N at its bounds), none other is; the
    parser's own refusal lists the same forms; every preset and option is in the help."""
    from trixcomplex.bots import BOT_KINDS, MC_WORLDS, bot_named
    from trixcomplex.bots.rule_bot import RULE_BOT_VERSIONS
    from trixcomplex.cli import RULESET_OPTIONS
    from trixcomplex.cli.args import bot_forms

    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    forms = list(bot_forms())
    assert f"bots (--bots): {', '.join(forms[:-1])} or {forms[-1]}." in text
    for form, meaning in bot_forms().items():
        assert f"{form}: {' '.join(meaning.split())}" in text
    for preset in tc.RULESETS:
        assert preset in text
    for option, meaning in RULESET_OPTIONS.items():
        assert f"{option}: {' '.join(meaning.split())}" in text
    numbers = {
        "rule": [str(v) for v in RULE_BOT_VERSIONS],
        "mc": ["1", str(MC_WORLDS)],
        "level": ["1", "5"],
    }
    for kind in BOT_KINDS:
        assert kind in forms or f"{kind}:N" in forms
        if kind not in forms:
            with pytest.raises(ValueError):
                bot_named(kind)
        for n in numbers.get(kind, numbers["mc"]) if f"{kind}:N" in forms else []:
            bot_named(f"{kind}:{n}")
        if f"{kind}:N" not in forms:
            with pytest.raises(ValueError):
                bot_named(f"{kind}:1")
    with pytest.raises(ValueError) as refused:
        bot_named("nonsense")
    listed = str(refused.value).split("expected one of ")[1].replace(" or ", ", ").split(", ")
    assert listed == forms


def test_broken_pipe_exits_quietly_with_status_0() -> None:
    """``trixcomplex demo | head -2``: the demo stops quietly, exit status 0."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "trixcomplex", "demo", "--ruleset", "classic"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert err == b""


def test_r_set_1_ruleset_options_in_any_order_and_case_are_canonicalised() -> None:
    """R-SET-1: options in any order, true/false in any case, one canonical name; a bad
    option lists the valid ones, a bad preset the presets."""
    done = _run("demo", "--seed", "1", "--ruleset", "Classic+Fixed_Order=TRUE, doubling=false")
    assert done.returncode == 0, done.stderr
    assert "ruleset classic+doubling=False,fixed_order=True" in done.stdout.splitlines()[0]
    bad = _run("demo", "--ruleset", "classic+fast=true")
    assert bad.returncode == 2
    assert "the options are doubling, penalty_cards_first" in bad.stderr
    bad = _run("demo", "--ruleset", "clasic")
    assert bad.returncode == 2 and "the presets are partnership" in bad.stderr
    bad = _run("demo", "--ruleset", "classic+doubling=maybe")
    assert bad.returncode == 2 and "doubling=true or doubling=false" in bad.stderr


def test_one_card_notation_human_contract_names_and_doubling_on_the_seat_line() -> None:
    """What a person reads uses K♥, never KH; contracts have their human names; the
    result is printed once; a seat's doubling points show on its line (R-DBL-4)."""
    done = _run("demo", "--ruleset", "classic", "--seed", "3")
    out = done.stdout
    assert done.returncode == 0 and not _CARD_CODE.search(out)
    assert "King of Hearts" in out and "KING_OF_HEARTS" not in out
    assert re.search(r"seat \d took .*: [+-]\d+ \(doubling [+-]\d+\)", out)
    assert "Result:" not in out and out.count(" wins with ") == 1
    sim = _run("demo", "--seed", "7")
    assert not _CARD_CODE.search(sim.stdout)


def test_simulate_progress_advances_per_match() -> None:
    """``simulate`` reports progress after every match (plain text, not a terminal)."""
    done = subprocess.run(
        [sys.executable, "-m", "trixcomplex", "simulate", "--matches", "6", "--jobs", "2"],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "TRIXCOMPLEX_PLAIN": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stderr.splitlines() if "matches" in line] == [
        f"{n}/6 matches" for n in range(1, 7)
    ]


def test_mc_n_out_of_range_is_refused_with_the_range() -> None:
    """``mc:N`` outside 1 … 10000 is refused, naming the valid range; exit 2."""
    for bad in ("mc:0", "mc:20000", "mc:x"):
        done = _run("simulate", "--bots", f"{bad},rule", "--matches", "1")
        assert done.returncode == 2 and "N from 1 to 10000" in done.stderr


@pytest.mark.parametrize("name", ["doubling_cases", "classic", "timeouts", "classic_redeal"])
def test_r_dbl_4_replay_explain_traces_every_point_on_the_golden_records(name: str) -> None:
    """R-CX-5, R-DBL-4, R-TX-4: ``replay --explain`` on a golden record lists every
    trick with its charges and clause IDs, in card symbols, and the totals; ``--json``
    includes the ledger, which sums to the report's totals."""
    path = Path(__file__).resolve().parent / "records" / f"{name}.json"
    done = _run("replay", str(path), "--explain")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    state = tc.replay(tc.Record.from_json(json.loads(path.read_text())))
    assert not _CARD_CODE.search(out)
    trick_deals = sum(1 for r in state.results if r.contract.is_trick_contract)
    assert len(re.findall(r"Trick 1: seat (\d) leads \S+, seat \d \S+, seat \d \S+, seat \d \S+;"
                          r" seat \d takes it", out)) == trick_deals  # fmt: skip
    assert "[R-TX-4" in out and ("[R-CX-5" in out or "[R-CL-" in out)
    if any(r.doubled for r in state.results):
        assert re.search(
            r"doubled by seat \d, taken by seat \d, trick led by seat \d: case \d", out
        )
        assert "[R-DBL-4" in out
    assert f"Totals: {', '.join(f'seat {s} {p:+d}' for s, p in enumerate(state.scores))}" in out
    js = _run("replay", str(path), "--json")
    report = json.loads(js.stdout)
    totals = [sum(e["points"] for e in report["ledger"] if e["seat"] == s) for s in range(4)]
    assert totals == list(state.scores)
    assert all(_CARD_CODE.fullmatch(c) for e in report["ledger"] for c in e["cards"])
