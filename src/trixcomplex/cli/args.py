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


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}")
    return value


def _seat(text: str) -> int:
    if text not in ("0", "1", "2", "3"):
        raise argparse.ArgumentTypeError(f"a seat is 0, 1, 2 or 3, not {text!r}")
    return int(text)


def _seat_rngs(seed: int) -> list[random.Random]:
    return [random.Random(f"trixcomplex:{seed}:seat:{s}") for s in range(4)]
