"""Tables of bots over several server processes on one PostgreSQL database, one killed.

Run ``python benchmarks/takeover.py --start-postgres`` (a throwaway Debian
PostgreSQL 15, as ``tests/postgres_cluster.py`` starts it) or give ``--db
postgresql://...`` (an empty database).  It starts ``--processes`` (3) servers on
the database, opens ``--tables`` (30; issue 39 asks for 200) tables of four rule
bots spread over them (table ``i`` on process ``i mod N``, which drives it),
kills the first process with SIGKILL after ``--kill-after`` seconds, and waits
until every table is finished on the survivors.  It prints how long the
survivors took to drive every table of the dead one again, measured twice from
the kill: until each of them stored a move since (the database asked every
0.05 s), and until the survivors' ``GET /api/tables`` list them all (asked every
0.1 s: a client's view, the delay of the survivors' busy event loops
included); how long until every match finished; and checks every stored record
replays to a finished match.  ``--logs DIR`` keeps each process's log (JSON,
``server0.log`` ...: each survivor logs when it took over what) and the time of
the kill (``killed``).
Exits 1 if a table was lost, did not finish within ``--limit`` seconds, or does
not replay.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import trixcomplex as tc
from trixcomplex.server.app import open_store

BOTS = {"seats": ["rule"] * 4, "bot_delay": 0, "deal_pause": 0}


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as reply:
        return json.load(reply)


def _create(base: str) -> str:
    request = urllib.request.Request(
        base + "/api/tables", json.dumps(BOTS).encode(), method="POST",
        headers={"Content-Type": "application/json"},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=30) as reply:
        return str(json.load(reply)["id"])


def _listed(bases: list[str]) -> dict[str, bool]:
    """Every table the live processes drive: finished or not."""
    found: dict[str, bool] = {}
    for base in bases:
        for table in _get(base + "/api/tables")["tables"]:
            found[table["id"]] = table["finished"]
    return found


def _moving_again(db: str, doomed: set[str], killed_at: float, moved: list[float]) -> None:
    """Append to ``moved`` when every table of ``doomed`` has stored a move since the
    kill (its moves counted in the database every 0.05 s, from right after the kill):
    when the survivors drive them all again, whatever their HTTP answers' delays."""
    import psycopg

    query = "SELECT table_id, COUNT(*) FROM moves WHERE table_id = ANY(%s) GROUP BY table_id"
    with psycopg.connect(db, autocommit=True) as conn:
        at_kill: dict[str, int] = dict(conn.execute(query, (list(doomed),)).fetchall())
        while time.monotonic() - killed_at < 600:
            now: dict[str, int] = dict(conn.execute(query, (list(doomed),)).fetchall())
            if all(now.get(t, 0) > at_kill.get(t, 0) for t in doomed):
                moved.append(time.monotonic() - killed_at)
                return
            time.sleep(0.05)


def run(
    db: str, processes: int, tables: int, kill_after: float, limit: float, logs: Path | None
) -> int:
    src = str(Path(__file__).resolve().parent.parent / "src")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([src, os.environ.get("PYTHONPATH", "")]))
    ports = [_port() for _ in range(processes)]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    command = [sys.executable, "-m", "trixcomplex", "serve", "--db", db,
               "--create-limit", "1000000", "--max-tables", str(tables + 10)]  # fmt: skip
    servers, files = [], []
    if logs is not None:  # each process's log in JSON (times), to see where the time went
        logs.mkdir(parents=True, exist_ok=True)
        command += ["--log-format", "json"]
    for n, port in enumerate(ports):
        out: Any = subprocess.DEVNULL
        if logs is not None:
            out = (logs / f"server{n}.log").open("w")
            files.append(out)
        servers.append(
            subprocess.Popen([*command, "--port", str(port)], stdout=out, stderr=out, env=env)
        )
    try:
        for base in bases:
            for _ in range(300):
                try:
                    _get(base + "/readyz")
                    break
                except OSError:
                    time.sleep(0.1)
        ids = [_create(bases[i % processes]) for i in range(tables)]
        doomed = set(ids[0::processes])
        time.sleep(kill_after)
        killed_at = time.monotonic()
        if logs is not None:
            (logs / "killed").write_text(f"{time.time():.3f} (seconds since the epoch)\n")
        servers[0].kill()
        servers[0].wait(30)
        moved: list[float] = []
        watch = threading.Thread(target=_moving_again, args=(db, doomed, killed_at, moved))
        watch.start()
        survivors = bases[1:]
        taken = finished = None
        spread: list[int] = []
        while time.monotonic() - killed_at < limit:
            listed = _listed(survivors)
            if taken is None and doomed <= set(listed):
                taken = time.monotonic() - killed_at
                spread = [len(doomed & set(_listed([base]))) for base in survivors]
            if set(ids) <= set(listed) and all(listed[t] for t in ids):
                finished = time.monotonic() - killed_at
                break
            time.sleep(0.5 if taken is not None else 0.1)  # the takeover measured finely
        watch.join()
    finally:
        for server in servers:
            if server.poll() is None:
                server.terminate()
        for server in servers:
            server.wait(30)
        for file in files:
            file.close()
    store = open_store(db)
    rows, damaged = store.scan()
    store.close()
    stored = {row.id: row for row in rows}
    bad = [t for t in ids if t not in stored or not tc.replay(tc.Record.from_json(
        stored[t].record)).is_over]  # fmt: skip
    print(f"processes             {processes} on one PostgreSQL database")
    print(f"tables                {tables} of four rule bots ({len(doomed)} on the killed one)")
    print(f"killed                the first process (SIGKILL) after {kill_after:g} s")
    print(f"all moving again after {'never' if not moved else f'{moved[0]:.1f} s'} "
          "(each stored a move since the kill)")  # fmt: skip
    print(f"all taken over after  {'never' if taken is None else f'{taken:.1f} s'} "
          "(the survivors' GET /api/tables list them all)")  # fmt: skip
    print(f"taken over by each    {spread} (the survivors' shares of the dead one's)")
    print(f"all finished after    {'never' if finished is None else f'{finished:.1f} s'}")
    print(f"records that replay to a finished match: {tables - len(bad)} of {tables}")
    print(f"damaged               {len(damaged)}")
    return 1 if taken is None or not moved or finished is None or bad or damaged else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="an empty PostgreSQL database's URL")
    parser.add_argument("--start-postgres", action="store_true",
                        help="start a throwaway PostgreSQL 15 and use it")  # fmt: skip
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--kill-after", type=float, default=5.0)
    parser.add_argument("--limit", type=float, default=1800.0,
                        help="seconds the survivors have to finish every match")  # fmt: skip
    parser.add_argument("--logs", type=Path,
                        help="where to keep the processes' logs (JSON)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.processes < 2:
        parser.error("--processes: at least 2 (one is killed)")
    cluster = None
    db = args.db
    if args.start_postgres:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        cluster = importlib.import_module("postgres_cluster").Cluster(durable=True)
        db = cluster.database()
    if db is None:
        parser.error("give --db postgresql://... or --start-postgres")
    try:
        return run(db, args.processes, args.tables, args.kill_after, args.limit, args.logs)
    finally:
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    sys.exit(main())
