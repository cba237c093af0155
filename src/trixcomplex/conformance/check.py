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

import json
import select
import shlex
import subprocess
from collections.abc import Iterable
from typing import Any, Protocol

import attrs

from ..core.engine import MatchState, Phase, apply, new_match
from ..core.moves import Double, Move, Pass, Play, Timeout, move_from_json
from ..io.records import ruleset_of
from .protocol import ProtocolError, decode, encode
from .refusals import refusal_of

__all__ = [
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


class SubprocessEngine:
    """An engine run as a command, spoken to over its standard input and output."""

    def __init__(self, command: str, timeout: float = 30.0) -> None:
        self.command = command
        self.timeout = timeout
        try:
            self.process = subprocess.Popen(
                shlex.split(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                encoding="utf-8",
            )
        except (OSError, ValueError) as exc:
            raise EngineError(f"cannot start {command!r}: {exc}") from None

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        process = self.process
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(encode(message))
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineError(f"the engine exited (status {process.poll()})") from None
        ready, _, _ = select.select([process.stdout], [], [], self.timeout)
        if not ready:
            raise EngineError(f"no answer in {self.timeout:g} s to {encode(message)[:80]}")
        line = process.stdout.readline()
        if not line:
            raise EngineError(f"the engine exited (status {process.wait()})")
        try:
            return decode(line)
        except ProtocolError as exc:
            raise EngineError(f"the engine answered {exc}") from None

    def close(self) -> None:
        """Ask the engine to quit, and make sure it has."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.write(encode({"cmd": "quit"}))
                self.process.stdin.close()
            self.process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


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
    for deal, theirs in zip(expected["deals"], got.get("deals") or [], strict=False):
        if deal != theirs:
            if deal["contract"] == "TRIX":
                return "R-TX-4"
            return "R-DBL-4" if deal["doubled"] else "R-CX-5"
    if expected["deals"] != got.get("deals") or expected["current"] != got.get("current"):
        if state.complex is not None and state.complex.doubled:
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
            if name in ("score", "points"):
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
            answer = self.engine.request({"cmd": "new_match", "ruleset": case["ruleset"]})
            if not answer.get("ok"):
                if not answer.get("unsupported"):
                    self.found(case, "refuses-legal", "R-SET-1", 0, answer, ok=True)
                return None
            done, state = 0, new_match(ruleset_of(case["ruleset"]))
        for index in range(done, len(moves)):
            raw = moves[index]
            move = move_from_json(raw)
            answer = self.engine.request({"cmd": "apply", "move": raw})
            if not answer.get("ok"):
                request = {"cmd": "apply", "move": raw}
                clause = _move_clause(state, move)
                self.found(case, "refuses-legal", clause, index, answer, ok=True, request=request)
                return None
            state = apply(state, move)
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
                got=got,
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
            self.here = (case["ruleset"], [*case["moves"], case["next"]], apply(state, move))
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


def check_cases(cases: Iterable[Any], engine: Engine) -> Report:
    """Check ``engine`` against every case; :class:`EngineError` if it breaks the protocol."""
    report = Report()
    checker = _Checker(engine, report)
    for case in cases:
        checker.check(case)
    return report
