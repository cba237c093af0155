"""The ``trixcomplex`` command: demo, play, simulate, replay and serve.

- ``trixcomplex demo [--seed N] [--bots rule]``: one whole match between bots,
  deal by deal, then the scoresheet and the winner.
- ``trixcomplex play [--seat N] [--bots rule,rule,rule] [--seed N] [--resume FILE]``:
  play a match in the terminal against three bots; Ctrl-C or Ctrl-D offers to save
  it (with its seed: ``--resume`` goes on with the deals that seed gives); a move the
  person has no choice about is played for them, the table shown first.
- ``trixcomplex simulate --bots rule,random --matches 1000 [--jobs N] [--seed N |
  --seed-file PATH] [--records DIR] [--isolated[=unsandboxed]] [--time-limit S]
  [--cpu-limit S]``: a tournament, with a progress bar and a summary table;
  ``--isolated`` runs each bot in a bubblewrap sandbox, or not at all.
- ``trixcomplex replay FILE [--json] [--explain]``: check and score a game
  record; ``--explain`` traces every point to its rule clause.
- ``trixcomplex serve``: the table server, to play in the browser (the
  ``server`` extra).
- ``trixcomplex conformance export DIR`` / ``conformance check --engine CMD``:
  the conformance suite for other engines (:mod:`trixcomplex.conformance`).
- ``trixcomplex web build OUT``: the table page playing the bots in the browser,
  with no server (:mod:`trixcomplex.web`).

``demo``, ``play`` and ``simulate`` take ``--ruleset NAME``: a preset
(``partnership``, the default, ``individual-complex``, ``classic``,
``classic-partnership``) or a preset with options in any order
(``classic+fixed_order=true,doubling=false``).

``rich`` (the ``cli`` extra) draws the progress bar and the tables when it is
installed; without it everything is plain text.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import textwrap
from collections.abc import Sequence

from ..core.rulesets import PARTNERSHIP, RULESETS
from .args import _bot_list, _positive, _seat, bot_forms, bot_name, port, processes
from .conformance import add_conformance
from .demo import _demo
from .play import _play
from .rulesets import RULESET_OPTIONS, _ruleset, parse_ruleset
from .serve import _drain_seconds, _serve, _serve_seconds
from .simulate import _seconds, _SeedOnCommandLine, _sim_bot_list, _simulate
from .web import add_web

__all__ = ["RULESET_OPTIONS", "main", "parse_ruleset"]


def _replay(args: argparse.Namespace) -> int:
    """``replay``: run from :mod:`trixcomplex.cli.replay`, imported only then (it loads
    the records and cattrs, which ``--version`` and the other commands do without)."""
    from .replay import _replay as replay_command

    return replay_command(args)


_DESCRIPTION = """\
A rules engine for Trix Complex Partnership and its family: watch bots play
(demo), play against them (play), run tournaments (simulate), check game
records (replay) and host tables in the browser (serve)."""


def _epilog() -> str:
    """The closing text of ``trixcomplex --help``: the rulesets, their options and the
    bots, from the tables the parser reads (:data:`RULESETS`, :data:`RULESET_OPTIONS`,
    :func:`.args.bot_forms`)."""
    options = "\n".join(f"  {k}: {v}" for k, v in RULESET_OPTIONS.items())
    forms = bot_forms()
    bots = "\n".join(
        textwrap.fill(f"{form}: {meaning}", 88, initial_indent="  ", subsequent_indent="    ")
        for form, meaning in forms.items()
    )
    return (
        f"rulesets (--ruleset): the presets {', '.join(RULESETS)};\n"
        "add options after '+', comma-separated, in any order, true or false in any case, e.g.\n"
        "classic+fixed_order=true,doubling=false. The options:\n" + options + "\n\n"
        f"bots (--bots): {_or(list(forms))}.\n" + bots
    )


def _or(names: list[str]) -> str:
    """``a, b or c``."""
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


def _parser() -> argparse.ArgumentParser:
    from .. import __version__

    fmt = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog="trixcomplex", description=_DESCRIPTION, epilog=_epilog(), formatter_class=fmt
    )
    parser.add_argument("--version", action="version", version=f"trixcomplex {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    bots_help = f"bot names, comma-separated ({', '.join(bot_forms())}; see trixcomplex --help)"
    ruleset_help = (
        f"the game: a preset ({', '.join(RULESETS)}; default partnership), optionally "
        "with options after '+' in any order (see trixcomplex --help), "
        "e.g. classic+doubling=false"
    )
    epilog = "The ruleset options and the bots are described once, in: trixcomplex --help"

    demo = sub.add_parser("demo", help="play one complete seeded match between bots",
                          epilog=epilog, formatter_class=fmt)  # fmt: skip
    demo.add_argument("--seed", type=int, default=7, help="the random seed (default 7)")
    demo.add_argument("--bots", type=_bot_list, default=["rule"],
                      help=bots_help + ": 1 for all seats or 4 (default rule)")  # fmt: skip
    demo.add_argument("--ruleset", type=_ruleset, default=PARTNERSHIP, help=ruleset_help)
    demo.set_defaults(func=_demo)

    play = sub.add_parser("play", help="play a match in the terminal against three bots",
                          epilog=epilog, formatter_class=fmt)  # fmt: skip
    play.add_argument("--seat", type=_seat, default=0, help="your seat, 0-3 (default 0)")
    play.add_argument("--bots", type=_bot_list, default=["rule"],
                      help=bots_help + ": 1 for all three or 3 (default rule)")  # fmt: skip
    play.add_argument("--seed", type=int, default=None,
                      help="the random seed (default: random; with --resume, the "
                      "saved one)")  # fmt: skip
    play.add_argument("--ruleset", type=_ruleset, default=PARTNERSHIP, help=ruleset_help)
    play.add_argument("--resume", metavar="FILE", default=None,
                      help="go on with a match saved on Ctrl-C or Ctrl-D (a game "
                      "record)")  # fmt: skip
    play.add_argument("--hint", nargs="?", const="rule", default=None, metavar="BOT", type=bot_name,
                      help="before each of your moves, print what BOT (default rule) would "
                      "play and why, from your seat's view")  # fmt: skip
    play.set_defaults(func=_play)

    sim = sub.add_parser("simulate", help="play many seeded matches between two sides of bots",
                         epilog=epilog, formatter_class=fmt)  # fmt: skip
    sim.add_argument("--bots", type=_sim_bot_list, default=["rule", "random"],
                     help="side A, side B (or 4, by seat; default rule,random): " + bots_help
                     + ", or module:factory for a bot of your own")  # fmt: skip
    sim.add_argument("--matches", type=_positive, default=100, help="how many (default 100)")
    sim.add_argument("--jobs", type=processes, default=1, help="worker processes (default 1)")
    sim.add_argument("--seed", type=int, default=None, action=_SeedOnCommandLine,
                     help="the run's secret seed: whoever knows it knows every deck "
                     "(default: drawn at random and printed with the results)")  # fmt: skip
    sim.add_argument("--seed-file", default=None, metavar="PATH",
                     help="read the seed from this file (no process can read it from "
                     "the command line)")  # fmt: skip
    sim.add_argument(
        "--isolated", nargs="?", const="sandbox", default=False,
        choices=["sandbox", "unsandboxed"],
        help="run each bot in a sandboxed process of its own per seat (bubblewrap; refused "
        "without it); --isolated=unsandboxed: without the sandbox, for your own bots only",
    )  # fmt: skip
    sim.add_argument(
        "--strict", action="store_true", help="the default of --isolated (kept for old scripts)"
    )
    sim.add_argument(
        "--time-limit",
        type=_seconds,
        default=None,
        metavar="S",
        help="wall-clock seconds per decision",
    )
    sim.add_argument(
        "--cpu-limit",
        type=_seconds,
        default=None,
        metavar="S",
        help="CPU seconds per decision (the bot's own, not slowed by load)",
    )
    sim.add_argument("--records", metavar="DIR", default=None,
                     help="write every match's game record to DIR as JSON")  # fmt: skip
    sim.add_argument("--ruleset", type=_ruleset, default=PARTNERSHIP, help=ruleset_help)
    sim.set_defaults(func=_simulate)

    rep = sub.add_parser("replay", help="check a game record and print its scoresheet")
    rep.add_argument("file", metavar="FILE", help="the record (JSON), or - for standard input")
    rep.add_argument("--json", action="store_true",
                     help="print the report with the ledger of every point, or the error, "
                     "as JSON")  # fmt: skip
    rep.add_argument("--explain", action="store_true",
                     help="print every trick and place, its points and clauses")  # fmt: skip
    rep.set_defaults(func=_replay)

    srv = sub.add_parser("serve", help="run the table server: play in the browser")
    srv.add_argument("--host", default="127.0.0.1", help="the address (default 127.0.0.1)")
    srv.add_argument("--port", type=port, default=8000, help="the port (default 8000)")
    srv.add_argument("--db", default="trixcomplex.sqlite3", metavar="PATH|URL",
                     help="the tables' SQLite file (default ./trixcomplex.sqlite3), or a "
                     "PostgreSQL database's postgresql://... URL (the postgres extra)")  # fmt: skip
    srv.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                     help="also accept requests from pages of ORIGIN (https://example.org); "
                     "repeatable (default: none; the server's own origin is always "
                     "accepted)")  # fmt: skip
    srv.add_argument("--max-tables", type=_positive, default=1000, metavar="N",
                     help="the most tables played at once, finished ones not counted "
                     "(default 1000)")  # fmt: skip
    srv.add_argument("--create-limit", type=_positive, default=20, metavar="N",
                     help="the most tables one client address opens in --create-window "
                     "(default 20)")  # fmt: skip
    srv.add_argument("--create-window", type=_serve_seconds, default=3600.0, metavar="S",
                     help="the period of --create-limit, in seconds (default 3600)")  # fmt: skip
    srv.add_argument("--retention", type=_serve_seconds, default=3600.0, metavar="S",
                     help="a finished table is archived after S seconds; its record stays "
                     "downloadable (default 3600)")  # fmt: skip
    srv.add_argument("--idle-close", type=_serve_seconds, default=1800.0, metavar="S",
                     help="a table nobody is connected to for S seconds is closed "
                     "(default 1800)")  # fmt: skip
    srv.add_argument("--hello-timeout", type=_serve_seconds, default=10.0, metavar="S",
                     help="a connection that sends no join, resume or watch in S seconds "
                     "is closed (default 10)")  # fmt: skip
    srv.add_argument("--bot-budget", type=_serve_seconds, default=10.0, metavar="S",
                     help="a bot's time for one decision; then the host moves for it "
                     "(default 10)")  # fmt: skip
    srv.add_argument("--bot-window", type=_serve_seconds, default=1.0, metavar="S",
                     help="the doubling window's answers are applied S seconds after it "
                     "opens (at least the table's bot_delay; default 1)")  # fmt: skip
    srv.add_argument("--bot-workers", type=processes, default=None, metavar="N",
                     help="the processes bots think in (default: one per CPU)")  # fmt: skip
    srv.add_argument("--join-limit", type=_positive, default=30, metavar="N",
                     help="the most seats one client address joins in --join-window "
                     "(default 30)")  # fmt: skip
    srv.add_argument("--join-window", type=_serve_seconds, default=3600.0, metavar="S",
                     help="the period of --join-limit, in seconds (default 3600)")  # fmt: skip
    srv.add_argument("--watch-limit", type=_positive, default=20, metavar="N",
                     help="the most spectator connections of one client address at once "
                     "(default 20)")  # fmt: skip
    srv.add_argument("--seat-timeout", type=_serve_seconds, default=60.0, metavar="S",
                     help="a person's seat left without its connection for S seconds is "
                     "played by a bot until its token comes back (default 60)")  # fmt: skip
    srv.add_argument("--outbox-bytes", type=_positive, default=1 << 20, metavar="N",
                     help="the most unsent update bytes one connection holds; beyond, it is "
                     "closed (code 4413) and the client resumes (default 1048576)")  # fmt: skip
    srv.add_argument("--drain-seconds", type=_drain_seconds, default=10.0, metavar="S",
                     help="on SIGTERM: stop taking players, close every WebSocket with 1001 "
                     "and exit within S seconds (at least 1; default 10)")  # fmt: skip
    srv.add_argument("--log-format", choices=("text", "json"), default="text",
                     help="text (default) or json: one JSON object per line (time, level, "
                     "logger, message, table)")  # fmt: skip
    srv.set_defaults(func=_serve)

    add_conformance(sub, ruleset_help)
    add_web(sub)
    return parser


def _quiet_stdout() -> None:
    """After a broken pipe, send what is left of stdout nowhere (no error at exit)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad arguments, 130 on Ctrl-C,
    0 when the reader of the output goes away, as in ``trixcomplex demo | head``)."""
    try:
        args = _parser().parse_args(argv)
        if getattr(args, "seed", 0) is None and getattr(args, "resume", None) is None:
            args.seed = random.SystemRandom().randrange(2**32)  # play --resume: the saved one
        status: int = args.func(args)
        sys.stdout.flush()
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `trixcomplex demo | head`: stop quietly
        _quiet_stdout()
        return 0
    return status
