"""Bots think in a pool of worker processes, never on the server's event loop.

A bot's decision can take a Monte Carlo bot a large part of a second of CPU;
made on the event loop it would hold up every other table and every
connection.  So the table hands a worker the bot's *name* and the seat's
:class:`~trixcomplex.View` (never the match state: the worker cannot see
what the seat may not) and a seed for the bot's random numbers, and gets a
:class:`concurrent.futures.Future` of the answer.  The table decides what
to do with an answer that comes too late (see :mod:`~trixcomplex.server.table_host`).

Workers are processes (``spawn``: nothing of the server's memory is
copied), run at a lower priority than the server so that people's messages
are answered first.  A pool of threads (``processes=False``) serves tests
and examples.

>>> import random
>>> import trixcomplex as tc
>>> pool = BotPool(1, processes=False)
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
>>> seen = tc.view(state, state.owner)
>>> pool.decide("rule", seen, seed=1).result() in seen.legal_moves
True
>>> pool.close()
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import (
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from typing import Any

import trixcomplex as tc
from trixcomplex.host.bot_answers import decide, wants_redeal
from trixcomplex.host.sandbox import die_with_parent

__all__ = ["BotPool", "decide", "wants_redeal"]

_NICE = 10  # workers yield the CPU to the server's event loop
_WATCH = 1.0  # seconds between a worker's looks at its parent


def _start_worker(server: int) -> None:
    """In each worker: a lower priority, and an end with the server's process, even
    when it is killed (Linux: the kernel's parent-death signal; elsewhere a thread
    that sees the parent change).  ``server`` is the process that started the worker:
    a worker whose parent is another one already (the server died while the worker
    was starting, and init took it over) leaves at once instead of watching init."""
    with contextlib.suppress(OSError):  # not allowed here: run at the same priority
        os.nice(_NICE)
    die_with_parent()
    if os.getppid() != server:  # the server died before the signal was set
        os._exit(0)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(_WATCH)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class BotPool:
    """Worker processes (or threads) that make the bots' decisions.

    ``workers`` processes at most (started when first needed).  Each call
    returns at once with a future; the event loop never waits on it.
    """

    def __init__(self, workers: int | None = None, *, processes: bool = True) -> None:
        self._count = max(1, workers or os.cpu_count() or 1)
        self._processes = processes
        self._executor = self._start()

    def _start(self) -> Executor:
        if self._processes:
            return ProcessPoolExecutor(
                self._count,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return ThreadPoolExecutor(self._count, thread_name_prefix="bot")

    def _submit(self, work: Callable[..., Any], *args: Any) -> Future[Any]:
        try:
            return self._executor.submit(work, *args)
        except BrokenExecutor:  # a worker died (killed, out of memory): start afresh
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = self._start()
            return self._executor.submit(work, *args)

    def decide(self, name: str, seen: tc.View, seed: int) -> Future[tc.PlayerMove]:
        """The future move of bot ``name`` seeing ``seen``."""
        return self._submit(decide, name, seen, seed)

    def wants_redeal(self, name: str, seen: tc.View, seed: int) -> Future[bool]:
        """The future yes/no of bot ``name``: does it demand a redeal (R-OPT-8)?"""
        return self._submit(wants_redeal, name, seen, seed)

    def close(self) -> None:
        """Stop the workers (a decision being made is abandoned)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
