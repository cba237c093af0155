"""The sandbox an isolated bot's process runs in: bubblewrap, or by name a weaker mode.

An isolated bot (:class:`~trixcomplex.host.isolated.IsolatedBot`) is code from a
stranger.  Its process is started by :func:`bot_command`, one process per seat
and per match, and nothing of the stranger runs before it is unprivileged:

- with bubblewrap (``bwrap``, the Debian package ``bubblewrap``; the default,
  and refused with :class:`SandboxUnavailable` where it cannot run): new PID,
  network, IPC and UTS namespaces and its own ``/proc``, so the bot sees no
  other process and can signal or read none; a read-only root holding only
  the system's ``/usr`` and the organizer's Python (the paths of ``python -I``:
  prefixes, the standard library, site-packages and what its ``.pth`` files
  add), the bot's own file or package (bound alone, read-only, under
  ``/bot``), and a private ``/tmp`` (a tmpfs of ``Limits.tmp_bytes``, the only
  writable path, also its HOME); no environment but ``HOME``, ``TMPDIR``,
  ``PATH``; ``--die-with-parent``, ``--new-session``, no new privileges.
  Then, before the interpreter starts: run as root, util-linux's ``setpriv``
  drops to a user of the bot's own (:func:`bot_uid`, a fresh uid per bot
  process) with no capability; run as another user, bubblewrap's own user
  namespace (``--unshare-user``, nested ones disabled) is the bot's.  Then
  ``prlimit`` sets the :class:`Limits` (processes counted for that uid or
  that namespace alone, so no bot can use up another's; where a memory
  cgroup can be made, :class:`MemoryCgroup` holds all its processes together
  to ``Limits.memory``), and the bot's Python
  starts isolated (``python -I -B``: no user site, no ``PYTHON*`` variable, no
  directory of the bot's run at start-up).
- ``isolated="unsandboxed"`` (:func:`check_unsandboxed`), for your own bots
  only: no namespaces, the same ``python -I -B`` with a HOME and TMPDIR of its
  own (a fresh directory, removed with the process), its own uid when run
  as root, the rlimits with room for one process only (it cannot start
  another, so none outlives it), death with its parent, and a non-dumpable
  host.  It can read whatever its user can (the host's command line
  included: never give a secret seed there, see ``--seed-file``).

>>> Limits().tmp_bytes > 0
True
>>> command = bot_command(["python3", "-c", "pass"], use_bwrap=True, bwrap="/usr/bin/bwrap")
>>> command[0], "--unshare-pid" in command, "--die-with-parent" in command
('/usr/bin/bwrap', True, True)
>>> command[-3:]
['python3', '-c', 'pass']
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import resource
import shutil
import subprocess
import sys
import warnings
from collections.abc import Callable, Sequence

from attrs import frozen

__all__ = [
    "NOBODY",
    "Limits",
    "MemoryCgroup",
    "SandboxUnavailable",
    "SandboxWarning",
    "bot_command",
    "bot_preexec",
    "bot_uid",
    "bwrap_path",
    "check_unsandboxed",
    "die_with_parent",
    "drop_privileges",
    "fallback_warning",
    "isolated_sys_path",
    "make_host_undumpable",
    "python_paths",
    "reachable_by_others",
    "sandbox_available",
    "unavailable_reason",
]

NOBODY = 65534
"""The user id ``nobody`` (:func:`drop_privileges`; bots now get one of :func:`bot_uid`)."""

PACKAGE = "bubblewrap"
"""The Debian package that provides ``bwrap``."""

SETPRIV = "/usr/bin/setpriv"
PRLIMIT = "/usr/bin/prlimit"
"""util-linux's tools (Debian package ``util-linux``): the drop to the bot's user and its
limits, run before the bot's interpreter."""

BOT_UID_BASE = 1_600_000_000
"""The first uid of the range bots run as when the organizer is root (no user of the
system has one this high; a bot process gets :func:`bot_uid`)."""


class SandboxUnavailable(ValueError):
    """Isolated bots were asked for but the sandbox cannot run here (bubblewrap missing
    or without namespaces), or the weaker mode cannot drop to an unprivileged user."""


class SandboxWarning(UserWarning):
    """Kept for callers that filter it; the sandbox no longer falls back with a warning."""


@frozen
class Limits:
    """The resource limits of a bot (``prlimit`` in the sandbox, ``setrlimit`` without).

    - ``cpu_seconds``: each process's whole CPU time (it is killed past it);
      the per-decision limit is the host's ``cpu_limit``, this is a backstop.
    - ``address_space``: bytes of virtual memory of each process.
    - ``open_files``: file descriptors of each process.
    - ``processes``: processes and threads of the bot, counted for its own
      uid (run as root) or its own user namespace, so that no other bot's
      count is touched (the weaker mode allows one: no child at all).
    - ``file_size``: the largest file it may write (``RLIMIT_FSIZE``).
    - ``tmp_bytes``: the size of its private ``/tmp`` (a tmpfs, in memory).
    - ``memory``: bytes of memory of all its processes together (its ``/tmp``
      included), where the organizer can make it a memory cgroup
      (:class:`MemoryCgroup`); elsewhere only ``address_space`` per process holds.
    """

    cpu_seconds: int = 3600
    address_space: int = 4 << 30
    open_files: int = 64
    processes: int = 256
    file_size: int = 64 << 20
    tmp_bytes: int = 64 << 20
    memory: int = 1 << 30


@frozen
class MemoryCgroup:
    """The memory cgroup of one bot process and all it starts (cgroup v1's ``memory``
    hierarchy, below this process's own): ``memory.limit_in_bytes`` (and the same with
    swap) caps them together, the kernel's OOM killer acting inside it alone.

    :meth:`create` returns ``None`` where no such cgroup can be made (no v1 memory
    hierarchy, or not writable: usually not root); the bot then has its per-process
    ``address_space`` only (docs/security.rst says so).
    """

    path: str

    @classmethod
    def create(cls, name: str, limit: int) -> MemoryCgroup | None:
        """A new cgroup ``name`` holding at most ``limit`` bytes, or ``None``."""
        base = _own_cgroup("memory")
        if base is None or not os.access(base, os.W_OK):
            return None
        path = os.path.join(base, name)
        try:
            os.mkdir(path)
        except OSError:
            return None
        made = cls(path)
        try:
            made._write("memory.limit_in_bytes", str(limit))
            if os.path.exists(os.path.join(path, "memory.memsw.limit_in_bytes")):
                made._write("memory.memsw.limit_in_bytes", str(limit))  # no swap beyond it
        except OSError:
            made.remove()
            return None
        return made

    def _write(self, name: str, text: str) -> None:
        with open(os.path.join(self.path, name), "w", encoding="ascii") as file:
            file.write(text)

    def enter(self) -> None:
        """Move the calling process into the cgroup (run before ``exec``: its children
        are born in it)."""
        self._write("cgroup.procs", str(os.getpid()))

    def peak(self) -> int:
        """The most memory the cgroup's processes held together, in bytes."""
        with open(os.path.join(self.path, "memory.max_usage_in_bytes"), encoding="ascii") as f:
            return int(f.read())

    def remove(self) -> None:
        """Remove the cgroup once its processes are gone (a killed process may take a
        moment to leave it: tried for up to two seconds)."""
        import time

        for _ in range(40):
            try:
                os.rmdir(self.path)
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.05)


def _own_cgroup(controller: str) -> str | None:
    """This process's directory in the cgroup v1 hierarchy of ``controller``, if mounted."""
    try:
        with open("/proc/self/cgroup", encoding="ascii") as file:
            lines = file.read().splitlines()
    except OSError:
        return None
    for line in lines:
        _, names, path = line.split(":", 2)
        if controller in names.split(","):
            found = f"/sys/fs/cgroup/{controller}{path}".rstrip("/")
            limit = os.path.join(found, "memory.limit_in_bytes")
            return found if os.path.exists(limit) else None
    return None


def bwrap_path() -> str | None:
    """The ``bwrap`` executable, or ``None`` when bubblewrap is not installed."""
    return shutil.which("bwrap")


_WORKS: dict[str, bool] = {}


def unavailable_reason() -> str | None:
    """Why isolated bots cannot be sandboxed here (``None``: they can), naming the package."""
    found = bwrap_path()
    if not sys.platform.startswith("linux"):
        return "bubblewrap needs Linux"
    if found is None:
        return f"bwrap is not installed (Debian package {PACKAGE!r})"
    tools = [t for t in (PRLIMIT, *([SETPRIV] if _root_mode() else [])) if not os.path.exists(t)]
    if tools:
        return f"{tools[0]} is missing (Debian package 'util-linux')"
    if found not in _WORKS:
        try:
            done = subprocess.run(
                bot_command(["/usr/bin/true"], use_bwrap=True, bwrap=found),
                capture_output=True, timeout=60, check=False,
            )  # fmt: skip
            _WORKS[found] = done.returncode == 0
        except (OSError, subprocess.SubprocessError):
            _WORKS[found] = False
    if not _WORKS[found]:
        return f"bwrap (Debian package {PACKAGE!r}) cannot create its namespaces here"
    return None


def sandbox_available() -> bool:
    """Whether bubblewrap is installed and can make its namespaces here (tried once)."""
    return unavailable_reason() is None


@functools.cache
def isolated_sys_path() -> tuple[str, ...]:
    """``sys.path`` of the organizer's interpreter started as ``python -I`` (the standard
    library, site-packages and what their ``.pth`` files add): where a bot's Python
    finds modules before the bot's own directory is added."""
    try:
        probe = subprocess.run(
            [sys.executable, "-I", "-c", "import sys, json; print(json.dumps(sys.path))"],
            capture_output=True, timeout=60, check=True, env={"PATH": "/usr/bin:/bin"},
        )  # fmt: skip
        found: list[str] = json.loads(probe.stdout)
    except (OSError, subprocess.SubprocessError, ValueError):
        found = [p for p in sys.path if p and "-packages" in p]
    return tuple(p for p in found if p)


@functools.cache
def python_paths() -> list[str]:
    """The organizer's Python as its isolated interpreter sees it: the prefixes, the
    interpreter's directory and every directory of :func:`isolated_sys_path`, never
    the directory of the run nor ``PYTHONPATH``."""
    paths = [sys.prefix, sys.base_prefix, sys.exec_prefix, *isolated_sys_path()]
    found: list[str] = []
    for path in paths:
        for p in (os.path.abspath(path), os.path.realpath(path)):
            if os.path.exists(p) and p not in found:
                found.append(p)
    for exe in (sys.executable, os.path.realpath(sys.executable)):
        if os.path.dirname(exe) not in found:
            found.append(os.path.dirname(exe))
    return found


def _root_mode() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


_NEXT = itertools.count()


def bot_uid() -> int:
    """A uid for one bot process when the organizer is root: distinct from every other
    bot process's running at the same time on this machine (from this process's id and
    a counter), in a range no user of the system has (:data:`BOT_UID_BASE`).

    >>> bot_uid() != bot_uid()
    True
    """
    return BOT_UID_BASE + (os.getpid() % (1 << 22)) * 64 + next(_NEXT) % 64


def _prlimit(limits: Limits, processes: int) -> list[str]:
    return [
        PRLIMIT, f"--cpu={limits.cpu_seconds}", f"--as={limits.address_space}",
        f"--nofile={limits.open_files}", f"--nproc={processes}",
        f"--fsize={limits.file_size}", "--core=0", "--",
    ]  # fmt: skip


def _setpriv(uid: int) -> list[str]:
    return [
        SETPRIV, f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
        "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--pdeathsig=KILL", "--",
    ]  # fmt: skip


def bot_command(
    argv: Sequence[str],
    *,
    use_bwrap: bool,
    bwrap: str | None = None,
    limits: Limits | None = None,
    uid: int | None = None,
    binds: Sequence[tuple[str, str]] = (),
    env: dict[str, str] | None = None,
) -> list[str]:
    """The command that runs ``argv`` (a bot's Python) in its sandbox, or unsandboxed.

    With ``use_bwrap``: bubblewrap (see the module's notes), ``binds`` (``(path
    here, path in the sandbox)``, read-only) added, ``env`` the bot's whole
    environment, then ``setpriv`` to ``uid`` (run as root) and ``prlimit``.
    Without: ``setpriv`` to ``uid`` when root, the rlimits being set by
    :func:`bot_preexec`.
    """
    limits = limits or Limits()
    uid = uid if uid is not None else bot_uid()
    drop = _setpriv(uid) if _root_mode() else []
    if not use_bwrap:
        return [*drop, *argv]
    exe = bwrap or bwrap_path() or "bwrap"
    command = [
        exe, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
        "--unshare-cgroup-try", "--new-session", "--die-with-parent", "--as-pid-1",
        "--ro-bind", "/usr", "/usr", "--proc", "/proc", "--dev", "/dev",
        "--perms", "1777", "--size", str(limits.tmp_bytes), "--tmpfs", "/tmp",
        "--chdir", "/tmp", "--clearenv",
    ]  # fmt: skip
    for key, value in (env or {"HOME": "/tmp", "TMPDIR": "/tmp", "PATH": "/usr/bin:/bin"}).items():
        command += ["--setenv", key, value]
    for link in ("lib", "lib64", "lib32", "bin", "sbin"):
        if os.path.islink(f"/{link}"):
            command += ["--symlink", os.readlink(f"/{link}"), f"/{link}"]
    for etc in ("/etc/ld.so.cache", "/etc/localtime"):
        command += ["--ro-bind-try", etc, etc]
    pairs: list[tuple[str, str]] = []
    for path in sorted(python_paths(), key=len):
        if path.startswith("/usr/") or any(path.startswith(b + os.sep) for b, _ in pairs):
            continue  # inside /usr or inside a directory already bound
        pairs.append((path, path))
    pairs += list(binds)
    made: set[str] = set()
    for parent in sorted({os.path.dirname(inside) for _, inside in pairs}, key=len):
        parts = parent.split(os.sep)
        for k in range(2, len(parts) + 1):
            here = os.sep.join(parts[:k])
            if here not in made and here not in ("/usr", "/tmp", "/proc", "/dev"):
                made.add(here)  # made open to the bot's user (bwrap's default is 0700)
                command += ["--perms", "0755", "--dir", here]
    for path, inside in pairs:
        command += ["--ro-bind", path, inside]
    command += ["--remount-ro", "/"]
    if _root_mode():  # bwrap keeps what setpriv needs to drop to the bot's user, no more
        command += ["--cap-drop", "ALL"] + [
            a for cap in ("CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP") for a in ("--cap-add", cap)
        ]
    else:
        command += ["--unshare-user", "--disable-userns"]
    return [*command, "--", *drop, *_prlimit(limits, limits.processes), *argv]


def check_unsandboxed() -> None:
    """Refuse (:class:`SandboxUnavailable`) the weaker mode where it could not make the
    bot unprivileged: run as root, the bot's own uid must be able to read the
    interpreter and its paths (every directory down to them open to others)."""
    if not _root_mode():
        return
    if not os.path.exists(SETPRIV):
        raise SandboxUnavailable(f"{SETPRIV} is missing (Debian package 'util-linux')")
    blocked = [p for p in python_paths() if not reachable_by_others(p)]
    if blocked:
        raise SandboxUnavailable(
            f"isolated='unsandboxed' run as root drops each bot to a user of its own, "
            f"but {blocked[0]} is not readable by other users: install Python where they "
            f"can read it, run as an unprivileged user, or install bubblewrap"
        )


def bot_preexec(
    limits: Limits, processes: int | None = None, cgroup: MemoryCgroup | None = None
) -> Callable[[], None]:
    """What the bot's process runs before ``exec``: its memory ``cgroup`` (if any), death
    with its parent and, given ``processes`` (the weaker mode, whose rlimits no
    ``prlimit`` sets), its rlimits."""

    def preexec() -> None:
        if cgroup is not None:
            cgroup.enter()
        if processes is not None:
            _limit(resource.RLIMIT_CPU, limits.cpu_seconds)
            _limit(resource.RLIMIT_AS, limits.address_space)
            _limit(resource.RLIMIT_NOFILE, limits.open_files)
            _limit(resource.RLIMIT_FSIZE, limits.file_size)
            _limit(resource.RLIMIT_CORE, 0)
            _limit(resource.RLIMIT_NPROC, processes)
        die_with_parent()  # the weaker mode's --die-with-parent (and bwrap's own)

    return preexec


def _limit(which: int, value: int) -> None:
    _, hard = resource.getrlimit(which)
    cap = value if hard == resource.RLIM_INFINITY else min(value, hard)
    resource.setrlimit(which, (cap, cap))


def _prctl(option: int, value: int) -> bool:
    """``prctl(option, value)`` through the C library; ``False`` where there is none."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(option, value, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def die_with_parent() -> bool:
    """Have the kernel kill this process (SIGKILL) when its parent ends: Linux's
    parent-death signal (``PR_SET_PDEATHSIG``).  ``False`` where that failed."""
    return _prctl(1, 9)


def make_host_undumpable() -> bool:
    """Make this (the host's) process non-dumpable: a process of the same user can no
    longer read its ``/proc/<pid>/mem`` or trace it.  ``False`` where that failed."""
    return _prctl(4, 0)  # PR_SET_DUMPABLE


def drop_privileges(paths_needed: Sequence[str] = ()) -> str | None:
    """Become ``nobody`` if root (kept for callers; bots drop with ``setpriv`` before
    their interpreter starts, never in Python).

    Returns ``None`` when done (or not root), else why it could not be done
    (``paths_needed`` not reachable by ``nobody``).
    """
    if not _root_mode():
        return None
    blocked = [p for p in paths_needed if not reachable_by_others(p)]
    if blocked:
        return f"{blocked[0]} is not readable by an unprivileged user"
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)
    _prctl(38, 1)  # PR_SET_NO_NEW_PRIVS
    die_with_parent()  # again: the change of user cleared it
    return None


def reachable_by_others(path: str) -> bool:
    """Whether every directory down to ``path`` lets others in (``o+x``) and it is readable."""
    path = os.path.abspath(path)
    parts = path.split(os.sep)
    for k in range(2, len(parts) + 1):
        part = os.sep.join(parts[:k])
        try:
            mode = os.stat(part).st_mode
        except OSError:
            return False
        if os.path.isdir(part) and not mode & 0o001:
            return False
    return True


def fallback_warning(reason: str) -> None:
    """Warn that bots run without bubblewrap, naming what is missing (kept for callers:
    isolated bots now refuse to run without it, or run unsandboxed by name)."""
    warnings.warn(
        f"isolated bots run without a sandbox ({reason}): install the Debian package "
        f"{PACKAGE!r} (bwrap) for PID, network and filesystem isolation",
        SandboxWarning,
        stacklevel=3,
    )
