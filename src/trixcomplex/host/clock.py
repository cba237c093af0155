"""The server's time: what time it is, and timers (the event loop's, or a test's).

Every clock and timer of the server goes through one :class:`Clock`, so a
test can give the tables, the lobby and its quotas a clock it moves by hand
(:class:`ManualClock`) and check to the millisecond when each thing happens,
without waiting and whatever the machine's load.

>>> clock = ManualClock()
>>> fired = []
>>> _ = clock.call_later(2.0, lambda: fired.append(clock.now()))
>>> clock.advance(1.5); fired
[]
>>> clock.advance(1.0); fired
[2.0]
>>> _ = clock.call_later(0.25, lambda: fired.append(clock.now()))
>>> clock.step(), fired, clock.step()
(True, [2.0, 2.75], False)
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import threading
import time
from collections.abc import Callable
from typing import Protocol

__all__ = ["Clock", "LoopClock", "ManualClock", "Timer"]


class Timer(Protocol):
    """A timer that was set: it can be cancelled (``asyncio.TimerHandle`` is one)."""

    def cancel(self) -> None:
        """Do not fire (nothing happens if it has fired already)."""


class Clock(Protocol):
    """Time and timers, as the server's tables and lobby use them."""

    def now(self) -> float:
        """Monotonic seconds: for clocks, delays and budgets."""

    def wall(self) -> float:
        """Seconds since the epoch: for what is stored and must survive a restart."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        """Call ``callback`` (on the server's thread) ``delay`` seconds from now."""

    def call_soon_threadsafe(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` on the server's thread soon; safe from any thread."""


class LoopClock:
    """The real clock: ``time.monotonic``, ``time.time`` and the asyncio event loop's timers.

    The loop is the one running when the clock is first read or set inside it
    (or :meth:`bind` is called); worker threads hand their results back through it.
    """

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None

    def bind(self) -> None:
        """Use the running event loop (called from inside it)."""
        self._loop = asyncio.get_running_loop()

    def now(self) -> float:
        if self._loop is None:  # the first use inside the loop binds it
            with contextlib.suppress(RuntimeError):
                self.bind()
        return time.monotonic()

    def wall(self) -> float:
        return time.time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        if self._loop is None:
            self.bind()
        assert self._loop is not None
        return self._loop.call_later(max(0.0, delay), callback)

    def call_soon_threadsafe(self, callback: Callable[[], None]) -> None:
        if self._loop is None:
            raise RuntimeError("the clock has no event loop yet")
        if not self._loop.is_closed():
            self._loop.call_soon_threadsafe(callback)


class _ManualTimer:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when told (:meth:`advance`): for tests.

    ``now()`` starts at 0 and ``wall()`` at ``start_wall``; timers fire in
    order of their due time (then of setting), each seeing ``now()`` equal
    to its due time.
    """

    def __init__(self, start_wall: float = 1_800_000_000.0) -> None:
        self._now = 0.0
        self._wall0 = start_wall
        self._due: list[tuple[float, int, _ManualTimer, Callable[[], None]]] = []
        self._order = itertools.count()
        self._lock = threading.Lock()
        self._soon: list[Callable[[], None]] = []

    def now(self) -> float:
        return self._now

    def wall(self) -> float:
        return self._wall0 + self._now

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        timer = _ManualTimer()
        heapq.heappush(self._due, (self._now + max(0.0, delay), next(self._order), timer, callback))
        return timer

    def call_soon_threadsafe(self, callback: Callable[[], None]) -> None:
        with self._lock:
            self._soon.append(callback)

    def run_soon(self) -> None:
        """Run the callbacks handed over by other threads (without moving the time)."""
        while True:
            with self._lock:
                soon, self._soon = self._soon, []
            if not soon:
                return
            for callback in soon:
                callback()

    def advance(self, seconds: float) -> None:
        """Move the time ``seconds`` on, firing every timer due by then, in order."""
        end = self._now + seconds
        self.run_soon()
        while self._due and self._due[0][0] <= end:
            when, _, timer, callback = heapq.heappop(self._due)
            self._now = max(self._now, when)
            if not timer.cancelled:
                callback()
            self.run_soon()
        self._now = end

    def step(self) -> bool:
        """Move the time to the next timer and fire it (``False``: there is none)."""
        self.run_soon()
        while self._due:
            when, _, timer, callback = heapq.heappop(self._due)
            if timer.cancelled:
                continue
            self._now = max(self._now, when)
            callback()
            self.run_soon()
            return True
        return False
