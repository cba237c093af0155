"""The web application: the page, a small JSON API and one WebSocket per connection.

Routes:

- ``GET /``: the page (``static/index.html``, plain JavaScript, no build step), with
  ``/app.js`` and ``/transport.js`` (the server, or the engine in a Web Worker: :doc:`/web`).
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
from trixcomplex.host.submit import MAX_SUBMIT_LENGTH, read_input

from .clock import Clock, LoopClock, Timer
from .options import Options
from .origin import OriginGuard
from .pool import BotPool
from .store import STORE_ERRORS, DamagedRow, Store, TableRow
from .table import Refused, Seat, Settings, Table

__all__ = ["MAX_MESSAGE", "MAX_TABLES", "SLOW_CLIENT_CODE", "Connection", "Lobby", "create_app"]

log = logging.getLogger("trixcomplex.server")

MAX_MESSAGE = 4096
"""The longest message (characters) a client may send; longer ones are refused unread."""
MAX_TABLES = Options().max_tables
"""The most tables a server plays at once unless told otherwise (finished ones not counted)."""
_ARCHIVE_RETRY = 30.0  # seconds: an archive the store refused is tried again
_ADDRESSES = 10_000  # addresses whose joins are remembered before the old ones are pruned
_CREATE_KEYS = frozenset({"seats", *Settings().to_json()})
_HELLO_KEYS = {
    "join": frozenset({"type", "seat", "name", "pictures"}),
    "resume": frozenset({"type", "token", "pictures"}),
    "watch": frozenset({"type", "pictures"}),
}


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
    ) -> None:
        self.store = store
        self.options = options or Options()
        self.clock: Clock = clock or LoopClock()
        self.pool = pool or BotPool(1, processes=False)
        self.tables: dict[str, Table] = {}
        self.damaged: dict[str, str] = {}  # tables set aside: their rows cannot be read
        self._expiry: dict[str, Timer] = {}
        self._joins: dict[str, deque[float]] = {}  # per address: when it joined seats
        self._watchers: Counter[str] = Counter()  # per address: its spectator connections

    def _kwargs(self) -> dict[str, Any]:
        return {"clock": self.clock, "pool": self.pool, "options": self.options}

    def restore(self) -> None:
        """Bring back every stored table not archived and restart its clocks (inside the
        event loop); archive those whose retention or idle time ran out meanwhile.

        A row that cannot be read or replayed is set aside (:attr:`damaged`, one log
        line each): the other tables serve."""
        wall = self.clock.wall()
        rows, damaged = self.store.scan()
        for table_id, reason in damaged.items():
            self._set_aside(table_id, reason)
        for row in rows:
            idle_since = wall if row.idle_since is None else row.idle_since
            try:
                if row.finished and (row.ended_at or 0.0) + self.options.retention <= wall:
                    self.store.archive(row.id)
                    continue
                if not row.finished and idle_since + self.options.idle_close <= wall:
                    self.store.archive(row.id, wall, closed=True)
                    continue
            except STORE_ERRORS as exc:  # archived at the next start
                log.warning("table %s: cannot archive it now: %s", row.id, exc)
                continue
            try:
                table = Table.restore(row, self.store, **self._kwargs())
            except Exception as exc:  # a damaged row: keep serving the others
                self._set_aside(row.id, f"it cannot be replayed: {str(exc)[:200]}")
                continue
            table.idle_since = idle_since
            self._add(table)
        log.info("restored %d tables, %d damaged set aside", len(self.tables), len(self.damaged))

    def _set_aside(self, table_id: str, reason: str) -> None:
        self.damaged[table_id] = reason
        log.error("table %s is damaged and set aside: %s", table_id[:40], reason)

    def _add(self, table: Table) -> None:
        self.tables[table.id] = table
        table.on_change = self._review
        table.start()
        self._review(table)

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
            log.warning("table %s: cannot store its idle time: %s", table_id, exc)

    def _archive(self, table: Table, closed: bool) -> None:
        """Take the table out of memory; its row (and record) stays in the database.
        A store that refuses is tried again later (the table stays as it is meanwhile)."""
        self._expiry.pop(table.id, None)
        try:
            self.store.archive(table.id, self.clock.wall(), closed=closed)
        except STORE_ERRORS as exc:
            log.warning("table %s: cannot archive it now: %s", table.id, exc)
            self._expiry[table.id] = self.clock.call_later(
                _ARCHIVE_RETRY, partial(self._archive, table, closed)
            )
            return
        table.stop()
        self.tables.pop(table.id, None)
        log.info("table %s %s", table.id, "closed: nobody came" if closed else "archived")

    def open_table(self, request: object, client: str = "") -> Table:
        """A new table from a create request's JSON, for the client at address ``client``;
        :class:`Refused` names what is wrong, or the quota it would exceed."""
        if not isinstance(request, dict):
            raise Refused("send a JSON object", "bad-request")
        unknown = sorted(str(k) for k in request if k not in _CREATE_KEYS)
        if unknown:
            raise Refused(f"unknown key {unknown[0][:40]!r}", "bad-request")
        kinds = request.get("seats", ["person", "rule", "rule", "rule"])
        if not isinstance(kinds, list) or len(kinds) != 4:
            raise Refused("seats is a list of four: person or a bot's name", "bad-seat")
        seats = [Seat.parse(kind) for kind in kinds]
        settings = Settings.from_json(request)
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
            while table_id in self.tables or self.store.exists(table_id):
                table_id = secrets.token_hex(4)
        except STORE_ERRORS as exc:
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
        for table in self.tables.values():
            table.stop()
        self.pool.close()
        self.store.close()


SLOW_CLIENT_CODE = 4413
"""The WebSocket close code for a connection that left more unsent updates than
``options.outbox_bytes``: the client reconnects and resumes (a fresh update)."""


class Connection:
    """One WebSocket: the seat it is authenticated as (``None``: spectator), its client's
    address and its outbox (bounded: ``limit`` characters of unsent messages)."""

    def __init__(self, socket: WebSocket, client: str = "", limit: int = 1 << 20) -> None:
        self.socket = socket
        self.client = client
        self.seat: int | None = None
        self.pictures = True
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
        """Send the queued messages, in order, until cancelled."""
        while True:
            text = await self._outbox.get()
            self._queued -= len(text)
            await self.socket.send_text(text)

    def refuse(self, exc: tc.TrixError) -> None:
        """Tell the client its message was refused, and why (the library's error JSON)."""
        self.send({"type": "refused", "error": exc.to_json()})


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
    kind = message.get("type")
    if kind not in _HELLO_KEYS:
        raise Refused(f"unknown message type {str(kind)[:40]!r}", "bad-request")
    if conn.attached:
        raise Refused("this connection already joined; open another one", "already-joined")
    unknown = sorted(k for k in message if k not in _HELLO_KEYS[kind])
    if unknown:
        raise Refused(f"unknown key {unknown[0][:40]!r} in a {kind} message", "bad-request")
    pictures = message.get("pictures", True)
    if type(pictures) is not bool:
        raise Refused("pictures is true or false", "bad-request")
    hello: dict[str, Any] = {"type": "welcome", "table": table.id, "seat": None}
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
        hello.update(seat=seat, token=token)
    elif kind == "resume":
        seat = table.seat_of(message.get("token"))
        table.check_free(seat)
        hello.update(seat=seat)
    elif lobby is not None:
        lobby.watch(conn.client)
        conn.watching = True
    hello["settings"] = table.settings.to_json()
    hello["partnership"] = tc.Ruleset.from_name(table.settings.ruleset).partnership
    conn.seat, conn.pictures = hello["seat"], pictures
    conn.send(hello)
    table.attach(conn)
    conn.attached = True


def handle(table: Table, conn: Connection, text: str, lobby: Lobby | None = None) -> None:
    """One message from a client: a hello, or a move for the connection's seat."""
    if len(text) > MAX_MESSAGE:
        raise Refused(f"a message is at most {MAX_MESSAGE} characters", "too-long")
    try:  # the one parse of the message, by the library's strict reader
        message = read_input(text, max_length=MAX_MESSAGE)
        readable = len(text) <= MAX_SUBMIT_LENGTH
    except tc.TrixError:
        message, readable = None, False
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
    await socket.accept()
    client = socket.client.host if socket.client is not None else ""
    conn = Connection(socket, client, lobby.options.outbox_bytes)
    pump = conn.start()
    table: Table | None = None
    try:
        table = lobby.table(socket.path_params["table_id"])
        while True:
            message = await _receive(socket, conn, hello_by)
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
    except Refused as exc:  # no such table
        conn.refuse(exc)
        conn.send({"type": "bye"})
        await asyncio.sleep(0.1)
    except (WebSocketDisconnect, RuntimeError):
        pass  # the client went away
    finally:
        if table is not None:
            table.detach(conn)
        if conn.watching:
            lobby.unwatch(conn.client)
        pump.cancel()
        with contextlib.suppress(BaseException):
            await pump


HELLO_TIMEOUT_CODE = 4408
"""The WebSocket close code for a connection that said nothing of who it is in time."""


def _json_error(exc: tc.TrixError, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": exc.to_json()}, status_code=status)


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
        return _json_error(exc, _CREATE_STATUS.get(exc.code or "", 400))
    return JSONResponse(table.summary(), status_code=201)


async def _table(request: Request) -> Response:
    lobby: Lobby = request.app.state.lobby
    table_id = request.path_params["table_id"]
    try:
        return JSONResponse(lobby.table(table_id).summary())
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
        table = lobby.table(table_id)
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


async def _transport(request: Request) -> Response:
    return Response(_static("transport.js"), media_type="text/javascript")


async def _unavailable(request: Request, exc: Exception) -> Response:
    """A store that fails under a request (a full disk): 503, JSON, one log line."""
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


def create_app(db: str, options: Options | None = None, *, clock: Clock | None = None) -> Starlette:
    """The server's ASGI application, storing its tables in the SQLite file ``db``.

    The database is opened (and checked) here; the stored tables come back,
    clocks restarted, when the application starts.  Bots think in worker
    processes (``options.bot_workers``), started when first needed.

    >>> app = create_app(":memory:")
    >>> sorted(r.path for r in app.routes)[:3]
    ['/', '/api/tables', '/api/tables']
    """
    options = options or Options()
    lobby = Lobby(Store(db), options, clock=clock, pool=BotPool(options.bot_workers))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        lobby.restore()
        yield
        lobby.stop()

    app = Starlette(
        routes=[
            Route("/", _page),
            Route("/app.js", _script),
            Route("/transport.js", _transport),
            Route("/api/tables", _list_tables, methods=["GET"]),
            Route("/api/tables", _create_table, methods=["POST"]),
            Route("/api/tables/{table_id}", _table),
            Route("/api/tables/{table_id}/record", _record),
            WebSocketRoute("/ws/{table_id}", _socket),
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
