"""The ``trixcomplex`` command."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from . import Deal, Phase, apply, legal_moves, new_match, score
from .state import MatchState


def _random_match(seed: int) -> MatchState:
    rng = random.Random(seed)
    state = new_match()
    while state.phase is not Phase.OVER:
        if state.phase is Phase.DEAL:
            state = apply(state, Deal.shuffled(rng))
        else:
            state = apply(state, rng.choice(legal_moves(state)))
    return state


def _demo(args: argparse.Namespace) -> int:
    state = _random_match(args.seed)
    result = score(state)
    print(f"trixcomplex demo, seed {args.seed}")
    print(
        f"{'deal':>4} {'contract':<8} {'owner':>5} "
        + " ".join(f"{'seat ' + str(s):>8}" for s in range(4))
    )
    for deal in result.deals:
        cells = " ".join(f"{p:>8}" for p in deal.points)
        print(f"{deal.number:>4} {deal.contract.value:<8} {deal.owner:>5} {cells}")
    print("total" + " " * 15 + " ".join(f"{p:>8}" for p in result.seats))
    print(f"teams: team0 {result.teams[0]}, team1 {result.teams[1]}; result: {result.result}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="trixcomplex", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play one complete seeded match and print the scoresheet")
    demo.add_argument("--seed", type=int, default=7, help="the random seed (default 7)")
    demo.set_defaults(func=_demo)
    args = parser.parse_args(argv)
    status: int = args.func(args)
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
