"""The engine face: errors, scores, value semantics and structural sharing."""

from __future__ import annotations

import copy
import itertools
import pickle

import pytest

import trixcomplex as tc
from builders import HEARTS_DEAL, SUITS_DEAL, finish_deal, plays, random_match, start_complex


def test_new_match_waits_for_a_deal() -> None:
    state = tc.new_match()
    assert state.phase is tc.Phase.DEAL and state.deal_number == 0 and state.kingdom == 0
    assert state.owner is None and state.hands == (0, 0, 0, 0)
    assert state.to_act == frozenset() and tc.legal_moves(state) == ()
    assert len(state.history) == 0
    assert tc.new_match() == state and hash(tc.new_match()) == hash(state)


# -- IllegalMoveError ---------------------------------------------------------


def test_illegal_move_error_carries_move_rule_and_a_readable_message() -> None:
    state = plays(start_complex(HEARTS_DEAL), "5H")
    before = copy.deepcopy(state)
    move = tc.Play(1, "AS")
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, move)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.move is move
    assert err.rule == "R-CX-2"
    assert err.reason == "seat 1 must follow suit ♥"
    assert str(err) == "seat 1 plays AS: seat 1 must follow suit ♥ (R-CX-2)"
    assert state == before and hash(state) == hash(before)
    assert not tc.is_legal(state, move)


def test_illegal_move_error_pickles() -> None:
    err = tc.IllegalMoveError(tc.Pass(2), "not now", "R-TX-3")
    back = pickle.loads(pickle.dumps(err))
    assert (back.move, back.reason, back.rule, str(back)) == (
        tc.Pass(2),
        "not now",
        "R-TX-3",
        str(err),
    )


@pytest.mark.parametrize(
    ("setup", "move", "rule"),
    [
        ("cx_first", tc.Play(2, "2D"), "R-CX-1"),
        ("cx_mid", tc.Play(3, "2H"), "R-SEAT-1"),
        ("cx_next", tc.Play(0, "2S"), "R-CX-3"),
        ("trix", tc.Play(0, "JS"), "R-TX-1"),
        ("trix", tc.Pass(2), "R-TX-1"),
        ("choose", tc.Choose(2, "COMPLEX"), "R-MATCH-5"),
        ("choose", tc.Play(0, "5H"), "R-MATCH-5"),
        ("window", tc.Play(0, "5H"), "R-DBL-2"),
        ("window", tc.Choose(0, "TRIX"), "R-DBL-2"),
        ("new", tc.Play(0, "5H"), "R-MATCH-2"),
        ("new", tc.Double(0, []), "R-DBL-1"),
        ("new", tc.Pass(0), "R-MATCH-2"),
        ("cx_first", tc.Choose(0, "TRIX"), "R-CX-1"),
        ("trix", tc.Choose(1, "TRIX"), "R-TX-1"),
    ],
)
def test_turn_and_phase_errors_name_the_right_rule(setup: str, move: tc.Move, rule: str) -> None:
    """R-SEAT-1, R-CX-1, R-CX-3, R-TX-1, R-MATCH-5, R-DBL-2: who may move now."""
    states = {
        "new": tc.new_match(),
        "choose": tc.apply(tc.new_match(), HEARTS_DEAL),
        "window": tc.apply(tc.apply(tc.new_match(), HEARTS_DEAL), tc.Choose(0, "COMPLEX")),
        "cx_first": start_complex(HEARTS_DEAL),
        "cx_mid": plays(start_complex(HEARTS_DEAL), "5H"),
        "cx_next": plays(start_complex(HEARTS_DEAL), "5H KH QD 9H"),
        "trix": tc.apply(tc.apply(tc.new_match(), SUITS_DEAL), tc.Choose(1, "TRIX")),
    }
    state = states[setup]
    twin = copy.copy(state)
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, move)
    assert info.value.rule == rule
    assert info.value.move is move
    assert str(info.value).startswith(f"{move}: ") and str(info.value).endswith(f"({rule})")
    assert state == twin
    assert not tc.is_legal(state, move)
    assert move not in tc.legal_moves(state)


def test_apply_rejects_a_non_move() -> None:
    with pytest.raises(TypeError, match="not a move"):
        tc.apply(tc.new_match(), "deal")  # type: ignore[arg-type]


def test_is_legal_covers_deal_and_timeout() -> None:
    state = tc.new_match()
    assert tc.is_legal(state, HEARTS_DEAL) and not tc.is_legal(state, tc.Timeout())
    state = tc.apply(state, HEARTS_DEAL)
    assert tc.is_legal(state, tc.Timeout()) and not tc.is_legal(state, HEARTS_DEAL)


# -- legal_moves and to_act ---------------------------------------------------


def test_legal_moves_by_seat_and_to_act() -> None:
    state = tc.apply(tc.apply(tc.new_match(), HEARTS_DEAL), tc.Choose(0, "COMPLEX"))
    assert state.to_act == {0, 1, 2, 3}
    everyone = tc.legal_moves(state)
    assert everyone == tuple(m for s in range(4) for m in tc.legal_moves(state, s))
    assert all(isinstance(m, tc.Double) for m in everyone)
    # Seat 3 holds QH and QC: 4 answers; the others one doublable card: 2 each.
    assert [len(tc.legal_moves(state, s)) for s in range(4)] == [2, 2, 2, 4]


# -- score --------------------------------------------------------------------


def test_score_seats_count_finished_deals_and_current_the_deal_in_progress() -> None:
    state = plays(start_complex(HEARTS_DEAL), "5H KH QD 9H")
    s = tc.score(state)
    assert s.seats == (0, 0, 0, 0) and s.teams == (0, 0) and s.deals == ()
    assert s.current == (0, -125, 0, 0) and s.result is None
    state = finish_deal(state)
    s = tc.score(state)
    assert s.current == (0, 0, 0, 0)
    assert s.seats == state.results[0].points and sum(s.seats) == -500
    assert s.deals == state.results
    state = tc.apply(tc.apply(state, SUITS_DEAL), tc.Play(0, "JS"))  # deal 2: TRIX
    assert tc.score(state).current == (0, 0, 0, 0)  # TRIX points come at its end
    assert tc.score(state).seats == s.seats


def test_between_deals_hands_are_empty_and_deals_are_none() -> None:
    state = finish_deal(start_complex(HEARTS_DEAL))
    assert state.phase is tc.Phase.DEAL
    assert state.hands == (0, 0, 0, 0) and state.trick_deal is None and state.trix is None
    assert state.contract is None and state.turn is None and state.window is None
    assert state.owner == 0 and state.deal_number == 1


# -- value semantics ----------------------------------------------------------


def test_states_compare_by_value_and_hash() -> None:
    a = plays(start_complex(HEARTS_DEAL), "5H KH")
    b = plays(start_complex(HEARTS_DEAL), "5H KH")
    assert a is not b and a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    c = plays(start_complex(HEARTS_DEAL), "5H")
    assert a != c
    assert pickle.loads(pickle.dumps(a)) == a
    with pytest.raises(AttributeError):
        a.phase = tc.Phase.OVER  # type: ignore[misc]


def test_the_same_moves_give_equal_states() -> None:
    first = random_match(21)
    second = random_match(21)
    assert first[-1] == second[-1] and hash(first[-1]) == hash(second[-1])
    replay = tc.new_match()
    for move in first[-1].history:
        replay = tc.apply(replay, move)
    assert replay == first[-1]


def test_history_is_persistent() -> None:
    state = plays(start_complex(HEARTS_DEAL), "5H KH")
    moves = state.history.moves()
    assert moves[0] == HEARTS_DEAL and moves[1] == tc.Choose(0, "COMPLEX")
    assert moves[-2:] == (tc.Play(0, "5H"), tc.Play(1, "KH"))
    assert state.history.since_deal() == moves
    assert state.history.last == tc.Play(1, "KH")
    assert tc.new_match().history.since_deal() == ()


# -- structural sharing -------------------------------------------------------


def test_apply_shares_unchanged_parts_within_a_trick() -> None:
    old = plays(start_complex(HEARTS_DEAL, {1: "KH"}), "5H KH QD 9H KS")
    new = tc.apply(old, tc.Play(2, "2D"))
    assert old.trick_deal is not None and new.trick_deal is not None and new is not old
    assert new.results is old.results
    assert new.scores is old.scores
    assert new.trick_deal.tricks is old.trick_deal.tricks
    assert new.trick_deal.doubled is old.trick_deal.doubled
    assert new.trick_deal.points is old.trick_deal.points
    for seat in (0, 1, 3):
        assert new.hands[seat] is old.hands[seat]
    assert new.history._prev is old.history  # the whole prefix is shared, not copied


def test_apply_shares_finished_tricks_when_a_trick_ends() -> None:
    old = plays(start_complex(HEARTS_DEAL), "5H KH QD 9H KS 2D 2H")
    new = tc.apply(old, tc.Play(0, "2S"))
    assert old.trick_deal is not None and new.trick_deal is not None
    assert len(new.trick_deal.tricks) == 2
    assert new.trick_deal.tricks[0] is old.trick_deal.tricks[0]
    assert new.hands[1] is old.hands[1] and new.hands[2] is old.hands[2]


def test_apply_shares_results_and_history_across_deals() -> None:
    states = random_match(22)
    for old, new in itertools.pairwise(states):
        assert new.history._prev is old.history
        if len(new.results) == len(old.results):
            assert new.results is old.results
        else:
            assert all(a is b for a, b in zip(old.results, new.results, strict=False))
        if new.phase is tc.Phase.TRIX and old.phase is tc.Phase.TRIX:
            mover = old.turn
            for seat in range(4):
                if seat != mover:
                    assert new.hands[seat] is old.hands[seat]


def test_a_pickled_state_equals_and_hashes_like_the_original() -> None:
    """A round-tripped state (its history rebuilt in one go) still compares by value."""
    states = random_match(23, until=150)
    for state in states[::10]:
        back = pickle.loads(pickle.dumps(state))
        assert back == state and hash(back) == hash(state)
        assert back.history.moves() == state.history.moves()
        assert back.history.since_deal() == state.history.since_deal()
        for move in tc.legal_moves(state)[:3]:
            assert tc.apply(back, move) == tc.apply(state, move)
            assert hash(tc.apply(back, move)) == hash(tc.apply(state, move))
    a, b = states[40], states[41]
    assert pickle.loads(pickle.dumps(a)) != b and hash(a.history) != hash(b.history)
