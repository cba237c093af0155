"""Bots: players that see only their seat's view (layer 6 of the engine's layers).

- :class:`Bot`: the protocol, ``choose(view, legal, rng) -> move``.
- :class:`RandomBot`: uniform legal moves, the baseline.
- :class:`RuleBot`: sensible rule-based play.
- :class:`MonteCarloBot`: samples hidden hands and plays moves out.
- :func:`level`: five levels of play, evenly spaced in strength, for frontends.
- :func:`hint`: a level's move for a player, why, the cards that matter and what the
  alternatives cost, in English or Arabic.
- :func:`explain`: a bot's move in a view and what chose it (the tactic, or
  the worlds' statistics), for bot authors and ``play --hint``.

They play every ruleset (:class:`~trixcomplex.Ruleset`); :func:`offer_redeal`
asks a bot the one question ``choose`` cannot: whether to demand a redeal
out of turn (R-OPT-8).

:func:`bot_named` builds one from its command-line name.

>>> bot_named("rule")
RuleBot()
"""

from __future__ import annotations

import attrs

from .asking import ask, offer_redeal
from .base import Bot, BotError, BotTimeout, check_bot
from .diagnostics import Explanation, explain
from .hints import Hint, hint
from .levels import LevelBot, level
from .montecarlo import MonteCarloBot
from .random_bot import RandomBot
from .rule_bot import RULE_BOT_VERSIONS, RuleBot

__all__ = [
    "BOT_KINDS",
    "BOT_NAMES",
    "MC2",
    "MC_WORLDS",
    "Bot",
    "BotError",
    "BotTimeout",
    "Explanation",
    "Hint",
    "LevelBot",
    "MonteCarloBot",
    "RandomBot",
    "RuleBot",
    "ask",
    "bot_named",
    "check_bot",
    "explain",
    "hint",
    "level",
    "offer_redeal",
]

BOT_KINDS = ("random", "rule", "mc", "mc2", "level")
"""The kinds of bot :func:`bot_named` knows: a name, or a name, a colon and a version, a
number of worlds or a level (``rule:1``, ``mc2:8``, ``level:3``; a level always has its
number)."""
BOT_NAMES = ("random", "rule", "mc", "level:1", "level:2", "level:3", "level:4", "level:5")
"""The names a table server's lobby offers for a seat, each a name :func:`bot_named` knows
(``mc`` is :class:`MonteCarloBot`; ``level:1`` … ``level:5`` the levels of :func:`level`,
the weakest first)."""


MC_WORLDS = 10_000
"""The most worlds ``mc:N`` may sample per decision."""

MC2 = MonteCarloBot(
    worlds=16, endgame=2, equals=True, search_trix=False, caution=1.0, rule_version=2
)
"""The Monte Carlo bot named ``mc2``: 16 worlds of RuleBot playouts (version 1), one
card of each group of equals searched, the exact solve of the last two tricks, and
RuleBot version 2's move as the default, kept unless another gains more by a standard
error (``caution``), TRIX laid by it (``mc2:N`` samples N worlds).  What each setting
is worth, and why inference and version 2 playouts are left off, is on :doc:`/bots`."""


def bot_named(name: str) -> Bot:
    """The bot called ``name``: ``random``, ``rule`` or ``mc`` (``mc:N`` samples N worlds;
    ``rule:1`` is :class:`RuleBot`'s first version, ``rule`` and ``rule:2`` its second;
    ``mc2`` and ``mc2:N`` are :data:`MC2`; ``level:N`` is :func:`level` N, 1 to 5).

    Raises ``ValueError`` naming the input for anything else, and for ``mc:N``
    the valid range of N.

    >>> bot_named("rule:1")
    RuleBot(version=1)
    >>> bot_named("mc:0")
    Traceback (most recent call last):
    ValueError: bad bot 'mc:0': mc:N samples N worlds per decision, N from 1 to 10000
    >>> bot_named("level:4"), bot_named("level:5") is MC2
    (RuleBot(), True)
    """
    key = name.strip().lower()
    if key == "random":
        return RandomBot()
    if key == "rule" or key.startswith("rule:"):
        _, colon, version = key.partition(":")
        if not colon:
            return RuleBot()
        if version.isdigit() and int(version) in RULE_BOT_VERSIONS:
            return RuleBot(version=int(version))
        raise ValueError(
            f"bad bot {name[:20]!r}: rule:N plays RuleBot's version N, "
            f"one of {', '.join(map(str, RULE_BOT_VERSIONS))}"
        )
    if key in ("mc", "mc2") or key.startswith(("mc:", "mc2:")):
        kind, colon, worlds = key.partition(":")
        if not colon:
            return MonteCarloBot() if kind == "mc" else MC2
        if worlds.isdigit() and 1 <= int(worlds) <= MC_WORLDS:
            if kind == "mc":
                return MonteCarloBot(worlds=int(worlds))
            return attrs.evolve(MC2, worlds=int(worlds))
        raise ValueError(
            f"bad bot {name[:20]!r}: {kind}:N samples N worlds per decision, "
            f"N from 1 to {MC_WORLDS}"
        )
    if key.startswith("level:"):
        number = key.partition(":")[2]
        if number.isdigit() and 1 <= int(number) <= 5:
            return level(int(number))
        raise ValueError(f"bad bot {name[:20]!r}: level:N plays level N, from 1 to 5")
    raise ValueError(
        f"unknown bot {name!r}: expected one of random, rule, rule:N, mc, mc:N, mc2, mc2:N "
        "or level:N"
    )
