"""The command line's shared argument types: bot lists, counts, seats, ports, seconds,
the seats' generators.

Each type refuses a bad value with :class:`argparse.ArgumentTypeError`, so that argparse
prints the usage and one error line and exits with status 2: a bad command line never
reaches the code that would run (and never ends in a traceback).
"""

from __future__ import annotations

import argparse
import random

from ..bots import bot_named

LONGEST_SECONDS = 10_000_000
"""The most seconds a command-line duration may be (about 115 days): longer waits overflow
the system's timers (``select``, ``poll``) and are never meant."""

MOST_PROCESSES = 256
"""The most worker processes ``--jobs`` and ``--bot-workers`` may ask for: all are started
at once, and more than this would only exhaust the machine."""


def bot_name(text: str) -> str:
    """One built-in bot's name (of :func:`~trixcomplex.bots.bot_named`), lower-cased, or the
    argparse error naming it.

    >>> bot_name(" Rule:1 ")
    'rule:1'
    >>> bot_name("mcx")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    argparse.ArgumentTypeError: unknown bot 'mcx': expected one of random, rule, rule:N, ...
    """
    name = text.strip().lower()
    try:
        bot_named(name)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return name


def bot_forms() -> dict[str, str]:
    """Each form of bot name that ``--bots`` takes, with its meaning: the kinds
    :func:`~trixcomplex.bots.bot_named` knows (:data:`~trixcomplex.bots.BOT_KINDS`), each
    but ``random`` also with ``:N`` (``level`` only with it), their numbers read from the
    bots' own tables (``--help`` prints these; a test checks the parser takes each and no
    other).

    >>> list(bot_forms())
    ['random', 'rule', 'rule:N', 'mc', 'mc:N', 'mc2', 'mc2:N', 'level:N']
    """
    from ..bots import BOT_KINDS, MC2, MC_WORLDS, MonteCarloBot, RuleBot
    from ..bots.rule_bot import RULE_BOT_VERSIONS

    versions = ", ".join(map(str, RULE_BOT_VERSIONS))
    worlds = f"N from 1 to {MC_WORLDS}"
    meanings = {
        "random": "a uniformly random legal move (the baseline)",
        "rule": f"RuleBot's rule-based play (its version {RuleBot().version})",
        "rule:N": f"RuleBot's version N, one of {versions}",
        "mc": f"the Monte Carlo bot with {MonteCarloBot().worlds} worlds (mc:N's default)",
        "mc:N": "the Monte Carlo bot: for each decision with several legal moves it samples "
        "N worlds and plays every candidate move out to the end of the deal, so a decision "
        f"costs about N x (legal moves) playouts; {worlds}",
        "mc2": f"the Monte Carlo bot with {MC2.worlds} worlds, RuleBot version "
        f"{MC2.rule_version}'s move kept unless another gains clearly more, the last "
        f"{MC2.endgame} tricks solved exactly",
        "mc2:N": f"mc2 sampling N worlds, {worlds}",
        "level:N": "a level of play for people, N from 1 (the weakest) to 5, about 150 "
        "rating points apart: 1 to 3 RuleBot played with softer choices, a shorter memory "
        "and doubles missed, 4 RuleBot, 5 mc2",
    }
    forms = [
        form
        for kind in BOT_KINDS
        for form in (kind, f"{kind}:N")
        if form not in ("random:N", "level")
    ]
    return {form: meanings[form] for form in forms}


def _bot_list(text: str) -> list[str]:
    return [bot_name(n) for n in text.split(",")]


def whole_number(text: str, least: int) -> int:
    """``text`` as a whole number of at least ``least``, or the argparse error saying so.

    >>> whole_number("3", 1)
    3
    >>> whole_number("0", 1)
    Traceback (most recent call last):
    argparse.ArgumentTypeError: expected a positive integer, not '0'
    """
    wanted = "a positive integer" if least == 1 else f"a whole number of at least {least}"
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {wanted}, not {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"expected {wanted}, not {text!r}")
    return value


def _positive(text: str) -> int:
    return whole_number(text, 1)


def processes(text: str) -> int:
    """A number of worker processes, 1 to :data:`MOST_PROCESSES`, or the argparse error.

    >>> processes("4")
    4
    >>> processes("100000")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: expected 1 to 256 processes, not '100000'
    """
    value = whole_number(text, 1)
    if value > MOST_PROCESSES:
        raise argparse.ArgumentTypeError(
            f"expected 1 to {MOST_PROCESSES} processes, not {text[:40]!r}"
        )
    return value


def port(text: str) -> int:
    """A TCP port, 0 to 65535 (0: any free port), or the argparse error saying so.

    >>> port("8000")
    8000
    >>> port("99999")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: a port is a whole number from 0 to 65535, not '99999'
    """
    wrong = argparse.ArgumentTypeError(
        f"a port is a whole number from 0 to 65535, not {text[:40]!r}"
    )
    if not text.strip().isdecimal() or len(text.strip()) > 5:
        raise wrong
    value = int(text)
    if value > 65535:
        raise wrong
    return value


def seconds(text: str, *, zero: bool = False) -> float:
    """``text`` as a number of seconds: more than 0 (``zero``: 0 or more), at most
    :data:`LONGEST_SECONDS`, or the argparse error saying so (``nan`` and ``inf`` too).

    >>> seconds("1.5"), seconds("0", zero=True)
    (1.5, 0.0)
    >>> seconds("nan")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: give a positive number of seconds (at most 10000000), not 'nan'
    """
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    low_ok = value >= 0.0 if zero else value > 0.0
    if not (low_ok and value <= LONGEST_SECONDS):
        wanted = "0 or more seconds" if zero else "a positive number of seconds"
        raise argparse.ArgumentTypeError(
            f"give {wanted} (at most {LONGEST_SECONDS}), not {text[:40]!r}"
        )
    return value


def _seat(text: str) -> int:
    if text not in ("0", "1", "2", "3"):
        raise argparse.ArgumentTypeError(f"a seat is 0, 1, 2 or 3, not {text!r}")
    return int(text)


def _seat_rngs(seed: int) -> list[random.Random]:
    return [random.Random(f"trixcomplex:{seed}:seat:{s}") for s in range(4)]
