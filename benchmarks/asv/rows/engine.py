"""The hot-path rows of ``benchmarks/bench.py`` as an airspeed velocity suite (issue 44).

``nox -s perf -- BASE`` runs them on BASE and on this checkout's HEAD in
alternation (``asv continuous --interleave-rounds``) and fails when a row is
more than 5% slower.  The drivers are ``bench.py``'s own (imported from the
checkout running asv, so both builds run the same driver); each row is timed
in CPU time (``time.process_time``): the machine is shared, and waiting for a
core is not the engine's time.

- ``time_selfplay``: public-API random self-play (``legal_moves`` + ``apply``),
  four partnership matches.
- ``time_playout``: ``tc.playout`` to the end of the match, four matches.
- ``time_mc_decision``: ``MonteCarloBot()`` choosing six card plays.
- ``time_sample_world``: ``sample_world`` of the views of one match.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/: bench.py

import bench

import trixcomplex as tc

SEEDS = range(1, 5)


class Engine:
    """The engine rows; ``setup`` prepares the inputs outside the timing."""

    timer = time.process_time
    rounds = 4  # rounds per build, interleaved with the other build's (--interleave-rounds)
    repeat = (10, 25, 20.0)  # per round: at least 10 samples, at most 25, 20 s
    number = 1
    warmup_time = 0.2

    def setup(self) -> None:
        self.views = bench.playing_views(range(1, 2), tc.PARTNERSHIP, 7)
        self.asked = bench.decisions(range(1, 3), 6)
        from trixcomplex.bots import MonteCarloBot

        self.bot: Any = MonteCarloBot()

    def time_selfplay(self) -> None:
        bench.selfplay(SEEDS, tc.PARTNERSHIP)

    def time_playout(self) -> None:
        bench.playouts(SEEDS, tc.PARTNERSHIP)

    def time_mc_decision(self) -> None:
        rng = random.Random(1)
        for view, legal in self.asked:
            self.bot.choose(view, legal, rng)

    def time_sample_world(self) -> None:
        rng = random.Random(1)
        for view in self.views:
            tc.sample_world(view, rng)
