"""The cost of storing one move, by how long the match is already (issue 39).

Run ``python benchmarks/store_write.py`` (SQLite, before and after), and add
``--db postgresql://...`` for a PostgreSQL database of yours or
``--start-postgres`` to start a throwaway one (Debian's ``postgresql-15``,
durable settings, as ``tests/postgres_cluster.py`` starts it).

It writes the moves of real matches (random playouts, about 1,100 moves and
more, end to end) into a fresh table, one move at a time, timing each write,
``--repeat`` times, and prints the median cost of the writes around the 10th,
100th and 1,000th move for:

- **sqlite-rewrite**: schema version 2, before issue 39: every move rewrote the
  table's whole record (its JSON, as the table built it, with an ``UPDATE``);
- **sqlite-append**: :class:`~trixcomplex.server.store_sqlite.SqliteStore`, one
  ``INSERT`` per move;
- **postgresql-append**: :class:`~trixcomplex.server.store_postgres.PostgresStore`.

A row passes when the 1,000th move costs at most 1.5 times the 10th (O(1) in the
match's length); the rewrite row is shown for comparison and is expected to fail.
Exits 1 if an append row fails.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trixcomplex as tc
from trixcomplex.server.store import Store, TableRow
from trixcomplex.server.store_sqlite import SqliteStore

LIMIT = 1.5
"""The most the 1,000th move's write may cost, as a multiple of the 10th's."""

AT = (10, 100, 1000)
WINDOW = 5  # the writes from n - WINDOW to n + WINDOW count as "the n-th"
SEATS = [{"kind": "bot", "name": "random", "token_sha256": None}] * 4


def moves_of_matches(count: int, seed: int) -> list[dict[str, Any]]:
    """At least ``count`` moves of whole matches, as JSON (one match after another)."""
    rng = random.Random(seed)
    moves: list[dict[str, Any]] = []
    while len(moves) < count:
        state = tc.playout(tc.new_match(), rng, until="match")
        moves += [tc.move_to_json(m) for m in state.history.moves()]
    return moves


def _head() -> dict[str, Any]:
    return {"format": "trixcomplex-record", "version": 1, "ruleset": "partnership"}


def rewrite_writer(path: str) -> tuple[Callable[[str, int, dict[str, Any]], None], Any]:
    """Before issue 39: each move rewrites the whole record (JSON of every move so far)."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE tables (id TEXT PRIMARY KEY, record TEXT NOT NULL)")
    records: dict[str, list[dict[str, Any]]] = {}

    def write(table_id: str, number: int, move: dict[str, Any]) -> None:
        moves = records.setdefault(table_id, [])
        moves.append(move)
        record = json.dumps({**_head(), "moves": moves}, separators=(",", ":"))
        upsert = "INSERT INTO tables VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET record = ?"
        db.execute(upsert, (table_id, record, record))

    return write, db


def append_writer(store: Store) -> Callable[[str, int, dict[str, Any]], None]:
    """Issue 39: one ``INSERT`` per move (the table's row made first, as the server does)."""

    def write(table_id: str, number: int, move: dict[str, Any]) -> None:
        if number == 0:
            store.save(TableRow(table_id, "2026-01-01T00:00:00Z", {}, SEATS,
                                {**_head(), "moves": []}, False))  # fmt: skip
        store.add_move(table_id, number, move)

    return write


def measure(
    write: Callable[[str, int, dict[str, Any]], None], moves: list[dict[str, Any]], repeat: int
) -> dict[int, float]:
    """The median seconds of the writes around each move number of :data:`AT`."""
    samples: dict[int, list[float]] = {n: [] for n in AT}
    for r in range(repeat):
        table_id = f"t{r}"
        for number, move in enumerate(moves):
            started = time.perf_counter()
            write(table_id, number, move)
            took = time.perf_counter() - started
            for n in AT:
                if abs(number + 1 - n) <= WINDOW:
                    samples[n].append(took)
    return {n: statistics.median(s) for n, s in samples.items()}


def report(name: str, medians: dict[int, float]) -> bool:
    ratio = medians[1000] / medians[10]
    ok = ratio <= LIMIT
    cells = "  ".join(f"{medians[n] * 1e6:9.1f}" for n in AT)
    print(f"{name:<20} {cells}  {ratio:6.2f}x  {'ok' if ok else 'FAIL'}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="tables written (default 5)")
    parser.add_argument("--db", help="a PostgreSQL database's URL (postgresql://...) to measure")
    parser.add_argument(
        "--start-postgres", action="store_true", help="start a throwaway PostgreSQL 15 and use it"
    )
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    moves = moves_of_matches(max(AT) + WINDOW + 1, args.seed)
    print(f"{len(moves)} moves of whole matches per table, {args.repeat} tables per row")
    print(f"{'store':<20} {'10th µs':>9}  {'100th µs':>9}  {'1000th µs':>9}  1000th/10th")
    passed = True
    with tempfile.TemporaryDirectory() as where:
        write, db = rewrite_writer(str(Path(where) / "rewrite.sqlite3"))
        report("sqlite-rewrite", measure(write, moves, args.repeat))  # before: expected to fail
        db.close()
        store: Store = SqliteStore(str(Path(where) / "append.sqlite3"))
        passed &= report("sqlite-append", measure(append_writer(store), moves, args.repeat))
        store.close()
    cluster = None
    url = args.db
    if args.start_postgres:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        cluster = importlib.import_module("postgres_cluster").Cluster(durable=True)
        url = cluster.database()
    try:
        if url is not None:
            postgres = importlib.import_module("trixcomplex.server.store_postgres")
            store = postgres.PostgresStore(url)
            passed &= report("postgresql-append", measure(append_writer(store), moves, args.repeat))
            store.close()
    finally:
        if cluster is not None:
            cluster.stop()
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
