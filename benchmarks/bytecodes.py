"""Bytecodes executed per card play, by function, for the hot-path rows (issue 44).

Run ``python benchmarks/bytecodes.py selfplay`` (or ``playout``, or
``montecarlo``) from the repository root; put another build's ``src/``
first on ``PYTHONPATH`` to count it the same way.  A trace
(``sys.settrace`` with ``f_trace_opcodes``) counts every bytecode run, per
function: deterministic, so two builds compare exactly whatever the
machine's load, where a timing could not tell a 1% change from noise.
Bytecodes are not time (a C call is one bytecode, a Python call's frame is
none): the alternating runs of ``alternate.py`` decide.

- ``selfplay``: 3 random partnership matches through ``legal_moves`` +
  ``apply`` (``bench.selfplay``'s driver), per card play (each Play or Pass
  of the histories);
- ``playout``: 5 random ``tc.playout`` matches, per card play;
- ``montecarlo``: ``MonteCarloBot()`` on 4 decisions of ``bench.decisions``,
  per decision.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from types import FrameType
from typing import Any

import bench

import trixcomplex as tc


def count(run: Any) -> collections.Counter[tuple[str, str]]:
    """Bytecodes run by ``run()``, per (file, function)."""
    counts: collections.Counter[tuple[str, str]] = collections.Counter()

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        if event == "opcode":
            code = frame.f_code
            counts[code.co_filename.split("/src/")[-1], code.co_name] += 1
        return tracer

    sys.settrace(tracer)
    try:
        run()
    finally:
        sys.settrace(None)
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("row", choices=("selfplay", "playout", "montecarlo"))
    parser.add_argument("--top", type=int, default=25, help="functions listed (default 25)")
    args = parser.parse_args(argv)
    finals: list[tc.MatchState] = []
    if args.row == "selfplay":
        counts = count(lambda: finals.extend(bench.selfplay(range(3), tc.PARTNERSHIP)))
    elif args.row == "playout":
        counts = count(lambda: finals.extend(bench.playouts(range(5), tc.PARTNERSHIP)))
    else:
        from trixcomplex.bots import MonteCarloBot

        bot, asked = MonteCarloBot(), bench.decisions(range(1, 4), 4)
        rng = random.Random(1)
        counts = count(lambda: [bot.choose(v, legal, rng) for v, legal in asked])
    per = (
        len(asked)
        if args.row == "montecarlo"
        else sum(type(m) in (tc.Play, tc.Pass) for s in finals for m in s.history)
    )
    unit = "decision" if args.row == "montecarlo" else "card play"
    print(f"{args.row}: {sum(counts.values()) / per:,.1f} bytecodes per {unit} ({per} {unit}s)")
    for (path, name), n in counts.most_common(args.top):
        print(f"  {n / per:12,.1f}  {path}:{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
