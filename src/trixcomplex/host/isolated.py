"""Isolated bots: each bot in a process of its own, given only its view's JSON.

A bot running in the host's process could reach the whole
:class:`~trixcomplex.MatchState` through frame inspection, so secrecy there
rests on the bot's manners.  :class:`IsolatedBot` runs the bot in a child
process (``python -I -B -m trixcomplex.host.isolated SPEC``, in the sandbox of
:mod:`~trixcomplex.host.sandbox`) and sends it, for each decision, only
``to_json(view)``, the legal moves in the record format and a seed for its
``random.Random``; the child answers one move.  What the child can see is
exactly the view: this is the mode for third-party bots in competitions.
One process per seat (a bot given as a whole side is copied for its second
seat) and per match (closed when its match ends): a bot's state never
outlives its match, nor reaches its partner's hand.

A bot that crashes (its process ends), hangs (no answer within
``time_limit`` seconds, or over ``cpu_limit`` seconds of CPU summed over
every process it started), or answers something that is not a legal move
raises :class:`~trixcomplex.bots.BotError` in the host;
:func:`~trixcomplex.host.tournament.simulate` then forfeits that match, not the
tournament (``simulate(..., isolated=True)``).  So does a bot that writes a line
that is not an answer, a line longer than :data:`MAX_LINE`, or more than
:data:`MAX_STALE` answers to questions already closed: reading them is charged
to the bot, never to the host.

``SPEC`` is a bot name (``random``, ``rule``, ``mc:N``) or ``module:name``, a
callable of a module found, without importing it in the host, in the
organizer's Python, the current directory (as ``python -m`` finds it) or
``sys.path``; only that module's file (or its package's directory) is bound
into the sandbox, read-only.

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
import importlib.machinery
import json
import os
import random
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import Any

from attrs import define, evolve, field

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
    MemoryCgroup,
    SandboxUnavailable,
    _root_mode,
    bot_command,
    bot_preexec,
    bot_uid,
    check_unsandboxed,
    isolated_sys_path,
    make_host_undumpable,
    unavailable_reason,
)

__all__ = ["BotNotFound", "IsolatedBot", "load_bot", "locate_bot", "wall_backstop"]

MAX_LINE = 64 << 10
"""Longest line a bot may write, in bytes (a longer one is a fault)."""

MAX_STALE = 8
"""Answers to closed questions a bot process may write before it forfeits."""

MODES = {"sandbox": "sandbox", "strict": "sandbox", "auto": "sandbox",
         "unsandboxed": "unsandboxed", "off": "unsandboxed"}  # fmt: skip
"""The ``sandbox`` values of :class:`IsolatedBot`: ``"sandbox"`` (also ``"strict"`` and
``"auto"``, their older names) and ``"unsandboxed"`` (also ``"off"``)."""

INSIDE = "/bot"
"""Where a bot's own file or package is bound in the sandbox (first on its ``sys.path``)."""


class BotNotFound(ImportError, ValueError):
    """A ``module:name`` bot whose module is nowhere to be found (its message says where
    it was looked for and what to do)."""


def _top(spec: str) -> str | None:
    """The top-level module of a ``module:name`` spec (``None`` for a built-in bot name)."""
    from ..bots import BOT_KINDS

    module, colon, _ = spec.partition(":")
    if not colon or module.strip().lower() in BOT_KINDS:
        return None
    return module.split(".")[0]


def _not_found(top: str) -> BotNotFound:
    here = os.getcwd()
    return BotNotFound(
        f"no module {top!r} in the current directory ({here}) nor on Python's path: run "
        f"from the directory holding {top}.py (or the package {top}/), or add that "
        f"directory to PYTHONPATH",
        name=top,
    )


def locate_bot(spec: str) -> str | None:
    """The file or package directory of a ``module:name`` bot, found without running it
    (``None`` for a built-in name or a module of the organizer's Python itself).

    Looked for as ``python -m`` would find it: the current directory first, then
    ``sys.path``.  :class:`BotNotFound` if it is nowhere.

    >>> locate_bot("rule") is None and locate_bot("trixcomplex.bots:RuleBot") is None
    True
    """
    top = _top(spec)
    if top is None:
        return None
    if importlib.machinery.PathFinder.find_spec(top, list(isolated_sys_path())) is not None:
        return None  # installed in the organizer's Python: the sandbox has it already
    found = importlib.machinery.PathFinder.find_spec(top, [os.getcwd(), *sys.path])
    if found is None:
        raise _not_found(top)
    if found.origin is None:  # a namespace package: its first directory
        locations = list(found.submodule_search_locations or [])
        if not locations:
            raise _not_found(top)
        return os.path.abspath(locations[0])
    origin = os.path.abspath(found.origin)
    if found.submodule_search_locations is not None:
        return os.path.dirname(origin)  # a package: its directory
    return origin


def load_bot(spec: str) -> Bot:
    """The bot named ``spec``: a bot name of :func:`~trixcomplex.bots.bot_named`
    (``rule:1`` and ``mc:8`` included), or ``module:name`` (a callable returning the bot)
    imported in this process (the current directory searched as ``python -m`` does)."""
    from ..bots import bot_named

    top = _top(spec)
    if top is None:
        return bot_named(spec)
    module, _, name = spec.partition(":")
    try:
        loaded = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        here = os.getcwd()
        if exc.name != top or here in sys.path:
            raise
        if importlib.machinery.PathFinder.find_spec(top, [here]) is None:
            raise _not_found(top) from None
        sys.path.insert(0, here)  # as ``python -m`` puts the current directory first
        loaded = importlib.import_module(module)
    made: Bot = getattr(loaded, name)()
    return made


def wall_backstop(cpu_limit: float) -> float:
    """The wall-clock seconds after which a bot held to ``cpu_limit`` CPU seconds is
    stopped anyway (it may be asleep, spending none): ten times the limit, at least 60 s.

    >>> wall_backstop(0.5), wall_backstop(30)
    (60.0, 300.0)
    """
    return max(60.0, 10.0 * cpu_limit)


def _stat_cpu(pid: int) -> float | None:
    """CPU seconds of process ``pid`` and of its children it reaped, from ``/proc``."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            stat = file.read()
    except OSError:
        return None
    fields = stat[stat.rindex(b")") + 2 :].split()
    ticks = sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def _namespace_cpu(init: int) -> float | None:
    """The CPU seconds of every process of the PID namespace whose first process is
    ``init`` (each with the children it reaped: a child never reaped is a process
    of the namespace still, a zombie, and counted), from ``/proc``; ``None`` if gone."""
    try:
        ns = os.readlink(f"/proc/{init}/ns/pid")
    except OSError:
        return None
    total = 0.0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            if os.readlink(f"/proc/{name}/ns/pid") != ns:
                continue
        except OSError:
            continue
        total += _stat_cpu(int(name)) or 0.0
    return total


@define(eq=False)
class IsolatedBot:
    """A :class:`~trixcomplex.bots.Bot` whose decisions are made in a sandboxed child process.

    - ``spec``: the bot to run (see :func:`load_bot`, :func:`locate_bot`).
    - ``time_limit``: wall-clock seconds per decision (``None``: none).
    - ``cpu_limit``: CPU seconds per decision, of every process the bot has
      (its PID namespace's total, measured by the host from ``/proc``;
      ``None``: none); a loaded machine slows the bot's clock down with it,
      so an honest bot never runs out.  With only ``cpu_limit``, a decision
      still ends after :func:`wall_backstop` wall-clock seconds (a bot asleep
      spends no CPU).
    - ``sandbox``: ``"sandbox"`` (bubblewrap, or
      :class:`~trixcomplex.host.sandbox.SandboxUnavailable` naming the package
      where it cannot run; ``"strict"`` and ``"auto"`` are older names of it)
      or ``"unsandboxed"`` (``"off"``): the weaker mode, for your own bots only
      (see :mod:`~trixcomplex.host.sandbox`).
    - ``limits``: the bot's limits (:class:`~trixcomplex.host.sandbox.Limits`).
    - ``env``: names of environment variables handed on to the bot (it gets
      no other but ``HOME``, ``TMPDIR`` and ``PATH``).

    Every question carries an id and the answer must repeat it: an answer
    to an older question is discarded (:data:`MAX_STALE` of them, then the
    bot forfeits), never read as the next answer.  Reads never block: a
    partial line waits in a buffer until its newline, or the limit.  An
    answer that arrives after the limit is not taken.  A bot over its limit
    raises :class:`~trixcomplex.bots.BotTimeout` and its process is stopped
    (the next question starts a new one).  This bot keeps its own time
    (``keeps_time``): the host sets no timer of its own around it.
    """

    spec: str
    time_limit: float | None = 10.0
    cpu_limit: float | None = None
    sandbox: str = "sandbox"
    limits: Limits = field(factory=Limits)
    env: tuple[str, ...] = ()
    keeps_time: bool = field(default=True, init=False)
    _source: str | None = field(default=None, init=False, repr=False)
    _proc: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)
    _pid: int = field(default=0, init=False, repr=False)
    _boxed: bool = field(default=False, init=False, repr=False)
    _home: str | None = field(default=None, init=False, repr=False)
    _cgroup: MemoryCgroup | None = field(default=None, init=False, repr=False)
    _buffer: bytearray = field(factory=bytearray, init=False, repr=False)
    _asked: int = field(default=0, init=False, repr=False)
    _stale: int = field(default=0, init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.sandbox not in MODES:
            raise ValueError(f"sandbox must be 'sandbox' or 'unsandboxed', not {self.sandbox!r}")
        self.sandbox = MODES[self.sandbox]
        for name in ("time_limit", "cpu_limit"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise ValueError(f"{name} must be a positive number of seconds, not {value!r}")
        self._source = locate_bot(self.spec)

    def __getstate__(self) -> dict[str, Any]:
        kept = ("spec", "time_limit", "cpu_limit", "sandbox", "limits", "env")
        return {k: getattr(self, k) for k in kept}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state)  # type: ignore[misc]

    def for_another_seat(self) -> IsolatedBot:
        """A bot of the same settings with a process of its own, for a second seat (a
        side given as one bot: its partner must not share its process)."""
        return evolve(self)

    @property
    def sandboxed(self) -> bool:
        """Whether this bot's process runs in bubblewrap; raises
        :class:`~trixcomplex.host.sandbox.SandboxUnavailable` when it should and cannot."""
        if self.sandbox == "unsandboxed":
            return False
        why = unavailable_reason()
        if why is not None:
            raise SandboxUnavailable(
                f"isolated bots need bubblewrap (Debian package 'bubblewrap', command bwrap): "
                f"{why}; for your own bots only, isolated='unsandboxed' runs without it"
            )
        return True

    def check_sandbox(self) -> bool:
        """Whether the bot will run sandboxed; raises
        :class:`~trixcomplex.host.sandbox.SandboxUnavailable` if it cannot run at all (no
        bubblewrap; or, in the weaker mode, no way to make it unprivileged).
        :func:`~trixcomplex.host.tournament.simulate` asks before the first match."""
        boxed = self.sandboxed
        if not boxed:
            check_unsandboxed()
        return boxed

    def _start(self) -> subprocess.Popen[bytes]:
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        self.close()
        boxed = self.check_sandbox()
        if not boxed:
            make_host_undumpable()
        uid = bot_uid()
        argv = [sys.executable, "-I", "-B", "-m", "trixcomplex.host.isolated", self.spec]
        binds: list[tuple[str, str]] = []
        if self._source is not None:
            name = os.path.basename(self._source)
            binds.append((self._source, f"{INSIDE}/{name}"))
            argv.append(INSIDE if boxed else os.path.dirname(self._source))
        handed = {k: os.environ[k] for k in self.env if k in os.environ}
        if boxed:
            env = {"HOME": "/tmp", "TMPDIR": "/tmp", "PATH": "/usr/bin:/bin", **handed}
        else:
            self._home = tempfile.mkdtemp(prefix="trixcomplex-bot-")
            if _root_mode():
                os.chown(self._home, uid, uid)
            env = {"HOME": self._home, "TMPDIR": self._home, "PATH": "/usr/bin:/bin", **handed}
        self._cgroup = MemoryCgroup.create(f"trixcomplex-bot-{uid}", self.limits.memory)
        pass_fds: tuple[int, ...] = ()
        info_r = info_w = -1
        command = bot_command(argv, use_bwrap=boxed, limits=self.limits, uid=uid, binds=binds,
                              env=env)  # fmt: skip
        if boxed:
            info_r, info_w = os.pipe()
            pass_fds = (info_w,)
            command = [command[0], "--info-fd", str(info_w), *command[1:]]
        self._proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env={"PATH": "/usr/bin:/bin"} if boxed else env, pass_fds=pass_fds,
            preexec_fn=bot_preexec(self.limits, None if boxed else 1, self._cgroup),
            start_new_session=True,
        )  # fmt: skip
        self._pid = self._proc.pid
        self._boxed = boxed
        if boxed:
            os.close(info_w)
            self._pid = self._child_pid(info_r)
        assert self._proc.stdout is not None
        os.set_blocking(self._proc.stdout.fileno(), False)
        self._buffer.clear()
        self._stale = 0
        return self._proc

    def _child_pid(self, fd: int) -> int:
        """The bot's own process (outside its namespace), from bubblewrap's info pipe: the
        first process of its PID namespace (``--as-pid-1``: no process of bubblewrap's
        beside it), so killing it ends every process of the namespace."""
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

    def _cpu(self) -> float | None:
        """The CPU seconds the bot has spent so far, all its processes counted."""
        return _namespace_cpu(self._pid) if self._boxed else _stat_cpu(self._pid)

    def _fail(self, message: str, rule: str = "R-SEAT-1") -> BotError:
        self.close()
        return BotError(None, f"isolated bot {self.spec!r} {message}", rule)

    @staticmethod
    def _in_time(started: float, now: float, wall: float | None) -> bool:
        """Whether ``now`` is still within the question's ``wall`` seconds from ``started``."""
        return wall is None or now - started <= wall

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
        cpu_start = self._cpu() if self.cpu_limit is not None else None
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                if not self._in_time(start, time.monotonic(), wall):
                    raise self._timeout(f"gave no answer within {wall:g}s")
                self._check_cpu(cpu_start)  # before any answer is taken: a late one is not
                answer = self._answer(ident)
                if answer is not None:
                    return answer[0]
                left = None if wall is None else max(0.0, wall - (time.monotonic() - start))
                poll = left if self.cpu_limit is None else min(left or 0.25, 0.25)
                if sel.select(poll):
                    try:
                        chunk = os.read(fd, MAX_LINE)
                    except BlockingIOError:
                        continue
                    if not chunk:
                        raise self._fail("crashed (its process ended)")
                    self._buffer += chunk

    def _check_cpu(self, cpu_start: float | None) -> None:
        if cpu_start is None or self.cpu_limit is None:
            return
        used = self._cpu()
        if used is not None and used - cpu_start > self.cpu_limit:
            raise self._timeout(f"used over {self.cpu_limit:g}s of CPU time")

    def _timeout(self, what: str) -> BotTimeout:
        self.close()
        return BotTimeout(None, f"isolated bot {self.spec!r} {what}", "R-MATCH-6")

    def _answer(self, ident: int) -> tuple[Any] | None:
        """The answer to question ``ident`` if a whole line holding it has arrived.

        Every line is charged to the bot: one longer than :data:`MAX_LINE`, one
        that is not an answer (any parse failure), or more than :data:`MAX_STALE`
        answers to older questions is a :class:`~trixcomplex.bots.BotError`.
        """
        while True:
            end = self._buffer.find(b"\n", 0, MAX_LINE + 1)
            if end < 0:
                if len(self._buffer) > MAX_LINE:
                    raise self._fail(f"wrote a line over {MAX_LINE} bytes")
                return None
            line = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            try:
                message = json.loads(line)
                said = message["id"]
                if type(said) is not int:
                    raise TypeError("id")
            except Exception:  # every parse failure is the bot's
                raise self._fail(f"answered {line[:60]!r}") from None
            if said != ident:
                self._stale += 1  # an answer to a question already closed
                if self._stale > MAX_STALE:
                    raise self._fail(f"wrote over {MAX_STALE} stale answers (to closed questions)")
                continue
            if "error" in message:
                raise self._fail(f"raised {str(message['error'])[:200]}")
            if "answer" not in message:
                raise self._fail(f"answered {line[:60]!r}")
            return (message["answer"],)

    def _move(self, answer: Any) -> PlayerMove:
        """The player move an answer names; a :class:`~trixcomplex.bots.BotError` if none."""
        try:
            move = move_from_json(answer)
        except Exception as exc:  # every parse failure is the bot's
            text = f"{type(exc).__name__}: {str(exc)[:200]}"
            raise BotError(None, f"isolated bot {self.spec!r}: {text}", "R-SEAT-1") from None
        if isinstance(move, Choose | Double | Play | Pass | Redeal):
            return move
        raise BotError(move, f"isolated bot {self.spec!r}: not a player move", "R-SEAT-1")

    def choose(self, view: View, legal: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """The child's move, from the view's JSON only."""
        return self._move(self._call({
            "ask": "choose", "view": to_json(view),
            "legal": [move_to_json(m) for m in legal], "seed": rng.getrandbits(64),
        }))  # fmt: skip

    def wants_redeal(self, view: View, rng: random.Random) -> bool:
        """The child's answer to a redeal offered out of turn (R-OPT-8)."""
        seed = rng.getrandbits(64)
        return self._call({"ask": "redeal", "view": to_json(view), "seed": seed}) is True

    def close(self) -> None:
        """Stop the child process and every process it started (a new one starts at the
        next decision), and remove its private HOME (the weaker mode) and its memory
        cgroup."""
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
        home, self._home = self._home, None
        if home is not None:
            shutil.rmtree(home, ignore_errors=True)
        cgroup, self._cgroup = self._cgroup, None
        if cgroup is not None:
            cgroup.remove()

    def _kill_bot(self, proc: subprocess.Popen[bytes]) -> None:
        """Kill the bot and whatever it started, not only the process we launched.

        In the sandbox ``self._pid`` is the bot, the first process of its PID
        namespace: killing it ends every process of the namespace (and it dies
        with bubblewrap, which dies with the host: ``setpriv --pdeathsig`` re-arms
        the parent-death signal its change of user cleared).  In the
        weaker mode the bot cannot start a process, so its own is all.
        """
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if self._pid != proc.pid:
                os.kill(self._pid, signal.SIGKILL)
        proc.kill()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # the interpreter may be shutting down
            self.close()


def _serve(spec: str, paths: Sequence[str]) -> int:
    """The child's loop: one JSON request a line in, one answer a line out.

    The answers go to a private copy of standard output; the bot's own
    ``print`` goes to standard error (discarded).  ``paths`` (the directory
    the bot's own file or package is in) go first on ``sys.path``, after the
    interpreter has started: nothing there runs at start-up.
    """
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    sys.path[:0] = list(paths)
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
