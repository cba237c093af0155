"""The ``trixcomplex conformance`` command: export the cases, check another engine.

- ``trixcomplex conformance export DIR [--cases N] [--ruleset R]``: write
  ``DIR/cases.jsonl``, ``N`` cases: every clause case, then random-match cases
  up to ``N`` (every clause case even when ``N`` is fewer, and the line printed
  says so);
- ``trixcomplex conformance check --engine "CMD" [--cases-file FILE] [--cases N]
  [--ruleset R] [--timeout S]``: run ``CMD`` and check it over the protocol
  against the cases of ``FILE`` (or against freshly built ones: the clause cases
  and ``N`` random-match cases); exit status 1 when it disagrees.

Exit status 0: the engine agrees with every case; 1: it disagrees with some;
2, with one line on standard error: bad arguments, a bad cases file
(``bad cases file: FILE:LINE: ...``: unreadable, empty, not JSON, over the
limits, a case missing a field or of the wrong type, a position the rules
refuse), or an engine that cannot start or breaks the protocol (exits, answers
something that is not a JSON object, sends no whole answer within ``--timeout``
seconds, or an answer longer than
:data:`~trixcomplex.conformance.check.MAX_ANSWER` bytes).  The engine is killed
and reaped, its children with it, before the command exits.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.rulesets import CLASSIC, PARTNERSHIP
from .args import seconds, whole_number
from .rulesets import _ruleset

if TYPE_CHECKING:  # the cases, the checker and records load when a command runs, so that
    # adding the subcommand costs ``trixcomplex --version`` nothing
    from ..conformance.check import Report

__all__ = ["add_conformance", "format_report"]


def _count(text: str) -> int:
    return whole_number(text, 0)


def add_conformance(sub: Any, ruleset_help: str) -> None:
    """Add the ``conformance`` subcommand to the ``trixcomplex`` command's subparsers."""
    conf = sub.add_parser(
        "conformance", help="export the conformance cases, or check another engine with them"
    )
    steps = conf.add_subparsers(dest="conformance", required=True)
    out = steps.add_parser("export", help="write DIR/cases.jsonl")
    out.add_argument("dir", metavar="DIR", help="the directory to write the cases to")
    out.add_argument("--cases", type=_count, default=200,
                     help="the cases to write: every clause case, then random-match cases "
                          "up to N (default 200)")  # fmt: skip
    out.add_argument("--ruleset", type=_ruleset, default=None, help=ruleset_help)
    out.set_defaults(func=_export)
    chk = steps.add_parser("check", help="check an engine speaking the conformance protocol")
    chk.add_argument("--engine", required=True, metavar="CMD",
                     help='the engine\'s command, e.g. "node engine.js"')  # fmt: skip
    chk.add_argument("--cases-file", metavar="FILE", default=None,
                     help="cases written by export (default: build them now)")  # fmt: skip
    chk.add_argument("--cases", type=_count, default=40,
                     help="random-match cases built without --cases-file (default 40)")  # fmt: skip
    chk.add_argument("--ruleset", type=_ruleset, default=None, help=ruleset_help)
    chk.add_argument("--timeout", type=seconds, default=30.0,
                     help="seconds to wait for each answer (default 30)")  # fmt: skip
    chk.set_defaults(func=_check)


def _export(args: argparse.Namespace) -> int:
    from ..conformance.cases import export

    try:
        path = export(Path(args.dir), args.cases, args.ruleset, total=True)
    except OSError as exc:
        print(f"trixcomplex conformance export: cannot write {args.dir}: {exc.strerror}",
              file=sys.stderr)  # fmt: skip
        return 2
    with path.open(encoding="utf-8") as lines:
        count = sum(1 for _ in lines)
    why = ""
    if count != args.cases:  # only ever more: every clause keeps its case
        why = f", not {args.cases}: every clause has its case ({count} clauses)"
    print(f"wrote {count} cases to {path}{why}")
    return 0


def format_report(report: Report) -> str:
    """The report: a summary line, then per clause and kind one disagreement with its
    reproduction (the protocol lines, from a new match)."""
    groups = report.grouped()
    lines = [
        f"checked {report.checked} cases ({report.skipped} skipped): "
        f"{len(report.disagreements)} disagreements in {len(groups)} clause(s) and kind(s)"
    ]
    for found, count in groups:
        lines.append(f"{found.summary()} [{count} like it]")
        lines.append("  reproduction:")
        lines += ["    " + line for line in found.reproduction().splitlines()]
    return "\n".join(lines)


def _check(args: argparse.Namespace) -> int:
    from ..conformance.cases import CaseFormatError, clause_cases, random_cases, read_cases
    from ..conformance.check import EngineError, SubprocessEngine, check_cases

    def fail(message: str) -> int:
        print(f"trixcomplex conformance check: {message}", file=sys.stderr)
        return 2

    try:
        if args.cases_file is not None:
            cases = read_cases(Path(args.cases_file))
        else:
            cases = clause_cases()
            rulesets = [args.ruleset or PARTNERSHIP, CLASSIC]
            for ruleset in rulesets[:1] if args.ruleset is not None else rulesets:
                cases += random_cases(ruleset, args.cases // (1 if args.ruleset else 2))
        if args.ruleset is not None:
            cases = [c for c in cases if c["ruleset"] == args.ruleset.name]
            if not cases:
                return fail(f"no case of the ruleset {args.ruleset.name} in {args.cases_file}")
        engine = SubprocessEngine(args.engine, timeout=args.timeout)
        try:
            report = check_cases(cases, engine)
        finally:
            engine.close()
    except CaseFormatError as exc:  # the file is named even when a case's move is illegal
        named = f"{args.cases_file}: " if exc.path is None and args.cases_file else ""
        return fail(f"bad cases file: {named}{exc}")
    except EngineError as exc:
        return fail(str(exc))
    print(format_report(report))
    return 1 if report.disagreements else 0
