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

__all__ = ["REFUSALS", "SERVER_REFUSALS", "reason_text", "refusal_json", "refusal_text"]

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

SERVER_REFUSALS: dict[str, tuple[str, ...]] = {
    # server.* (trixcomplex.host.table_seats.SERVER_ERROR_CODES): the hosts' own refusals,
    # the server's and the browser worker's; the more specific words of a code first
    "server.bad-request": (
        N_("unknown key {key} in a {hello} message"),
        N_("unknown key {key}"),
        N_("unknown message type {type}"),
        N_("send a JSON object"),
        N_("send each message as a JSON text frame"),
        N_("the request is not a JSON object"),
        N_("the body is not a JSON object"),
        N_("pictures is true or false"),
        N_("locale is one of {locales}"),
        N_("no route {method} {path}"),
    ),
    "server.already-joined": (N_("this connection already joined; open another one"),),
    "server.bad-setting": (N_("{setting} must be a number from {low} to {high} seconds"),),
    "server.bad-ruleset": (N_("unknown ruleset: {why}"),),
    "server.bad-seat": (
        N_("seat must be 0, 1, 2 or 3"),
        N_("a table has exactly four seats"),
        N_("seats is a list of four: person or a bot's name"),
        N_("a seat is one of {kinds}, not {text}"),
    ),
    "server.bad-name": (N_("a name is 1 to 40 printable characters"),),
    "server.not-a-person-seat": (N_("seat {seat} is played by a bot"),),
    "server.seat-taken": (N_("seat {seat} is taken"),),
    "server.bad-token": (N_("this token does not open a seat at this table"),),
    "server.seat-connected": (N_("seat {seat} is already connected from somewhere else"),),
    "server.hello-first": (N_("send join, resume or watch first"),),
    "server.too-long": (
        N_("a message is at most {limit} characters"),
        N_("a request is at most {limit} bytes"),
    ),
    "server.unknown-table": (N_("there is no table {table}"), N_("no table {table}")),
    "server.too-many-tables": (
        N_("this server plays at most {limit} tables at once; try again when one is over"),
    ),
    "server.rate-limited": (
        N_("at most {limit} tables per address in {seconds} seconds"),
        N_("at most {limit} seats joined per address in {seconds} seconds"),
    ),
    "server.too-many-watchers": (N_("at most {limit} spectator connections per address"),),
    "server.bad-content-type": (N_("send the request as application/json"),),
    "server.answered": (N_("your answer is in: it is shown when the window closes"),),
    "server.not-finished": (
        N_("the record is available once the match is over"),
        N_("the match is not over"),
    ),
    "server.internal": (
        N_("the server failed; nothing was changed"),
        N_("the table failed; nothing was changed"),
    ),
    "server.unavailable": (
        N_("the server cannot store now; nothing was changed: try again"),
        N_("the server cannot store now; try again later"),
        N_("other moves keep coming first; nothing was changed: try again"),
        N_("the server is going away: open the table on another"),
        N_("the server is going away: reconnect and send it again"),
    ),
    "server.damaged": (N_("table {table} is damaged and set aside"),),
    # outcome.inconsistent (trixcomplex.io.scorekeeper): a deal reported to the score keeper
    "outcome.inconsistent": (
        N_("send an object of book, ruleset, deal and locale: deal is required"),
        N_("not a deal outcome: {data}"),
        N_("taken and doubled are objects keyed by card codes"),
        N_("a double is [doubler, leader], not {value}"),
        N_("a double is (card, doubler, leader), not {value}"),
        N_("not a contract: {value}"),
        N_("tricks are four counts, one a seat, not {value}"),
        N_("{field}: not a card: {value}"),
        N_("{field} must be a seat 0..3, not {value}"),
        N_("a TRIX finishing order names each seat once, not {value}"),
        N_("a TRIX deal has no tricks, takers or doubles"),
        N_("only TRIX has a finishing order"),
        N_("{count} tricks taken: a deal has 13"),
        N_("{count} tricks taken: this contract plays all 13"),
        N_("{card} is reported taken: only K♥, the Queens and the diamonds are"),
        N_("{card} is reported taken twice"),
        N_("seat {seat} took {count} counted cards in {tricks} tricks: a trick holds four cards"),
        N_("all 13 tricks were played, but nobody took {cards}"),
        N_("the deal ended after {count} tricks, before its penalty cards were all taken"),
        N_("{card} cannot be doubled in {contract}"),
        N_("{card} is reported doubled twice"),
        N_("{card} was doubled but nobody is reported taking it"),
        N_("{contract} is not a contract of the ruleset {ruleset}"),
        N_("the match is over: four Kingdoms are played"),
        N_("the owner of the next deal is seat {owner}, not seat {seat}"),
        N_("{contract} cannot be played now in Kingdom {kingdom}; choose {names}"),
        N_("not a {format} version {version} object"),
        N_("unknown ruleset: {why}"),
    ),
}
"""The refusals of the hosts (``server.*``) and of the score keeper
(``outcome.inconsistent``) a player can be shown, by code, as the English template each
message is written from (``tests/test_refusals_ar.py`` reads every one from the
source and checks its Arabic)."""

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


SETTING_WORDS = {
    "move_time": N_("the seconds per move"),
    "forced_delay": N_("the delay of a forced move"),
    "bot_delay": N_("a bot's delay"),
    "deal_pause": N_("the pause after a deal"),
}
"""A table's clock settings (:class:`~trixcomplex.host.table_seats.Settings`) as a
refusal names them in a player's language (their keys are the protocol's)."""


def _pattern(template: str) -> re.Pattern[str]:
    """The English words of ``template`` as a regular expression, a group per field."""
    pieces = re.split(r"\{(\w+)\}", template)
    out = []
    for i, piece in enumerate(pieces):
        out.append(f"(?P<{piece}>.+?)" if i % 2 else re.escape(piece))
    return re.compile("".join(out), re.DOTALL)


# The hosts' and the score keeper's first: "{contract} cannot be played now in Kingdom
# {kingdom}; choose {names}" would also match the engine's "{contract} {why}; choose {names}".
_PATTERNS = tuple(
    (template, _pattern(template))
    for template in (*(t for ts in SERVER_REFUSALS.values() for t in ts), *REFUSALS)
)


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
    if name == "setting" and value in SETTING_WORDS:
        return translate(SETTING_WORDS[value], locale)
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
    text = str(error)
    if error.rule is None:
        return reason_text(text, locale)
    clause = f" ({error.rule})"  # a message that names its clause at its end (OutcomeError)
    words = text[: -len(clause)] if text.endswith(clause) else text
    text = reason_text(words, locale)
    return text if error.rule in text else f"{text}{clause}"


def refusal_json(error: TrixError, locale: str = DEFAULT_LOCALE) -> dict[str, object]:
    """The refusal a host sends a client (``error.to_json()``), its ``message`` in
    ``locale`` (:func:`refusal_text`); English: the library's own message, unchanged.  The
    ``code``, ``rule`` and ``index`` never change with the language.

    >>> from trixcomplex.host.table_seats import Refused
    >>> refusal_json(Refused("seat 2 is taken", "seat-taken"), "ar")["message"]
    'المقعد 2 مشغول'
    """
    data = error.to_json()
    if check_locale(locale) != DEFAULT_LOCALE:
        data["message"] = refusal_text(error, locale)
    return data
