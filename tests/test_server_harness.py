"""The server tests' play loop (:func:`server_harness.play_people`) judges refusals right.

A server answers a client's messages in order, but a client may have two moves in
flight: it sends a second after an update that came before the server handled its
first (a forced move the host auto-played, a bot's redeal out of turn, R-TX-5,
R-OPT-8), and the first is then refused after that update.  The loop must accept
that refusal (the move was overtaken), and still fail on a refusal of a move no
update overtook.  Scripted seats stand in for the server here: no timing involved.
"""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

from server_harness import MARK, Client, play_people


def _update(legal: list[str], phase: str = "COMPLEX") -> dict[str, Any]:
    moves = [{"move": "play", "seat": 0, "card": card} for card in legal]
    view = {"phase": phase, "legal_moves": moves, "forced_move": moves[0] if moves else None}
    return {"type": "update", "view": view, "events": []}


def _refused(code: str, message: str) -> dict[str, Any]:
    error = {"code": code, "message": message, "rule": None, "index": None}
    return {"type": "refused", "error": error}


class _Seat:
    """Seat 0 of a scripted server whose outbox the client reads as :class:`Client` would."""

    def __init__(self) -> None:
        self.outbox: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = _update(["QH"])["view"]
        self.moves = 0
        self.inbox: list[dict[str, Any]] = []

    def poll(self, timeout: float = 0.0) -> dict[str, Any] | None:
        if not self.outbox:
            return None
        message = self.outbox.pop(0)
        if message["type"] == "update":
            self.view = message["view"]
        return message

    def send(self, message: dict[str, Any]) -> None:
        self.inbox.append(message)

    def answer(self, message: dict[str, Any]) -> dict[str, Any]:
        if message == MARK:
            return _refused("server.bad-request", "unknown message type 'mark'")
        raise NotImplementedError


class _Overtaken(_Seat):
    """Seat 0's only card, QH, is auto-played by the host (it takes the trick and leads)
    before the server reads the client's QH; the server reads it only once the client,
    told of the auto-play, has sent its next move (a loaded machine's timing)."""

    def send(self, message: dict[str, Any]) -> None:
        super().send(message)
        if message != MARK:
            self.moves += 1
            if self.moves == 1:  # the auto-played QH's update overtakes the client's QH
                self.outbox.append(_update(["AS"]))
                return
        if self.moves >= 2:  # the server reads everything sent so far, in order
            for received in self.inbox:
                self.outbox.append(self.answer(received))
            self.inbox.clear()

    def answer(self, message: dict[str, Any]) -> dict[str, Any]:
        if message.get("card") == "QH":
            return _refused("illegal-move", "seat 0 plays QH: seat 0 does not hold QH")
        if message.get("card") == "AS":
            return _update([], "OVER")
        return super().answer(message)


class _NotOvertaken(_Seat):
    """The server refuses the client's QH although nothing changed since it was sent."""

    def send(self, message: dict[str, Any]) -> None:
        if message == MARK:
            self.outbox.append(self.answer(message))
        else:
            self.outbox.append(_refused("illegal-move", "seat 0 plays QH: a bug"))


def test_a_move_overtaken_by_an_update_may_be_refused_after_the_next_move_is_sent() -> None:
    """R-TX-5: the client's QH, overtaken by the host's auto-play of it, is refused
    after the client sent its next move (AS): accepted, and the match ends."""
    seat = _Overtaken()
    sent = play_people(cast(list[Client], [seat]), random.Random(1), timeout=5)
    assert [m["card"] for m in sent] == ["QH", "AS"]
    assert seat.view is not None and seat.view["phase"] == "OVER"
    assert not seat.outbox and not seat.inbox  # every mark's answer was read


def test_a_refusal_no_update_explains_still_fails() -> None:
    """A move refused while the client had no update since sending it is a server bug."""
    with pytest.raises(AssertionError, match="a bug"):
        play_people(cast(list[Client], [_NotOvertaken()]), random.Random(1), timeout=5)
