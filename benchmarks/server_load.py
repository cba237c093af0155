"""Load on the table server: many tables of bots playing at once over loopback.

Run ``python benchmarks/server_load.py`` (defaults: 50 tables, 60 seconds).
It starts ``trixcomplex serve`` on a free port of 127.0.0.1 with a fresh
database, opens ``--tables`` tables whose four seats are played by bot
clients over WebSockets (each picks a uniformly random legal move from its
view the moment it is asked: no think time), and lets them play for
``--seconds``; a finished match is replaced by a new table.  Then it stops
the server and checks the database:

- **lost moves**: for every table and seat, the moves in the stored record
  must be exactly the moves the seat's client sent and saw accepted, in
  order, and every stored record must replay;
- **errors**: refusals, dropped connections, and moves never answered.

It prints moves/s served (client moves accepted by the server), the latency
of a move (from sending it to receiving the update that shows it; p50, p99,
max), the server's CPU time, and the counts above.  ``--pictures`` makes
every client also receive the SVG picture with each update, as the page does.
Exits 1 if a move was lost or any error occurred.

**Bots off the event loop** (``--mc-tables 12 --tables 0``): the server also
plays ``--mc-tables`` tables of four Monte Carlo bots (``mc``, no delay), which
think in its worker pool, while one person, seated at a table of their own,
sends a cheap message (one the server refuses at once) every 50 ms and times
the answer.  The row passes when that round trip has a median of at most
20 ms and a p99 of at most 100 ms (exit status 1 otherwise): bots that
thought on the event loop would hold every message up for whole decisions.

**Stores and processes** (``--db postgresql://... --processes N``): the
tables go to an empty PostgreSQL database, and ``N`` server processes share
it, table ``i`` opened on (and so driven by) process ``i mod N``, its clients
connected there.  With ``--spread-clients`` the seats' clients are spread over
the processes instead (seat ``s`` of table ``i`` connects to process ``(i + s)
mod N``): most clients then play through a process that does not drive their
table (its moves stored there, the owner told through the database).  Without
``--db`` the one process uses a new SQLite file.  The check of lost moves reads
the records back through the store.

Every client connects from 127.0.0.1, so the per-address quotas on creating
tables and joining seats are raised out of the way (they are still counted);
the other limits (watches, each connection's unsent updates, the seat timeout)
keep their defaults.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

import trixcomplex as tc
from trixcomplex.server.app import open_store


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PROBE_MEDIAN = 0.020
PROBE_P99 = 0.100
"""The row's limits for a person's round trip while the bots think (seconds)."""


class Stats:
    def __init__(self) -> None:
        self.probes: list[float] = []
        self.bot_moves = 0
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.acked: dict[tuple[str, int], list[dict[str, Any]]] = {}
        self.unanswered = 0
        self.finished = 0


_PEOPLE = {"seats": ["person"] * 4, "move_time": 3600, "forced_delay": 60, "deal_pause": 0}
_MC = {"seats": ["mc"] * 4, "bot_delay": 0, "deal_pause": 0, "forced_delay": 0}


async def _create(base: str, body: dict[str, Any] = _PEOPLE) -> str:
    def post() -> str:
        req = urllib.request.Request(
            base + "/api/tables", json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json"},
        )  # fmt: skip
        with urllib.request.urlopen(req, timeout=30) as reply:
            return str(json.load(reply)["id"])

    return await asyncio.to_thread(post)


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as reply:
        return json.load(reply)


async def _mc_tables(base: str, count: int, stats: Stats, stop: asyncio.Event) -> None:
    """Keep ``count`` tables of four mc bots playing (a finished one is replaced)."""
    tables = [await _create(base, _MC) for _ in range(count)]
    while not stop.is_set():
        await asyncio.sleep(1.0)
        for i, table in enumerate(tables):
            summary = await asyncio.to_thread(_get, f"{base}/api/tables/{table}")
            if summary["finished"]:
                tables[i] = await _create(base, _MC)


async def _probe(base: str, stats: Stats, stop: asyncio.Event, warmup: float) -> None:
    """A person at a table of their own: a cheap message every 50 ms, its round trip timed."""
    table = await _create(base)
    ws_base = base.replace("http://", "ws://")
    async with connect(f"{ws_base}/ws/{table}") as ws:
        await ws.send(json.dumps({"type": "join", "seat": 0, "name": "probe", "pictures": False}))
        while json.loads(await ws.recv())["type"] != "update":
            pass
        started = time.perf_counter()
        while not stop.is_set():
            sent = time.perf_counter()
            await ws.send("ping")  # not JSON: refused at once, nothing changes
            while json.loads(await ws.recv())["type"] != "refused":
                pass
            if sent - started >= warmup:
                stats.probes.append(time.perf_counter() - sent)
            await asyncio.sleep(0.05)


async def _seat(ws_base: str, table: str, seat: int, stats: Stats, stop: asyncio.Event,
                pictures: bool, rng: random.Random) -> bool:  # fmt: skip
    """Play ``seat`` of ``table`` until the match ends (True) or ``stop`` is set (False)."""
    acked = stats.acked.setdefault((table, seat), [])
    async with connect(f"{ws_base}/ws/{table}", max_size=2**22) as ws:
        hello = {"type": "join", "seat": seat, "name": f"bot {seat}", "pictures": pictures}
        await ws.send(json.dumps(hello))
        pending: tuple[float, dict[str, Any]] | None = None
        waited = 0.0
        while True:
            if stop.is_set() and pending is None:
                return False
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                waited += 0.5
                if waited >= 30 or (stop.is_set() and waited >= 5):
                    stats.unanswered += pending is not None
                    stats.errors.append(f"{table} seat {seat}: nothing for {waited:.0f} s")
                    return False
                continue
            waited = 0.0
            message = json.loads(text)
            if message["type"] == "refused":
                stats.errors.append(f"{table} seat {seat}: {message['error']}")
                pending = None
            if message["type"] != "update":
                continue
            if pending is not None:
                if not stop.is_set():
                    stats.latencies.append(time.perf_counter() - pending[0])
                acked.append(pending[1])
                pending = None
            view = message["view"]
            if view["phase"] == "OVER":
                return True
            if stop.is_set():
                return False
            if view["legal_moves"]:
                move = rng.choice(view["legal_moves"])
                pending = (time.perf_counter(), move)
                await ws.send(json.dumps(move))


async def _table_loop(bases: list[str], stats: Stats, stop: asyncio.Event, pictures: bool,
                      rng: random.Random) -> None:  # fmt: skip
    """Open tables on ``bases[0]``, one after another; seat ``s``'s client connects to
    ``bases[s mod len(bases)]``."""
    ws_bases = [base.replace("http://", "ws://") for base in bases]
    while not stop.is_set():
        table = await _create(bases[0])
        rngs = [random.Random(rng.random()) for _ in range(4)]
        where = [ws_bases[s % len(ws_bases)] for s in range(4)]
        seats = [_seat(where[s], table, s, stats, stop, pictures, rngs[s]) for s in range(4)]
        try:
            done = await asyncio.gather(*seats)
        except Exception as exc:  # a dropped connection
            stats.errors.append(f"{table}: {type(exc).__name__}: {exc}")
            return
        stats.finished += all(done)


async def _run(bases: list[str], tables: int, seconds: float, pictures: bool, seed: int,
               mc_tables: int = 0, spread: bool = False) -> Stats:  # fmt: skip
    """Play for ``seconds``; table ``i`` is opened on (and driven by) process ``i mod N``,
    its clients connected there (``spread``: seat ``s``'s to process ``(i + s) mod N``)."""
    stats = Stats()
    stop = asyncio.Event()
    rng = random.Random(seed)
    base = bases[0]
    loops = []
    for i in range(tables):
        table_rng = random.Random(rng.random())
        turned = bases[i % len(bases) :] + bases[: i % len(bases)]  # its owner first
        loop = _table_loop(turned if spread else turned[:1], stats, stop, pictures, table_rng)
        loops.append(asyncio.create_task(loop))
    if mc_tables:
        loops.append(asyncio.create_task(_mc_tables(base, mc_tables, stats, stop)))
        loops.append(asyncio.create_task(_probe(base, stats, stop, warmup=min(5.0, seconds / 4))))
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*loops)
    return stats


def _check_db(db: str, stats: Stats) -> tuple[int, int]:
    """(tables checked, lost or extra moves) comparing the database with what was acked
    (the tables not archived: a run ends long before any finished table's retention)."""
    lost = 0
    checked = 0
    store = open_store(db)
    rows, damaged = store.scan()
    store.close()
    for table in damaged:
        stats.errors.append(f"{table}: damaged in the database: {damaged[table]}")
    played = {table for table, _ in stats.acked}
    for row in rows:
        table, record = row.id, row.record
        tc.replay(tc.Record.from_json(record))  # every stored record replays
        if table not in played:  # the bots' tables, and the person timing round trips
            stats.bot_moves += sum(m["move"] != "deal" for m in record["moves"])
            continue
        for seat in range(4):
            stored = [m for m in record["moves"] if m.get("seat") == seat]
            acked = stats.acked.get((table, seat), [])
            if stored != acked:
                lost += abs(len(stored) - len(acked)) or 1
        checked += 1
    return checked, lost


def _cpus() -> str:
    return f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} before the run"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--pictures", action="store_true", help="clients receive SVG pictures")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mc-tables", type=int, default=0,
                        help="also play this many tables of mc bots; time a person")  # fmt: skip
    parser.add_argument("--db", help="an empty PostgreSQL database's URL (default: a new "
                        "SQLite file)")  # fmt: skip
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes on the one database (PostgreSQL only)")  # fmt: skip
    parser.add_argument("--spread-clients", action="store_true",
                        help="connect seat s of table i to process (i + s) mod N, not "
                        "only to the table's owner")  # fmt: skip
    args = parser.parse_args(argv)
    if args.processes > 1 and not (args.db or "").startswith("postgresql://"):
        parser.error("--processes above 1 needs --db postgresql://...")

    machine = _cpus()
    ports = [_port() for _ in range(args.processes)]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    with tempfile.TemporaryDirectory() as scratch:
        db = args.db or str(Path(scratch) / "load.sqlite3")
        env = dict(os.environ)
        src = str(Path(__file__).resolve().parent.parent / "src")
        env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")])
        command = [sys.executable, "-m", "trixcomplex", "serve", "--db", db,
                   "--create-limit", "1000000", "--join-limit", "1000000"]  # fmt: skip
        out = subprocess.DEVNULL
        servers = [
            subprocess.Popen([*command, "--port", str(port)], stdout=out, stderr=out, env=env)
            for port in ports
        ]
        try:
            for base in bases:
                for _ in range(200):
                    try:
                        urllib.request.urlopen(base + "/api/tables", timeout=5)
                        break
                    except OSError:
                        time.sleep(0.1)
            stats = asyncio.run(
                _run(
                    bases,
                    args.tables,
                    args.seconds,
                    args.pictures,
                    args.seed,
                    args.mc_tables,
                    args.spread_clients,
                )
            )
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait(30)
        cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
        checked, lost = _check_db(db, stats)

    moves = len(stats.latencies)
    lat = sorted(stats.latencies) or [0.0]
    p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
    print(f"machine               {machine}")
    print(f"store                 {'PostgreSQL' if args.db else 'SQLite'}, "
          f"{args.processes} server process{'es' if args.processes > 1 else ''}"
          f"{', clients spread over them' if args.spread_clients else ''}")  # fmt: skip
    print(f"tables at once        {args.tables} ({args.tables * 4} WebSocket clients)")
    print(f"pictures              {'yes' if args.pictures else 'no'}")
    print(f"played for            {args.seconds:g} s")
    print(f"moves served          {moves} ({moves / args.seconds:.0f} moves/s)")
    print(f"matches finished      {stats.finished}")
    print(f"latency p50           {statistics.median(lat) * 1000:.1f} ms")
    print(f"latency p99           {p99 * 1000:.1f} ms")
    print(f"latency max           {lat[-1] * 1000:.1f} ms")
    print(f"server CPU            {cpu.ru_utime + cpu.ru_stime:.1f} s")
    print(f"tables checked        {checked}")
    print(f"lost moves            {lost}")
    print(f"errors                {len(stats.errors)}")
    for error in stats.errors[:10]:
        print("  ", error)
    slow = False
    if args.mc_tables:
        probes = sorted(stats.probes) or [float("inf")]
        median = statistics.median(probes)
        p99 = probes[min(len(probes) - 1, int(0.99 * len(probes)))]
        slow = median > PROBE_MEDIAN or p99 > PROBE_P99
        print(f"mc tables             {args.mc_tables} (four mc bots each, no delay)")
        print(f"bot moves             {stats.bot_moves} ({stats.bot_moves / args.seconds:.0f}/s)")
        print(f"person round trip     {len(stats.probes)} messages")
        print(f"  p50                 {median * 1000:.1f} ms (row: <= {PROBE_MEDIAN * 1000:g})")
        print(f"  p99                 {p99 * 1000:.1f} ms (row: <= {PROBE_P99 * 1000:g})")
        print(f"  max                 {probes[-1] * 1000:.1f} ms")
        print(f"row                   {'FAILED' if slow else 'passed'}")
    return 1 if lost or stats.errors or slow else 0


if __name__ == "__main__":
    sys.exit(main())
