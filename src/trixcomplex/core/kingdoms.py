"""Kingdoms and their owners (R-MATCH-1, R-MATCH-3, R-MATCH-4, R-SET-2).

A match is four Kingdoms; a Kingdom plays each contract of the ruleset once,
one deal per contract (or several in one deal under R-OPT-9: see
:func:`kingdom_after`; the deal-number helpers below assume one deal per
contract).  The holder of 7♥ in the first deal owns the first
Kingdom, and ownership passes to the next seat after each Kingdom.

>>> from trixcomplex.core.rulesets import CLASSIC, PARTNERSHIP
>>> [kingdom_of(n, PARTNERSHIP) for n in range(9)]
[0, 1, 1, 2, 2, 3, 3, 4, 4]
>>> kingdom_of(6, CLASSIC), starts_kingdom(6, CLASSIC)
(2, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from .cards import Card, Rank, Suit
from .moves import COMBINATIONS, Contract
from .rulesets import Ruleset

if TYPE_CHECKING:
    from .scoring import DealResult

__all__ = [
    "SEVEN_OF_HEARTS",
    "choosable_contracts",
    "deal_owner",
    "kingdom_after",
    "kingdom_of",
    "match_finished",
    "owner_before",
    "played_in_kingdom",
    "starts_kingdom",
]

SEVEN_OF_HEARTS = Card.of(Rank.SEVEN, Suit.HEARTS)
"""Its holder in the first deal owns the first Kingdom (R-MATCH-3)."""


def _per_kingdom(ruleset: Ruleset) -> int:
    if ruleset.combined_contracts:
        raise ValueError(
            "under combined_contracts the deal number alone does not tell the Kingdom "
            "(R-OPT-9): use kingdom_after(results, ruleset)"
        )
    return ruleset.deals_per_kingdom


def kingdom_of(deal_number: int, ruleset: Ruleset) -> int:
    """The Kingdom (1–4) of deal ``deal_number`` (1, 2, …); 0 before the first deal.

    Not for a ruleset with ``combined_contracts`` (``ValueError``): there the
    Kingdom follows from the results (:func:`kingdom_after`).
    """
    per = _per_kingdom(ruleset)
    return (deal_number + per - 1) // per


def played_in_kingdom(deal_number: int, ruleset: Ruleset) -> int:
    """How many deals of its Kingdom come before deal ``deal_number`` (1, 2, …)
    (not under ``combined_contracts``)."""
    return (deal_number - 1) % _per_kingdom(ruleset)


def starts_kingdom(deal_number: int, ruleset: Ruleset) -> bool:
    """Whether deal ``deal_number`` (1, 2, …) is the first of its Kingdom
    (not under ``combined_contracts``)."""
    return played_in_kingdom(deal_number, ruleset) == 0


def kingdom_after(
    results: Sequence[DealResult], ruleset: Ruleset
) -> tuple[int, frozenset[Contract]]:
    """The Kingdom (1, 2, …) of the deal after the finished deals ``results``, and
    the contracts already used in it (R-MATCH-1, R-SET-2, R-OPT-9).

    A Kingdom ends once each of the ruleset's contracts is used up: played
    alone, or as a part of a combined deal (R-OPT-9), which is why its number
    of deals is read from the results, not from the deal number.

    >>> from trixcomplex.core.rulesets import PARTNERSHIP
    >>> kingdom_after((), PARTNERSHIP)
    (1, frozenset())
    """
    global _last_answer
    last = _last_answer
    if last[0] is results and last[1] is ruleset:
        return last[2]
    answer = _kingdom_after(results, ruleset)
    if type(results) is tuple:  # a tuple of frozen results: the answer cannot change
        _last_answer = (results, ruleset, answer)
    return answer


# The last answer with its question: the engine asks several times a deal about
# the same results tuple (the deal's owner, the contracts left, the deal's
# Kingdom, whether the match is over).  Swapped whole, so threads stay correct.
_last_answer: tuple[object, object, tuple[int, frozenset[Contract]]] = (
    None,
    None,
    (0, frozenset()),
)


def _kingdom_after(
    results: Sequence[DealResult], ruleset: Ruleset
) -> tuple[int, frozenset[Contract]]:
    if not results:
        return 1, _NONE
    kingdom = results[-1].kingdom
    used: set[Contract] = set()
    for result in reversed(results):
        if result.kingdom != kingdom:
            break
        used.update(result.contract.parts)
    return _kingdom_and_used(kingdom, used, ruleset)


def _kingdom_and_used(
    kingdom: int, used: AbstractSet[Contract], ruleset: Ruleset
) -> tuple[int, frozenset[Contract]]:
    """The answer of :func:`kingdom_after` once Kingdom ``kingdom`` has used the
    contracts ``used``: the next Kingdom, when all of them are used up."""
    if len(used) >= len(ruleset.contracts):
        return kingdom + 1, _NONE
    return kingdom, frozenset(used)


_NONE: frozenset[Contract] = frozenset()


def results_after(
    results: tuple[DealResult, ...], result: DealResult, ruleset: Ruleset
) -> tuple[DealResult, ...]:
    """``results + (result,)``, the finished deals once ``result`` is added, with
    :func:`kingdom_after`'s answer for them worked out from its answer for
    ``results`` (the engine asks it next, at every deal end).

    ``result`` adds its contracts to the Kingdom the deals before it left open,
    when it was played in that Kingdom; otherwise the answer is left to be
    counted afresh.

    >>> from trixcomplex.core.rulesets import PARTNERSHIP
    >>> import random, trixcomplex as tc
    >>> done = tc.playout(tc.new_match(), random.Random(1), until="match").results
    >>> more = results_after(done[:3], done[3], PARTNERSHIP)
    >>> more == done[:4], kingdom_after(more, PARTNERSHIP) == _kingdom_after(more, PARTNERSHIP)
    (True, True)
    """
    global _last_answer
    more = results + (result,)
    kingdom, used = kingdom_after(results, ruleset)
    if result.kingdom == kingdom:  # the trailing Kingdom of ``more`` is ``result``'s
        answer = _kingdom_and_used(kingdom, used.union(result.contract.parts), ruleset)
        _last_answer = (more, ruleset, answer)
    return more


def match_finished(results: Sequence[DealResult], ruleset: Ruleset) -> bool:
    """Whether the match is over after ``results``: the fourth Kingdom's contracts
    are all used up (R-MATCH-1, R-MATCH-8, R-OPT-9)."""
    return kingdom_after(results, ruleset)[0] > 4


def choosable_contracts(remaining: Sequence[Contract], ruleset: Ruleset) -> tuple[Contract, ...]:
    """What the Kingdom owner may choose from the ``remaining`` contracts
    (R-MATCH-5, R-SET-2): each of them, and under ``combined_contracts`` every
    combination of two or more remaining trick contracts (R-OPT-9).

    >>> from trixcomplex.core.rulesets import CLASSIC
    >>> rs = CLASSIC.evolve(combined_contracts=True)
    >>> left = (Contract.QUEENS, Contract.LTOOSH, Contract.TRIX)
    >>> [c.value for c in choosable_contracts(left, rs)]
    ['QUEENS', 'LTOOSH', 'TRIX', 'QUEENS+LTOOSH']
    """
    if not ruleset.combined_contracts:
        return tuple(remaining)
    left = set(remaining)
    return tuple(remaining) + tuple(c for c in COMBINATIONS if left.issuperset(c.parts))


def deal_owner(
    deal_number: int,
    deck: Sequence[Card],
    previous_owner: int | None,
    ruleset: Ruleset,
    results: Sequence[DealResult] | None = None,
) -> int:
    """The Kingdom owner of deal ``deal_number``, dealt ``deck``, after the
    finished deals ``results``.

    The first deal: the seat dealt 7♥, the card at position ``i`` going to
    seat ``i % 4`` (R-MATCH-2, R-MATCH-3).  The first deal of a later
    Kingdom: the seat after the previous owner (R-MATCH-4).  Any other
    deal: the previous owner.  ``results`` may be left out without
    ``combined_contracts`` (the deal number then tells where Kingdoms start).
    """
    if deal_number == 1:
        return deck.index(SEVEN_OF_HEARTS) % 4
    assert previous_owner is not None
    if _starts_kingdom(deal_number, ruleset, results):
        return (previous_owner + 1) % 4
    return previous_owner


def _starts_kingdom(
    deal_number: int, ruleset: Ruleset, results: Sequence[DealResult] | None
) -> bool:
    if results is None:
        return starts_kingdom(deal_number, ruleset)
    return not kingdom_after(results, ruleset)[1]


def owner_before(
    deal_number: int,
    owner: int | None,
    ruleset: Ruleset,
    results: Sequence[DealResult] | None = None,
) -> int | None:
    """The owner before deal ``deal_number`` was dealt, given that deal's ``owner``
    and the deals finished before it: :func:`deal_owner` read backwards
    (``None`` before the first deal)."""
    if deal_number <= 1 or owner is None:
        return None
    if _starts_kingdom(deal_number, ruleset, results):
        return (owner - 1) % 4
    return owner
