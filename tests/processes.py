"""Watching processes a test started end: whether one is gone, waiting until some are."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable
from pathlib import Path


def gone(pid: int) -> bool:
    """No such process, or only its exit status is left (a zombie nobody has reaped)."""
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "ZX"
    return True


def wait_gone(pids: Iterable[int], backstop: float) -> set[int]:
    """The processes of ``pids`` still running after waiting for them to end, at most
    ``backstop`` seconds (an upper bound for a hung case, never a speed limit)."""
    left = set(pids)
    deadline = time.monotonic() + backstop
    while left:
        left = {pid for pid in left if not gone(pid)}
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    return left
