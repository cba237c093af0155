"""Isolated bots: each bot in a process of its own, given only its view's JSON.

A bot running in the host's process could reach the whole
:class:`~trixcomplex.MatchState` through frame inspection, so secrecy there
rests on the bot's manners.  :class:`IsolatedBot` runs the bot in a child
process (``python -m trixcomplex.host.isolated SPEC``) and sends it, for each
decision, only ``to_json(view)``, the legal moves in the record format and
a seed for its ``random.Random``; the child answers one move.  What the
child can see is exactly the view: this is the mode for third-party bots
in competitions.

A bot that crashes (its process ends), hangs (no answer within
``time_limit`` seconds: the process is killed) or answers something that
is not a legal move raises :class:`~trixcomplex.bots.BotError` in the host;
:func:`~trixcomplex.host.tournament.simulate` then forfeits that match, not the
tournament (``simulate(..., isolated=True)``).

``SPEC`` is a bot name (``random``, ``rule``, ``mc:N``) or ``module:name``,
a callable in an importable module returning the bot.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
>>> bot = IsolatedBot("rule")
>>> legal = tc.legal_moves(state, state.owner)
>>> move = bot.choose(tc.view(state, state.owner), legal, random.Random(0))
>>> move in legal
True
>>> bot.close()
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import random
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

from attrs import define, field

from ..bots.base import Bot, BotError, BotTimeout
from ..core.moves import (
    Choose,
    Double,
    Pass,
    Play,
    PlayerMove,
    Redeal,
    move_from_json,
    move_to_json,
)
from ..io.serialize import from_json, to_json
from ..knowledge.views import View
from .sandbox import (
    Limits,
    SandboxUnavailable,
    bot_command,
    bot_preexec,
    drop_privileges,
    python_paths,
    sandbox_available,
)

__all__ = ["IsolatedBot", "load_bot", "wall_backstop"]

MAX_ANSWER = 1 << 20
"""Longest answer line a bot may write, in bytes (a longer one is a fault)."""


def load_bot(spec: str) -> Bot:
    """The bot named ``spec``: a bot name of :func:`~trixcomplex.bots.bot_named`
    (``rule:1`` and ``mc:8`` included), or ``module:name`` (a callable returning the bot)."""
    from ..bots import BOT_KINDS, bot_named

    module, colon, name = spec.partition(":")
    if colon and module.strip().lower() not in BOT_KINDS:
        made: Bot = getattr(importlib.import_module(module), name)()
        return made
    return bot_named(spec)


def wall_backstop(cpu_limit: float) -> float:
    """The wall-clock seconds after which a bot held to ``cpu_limit`` CPU seconds is
    stopped anyway (it may be asleep, spending none): ten times the limit, at least 60 s.

    >>> wall_backstop(0.5), wall_backstop(30)
    (60.0, 300.0)
    """
    return max(60.0, 10.0 * cpu_limit)


def _cpu_seconds(pid: int) -> float | None:
    """The CPU time (user + system, its reaped children's included) of process ``pid``,
    read by the host from ``/proc/<pid>/stat``; ``None`` if it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            stat = file.read()
    except OSError:
        return None
    fields = stat[stat.rindex(b")") + 2 :].split()
    ticks = sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


@define(eq=False)
class IsolatedBot:
    """A :class:`~trixcomplex.bots.Bot` whose decisions are made in a sandboxed child process.

    - ``spec``: the bot to run (see :func:`load_bot`).
    - ``time_limit``: wall-clock seconds per decision (``None``: none).
    - ``cpu_limit``: seconds of the bot process's own CPU time per decision,
      measured by the host from ``/proc`` (``None``: none); a loaded
      machine slows the bot's clock down with it, so an honest bot never
      runs out.  With only ``cpu_limit``, a decision still ends after
      :func:`wall_backstop` wall-clock seconds (a bot asleep spends no CPU).
    - ``sandbox``: ``"auto"`` (bubblewrap where it runs, else the fallback
      with a :class:`~trixcomplex.host.sandbox.SandboxWarning`), ``"strict"``
      (bubblewrap or :class:`~trixcomplex.host.sandbox.SandboxUnavailable`) or
      ``"off"`` (no sandbox: the fallback's limits only).
    - ``limits``: the process's rlimits (:class:`~trixcomplex.host.sandbox.Limits`).
    - ``env``: names of environment variables handed on to the bot (it gets
      no other but ``PYTHONPATH``, ``HOME`` and ``PATH``).

    Every question carries an id and the answer must repeat it: an answer
    to an older question is discarded, never read as the next answer.
    Reads never block: a partial line waits in a buffer until its newline,
    or until the limit.  A bot over its limit raises
    :class:`~trixcomplex.bots.BotTimeout` and its process is stopped (the
    next question starts a new one).  This bot keeps its own time
    (``keeps_time``): the host sets no timer of its own around it.
    """

    spec: str
    time_limit: float | None = 10.0
    cpu_limit: float | None = None
    sandbox: str = "auto"
    limits: Limits = field(factory=Limits)
    env: tuple[str, ...] = ()
    keeps_time: bool = field(default=True, init=False)
    _proc: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)
    _pid: int = field(default=0, init=False, repr=False)
    _buffer: bytearray = field(factory=bytearray, init=False, repr=False)
    _asked: int = field(default=0, init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.sandbox not in ("auto", "strict", "off"):
            raise ValueError(f"sandbox must be 'auto', 'strict' or 'off', not {self.sandbox!r}")
        for name in ("time_limit", "cpu_limit"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise ValueError(f"{name} must be a positive number of seconds, not {value!r}")

    def __getstate__(self) -> dict[str, Any]:
        kept = ("spec", "time_limit", "cpu_limit", "sandbox", "limits", "env")
        return {k: getattr(self, k) for k in kept}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state)  # type: ignore[misc]

    @property
    def sandboxed(self) -> bool:
        """Whether this bot's process runs in bubblewrap (raises in ``"strict"`` mode
        when it cannot)."""
        if self.sandbox == "off":
            return False
        if sandbox_available():
            return True
        if self.sandbox == "strict":
            raise SandboxUnavailable(
                "isolated='strict': bubblewrap (Debian package 'bubblewrap', command bwrap) "
                "is not installed or cannot create namespaces here"
            )
        return False

    def _start(self) -> subprocess.Popen[bytes]:
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        self.close()
        boxed = self.sandboxed
        paths = python_paths()
        argv = [sys.executable, "-m", "trixcomplex.host.isolated", self.spec, *paths]
        env = {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p), "HOME": "/tmp",
               "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"}  # fmt: skip
        for key in ("PYTHONHASHSEED", *self.env):
            if key in os.environ:
                env[key] = os.environ[key]
        pass_fds: tuple[int, ...] = ()
        info_r = info_w = -1
        command = bot_command(argv, use_bwrap=boxed)
        if boxed:
            info_r, info_w = os.pipe()
            pass_fds = (info_w,)
            setenv = [a for k, v in env.items() for a in ("--setenv", k, v)]
            at = len(command) - len(argv)
            command = [command[0], "--as-pid-1", "--info-fd", str(info_w),
                       *command[1:at], *setenv, *argv]  # fmt: skip
        self._proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=env, pass_fds=pass_fds, preexec_fn=bot_preexec(self.limits),
            start_new_session=not boxed,
        )  # fmt: skip
        self._pid = self._proc.pid
        if boxed:
            os.close(info_w)
            self._pid = self._child_pid(info_r)
        assert self._proc.stdout is not None
        os.set_blocking(self._proc.stdout.fileno(), False)
        self._buffer.clear()
        return self._proc

    def _child_pid(self, fd: int) -> int:
        """The bot's own process id (outside its namespace), from bubblewrap's info pipe."""
        data = b""
        try:
            with selectors.DefaultSelector() as sel:
                sel.register(fd, selectors.EVENT_READ)
                while sel.select(60):
                    chunk = os.read(fd, 4096)
                    if not chunk:
                        break
                    data += chunk
                    with contextlib.suppress(ValueError):
                        return int(json.loads(data)["child-pid"])
        finally:
            os.close(fd)
        assert self._proc is not None
        return self._proc.pid

    def _fail(self, message: str, rule: str = "R-SEAT-1") -> BotError:
        self.close()
        return BotError(None, f"isolated bot {self.spec!r} {message}", rule)

    def _call(self, request: dict[str, Any]) -> Any:
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        self._asked += 1
        ident = self._asked
        try:
            proc.stdin.write(json.dumps({"id": ident, **request}).encode() + b"\n")
            proc.stdin.flush()
        except OSError:
            raise self._fail("crashed (its process ended)") from None
        wall = self.time_limit
        if wall is None and self.cpu_limit is not None:
            wall = wall_backstop(self.cpu_limit)
        start = time.monotonic()
        cpu_start = _cpu_seconds(self._pid) if self.cpu_limit is not None else None
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                answer = self._answer(ident)
                if answer is not None:
                    self._check_cpu(cpu_start)
                    return answer[0]
                left = None if wall is None else wall - (time.monotonic() - start)
                if left is not None and left <= 0:
                    raise self._timeout(f"gave no answer within {wall:g}s")
                self._check_cpu(cpu_start)
                poll = left if self.cpu_limit is None else min(left or 0.25, 0.25)
                if sel.select(poll):
                    try:
                        chunk = os.read(fd, 65536)
                    except BlockingIOError:
                        continue
                    if not chunk:
                        raise self._fail("crashed (its process ended)")
                    self._buffer += chunk
                    if len(self._buffer) > MAX_ANSWER:
                        raise self._fail(f"wrote over {MAX_ANSWER} bytes without an answer")

    def _check_cpu(self, cpu_start: float | None) -> None:
        if cpu_start is None or self.cpu_limit is None:
            return
        used = _cpu_seconds(self._pid)
        if used is not None and used - cpu_start > self.cpu_limit:
            raise self._timeout(f"used over {self.cpu_limit:g}s of CPU time")

    def _timeout(self, what: str) -> BotTimeout:
        self.close()
        return BotTimeout(None, f"isolated bot {self.spec!r} {what}", "R-MATCH-6")

    def _answer(self, ident: int) -> tuple[Any] | None:
        """The answer to question ``ident`` if a whole line holding it has arrived; lines
        answering older questions are discarded."""
        while (end := self._buffer.find(b"\n")) >= 0:
            line = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            try:
                message = json.loads(line)
                said = message["id"]
            except (ValueError, KeyError, TypeError):
                raise self._fail(f"answered {line[:60]!r}") from None
            if said != ident:
                continue  # a late answer to an earlier question
            if "error" in message:
                raise self._fail(f"raised {str(message['error'])[:200]}")
            if "answer" not in message:
                raise self._fail(f"answered {line[:60]!r}")
            return (message["answer"],)
        return None

    def choose(self, view: View, legal: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """The child's move, from the view's JSON only."""
        answer = self._call({
            "ask": "choose", "view": to_json(view),
            "legal": [move_to_json(m) for m in legal], "seed": rng.getrandbits(64),
        })  # fmt: skip
        try:
            move = move_from_json(answer)
        except (ValueError, TypeError) as exc:
            raise BotError(answer, f"isolated bot {self.spec!r}: {exc}", "R-SEAT-1") from None
        if isinstance(move, Choose | Double | Play | Pass | Redeal):
            return move
        raise BotError(move, f"isolated bot {self.spec!r}: not a player move", "R-SEAT-1")

    def wants_redeal(self, view: View, rng: random.Random) -> bool:
        """The child's answer to a redeal offered out of turn (R-OPT-8)."""
        seed = rng.getrandbits(64)
        return bool(self._call({"ask": "redeal", "view": to_json(view), "seed": seed}))

    def close(self) -> None:
        """Stop the child process (a new one starts at the next decision)."""
        proc, self._proc = self._proc, None
        self._buffer.clear()
        if proc is not None:
            if proc.poll() is None:
                self._kill_bot(proc)
            proc.wait()
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()

    def _kill_bot(self, proc: subprocess.Popen[bytes]) -> None:
        """Kill the bot and whatever it started, not only the process we launched.

        Inside bubblewrap the bot is the first process of its own PID namespace
        (``self._pid``, outside it): killing it ends every process in the
        namespace.  Without bubblewrap the bot leads its own session, so its
        process group goes with it.  Killing bubblewrap alone is not enough:
        the bot drops to ``nobody``, and that change of user clears the
        parent-death signal bubblewrap armed.
        """
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if self._pid != proc.pid:
                os.kill(self._pid, signal.SIGKILL)
            else:
                os.killpg(proc.pid, signal.SIGKILL)
        proc.kill()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # the interpreter may be shutting down
            self.close()


def _serve(spec: str, paths: Sequence[str]) -> int:
    """The child's loop: one JSON request a line in, one answer a line out.

    The answers go to a private copy of standard output; the bot's own
    ``print`` goes to standard error (discarded), so it cannot forge one.
    """
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    why = drop_privileges(paths)
    if why is not None:
        print(f"running as root: {why}", file=sys.stderr)
    bot = load_bot(spec)
    for line in sys.stdin:
        request = json.loads(line)
        reply: dict[str, Any] = {"id": request["id"]}
        try:
            seen = from_json(View, request["view"])
            rng = random.Random(request["seed"])
            if request["ask"] == "redeal":
                wants = getattr(bot, "wants_redeal", None)
                reply["answer"] = bool(wants(seen, rng)) if wants is not None else False
            else:
                legal = [move_from_json(m) for m in request["legal"]]
                reply["answer"] = move_to_json(bot.choose(seen, legal, rng))  # type: ignore[arg-type]
        except (Exception, SystemExit) as exc:  # the bot's fault: it forfeits its match
            reply["error"] = f"{type(exc).__name__}: {exc}"
        out.write(json.dumps(reply) + "\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(_serve(sys.argv[1], sys.argv[2:]))
