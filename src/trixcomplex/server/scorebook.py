"""The score keeper's API: a match kept on paper, scored deal by deal by the library.

``POST /api/scorebook`` takes the book so far (the JSON of
:meth:`~trixcomplex.io.scorekeeper.Scorebook.to_json`, or ``null`` with a ``ruleset``
to start one), one deal's outcome as the players report it (the JSON of
:meth:`~trixcomplex.io.scorekeeper.DealOutcome.to_json`) and a ``locale``; it answers
the book with the deal added and the scoresheet in that language, or the library's
refusal (code ``outcome.inconsistent`` and the clause in ``rule``).  The server keeps
nothing: the client holds the book.

>>> answer = add_deal({"book": None, "ruleset": "partnership", "locale": "ar",
...     "deal": {"contract": "TRIX", "owner": 2, "tricks": [0, 0, 0, 0], "taken": {},
...              "doubled": {}, "finishing_order": [2, 0, 3, 1]}})
>>> answer["sheet"]["totals"], answer["sheet"]["deals"][0]["contract"]
([150, 50, 200, 100], 'تركس')
>>> answer["sheet"]["next_owner"], answer["sheet"]["over"]
(2, False)
"""

from __future__ import annotations

from typing import Any

from ..core.catalog import DEFAULT_LOCALE, best_locale, contract_words
from ..core.rulesets import Ruleset
from ..io.scorekeeper import DealOutcome, OutcomeError, Scorebook

__all__ = ["add_deal", "sheet"]

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
    """The answer to one ``POST /api/scorebook``: ``{"book", "sheet"}``.  Bad input
    raises :class:`~trixcomplex.io.scorekeeper.OutcomeError` (nothing is kept anyway)."""
    if not isinstance(request, dict) or not set(request) <= _KEYS or "deal" not in request:
        raise OutcomeError('send {"book", "ruleset", "deal", "locale"}: deal is required')
    locale = best_locale([str(request.get("locale") or DEFAULT_LOCALE)[:40]])
    if request.get("book") is None:
        try:
            book = Scorebook(Ruleset.from_name(request.get("ruleset", "partnership")))
        except (TypeError, ValueError) as exc:
            raise OutcomeError(str(exc)[:200], rule="R-SET-1") from None
    else:
        book = Scorebook.from_json(request["book"])
    book = book.add(DealOutcome.from_json(request["deal"]))
    return {"book": book.to_json(), "sheet": sheet(book, locale)}
