"""The table server, driven over real WebSockets (R-SEAT-1, R-HID-1 … R-HID-3).

Every test starts ``trixcomplex serve`` (uvicorn) on 127.0.0.1 in a child
process and talks to it as browsers would; the process is always stopped.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

import trixcomplex as tc
from server_harness import Client, Server, play_people, player_moves, replay

PEOPLE = ["person"] * 4
SLOW = {"move_time": 3600, "forced_delay": 60, "bot_delay": 0, "deal_pause": 0}
CARD = re.compile(r"^(?:[2-9TJQKA]|10)[SHDC♠♥♦♣]$")


@pytest.fixture(scope="module")
def server(module_database: str) -> Iterator[Server]:
    """One server per store (SQLite, PostgreSQL) for the module's tests."""
    with Server(module_database) as running:
        yield running


def settle(clients: list[Client]) -> None:
    """Wait until every move the clients sent was handled and every update it caused
    has reached every client (no timing: each client's sync is answered in order,
    after the messages the server queued for it before)."""
    for _ in range(2):  # first: the moves in flight are handled; then: delivered
        for client in clients:
            client.sync()


def seated(server: Server, table: str, seats: list[int]) -> list[Client]:
    clients = []
    for seat in seats:
        client = server.client(table)
        client.join(seat, f"player {seat}")
        clients.append(client)
    return clients


@pytest.mark.slow
def test_four_people_finish_a_match(server: Server) -> None:
    """R-MATCH-1, R-SEAT-1: four people play a whole match; every move they sent is in
    the record, in order, and the record replays to the score they were shown; each
    was sent only its own views (R-HID-1, R-HID-2)."""
    table = server.create(PEOPLE, **SLOW)
    clients = seated(server, table, [0, 1, 2, 3])
    sent = play_people(clients, random.Random(13))
    status, record = server.request(f"/api/tables/{table}/record")
    assert status == 200
    final = replay(record)
    assert final.is_over
    for seat in range(4):
        assert player_moves(record, seat) == [m for m in sent if m["seat"] == seat]
        assert clients[seat].view == tc.to_json(tc.view(final, seat))
    assert record["meta"]["players"] == [f"player {s}" for s in range(4)]
    for client in clients:  # R-HID-1, R-HID-2: no seat is sent anything of another's
        assert sees_only_its_own_views(client, record) > 100
    assert server.get(f"/api/tables/{table}")["finished"] is True
    for client in clients:
        client.close()


def test_hostile_clients_are_refused_and_the_table_is_unchanged(server: Server) -> None:
    """R-SEAT-1: a move for another seat, by a spectator, a replayed move or token,
    garbage and oversize input are refused; nobody is told of any change, and the
    seat to play can still make the move it had."""
    table = server.create(PEOPLE, **SLOW)
    clients = seated(server, table, [0, 1, 2, 3])
    watcher = server.client(table)
    watcher.watch(pictures=False)
    play_people(
        clients, random.Random(5), until=lambda v: v[0]["phase"] == "COMPLEX" and v[0]["trick"]
    )
    settle([*clients, watcher])
    to_play = next(c for c in clients if c.view is not None and c.view["legal_moves"])
    other = next(c for c in clients if c is not to_play)
    legal = to_play.view["legal_moves"] if to_play.view else []
    before = watcher.view

    other_table = server.create(PEOPLE, **SLOW)
    stranger = server.client(other_table)
    stranger.join(0, "stranger")

    def refused(client: Client, message: object) -> str:
        client.send(message)
        reply = client.expect("refused")
        error = reply["error"]
        assert set(error) == {"code", "message", "rule", "index"} and error["message"]
        return str(error["code"])

    spectator = server.client(table)
    spectator.watch(pictures=False)
    codes = [
        refused(other, legal[0]),  # a move for another seat
        refused(spectator, legal[0]),  # a spectator's move
        refused(other, "this is not JSON"),
        refused(other, "{}"),
        refused(other, "[1, 2, 3]"),
        refused(other, {"move": "play", "seat": other.seat}),
        refused(other, '{"move": "pass", "seat": 1, "seat": 2}'),
        refused(other, {"move": "deal", "deck": [str(c) for c in tc.ALL_CARDS]}),
        refused(other, {"move": "timeout"}),
        refused(other, "[" * 500 + "]" * 500),
        refused(other, json.dumps({"move": "pass", "seat": other.seat, "x": "y" * 10_000})),
        refused(other, {"type": "join", "seat": 9, "name": "again"}),  # a second hello
    ]
    other.ws.send(b"\x00binary")
    codes.append(other.expect("refused")["error"]["code"])
    assert codes == [
        "submit.wrong-seat",
        "submit.spectator",
        "submit.invalid-json",
        "submit.unknown-kind",
        "submit.not-object",
        "submit.missing-key",
        "submit.duplicate-key",
        "submit.host-only",
        "submit.host-only",
        "submit.too-large",
        "server.too-long",
        "server.already-joined",
        "server.bad-request",
    ], codes
    fresh = server.client(table)
    assert refused(fresh, legal[0]) == "server.hello-first"
    assert refused(fresh, {"type": "resume", "token": to_play.token}) == "server.seat-connected"
    assert refused(fresh, {"type": "resume", "token": stranger.token}) == "server.bad-token"
    assert refused(fresh, {"type": "resume", "token": "x" * 43}) == "server.bad-token"
    assert (
        refused(fresh, {"type": "join", "seat": to_play.seat, "name": "thief"})
        == "server.seat-taken"
    )
    assert refused(fresh, {"type": "watch", "seat": 1}) == "server.bad-request"
    assert refused(fresh, {"type": "watch", "type2": 1, "pictures": "yes"}) == "server.bad-request"

    # Nobody heard of any of it, and a new spectator sees what the first one saw.
    for client in (*clients, watcher):
        assert client.sync() == []
    fresh.watch(pictures=False)
    assert fresh.view == before

    # The seat to play still has its move; sending it twice is a replayed move.
    to_play.send(legal[0])
    assert legal[0] not in to_play.expect("update")["view"]["legal_moves"]
    after = watcher.expect("update")["view"]
    assert after != before
    settle(clients)
    assert refused(to_play, legal[0]) == "illegal-move"  # the same move again: replayed
    for client in (*clients, watcher):
        assert client.sync() == []
    for client in (*clients, watcher, stranger, spectator, fresh):
        client.close()


def _cards_in(value: object, out: set[str]) -> set[str]:
    if isinstance(value, str) and CARD.match(value):
        out.add(str(tc.parse_card(value)))
    elif isinstance(value, dict):
        for item in value.values():
            _cards_in(item, out)
    elif isinstance(value, list):
        for item in value:
            _cards_in(item, out)
    return out


def sees_only_its_own_views(client: Client, record: dict[str, Any]) -> int:
    """Check every update ``client`` received against the record of the finished match;
    returns how many there were.

    Each must carry the client's own view of some state of the match (and its picture,
    drawn from that view alone), name no card still hidden from it in another hand, and
    come only when that view changed or there are events for it (R-HID-1 … R-HID-3)."""
    viewer = client.seat
    state = tc.replay(tc.Record(record["ruleset"]))
    views: dict[str, tuple[tc.MatchState, tc.View]] = {}
    for move in [None, *(tc.move_from_json(m) for m in record["moves"])]:
        state = state if move is None else tc.apply(state, move)
        seen = tc.view(state, viewer)
        views.setdefault(json.dumps(tc.to_json(seen), sort_keys=True), (state, seen))
    updates = [m for m in client.messages if m["type"] == "update"]
    previous = None
    for message in updates:
        key = json.dumps(message["view"], sort_keys=True)
        assert key in views, f"a message to {viewer} that is not its view of the match"
        state, seen = views[key]
        if "svg" in message:
            assert message["svg"] == tc.picture(seen).svg
        public: set[str] = set()
        for cards in (*seen.known_holdings, *seen.shown_twos):
            public |= {str(c) for c in cards}
        others = [s for s in range(4) if s != viewer]
        hidden = {str(c) for s in others for c in state.hand(s)} - public
        # Finished deals (in the score) name cards of earlier deals, and cannot_hold
        # the cards a seat showed it lacks (R-TX-3): public facts, not holdings.
        # The last finished deal (last_deal) too: every card of it was played face up
        # (test_server_hidden.py::test_the_last_deal_is_what_a_spectator_saw_played).
        current = {
            **message,
            "svg": None,
            "last_deal": None,
            "view": {**message["view"], "score": None, "cannot_hold": None},
        }
        shown = _cards_in(current, set())
        assert not shown & hidden, f"hidden cards {shown & hidden} sent to {viewer}"
        assert message["events"] or key != previous, "a message that reveals a hidden move"
        previous = key
    return len(updates)


@pytest.mark.parametrize(
    "ruleset", ["partnership", "partnership+bad_hand_redeal=True,show_twos=True"]
)
@pytest.mark.slow
def test_a_spectator_never_sees_a_hidden_card(server: Server, ruleset: str) -> None:
    """R-HID-1 … R-HID-3: every message a spectator receives is the spectator view of
    some state of the match (its picture drawn from that view alone), names no card
    that is still hidden in a hand, and none comes while nothing visible changed."""
    table = server.create(["person", "rule", "random", "rule"], ruleset=ruleset, **SLOW)
    spectator = server.client(table)
    spectator.watch(pictures=True)
    person = seated(server, table, [0])
    play_people(person, random.Random(3), timeout=240)
    settle([*person, spectator])  # every update of the match has reached the spectator
    assert spectator.view is not None and spectator.view["phase"] == "OVER"
    record = server.get(f"/api/tables/{table}/record")
    assert sees_only_its_own_views(spectator, record) > 100
    for message in spectator.messages:
        assert message["type"] in {"welcome", "update", "seats", "refused"}
    spectator.close()
    person[0].close()


@pytest.mark.slow
def test_kill_the_server_mid_trick_and_restart(server_database: str) -> None:
    """Nothing lost: killed (SIGKILL) in the middle of a trick and started again on the
    same database, the server gives every seat, with its old token, exactly the view it
    had; the clocks restart; play goes on to the end of the match."""
    db = server_database
    rng = random.Random(21)
    with Server(db) as first:
        table = first.create(PEOPLE, **{**SLOW, "move_time": 900})
        clients = seated(first, table, [0, 1, 2, 3])
        watcher = first.client(table)
        watcher.watch(pictures=True)

        def mid_second_trick(views: list[Any]) -> bool:
            v = views[0]
            return v["phase"] == "COMPLEX" and len(v["tricks"]) == 1 and len(v["trick"]) == 2

        play_people(clients, rng, until=mid_second_trick)
        settle([*clients, watcher])
        had = [c.view for c in clients]
        tokens = [c.token for c in clients]
        picture = [m for m in watcher.messages if m["type"] == "update"][-1]["svg"]
        first.kill()

    with Server(db) as second:
        again = [second.client(table) for _ in range(4)]
        for client, token, view in zip(again, tokens, had, strict=True):
            assert token is not None
            update = client.resume(token)
            assert update["view"] == view
            assert update["clock"]["seconds_left"] > 890
        watcher = second.client(table)
        watcher.watch(pictures=True)
        assert [m for m in watcher.messages if m["type"] == "update"][-1]["svg"] == picture
        # Closed now: a client that stops reading while updates keep coming (with pictures)
        # holds up its closing handshake until websockets' close_timeout, 10 s.
        watcher.close()
        sent = play_people(again, rng, until=lambda v: v[0]["deal_number"] >= 3)
        assert len(sent) > 52
        for client in again:
            client.close()


def test_forced_moves_are_played_after_the_delay(server: Server) -> None:
    """R-TX-5: a seat's only legal move is played for it after the forced-move delay.
    The person here never plays a forced move (its last card of every deal, at least)
    and has an hour per move, yet the match goes on."""
    table = server.create(["person", "rule", "rule", "rule"], move_time=3600, forced_delay=0.1,
                          bot_delay=0, deal_pause=0)  # fmt: skip
    person = seated(server, table, [0])
    play_people(person, random.Random(8), until=lambda v: v[0]["deal_number"] >= 3,
                avoid_forced=True, timeout=240)  # fmt: skip
    assert any(m["view"]["forced_move"] for m in person[0].messages if m["type"] == "update")
    person[0].close()


def test_a_seat_out_of_time_gets_the_host_move(server: Server) -> None:
    """R-MATCH-6, R-DBL-3 and the host policy: a person who never moves is moved for
    when its clock (1 s here) runs out.  (That it is not moved for before, to the
    millisecond, is checked in process on a hand-moved clock: test_server_clock.)"""
    table = server.create(["person", "rule", "rule", "rule"], move_time=1, forced_delay=60,
                          bot_delay=0, deal_pause=0)  # fmt: skip
    (idle,) = seated(server, table, [0])
    waits = []
    turn_since = None
    started = time.monotonic()
    while len(waits) < 3:
        assert time.monotonic() - started < 60, "the clock never ran out"
        message = idle.poll(0.5)
        if message is None or message["type"] != "update":
            assert message is None or message["type"] == "seats", message
            continue
        view = message["view"]
        if view["legal_moves"] and turn_since is None:
            turn_since = time.monotonic()
        elif not view["legal_moves"] and turn_since is not None:
            waits.append(time.monotonic() - turn_since)  # the host moved for seat 0
            turn_since = None
    assert all(wait < 30 for wait in waits), waits
    idle.close()


def test_http_api_refusals(server: Server) -> None:
    """Bad requests get a structured error and change nothing."""
    before = server.get("/api/tables")
    for body in (
        [1],
        {"seats": ["person"]},
        {"seats": ["person", "god", "rule", "rule"]},
        {"seats": PEOPLE, "ruleset": "poker"},
        {"seats": PEOPLE, "move_time": 0},
        {"seats": PEOPLE, "colour": "red"},
        {"seats": PEOPLE, "ruleset": "x" * 10_000},
    ):
        status, reply = server.request("/api/tables", body)
        assert status == 400 and reply["error"]["code"] and reply["error"]["message"]
    assert server.get("/api/tables") == before
    table = server.create(PEOPLE, **SLOW)
    status, reply = server.request(f"/api/tables/{table}/record")
    assert status == 409 and reply["error"]["code"] == "server.not-finished"  # R-HID-3: decks
    status, reply = server.request("/api/tables/nope/record")
    assert status == 404
    gone = server.client("nope")
    gone.send({"type": "watch"})
    assert gone.expect("refused")["error"]["code"] == "server.unknown-table"
    gone.close()
