"""A table driven by another process, served here: several processes, one set of tables.

On a shared store (several ``trixcomplex serve`` processes on one PostgreSQL
database) each table is driven by one process, its owner (its clocks, its bots,
its doubling window).  Any other process may still serve the table's clients: it
keeps a :class:`Replica`, the table's state replayed from the stored moves and
kept up to date from the database (each stored move is announced by
``NOTIFY``; the replica reads the moves it does not have yet, :meth:`Table.catch_up`),
and sends each of its connections its own seat's view, in the very messages the
owner sends (a replica *is* a :class:`~trixcomplex.server.table.Table`: the same
joins, token checks, refusals and updates, one function each).

A client's move received here is checked against the replica's state by the
library and stored at the next move number; the database's primary key decides
between two writers of one number, and the loser catches up and checks the move
again (refused if it became illegal).  It is acknowledged (the update sent) only
once stored.  The owner learns of it from the same notification and goes on from
it.  What a replica never does is drive: no deal, bot, forced move, timeout or
stand-in; a person's answer to the doubling window is held here until the
window's answer time (R-HID-2), as the owner holds its own connections' answers,
then stored.
"""

from __future__ import annotations

import contextlib
from functools import partial

import trixcomplex as tc

from .store import MoveTaken
from .table import Table

__all__ = ["Replica"]


class Replica(Table):
    """A table another process drives, kept here from the stored moves for the
    connections of this process (built with :meth:`Table.restore`).

    Four people seated through a replica; the owner, told of it, deals; the replica,
    told of the deal, reads it (the notifications stood in for by hand):

    >>> from trixcomplex.server.clock import ManualClock
    >>> from trixcomplex.server.store_sqlite import SqliteStore
    >>> from trixcomplex.server.table import Seat, Settings
    >>> store, clock = SqliteStore(":memory:"), ManualClock()
    >>> owner = Table.create("t1", Settings(deal_pause=0), [Seat("person")] * 4, store,
    ...                      clock=clock)
    >>> replica = Replica.restore(store.load("t1"), store, clock=clock)
    >>> tokens = [replica.join(seat, f"P{seat}") for seat in range(4)]
    >>> owner.heard_seats()  # "t1 seats": every seat taken, the owner deals when due
    >>> clock.step()
    True
    >>> replica.catch_up()  # "t1 0": the deal, read from the store
    >>> replica.state == owner.state, replica.state.deal_number, replica.seat_of(tokens[2])
    (True, 1, 2)
    """

    def start(self) -> None:
        """Start following the table: no clocks of its own but the held answers'."""
        self._start_clocks()

    def _schedule(self) -> None:
        """The one thing a replica does on its clock: store the people's answers to the
        doubling window that it holds, at the window's answer time."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.state.phase is not tc.Phase.DOUBLE:
            self._held.clear()  # the window closed without them (timed out by the owner)
            return
        if self._held and not self._stopped:
            when = self._answers_at() - self._time.now()
            self._timer = self._time.call_later(when, self._write_held)

    def _write_held(self) -> None:
        self._timer = None
        for seat in sorted(self._held):
            state = self.state
            if state.phase is not tc.Phase.DOUBLE or seat not in state.to_act:
                self._held.pop(seat)
                continue
            self._fire(partial(self._store_held, seat))
            if seat in self._held:  # not stored (taken first, the store down): again later
                return

    def _store_held(self, seat: int) -> None:
        self._apply(self._held[seat])
        self._held.pop(seat, None)

    def settle(self) -> None:
        """The server drains: store the held answers now (the owner applies them with
        the window's others), then stop following the table."""
        try:
            for seat in sorted(self._held):
                state = self.state
                if state.phase is tc.Phase.DOUBLE and seat in state.to_act:
                    with contextlib.suppress(MoveTaken):
                        self._store_held(seat)
        finally:
            self.stop()

    def _take_over(self, seat: int) -> None:
        """Stand-ins are the owner's: never here."""
        del seat
