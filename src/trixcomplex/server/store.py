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

The file is marked as the server's (SQLite's ``PRAGMA application_id``,
:data:`APPLICATION_ID`): a database some other program made is refused, never
adopted.  A row that cannot be read (not JSON, nested too deep, seats that are
not four seats) is *damaged*: :meth:`Store.scan` sets it aside with the reason,
and the other rows are read as usual.

>>> store = Store(":memory:")
>>> seats = [{"kind": "bot", "name": "rule", "token_sha256": None}] * 4
>>> row = TableRow("t1", "2026-01-01T00:00:00Z", {"move_time": 60}, seats, {"moves": []}, False)
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
from typing import Any, Final

from attrs import frozen

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "STORE_ERRORS", "DamagedRow", "Store", "TableRow"]

SCHEMA_VERSION = 2
"""``PRAGMA user_version`` of a database this module writes; it upgrades version 1
(adding the quota and retention columns) and refuses others."""

APPLICATION_ID: Final = 0x54524958
"""``PRAGMA application_id`` of a database this module writes (``TRIX`` in ASCII).
Versions 1 and 2 of this module did not set it: a file without it is taken as
ours only if its one table is ``tables`` with our columns."""

STORE_ERRORS: Final = (sqlite3.Error, OSError)
"""What a failing disk raises from a :class:`Store` (full, read-only, gone): the
step that wanted to store is not taken, and is tried again or refused."""

_OURS = frozenset({"tables", "tables_creator"})  # what versions 1 and 2 created

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


class DamagedRow(ValueError):
    """A stored row that cannot be read: its table is set aside, the others serve."""


class Store:
    """The tables of one server in one SQLite file (``":memory:"`` for tests).

    Every :meth:`save` is its own committed transaction, in WAL mode: once
    it returns, the row survives the server process being killed.
    """

    def __init__(self, path: str) -> None:
        self._db = sqlite3.connect(path, isolation_level=None)
        try:
            version = self._check(path)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(_SCHEMA)
            have = {r[1] for r in self._db.execute("PRAGMA table_info(tables)")}
            for name, kind in _COLUMNS_2:  # a version 1 database: add them
                if name not in have:
                    self._db.execute(f"ALTER TABLE tables ADD COLUMN {name} {kind}")
            if version < SCHEMA_VERSION:  # version 1's finished tables: archived at once
                self._db.execute(
                    "UPDATE tables SET ended_at = 0 WHERE finished AND ended_at IS NULL"
                )
            self._db.execute(
                "CREATE INDEX IF NOT EXISTS tables_creator ON tables (creator, created_at)"
            )
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._db.execute(f"PRAGMA application_id={APPLICATION_ID}")
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
        if version not in (0, 1, SCHEMA_VERSION):
            raise ValueError(
                f"{path}: database schema version {version}, this server reads {SCHEMA_VERSION}"
            )
        return version

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
        """The stored row of ``table_id``, or ``None``; :class:`DamagedRow` if it
        cannot be read."""
        found = self._db.execute(
            f"SELECT {_FIELDS} FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        return _row(found) if found else None

    def exists(self, table_id: str) -> bool:
        """Whether a row (readable or not) is stored for ``table_id``."""
        found = self._db.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone()
        return found is not None

    def scan(self) -> tuple[list[TableRow], dict[str, str]]:
        """Every stored table not archived, oldest first, and the damaged ones set
        aside: their ids and why each cannot be read."""
        rows, damaged = [], {}
        query = f"SELECT {_FIELDS} FROM tables WHERE NOT archived ORDER BY created, id"
        for values in self._db.execute(query):
            try:
                rows.append(_row(values))
            except DamagedRow as exc:
                damaged[str(values[0])] = str(exc)
        return rows, damaged

    def load_all(self) -> list[TableRow]:
        """Every stored table not archived that can be read, oldest first (:meth:`scan`)."""
        return self.scan()[0]

    def close(self) -> None:
        """Close the database."""
        self._db.close()


def _json(text: object, kind: type, what: str) -> Any:
    """One stored JSON column, of the type ``kind``; :class:`DamagedRow` otherwise."""
    try:
        value = json.loads(text) if isinstance(text, str | bytes) else None
    except (ValueError, RecursionError):  # RecursionError: nested too deep
        raise DamagedRow(f"its {what} is not JSON") from None
    if not isinstance(value, kind):
        raise DamagedRow(f"its {what} is not a JSON {kind.__name__}")
    return value


def _seats(seats: list[Any]) -> list[dict[str, Any]]:
    """The stored seats, if they are four seats as the table writes them."""
    fields = {"kind", "name", "token_sha256"}
    for seat in seats:
        if (
            not isinstance(seat, dict)
            or set(seat) != fields
            or seat["kind"] not in ("person", "bot")
            or not all(
                seat[k] is None or isinstance(seat[k], str) for k in ("name", "token_sha256")
            )
        ):
            raise DamagedRow("its seats are not four seats as the server writes them")
    if len(seats) != 4:
        raise DamagedRow("its seats are not four seats as the server writes them")
    return seats


def _row(values: tuple[Any, ...]) -> TableRow:
    table_id, created, settings, seats, record, finished, *lobby = values
    creator, created_at, ended_at, idle_since, closed, archived = lobby
    return TableRow(
        table_id,
        created,
        _json(settings, dict, "settings"),
        _seats(_json(seats, list, "seats")),
        _json(record, dict, "record"),
        bool(finished),
        creator,
        created_at,
        ended_at,
        idle_since,
        bool(closed),
        bool(archived),
    )
