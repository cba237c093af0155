"""A table: one match, its four seats, the connections watching it and its clocks.

Everything here runs on the server's event loop, one message or timer at a
time, so a table needs no lock: each step reads ``self.state``, computes the
next state with the library, stores it, and only then makes it the table's
state and tells the connections.  A step that fails (a refused move, a
database error) leaves the table exactly as it was.

A table is this module's :class:`Table` with two parts of its own: its
messages (:mod:`~trixcomplex.server.messages`: what each connection is sent)
and its host (:mod:`~trixcomplex.server.table_host`: the deals, the bots'
moves, forced moves and timeouts, on the table's clocks).  What it is opened
with (:class:`Settings`, :class:`Seat`) and its refusals (:class:`Refused`)
are in :mod:`~trixcomplex.server.seats`.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Callable
from typing import Self

import trixcomplex as tc

from .clock import Clock, LoopClock
from .messages import TableMessages, Viewer
from .metrics import Metrics
from .options import Options
from .pool import BotPool
from .seats import SERVER_ERROR_CODES, Refused, Seat, Settings, join_seat, seat_of_token
from .store import STORE_ERRORS, DamagedRow, MoveTaken, Store, TableRow
from .table_host import TableHost

__all__ = ["SERVER_ERROR_CODES", "Refused", "Seat", "Settings", "Table", "Viewer"]

log = logging.getLogger("trixcomplex.server")

_ATTEMPTS = 5  # a client's move checked again after another process's came first


def _iso(wall: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(wall))


class Table(TableHost, TableMessages):
    """One match being played (or finished), with its seats, viewers and timers."""

    def __init__(
        self,
        table_id: str,
        created: str,
        settings: Settings,
        seats: list[Seat],
        state: tc.MatchState,
        store: Store,
        *,
        clock: Clock | None = None,
        pool: BotPool | None = None,
        options: Options | None = None,
        creator: str = "",
        created_at: float = 0.0,
        ended_at: float | None = None,
    ) -> None:
        self.id = table_id
        self.created = created
        self.settings = settings
        self.seats = seats
        self.state = state
        self.creator = creator
        self.created_at = created_at
        self.ended_at = ended_at
        self.idle_since: float | None = None  # wall time since nobody is connected
        self.on_change: Callable[[Table], None] = lambda table: None
        self.metrics: Metrics | None = None  # the lobby's, once it has the table
        self._store = store
        self._time: Clock = clock or LoopClock()
        self._pool = pool
        self._options = options or Options()
        self._viewers: list[Viewer] = []
        self._elsewhere: frozenset[int] = frozenset()  # seats connected, in any process
        self._bots = {s: seat.name or "" for s, seat in enumerate(seats) if seat.kind == "bot"}
        self._rng = random.Random(secrets.randbits(64))
        self._shuffler = secrets.SystemRandom()
        self._offered = set()
        self._asked = {}
        self._held = {}  # people's window answers, applied at _answers_at
        self._window_opened = 0.0
        self._timer = None
        self._stopped = False
        self._retry = 0.0
        self._away = {}  # a joined person's seat without its connection: since when
        self._stand_ins = set()  # seats a bot plays while their person is away
        now = self._time.now()
        self._last_move_at = now
        self._deadline = now + settings.move_time
        self._scoresheet = tc.format_scoresheet(state)

    # -- creating, storing, restoring ---------------------------------------------

    @classmethod
    def create(
        cls,
        table_id: str,
        settings: Settings,
        seats: list[Seat],
        store: Store,
        *,
        clock: Clock | None = None,
        pool: BotPool | None = None,
        options: Options | None = None,
        creator: str = "",
    ) -> Table:
        """A new table, stored before it is returned; ``creator``: a hash of who opened it."""
        if len(seats) != 4:
            raise Refused("a table has exactly four seats", "bad-seat")
        ruleset = tc.Ruleset.from_name(settings.ruleset)
        clock = clock or LoopClock()
        wall = clock.wall()
        table = cls(table_id, _iso(wall), settings, seats, tc.new_match(ruleset), store,
                    clock=clock, pool=pool, options=options, creator=creator,
                    created_at=wall)  # fmt: skip
        table._save(table._row(table.state, table.seats))
        return table

    @classmethod
    def restore(
        cls,
        row: TableRow,
        store: Store,
        *,
        clock: Clock | None = None,
        pool: BotPool | None = None,
        options: Options | None = None,
    ) -> Self:
        """The table of a stored row: its state replayed from its record; clocks restart."""
        state = tc.replay(tc.Record.from_json(row.record))
        seats = [Seat(s["kind"], s["name"], s["token_sha256"]) for s in row.seats]
        return cls(row.id, row.created, Settings.from_json(row.settings), seats, state, store,
                   clock=clock, pool=pool, options=options, creator=row.creator,
                   created_at=row.created_at, ended_at=row.ended_at)  # fmt: skip

    def _save(self, row: TableRow) -> None:
        """Store ``row``; a store that fails (a full disk) is :class:`Refused` with
        ``server.unavailable``, in one log line: the step is not taken, nor acknowledged."""
        try:
            self._store.save(row)
        except STORE_ERRORS as exc:
            raise self._unavailable("save", exc) from None

    def _unavailable(self, operation: str, exc: Exception) -> Refused:
        """The refusal of a step the store failed to keep (``server.unavailable``: nothing
        was changed), counted in the metrics and logged in one line."""
        if self.metrics is not None:
            self.metrics.store_failed(operation)
        log.warning("table %s: cannot store: %s", self.id, exc)
        return Refused("the server cannot store now; nothing was changed: try again", "unavailable")

    def _add_move(
        self, before: tc.MatchState, move: tc.Move, after: tc.MatchState, end: bool
    ) -> None:
        """Store the one ``move`` from ``before`` to ``after``: one short row, whatever the
        match's length (``end``: with the row's new end); as :meth:`_save` when it fails.
        :class:`MoveTaken` if another process stored a move at this point first: the
        caller catches up (:meth:`catch_up`) and decides again."""
        if len(after.history) != len(before.history) + 1:  # not one move: the whole row
            self._save(self._row(after, self.seats))
            return
        try:
            self._store.add_move(self.id, len(before.history), tc.move_to_json(move),
                                 self._row(after, self.seats) if end else None)  # fmt: skip
        except STORE_ERRORS as exc:
            raise self._unavailable("add_move", exc) from None
        except MoveTaken as exc:
            log.info("table %s: %s by another process: catching up", self.id, exc)
            raise

    def _row(self, state: tc.MatchState, seats: list[Seat]) -> TableRow:
        return TableRow(
            self.id,
            self.created,
            self.settings.to_json(),
            [{"kind": s.kind, "name": s.name, "token_sha256": s.token_sha256} for s in seats],
            tc.Record.of(state, meta=self.meta(state, seats)).to_json(),
            state.is_over,
            self.creator,
            self.created_at,
            self.ended_at,
        )

    # -- seats and viewers ----------------------------------------------------------

    def join(self, seat: object, name: object) -> str:
        """Take a free person seat (:func:`~trixcomplex.host.table_seats.join_seat`);
        returns the seat's secret token (stored only hashed), once the seats are stored,
        and only if nobody took the seat meanwhile, in this process or another."""
        seats, token = join_seat(self.seats, seat, name)
        assert type(seat) is int  # join_seat refused anything else
        row = self._row(self.state, seats)
        try:
            stored = self._store.take_seat(self.id, seat, row.seats[seat], row.record)
        except (DamagedRow, *STORE_ERRORS) as exc:
            raise self._unavailable("save", exc) from None
        if stored is None:
            self.heard_seats()
            raise Refused(f"seat {seat} is taken", "seat-taken")
        self.seats = [Seat(s["kind"], s["name"], s["token_sha256"]) for s in stored]
        self._tell_seats()
        if not self._stopped:
            self._schedule()
        return token

    def seat_of(self, token: object) -> int:
        """The seat whose token this is; :class:`Refused` for anything else."""
        return seat_of_token(self.seats, token)

    def check_free(self, seat: object) -> None:
        """:class:`Refused` if ``seat`` already has a live connection (a replayed token)."""
        if seat is not None and any(v.seat == seat for v in self._viewers):
            raise Refused(f"seat {seat} is already connected from somewhere else", "seat-connected")

    def attach(self, viewer: Viewer) -> None:
        """Start sending ``viewer`` its updates (one seat has at most one live connection
        in a process); a seat's connection takes the seat back from its stand-in bot, and
        is counted present for every process (:meth:`~Store.present`)."""
        self.check_free(viewer.seat)
        if viewer.seat is not None:
            try:
                self._store.present(self.id, viewer.seat)
                self._store.notify(self.id, "seats")
            except STORE_ERRORS as exc:
                log.warning("table %s: cannot count a connection: %s", self.id, exc)
                raise Refused(
                    "the server cannot store now; try again later", "unavailable"
                ) from None
        self._viewers.append(viewer)
        if viewer.seat is not None:
            self._back(viewer.seat)
        viewer.last_view = tc.view(self.state, viewer.seat)
        viewer.send(self.update_message(viewer, viewer.last_view, []))
        if viewer.seat is not None:
            self._tell_seats()
            self.on_change(self)

    def adopt(self, viewer: Viewer) -> None:
        """Send ``viewer`` its updates from now on: a connection this process served
        from the table's replica until it took the table over (attached and counted
        present already), sent a fresh update."""
        self._viewers.append(viewer)
        if viewer.seat is not None:
            self._back(viewer.seat)
        viewer.last_view = tc.view(self.state, viewer.seat)
        viewer.send(self.update_message(viewer, viewer.last_view, []))
        self._tell_seats()

    def held(self) -> dict[int, tc.Move]:
        """The people's answers to the doubling window held for its answer time."""
        return dict(self._held) if self.state.phase is tc.Phase.DOUBLE else {}

    def hold(self, answers: dict[int, tc.Move]) -> None:
        """Hold ``answers`` (:meth:`held` of the table's replica, taken over here) too."""
        if answers and self.state.phase is tc.Phase.DOUBLE:
            self._held.update(answers)
            if not self._stopped:
                self._schedule()

    def detach(self, viewer: Viewer) -> None:
        """Stop sending to ``viewer``; a seat left without its connection is played by a
        stand-in bot after ``options.seat_timeout`` seconds."""
        if viewer in self._viewers:
            self._viewers.remove(viewer)
            seat = viewer.seat
            if seat is not None:
                try:
                    self._store.absent(self.id, seat)
                    self._store.notify(self.id, "seats")
                except STORE_ERRORS as exc:  # freed with the session anyway
                    log.warning("table %s: cannot uncount a connection: %s", self.id, exc)
                if self.seats[seat].token_sha256 is not None and not self.state.is_over:
                    self._away[seat] = self._time.now()
                    if not self._stopped:
                        self._schedule()
                self._tell_seats()
                self.on_change(self)

    def _take_over(self, seat: int) -> None:
        """A stand-in bot plays ``seat``, whose person is away, until the token comes back
        (as card sites do: the match goes on, the seat stays the person's)."""
        self._away.pop(seat, None)
        self._stand_ins.add(seat)
        self._bots[seat] = self._options.stand_in
        log.info("table %s: a bot plays seat %d while its player is away", self.id, seat)
        self._tell_seats()
        self._schedule()

    def _back(self, seat: int) -> None:
        """The person of ``seat`` is connected again: their stand-in bot leaves."""
        self._away.pop(seat, None)
        if seat in self._stand_ins:
            self._stand_ins.discard(seat)
            del self._bots[seat]
            for key in [key for key in self._asked if key[1] == seat]:
                self._asked.pop(key).answer.cancel()
            if not self._stopped:
                self._schedule()

    @property
    def watched(self) -> bool:
        """Whether a seat's connection is attached, here or in another process (spectators
        do not keep a table open)."""
        return bool(self._elsewhere) or any(v.seat is not None for v in self._viewers)

    # -- moves ----------------------------------------------------------------------

    def submit(self, seat: int | None, data: object) -> None:
        """A client's move (its JSON text, or the value read from it once with
        :func:`~trixcomplex.host.submit.read_input`), checked by the library for the
        connection's seat.

        An answer to the doubling window given before the window's answer time
        is held and applied then, with the bots' (R-HID-2).  A move another process
        stored first at this point (two writers of one move number: the database let
        the other in) is not lost: the table catches up with the stored moves and the
        move is checked again, against the new state (refused if it became illegal)."""
        for _ in range(_ATTEMPTS):
            before = self.state
            if seat in self._held and before.phase is tc.Phase.DOUBLE:
                raise Refused("your answer is in: it is shown when the window closes", "answered")
            after = tc.submit(before, seat, data)
            move = after.history.last
            assert move is not None
            if before.phase is tc.Phase.DOUBLE and self._time.now() < self._answers_at():
                assert seat is not None
                self._held[seat] = move
                self._schedule()
                return
            try:
                self._commit(before, move, after)
            except MoveTaken:
                continue  # caught up: the move is checked again against the new state
            return
        raise Refused("other moves keep coming first; nothing was changed: try again",
                      "unavailable")  # fmt: skip

    def _apply(self, move: tc.Move) -> None:
        before = self.state
        self._commit(before, move, tc.apply(before, move))

    def _commit(self, before: tc.MatchState, move: tc.Move, after: tc.MatchState) -> None:
        """Store ``move`` and take the step; :class:`MoveTaken` (caught up already) if
        another process stored one at this point first."""
        ended = after.is_over and self.ended_at is None
        if ended:
            self.ended_at = self._time.wall()
        try:
            self._add_move(before, move, after, ended)
        except BaseException as exc:
            if ended:
                self.ended_at = None
            if isinstance(exc, MoveTaken):
                self.catch_up()
            raise
        if self.metrics is not None:
            self.metrics.moved()
        self._advance(before, move, after)

    def _advance(self, before: tc.MatchState, move: tc.Move, after: tc.MatchState) -> None:
        """Make ``after``, stored already, the table's state and tell the connections:
        the clocks, the doubling window and the scoresheet follow it."""
        ended = after.is_over and self.ended_at is None
        if ended:
            self.ended_at = self._time.wall()
        self.state = after
        now = self._time.now()
        self._last_move_at = now
        if not (before.phase is tc.Phase.DOUBLE and after.phase is tc.Phase.DOUBLE):
            self._deadline = now + self.settings.move_time  # the window keeps its clock
        if after.phase is tc.Phase.DOUBLE and before.phase is not tc.Phase.DOUBLE:
            self._window_opened = now
        if after.phase in (tc.Phase.DEAL, tc.Phase.OVER):
            self._scoresheet = tc.format_scoresheet(after)
        self._broadcast(before, move, after)
        if not self._stopped:
            self._schedule()
        if after.is_over and not before.is_over:
            self.on_change(self)

    # -- several processes: what others stored ----------------------------------------

    def catch_up(self) -> None:
        """Take the steps of the moves another process stored for this table (a client's
        move received there, read from the database after its notification), as if
        they were made here: the connections are told, the clocks, bots and doubling
        window go on from them."""
        try:
            stored = self._store.moves(self.id, len(self.state.history))
        except (DamagedRow, *STORE_ERRORS) as exc:
            log.warning("table %s: cannot read the moves stored elsewhere: %s", self.id, exc)
            return
        for data in stored:
            before = self.state
            try:
                move = tc.move_from_json(data)
                after = tc.apply(before, move)
            except tc.TrixError as exc:
                log.error("table %s: a stored move does not apply: %s", self.id, exc)
                return
            self._advance(before, move, after)

    def heard_seats(self) -> None:
        """The seats changed somewhere (a join, a connection opened or closed in any
        process): read them and who is connected again, and go on from them (a seat
        connected elsewhere is nobody's to stand in for)."""
        try:
            stored = self._store.seats(self.id)
            connected = self._store.connected(self.id)
        except (DamagedRow, *STORE_ERRORS) as exc:
            log.warning("table %s: cannot read its seats: %s", self.id, exc)
            return
        self.seats = [Seat(s["kind"], s["name"], s["token_sha256"]) for s in stored]
        self._elsewhere = frozenset(connected)
        here = {viewer.seat for viewer in self._viewers}
        now = self._time.now()
        for seat, taken in enumerate(self.seats):
            if seat in here or taken.token_sha256 is None or self.state.is_over:
                continue
            if seat in connected:
                self._back(seat)
            elif seat not in self._away and seat not in self._stand_ins:
                self._away[seat] = now
        self._tell_seats()
        if not self._stopped:
            self._schedule()
        self.on_change(self)
