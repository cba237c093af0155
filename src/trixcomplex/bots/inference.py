"""Inference: how likely a layout of the hidden cards made the play seen so far.

A seat's cards shape its play: a seat that ducked under a low card probably
had nothing lower, a seat that did not double its Queen probably had a
short suit.  :func:`likelihood` replays the deal's card play and doubling
answers in a layout (the four hands now) with RuleBot's rules as the model
of every other seat, and weighs the layout down by :data:`SURPRISE` for
each move the model would not have made.  The Monte Carlo bot weights its
sampled worlds (and the endgame its layouts) by it, so that the worlds
that explain the play count most.  Only public facts are read (the view's
tricks and revealed doubles) besides the layout being weighed.

>>> from trixcomplex.bots.club import position
>>> likelihood(position(0, "2S"), (1, 2, 4, 8))
1.0
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from ..core.cards import Card
from ..core.engine import Phase
from ..core.rules import trick_legal_cards
from .choosing import choose_doubles
from .club import club_card, double_by_length
from .situation import _SUITS, Situation
from .trick_play import complex_card

__all__ = ["SURPRISE", "likelihood", "plays_of_deal"]

SURPRISE = 0.25
"""A layout's weight is multiplied by this for each move the model would not have made."""


def plays_of_deal(
    sit: Situation, tricks: Sequence[tuple[int, Sequence[Card]]]
) -> list[tuple[int, Card, int, tuple[Card, ...]]]:
    """The card plays of the deal so far: ``(seat, card, leader, trick before it)``,
    from the finished ``tricks`` (``(leader, cards)``) and the trick on the table."""
    out: list[tuple[int, Card, int, tuple[Card, ...]]] = []
    for leader, cards in [*tricks, (sit.leader, sit.trick)]:
        for i, card in enumerate(cards):
            out.append(((leader + i) % 4, card, leader, tuple(cards[:i])))
    return out


def likelihood(
    sit: Situation,
    hands: tuple[int, int, int, int],
    tricks: Sequence[tuple[int, Sequence[Card]]] = (),
    version: int = 2,
) -> float:
    """How likely the ``hands`` (a layout of every seat's cards now) made the other
    seats' observed moves, under RuleBot's rules (``version``) as their model:
    :data:`SURPRISE` to the power of the moves the model would not have made.  The
    model of version 2 knows what that seat knew then: the voids shown before the
    move and the doubled cards not yet played.

    ``sit`` is the deciding seat's situation; ``tricks`` the deal's finished tricks
    as ``(leader, cards)``.  The moves weighed are the card plays of the other seats
    with a choice, and in a contract with a doubling window each other seat's
    answer (the doubles revealed).
    """
    plays = plays_of_deal(sit, tricks)
    start = list(hands)
    for seat, card, _, _ in plays:
        start[seat] |= 1 << card
    held = list(start)
    gone = sit.gone & ~sum((1 << c for _, c, _, _ in plays), 0)
    weight = 1.0
    rules = sit.rules
    if rules.doublable and sit.contract is not None:
        for seat in range(4):
            asked = start[seat] & rules.doublable
            if seat == sit.seat or not asked:
                continue
            window = _situation(sit, seat, start[seat], gone, (), sit.owner, Phase.DOUBLE)
            chosen = choose_doubles(window, asked)
            if version >= 2:
                chosen |= double_by_length(window, asked)
            shown = sum((1 << c for c, d in sit.doubled if d == seat), 0)
            if chosen != shown:
                weight *= SURPRISE
    voids = [0, 0, 0, 0]  # the suits each seat has shown out of so far (public)
    for seat, card, leader, before in plays:
        if seat != sit.seat:
            legal = trick_legal_cards(held[seat], before, rules)
            if legal & (legal - 1):
                then = _situation(sit, seat, held[seat], gone, before, leader, sit.phase)
                if version >= 2:
                    then = attrs.evolve(  # type: ignore[misc]  # a TupleRecord: attrs' evolve works
                        then, void_suits=(voids[0], voids[1], voids[2], voids[3]),
                        known=_known(sit.doubled, gone, seat))  # fmt: skip
                model = club_card(then)[0] if version >= 2 else complex_card(then)
                if model != card:
                    weight *= SURPRISE
        if before and card // 13 != before[0] // 13:
            voids[seat] |= _SUITS[before[0] // 13]
        held[seat] &= ~(1 << card)
        gone |= 1 << card
    return weight


def _known(
    doubled: tuple[tuple[Card, int], ...], gone: int, seat: int
) -> tuple[int, int, int, int]:
    """Per seat, its revealed doubled cards not played yet (``seat`` knows its own hand)."""
    known = [0, 0, 0, 0]
    for card, doubler in doubled:
        if doubler != seat and not gone >> card & 1:
            known[doubler] |= 1 << card
    return (known[0], known[1], known[2], known[3])


def _situation(
    sit: Situation, seat: int, hand: int, gone: int, trick: tuple[Card, ...], leader: int,
    phase: Phase,
) -> Situation:  # fmt: skip
    """``seat``'s situation at an earlier move of the deal (no voids yet)."""
    return Situation(
        seat, phase, sit.owner, hand, gone | sum((1 << c for c in trick), 0), trick, leader,
        sit.doubled if phase is not Phase.DOUBLE else (), 0, sit.hand_sizes, sit.contract,
        sit.ruleset, sit.remaining,
    )  # fmt: skip
