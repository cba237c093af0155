"""A seeded match between bots, printed as a scoresheet.

Two :class:`~trixcomplex.bots.RuleBot` partners (seats 0 and 2) play two
:class:`~trixcomplex.bots.RandomBot` partners (seats 1 and 3).  Everything
random comes from seeded generators -- one for the shuffles, one per seat
for the bots -- so the same seed always gives the same match, move for move.

Run it with ``python examples/seeded_match.py`` (or ``... --seed 11``); it
prints the scoresheet: every deal's points, the doubled cards with their
case (R-DBL-4), the TRIX finishing orders (R-TX-4), the running Team
Totals (R-MATCH-7) and the result (R-MATCH-8).
"""

from __future__ import annotations

import argparse
import random

import trixcomplex as tc
from trixcomplex.bots import Bot, RandomBot, RuleBot
from trixcomplex.host.tournament import play_match
from trixcomplex.io.scoresheet import format_scoresheet


def seeded_match(seed: int) -> tc.MatchState:
    """The final state of the match played from ``seed``."""
    bots: list[Bot] = [RuleBot(), RandomBot(), RuleBot(), RandomBot()]  # bots[s] plays seat s
    deals = random.Random(seed)  # the shuffles
    rngs = [random.Random(f"{seed}/seat {s}") for s in range(4)]  # each bot's own randomness
    return play_match(bots, deals, rngs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7, help="the match seed (default 7)")
    seed = parser.parse_args().seed
    state = seeded_match(seed)
    assert state == seeded_match(seed), "the same seed gives the same match"
    print(f"RuleBot (seats 0, 2) against RandomBot (seats 1, 3), seed {seed}")
    print()
    print(format_scoresheet(state))


if __name__ == "__main__":
    main()
