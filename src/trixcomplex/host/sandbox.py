"""The sandbox an isolated bot's process runs in: bubblewrap, or the strongest fallback.

An isolated bot (:class:`~trixcomplex.host.isolated.IsolatedBot`) is code from a
stranger.  Its process is started by :func:`bot_command` and
:func:`bot_preexec`:

- with bubblewrap (``bwrap``, the Debian package ``bubblewrap``): new PID,
  network, IPC and UTS namespaces and its own ``/proc``, so the bot sees no
  other process and can signal or read none; a root filesystem holding only
  the system's ``/usr`` and the organizer's Python (the interpreter's
  prefix and base prefix and every ``sys.path`` entry, bound read-only:
  a venv, a pyenv under ``/root``, site-packages, an editable ``src``) and a
  private ``/tmp``, the only writable path; no environment but what the bot
  needs; ``--die-with-parent``, ``--new-session`` (no terminal to inject
  into) and no new privileges;
- without it (:func:`sandbox_available` is ``False``): the same process
  started in a session of its own that dies with its parent, the host made
  non-dumpable (``prctl(PR_SET_DUMPABLE, 0)``: a process of the same user
  cannot read its memory or trace it), and a warning naming what is missing.

Both drop to an unprivileged user (``nobody``) when the organizer runs as
root, before the bot's code is imported, and both set the resource limits
of :class:`Limits` (CPU seconds, address space, open files, processes).
``isolated="strict"`` refuses to run without bubblewrap
(:class:`SandboxUnavailable`).

>>> Limits().cpu_seconds > 0
True
>>> command = bot_command(["python3", "-c", "pass"], use_bwrap=True, bwrap="/usr/bin/bwrap")
>>> command[0], "--unshare-pid" in command, "--die-with-parent" in command
('/usr/bin/bwrap', True, True)
"""

from __future__ import annotations

import os
import resource
import shutil
import sys
import warnings
from collections.abc import Callable, Sequence

from attrs import frozen

__all__ = [
    "NOBODY",
    "Limits",
    "SandboxUnavailable",
    "SandboxWarning",
    "bot_command",
    "bot_preexec",
    "bwrap_path",
    "die_with_parent",
    "drop_privileges",
    "fallback_warning",
    "make_host_undumpable",
    "python_paths",
    "reachable_by_others",
    "sandbox_available",
]

NOBODY = 65534
"""The user id (and group id) a bot runs as when the organizer is root."""

PACKAGE = "bubblewrap"
"""The Debian package that provides ``bwrap``."""


class SandboxUnavailable(ValueError):
    """``isolated="strict"`` was asked for but bubblewrap cannot run here."""


class SandboxWarning(UserWarning):
    """Isolated bots run without bubblewrap: what protects the host is weaker."""


@frozen
class Limits:
    """The resource limits of a bot's process (``setrlimit``).

    - ``cpu_seconds``: the process's whole CPU time (it is killed past it);
      the per-decision limit is the host's ``cpu_limit``, this is a backstop.
    - ``address_space``: bytes of virtual memory.
    - ``open_files``: file descriptors.
    - ``processes``: processes and threads of the bot's user (enforced by
      the kernel only for a non-root user, hence the drop to ``nobody``).
    """

    cpu_seconds: int = 3600
    address_space: int = 4 << 30
    open_files: int = 64
    processes: int = 256


def bwrap_path() -> str | None:
    """The ``bwrap`` executable, or ``None`` when bubblewrap is not installed."""
    return shutil.which("bwrap")


_WORKS: dict[str, bool] = {}


def sandbox_available() -> bool:
    """Whether bubblewrap is installed and can make its namespaces here (tried once)."""
    found = bwrap_path()
    if found is None or not sys.platform.startswith("linux"):
        return False
    if found not in _WORKS:
        import subprocess

        try:
            done = subprocess.run(
                bot_command(["/usr/bin/true"], use_bwrap=True, bwrap=found),
                capture_output=True, timeout=60, check=False,
            )  # fmt: skip
            _WORKS[found] = done.returncode == 0
        except (OSError, subprocess.SubprocessError):
            _WORKS[found] = False
    return _WORKS[found]


def python_paths() -> list[str]:
    """The organizer's Python: the prefixes and every existing ``sys.path`` directory."""
    found: list[str] = []
    for path in [sys.prefix, sys.base_prefix, sys.exec_prefix, *sys.path]:
        if not path:
            continue
        real = os.path.realpath(path)
        for p in {os.path.abspath(path), real}:
            if os.path.exists(p) and p not in found:
                found.append(p)
    exe = os.path.realpath(sys.executable)
    if os.path.dirname(exe) not in found:
        found.append(os.path.dirname(exe))
    return found


def _root_mode() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def bot_command(argv: Sequence[str], *, use_bwrap: bool, bwrap: str | None = None) -> list[str]:
    """The command that runs ``argv`` (a bot's Python) inside bubblewrap, or ``argv`` itself.

    Run as root, bubblewrap keeps only ``CAP_SETUID`` and ``CAP_SETGID``
    so that the bot's process can become ``nobody`` (:func:`drop_privileges`)
    before it loads the bot; otherwise it runs in a user namespace of its own.
    """
    if not use_bwrap:
        return list(argv)
    exe = bwrap or bwrap_path() or "bwrap"
    command = [
        exe, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
        "--unshare-cgroup-try", "--new-session", "--die-with-parent",
        "--ro-bind", "/usr", "/usr",
        "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--chdir", "/tmp",
        "--clearenv", "--setenv", "HOME", "/tmp", "--setenv", "PATH", "/usr/bin:/bin",
    ]  # fmt: skip
    for link in ("lib", "lib64", "lib32", "bin", "sbin"):
        if os.path.islink(f"/{link}"):
            command += ["--symlink", os.readlink(f"/{link}"), f"/{link}"]
    for etc in ("/etc/ld.so.cache", "/etc/localtime"):
        command += ["--ro-bind-try", etc, etc]
    binds: list[str] = []
    for path in sorted(python_paths(), key=len):
        if path.startswith("/usr/") or any(path.startswith(b + os.sep) for b in binds):
            continue  # inside /usr or inside a directory already bound
        binds.append(path)
    parents = {os.path.dirname(p) for p in binds}
    made: set[str] = set()
    for parent in sorted(parents, key=len):
        parts = parent.split(os.sep)
        for k in range(2, len(parts) + 1):
            here = os.sep.join(parts[:k])
            if here not in made and here not in ("/usr", "/tmp", "/proc", "/dev"):
                made.add(here)  # made open to the bot's user (bwrap's default is 0700)
                command += ["--perms", "0755", "--dir", here]
    for path in binds:
        command += ["--ro-bind", path, path]
    if _root_mode():
        command += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        command += ["--unshare-user"]
    return [*command, *argv]


def bot_preexec(limits: Limits) -> Callable[[], None]:
    """What the bot's process runs before ``exec``: its rlimits (and, on Linux, death
    with its parent)."""

    def preexec() -> None:
        _limit(resource.RLIMIT_CPU, limits.cpu_seconds)
        _limit(resource.RLIMIT_AS, limits.address_space)
        _limit(resource.RLIMIT_NOFILE, limits.open_files)
        if _root_mode():  # counted for the bot's own user (nobody), once it has dropped
            _limit(resource.RLIMIT_NPROC, limits.processes)
        die_with_parent()  # the fallback's --die-with-parent

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
    """In the bot's process, before its code loads: become ``nobody`` if root.

    Returns ``None`` when done (or not root), else why it could not be done
    (``paths_needed`` not reachable by ``nobody``: the fallback then keeps root
    rather than fail to load the bot, and the host warns).
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
    """Warn that bots run without bubblewrap, naming what is missing."""
    warnings.warn(
        f"isolated bots run without a sandbox ({reason}): install the Debian package "
        f"{PACKAGE!r} (bwrap) for PID, network and filesystem isolation; running them "
        "with rlimits, a session of their own and a non-dumpable host only",
        SandboxWarning,
        stacklevel=3,
    )
