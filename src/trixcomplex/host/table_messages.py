"""What a table tells: each connection's updates, the lobby's summary, the record's metadata.

A connection (a :class:`Viewer`) gets its own seat's :func:`~trixcomplex.view`
and :func:`~trixcomplex.events` after each move, and a message only when one
of them says something new to it, so the timing of the messages tells no
seat what it could not see at a real table (R-HID-2).  Every message is built
from the viewer's view and the table's public facts only.
"""

from __future__ import annotations

from typing import Any, Protocol

import trixcomplex as tc

from ..io.render import position
from .clock import Clock
from .table_seats import Refused, Seat, Settings

__all__ = ["TableMessages", "Viewer", "finished_deal"]


class Viewer(Protocol):
    """A connection as the table sees it: whose view it gets, and how to send."""

    seat: int | None
    pictures: bool
    locale: str
    """The language of the ``illegal`` reasons (a :data:`~trixcomplex.core.catalog.LOCALES`
    code, from the hello's ``locale``)."""
    last_view: tc.View | None

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message``; never blocks."""


def finished_deal(state: tc.MatchState) -> dict[str, Any] | None:
    """The match's last finished deal as the table saw it played, or ``None`` before
    the first one ends: the ``last_deal`` field of an update.

    Everything in it was public when it happened (cards played face up, the
    doubles revealed when the window closed, the passes, the ledger of the
    scoresheet), so every viewer gets the same (R-HID-2).  A page shows the
    deal's last trick and its summary from it after the deal is over, when the
    view has already moved on.  Rebuilt by replaying the match's moves
    (:func:`trixcomplex.apply`, :func:`trixcomplex.events`): nothing is decided here.
    A state whose history does not hold its deals (a world sampled for a bot,
    :func:`trixcomplex.sample_world`) has none to show: ``None``.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(4)))
    >>> finished_deal(state) is None
    True
    >>> state = tc.playout(state, random.Random(4), until="deal")
    >>> deal = finished_deal(state)
    >>> deal["deal_number"], len(deal["tricks"]) + len(deal["laid"]) > 0
    (1, True)
    >>> sum(line["points"] for line in deal["ledger"]) == sum(deal["points"])
    True
    """
    done = len(state.results)
    if not done:
        return None
    before = tc.new_match(state.ruleset)
    try:
        for move in state.history:
            after = tc.apply(before, move)
            if len(after.results) == done:
                break
            before = after
        else:
            return None  # a history without the deals (a sampled world's): nothing to show
    except tc.TrixError:
        return None
    if after.results[-1] != state.results[done - 1]:
        return None
    seen = tc.view(before, None)
    events = tc.events(before, move, after, None)
    tricks = [tc.to_json(trick) for trick in seen.tricks]
    laid = [[seat, str(card)] for seat, card in seen.laid]
    passes = [[seat, index] for seat, index in seen.passes]
    for event in events:
        if event["type"] == "trick":
            tricks.append({k: event[k] for k in ("leader", "cards", "taker")})
        elif event["type"] == "play" and seen.phase is tc.Phase.TRIX:
            laid.append([event["seat"], event["card"]])
        elif event["type"] == "pass":
            passes.append([event["seat"], len(laid)])
    result = after.results[-1]
    return {
        "deal_number": result.number,
        "contract": result.contract.value,
        "owner": result.owner,
        "points": list(result.points),
        "tricks": tricks,
        "doubled": [[str(d.card), d.doubler] for d in result.doubled],
        "laid": laid,
        "passes": passes,
        "finishing_order": list(result.finishing_order),
        "ledger": [tc.to_json(line) for line in tc.ledger(after) if line.deal == result.number],
    }


class TableMessages:
    """The messages of a :class:`~trixcomplex.server.table.Table` (a part of it):
    what it sends its viewers, what the lobby lists, the record it serves."""

    # The fields of the table this part reads and sets (Table.__init__ sets them all).
    id: str
    created: str
    settings: Settings
    seats: list[Seat]
    state: tc.MatchState
    _viewers: list[Viewer]
    _scoresheet: str
    _deadline: float
    _time: Clock
    _finished: tuple[int, dict[str, Any] | None] = (0, None)  # finished_deal, by deals done
    _elsewhere: frozenset[int] = frozenset()  # seats connected through other processes too

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
            "deals": self.state.ruleset.deals_per_match,
            "contract": None if self.state.contract is None else self.state.contract.value,
            "finished": self.state.is_over,
            "archived": False,
        }

    def public_seats(self) -> list[dict[str, Any]]:
        """The seats as every client may see them."""
        connected = {v.seat for v in self._viewers} | self._elsewhere
        return [seat.public(s in connected) for s, seat in enumerate(self.seats)]

    def _tell_seats(self) -> None:
        message = {"type": "seats", "seats": self.public_seats()}
        for viewer in self._viewers:
            viewer.send(message)

    def _broadcast(self, before: tc.MatchState, move: tc.Move, after: tc.MatchState) -> None:
        cache: dict[tuple[int | None, bool, str], tuple[tc.View, dict[str, Any]]] = {}
        for viewer in list(self._viewers):
            key = (viewer.seat, viewer.pictures, viewer.locale)
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
            "places": [position(seat, viewer.seat) for seat in range(4)],
        }
        if self.state.results and not (seen.trick or seen.tricks or seen.laid or seen.passes):
            # Nothing of this deal is on the table yet: the last deal's tricks stay reviewable.
            message["last_deal"] = self.last_deal()
        if viewer.seat is not None and seen.hand:
            message["illegal"] = self.illegal_cards(viewer.seat, seen, viewer.locale)
        if viewer.pictures:
            message["svg"] = tc.picture(seen).svg
        if self.state.is_over:
            message["record"] = self.record_url()
        return message

    def record_url(self) -> str:
        """Where the finished match's record is fetched (the ``record`` field of an update)."""
        return f"/api/tables/{self.id}/record"

    def last_deal(self) -> dict[str, Any] | None:
        """:func:`finished_deal` of the table's match, replayed once per finished deal."""
        done = len(self.state.results)
        if self._finished[0] != done:
            self._finished = (done, finished_deal(self.state))
        return self._finished[1]

    def illegal_cards(self, seat: int, seen: tc.View, locale: str = "en") -> dict[str, str]:
        """Why each card of ``seat``'s hand may not be played now (the ``illegal`` field),
        by :func:`~trixcomplex.why_illegal` in ``locale``: a function of what the seat sees
        only.  The cards it may play are left out."""
        reasons = {}
        for card in seen.hand:
            reason = tc.why_illegal(self.state, seat, tc.Play(seat, card), locale=locale)
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
