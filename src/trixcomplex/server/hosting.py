"""The library's hosting API as the server uses it (one place to adapt it).

TEMPORARY: written against the public API of the library before the issue-12
hosting API (``tc.submit``, ``tc.events``, ``tc.timeout_move``,
``Record.meta``) landed; each function prefers the library's own version.
"""

from __future__ import annotations

import json
from typing import Any

import trixcomplex as tc

__all__ = ["Refused", "error_json", "events", "record_json", "submit", "timeout_move"]


class Refused(ValueError):
    """A client message the server refuses; ``code`` is machine-readable."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": str(self), "rule": self.rule, "index": None}


def error_json(exc: Exception) -> dict[str, Any]:
    """The ``{"code", "message", "rule", "index"}`` form of a refusal."""
    to_json = getattr(exc, "to_json", None)
    if to_json is not None:
        out: dict[str, Any] = to_json()
        return out
    code = {
        tc.IllegalMoveError: "illegal-move",
        tc.MoveFormatError: "bad-move",
    }.get(type(exc), "refused")
    return {"code": code, "message": str(exc), "rule": getattr(exc, "rule", None), "index": None}


def submit(state: tc.MatchState, seat: int | None, data: str) -> tc.MatchState:
    lib = getattr(tc, "submit", None)
    if lib is not None:
        new: tc.MatchState = lib(state, seat, data)
        return new
    if seat is None:
        raise Refused("spectator", "a spectator cannot move")
    try:
        obj = json.loads(data)
    except ValueError:
        raise Refused("bad-json", "the message is not JSON") from None
    move = tc.move_from_json(obj)
    if not isinstance(move, tc.Play | tc.Pass | tc.Choose | tc.Double | tc.Redeal):
        raise Refused("host-only", f"{obj.get('move')} is the host's move")
    if move.seat != seat:
        raise Refused("wrong-seat", f"you are seat {seat}, not seat {move.seat}", "R-SEAT-1")
    return tc.apply(state, move)


def events(
    before: tc.MatchState, move: tc.Move, after: tc.MatchState, viewer: int | None
) -> list[dict[str, Any]]:
    lib = getattr(tc, "events", None)
    if lib is not None:
        out: list[dict[str, Any]] = lib(before, move, after, viewer)
        return out
    if isinstance(move, tc.Double | tc.Deal):
        return []
    return [{"event": "move", "move": tc.move_to_json(move)}]


def timeout_move(state: tc.MatchState, seat: int) -> tc.Move:
    lib = getattr(tc, "timeout_move", None)
    if lib is not None:
        move: tc.Move = lib(state, seat)
        return move
    return tc.forced_move(state, seat) or tc.legal_moves(state, seat)[0]


def record_json(state: tc.MatchState, meta: dict[str, Any]) -> dict[str, Any]:
    try:
        record = tc.Record.of(state, meta=meta)  # type: ignore[call-arg]
    except TypeError:
        out = tc.Record.of(state).to_json()
        out["meta"] = meta
        return out
    return record.to_json()  # type: ignore[no-any-return]


def read_record(obj: dict[str, Any]) -> tuple[tc.MatchState, dict[str, Any]]:
    if hasattr(tc.Record, "meta"):
        record = tc.Record.from_json(obj)
        return tc.replay(record), dict(record.meta or {})  # type: ignore[attr-defined]
    body = {k: v for k, v in obj.items() if k != "meta"}
    return tc.replay(tc.Record.from_json(body)), dict(obj.get("meta", {}))
