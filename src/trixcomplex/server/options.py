"""The server's own options: who may call it, how many tables, how long things last.

Every one is a ``trixcomplex serve`` option (see :doc:`/server`); the
per-table clocks are :class:`~trixcomplex.server.seats.Settings` instead.

>>> Options().hello_timeout
10.0
>>> Options(max_tables=0)
Traceback (most recent call last):
...
ValueError: 'max_tables' must be >= 1: 0
"""

from __future__ import annotations

from attrs import field, frozen
from attrs.validators import ge

__all__ = ["Options"]


@frozen
class Options:
    """The limits and times of one server (seconds, unless a count).

    - ``allow_origins``: the web origins (``https://example.org``) besides the
      server's own whose pages may call the server; any other ``Origin`` is refused.
    - ``max_tables``: the most tables being played at once (finished ones not counted).
    - ``create_limit`` tables per client address in any ``create_window`` seconds.
    - ``retention``: a finished table stays listed this long, then is archived
      (its record stays downloadable).
    - ``idle_close``: a table nobody is connected to for this long is closed.
    - ``hello_timeout``: a connection that has not said who it is by then is closed.
    - ``bot_budget``: a bot's time for one decision; then the host moves for it.
    - ``bot_window``: when bots' doubling answers are applied, after the window
      opens (at least the table's ``bot_delay``); a bot not ready doubles nothing.
    - ``bot_workers``: the worker processes bots think in (``None``: one per CPU).
    - ``join_limit`` seats joined per client address in any ``join_window`` seconds.
    - ``watch_limit``: the most spectator connections one client address holds at once.
    - ``seat_timeout``: a joined person's seat left without its connection this long
      is played by a stand-in bot (``stand_in``) until its token comes back.
    - ``outbox_bytes``: the most unsent update text one connection may hold; beyond
      it the connection is closed (code 4413) and the client resumes to catch up.
    - ``drain_seconds``: on SIGTERM the server stops taking connections and tables,
      closes its WebSockets (code 1001) and exits within this time (see :doc:`/server`).
    """

    allow_origins: tuple[str, ...] = ()
    max_tables: int = field(default=1000, validator=ge(1))
    create_limit: int = field(default=20, validator=ge(1))
    create_window: float = field(default=3600.0, validator=ge(0.0))
    retention: float = field(default=3600.0, validator=ge(0.0))
    idle_close: float = field(default=1800.0, validator=ge(0.0))
    hello_timeout: float = field(default=10.0, validator=ge(0.0))
    bot_budget: float = field(default=10.0, validator=ge(0.0))
    bot_window: float = field(default=1.0, validator=ge(0.0))
    bot_workers: int | None = None
    join_limit: int = field(default=30, validator=ge(1))
    join_window: float = field(default=3600.0, validator=ge(0.0))
    watch_limit: int = field(default=20, validator=ge(1))
    seat_timeout: float = field(default=60.0, validator=ge(0.0))
    stand_in: str = "rule"
    outbox_bytes: int = field(default=1 << 20, validator=ge(1024))
    drain_seconds: float = field(default=10.0, validator=ge(1.0))
