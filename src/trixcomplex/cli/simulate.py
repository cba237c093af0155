"""``trixcomplex simulate``: a tournament between two sides of bots, with a progress bar."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..bots import BOT_KINDS, check_bot
from ..core.errors import one_line
from .args import bot_name, seconds

if TYPE_CHECKING:  # tournaments and pools: imported by the command using them
    from concurrent.futures import Executor


def _rich() -> Any:
    """The ``rich`` package, or ``None`` when it is not installed (plain text then)."""
    if os.environ.get("TRIXCOMPLEX_PLAIN"):
        return None
    try:
        import rich
        import rich.console
        import rich.progress
        import rich.table
    except ImportError:
        return None
    return rich


def _sim_bot_name(text: str) -> str:
    """One ``--bots`` entry of ``simulate``: a built-in name (:func:`.args.bot_name`), or
    ``module:factory`` with a dotted module path and a name (checked here for its shape
    only: the module is imported when the command runs, or in the sandbox).

    >>> _sim_bot_name("Mc2:8"), _sim_bot_name("mybots.cards:make_bot")
    ('mc2:8', 'mybots.cards:make_bot')
    >>> _sim_bot_name(":make")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    argparse.ArgumentTypeError: bad bot ':make': a bot of your own is module:factory, ...
    """
    name = text.strip()
    module, colon, factory = name.partition(":")
    if not colon or module.strip().lower() in BOT_KINDS:
        return bot_name(name)
    if not (all(p.isidentifier() for p in module.split(".")) and factory.isidentifier()):
        raise argparse.ArgumentTypeError(
            f"bad bot {name[:40]!r}: a bot of your own is module:factory, e.g. mybots:make_bot"
        )
    return name


def _sim_bot_list(text: str) -> list[str]:
    """``--bots`` of ``simulate``: built-in names, or ``module:factory`` (a factory)."""
    return [_sim_bot_name(n) for n in text.split(",")]


def _seconds(text: str) -> float:
    return seconds(text)


class _SeedOnCommandLine(argparse.Action):
    """``--seed N``: the seed, and a note that it is on the command line (which any
    process of the machine may read: the unsandboxed bots among them)."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option: Any = None) -> None:
        namespace.seed = values
        namespace.seed_on_command_line = True


def _read_seed(path: str) -> int:
    """The seed written in the file ``path`` (an integer); ``ValueError`` saying what is wrong."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read(1000)
        return int(text.strip())
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise ValueError(
            f"--seed-file {path}: not a readable file holding an integer ({exc})"
        ) from None


def _simulate(args: argparse.Namespace) -> int:
    from ..host.tournament import seed_commitment, simulate

    if len(args.bots) not in (2, 4):
        print("trixcomplex simulate: error: --bots takes 2 or 4 bot names", file=sys.stderr)
        return 2
    if args.records is not None:
        try:
            Path(args.records).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            where = one_line(args.records, 200)
            print(f"trixcomplex simulate: error: --records: cannot make the directory "
                  f"{where}: {exc.strerror or exc}", file=sys.stderr)  # fmt: skip
            return 2
    isolated: bool | str = args.isolated or ("sandbox" if args.strict else False)
    on_line = getattr(args, "seed_on_command_line", False)
    if on_line and (isolated == "unsandboxed" or args.seed_file is not None):
        why = "both --seed and --seed-file" if args.seed_file else "--seed with unsandboxed bots"
        print(f"trixcomplex simulate: error: {why}: the bots can read this command line; "
              "give the seed with --seed-file", file=sys.stderr)  # fmt: skip
        return 2
    if args.seed_file is not None:
        try:
            args.seed = _read_seed(args.seed_file)
        except ValueError as exc:
            print(f"trixcomplex simulate: error: {exc}", file=sys.stderr)
            return 2
    from ..host.isolated import load_bot, locate_bot  # the isolated-bot machinery: here only

    bots: list[Any] = list(args.bots)  # isolated: found, not run, in this process
    for i, spec in enumerate(args.bots):
        if isolated:  # the sandbox binds each bot's own file and loads it there
            try:
                locate_bot(spec)
            except (ImportError, AttributeError, TypeError) as exc:
                print(f"trixcomplex simulate: error: cannot load the bot {spec}: "
                      f"{one_line(str(exc), 300)}", file=sys.stderr)  # fmt: skip
                return 2
            continue
        try:  # a bot of one's own runs its module's code: any error there is its own
            bots[i] = load_bot(spec)
        except Exception as exc:
            why = str(exc) if isinstance(exc, TypeError | ImportError) else repr(exc)
            print(f"trixcomplex simulate: error: cannot load the bot {spec}: "
                  f"{one_line(why, 300)}", file=sys.stderr)  # fmt: skip
            return 2
        try:  # not a bot: refused before any match is played
            check_bot(bots[i], f"--bots {spec}")
        except TypeError as exc:
            print(f"trixcomplex simulate: error: {one_line(str(exc), 300)}", file=sys.stderr)
            return 2
    limits = {"time_limit": args.time_limit, "cpu_limit": args.cpu_limit, "isolated": isolated}
    if args.seed is None:
        import secrets

        args.seed = secrets.randbits(128)
    print(f"seed commitment: {seed_commitment(args.seed)}", file=sys.stderr, flush=True)
    rich = _rich()
    executor: Executor | None = None
    if args.jobs > 1:  # multiprocessing is imported only when asked for
        from concurrent.futures import ProcessPoolExecutor

        executor = ProcessPoolExecutor(args.jobs)
    try:
        if rich is not None:
            console = rich.console.Console(stderr=True)
            with rich.progress.Progress(console=console, transient=True) as bar:
                task = bar.add_task("matches", total=args.matches)
                result = simulate(
                    bots, args.matches, seed=args.seed, ruleset=args.ruleset, executor=executor,
                    progress=lambda done, total: bar.update(task, completed=done), **limits,
                )  # fmt: skip
        else:
            tty = sys.stderr.isatty()
            step = max(1, args.matches // 10)

            def counter(done: int, total: int) -> None:
                if tty:
                    print(f"\r{done}/{total} matches", end="", file=sys.stderr, flush=True)
                elif done == total or done % step == 0:
                    print(f"{done}/{total} matches", file=sys.stderr, flush=True)

            result = simulate(bots, args.matches, seed=args.seed, ruleset=args.ruleset,
                              executor=executor, progress=counter, **limits)  # fmt: skip
            if tty:
                print(file=sys.stderr)
    except ValueError as exc:  # a sandbox refused in --strict mode, a bad limit
        print(f"trixcomplex simulate: error: {exc}", file=sys.stderr)
        return 2
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    if args.records is not None:
        for m in result.matches:
            path = Path(args.records) / f"match-{m.index:05d}.json"
            path.write_text(json.dumps(m.record.to_json()) + "\n", encoding="utf-8")
    rows = result.summary_table()
    title = f"{result.sides[0]} (A) vs {result.sides[1]} (B)"
    if rich is not None:
        table = rich.table.Table(title=title)
        table.add_column("statistic")
        table.add_column("value")
        for row in rows:
            table.add_row(*row)
        rich.console.Console().print(table)
    else:
        print(title)
        width = max(len(r[0]) for r in rows)
        for key, value in rows:
            print(f"  {key:<{width}}  {value}")
    return 0
