"""Machine instructions of the hot-path rows, two builds side by side (issue 44).

Run ``python benchmarks/instructions.py BASE_CHECKOUT [HEAD_CHECKOUT]`` from the
repository root (``valgrind`` installed: ``apt-get install -y valgrind``).  For
each row and build it runs the row's workload under ``valgrind --tool=cachegrind
--cache-sim=no`` once and three times in one process, and prints the difference
halved: the instructions of one workload, with the imports, the setup and the
first pass's warm-up left out.  ``PYTHONHASHSEED=0`` and the same seeds make a
count repeat to about 0.5%, whatever the machine's load: where
``alternate.py``'s timings cannot tell a 2% change from a busy neighbour, this
can.  Instructions are not time (a generic path and a cache miss cost more per
instruction than the interpreter's specialized ones), so the alternating timings
still decide; this says which way a change goes and by how much.

- ``playout``: 10 random ``tc.playout`` matches (partnership);
- ``selfplay``: 6 random partnership matches through ``legal_moves`` + ``apply``;
- ``montecarlo``: ``MonteCarloBot()`` on the 12 decisions of ``bench.py``'s row;
- ``vector``: 50 steps of a :class:`~trixcomplex.rl.vector.TablesEnv` of 64
  partnership tables (3,200 agent steps, the observations and masks written),
  random legal actions drawn from the masks as ``rl_overhead.py --vector``
  draws them; the tables are reset before the first pass and each pass steps
  them on from where the last left them.  Its count also prints per agent step.
  A build without the vector environment has no count (``n/a``).

Two things the counts of the vector row were found to move with, and are kept
still: the cyclic garbage collector (a collection's work depends on when it
runs, and moved a count by up to 3%: it is off in that row, so the row counts
the step and not the collector) and OpenBLAS's worker threads (their idle loop
is counted; ``OPENBLAS_NUM_THREADS=1`` in every row).

``--worker ROW REPS`` is the workload itself (what valgrind runs).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROWS = ("playout", "selfplay", "montecarlo", "vector")
VECTOR_TABLES, VECTOR_STEPS = 64, 50
NOT_IN_BUILD = 3
"""The worker's exit status for a row the build has not got."""
TOTAL = re.compile(r"I\s+refs:\s+([\d,]+)")


def worker(row: str, reps: int) -> None:
    """Run ``row``'s workload ``reps`` times (the build on ``sys.path`` first)."""
    import bench  # bench.py's decisions (it imports trixcomplex: the build on sys.path)

    import trixcomplex as tc

    # The matches are played and dropped: none is kept for counting, as bench.py's rows
    # keep theirs (bench.match_states, bench.playouts), since kept states are the
    # collector's work, not the engine's (12% more instructions for self-play's states,
    # and 13% more for 436964e's playouts, whose records the collector tracks).
    if row == "montecarlo":  # bench.py's decisions, one bot for every pass
        from trixcomplex.bots import MonteCarloBot

        asked, bot = bench.decisions(range(0, 3), 12), MonteCarloBot()

        def work() -> None:
            rng = random.Random(0)
            for view, legal in asked:
                bot.choose(view, legal, rng)

    elif row == "selfplay":  # every move drawn, as bench.match_states draws them

        def work() -> None:
            for seed in range(6):
                rng, state = random.Random(seed), tc.new_match(tc.PARTNERSHIP)
                while not state.is_over:
                    if state.phase is tc.Phase.DEAL:
                        state = tc.apply(state, tc.Deal.shuffled(rng))
                    else:
                        state = tc.apply(state, rng.choice(tc.legal_moves(state)))

    elif row == "vector":
        try:
            from trixcomplex.rl.vector import TablesEnv
        except ImportError:  # a build before the vector environment
            sys.exit(NOT_IN_BUILD)
        import gc

        import numpy as np

        tables = TablesEnv(VECTOR_TABLES, "partnership", copy=False)
        masks = tables.reset(seed=1)[0]["action_mask"]
        draws = np.random.default_rng(0)
        gc.disable()  # see the module's docs

        def work() -> None:
            for _ in range(VECTOR_STEPS):
                tables.step((draws.random(masks.shape, np.float32) * masks).argmax(axis=1))

    else:

        def work() -> None:
            for seed in range(10):
                tc.playout(tc.new_match(tc.PARTNERSHIP), random.Random(seed), until="match")

    for _ in range(reps):
        work()


def count(checkout: Path, row: str, reps: int) -> int | None:
    """Instructions of ``reps`` passes of ``row`` against ``checkout``'s sources
    (``None``: the build has not got the row)."""
    env = {
        **os.environ,
        "PYTHONHASHSEED": "0",
        "OPENBLAS_NUM_THREADS": "1",
        "PYTHONPATH": f"{checkout / 'src'}{os.pathsep}{HERE}",
    }
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, str(Path(__file__).resolve()), "--worker", row, str(reps)],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    found = TOTAL.search(done.stderr)
    if done.returncode == NOT_IN_BUILD:
        return None
    if done.returncode or found is None:
        sys.exit(f"valgrind on {checkout} ({row}) failed:\n{done.stderr[-2000:]}")
    return int(found[1].replace(",", ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", type=Path, nargs="?", help="the base build's checkout")
    parser.add_argument("head", type=Path, nargs="?", default=HERE.parent, help="default: this one")
    parser.add_argument("--rows", nargs="+", choices=ROWS, default=list(ROWS))
    parser.add_argument("--worker", nargs=2, metavar=("ROW", "REPS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker[0], int(args.worker[1]))
        return 0
    if args.base is None:
        parser.error("the base checkout is required")
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install -y valgrind)")
    for row in args.rows:
        one = {b: once(b, row) for b in (args.base, args.head)}
        base, head = one[args.base], one[args.head]
        shown = [f"{n:>15,d}" if n is not None else f"{'n/a':>15s}" for n in (base, head)]
        line = f"{row:12s} base {shown[0]}  head {shown[1]}"
        if base is not None and head is not None:
            line += f"  head/base {head / base:.3f}"
        if row == "vector":
            line += (
                "  (per agent step: "
                + ", ".join(
                    f"{n / (VECTOR_TABLES * VECTOR_STEPS):,.0f}" if n is not None else "n/a"
                    for n in (base, head)
                )
                + ")"
            )
        print(line)
    return 0


def once(checkout: Path, row: str) -> int | None:
    """One pass of ``row``: three passes' count less one pass's, halved."""
    three = count(checkout, row, 3)
    if three is None:
        return None
    one = count(checkout, row, 1)
    assert one is not None
    return (three - one) // 2


if __name__ == "__main__":
    sys.exit(main())
