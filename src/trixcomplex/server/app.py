"""The web application: the page, a small JSON API and one WebSocket per connection.

Routes:

- ``GET /``: the page (``static/index.html``, plain JavaScript, no build step).
- ``GET /api/tables``: the tables, as the lobby lists them.
- ``POST /api/tables``: open a table; the body names its ruleset, seats and clocks.
- ``GET /api/tables/{id}``: one table's summary.
- ``GET /api/tables/{id}/record``: the game record of a finished match.
- ``WS /ws/{id}``: play or watch a table (see :doc:`/server` for the messages).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

import trixcomplex as tc

from .store import Store
from .table import Refused, Seat, Settings, Table

__all__ = ["MAX_MESSAGE", "MAX_TABLES", "Connection", "Lobby", "create_app"]

log = logging.getLogger("trixcomplex.server")

MAX_MESSAGE = 4096
"""The longest message (characters) a client may send; longer ones are refused unread."""
MAX_TABLES = 1000
"""The most tables a server keeps open at once (finished ones included)."""
_OUTBOX = 1000  # messages queued for one slow client before it is dropped
_CREATE_KEYS = frozenset({"seats", *Settings().to_json()})
_HELLO_KEYS = {
    "join": frozenset({"type", "seat", "name", "pictures"}),
    "resume": frozenset({"type", "token", "pictures"}),
    "watch": frozenset({"type", "pictures"}),
}


class Lobby:
    """Every table of the server, and the database they are stored in."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}

    def restore(self) -> None:
        """Bring back every stored table and restart its clocks (inside the event loop)."""
        for row in self.store.load_all():
            try:
                table = Table.restore(row, self.store)
            except Exception as exc:  # a damaged row: keep serving the others
                log.error("table %s cannot be restored: %s", row.id, exc)
                continue
            self.tables[table.id] = table
            table.start()
        log.info("restored %d tables", len(self.tables))

    def open_table(self, request: object) -> Table:
        """A new table from a create request's JSON; :class:`Refused` names what is wrong."""
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
        if len(self.tables) >= MAX_TABLES:
            raise Refused(f"this server hosts at most {MAX_TABLES} tables", "too-many-tables")
        table_id = secrets.token_hex(4)
        while table_id in self.tables:
            table_id = secrets.token_hex(4)
        table = Table.create(table_id, settings, seats, self.store)
        self.tables[table_id] = table
        table.start()
        return table

    def table(self, table_id: str) -> Table:
        """The table ``table_id``; :class:`Refused` if there is none."""
        table = self.tables.get(table_id)
        if table is None:
            raise Refused(f"there is no table {table_id[:40]!r}", "unknown-table")
        return table

    def stop(self) -> None:
        """Stop every table's timer and close the database."""
        for table in self.tables.values():
            table.stop()
        self.store.close()


class Connection:
    """One WebSocket: the seat it is authenticated as (``None``: spectator) and its outbox."""

    def __init__(self, socket: WebSocket) -> None:
        self.socket = socket
        self.seat: int | None = None
        self.pictures = True
        self.last_view: tc.View | None = None
        self.attached = False
        self._outbox: asyncio.Queue[str | None] = asyncio.Queue(_OUTBOX)
        self._dropped = False

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message``; a client too slow to take its messages is disconnected."""
        if self._dropped:
            return
        try:
            self._outbox.put_nowait(json.dumps(message, separators=(",", ":")))
        except asyncio.QueueFull:
            log.warning("dropping a client that does not read its messages")
            self._dropped = True
            self._outbox = asyncio.Queue(1)
            self._outbox.put_nowait(None)

    async def pump(self) -> None:
        """Send the queued messages, in order, until told to stop."""
        while True:
            text = await self._outbox.get()
            if text is None:
                await self.socket.close(1008)
                return
            await self.socket.send_text(text)

    def refuse(self, exc: tc.TrixError) -> None:
        """Tell the client its message was refused, and why (the library's error JSON)."""
        self.send({"type": "refused", "error": exc.to_json()})


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("duplicate key")
    return dict(pairs)


def _hello(table: Table, conn: Connection, message: dict[str, Any]) -> None:
    """``join``, ``resume`` or ``watch``: say who this connection is, once."""
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
        token = table.join(seat, message.get("name"))
        hello.update(seat=seat, token=token)
    elif kind == "resume":
        seat = table.seat_of(message.get("token"))
        table.check_free(seat)
        hello.update(seat=seat)
    hello["settings"] = table.settings.to_json()
    conn.seat, conn.pictures = hello["seat"], pictures
    conn.send(hello)
    table.attach(conn)
    conn.attached = True


def handle(table: Table, conn: Connection, text: str) -> None:
    """One message from a client: a hello, or a move for the connection's seat."""
    if len(text) > MAX_MESSAGE:
        raise Refused(f"a message is at most {MAX_MESSAGE} characters", "too-long")
    try:
        message = json.loads(text, object_pairs_hook=_no_duplicates)
    except ValueError:
        message = None  # the library refuses it, with its own reason
    if isinstance(message, dict) and "type" in message:
        _hello(table, conn, message)
    elif not conn.attached:
        raise Refused("send join, resume or watch first", "hello-first")
    else:
        table.submit(conn.seat, text)


async def _socket(socket: WebSocket) -> None:
    lobby: Lobby = socket.app.state.lobby
    await socket.accept()
    conn = Connection(socket)
    pump = asyncio.create_task(conn.pump())
    table: Table | None = None
    try:
        table = lobby.table(socket.path_params["table_id"])
        while True:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                conn.refuse(Refused("send each message as a JSON text frame", "bad-request"))
                continue
            try:
                handle(table, conn, text)
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
        pump.cancel()
        with contextlib.suppress(BaseException):
            await pump


def _json_error(exc: tc.TrixError, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": exc.to_json()}, status_code=status)


async def _list_tables(request: Request) -> Response:
    lobby: Lobby = request.app.state.lobby
    return JSONResponse({"tables": [t.summary() for t in lobby.tables.values()]})


async def _create_table(request: Request) -> Response:
    lobby: Lobby = request.app.state.lobby
    body = b""
    async for chunk in request.stream():  # read no more than the limit
        body += chunk
        if len(body) > MAX_MESSAGE:
            return _json_error(Refused(f"a request is at most {MAX_MESSAGE} bytes", "too-long"))
    try:
        request_json = json.loads(body, object_pairs_hook=_no_duplicates)
    except ValueError:
        return _json_error(Refused("the request is not a JSON object", "bad-request"))
    try:
        table = lobby.open_table(request_json)
    except tc.TrixError as exc:
        return _json_error(exc)
    return JSONResponse(table.summary(), status_code=201)


async def _table(request: Request) -> Response:
    lobby: Lobby = request.app.state.lobby
    try:
        return JSONResponse(lobby.table(request.path_params["table_id"]).summary())
    except Refused as exc:
        return _json_error(exc, 404)


async def _record(request: Request) -> Response:
    lobby: Lobby = request.app.state.lobby
    try:
        table = lobby.table(request.path_params["table_id"])
    except Refused as exc:
        return _json_error(exc, 404)
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


def create_app(db: str) -> Starlette:
    """The server's ASGI application, storing its tables in the SQLite file ``db``.

    The database is opened (and checked) here; the stored tables come back,
    clocks restarted, when the application starts.

    >>> app = create_app(":memory:")
    >>> sorted(r.path for r in app.routes)[:3]
    ['/', '/api/tables', '/api/tables']
    """
    lobby = Lobby(Store(db))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        lobby.restore()
        yield
        lobby.stop()

    app = Starlette(
        routes=[
            Route("/", _page),
            Route("/app.js", _script),
            Route("/api/tables", _list_tables, methods=["GET"]),
            Route("/api/tables", _create_table, methods=["POST"]),
            Route("/api/tables/{table_id}", _table),
            Route("/api/tables/{table_id}/record", _record),
            WebSocketRoute("/ws/{table_id}", _socket),
        ],
        lifespan=lifespan,
    )
    app.state.lobby = lobby
    return app
