"""What a site's operations rely on: health, readiness, metrics, JSON logs, draining.

The probes and metrics run in process (an ASGI request, no socket; tables on a
clock moved by hand); the drain runs a real ``trixcomplex serve`` on
127.0.0.1, sent SIGTERM mid-match, then started again on the same database.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import trixcomplex as tc
from builders import deal_of
from server_harness import (
    FaultyStore,
    InlinePool,
    Server,
    StuckPool,
    TimedStore,
    asgi_request,
    free_port,
    play_people,
    run_until,
)
from trixcomplex.server.app import GOING_AWAY_CODE, Lobby, create_app, handle
from trixcomplex.server.clock import ManualClock
from trixcomplex.server.logs import JsonFormatter, log_config
from trixcomplex.server.options import Options
from trixcomplex.server.store_sqlite import SqliteStore as Store
from trixcomplex.server.table import Refused, Seat, Settings, Table

PEOPLE = ["person"] * 4
SLOW_BOTS = {"bot_delay": 0.1, "deal_pause": 1, "forced_delay": 0.1}


def _json(answer: tuple[int, bytes]) -> tuple[int, Any]:
    return answer[0], json.loads(answer[1])


# -- /healthz and /readyz ---------------------------------------------------------------


def test_healthz_answers_alive_and_readyz_waits_for_the_tables() -> None:
    """/healthz: 200 while the process answers; /readyz: 503 until the stored tables are
    loaded, then 200 with their number."""

    async def probe() -> list[tuple[int, Any]]:
        app = create_app(":memory:")
        lobby: Lobby = app.state.lobby
        answers = [_json(await asgi_request(app, "GET", p)) for p in ("/healthz", "/readyz")]
        lobby.restore()
        lobby.open_table({"seats": PEOPLE})
        answers.append(_json(await asgi_request(app, "GET", "/readyz")))
        lobby.stop()
        return answers

    alive, loading, ready = asyncio.run(probe())
    assert alive == (200, {"status": "alive"})
    assert loading[0] == 503 and loading[1]["error"]["code"] == "server.unavailable"
    assert "not loaded" in loading[1]["error"]["message"]
    assert ready == (200, {"status": "ready", "tables": 1})


def test_readyz_is_503_while_the_database_does_not_answer() -> None:
    """Attack: the database cannot be reached (every query fails, as a PostgreSQL server
    gone or an unreadable file).  A load balancer must see it: /readyz answers 503 with
    the server's JSON error (no traceback), counted as a store error; /healthz stays
    200 (the process is alive); once the database answers, /readyz is 200 again."""

    async def probe() -> list[tuple[int, bytes]]:
        app = create_app(":memory:")
        lobby: Lobby = app.state.lobby
        lobby.restore()
        lobby.store.close()
        lobby.store = store = FaultyStore()
        store.down = True
        answers = [await asgi_request(app, "GET", p) for p in ("/readyz", "/healthz")]
        store.down = False
        answers.append(await asgi_request(app, "GET", "/readyz"))
        lobby.stop()
        return answers

    down, alive, back = asyncio.run(probe())
    assert down[0] == 503, down
    error = json.loads(down[1])["error"]
    assert error["code"] == "server.unavailable" and "database" in error["message"]
    assert b"Traceback" not in down[1] and b".py" not in down[1]
    assert alive[0] == 200 and back[0] == 200


def test_a_draining_server_is_not_ready_and_opens_no_table() -> None:
    """Once draining (SIGTERM), /readyz is 503 (the load balancer sends no one here) and
    a request to open a table is refused 503 ``server.unavailable``; /healthz stays 200."""

    async def probe() -> list[tuple[int, Any]]:
        app = create_app(":memory:")
        lobby: Lobby = app.state.lobby
        lobby.restore()
        lobby.draining = True
        body = json.dumps({"seats": PEOPLE}).encode()
        answers = [_json(await asgi_request(app, "GET", p)) for p in ("/readyz", "/healthz")]
        answers.append(_json(await asgi_request(app, "POST", "/api/tables", body)))
        tables = len(lobby.tables)
        lobby.stop()
        return [*answers, (tables, None)]

    ready, alive, opened, (tables, _) = asyncio.run(probe())
    assert ready[0] == 503 and "going away" in ready[1]["error"]["message"]
    assert alive[0] == 200
    assert opened[0] == 503 and opened[1]["error"]["code"] == "server.unavailable"
    assert tables == 0


# -- /metrics ---------------------------------------------------------------------------


def _lobby(store: Store) -> tuple[Lobby, ManualClock, InlinePool]:
    clock, pool = ManualClock(), InlinePool()
    return Lobby(store, Options(), clock=clock, pool=pool), clock, pool


def test_metrics_count_moves_bot_decisions_tables_and_store_errors() -> None:
    """Every move applied is counted once, every bot answer's decision time observed
    once, the live and owned tables are the tables in play, and every store write
    refused (a full disk for 20 s) is counted by its operation."""
    store = FaultyStore()
    lobby, clock, pool = _lobby(store)
    metrics = lobby.metrics
    tables = [lobby.open_table({"seats": ["random"] * 4, **SLOW_BOTS}) for _ in range(2)]
    lobby.open_table({"seats": PEOPLE})  # waits for its people: in play, no move
    clock.advance(3.0)
    assert metrics.value("trixcomplex_tables_live") == 3
    assert metrics.value("trixcomplex_tables_owned") == 3
    store.full = True
    clock.advance(20.0)
    store.full = False
    run_until(clock, lambda: all(t.state.is_over for t in tables), limit=100_000)
    moves = sum(len(t.state.history) for t in tables)
    assert metrics.value("trixcomplex_moves_total") == moves
    asked = len(pool.asked)
    assert metrics.value("trixcomplex_bot_decision_seconds_count", bot="random") == asked > 0
    assert metrics.value("trixcomplex_bot_decision_seconds_sum", bot="random") == 0.0
    refused = sum(
        metrics.value("trixcomplex_store_errors_total", operation=op) or 0.0
        for op in ("save", "add_move", "archive", "set_idle", "release", "query")
    )
    assert store.failed > 0 and refused == store.failed
    assert metrics.value("trixcomplex_tables_live") == 1  # the finished two are not in play
    lobby.stop()


def test_metrics_are_served_in_prometheus_text_per_application() -> None:
    """/metrics answers Prometheus' text format with every metric the docs name; two
    applications in one process count apart (a registry each, not the global one)."""

    async def probe() -> tuple[tuple[int, bytes], tuple[int, bytes]]:
        first, second = create_app(":memory:"), create_app(":memory:")
        first.state.lobby.metrics.moved()
        answers = (
            await asgi_request(first, "GET", "/metrics"),
            await asgi_request(second, "GET", "/metrics"),
        )
        first.state.lobby.stop()
        second.state.lobby.stop()
        return answers

    (status, text), (_, other) = asyncio.run(probe())
    assert status == 200
    names = (
        "trixcomplex_tables_live",
        "trixcomplex_tables_owned",
        "trixcomplex_moves_total",
        "trixcomplex_websocket_connections",
        "trixcomplex_move_latency_seconds_bucket",
        "trixcomplex_bot_decision_seconds",
        "trixcomplex_store_errors_total",
    )
    for name in names:
        assert f"# TYPE {name.removesuffix('_bucket').removesuffix('_total')}".encode() in text
    assert b"trixcomplex_moves_total 1.0" in text and b"trixcomplex_moves_total 0.0" in other


# -- draining: a held answer is not lost ------------------------------------------------


def test_drain_applies_and_stores_a_held_doubling_answer() -> None:
    """The promise: a person's doubling answer held for the window's answer time
    (R-HID-2) is acknowledged but not yet stored; when the server drains the table
    settles: it is applied and stored with the bots' (a bot not ready doubles nothing,
    R-DBL-3), and the table's timer stops (nothing is stored after)."""
    hands = [["KH", "QS"], ["QH", "QD", "QC"], [], ["7H"]]
    state = tc.apply(tc.apply(tc.new_match(), deal_of(hands)), tc.Timeout())
    assert state.phase is tc.Phase.DOUBLE and {0, 1} <= set(state.to_act)
    clock = ManualClock()
    store = TimedStore(clock, state)
    seats = [Seat("person", "Ann", "0" * 64), *[Seat("bot", "rule")] * 3]
    settings = Settings(move_time=60, forced_delay=60, bot_delay=0.3, deal_pause=60)
    table = Table("t", "2026-01-01T00:00:00Z", settings, seats, state, store, clock=clock,
                  pool=StuckPool(), options=Options(bot_window=5.0))  # fmt: skip
    table.start()
    answer = tc.Double(0, frozenset({tc.parse_card("KH")}))
    clock.advance(0.5)
    table.submit(0, json.dumps(tc.move_to_json(answer)))
    assert store.moves == []  # held until 5 s: acknowledged, not stored
    table.settle()
    doubles = [m for _, m in store.moves if isinstance(m, tc.Double)]
    assert answer in doubles and tc.Double(1, frozenset()) in doubles
    stored_moves = [move for _, move in store.moves]
    assert stored_moves == list(table.state.history.moves()[len(state.history) :])
    stored = len(store.moves)
    clock.advance(600.0)
    assert len(store.moves) == stored


def test_a_draining_server_takes_no_move() -> None:
    """Once draining, a move on an open connection is refused (``server.unavailable``)
    and not applied: what is stored stays what every client was told before its
    connection closes with 1001; the client sends it again after reconnecting."""
    lobby, clock, _ = _lobby(Store(":memory:"))
    table = lobby.open_table({"seats": PEOPLE, "deal_pause": 0})
    for seat in range(4):
        table.join(seat, f"P{seat}")
    clock.advance(0.1)
    state = table.state
    seat = min(state.to_act)
    move = json.dumps(tc.move_to_json(tc.legal_moves(state, seat)[0]))
    conn = SimpleNamespace(attached=True, seat=seat)
    lobby.draining = True
    with pytest.raises(Refused) as refused:
        handle(table, conn, move, lobby)  # type: ignore[arg-type]
    assert refused.value.to_json()["code"] == "server.unavailable"
    assert table.state is state
    lobby.draining = False
    handle(table, conn, move, lobby)  # type: ignore[arg-type]
    assert len(table.state.history) == len(state.history) + 1
    lobby.stop()


# -- JSON logs --------------------------------------------------------------------------


def test_json_log_lines_name_time_level_logger_message_and_table() -> None:
    """One JSON object per record, on one line (a traceback too), with the table lifted
    from ``extra``, from the server's ``table %s`` messages, and from access paths."""
    formatter = JsonFormatter()

    def line(name: str, msg: str, args: tuple[Any, ...], **extra: Any) -> dict[str, Any]:
        record = logging.LogRecord(name, logging.INFO, __file__, 1, msg, args, None)
        record.__dict__.update(extra)
        text = formatter.format(record)
        assert "\n" not in text
        parsed: dict[str, Any] = json.loads(text)
        return parsed

    own = line("trixcomplex.server", "table %s: a bot plays seat %d", ("ab12cd34", 2))
    assert own["table"] == "ab12cd34" and own["message"] == "table ab12cd34: a bot plays seat 2"
    assert set(own) == {"time", "level", "logger", "message", "table"}
    given = line("trixcomplex.server", "restored", (), table="ff00ff00")
    assert given["table"] == "ff00ff00"
    access = line("uvicorn.access", '%s - "%s %s HTTP/%s" %d',
                  ("127.0.0.1:5", "GET", "/api/tables/0a1b2c3d/record", "1.1", 200))  # fmt: skip
    assert access["table"] == "0a1b2c3d"
    accepted = line("uvicorn.error", '%s - "WebSocket %s" [accepted]', ("127.0.0.1:5", "/ws/9f"))
    assert accepted["table"] == "9f"
    listed = line("uvicorn.access", '%s - "%s %s HTTP/%s" %d',
                  ("127.0.0.1:5", "GET", "/api/tables", "1.1", 200))  # fmt: skip
    assert "table" not in listed
    assert "table" not in line("uvicorn.error", "Started server process [%d]", (12,))
    try:
        raise KeyError("a bug")
    except KeyError:
        record = logging.LogRecord("trixcomplex.server", logging.ERROR, __file__, 1,
                                   "table %s: failed", ("t1",), sys.exc_info())  # fmt: skip
    failed = json.loads(formatter.format(record))
    assert "KeyError" in failed["exception"] and failed["level"] == "ERROR"
    with pytest.raises(ValueError, match="text or json"):
        log_config("yaml")


# -- SIGTERM on a real server -----------------------------------------------------------

DRAIN = 5.0  # --drain-seconds
MARGIN = 15.0  # the process's own exit (interpreter, workers) on a loaded machine


def _sample(server: Server, name: str) -> float:
    with urllib.request.urlopen(server.base + "/metrics", timeout=30) as r:
        text = r.read().decode()
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"{name} not in /metrics")


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _closed_with(client: Any, timeout: float = 60.0) -> int | None:
    """Read until the server closes the connection; its close code."""
    deadline = time.monotonic() + timeout
    while not client.closed and time.monotonic() < deadline:
        client.poll(0.5)
    assert client.closed, "the server did not close the connection"
    code: int | None = client.ws.close_code
    return code


@pytest.mark.slow
def test_sigterm_drains_mid_match_and_a_restart_resumes(tmp_path: Path) -> None:
    """SIGTERM mid-match: the server stops taking connections, closes every WebSocket
    with 1001 after what was queued for it, and exits within --drain-seconds (plus a
    margin for the interpreter's exit); the stored record replays to the state each
    client last saw; started again on the database, the table resumes (same view, the
    person's seat by its token) and goes on.  The logs are one JSON object a line."""
    db = tmp_path / "tables.sqlite3"
    options = (*Server.FAST, "--drain-seconds", str(DRAIN), "--log-format", "json")
    server = Server(db, None, *options)
    try:
        table = server.create(["person", "person", "rule", "rule"], bot_delay=0.05,
                              deal_pause=0, forced_delay=0.05)  # fmt: skip
        people = [server.client(table), server.client(table)]
        for seat, person in enumerate(people):
            person.join(seat, f"P{seat}")
        watcher = server.client(table)
        watcher.watch(pictures=False)
        rng = random.Random(7)
        play_people(people, rng, until=lambda _: _sample(server, "trixcomplex_moves_total") > 30)
        assert _sample(server, "trixcomplex_websocket_connections") == 3
        assert _sample(server, "trixcomplex_move_latency_seconds_count") > 0
        # Mid-match: the people keep sending moves while the signal arrives.
        for person in people:
            view = person.view
            if view is not None and view["legal_moves"]:
                person.send(rng.choice(view["legal_moves"]))
        signalled = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        codes = [_closed_with(c) for c in (*people, watcher)]
        server.process.wait(DRAIN + MARGIN)
        took = time.monotonic() - signalled
    finally:
        server.stop()
    assert codes == [GOING_AWAY_CODE] * 3, codes
    assert took < DRAIN + MARGIN
    assert server.process.returncode == 0, server.process.returncode
    log = db.with_suffix(f".{server.port}.log").read_text()
    entries = [json.loads(line) for line in log.splitlines()]
    assert {"time", "level", "logger", "message"} <= set(entries[0])
    assert any(e["message"].startswith("drained: ") for e in entries), log[-2000:]
    assert any(e.get("table") == table for e in entries)  # the access lines of its sockets

    stored = Store(str(db))
    row = stored.load(table)
    stored.close()
    assert row is not None and not row.finished
    state = tc.replay(tc.Record.from_json(row.record))
    for seat, person in enumerate(people):
        assert person.view == _plain(tc.to_json(tc.view(state, seat))), f"seat {seat}"
    assert watcher.view == _plain(tc.to_json(tc.view(state, None)))

    with Server(db, None, *Server.FAST) as again:  # its bots may move before we resume
        back = [again.client(table) for _ in people]
        for seat, (client, person) in enumerate(zip(back, people, strict=True)):
            assert client.resume(str(person.token))["view"]["seat"] == seat
        play_people(back, random.Random(8),
                    until=lambda _: _sample(again, "trixcomplex_moves_total") > 4)  # fmt: skip
        for client in back:
            client.close()
    stored = Store(str(db))
    row = stored.load(table)
    stored.close()
    assert row is not None
    moves = row.record["moves"]  # the match went on from where it was drained
    assert len(moves) > len(state.history) + 4
    assert tc.replay(tc.Record(moves=tuple(tc.move_from_json(m) for m in moves[: len(
        state.history)]))) == state  # fmt: skip


@pytest.mark.slow
def test_an_exit_held_up_past_the_drain_bound_is_ended_in_time(tmp_path: Path) -> None:
    """Attack on the bound: something holds the process after the drain (here an exit
    handler sleeping ten minutes, as a bot's worker deep in a decision would): the
    watchdog ends it one second past --drain-seconds, status 1, with one log line."""
    port = free_port()
    hold = ("import atexit, sys, time; atexit.register(time.sleep, 600); "
            "from trixcomplex.cli import main; sys.exit(main(sys.argv[1:]))")  # fmt: skip
    logged = tmp_path / "serve.log"
    with logged.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-c", hold, "serve", "--host", "127.0.0.1", "--port", str(port),
             "--db", str(tmp_path / "t.sqlite3"), "--drain-seconds", "1", "--log-format",
             "json"],
            stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5).close()
                    break
                except OSError:
                    assert process.poll() is None and time.monotonic() < deadline, "no server"
                    time.sleep(0.05)
            process.send_signal(signal.SIGTERM)
            process.wait(1 + 1 + MARGIN)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(10)
    assert process.returncode == 1
    lines = [json.loads(line) for line in logged.read_text().splitlines()]
    assert any(e["message"].startswith("the drain took more than 1 s") for e in lines)


def test_a_bad_drain_time_or_log_format_is_one_line(tmp_path: Path) -> None:
    """--drain-seconds below 1 and an unknown --log-format: one line, exit 2."""
    for bad in (["--drain-seconds", "0.5"], ["--log-format", "yaml"]):
        done = subprocess.run(
            [sys.executable, "-m", "trixcomplex", "serve", "--db", str(tmp_path / "t"), *bad],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 2, done.stderr
        assert len(done.stderr.strip().splitlines()[-1]) > 0 and "Traceback" not in done.stderr
