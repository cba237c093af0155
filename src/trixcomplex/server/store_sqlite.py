"""The embedded store: one SQLite file (stdlib ``sqlite3``), nothing to install.

The default of ``trixcomplex serve --db FILE``.  The file is marked as the
server's (``PRAGMA application_id``, :data:`~trixcomplex.server.store.APPLICATION_ID`):
a database some other program made is refused, never adopted.  Files of
schema versions 1 and 2 (each table's whole record in its row, rewritten
after every move) are upgraded when opened, in one transaction: their moves
go to the ``moves`` table, one row each.

>>> from trixcomplex.server.store import TableRow
>>> store = SqliteStore(":memory:")
>>> seats = [{"kind": "bot", "name": "rule", "token_sha256": None}] * 4
>>> row = TableRow("t1", "2026-01-01T00:00:00Z", {"move_time": 60}, seats,
...                {"moves": [{"move": "deal"}]}, False)
>>> store.save(row)
>>> store.add_move("t1", 1, {"move": "pass", "seat": 1})
>>> [r.id for r in store.load_all()], store.load("t1").record["moves"][1], store.load("t2")
(['t1'], {'move': 'pass', 'seat': 1}, None)
>>> store.add_move("t1", 1, {"move": "pass", "seat": 2})
Traceback (most recent call last):
  ...
trixcomplex.server.store.MoveTaken: table t1: move 1 is stored already
>>> store.archive("t1", ended_at=5.0, closed=True)
>>> store.load_all(), store.load("t1").archived
([], True)
>>> store.close()
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from .store import APPLICATION_ID, SCHEMA_VERSION, Statement, Store

__all__ = ["SqliteStore"]

_OURS = frozenset({"tables", "tables_creator", "moves"})  # what versions 1 to 3 created

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
_MOVES = """
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL,
    number   INTEGER NOT NULL,
    move     TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
) WITHOUT ROWID
"""


class SqliteStore(Store):
    """The tables of one server in one SQLite file (``":memory:"`` for tests).

    In WAL mode: once a write returns, it survives the server process being
    killed.  Several connections to one file (two processes) wait for each other
    up to ``timeout`` seconds, and the moves' primary key lets one writer in.
    """

    def __init__(self, path: str, timeout: float = 5.0) -> None:
        self._db = sqlite3.connect(path, isolation_level=None, timeout=timeout)
        try:
            version = self._check(path)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            if version != SCHEMA_VERSION:
                self._upgrade(version)
        except BaseException:
            self._db.close()
            raise

    def _check(self, path: str) -> int:
        """The file's schema version (0: a new file); :class:`ValueError` in one line
        for a database this server did not make, or of a version it does not read."""
        application = self._db.execute("PRAGMA application_id").fetchone()[0]
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        names = {
            str(r[0])
            for r in self._db.execute("SELECT name FROM sqlite_master")
            if not str(r[0]).startswith("sqlite_")
        }
        if application not in (0, APPLICATION_ID):
            raise ValueError(
                f"{path}: not a trixcomplex server database (SQLite application_id "
                f"{application:#x}, ours is {APPLICATION_ID:#x}); give --db a new file"
            )
        if application == 0 and names:  # made before the mark, or by another program
            columns = {r[1] for r in self._db.execute("PRAGMA table_info(tables)")}
            base = {"id", "created", "settings", "seats", "record", "finished"}
            if not names <= _OURS or not base <= columns or version not in (0, 1, 2):
                shown = ", ".join(sorted(names)[:5])
                raise ValueError(
                    f"{path}: not a trixcomplex server database (it holds {shown}); "
                    "give --db a new file"
                )
        if version not in (0, 1, 2, SCHEMA_VERSION):
            raise ValueError(
                f"{path}: database schema version {version}, this server reads "
                f"1 to {SCHEMA_VERSION}"
            )
        return version

    def _upgrade(self, version: int) -> None:
        """Make a new file, or bring one of an older version to :data:`SCHEMA_VERSION`,
        in one transaction (a failure leaves the file as it was)."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(_SCHEMA)
            have = {r[1] for r in db.execute("PRAGMA table_info(tables)")}
            for name, kind in _COLUMNS_2:  # a version 1 database: add them
                if name not in have:
                    db.execute(f"ALTER TABLE tables ADD COLUMN {name} {kind}")
            if version == 1:  # version 1's finished tables: archived at once
                db.execute("UPDATE tables SET ended_at = 0 WHERE finished AND ended_at IS NULL")
            db.execute("CREATE INDEX IF NOT EXISTS tables_creator ON tables (creator, created_at)")
            db.execute(_MOVES)
            for table_id, text in db.execute("SELECT id, record FROM tables").fetchall():
                _split(db, table_id, text)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _run(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self._db.execute(sql, params).fetchall()

    def _atomic(self, first: Statement, then: list[Statement]) -> bool:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            try:
                db.execute(*first)
            except sqlite3.IntegrityError:
                db.execute("ROLLBACK")
                return False
            for statement in then:
                db.execute(*statement)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return True

    def close(self) -> None:
        """Close the database."""
        self._db.close()


def _split(db: sqlite3.Connection, table_id: str, text: str) -> None:
    """Move one version 1 or 2 row's record moves into ``moves``; a record that cannot
    be read is left as it is (the row is damaged, and set aside when read)."""
    try:
        record = json.loads(text)
    except (ValueError, RecursionError, TypeError):
        return
    if not isinstance(record, dict) or not isinstance(record.get("moves"), list):
        return
    moves = record.pop("moves")
    db.executemany(
        "INSERT INTO moves (table_id, number, move) VALUES (?, ?, ?)",
        [(table_id, n, json.dumps(m, separators=(",", ":"))) for n, m in enumerate(moves)],
    )
    db.execute(
        "UPDATE tables SET record = ? WHERE id = ?",
        (json.dumps(record, separators=(",", ":")), table_id),
    )
