"""``trixcomplex conformance check`` keeps its contract on any input (issue 38, deliverable 7).

Exit status 0: the engine agrees; 1: it disagrees; 2 (one line on standard
error): the cases file is bad, or the engine cannot start or breaks the
protocol.  Each attack is a hostile cases file or a hostile engine (a small
Python script run with this interpreter); each was written first as the
attack and failed on the code before the fix.  Waits are bounded by a small
``--timeout`` and a generous subprocess timeout; no test measures how long
anything took.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

import trixcomplex as tc
from trixcomplex.cli import main
from trixcomplex.conformance.cases import CaseFormatError, random_cases, read_cases
from trixcomplex.conformance.check import (
    MAX_ANSWER,
    EngineError,
    LocalEngine,
    SubprocessEngine,
    check_cases,
)
from trixcomplex.conformance.engine import ReferenceEngine

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = f"{sys.executable} -m trixcomplex.conformance.engine"
BAD_CASES = "trixcomplex conformance check: bad cases file: "


@pytest.fixture(scope="module")
def case() -> dict[str, Any]:
    """A good case in the middle of a partnership match (a trick being played)."""
    found: dict[str, Any] = random_cases(tc.PARTNERSHIP, 8)[5]
    return found


@pytest.fixture(scope="module")
def few(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A cases file of two cases: enough for an engine that fails at its first answer."""
    path = tmp_path_factory.mktemp("few") / "cases.jsonl"
    path.write_text("".join(dumps(c) + "\n" for c in random_cases(tc.CLASSIC, 2)))
    return str(path)


def run_cli(*args: str) -> tuple[int, str, str]:
    """``trixcomplex conformance ARGS`` in this process: status, stdout, stderr.  An
    exception escaping the command fails the test (it would be a traceback)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(["conformance", *args])
    return status, out.getvalue(), err.getvalue()


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``trixcomplex conformance ARGS`` as a process (a hang fails the test, never the suite)."""
    return subprocess.run(
        [sys.executable, "-m", "trixcomplex", "conformance", *args],
        capture_output=True, text=True, timeout=timeout, cwd=ROOT,
    )  # fmt: skip


def one_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def dumps(case: Any) -> str:
    return json.dumps(case, separators=(",", ":"))


def edited(case: dict[str, Any], **changes: Any) -> str:
    """The case with some fields changed (``None`` as a value: the field deleted)."""
    out = {k: v for k, v in case.items() if changes.get(k, 0) is not None}
    out.update({k: v for k, v in changes.items() if v is not None})
    return dumps(out)


# -- hostile cases files ------------------------------------------------------------

Attack = Callable[[dict[str, Any]], str | bytes]

DEEP = 100_000
ATTACKS: dict[str, Attack] = {
    "empty file": lambda c: b"",
    "blank lines only": lambda c: "\n \n\t\n",
    "not JSON": lambda c: "cases, as a list:\n",
    "not UTF-8": lambda c: b'{"format": "\xff\xfe"}\n',
    "a line nested 100,000 deep": lambda c: "[" * DEEP + "]" * DEEP + "\n",
    "a field nested 100,000 deep": lambda c: dumps(c).replace(
        '"next":', '"next":' + "[" * DEEP + "]" * DEEP + ',"x":', 1
    ),
    "a 5,000-digit version": lambda c: dumps(c).replace('"version":1', '"version":' + "9" * 5000),
    "a 5,000-digit seat in a move": lambda c: dumps(c).replace(
        '"seat":', '"seat":' + "7" * 5000 + ',"s":', 1
    ),
    "NaN for a score": lambda c: dumps(c).replace('"score":', '"score":NaN,"s":', 1),
    "a key named twice": lambda c: dumps(c)[:-1] + ',"moves":[]}',
    "a JSON list, not a case": lambda c: "[1, 2, 3]\n",
    "a string, not a case": lambda c: '"a case"\n',
    "a null case": lambda c: "null\n",
    "no id": lambda c: edited(c, id=None),
    "no ruleset": lambda c: edited(c, ruleset=None),
    "no moves": lambda c: edited(c, moves=None),
    "no legal moves": lambda c: edited(c, legal=None),
    "no refused moves": lambda c: edited(c, refused=None),
    "no next move": lambda c: edited(c, next=None),
    "no score": lambda c: edited(c, score=None),
    "no views": lambda c: edited(c, views=None),
    "an id that is a number": lambda c: edited(c, id=7),
    "an unknown ruleset": lambda c: edited(c, ruleset="no-such-ruleset"),
    "a ruleset that is a list": lambda c: edited(c, ruleset=["classic"]),
    "moves that are a string": lambda c: edited(c, moves="deal, play, play"),
    "a move that is a number": lambda c: edited(c, moves=[*c["moves"][:3], 5]),
    "a move of no kind": lambda c: edited(c, moves=[{"move": "cheat", "seat": 0}]),
    "legal moves of three seats": lambda c: edited(c, legal=c["legal"][:3]),
    "legal moves that are numbers": lambda c: edited(c, legal=[1, 2, 3, 4]),
    "a legal move of no kind": lambda c: edited(c, legal=[[{"move": 1}], [], [], []]),
    "refused moves that are a dict": lambda c: edited(c, refused={"move": "x"}),
    "a refused move with no rule": lambda c: edited(c, refused=[{"move": c["moves"][0]}]),
    "a refused move's rule a number": lambda c: edited(
        c, refused=[{"move": c["moves"][0], "rule": 3}]
    ),
    "a next move that is a string": lambda c: edited(c, next="play"),
    "a score that is a list": lambda c: edited(c, score=[1, 2]),
    "a score whose deals are a number": lambda c: edited(c, score={**c["score"], "deals": 5}),
    "a score deal with no contract": lambda c: edited(
        c, score={**c["score"], "deals": [{"doubled": []}]}
    ),
    "a score with no current": lambda c: edited(
        c, score={k: v for k, v in c["score"].items() if k != "current"}
    ),
    "views of four viewers": lambda c: edited(c, views=c["views"][:4]),
    "views that are strings": lambda c: edited(c, views=["v"] * 5),
    "a view whose score is a number": lambda c: edited(
        c, views=[{**c["views"][0], "score": 1}, *c["views"][1:]]
    ),
    "host moves that are a number": lambda c: edited(c, host=1),
    "a clause that is a list": lambda c: edited(c, clause=["R-CX-2"]),
}


def write_cases(path: Path, text: str | bytes) -> Path:
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return path


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_a_hostile_cases_file_is_one_line_and_exit_2(
    attack: str, case: dict[str, Any], tmp_path: Path
) -> None:
    """Attack (issue 38): a bad cases file gave a traceback and exit 1, the status of
    "the engine disagrees".  Now: one line naming the file, exit 2, and the library's
    :func:`read_cases` raises :class:`CaseFormatError` (a ``ValueError``) with the line."""
    path = write_cases(tmp_path / "cases.jsonl", ATTACKS[attack](case))
    with pytest.raises(CaseFormatError) as caught:
        read_cases(path)
    assert isinstance(caught.value, ValueError)
    assert caught.value.path == str(path)
    assert str(caught.value).startswith(str(path))
    status, out, err = run_cli("check", "--engine", REFERENCE, "--cases-file", str(path))
    assert status == 2, (out, err)
    assert one_line(err).startswith(BAD_CASES + str(path)), err


def test_a_hostile_cases_file_fails_before_the_engine_starts(tmp_path: Path) -> None:
    """The cases are read whole before the engine runs: an engine that cannot start is
    never reached when the file is bad."""
    path = write_cases(tmp_path / "cases.jsonl", "[" * DEEP + "\n")
    status, _, err = run_cli("check", "--engine", "no-such-engine", "--cases-file", str(path))
    assert status == 2 and one_line(err).startswith(BAD_CASES)


@pytest.mark.parametrize("attack", ["a line nested 100,000 deep", "a 5,000-digit version"])
def test_the_command_itself_never_shows_a_traceback(
    attack: str, case: dict[str, Any], tmp_path: Path
) -> None:
    """The two attacks of the issue, through the installed command (a process)."""
    path = write_cases(tmp_path / "cases.jsonl", ATTACKS[attack](case))
    done = cli("check", "--engine", REFERENCE, "--cases-file", str(path))
    assert done.returncode == 2, done.stdout + done.stderr
    assert one_line(done.stderr).startswith(BAD_CASES), done.stderr


def test_a_case_line_over_the_size_limit_is_refused_unparsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line longer than ``MAX_CASE_CHARS`` is refused before it is parsed."""
    from trixcomplex.conformance import cases

    monkeypatch.setattr(cases, "MAX_CASE_CHARS", 1000)
    path = write_cases(tmp_path / "cases.jsonl", '{"format": "' + "x" * 5000 + '"}\n')
    with pytest.raises(CaseFormatError, match=r":1: a line of more than 1000 characters"):
        read_cases(path)


def test_an_endless_file_is_refused_at_the_file_limit(
    case: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file of good cases (or blank lines) without end is read up to ``MAX_FILE_CHARS``
    characters only (a small limit here: the reading never gets past it)."""
    from trixcomplex.conformance import cases

    line = dumps(case) + "\n"
    monkeypatch.setattr(cases, "MAX_FILE_CHARS", 3 * len(line))
    path = write_cases(tmp_path / "cases.jsonl", line * 3 + "\n" * 10)
    with pytest.raises(CaseFormatError, match=rf":4: a file of more than {3 * len(line)} char"):
        read_cases(path)
    write_cases(path, line * 3)
    assert len(read_cases(path)) == 3  # at the limit: read


def test_the_error_is_structured(case: dict[str, Any], tmp_path: Path) -> None:
    """:class:`CaseFormatError` names the file, the line, the case and the field."""
    path = tmp_path / "cases.jsonl"
    bad = edited(case, legal=[*case["legal"][:2], 5, []])
    path.write_text(dumps(case) + "\n\n" + bad + "\n", encoding="utf-8")
    with pytest.raises(CaseFormatError) as caught:
        read_cases(path)
    error = caught.value
    assert (error.path, error.line, error.field) == (str(path), 3, "legal[2]")
    assert error.case == case["id"] and error.reason == "legal[2] is not a list of moves"
    assert str(error) == f"{path}:3: case {case['id']!r}: legal[2] is not a list of moves"


def test_a_case_given_to_the_library_is_checked_too(case: dict[str, Any]) -> None:
    """:func:`check_cases` checks each case it is given (not only those of a file)."""
    bad = json.loads(edited(case, views=None))
    with pytest.raises(CaseFormatError, match="views"):
        check_cases([bad], LocalEngine(ReferenceEngine()))


@pytest.mark.parametrize("field", ["moves", "next"])
def test_an_illegal_position_is_a_bad_case_not_the_engines_fault(
    field: str, case: dict[str, Any], tmp_path: Path
) -> None:
    """A case whose position or next move the rules refuse is a bad cases file (exit 2),
    found while checking: the reference applies each move before the engine is asked,
    so the engine is never blamed for refusing it."""
    pass_first = {"move": "pass", "seat": 1}
    bad = (
        edited(case, moves=[pass_first, *case["moves"]])
        if field == "moves"
        else edited(case, next=pass_first)
    )
    path = write_cases(tmp_path / "cases.jsonl", bad + "\n")
    status, out, err = run_cli("check", "--engine", REFERENCE, "--cases-file", str(path))
    assert status == 2, (out, err)
    line = one_line(err)
    assert line.startswith(f"{BAD_CASES}{path}: case {case['id']!r}: ") and "(R-" in line
    with pytest.raises(CaseFormatError) as caught:
        check_cases(read_cases(path), LocalEngine(ReferenceEngine()))
    assert caught.value.field == ("moves[0]" if field == "moves" else "next")


def test_a_file_of_other_rulesets_only_says_so(case: dict[str, Any], tmp_path: Path) -> None:
    """``--ruleset`` leaving no case to check is one line and exit 2, not "0 disagreements"."""
    path = write_cases(tmp_path / "cases.jsonl", dumps(case) + "\n")
    status, _, err = run_cli(
        "check", "--engine", REFERENCE, "--cases-file", str(path), "--ruleset", "classic"
    )
    assert status == 2 and "no case of the ruleset classic" in one_line(err)


# -- hostile engines ----------------------------------------------------------------

HALF_LINE = """
import sys, time
sys.stdin.readline()
sys.stdout.write('{"ok": tr')
sys.stdout.flush()
time.sleep(3600)
"""

TRICKLE = """
import sys, time
sys.stdin.readline()
while True:
    sys.stdout.write("x")
    sys.stdout.flush()
    time.sleep(0.05)
"""

ENDLESS_LINE = """
import sys
sys.stdin.readline()
chunk = "x" * 65536
while True:
    sys.stdout.write(chunk)
"""

NEVER_READS = """
import sys
while True:
    sys.stdout.write('{"ok": true}\\n')
"""

DEEP_ANSWER = """
import sys
sys.stdin.readline()
sys.stdout.write("[" * 300000 + "\\n")
sys.stdout.flush()
sys.stdin.read()
"""

HUGE_INTEGER = """
import sys
sys.stdin.readline()
sys.stdout.write('{"ok": ' + "9" * 5000 + '}\\n')
sys.stdout.flush()
sys.stdin.read()
"""

NOT_UTF8 = """
import sys
sys.stdin.readline()
sys.stdout.buffer.write(b'{"ok": "\\xff"}\\n')
sys.stdout.flush()
sys.stdin.read()
"""

WITH_A_CHILD = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
open(sys.argv[1], "a").write(f"{child.pid}\\n")
sys.stdin.readline()
sys.stdout.write('{"ok"')
sys.stdout.flush()
time.sleep(3600)
"""

IGNORES_QUIT = """
import signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
from trixcomplex.conformance.engine import ReferenceEngine
from trixcomplex.conformance.protocol import decode, encode
engine = ReferenceEngine()
for line in sys.stdin:
    request = decode(line)
    if request.get("cmd") == "quit":
        break
    sys.stdout.write(encode(engine.handle(request)))
    sys.stdout.flush()
time.sleep(3600)
"""

WRONG_SCORE = """
import sys
from trixcomplex.conformance.engine import ReferenceEngine
from trixcomplex.conformance.protocol import decode, encode

class Wrong(ReferenceEngine):
    def handle(self, request):
        if request.get("cmd") == "score":
            return {"ok": True, "score": {"deals": 5, "current": "x", "seats": {}}}
        if request.get("cmd") == "view":
            return {"ok": True, "view": {"score": {"deals": {"a": 1}}, "points": 3}}
        if request.get("cmd") == "legal_moves":
            return {"ok": True, "moves": [1, [2], {"move": "play"}, None]}
        return super().handle(request)

engine = Wrong()
for line in sys.stdin:
    request = decode(line)
    if request.get("cmd") == "quit":
        break
    sys.stdout.write(encode(engine.handle(request)))
    sys.stdout.flush()
"""


WATCHDOG = 90.0
"""Seconds after which every hostile engine of a test is killed, whatever happens."""

PRELUDE = """
import os, sys
open(sys.argv[1], "a").write(f"{os.getpid()}\\n")
"""


def pids(pid_file: Path) -> list[int]:
    """The engine's pid and its children's, as the engine wrote them."""
    return [int(p) for p in pid_file.read_text().split()]


@pytest.fixture
def engine_script(tmp_path: Path) -> Iterator[Callable[[str], tuple[str, Path]]]:
    """Write a hostile engine; give its command and the file where it (and any child it
    starts) writes its pid.  Whatever is still running at the end is killed, and after
    ``WATCHDOG`` seconds at the latest: a read the checker would block in forever (the
    bug these tests attack) then ends, so a regression fails the test, never hangs it."""
    made: list[Path] = []

    def kill_all() -> None:
        for pid_file in made:
            for pid in pids(pid_file) if pid_file.exists() else []:
                if alive(pid):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)

    def make(source: str) -> tuple[str, Path]:
        script = tmp_path / f"engine{len(made)}.py"
        pid_file = tmp_path / f"engine{len(made)}.pid"
        script.write_text(PRELUDE + source, encoding="utf-8")
        made.append(pid_file)
        return f"{sys.executable} {script} {pid_file}", pid_file

    watchdog = threading.Timer(WATCHDOG, kill_all)
    watchdog.start()
    try:
        yield make
    finally:
        watchdog.cancel()
        kill_all()


def started(pid_file: Path, count: int) -> None:
    """Wait (a minute at most) until ``count`` processes have written their pids: an
    event, not a guess at how fast the machine starts a Python."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if pid_file.exists() and len(pids(pid_file)) >= count:
            return
        time.sleep(0.02)


def gone(pid_file: Path) -> bool:
    """Whether nothing the engine started is still running, waiting (30 s at most) for
    the kernel to finish killing what was sent SIGKILL (a loaded machine takes a
    moment): only a process that outlives that is left behind."""
    deadline = time.monotonic() + 30
    while any(alive(pid) for pid in pids(pid_file)):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists (a zombie counts as gone: it runs nothing)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_an_engine_that_writes_half_a_line_hits_the_timeout(
    engine_script: Callable[[str], tuple[str, Path]],
    few: str,
) -> None:
    """Attack (issue 38): half a line, then silence, hung past ``--timeout`` (a blocking
    readline after select).  Now the read waits for the line until the deadline."""
    command, pid_file = engine_script(HALF_LINE)
    done = cli("check", "--engine", command, "--cases-file", few, "--timeout", "0.5")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "no answer in 0.5 s" in one_line(done.stderr)
    assert "after 9 bytes of an unfinished line" in done.stderr
    assert gone(pid_file)


def test_a_trickle_of_bytes_does_not_extend_the_timeout(
    engine_script: Callable[[str], tuple[str, Path]],
) -> None:
    """Attack: one byte every 50 ms, never a newline.  The deadline is the request's,
    not each read's, so the trickle fails at ``timeout`` like silence does."""
    command, pid_file = engine_script(TRICKLE)
    engine = SubprocessEngine(command, timeout=0.5)
    try:
        with pytest.raises(EngineError, match=r"no answer in 0\.5 s .* unfinished line"):
            engine.request({"cmd": "score"})
    finally:
        engine.close()
    assert gone(pid_file)


def test_an_endless_line_is_cut_at_the_maximum_with_bounded_memory(
    engine_script: Callable[[str], tuple[str, Path]],
) -> None:
    """Attack (issue 38): an endless line grew memory without bound.  Now a line longer
    than ``max_line`` bytes is the engine's failure, and reading it costs about that."""
    command, pid_file = engine_script(ENDLESS_LINE)
    engine = SubprocessEngine(command, timeout=60, max_line=1 << 20)
    tracemalloc.start()
    try:
        with pytest.raises(EngineError, match=r"an answer longer than 1048576 bytes"):
            engine.request({"cmd": "new_match", "ruleset": "classic"})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        engine.close()
    assert peak < 4 << 20, peak
    assert engine.process.returncode is not None and gone(pid_file)


def test_the_command_cuts_an_endless_line_at_max_answer(
    engine_script: Callable[[str], tuple[str, Path]],
    few: str,
) -> None:
    command, pid_file = engine_script(ENDLESS_LINE)
    done = cli("check", "--engine", command, "--cases-file", few, "--timeout", "60")
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"an answer longer than {MAX_ANSWER} bytes" in one_line(done.stderr)
    assert gone(pid_file)


def test_an_engine_that_never_reads_cannot_block_the_checker(
    engine_script: Callable[[str], tuple[str, Path]],
) -> None:
    """Attack: an engine that answers without reading lets its input pipe fill; a
    blocking write of the next request would hang past ``--timeout``."""
    command, pid_file = engine_script(NEVER_READS)
    done = cli("check", "--engine", command, "--cases", "40", "--timeout", "0.5")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "does not read its requests" in one_line(done.stderr)
    assert gone(pid_file)


@pytest.mark.parametrize(
    ("source", "says"),
    [
        (DEEP_ANSWER, "nested"),
        (HUGE_INTEGER, "not JSON"),
        (NOT_UTF8, "not UTF-8"),
    ],
    ids=["300,000 [", "a 5,000-digit integer", "not UTF-8"],
)
def test_an_answer_the_parser_cannot_take_is_a_protocol_failure(
    source: str, says: str, engine_script: Callable[[str], tuple[str, Path]], few: str
) -> None:
    """Attack: an answer of 300,000 ``[`` (``RecursionError``), a 5,000-digit integer
    (Python's int-string limit, a ``ValueError`` that is not a ``JSONDecodeError``) or
    bytes that are not UTF-8 broke the checker with a traceback."""
    command, pid_file = engine_script(source)
    done = cli("check", "--engine", command, "--cases-file", few, "--timeout", "60")
    assert done.returncode == 2, done.stdout + done.stderr
    line = one_line(done.stderr)
    assert "the engine answered" in line and says in line, line
    assert gone(pid_file)


def test_answers_of_the_wrong_shape_are_disagreements(
    engine_script: Callable[[str], tuple[str, Path]],
    few: str,
) -> None:
    """Attack: a score whose ``deals`` is a number, a view whose score is of the wrong
    shape, legal moves that are not moves: disagreements (exit 1), not a crash."""
    command, pid_file = engine_script(WRONG_SCORE)
    done = cli("check", "--engine", command, "--cases-file", few, "--timeout", "60")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and done.stderr == ""
    assert " score (case " in done.stdout and " view (case " in done.stdout
    assert " legal-moves (case " in done.stdout
    assert gone(pid_file)


class Padded(ReferenceEngine):
    """Answers every view with 200,000 characters of padding."""

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = super().handle(request)
        if request.get("cmd") == "view":
            answer["view"] = {**answer["view"], "pad": "x" * 200_000}
        return answer


def test_a_report_keeps_bounded_answers() -> None:
    """Attack: answers just under ``MAX_ANSWER``, each a disagreement, all kept whole in
    the report (5 views a case).  A disagreement keeps at most ``MAX_KEPT`` characters
    of an answer: the start of a longer one, as text."""
    report = check_cases(random_cases(tc.CLASSIC, 2), LocalEngine(Padded()))
    views = [d for d in report.disagreements if d.kind == "view"]
    assert len(views) == 10
    for found in views:
        assert isinstance(found.got, str) and len(found.got) < 400, found.got[:400]
        assert re.match(r'<an answer of 20\d{4} characters> \{"seat": ', found.got)
        assert found.clause == "R-HID-1"  # a view with a field no view has
    assert all(len(d.summary()) < 1000 for d in views)


def test_the_engine_and_its_children_are_killed_and_reaped(
    engine_script: Callable[[str], tuple[str, Path]], tmp_path: Path
) -> None:
    """Attack: an engine that starts a child and hangs.  After the timeout the engine's
    whole process group is killed and the engine reaped: nothing is left running."""
    command, pid_file = engine_script(WITH_A_CHILD)
    engine = SubprocessEngine(command, timeout=0.5)
    started(pid_file, 2)  # the child exists before the timeout can run (a slow machine)
    try:
        with pytest.raises(EngineError, match=r"no answer in 0\.5 s"):
            engine.request({"cmd": "new_match", "ruleset": "classic"})
    finally:
        engine.close()
    assert engine.process.returncode is not None  # reaped by close()
    assert len(pids(pid_file)) == 2 and gone(pid_file)


def test_the_command_leaves_no_engine_process(
    engine_script: Callable[[str], tuple[str, Path]],
    few: str,
) -> None:
    command, pid_file = engine_script(WITH_A_CHILD)
    # 5 s: room for the engine to start its child on a loaded machine before the timeout
    done = cli("check", "--engine", command, "--cases-file", few, "--timeout", "5")
    assert done.returncode == 2 and "no answer in 5 s" in one_line(done.stderr)
    assert len(pids(pid_file)) == 2 and gone(pid_file)


def test_an_engine_that_ignores_quit_is_killed(
    engine_script: Callable[[str], tuple[str, Path]],
) -> None:
    """An engine that answers well but stays after ``quit`` (and ignores SIGTERM) is
    killed once the grace is over; the check's result stands."""
    command, pid_file = engine_script(IGNORES_QUIT)
    engine = SubprocessEngine(command, timeout=60, grace=0.2)
    try:
        report = check_cases(random_cases(tc.CLASSIC, 2), engine)
    finally:
        engine.close()
    assert report.checked == 2 and report.disagreements == []
    assert engine.process.returncode is not None and gone(pid_file)


def test_a_request_after_a_failure_is_refused(
    engine_script: Callable[[str], tuple[str, Path]],
) -> None:
    """After a protocol failure the engine is gone: the next request is an
    :class:`EngineError` at once, never a read of a dead pipe."""
    command, pid_file = engine_script(HALF_LINE)
    engine = SubprocessEngine(command, timeout=0.3)
    try:
        with pytest.raises(EngineError):
            engine.request({"cmd": "score"})
        assert gone(pid_file)  # killed at the failure, before close()
        with pytest.raises(EngineError, match="already failed"):
            engine.request({"cmd": "score"})
    finally:
        engine.close()


@pytest.mark.parametrize("timeout", ["0", "-1", "nan", "inf", "soon"])
def test_a_timeout_that_is_not_a_positive_number_is_refused(timeout: str) -> None:
    done = cli("check", "--engine", REFERENCE, "--timeout", timeout)
    assert done.returncode == 2
    assert "--timeout" in done.stderr and "Traceback" not in done.stderr


# -- export --cases N (issue 43) ------------------------------------------------------


def test_export_writes_exactly_the_cases_asked_for(tmp_path: Path) -> None:
    """Issue 43: ``export --cases 200`` wrote 254 cases.  ``--cases N`` is the number of
    cases in the file: every clause case, then random-match cases up to N."""
    status, out, err = run_cli("export", str(tmp_path), "--cases", "70", "--ruleset", "classic")
    assert status == 0, err
    cases = read_cases(tmp_path / "cases.jsonl")
    assert len(cases) == 70
    assert out.strip() == f"wrote 70 cases to {tmp_path / 'cases.jsonl'}"
    random_ones = [c for c in cases if c["clause"] is None]
    assert random_ones and {c["ruleset"] for c in random_ones} == {"classic"}


def test_export_says_why_it_writes_more_than_asked(tmp_path: Path) -> None:
    """Fewer cases than there are clause cases: every clause case all the same, and the
    one line says why."""
    from trixcomplex.conformance.cases import clause_cases

    clauses = len(clause_cases())
    status, out, err = run_cli("export", str(tmp_path), "--cases", "5")
    assert status == 0, err
    assert len(read_cases(tmp_path / "cases.jsonl")) == clauses
    assert out.strip() == (
        f"wrote {clauses} cases to {tmp_path / 'cases.jsonl'}, not 5: "
        f"every clause has its case ({clauses} clauses)"
    )
