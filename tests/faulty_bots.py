"""Bots that fail on purpose, importable by worker and isolated-bot processes (tests only)."""

from __future__ import annotations

import contextlib
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


# -- attackers (tests/test_security_bots.py) ------------------------------------------
#
# Each plays like RuleBot; when its attack succeeds it answers an illegal move, so that a
# success shows as a forfeit of its side (and a host killed shows as no result at all).


def _betray(view: tc.View) -> tc.PlayerMove:
    """An illegal move: the attacker's way of saying "it worked"."""
    assert view.seat is not None
    return tc.Pass((view.seat + 1) % 4)


def _targets() -> list[int]:
    """Its parent (the host, as far as it knows) and its siblings (the other bots of a
    host), never anything else on the machine: the processes it may attack."""
    parent = os.getppid()
    found = [parent] if parent > 0 else []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as file:
                stat = file.read()
        except OSError:
            continue
        if int(stat[stat.rindex(b")") + 2 :].split()[1]) == parent:
            found.append(int(name))
    return found


class Killer:
    """Kills its host and the other bots (its parent and siblings) with SIGKILL."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        for pid in _targets():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        return RuleBot().choose(view, legal, rng)


class MemReader:
    """Reads its host's memory through /proc/<ppid>/mem (and its siblings')."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        for pid in _targets():
            try:
                with open(f"/proc/{pid}/maps") as maps:
                    start = int(maps.readline().split("-")[0], 16)
                with open(f"/proc/{pid}/mem", "rb") as mem:
                    mem.seek(start)
                    if mem.read(16):
                        return _betray(view)
            except (OSError, ValueError):
                pass
        return RuleBot().choose(view, legal, rng)


class Writer:
    """Writes a file outside its private /tmp (the test's directory, from PROBE_DIR)."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        for where in (os.environ.get("PROBE_DIR", ""), str(Path(__file__).parent)):
            try:
                Path(where, "written-by-bot").write_text("x")
                return _betray(view)
            except OSError:
                pass
        return RuleBot().choose(view, legal, rng)


class Networker:
    """Opens a socket to the loopback address the test listens on (PROBE_PORT)."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        import socket

        try:
            socket.create_connection(("127.0.0.1", int(os.environ["PROBE_PORT"])), 2).close()
            return _betray(view)
        except (OSError, KeyError, ValueError):
            return RuleBot().choose(view, legal, rng)


def _spin(seconds: float) -> None:
    """Burn ``seconds`` of this process's CPU time."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


class LateChooser:
    """Chooses its contract late in the first two Kingdoms (spends 3 CPU seconds, then
    answers): the host plays the rules' Timeout; every later answer is on time and must
    be read as its own."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if any(isinstance(m, tc.Choose) for m in legal) and view.deal_number <= 4:
            _spin(3.0)
        return RuleBot().choose(view, legal, rng)


class PartialLine:
    """In deal 2, at its first card, writes ``{"answer": `` with no newline to every
    descriptor it has, then spins forever."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if view.deal_number == 2 and any(isinstance(m, tc.Play) for m in legal):
            for fd in range(1, 64):
                with contextlib.suppress(OSError):
                    os.write(fd, b'{"answer": ')
            while True:
                pass
        return RuleBot().choose(view, legal, rng)


class Spin:
    """Never answers in deal 2: spins on the CPU."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if view.deal_number == 2:
            while True:
                pass
        return legal[0]


class Raises:
    """Raises RuntimeError at its first decision in deal 2."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if view.deal_number == 2:
            raise RuntimeError("bot bug")
        return RuleBot().choose(view, legal, rng)


class Exits:
    """Calls sys.exit at its first decision in deal 2."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if view.deal_number == 2:
            raise SystemExit(4)
        return RuleBot().choose(view, legal, rng)


class HardExit:
    """Calls os._exit at its first decision in deal 2 (ends its whole process)."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if view.deal_number == 2:
            os._exit(5)
        return RuleBot().choose(view, legal, rng)


def hands_of(deal: tc.Deal) -> list[frozenset[tc.Card]]:
    """The four hands a deck gives, through the engine (a deal's first state)."""
    state = tc.apply(tc.new_match(), deal)
    return [frozenset(tc.view(state, s).hand) for s in range(4)]


def guessed_deck(hand: frozenset[tc.Card], seeds: Sequence[int]) -> tc.Deal | None:
    """The deck of deal 1, found by matching ``hand`` against the first deck of every
    seed in ``seeds`` (as the tournament derives it); ``None`` if no seed fits."""
    from trixcomplex.host.tournament import match_generators

    for seed in seeds:
        deck = tc.Deal.shuffled(match_generators(seed, 0)[0])
        if hand in hands_of(deck):
            return deck
    return None
