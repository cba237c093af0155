"""The score keeper's answer: a match kept on paper, scored deal by deal by the library.

One request (``POST /api/scorebook`` of the server, the same path in the browser's
worker) takes the book so far (the JSON of
:meth:`~trixcomplex.io.scorekeeper.Scorebook.to_json`, or ``null`` with a ``ruleset``
to start one), one deal's outcome as the players report it (the JSON of
:meth:`~trixcomplex.io.scorekeeper.DealOutcome.to_json`) and a ``locale``; the answer
is the book with the deal added and the scoresheet in that language, or the library's
refusal (code ``outcome.inconsistent`` and the clause in ``rule``) in that language.
Nothing is kept: the client holds the book.  :func:`answer` is the one function the
server's route and the static build's worker both call, below the server so that it
imports without Starlette.

>>> reply = add_deal({"book": None, "ruleset": "partnership", "locale": "ar",
...     "deal": {"contract": "TRIX", "owner": 2, "tricks": [0, 0, 0, 0], "taken": {},
...              "doubled": {}, "finishing_order": [2, 0, 3, 1]}})
>>> reply["sheet"]["totals"], reply["sheet"]["deals"][0]["contract"]
([150, 50, 200, 100], 'تركس')
>>> reply["sheet"]["next_owner"], reply["sheet"]["over"]
(2, False)
"""

from __future__ import annotations

import json
from typing import Any

from ..core.catalog import DEFAULT_LOCALE, best_locale, contract_words
from ..core.errors import TrixError
from ..core.rulesets import Ruleset
from ..io.scorekeeper import DealOutcome, OutcomeError, Scorebook
from .refusals import refusal_json
from .table_seats import Refused

__all__ = ["MAX_REQUEST", "add_deal", "answer", "sheet"]

MAX_REQUEST = 1 << 16
"""The largest request, in bytes: a whole match's book and one reported deal."""

_KEYS = frozenset({"book", "ruleset", "deal", "locale"})


def sheet(book: Scorebook, locale: str = DEFAULT_LOCALE) -> dict[str, Any]:
    """The scoresheet of ``book`` as the page draws it: each deal's contract in
    ``locale`` and points, the seats' totals and the Team Totals (R-MATCH-7), the next
    deal's owner, whether the match is over and its result (R-MATCH-8)."""
    score = book.score()
    return {
        "deals": [
            {
                "number": r.number,
                "kingdom": r.kingdom,
                "owner": r.owner,
                "contract": contract_words(r.contract, locale),
                "points": list(r.points),
            }
            for r in book.results
        ],
        "totals": list(score.seats),
        "teams": list(score.teams),
        "partnership": book.ruleset.partnership,
        "next_kingdom": book.next_kingdom,
        "next_owner": book.next_owner,
        "over": book.is_over,
        "result": None if score.result is None else score.result.value,
        "winners": list(score.winners),
    }


def add_deal(request: object) -> dict[str, Any]:
    """The answer to one request already read as JSON: ``{"book", "sheet"}``.  Bad input
    raises :class:`~trixcomplex.io.scorekeeper.OutcomeError` (nothing is kept anyway)."""
    if not isinstance(request, dict) or not set(request) <= _KEYS or "deal" not in request:
        raise OutcomeError("send an object of book, ruleset, deal and locale: deal is required")
    locale = _locale(request)
    if request.get("book") is None:
        try:
            book = Scorebook(Ruleset.from_name(request.get("ruleset", "partnership")))
        except (TypeError, ValueError) as exc:
            raise OutcomeError(f"unknown ruleset: {str(exc)[:200]}", rule="R-SET-1") from None
    else:
        book = Scorebook.from_json(request["book"])
    book = book.add(DealOutcome.from_json(request["deal"]))
    return {"book": book.to_json(), "sheet": sheet(book, locale)}


def _locale(request: object) -> str:
    """The request's language (a known one, else English: never a refusal)."""
    asked = request.get("locale") if isinstance(request, dict) else None
    return best_locale([str(asked or DEFAULT_LOCALE)[:40]])


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("duplicate key")
    return dict(pairs)


def answer(body: bytes | str) -> tuple[int, dict[str, Any]]:
    """The HTTP status and JSON body answering one request's ``body``: 200 and
    ``{"book", "sheet"}``; 413 (``server.too-long``) past :data:`MAX_REQUEST` bytes; 400
    for a body that is not one JSON object (``server.bad-request``) or a deal the
    library refuses, the refusal in the request's ``locale``.

    >>> answer(b'{"deal": {}, "locale": "ar"}')[1]["error"]["code"]
    'outcome.inconsistent'
    >>> answer("[")[0], answer("x" * (MAX_REQUEST + 1))[0]
    (400, 413)
    """
    raw = body.encode() if isinstance(body, str) else body
    if len(raw) > MAX_REQUEST:
        refused = Refused(f"a request is at most {MAX_REQUEST} bytes", "too-long")
        return 413, {"error": refused.to_json()}
    try:
        request = json.loads(raw, object_pairs_hook=_no_duplicates)
    except (ValueError, RecursionError):  # RecursionError: nested too deep
        return 400, {"error": Refused("the body is not a JSON object", "bad-request").to_json()}
    try:
        return 200, add_deal(request)
    except TrixError as exc:
        return 400, {"error": refusal_json(exc, _locale(request))}
