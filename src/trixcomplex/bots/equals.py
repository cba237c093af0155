"""Equals: cards of one hand that play alike in a trick contract, so a search tries one.

Two cards of one suit in my hand are *equals* when every card ranked between
them is mine too or was played in a finished trick: whichever of them I play,
the same tricks are won and lost, by the same seats, at the same cost.  A card
that may be doubled (K♥, a Queen) or that ends the deal when taken is never an
equal of another: it is scored by itself.  A card on the table in the trick
being played still separates two cards (one may beat it and the other not).

The Monte Carlo bot searches one card of each group (:func:`equal_groups`):
fewer candidates, the same choices to make.

>>> from trixcomplex.bots.club import position
>>> from trixcomplex.core.cards import cards_of
>>> sit = position(0, "2S 3S 5S QS AS", out="4S KS 9H")
>>> [[str(c) for c in cards_of(group)] for group in equal_groups(sit, sit.hand)]
[['2S', '3S'], ['5S'], ['QS'], ['AS']]

With 4♠ played too, 2♠ 3♠ and 5♠ play alike:

>>> sit = position(0, "2S 3S 5S QS AS", out="KS 9H")
>>> [[str(c) for c in cards_of(group)] for group in equal_groups(sit, sit.hand)]
[['2S', '3S', '5S'], ['QS'], ['AS']]
"""

from __future__ import annotations

from ..core.cards import cards_of
from ..core.rules import DOUBLABLE
from .situation import Situation

__all__ = ["equal_groups"]


def equal_groups(sit: Situation, cards: int) -> list[int]:
    """``cards`` (some of my hand, a card set) in groups of equals, each a card set,
    lowest card first; a card with no equal is a group of its own."""
    rules = sit.rules
    alone = DOUBLABLE | rules.ends_when_taken
    on_table = sum((1 << c for c in sit.trick), 0)
    separate = ~((sit.gone & ~on_table) | sit.hand)  # held elsewhere, or on the table
    groups: list[int] = []
    last = -1
    for card in cards_of(cards):
        if (
            groups
            and last // 13 == card // 13
            and not ((1 << card) - 1) & ~((2 << last) - 1) & separate
            and not (alone >> card | alone >> last) & 1
        ):
            groups[-1] |= 1 << card
        else:
            groups.append(1 << card)
        last = card
    return groups
