"""The errors the library raises for bad input, all under one base, :class:`TrixError`.

Every error for bad input — an illegal move, a malformed move, record,
saved state or view, a bad card code, a rejected client submission — is a
:class:`TrixError`, itself a ``ValueError``, so one ``except`` catches them
all.  Each carries a stable machine-readable :attr:`~TrixError.code` (listed
in :data:`ERROR_CODES` and on the "Error codes" page), the rules clause
it breaks (``rule``, or ``None``) and the 0-based index of the move at fault
(``index``, or ``None``).  :meth:`TrixError.to_json` gives it as plain data
(a ``dict``), :func:`trixcomplex.dumps` as JSON text.

>>> import trixcomplex as tc
>>> try:
...     tc.apply(tc.new_match(), tc.Pass(1))
... except tc.TrixError as exc:
...     error = exc.to_json()
>>> error["code"], error["rule"], error["index"]
('illegal-move', 'R-MATCH-2', None)
>>> error["message"]
'seat 1 passes: not allowed now: the match is waiting for a deal (R-MATCH-2)'

Messages are one line and bounded (:data:`MAX_MESSAGE` characters), even for
hostile input.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ERROR_CODES", "MAX_MESSAGE", "IllegalMoveError", "TrixError", "one_line"]

MAX_MESSAGE = 500
"""Longest error message, in characters (longer ones are cut with ``…``)."""

ERROR_CODES: dict[str, str] = {
    "illegal-move": "A move the rules do not allow now (the clause is in ``rule``).",
    "bad-card": "A card code that is not of the R-CARD-2 text form.",
    "move.not-object": "A move that is not a JSON object.",
    "move.unknown-kind": "A move whose ``move`` key names no kind of move.",
    "move.unknown-key": "A move with a key its kind does not have.",
    "move.missing-key": "A move missing a key its kind needs.",
    "move.bad-seat": "A seat that is not an integer 0–3 (R-SEAT-1).",
    "move.bad-card": "A card or card list that is not made of R-CARD-2 codes.",
    "move.bad-contract": "A contract that is not one of the contract names (R-MATCH-1).",
    "move.bad-deck": "A deck that is not 52 distinct cards (R-MATCH-2).",
    "move.repeated-card": "A double naming the same card twice (R-DBL-2).",
    "move.too-large": "A move larger or deeper than any move (see the input limits).",
    "move.not-json": "A move holding a value that is not JSON data (e.g. a non-string key).",
    "json.invalid": "Text that is not JSON (or uses NaN or Infinity).",
    "json.duplicate-key": "A JSON object naming the same key twice.",
    "json.too-large": "JSON over the input limits: size, nesting, string length or items.",
    "json.not-json": "A value that is not JSON data (e.g. a non-string object key).",
    "record.malformed": "A record whose top level is malformed (keys, types).",
    "record.bad-format": "A record whose ``format`` is not ``trixcomplex-record``.",
    "record.bad-version": "A record of a version this reader does not know.",
    "record.unknown-ruleset": "A ruleset name that names no ruleset (R-SET-1).",
    "record.bad-meta": "Record metadata that is not a small JSON object of allowed values.",
    "record.too-many-moves": "A record with more moves than the limit.",
    "record.bad-move": "A malformed move in a record (``index`` names it).",
    "record.illegal-move": "An illegal move in a record (``index`` and ``rule`` name it).",
    "record.unreadable": "A record file that cannot be read (missing, not UTF-8).",
    "state.malformed": "A saved state or view that is malformed (keys, types).",
    "state.mismatch": "A saved state whose fields differ from what its moves rebuild.",
    "state.bad-move": "A malformed move in a saved state's history.",
    "state.illegal-move": "An illegal move in a saved state's history.",
    "view.inconsistent": "A view that no state of the match could show (tampered or made up).",
    "submit.spectator": "A spectator sent a move: spectators never move.",
    "submit.wrong-seat": "A connection sent a move for a seat other than its own.",
    "submit.host-only": "A client sent a host move (``deal`` or ``timeout``).",
    "submit.bad-seat": "The host passed a seat that is not 0–3 or ``None``.",
    "submit.too-large": "Client input over the size limit of a move.",
    "submit.invalid-json": "Client input that is not JSON.",
    "submit.duplicate-key": "Client JSON naming the same key twice.",
    "submit.not-object": "Client input that is not a JSON object.",
    "submit.unknown-kind": "Client input whose ``move`` names no kind of move.",
    "submit.unknown-key": "Client input with a key the move does not have.",
    "submit.missing-key": "Client input missing a key the move needs.",
    "submit.wrong-type": "Client input with a value of the wrong type or range.",
    "timeout.no-move": "A timeout asked for a seat that has nothing to do now.",
    "timeout.bad-policy": "An unknown timeout policy, or a policy bot returning a bad move.",
    "locale.unknown": "A ``locale=`` naming no language of the message catalog (en, ar).",
    "outcome.inconsistent": "A reported deal outcome no play of the deal could give (``rule``).",
}
"""Every error code, with what it means (the "Error codes" docs page lists them)."""


def one_line(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` cut to ``limit`` characters (with ``…``) and with line breaks escaped.

    >>> one_line("a\\nb"), one_line("x" * 10, 5), one_line("\\x0c")
    ('a\\\\nb', 'xxxx…', '\\\\x0c')
    """
    cut = len(text) > limit
    text = text[:limit]  # escaping below only grows it, so the rest is never looked at
    if len((text + "x").splitlines()) > 1:  # any line break, a lone or last one included
        text = "".join(c if c.splitlines() == [c] else repr(c)[1:-1] for c in text)
    return text[: limit - 1] + "…" if cut or len(text) > limit else text


class TrixError(ValueError):
    """The base of every error the library raises for bad input (a ``ValueError``).

    ``code`` is a stable machine-readable string (see :data:`ERROR_CODES`),
    ``rule`` the rules clause broken (or ``None``), ``index`` the 0-based
    index of the move at fault (or ``None``).  The message is one line of at
    most :data:`MAX_MESSAGE` characters.

    >>> err = TrixError("no such thing", code="json.invalid")
    >>> err.to_json()
    {'code': 'json.invalid', 'message': 'no such thing', 'rule': None, 'index': None}
    """

    code: str = "illegal-move"
    rule: str | None = None
    index: int | None = None

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        rule: str | None = None,
        index: int | None = None,
    ) -> None:
        super().__init__(one_line(message))
        if code is not None:
            self.code = code
        self.rule = rule
        self.index = index

    def to_json(self) -> dict[str, Any]:
        """The error as plain data (a ``dict``, not text), ready for :func:`json.dumps`.

        ``{"code": ..., "message": ..., "rule": ... or None, "index": ... or
        None}``; :func:`trixcomplex.dumps` of the error gives the JSON text.
        """
        return {"code": self.code, "message": str(self), "rule": self.rule, "index": self.index}

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), dict(vars(self)), self.args))


def _rebuild(cls: type[TrixError], fields: dict[str, Any], args: tuple[Any, ...]) -> TrixError:
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(fields)
    return error


class IllegalMoveError(TrixError):
    """A move that is not legal in the state it was applied to (code ``illegal-move``).

    ``move`` is the rejected move, ``rule`` the rules clause it breaks
    (e.g. ``"R-CX-2"``) and ``reason`` the explanation for a person; the
    message joins them: ``seat 1 plays 5S: seat 1 must follow suit ♥ (R-CX-2)``.
    The state the move was applied to is unchanged and still valid.
    """

    code = "illegal-move"

    def __init__(self, move: object, reason: str, rule: str) -> None:
        self.move = move
        self.reason = reason
        super().__init__(f"{move}: {reason} ({rule})", rule=rule)
