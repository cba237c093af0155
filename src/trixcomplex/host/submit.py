"""Hosting a table: the one safe entry for client input, and the host's clock.

Signatures (the contract of this module)::

    submit(state: MatchState, seat: int | None, data: str | bytes | bytearray | object)
        -> MatchState
    timeout_move(state: MatchState, seat: int, policy: str | Bot = "lowest") -> Move
    why_illegal(state: MatchState, seat: int | None, move: Move, *, locale: str = "en")
        -> str | None

:func:`submit` is *the* way to feed a client's move to the engine.  It takes
the seat the connection is authenticated as (0–3, or ``None`` for a
spectator) and the client's raw JSON (text, bytes, or an already-parsed
object), and returns the new state or raises a :class:`SubmitError` naming
what was wrong; a move the rules forbid raises
:class:`~trixcomplex.IllegalMoveError`.  Both are :class:`~trixcomplex.TrixError`,
so one ``except`` catches every rejection, and the state is never changed.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
>>> owner = state.owner
>>> try:
...     tc.submit(state, (owner + 1) % 4, {"move": "choose", "seat": owner, "contract": "TRIX"})
... except tc.TrixError as exc:
...     print(exc.to_json()["code"])
submit.wrong-seat
>>> tc.submit(state, owner, '{"move": "choose", "seat": %d, "contract": "TRIX"}' % owner).contract
<Contract.TRIX: 'TRIX'>

:func:`timeout_move` is what the host applies when a seat's clock runs out.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..core.catalog import check_locale
from ..core.engine import MatchState, apply, forced_move, is_legal, legal_moves
from ..core.errors import TrixError
from ..core.jsonio import loads
from ..core.moves import (
    Move,
    MoveFormatError,
    Pass,
    Play,
    PlayerMove,
    Redeal,
    Timeout,
    move_from_json,
    move_to_json,
)
from ..knowledge.views import view
from .refusals import refusal_text

if TYPE_CHECKING:
    from ..bots.base import Bot

__all__ = [
    "MAX_SUBMIT_LENGTH",
    "TIMEOUT_POLICIES",
    "SubmitError",
    "read_input",
    "submit",
    "timeout_move",
    "why_illegal",
]

MAX_SUBMIT_LENGTH = 1024
"""Longest client input :func:`submit` reads, in characters (bytes for ``bytes``).

The longest player move (a double of five cards) is under 100 characters."""

TIMEOUT_POLICIES = ("lowest",)
"""The named policies of :func:`timeout_move` (a bot object is accepted too)."""

_HOST_ONLY = ("deal", "timeout")


class SubmitError(TrixError):
    """A client's submission refused before the rules are asked (see :func:`submit`).

    ``code`` says why: ``submit.spectator``, ``submit.wrong-seat``,
    ``submit.host-only``, ``submit.too-large``, ``submit.invalid-json``,
    ``submit.duplicate-key``, ``submit.not-object``, ``submit.unknown-kind``,
    ``submit.unknown-key``, ``submit.missing-key``, ``submit.wrong-type`` or
    ``submit.bad-seat`` (the host's own mistake).  ``rule`` names a clause
    where one applies (R-SEAT-1 for a bad seat, R-CARD-2 for a bad card).
    """

    code = "submit.wrong-type"


_FORMAT_CODES = {
    "move.not-object": "submit.not-object",
    "move.unknown-kind": "submit.unknown-kind",
    "move.unknown-key": "submit.unknown-key",
    "move.missing-key": "submit.missing-key",
    "move.too-large": "submit.too-large",
}
_JSON_CODES = {
    "json.too-large": "submit.too-large",
    "json.duplicate-key": "submit.duplicate-key",
}


def submit(state: MatchState, seat: int | None, data: object) -> MatchState:
    """The state after the move a client sent, checked from end to end.

    ``seat`` is the seat the connection is authenticated as (0–3), or
    ``None`` for a spectator; ``data`` is the client's raw JSON text (``str``
    or UTF-8 ``bytes``) or an already-parsed JSON object.  In order, it
    refuses with :class:`SubmitError`:

    1. a spectator (``submit.spectator``): spectators never move;
    2. input over :data:`MAX_SUBMIT_LENGTH` (``submit.too-large``), text that is
       not JSON (``submit.invalid-json``) or names a key twice
       (``submit.duplicate-key``);
    3. the host's moves, ``deal`` and ``timeout`` (``submit.host-only``);
    4. anything that is not a record-format move object: not an object, an unknown
       kind or key, a missing key, a wrong type or range (``submit.not-object``,
       ``submit.unknown-kind``, ``submit.unknown-key``, ``submit.missing-key``,
       ``submit.wrong-type``);
    5. a move for another seat (``submit.wrong-seat``), a
       :class:`~trixcomplex.Redeal` included;

    then applies the move: one the rules do not allow now (out of turn,
    replayed, after the match, …) raises :class:`~trixcomplex.IllegalMoveError`.
    ``state`` is never changed.

    >>> import trixcomplex as tc
    >>> try:
    ...     tc.submit(tc.new_match(), None, {"move": "pass", "seat": 0})
    ... except tc.SubmitError as exc:
    ...     print(exc.code, "-", exc)
    submit.spectator - a spectator may not move
    """
    if seat is not None and (type(seat) is not int or not 0 <= seat <= 3):
        raise SubmitError(
            f"the connection's seat must be 0..3 or None, not {seat!r:.40}",
            code="submit.bad-seat",
            rule="R-SEAT-1",
        )
    if seat is None:
        raise SubmitError("a spectator may not move", code="submit.spectator")
    obj = read_input(data)
    if isinstance(obj, dict) and obj.get("move") in _HOST_ONLY:
        raise SubmitError(
            f"a {obj['move']} move is the host's, not a player's", code="submit.host-only"
        )
    try:
        move = move_from_json(obj)
    except MoveFormatError as exc:
        code = _FORMAT_CODES.get(exc.code, "submit.wrong-type")
        raise SubmitError(str(exc), code=code, rule=exc.rule) from None
    mover = getattr(move, "seat", None)
    if mover != seat:
        raise SubmitError(
            f"seat {seat} may not move for seat {mover}", code="submit.wrong-seat", rule="R-SEAT-1"
        )
    return apply(state, move)


def why_illegal(
    state: MatchState, seat: int | None, move: Move, *, locale: str = "en"
) -> str | None:
    """Why ``seat`` may not make ``move`` now, in the engine's words; ``None`` if it may.

    The answer is the refusal :func:`submit` gives for the move sent by that
    seat's connection: the reason and the rule clause an
    :class:`~trixcomplex.IllegalMoveError` carries, or the
    :class:`SubmitError`'s message (a move for another seat, a host's move).
    It decides nothing itself, so it always agrees with :func:`submit`.  For
    a seat's own move it depends only on what that seat sees (its hand and
    the public table), so a host may show it to the seat.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
    >>> state = tc.apply(state, tc.Choose(state.owner, tc.Contract.TRIX))
    >>> seat = state.turn
    >>> tc.why_illegal(state, seat, tc.legal_moves(state, seat)[0]) is None
    True
    >>> other = (seat + 1) % 4
    >>> tc.why_illegal(state, other, tc.Pass(other))
    "it is seat 0's turn, not seat 1's (R-TX-1)"
    >>> tc.why_illegal(state, other, tc.Pass(seat))
    'seat 1 may not move for seat 0 (R-SEAT-1)'

    ``locale`` is the language of the answer (:data:`~trixcomplex.LOCALES`: ``"en"``,
    the default, or ``"ar"``); the clause stays as it is, and the error's code (what a
    program should read) never depends on it.  An unknown locale raises
    :class:`~trixcomplex.LocaleError` before anything else.

    >>> tc.why_illegal(state, other, tc.Pass(other), locale="ar")
    'الدور للمقعد 0، لا للمقعد 1 (R-TX-1)'
    """
    check_locale(locale)
    try:
        submit(state, seat, move_to_json(move))
    except TrixError as exc:
        return refusal_text(exc, locale)
    return None


def read_input(data: object, *, max_length: int = MAX_SUBMIT_LENGTH) -> object:
    """The JSON value of client input: text parsed strictly, a parsed value as it is.

    The parse :func:`submit` makes of text; a host that must look into a message
    before it knows it is a move (a server routing a hello from a move) reads it
    with this once and hands :func:`submit` the value.  ``max_length`` is the
    longest text read (a move's limit, :data:`MAX_SUBMIT_LENGTH`, by default).
    Text that is too long, not JSON or names a key twice raises
    :class:`SubmitError` (``submit.too-large``, ``submit.invalid-json``,
    ``submit.duplicate-key``).

    >>> read_input('{"move": "pass", "seat": 2}')
    {'move': 'pass', 'seat': 2}
    >>> try:
    ...     read_input('{"move": "pass", "move": "play"}')
    ... except SubmitError as exc:
    ...     print(exc.code)
    submit.duplicate-key
    """
    if not isinstance(data, str | bytes | bytearray):
        return data  # move_from_json bounds and checks it
    try:
        return loads(data, max_length=max_length)
    except TrixError as exc:
        code = _JSON_CODES.get(exc.code, "submit.invalid-json")
        raise SubmitError(str(exc), code=code) from None


# -- the clock --------------------------------------------------------------------


def timeout_move(state: MatchState, seat: int, policy: str | Bot = "lowest") -> Move:
    """The move the host applies when ``seat``'s clock runs out: deterministic, always legal.

    - While the Kingdom owner chooses (R-MATCH-6) or the doubling window is
      open (R-DBL-3), the rules give the host a timeout:
      :class:`~trixcomplex.Timeout` (apply it once: it closes the whole window).
    - While ``seat`` must play or pass, its forced move if it has exactly
      one (R-TX-5), else the ``policy``'s choice:

      - ``"lowest"``: its lowest legal card by rank (2 … A; on equal ranks,
        in suit order ♠ ♥ ♦ ♣), or its pass;
      - a bot object following the bot protocol ``choose(view, legal, rng)``:
        it is shown the seat's :func:`~trixcomplex.view` and its play or pass
        moves, with a ``random.Random`` seeded by the number of moves so far,
        so the same state always times out the same way.

      The result is an ordinary :class:`~trixcomplex.Play` or
      :class:`~trixcomplex.Pass`, so a record of the match stays a valid
      record.  A seat's chance to demand a redeal (R-OPT-8) simply lapses.

    A seat with nothing to do now raises :class:`~trixcomplex.TrixError`
    (``timeout.no-move``); an unknown policy or a bot answering something
    else than one of the moves it was shown, ``timeout.bad-policy``.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
    >>> tc.timeout_move(state, state.owner)
    Timeout()
    >>> state = tc.apply(state, tc.Choose(state.owner, tc.Contract.TRIX))
    >>> move = tc.timeout_move(state, state.turn)
    >>> move, tc.is_legal(state, move)
    (Play(seat=3, card=Card('JS')), True)
    """
    if policy != "lowest" and not callable(getattr(policy, "choose", None)):
        raise TrixError(
            f"unknown timeout policy {policy!r:.60}; use one of {TIMEOUT_POLICIES} or a bot",
            code="timeout.bad-policy",
        )
    if seat in state.to_act and is_legal(state, Timeout()):  # choosing or doubling
        return Timeout()
    moves = _turn_moves(state, seat)
    if not moves:
        raise TrixError(
            f"seat {seat!r:.10} has no move to time out in phase {state.phase.value}",
            code="timeout.no-move",
        )
    forced = forced_move(state, seat)
    if forced is not None and forced in moves:
        return forced
    if len(moves) == 1:
        return moves[0]
    if policy == "lowest":
        return min(moves, key=_lowest_first)
    rng = random.Random(len(state.history))
    chosen = policy.choose(view(state, seat), moves, rng)  # type: ignore[union-attr]
    if chosen not in moves:
        raise TrixError(
            f"the timeout bot chose {chosen!s:.60}, not one of its legal moves",
            code="timeout.bad-policy",
        )
    return chosen


def _turn_moves(state: MatchState, seat: int) -> tuple[PlayerMove, ...]:
    """``seat``'s plays and passes now (a redeal is a choice, never a default)."""
    if type(seat) is not int or not 0 <= seat <= 3:
        return ()
    return tuple(m for m in legal_moves(state, seat) if not isinstance(m, Redeal))


def _lowest_first(move: PlayerMove) -> tuple[int, int]:
    if isinstance(move, Play):
        return (move.card.rank, move.card.suit)
    assert isinstance(move, Pass)
    return (0, 0)
