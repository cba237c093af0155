"""Two builds of trixcomplex timed in alternation by ``bench.py`` (issue 44).

Run ``python benchmarks/alternate.py BASE_CHECKOUT [HEAD_CHECKOUT] --runs 3
-- --only playout``: for each run, ``bench.py`` (this checkout's, the same
yardstick for both) runs once against each build's ``src/`` (base first,
then head, in the same minutes), and its rows are printed side by side with
head ÷ base.  Everything after ``--`` goes to ``bench.py``.  A checkout of
an old commit is made with ``git worktree add /tmp/base-COMMIT COMMIT``.

The machine is shared, so a single run proves little: the runs alternate
builds so that both see the same load, and the summary gives the median of
the runs' figures for each build and every run's ratio, not the best one.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROW = re.compile(r"^(?P<name>\S.*?)\s{2,}(?P<figure>[\d.,]+)(?P<unit>x| ms|)\s+\[")


def rows(text: str) -> dict[str, float]:
    """The rows of a ``bench.py`` output: name → median figure (ratio or ms)."""
    out = {}
    for line in text.splitlines():
        m = ROW.match(line)
        if m:
            out[m["name"].strip()] = float(m["figure"].replace(",", ""))
    return out


def bench(checkout: Path, args: list[str]) -> dict[str, float]:
    """One ``bench.py`` run against ``checkout``'s sources; its rows."""
    env = {**os.environ, "PYTHONPATH": f"{checkout / 'src'}{os.pathsep}{HERE}"}
    done = subprocess.run(
        [sys.executable, str(HERE / "bench.py"), *args],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if not rows(done.stdout):
        sys.exit(f"bench.py against {checkout} printed no rows:\n{done.stdout}{done.stderr}")
    return rows(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", type=Path, help="the base build's checkout")
    parser.add_argument("head", type=Path, nargs="?", default=HERE.parent, help="default: this one")
    parser.add_argument("--runs", type=int, default=3, help="alternating runs (default 3)")
    argv = sys.argv[1:] if argv is None else argv
    cut = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:cut])
    extra = argv[cut + 1 :]  # bench.py's options
    results: list[tuple[dict[str, float], dict[str, float]]] = []
    for run in range(1, args.runs + 1):
        base, head = bench(args.base, extra), bench(args.head, extra)
        results.append((base, head))
        print(f"run {run}")
        for name in base:
            if name in head:
                print(f"  {name:<44} base {base[name]:>8.3f}  head {head[name]:>8.3f}  "
                      f"head/base {head[name] / base[name]:.3f}", flush=True)  # fmt: skip
    print(f"\nmedian of {args.runs} runs (each a median of bench.py's passes); head/base per run")
    for name in results[0][0]:
        if all(name in b and name in h for b, h in results):
            b = statistics.median(r[0][name] for r in results)
            h = statistics.median(r[1][name] for r in results)
            ratios = [r[1][name] / r[0][name] for r in results]
            each = ", ".join(f"{x:.3f}" for x in ratios)
            print(f"  {name:<44} base {b:>8.3f}  head {h:>8.3f}  "
                  f"head/base: median {statistics.median(ratios):.3f} (runs: {each})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
