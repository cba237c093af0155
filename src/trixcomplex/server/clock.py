"""The server's time: what time it is, and timers (the event loop's, or a test's).

They live in :mod:`trixcomplex.host.clock` (below the server, so a table that
runs without one keeps the same clocks); this module names them where the
server's code has always found them.
"""

from __future__ import annotations

from trixcomplex.host.clock import Clock, LoopClock, ManualClock, Timer

__all__ = ["Clock", "LoopClock", "ManualClock", "Timer"]
