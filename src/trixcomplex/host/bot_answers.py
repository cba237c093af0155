"""A bot's answers to a table: its move from its seat's view, and whether it demands a redeal.

The one place a table (the server's, in its worker processes, or the one in
the browser, in its Web Worker) asks a bot by name: the bot sees the seat's
:func:`~trixcomplex.view` and a seeded random generator, never the state.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
>>> seen = tc.view(state, state.owner)
>>> decide("rule", seen, seed=1) in seen.legal_moves
True
"""

from __future__ import annotations

import random
from functools import cache

import trixcomplex as tc
from trixcomplex.bots import Bot, bot_named

__all__ = ["decide", "wants_redeal"]


@cache
def _bot(name: str) -> Bot:
    return bot_named(name)


def decide(name: str, seen: tc.View, seed: int) -> tc.PlayerMove:
    """The move the bot ``name`` makes from the view ``seen`` (run in a worker)."""
    bot, rng = _bot(name), random.Random(seed)
    blind = getattr(bot, "choose_legal", None)
    if blind is not None:
        move: tc.PlayerMove = blind(seen.legal_moves, rng)
    else:
        move = bot.choose(seen, seen.legal_moves, rng)
    return move


def wants_redeal(name: str, seen: tc.View, seed: int) -> bool:
    """Whether the bot ``name`` demands a redeal out of turn (R-OPT-8; run in a worker)."""
    wants = getattr(_bot(name), "wants_redeal", None)
    return False if wants is None else bool(wants(seen, random.Random(seed)))
