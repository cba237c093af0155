"""What a table is opened with: its settings and its four seats, and the server's refusals.

A request to open a table names its ruleset, its clocks and who sits where;
:meth:`Settings.from_json` and :meth:`Seat.parse` read them and refuse a bad
value with :class:`Refused`, whose codes (:data:`SERVER_ERROR_CODES`) are the
server's own.  A person's seat keeps only the SHA-256 of its secret token
(:func:`token_hash`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import Any, Literal

from attrs import evolve, frozen

import trixcomplex as tc
from trixcomplex.bots import BOT_NAMES
from trixcomplex.core.catalog import DEFAULT_LOCALE, LOCALES

from .submit import MAX_SUBMIT_LENGTH, read_input

__all__ = [
    "CREATE_KEYS",
    "HELLO_KEYS",
    "MAX_MESSAGE",
    "SERVER_ERROR_CODES",
    "Refused",
    "Seat",
    "Settings",
    "join_seat",
    "read_create",
    "read_hello",
    "read_message",
    "seat_of_token",
    "token_hash",
    "welcome",
]

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
    "server.rate-limited": "Opening more tables, or joining more seats, from one address "
    "than the server allows.",
    "server.too-many-watchers": "Watching from one address on more connections than the "
    "server allows.",
    "server.bad-content-type": "A request body that is not sent as application/json.",
    "server.bad-origin": "A request or WebSocket from a web page of an origin not allowed.",
    "server.answered": "A second answer to the doubling window while the first is held.",
    "server.not-finished": "Asking for the record of a match still being played (R-HID-3).",
    "server.internal": "The server failed (a bug); the table is unchanged.",
    "server.unavailable": "The server cannot store now (its disk is full or failing): "
    "nothing was changed, nor acknowledged; try again.",
    "server.damaged": "A table whose stored row cannot be read: set aside, the others serve.",
    "server.elsewhere": "A table another server process drives (several processes on one "
    "database): 404 before any WebSocket opens; a load balancer tries the next process.",
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
    trixcomplex.host.table_seats.Refused: move_time must be a number from 1.0 to 3600.0 seconds
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


def token_hash(token: str) -> str:
    """The SHA-256 (hex) a seat's token is stored as: the token itself is never kept.

    >>> len(token_hash("secret")), token_hash("secret") == token_hash("secret")
    (64, True)
    """
    return hashlib.sha256(token.encode()).hexdigest()


HELLO_KEYS = {
    "join": frozenset({"type", "seat", "name", "pictures", "locale"}),
    "resume": frozenset({"type", "token", "pictures", "locale"}),
    "watch": frozenset({"type", "pictures", "locale"}),
}
"""The keys each hello (the first message of a connection) may have."""


MAX_MESSAGE = 4096
"""The longest message (characters) a client may send a table; longer ones are refused
unread, by the server and by the browser's worker alike."""


def read_message(text: str) -> tuple[object, bool]:
    """One message a client sent a table, parsed once by the library's strict reader:
    its value (``None`` if it is no JSON the reader takes) and whether that value may be
    submitted as it is (else the text itself is, for the library to refuse for its own
    reason); :class:`Refused` (``server.too-long``) for a message over
    :data:`MAX_MESSAGE`.  The server's connections and the browser's worker both read
    their messages here.

    >>> read_message('{"type": "watch"}')
    ({'type': 'watch'}, True)
    >>> read_message("not json")
    (None, False)
    """
    if len(text) > MAX_MESSAGE:
        raise Refused(f"a message is at most {MAX_MESSAGE} characters", "too-long")
    try:
        return read_input(text, max_length=MAX_MESSAGE), len(text) <= MAX_SUBMIT_LENGTH
    except tc.TrixError:
        return None, False


def read_hello(message: dict[str, Any], attached: bool) -> tuple[str, bool, str]:
    """A hello's kind, whether it asks for pictures and its language, checked; the one
    reading the server's connections and the browser's worker both use.

    >>> read_hello({"type": "watch"}, attached=False)
    ('watch', True, 'en')
    >>> read_hello({"type": "watch", "locale": "fr"}, attached=False)
    Traceback (most recent call last):
    ...
    trixcomplex.host.table_seats.Refused: locale is one of en, ar
    """
    kind = message.get("type")
    if kind not in HELLO_KEYS:
        raise Refused(f"unknown message type {str(kind)[:40]!r}", "bad-request")
    if attached:
        raise Refused("this connection already joined; open another one", "already-joined")
    unknown = sorted(k for k in message if k not in HELLO_KEYS[kind])
    if unknown:
        raise Refused(f"unknown key {unknown[0][:40]!r} in a {kind} message", "bad-request")
    pictures = message.get("pictures", True)
    if type(pictures) is not bool:
        raise Refused("pictures is true or false", "bad-request")
    locale = message.get("locale", DEFAULT_LOCALE)
    if locale not in LOCALES:
        raise Refused(f"locale is one of {', '.join(LOCALES)}", "bad-request")
    return kind, pictures, locale


CREATE_KEYS = frozenset({"seats", *Settings().to_json()})
"""The keys a request to open a table may have: ``seats`` and the settings."""


def read_create(request: object) -> tuple[Settings, list[Seat]]:
    """A request to open a table (``POST /api/tables``'s JSON), checked: its settings and
    its four seats; the one reading the server's lobby and the browser's worker both use.

    >>> settings, seats = read_create({"seats": ["person", "rule", "rule", "mc"]})
    >>> settings.ruleset, [seat.kind for seat in seats]
    ('partnership', ['person', 'bot', 'bot', 'bot'])
    >>> read_create({"seats": ["person"]})
    Traceback (most recent call last):
    ...
    trixcomplex.host.table_seats.Refused: seats is a list of four: person or a bot's name
    """
    if not isinstance(request, dict):
        raise Refused("send a JSON object", "bad-request")
    unknown = sorted(str(k) for k in request if k not in CREATE_KEYS)
    if unknown:
        raise Refused(f"unknown key {unknown[0][:40]!r}", "bad-request")
    kinds = request.get("seats", ["person", "rule", "rule", "rule"])
    if not isinstance(kinds, list) or len(kinds) != 4:
        raise Refused("seats is a list of four: person or a bot's name", "bad-seat")
    seats = [Seat.parse(kind) for kind in kinds]
    return Settings.from_json(request), seats


def join_seat(seats: Sequence[Seat], seat: object, name: object) -> tuple[list[Seat], str]:
    """The seats with the free person seat ``seat`` taken by ``name``, and its new secret
    token (kept only as its hash); :class:`Refused` names what is wrong (R-SEAT-1).  The
    server's table stores the new seats before it makes them its own; the browser's
    table takes them at once.

    >>> seats, token = join_seat([Seat("person"), Seat("bot", "rule")] * 2, 0, " Ann ")
    >>> seats[0].name, seats[0].token_sha256 == token_hash(token)
    ('Ann', True)
    >>> join_seat(seats, 0, "Bo")
    Traceback (most recent call last):
    ...
    trixcomplex.host.table_seats.Refused: seat 0 is taken
    """
    if type(seat) is not int or not 0 <= seat <= 3:
        raise Refused("seat must be 0, 1, 2 or 3", "bad-seat", "R-SEAT-1")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 40 or not name.isprintable():
        raise Refused("a name is 1 to 40 printable characters", "bad-name")
    current = seats[seat]
    if current.kind != "person":
        raise Refused(f"seat {seat} is played by a bot", "not-a-person-seat")
    if current.token_sha256 is not None:
        raise Refused(f"seat {seat} is taken", "seat-taken")
    token = secrets.token_urlsafe(32)
    taken = list(seats)
    taken[seat] = evolve(current, name=name.strip(), token_sha256=token_hash(token))
    return taken, token


def seat_of_token(seats: Sequence[Seat], token: object) -> int:
    """The seat whose secret token ``token`` is (its hash compared in constant time);
    :class:`Refused` for anything else.

    >>> seats, token = join_seat([Seat("person")] * 4, 2, "Ann")
    >>> seat_of_token(seats, token)
    2
    """
    if isinstance(token, str) and len(token) < 200:
        digest = token_hash(token)
        for s, seat in enumerate(seats):
            if seat.token_sha256 is not None and hmac.compare_digest(seat.token_sha256, digest):
                return s
    raise Refused("this token does not open a seat at this table", "bad-token")


def welcome(
    table_id: str, settings: Settings, seat: int | None, token: str | None = None
) -> dict[str, Any]:
    """The ``welcome`` a table answers a hello it took with: the table, the seat (``None``
    for a spectator), the new seat's token after a join, the settings and whether the
    ruleset plays in partnerships.  The server's connections and the browser's worker
    both send this one.

    >>> welcome("t1", Settings(), 2)["partnership"], "token" in welcome("t1", Settings(), 2)
    (True, False)
    """
    hello: dict[str, Any] = {"type": "welcome", "table": table_id, "seat": seat}
    if token is not None:
        hello["token"] = token
    hello["settings"] = settings.to_json()
    hello["partnership"] = tc.Ruleset.from_name(settings.ruleset).partnership
    return hello
