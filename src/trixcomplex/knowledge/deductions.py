"""What the public moves of a deal show of the hands: voids and cards a seat cannot hold.

A seat's view (:func:`~trixcomplex.view`) lists, for every seat, the suits it
is known to be void in and the unplayed cards it is known not to hold.  Those
facts are deduced from the public moves only, by the functions here, the one
home of each deduction:

- a seat that plays off the led suit has none of it (R-CX-2), and a seat
  that leads a heart where hearts may not be led while holding another suit
  holds hearts only (R-CL-2): :func:`show_trick_cards_since`;
- a seat that discards a card other than a penalty card, where penalty cards
  must be discarded first, holds no penalty card (R-OPT-2):
  :func:`show_trick_cards_since`;
- a seat that passes in TRIX holds no card playable on the table (R-TX-3):
  :func:`shown_by_pass`.

:func:`~trixcomplex.view` folds them over the whole deal, and
:func:`~trixcomplex.view_after_moves` and the observation tensors of
:mod:`trixcomplex.rl` over the moves since an earlier moment of it.

>>> import random
>>> import trixcomplex as tc
>>> from trixcomplex.core.cards import cards_of
>>> [str(c) for c in cards_of(shown_by_pass(0))]   # an empty table: only the Jacks
['JS', 'JH', 'JD', 'JC']
"""

from __future__ import annotations

from ..core.cards import Card, Suit
from ..core.engine import MatchState, Trick, TrickDeal
from ..core.moves import Pass, Play
from ..core.rules import trix_playable

__all__ = ["played_in_tricks", "show_trick_cards_since", "shown_by_pass", "trix_history"]

_NOT_HEARTS = frozenset(s for s in Suit if s is not Suit.HEARTS)
_VOID_IN = tuple(frozenset((s,)) for s in Suit)
_HEARTS = int(Suit.HEARTS)


def show_trick_cards_since(
    voids: list[frozenset[Suit]],
    cannot: list[int],
    deal: TrickDeal,
    done: int,
    start: int,
    no_heart_lead: bool,
    discard_first: int,
) -> int:
    """Add to ``voids`` and ``cannot`` (per seat) what the cards played in ``deal`` since
    ``done`` tricks were finished and ``start`` cards played to the next one show of
    their players' hands: the rest of that trick, the tricks finished since, the
    trick in progress.  The seats whose entry of ``voids`` grew (each is
    replaced only when it grows), as a set of bits (``1 << seat``).

    Voids: a seat that played off the led suit has none of it (R-CX-2); a
    seat that led a heart where hearts may not be led while holding another
    suit holds hearts only (R-CL-2).  Cannot-hold: a seat that discarded a
    card other than a penalty card, where penalty cards must be discarded
    first, holds no penalty card (R-OPT-2).

    :func:`~trixcomplex.view` takes it over the whole deal (``done=start=0``);
    :func:`~trixcomplex.view_after` and the observation tensors of
    :class:`trixcomplex.rl.observation.TensorTracker` take it from an earlier
    moment of the deal to its present.
    """
    grew = 0
    tricks = deal.tricks
    last = len(tricks)
    cards: tuple[Card, ...]
    for k in range(done, last + 1):  # the trick in progress before, newer ones, the present one
        if k < last:
            leader, cards = tricks[k].leader, tricks[k].cards
        else:
            leader, cards = deal.leader, deal.trick
            if not cards:
                break
        led = cards[0] // 13
        if not start:
            if no_heart_lead and led == _HEARTS and not voids[leader] >= _NOT_HEARTS:
                voids[leader] = voids[leader] | _NOT_HEARTS
                grew |= 1 << leader
            start = 1
        for i in range(start, len(cards)):
            card = cards[i]
            if card // 13 != led:
                who = (leader + i) % 4
                if led not in voids[who]:
                    voids[who] = voids[who] | _VOID_IN[led]
                    grew |= 1 << who
                if discard_first and not discard_first >> card & 1:
                    cannot[who] |= discard_first
        start = 0
    return grew


def shown_by_pass(table: int) -> int:
    """The cards a seat that passes in TRIX with ``table`` laid cannot hold: every card
    playable on it (R-TX-3).  :func:`~trixcomplex.view`, :func:`~trixcomplex.view_after`
    and the observation tensors of :class:`trixcomplex.rl.observation.TensorTracker`
    all ask this."""
    return trix_playable(table)


def played_in_tricks(tricks: tuple[Trick, ...], trick: tuple[Card, ...]) -> int:
    """The cards played so far in a trick deal (its finished ``tricks`` and the ``trick``
    in progress), as a set: what :func:`~trixcomplex.view` and the observation tensors
    of :class:`trixcomplex.rl.observation.TensorTracker` take out of the cards a seat
    cannot hold or is known to hold."""
    played = 0
    for t in tricks:
        a, b, c, d = t.cards
        played |= 1 << a | 1 << b | 1 << c | 1 << d
    for card in trick:
        played |= 1 << card
    return played


def trix_history(
    state: MatchState,
) -> tuple[tuple[tuple[int, Card], ...], tuple[tuple[int, int], ...], list[int]]:
    """The TRIX deal's public moves: cards laid, passes, and what each passer cannot hold.

    Reads only :class:`~trixcomplex.Play` and :class:`~trixcomplex.Pass` moves of the
    current deal; the :class:`~trixcomplex.Deal` (the full deck) is skipped, never
    looked into (R-HID-3).
    """
    laid: list[tuple[int, Card]] = []
    passes: list[tuple[int, int]] = []
    cannot = [0, 0, 0, 0]
    table = 0
    for move in state.history.since_deal():
        if type(move) is Play:
            laid.append((move.seat, move.card))
            table |= 1 << move.card
        elif type(move) is Pass:
            passes.append((move.seat, len(laid)))
            cannot[move.seat] |= shown_by_pass(table)
    return tuple(laid), tuple(passes), cannot
