"""Every bad command line is one line on standard error and exit status 2, never a
traceback (issue 43, deliverable 1; the project's rule "Bad input: one clear line (CLI,
exit 2)").

Hypothesis builds, for each subcommand, a good command line and mutates one of its
arguments into a bad value (an out-of-range number, an unknown name, an object that is
not a bot, a missing or unreadable file, an unknown flag), or into any text at all.  The
command runs in this process through :func:`trixcomplex.cli.main`, with the work each
command would start replaced by a stub that raises :class:`_Ran`: no match is played,
no server binds a port, no engine or sandbox is started; what is tested is everything
before that (argparse, the loading of bots and files, the options).  Two subprocess
checks at the end run the installed command as a user would, on the issue's two
examples.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from trixcomplex.cli import main


class _Ran(Exception):
    """The command got past its arguments and would now start its work (the stub)."""


# Where each command's work starts: replaced by a stub raising _Ran.
_WORK = (
    "trixcomplex.cli.demo._play_bots",
    "trixcomplex.cli.play._play_bots",
    "trixcomplex.host.tournament.simulate",
    "trixcomplex.server.serve",
    "trixcomplex.conformance.cases.export",
    "trixcomplex.conformance.cases.clause_cases",
    "trixcomplex.conformance.check.SubprocessEngine",
)

_BOTS_MODULE = """
class NotABot:
    pass

def broken():
    raise RuntimeError("a factory that fails\\nover two lines")

def number():
    return 3

def good():
    from trixcomplex.bots import RandomBot
    return RandomBot()

not_callable = 5
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The files the command lines name: a good record, bad ones, a bot module."""
    root = tmp_path_factory.mktemp("cli-fuzz")
    record = tc.simulate([tc.bots.RandomBot(), tc.bots.RandomBot()], 1, seed=3)
    good = root / "good.json"
    good.write_text(json.dumps(record.matches[0].record.to_json()), encoding="utf-8")
    (root / "latin1.json").write_bytes(b'{"format": "caf\xe9"}')
    (root / "empty.json").write_text("", encoding="utf-8")
    (root / "notrecord.json").write_text('{"format": "x"}', encoding="utf-8")
    (root / "adir").mkdir()
    bots = root / "botdir"
    bots.mkdir()
    (bots / "fuzzbots.py").write_text(_BOTS_MODULE, encoding="utf-8")
    return {"root": str(root), "good": str(good), "bots": str(bots)}


# -- the values: good ones, and bad ones (each must end in exit status 2) --------------

_GOOD_BOTS = ["rule", "random", "mc:1", "rule:1", "mc2:2", "MC"]
_BAD_BOT_NAMES = ["foo", "mc:0", "mc:10001", "rule:9", "mc2:x", "", " ", "random:1", "mc:²"]
_BAD_COUNTS = ["0", "-1", "1.5", "", "abc", "1e3", "9" * 5000, "0x10"]
_BAD_SECONDS = ["-1", "nan", "inf", "-inf", "1e300", "abc", "", "1e7x"]
_BAD_PORTS = ["-1", "65536", "99999", "1e3", "", "abc", "0x50", "8000.5", "²"]
_BAD_RULESETS = ["nope", "classic+foo=true", "classic+doubling=maybe", "", "+", "classic+"]


def _bad_files(files: dict[str, str]) -> list[str]:
    root = files["root"]
    return [
        f"{root}/missing.json",
        f"{root}/adir",
        f"{root}/latin1.json",
        f"{files['good']}/under-a-file.json",
    ]


def _commands(files: dict[str, str]) -> dict[str, tuple[list[str], dict[str, list[str]]]]:
    """Each subcommand: a good command line, and per flag the bad values it may take."""
    bad_files = _bad_files(files)
    many = [",".join(["rule"] * n) for n in (2, 3, 5)]
    return {
        "demo": (
            ["demo", "--seed", "5", "--bots", "rule", "--ruleset", "classic"],
            {
                "--seed": ["abc", "1.5", ""],
                "--bots": [*_BAD_BOT_NAMES, "rule,foo", many[0], many[1], many[2]],
                "--ruleset": _BAD_RULESETS,
            },
        ),
        "play": (
            ["play", "--seat", "1", "--bots", "rule", "--seed", "2", "--hint", "mc:1"],
            {
                "--seat": ["4", "-1", "abc", "", "01"],
                "--bots": [*_BAD_BOT_NAMES, many[0], many[2]],
                "--seed": ["x"],
                "--hint": [n for n in _BAD_BOT_NAMES if n.strip()],
                "--ruleset": _BAD_RULESETS,
                "--resume": bad_files,
            },
        ),
        "simulate": (
            [
                "simulate",
                "--bots",
                "fuzzbots:good,rule",
                "--matches",
                "3",
                "--jobs",
                "1",
                "--time-limit",
                "0.5",
                "--cpu-limit",
                "2",
                "--seed",
                "-4",
                "--records",
                f"{files['root']}/records",
            ],
            {
                "--bots": [
                    *_BAD_BOT_NAMES,
                    "rule",
                    many[1],
                    many[2],
                    "fuzzbots:NotABot,rule",
                    "fuzzbots:broken,rule",
                    "fuzzbots:number,rule",
                    "fuzzbots:not_callable,rule",
                    "fuzzbots:missing,rule",
                    "nosuchmodule_xyz:make,rule",
                    ":make,rule",
                    "fuzzbots:,rule",
                    "fuzz bots:good,rule",
                    "fuzzbots:good()",
                    "rule:,rule",
                ],
                "--matches": _BAD_COUNTS,
                "--jobs": [*_BAD_COUNTS, "257", "100000"],
                "--time-limit": ["0", *_BAD_SECONDS],
                "--cpu-limit": ["0", *_BAD_SECONDS],
                "--seed": ["x", "1.5"],
                "--records": [files["good"], f"{files['good']}/sub"],
                "--ruleset": _BAD_RULESETS,
            },
        ),
        "replay": (
            ["replay", files["good"], "--explain"],
            {"FILE": bad_files},
        ),
        "serve": (
            [
                "serve",
                "--port",
                "0",
                "--db",
                f"{files['root']}/t.sqlite3",
                "--max-tables",
                "2",
                "--bot-workers",
                "1",
                "--idle-close",
                "0",
                "--bot-window",
                "0.5",
            ],
            {
                "--port": _BAD_PORTS,
                "--max-tables": _BAD_COUNTS,
                "--create-limit": _BAD_COUNTS,
                "--bot-workers": [*_BAD_COUNTS, "257"],
                "--create-window": _BAD_SECONDS,
                "--retention": _BAD_SECONDS,
                "--idle-close": _BAD_SECONDS,
                "--hello-timeout": _BAD_SECONDS,
                "--bot-budget": _BAD_SECONDS,
                "--bot-window": _BAD_SECONDS,
            },
        ),
        "conformance-export": (
            ["conformance", "export", f"{files['root']}/cases", "--cases", "3"],
            {"--cases": ["-1", "abc", "1.5", ""], "--ruleset": _BAD_RULESETS},
        ),
        "conformance-check": (
            ["conformance", "check", "--engine", "true", "--cases", "2", "--timeout", "5"],
            {
                "--cases": ["-1", "abc", ""],
                "--timeout": ["0", *_BAD_SECONDS],
                "--ruleset": _BAD_RULESETS,
                "--cases-file": bad_files,
            },
        ),
    }


def _with(argv: list[str], flag: str, value: str) -> list[str]:
    """``argv`` with ``flag``'s value replaced by ``value`` (or the flag added);
    ``FILE``: the first positional argument after the subcommand."""
    out = list(argv)
    if flag == "FILE":
        out[1] = value
        return out
    if flag in out:
        out[out.index(flag) + 1] = value
        return out
    return [*out, flag, value]


# -- running the command in this process ----------------------------------------------


@contextlib.contextmanager
def _stubbed(files: dict[str, str]) -> Iterator[None]:
    def ran(*args: object, **kwargs: object) -> None:
        raise _Ran

    with contextlib.ExitStack() as stack:
        for target in _WORK:
            stack.enter_context(mock.patch(target, ran))
        stack.enter_context(mock.patch.object(sys, "path", [files["bots"], *sys.path]))
        stack.enter_context(mock.patch.dict(os.environ, {"TRIXCOMPLEX_PLAIN": "1"}))
        stack.enter_context(mock.patch.object(sys, "stdin", io.StringIO("")))
        yield


def _run(argv: list[str], files: dict[str, str]) -> tuple[int | str, str]:
    """Run the command; (its exit status, or "ran" when it got to its work; stderr).

    Run in the test's own folder: a fuzzed relative path (``--records 5.39e+17``) is made
    there, not in the directory pytest was started from."""
    err, out = io.StringIO(), io.StringIO()
    with contextlib.chdir(files["root"]), _stubbed(files), contextlib.redirect_stderr(err), \
            contextlib.redirect_stdout(out):  # fmt: skip
        try:
            status: int | str = main(argv)
        except SystemExit as exc:  # argparse: --help, --version, a bad argument
            status = exc.code if isinstance(exc.code, int) else 1
        except _Ran:
            status = "ran"
    return status, err.getvalue()


def _error_lines(stderr: str) -> list[str]:
    """The lines of ``stderr`` that are not argparse's usage (its first line and the
    indented lines that continue it)."""
    lines = stderr.splitlines()
    if lines and lines[0].startswith("usage:"):
        lines = lines[1:]
        while lines and lines[0].startswith(" "):
            lines = lines[1:]
    return lines


def _assert_one_line(argv: list[str], status: int | str, stderr: str) -> None:
    assert "Traceback" not in stderr, (argv, stderr)
    lines = _error_lines(stderr)
    assert len(lines) == 1, (argv, status, stderr)
    assert lines[0].startswith("trixcomplex") or argv[0] == "replay", (argv, stderr)


def test_every_good_command_line_gets_to_its_work(files: dict[str, str]) -> None:
    """The good command lines of the fuzz test are good: each reaches its (stubbed) work,
    so a mutation that ends in exit status 2 was refused for the mutated value."""
    for name, (argv, _) in _commands(files).items():
        status, err = _run(argv, files)
        if name == "replay":  # replay's work is cheap: it runs for real
            assert status == 0, err
        else:
            assert status == "ran", (argv, err)


@st.composite
def _mutated(draw: st.DrawFn, files: dict[str, str]) -> tuple[str, list[str], str, str]:
    commands = _commands(files)
    name = draw(st.sampled_from(sorted(commands)))
    argv, bad = commands[name]
    flag = draw(st.sampled_from(sorted(bad)))
    value = draw(st.sampled_from(bad[flag]))
    return name, _with(argv, flag, value), flag, value


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_bad_argument_is_one_line_and_exit_2(
    files: dict[str, str], data: st.DataObject
) -> None:
    """Issue 43 (1): a good command line with one argument made bad (out of range, an
    unknown name, not a bot, a missing or unreadable file) exits with status 2 and one
    error line, never a traceback."""
    _, argv, _, _ = data.draw(_mutated(files))
    status, err = _run(argv, files)
    assert status == 2, (argv, status, err)
    _assert_one_line(argv, status, err)


_FREE = st.one_of(
    st.text(max_size=12),
    st.integers(-(2**70), 2**70).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_argument_value_never_ends_in_a_traceback(
    files: dict[str, str], data: st.DataObject
) -> None:
    """Issue 43 (1): any text in any argument's place (or an unknown flag, or an argument
    missing) gets the command to its work, or ends in exit status 2 with one error line
    (replay: status 1 for a file that is read but fails the record's checks)."""
    commands = _commands(files)
    name = data.draw(st.sampled_from(sorted(commands)))
    argv, bad = commands[name]
    how = data.draw(st.sampled_from(["value", "unknown flag", "drop"]))
    if how == "value":
        argv = _with(argv, data.draw(st.sampled_from(sorted(bad))), data.draw(_FREE))
    elif how == "unknown flag":
        argv = [*argv, "--" + data.draw(st.from_regex(r"[a-z][a-z-]{0,10}", fullmatch=True))]
    else:
        argv = argv[: data.draw(st.integers(0, len(argv) - 1))]
    status, err = _run(argv, files)
    assert status in ("ran", 0, 1, 2), (argv, status, err)
    assert "Traceback" not in err, (argv, err)
    if status == 1:
        assert name == "replay", (argv, err)
    if status in (1, 2):
        _assert_one_line(argv, status, err)


# -- as a user runs it ------------------------------------------------------------------


def _command(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    return subprocess.run(
        [sys.executable, "-m", "trixcomplex", *args],
        capture_output=True, text=True, timeout=60, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def test_the_issues_two_command_lines_in_a_subprocess(files: dict[str, str]) -> None:
    """Issue 43: ``serve --port 99999`` (an OverflowError before) and ``simulate --bots
    mod:NotABot,rule`` (a TypeError before) print one line and exit with status 2."""
    serve = _command("serve", "--port", "99999", cwd=Path(files["bots"]))
    assert serve.returncode == 2, serve.stderr
    assert _error_lines(serve.stderr) == [
        "trixcomplex serve: error: argument --port: "
        "a port is a whole number from 0 to 65535, not '99999'"
    ]
    sim = _command("simulate", "--bots", "fuzzbots:NotABot,rule", cwd=Path(files["bots"]))
    assert sim.returncode == 2, sim.stderr
    assert sim.stderr.splitlines() == [
        "trixcomplex simulate: error: --bots fuzzbots:NotABot: NotABot is not a bot: "
        "it has no choose(view, legal, rng) method"
    ]
