"""The server's database: what a restart reads back, and what it refuses."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

import trixcomplex as tc
from trixcomplex.server.app import Lobby
from trixcomplex.server.store import Store


def _tables(db: Path, n: int = 2) -> list[str]:
    async def open_two() -> list[str]:
        lobby = Lobby(Store(str(db)))
        tables = [lobby.open_table({"seats": ["rule"] * 4, "bot_delay": 0}) for _ in range(n)]
        while any(len(t.state.history) < 3 for t in tables):  # the bots play a little
            await asyncio.sleep(0.01)
        lobby.stop()
        return [t.id for t in tables]

    return asyncio.run(open_two())


def test_a_restart_brings_back_every_table_as_stored(tmp_path: Path) -> None:
    """R-MATCH-2: the stored record is replayed, so the state is the one stored, hands included."""
    db = tmp_path / "tables.sqlite3"
    ids = _tables(db)
    stored = {
        row.id: tc.replay(tc.Record.from_json(row.record)) for row in Store(str(db)).load_all()
    }

    async def restart() -> dict[str, tc.MatchState]:
        lobby = Lobby(Store(str(db)))
        lobby.restore()
        states = {table_id: table.state for table_id, table in lobby.tables.items()}
        lobby.stop()
        return states

    states = asyncio.run(restart())
    assert sorted(states) == sorted(ids)
    assert all(len(state.history) > 1 for state in states.values())
    assert states == stored


def test_a_damaged_row_is_skipped_and_the_others_served(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    good, bad, worse = _tables(db, 3)
    with sqlite3.connect(db) as con:  # a move nobody may make, as a tampered row would hold
        record = '{"format":"trixcomplex-record","version":1,"ruleset":"partnership",'
        record += '"moves":[{"move":"pass","seat":1}]}'
        con.execute("UPDATE tables SET record = ? WHERE id = ?", (record, bad))
        con.execute("UPDATE tables SET seats = '[{}]' WHERE id = ?", (worse,))

    async def restart() -> list[str]:
        lobby = Lobby(Store(str(db)))
        lobby.restore()
        lobby.stop()
        return list(lobby.tables)

    assert asyncio.run(restart()) == [good]


def test_a_database_of_another_schema_version_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "other.sqlite3"
    with sqlite3.connect(db) as con:
        con.execute("PRAGMA user_version = 99")
    with pytest.raises(ValueError, match="schema version 99"):
        Store(str(db))
