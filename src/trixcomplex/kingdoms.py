"""Kingdoms and their owners (R-MATCH-1, R-MATCH-3, R-MATCH-4, R-SET-2).

A match is four Kingdoms; a Kingdom plays each contract of the ruleset once,
one deal per contract.  The holder of 7♥ in the first deal owns the first
Kingdom, and ownership passes to the next seat after each Kingdom.

>>> from trixcomplex.rulesets import CLASSIC, PARTNERSHIP
>>> [kingdom_of(n, PARTNERSHIP) for n in range(9)]
[0, 1, 1, 2, 2, 3, 3, 4, 4]
>>> kingdom_of(6, CLASSIC), starts_kingdom(6, CLASSIC)
(2, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, Rank, Suit
from .rulesets import Ruleset

__all__ = [
    "SEVEN_OF_HEARTS",
    "deal_owner",
    "kingdom_of",
    "owner_before",
    "played_in_kingdom",
    "starts_kingdom",
]

SEVEN_OF_HEARTS = Card.of(Rank.SEVEN, Suit.HEARTS)
"""Its holder in the first deal owns the first Kingdom (R-MATCH-3)."""


def kingdom_of(deal_number: int, ruleset: Ruleset) -> int:
    """The Kingdom (1–4) of deal ``deal_number`` (1, 2, …); 0 before the first deal."""
    per = ruleset.deals_per_kingdom
    return (deal_number + per - 1) // per


def played_in_kingdom(deal_number: int, ruleset: Ruleset) -> int:
    """How many deals of its Kingdom come before deal ``deal_number`` (1, 2, …)."""
    return (deal_number - 1) % ruleset.deals_per_kingdom


def starts_kingdom(deal_number: int, ruleset: Ruleset) -> bool:
    """Whether deal ``deal_number`` (1, 2, …) is the first of its Kingdom."""
    return played_in_kingdom(deal_number, ruleset) == 0


def deal_owner(
    deal_number: int, deck: Sequence[Card], previous_owner: int | None, ruleset: Ruleset
) -> int:
    """The Kingdom owner of deal ``deal_number``, dealt ``deck``.

    The first deal: the seat dealt 7♥, the card at position ``i`` going to
    seat ``i % 4`` (R-MATCH-2, R-MATCH-3).  The first deal of a later
    Kingdom: the seat after the previous owner (R-MATCH-4).  Any other
    deal: the previous owner.
    """
    if deal_number == 1:
        return deck.index(SEVEN_OF_HEARTS) % 4
    assert previous_owner is not None
    if starts_kingdom(deal_number, ruleset):
        return (previous_owner + 1) % 4
    return previous_owner


def owner_before(deal_number: int, owner: int | None, ruleset: Ruleset) -> int | None:
    """The owner before deal ``deal_number`` was dealt, given that deal's ``owner``:
    :func:`deal_owner` read backwards (``None`` before the first deal)."""
    if deal_number <= 1 or owner is None:
        return None
    if starts_kingdom(deal_number, ruleset):
        return (owner - 1) % 4
    return owner
