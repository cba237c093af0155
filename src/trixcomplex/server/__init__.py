"""The reference table server: people and bots play in the browser (``trixcomplex serve``).

A small, complete host built only on the library's public hosting API: a
Starlette application under uvicorn, one WebSocket per player or spectator
carrying the library's JSON (views, moves, events, errors), and every move
stored as it is made: in SQLite (the default, one file) or PostgreSQL
(``--db postgresql://...``, the ``postgres`` extra).  Install it with the ``server`` extra
(from a checkout; ``"trixcomplex[server]"`` once published on an index)::

    python -m pip install ".[server]"
    trixcomplex serve --port 8000

The modules, from the bottom up (see :doc:`/server-code`):

- :mod:`~trixcomplex.server.store`: the database of tables: the interface, append-only moves.
- :mod:`~trixcomplex.server.store_sqlite`, :mod:`~trixcomplex.server.store_postgres`: its
  two stores (SQLite, the default; PostgreSQL).
- :mod:`~trixcomplex.server.metrics`: the Prometheus metrics, a registry per application.
- :mod:`~trixcomplex.server.logs`: the log format (text, or one JSON object per line).
- :mod:`~trixcomplex.server.clock`: time and timers (the event loop's, or a test's).
- :mod:`~trixcomplex.server.options`: the server's limits and times.
- :mod:`~trixcomplex.server.pool`: the worker processes bots think in.
- :mod:`~trixcomplex.server.seats`: a table's settings and seats, the server's refusals.
- :mod:`~trixcomplex.server.messages`: what a table tells its connections and the lobby.
- :mod:`~trixcomplex.server.table_host`: a table's own moves (deals, bots, timeouts) and timer.
- :mod:`~trixcomplex.server.table`: one table: seats, tokens, viewers, moves.
- :mod:`~trixcomplex.server.replica`: a table another process drives, served here.
- :mod:`~trixcomplex.server.origin`: cross-site requests refused.
- :mod:`~trixcomplex.server.health`: ``/healthz``, ``/readyz`` and ``/metrics``.
- :mod:`~trixcomplex.server.app`: the web application and its routes.
- :mod:`~trixcomplex.server.drain`: SIGTERM drains the server within a bound.
"""

from __future__ import annotations

import signal
import sqlite3
import sys

from ..core.extras import needs_extra

with needs_extra("server", "trixcomplex.server"):  # a missing package names the extra
    import prometheus_client  # noqa: F401  (the metrics: a missing extra shows here)
    import uvicorn
    import websockets  # noqa: F401  (uvicorn's WebSocket protocol: a missing extra shows here)
    from uvicorn.config import LOGGING_CONFIG

    from .app import create_app
    from .drain import DrainingServer
    from .logs import log_config
    from .options import Options
    from .store import StoreUnavailable, shown
    from .table import Settings

__all__ = ["DEFAULT_DB", "Options", "Settings", "create_app", "serve"]

DEFAULT_DB = "trixcomplex.sqlite3"
"""The database file ``trixcomplex serve`` uses unless given ``--db``."""


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = DEFAULT_DB,
    options: Options | None = None,
    *,
    log_format: str = "text",
) -> int:
    """Run the server until interrupted (SIGTERM or Ctrl+C drain it, see
    :mod:`~trixcomplex.server.drain`); returns the exit status.

    A database that cannot be opened is reported in one line (status 1).
    ``log_format``: ``text`` (uvicorn's) or ``json`` (:mod:`~trixcomplex.server.logs`).
    """
    logging = log_config(log_format)
    try:
        app = create_app(db, options)
    except (sqlite3.Error, ValueError, ImportError, StoreUnavailable) as exc:
        print(f"trixcomplex serve: cannot open the database {shown(db)}: {exc}", file=sys.stderr)
        return 1
    config = uvicorn.Config(app, host=host, port=port, ws_max_size=65536, log_level="info",
                            log_config=LOGGING_CONFIG if logging is None else logging)  # fmt: skip
    server = DrainingServer(config, app.state.lobby)
    previous = signal.signal(signal.SIGTERM, _drained)
    try:
        server.run()  # uvicorn raises the SIGTERM it drained for again at its end
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    finally:
        signal.signal(signal.SIGTERM, previous)
    return 0 if server.started else 1


def _drained(signum: int, frame: object) -> None:
    """SIGTERM outside uvicorn's own handler (before it starts, or raised again once it
    drained): exit normally, status 0, so the interpreter's exit runs (bots' workers
    joined, logs flushed)."""
    raise SystemExit(0)
