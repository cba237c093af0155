"""Random matches from a source of choices: the one random-match generator.

:func:`play_match` plays a match of any ruleset, asking a *draw* function for
every choice it makes: ``draw(n)`` returns an int in ``range(n)``.  Fed by
:class:`random.Random` (:func:`random_match`) it gives a seeded random match;
fed by Hypothesis (:func:`trixcomplex.testing.matches`) the same generator
shrinks, since every choice is an index and index 0 is the simplest answer:
the first listed move, the first shuffle, no timeout, no redeal.

It lives outside :mod:`trixcomplex.testing` so that tools with no Hypothesis
installed (the conformance suite) play the very same matches.

>>> import trixcomplex as tc
>>> states = random_match(tc.PARTNERSHIP, 7)
>>> states[0].phase, states[-1].phase
(<Phase.DEAL: 'DEAL'>, <Phase.OVER: 'OVER'>)
>>> random_match(tc.PARTNERSHIP, 7) == states
True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..core.cards import ALL_CARDS, Card, Rank, Suit
from ..core.engine import MatchState, Phase, apply, legal_moves, new_match
from ..core.moves import Deal, Move, Redeal, Timeout
from ..core.rulesets import Ruleset

__all__ = ["Draw", "four_twos_deal", "play_match", "random_match"]

Draw = Callable[[int], int]
"""A source of choices: ``draw(n)`` is an int in ``range(n)`` (``n >= 2``)."""

SHUFFLES = 2**32
"""How many decks a deal draws from: a deck is ``Deal.shuffled`` of a seed below this."""

MOST_MOVES_PER_DEAL = 4 * 52 + 16
"""More moves than any deal takes: a choice, a doubling window, and 52 cards laid with
at most three passes before each (someone can always lay in TRIX, R-TX-2)."""

_TWOS = tuple(Card.of(Rank.TWO, suit) for suit in Suit)


def four_twos_deal(seat: int, rng: random.Random) -> Deal:
    """A shuffled deck that gives ``seat`` the four 2s: a bad TRIX hand (R-OPT-8)."""
    rest = [c for c in ALL_CARDS if c not in _TWOS]
    rng.shuffle(rest)
    hands: list[list[Card]] = [[], [], [], []]
    hands[seat] = list(_TWOS)
    for s in range(4):
        while len(hands[s]) < 13:
            hands[s].append(rest.pop())
    return Deal([hands[i % 4][i // 4] for i in range(52)])


def _deal(ruleset: Ruleset, draw: Draw, bad_hands: bool) -> Deal:
    """The next deck: a seeded shuffle, or (1 in 4 with R-OPT-8's redeal) four 2s to a seat."""
    if bad_hands and ruleset.bad_hand_redeal and draw(4) == 3:
        seat = draw(4)
        return four_twos_deal(seat, random.Random(draw(SHUFFLES)))
    return Deal.shuffled(random.Random(draw(SHUFFLES)))


def _choice(state: MatchState, draw: Draw, timeout_rate: int) -> Move:
    """The next move in a playing phase: a timeout at the match's rate in the windows,
    a listed Redeal half the time, else a listed move by its drawn index."""
    if timeout_rate and state.phase in (Phase.CHOOSE, Phase.DOUBLE):
        late = draw(5)
        if (timeout_rate == 1 and late == 4) or (timeout_rate == 2 and late != 0):
            return Timeout()
    moves = legal_moves(state)
    if any(isinstance(m, Redeal) for m in moves) and draw(2) == 1:
        return next(m for m in moves if isinstance(m, Redeal))
    return moves[draw(len(moves))] if len(moves) > 1 else moves[0]


def play_match(
    ruleset: Ruleset,
    draw: Draw,
    *,
    until: int | None = None,
    stop: Callable[[MatchState], bool] | None = None,
    timeouts: bool = True,
    bad_hands: bool = True,
) -> list[MatchState]:
    """Every state of a match of ``ruleset`` whose every choice is ``draw``'s.

    The match ends when it is over, after ``until`` moves, or at the first state for
    which ``stop(state)`` is true.  With ``timeouts`` the match draws once whether its
    choosing and doubling windows never, sometimes or mostly time out; with
    ``bad_hands`` and R-OPT-8's redeal, a quarter of the decks give a seat the four
    2s, and an offered Redeal is demanded half the time, so redeals happen.
    """
    timeout_rate = draw(3) if timeouts else 0
    state = new_match(ruleset)
    states = [state]
    in_deal = 0
    while state.phase is not Phase.OVER and (until is None or len(states) <= until):
        if stop is not None and stop(state):
            break
        if state.phase is Phase.DEAL:
            in_deal = 0
            move: Move = _deal(ruleset, draw, bad_hands)
        else:
            in_deal += 1
            if in_deal > MOST_MOVES_PER_DEAL:  # R-CX-4, R-TX-2: every deal ends
                raise AssertionError(f"deal {state.deal_number} does not end")
            move = _choice(state, draw, timeout_rate)
        state = apply(state, move)
        states.append(state)
    return states


def random_match(
    ruleset: Ruleset, seed: int, *, until: int | None = None, timeouts: bool = True
) -> list[MatchState]:
    """Every state of the seeded random match ``seed`` of ``ruleset`` (:func:`play_match`
    drawing from ``random.Random(seed)``): the same seed gives the same match."""
    rng = random.Random(seed)
    return play_match(ruleset, rng.randrange, until=until, timeouts=timeouts)
