"""The server's database, on both stores (SQLite, PostgreSQL): what a restart reads
back, what it refuses, append-only moves, two writers of one move, old files upgraded."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import trixcomplex as tc
from postgres_cluster import execute
from server_harness import InlinePool
from trixcomplex.server import app
from trixcomplex.server.app import Lobby, open_store, share_of
from trixcomplex.server.clock import ManualClock
from trixcomplex.server.store import SCHEMA_VERSION, MoveTaken, TableRow
from trixcomplex.server.store_sqlite import SqliteStore

SEATS = [{"kind": "bot", "name": "rule", "token_sha256": None}] * 4


def _tables(db: str, n: int = 2) -> list[str]:
    async def open_two() -> list[str]:
        lobby = Lobby(open_store(db))
        tables = [lobby.open_table({"seats": ["rule"] * 4, "bot_delay": 0}) for _ in range(n)]
        while any(len(t.state.history) < 3 for t in tables):  # the bots play a little
            await asyncio.sleep(0.01)
        lobby.stop()
        return [t.id for t in tables]

    return asyncio.run(open_two())


def test_a_restart_brings_back_every_table_as_stored(database: str) -> None:
    """R-MATCH-2: the stored record is replayed, so the state is the one stored, hands included."""
    ids = _tables(database)
    store = open_store(database)
    stored = {row.id: tc.replay(tc.Record.from_json(row.record)) for row in store.load_all()}
    store.close()

    async def restart() -> dict[str, tc.MatchState]:
        lobby = Lobby(open_store(database))
        lobby.restore()
        states = {table_id: table.state for table_id, table in lobby.tables.items()}
        lobby.stop()
        return states

    states = asyncio.run(restart())
    assert sorted(states) == sorted(ids)
    assert all(len(state.history) > 1 for state in states.values())
    assert states == stored


def test_a_damaged_row_is_skipped_and_the_others_served(database: str) -> None:
    good, bad, worse = _tables(database, 3)
    # a move nobody may make, as a tampered row would hold; seats that are no seats
    execute(database, "UPDATE moves SET move = ? WHERE table_id = ? AND number = 0",
            ('{"move":"pass","seat":1}', bad))  # fmt: skip
    execute(database, "UPDATE tables SET seats = '[{}]' WHERE id = ?", (worse,))

    async def restart() -> list[str]:
        lobby = Lobby(open_store(database))
        lobby.restore()
        lobby.stop()
        return list(lobby.tables)

    assert asyncio.run(restart()) == [good]


def test_a_gap_in_the_moves_is_a_damaged_row(database: str) -> None:
    """A move deleted from the middle (a tampered database): the row is damaged, never
    replayed as a shorter match."""
    good, bad = _tables(database, 2)
    execute(database, "DELETE FROM moves WHERE table_id = ? AND number = 1", (bad,))
    store = open_store(database)
    rows, damaged = store.scan()
    store.close()
    assert [row.id for row in rows] == [good]
    assert damaged == {bad: "its move 1 is missing"}


def test_a_database_of_another_schema_version_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "other.sqlite3"
    with sqlite3.connect(db) as con:
        con.execute("PRAGMA user_version = 99")
    with pytest.raises(ValueError, match="schema version 99"):
        SqliteStore(str(db))


# -- append-only moves (issue 39) ---------------------------------------------------------


def _row(table_id: str, moves: list[dict[str, Any]]) -> TableRow:
    record = {"format": "trixcomplex-record", "version": 1, "ruleset": "partnership"}
    return TableRow(table_id, "2026-01-01T00:00:00Z", {}, SEATS, {**record, "moves": moves}, False)


def test_a_move_is_one_row_and_the_record_is_read_back_from_the_moves(database: str) -> None:
    """Each move is its own row keyed by (table, number): adding one leaves the stored
    rows of the others as they were, and the record read back holds them in order."""
    store = open_store(database)
    store.save(_row("t1", [{"move": "deal"}]))
    store.add_move("t1", 1, {"move": "pass", "seat": 1})
    store.add_move("t1", 2, {"move": "pass", "seat": 2})
    row = store.load("t1")
    assert row is not None
    assert row.record["moves"] == [{"move": "deal"}, {"move": "pass", "seat": 1},
                                   {"move": "pass", "seat": 2}]  # fmt: skip
    assert list(row.record)[:4] == ["format", "version", "ruleset", "moves"]
    store.save(_row("t1", row.record["moves"]))  # a join: the head only, no move rewritten
    assert store.moves("t1") == row.record["moves"]
    store.close()


def test_a_move_stored_already_is_refused_by_the_database(database: str) -> None:
    """A second move at the same number is refused (:class:`MoveTaken`) and changes
    nothing, even one that would end the match (its end is not written either)."""
    store = open_store(database)
    store.save(_row("t1", [{"move": "deal"}]))
    store.add_move("t1", 1, {"move": "pass", "seat": 1})
    end = _row("t1", [])
    end = TableRow(end.id, end.created, end.settings, end.seats, end.record, True, ended_at=9.0)
    with pytest.raises(MoveTaken, match="move 1 is stored already"):
        store.add_move("t1", 1, {"move": "pass", "seat": 2}, end)
    row = store.load("t1")
    assert row is not None and not row.finished and row.ended_at is None
    assert row.record["moves"][1] == {"move": "pass", "seat": 1}
    store.close()


def _writer(db: str, w: int, rounds: int, barrier: Any, outcomes: Any) -> None:
    """One server process's side of the race: its own store, each move at the barrier."""
    store = open_store(db)
    for n in range(1, rounds + 1):
        barrier.wait(timeout=60)
        try:
            store.add_move("t1", n, {"move": "pass", "seat": w})
            outcomes.put((w, n, "stored"))
        except MoveTaken:
            outcomes.put((w, n, "taken"))
    store.close()


def test_two_writers_of_the_same_move_at_the_same_moment_apply_it_once(database: str) -> None:
    """Issue 39: two server processes receive a move at the same point at the same moment
    (each its own process and connection, released together by a barrier), 20 times
    over.  The database lets exactly one in each time; the other is told
    :class:`MoveTaken`, and the stored moves are exactly the winners'."""
    first = open_store(database)
    first.save(_row("t1", [{"move": "deal"}]))
    first.close()  # nothing open across the fork
    rounds = 20
    context = multiprocessing.get_context("fork")
    barrier, outcomes = context.Barrier(2), context.Queue()
    writers = [context.Process(target=_writer, args=(database, w, rounds, barrier, outcomes))
               for w in (0, 1)]  # fmt: skip
    for process in writers:
        process.start()
    got = [outcomes.get(timeout=120) for _ in range(2 * rounds)]
    for process in writers:
        process.join(60)
        assert process.exitcode == 0
    store = open_store(database)
    stored = store.moves("t1")[1:]
    store.close()
    assert len(stored) == rounds
    for n in range(1, rounds + 1):
        won = [w for w, m, outcome in got if m == n and outcome == "stored"]
        assert len(won) == 1, (n, got)
        assert stored[n - 1] == {"move": "pass", "seat": won[0]}


# -- old SQLite files are upgraded ----------------------------------------------------------


@pytest.mark.parametrize("version", [1, 2])
def test_an_old_sqlite_file_is_upgraded_and_its_matches_go_on(tmp_path: Path, version: int) -> None:
    """A file of schema version 1 or 2 (each table's whole record in its row) opens: its
    moves go to one row each, the state replays to the same one, the file is marked
    version 3, and the match goes on by appending."""
    state = tc.playout(tc.new_match(), random.Random(version))  # one deal, played out
    record = tc.Record.of(state, meta={"event": "old"}).to_json()
    db = tmp_path / f"v{version}.sqlite3"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE tables (id TEXT PRIMARY KEY, created TEXT NOT NULL, "
                    "settings TEXT NOT NULL, seats TEXT NOT NULL, record TEXT NOT NULL, "
                    "finished INTEGER NOT NULL)")  # fmt: skip
        if version == 2:
            for column in ("creator TEXT NOT NULL DEFAULT ''", "ended_at REAL",
                           "created_at REAL NOT NULL DEFAULT 0", "idle_since REAL",
                           "closed INTEGER NOT NULL DEFAULT 0",
                           "archived INTEGER NOT NULL DEFAULT 0"):  # fmt: skip
                con.execute(f"ALTER TABLE tables ADD COLUMN {column}")
        con.execute("INSERT INTO tables (id, created, settings, seats, record, finished) "
                    "VALUES ('old', '2026-01-01T00:00:00Z', '{}', ?, ?, 0)",
                    (json.dumps(SEATS), json.dumps(record)))  # fmt: skip
        con.execute(f"PRAGMA user_version = {version}")
    con.close()
    store = SqliteStore(str(db))
    row = store.load("old")
    assert row is not None and row.record == record
    assert tc.replay(tc.Record.from_json(row.record)) == state
    count = len(state.history)
    after = tc.playout(state, random.Random(0))  # the next deal starts with one move
    store.add_move("old", count, tc.move_to_json(after.history.moves()[count]))
    store.close()
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
        assert con.execute("SELECT COUNT(*) FROM moves").fetchone()[0] == count + 1
        head = json.loads(con.execute("SELECT record FROM tables").fetchone()[0])
    con.close()
    assert "moves" not in head and head["meta"] == {"event": "old"}


def test_postgresql_is_an_extra_imported_only_when_asked_for() -> None:
    """``import trixcomplex.server`` and a SQLite store need neither psycopg nor
    psycopg_pool; ``--db postgresql://...`` without them names the missing package and
    the extra to install, in one line (exit 1, no traceback)."""
    hide = (
        "import sys; sys.modules['psycopg'] = None; sys.modules['psycopg_pool'] = None; "
        "import trixcomplex.server, trixcomplex.server.app as app; "
    )
    done = subprocess.run(
        [sys.executable, "-c", hide + "app.open_store(':memory:').close(); print('ok')"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
    serve = "sys.exit(trixcomplex.server.serve(port=1, db='postgresql://u:pw@nowhere/db'))"
    done = subprocess.run(
        [sys.executable, "-c", hide + serve], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "needs the postgres extra (psycopg is not installed)" in done.stderr
    assert 'python -m pip install "trixcomplex[postgres]"' in done.stderr
    assert "pw" not in done.stderr  # the URL's password is never shown


# -- several processes on one database: who owns a table, what a takeover reads (issue 39) --


def test_load_many_reads_the_rows_and_their_moves_in_two_queries(database: str) -> None:
    """A process taking over a dead one's tables reads them at once: the rows and all
    their moves in two queries however many tables (not two per table), each row as
    :meth:`~Store.load` reads it alone, archived ones too; an unknown id is left out,
    a damaged row set aside with its reason, the others read."""
    ids = _tables(database, 4)
    execute(database, "DELETE FROM moves WHERE table_id = ? AND number = 1", (ids[3],))
    store = open_store(database)
    store.archive(ids[2])
    alone = {t: store.load(t) for t in ids[:3]}
    queries: list[str] = []
    run = store._run

    def counted(sql: str, params: Any = ()) -> list[tuple[Any, ...]]:
        queries.append(sql)
        return run(sql, params)

    store._run = counted  # type: ignore[method-assign]
    rows, damaged = store.load_many([*ids, "nowhere"])
    store.close()
    assert len(queries) == 2
    assert {row.id: row for row in rows} == alone
    assert damaged == {ids[3]: "its move 1 is missing"}


@pytest.mark.postgresql
def test_two_tables_under_one_lock_key_have_one_owner(postgres_cluster: Any) -> None:
    """Exactly one owner per table, even when two tables share a lock: a table's
    advisory lock key is a 32-bit hash of its id (``hashtext``), and ``8348`` and
    ``260297`` hash alike.  A PostgreSQL session takes a lock it holds again, so the
    process holding one may claim the other too, and no other process can take either
    (nor see it free) until both are released; a claim of many locks in one statement
    gives both to the one claimer."""
    import psycopg

    db = postgres_cluster.database()
    with psycopg.connect(db) as conn:  # the premise: one key for the two ids
        keys = conn.execute("SELECT hashtext('8348'), hashtext('260297')").fetchone()
    assert keys is not None and keys[0] == keys[1]
    first, second = open_store(db), open_store(db)
    for table_id in ("8348", "260297"):
        first.save(_row(table_id, [{"move": "deal"}]))
    assert first.claim(["8348"]) == ["8348"]
    assert first.claim(["260297"]) == ["260297"]  # its key is this session's already
    assert second.claim(["260297", "8348"]) == [] and second.unowned(set()) == []
    first.release("8348")  # the key is still held, for the other table
    assert second.claim(["8348"]) == [] and second.unowned(set()) == []
    first.release("260297")
    assert sorted(second.unowned(set())) == ["260297", "8348"]
    assert second.claim(["8348", "260297"]) == ["8348", "260297"]
    assert first.claim(["8348"]) == [] and first.claim(["260297"]) == []
    first.close()
    second.close()


@pytest.mark.postgresql
def test_each_live_process_has_its_own_place_among_them(postgres_cluster: Any) -> None:
    """The places the takeover's shares are cut by: every process on the database sees
    the same number of live processes and a place of its own (0, 1, 2); one that dies
    (its session ends) is no longer counted."""
    db = postgres_cluster.database()
    stores = [open_store(db) for _ in range(3)]
    for store in stores:  # each opens its owner's session, counted from then on
        store.claim([])
    places = [store.place() for store in stores]
    assert sorted(places) == [(0, 3), (1, 3), (2, 3)]
    stores.pop(1).close()  # PostgreSQL ends its session on its own time
    deadline = time.monotonic() + 60
    while stores[0].place()[1] != 2:
        assert time.monotonic() < deadline, "the closed session is still counted"
        time.sleep(0.01)
    assert sorted(store.place() for store in stores) == [(0, 2), (1, 2)]
    for store in stores:
        store.close()


def _open(db: str, n: int, clock: ManualClock) -> tuple[Lobby, list[str]]:
    """A server process's lobby on ``db`` that opens ``n`` tables of rule bots (on a
    clock moved by hand: the tables stay where they are)."""
    lobby = Lobby(open_store(db), clock=clock, pool=InlinePool())
    tables = [lobby.open_table({"seats": ["rule"] * 4, "bot_delay": 0}) for _ in range(n)]
    clock.advance(0.0)
    return lobby, [t.id for t in tables]


def _died(lobby: Lobby, store: Any, ids: list[str]) -> None:
    """``lobby``'s process dies: its session ends, and PostgreSQL (on its own time)
    frees its locks; returns once ``store`` sees every table of ``ids`` free."""
    lobby.stop()
    deadline = time.monotonic() + 60  # the bound is for a loaded machine only
    while not set(ids) <= set(store.unowned(set())):
        assert time.monotonic() < deadline, "the dead session's locks were never freed"
        time.sleep(0.01)


@pytest.mark.postgresql
def test_a_dead_processs_tables_are_shared_out_at_the_first_look(postgres_cluster: Any) -> None:
    """Issue 39: one of three processes dies (its session ends, so its tables' locks are
    free).  The first look of each survivor takes over exactly its share
    (:func:`~trixcomplex.server.app.share_of` of its place), so after one look each the
    dead one's tables are all driven again, each by one survivor, as stored.  A share
    its survivor does not come for (a slow process) is anyone's at the next look."""
    db = postgres_cluster.database()

    async def takeover() -> None:
        clock = ManualClock()
        dead, ids = _open(db, 12, clock)
        stored = {t: dead.tables[t].state for t in ids}
        second, third = (Lobby(open_store(db), clock=clock, pool=InlinePool()) for _ in "23")
        for lobby in (second, third):
            lobby.restore()  # the first's tables are owned: nothing is brought back
            assert lobby.tables == {}
        _died(dead, second.store, ids)
        for lobby in (second, third):
            place, servers = lobby.store.place()
            assert servers == 2
            assert sorted(await lobby.take_over()) == sorted(share_of(ids, place, 2, set()))
        assert not set(second.tables) & set(third.tables)
        states = {t: table.state for lobby in (second, third) for t, table in lobby.tables.items()}
        assert states == stored  # all driven again, as stored: nothing lost or reshuffled
        assert await second.take_over() == []  # the next look: nothing is free
        # A fourth process starts (nothing free to bring back), then the third dies; the
        # fourth does not look (a slow process): the second takes its share at once,
        # and the rest, free at two looks running, at its next look.
        fourth = Lobby(open_store(db), clock=clock, pool=InlinePool())
        fourth.restore()
        had = sorted(third.tables)
        _died(third, second.store, had)
        place, servers = second.store.place()
        assert servers == 2
        assert sorted(await second.take_over()) == sorted(share_of(had, place, 2, set()))
        await second.take_over()
        assert sorted(second.tables) == sorted(ids) and fourth.tables == {}
        second.stop()
        fourth.stop()

    asyncio.run(takeover())


@pytest.mark.postgresql
def test_a_takeover_lets_the_event_loop_run_between_tables(
    postgres_cluster: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A survivor bringing back many tables does not hold the event loop for all of
    them: past its time slice (here none) it lets the loop run, so the tables back
    already move on and clients are answered while the others are replayed."""
    monkeypatch.setattr(app, "_TAKEOVER_SLICE", 0.0)
    db = postgres_cluster.database()

    async def takeover() -> list[int]:
        clock = ManualClock()
        dead, ids = _open(db, 6, clock)
        survivor = Lobby(open_store(db), clock=clock, pool=InlinePool())
        survivor.restore()
        _died(dead, survivor.store, ids)
        counts: list[int] = []

        async def watch() -> None:  # another task of the loop: what it sees meanwhile
            while True:
                counts.append(len(survivor.tables))
                await asyncio.sleep(0)

        watcher = asyncio.create_task(watch())
        await asyncio.sleep(0)
        assert sorted(await survivor.take_over()) == sorted(ids)
        watcher.cancel()
        survivor.stop()
        return counts

    counts = asyncio.run(takeover())
    assert counts[0] == 0 and set(range(1, 6)) <= set(counts)


def test_a_move_holding_a_line_break_is_read_as_one_move(database: str) -> None:
    """PostgreSQL reads a table's moves joined by line breaks (compact JSON holds none):
    a tampered move holding one is still read alone, as the store reads any move.  The
    attack: move 1 made of two moves on two lines must not become two moves (a damaged
    row, not JSON); one JSON object spread over two lines is that object."""
    spread, doubled = _tables(database, 2)
    store = open_store(database)
    before = store.load(spread)
    assert before is not None
    execute(database, "UPDATE moves SET move = ? WHERE table_id = ? AND number = 1",
            (json.dumps(before.record["moves"][1], indent=1), spread))  # fmt: skip
    execute(database, "UPDATE moves SET move = ? WHERE table_id = ? AND number = 1",
            ('{"move":"pass","seat":1}\n{"move":"pass","seat":2}', doubled))  # fmt: skip
    rows, damaged = store.load_many([spread, doubled])
    store.close()
    assert [row.record for row in rows] == [before.record]
    assert damaged == {doubled: "its move 1 is not JSON"}
