"""``trixcomplex demo``: one whole seeded match between bots, deal by deal."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence

from ..bots import Bot, bot_named
from ..core.engine import (
    MatchState,
    new_match,
)
from ..core.moves import (
    Choose,
    Deal,
    Move,
    PlayerMove,
    Redeal,
    Timeout,
)
from ..core.rulesets import PARTNERSHIP, Ruleset
from ..host.loop import ask, offer_redeal, run
from ..io.scoresheet import contract_name
from .args import _seat_rngs
from .text import _scoresheet, _took, _winner_line


def _deal_notes(state: MatchState) -> dict[int, list[str]]:
    """What happened before each deal's play, by deal number: redeals, who chose."""
    notes: dict[int, list[str]] = {}
    number = 0
    last: Move | None = None
    for move in state.history.moves():
        if isinstance(move, Deal) and not isinstance(last, Redeal):
            number += 1
        elif isinstance(move, Redeal):
            notes.setdefault(number, []).append(
                f"  TRIX was chosen and seat {move.seat} demanded a redeal (R-OPT-8): "
                "the deal was dealt again"
            )
        elif isinstance(move, Choose):
            notes.setdefault(number, []).append(f"chosen by seat {move.seat}")
        elif isinstance(move, Timeout):
            notes.setdefault(number, []).append("  the owner's time ran out (R-MATCH-6)")
        last = move
    return notes


def _demo(args: argparse.Namespace) -> int:
    if len(args.bots) not in (1, 4):
        print("trixcomplex demo: error: --bots takes 1 or 4 bot names", file=sys.stderr)
        return 2
    names = args.bots if len(args.bots) == 4 else [args.bots[0]] * 4
    bots = [bot_named(n) for n in names]
    ruleset: Ruleset = args.ruleset
    rngs = _seat_rngs(args.seed)
    state = _play_bots(new_match(ruleset), bots, random.Random(args.seed), rngs)
    print(f"trixcomplex demo, seed {args.seed}: " + ", ".join(
        f"seat {s} {type(b).__name__}" for s, b in enumerate(bots)
    ) + ("" if ruleset == PARTNERSHIP else f"; ruleset {ruleset.name}"))  # fmt: skip
    notes = _deal_notes(state)
    per = ruleset.deals_per_kingdom
    for deal in state.results:
        print()
        lines = notes.get(deal.number, [])
        chosen = [n for n in lines if n.startswith("chosen")]
        if chosen:
            how = chosen[-1]
        elif ruleset.fixed_order:
            how = "in the fixed order"
        else:
            how = "the other contract" if per == 2 else "the last contract"
        print(
            f"Deal {deal.number}, Kingdom {deal.kingdom}, owner seat {deal.owner}: "
            f"{contract_name(deal.contract)} ({how})"
        )
        for line in lines:
            if not line.startswith("chosen"):
                print(line)
        if deal.contract.is_trick_contract and ruleset.trick_rules(deal.contract).doublable:
            if deal.doubled:
                for d in deal.doubled:
                    print(
                        f"  seat {d.doubler} doubled {d.card.symbol}; seat {d.taker} took it "
                        f"(case {d.case})"
                    )
            else:
                print("  no doubles")
        for line in _took(deal, ruleset):
            print(line)
    print()
    print(_scoresheet(state))
    print(_winner_line(state))
    return 0


def _play_bots(
    state: MatchState,
    bots: Sequence[Bot | None],
    deals: random.Random,
    rngs: Sequence[random.Random],
    person: Callable[[MatchState, int, Sequence[PlayerMove]], Move] | None = None,
    person_redeal: Callable[[MatchState, int], bool] | None = None,
    on_move: Callable[[MatchState, Move, MatchState], None] | None = None,
) -> MatchState:
    """Run the host loop for the command: bots, and maybe one person (``None`` in ``bots``)."""

    def decide(st: MatchState, seat: int, legal: Sequence[PlayerMove]) -> Move:
        bot = bots[seat]
        if bot is None:
            assert person is not None
            return person(st, seat, legal)
        return ask(bot, st, seat, rngs[seat])

    def offer(st: MatchState, seat: int) -> bool:
        bot = bots[seat]
        if bot is None:
            assert person_redeal is not None
            return person_redeal(st, seat)
        return offer_redeal(bot, st, seat, rngs[seat])

    return run(state, decide, offer=offer, deals=deals, on_move=on_move)
