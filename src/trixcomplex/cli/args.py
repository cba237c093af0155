"""The command line's shared argument types: bot lists, counts, seats, the seats' generators."""

from __future__ import annotations

import argparse
import random

from ..bots import bot_named


def _bot_list(text: str) -> list[str]:
    names = [n.strip().lower() for n in text.split(",")]
    for name in names:
        try:
            bot_named(name)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return names


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


def _seat(text: str) -> int:
    if text not in ("0", "1", "2", "3"):
        raise argparse.ArgumentTypeError(f"a seat is 0, 1, 2 or 3, not {text!r}")
    return int(text)


def _seat_rngs(seed: int) -> list[random.Random]:
    return [random.Random(f"trixcomplex:{seed}:seat:{s}") for s in range(4)]
