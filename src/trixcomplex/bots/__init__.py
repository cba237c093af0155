"""Bots: players that see only their seat's view (DESIGN.md layer 6).

- :class:`Bot`: the protocol, ``choose(view, legal, rng) -> move``.
- :class:`RandomBot`: uniform legal moves, the baseline.
- :class:`RuleBot`: sensible rule-based play.
- :class:`MonteCarloBot`: samples hidden hands and plays moves out.

They play every ruleset (:class:`~trixcomplex.Ruleset`); :func:`offer_redeal`
asks a bot the one question ``choose`` cannot: whether to demand a redeal
out of turn (R-OPT-8).

:func:`bot_named` builds one from its command-line name.

>>> bot_named("rule")
RuleBot()
"""

from __future__ import annotations

from .base import Bot, BotError, ask, offer_redeal
from .montecarlo import MonteCarloBot
from .random_bot import RandomBot
from .rule_bot import RuleBot

__all__ = [
    "BOT_NAMES",
    "Bot",
    "BotError",
    "MonteCarloBot",
    "RandomBot",
    "RuleBot",
    "ask",
    "bot_named",
    "offer_redeal",
]

BOT_NAMES = ("random", "rule", "mc")
"""The names :func:`bot_named` knows (``mc`` is :class:`MonteCarloBot`)."""


def bot_named(name: str) -> Bot:
    """The bot called ``name``: ``random``, ``rule`` or ``mc`` (``mc:N`` samples N worlds).

    Raises ``ValueError`` naming the input for anything else.
    """
    key = name.strip().lower()
    if key == "random":
        return RandomBot()
    if key == "rule":
        return RuleBot()
    if key == "mc" or key.startswith("mc:"):
        _, _, worlds = key.partition(":")
        if not worlds:
            return MonteCarloBot()
        if worlds.isdigit() and int(worlds) >= 1:
            return MonteCarloBot(worlds=int(worlds))
    raise ValueError(f"unknown bot {name!r}: expected one of random, rule, mc or mc:N")
