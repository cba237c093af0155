"""Drive an engine over the conformance cases and report every disagreement.

For each case the checker starts a match of the case's ruleset, applies the
position's moves, then asks for every seat's legal moves, sends each move the
position must refuse, applies the next move, and compares the score and the
five views.  A disagreement names the clause concerned, what was expected and
what came back, and a reproduction: the ruleset, the moves from a new match, and
the request that went wrong.  Disagreements of one kind and clause are grouped;
the reproduction shown is the shortest.

>>> from trixcomplex.conformance.cases import random_cases
>>> from trixcomplex.conformance.engine import ReferenceEngine
>>> import trixcomplex as tc
>>> report = check_cases(random_cases(tc.PARTNERSHIP, 3), LocalEngine(ReferenceEngine()))
>>> report.checked, report.disagreements
(3, [])
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import selectors
import shlex
import signal
import subprocess
import time
from collections.abc import Iterable
from typing import Any, Protocol

import attrs

from ..core.engine import MatchState, Phase, apply, new_match
from ..core.errors import TrixError
from ..core.jsonio import brief
from ..core.moves import Double, Move, Pass, Play, Timeout, move_from_json
from ..io.records import ruleset_of
from .cases import CaseFormatError, check_case
from .protocol import ProtocolError, decode, encode
from .refusals import refusal_of

__all__ = [
    "MAX_ANSWER",
    "MAX_KEPT",
    "Disagreement",
    "Engine",
    "EngineError",
    "LocalEngine",
    "Report",
    "SubprocessEngine",
    "check_cases",
]


class EngineError(RuntimeError):
    """The engine broke the protocol: it died, hung, or answered something not JSON."""


class Engine(Protocol):
    """Something that answers protocol requests."""

    def request(self, message: dict[str, Any]) -> dict[str, Any]: ...


@attrs.frozen
class LocalEngine:
    """An engine object in this process (anything with ``handle(request) -> answer``)."""

    engine: Any

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        answer = self.engine.handle(json.loads(json.dumps(message)))
        travelled: dict[str, Any] = json.loads(json.dumps(answer))  # as it would travel
        return travelled


MAX_ANSWER = 1024 * 1024
"""Longest answer line :class:`SubprocessEngine` reads, in bytes (1 Mi, the newline not
counted; the longest answer of the reference engine, a view late in a match, is some 20
thousand): a longer one is the engine's failure, so an endless line costs bounded memory."""

_CHUNK = 64 * 1024

MAX_KEPT = 64 * 1024
"""Longest answer a :class:`Disagreement` keeps as it came, in characters of compact JSON
(the reference's answers are all far shorter): a longer one is kept as a one-line text
of its start, so a report costs bounded memory whatever the engine sends."""


def _kept(got: Any) -> Any:
    """``got``, or the text of its start if its JSON is longer than :data:`MAX_KEPT`."""
    text = json.dumps(got, separators=(",", ":"), ensure_ascii=False)
    if len(text) <= MAX_KEPT:
        return got
    return f"<an answer of {len(text)} characters> {brief(got, 200)}"


class SubprocessEngine:
    """An engine run as a command, spoken to over its standard input and output.

    Every read and write is non-blocking and has a deadline: each request, its answer
    included, must be done within ``timeout`` seconds, or the engine has failed; half a
    line followed by silence fails at the deadline, an answer longer than ``max_line``
    bytes fails when that many have come (memory stays bounded), and so does an engine
    that stops reading its requests.  On a failure the engine is killed at once.

    The engine runs in a process group of its own; :meth:`close` asks it to ``quit``,
    waits up to ``grace`` seconds for it to exit, then kills the whole group (children
    it started included) and reaps it: no process is left.  The engine's standard error
    is the checker's.  Nothing here is a sandbox: the engine runs with the checker's
    rights (run a stranger's engine in a sandbox of its own).

    ``timeout`` must be a positive, finite number of seconds (``ValueError``); a command
    that cannot be started is an :class:`EngineError`.
    """

    def __init__(
        self,
        command: str,
        timeout: float = 30.0,
        *,
        max_line: int = MAX_ANSWER,
        grace: float = 5.0,
    ) -> None:
        if not (timeout > 0 and math.isfinite(timeout)):
            raise ValueError(f"the timeout is a positive number of seconds, not {timeout!r}")
        self.command = command
        self.timeout = timeout
        self.max_line = max_line
        self.grace = grace
        self._buffer = bytearray()
        self._failure: str | None = None
        try:
            args = shlex.split(command)
            if not args:
                raise ValueError("no command")
            self.process = subprocess.Popen(
                args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True
            )
        except (OSError, ValueError) as exc:
            raise EngineError(f"cannot start {command!r}: {exc}") from None
        assert self.process.stdin is not None and self.process.stdout is not None
        self._in, self._out = self.process.stdin.fileno(), self.process.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """The engine's answer to ``message``; :class:`EngineError` (and the engine
        killed) if it fails to give one in time."""
        if self._failure is not None:
            raise EngineError(f"the engine already failed: {self._failure}")
        deadline = time.monotonic() + self.timeout
        try:
            self._send(encode(message).encode("utf-8"), deadline, message)
            line = self._line(deadline, message)
            try:
                return decode(line)
            except ProtocolError as exc:
                raise EngineError(f"the engine answered {exc}") from None
        except EngineError as exc:
            self._failure = str(exc)
            self._kill()
            raise

    def _wait(self, fd: int, event: int, deadline: float) -> bool:
        """Whether ``fd`` became ready for ``event`` before ``deadline``."""
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        with selectors.DefaultSelector() as selector:
            selector.register(fd, event)
            return bool(selector.select(left))

    def _send(self, data: bytes, deadline: float, message: dict[str, Any]) -> None:
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._in, view) :]
            except BlockingIOError:
                if not self._wait(self._in, selectors.EVENT_WRITE, deadline):
                    raise EngineError(
                        f"the engine does not read its requests: none taken in "
                        f"{self.timeout:g} s of {brief(message, 60)}"
                    ) from None
            except OSError:  # BrokenPipeError: it has gone
                raise EngineError(f"the engine exited (status {self._status()})") from None

    def _line(self, deadline: float, message: dict[str, Any]) -> bytes:
        buffer = self._buffer
        while True:
            end = buffer.find(b"\n")
            if end > self.max_line or (end < 0 and len(buffer) > self.max_line):
                raise EngineError(f"the engine sent an answer longer than {self.max_line} bytes")
            if end >= 0:
                line = bytes(buffer[:end])
                del buffer[: end + 1]
                return line
            if not self._wait(self._out, selectors.EVENT_READ, deadline):
                partial = f" (after {len(buffer)} bytes of an unfinished line)" if buffer else ""
                raise EngineError(
                    f"no answer in {self.timeout:g} s to {brief(message, 60)}{partial}"
                )
            try:
                chunk = os.read(self._out, _CHUNK)
            except BlockingIOError:
                continue
            if not chunk:
                raise EngineError(f"the engine exited (status {self._status()})")
            buffer += chunk

    def _status(self) -> str:
        """The engine's exit status, once it has closed its output (waiting a little)."""
        try:
            return str(self.process.wait(timeout=min(1.0, self.timeout)))
        except subprocess.TimeoutExpired:
            return "unknown: it closed a pipe but did not exit"

    def _kill(self) -> None:
        """Kill the engine's process group and reap the engine."""
        with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is gone
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def close(self) -> None:
        """Ask the engine to quit, wait ``grace`` seconds at most, then kill whatever is left
        of its process group and reap it."""
        if self._failure is None and self.process.poll() is None:
            deadline = time.monotonic() + self.grace
            with contextlib.suppress(EngineError):  # it has gone, or stopped reading
                self._send(encode({"cmd": "quit"}).encode("utf-8"), deadline, {"cmd": "quit"})
            _exited(self.process.pid, max(0.0, deadline - time.monotonic()))
        self._failure = self._failure or "closed"
        self._kill()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()

    def __enter__(self) -> SubprocessEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _exited(pid: int, timeout: float) -> None:
    """Wait up to ``timeout`` seconds for process ``pid`` to exit, without reaping it (so
    that its process group can still be killed by its number)."""
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):  # not Linux: the kill follows at once
        return
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(pidfd, selectors.EVENT_READ)
            selector.select(timeout)
    finally:
        os.close(pidfd)


@attrs.frozen
class Disagreement:
    """One way an engine disagreed with a case."""

    kind: str
    """``legal-moves``, ``accepts-illegal``, ``wrong-clause``, ``refuses-legal``,
    ``score`` or ``view``."""
    clause: str
    case: str
    ruleset: str
    moves: tuple[Any, ...]
    request: Any
    expected: Any
    got: Any
    """What came back: the answer's value, or, for one longer than :data:`MAX_KEPT`
    characters of JSON, a one-line text of its length and start."""

    def reproduction(self) -> str:
        """The requests that show it, from a new match: one JSON line each."""
        lines = [encode({"cmd": "new_match", "ruleset": self.ruleset})]
        lines += [encode({"cmd": "apply", "move": m}) for m in self.moves]
        if self.request.get("cmd") != "new_match":
            lines.append(encode(self.request))
        return "".join(lines)

    def summary(self) -> str:
        """One line: clause, kind, case, and what differed."""
        expected = json.dumps(self.expected, ensure_ascii=False)[:160]
        got = json.dumps(self.got, ensure_ascii=False)[:160]
        return (
            f"{self.clause} {self.kind} (case {self.case}, after {len(self.moves)} moves): "
            f"expected {expected}, got {got}"
        )


@attrs.define
class Report:
    """What a check found: the cases checked and skipped, every disagreement."""

    checked: int = 0
    skipped: int = 0
    disagreements: list[Disagreement] = attrs.field(factory=list)

    def grouped(self) -> list[tuple[Disagreement, int]]:
        """One disagreement per (clause, kind), the one with the fewest moves, and how
        many there were; sorted by clause."""
        best: dict[tuple[str, str], tuple[Disagreement, int]] = {}
        for found in self.disagreements:
            key = (found.clause, found.kind)
            old, count = best.get(key, (found, 0))
            shorter = found if len(found.moves) < len(old.moves) else old
            best[key] = (shorter, count + 1)
        return sorted(best.values(), key=lambda pair: (pair[0].clause, pair[0].kind))

    def clauses(self) -> set[str]:
        """The clauses of every disagreement."""
        return {d.clause for d in self.disagreements}


def _move_clause(state: MatchState, move: Move) -> str:
    """The clause that allows a legal ``move`` in ``state``."""
    if isinstance(move, Timeout):
        return "R-MATCH-6" if state.phase is Phase.CHOOSE else "R-DBL-3"
    if isinstance(move, Pass):
        return "R-TX-3"
    if isinstance(move, Double):
        return "R-DBL-2"
    if isinstance(move, Play):
        return "R-TX-2" if state.phase is Phase.TRIX else "R-CX-2"
    return {"Choose": "R-MATCH-5", "Redeal": "R-OPT-8", "Deal": "R-MATCH-2"}[type(move).__name__]


_VIEW_CLAUSES = {
    "hand": "R-HID-1",
    "hand_sizes": "R-HID-1",
    "voids": "R-HID-1",
    "cannot_hold": "R-HID-1",
    "known_holdings": "R-HID-1",
    "shown_twos": "R-OPT-7",
    "my_answer": "R-HID-2",
    "doubling_open": "R-DBL-2",
    "doublable": "R-DBL-1",
    "doubled": "R-DBL-3",
    "owner": "R-MATCH-4",
    "kingdom": "R-MATCH-1",
    "deal_number": "R-MATCH-1",
    "phase": "R-MATCH-1",
    "contract": "R-MATCH-5",
    "remaining_contracts": "R-MATCH-5",
    "redeals": "R-OPT-8",
    "leader": "R-CX-3",
    "trick": "R-CX-3",
    "tricks": "R-CX-3",
    "last_trick": "R-CX-3",
    "table": "R-TX-2",
    "rows": "R-TX-2",
    "laid": "R-TX-2",
    "passes": "R-TX-3",
    "finishing_order": "R-TX-4",
    "forced_move": "R-TX-5",
    "legal_moves": "R-SEAT-2",
    "turn": "R-SEAT-1",
}


def _score_clause(expected: Any, got: Any, state: MatchState) -> str:
    """The clause of the first part of a score that differs."""
    if not isinstance(got, dict):
        return "R-MATCH-7"
    their_deals = got.get("deals")
    for deal, theirs in zip(
        expected["deals"], their_deals if isinstance(their_deals, list) else [], strict=False
    ):
        if deal != theirs:
            if deal["contract"] == "TRIX":
                return "R-TX-4"
            return "R-DBL-4" if deal["doubled"] else "R-CX-5"
    if expected["deals"] != got.get("deals") or expected["current"] != got.get("current"):
        if state.trick_deal is not None and state.trick_deal.doubled:
            return "R-DBL-4"
        return "R-CX-5" if expected["current"] != got.get("current") else "R-MATCH-1"
    if expected["seats"] != got.get("seats") or expected["teams"] != got.get("teams"):
        return "R-MATCH-7"
    return "R-MATCH-8"


_TIMEOUT_DECIDES = frozenset(
    ("phase", "contract", "remaining_contracts", "turn", "leader", "legal_moves", "forced_move",
     "doubled", "doubling_open", "my_answer", "doublable", "table", "rows")
)  # fmt: skip
"""The view fields what a timeout decides (the contract, the doubles) shows in."""


def _view_clause(expected: Any, got: Any, before: MatchState, move: Move | None) -> str:
    """The clause of the first field of a view that differs."""
    if not isinstance(got, dict):
        return "R-HID-1"
    for name, value in expected.items():
        if got.get(name) != value:
            if isinstance(move, Timeout) and name in _TIMEOUT_DECIDES:
                return "R-MATCH-6" if before.phase is Phase.CHOOSE else "R-DBL-3"
            if name in ("score", "points") and "score" in expected:
                return _score_clause(expected["score"], got.get("score"), before)
            return _VIEW_CLAUSES.get(name, "R-HID-1")
    return "R-HID-1"  # the engine's view has fields no view has


def _key(move: Any) -> str:
    return json.dumps(move, sort_keys=True)


class _Checker:
    def __init__(self, engine: Engine, report: Report) -> None:
        self.engine = engine
        self.report = report
        self.here: tuple[str, list[Any], MatchState] | None = None
        """Where the engine is: its ruleset, the moves applied and the reference state."""

    def position(self, case: Any) -> MatchState | None:
        """Bring the engine to the case's position: from where it is if the case goes on
        from there (cases of one match come in order), else from a new match.  The
        reference state, or ``None`` if the engine does not support the ruleset or
        refuses a move of the position."""
        moves = case["moves"]
        here = self.here
        self.here = None
        if here is not None and here[0] == case["ruleset"] and moves[: len(here[1])] == here[1]:
            done, state = len(here[1]), here[2]
        else:
            state = new_match(ruleset_of(case["ruleset"]))
            answer = self.engine.request({"cmd": "new_match", "ruleset": case["ruleset"]})
            if not answer.get("ok"):
                if not answer.get("unsupported"):
                    self.found(case, "refuses-legal", "R-SET-1", 0, answer, ok=True)
                return None
            done = 0
        for index in range(done, len(moves)):
            raw = moves[index]
            move = move_from_json(raw)
            before, state = state, _reference(state, move, case, f"moves[{index}]")
            answer = self.engine.request({"cmd": "apply", "move": raw})
            if not answer.get("ok"):
                request = {"cmd": "apply", "move": raw}
                clause = _move_clause(before, move)
                self.found(case, "refuses-legal", clause, index, answer, ok=True, request=request)
                return None
        self.here = (case["ruleset"], list(moves), state)
        return state

    def found(
        self,
        case: Any,
        kind: str,
        clause: str,
        moves: int,
        got: Any,
        *,
        ok: Any = None,
        request: Any = None,
        expected: Any = None,
    ) -> None:
        self.report.disagreements.append(
            Disagreement(
                kind=kind,
                clause=clause,
                case=str(case.get("id")),
                ruleset=case["ruleset"],
                moves=tuple(case["moves"][:moves]),
                request=request or {"cmd": "new_match", "ruleset": case["ruleset"]},
                expected={"ok": True} if ok else expected,
                got=_kept(got),
            )
        )

    def check(self, case: Any) -> None:
        state = self.position(case)
        if state is None:
            self.report.skipped += 1
            return
        self.report.checked += 1
        count = len(case["moves"])
        for seat in range(4):
            request = {"cmd": "legal_moves", "seat": seat}
            got = self.engine.request(request).get("moves")
            expected = case["legal"][seat]
            if not isinstance(got, list) or sorted(map(_key, got)) != sorted(map(_key, expected)):
                self.found(
                    case, "legal-moves", self.legal_clause(state, expected, got), count, got,
                    request=request, expected=expected,
                )  # fmt: skip
        for refused in case["refused"]:
            request = {"cmd": "apply", "move": refused["move"]}
            answer = self.engine.request(request)
            if answer.get("ok"):
                self.found(
                    case, "accepts-illegal", refused["rule"], count, answer,
                    request=request, expected={"ok": False, "rule": refused["rule"]},
                )  # fmt: skip
                self.here = None  # the engine's state is no longer known: start again
                if self.position(case) is None:
                    return
            elif answer.get("rule") != refused["rule"]:
                self.found(
                    case, "wrong-clause", refused["rule"], count, answer,
                    request=request, expected={"ok": False, "rule": refused["rule"]},
                )  # fmt: skip
        if case["next"] is None:
            self.compare_after(case, state, None, count)
            return
        move = move_from_json(case["next"])
        after = _reference(state, move, case, "next")
        request = {"cmd": "apply", "move": case["next"]}
        answer = self.engine.request(request)
        if not answer.get("ok"):
            self.here = None
            self.found(
                case, "refuses-legal", _move_clause(state, move), count, answer,
                ok=True, request=request,
            )  # fmt: skip
            return
        if self.here is not None:
            self.here = (case["ruleset"], [*case["moves"], case["next"]], after)
        self.compare_after(case, state, move, count + 1)

    def legal_clause(self, state: MatchState, expected: list[Any], got: Any) -> str:
        ours = {_key(m) for m in expected}
        theirs = {_key(m) for m in got} if isinstance(got, list) else set()
        for extra in sorted(theirs - ours):
            try:
                refusal = refusal_of(state, move_from_json(json.loads(extra)))
            except ValueError:
                return "R-SEAT-2"
            if refusal is not None:
                return refusal.rule
        for missing in sorted(ours - theirs):
            return _move_clause(state, move_from_json(json.loads(missing)))
        return "R-SEAT-2"

    def compare_after(self, case: Any, before: MatchState, move: Move | None, count: int) -> None:
        moves = [*case["moves"], case["next"]] if move is not None else case["moves"]
        after = {**case, "moves": moves}
        got = self.engine.request({"cmd": "score"}).get("score")
        if got != case["score"]:
            self.found(
                after, "score", _score_clause(case["score"], got, before), count, got,
                request={"cmd": "score"}, expected=case["score"],
            )  # fmt: skip
        for seat, expected in zip((0, 1, 2, 3, None), case["views"], strict=True):
            request = {"cmd": "view", "seat": seat}
            got = self.engine.request(request).get("view")
            if got != expected:
                self.found(
                    after, "view", _view_clause(expected, got, before, move), count, got,
                    request=request, expected=expected,
                )  # fmt: skip


def _reference(state: MatchState, move: Move, case: Any, field: str) -> MatchState:
    """The reference's state after ``move`` of a case: :class:`CaseFormatError` if the
    rules refuse it (the case is wrong, not the engine under test)."""
    try:
        return apply(state, move)
    except TrixError as exc:
        raise CaseFormatError(
            f"{field} is illegal there: {exc}", case=case["id"], field=field
        ) from None


def check_cases(cases: Iterable[Any], engine: Engine) -> Report:
    """Check ``engine`` against every case; :class:`EngineError` if it breaks the protocol,
    :class:`~trixcomplex.conformance.cases.CaseFormatError` for a case that is not one
    (:func:`~trixcomplex.conformance.cases.check_case`) or whose moves the rules refuse."""
    report = Report()
    checker = _Checker(engine, report)
    for case in cases:
        checker.check(check_case(case))
    return report
