"""Two builds imported into one process and timed round by round (issue 44).

Run ``python benchmarks/side_by_side.py BASE_CHECKOUT [HEAD_CHECKOUT] --rounds 40``
from the repository root.  The base's package is copied into a temporary
folder as ``trixcomplex_base`` (every ``trixcomplex`` word of its ``.py`` files
rewritten, so its absolute imports stay its own), the head's is imported as
``trixcomplex``; each round then times the same work on both builds, one after
the other in an order that alternates, and the row's figure is the median of
the per-round ratios, with its quartiles.

Why: ``alternate.py`` times each build in its own ``bench.py`` process, a few
seconds apart, with passes of 8 matches (about 40 ms); on a shared or
throttled machine one run's figure moves by 10–15% from the next, so a median
of three runs can land on either side of 1.00 for a 3% change.  Here the two
builds share each round's minute, cache and interpreter, and forty rounds
give a median whose quartiles say how far to trust it.  ``instructions.py``
counts instead of timing; the three agree (docs/performance.rst).

Rows (head ÷ base as a speed, higher is better, except the decision's time):

- ``playout``: 8 random ``tc.playout`` matches a round (partnership);
- ``self-play``: 8 matches a round through ``legal_moves`` + ``apply``, a forced
  move played without a draw (``bench.selfplay``'s driver);
- ``decision``: ``MonteCarloBot()`` on 12 decisions (``bench.decisions``'s
  choice of states), its time head ÷ base (lower is better).

The rename is textual: only for the engine's rows (a string naming the package,
such as a message catalog's domain, is renamed too).
"""

from __future__ import annotations

import argparse
import importlib
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
WORD = re.compile(r"\btrixcomplex\b")


def import_base(checkout: Path, into: Path) -> ModuleType:
    """The package of ``checkout`` imported as ``trixcomplex_base`` (copied into ``into``)."""
    target = into / "trixcomplex_base"
    shutil.copytree(checkout / "src" / "trixcomplex", target)
    for path in target.rglob("*.py"):
        path.write_text(WORD.sub("trixcomplex_base", path.read_text("utf-8")), "utf-8")
    sys.path.insert(0, str(into))
    importlib.import_module("trixcomplex_base.bots")  # the decision row's tc.bots
    return importlib.import_module("trixcomplex_base")


def decider(bench: ModuleType, tc: Any) -> Callable[[range], None]:
    """One ``MonteCarloBot()`` choosing ``bench.decisions``' 12 decisions (the seeds are
    not read), ``tc``'s own objects."""
    asked = bench.decisions(range(1, 4), 12, tc)
    bot = tc.bots.MonteCarloBot()

    def decide(_: range) -> None:
        rng = random.Random(1)
        for view, legal in asked:
            bot.choose(view, legal, rng)

    return decide


def cpu(work: Callable[[range], Any], seeds: range) -> float:
    start = time.process_time()
    work(seeds)
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", type=Path, help="the base build's checkout")
    parser.add_argument("head", type=Path, nargs="?", default=HERE.parent, help="default: this one")
    parser.add_argument("--rounds", type=int, default=40, help="rounds per row (default 40)")
    parser.add_argument(
        "--rows", nargs="+", choices=("playout", "self-play", "decision"),
        default=["playout", "self-play", "decision"],
    )  # fmt: skip
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.head / "src"))
    import bench  # the rows' drivers; after the head's sources (bench.py imports trixcomplex)

    import trixcomplex as head

    with tempfile.TemporaryDirectory() as into:
        base = import_base(args.base, Path(into))
        importlib.import_module("trixcomplex.bots")
        print(f"base {base.__file__}\nhead {head.__file__}\n{args.rounds} rounds a row")
        for row in args.rows:
            works: dict[str, Callable[[range], Any]]
            if row == "decision":
                works = {"base": decider(bench, base), "head": decider(bench, head)}
            else:
                drive = bench.playouts if row == "playout" else bench.selfplay
                works = {
                    name: partial(drive, ruleset=tc.PARTNERSHIP, engine=tc)
                    for name, tc in (("base", base), ("head", head))
                }
            for work in works.values():  # warm up both
                work(range(2))
            ratios = []
            for n in range(args.rounds):
                seeds = range(1000 + 8 * n, 1008 + 8 * n)
                order = ("base", "head") if n % 2 else ("head", "base")
                took = {name: cpu(works[name], seeds) for name in order}
                speed = took["base"] / took["head"]
                ratios.append(1 / speed if row == "decision" else speed)
            q1, q2, q3 = statistics.quantiles(ratios, n=4)
            what = "time head/base" if row == "decision" else "speed head/base"
            print(f"{row:10s} {what}: median {q2:.3f} (quartiles {q1:.3f}–{q3:.3f})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
