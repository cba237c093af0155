"""Choices where the game's descriptions are silent (docs/rules.rst, "Choices
where the sources are silent") that no clause's own tests pin."""

from __future__ import annotations

import random

import pytest

import trixcomplex as tc

RULESETS = [
    *tc.RULESETS.values(),
    tc.CLASSIC.evolve(doubling=False),
    tc.CLASSIC.evolve(fixed_order=True),
    tc.CLASSIC_PARTNERSHIP.evolve(combined_contracts=True, bad_hand_redeal=True),
]


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_r_cl_1_the_owner_plays_first_in_every_contract_of_every_ruleset(
    ruleset: tc.Ruleset,
) -> None:
    """R-CL-1, R-CX-1, R-TX-1: classic tables have the owner deal and lead; here
    nobody deals, and the Kingdom owner leads the first trick of every trick
    contract (after the doubling window, if any) and lays first in TRIX."""
    rng = random.Random(ruleset.name)
    state = tc.new_match(ruleset)
    starts = 0
    while not state.is_over:
        if state.phase is tc.Phase.DEAL:
            after = tc.apply(state, tc.Deal.shuffled(rng))
        else:
            after = tc.apply(state, rng.choice(tc.legal_moves(state)))
        playing = (tc.Phase.COMPLEX, tc.Phase.TRICKS, tc.Phase.TRIX)
        if after.phase in playing and state.phase not in playing:
            assert after.turn == after.owner, (ruleset.name, after.deal_number, after.contract)
            starts += 1
        state = after
    assert starts >= len(state.results)
