"""A table driven by one process and served by another, in process (issue 39, deliverable 2).

The owner (a :class:`~trixcomplex.server.table.Table`) and a
:class:`~trixcomplex.server.replica.Replica` share one store, as two processes share
one PostgreSQL database; the lobby's notifications are stood in for by calling
:meth:`~trixcomplex.server.table.Table.catch_up` and ``heard_seats`` by hand, which
is what :meth:`~trixcomplex.server.app.Lobby.heard` does on each ``NOTIFY``.  The
clock is moved by hand and the bots answer at once, so nothing depends on timing.
Whole processes on PostgreSQL: ``tests/test_server_processes.py``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import trixcomplex as tc
from server_harness import InlinePool, run_until
from trixcomplex.server.clock import ManualClock
from trixcomplex.server.options import Options
from trixcomplex.server.replica import Replica
from trixcomplex.server.store import MoveTaken
from trixcomplex.server.store_sqlite import SqliteStore
from trixcomplex.server.table import Seat, Settings, Table

SETTINGS = Settings(move_time=3600, forced_delay=60, bot_delay=0.5, deal_pause=0)


class Spy:
    """A connection as a table sees it, keeping every message it is sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.pictures = False
        self.locale = "en"
        self.last_view: tc.View | None = None
        self.sent: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    def views(self) -> list[dict[str, Any]]:
        return [m["view"] for m in self.sent if m["type"] == "update"]


def _pair(seats: list[Seat]) -> tuple[ManualClock, SqliteStore, Table, Replica]:
    """An owner table, stored, and a replica of it read back from the store."""
    clock = ManualClock()
    store = SqliteStore(":memory:")
    owner = Table.create("t1", SETTINGS, seats, store, clock=clock, pool=InlinePool(),  # type: ignore[arg-type]
                         options=Options(bot_window=0.25))  # fmt: skip
    owner.start()
    row = store.load("t1")
    assert row is not None
    replica = Replica.restore(row, store, clock=clock, options=Options(bot_window=0.25))
    replica.start()
    return clock, store, owner, replica


def _steps(clock: ManualClock, until: Any, most: int = 5000) -> None:
    """Fire ``clock``'s timers one by one until ``until()``, at most ``most`` of them
    (a table that keeps failing the same step never gets there)."""
    for _ in range(most):
        if until():
            return
        assert clock.step(), "nothing more is due"
    raise AssertionError(f"not done after {most} timers")


def _stored(store: SqliteStore) -> list[tc.Move]:
    return [tc.move_from_json(m) for m in store.moves("t1")]


def test_a_move_received_by_the_replica_reaches_the_owner_whose_bots_answer() -> None:
    """A person joins and plays through the replica: each move is checked there and
    stored (acknowledged only then: its update comes after the row is in), the owner
    catches up from the store and its bots answer; the replica's connection is sent
    seat 0's view of each state only (R-HID-1), and a spectator there the public view."""
    person = Seat("person")
    _, store, owner, replica = _pair([person, Seat("bot", "rule"), Seat("bot", "rule"),
                                      Seat("bot", "rule")])  # fmt: skip
    clock = owner._time
    assert isinstance(clock, ManualClock)
    token = replica.join(0, "Ann")
    owner.heard_seats()  # the owner is told: every seat taken, it deals
    assert owner.seat_of(token) == 0 == replica.seat_of(token)  # the stored hash, anywhere
    ann, watcher = Spy(0), Spy(None)
    replica.attach(ann)
    replica.attach(watcher)
    rng = random.Random(3)
    played = 0
    while played < 12:
        run_until(clock, lambda: 0 in owner.state.to_act or owner.state.is_over)
        replica.catch_up()
        assert replica.state == owner.state
        move = rng.choice(tc.legal_moves(replica.state, 0))
        before = len(store.moves("t1"))
        sent = len(ann.sent)
        window = replica.state.phase is tc.Phase.DOUBLE
        replica.submit(0, tc.move_to_json(move))
        if window:  # held for the window's answer time, then stored with the bots' answers
            _steps(clock, lambda b=before, m=move: m in _stored(store)[b:])
        else:
            assert _stored(store)[before] == move  # stored ...
            assert len(ann.sent) > sent  # ... and acknowledged
        owner.catch_up()
        assert owner.state == replica.state
        played += 1
    replica.catch_up()
    states = [tc.new_match()]
    for stored in _stored(store):
        states.append(tc.apply(states[-1], stored))
    for spy, seat in ((ann, 0), (watcher, None)):
        seen = [tc.to_json(tc.view(state, seat)) for state in states]
        assert all(view in seen for view in spy.views()), f"seat {seat}: not its view"
        assert spy.views()[-1] == seen[-1]


def test_the_owners_move_that_loses_the_race_catches_up_and_goes_on() -> None:
    """Another process stored a move at the number the owner's bot was about to store:
    the owner's write is refused by the store (:class:`MoveTaken`), and the owner takes
    the stored move instead and goes on from it (asks its bot again): nothing fails,
    nothing is stored twice, and the match goes on."""
    _, store, owner, _ = _pair([Seat("bot", "rule")] * 4)
    clock = owner._time
    assert isinstance(clock, ManualClock)
    run_until(clock, lambda: len(owner.state.history) >= 20)
    number = len(owner.state.history)
    seat = min(owner.state.to_act)
    legal = tc.legal_moves(owner.state, seat)
    theirs = legal[-1]
    store.add_move("t1", number, tc.move_to_json(theirs))  # another process's, first
    with pytest.raises(MoveTaken):
        store.add_move("t1", number, tc.move_to_json(legal[0]))
    _steps(clock, lambda: len(owner.state.history) >= number + 8)
    assert owner.state.history.moves()[number] == theirs
    stored = _stored(store)
    assert stored == list(owner.state.history.moves())  # caught up, not written twice
    assert tc.replay(tc.Record(moves=tuple(stored))) == owner.state
