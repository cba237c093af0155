"""Draining on SIGTERM: stop taking players, keep what they were told, exit in time.

uvicorn turns SIGTERM (and Ctrl+C) into a shutdown; :class:`DrainingServer`
runs :func:`drain` at its start, before uvicorn closes the connections itself
(uvicorn would close WebSockets with 1012, and drop what their outboxes hold):

1. The listening sockets close (no new connections) and the lobby is
   ``draining``: ``/readyz`` answers 503, a new table or any message on an
   open connection is refused (``server.unavailable``), so nothing changes
   that a client would not be told.
2. Every table settles (:meth:`~trixcomplex.server.table.Table.settle`): the
   doubling answers held for the window's answer time are applied and stored,
   then its timer stops.  Every move was stored when it was made; the next
   host action (a deal, a bot's move, a timeout) follows from the record when
   the table is restored, its clocks restarted (the time the server was away
   is not charged to anyone).
3. Every WebSocket gets what was queued for it, then a close with code 1001
   ("going away"): the page reconnects, to this server once restarted or to
   another behind the same address.
4. uvicorn closes the rest, and the lifespan's end stops the bots' workers and
   closes the database.

The whole takes at most ``options.drain_seconds``; a watchdog thread ends the
process one second after that if something still holds it (a bot's worker
deep in a decision): every acknowledged move is in the database already.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading

import uvicorn

from .app import Lobby

__all__ = ["DrainingServer", "drain"]

log = logging.getLogger("trixcomplex.server")

_GRACE = 1.0  # seconds: uvicorn's own shutdown and the lifespan's end, after the drain
_WATCHDOG_EXIT = 1  # the exit status when the watchdog has to end the process


async def drain(lobby: Lobby, seconds: float) -> None:
    """Settle every table and close every WebSocket with 1001, waiting at most
    ``seconds`` for the clients to be sent what was queued for them."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    lobby.draining = True
    connections = len(lobby.connections)
    for table in [*lobby.tables.values(), *lobby.replicas.values()]:
        try:
            table.settle()
        except Exception as exc:  # a store that fails now: the held answers are lost
            log.warning("table %s: cannot settle it: %s", table.id, exc)
    for conn in list(lobby.connections):
        conn.going_away()
    while lobby.connections and loop.time() < deadline:
        await asyncio.sleep(0.02)
    log.info(
        "drained: %d tables stored, %d of %d connections closed with 1001",
        len(lobby.tables),
        connections - len(lobby.connections),
        connections,
    )


def _give_up(seconds: float) -> None:
    log.error("the drain took more than %g s: exiting now (every move is stored)", seconds)
    logging.shutdown()
    os._exit(_WATCHDOG_EXIT)


class DrainingServer(uvicorn.Server):
    """uvicorn's server, whose shutdown first drains the ``lobby`` (:func:`drain`) and
    which exits within ``lobby.options.drain_seconds`` (plus a second, the watchdog)."""

    def __init__(self, config: uvicorn.Config, lobby: Lobby) -> None:
        super().__init__(config)
        self.lobby = lobby

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        seconds = self.lobby.options.drain_seconds
        watchdog = threading.Timer(seconds + _GRACE, _give_up, (seconds,))
        watchdog.daemon = True
        watchdog.start()
        loop = asyncio.get_running_loop()
        started = loop.time()
        log.info("draining: at most %g s", seconds)
        for server in self.servers:  # stop accepting new connections
            server.close()
        await drain(self.lobby, max(0.0, seconds - _GRACE))
        left = seconds - (loop.time() - started)
        self.config.timeout_graceful_shutdown = max(1, int(left))
        await super().shutdown(sockets)
