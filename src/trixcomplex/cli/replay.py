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

import argparse
import json
import sys
from collections.abc import Callable
from typing import IO, TextIO

from ..core.engine import (
    DealResult,
    MatchState,
    Phase,
)
from ..core.errors import TrixError, one_line
from ..core.jsonio import brief, loads
from ..io.records import MAX_RECORD_CHARS, RecordError, replay_json, replay_report
from ..io.scoresheet import contract_name, format_scoresheet
from ..knowledge.ledger import Charges, ledger, tricks_and_places
from .text import _PLACES, _scoresheet, _winner_line

__all__ = ["read_record_text", "run_replay"]


def run_replay(
    path: str,
    *,
    as_json: bool,
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
    max_chars: int = MAX_RECORD_CHARS,
    show: Callable[[MatchState], None] | None = None,
) -> int:
    """The body of ``trixcomplex replay FILE [--json]``; returns the exit status.

    Reads the record from ``path`` (``-`` is ``stdin``), replays it and
    prints the :func:`~trixcomplex.replay_report` as indented JSON
    (``indent=2``) with ``as_json``, else the plain-text scoresheet; returns
    0.  A missing or unreadable file (a bad command line) returns 2; a record
    longer than ``max_chars`` characters (default
    :data:`~trixcomplex.io.records.MAX_RECORD_CHARS`: refused before it is
    parsed, having read no more than that), invalid JSON (a key named twice
    included), a malformed record or an illegal step returns 1; either prints
    exactly one line: with ``as_json`` the error's JSON
    (:meth:`~trixcomplex.TrixError.to_json`: code, message, rule, index) to
    ``stdout``, else the message (the index of the move, the move and the
    rule it breaks, where there is one) to ``stderr``.  With ``show``, the
    state the record leads to is handed to ``show(state)`` instead of
    printed (the command's ``--explain`` and ledger): the record is read,
    parsed and replayed once either way.
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
        return 2 if exc.code == "record.unreadable" else 1
    except Exception as exc:  # an engine bug: still one line, never a traceback
        print(f"{name}: internal error ({type(exc).__name__}): {brief(str(exc))}", file=stderr)
        return 1
    if show is not None:
        show(state)
    elif as_json:
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


def explain_lines(state: MatchState) -> list[str]:
    """``replay --explain``: every trick and finishing place of the match with the
    points it charged or awarded and the clause deciding each
    (see :mod:`~trixcomplex.knowledge.ledger`)."""
    lines: list[str] = []
    heads: set[int] = set()
    results = {r.number: r for r in state.results}
    for t in tricks_and_places(state):
        if t.deal not in heads:
            heads.add(t.deal)
            lines.extend(_deal_head(t, results.get(t.deal)))
        lines.extend(_trick_lines(t))
        result = results.get(t.deal)
        if result is not None and (t.number == 0 or _last_trick(t, result)):
            points = ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(result.points))
            lines.append(f"  Deal {t.deal} scores: {points}")
    scores = ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(state.scores))
    lines.append("")
    lines.append(f"Totals: {scores}")
    if state.phase is Phase.OVER:
        lines.append(_winner_line(state))
    return lines


def _last_trick(t: Charges, result: DealResult) -> bool:
    return t.number == sum(b.tricks for b in result.seats)


def _deal_head(t: Charges, result: DealResult | None) -> list[str]:
    owner = f", owner seat {result.owner}" if result is not None else ""
    lines = ["", f"Deal {t.deal} (Kingdom {t.kingdom}){owner}: {contract_name(t.contract)}"]
    if result is not None and result.doubled:
        shown = ", ".join(f"{d.card.symbol} by seat {d.doubler}" for d in result.doubled)
        lines.append(f"  doubled (R-DBL-3): {shown}")
    return lines


def _trick_lines(t: Charges) -> list[str]:
    if t.number == 0:
        lines = ["  Finishing order (R-TX-4):"]
        for e in t.entries:
            lines.append(f"    {_PLACES[(e.place or 1) - 1]}: seat {e.seat} {e.points:+d}  "
                         f"[{_clauses(e.rule, e.options)}]")  # fmt: skip
        return lines
    played = ", ".join(
        f"seat {(t.leader + i) % 4} {'leads ' if i == 0 else ''}{c.symbol}"
        for i, c in enumerate(t.cards)
    )
    lines = [f"  Trick {t.number}: {played}; seat {t.taker} takes it"
             + ("" if t.entries else ", nothing charged")]  # fmt: skip
    for e in t.entries:
        if e.case is None:
            what = "the trick's charges, stacked"
        else:
            what = (f"{e.cards[0].symbol} doubled by seat {e.doubler}, taken by seat {e.taker}, "
                    f"trick led by seat {e.leader}: case {e.case}")  # fmt: skip
        lines.append(f"    seat {e.seat} {e.points:+d}  {what}  [{_clauses(e.rule, e.options)}]")
    return lines


def _clauses(rule: str, options: tuple[str, ...]) -> str:
    return ", ".join((rule, *options))


def _replay(args: argparse.Namespace) -> int:
    """``replay FILE``: the record is read, parsed and replayed once by
    :func:`~trixcomplex.cli.replay.run_replay` (its one-line errors, as JSON with
    ``--json``), which shows the state with the scoresheet, the explanation or the
    JSON report with the ledger."""

    def show(state: MatchState) -> None:
        if args.json:
            report = replay_report(state)
            report["ledger"] = [e.to_json() for e in ledger(state)]
            if args.explain:
                report["explain"] = explain_lines(state)
            print(json.dumps(report, indent=2))
        elif args.explain:
            for line in explain_lines(state):
                print(line)
        else:
            print(_scoresheet(state))
            if state.phase is Phase.OVER:
                print(_winner_line(state))

    return run_replay(
        args.file,
        as_json=args.json,
        stdin=sys.stdin,
        stdout=sys.stdout,
        stderr=sys.stderr,
        show=show,
    )
