"""Several ``trixcomplex serve`` processes on one PostgreSQL database (issue 39).

Each table is driven by exactly one process, the one holding its PostgreSQL
advisory lock; when that process dies (``kill -9``) PostgreSQL frees its locks
with its session, and another process takes its tables over from their stored
moves.  These tests start real processes on a throwaway PostgreSQL
(:mod:`postgres_cluster`); they run with ``--server-stores=all`` (``nox -s
postgres``).
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus

from server_harness import Server, play_people, replay
from trixcomplex.server.app import _TAKEOVER_EVERY, open_store

pytestmark = [pytest.mark.postgresql, pytest.mark.postgresql_server, pytest.mark.slow]

SLOW = {"move_time": 3600, "forced_delay": 60, "bot_delay": 0, "deal_pause": 0}


def _listed(server: Server) -> set[str]:
    return {t["id"] for t in server.get("/api/tables")["tables"]}


def _until(what: Any, timeout: float = 60.0) -> Any:
    """``what()`` once it is true (polled; the bound is for a loaded machine only)."""
    deadline = time.monotonic() + timeout
    while not (got := what()):
        assert time.monotonic() < deadline, "not within the bound"
        time.sleep(0.05)
    return got


def test_one_owner_per_table_and_a_killed_owner_is_taken_over(postgres_cluster: Any) -> None:
    """Two processes on one database: each table is driven by one of them only (the
    other neither lists nor drives it).  The owner is killed (``kill -9``) in the middle
    of a person's deal: the other process takes the table over from its stored moves;
    the person resumes there with the same token and sees exactly the view of their
    last acknowledged move (nothing lost, nothing reshuffled), their clock restarted
    (the outage charged to nobody), and a table of bots plays on to the end, its
    record replaying to the state the new owner shows."""
    db = postgres_cluster.database()
    with Server(db) as first, Server(db) as second:
        people = first.create(["person", "rule", "rule", "rule"], **SLOW)
        bots = first.create(["rule"] * 4, bot_delay=0.02, deal_pause=0)
        assert _listed(first) == {people, bots} and _listed(second) == set()
        person = first.client(people)
        person.join(0, "Ann")
        rng = random.Random(5)

        def ann_to_play(views: list[Any]) -> bool:  # then the table waits for her alone
            v = views[0]
            return len(v["hand"]) <= 10 and v["turn"] == 0 and not v["doubling_open"]

        play_people([person], rng, until=ann_to_play)
        person.sync()
        had, token = person.view, person.token
        assert had is not None and token is not None
        # The other process looks for tables without a live owner every second: given
        # time to look a few times, it still leaves the first's tables alone.
        time.sleep(3 * _TAKEOVER_EVERY)
        assert _listed(second) == set()  # still the first's: never driven twice
        first.kill()

        assert _until(lambda: _listed(second) == {people, bots})
        again = second.client(people)
        update = again.resume(token)
        assert update["view"] == had
        assert update["clock"]["seconds_left"] > 3590
        play_people([again], rng, until=lambda v: len(v[0]["hand"]) <= 8)
        again.close()

        _until(lambda: second.get(f"/api/tables/{bots}")["finished"], timeout=240)
        status, record = second.request(f"/api/tables/{bots}/record")
        assert status == 200
        assert replay(record).is_over


def test_a_stopped_owner_leaves_its_tables_to_the_others(postgres_cluster: Any) -> None:
    """SIGTERM (a deploy, a scale-down): the owner stops, its every move already stored,
    its session and locks closed with it, and another process drives its tables on
    within seconds, the match where it was."""
    db = postgres_cluster.database()
    with Server(db) as first, Server(db) as second:
        bots = first.create(["rule"] * 4, bot_delay=0.05, deal_pause=0)
        _until(lambda: first.get(f"/api/tables/{bots}")["deal_number"] >= 1)
        first.stop()  # SIGTERM, waited for (uvicorn shuts down, then exits by the signal)
        assert first.process.returncode is not None
        assert _until(lambda: _listed(second) == {bots})
        _until(lambda: second.get(f"/api/tables/{bots}")["finished"], timeout=240)
        status, record = second.request(f"/api/tables/{bots}/record")
        assert status == 200 and replay(record).is_over


def test_a_table_driven_elsewhere_is_answered_404_before_any_websocket(
    postgres_cluster: Any,
) -> None:
    """Any process may be asked for any table (a load balancer's choice): one that does
    not drive it answers its summary and its WebSocket handshake with ``404``
    (``server.elsewhere``), no WebSocket opened, so nginx tries the next process
    (``proxy_next_upstream http_404``, docs/deploy/nginx.conf); an unknown table is
    still refused over the WebSocket (``server.unknown-table``), the page then stops."""
    db = postgres_cluster.database()
    with Server(db) as first, Server(db) as second:
        people = first.create(["person", "rule", "rule", "rule"], **SLOW)
        status, _ = second.request(f"/api/tables/{people}")
        assert status == 404
        with pytest.raises(InvalidStatus) as refused:
            second.client(people)
        assert refused.value.response.status_code == 404
        assert json.loads(refused.value.response.body or b"{}")["error"]["code"] == (
            "server.elsewhere"
        )
        first.client(people).join(0, "Ann")  # its owner answers as ever
        unknown = second.client("00000000")
        assert unknown.expect("refused")["error"]["code"] == "server.unknown-table"
        unknown.close()


def test_one_of_three_processes_killed_its_bot_tables_all_resume_and_finish(
    postgres_cluster: Any,
) -> None:
    """Issue 39's acceptance (``benchmarks/takeover.py`` runs it with 200 tables): 24
    tables of four rule bots spread over three processes, the first killed with
    ``kill -9`` while they play.  The two others take its 8 tables over (how they share
    them: ``tests/test_server_store.py``), none driven by both; every table
    resumes where its stored moves left it (nothing lost, nothing reshuffled: the
    moves stored at the kill begin its final record) and finishes, and every stored
    record replays to a finished match."""
    db = postgres_cluster.database()
    with Server(db) as first, Server(db) as second, Server(db) as third:
        servers = [first, second, third]
        ids = [servers[i % 3].create(["rule"] * 4, bot_delay=0, deal_pause=0) for i in range(24)]
        doomed = ids[0::3]
        _until(lambda: all(first.get(f"/api/tables/{t}")["deal_number"] >= 1 for t in doomed))
        first.kill()
        store = open_store(db)
        at_kill = {row.id: row.record["moves"] for row in store.load_many(doomed)[0]}
        assert len(at_kill) == len(doomed) and all(at_kill.values())
        _until(lambda: set(doomed) <= _listed(second) | _listed(third))
        assert not _listed(second) & _listed(third)  # each table driven by one only

        def finished() -> bool:
            listed = [t for s in (second, third) for t in s.get("/api/tables")["tables"]]
            return len(listed) == len(ids) and all(t["finished"] for t in listed)

        _until(finished, timeout=600)
    rows, damaged = store.load_many(ids)
    store.close()
    assert damaged == {} and sorted(row.id for row in rows) == sorted(ids)
    for row in rows:
        assert row.finished and replay(row.record).is_over
        if row.id in at_kill:
            kept = at_kill[row.id]
            assert row.record["moves"][: len(kept)] == kept
