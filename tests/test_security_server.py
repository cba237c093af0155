"""Strangers at the table server: each attack, tried as an attacker would.

The web attacks run against a real ``trixcomplex serve`` on 127.0.0.1 (a
hostile page's requests are plain HTTP and WebSocket requests carrying its
``Origin``); the timing ones run a table in process on a clock moved by hand
(:class:`~trixcomplex.server.clock.ManualClock`), so they measure the server's
own schedule to the millisecond, whatever the machine's load.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

import trixcomplex as tc
from builders import deal_of
from postgres_cluster import execute
from processes import wait_gone
from server_harness import (
    FaultyStore,
    InlinePool,
    Server,
    StuckPool,
    TimedStore,
    asgi_request,
    faulty_store,
    run_until,
)
from trixcomplex.server.app import SLOW_CLIENT_CODE, Connection, Lobby, create_app, open_store
from trixcomplex.server.clock import LoopClock, ManualClock
from trixcomplex.server.options import Options
from trixcomplex.server.pool import BotPool
from trixcomplex.server.store import APPLICATION_ID, Store
from trixcomplex.server.store_sqlite import SqliteStore
from trixcomplex.server.table import Refused, Seat, Settings, Table

EVIL = "http://evil.example"
FRIEND = "https://friend.example"
PEOPLE = ["person"] * 4
FAST_BOTS = {"bot_delay": 0, "deal_pause": 0, "forced_delay": 0}


@pytest.fixture(scope="module")
def server(module_database: str) -> Iterator[Server]:
    db = module_database
    with Server(db, None, *Server.FAST, "--allow-origin", FRIEND) as running:
        yield running


def _tables(server: Server) -> list[str]:
    return [t["id"] for t in server.get("/api/tables")["tables"]]


# -- a hostile web page ----------------------------------------------------------------


def test_a_foreign_page_cannot_open_tables(server: Server) -> None:
    """A page on another site makes its visitor's browser POST to the server: as a
    form or text/plain (no CORS preflight) it is refused 415; with any content type,
    its Origin is refused 403.  The server's own page, and pages of --allow-origin,
    may open tables."""
    before = _tables(server)
    body = json.dumps({"seats": PEOPLE}).encode()
    own = server.base
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""):
        status, reply = server.request(
            "/api/tables", raw=body, headers={"Content-Type": kind, "Origin": own}
        )
        assert (status, reply["error"]["code"]) == (415, "server.bad-content-type"), kind
    for origin in (EVIL, "null", f"{EVIL}:{server.port}", "http://127.0.0.1.evil.example"):
        for kind in ("text/plain", "application/json"):
            status, reply = server.request(
                "/api/tables", raw=body, headers={"Content-Type": kind, "Origin": origin}
            )
            assert (status, reply["error"]["code"]) == (403, "server.bad-origin"), origin
    status, _ = server.request("/api/tables", headers={"Origin": EVIL})
    assert status == 403  # nor read the lobby
    assert _tables(server) == before
    for origin in (own, FRIEND, None):  # None: not a page (a program, curl)
        headers = {"Origin": origin} if origin else {}
        status, reply = server.request("/api/tables", {"seats": PEOPLE}, headers=headers)
        assert status == 201, reply


def test_a_foreign_page_cannot_open_a_websocket(server: Server) -> None:
    """A WebSocket handshake from a page of another site is refused (HTTP 403): no
    connection, so no seat token; the server's own page and --allow-origin connect."""
    table = server.create(PEOPLE)
    for origin in (EVIL, "null"):
        with pytest.raises(InvalidStatus) as refused:
            server.client(table, origin=origin)
        assert refused.value.response.status_code == 403
    for origin in (server.base, FRIEND):
        client = server.client(table, origin=origin)
        client.watch(pictures=False)
        client.close()
    seats = server.get(f"/api/tables/{table}")["seats"]
    assert not any(seat["taken"] for seat in seats)


# -- malformed input -----------------------------------------------------------------

MALFORMED = [
    "[" * 2000 + "]" * 2000,
    '{"a":' * 800 + "1" + "}" * 800,
    '{"seats": ' + "[" * 1500 + "]" * 1500 + "}",
    '{"ruleset": ' + "[" * 1500 + "]" * 1500 + "}",
    '{"ruleset": "\\ud800"}',
    '{"seats": ["\\udfff", "rule", "rule", "rule"]}',
    '{"move_time": 1e999}',
    '{"move_time": NaN}',
    '{"move_time": ' + "9" * 3000 + "}",
    '{"seats": null}',
    "",
    "null",
    '"person"',
    "\x00",
    '{"type": "join", "seat": ' + "[" * 1000 + "]" * 1000 + "}",
]


def test_malformed_bodies_are_refused_with_a_code_never_a_500(server: Server) -> None:
    """Deep nesting, bad numbers, lone surrogates, non-UTF-8: every one gets a 4xx with
    a code over HTTP, and a refusal with a code as a WebSocket message (before and after
    the hello); never a 500, ``server.internal`` or a traceback in the log."""
    for text in MALFORMED:
        status, reply = server.request("/api/tables", raw=text.encode("utf-8", "surrogatepass"))
        assert 400 <= status < 500 and reply["error"]["code"].startswith("server."), text[:30]
    status, reply = server.request("/api/tables", raw=b"\xff\xfe{\x80}")
    assert status == 400 and reply["error"]["code"] == "server.bad-request"
    table = server.create(PEOPLE)
    fresh, seated = server.client(table), server.client(table)
    seated.join(0, "Ann")
    for client in (fresh, seated):
        for text in MALFORMED:
            if not text:
                continue
            client.send(text.encode("utf-8", "surrogatepass").decode("utf-8", "replace"))
            code = client.expect("refused")["error"]["code"]
            assert code != "server.internal", (code, text[:30])
    for client in (fresh, seated):
        client.close()
    log = server.read_log()
    assert "Traceback" not in log and "ERROR" not in log and " 500 " not in log


# -- idle connections ----------------------------------------------------------------


def test_a_connection_that_never_says_hello_is_closed(server_database: str) -> None:
    """A connection that sends no join, resume or watch is closed (code 4408) once the
    hello timeout (--hello-timeout, here 0.5 s) is out; one that said hello stays."""
    with Server(server_database, None, *Server.FAST, "--hello-timeout", "0.5") as server:
        table = server.create(PEOPLE)
        player = server.client(table)
        player.join(0, "Ann")  # its hello is in before the silent one even connects
        silent = server.client(table)
        with pytest.raises(ConnectionClosed) as closed:
            silent.ws.recv(timeout=60)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4408
        garbage = server.client(table)  # messages that are not a hello do not keep it open
        for _ in range(3):
            garbage.send("{}")
            assert garbage.expect("refused")["error"]["code"] == "server.hello-first"
        with pytest.raises(ConnectionClosed):
            while True:
                garbage.ws.recv(timeout=60)
        assert player.sync() == []  # still connected
        player.close()


# -- a flood of tables ---------------------------------------------------------------


def _wait_finished(server: Server, tables: list[str], limit: float = 300) -> None:
    deadline = time.monotonic() + limit
    while not all(server.get(f"/api/tables/{t}")["finished"] for t in tables):
        assert time.monotonic() < deadline, "the bots did not finish their matches"
        time.sleep(0.2)


@pytest.mark.slow
def test_finished_tables_are_archived_and_free_their_place(server_database: str) -> None:
    """With room for two live tables, a third is refused (503) while two are played;
    once they are over they are archived (out of the lobby, their records still
    downloadable) and new tables open, before and after a restart."""
    db = server_database
    options = (*Server.FAST, "--max-tables", "2", "--retention", "0")
    with Server(db, None, *options) as server:
        bots = [server.create(["random"] * 4, **FAST_BOTS) for _ in range(2)]
        status, reply = server.request("/api/tables", {"seats": PEOPLE})
        assert (status, reply["error"]["code"]) == (503, "server.too-many-tables")
        _wait_finished(server, bots)
        assert _tables(server) == []  # retention 0: archived when over
        for table in bots:
            assert server.get(f"/api/tables/{table}")["archived"] is True
            status, record = server.request(f"/api/tables/{table}/record")
            assert status == 200 and tc.replay(tc.Record.from_json(record)).is_over
        people = [server.create(PEOPLE) for _ in range(2)]
    with Server(db, None, *options) as again:
        assert sorted(_tables(again)) == sorted(people)
        status, reply = again.request("/api/tables", {"seats": PEOPLE})
        assert (status, reply["error"]["code"]) == (503, "server.too-many-tables")
        for table in bots:
            status, record = again.request(f"/api/tables/{table}/record")
            assert status == 200 and record["moves"]


def test_one_address_cannot_open_tables_without_end(server_database: str) -> None:
    """At most --create-limit tables per client address in --create-window seconds
    (429 after), counted in the database, so a restart does not reset it; a refused
    request does not count."""
    db = server_database
    options = ("--create-limit", "3", "--create-window", "86400")
    with Server(db, None, *options) as server:
        status, _ = server.request("/api/tables", {"seats": ["god"] * 4})
        assert status == 400
        for _ in range(3):
            server.create(PEOPLE)
        status, reply = server.request("/api/tables", {"seats": PEOPLE})
        assert (status, reply["error"]["code"]) == (429, "server.rate-limited")
    with Server(db, None, *options) as again:
        status, reply = again.request("/api/tables", {"seats": PEOPLE})
        assert (status, reply["error"]["code"]) == (429, "server.rate-limited")
        assert len(_tables(again)) == 3


def test_a_table_nobody_comes_to_is_closed(server_database: str) -> None:
    """A table with nobody connected for --idle-close seconds (here 0.5) is closed and
    archived; the record of where it stopped stays downloadable."""
    with Server(server_database, None, *Server.FAST, "--idle-close", "0.5") as server:
        table = server.create(PEOPLE)
        deadline = time.monotonic() + 60
        while not server.get(f"/api/tables/{table}")["archived"]:
            assert time.monotonic() < deadline, "the idle table was never closed"
            time.sleep(0.1)
        assert table not in _tables(server)
        status, record = server.request(f"/api/tables/{table}/record")
        assert status == 200 and record["moves"] == []


class _Viewer:
    def __init__(self, seat: int | None = None) -> None:
        self.seat, self.pictures, self.last_view, self.locale = seat, False, None, "en"
        self.sent: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


def test_retention_and_idle_times_survive_a_restart(database: str) -> None:
    """The idle time and the retention are counted from times stored in the database:
    a restart neither resets nor forgets them (injected clocks, no waiting)."""
    db = database
    options = Options(retention=100, idle_close=50)
    clock = ManualClock()
    lobby = Lobby(open_store(db), options, clock=clock, pool=InlinePool())
    idle = lobby.open_table({"seats": PEOPLE})
    watched = lobby.open_table({"seats": PEOPLE})
    bots = lobby.open_table({"seats": ["random"] * 4, **FAST_BOTS})
    watched.attach(_Viewer(0))  # a seat's connection (spectators keep no table open)
    bots.attach(_Viewer())
    clock.advance(49.9)
    assert idle.id in lobby.tables
    clock.advance(0.2)
    assert idle.id not in lobby.tables and lobby.archived(idle.id) is not None
    row = lobby.store.load(idle.id)
    assert row is not None and row.closed and not row.finished
    run_until(clock, lambda: bots.state.is_over, limit=10_000)
    ended = clock.wall()
    clock.advance(1000)  # watched: never idle; finished: archived after its retention
    assert watched.id in lobby.tables and bots.id not in lobby.tables
    assert lobby.store.load(bots.id) is not None
    watched.detach(watched._viewers[0])
    clock.advance(30)
    assert bots.ended_at is not None and bots.ended_at <= ended
    lobby.stop()

    later = ManualClock(start_wall=clock.wall() + 10)  # down 10 s, then started again
    again = Lobby(open_store(db), options, clock=later, pool=InlinePool())
    again.restore()
    assert list(again.tables) == [watched.id]  # idle for 40 s of its 50
    later.advance(9.9)
    assert watched.id in again.tables
    later.advance(0.2)
    assert watched.id not in again.tables
    again.stop()


# -- bots off the event loop, within their budget ----------------------------------------


def test_bots_never_think_on_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every decision of a bot at a table is made in the pool, off the thread of the
    server's event loop, and from the seat's view only."""
    from trixcomplex.bots import RuleBot

    threads: set[int] = set()
    views: list[object] = []
    choose = RuleBot.choose

    def spy(self: RuleBot, view: tc.View, legal: Any, rng: Any) -> tc.PlayerMove:
        threads.add(threading.get_ident())
        views.append(view)
        return choose(self, view, legal, rng)

    monkeypatch.setattr(RuleBot, "choose", spy)

    async def evening() -> tuple[int, Table]:
        lobby = Lobby(SqliteStore(":memory:"), clock=LoopClock(), pool=BotPool(2, processes=False))
        table = lobby.open_table({"seats": ["rule"] * 4, **FAST_BOTS})
        while len(table.state.history) < 60:
            await asyncio.sleep(0.01)
        lobby.stop()
        return threading.get_ident(), table

    loop_thread, _ = asyncio.run(evening())
    assert threads and loop_thread not in threads
    assert all(isinstance(v, tc.View) for v in views)


def _table(
    state: tc.MatchState, pool: Any, **options: Any
) -> tuple[Table, ManualClock, TimedStore]:
    """A table of a person (seat 0) and three rule bots, from ``state``, on a hand clock."""
    clock = ManualClock()
    store = TimedStore(clock, state)
    seats = [Seat("person", "Ann", "0" * 64), *[Seat("bot", "rule")] * 3]
    settings = Settings(move_time=60, forced_delay=60, bot_delay=0.3, deal_pause=60)
    table = Table("t", "2026-01-01T00:00:00Z", settings, seats, state, store,
                  clock=clock, pool=pool, options=Options(**options))  # fmt: skip
    table.start()
    return table, clock, store


def _answer(table: Table) -> None:
    table.submit(0, json.dumps(tc.move_to_json(tc.Double(0, frozenset()))))


def test_a_bot_over_its_budget_is_moved_for_as_the_rules_say() -> None:
    """R-MATCH-6, R-DBL-3: a bot that does not answer within --bot-budget (here 2 s)
    gets the host's timeout move: COMPLEX chosen for it, no double, its lowest card."""
    state = tc.apply(tc.new_match(), deal_of([["KH"], ["7H", "2C"]]))
    assert state.owner == 1
    table, clock, store = _table(state, StuckPool(), bot_budget=2.0, bot_window=1.0)
    clock.call_later(2.5, lambda: _answer(table))
    run_until(clock, lambda: any(isinstance(m, tc.Play) for _, m in store.moves))
    assert store.moves[0] == (2.0, tc.Timeout())  # the choice: COMPLEX (R-MATCH-6)
    doubles = [(at, m) for at, m in store.moves if isinstance(m, tc.Double)]
    assert {at for at, _ in doubles} == {3.0}  # the window opened at 2 s
    assert all(not m.cards for _, m in doubles if m.seat != 0)  # R-DBL-3: nothing doubled
    at, played = next((at, m) for at, m in store.moves if isinstance(m, tc.Play))
    assert played.seat == 1 and at == 3.0 + 2.0  # the owner leads, out of time
    assert played == tc.timeout_move(tc.replay(tc.Record(moves=tuple(
        m for m in table.state.history.moves()[:-1]))), 1)  # fmt: skip


# -- R-HID-2: no timing channel in the doubling window ---------------------------------

# Who holds K♥ and the Queens decides who the window asks (R-DBL-2).  Seat 0 is a
# person, seats 1-3 rule bots; seat 3 holds 7♥ and owns the Kingdom.
ASKED = {
    "person and one bot": [["KH", "QS"], ["QH", "QD", "QC"], [], ["7H"]],
    "person and three bots": [["KH"], ["QS"], ["QH"], ["7H", "QD", "QC"]],
    "the person alone": [["KH", "QS", "QH", "QD", "QC"], [], [], ["7H"]],
    "one bot": [[], ["KH", "QS", "QH", "QD", "QC"], [], ["7H"]],
    "three bots": [[], ["KH"], ["QS", "QH"], ["7H", "QD", "QC"]],
}


def _window(hands: list[list[str]], answer_at: float) -> tuple[float, dict[int, float], set[int]]:
    """(when the window closed, when each seat's answer was applied, who was asked),
    seat 0 answering ``answer_at`` seconds after the window opened if asked."""
    state = tc.apply(tc.apply(tc.new_match(), deal_of(hands)), tc.Timeout())
    assert state.phase is tc.Phase.DOUBLE
    asked = set(state.to_act)
    table, clock, store = _table(state, InlinePool(), bot_window=1.0)
    if 0 in asked:
        clock.call_later(answer_at, lambda: _answer(table))
    run_until(clock, lambda: table.state.phase is not tc.Phase.DOUBLE)
    answered_at = {m.seat: at for at, m in store.moves if isinstance(m, tc.Double)}
    return store.moves[-1][0], answered_at, asked


@pytest.mark.parametrize("answer_at", [0.1, 2.5])
def test_r_hid_2_when_the_window_closes_tells_nobody_who_was_asked(answer_at: float) -> None:
    """R-HID-2: the window's answers (the bots', and a person's given early) are all
    applied at one time after it opens (--bot-window, 1 s here), and it closes then,
    or when the person answers if later: the same times whichever seats, and however
    many, were asked."""
    for name, hands in ASKED.items():
        closed_at, answered_at, asked = _window(hands, answer_at)
        assert set(answered_at) == asked, name
        if 0 in asked:  # when the person answered, or at 1 s if sooner
            expected = max(1.0, answer_at)
            assert answered_at[0] == expected, (name, answered_at)
        else:
            expected = 1.0
        assert all(answered_at[s] == 1.0 for s in asked - {0}), (name, answered_at)
        assert closed_at == expected, (name, closed_at)


def test_r_dbl_3_answers_held_when_the_window_times_out_still_count() -> None:
    """R-DBL-3, R-HID-2: when the window's time (1 s here) runs out before its answer
    time (5 s), the answers given in time are applied then, the window closes at once;
    only a seat that did not answer doubles nothing."""
    hands = [["KH", "QS"], ["QH", "QD", "QC"], [], ["7H"]]
    state = tc.apply(tc.apply(tc.new_match(), deal_of(hands)), tc.Timeout())
    table, clock, store = _table(state, InlinePool(), bot_window=5.0)
    table.settings = Settings(move_time=1, forced_delay=60, bot_delay=0.3, deal_pause=60)
    table.start()
    answer = tc.Double(0, frozenset({tc.parse_card("KH")}))
    clock.call_later(0.5, lambda: table.submit(0, json.dumps(tc.move_to_json(answer))))
    run_until(clock, lambda: table.state.phase is not tc.Phase.DOUBLE)
    assert (1.0, answer) in store.moves
    assert {at for at, _ in store.moves} == {1.0}


def test_a_killed_bot_worker_is_replaced() -> None:
    """A worker process that dies (killed, out of memory) breaks the pool; the next
    question starts a fresh one, so the tables' bots go on."""
    state = tc.apply(tc.new_match(), deal_of([["7H"]]))
    seen = tc.view(state, 0)
    pool = BotPool(1)
    try:
        first = pool.decide("rule", seen, 1).result(timeout=120)
        for worker in list(pool._executor._processes.values()):  # type: ignore[attr-defined]
            worker.kill()
            worker.join(60)
        answer = None
        for _ in range(2):  # the question in flight when it died may fail
            try:
                answer = pool.decide("rule", seen, 1).result(timeout=120)
                break
            except Exception:
                continue
        assert answer == first
    finally:
        pool.close()


def _server_killed_while_its_bot_workers_start(pids: Any) -> None:
    """A server that starts its bot workers and is gone at once (as under kill -9)."""
    pool = BotPool(2)
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
    pool.decide("rule", tc.view(state, state.owner), seed=1)
    pids.put(sorted(pool._executor._processes))  # type: ignore[attr-defined]
    pids.close()
    pids.join_thread()
    os._exit(0)


def test_bot_workers_whose_server_died_while_they_started_leave() -> None:
    """A server killed while its bot workers are still starting (a crash, an operator's
    kill -9) must not leave them behind.  A worker that began after its server died saw
    init as its parent, watched init forever and idled on as an orphan; the pool now
    tells each worker which process started it, and one that finds another parent at
    its start leaves at once."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    pids = context.Queue()
    server = context.Process(target=_server_killed_while_its_bot_workers_start, args=(pids,))
    server.start()
    workers = pids.get(timeout=120)
    server.join()
    assert workers, "the server started no worker"
    left = wait_gone(workers, 120)  # a backstop: a leaving worker is gone in a second
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"bot workers {sorted(left)} outlived their server"


# -- a server that survives its own disk (issue 38) -------------------------------------

SLOW_BOTS = {"bot_delay": 0.1, "deal_pause": 1, "forced_delay": 0.1}


def _lobby(store: Store, **options: Any) -> tuple[Lobby, ManualClock]:
    clock = ManualClock()
    return Lobby(store, Options(**options), clock=clock, pool=InlinePool()), clock


def test_a_short_disk_full_never_freezes_a_table(database: str) -> None:
    """Attack: the disk is full for 20 s while three bot tables play.  A host move that
    could not be stored is tried again, backing off (at most 30 s), so every table goes
    on once the store is back, and what is stored is what was played (before: a failed
    host move was logged and never rescheduled, 3/3 tables never moved again)."""
    store = faulty_store(database)
    lobby, clock = _lobby(store)
    tables = [lobby.open_table({"seats": ["random"] * 4, **SLOW_BOTS}) for _ in range(3)]
    clock.advance(2.0)
    assert all(len(t.state.history) > 2 for t in tables)
    store.full = True
    moved = [len(t.state.history) for t in tables]
    clock.advance(20.0)
    assert store.failed >= 3 and [len(t.state.history) for t in tables] == moved
    store.full = False
    clock.advance(31.0)
    assert all(len(t.state.history) > n for t, n in zip(tables, moved, strict=True))
    run_until(clock, lambda: all(t.state.is_over for t in tables), limit=100_000)
    for table in tables:
        row = store.load(table.id)
        assert row is not None and tc.replay(tc.Record.from_json(row.record)) == table.state
    lobby.stop()


def test_a_move_that_cannot_be_stored_is_refused_never_acknowledged(database: str) -> None:
    """Attack: a person moves while the disk is full.  The move is refused with
    ``server.unavailable`` (a structured refusal, not a crash of the message), nobody is
    told of it, the table is as it was; once the store is back the same move is taken."""
    store = faulty_store(database)
    lobby, clock = _lobby(store)
    table = lobby.open_table({"seats": PEOPLE, "deal_pause": 0})
    viewers = [_Viewer(seat) for seat in range(4)]
    for seat, viewer in enumerate(viewers):
        table.join(seat, f"P{seat}")
        table.attach(viewer)
    clock.advance(0.1)
    state = table.state
    seat = min(state.to_act)
    move = tc.move_to_json(tc.legal_moves(state, seat)[0])
    told = [len(v.sent) for v in viewers]
    store.full = True
    with pytest.raises(Refused) as refused:
        table.submit(seat, move)
    assert refused.value.to_json()["code"] == "server.unavailable"
    assert table.state is state and [len(v.sent) for v in viewers] == told
    with pytest.raises(Refused, match="cannot store"):  # a join is not taken either
        lobby.open_table({"seats": PEOPLE}).join(0, "Eve")
    store.full = False
    table.submit(seat, move)
    assert len(table.state.history) == len(state.history) + 1
    assert all(len(v.sent) > n for v, n in zip(viewers, told, strict=True))
    lobby.stop()


def test_every_5xx_is_json_without_a_traceback() -> None:
    """Attack: open a table while the disk is full (before: a 500 with a traceback),
    and hit a bug under a request: the answers are 503 ``server.unavailable`` and 500
    ``server.internal``, JSON, with no traceback and no path of the server's code."""

    async def attack() -> list[tuple[int, bytes]]:
        app = create_app(":memory:")
        lobby: Lobby = app.state.lobby
        lobby.store.close()
        lobby.store = store = FaultyStore()
        store.full = True
        body = json.dumps({"seats": PEOPLE}).encode()
        answers = [await asgi_request(app, "POST", "/api/tables", body)]

        def bug(*args: object) -> None:
            raise KeyError("a bug")

        lobby.open_table = bug  # type: ignore[method-assign,assignment]
        answers.append(await asgi_request(app, "POST", "/api/tables", body))
        answers.append(await asgi_request(app, "PUT", "/api/tables"))
        lobby.stop()
        return answers

    full, failed, wrong = asyncio.run(attack())
    for (_, body), code in ((full, "unavailable"), (failed, "internal"), (wrong, "bad-request")):
        assert json.loads(body)["error"]["code"] == f"server.{code}"
        assert b"Traceback" not in body and b".py" not in body
    assert (full[0], failed[0], wrong[0]) == (503, 500, 405)


def _damage(db: str) -> tuple[list[str], str]:
    """A database of four tables, three of them damaged by hand: (the damaged, the good)."""
    lobby, _ = _lobby(open_store(db))
    ids = [lobby.open_table({"seats": PEOPLE}).id for _ in range(4)]
    lobby.stop()
    execute(db, "UPDATE tables SET record = 'not json' WHERE id = ?", (ids[0],))
    deep = "[" * 100_000 + "]" * 100_000
    execute(db, "UPDATE tables SET record = ? WHERE id = ?", (deep, ids[1]))
    execute(db, "UPDATE tables SET seats = '[1, 2]', archived = 1 WHERE id = ?", (ids[2],))
    return ids[:3], ids[3]


def test_a_damaged_row_sets_aside_its_table_only(
    database: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Attack: rows damaged by hand (a record not JSON, one nested 100,000 deep, an
    archived row with bad seats).  Before: the server did not start, or answered 500.
    Now each damaged table is set aside with one log line, listed as damaged, its
    pages answer 409 ``server.damaged`` in JSON, and the other tables serve."""
    db = database
    damaged, good = _damage(db)

    async def restart() -> list[tuple[int, bytes]]:
        app = create_app(str(db))
        lobby: Lobby = app.state.lobby
        lobby.restore()
        answers = [await asgi_request(app, "GET", "/api/tables")]
        for table_id in damaged:
            answers.append(await asgi_request(app, "GET", f"/api/tables/{table_id}"))
            answers.append(await asgi_request(app, "GET", f"/api/tables/{table_id}/record"))
        lobby.stop()
        return answers

    with caplog.at_level("ERROR", logger="trixcomplex.server"):
        (status, listed), *pages = asyncio.run(restart())
    assert status == 200
    lobby = json.loads(listed)
    assert [t["id"] for t in lobby["tables"]] == [good]
    assert lobby["damaged"] == sorted(damaged[:2])  # the third is archived: found when asked
    for status, body in pages:
        assert (status, json.loads(body)["error"]["code"]) == (409, "server.damaged")
    for table_id in damaged:
        lines = [r for r in caplog.records if table_id in r.getMessage()]
        assert len(lines) == 1 and lines[0].exc_info is None, lines


def test_a_database_the_server_did_not_make_is_refused(tmp_path: Path) -> None:
    """Attack: ``--db`` names another program's SQLite file.  Before: adopted (a
    ``tables`` table added, ``user_version`` set).  Now refused, unchanged, in one
    line: by its ``application_id`` (ours is set on every file we write), or, for a
    file without one, by holding tables that are not ours.  A file of ours from
    schema versions 1 and 2 (before the mark) still opens, and is marked."""
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE users (name TEXT)")
    marked = tmp_path / "marked.sqlite3"
    with sqlite3.connect(marked) as con:
        con.execute("CREATE TABLE tables (id TEXT, created TEXT, settings TEXT, seats TEXT, "
                    "record TEXT, finished INTEGER)")  # fmt: skip
        con.execute("PRAGMA application_id = 1234")
    for path in (other, marked):
        before = path.read_bytes()
        with pytest.raises(ValueError, match="not a trixcomplex server database"):
            SqliteStore(str(path))
        assert path.read_bytes() == before
    done = subprocess.run(
        [sys.executable, "-m", "trixcomplex", "serve", "--port", "1", "--db", str(other)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "not a trixcomplex server database" in done.stderr

    for version in (1, 2):  # ours, from before the mark
        old = tmp_path / f"v{version}.sqlite3"
        with sqlite3.connect(old) as con:
            con.execute("CREATE TABLE tables (id TEXT PRIMARY KEY, created TEXT NOT NULL, "
                        "settings TEXT NOT NULL, seats TEXT NOT NULL, record TEXT NOT NULL, "
                        "finished INTEGER NOT NULL)")  # fmt: skip
            seats = json.dumps([{"kind": "person", "name": None, "token_sha256": None}] * 4)
            con.execute("INSERT INTO tables VALUES ('t1', '2026-01-01T00:00:00Z', '{}', ?, "
                        "'{\"moves\": []}', 0)", (seats,))  # fmt: skip
            con.execute(f"PRAGMA user_version = {version}")
        store = SqliteStore(str(old))
        assert [row.id for row in store.load_all()] == ["t1"]
        store.close()
        with sqlite3.connect(old) as con:
            assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


@pytest.mark.postgresql
def test_a_postgresql_database_the_server_did_not_make_is_refused(postgres_cluster: Any) -> None:
    """Attack: ``--db`` names another program's PostgreSQL database.  Refused, unchanged,
    in one line: it holds tables and not our mark (``trixcomplex_store``); the server
    exits 1 with that line, no traceback.  An empty database is made ours and marked."""
    other = postgres_cluster.database()
    execute(other, "CREATE TABLE users (name TEXT)")
    with pytest.raises(ValueError, match="not a trixcomplex server database"):
        open_store(other)
    execute(other, "CREATE TABLE tables (id TEXT)")  # our table's name, not our mark
    with pytest.raises(ValueError, match=r"not a trixcomplex server database .*tables, users"):
        open_store(other)
    done = subprocess.run(
        [sys.executable, "-m", "trixcomplex", "serve", "--port", "1", "--db", other],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "not a trixcomplex server database" in done.stderr
    empty = postgres_cluster.database()
    open_store(empty).close()
    open_store(empty).close()  # marked: opened again as ours


# -- shared resources have owners (issue 38) --------------------------------------------


def test_a_spectator_does_not_keep_a_table_open() -> None:
    """Attack: one idle spectator per table, to hold --max-tables for good.  Before:
    any connection kept a table from idle-close.  Now only a seat's connection does."""
    lobby, clock = _lobby(SqliteStore(":memory:"), idle_close=50)
    tables = [lobby.open_table({"seats": PEOPLE}) for _ in range(3)]
    for table in tables:
        table.attach(_Viewer())
    seated = tables[0]
    seated.join(0, "Ann")
    seated.attach(_Viewer(0))
    clock.advance(50.1)
    assert list(lobby.tables) == [seated.id]
    lobby.stop()


def test_one_address_cannot_take_every_seat_nor_watch_without_end(server_database: str) -> None:
    """Attack: one client joins every free person seat (before: 45 seats of 15 tables
    in 0.4 s) and opens spectator connections without end.  Now at most --join-limit
    joins per address in --join-window (``server.rate-limited``; a refused join does
    not count) and --watch-limit spectator connections at once
    (``server.too-many-watchers``; a closed one frees its place)."""
    options = ("--join-limit", "3", "--watch-limit", "2", "--bot-window", "0.05")
    with Server(server_database, None, *options) as server:
        table = server.create(PEOPLE)
        clients = [server.client(table) for _ in range(4)]
        clients[0].join(0, "P0")
        clients[1].send({"type": "join", "seat": 0, "name": "again"})  # taken: not counted
        assert clients[1].expect("refused")["error"]["code"] == "server.seat-taken"
        clients[1].join(1, "P1")
        clients[2].join(2, "P2")
        clients[3].send({"type": "join", "seat": 3, "name": "P3"})
        assert clients[3].expect("refused")["error"]["code"] == "server.rate-limited"
        watchers = [server.client(table) for _ in range(3)]
        watchers[0].watch(False)
        watchers[1].watch(False)
        watchers[2].send({"type": "watch"})
        assert watchers[2].expect("refused")["error"]["code"] == "server.too-many-watchers"
        watchers[0].close()
        deadline = time.monotonic() + 30
        while True:  # the closed one's place is freed once the server sees it go
            again = server.client(table)
            again.send({"type": "watch", "pictures": False})
            if again.poll(10)["type"] == "welcome":  # type: ignore[index]
                break
            assert time.monotonic() < deadline, "the closed watcher's place was never freed"
            again.close()
        for client in [*clients, *watchers, again]:
            client.close()


def test_a_seat_left_empty_is_played_by_a_bot_until_its_token_comes_back() -> None:
    """Attack: join a seat and go away, to hold the table (before: the seat was held
    for good, each move waiting out the whole move time).  After --seat-timeout
    seconds (5 here, move time 60) a stand-in bot plays the seat, as card sites do;
    the seat stays the person's: when its token connects again the bot leaves, and
    the table waits for the person."""
    state = tc.apply(tc.new_match(), deal_of([["7H", "KH", "2C", "3C", "4C"]]))
    assert state.owner == 0
    table, clock, store = _table(state, InlinePool(), seat_timeout=5.0)
    ann = _Viewer(0)
    table.attach(ann)
    clock.advance(1.0)
    table.detach(ann)  # the connection is lost at 1 s
    run_until(clock, lambda: bool(store.moves))
    assert store.moves[0][0] == 6.0 and store.moves[0][1].seat == 0  # the stand-in chose
    clock.advance(4.0)
    back = _Viewer(0)
    table.check_free(0)
    table.attach(back)  # the token resumes the seat
    playing = (tc.Phase.COMPLEX, tc.Phase.TRICKS, tc.Phase.TRIX)
    run_until(clock, lambda: 0 in table.state.to_act and table.state.phase in playing)
    waiting_since, stored = clock.now(), len(store.moves)
    clock.advance(30.0)  # half the move time: nobody plays for the person
    assert len(store.moves) == stored and 0 in table.state.to_act
    move = tc.legal_moves(table.state, 0)[0]
    table.submit(0, tc.move_to_json(move))
    assert store.moves[-1] == (waiting_since + 30.0, move)
    assert back.sent[-1]["type"] == "update"


def test_a_connection_that_never_reads_holds_a_bounded_outbox() -> None:
    """Attack: a spectator that never reads (before: 1,000 queued updates, about
    5.5 MiB each; 40 of them held 222 MiB).  Now the unsent text of a connection is
    at most --outbox-bytes; past it the connection is closed with code 4413 (the
    client reconnects and resumes: a fresh update) and its queue freed."""

    class NeverReads:
        """A socket whose sends never finish: the client does not read."""

        def __init__(self) -> None:
            self.closed_with: int | None = None

        async def send_text(self, text: str) -> None:
            await asyncio.Event().wait()

        async def close(self, code: int = 1000, reason: str | None = None) -> None:
            self.closed_with = code

    async def attack() -> tuple[Connection, NeverReads, int]:
        socket = NeverReads()
        conn = Connection(socket, "192.0.2.1", 64 * 1024)  # type: ignore[arg-type]
        conn.start()
        most = 0
        for _ in range(1000):
            conn.send({"type": "update", "svg": "x" * 5000})
            most = max(most, conn._outbox.qsize())
            await asyncio.sleep(0)
        await asyncio.sleep(0.01)
        return conn, socket, most

    conn, socket, most = asyncio.run(attack())
    assert conn.dropped and socket.closed_with == SLOW_CLIENT_CODE == 4413
    assert most * 5000 <= 64 * 1024 and conn._outbox.qsize() == 0


def test_readiness_says_when_the_tables_or_the_database_are_not_there(database: str) -> None:
    """Issue 39: ``/healthz`` answers while the process lives; ``/readyz`` answers 200
    only once the stored tables are loaded and while the database answers, else 503
    ``server.unavailable`` in JSON (a load balancer sends nobody to such a process)."""

    async def probe() -> list[tuple[int, Any]]:
        app = create_app(database)
        lobby: Lobby = app.state.lobby
        answers = [await asgi_request(app, "GET", "/readyz")]  # before the tables are loaded
        lobby.restore()
        lobby.open_table({"seats": PEOPLE})
        answers.append(await asgi_request(app, "GET", "/readyz"))
        lobby.store.close()  # the database gone
        answers.append(await asgi_request(app, "GET", "/readyz"))
        answers.append(await asgi_request(app, "GET", "/healthz"))
        lobby.stop()
        return [(status, json.loads(body)) for status, body in answers]

    early, ready, gone, alive = asyncio.run(probe())
    assert early == (503, early[1]) and early[1]["error"]["code"] == "server.unavailable"
    assert ready == (200, {"status": "ready", "tables": 1})
    assert gone[0] == 503 and gone[1]["error"]["code"] == "server.unavailable"
    assert alive == (200, {"status": "alive"})
