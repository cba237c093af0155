"""Bots that attack the sandbox itself (issue 38, tests/test_sandbox_attacks.py).

Each plays like RuleBot; when its attack succeeds it answers an illegal move, so that a
success shows as a forfeit of its side.  The module imports nothing of the tests (it
is bound alone into the sandbox, as a stranger's single-file bot is).
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import trixcomplex as tc
from trixcomplex.bots import RuleBot


def _betray(view: tc.View) -> tc.PlayerMove:
    """An illegal move: the attacker's way of saying "it worked"."""
    assert view.seat is not None
    return tc.Pass((view.seat + 1) % 4)


def _rule(view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random) -> tc.PlayerMove:
    return RuleBot().choose(view, legal, rng)


_SEATS: set[int] = set()


class PartnerSpy:
    """Remembers every seat it is asked for: one process asked for two seats (its own and
    its partner's) has seen its partner's whole hand."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        assert view.seat is not None
        _SEATS.add(view.seat)
        return _betray(view) if len(_SEATS) > 1 else _rule(view, legal, rng)


_CHILDREN: list[int] = []


class Forker:
    """At its first decision forks sleeping children until the kernel refuses one,
    and keeps them: with one process pool for every bot, the other bots can no longer
    start a process or a thread."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if not _CHILDREN:
            for _ in range(4096):
                try:
                    pid = os.fork()
                except OSError:
                    break
                if pid == 0:
                    signal.pause()
                    os._exit(0)
                _CHILDREN.append(pid)
        return _rule(view, legal, rng)


class ThreadStarter:
    """An honest bot that starts a thread for every decision (raising, and so
    forfeiting, if it cannot)."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        box: list[tc.PlayerMove] = []
        thread = threading.Thread(target=lambda: box.append(_rule(view, legal, rng)))
        thread.start()
        thread.join()
        return box[0]


class Privileged:
    """Betrays if anything of its own ran before the drop to an unprivileged user (a
    ``sitecustomize`` or ``usercustomize`` beside it or under its HOME), or if it still
    holds root or a capability."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if "sitecustomize" in sys.modules and hasattr(sys.modules["sitecustomize"], "PLANTED"):
            return _betray(view)
        if "usercustomize" in sys.modules:
            return _betray(view)
        status = Path("/proc/self/status").read_text()
        caps = [line for line in status.splitlines() if line.startswith("CapEff:")]
        if os.getuid() == 0 or os.geteuid() == 0 or int(caps[0].split()[1], 16) != 0:
            return _betray(view)
        if any(k.startswith("PYTHON") for k in os.environ):
            return _betray(view)
        return _rule(view, legal, rng)


class UserSitePlanter:
    """Plants ``usercustomize.py`` where the next bot's interpreter would run it: its
    HOME's user site, and the user site of HOME=/tmp."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
        for home in {os.environ.get("HOME", "/tmp"), "/tmp"}:
            site = Path(home, ".local", "lib", version, "site-packages")
            with contextlib.suppress(OSError):
                site.mkdir(parents=True, exist_ok=True)
                (site / "usercustomize.py").write_text("PLANTED = True\n")
                os.chmod(site / "usercustomize.py", 0o666)
        return _rule(view, legal, rng)


class TmpFiller:
    """Needs a writable /tmp (betrays if it cannot write a file there), then tries to
    write twice ``TMP_BYTES`` into it (betrays if it managed)."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        path = Path(os.environ.get("TMPDIR", "/tmp"), "mine")
        try:
            path.write_text("scratch")
            if path.read_text() != "scratch":
                return _betray(view)
        except OSError:
            return _betray(view)
        limit = int(os.environ.get("TMP_BYTES", str(64 << 20)))
        written = 0
        block = b"x" * (1 << 20)
        with contextlib.suppress(OSError), open(path.with_name("big"), "wb") as file:
            while written <= 2 * limit:
                file.write(block)
                file.flush()
                written += len(block)
        with contextlib.suppress(OSError):
            path.with_name("big").unlink()
        return _betray(view) if written > 2 * limit else _rule(view, legal, rng)


class Remembers:
    """Leaves a note in /tmp (and $TMPDIR, $HOME) in its first match; betrays if it finds
    the note in a later one (a bot that knew its opponents' hands in the second match
    of a pair, with the same shuffles)."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        places = {"/tmp", os.environ.get("TMPDIR", "/tmp"), os.environ.get("HOME", "/tmp")}
        notes = [Path(p, f"note-{os.environ.get('NOTE_NAME', 'x')}") for p in places]
        if any(n.exists() and n.read_text() != str(os.getpid()) for n in notes):
            return _betray(view)
        for note in notes:
            with contextlib.suppress(OSError):
                note.write_text(str(os.getpid()))
                os.chmod(note, 0o666)
        return _rule(view, legal, rng)


def _cpu_of(pid: int) -> float:
    stat = Path(f"/proc/{pid}/stat").read_bytes()
    fields = stat[stat.rindex(b")") + 2 :].split()
    return sum(int(f) for f in fields[11:13]) / os.sysconf("SC_CLK_TCK")


class HiddenWorker:
    """At its first card of deal 2, does its thinking (3 CPU seconds) in a child process
    it never reaps, waiting asleep for it: the bot's own CPU time stays near zero."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if view.deal_number == 2 and any(isinstance(m, tc.Play) for m in legal):
            pid = os.fork()
            if pid == 0:
                end = time.process_time() + 3.0
                while time.process_time() < end:
                    pass
                os._exit(0)
            while Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0] != b"Z":
                time.sleep(0.05)
        return _rule(view, legal, rng)


class StaleFlood:
    """At its first card of deal 2, writes 200,000 lines answering question 0, then its
    answer: the host must not spend its own CPU parsing them, nor take the answer."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if view.deal_number == 2 and any(isinstance(m, tc.Play) for m in legal):
            line = b'{"id": 0, "answer": {"type": "pass", "seat": 0}}\n'
            for fd in range(3, 16):  # the answers' descriptor, wherever it is
                with contextlib.suppress(OSError):
                    os.write(fd, line * 200_000)
        return _rule(view, legal, rng)


class DeepAnswer:
    """At its first card of deal 2, writes a line of 300,000 ``[`` to every descriptor."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if view.deal_number == 2 and any(isinstance(m, tc.Play) for m in legal):
            for fd in range(1, 16):
                with contextlib.suppress(OSError):
                    os.write(fd, b"[" * 300_000 + b"\n")
            time.sleep(600)
        return _rule(view, legal, rng)


class SessionLeaver:
    """Starts a grandchild in a session of its own (``setsid``) that outlives it, and
    writes the grandchild's process id to ``PROBE_FILE``."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        probe = Path(os.environ["PROBE_FILE"])
        if not probe.exists():
            probe.write_text("")
            try:
                pid = os.fork()
            except OSError:
                probe.write_text("no fork")
                return _rule(view, legal, rng)
            if pid == 0:
                os.setsid()
                if os.fork() == 0:
                    with open(probe, "w") as file:
                        file.write(str(os.getpid()))
                    while True:
                        time.sleep(1)
                os._exit(0)
            os.waitpid(pid, 0)
        return _rule(view, legal, rng)


class SeedReader:
    """Reads every command line it can see (its host's among them) looking for a seed."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            with contextlib.suppress(OSError):
                words = Path(f"/proc/{name}/cmdline").read_bytes().split(b"\0")
                environ = Path(f"/proc/{name}/environ").read_bytes()
                if any(w.startswith(b"--seed") and not w.startswith(b"--seed-file")
                       for w in words) or b"SEED" in environ:  # fmt: skip
                    return _betray(view)
        return _rule(view, legal, rng)


class StateFinder:
    """Searches its callers' frames for the match's whole state (every hand): betrays
    if it finds one."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        import inspect

        for frame in inspect.stack():
            if any(isinstance(v, tc.MatchState) for v in frame.frame.f_locals.values()):
                return _betray(view)
        return _rule(view, legal, rng)


class MemoryHog:
    """At its first decision starts three children that each fill ``HOG_BYTES`` of memory
    and wait: betrays if all three still live, holding three times that together."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if not _CHILDREN:
            size = int(os.environ.get("HOG_BYTES", str(64 << 20)))
            for _ in range(3):
                pid = os.fork()
                if pid == 0:
                    hoard = bytearray(size)
                    for k in range(0, size, 4096):
                        hoard[k] = 1
                    signal.pause()
                    os._exit(0)
                _CHILDREN.append(pid)
            time.sleep(1.0)  # time to fill (the children, not this process, spend it)
            alive = 0
            for pid in _CHILDREN:
                state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
                alive += state not in (b"Z", b"X")
            if alive == 3:
                return _betray(view)
        return _rule(view, legal, rng)
