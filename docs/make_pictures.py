"""Draw the table pictures shown in the documentation (``docs/_static/*.svg``).

The pictures are checked in, so the docs build needs nothing but Sphinx;
``tests/test_render.py`` fails when they are out of date with the renderer.
Regenerate them after changing :mod:`trixcomplex.io.render`::

    python docs/make_pictures.py          # rewrite the pictures
    python docs/make_pictures.py --check  # exit 1 if any is out of date

Each picture is one seat's view of a seeded match played with uniformly
random legal moves, so it depends on the engine and the renderer only.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path

import trixcomplex as tc

STATIC = Path(__file__).resolve().parent / "_static"


def _state_where(seed: int, stop: Callable[[tc.MatchState], bool]) -> tc.MatchState:
    """The first state of a seeded random match for which ``stop`` is true."""
    rng = random.Random(seed)
    state = tc.new_match()
    while not stop(state):
        if state.is_over:
            raise ValueError(f"seed {seed}: no state matches")
        if state.phase is tc.Phase.DEAL:
            state = tc.apply(state, tc.Deal.shuffled(rng))
        else:
            state = tc.apply(state, rng.choice(tc.legal_moves(state)))
    return state


def _mid_trick(state: tc.MatchState) -> bool:
    deal = state.complex
    return deal is not None and len(deal.tricks) == 4 and len(deal.trick) == 2


def _mid_trix(state: tc.MatchState) -> bool:
    deal = state.trix
    return deal is not None and deal.table.bit_count() == 22


def pictures() -> dict[str, str]:
    """File name -> SVG text of every documentation picture."""
    complex_state = _state_where(3, _mid_trick)
    trix_state = _state_where(3, _mid_trix)
    assert complex_state.turn is not None and trix_state.turn is not None
    return {
        "table-complex.svg": tc.picture(tc.view(complex_state, complex_state.turn)).svg,
        "table-trix.svg": tc.picture(tc.view(trix_state, trix_state.turn)).svg,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Draw the documentation's table pictures.")
    parser.add_argument("--check", action="store_true", help="only check they are up to date")
    args = parser.parse_args(argv)
    stale = []
    for name, svg in pictures().items():
        path = STATIC / name
        if path.exists() and path.read_text(encoding="utf-8") == svg:
            continue
        stale.append(name)
        if not args.check:
            path.write_text(svg, encoding="utf-8")
    verb = "out of date" if args.check else "written"
    print(f"{verb}: {', '.join(stale)}" if stale else "all pictures are up to date")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
