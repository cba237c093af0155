"""The database of tables: the interface every store keeps, and what they share.

A table is stored as one row and its moves.  The row holds its settings, its
four seats (kind, name and the SHA-256 of the seat's secret token, never the
token itself), the head of its game record (format, ruleset, metadata) and
what the lobby's quotas and retention need to survive a restart (times are
seconds since the epoch): who opened the table (a SHA-256 of the client's
address, never the address), when, when its match ended or the table was
closed, since when nobody has been connected to it, and whether it is
archived (out of the server's memory; its record stays, downloadable).

The moves are **append-only**: move number ``n`` of a table is one short
``INSERT`` keyed by ``(table, n)``, the primary key, so writing a move costs
the same at the thousandth move as at the tenth, and when two writers store
a move at the same point the database itself lets exactly one of them in
(the other gets :class:`MoveTaken`).  The record is read back from the moves
(:meth:`Store.load`); it is the truth: a table's state is rebuilt by replaying
it, so nothing is reshuffled.

Two stores keep this interface: :class:`~trixcomplex.server.store_sqlite.SqliteStore`
(the embedded default, one file, nothing to install) and
:class:`~trixcomplex.server.store_postgres.PostgresStore` (``postgresql://...``,
the ``postgres`` extra).  The SQL they run is this module's; each says how to
run it.  A row or move that cannot be read (not JSON, nested too deep, seats
that are not four seats, a gap in the moves) is *damaged*: :meth:`Store.scan`
sets it aside with the reason, and the other rows are read as usual.
"""

from __future__ import annotations

import abc
import json
import sqlite3
import urllib.parse
from collections.abc import Callable, Sequence
from typing import Any, Final

from attrs import frozen

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "STORE_ERRORS",
    "DamagedRow",
    "MoveTaken",
    "Store",
    "StoreUnavailable",
    "TableRow",
    "shown",
]

SCHEMA_VERSION: Final = 3
"""The schema version a store writes: 3 keeps the moves in a table of their own
(one row per move); SQLite files of versions 1 and 2 (the whole record in the
table's row) are upgraded when opened."""

APPLICATION_ID: Final = 0x54524958
"""The mark of a database this server made (``TRIX`` in ASCII): SQLite's ``PRAGMA
application_id``, PostgreSQL's row in ``trixcomplex_store``.  A database with
another mark, or with tables that are not ours, is refused, never adopted."""


def shown(db: str) -> str:
    """``db`` as messages and logs may show it: a URL without its password.

    >>> shown("postgresql://trix:secret@db.example/tables"), shown("t.sqlite3")
    ('postgresql://trix@db.example/tables', 't.sqlite3')
    """
    parts = urllib.parse.urlsplit(db)
    if not parts.scheme.startswith("postgres") or parts.password is None:
        return db
    host = parts.netloc.rpartition("@")[2]
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{parts.username or ''}@{host}"))


class StoreUnavailable(Exception):
    """The database cannot be reached or refused to write (a PostgreSQL server gone,
    a pool with no connection left): the step is not taken, and is tried again or refused."""


STORE_ERRORS: Final = (sqlite3.Error, OSError, StoreUnavailable)
"""What a failing database raises from a :class:`Store` (a full disk, a lost server):
the step that wanted to store is not taken, and is tried again or refused."""


class DamagedRow(ValueError):
    """A stored row that cannot be read: its table is set aside, the others serve."""


class MoveTaken(ValueError):
    """The move at this point of the table is stored already (another writer's): the
    database let the first one in, and this one is not applied."""


@frozen
class TableRow:
    """One table as stored: plain JSON-able values (the table builds and reads them).

    ``record`` is the whole game record (:meth:`trixcomplex.Record.to_json`), moves
    included, as read back; a store keeps its moves one per row."""

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


_FIELDS = "id, created, settings, seats, record, finished, creator, created_at, ended_at, "
_FIELDS += "idle_since, closed, archived"

_BATCH = 500  # tables read by one query of load_many (SQLite allows 32,766 parameters)

Statement = tuple[str, Sequence[Any]]
"""One SQL statement with ``?`` placeholders, and its parameters."""


class Store(abc.ABC):
    """The tables of a server: what a table and the lobby store and read back.

    Every write is its own committed transaction: once it returns, what it wrote
    survives the server process being killed.  A failing database raises one of
    :data:`STORE_ERRORS`.  A backend runs this class's SQL (``?`` placeholders) by
    :meth:`_run` and :meth:`_atomic`.
    """

    @abc.abstractmethod
    def _run(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one statement, run in a transaction of its own."""

    @abc.abstractmethod
    def _atomic(self, first: Statement, then: list[Statement]) -> bool:
        """Run ``first`` and ``then`` in one transaction; ``False`` (nothing written)
        if ``first``, an ``INSERT``, hit a row of the same key."""

    @abc.abstractmethod
    def close(self) -> None:
        """Close the database."""

    shared: bool = False
    """Whether several server processes may open this store at once (PostgreSQL): then
    each table is driven by the one process that :meth:`claim` ed it."""

    def claim(self, table_ids: list[str]) -> list[str]:
        """The tables of ``table_ids`` this process now owns (drives: clocks, bots,
        doubling window), in order.  A store of one process owns every table."""
        return list(table_ids)

    def release(self, table_id: str) -> None:
        """Give up owning ``table_id`` (archived, or handed over)."""
        del table_id  # one process owns every table: nothing to give up

    def owns(self) -> bool:
        """Whether this process still holds what it claimed (a shared store's session
        can be lost; then every table it drove may be another's already)."""
        return True

    def place(self) -> tuple[int, int]:
        """This process's place among the server processes using this store now (0 for
        the first), and how many they are (this one included): every live process
        sees the same places, so each can tell its own share of a dead one's tables."""
        return 0, 1

    def unowned(self, known: set[str]) -> list[str]:
        """Tables not archived, not in ``known``, that no live process owns now (a shared
        store's dead owner's, to take over), oldest first."""
        return []

    # -- several processes: who is connected, and what was stored (shared stores) -------

    def _notices(self, table_id: str, what: str) -> list[Statement]:
        """The statements telling every process on the database that ``table_id``
        changed (``what``: the number of a move stored, or ``seats``), run in the
        writing transaction so that they are told once it commits.  A store of one
        process tells nobody."""
        del table_id, what
        return []

    def notify(self, table_id: str, what: str) -> None:
        """Tell every process on the database that ``table_id`` changed (:meth:`_notices`)."""
        for sql, params in self._notices(table_id, what):
            self._run(sql, params)

    def present(self, table_id: str, seat: int) -> None:
        """A connection of ``seat`` of ``table_id`` opened in this process: counted as the
        seat's presence until :meth:`absent` (or until this process dies)."""
        del table_id, seat  # one process: its own connections are all there are

    def absent(self, table_id: str, seat: int) -> None:
        """A connection counted by :meth:`present` closed."""
        del table_id, seat

    def connected(self, table_id: str) -> set[int]:
        """The seats of ``table_id`` with a connection in any process on the database."""
        del table_id
        return set()

    async def listen(self, heard: Callable[[str | None], None]) -> None:
        """Call ``heard`` with what every process tells (:meth:`_notices`' ``"{id}
        {what}"``) until cancelled; ``heard(None)``: read everything again.  A store of
        one process hears nothing: it returns at once."""
        del heard

    def save(self, row: TableRow) -> None:
        """Insert ``row`` or update its table (settings, seats, record head, end), and
        add the moves of its record the store does not have yet, in one transaction.
        Who opened it and when are kept from the insert; whether it is archived or idle
        is the lobby's (:meth:`archive`, :meth:`set_idle`).  Moves already stored are
        never rewritten (append-only)."""
        head = {k: v for k, v in row.record.items() if k != "moves"}
        upsert = (
            f"INSERT INTO tables ({_FIELDS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET settings = excluded.settings, "
            "seats = excluded.seats, record = excluded.record, finished = excluded.finished, "
            "ended_at = excluded.ended_at",
            (
                row.id,
                row.created,
                json.dumps(row.settings),
                json.dumps(row.seats),
                json.dumps(head, separators=(",", ":")),
                int(row.finished),
                row.creator,
                row.created_at,
                row.ended_at,
                row.idle_since,
                int(row.closed),
                int(row.archived),
            ),
        )
        moves = row.record.get("moves", [])
        stored = self._count(row.id) if moves else 0
        inserts = [_insert_move(row.id, n, moves[n]) for n in range(stored, len(moves))]
        if inserts:
            inserts += self._notices(row.id, str(len(moves) - 1))
        self._atomic(upsert, inserts)

    def add_move(
        self, table_id: str, number: int, move: dict[str, Any], end: TableRow | None = None
    ) -> None:
        """Store move ``number`` (counted from 0) of ``table_id``: one ``INSERT``.

        :class:`MoveTaken` if a move is stored at that number already (another
        writer's came first; nothing is written).  ``end``: the move ended the match,
        and the row's head, ``finished`` and ``ended_at`` are updated with it."""
        then: list[Statement] = []
        if end is not None:
            head = {k: v for k, v in end.record.items() if k != "moves"}
            text = json.dumps(head, separators=(",", ":"))
            sql = "UPDATE tables SET record = ?, finished = ?, ended_at = ? WHERE id = ?"
            then.append((sql, (text, int(end.finished), end.ended_at, table_id)))
        then += self._notices(table_id, str(number))
        if not self._atomic(_insert_move(table_id, number, move), then):
            raise MoveTaken(f"table {table_id}: move {number} is stored already")

    def take_seat(
        self, table_id: str, seat: int, taken: dict[str, Any], head: dict[str, Any]
    ) -> list[dict[str, Any]] | None:
        """Store ``taken`` as the ``seat`` of ``table_id`` if that seat is still free (no
        token) and the record's ``head`` (its players) with it; returns every seat as
        stored then, or ``None`` (nothing written) if another writer took the seat first.

        One compare-and-set of the seats as read: two processes seating people at one
        table at once never overwrite each other's seat (the loser reads again)."""
        while True:
            found = self._run("SELECT seats FROM tables WHERE id = ?", (table_id,))
            if not found:
                raise DamagedRow(f"table {table_id} is not stored")
            text = found[0][0]
            seats = _seats(_json(text, list, "seats"))
            if seats[seat]["token_sha256"] is not None:
                return None
            seats[seat] = taken
            head = {k: v for k, v in head.items() if k != "moves"}
            done = self._run(
                "UPDATE tables SET seats = ?, record = ? WHERE id = ? AND seats = ? RETURNING id",
                (json.dumps(seats), json.dumps(head, separators=(",", ":")), table_id, text),
            )
            if done:
                self.notify(table_id, "seats")
                return seats

    def seats(self, table_id: str) -> list[dict[str, Any]]:
        """The stored seats of ``table_id`` (:class:`DamagedRow` if they cannot be read)."""
        found = self._run("SELECT seats FROM tables WHERE id = ?", (table_id,))
        if not found:
            raise DamagedRow(f"table {table_id} is not stored")
        return _seats(_json(found[0][0], list, "seats"))

    def _count(self, table_id: str) -> int:
        found = self._run("SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,))
        return int(found[0][0])

    def archive(self, table_id: str, ended_at: float | None = None, closed: bool = False) -> None:
        """Mark a table archived (out of memory, record kept); ``closed``: ended unfinished."""
        self._run(
            "UPDATE tables SET archived = 1, closed = CASE WHEN ? = 1 THEN 1 ELSE closed END, "
            "ended_at = COALESCE(ended_at, ?) WHERE id = ?",
            (int(closed), ended_at, table_id),
        )

    def set_idle(self, table_id: str, since: float | None) -> None:
        """Since when nobody is connected to the table (``None``: someone is)."""
        self._run("UPDATE tables SET idle_since = ? WHERE id = ?", (since, table_id))

    def created_since(self, creator: str, since: float) -> int:
        """How many tables ``creator`` opened at ``since`` or later."""
        found = self._run(
            "SELECT COUNT(*) FROM tables WHERE creator = ? AND created_at >= ?", (creator, since)
        )
        return int(found[0][0])

    def load(self, table_id: str) -> TableRow | None:
        """The stored row of ``table_id``, or ``None``; :class:`DamagedRow` if it
        cannot be read."""
        rows, damaged = self.load_many([table_id])
        if damaged:
            raise DamagedRow(damaged[table_id])
        return rows[0] if rows else None

    def load_many(self, table_ids: list[str]) -> tuple[list[TableRow], dict[str, str]]:
        """The stored rows of ``table_ids`` (archived or not; the unknown ones left
        out), oldest first, and the damaged ones set aside with the reason, as
        :meth:`scan`: two queries however many tables (their rows, then all their
        moves), so a process taking over a dead one's tables reads them at once."""
        rows: list[TableRow] = []
        damaged: dict[str, str] = {}
        for start in range(0, len(table_ids), _BATCH):
            batch = table_ids[start : start + _BATCH]
            marks = ", ".join("?" * len(batch))
            found = self._tables_where(f"id IN ({marks})", batch)
            rows += found[0]
            damaged.update(found[1])
        rows.sort(key=lambda row: (row.created, row.id))
        return rows, damaged

    def exists(self, table_id: str) -> bool:
        """Whether a row (readable or not) is stored for ``table_id``."""
        return bool(self._run("SELECT 1 FROM tables WHERE id = ?", (table_id,)))

    def scan(self) -> tuple[list[TableRow], dict[str, str]]:
        """Every stored table not archived, oldest first, and the damaged ones set
        aside: their ids and why each cannot be read."""
        return self._tables_where("archived = 0", ())

    def _tables_where(
        self, where: str, params: Sequence[Any]
    ) -> tuple[list[TableRow], dict[str, str]]:
        """The rows of the tables ``where`` selects, oldest first, read with their moves
        in two queries (not one query per table), and the damaged ones' reasons."""
        found = self._run(f"SELECT {_FIELDS} FROM tables WHERE {where} ORDER BY created, id",
                          params)  # fmt: skip
        if not found:
            return [], {}
        moves = self._moves_of(where, params)
        rows, damaged = [], {}
        for values in found:
            try:
                rows.append(self._row(values, moves.get(str(values[0]), [])))
            except DamagedRow as exc:
                damaged[str(values[0])] = str(exc)
        return rows, damaged

    def ping(self) -> None:
        """Reach the database with the cheapest query (``/readyz``); one of
        :data:`STORE_ERRORS` if it cannot be reached."""
        self._run("SELECT 1")

    def load_all(self) -> list[TableRow]:
        """Every stored table not archived that can be read, oldest first (:meth:`scan`)."""
        return self.scan()[0]

    def moves(self, table_id: str, since: int = 0) -> list[dict[str, Any]]:
        """The stored moves of ``table_id`` from number ``since`` on, in order;
        :class:`DamagedRow` if one is not a JSON object or a number is missing."""
        found = self._run(
            "SELECT number, move FROM moves WHERE table_id = ? AND number >= ? ORDER BY number",
            (table_id, since),
        )
        return _moves([(int(number), text) for number, text in found], since)

    def _moves_of(self, where: str, params: Sequence[Any]) -> dict[str, list[tuple[int, Any]]]:
        """The stored moves of the tables ``where`` selects, in one query: per table,
        its ``(number, JSON text)`` rows in order (read by :func:`_moves`)."""
        moves: dict[str, list[tuple[int, Any]]] = {}
        for table_id, number, text in self._run(
            "SELECT table_id, number, move FROM moves WHERE table_id IN "
            f"(SELECT id FROM tables WHERE {where}) ORDER BY table_id, number",
            params,
        ):
            moves.setdefault(str(table_id), []).append((int(number), text))
        return moves

    def _row(self, values: tuple[Any, ...], moves: list[tuple[int, Any]]) -> TableRow:
        table_id, created, settings, seats, record, finished, *lobby = values
        creator, created_at, ended_at, idle_since, closed, archived = lobby
        head = _json(record, dict, "record")
        if "moves" in head:
            raise DamagedRow("its record's head holds moves (they are kept one per row)")
        first = {k: head[k] for k in ("format", "version", "ruleset") if k in head}
        return TableRow(
            table_id,
            created,
            _json(settings, dict, "settings"),
            _seats(_json(seats, list, "seats")),
            {**first, "moves": _moves(moves), **head},
            bool(finished),
            creator,
            float(created_at),
            None if ended_at is None else float(ended_at),
            None if idle_since is None else float(idle_since),
            bool(closed),
            bool(archived),
        )


def _moves(found: list[tuple[int, Any]], since: int = 0) -> list[dict[str, Any]]:
    """A table's stored moves from its ``(number, JSON text)`` rows in order, the first
    numbered ``since``; :class:`DamagedRow` if one is not a JSON object or a number is
    missing."""
    moves = []
    for n, (number, text) in enumerate(found, since):
        if number != n:
            raise DamagedRow(f"its move {n} is missing")
        moves.append(_json(text, dict, f"move {n}"))
    return moves


def _insert_move(table_id: str, number: int, move: object) -> Statement:
    text = json.dumps(move, separators=(",", ":"))
    return "INSERT INTO moves (table_id, number, move) VALUES (?, ?, ?)", (table_id, number, text)


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
