"""A table with no server: the lobby and tables a page plays in its own Web Worker.

The page speaks to this module exactly as to ``trixcomplex serve``: the lobby's
HTTP requests (:meth:`LocalLobby.request`) and one connection per seat or
spectator carrying the same JSON messages (:meth:`LocalLobby.open`,
:meth:`LocalLobby.receive`, :meth:`LocalLobby.close`).  The messages are built
by the server's own code (:class:`~trixcomplex.host.table_messages.TableMessages`)
and the table's own moves come from :func:`~trixcomplex.next_step`, on timers of
the page's event loop; the bots answer from their seat's view
(:mod:`~trixcomplex.host.bot_answers`).  No rule is decided here.

Nothing is hidden from whoever runs this: the whole state (every hand, every
deck) is in their own browser.  It is for practice and learning, not for
ranked games.

>>> from trixcomplex.host.clock import ManualClock
>>> sent = []
>>> lobby = LocalLobby(lambda conn, text: sent.append((conn, json.loads(text))), ManualClock())
>>> seats = '{"seats": ["person", "rule", "rule", "rule"]}'
>>> reply = json.loads(lobby.request("POST", "/api/tables", seats))
>>> reply["status"], reply["body"]["seats"][1]
(201, {'kind': 'bot', 'name': 'rule', 'taken': True, 'connected': False})
>>> lobby.open(1, reply["body"]["id"])
>>> lobby.receive(1, '{"type": "join", "seat": 0, "name": "Ann", "pictures": false}')
>>> [message["type"] for _, message in sent]
['welcome', 'update', 'seats']
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import sys
import time
import urllib.parse
from collections.abc import Callable
from functools import partial
from typing import Any
from urllib.parse import parse_qs

import trixcomplex as tc
from trixcomplex.core.catalog import DEFAULT_LOCALE
from trixcomplex.host.bot_answers import decide, wants_redeal
from trixcomplex.host.clock import Clock, Timer
from trixcomplex.host.page_messages import page_messages, request_locale
from trixcomplex.host.refusals import refusal_json
from trixcomplex.host.scorebook import answer as scorebook_answer
from trixcomplex.host.table_messages import TableMessages
from trixcomplex.host.table_seats import (
    Refused,
    Seat,
    Settings,
    join_seat,
    read_create,
    read_hello,
    read_message,
    seat_of_token,
    welcome,
)

__all__ = ["LocalLobby", "LocalTable", "PageClock"]

log = logging.getLogger("trixcomplex.web")

Send = Callable[[int, str], None]
"""How the lobby sends a connection a message: ``send(connection, json_text)``."""


class _PageTimer:
    """A JavaScript ``setTimeout`` that :meth:`cancel` clears (so a cancelled timer keeps
    nothing alive: node exits once the tables are stopped)."""

    def __init__(self, delay: float, callback: Callable[[], None]) -> None:
        from js import setTimeout  # type: ignore[import-not-found]  # Pyodide's own modules
        from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

        self._pending = True

        def fire() -> None:
            self._pending = False
            callback()

        self._proxy = create_once_callable(fire)
        self._handle = setTimeout(self._proxy, max(0.0, delay) * 1000)

    def cancel(self) -> None:
        if self._pending:
            from js import clearTimeout

            self._pending = False
            clearTimeout(self._handle)
            self._proxy.destroy()


class PageClock:
    """The page's clock: ``time.monotonic``, ``time.time`` and JavaScript's timers under
    Pyodide (elsewhere, the running asyncio event loop's)."""

    def now(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        if sys.platform == "emscripten":
            return _PageTimer(delay, callback)
        return asyncio.get_event_loop().call_later(max(0.0, delay), callback)

    def call_soon_threadsafe(self, callback: Callable[[], None]) -> None:
        asyncio.get_event_loop().call_soon(callback)


class _Connection:
    """A page's connection to a table (a :class:`~trixcomplex.host.table_messages.Viewer`)."""

    def __init__(self, number: int, send: Send) -> None:
        self.number = number
        self.seat: int | None = None
        self.pictures = False
        self.locale = DEFAULT_LOCALE  # the hello's language: the reasons a card is refused
        self.last_view: tc.View | None = None
        self.attached = False
        self.table: LocalTable | None = None
        self._send = send

    def send(self, message: dict[str, Any]) -> None:
        self._send(self.number, json.dumps(message))

    def refuse(self, error: tc.TrixError) -> None:
        """Tell the page its message was refused, in the connection's language (as the
        server's connections: :func:`~trixcomplex.host.refusals.refusal_json`)."""
        self.send({"type": "refused", "error": refusal_json(error, self.locale)})


class LocalTable(TableMessages):
    """One match with its four seats, its viewers and its host, on the page's clock."""

    def __init__(
        self, table_id: str, settings: Settings, seats: list[Seat], clock: Clock, seed: int
    ) -> None:
        self.id = table_id
        self.created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(clock.wall()))
        self.settings = settings
        self.seats = seats
        self.state = tc.new_match(tc.Ruleset.from_name(settings.ruleset))
        self._viewers = []
        self._time = clock
        self._scoresheet = tc.format_scoresheet(self.state)
        self._bots = {s: seat.name or "" for s, seat in enumerate(seats) if seat.kind == "bot"}
        self._rng = random.Random(seed)
        self._offered: set[tuple[int, int]] = set()
        self._timer: Timer | None = None
        self._last_move_at = clock.now()
        self._deadline = self._last_move_at + settings.move_time

    def meta(self, state: tc.MatchState, seats: list[Seat]) -> dict[str, Any]:
        meta = super().meta(state, seats)
        meta["site"] = "trixcomplex web (in the browser)"
        return meta

    def record_url(self) -> str:
        """The finished match's record as a ``data:`` URL: there is no server to ask."""
        text = json.dumps(self.record(), separators=(",", ":"))
        return "data:application/json;charset=utf-8," + urllib.parse.quote(text)

    # -- seats and viewers (as the server's table) ------------------------------------

    def join(self, seat: object, name: object) -> str:
        """Take a free person seat (as the server's table:
        :func:`~trixcomplex.host.table_seats.join_seat`); returns its token."""
        self.seats, token = join_seat(self.seats, seat, name)
        self._tell_seats()
        self._schedule()
        return token

    def seat_of(self, token: object) -> int:
        """The seat whose token this is; :class:`Refused` for anything else."""
        return seat_of_token(self.seats, token)

    def check_free(self, seat: int | None) -> None:
        """:class:`Refused` if ``seat`` already has a connection (another tab)."""
        if seat is not None and any(v.seat == seat for v in self._viewers):
            raise Refused(f"seat {seat} is already connected from somewhere else", "seat-connected")

    def attach(self, viewer: _Connection) -> None:
        """Start sending ``viewer`` its updates (a seat has at most one connection)."""
        self.check_free(viewer.seat)
        self._viewers.append(viewer)
        viewer.last_view = tc.view(self.state, viewer.seat)
        viewer.send(self.update_message(viewer, viewer.last_view, []))
        if viewer.seat is not None:
            self._tell_seats()

    def detach(self, viewer: _Connection) -> None:
        if viewer in self._viewers:
            self._viewers.remove(viewer)
            if viewer.seat is not None:
                self._tell_seats()

    # -- moves ------------------------------------------------------------------------

    def submit(self, seat: int | None, data: object) -> None:
        """A connection's move, checked by the library for its seat."""
        before = self.state
        after = tc.submit(before, seat, data)
        move = after.history.last
        assert move is not None
        self._commit(before, move, after)

    def _apply(self, move: tc.Move) -> None:
        self._commit(self.state, move, tc.apply(self.state, move))

    def _commit(self, before: tc.MatchState, move: tc.Move, after: tc.MatchState) -> None:
        self.state = after
        now = self._time.now()
        self._last_move_at = now
        if not (before.phase is tc.Phase.DOUBLE and after.phase is tc.Phase.DOUBLE):
            self._deadline = now + self.settings.move_time  # the window keeps its clock
        if after.phase in (tc.Phase.DEAL, tc.Phase.OVER):
            self._scoresheet = tc.format_scoresheet(after)
        self._broadcast(before, move, after)
        self._schedule()

    # -- the host: what next_step says comes next, on the page's timers ----------------

    def _host_action(self) -> tuple[float, Callable[[], None]] | None:
        state, settings, last = self.state, self.settings, self._last_move_at
        step = tc.next_step(state)
        if type(step) is tc.MatchOver:
            return None
        if type(step) is tc.DealCards:
            if any(s.kind == "person" and s.token_sha256 is None for s in self.seats):
                return None  # the deal waits for every person
            pause = settings.deal_pause if state.deal_number else 0.0
            return last + pause, partial(self._apply, tc.Deal.shuffled(self._rng))
        if type(step) is tc.OfferRedeal:  # R-OPT-8: a bot may demand a redeal, once a shuffle
            shuffle = len(state.history) - len(state.history.since_deal())
            if step.seat in self._bots and (shuffle, step.seat) not in self._offered:
                return last + settings.bot_delay, partial(self._offer, step.seat, shuffle)
            step = step.otherwise
        if type(step) is tc.Forced:  # R-TX-5: the host plays a forced move
            move = step.move
            delay = settings.bot_delay if move.seat in self._bots else settings.forced_delay
            return last + delay, partial(self._apply, move)
        actions: list[tuple[float, Callable[[], None]]] = [(self._deadline, self._timeout)]
        if type(step) is tc.Ask:
            bots = [seat for seat in step.seats if seat in self._bots]
            if bots:
                actions.append((last + settings.bot_delay, partial(self._bot_move, bots[0])))
        return min(actions, key=lambda action: action[0])

    def _offer(self, seat: int, shuffle: int) -> None:
        self._offered.add((shuffle, seat))
        seen = tc.view(self.state, seat)
        if wants_redeal(self._bots[seat], seen, self._rng.randrange(2**63)):
            self._apply(tc.Redeal(seat))
        else:
            self._schedule()

    def _bot_move(self, seat: int) -> None:
        seen = tc.view(self.state, seat)  # the seat's view only, never the state
        move: tc.Move = decide(self._bots[seat], seen, self._rng.randrange(2**63))
        if move not in tc.legal_moves(self.state, seat):
            log.warning("table %s: bot %s answered an illegal move", self.id, self._bots[seat])
            move = tc.timeout_move(self.state, seat)
        self._apply(move)

    def _timeout(self) -> None:
        seats = sorted(self.state.to_act, key=lambda seat: seat in self._bots)
        self._apply(tc.timeout_move(self.state, seats[0]))

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        due = self._host_action()
        if due is not None:
            when, action = due
            self._timer = self._time.call_later(
                when - self._time.now(), partial(self._fire, action)
            )

    def _fire(self, action: Callable[[], None]) -> None:
        self._timer = None
        try:
            action()
        except Exception:  # a bug: say so in the console, keep the table as it was
            log.exception("table %s: the host's move failed", self.id)

    def stop(self) -> None:
        """Stop the table's timer."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class LocalLobby:
    """The tables of one page, answering the server's HTTP routes and WebSocket messages.

    ``send(connection, text)`` delivers a message to one of the page's connections
    (in the Web Worker: ``postMessage``); every message is one of the server's.
    """

    def __init__(self, send: Send, clock: Clock | None = None, seed: int | None = None) -> None:
        self._send = send
        self._clock: Clock = clock or PageClock()
        self._rng = random.Random(secrets.randbits(64) if seed is None else seed)
        self.tables: dict[str, LocalTable] = {}
        self._connections: dict[int, _Connection] = {}

    # -- the HTTP routes ----------------------------------------------------------------

    def request(self, method: str, path: str, body: str | None = None) -> str:
        """The answer to one of the server's HTTP requests, as JSON text:
        ``{"status": ..., "body": ...}``."""
        try:
            status, answer = self._route(method, path, body)
        except tc.TrixError as exc:  # in the language the page asks in (?locale=)
            locale = request_locale(parse_qs(path.partition("?")[2]).get("locale", [""])[0])
            status, answer = (
                (404 if exc.code == "server.unknown-table" else 400),
                {"error": refusal_json(exc, locale)},
            )
        return json.dumps({"status": status, "body": answer})

    def _route(self, method: str, path: str, body: str | None) -> tuple[int, Any]:
        parts = path.split("?")[0].strip("/").split("/")
        if parts == ["api", "messages"] and method == "GET":  # as the server's route
            asked = parse_qs(path.partition("?")[2]).get("locale", [""])[0]
            return 200, page_messages(request_locale(asked))
        if parts == ["api", "scorebook"] and method == "POST":  # the score keeper's
            return scorebook_answer(body or "")
        if parts[:2] != ["api", "tables"] or len(parts) > 4:
            raise Refused(f"no route {method} {path[:80]}", "bad-request")
        if len(parts) == 2 and method == "GET":
            return 200, {"tables": [table.summary() for table in self.tables.values()]}
        if len(parts) == 2 and method == "POST":
            return 201, self.open_table(body).summary()
        table = self.table(parts[2])
        if len(parts) == 3 and method == "GET":
            return 200, table.summary()
        if len(parts) == 4 and parts[3] == "record" and method == "GET":
            if not table.state.is_over:
                return 409, {"error": Refused("the match is not over", "not-finished").to_json()}
            return 200, table.record()
        raise Refused(f"no route {method} {path[:80]}", "bad-request")

    def open_table(self, body: str | None) -> LocalTable:
        """A new table from a create request's JSON text (as ``POST /api/tables``)."""
        try:
            request = json.loads(body or "")
        except (ValueError, RecursionError):
            raise Refused("the request is not a JSON object", "bad-request") from None
        settings, seats = read_create(request)  # as the server's lobby reads it
        table_id = f"{self._rng.randrange(16**8):08x}"
        table = LocalTable(table_id, settings, seats, self._clock, self._rng.randrange(2**63))
        self.tables[table_id] = table
        table._schedule()
        return table

    def table(self, table_id: str) -> LocalTable:
        """The table ``table_id``; :class:`Refused` if there is none."""
        try:
            return self.tables[table_id]
        except KeyError:
            raise Refused(f"no table {table_id[:40]!r}", "unknown-table") from None

    # -- the connections ----------------------------------------------------------------

    def open(self, number: int, table_id: str, locale: str = "") -> None:
        """Open connection ``number`` to table ``table_id`` (a WebSocket to
        ``/ws/ID?locale=...``: its refusals in that language until a hello says one)."""
        conn = _Connection(number, self._send)
        conn.locale = request_locale(locale)
        self._connections[number] = conn
        try:
            conn.table = self.table(table_id)
        except Refused as exc:
            conn.refuse(exc)
            conn.send({"type": "bye"})

    def receive(self, number: int, text: str) -> None:
        """One message of connection ``number``: a hello, or a move for its seat."""
        conn = self._connections.get(number)
        if conn is None or conn.table is None:
            return
        try:
            self._handle(conn, conn.table, text)
        except tc.TrixError as exc:
            conn.refuse(exc)
        except Exception:  # a bug: say so, keep the table as it was
            log.exception("table %s: a message failed", conn.table.id)
            conn.refuse(Refused("the table failed; nothing was changed", "internal"))

    def stop(self) -> None:
        """Stop every table's timer (the page, or node, is done with them)."""
        for table in self.tables.values():
            table.stop()

    def close(self, number: int) -> None:
        """Connection ``number`` closed."""
        conn = self._connections.pop(number, None)
        if conn is not None and conn.table is not None:
            conn.table.detach(conn)

    def _handle(self, conn: _Connection, table: LocalTable, text: str) -> None:
        message, readable = read_message(text)  # the one parse of the message
        if isinstance(message, dict) and "type" in message:
            self._hello(conn, table, message)
        elif not conn.attached:
            raise Refused("send join, resume or watch first", "hello-first")
        else:
            table.submit(conn.seat, message if readable else text)

    def _hello(self, conn: _Connection, table: LocalTable, message: dict[str, Any]) -> None:
        kind, pictures, locale = read_hello(message, conn.attached)
        conn.locale = locale  # a refusal of this hello is in its language too
        seat, token = None, None
        if kind == "join":
            token = table.join(message.get("seat"), message.get("name"))
            seat = message.get("seat")
        elif kind == "resume":
            seat = table.seat_of(message.get("token"))
            table.check_free(seat)
        conn.seat, conn.pictures, conn.locale = seat, pictures, locale
        conn.send(welcome(table.id, table.settings, seat, token))
        table.attach(conn)
        conn.attached = True
