"""The engine's two remembered answers never change an answer (R-MATCH-1, R-SET-2, R-CX-2).

``kingdom_after`` remembers its last answer for a results tuple, and
``apply`` trusts the moves ``legal_moves`` listed last for the same state.
Both must give exactly what computing afresh gives, whatever the order of
calls.
"""

from __future__ import annotations

import random

import pytest

import trixcomplex as tc
from trixcomplex.core.kingdoms import _kingdom_after, kingdom_after


def _finished(ruleset: tc.Ruleset, seed: int) -> tc.MatchState:
    return tc.playout(tc.new_match(ruleset), random.Random(seed), until="match")


@pytest.mark.parametrize("ruleset", [tc.PARTNERSHIP, tc.CLASSIC.evolve(combined_contracts=True)])
def test_r_match_1_kingdom_after_equals_a_fresh_count_in_any_order(ruleset: tc.Ruleset) -> None:
    results = _finished(ruleset, 5).results
    prefixes = [results[:n] for n in range(len(results) + 1)]
    rng = random.Random(1)
    for _ in range(3 * len(prefixes)):
        prefix = rng.choice(prefixes)
        other = rng.choice([ruleset, tc.PARTNERSHIP, tc.CLASSIC])
        for rs in (ruleset, other, ruleset):
            assert kingdom_after(prefix, rs) == _kingdom_after(prefix, rs)


def test_r_set_2_kingdom_after_does_not_remember_a_list() -> None:
    """A list may change between two calls: its answer is computed each time."""
    results = list(_finished(tc.PARTNERSHIP, 6).results[:2])
    assert kingdom_after(results, tc.PARTNERSHIP) == (2, frozenset())
    del results[1]
    assert kingdom_after(results, tc.PARTNERSHIP) == (1, frozenset({results[0].contract}))


def test_r_cx_2_apply_checks_a_move_listed_for_another_state() -> None:
    """The listing is trusted only for the very state it was made for."""
    rng = random.Random(2)
    state = tc.new_match()
    checked = 0
    while not state.is_over:
        if state.phase is tc.Phase.DEAL:
            state = tc.apply(state, tc.Deal.shuffled(rng))
            continue
        moves = tc.legal_moves(state)
        after = tc.apply(state, rng.choice(moves))
        if state.phase.plays_cards and after.phase is not tc.Phase.DEAL:
            # After listing the next state, the old listing's moves are checked again.
            tc.legal_moves(after)
            for move in moves:
                if not tc.is_legal(after, move):
                    with pytest.raises(tc.IllegalMoveError):
                        tc.legal_moves(state)  # the listing is now the old state's
                        tc.apply(after, move)
                    checked += 1
        state = after
    assert checked > 100
