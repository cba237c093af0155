"""The runner's report of each card, read back from the state it left (issue 27): the
views and the observation trackers consume one delta, the runner's ``CardStep``s.

Checks R-CX-3 (the taker of each finished trick leads next), R-CX-5 (what each trick
cost), R-TX-4 (the seats that went out) and R-SEAT-1 (who moves next): the delta
read back from a state equals, field for field, what the runner reported when it
made the moves, over random matches of every ruleset and runs of one to six moves.
"""

from __future__ import annotations

import pytest

import trixcomplex as tc
from builders import VIEW_RULESETS, random_match_of
from trixcomplex.card_deltas import steps_since
from trixcomplex.runner import card_steps

_CARD_PHASES = (tc.Phase.COMPLEX, tc.Phase.TRICKS, tc.Phase.TRIX)


def _seen(state: tc.MatchState) -> tuple[int, int, int, tuple[int, int, int, int]]:
    """What a reader of ``state`` knows before the moves: tricks done, cards in the trick
    in progress, seats out, the deal's points."""
    deal = state.deal
    if isinstance(deal, tc.TrickDeal):
        return len(deal.tricks), len(deal.trick), 0, deal.points
    assert isinstance(deal, tc.TrixDeal)
    return 0, 0, len(deal.finishing_order), (0, 0, 0, 0)


@pytest.mark.parametrize("ruleset", VIEW_RULESETS, ids=lambda r: r.name)
def test_r_cx_3_r_tx_4_the_delta_read_back_is_the_runners_report(ruleset: tc.Ruleset) -> None:
    """R-CX-3, R-CX-5, R-TX-4, R-SEAT-1: for every run of 1 … 6 card moves inside one
    deal, ``steps_since`` of the state after equals ``runner.card_steps`` of the state
    before (seat, card, next turn, the trick finished, its points, going out)."""
    compared = finished = out = 0
    for seed in range(3):
        states = random_match_of(ruleset, seed)
        for i, before in enumerate(states):
            if before.phase not in _CARD_PHASES:
                continue
            for n in range(1, 7):
                if i + n >= len(states):
                    break
                after = states[i + n]
                if after.phase is not before.phase or after.deal_number != before.deal_number:
                    break
                moves = list(after.history.newest_first())[:n][::-1]
                if not all(isinstance(m, tc.Play | tc.Pass) for m in moves):
                    break
                _, reported = card_steps(before, moves)
                read = steps_since(after, moves, *_seen(before))
                assert read == reported, (ruleset.name, seed, i, n)
                compared += 1
                finished += sum(step.trick is not None for step in reported)
                out += sum(step.out for step in reported)
    assert compared > 500 and finished > 50
    assert out > 0  # TRIX was played: seats went out


def test_a_run_that_does_not_fit_the_state_is_refused() -> None:
    """The counts must fit: moves that do not bring the deal from what the reader saw to
    the state give ``None`` (the reader then looks afresh), never a made-up delta."""
    states = random_match_of(tc.PARTNERSHIP, 1)
    i = next(
        i
        for i, s in enumerate(states)
        if s.phase is tc.Phase.COMPLEX and states[i + 2].phase is tc.Phase.COMPLEX
    )
    before, after = states[i], states[i + 2]
    moves = list(after.history.newest_first())[:2][::-1]
    assert steps_since(after, moves, *_seen(before)) is not None
    assert steps_since(after, moves[1:], *_seen(before)) is None  # one move short
    assert steps_since(after, moves, *_seen(states[i + 1])) is None  # seen one move later
