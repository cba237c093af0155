"""The line-JSON protocol between the conformance checker and an engine.

The checker starts the engine as a command and talks to it over its standard
input and output: one JSON object per line each way, one answer per request,
in order.  Requests (``cmd``) and answers::

    {"cmd": "new_match", "ruleset": "classic"}   -> {"ok": true}
    {"cmd": "apply", "move": {...}}              -> {"ok": true}
                                                 or {"ok": false, "rule": "R-CX-2",
                                                     "message": "..."}  (state unchanged)
    {"cmd": "legal_moves", "seat": 2}            -> {"ok": true, "moves": [{...}, ...]}
    {"cmd": "score"}                             -> {"ok": true, "score": {...}}
    {"cmd": "view", "seat": 2}  (null: a spectator) -> {"ok": true, "view": {...}}
    {"cmd": "quit"}                              -> the engine exits

Moves, scores and views are in the library's JSON forms (the ``move``,
``score`` and ``view`` JSON schemas, :func:`trixcomplex.json_schema`); the
ruleset is named as records name it (``classic+doubling=False``).  An engine
that does not support a ruleset answers ``{"ok": false, "unsupported": true}``
to ``new_match``, and its cases are skipped.

An answer is one line of at most
:data:`~trixcomplex.conformance.check.MAX_ANSWER` bytes of UTF-8 JSON (nested at
most 32 deep), sent whole within the checker's timeout of the request; an engine
that breaks this, or stops reading its requests, has failed the check.

>>> encode({"cmd": "score"})
'{"cmd":"score"}\\n'
>>> decode('{"ok": true}')
{'ok': True}
"""

from __future__ import annotations

import json
from typing import Any

from ..core.errors import TrixError
from ..core.jsonio import brief, loads

__all__ = ["COMMANDS", "ProtocolError", "decode", "encode"]

COMMANDS = ("new_match", "apply", "legal_moves", "score", "view", "quit")
"""The requests an engine answers."""


class ProtocolError(ValueError):
    """A line that is not a JSON object."""


def encode(message: dict[str, Any]) -> str:
    """One protocol line: compact JSON and a newline."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n"


def decode(line: str | bytes) -> dict[str, Any]:
    """The JSON object of one protocol line (:class:`ProtocolError` for anything else).

    The line is parsed by the bounded parser (:func:`trixcomplex.core.jsonio.loads`):
    nesting deeper than 32, an integer too long to read, ``NaN``, a key named twice and
    bytes that are not UTF-8 are refused, as is a line that is not a JSON object.

    >>> try:
    ...     decode("[" * 300_000 + "]" * 300_000)
    ... except ProtocolError as exc:
    ...     print(exc)
    not JSON (invalid JSON: nested deeper than 32 levels): "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[…
    """
    try:
        value = loads(line)
    except TrixError as exc:
        start = line[:80].decode("utf-8", "replace") if isinstance(line, bytes) else line[:80]
        raise ProtocolError(f"not JSON ({exc}): {brief(start, 40)}") from None
    if not isinstance(value, dict):
        raise ProtocolError(f"not a JSON object: {brief(value, 60)}")
    return value
