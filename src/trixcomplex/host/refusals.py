"""A refusal in a player's language: the words of :func:`~trixcomplex.why_illegal`.

The engine words each refusal in English from a small set of templates
(:data:`REFUSALS`, the reasons of :class:`~trixcomplex.IllegalMoveError` and the
messages of :class:`~trixcomplex.SubmitError` a seat can meet).
:func:`refusal_text` reads which template an error's English words come from,
and what fills it, and writes that template in the asked language from the
message catalog (:mod:`trixcomplex.core.catalog`).  The error code and the
clause never change with the language.  ``tests/test_why_illegal_ar.py``
makes a real state refuse every one of these and checks the Arabic answer, so
an untranslated refusal fails a test, not a player.

>>> import trixcomplex as tc
>>> error = tc.IllegalMoveError(tc.Pass(1), "it is seat 0's turn, not seat 1's", "R-TX-1")
>>> refusal_text(error, "ar")
'الدور للمقعد 0، لا للمقعد 1 (R-TX-1)'
"""

from __future__ import annotations

import re

from ..core.cards import parse_card
from ..core.catalog import DEFAULT_LOCALE, N_, check_locale, contract_words, translate
from ..core.errors import IllegalMoveError, TrixError

__all__ = ["REFUSALS", "reason_text", "refusal_text"]

REFUSALS = (
    # R-MATCH-2 … R-MATCH-8, R-DBL-2, R-CX-1, R-CL-2, R-TX-1: the phase does not take it
    N_("not allowed now: {what}"),
    N_("only the Kingdom owner, seat {owner}, chooses the contract"),
    N_("{contract} {why}; choose {names}"),
    N_("a timeout is only legal while the owner chooses or the doubling window is open; {what}"),
    N_("cards can only be doubled in the doubling window before the first trick"),
    N_("seat {seat} holds no K♥ or Queen and is not asked"),
    N_("seat {seat} has already answered"),
    N_("seat {seat} cannot double {cards}: only the K♥ and Queens it holds"),
    N_("it is seat {turn}'s turn, not seat {seat}'s"),
    N_("seat {seat} does not hold {card}"),
    N_("seat {seat} must follow suit {suit}"),
    N_("seat {seat} cannot follow suit and must discard a penalty card"),
    N_("seat {seat} may not lead a heart while holding another suit"),
    N_("nothing causes a redeal in this game"),
    N_(
        "seat {seat} may not demand a redeal: only a seat with four 2s, or three 2s and the "
        "fourth suit's 3, before the first TRIX card or pass"
    ),
    N_("{card} is neither an unstarted Jack nor next to an end of its row"),
    N_("there is no passing in a trick contract"),
    N_("seat {seat} holds a legal card ({cards}) and must play one"),
    N_("not a legal card or pass of the deal now"),
    # SubmitError (submit.*): before the rules are asked
    N_("the connection's seat must be 0..3 or None, not {seat}"),
    N_("a spectator may not move"),
    N_("a {kind} move is the host's, not a player's"),
    N_("seat {seat} may not move for seat {mover}"),
)
"""Every refusal a seat can be given, as the English template the engine fills."""

_PARTS = {
    # what: the phase that does not take the move (the engine's _PHASE_RULES)
    "what": (
        N_("the match is waiting for a deal"),
        N_("the Kingdom owner is choosing the contract"),
        N_("the doubling window is open"),
        N_("a COMPLEX deal is being played"),
        N_("a trick contract is being played"),
        N_("a TRIX deal is being played"),
        N_("the match is over"),
    ),
    # why: a contract the owner may not choose (R-OPT-9, R-SET-2, R-MATCH-1)
    "why": (
        N_("combines contracts, which this game does not allow"),
        N_("was already played in this Kingdom"),
        N_("is not a contract of this game"),
    ),
    "kind": (N_("deal"), N_("timeout")),
}


def _pattern(template: str) -> re.Pattern[str]:
    """The English words of ``template`` as a regular expression, a group per field."""
    pieces = re.split(r"\{(\w+)\}", template)
    out = []
    for i, piece in enumerate(pieces):
        out.append(f"(?P<{piece}>.+?)" if i % 2 else re.escape(piece))
    return re.compile("".join(out), re.DOTALL)


_PATTERNS = tuple((template, _pattern(template)) for template in REFUSALS)


def _card(code: str, locale: str) -> str:
    """A card code as the locale shows it: the code in English (as the engine says it),
    the rank and the suit sign otherwise (``Q♠``)."""
    if locale == DEFAULT_LOCALE:
        return code
    try:
        return parse_card(code).symbol
    except ValueError:
        return code


def _field(name: str, value: str, locale: str) -> str:
    """One field of a refusal, in ``locale``."""
    if name in _PARTS and value in _PARTS[name]:
        return translate(value, locale)
    if name == "card":
        return _card(value, locale)
    if name == "cards":
        return " ".join(_card(code, locale) for code in value.split())
    if name == "contract":
        try:
            return contract_words(value, locale)
        except KeyError:
            return value
    if name == "names":  # "COMPLEX or TRIX"
        try:
            names = [contract_words(v, locale) for v in value.split(" or ")]
        except KeyError:
            return value
        if len(names) == 1:
            return names[0]
        return translate(
            "{first} or {second}",
            locale,
            first=translate(", ", locale).join(names[:-1]),
            second=names[-1],
        )
    return value


def reason_text(reason: str, locale: str = DEFAULT_LOCALE) -> str:
    """The engine's English ``reason`` in ``locale``; unchanged in English, or if it
    follows none of :data:`REFUSALS` (a test makes sure none is left out).

    >>> reason_text("seat 2 does not hold QS", "ar")
    'المقعد 2 لا يحمل Q♠'
    """
    language = check_locale(locale)
    if language == DEFAULT_LOCALE:
        return reason
    for template, pattern in _PATTERNS:
        found = pattern.fullmatch(reason)
        if found is not None:
            fields = {k: _field(k, v, language) for k, v in found.groupdict().items()}
            return translate(template, language, **fields)
    return reason


def refusal_text(error: TrixError, locale: str = DEFAULT_LOCALE) -> str:
    """What :func:`~trixcomplex.why_illegal` says for ``error``, in ``locale``: the reason
    and the clause of an :class:`~trixcomplex.IllegalMoveError`, the message of any other
    refusal (with its clause if the message does not name it)."""
    if isinstance(error, IllegalMoveError):
        return f"{reason_text(error.reason, locale)} ({error.rule})"
    text = reason_text(str(error), locale)
    return text if error.rule is None or error.rule in text else f"{text} ({error.rule})"
