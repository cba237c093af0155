"""RuleBot's card in TRIX (R-TX-2, R-TX-3): unlock my rows, block the others'.

A pure function of a :class:`~trixcomplex.bots.situation.Situation`.
"""

from __future__ import annotations

from ..core.cards import Card, cards_of
from ..core.rules import trix_legal_cards
from ..core.rules import trix_playable as playable
from .situation import _JACKS, _SUITS, Situation, _above, _below, _highest

__all__ = ["trix_card"]


# -- TRIX play (R-TX-2, R-TX-3) -------------------------------------------------


def _beyond(card: int) -> int:
    """The cards of ``card``'s row that become reachable only through ``card``."""
    suit = _SUITS[card // 13]
    if (1 << card) & _JACKS:
        return suit & ~(1 << card)
    jack = card - card % 13 + 9
    if card > jack:
        return _above(card)
    return _below(card)


_BEYOND = tuple(_beyond(card) for card in range(52))
"""``_BEYOND[card]``: :func:`_beyond` as a table."""


def trix_card(sit: Situation) -> Card | None:
    """The card to lay in TRIX, or ``None`` to pass (no legal card, R-TX-3).

    Prefer cards that unlock my own next cards; hold cards that the others
    need (blocking them) while I have other plays; a card with nothing behind
    it in its row (a 2, an Ace) helps nobody and is free to play.  With the
    2s shown (R-OPT-7), open the rows that lead to a partner's 2 and keep
    closed those that lead to an opponent's.
    """
    legal = trix_legal_cards(sit.hand, sit.table)
    if not legal:
        return None
    if legal & (legal - 1) == 0:
        return _highest(legal)
    hand = sit.hand
    others = sit.unseen
    table = sit.table
    now = playable(table)
    shown = sit.shown_twos
    any_shown = shown[0] | shown[1] | shown[2] | shown[3]
    best: Card | None = None
    best_key = (-1e9, 0)
    for card in cards_of(legal):
        bit = 1 << card
        opened = playable(table | bit) & ~now & ~bit
        behind = _BEYOND[card]
        score = 3.0 * (opened & hand).bit_count()
        score += 1.2 * (behind & hand).bit_count()
        score -= 0.3 * (opened & others).bit_count()
        score -= 0.1 * (behind & others).bit_count()
        if behind & any_shown:  # R-OPT-7: whose 2s this row leads to
            for seat, twos in enumerate(shown):
                if seat != sit.seat and behind & twos:
                    score += 1.0 if sit.ally(seat) else -1.0
        key = (score, -card)
        if key > best_key:
            best, best_key = card, key
    return best
