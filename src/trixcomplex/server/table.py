"""A table: one match, its four seats, the connections watching it and its clocks.

Everything here runs on the server's event loop, one message or timer at a
time, so a table needs no lock: each step reads ``self.state``, computes the
next state with the library, stores it, and only then makes it the table's
state and tells the connections.  A step that fails (a refused move, a
database error) leaves the table exactly as it was.

Bots never think on the event loop: the table hands each bot's question (its
seat's view) to a :class:`~trixcomplex.server.pool.BotPool` and applies the
answer when it is due and ready; a bot that overruns its budget is moved
for as a person out of time would be.  In the doubling window every answer,
bot or person, given before a fixed time after the window opens is applied
at that time, so when anything happens does not tell who was asked (R-HID-2).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Future
from functools import partial
from typing import Any, Literal, Protocol

from attrs import evolve, frozen

import trixcomplex as tc
from trixcomplex.bots import BOT_NAMES

from .clock import Clock, LoopClock, Timer
from .options import Options
from .pool import BotPool
from .store import Store, TableRow

__all__ = ["SERVER_ERROR_CODES", "Refused", "Seat", "Settings", "Table", "Viewer"]

log = logging.getLogger("trixcomplex.server")

_LIMITS = {  # setting: (default, lowest, highest), in seconds
    "move_time": (60.0, 1.0, 3600.0),
    "forced_delay": (1.0, 0.0, 60.0),
    "bot_delay": (0.6, 0.0, 60.0),
    "deal_pause": (3.0, 0.0, 60.0),
}


SERVER_ERROR_CODES: dict[str, str] = {
    "server.bad-request": "A request or message that is not what the protocol expects.",
    "server.bad-setting": "A clock setting out of its range.",
    "server.bad-ruleset": "A ruleset name that names no ruleset (R-SET-1).",
    "server.bad-seat": "A seat that is not 0–3, or a seat kind that is not a person or a bot.",
    "server.bad-name": "A player's name that is empty, too long or not printable.",
    "server.not-a-person-seat": "Joining a seat a bot plays.",
    "server.seat-taken": "Joining a seat someone else has joined.",
    "server.bad-token": "A token that opens no seat of this table.",
    "server.seat-connected": "A token whose seat already has a live connection (a replayed token).",
    "server.hello-first": "A move before the connection said who it is (join, resume, watch).",
    "server.already-joined": "A second join, resume or watch on one connection.",
    "server.too-long": "A message over the server's size limit.",
    "server.unknown-table": "A table id this server does not have.",
    "server.too-many-tables": "Opening a table when the server plays its most tables at once.",
    "server.rate-limited": "Opening more tables from one address than the server allows.",
    "server.bad-content-type": "A request body that is not sent as application/json.",
    "server.bad-origin": "A request or WebSocket from a web page of an origin not allowed.",
    "server.answered": "A second answer to the doubling window while the first is held.",
    "server.not-finished": "Asking for the record of a match still being played (R-HID-3).",
    "server.internal": "The server failed (a bug); the table is unchanged.",
}
"""The server's own refusal codes (the library's are
:data:`trixcomplex.core.errors.ERROR_CODES`)."""


class Refused(tc.TrixError):
    """A request the server refuses for its own reasons; ``code`` is in :data:`SERVER_ERROR_CODES`.

    >>> Refused("seat 2 is taken", "seat-taken").to_json()
    {'code': 'server.seat-taken', 'message': 'seat 2 is taken', 'rule': None, 'index': None}
    """

    def __init__(self, message: str, code: str, rule: str | None = None) -> None:
        assert f"server.{code}" in SERVER_ERROR_CODES, code
        super().__init__(message, code=f"server.{code}", rule=rule)


@frozen
class Settings:
    """How a table is played: its ruleset and its clocks, in seconds.

    - ``move_time``: the time a seat has for each move (and the doubling
      window for all its answers); when it runs out the host plays for the
      seat: ``Timeout`` in the two windows, the host policy otherwise.
    - ``forced_delay``: a seat's only legal move is played for it after this
      delay; the player may play it sooner.
    - ``bot_delay``: a bot waits this long before each move, so people can follow.
    - ``deal_pause``: the pause after a deal, to look at the scores.

    >>> Settings.from_json({"move_time": 30}).to_json()["move_time"]
    30.0
    >>> Settings.from_json({"move_time": 0})
    Traceback (most recent call last):
    ...
    trixcomplex.server.table.Refused: move_time must be a number from 1.0 to 3600.0 seconds
    """

    ruleset: str = "partnership"
    move_time: float = _LIMITS["move_time"][0]
    forced_delay: float = _LIMITS["forced_delay"][0]
    bot_delay: float = _LIMITS["bot_delay"][0]
    deal_pause: float = _LIMITS["deal_pause"][0]

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Settings:
        """Settings from a request's JSON; :class:`Refused` names a bad value."""
        values: dict[str, Any] = {}
        for key, (_, low, high) in _LIMITS.items():
            if key in obj:
                value = obj[key]
                if type(value) not in (int, float) or not low <= value <= high:
                    raise Refused(
                        f"{key} must be a number from {low} to {high} seconds", "bad-setting"
                    )
                values[key] = float(value)
        ruleset = obj.get("ruleset", "partnership")
        try:
            values["ruleset"] = tc.Ruleset.from_name(ruleset).name
        except (TypeError, ValueError) as exc:
            raise Refused(f"unknown ruleset: {exc}", "bad-ruleset") from None
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON (as stored, and as sent to clients)."""
        return {
            "ruleset": self.ruleset,
            "move_time": self.move_time,
            "forced_delay": self.forced_delay,
            "bot_delay": self.bot_delay,
            "deal_pause": self.deal_pause,
        }


@frozen
class Seat:
    """One of the four seats: a person (once joined: a name and a token's hash) or a bot."""

    kind: Literal["person", "bot"]
    name: str | None = None
    token_sha256: str | None = None

    @classmethod
    def parse(cls, text: object) -> Seat:
        """``"person"`` or a bot's name (``"rule"``, ``"random"``, ``"mc"``)."""
        if text == "person":
            return cls("person")
        if isinstance(text, str) and text in BOT_NAMES:
            return cls("bot", text)
        choices = ", ".join(("person", *BOT_NAMES))
        raise Refused(f"a seat is one of {choices}, not {str(text)[:40]!r}", "bad-seat")

    def public(self, connected: bool) -> dict[str, Any]:
        """What every client may know of the seat."""
        taken = self.kind == "bot" or self.token_sha256 is not None
        return {"kind": self.kind, "name": self.name, "taken": taken, "connected": connected}


class Viewer(Protocol):
    """A connection as the table sees it: whose view it gets, and how to send."""

    seat: int | None
    pictures: bool
    last_view: tc.View | None

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message``; never blocks."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _iso(wall: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(wall))


@frozen
class _Asked:
    """A question to a bot: at which point of the match (the length of its
    history), when, and the future answer."""

    position: int
    at: float
    answer: Future[Any]


_NO_ANSWER = object()


class Table:
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
        self._store = store
        self._time: Clock = clock or LoopClock()
        self._pool = pool
        self._options = options or Options()
        self._viewers: list[Viewer] = []
        self._bots = {s: seat.name or "" for s, seat in enumerate(seats) if seat.kind == "bot"}
        self._rng = random.Random(secrets.randbits(64))
        self._shuffler = secrets.SystemRandom()
        self._offered: set[tuple[int, int]] = set()
        self._asked: dict[tuple[str, int], _Asked] = {}
        self._held: dict[int, tc.Move] = {}  # people's window answers, applied at _answers_at
        self._window_opened = 0.0
        self._timer: Timer | None = None
        self._stopped = False
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
        store.save(table._row(table.state, table.seats))
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
    ) -> Table:
        """The table of a stored row: its state replayed from its record; clocks restart."""
        state = tc.replay(tc.Record.from_json(row.record))
        seats = [Seat(s["kind"], s["name"], s["token_sha256"]) for s in row.seats]
        return cls(row.id, row.created, Settings.from_json(row.settings), seats, state, store,
                   clock=clock, pool=pool, options=options, creator=row.creator,
                   created_at=row.created_at, ended_at=row.ended_at)  # fmt: skip

    def meta(self, state: tc.MatchState, seats: list[Seat]) -> dict[str, Any]:
        """The record's metadata: who played, where, when, the time control, the result."""
        meta: dict[str, Any] = {
            "event": f"table {self.id}",
            "site": "trixcomplex serve",
            "date": self.created[:10],
            "players": [seat.name or "" for seat in seats],
            "time_control": f"{self.settings.move_time:g}s per move",
        }
        if state.is_over:
            result = tc.score(state).result
            meta["result"] = str(result.value) if result is not None else ""
        return meta

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

    def record(self) -> dict[str, Any]:
        """The finished match's record (with metadata); :class:`Refused` while it is played
        (a record holds every deck, R-HID-3)."""
        if not self.state.is_over:
            raise Refused("the record is available once the match is over", "not-finished")
        return tc.Record.of(self.state, meta=self.meta(self.state, self.seats)).to_json()

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        return {
            "id": self.id,
            "created": self.created,
            "settings": self.settings.to_json(),
            "seats": self.public_seats(),
            "phase": self.state.phase.value,
            "deal_number": self.state.deal_number,
            "finished": self.state.is_over,
            "archived": False,
        }

    # -- seats and viewers ----------------------------------------------------------

    def public_seats(self) -> list[dict[str, Any]]:
        """The seats as every client may see them."""
        connected = {v.seat for v in self._viewers}
        return [seat.public(s in connected) for s, seat in enumerate(self.seats)]

    def join(self, seat: object, name: object) -> str:
        """Take a free person seat; returns the seat's secret token (stored only hashed)."""
        if type(seat) is not int or not 0 <= seat <= 3:
            raise Refused("seat must be 0, 1, 2 or 3", "bad-seat", "R-SEAT-1")
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 40 or not name.isprintable():
            raise Refused("a name is 1 to 40 printable characters", "bad-name")
        current = self.seats[seat]
        if current.kind != "person":
            raise Refused(f"seat {seat} is played by a bot", "not-a-person-seat")
        if current.token_sha256 is not None:
            raise Refused(f"seat {seat} is taken", "seat-taken")
        token = secrets.token_urlsafe(32)
        seats = list(self.seats)
        seats[seat] = evolve(current, name=name.strip(), token_sha256=_hash(token))
        self._store.save(self._row(self.state, seats))
        self.seats = seats
        self._tell_seats()
        self._schedule()
        return token

    def seat_of(self, token: object) -> int:
        """The seat whose token this is; :class:`Refused` for anything else."""
        if isinstance(token, str) and len(token) < 200:
            digest = _hash(token)
            for s, seat in enumerate(self.seats):
                if seat.token_sha256 is not None and hmac.compare_digest(seat.token_sha256, digest):
                    return s
        raise Refused("this token does not open a seat at this table", "bad-token")

    def check_free(self, seat: object) -> None:
        """:class:`Refused` if ``seat`` already has a live connection (a replayed token)."""
        if seat is not None and any(v.seat == seat for v in self._viewers):
            raise Refused(f"seat {seat} is already connected from somewhere else", "seat-connected")

    def attach(self, viewer: Viewer) -> None:
        """Start sending ``viewer`` its updates (one seat has at most one live connection)."""
        self.check_free(viewer.seat)
        self._viewers.append(viewer)
        viewer.last_view = tc.view(self.state, viewer.seat)
        viewer.send(self.update_message(viewer, viewer.last_view, []))
        if viewer.seat is not None:
            self._tell_seats()
        if len(self._viewers) == 1:
            self.on_change(self)

    def detach(self, viewer: Viewer) -> None:
        """Stop sending to ``viewer``."""
        if viewer in self._viewers:
            self._viewers.remove(viewer)
            if viewer.seat is not None:
                self._tell_seats()
            if not self._viewers:
                self.on_change(self)

    @property
    def watched(self) -> bool:
        """Whether any connection (a seat's or a spectator's) is attached."""
        return bool(self._viewers)

    def _tell_seats(self) -> None:
        message = {"type": "seats", "seats": self.public_seats()}
        for viewer in self._viewers:
            viewer.send(message)

    # -- moves ----------------------------------------------------------------------

    def submit(self, seat: int | None, data: object) -> None:
        """A client's move (its JSON text, or the value read from it once with
        :func:`~trixcomplex.host.submit.read_input`), checked by the library for the
        connection's seat.

        An answer to the doubling window given before the window's answer time
        is held and applied then, with the bots' (R-HID-2)."""
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
        self._commit(before, move, after)

    def _apply(self, move: tc.Move) -> None:
        before = self.state
        self._commit(before, move, tc.apply(before, move))

    def _commit(self, before: tc.MatchState, move: tc.Move, after: tc.MatchState) -> None:
        ended = after.is_over and self.ended_at is None
        if ended:
            self.ended_at = self._time.wall()
        try:
            self._store.save(self._row(after, self.seats))
        except BaseException:
            if ended:
                self.ended_at = None
            raise
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
        self._schedule()
        if ended:
            self.on_change(self)

    def _broadcast(self, before: tc.MatchState, move: tc.Move, after: tc.MatchState) -> None:
        cache: dict[tuple[int | None, bool], tuple[tc.View, dict[str, Any]]] = {}
        for viewer in list(self._viewers):
            key = (viewer.seat, viewer.pictures)
            if key not in cache:
                seen = tc.view(after, viewer.seat)
                events = tc.events(before, move, after, viewer.seat)
                cache[key] = (seen, self.update_message(viewer, seen, events))
            seen, message = cache[key]
            if message["events"] or seen != viewer.last_view:
                viewer.last_view = seen
                viewer.send(message)

    def update_message(
        self, viewer: Viewer, seen: tc.View, events: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """The ``update`` message for ``viewer``: its view ``seen`` and its ``events``.

        Built from the view and the table's public facts only (the scoresheet is
        the match's public history; the reasons its cards are illegal depend on
        its view only), so worlds the viewer cannot tell apart give it the same
        message.
        """
        message: dict[str, Any] = {
            "type": "update",
            "table": self.id,
            "view": tc.to_json(seen),
            "events": events,
            "clock": self._clock(),
            "seats": self.public_seats(),
            "scoresheet": self._scoresheet,
        }
        if viewer.seat is not None and seen.hand:
            message["illegal"] = self.illegal_cards(viewer.seat, seen)
        if viewer.pictures:
            message["svg"] = tc.picture(seen).svg
        if self.state.is_over:
            message["record"] = f"/api/tables/{self.id}/record"
        return message

    def illegal_cards(self, seat: int, seen: tc.View) -> dict[str, str]:
        """Why each card of ``seat``'s hand may not be played now (the ``illegal`` field),
        by :func:`~trixcomplex.why_illegal`: a function of what the seat sees only.
        The cards it may play are left out."""
        reasons = {}
        for card in seen.hand:
            reason = tc.why_illegal(self.state, seat, tc.Play(seat, card))
            if reason is not None:
                reasons[str(card)] = reason
        return reasons

    def _clock(self) -> dict[str, Any]:
        playing = self.state.phase not in (tc.Phase.DEAL, tc.Phase.OVER)
        left = max(0.0, self._deadline - self._time.now()) if playing else None
        return {
            "move_time": self.settings.move_time,
            "seconds_left": None if left is None else round(left, 1),
        }

    # -- the host's own moves: deals, bots, forced moves, timeouts --------------------

    def _waiting_for_people(self) -> bool:
        return any(s.kind == "person" and s.token_sha256 is None for s in self.seats)

    def _answers_at(self) -> float:
        """When the doubling window's answers given so far are applied: a fixed time
        after it opens (at a table with bots), whoever was asked (R-HID-2)."""
        if not self._bots:
            return self._window_opened
        return self._window_opened + max(self.settings.bot_delay, self._options.bot_window)

    def _bot_pool(self) -> BotPool:
        if self._pool is None:  # a table made by hand (tests, examples): threads
            self._pool = BotPool(1, processes=False)
        return self._pool

    def _ask(self, kind: str, seat: int) -> None:
        """Ask ``seat``'s bot, in the pool, unless it was asked already at this point."""
        key = (kind, seat)
        position = len(self.state.history)
        if key in self._asked and (kind == "double" or self._asked[key].position == position):
            return
        seen = tc.view(self.state, seat)  # the seat's view only, never the state
        pool, name, seed = self._bot_pool(), self._bots[seat], self._rng.randrange(2**63)
        answer: Future[Any]
        if kind == "redeal":
            answer = pool.wants_redeal(name, seen, seed)
        else:
            answer = pool.decide(name, seen, seed)
        self._asked[key] = _Asked(position, self._time.now(), answer)
        answer.add_done_callback(lambda _: self._time.call_soon_threadsafe(self._wake))

    def _wake(self) -> None:
        if not self._stopped:
            self._schedule()

    def _ask_bots(self) -> None:
        """Put every question the bots must answer now to the pool; forget stale ones."""
        state = self.state
        position = len(state.history)
        window = state.phase is tc.Phase.DOUBLE
        self._asked = {
            key: asked
            for key, asked in self._asked.items()
            if (key[0] == "double") == window and (window or asked.position == position)
        }
        if not window:
            self._held.clear()
        step = tc.next_step(state)
        if type(step) is tc.OfferRedeal:
            # R-OPT-8: a bot may demand a redeal out of turn; ask it once per shuffle.
            shuffle = position - len(state.history.since_deal())
            if step.seat in self._bots and (shuffle, step.seat) not in self._offered:
                self._ask("redeal", step.seat)
            step = step.otherwise
        if type(step) is tc.Ask:  # a forced move is the host's to play (R-TX-5)
            for seat in step.seats:
                if seat in self._bots:
                    self._ask("double" if window else "move", seat)

    def _answer(self, kind: str, seat: int) -> object:
        """The bot's answer if it is ready and sound; ``_NO_ANSWER`` otherwise."""
        asked = self._asked.get((kind, seat))
        if asked is None or not asked.answer.done() or asked.answer.cancelled():
            return _NO_ANSWER
        error = asked.answer.exception()
        if error is not None:
            log.warning("table %s: bot %s failed: %s", self.id, self._bots[seat], error)
            return _NO_ANSWER
        answer = asked.answer.result()
        if kind != "redeal" and answer not in tc.legal_moves(self.state, seat):
            log.warning("table %s: bot %s answered an illegal move", self.id, self._bots[seat])
            return _NO_ANSWER
        return answer

    def _bot_steps(self) -> list[tuple[float, Callable[[], None]]]:
        """The bots' moves and redeal offers: each when due and ready, or when its
        budget runs out (then the host moves for it as for a seat out of time)."""
        steps: list[tuple[float, Callable[[], None]]] = []
        due = self._last_move_at + self.settings.bot_delay
        budget = self._options.bot_budget
        offers = [(s, a) for (kind, s), a in self._asked.items() if kind == "redeal"]
        for seat, asked in offers:
            answer = self._answer("redeal", seat)
            if answer is True:
                steps.append((due, partial(self._apply, tc.Redeal(seat))))
            elif asked.answer.done():  # declined, or failed
                steps.append((self._time.now(), partial(self._declined, seat)))
            else:
                steps.append((asked.at + budget, partial(self._declined, seat)))
        if offers:  # R-OPT-8: the offers are settled before any bot plays
            return steps
        for (kind, seat), asked in self._asked.items():
            if kind != "move":
                continue
            answer = self._answer("move", seat)
            if isinstance(answer, tc.Move):
                steps.append((due, partial(self._apply, answer)))
            elif asked.answer.done():  # failed, or illegal: as if out of time
                steps.append((due, partial(self._overrun, seat)))
            else:
                steps.append((max(due, asked.at + budget), partial(self._overrun, seat)))
        return steps

    def _declined(self, seat: int) -> None:
        state = self.state
        self._offered.add((len(state.history) - len(state.history.since_deal()), seat))
        self._asked.pop(("redeal", seat), None)
        self._schedule()

    def _overrun(self, seat: int) -> None:
        log.warning("table %s: bot %s did not answer in time", self.id, self._bots[seat])
        self._apply(tc.timeout_move(self.state, seat))

    def _window_answers(self) -> None:
        """Apply the doubling window's answers so far, in seat order, all at once:
        each bot's (doubling nothing if it is not ready, R-DBL-3) and each held one."""
        for seat in range(4):
            state = self.state
            if state.phase is not tc.Phase.DOUBLE or seat not in state.to_act:
                continue
            if seat in self._bots:
                answer = self._answer("double", seat)
                move = answer if isinstance(answer, tc.Double) else tc.Double(seat, frozenset())
                self._apply(move)
            elif seat in self._held:
                self._apply(self._held.pop(seat))

    def _deal(self) -> None:
        self._apply(tc.Deal.shuffled(self._shuffler))  # never sent to anyone (R-HID-3)

    def _forced(self, step: tc.Step) -> tuple[float, Callable[[], None]] | None:
        """The forced move of ``step`` (R-TX-5), when it is due: a bot's as its own
        move would be, a person's after the forced-move delay (the person may play
        it sooner); none while a bot's redeal offer is open (R-OPT-8)."""
        if type(step) is tc.OfferRedeal:
            if any(kind == "redeal" for kind, _ in self._asked):
                return None
            step = step.otherwise
        if type(step) is not tc.Forced:
            return None
        move = step.move
        delay = self.settings.bot_delay if move.seat in self._bots else self.settings.forced_delay
        return self._last_move_at + delay, partial(self._apply, move)

    def _timeout(self) -> None:
        # A Timeout in the two windows (R-MATCH-6, R-DBL-3), else the host policy.
        if self.state.phase is tc.Phase.DOUBLE:  # the answers given in time count
            self._window_answers()
            if self.state.phase is not tc.Phase.DOUBLE:
                return
        self._apply(tc.timeout_move(self.state, min(self.state.to_act)))

    def _host_action(self) -> tuple[float, Callable[[], None]] | None:
        """The host's next action and when it is due (monotonic seconds), if any:
        what :func:`~trixcomplex.next_step` says comes next, on the table's clocks."""
        state, settings = self.state, self.settings
        step = tc.next_step(state)
        if type(step) is tc.MatchOver:
            return None
        if type(step) is tc.DealCards:
            if self._waiting_for_people():
                return None
            pause = settings.deal_pause if state.deal_number else 0.0
            return self._last_move_at + pause, self._deal
        actions = [(self._deadline, self._timeout)]
        if state.phase is tc.Phase.DOUBLE:
            if self._held or any(s in state.to_act for s in self._bots):
                actions.append((self._answers_at(), self._window_answers))
        else:
            actions += self._bot_steps()
        forced = self._forced(step)
        if forced is not None:
            actions.append(forced)
        return min(actions, key=lambda action: action[0])

    def _schedule(self) -> None:
        """Set the one timer of the table to the host's next action (asking the bots
        in the pool what they must answer first)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._ask_bots()
        due = self._host_action()
        if due is None:
            return
        when, action = due
        self._timer = self._time.call_later(when - self._time.now(), partial(self._fire, action))

    def _fire(self, action: Callable[[], None]) -> None:
        self._timer = None
        try:
            action()
        except Exception:  # a bug, not a client's fault: keep serving the other tables
            log.exception("table %s: the host's move failed", self.id)

    def start(self) -> None:
        """Start the table's clocks (after creating or restoring it, inside the event loop)."""
        now = self._time.now()
        self._last_move_at = now
        self._window_opened = now
        self._deadline = now + self.settings.move_time
        self._stopped = False
        self._schedule()

    def stop(self) -> None:
        """Stop the table's timer (the server is shutting down, or the table is archived)."""
        self._stopped = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for asked in self._asked.values():
            asked.answer.cancel()
        self._asked.clear()
