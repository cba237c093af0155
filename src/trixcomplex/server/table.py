"""A table: one match, its four seats, the connections watching it and its clocks.

Everything here runs on the server's event loop, one message or timer at a
time, so a table needs no lock: each step reads ``self.state``, computes the
next state with the library, stores it, and only then makes it the table's
state and tells the connections.  A step that fails (a refused move, a
database error) leaves the table exactly as it was.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import random
import secrets
import time
from collections.abc import Callable
from functools import partial
from typing import Any, Literal, Protocol

from attrs import evolve, frozen

import trixcomplex as tc
from trixcomplex.bots import BOT_NAMES, Bot, ask, bot_named, offer_redeal

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
    "server.too-many-tables": "Opening a table when the server hosts its maximum.",
    "server.not-finished": "Asking for the record of a match still being played (R-HID-3).",
    "server.internal": "The server failed (a bug); the table is unchanged.",
}
"""The server's own refusal codes (the library's are :data:`trixcomplex.errors.ERROR_CODES`)."""


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


def _now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


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
    ) -> None:
        self.id = table_id
        self.created = created
        self.settings = settings
        self.seats = seats
        self.state = state
        self._store = store
        self._viewers: list[Viewer] = []
        self._bots = {
            s: bot_named(seat.name or "") for s, seat in enumerate(seats) if seat.kind == "bot"
        }
        self._rng = random.Random(secrets.randbits(64))
        self._shuffler = secrets.SystemRandom()
        self._offered: set[tuple[int, int]] = set()
        self._timer: asyncio.TimerHandle | None = None
        now = time.monotonic()
        self._last_move_at = now
        self._deadline = now + settings.move_time
        self._scoresheet = tc.format_scoresheet(state)

    # -- creating, storing, restoring ---------------------------------------------

    @classmethod
    def create(cls, table_id: str, settings: Settings, seats: list[Seat], store: Store) -> Table:
        """A new table, stored before it is returned."""
        if len(seats) != 4:
            raise Refused("a table has exactly four seats", "bad-seat")
        ruleset = tc.Ruleset.from_name(settings.ruleset)
        table = cls(table_id, _now_iso(), settings, seats, tc.new_match(ruleset), store)
        store.save(table._row(table.state, table.seats))
        return table

    @classmethod
    def restore(cls, row: TableRow, store: Store) -> Table:
        """The table of a stored row: its state replayed from its record; clocks restart."""
        state = tc.replay(tc.Record.from_json(row.record))
        seats = [Seat(s["kind"], s["name"], s["token_sha256"]) for s in row.seats]
        return cls(row.id, row.created, Settings.from_json(row.settings), seats, state, store)

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

    def detach(self, viewer: Viewer) -> None:
        """Stop sending to ``viewer``."""
        if viewer in self._viewers:
            self._viewers.remove(viewer)
            if viewer.seat is not None:
                self._tell_seats()

    def _tell_seats(self) -> None:
        message = {"type": "seats", "seats": self.public_seats()}
        for viewer in self._viewers:
            viewer.send(message)

    # -- moves ----------------------------------------------------------------------

    def submit(self, seat: int | None, text: str) -> None:
        """A client's move, checked by the library for the connection's seat."""
        before = self.state
        after = tc.submit(before, seat, text)
        move = after.history.last
        assert move is not None
        self._commit(before, move, after)

    def _apply(self, move: tc.Move) -> None:
        before = self.state
        self._commit(before, move, tc.apply(before, move))

    def _commit(self, before: tc.MatchState, move: tc.Move, after: tc.MatchState) -> None:
        self._store.save(self._row(after, self.seats))
        self.state = after
        now = time.monotonic()
        self._last_move_at = now
        if not (before.phase is tc.Phase.DOUBLE and after.phase is tc.Phase.DOUBLE):
            self._deadline = now + self.settings.move_time  # the window keeps its clock
        if after.phase in (tc.Phase.DEAL, tc.Phase.OVER):
            self._scoresheet = tc.format_scoresheet(after)
        self._broadcast(before, move, after)
        self._schedule()

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
        the match's public history), so worlds the viewer cannot tell apart give
        it the same message.
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
        if viewer.pictures:
            message["svg"] = tc.picture(seen).svg
        if self.state.is_over:
            message["record"] = f"/api/tables/{self.id}/record"
        return message

    def _clock(self) -> dict[str, Any]:
        playing = self.state.phase not in (tc.Phase.DEAL, tc.Phase.OVER)
        left = max(0.0, self._deadline - time.monotonic()) if playing else None
        return {
            "move_time": self.settings.move_time,
            "seconds_left": None if left is None else round(left, 1),
        }

    # -- the host's own moves: deals, bots, forced moves, timeouts --------------------

    def _waiting_for_people(self) -> bool:
        return any(s.kind == "person" and s.token_sha256 is None for s in self.seats)

    def _bot_to_move(self) -> Callable[[], None] | None:
        state = self.state
        for s, bot in self._bots.items():
            if s in state.to_act:
                return partial(self._bot_move, s, bot)
            # R-OPT-8: a bot may demand a redeal out of turn; ask it once per shuffle.
            key = (len(state.history) - len(state.history.since_deal()), s)
            if key not in self._offered and tc.Redeal(s) in tc.legal_moves(state, s):
                return partial(self._offer_redeal, s, bot, key)
        return None

    def _bot_move(self, seat: int, bot: Bot) -> None:
        self._apply(ask(bot, self.state, seat, self._rng))

    def _offer_redeal(self, seat: int, bot: Bot, key: tuple[int, int]) -> None:
        self._offered.add(key)
        if offer_redeal(bot, self.state, seat, self._rng):
            self._apply(tc.Redeal(seat))
        else:
            self._schedule()

    def _deal(self) -> None:
        self._apply(tc.Deal.shuffled(self._shuffler))  # never sent to anyone (R-HID-3)

    def _forced(self) -> tc.Move | None:
        for s in sorted(self.state.to_act):
            if s not in self._bots:
                move = tc.forced_move(self.state, s)
                if move is not None:
                    return move
        return None

    def _timeout(self) -> None:
        # A Timeout in the two windows (R-MATCH-6, R-DBL-3), else the host policy.
        self._apply(tc.timeout_move(self.state, min(self.state.to_act)))

    def _next_step(self) -> tuple[float, Callable[[], None]] | None:
        """The host's next action and when it is due (monotonic seconds), if any."""
        state, settings = self.state, self.settings
        if state.is_over:
            return None
        if state.phase is tc.Phase.DEAL:
            if self._waiting_for_people():
                return None
            pause = settings.deal_pause if state.deal_number else 0.0
            return self._last_move_at + pause, self._deal
        steps = [(self._deadline, self._timeout)]
        bot = self._bot_to_move()
        if bot is not None:
            steps.append((self._last_move_at + settings.bot_delay, bot))
        forced = self._forced()
        if forced is not None:
            steps.append((self._last_move_at + settings.forced_delay, lambda: self._apply(forced)))
        return min(steps, key=lambda step: step[0])

    def _schedule(self) -> None:
        """Set the one timer of the table to the host's next action."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        step = self._next_step()
        if step is None:
            return
        when, action = step
        self._timer = asyncio.get_running_loop().call_later(
            max(0.0, when - time.monotonic()), self._fire, action
        )

    def _fire(self, action: Callable[[], None]) -> None:
        self._timer = None
        try:
            action()
        except Exception:  # a bug, not a client's fault: keep serving the other tables
            log.exception("table %s: the host's move failed", self.id)

    def start(self) -> None:
        """Start the table's clocks (after creating or restoring it, inside the event loop)."""
        now = time.monotonic()
        self._last_move_at = now
        self._deadline = now + self.settings.move_time
        self._schedule()

    def stop(self) -> None:
        """Stop the table's timer (the server is shutting down)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
