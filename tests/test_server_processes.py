"""Several ``trixcomplex serve`` processes on one PostgreSQL database (issue 39).

Each table is driven by exactly one process, the one holding its PostgreSQL
advisory lock; when that process dies (``kill -9``) PostgreSQL frees its locks
with its session, and another process takes its tables over from their stored
moves.  Any process serves any table's clients: the others through a replica kept
from the stored moves by ``LISTEN``/``NOTIFY``, their clients' moves stored there
(:mod:`trixcomplex.server.replica`).  These tests start real processes on a throwaway PostgreSQL
(:mod:`postgres_cluster`); they run with ``--server-stores=all`` (``nox -s
postgres``).
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

import trixcomplex as tc
from server_harness import MARK, Client, Server, play_people, replay
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


def _stored_states(
    db: str, table: str, ruleset: tc.Ruleset
) -> tuple[list[tc.MatchState], list[tc.Move]]:
    """The table's stored moves (read from the database as it is now: the moves are
    the truth), and its state after each, the empty match first."""
    import psycopg

    with psycopg.connect(db) as conn:
        rows = conn.execute(
            "SELECT number, move FROM moves WHERE table_id = %s ORDER BY number", (table,)
        ).fetchall()
    assert [n for n, _ in rows] == list(range(len(rows))), "a gap in the stored moves"
    states, moves = [tc.new_match(ruleset)], [tc.move_from_json(json.loads(t)) for _, t in rows]
    for move in moves:
        states.append(tc.apply(states[-1], move))
    return states, moves


def _views(states: list[tc.MatchState], seat: int | None) -> list[Any]:
    return [tc.to_json(tc.view(state, seat)) for state in states]


def test_a_person_on_another_process_plays_the_owners_bots_and_a_third_watches(
    postgres_cluster: Any,
) -> None:
    """Issue 39, deliverable 2: any process serves any table's clients.  Three processes
    on one database; the table is driven by the first (its bots, its clocks); the
    person joins and plays a whole deal through the second, a spectator watches
    through the third.  Each move the person sends to the second is stored there and
    reaches the owner through the database (its bots answer it), every move reaches
    the spectator.  Hidden information (R-HID-1): every update the person's connection
    got is seat 0's view of a stored state, in order, never more; the spectator's are
    the public view.  The person connected to another process is present for the
    owner: no stand-in bot plays their seat (seat timeout 1 s), and the seat is shown
    connected."""
    db = postgres_cluster.database()
    options = (*Server.FAST, "--seat-timeout", "1")
    with (
        Server(db, None, *options) as owner,
        Server(db, None, *options) as second,
        Server(db, None, *options) as third,
    ):
        table = owner.create(["person", "rule", "rule", "rule"], **SLOW)
        person = second.client(table)  # no 404, no hop: this process serves it
        person.join(0, "Ann")
        watcher = third.client(table)
        watcher.watch(pictures=False)
        rng = random.Random(11)
        sent = play_people([person], rng, until=lambda v: v[0]["deal_number"] >= 2, timeout=240)
        time.sleep(2)  # twice the seat timeout: a stand-in would have been put in by now
        summary = owner.get(f"/api/tables/{table}")
        ruleset = tc.Ruleset.from_name(summary["settings"]["ruleset"])

        def settled() -> bool:  # the table waits for the person alone, who has seen it
            person.sync()
            watcher.sync()
            now = _stored_states(db, table, ruleset)[0][-1]
            return set(now.to_act) == {0} and person.view == tc.to_json(tc.view(now, 0))

        _until(settled)
        # One process drives the table: the owner lists it, the others serve it only.
        assert _listed(owner) == {table} and _listed(second) == _listed(third) == set()
        summary = owner.get(f"/api/tables/{table}")
        assert summary["seats"][0] == {"kind": "person", "name": "Ann", "taken": True,
                                       "connected": True}  # fmt: skip
        assert second.get(f"/api/tables/{table}") == third.get(f"/api/tables/{table}")
        states, moves = _stored_states(db, table, ruleset)
        people = [m for m in moves if getattr(m, "seat", None) == 0]
        assert people and all(tc.move_to_json(m) in sent for m in people)  # no stand-in's
        first = 0
        for client, seat in ((person, 0), (watcher, None)):
            seen = _views(states, seat)
            updates = [m["view"] for m in client.messages if m["type"] == "update"]
            at = 0
            for view in updates:  # each one a view of a stored state, in order
                assert view in seen[at:], f"seat {seat} was sent a view of no stored state"
                at = seen.index(view, at)
            assert updates[-1] == seen[-1]  # and the last one is the table's now
            first = seen.index(updates[0])
        played = [e for m in watcher.messages if m["type"] == "update" for e in m["events"]
                  if e["type"] == "play"]  # fmt: skip
        # Every card played since the spectator came, each told it once.
        assert len(played) == sum(isinstance(m, tc.Play) for m in moves[first:])


def test_the_same_move_sent_to_two_processes_at_once_is_applied_once(
    postgres_cluster: Any,
) -> None:
    """Issue 39's acceptance: two processes receiving the same move at the same moment
    apply it once.  The person's seat is open on two processes (its token resumed on
    the second and the third; the first drives the table); each time the person is to
    play, the same card is sent through both at once.  Exactly one of the two is
    acknowledged and the other refused (the database's primary key let one in; the
    other process caught up and found the card played), and the stored moves hold each
    card once."""
    db = postgres_cluster.database()
    with Server(db) as owner, Server(db) as second, Server(db) as third:
        table = owner.create(["person", "rule", "rule", "rule"], **SLOW)
        one = second.client(table)
        one.join(0, "Ann")
        assert one.token is not None
        other = third.client(table)
        other.resume(one.token)
        raced: list[Any] = []
        deadline = time.monotonic() + 120
        while len(raced) < 6:
            assert time.monotonic() < deadline, "the person was not to play often enough"
            one.sync()
            other.sync()
            view = one.view
            assert view is not None
            if view != other.view or not view["legal_moves"]:  # a bot's move: wait for ours
                one.quiet(0.05)
                other.quiet(0.05)
                continue
            if view["doubling_open"] or len(view["legal_moves"]) == 1:
                # The doubling window (answers held for its time) and a forced move: not
                # raced, answered through one connection.
                one.send(view["legal_moves"][0])
                one.send(MARK)
                assert _answer(one) == "acknowledged"
                # An answer is held until the window closes (R-HID-2): wait, not answer twice.
                while view["doubling_open"] and (one.view or view)["doubling_open"]:
                    assert one.poll(30) is not None, "the window did not close"
                continue
            move = view["legal_moves"][0]
            text = json.dumps(move)
            one.send(text)  # the same move, at the same moment, to two processes
            other.send(text)
            one.send(MARK)
            other.send(MARK)
            answers = [_answer(one), _answer(other)]
            assert sorted(answers) == ["acknowledged", "refused"], answers
            raced.append((view["deal_number"], move))
        ruleset = owner.get(f"/api/tables/{table}")["settings"]["ruleset"]
        # The stored moves replay (a card stored twice in one deal would not), and each
        # raced card is stored once in the deal it was raced in: the same seat may play
        # the same card again in a later deal (the races can span deals).
        states, moves = _stored_states(db, table, tc.Ruleset.from_name(ruleset))
        stored = [
            (before.deal_number, tc.move_to_json(m))
            for before, m in zip(states, moves, strict=False)
        ]
        for raced_move in raced:
            assert stored.count(raced_move) == 1, raced_move
        one.close()
        other.close()


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


def _answer(client: Client) -> str:
    """``refused`` if the message before :data:`MARK` was refused, else ``acknowledged``."""
    refused = False
    while True:
        message = client.poll(30)
        assert message is not None, "no answer to the mark"
        if message["type"] == "refused":
            if (
                message["error"]["code"] == "server.bad-request"
                and "'mark'" in (message["error"]["message"])
            ):
                return "refused" if refused else "acknowledged"
            refused = True
