"""The PostgreSQL store: ``trixcomplex serve --db postgresql://...`` (the ``postgres`` extra).

The same tables as the SQLite store (:mod:`~trixcomplex.server.store`), in a
PostgreSQL database, through ``psycopg`` 3 and a ``psycopg_pool`` connection
pool (which checks a connection before lending it, so a restarted database
server is reconnected to).  Several server processes may open one database:
the schema is made under a PostgreSQL advisory lock, so two starting at once
do not both make it, and a move is one ``INSERT`` keyed by (table, number),
so of two processes storing a move at the same point exactly one gets in.

The database is marked as the server's by a row in ``trixcomplex_store``
(:data:`~trixcomplex.server.store.APPLICATION_ID` and the schema version): a
database holding a ``tables`` table without that mark is refused, never
adopted.  Every error of the driver or the pool is raised as
:class:`~trixcomplex.server.store.StoreUnavailable`, so the server refuses
or retries the step as it does for a full disk.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any, Final

from ..core.extras import needs_extra
from .store import APPLICATION_ID, SCHEMA_VERSION, Statement, Store, StoreUnavailable, shown

with needs_extra("postgres", "--db postgresql://..."):  # a missing package names the extra
    import psycopg
    import psycopg_pool

__all__ = ["CHANNEL", "PostgresStore"]

log = logging.getLogger("trixcomplex.server")

CHANNEL: Final = "trixcomplex_tables"
"""The ``LISTEN``/``NOTIFY`` channel on which every process is told of each table's
changes: the payload is the table's id and what changed, ``"{id} {n}"`` for its move
number ``n`` stored, ``"{id} seats"`` for its seats (a join, a connection opened or
closed anywhere)."""

_SCHEMA_LOCK: Final = APPLICATION_ID  # the advisory lock held while the schema is made
_TABLE_LOCKS: Final = 0x54524958  # a table's lock: (this, hashtext(its id)), two int4 keys
_SERVERS: Final = _TABLE_LOCKS + 1  # (this, 0) held shared by every live server process
_PRESENCE: Final = _TABLE_LOCKS + 2  # (this, hashtext('{id} {seat}')) shared per connection
_LISTEN_RETRY: Final = (0.5, 10.0)  # seconds: a lost listening connection is made again

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS trixcomplex_store "
    "(application_id BIGINT NOT NULL, version INTEGER NOT NULL)",
    """CREATE TABLE IF NOT EXISTS tables (
        id         TEXT PRIMARY KEY,
        created    TEXT NOT NULL,
        settings   TEXT NOT NULL,
        seats      TEXT NOT NULL,
        record     TEXT NOT NULL,
        finished   INTEGER NOT NULL,
        creator    TEXT NOT NULL DEFAULT '',
        created_at DOUBLE PRECISION NOT NULL DEFAULT 0,
        ended_at   DOUBLE PRECISION,
        idle_since DOUBLE PRECISION,
        closed     INTEGER NOT NULL DEFAULT 0,
        archived   INTEGER NOT NULL DEFAULT 0
    )""",
    "CREATE INDEX IF NOT EXISTS tables_creator ON tables (creator, created_at)",
    """CREATE TABLE IF NOT EXISTS moves (
        table_id TEXT NOT NULL,
        number   INTEGER NOT NULL,
        move     TEXT NOT NULL,
        PRIMARY KEY (table_id, number)
    )""",
)


def _sql(text: str) -> str:
    """This module's SQL with psycopg's placeholders (the shared SQL uses ``?``)."""
    return text.replace("?", "%s")


class PostgresStore(Store):
    """The tables in the PostgreSQL database of ``url`` (``postgresql://user@host/db``).

    ``size``: the most connections this process opens; ``timeout``: seconds a step
    waits for one before it is refused (:class:`StoreUnavailable`).
    """

    def __init__(self, url: str, size: int = 4, timeout: float = 10.0) -> None:
        self._url = url
        self._session: psycopg.Connection[Any] | None = None
        self._owned: set[str] = set()
        self._pool = psycopg_pool.ConnectionPool(
            url,
            min_size=1,
            max_size=size,
            timeout=timeout,
            kwargs={"autocommit": True},
            check=psycopg_pool.ConnectionPool.check_connection,
            open=False,
        )
        try:
            self._pool.open(wait=True, timeout=timeout)
            self._make_schema()
        except psycopg_pool.PoolTimeout:
            self._pool.close()
            raise ValueError(f"{_shown(url)}: cannot connect to PostgreSQL") from None
        except BaseException:
            self._pool.close()
            raise

    def _make_schema(self) -> None:
        with self._pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            names = {
                str(r[0])
                for r in conn.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                )
            }
            marks: list[tuple[Any, ...]] = []
            if "trixcomplex_store" in names:
                marks = conn.execute(
                    "SELECT application_id, version FROM trixcomplex_store"
                ).fetchall()
            if names and (not marks or marks[0][0] != APPLICATION_ID or "tables" not in names):
                shown = ", ".join(sorted(names)[:5])
                raise ValueError(
                    f"{_shown(self._url)}: not a trixcomplex server database (it holds "
                    f"{shown}); give --db an empty database"
                )
            if marks and marks[0][1] != SCHEMA_VERSION:
                raise ValueError(
                    f"{_shown(self._url)}: database schema version {marks[0][1]}, this "
                    f"server reads {SCHEMA_VERSION}"
                )
            for statement in _SCHEMA:
                conn.execute(statement)
            if not marks:
                conn.execute(
                    "INSERT INTO trixcomplex_store VALUES (%s, %s)",
                    (APPLICATION_ID, SCHEMA_VERSION),
                )

    shared = True

    def _owner(self) -> psycopg.Connection[Any]:
        """The connection whose session holds this process's tables' advisory locks
        (its own: PostgreSQL frees them when the process dies and the session ends)."""
        if self._session is None or self._session.closed:
            self._owned.clear()  # a new session holds nothing
            self._session = psycopg.connect(self._url, autocommit=True, connect_timeout=10)
            self._session.execute("SELECT pg_advisory_lock_shared(%s, 0)", (_SERVERS,))
        return self._session

    def claim(self, table_ids: list[str]) -> list[str]:
        """Take each table's PostgreSQL advisory lock (session-level, not waiting): the
        ones this process gets are its own until it releases them or dies."""
        wanted = [t for t in table_ids if t not in self._owned]
        try:
            got = {
                str(r[0])
                for r in self._owner().execute(
                    "SELECT id FROM unnest(%s::text[]) AS id "
                    "WHERE pg_try_advisory_lock(%s, hashtext(id))",
                    (wanted, _TABLE_LOCKS),
                )
            }
        except psycopg.Error as exc:
            raise StoreUnavailable(str(exc).strip()[:200]) from None
        self._owned |= got
        return [t for t in table_ids if t in self._owned]

    def release(self, table_id: str) -> None:
        if table_id in self._owned:
            self._owned.discard(table_id)
            try:
                self._owner().execute(
                    "SELECT pg_advisory_unlock(%s, hashtext(%s))", (_TABLE_LOCKS, table_id)
                )
            except psycopg.Error as exc:
                raise StoreUnavailable(str(exc).strip()[:200]) from None

    def owns(self) -> bool:
        if self._session is None:
            return True  # nothing claimed yet
        try:
            self._session.execute("SELECT 1")
        except psycopg.Error:
            self._session.close()
            self._owned.clear()
            return False
        return True

    def place(self) -> tuple[int, int]:
        """This process's place among the live server processes on this database, and
        how many they are: the sessions holding the servers' shared advisory lock (this
        one's taken here if it is not yet), in the order of their backend's process id."""
        try:
            mine = self._owner().info.backend_pid
        except psycopg.Error as exc:
            raise StoreUnavailable(str(exc).strip()[:200]) from None
        rows = self._run(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = ?::oid "
            "AND objid = 0 AND objsubid = 2 AND granted ORDER BY pid",
            (_SERVERS,),
        )
        pids = [int(r[0]) for r in rows]
        if mine not in pids:  # not counted yet (cannot be: its lock is held): first
            pids.insert(0, mine)
        return pids.index(mine), len(pids)

    def unowned(self, known: set[str]) -> list[str]:
        """Tables no session holds the lock of (its owner died), by ``pg_locks``."""
        rows = self._run(
            "SELECT id FROM tables WHERE archived = 0 AND NOT EXISTS (SELECT 1 FROM pg_locks "
            "WHERE locktype = 'advisory' AND classid = ?::oid AND objid = hashtext(id)::oid "
            "AND granted) ORDER BY created, id",
            (_TABLE_LOCKS,),
        )
        return [str(r[0]) for r in rows if str(r[0]) not in known]

    def _notices(self, table_id: str, what: str) -> list[Statement]:
        """``pg_notify`` on :data:`CHANNEL`: sent when the writing transaction commits,
        never for one rolled back (a move another writer stored first)."""
        return [("SELECT pg_notify(?, ?)", (CHANNEL, f"{table_id} {what}"))]

    def present(self, table_id: str, seat: int) -> None:
        """A shared advisory lock of the seat, one more per connection, held by this
        process's session: PostgreSQL frees it with the session if the process dies."""
        self._session_run("SELECT pg_advisory_lock_shared(%s, hashtext(%s))",
                          (_PRESENCE, f"{table_id} {seat}"))  # fmt: skip

    def absent(self, table_id: str, seat: int) -> None:
        self._session_run("SELECT pg_advisory_unlock_shared(%s, hashtext(%s))",
                          (_PRESENCE, f"{table_id} {seat}"))  # fmt: skip

    def connected(self, table_id: str) -> set[int]:
        """The seats whose presence lock a session holds (by ``pg_locks``)."""
        rows = self._run(
            "SELECT seat FROM generate_series(0, 3) AS seat WHERE EXISTS (SELECT 1 FROM "
            "pg_locks WHERE locktype = 'advisory' AND classid = ?::oid AND objsubid = 2 "
            "AND objid = hashtext(?::text || ' ' || seat)::oid AND granted)",
            (_PRESENCE, table_id),
        )
        return {int(r[0]) for r in rows}

    def _session_run(self, sql: str, params: Sequence[Any]) -> None:
        try:
            self._owner().execute(sql, params)
        except psycopg.Error as exc:
            raise StoreUnavailable(str(exc).strip()[:200]) from None

    async def listen(self, heard: Callable[[str | None], None]) -> None:
        """Call ``heard`` with each payload on :data:`CHANNEL` until cancelled, from a
        connection of its own (psycopg's ``notifies``).  ``heard(None)`` when listening
        starts, and again after a lost connection is made again: what was told
        meanwhile was missed, so everything is read again."""
        pause = _LISTEN_RETRY[0]
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self._url, autocommit=True, connect_timeout=10
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    pause = _LISTEN_RETRY[0]
                    heard(None)
                    async for notice in conn.notifies():
                        heard(notice.payload)
            except psycopg.Error as exc:
                log.warning("lost the database's notifications: %s; listening again in %g s",
                            str(exc).strip()[:200], pause)  # fmt: skip
            await asyncio.sleep(pause)
            pause = min(_LISTEN_RETRY[1], 2 * pause)

    def _moves_of(self, where: str, params: Sequence[Any]) -> dict[str, list[tuple[int, Any]]]:
        """As the store's, but one row per table, not per move: PostgreSQL gathers each
        table's move numbers and its moves' texts joined by newlines (which compact
        JSON never holds), so the driver builds a few rows instead of thousands (a
        takeover's 10,000 moves: about 10 ms instead of 100).  A table whose texts do
        not split back into as many moves as numbers (a tampered move holding a
        newline) is read move by move, so it is judged exactly as the store's."""
        moves: dict[str, list[tuple[int, Any]]] = {}
        for table_id, numbers, texts in self._run(
            "SELECT table_id, array_agg(number ORDER BY number), "
            "string_agg(move, E'\\n' ORDER BY number) FROM moves WHERE table_id IN "
            f"(SELECT id FROM tables WHERE {where}) GROUP BY table_id",
            params,
        ):
            split = str(texts).split("\n")
            if len(split) == len(numbers):
                moves[str(table_id)] = list(zip(numbers, split, strict=True))
            else:
                moves[str(table_id)] = [
                    (int(n), text)
                    for n, text in self._run(
                        "SELECT number, move FROM moves WHERE table_id = ? ORDER BY number",
                        (table_id,),
                    )
                ]
        return moves

    def _run(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        try:
            with self._pool.connection() as conn:
                cursor = conn.execute(_sql(sql), params)
                return cursor.fetchall() if cursor.description is not None else []
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise StoreUnavailable(str(exc).strip()[:200]) from None

    def _atomic(self, first: Statement, then: list[Statement]) -> bool:
        try:
            with self._pool.connection() as conn, conn.transaction():
                try:
                    conn.execute(_sql(first[0]), first[1])
                except psycopg.errors.UniqueViolation as exc:
                    raise _Taken from exc  # leaves the transaction: rolled back
                for sql, params in then:
                    conn.execute(_sql(sql), params)
        except _Taken:
            return False
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise StoreUnavailable(str(exc).strip()[:200]) from None
        return True

    def close(self) -> None:
        """Close every connection of the pool, and the owner's session (its tables' locks
        are freed: another process may take them over)."""
        self._pool.close()
        if self._session is not None:
            self._session.close()


class _Taken(Exception):
    """The first statement of :meth:`PostgresStore._atomic` hit a row of its key."""


def _shown(url: str) -> str:
    """``url`` without its password, for messages and logs."""
    return shown(url)
