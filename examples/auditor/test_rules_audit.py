"""An auditor's properties of the rules, written with the public kit only.

Run with ``python -m pytest examples/auditor`` (add ``--trix-ruleset classic``
to play the fixtures' match under another ruleset).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from trixcomplex.testing import (
    check_state,
    check_view,
    illegal_moves_of,
    legal_moves_of,
    matches,
    states,
    views,
)


@settings(max_examples=10, deadline=None)
@given(matches())
def test_r_sum_1_every_match_keeps_the_invariants(match: list[tc.MatchState]) -> None:
    """R-SUM-1, R-MATCH-7 and the rest of check_state, at every state of any match."""
    for state in match:
        check_state(state)
    final = match[-1]
    assert final.phase is tc.Phase.OVER
    if final.ruleset.partnership:  # R-SUM-1: complete Kingdoms leave the teams opposite
        assert sum(tc.score(final).teams) == 0


@settings(max_examples=25, deadline=None)
@given(states(tc.Phase.TRIX), st.data())
def test_r_tx_3_a_pass_is_legal_only_without_a_card_to_lay(
    state: tc.MatchState, data: st.DataObject
) -> None:
    """R-TX-3: whoever may pass has no Play among its legal moves."""
    for seat in state.to_act:
        moves = tc.legal_moves(state, seat)
        if tc.Pass(seat) in moves:
            assert not any(isinstance(m, tc.Play) for m in moves)
    after = tc.apply(state, data.draw(legal_moves_of(state)))
    check_state(after)


@settings(max_examples=25, deadline=None)
@given(states(), st.data())
def test_a_refused_move_names_its_clause_and_leaves_the_state(
    state: tc.MatchState, data: st.DataObject
) -> None:
    """Every move the kit says must be refused is refused, naming that clause."""
    refusal = data.draw(illegal_moves_of(state))
    try:
        tc.apply(state, refusal.move)
    except tc.TrixError as exc:
        assert exc.rule == refusal.rule
    else:
        raise AssertionError(f"{refusal.move} was accepted")
    check_state(state)


@settings(max_examples=25, deadline=None)
@given(views())
def test_r_hid_1_every_view_is_one_a_seat_could_see(seen: tc.View) -> None:
    check_view(seen)


def test_r_match_8_the_fixture_match_ends_with_a_result(
    trix_match: list[tc.MatchState], trix_ruleset: tc.Ruleset
) -> None:
    """The plugin's fixtures: a whole seeded match of the ruleset chosen on the command
    line (``--trix-ruleset``), ending with a result (R-MATCH-8)."""
    final = trix_match[-1]
    assert final.ruleset == trix_ruleset
    assert tc.score(final).result is not None
    for state in trix_match[::50]:
        for seat in (0, 1, 2, 3, None):
            check_view(tc.view(state, seat))


def test_the_fixture_record_replays_to_the_fixture_match(
    trix_record: tc.Record, trix_match: list[tc.MatchState]
) -> None:
    assert tc.replay(trix_record) == trix_match[-1]
