"""The database: one row per table, rewritten after every move (SQLite, stdlib ``sqlite3``).

A row holds everything needed to bring a table back after a crash: its
settings, its four seats (kind, name and the SHA-256 of the seat's secret
token, never the token itself), and its game record with metadata, exactly
as :meth:`trixcomplex.Record.to_json` writes it.  The record is the truth:
on restart the state is rebuilt by replaying it, so nothing is reshuffled.

It also holds what the lobby's quotas and retention need to survive a
restart (times are seconds since the epoch): who opened the table (a
SHA-256 of the client's address, never the address), when, when its match
ended or the table was closed, since when nobody has been connected to it,
and whether it is archived (out of the server's memory; its record stays
here, downloadable).

>>> store = Store(":memory:")
>>> row = TableRow("t1", "2026-01-01T00:00:00Z", {"move_time": 60}, [], {"moves": []}, False)
>>> store.save(row)
>>> [r.id for r in store.load_all()], store.load("t1") == row, store.load("t2")
(['t1'], True, None)
>>> store.archive("t1", ended_at=5.0, closed=True)
>>> store.load_all(), store.load("t1").archived
([], True)
>>> store.close()
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from attrs import frozen

__all__ = ["SCHEMA_VERSION", "Store", "TableRow"]

SCHEMA_VERSION = 2
"""``PRAGMA user_version`` of a database this module writes; it upgrades version 1
(adding the quota and retention columns) and refuses others."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id       TEXT PRIMARY KEY,
    created  TEXT NOT NULL,
    settings TEXT NOT NULL,
    seats    TEXT NOT NULL,
    record   TEXT NOT NULL,
    finished INTEGER NOT NULL
)
"""
_COLUMNS_2 = (  # added by version 2: quotas and retention
    ("creator", "TEXT NOT NULL DEFAULT ''"),
    ("created_at", "REAL NOT NULL DEFAULT 0"),
    ("ended_at", "REAL"),
    ("idle_since", "REAL"),
    ("closed", "INTEGER NOT NULL DEFAULT 0"),
    ("archived", "INTEGER NOT NULL DEFAULT 0"),
)
_FIELDS = "id, created, settings, seats, record, finished, creator, created_at, ended_at, "
_FIELDS += "idle_since, closed, archived"


@frozen
class TableRow:
    """One table as stored: plain JSON-able values (the table builds and reads them)."""

    id: str
    created: str
    settings: dict[str, Any]
    seats: list[dict[str, Any]]
    record: dict[str, Any]
    finished: bool
    creator: str = ""
    created_at: float = 0.0
    ended_at: float | None = None
    idle_since: float | None = None
    closed: bool = False
    archived: bool = False


class Store:
    """The tables of one server in one SQLite file (``":memory:"`` for tests).

    Every :meth:`save` is its own committed transaction, in WAL mode: once
    it returns, the row survives the server process being killed.
    """

    def __init__(self, path: str) -> None:
        self._db = sqlite3.connect(path, isolation_level=None)
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, SCHEMA_VERSION):
            self._db.close()
            raise ValueError(
                f"{path}: database schema version {version}, this server reads {SCHEMA_VERSION}"
            )
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)
        have = {r[1] for r in self._db.execute("PRAGMA table_info(tables)")}
        for name, kind in _COLUMNS_2:  # a version 1 database: add them
            if name not in have:
                self._db.execute(f"ALTER TABLE tables ADD COLUMN {name} {kind}")
        if version < SCHEMA_VERSION:  # version 1's finished tables: archived at once
            self._db.execute("UPDATE tables SET ended_at = 0 WHERE finished AND ended_at IS NULL")
        self._db.execute(
            "CREATE INDEX IF NOT EXISTS tables_creator ON tables (creator, created_at)"
        )
        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def save(self, row: TableRow) -> None:
        """Insert ``row`` or update its table's game (settings, seats, record, end),
        committed before returning.  Who opened it and when are kept from the insert;
        whether it is archived or idle is the lobby's (:meth:`archive`, :meth:`set_idle`)."""
        self._db.execute(
            f"INSERT INTO tables ({_FIELDS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET settings = excluded.settings, "
            "seats = excluded.seats, record = excluded.record, finished = excluded.finished, "
            "ended_at = excluded.ended_at",
            (
                row.id,
                row.created,
                json.dumps(row.settings),
                json.dumps(row.seats),
                json.dumps(row.record, separators=(",", ":")),
                int(row.finished),
                row.creator,
                row.created_at,
                row.ended_at,
                row.idle_since,
                int(row.closed),
                int(row.archived),
            ),
        )

    def archive(self, table_id: str, ended_at: float | None = None, closed: bool = False) -> None:
        """Mark a table archived (out of memory, record kept); ``closed``: ended unfinished."""
        self._db.execute(
            "UPDATE tables SET archived = 1, closed = closed OR ?, "
            "ended_at = COALESCE(ended_at, ?) WHERE id = ?",
            (int(closed), ended_at, table_id),
        )

    def set_idle(self, table_id: str, since: float | None) -> None:
        """Since when nobody is connected to the table (``None``: someone is)."""
        self._db.execute("UPDATE tables SET idle_since = ? WHERE id = ?", (since, table_id))

    def created_since(self, creator: str, since: float) -> int:
        """How many tables ``creator`` opened at ``since`` or later."""
        found = self._db.execute(
            "SELECT COUNT(*) FROM tables WHERE creator = ? AND created_at >= ?", (creator, since)
        ).fetchone()
        return int(found[0])

    def load(self, table_id: str) -> TableRow | None:
        """The stored row of ``table_id``, or ``None``."""
        found = self._db.execute(
            f"SELECT {_FIELDS} FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        return _row(found) if found else None

    def load_all(self) -> list[TableRow]:
        """Every stored table not archived, oldest first."""
        return [
            _row(r)
            for r in self._db.execute(
                f"SELECT {_FIELDS} FROM tables WHERE NOT archived ORDER BY created, id"
            )
        ]

    def close(self) -> None:
        """Close the database."""
        self._db.close()


def _row(values: tuple[Any, ...]) -> TableRow:
    table_id, created, settings, seats, record, finished, *lobby = values
    creator, created_at, ended_at, idle_since, closed, archived = lobby
    return TableRow(
        table_id,
        created,
        json.loads(settings),
        json.loads(seats),
        json.loads(record),
        bool(finished),
        creator,
        created_at,
        ended_at,
        idle_since,
        bool(closed),
        bool(archived),
    )
