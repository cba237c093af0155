"""The shared test helpers build what they say (R-MATCH-2 dealing order)."""

from __future__ import annotations

import trixcomplex as tc
from builders import deal_of, random_match


def test_r_match_2_deal_of_gives_each_seat_its_named_cards() -> None:
    deal = deal_of([["KH", "QS"], ["7H"], [], ["AS"]])
    state = tc.apply(tc.new_match(), deal)
    assert {"KH", "QS"} <= {str(c) for c in state.hand(0)}
    assert "7H" in {str(c) for c in state.hand(1)}
    assert "AS" in {str(c) for c in state.hand(3)}
    assert all(len(state.hand(s)) == 13 for s in range(4))
    assert state.owner == 1  # R-MATCH-3: the holder of 7H


def test_random_match_reaches_the_end() -> None:
    states = random_match(0)
    assert states[-1].phase is tc.Phase.OVER
    assert len(tc.score(states[-1]).deals) == 8
