"""Bots that fail on purpose, importable by worker and isolated-bot processes (tests only)."""

from __future__ import annotations

import os
import random
import signal
import time
from collections.abc import Sequence
from pathlib import Path

from attrs import frozen

import trixcomplex as tc
from trixcomplex.bots import RuleBot


def _first_time(marker: str) -> bool:
    """True the first time it is called for ``marker`` (a file), across processes."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return False
    os.close(fd)
    return True


@frozen
class KillOnce:
    """Plays like RuleBot, but the first time it is asked in match ``match`` (the
    decision after ``after`` of its own) kills its own process, as a crashed worker."""

    marker: str
    after: int = 5

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if view.deal_number == 2 and _first_time(self.marker):
            os.kill(os.getpid(), signal.SIGKILL)
        return RuleBot().choose(view, legal, rng)


@frozen
class HangOnce:
    """Plays like RuleBot, but the first time (in deal 2) hangs its process with
    SIGALRM blocked, as a worker stuck where no per-decision alarm can reach it."""

    marker: str

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if view.deal_number == 2 and _first_time(self.marker):
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            time.sleep(600)
        return RuleBot().choose(view, legal, rng)


@frozen
class Slow:
    """Plays like RuleBot but takes ``seconds`` over each decision in deal ``deal``."""

    seconds: float
    deal: int = 1

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if view.deal_number == self.deal:
            time.sleep(self.seconds)
        return RuleBot().choose(view, legal, rng)


class Crash:
    """Its process dies at its first decision in deal 2."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if view.deal_number == 2:
            os._exit(3)
        return legal[0]


class Hang:
    """Never answers in deal 2."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if view.deal_number == 2:
            time.sleep(600)
        return legal[0]


class Cheat:
    """Answers a move for the seat after its own in deal 2 (never legal for it)."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if view.deal_number == 2 and view.seat is not None:
            return tc.Pass((view.seat + 1) % 4)
        return legal[0]


class Snoop:
    """Records what it can find of the host: the view's type and any MatchState in its
    callers' frames, into ``SNOOP_FILE``; then plays its first legal move."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        import inspect

        found = []
        for frame in inspect.stack():
            for value in frame.frame.f_locals.values():
                if isinstance(value, tc.MatchState):
                    found.append(frame.function)
        path = Path(os.environ["SNOOP_FILE"])
        with path.open("a") as file:
            file.write(f"{type(view).__name__} {len(found)}\n")
        return legal[0]
