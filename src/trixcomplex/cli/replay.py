"""The body of the ``trixcomplex replay FILE [--json]`` command.

>>> import io
>>> out = io.StringIO()
>>> run_replay("-", as_json=True, stdin=io.StringIO('{"format": "x"}'), stdout=out,
...            stderr=io.StringIO())
1
>>> import json
>>> json.loads(out.getvalue())["code"]
'record.bad-format'
"""

from __future__ import annotations

import json
from typing import IO, TextIO

from ..core.errors import TrixError, one_line
from ..core.jsonio import brief, loads
from ..io.records import MAX_RECORD_CHARS, RecordError, replay_json, replay_report
from ..io.scoresheet import format_scoresheet

__all__ = ["read_record_text", "run_replay"]


def run_replay(
    path: str,
    *,
    as_json: bool,
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
    max_chars: int = MAX_RECORD_CHARS,
) -> int:
    """The body of ``trixcomplex replay FILE [--json]``; returns the exit status.

    Reads the record from ``path`` (``-`` is ``stdin``), replays it and
    prints the :func:`~trixcomplex.replay_report` as indented JSON
    (``indent=2``) with ``as_json``, else the plain-text scoresheet; returns
    0.  A missing or unreadable file, a record longer than ``max_chars``
    characters (default :data:`~trixcomplex.io.records.MAX_RECORD_CHARS`: refused
    before it is parsed, having read no more than that), invalid JSON (a key
    named twice included), a malformed record or an illegal step returns 1
    and prints exactly one line: with ``as_json`` the error's JSON
    (:meth:`~trixcomplex.TrixError.to_json`: code, message, rule, index) to
    ``stdout``, else the message (the index of the move, the move and the
    rule it breaks, where there is one) to ``stderr``.
    """
    name = "<stdin>" if path == "-" else one_line(path, 200)
    try:
        text = read_record_text(path, stdin, max_chars)
        try:
            obj = loads(text, max_length=max_chars)
        except TrixError as exc:
            raise RecordError(str(exc), code=exc.code) from None
        state = replay_json(obj)
    except TrixError as exc:
        if as_json:
            print(json.dumps(exc.to_json(), ensure_ascii=False), file=stdout)
        else:
            print(f"{name}: {exc}", file=stderr)
        return 1
    except Exception as exc:  # an engine bug: still one line, never a traceback
        print(f"{name}: internal error ({type(exc).__name__}): {brief(str(exc))}", file=stderr)
        return 1
    if as_json:
        print(json.dumps(replay_report(state), indent=2), file=stdout)
    else:
        print(format_scoresheet(state), file=stdout)
    return 0


def read_record_text(path: str, stdin: IO[str], max_chars: int = MAX_RECORD_CHARS) -> str:
    """The text of the record file ``path`` (``-``: ``stdin``), read up to ``max_chars``
    characters; :class:`~trixcomplex.RecordError` if it is longer (``json.too-large``,
    nothing parsed and no more than ``max_chars + 1`` characters read), missing or
    not UTF-8 (``record.unreadable``).

    >>> import io
    >>> try:
    ...     read_record_text("-", io.StringIO("[" * 100), max_chars=50)
    ... except RecordError as exc:
    ...     print(exc.code, "-", exc)
    json.too-large - a record of more than 50 characters (the limit)
    """
    try:
        if path == "-":
            text = stdin.read(max_chars + 1)
        else:
            with open(path, encoding="utf-8") as file:
                text = file.read(max_chars + 1)
    except OSError as exc:
        raise RecordError(
            f"cannot read the file: {exc.strerror or exc}", code="record.unreadable"
        ) from None
    except UnicodeDecodeError as exc:
        raise RecordError(
            f"not UTF-8 text: {exc.reason} at byte {exc.start}", code="record.unreadable"
        ) from None
    if len(text) > max_chars:
        raise RecordError(
            f"a record of more than {max_chars} characters (the limit)", code="json.too-large"
        )
    return text
