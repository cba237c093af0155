"""The engine's calls for JavaScript frontends: JSON text in, JSON text out.

A frontend running the engine under Pyodide calls :func:`call` with a call's
name and its arguments as JSON; the answer is ``{"ok": true, "value": ...}``
or ``{"ok": false, "error": ...}`` (the library's error JSON: its code, its
clause, what was wrong).  States, moves, views, scores and records are the
library's own JSON (the schemas in ``schemas/``), so the TypeScript types of
``clients/typescript`` describe them.  Each call is the library function of
the same name; nothing here decides a rule.

>>> state = json.loads(call("new_match", '{"ruleset": "classic"}'))["value"]
>>> dealt = json.loads(call("deal", json.dumps({"state": state, "seed": 7})))["value"]
>>> moves = json.loads(call("legal_moves", json.dumps({"state": dealt, "seat": 0})))["value"]
>>> moves[0]["move"]
'choose'
>>> stranger = {"state": dealt, "move": {"move": "pass", "seat": 1}}
>>> answer = json.loads(call("apply", json.dumps(stranger)))
>>> answer["ok"], answer["error"]["rule"]
(False, 'R-MATCH-5')
>>> json.loads(call("castle", "{}"))["error"]["message"][:37]
"bad arguments: ValueError: no call 'c"
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import trixcomplex as tc

__all__ = ["CALLS", "call"]


def _state(data: Any) -> tc.MatchState:
    return tc.from_json(tc.MatchState, data)


def _seat(data: Any) -> int | None:
    if data is not None and (type(data) is not int or not 0 <= data <= 3):
        raise ValueError("seat must be 0, 1, 2, 3 or null (R-SEAT-1)")
    return data


def _new_match(args: dict[str, Any]) -> Any:
    return tc.to_json(tc.new_match(tc.Ruleset.from_name(args.get("ruleset", "partnership"))))


def _deal(args: dict[str, Any]) -> Any:
    deal = tc.Deal.shuffled(random.Random(args["seed"]))
    return tc.to_json(tc.apply(_state(args["state"]), deal))


def _legal_moves(args: dict[str, Any]) -> Any:
    moves = tc.legal_moves(_state(args["state"]), _seat(args.get("seat")))
    return [tc.move_to_json(move) for move in moves]


def _apply(args: dict[str, Any]) -> Any:
    return tc.to_json(tc.apply(_state(args["state"]), tc.move_from_json(args["move"])))


def _submit(args: dict[str, Any]) -> Any:
    return tc.to_json(tc.submit(_state(args["state"]), _seat(args.get("seat")), args["move"]))


def _view(args: dict[str, Any]) -> Any:
    return tc.to_json(tc.view(_state(args["state"]), _seat(args.get("seat"))))


def _score(args: dict[str, Any]) -> Any:
    return tc.to_json(tc.score(_state(args["state"])))


def _replay(args: dict[str, Any]) -> Any:
    return tc.to_json(tc.replay(tc.Record.from_json(args["record"])))


def _record(args: dict[str, Any]) -> Any:
    return tc.Record.of(_state(args["state"]), meta=args.get("meta")).to_json()


def _why_illegal(args: dict[str, Any]) -> Any:
    state, move = _state(args["state"]), tc.move_from_json(args["move"])
    return tc.why_illegal(state, _seat(args.get("seat")), move, locale=args.get("locale", "en"))


CALLS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "new_match": _new_match,
    "deal": _deal,
    "legal_moves": _legal_moves,
    "apply": _apply,
    "submit": _submit,
    "view": _view,
    "score": _score,
    "replay": _replay,
    "record": _record,
    "why_illegal": _why_illegal,
}
"""The calls, by name: each the library function of the same name (``deal`` shuffles
with a seeded generator; ``record`` is :meth:`~trixcomplex.Record.of`)."""


def call(name: str, args: str) -> str:
    """Call ``name`` with the JSON object ``args``; the answer as JSON text."""
    try:
        function = CALLS.get(name)
        if function is None:
            raise ValueError(f"no call {name[:40]!r}; the calls are {', '.join(CALLS)}")
        data = json.loads(args)
        if not isinstance(data, dict):
            raise ValueError("the arguments are a JSON object")
        return json.dumps({"ok": True, "value": function(data)})
    except tc.TrixError as exc:
        return json.dumps({"ok": False, "error": exc.to_json()})
    except (KeyError, TypeError, ValueError, RecursionError) as exc:
        error = {"code": None, "message": f"bad arguments: {exc.__class__.__name__}: {exc}"}
        return json.dumps({"ok": False, "error": {**error, "rule": None, "index": None}})
