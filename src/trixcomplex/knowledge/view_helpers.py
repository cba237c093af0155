"""Public facts of a view for bot authors, each decided by the engine's own rule.

Every helper reads the :class:`~trixcomplex.View` only (never a state), so
it can tell a seat nothing its view does not: worlds the seat cannot tell
apart give the same answers.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(2)))
>>> mine = tc.view(state, 0)
>>> len(unseen_cards(mine)), winning_so_far(mine), points_this_deal(mine)
(39, None, (0, 0, 0, 0))
"""

from __future__ import annotations

import warnings

from ..core.cards import ALL_MASK, Card, Suit, cards_of, mask_of, suit_mask
from ..core.rules import trick_winner as _trick_winner
from .seat_view import View

__all__ = ["known_voids", "points_this_deal", "trick_winner", "unseen_cards", "winning_so_far"]


def winning_so_far(v: View) -> int | None:
    """The seat winning the trick in progress so far (R-CX-3), ``None`` before its lead.

    The engine's own trick rule (:func:`trixcomplex.core.rules.trick_winner`, the one
    that names the taker of a full trick), asked of the view's trick.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(2)))
    >>> winning_so_far(tc.view(state, 0)) is None    # no trick yet
    True
    """
    if not v.trick or v.leader is None:
        return None
    return _trick_winner(v.leader, v.trick)


def trick_winner(v: View) -> int | None:
    """Deprecated: :func:`winning_so_far` (the old name, easily confused with
    :func:`trixcomplex.core.rules.trick_winner`, which takes a leader and cards).

    Gives what :func:`winning_so_far` gives, with a :class:`DeprecationWarning`.
    """
    warnings.warn(
        "trixcomplex.knowledge.views.trick_winner(view) is deprecated: use "
        "trixcomplex.knowledge.views.winning_so_far(view)",
        DeprecationWarning,
        stacklevel=2,
    )
    return winning_so_far(v)


def unseen_cards(v: View) -> tuple[Card, ...]:
    """The cards still in the other seats' hands, as this seat knows them: every card
    that is neither in its own hand nor played (to a trick, or laid in TRIX).

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(2)))
    >>> len(unseen_cards(tc.view(state, 0)))
    39
    """
    if sum(v.hand_sizes) == len(v.hand):  # between deals, or nobody else holds a card
        return ()
    gone = mask_of(v.hand) | mask_of(v.trick) | mask_of(v.table)
    for t in v.tricks:
        gone |= mask_of(t.cards)
    return cards_of(ALL_MASK & ~gone)


def known_voids(
    v: View,
) -> tuple[frozenset[Suit], frozenset[Suit], frozenset[Suit], frozenset[Suit]]:
    """Per seat, the suits it is known to hold none of: the view's ``voids`` (showing
    out, R-CX-2; R-CL-2), a suit whose every unseen card it ``cannot_hold`` (R-TX-3,
    R-OPT-2), and for this seat the suits missing from its own hand.
    """
    unseen = mask_of(unseen_cards(v))
    out: list[frozenset[Suit]] = []
    for seat in range(4):
        suits = set(v.voids[seat])
        cannot = mask_of(v.cannot_hold[seat])
        for suit in Suit:
            if seat == v.seat:  # my own hand says it all
                if not mask_of(v.hand) & suit_mask(suit):
                    suits.add(suit)
                continue
            left = unseen & suit_mask(suit)
            if left and not left & ~cannot:
                suits.add(suit)
        out.append(frozenset(suits))
    return (out[0], out[1], out[2], out[3])


def points_this_deal(v: View) -> tuple[int, int, int, int]:
    """The points each seat has been charged or awarded so far in the deal being
    played: the engine's own running total of the finished tricks (``view.points``,
    what :func:`~trixcomplex.ledger` lists for them); all zero in TRIX, which is
    scored when it ends (R-TX-4)."""
    return v.points
