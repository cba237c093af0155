"""Test helpers for the table server: a real uvicorn process on 127.0.0.1, and clients.

The server runs as ``python -m trixcomplex serve`` in a child process on a
free port; :class:`Server` starts it, waits until it answers, and always
stops it (``kill`` for a crash).  :class:`Client` is a blocking WebSocket
client that keeps every message it receives.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import trixcomplex as tc
from trixcomplex.server import pool
from trixcomplex.server.clock import ManualClock
from trixcomplex.server.store import Store, StoreUnavailable, TableRow
from trixcomplex.server.store_sqlite import SqliteStore

SRC = Path(__file__).resolve().parent.parent / "src"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``trixcomplex serve`` in a child process, on a free port of 127.0.0.1."""

    FAST = ("--create-limit", "100000", "--join-limit", "100000", "--watch-limit", "100000",
            "--bot-window", "0.05")  # fmt: skip
    """Options for the protocol tests: no per-address quota in the way; the doubling
    window's answers applied soon (a bot not ready by then doubles nothing)."""

    def __init__(self, db: Path | str, port: int | None = None, *options: str) -> None:
        """``db``: a SQLite file, or a PostgreSQL database's URL (the log goes to a
        temporary file then)."""
        self.db = db
        self.port = port or free_port()
        if isinstance(db, str) and db.startswith("postgresql://"):
            handle, name = tempfile.mkstemp(suffix=f".{self.port}.log")
            os.close(handle)
            self.log_path = Path(name)
        else:
            self.log_path = Path(db).with_suffix(f".{self.port}.log")
        self.base = f"http://127.0.0.1:{self.port}"
        env = dict(
            os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])
        )
        self.log = self.log_path.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "trixcomplex", "serve", "--host", "127.0.0.1",
             "--port", str(self.port), "--db", str(db), *(options or self.FAST)],
            stdout=self.log, stderr=subprocess.STDOUT, env=env,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while True:
            try:
                self.get("/api/tables")
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"the server did not start: {self.read_log()}") from None
                time.sleep(0.05)

    def read_log(self) -> str:
        self.log.flush()
        return self.log_path.read_text()

    def kill(self) -> None:
        """SIGKILL: the process dies at once, mid-whatever (a crash)."""
        self.process.kill()
        self.process.wait(10)
        self.log.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.log.close()
        if self.log_path.parent == Path(tempfile.gettempdir()):  # a PostgreSQL server's log
            self.log_path.unlink(missing_ok=True)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- HTTP ------------------------------------------------------------------------

    def request(
        self,
        path: str,
        body: object = None,
        *,
        raw: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        """(status, JSON reply) of a GET, or a POST of ``body`` as JSON (or of ``raw``
        bytes as they are); ``headers`` replace the default ``application/json``."""
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        sent = {"Content-Type": "application/json"} if data is not None else {}
        sent.update(headers or {})
        req = urllib.request.Request(
            self.base + path, data=data, method="POST" if data is not None else "GET",
            headers=sent,
        )  # fmt: skip
        try:
            with urllib.request.urlopen(req, timeout=30) as reply:
                return reply.status, json.loads(reply.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def get(self, path: str) -> Any:
        status, body = self.request(path)
        assert status == 200, body
        return body

    def create(self, seats: list[str], **settings: Any) -> str:
        status, body = self.request("/api/tables", {"seats": seats, **settings})
        assert status == 201, body
        return str(body["id"])

    def client(self, table: str, origin: str | None = None) -> Client:
        return Client(f"ws://127.0.0.1:{self.port}/ws/{table}", origin)


class Client:
    """A blocking WebSocket client that keeps every message it receives."""

    def __init__(self, url: str, origin: str | None = None) -> None:
        # Entered as a context manager: the form every websockets version accepts.
        self.ws: ClientConnection = connect(
            url,
            open_timeout=30,
            max_size=2**22,
            origin=origin,
        ).__enter__()
        self.messages: list[dict[str, Any]] = []
        self.seat: int | None = None
        self.token: str | None = None
        self.view: dict[str, Any] | None = None
        self.closed = False

    def send(self, message: object) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def poll(self, timeout: float = 0.0) -> dict[str, Any] | None:
        """The next message, or ``None`` if none comes within ``timeout`` seconds."""
        try:
            text = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        except ConnectionClosed:
            self.closed = True
            return None
        message: dict[str, Any] = json.loads(text)
        self.messages.append(message)
        if message["type"] == "welcome":
            self.seat = message["seat"]
            self.token = message.get("token", self.token)
        elif message["type"] == "update":
            self.view = message["view"]
        return message

    def expect(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        """The next message of type ``kind`` (skipping ``seats`` messages)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.poll(max(0.0, deadline - time.monotonic()))
            if message is None:
                raise AssertionError(f"no {kind} message within {timeout} s")
            if message["type"] == kind:
                return message
            if message["type"] != "seats":
                raise AssertionError(f"expected {kind}, got {message}")

    def quiet(self, seconds: float = 0.3) -> list[dict[str, Any]]:
        """Everything but ``seats`` messages received within ``seconds``."""
        got = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            message = self.poll(left)
            if message is not None and message["type"] != "seats":
                got.append(message)
        return got

    def sync(self, timeout: float = 30.0) -> list[dict[str, Any]]:
        """Wait until every message the server queued for this client before now has
        come (a message the server refuses is answered after them, in order); returns
        the updates that came meanwhile."""
        self.send("sync")  # not JSON: refused, never a move
        got = []
        deadline = time.monotonic() + timeout
        while True:
            message = self.poll(max(0.0, deadline - time.monotonic()))
            if message is None:
                raise AssertionError(f"no answer to sync within {timeout} s")
            if message["type"] == "refused":
                return got
            if message["type"] == "update":
                got.append(message)

    def join(self, seat: int, name: str, pictures: bool = False) -> None:
        self.send({"type": "join", "seat": seat, "name": name, "pictures": pictures})
        self.expect("welcome")
        self.expect("update")

    def resume(self, token: str, pictures: bool = False) -> dict[str, Any]:
        self.send({"type": "resume", "token": token, "pictures": pictures})
        self.expect("welcome")
        return self.expect("update")

    def watch(self, pictures: bool = True) -> None:
        self.send({"type": "watch", "pictures": pictures})
        self.expect("welcome")
        self.expect("update")

    def close(self) -> None:
        self.ws.close()


MARK: dict[str, Any] = {"type": "mark"}
"""What :func:`play_people` sends after each move: a message of no known type, which the
server always refuses (``server.bad-request``), in order, after its answer to the move."""


def _is_mark(message: dict[str, Any]) -> bool:
    error = message["error"]
    return error["code"] == "server.bad-request" and "'mark'" in error["message"]


def play_people(
    clients: list[Client],
    rng: random.Random,
    *,
    until: Any = None,
    timeout: float = 120.0,
    avoid_forced: bool = False,
) -> list[dict[str, Any]]:
    """Let the clients (each a seat) play random legal moves until ``until(views)`` or the end.

    Returns the moves sent, in the order sent; fails on any refusal of a move
    that no newer update had overtaken.  A
    client moves at most once per update it receives (so it never sends a
    second move for a view it already answered).  With ``avoid_forced`` the
    clients leave their forced moves to the server's auto-play.

    A client may have two moves in flight: it sends a second after an update that
    came before the server handled its first (a bot's move, an auto-played move),
    and the first may then be refused after that update, legitimately.  So each
    move is followed by :data:`MARK`: the server answers a client's messages in
    order, so a refusal that comes before a mark's is the refusal of the move
    just before that mark, and is checked against the updates since *that* move.
    Before returning, every mark's answer is waited for, so no refusal of this
    loop is left for the caller to read.
    """
    sent: list[dict[str, Any]] = []
    answered: set[int] = set()
    updates = [0] * len(clients)  # updates each client has received
    # Per client, the update count when each move whose mark is unanswered was sent.
    in_flight: list[list[int]] = [[] for _ in clients]
    deadline = time.monotonic() + timeout

    def receive(i: int, client: Client, wait: float) -> bool:
        message = client.poll(wait)
        if message is None:
            return False
        if message["type"] == "refused":
            if _is_mark(message):
                in_flight[i].pop(0)
            else:
                # Only a move overtaken by a newer state (a bot's redeal out of
                # turn, an auto-played move) may be refused: the client had an
                # update after sending it.
                assert in_flight[i] and updates[i] > in_flight[i][0], message
        if message["type"] == "update":
            updates[i] += 1
            answered.discard(i)
        return True

    while True:
        views = [c.view for c in clients]
        if all(v is not None and v["phase"] == "OVER" for v in views) or (
            until is not None and until(views)
        ):
            for i, client in enumerate(clients):
                while in_flight[i]:
                    assert receive(i, client, max(0.0, deadline - time.monotonic())), (
                        "a move's mark was not answered"
                    )
            return sent
        assert time.monotonic() < deadline, "the match did not go on"
        for i, client in enumerate(clients):
            view = client.view
            if i in answered or view is None or not view["legal_moves"]:
                continue
            if avoid_forced and view["forced_move"] is not None:
                continue
            move = rng.choice(view["legal_moves"])
            client.send(move)
            client.send(MARK)
            sent.append(move)
            in_flight[i].append(updates[i])
            answered.add(i)
        got_any = False
        for i, client in enumerate(clients):
            while receive(i, client, 0.0 if got_any else 0.002):
                got_any = True


def player_moves(record: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The moves of ``seat`` in a record (JSON), in order."""
    return [m for m in record["moves"] if m.get("seat") == seat and m["move"] != "deal"]


def replay(record: dict[str, Any]) -> tc.MatchState:
    return tc.replay(tc.Record.from_json(record))


# -- in process: a table or lobby on a clock moved by hand ----------------------------


class InlinePool:
    """A bot pool for tests on a :class:`~trixcomplex.server.clock.ManualClock`: it
    answers at once, on the calling thread, so when a table applies an answer depends
    on the clock alone.  It keeps every question (kind, bot, seat's view)."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, str, tc.View]] = []

    def decide(self, name: str, seen: tc.View, seed: int) -> Future[tc.PlayerMove]:
        self.asked.append(("decide", name, seen))
        return _done(pool.decide(name, seen, seed))

    def wants_redeal(self, name: str, seen: tc.View, seed: int) -> Future[bool]:
        self.asked.append(("redeal", name, seen))
        return _done(pool.wants_redeal(name, seen, seed))

    def close(self) -> None:
        pass


class StuckPool(InlinePool):
    """A bot pool whose bots never answer (a bot thinking past any budget)."""

    def decide(self, name: str, seen: tc.View, seed: int) -> Future[tc.PlayerMove]:
        self.asked.append(("decide", name, seen))
        return Future()

    def wants_redeal(self, name: str, seen: tc.View, seed: int) -> Future[bool]:
        self.asked.append(("redeal", name, seen))
        return Future()


def _done(value: Any) -> Future[Any]:
    future: Future[Any] = Future()
    future.set_result(value)
    return future


class TimedStore(SqliteStore):
    """An in-memory store that notes when (on ``clock``) each move was stored: a
    table stores each move as it makes it, so these are the times of its moves."""

    def __init__(self, clock: ManualClock, state: tc.MatchState) -> None:
        super().__init__(":memory:")
        self.clock = clock
        self.moves: list[tuple[float, tc.Move]] = []
        self._count = len(state.history)

    def save(self, row: TableRow) -> None:
        super().save(row)
        moves = row.record["moves"]
        self.moves += [(self.clock.now(), tc.move_from_json(m)) for m in moves[self._count :]]
        self._count = len(moves)

    def add_move(
        self, table_id: str, number: int, move: dict[str, Any], end: TableRow | None = None
    ) -> None:
        super().add_move(table_id, number, move, end)
        self.moves.append((self.clock.now(), tc.move_from_json(move)))
        self._count = number + 1


def run_until(clock: ManualClock, until: Any, limit: float = 600.0) -> None:
    """Fire ``clock``'s timers, one by one, until ``until()`` holds."""
    while not until():
        assert clock.step(), "nothing more is due"
        assert clock.now() <= limit, f"not done after {limit} s"


class _Faulty(Store):
    """A store whose writes fail while ``full`` is set, as its database's do on a full
    disk; ``failed`` counts the writes refused.  While ``down`` is set its queries fail
    too, as a database that cannot be reached."""

    full = False
    down = False
    failed = 0
    error: type[Exception] = sqlite3.OperationalError

    def _read(self) -> None:
        if self.down:
            raise self.error("unable to open database file")

    def ping(self) -> None:
        self._read()
        super().ping()

    def exists(self, table_id: str) -> bool:
        self._read()
        return super().exists(table_id)

    def load(self, table_id: str) -> TableRow | None:
        self._read()
        return super().load(table_id)

    def _write(self) -> None:
        self._read()
        if self.full:
            self.failed += 1
            raise self.error("database or disk is full")

    def save(self, row: TableRow) -> None:
        self._write()
        super().save(row)

    def add_move(
        self, table_id: str, number: int, move: dict[str, Any], end: TableRow | None = None
    ) -> None:
        self._write()
        super().add_move(table_id, number, move, end)

    def take_seat(
        self, table_id: str, seat: int, taken: dict[str, Any], head: dict[str, Any]
    ) -> list[dict[str, Any]] | None:
        self._write()
        return super().take_seat(table_id, seat, taken, head)

    def archive(self, table_id: str, ended_at: float | None = None, closed: bool = False) -> None:
        self._write()
        super().archive(table_id, ended_at, closed)

    def set_idle(self, table_id: str, since: float | None) -> None:
        self._write()
        super().set_idle(table_id, since)


class FaultyStore(_Faulty, SqliteStore):
    """A SQLite store (in memory unless given a path) whose writes fail while ``full``
    is set, as SQLite's do on a full disk (``sqlite3.OperationalError``)."""

    def __init__(self, path: str = ":memory:") -> None:
        super().__init__(path)


def faulty_store(db: str) -> Any:
    """A store of ``db`` (a SQLite path, a PostgreSQL URL) whose writes fail while its
    ``full`` is set: SQLite's ``OperationalError``, or what the PostgreSQL store raises
    for a server that refuses to write (``StoreUnavailable``)."""
    if not db.startswith("postgresql://"):
        return FaultyStore(db)
    from trixcomplex.server.store_postgres import PostgresStore

    class FaultyPostgresStore(_Faulty, PostgresStore):
        error = StoreUnavailable

    return FaultyPostgresStore(db)


async def asgi_request(
    app: Any, method: str, path: str, body: bytes = b"", content_type: str = "application/json"
) -> tuple[int, bytes]:
    """(status, body) of one HTTP request to the ASGI ``app``, in process (no socket):
    what a client would get, even when the application raises after answering."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
        "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
        "root_path": "", "query_string": b"", "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
        "headers": [(b"host", b"127.0.0.1:8000"), (b"content-type", content_type.encode()),
                    (b"content-length", str(len(body)).encode())],
    }  # fmt: skip
    sent = False
    status, chunks = 0, []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    with contextlib.suppress(Exception):  # Starlette re-raises a 500 after answering it
        await app(scope, receive, send)
    return status, b"".join(chunks)
