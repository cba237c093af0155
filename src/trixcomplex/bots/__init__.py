"""Bots: players that see only their seat's view (layer 6 of the engine's layers).

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

from .asking import ask, offer_redeal
from .base import Bot, BotError, BotTimeout, check_bot
from .montecarlo import MonteCarloBot
from .random_bot import RandomBot
from .rule_bot import RuleBot

__all__ = [
    "BOT_NAMES",
    "MC_WORLDS",
    "Bot",
    "BotError",
    "BotTimeout",
    "MonteCarloBot",
    "RandomBot",
    "RuleBot",
    "ask",
    "bot_named",
    "check_bot",
    "offer_redeal",
]

BOT_NAMES = ("random", "rule", "mc")
"""The names :func:`bot_named` knows (``mc`` is :class:`MonteCarloBot`)."""


MC_WORLDS = 10_000
"""The most worlds ``mc:N`` may sample per decision."""


def bot_named(name: str) -> Bot:
    """The bot called ``name``: ``random``, ``rule`` or ``mc`` (``mc:N`` samples N worlds).

    Raises ``ValueError`` naming the input for anything else, and for ``mc:N``
    the valid range of N.

    >>> bot_named("mc:0")
    Traceback (most recent call last):
    ValueError: bad bot 'mc:0': mc:N samples N worlds per decision, N from 1 to 10000
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
        if worlds.isdigit() and 1 <= int(worlds) <= MC_WORLDS:
            return MonteCarloBot(worlds=int(worlds))
        raise ValueError(
            f"bad bot {name[:20]!r}: mc:N samples N worlds per decision, N from 1 to {MC_WORLDS}"
        )
    raise ValueError(f"unknown bot {name!r}: expected one of random, rule, mc or mc:N")
