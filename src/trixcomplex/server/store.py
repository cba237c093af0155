"""The database: one row per table, rewritten after every move (SQLite, stdlib ``sqlite3``).

A row holds everything needed to bring a table back after a crash: its
settings, its four seats (kind, name and the SHA-256 of the seat's secret
token, never the token itself), and its game record with metadata, exactly
as :meth:`trixcomplex.Record.to_json` writes it.  The record is the truth:
on restart the state is rebuilt by replaying it, so nothing is reshuffled.

>>> store = Store(":memory:")
>>> row = TableRow("t1", "2026-01-01T00:00:00Z", {"move_time": 60}, [], {"moves": []}, False)
>>> store.save(row)
>>> [r.id for r in store.load_all()], store.load("t1") == row, store.load("t2")
(['t1'], True, None)
>>> store.close()
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from attrs import frozen

__all__ = ["SCHEMA_VERSION", "Store", "TableRow"]

SCHEMA_VERSION = 1
"""``PRAGMA user_version`` of a database this module wrote; it refuses others."""

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


@frozen
class TableRow:
    """One table as stored: plain JSON-able values (the table builds and reads them)."""

    id: str
    created: str
    settings: dict[str, Any]
    seats: list[dict[str, Any]]
    record: dict[str, Any]
    finished: bool


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
        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def save(self, row: TableRow) -> None:
        """Insert or replace ``row``, committed before returning."""
        self._db.execute(
            "INSERT OR REPLACE INTO tables VALUES (?, ?, ?, ?, ?, ?)",
            (
                row.id,
                row.created,
                json.dumps(row.settings),
                json.dumps(row.seats),
                json.dumps(row.record, separators=(",", ":")),
                int(row.finished),
            ),
        )

    def load(self, table_id: str) -> TableRow | None:
        """The stored row of ``table_id``, or ``None``."""
        found = self._db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
        return _row(found) if found else None

    def load_all(self) -> list[TableRow]:
        """Every stored table, oldest first."""
        return [_row(r) for r in self._db.execute("SELECT * FROM tables ORDER BY created, id")]

    def close(self) -> None:
        """Close the database."""
        self._db.close()


def _row(values: tuple[Any, ...]) -> TableRow:
    table_id, created, settings, seats, record, finished = values
    return TableRow(
        table_id,
        created,
        json.loads(settings),
        json.loads(seats),
        json.loads(record),
        bool(finished),
    )
