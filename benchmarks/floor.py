"""The floor of the design: the yardstick's games played with immutable states.

:func:`floor` plays exactly the games of :func:`bench.yardstick` (the same
random draws, the same cards: it returns the same count of card plays for
the same generator), but the way the engine's public API must: a
``legal_moves`` function listing interned move objects, an ``apply``
function returning a *new* frozen state per move (a tuple-backed record of
eleven fields, like :class:`~trixcomplex.MatchState`, with new hands, a new
deal record and a new history node), the old state left intact.  It has
nothing else: no checks of the move, no rules object, no scoring, no
doubling, no contract choice, no Kingdoms, one trick rule (follow suit) and
the TRIX rows.

It answers "how fast can a public API of immutable values go in pure
Python", measured against the yardstick in the same run
(``python benchmarks/bench.py --only floor``).  The engine's self-play does
all of the above and more; this row is the ceiling its ratio can approach.
"""

from __future__ import annotations

import random
from collections import _tuplegetter  # type: ignore[attr-defined]
from typing import Any, TypeAlias

from bench import _TABLE

from trixcomplex.core.match import _replace  # the engine's own one-hand update
from trixcomplex.core.rules import trix_playable_after as playable_after

_tnew = tuple.__new__
_SUITS = tuple(0x1FFF << (13 * s) for s in range(4))
_JACKS = sum(1 << (13 * s + 9) for s in range(4))


class Play:
    """A card played by a seat (interned: one object per seat and card)."""

    __slots__ = ("card", "seat")

    def __init__(self, seat: int, card: int) -> None:
        self.seat = seat
        self.card = card


class Pass:
    """A TRIX pass (interned: one per seat)."""

    __slots__ = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat


_PLAYS = tuple(tuple(Play(seat, card) for card in range(52)) for seat in range(4))
_PASSES = tuple((Pass(seat),) for seat in range(4))


def _record(*names: str) -> Any:
    """A tuple-backed record class with the fields ``names`` (as MatchState is built)."""
    cls = type("Record", (tuple,), {"__slots__": ()})
    for index, name in enumerate(names):
        setattr(cls, name, _tuplegetter(index, name))
    return cls


# The records' fields are _tuplegetters added at run time, which mypy cannot see.
Record: TypeAlias = Any

State = _record(
    "phase", "number", "owner", "contract", "hands", "turn", "deal", "scores", "results",
    "history", "ruleset",
)  # fmt: skip
TrickDeal = _record("leader", "trick", "tricks", "doubled", "points")
TrixDeal = _record("table", "playable", "out")
History = _record("previous", "move", "length")


def plays_of(seat: int, mask: int) -> tuple[Play, ...]:
    """The interned plays of ``seat`` for the cards of ``mask``, by card."""
    t, plays = _TABLE, _PLAYS[seat]
    cards = (
        t[0][mask & 0x1FFF] + t[1][mask >> 13 & 0x1FFF]
        + t[2][mask >> 26 & 0x1FFF] + t[3][mask >> 39 & 0x1FFF]
    )  # fmt: skip
    return tuple([plays[c] for c in cards])


def legal_moves(state: Record) -> tuple[Play | Pass, ...]:
    """The seat to play's moves: follow suit in a trick, else any card; in TRIX the
    playable cards held, else the pass."""
    deal, turn = state.deal, state.turn
    hand = state.hands[turn]
    if type(deal) is TrickDeal:
        trick = deal.trick
        legal = hand & _SUITS[trick[0] // 13] if trick else 0
        return plays_of(turn, legal or hand)
    legal = hand & deal.playable
    return plays_of(turn, legal) if legal else _PASSES[turn]


def apply(state: Record, move: Play | Pass) -> Record:
    """The new state after ``move`` (no checks); ``state`` is left as it was."""
    s = state
    deal, seat = s.deal, move.seat
    history = _tnew(History, (s.history, move, 0))
    hands = s.hands
    if type(move) is Pass:
        return _tnew(State, (
            s.phase, s.number, s.owner, s.contract, hands, _next(hands, seat), deal,
            s.scores, s.results, history, s.ruleset,
        ))  # fmt: skip
    card = move.card  # type: ignore[union-attr]
    hand = hands[seat] ^ 1 << card
    hands = _replace(hands, seat, hand)
    if type(deal) is TrickDeal:
        trick = deal.trick + (card,)
        leader = deal.leader
        if len(trick) < 4:
            deal = _tnew(TrickDeal, (leader, trick, deal.tricks, (), (0, 0, 0, 0)))
            turn = (seat + 1) & 3
        else:
            turn = _taker(leader, trick)
            tricks = deal.tricks + ((leader, trick, turn),)
            deal = _tnew(TrickDeal, (turn, (), tricks, (), (0, 0, 0, 0)))
    else:
        table = deal.table | 1 << card
        can = playable_after(deal.playable, table, card)
        deal = _tnew(TrixDeal, (table, can, deal.out + (not hand)))
        turn = _next(hands, seat)
    return _tnew(State, (
        s.phase, s.number, s.owner, s.contract, hands, turn, deal,
        s.scores, s.results, history, s.ruleset,
    ))  # fmt: skip


def _taker(leader: int, cards: tuple[int, ...]) -> int:
    """The highest card of the led suit takes the trick."""
    a, b, c, d = cards
    best = ((1 << a | 1 << b | 1 << c | 1 << d) & _SUITS[a // 13]).bit_length() - 1
    return (leader + (0 if a == best else 1 if b == best else 2 if c == best else 3)) & 3


def _next(hands: tuple[int, ...], seat: int) -> int:
    """The next seat holding cards (the yardstick skips empty hands)."""
    for step in (1, 2, 3):
        if hands[(seat + step) & 3]:
            return (seat + step) & 3
    return seat


def _dealt(deck: list[int], deal: object) -> Record:
    hands = [0, 0, 0, 0]
    for i, card in enumerate(deck):
        hands[i & 3] |= 1 << card
    return _tnew(State, ("PLAY", 1, 0, None, tuple(hands), 0, deal, (0, 0, 0, 0), (), None, None))


def floor(rng: random.Random, deals: int) -> int:
    """Play ``deals`` pairs of deals as :func:`bench.yardstick` does; return the card plays."""
    plays = 0
    choice = rng.choice
    deck = list(range(52))
    for _ in range(deals):
        rng.shuffle(deck)
        state = _dealt(deck, _tnew(TrickDeal, (0, (), (), (), (0, 0, 0, 0))))
        for _card in range(52):
            moves = legal_moves(state)
            state = apply(state, choice(moves) if len(moves) > 1 else moves[0])
        plays += 52
        rng.shuffle(deck)
        state = _dealt(deck, _tnew(TrixDeal, (0, _JACKS, 0)))
        while state.deal.out < 3:
            moves = legal_moves(state)
            move = choice(moves) if len(moves) > 1 else moves[0]
            plays += type(move) is Play
            state = apply(state, move)
    return plays
