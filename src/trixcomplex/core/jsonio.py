"""JSON helpers shared by every loader: strict parsing, input limits, bounded messages.

Everything the library reads from outside goes through these:

- :func:`loads` parses JSON text strictly: a key named twice in an object,
  ``NaN``/``Infinity``, invalid UTF-8, text over the size limit and nesting
  deeper than :data:`MAX_DEPTH` are rejected (a duplicated ``"moves"`` key
  must not silently replace a record's moves), the last two before anything
  is parsed (:func:`nesting_depth`), at close to :func:`json.loads`'s speed;
- :func:`check_json` checks that a parsed value is plain JSON data within
  limits: objects with string keys, lists, strings, finite numbers, booleans
  and ``null``, nested at most :data:`MAX_DEPTH` deep, strings of at most
  :data:`MAX_STRING` characters, integers of at most 64 bits;
- :func:`brief` renders any value for an error message from a bounded prefix,
  so a 10 MB string, a 2,000-deep list or ``10**5000`` costs next to nothing.

Errors are :class:`~trixcomplex.TrixError` with the codes ``json.invalid``,
``json.duplicate-key``, ``json.too-large`` and ``json.not-json``.

>>> loads('{"a": [1, 2]}')
{'a': [1, 2]}
>>> try:
...     loads('{"a": 1, "a": 2}')
... except TrixError as exc:
...     print(exc.code, "-", exc)
json.duplicate-key - invalid JSON: the key "a" appears twice in an object
>>> brief(list(range(10**6)), 30)
'[0, 1, 2, 3, 4, 5, 6, 7, 8, 9…'
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

from .errors import TrixError, one_line

__all__ = [
    "MAX_DEPTH",
    "MAX_INT_BITS",
    "MAX_STRING",
    "MAX_TEXT",
    "brief",
    "check_json",
    "json_depth",
    "loads",
    "nesting_depth",
]

MAX_DEPTH = 32
"""Deepest nesting of lists and objects accepted in a record, state or view (a move needs 2)."""
MAX_STRING = 4096
"""Longest string accepted anywhere in library JSON (card codes and names are far shorter)."""
MAX_INT_BITS = 64
"""Widest integer accepted in library JSON, in bits (sign excluded)."""
MAX_TEXT = 64 * 1024 * 1024
"""Longest JSON text :func:`loads` reads by default, in characters (64 Mi)."""


# -- bounded rendering ------------------------------------------------------------


def brief(value: object, limit: int = 120) -> str:
    """A short one-line JSON-like text of ``value`` for an error message.

    Reads only a bounded prefix of ``value``: never recurses more than
    :data:`MAX_DEPTH` deep, never converts a huge integer to text, never
    copies more than ``limit`` characters of a string, never looks at more
    items than ``limit``.  At most ``limit`` characters come out.

    >>> brief({"seat": 10**5000}), brief("x" * 10**7, 8), brief([[[[1]]]])
    ('{"seat": <int of 16610 bits>}', '"xxxxxx…', '[[[[1]]]]')
    """
    out: list[str] = []
    _render(value, out, [limit + 1], 0)
    text = one_line("".join(out), 10 * limit + 10)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _render(value: object, out: list[str], budget: list[int], depth: int) -> None:
    if budget[0] <= 0:
        return
    if depth > MAX_DEPTH:
        _emit("…", out, budget)
    elif value is None or isinstance(value, bool):
        _emit({None: "null", True: "true", False: "false"}[value], out, budget)
    elif isinstance(value, int):
        bits = value.bit_length()
        _emit(str(value) if bits <= 256 else f"<int of {bits} bits>", out, budget)
    elif isinstance(value, float):
        _emit(json.dumps(value), out, budget)
    elif isinstance(value, str):
        _emit(json.dumps(value[: budget[0]], ensure_ascii=False), out, budget)
    elif isinstance(value, dict):
        _render_items("{}", value.items(), out, budget, depth)
    elif isinstance(value, list | tuple):
        _render_items("[]", ((None, item) for item in value), out, budget, depth)
    else:
        _emit(f"<{type(value).__name__}>", out, budget)


def _render_items(
    brackets: str,
    items: Iterable[tuple[object, object]],
    out: list[str],
    budget: list[int],
    depth: int,
) -> None:
    """An object's ``(key, value)`` pairs, or a list's ``(None, item)`` pairs, in brackets."""
    _emit(brackets[0], out, budget)
    for i, (key, item) in enumerate(items):
        if budget[0] <= 0:
            return
        if i:
            _emit(", ", out, budget)
        if brackets == "{}":
            _render(key, out, budget, depth + 1)
            _emit(": ", out, budget)
        _render(item, out, budget, depth + 1)
    _emit(brackets[1], out, budget)


def _emit(text: str, out: list[str], budget: list[int]) -> None:
    out.append(text)
    budget[0] -= len(text)


# -- checking parsed JSON ---------------------------------------------------------


def json_depth(value: object, limit: int) -> int:
    """How deep lists, tuples and dicts nest in ``value``, counting stops past ``limit``.

    Iterative (no recursion), so a list nested 100 000 deep is measured safely.

    >>> json_depth({"a": [1, [2]]}, 10), json_depth(3, 10)
    (3, 0)
    """
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Iterable[object] = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        depth += 1
        if depth > deepest:
            deepest = depth
            if deepest > limit:
                return deepest
        stack.extend((child, depth) for child in children)
    return deepest


def check_json(
    value: object,
    *,
    max_items: int,
    max_depth: int = MAX_DEPTH,
    max_string: int = MAX_STRING,
    what: str = "the input",
) -> None:
    """Raise :class:`~trixcomplex.TrixError` unless ``value`` is plain JSON data within limits.

    Plain JSON data is what :func:`json.loads` returns: dicts with ``str``
    keys, lists, ``str``, ``int`` (at most :data:`MAX_INT_BITS` bits here),
    finite ``float``, ``bool`` and ``None``.  ``max_items`` bounds the number
    of values in all (the walk stops as soon as it is passed, so a list of a
    million items costs no more than one of ``max_items``).

    >>> check_json({"seat": 1}, max_items=10)
    >>> try:
    ...     check_json({7: "x"}, max_items=10, what="a record")
    ... except TrixError as exc:
    ...     print(exc.code, "-", exc)
    json.not-json - a record holds at $ an object key that is not a string: 7
    """
    count = 0
    stack: list[tuple[object, int, _Path]] = [(value, 0, None)]
    while stack:
        item, depth, path = stack.pop()
        count += 1
        if count > max_items:
            raise TrixError(f"{what} holds more than {max_items} values", code="json.too-large")
        if item is None or isinstance(item, bool):
            continue
        if type(item) is int:
            if item.bit_length() > MAX_INT_BITS:
                raise _limit(
                    what, path, f"an integer of {item.bit_length()} bits (at most {MAX_INT_BITS})"
                )
        elif type(item) is float:
            if not math.isfinite(item):
                raise _limit(what, path, f"{item}, which is not JSON", "json.not-json")
        elif type(item) is str:
            if len(item) > max_string:
                raise _limit(
                    what, path, f"a string of {len(item)} characters (at most {max_string})"
                )
        elif type(item) is dict or type(item) is list:
            if depth >= max_depth:
                raise _limit(what, path, f"nesting deeper than {max_depth} levels")
            if len(item) > max_items:
                raise TrixError(f"{what} holds more than {max_items} values", code="json.too-large")
            if type(item) is dict:
                for key, child in item.items():
                    if type(key) is not str:
                        raise _limit(
                            what,
                            path,
                            f"an object key that is not a string: {brief(key, 40)}",
                            "json.not-json",
                        )
                    if len(key) > max_string:
                        raise _limit(what, path, f"a key of {len(key)} characters")
                    stack.append((child, depth + 1, (path, key)))
            else:
                stack.extend((child, depth + 1, (path, i)) for i, child in enumerate(item))
        else:
            raise _limit(
                what, path, f"a {type(item).__name__}, which is not JSON data", "json.not-json"
            )


_Path = tuple[Any, str | int] | None
"""Where a value sits: ``None`` at the top, else ``(parent path, key or index)``."""


def _limit(what: str, path: _Path, problem: str, code: str = "json.too-large") -> TrixError:
    """The error for ``problem`` at ``path`` (written ``$.state.turn``, ``$.moves[3]``)."""
    parts: list[str] = []
    while path is not None:
        path, step = path
        parts.append(f"[{step}]" if isinstance(step, int) else f".{brief(step, 40).strip(chr(34))}")
    where = "$" + "".join(reversed(parts))
    return TrixError(f"{what} holds at {where} {problem}", code=code)


# -- parsing text -----------------------------------------------------------------


def loads(text: str | bytes | bytearray, *, max_length: int = MAX_TEXT) -> Any:
    """Parse JSON text strictly; :class:`~trixcomplex.TrixError` if it is not plain JSON.

    Rejects text longer than ``max_length`` characters (bytes for ``bytes``)
    before looking at it, nesting deeper than :data:`MAX_DEPTH` before parsing
    it (:func:`nesting_depth`, a scan at C speed), then invalid UTF-8, invalid
    JSON, ``NaN``, ``Infinity``, any object that names a key twice, and
    integers that ``int`` cannot read.  The parsing is the standard library's
    C parser, so this costs little more than :func:`json.loads`.  The value is
    not otherwise checked: run :func:`check_json` or a loader on it.

    >>> loads(b'[1, "2"]')
    [1, '2']
    >>> try:
    ...     loads("[" * 40 + "]" * 40)
    ... except TrixError as exc:
    ...     print(exc.code, "-", exc)
    json.too-large - invalid JSON: nested deeper than 32 levels
    """
    if not isinstance(text, str | bytes | bytearray):
        raise TrixError(
            f"JSON text is a str or bytes, not {type(text).__name__}", code="json.invalid"
        )
    if len(text) > max_length:
        raise TrixError(
            f"JSON text of {len(text)} characters (at most {max_length})", code="json.too-large"
        )
    if nesting_depth(text, MAX_DEPTH) > MAX_DEPTH:
        raise TrixError(
            f"invalid JSON: nested deeper than {MAX_DEPTH} levels", code="json.too-large"
        )
    if not isinstance(text, str):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise TrixError(
                f"invalid JSON: not UTF-8 ({exc.reason} at byte {exc.start})", code="json.invalid"
            ) from None
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except TrixError:
        raise
    except RecursionError:
        raise TrixError("invalid JSON: nested too deeply", code="json.too-large") from None
    except ValueError as exc:  # JSONDecodeError, or an integer too long to read
        lines = str(exc).splitlines()
        first = lines[0] if lines else type(exc).__name__
        raise TrixError(f"invalid JSON: {first}", code="json.invalid") from None


def nesting_depth(text: str | bytes | bytearray, limit: int) -> int:
    """How deep lists and objects nest in the JSON text ``text``, counting stops past ``limit``.

    Exact for valid JSON (brackets, quotes and backslashes inside strings do
    not count); for invalid JSON some number the parser's own error will
    follow.  Every step is a bytes operation at C speed, so a 30 MB record is
    measured in milliseconds, before anything is parsed: escaped backslashes
    and quotes are dropped, then every byte but quotes and brackets, then the
    strings (what lies between two quotes), and the brackets left are
    stripped of their innermost pairs one level at a time, at most ``limit``
    times.

    >>> nesting_depth('{"a": [1, "]]]["], "b": {"c": "\\\\\\""}}', 10)
    2
    >>> nesting_depth("[" * 100 + "]" * 100, 32)
    33
    """
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    if b"\\" in raw:  # an escape: `\\` and `\"` are read first, left to right
        raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    brackets = raw.translate(_BRACKETS, _NOT_STRUCTURE).replace(b'""', b"")
    if b'"' in brackets:  # strings holding brackets: keep what is outside them
        brackets = b"".join(brackets.split(b'"')[::2])
    if not brackets:
        return 0
    for depth in range(limit):
        brackets = brackets.replace(b"[]", b"")  # every innermost pair: one level
        if not brackets:
            return depth + 1
    return limit + 1 if b"[]" in brackets else limit  # deeper, or unbalanced: invalid


_BRACKETS = bytes.maketrans(b"{}", b"[]")
"""Objects and lists nest alike: ``{`` is read as ``[`` and ``}`` as ``]``."""
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'"[]{}')
"""Every byte but quotes and brackets."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise TrixError(
                    f"invalid JSON: the key {brief(key, 60)} appears twice in an object",
                    code="json.duplicate-key",
                )
            seen.add(key)
    return result


def _no_constant(name: str) -> object:
    raise TrixError(f"invalid JSON: {name} is not a JSON value", code="json.invalid")
