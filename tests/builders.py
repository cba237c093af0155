"""Shared test helpers: hand-built deals and random matches."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import trixcomplex as tc
from trixcomplex.cards import ALL_CARDS, parse_card


def deal_of(hands: Sequence[Iterable[str]]) -> tc.Deal:
    """The Deal giving each seat the cards named (13 each, codes like ``"KH"``).

    Seats may be given fewer than 13 cards: the rest of the deck is handed out
    in index order to fill them up.
    """
    named = [[parse_card(c) for c in hand] for hand in hands]
    while len(named) < 4:
        named.append([])
    used = {c for hand in named for c in hand}
    if len(used) != sum(len(h) for h in named):
        raise ValueError("a card is named twice")
    rest = [c for c in ALL_CARDS if c not in used]
    for hand in named:
        if len(hand) > 13:
            raise ValueError("a hand holds at most 13 cards")
        while len(hand) < 13:
            hand.append(rest.pop(0))
    deck = [named[i % 4][i // 4] for i in range(52)]
    return tc.Deal(deck)


def play(state: tc.MatchState, *moves: tc.Move) -> tc.MatchState:
    """Apply ``moves`` in order."""
    for move in moves:
        state = tc.apply(state, move)
    return state


def random_match(seed: int, *, until: int | None = None) -> list[tc.MatchState]:
    """Every state of a random match (uniform legal moves, timeouts now and then).

    With ``until``, stop after that many moves.
    """
    rng = random.Random(seed)
    state = tc.new_match()
    states = [state]
    while state.phase is not tc.Phase.OVER and (until is None or len(states) <= until):
        if state.phase is tc.Phase.DEAL:
            move: tc.Move = tc.Deal.shuffled(rng)
        elif state.phase in (tc.Phase.CHOOSE, tc.Phase.DOUBLE) and rng.random() < 0.15:
            move = tc.Timeout()
        else:
            move = rng.choice(tc.legal_moves(state))
        state = tc.apply(state, move)
        states.append(state)
    return states
