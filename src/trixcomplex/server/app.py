"""The web application: the page, a small JSON API and one WebSocket per connection.

Routes:

- ``GET /``: the page (``static/index.html``, plain JavaScript, no build step), with
  ``/app.js`` and ``/transport.js`` (the server, or the engine in a Web Worker: :doc:`/web`).
- ``GET /api/messages``: the page's words in the language of ``?locale=``, else of the
  browser's ``Accept-Language`` (:func:`~trixcomplex.core.catalog.best_locale`).
- ``GET /scorekeeper``: the score keeper's page (a match played with real cards).
- ``POST /api/scorebook``: one reported deal added to a scorebook the client holds
  (:func:`~trixcomplex.server.scorebook.answer`; the server keeps nothing).
- ``GET /api/tables``: the tables, as the lobby lists them.
- ``POST /api/tables``: open a table; the body names its ruleset, seats and clocks.
- ``GET /api/tables/{id}``: one table's summary.
- ``GET /api/tables/{id}/record``: the game record of a finished match.
- ``WS /ws/{id}``: play or watch a table (see :doc:`/server` for the messages).

Every request and WebSocket handshake first passes
:class:`~trixcomplex.server.origin.OriginGuard` (pages of other sites are
refused).  The :class:`Lobby` keeps the quotas (tables per client address,
live tables at once) and the retention (finished tables archived, idle
tables closed) with timers of its :class:`~trixcomplex.server.clock.Clock`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import time
import zlib
from collections import Counter, deque
from collections.abc import AsyncIterator
from functools import partial
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

import trixcomplex as tc

from ..core.catalog import DEFAULT_LOCALE
from ..host.refusals import refusal_json
from ..host.table_seats import MAX_MESSAGE, read_hello, read_message, welcome
from .clock import Clock, LoopClock, Timer
from .health import routes as health_routes
from .metrics import Metrics
from .options import Options
from .origin import OriginGuard
from .page_messages import page_messages, request_locale
from .pool import BotPool
from .replica import Replica
from .scorebook import MAX_REQUEST as SCOREBOOK_LIMIT
from .scorebook import answer as scorebook_answer
from .seats import read_create
from .store import STORE_ERRORS, DamagedRow, Store, TableRow
from .store_sqlite import SqliteStore
from .table import Refused, Seat, Table

__all__ = [
    "GOING_AWAY_CODE",
    "MAX_MESSAGE",
    "MAX_TABLES",
    "SLOW_CLIENT_CODE",
    "Connection",
    "Lobby",
    "create_app",
    "open_store",
    "share_of",
]

log = logging.getLogger("trixcomplex.server")

MAX_TABLES = Options().max_tables
"""The most tables a server plays at once unless told otherwise (finished ones not counted)."""
_TAKEOVER_EVERY = 0.25  # seconds: how often a shared store's free tables are looked for
_TAKEOVER_SLICE = 0.25  # seconds: the longest a takeover holds the event loop at once
_ARCHIVE_RETRY = 30.0  # seconds: an archive the store refused is tried again
_ADDRESSES = 10_000  # addresses whose joins are remembered before the old ones are pruned


def share_of(free: list[str], place: int, servers: int, seen: set[str]) -> list[str]:
    """The tables of ``free`` (nobody owns them: their owner died) that the server
    process at ``place`` of the ``servers`` live ones takes over: those whose id's
    CRC-32 falls to its place, which every live process computes alike, so the dead
    one's tables are shared out at once, each to one survivor; and those of ``seen``
    (free at its last look already: the process they fell to is slow, or gone too),
    which are anyone's.  The locks decide between two claims of one table anyway.

    >>> free = ["a1", "b2", "c3", "d4", "e5"]
    >>> first, second = share_of(free, 0, 2, set()), share_of(free, 1, 2, set())
    >>> sorted(first + second) == free and not set(first) & set(second)
    True
    >>> share_of(free, 0, 1, set()) == free, "b2" in share_of(free, 0, 2, {"b2"})
    (True, True)
    """
    return [t for t in free if zlib.crc32(t.encode()) % servers == place or t in seen]


def _creator(client: str) -> str:
    """Who opened a table, as stored: a hash of the client's address, never the address."""
    return hashlib.sha256(client.encode("utf-8", "replace")).hexdigest()


class Lobby:
    """Every table of the server, the database they are stored in, and their quotas.

    A finished table is listed for ``options.retention`` seconds, then archived:
    out of memory, its record still downloadable from the database.  A table
    nobody is connected to for ``options.idle_close`` seconds is closed and
    archived the same way.  The times are stored, so a restart keeps them.
    """

    def __init__(
        self,
        store: Store,
        options: Options | None = None,
        *,
        clock: Clock | None = None,
        pool: BotPool | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.options = options or Options()
        self.clock: Clock = clock or LoopClock()
        self.pool = pool or BotPool(1, processes=False)
        self.tables: dict[str, Table] = {}
        self.replicas: dict[str, Replica] = {}  # tables others drive, served here
        self._users: Counter[str] = Counter()  # per replica: the connections using it
        self.damaged: dict[str, str] = {}  # tables set aside: their rows cannot be read
        self._expiry: dict[str, Timer] = {}
        self._joins: dict[str, deque[float]] = {}  # per address: when it joined seats
        self._watchers: Counter[str] = Counter()  # per address: its spectator connections
        self.metrics = metrics or Metrics()
        self.connections: set[Connection] = set()  # every open WebSocket
        self.ready = False  # the stored tables are loaded (restore ran)
        self._free: set[str] = set()  # the tables nobody owned at the last look (take_over)
        self.draining = False  # SIGTERM: no new tables or connections (see .drain)
        self.metrics.watch(self._live, self._live, lambda: len(self.connections))

    def _live(self) -> int:
        # One process drives every table it has: the tables it owns are its live ones.
        return sum(1 for table in self.tables.values() if not table.state.is_over)

    def _kwargs(self) -> dict[str, Any]:
        return {"clock": self.clock, "pool": self.pool, "options": self.options}

    def restore(self) -> None:
        """Bring back every stored table not archived and restart its clocks (inside the
        event loop); archive those whose retention or idle time ran out meanwhile.

        A row that cannot be read or replayed is set aside (:attr:`damaged`, one log
        line each): the other tables serve.  On a shared store (several processes on
        one PostgreSQL database) only the tables this process :meth:`~Store.claim` s
        are brought back here; the others are driven by their owners."""
        rows, damaged = self.store.scan()
        for table_id, reason in damaged.items():
            self._set_aside(table_id, reason)
        owned = set(self.store.claim([row.id for row in rows]))
        for row in rows:
            if row.id in owned:
                self._bring_back(row)
        log.info("restored %d tables, %d damaged set aside", len(self.tables), len(self.damaged))
        self.ready = True

    def _bring_back(self, row: TableRow) -> None:
        """Drive the stored table of ``row`` here, its clocks restarted (the time it was
        not driven is charged to nobody), or archive it if its time ran out meanwhile."""
        wall = self.clock.wall()
        idle_since = wall if row.idle_since is None else row.idle_since
        try:
            if row.finished and (row.ended_at or 0.0) + self.options.retention <= wall:
                self.store.archive(row.id)
                self.store.release(row.id)
                return
            if not row.finished and idle_since + self.options.idle_close <= wall:
                self.store.archive(row.id, wall, closed=True)
                self.store.release(row.id)
                return
        except STORE_ERRORS as exc:  # archived at the next start
            self.metrics.store_failed("archive")
            log.warning("table %s: cannot archive it now: %s", row.id, exc)
            return
        try:
            table = Table.restore(row, self.store, **self._kwargs())
        except Exception as exc:  # a damaged row: keep serving the others
            self._set_aside(row.id, f"it cannot be replayed: {str(exc)[:200]}")
            return
        table.idle_since = idle_since
        self._add(table)

    async def take_over(self) -> list[str]:
        """On a shared store: drive here the tables whose owner died (its PostgreSQL
        session ended, so its locks are free), replayed from their moves; returns their
        ids.  If this process lost its own session, its tables may be another's now:
        it stops driving them first (it never drives a table it does not own).

        The dead one's tables are shared out at the first look that finds them free:
        each live process claims the ones that fall to its place (:func:`share_of`,
        the same split in every process, so none is claimed twice and none waits for
        another look), all in one statement, reads them in two queries, and replays
        and drives them one after another, letting the event loop run every
        ``_TAKEOVER_SLICE`` seconds (a few dozen tables go in one slice on an idle
        machine; the loop of a busy process takes as long to go round anyway).  A
        table still free at the next look (the process it fell to is slow, or the
        live processes changed meanwhile) is anyone's."""
        if not self.store.shared or self.draining:  # a draining process takes nothing
            return []
        if not self.store.owns():
            log.error("lost the database session owning %d tables: left to others",
                      len(self.tables))  # fmt: skip
            for table in list(self.tables.values()):
                table.stop()
                self.tables.pop(table.id, None)
                timer = self._expiry.pop(table.id, None)
                if timer is not None:
                    timer.cancel()
        began = time.monotonic()
        free = self.store.unowned(set(self.tables) | set(self.damaged))
        seen, self._free = self._free, set(free)
        if not free:
            return []
        place, servers = self.store.place()
        claimed = self.store.claim(share_of(free, place, servers, seen))
        if not claimed:
            return []
        try:
            rows, damaged = self.store.load_many(claimed)
        except STORE_ERRORS:  # not read: left to whoever looks next (this one included)
            for table_id in claimed:
                with contextlib.suppress(*STORE_ERRORS):
                    self.store.release(table_id)
            raise
        for table_id, reason in damaged.items():
            self._set_aside(table_id, reason)  # kept claimed: nobody else tries it
        read = time.monotonic() - began
        left = set(claimed) - set(damaged)
        taken: list[str] = []
        since = time.monotonic()
        for row in rows:
            if self.draining:  # SIGTERM meanwhile: the rest is left to the others now
                break
            left.discard(row.id)
            if row.archived:  # archived since it was found free: nothing to drive
                self.store.release(row.id)
                continue
            self._bring_back(row)
            if row.id in self.tables:
                taken.append(row.id)
            if time.monotonic() - since >= _TAKEOVER_SLICE:
                await asyncio.sleep(0)
                since = time.monotonic()
        for table_id in left:  # gone from the store, or left by a drain
            self.store.release(table_id)
        if taken:
            done = time.monotonic() - began
            log.info("took over %d tables whose owner is gone: read in %.3f s, all driven "
                     "%.3f s after the look", len(taken), read, done)  # fmt: skip
        return taken

    def _set_aside(self, table_id: str, reason: str) -> None:
        self.damaged[table_id] = reason
        log.error("table %s is damaged and set aside: %s", table_id[:40], reason)

    def _add(self, table: Table) -> None:
        self.tables[table.id] = table
        table.on_change = self._review
        table.metrics = self.metrics
        table.start()
        if self.store.shared:  # its people may be connected to other processes
            if any(seat.kind == "person" for seat in table.seats):
                table.heard_seats()
            self._adopt(table)
        self._review(table)

    # -- serving the tables other processes drive (a shared store) ---------------------

    def serve(self, table_id: str) -> Table:
        """The table a connection to ``table_id`` uses: driven here, or (on a shared
        store) a :class:`~trixcomplex.server.replica.Replica` of a live table another
        process drives, kept while a connection uses it (:meth:`done`);
        :class:`Refused` if there is no such live table."""
        if table_id in self.tables or not self.store.shared:
            return self.table(table_id)
        replica = self.replicas.get(table_id) or self._replica(table_id)
        self.replicas[table_id] = replica
        self._users[table_id] += 1
        return replica

    def done(self, table_id: str) -> None:
        """A connection that :meth:`serve` d ``table_id`` closed: a replica nobody uses
        any more is dropped (it follows the table no more)."""
        if table_id not in self._users:
            return
        self._users[table_id] -= 1
        if self._users[table_id] <= 0:
            del self._users[table_id]
            replica = self.replicas.pop(table_id, None)
            if replica is not None:
                replica.stop()

    def look(self, table_id: str) -> Table:
        """The live table ``table_id`` as it is now, for a request (its summary, its
        record): driven here, a replica in use, or one read for this request only."""
        if table_id in self.tables or table_id in self.replicas or not self.store.shared:
            return self.tables.get(table_id) or self.replicas.get(table_id) or self.table(table_id)
        return self._replica(table_id)

    def _replica(self, table_id: str) -> Replica:
        unknown = Refused(f"there is no table {table_id[:40]!r}", "unknown-table")
        if table_id in self.damaged:
            raise unknown
        try:
            row = self.store.load(table_id)
        except DamagedRow:
            raise unknown from None
        if row is None or row.archived:
            raise unknown
        try:
            replica = Replica.restore(row, self.store, clock=self.clock, options=self.options)
        except Exception as exc:  # a damaged row
            log.warning("table %s cannot be replayed: %s", table_id, str(exc)[:200])
            raise unknown from None
        replica.metrics = self.metrics  # the moves it stores count as this process's
        replica.start()
        replica.heard_seats()
        return replica

    def _adopt(self, table: Table) -> None:
        """This process drives ``table`` now (taken over): the connections its replica
        served here are served by the table itself, each sent a fresh update."""
        replica = self.replicas.pop(table.id, None)
        if replica is None:
            return
        replica.stop()
        self._users.pop(table.id, None)
        table.hold(replica.held())
        for conn in self.connections:
            if conn.table is replica:
                conn.table = table
                if conn.attached:
                    table.adopt(conn)

    def heard(self, payload: str | None) -> None:
        """What another process (or this one) told on the database: a table's move
        stored (``"{id} {n}"``: the table driven here, or its replica, catches up), its
        seats changed (``"{id} seats"``); ``None``: everything is read again (the
        notifications were not listened to for a while)."""
        if payload is None:
            for each in [*self.tables.values(), *self.replicas.values()]:
                each.catch_up()
                if any(seat.kind == "person" for seat in each.seats):
                    each.heard_seats()
            return
        table_id, _, what = payload.partition(" ")
        table: Table | None = self.tables.get(table_id) or self.replicas.get(table_id)
        if table is None:
            return
        if what == "seats":
            table.heard_seats()
        elif what.isdigit() and int(what) >= len(table.state.history):
            table.catch_up()

    def _review(self, table: Table) -> None:
        """Set the table's expiry: archived after its retention once finished, closed
        after the idle time while nobody is connected, none while someone is."""
        timer = self._expiry.pop(table.id, None)
        if timer is not None:
            timer.cancel()
        if self.tables.get(table.id) is not table:  # archived already: its last goodbye
            return
        wall = self.clock.wall()
        if table.state.is_over and table.ended_at is not None:
            due, closed = table.ended_at + self.options.retention, False
        elif table.watched:
            if table.idle_since is not None:
                table.idle_since = None
                self._set_idle(table.id, None)
            return
        else:
            if table.idle_since is None:
                table.idle_since = wall
                self._set_idle(table.id, wall)
            due, closed = table.idle_since + self.options.idle_close, True
        self._expiry[table.id] = self.clock.call_later(
            due - wall, partial(self._archive, table, closed)
        )

    def _set_idle(self, table_id: str, since: float | None) -> None:
        try:  # kept in memory anyway; only a restart needs it stored
            self.store.set_idle(table_id, since)
        except STORE_ERRORS as exc:
            self.metrics.store_failed("set_idle")
            log.warning("table %s: cannot store its idle time: %s", table_id, exc)

    def _archive(self, table: Table, closed: bool) -> None:
        """Take the table out of memory; its row (and record) stays in the database.
        A store that refuses is tried again later (the table stays as it is meanwhile)."""
        self._expiry.pop(table.id, None)
        try:
            self.store.archive(table.id, self.clock.wall(), closed=closed)
        except STORE_ERRORS as exc:
            self.metrics.store_failed("archive")
            log.warning("table %s: cannot archive it now: %s", table.id, exc)
            self._expiry[table.id] = self.clock.call_later(
                _ARCHIVE_RETRY, partial(self._archive, table, closed)
            )
            return
        table.stop()
        self.tables.pop(table.id, None)
        log.info("table %s %s", table.id, "closed: nobody came" if closed else "archived")
        try:
            self.store.release(table.id)
        except STORE_ERRORS as exc:  # freed with the session anyway
            self.metrics.store_failed("release")
            log.warning("table %s: cannot release it: %s", table.id, exc)

    def open_table(self, request: object, client: str = "") -> Table:
        """A new table from a create request's JSON, for the client at address ``client``;
        :class:`Refused` names what is wrong, or the quota it would exceed."""
        if self.draining:
            raise Refused("the server is going away: open the table on another", "unavailable")
        settings, seats = read_create(request)  # as the browser's worker reads it
        options = self.options
        live = sum(1 for table in self.tables.values() if not table.state.is_over)
        if live >= options.max_tables:
            raise Refused(
                f"this server plays at most {options.max_tables} tables at once; "
                "try again when one is over",
                "too-many-tables",
            )
        creator = _creator(client)
        since = self.clock.wall() - options.create_window
        try:
            if self.store.created_since(creator, since) >= options.create_limit:
                raise Refused(
                    f"at most {options.create_limit} tables per address "
                    f"in {options.create_window:g} seconds",
                    "rate-limited",
                )
            table_id = secrets.token_hex(4)
            while (
                table_id in self.tables
                or self.store.exists(table_id)
                or not self.store.claim([table_id])  # owned here before it is stored
            ):
                table_id = secrets.token_hex(4)
        except STORE_ERRORS as exc:
            self.metrics.store_failed("query")
            log.warning("cannot open a table: %s", exc)
            raise Refused("the server cannot store now; try again later", "unavailable") from None
        table = Table.create(table_id, settings, seats, self.store, creator=creator,
                             **self._kwargs())  # fmt: skip
        self._add(table)
        return table

    def may_join(self, client: str) -> None:
        """Count a seat joined from ``client``; :class:`Refused` past ``options.join_limit``
        joins in ``options.join_window`` seconds (a refused join does not count)."""
        now, options = self.clock.now(), self.options
        if len(self._joins) > _ADDRESSES:  # forget the addresses with no join in the window
            since = now - options.join_window
            self._joins = {a: j for a, j in self._joins.items() if j and j[-1] > since}
        joins = self._joins.setdefault(client, deque())
        while joins and joins[0] <= now - options.join_window:
            joins.popleft()
        if len(joins) >= options.join_limit:
            raise Refused(
                f"at most {options.join_limit} seats joined per address "
                f"in {options.join_window:g} seconds",
                "rate-limited",
            )
        joins.append(now)

    def unjoin(self, client: str) -> None:
        """A join counted by :meth:`may_join` was refused after all: it does not count."""
        joins = self._joins.get(client)
        if joins:
            joins.pop()

    def watch(self, client: str) -> None:
        """One more spectator connection of ``client``; :class:`Refused` past
        ``options.watch_limit`` at once (:meth:`unwatch` when it closes)."""
        if self._watchers[client] >= self.options.watch_limit:
            raise Refused(
                f"at most {self.options.watch_limit} spectator connections per address",
                "too-many-watchers",
            )
        self._watchers[client] += 1

    def unwatch(self, client: str) -> None:
        """A spectator connection of ``client`` closed."""
        self._watchers[client] -= 1
        if self._watchers[client] <= 0:
            del self._watchers[client]

    def table(self, table_id: str) -> Table:
        """The table ``table_id``; :class:`Refused` if there is none."""
        table = self.tables.get(table_id)
        if table is None:
            raise Refused(f"there is no table {table_id[:40]!r}", "unknown-table")
        return table

    def archived(self, table_id: str) -> TableRow | None:
        """The stored row of an archived table (finished, or closed), or ``None``;
        :class:`Refused` (``server.damaged``) if its row cannot be read."""
        if table_id in self.tables:
            return None
        if table_id in self.damaged:
            raise Refused(f"table {table_id[:40]!r} is damaged and set aside", "damaged")
        try:
            row = self.store.load(table_id)
        except DamagedRow as exc:
            self._set_aside(table_id, str(exc))
            raise Refused(f"table {table_id[:40]!r} is damaged and set aside", "damaged") from None
        return row if row is not None and row.archived else None

    def stop(self) -> None:
        """Stop every table's timer, the bots' workers, and close the database."""
        for timer in self._expiry.values():
            timer.cancel()
        self._expiry.clear()
        for table in [*self.tables.values(), *self.replicas.values()]:
            table.stop()
        self.pool.close()
        self.store.close()


SLOW_CLIENT_CODE = 4413
"""The WebSocket close code for a connection that left more unsent updates than
``options.outbox_bytes``: the client reconnects and resumes (a fresh update)."""
GOING_AWAY_CODE = 1001
"""The WebSocket close code (RFC 6455 "going away") of every connection when the
server drains (SIGTERM): the client reconnects, to this server once restarted or
to another behind the same address."""
_GOING_AWAY = ""  # in an outbox: close after what was queued before it (never a message)


class Connection:
    """One WebSocket: the seat it is authenticated as (``None``: spectator), its client's
    address and its outbox (bounded: ``limit`` characters of unsent messages)."""

    def __init__(self, socket: WebSocket, client: str = "", limit: int = 1 << 20) -> None:
        self.socket = socket
        self.client = client
        self.seat: int | None = None
        self.table: Table | None = None  # the table it is served by (driven here or not)
        self.pictures = True
        self.locale = DEFAULT_LOCALE
        self.last_view: tc.View | None = None
        self.attached = False
        self.watching = False  # counted in its address's spectator quota
        self._outbox: asyncio.Queue[str] = asyncio.Queue()
        self._queued = 0  # characters in the outbox
        self._limit = limit
        self._pump: asyncio.Task[None] | None = None
        self._closing: asyncio.Task[None] | None = None
        self.dropped = False

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message``; a client that leaves more than its limit unsent is closed
        (:data:`SLOW_CLIENT_CODE`) and its queue freed, so it holds no more memory."""
        if self.dropped:
            return
        text = json.dumps(message, separators=(",", ":"))
        if self._queued + len(text) > self._limit:
            self._drop()
            return
        self._queued += len(text)
        self._outbox.put_nowait(text)

    def _drop(self) -> None:
        log.warning("closing a connection that does not read its updates")
        self.dropped = True
        self._outbox = asyncio.Queue()
        self._queued = 0
        if self._pump is not None:
            self._pump.cancel()
        with contextlib.suppress(RuntimeError):  # no loop: nothing to close
            self._closing = asyncio.get_running_loop().create_task(self._close())

    async def _close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                self.socket.close(SLOW_CLIENT_CODE, "too many unsent updates: resume"), 10.0
            )

    def start(self) -> asyncio.Task[None]:
        """Start sending the queued messages (the pump task)."""
        self._pump = asyncio.create_task(self.pump())
        return self._pump

    async def pump(self) -> None:
        """Send the queued messages, in order, until cancelled or told to go away."""
        while True:
            text = await self._outbox.get()
            if text == _GOING_AWAY:
                await self.socket.close(GOING_AWAY_CODE, "the server is going away: reconnect")
                return
            self._queued -= len(text)
            await self.socket.send_text(text)

    def going_away(self) -> None:
        """Close with :data:`GOING_AWAY_CODE` once every message queued so far is sent
        (the server drains: each client keeps the last update it was told)."""
        if not self.dropped:
            self._outbox.put_nowait(_GOING_AWAY)

    def refuse(self, exc: tc.TrixError) -> None:
        """Tell the client its message was refused, and why (the library's error JSON, its
        message in the connection's language: :func:`~trixcomplex.host.refusals.refusal_json`)."""
        self.send({"type": "refused", "error": refusal_json(exc, self.locale)})


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("duplicate key")
    return dict(pairs)


def _hello(
    table: Table, conn: Connection, message: dict[str, Any], lobby: Lobby | None = None
) -> None:
    """``join``, ``resume`` or ``watch``: say who this connection is, once; joins and
    watches count in the ``lobby``'s per-address quotas."""
    kind, pictures, locale = read_hello(message, conn.attached)
    conn.locale = locale  # a refusal of this hello is in its language too
    seat, token = None, None
    if kind == "join":
        seat = message.get("seat")
        if lobby is not None:
            lobby.may_join(conn.client)
        try:
            token = table.join(seat, message.get("name"))
        except BaseException:
            if lobby is not None:
                lobby.unjoin(conn.client)
            raise
    elif kind == "resume":
        seat = table.seat_of(message.get("token"))
        table.check_free(seat)
    elif lobby is not None:
        lobby.watch(conn.client)
        conn.watching = True
    hello = welcome(table.id, table.settings, seat, token)
    conn.seat, conn.pictures, conn.locale = seat, pictures, locale
    conn.send(hello)
    table.attach(conn)
    conn.attached = True


def handle(table: Table, conn: Connection, text: str, lobby: Lobby | None = None) -> None:
    """One message from a client: a hello, or a move for the connection's seat; none
    while the ``lobby`` drains (what a client sees then is what is stored)."""
    if lobby is not None and lobby.draining:
        raise Refused("the server is going away: reconnect and send it again", "unavailable")
    message, readable = read_message(text)  # the one parse of the message
    if isinstance(message, dict) and "type" in message:
        _hello(table, conn, message, lobby)
    elif not conn.attached:
        raise Refused("send join, resume or watch first", "hello-first")
    else:  # a move: its value, or the text the library refuses (for its own reason)
        table.submit(conn.seat, message if readable else text)


async def _receive(socket: WebSocket, conn: Connection, hello_by: float) -> dict[str, Any] | None:
    """The next message; ``None`` once the time for a hello is out and none came."""
    if conn.attached:
        return dict(await socket.receive())
    left = hello_by - asyncio.get_running_loop().time()
    try:
        return dict(await asyncio.wait_for(socket.receive(), max(0.0, left)))
    except TimeoutError:
        return None


async def _socket(socket: WebSocket) -> None:
    lobby: Lobby = socket.app.state.lobby
    hello_by = asyncio.get_running_loop().time() + lobby.options.hello_timeout
    table_id = socket.path_params["table_id"]
    await socket.accept()
    if lobby.draining:  # accepted as the listening socket closed: reconnect elsewhere
        await socket.close(GOING_AWAY_CODE, "the server is going away: reconnect")
        return
    client = socket.client.host if socket.client is not None else ""
    conn = Connection(socket, client, lobby.options.outbox_bytes)
    conn.locale = request_locale(socket.query_params.get("locale", ""), None)  # before a hello
    pump = conn.start()
    lobby.connections.add(conn)
    served = False
    try:
        conn.table = lobby.serve(table_id)  # driven here, or a replica of another's
        served = True
        while True:
            message = await _receive(socket, conn, hello_by)
            table = conn.table  # a replica's connections move to the table if taken over
            assert table is not None
            received, moves = lobby.clock.now(), len(table.state.history)
            if message is None:  # no join, resume or watch in time: a connection held idle
                await socket.close(HELLO_TIMEOUT_CODE, "send join, resume or watch first")
                break
            if message["type"] == "websocket.disconnect" or conn.dropped:
                break
            text = message.get("text")
            if text is None:
                conn.refuse(Refused("send each message as a JSON text frame", "bad-request"))
                continue
            try:
                handle(table, conn, text, lobby)
            except tc.TrixError as exc:  # Refused, SubmitError, IllegalMoveError, ...
                conn.refuse(exc)
            except Exception:  # a bug: say so, keep the connection and the table as they were
                log.exception("table %s: a message failed", table.id)
                conn.refuse(Refused("the server failed; nothing was changed", "internal"))
            else:
                if len(table.state.history) > moves:  # a move applied, its updates queued
                    lobby.metrics.move_latency(lobby.clock.now() - received)
    except Refused as exc:  # no such table
        conn.refuse(exc)
        conn.send({"type": "bye"})
        await asyncio.sleep(0.1)
    except (WebSocketDisconnect, RuntimeError):
        pass  # the client went away
    except STORE_ERRORS as exc:  # the store is down: the client reconnects
        log.warning("table %s: cannot read it: %s", table_id[:40], exc)
        with contextlib.suppress(Exception):
            await socket.close(GOING_AWAY_CODE, "the server cannot reach its store: reconnect")
    finally:
        lobby.connections.discard(conn)
        if conn.table is not None:
            conn.table.detach(conn)
        if served:
            lobby.done(table_id)
        if conn.watching:
            lobby.unwatch(conn.client)
        pump.cancel()
        with contextlib.suppress(BaseException):
            await pump


HELLO_TIMEOUT_CODE = 4408
"""The WebSocket close code for a connection that said nothing of who it is in time."""


def _json_error(exc: tc.TrixError, status: int = 400, locale: str = DEFAULT_LOCALE) -> JSONResponse:
    return JSONResponse({"error": refusal_json(exc, locale)}, status_code=status)


def _locale(request: Request) -> str:
    """The language of a request: ``?locale=``, else the browser's ``Accept-Language``."""
    asked = request.query_params.get("locale", "")
    return request_locale(asked, request.headers.get("accept-language"))


async def _take_over_every(lobby: Lobby, seconds: float) -> None:
    """Look for tables whose owner died every ``seconds``, for as long as the server runs."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await lobby.take_over()
        except STORE_ERRORS as exc:
            lobby.metrics.store_failed("query")
            log.warning("cannot look for tables to take over: %s", exc)
        except Exception:  # a bug: keep serving, look again
            log.exception("taking tables over failed")


async def _list_tables(request: Request) -> Response:
    lobby: Lobby = request.app.state.lobby
    listed: dict[str, Any] = {"tables": [t.summary() for t in lobby.tables.values()]}
    if lobby.damaged:
        listed["damaged"] = sorted(lobby.damaged)
    return JSONResponse(listed)


_CREATE_STATUS = {
    "server.too-many-tables": 503,
    "server.rate-limited": 429,
    "server.unavailable": 503,
}


async def _create_table(request: Request) -> Response:
    lobby: Lobby = request.app.state.lobby
    kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if kind != "application/json":  # a form or text/plain: what a foreign page can send
        refused = Refused("send the request as application/json", "bad-content-type")
        return _json_error(refused, 415)
    body = b""
    async for chunk in request.stream():  # read no more than the limit
        body += chunk
        if len(body) > MAX_MESSAGE:
            return _json_error(Refused(f"a request is at most {MAX_MESSAGE} bytes", "too-long"))
    try:
        request_json = json.loads(body, object_pairs_hook=_no_duplicates)
    except (ValueError, RecursionError):  # RecursionError: nested too deep
        return _json_error(Refused("the request is not a JSON object", "bad-request"))
    client = request.client.host if request.client is not None else ""
    try:
        table = lobby.open_table(request_json, client)
    except tc.TrixError as exc:
        return _json_error(exc, _CREATE_STATUS.get(exc.code or "", 400), _locale(request))
    return JSONResponse(table.summary(), status_code=201)


async def _table(request: Request) -> Response:
    lobby: Lobby = request.app.state.lobby
    table_id = request.path_params["table_id"]
    try:
        return JSONResponse(lobby.look(table_id).summary())
    except Refused as exc:
        try:
            row = lobby.archived(table_id)
        except Refused as damaged:
            return _json_error(damaged, 409)
        if row is None:
            return _json_error(exc, 404)
        return JSONResponse(_archived_summary(row))


def _archived_summary(row: TableRow) -> dict[str, Any]:
    seats = [Seat(s["kind"], s["name"], s["token_sha256"]).public(False) for s in row.seats]
    return {
        "id": row.id,
        "created": row.created,
        "settings": row.settings,
        "seats": seats,
        "phase": None,
        "deal_number": None,
        "finished": row.finished,
        "archived": True,
    }


async def _record(request: Request) -> Response:
    lobby: Lobby = request.app.state.lobby
    table_id = request.path_params["table_id"]
    try:
        table = lobby.look(table_id)
    except Refused as exc:
        try:
            row = lobby.archived(table_id)
        except Refused as damaged:
            return _json_error(damaged, 409)
        if row is None:
            return _json_error(exc, 404)
        name = f"trixcomplex-{row.id}.json"
        disposition = {"Content-Disposition": f'attachment; filename="{name}"'}
        return JSONResponse(row.record, headers=disposition)
    try:
        record = table.record()
    except Refused as exc:
        return _json_error(exc, 409)
    name = f"trixcomplex-{table.id}.json"
    return JSONResponse(record, headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _static(name: str) -> str:
    return resources.files("trixcomplex.server").joinpath("static", name).read_text("utf-8")


async def _page(request: Request) -> Response:
    return HTMLResponse(_static("index.html"))


async def _script(request: Request) -> Response:
    return Response(_static("app.js"), media_type="text/javascript")


async def _messages(request: Request) -> Response:
    """The page's messages (:func:`page_messages`) in the language asked for with
    ``?locale=`` (a selector's choice), else the browser's first known language, else
    English: the page never fails for want of a language."""
    locale = _locale(request)
    return JSONResponse(
        page_messages(locale), headers={"Content-Language": locale, "Vary": "Accept-Language"}
    )


async def _scorekeeper_page(request: Request) -> Response:
    return HTMLResponse(_static("scorekeeper.html"))


async def _scorekeeper_script(request: Request) -> Response:
    return Response(_static("scorekeeper.js"), media_type="text/javascript")


async def _scorebook(request: Request) -> Response:
    """One reported deal added to the client's scorebook, or the library's refusal
    (``outcome.inconsistent`` and the clause), 400: nothing is kept either way.  The
    answer is :func:`~trixcomplex.server.scorebook.answer`'s, as the static build's."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        refused = Refused("send the request as application/json", "bad-content-type")
        return _json_error(refused, 415)
    body = b""
    async for chunk in request.stream():  # read no more than the limit
        body += chunk
        if len(body) > SCOREBOOK_LIMIT:
            break
    status, reply = scorebook_answer(body)
    return JSONResponse(reply, status_code=status)


async def _transport(request: Request) -> Response:
    return Response(_static("transport.js"), media_type="text/javascript")


async def _unavailable(request: Request, exc: Exception) -> Response:
    """A store that fails under a request (a full disk): 503, JSON, one log line."""
    request.app.state.lobby.metrics.store_failed("query")
    log.warning("%s %s: cannot reach the store: %s", request.method, request.url.path, exc)
    return _json_error(Refused("the server cannot store now; try again later", "unavailable"), 503)


async def _failed(request: Request, exc: Exception) -> Response:
    """Any other failure under a request (a bug): 500, JSON, never a traceback to the client."""
    return _json_error(Refused("the server failed; nothing was changed", "internal"), 500)


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such route, method not allowed) as the server's JSON."""
    assert isinstance(exc, HTTPException)
    refused = Refused(str(exc.detail)[:200], "bad-request")
    return JSONResponse({"error": refused.to_json()}, exc.status_code, headers=exc.headers)


def open_store(db: str) -> Store:
    """The store ``--db`` names: a PostgreSQL database for a ``postgresql://`` (or
    ``postgres://``) URL (the ``postgres`` extra, imported only then), else the SQLite
    file ``db``.  :class:`ValueError` in one line for a database that is not ours, or
    unreachable; :class:`ImportError` naming the extra if it is missing.

    >>> type(open_store(":memory:")).__name__
    'SqliteStore'
    """
    if db.startswith(("postgresql://", "postgres://")):
        from .store_postgres import PostgresStore

        return PostgresStore(db)
    return SqliteStore(db)


def create_app(db: str, options: Options | None = None, *, clock: Clock | None = None) -> Starlette:
    """The server's ASGI application, storing its tables in ``db``: a SQLite file, or
    a PostgreSQL database's ``postgresql://`` URL (:func:`open_store`).

    The database is opened (and checked) here; the stored tables come back,
    clocks restarted, when the application starts.  Bots think in worker
    processes (``options.bot_workers``), started when first needed.

    >>> app = create_app(":memory:")
    >>> [path for path in sorted(r.path for r in app.routes) if path.startswith("/api/t")][:2]
    ['/api/tables', '/api/tables']
    """
    options = options or Options()
    lobby = Lobby(open_store(db), options, clock=clock, pool=BotPool(options.bot_workers))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if lobby.store.shared:  # told of every table's moves and seats, from any process
            listen = asyncio.create_task(lobby.store.listen(lobby.heard))
        lobby.restore()
        if lobby.store.shared:  # several processes on one database: take over the dead's
            watch = asyncio.create_task(_take_over_every(lobby, _TAKEOVER_EVERY))
        yield
        if lobby.store.shared:
            watch.cancel()
            listen.cancel()
            with contextlib.suppress(BaseException):
                await listen
        lobby.stop()

    app = Starlette(
        routes=[
            Route("/", _page),
            Route("/app.js", _script),
            Route("/api/messages", _messages, methods=["GET"]),
            Route("/scorekeeper", _scorekeeper_page),
            Route("/scorekeeper.js", _scorekeeper_script),
            Route("/api/scorebook", _scorebook, methods=["POST"]),
            Route("/transport.js", _transport),
            Route("/api/tables", _list_tables, methods=["GET"]),
            Route("/api/tables", _create_table, methods=["POST"]),
            Route("/api/tables/{table_id}", _table),
            Route("/api/tables/{table_id}/record", _record),
            WebSocketRoute("/ws/{table_id}", _socket),
            *health_routes(),
        ],
        lifespan=lifespan,
        middleware=[Middleware(OriginGuard, allow=options.allow_origins)],
        exception_handlers={
            HTTPException: _http_error,
            **dict.fromkeys(STORE_ERRORS, _unavailable),
            Exception: _failed,
        },
    )
    app.state.lobby = lobby
    return app
