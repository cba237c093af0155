"""This library's engine behind the conformance protocol: the reference engine.

Run it as ``python -m trixcomplex.conformance.engine``; the checker run against
it agrees with every case.  :class:`ReferenceEngine` answers one request at a
time and is the base a test can bend to plant a bug.

>>> engine = ReferenceEngine()
>>> engine.handle({"cmd": "new_match", "ruleset": "classic"})
{'ok': True}
>>> engine.handle({"cmd": "apply", "move": {"move": "pass", "seat": 1}})["rule"]
'R-MATCH-2'
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from ..core.engine import MatchState, apply, legal_moves, new_match, score
from ..core.errors import TrixError
from ..core.moves import move_from_json, move_to_json
from ..io.records import ruleset_of
from ..io.serialize import to_json
from ..knowledge.views import view
from .protocol import ProtocolError, decode, encode

__all__ = ["ReferenceEngine", "main", "serve"]


class ReferenceEngine:
    """One match at a time, driven by protocol requests (dicts in, dicts out)."""

    def __init__(self) -> None:
        self.state: MatchState = new_match()

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """The answer to one request; bad input gets ``{"ok": false, "message": ...}``."""
        try:
            return self.answer(request)
        except TrixError as exc:
            return {"ok": False, "rule": exc.rule, "message": str(exc)}
        except (KeyError, TypeError, ValueError) as exc:
            return {"ok": False, "message": f"bad request: {exc.__class__.__name__}: {exc}"}

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """The answer to a well-formed request (raises for a bad one)."""
        cmd = request["cmd"]
        if cmd == "new_match":
            self.state = new_match(ruleset_of(request["ruleset"]))
            return {"ok": True}
        if cmd == "apply":
            self.state = apply(self.state, move_from_json(request["move"]))
            return {"ok": True}
        if cmd == "legal_moves":
            moves = legal_moves(self.state, request["seat"])
            return {"ok": True, "moves": [move_to_json(m) for m in moves]}
        if cmd == "score":
            return {"ok": True, "score": to_json(score(self.state))}
        if cmd == "view":
            return {"ok": True, "view": to_json(view(self.state, request["seat"]))}
        raise ValueError(f"unknown cmd {cmd!r}")


def serve(engine: ReferenceEngine, stdin: TextIO, stdout: TextIO) -> None:
    """Answer requests line by line until ``quit`` or the end of input."""
    for line in stdin:
        try:
            request = decode(line)
        except ProtocolError as exc:
            stdout.write(encode({"ok": False, "message": str(exc)}))
            stdout.flush()
            continue
        if request.get("cmd") == "quit":
            return
        stdout.write(encode(engine.handle(request)))
        stdout.flush()


def main() -> None:
    """Serve the reference engine on standard input and output."""
    serve(ReferenceEngine(), sys.stdin, sys.stdout)


if __name__ == "__main__":
    main()
