"""``apply_moves``: many moves at once, equal to ``apply`` one at a time (issue 16).

A record's or a saved game's moves are replayed by ``tc.apply_moves``, which
plays a run of card plays within a deal on locals.  These tests hold it to
``apply`` move by move: the same states (``==``, history included, and the same
JSON), from any state, over random matches of every ruleset variant; and for an
illegal move anywhere, the very error ``apply`` raises (R-SEAT-1, R-MATCH-2,
R-CX-2, R-CL-2, R-OPT-2, R-TX-1 … R-TX-3), with its index.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import (
    RULESET_VARIANTS,
    SPADES_DEAL,
    SUITS_DEAL,
    VIEW_RULESETS,
    all_candidate_moves,
    plays,
    random_match_of,
    start_complex,
    start_contract,
)


def _moves(states: list[tc.MatchState]) -> list[tc.Move]:
    """The moves between consecutive states of a match."""
    return [s.history.last for s in states[1:]]  # type: ignore[misc]


@pytest.mark.parametrize("ruleset", RULESET_VARIANTS, ids=lambda r: r.name)
def test_r_match_2_apply_moves_equals_apply_one_at_a_time(ruleset: tc.Ruleset) -> None:
    """Whole matches and random stretches of them: the state apply_moves gives is the
    state apply gives, field by field, history and JSON included."""
    rng = random.Random(ruleset.name)
    for seed in range(3):
        states = random_match_of(ruleset, seed, bad_hands=ruleset.bad_hand_redeal)
        moves = _moves(states)
        whole = tc.apply_moves(states[0], moves)
        assert whole == states[-1]
        assert whole.history == states[-1].history
        assert tc.to_json(whole) == tc.to_json(states[-1])
        for _ in range(12):
            start = rng.randrange(len(moves))
            stop = rng.randrange(start, len(moves) + 1)
            got = tc.apply_moves(states[start], moves[start:stop])
            assert got == states[stop], (seed, start, stop)
            assert list(got.history) == list(states[stop].history)
            # what a seat sees of it, and what comes next, are the same too (R-HID-1)
            for seat in (0, 1, 2, 3, None):
                assert tc.view(got, seat) == tc.view(states[stop], seat)
            assert tc.legal_moves(got) == tc.legal_moves(states[stop])
            if stop < len(moves):
                assert tc.apply(got, moves[stop]) == states[stop + 1]


def test_r_match_2_apply_moves_takes_any_iterable_and_no_moves() -> None:
    """A generator of moves works like a list; no moves give the state itself."""
    states = random_match_of(tc.PARTNERSHIP, 4)
    moves = _moves(states)
    assert tc.apply_moves(states[0], iter(moves)) == states[-1]
    assert tc.apply_moves(states[5], ()) is states[5]


def _first_error(state: tc.MatchState, move: tc.Move) -> tc.IllegalMoveError | None:
    try:
        tc.apply(state, move)
    except tc.IllegalMoveError as exc:
        return exc
    return None


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(VIEW_RULESETS), st.integers(0, 2**32 - 1), st.data())
def test_r_seat_1_an_illegal_move_in_a_run_raises_what_apply_raises(
    ruleset: tc.Ruleset, seed: int, data: st.DataObject
) -> None:
    """Any move of any kind slipped into a match's moves: apply_moves applies every move
    before it, then raises exactly apply's error for it (message, rule, move), with the
    move's index; a legal one is applied as apply applies it."""
    states = random_match_of(ruleset, seed, bad_hands=ruleset.bad_hand_redeal)
    moves = _moves(states)
    start = data.draw(st.integers(0, len(moves) - 1), label="start")
    at = data.draw(st.integers(start, len(moves) - 1), label="at")
    deal = tc.Deal.shuffled(random.Random(seed))
    wrong = data.draw(st.sampled_from(all_candidate_moves(states[at], deal)), label="move")
    tail = moves[start:at] + [wrong] + moves[at + 1 : at + 3]
    expected = _first_error(states[at], wrong)
    if expected is None:
        got = tc.apply_moves(states[start], moves[start:at] + [wrong])
        assert got == tc.apply(states[at], wrong)
        return
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply_moves(states[start], tail)
    error = info.value
    assert (str(error), error.rule, error.move) == (str(expected), expected.rule, wrong)
    assert error.index == at - start


def test_r_cx_2_a_renege_in_the_middle_of_a_trick_run() -> None:
    """A hand-built case (SPADES_DEAL: seat 0 leads): 2S, 3S, then seat 2 discards 2D
    while holding spades.  The first two cards are played, the third raises apply's
    R-CX-2 error, naming index 2; a later move of the list is never reached."""
    state = start_complex(SPADES_DEAL)
    moves = [tc.Play(0, "2S"), tc.Play(1, "3S"), tc.Play(2, "2D"), tc.Play(3, "AS")]
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply_moves(state, moves)
    error = info.value
    assert (error.rule, error.index, error.move) == ("R-CX-2", 2, moves[2])
    assert error.reason == "seat 2 must follow suit \u2660"
    assert tc.apply_moves(state, moves[:2]) == plays(state, "2S 3S")


def test_r_tx_3_a_pass_with_a_legal_card_in_a_trix_run() -> None:
    """SUITS_DEAL in TRIX (seat 1 owns and lays first): JH is laid, then seat 2, holding
    JD, passes: apply's R-TX-3 error, index 1."""
    state = start_contract(SUITS_DEAL, tc.Contract.TRIX, tc.PARTNERSHIP)
    moves = [tc.Play(1, "JH"), tc.Pass(2)]
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply_moves(state, moves)
    assert (info.value.rule, info.value.index) == ("R-TX-3", 1)
    assert info.value.reason.startswith("seat 2 holds a legal card (JD)")
    laid = tc.apply_moves(state, [tc.Play(1, "JH"), tc.Play(2, "JD"), tc.Play(3, "JC")])
    assert laid == plays(state, "JH JD JC")


def test_r_tx_1_a_pass_out_of_turn_when_the_seat_to_lay_must_pass() -> None:
    """Every TRIX state of a few matches where the seat to lay can only pass: another
    seat's pass is refused with apply's R-TX-1 error, and the right seat's is applied."""
    checked = 0
    for seed in range(6):
        for state in random_match_of(tc.PARTNERSHIP, seed):
            if state.phase is not tc.Phase.TRIX or state.turn is None:
                continue
            if tc.legal_moves(state) != (tc.Pass(state.turn),):
                continue
            other = tc.Pass((state.turn + 1) % 4)
            with pytest.raises(tc.IllegalMoveError) as info:
                tc.apply_moves(state, [other])
            assert (info.value.rule, info.value.index) == ("R-TX-1", 0)
            assert str(info.value) == str(_first_error(state, other))
            assert tc.apply_moves(state, [tc.Pass(state.turn)]) == tc.apply(
                state, tc.Pass(state.turn)
            )
            checked += 1
    assert checked >= 10


def test_r_seat_1_the_seat_to_play_card_played_by_another_seat() -> None:
    """At every card-playing state of a few matches (tricks and TRIX), a legal card of the
    seat to play, named as another seat's play, is refused with apply's error (R-SEAT-1,
    R-TX-1), never laid for the seat to play."""
    checked = 0
    for ruleset in (tc.PARTNERSHIP, tc.CLASSIC):
        for state in random_match_of(ruleset, 2)[::3]:
            if not state.phase.plays_cards or state.turn is None:
                continue
            card = next((m.card for m in tc.legal_moves(state) if type(m) is tc.Play), None)
            if card is None:
                continue
            for seat in range(4):
                if seat == state.turn:
                    continue
                wrong = tc.Play(seat, card)
                with pytest.raises(tc.IllegalMoveError) as info:
                    tc.apply_moves(state, [wrong])
                assert str(info.value) == str(_first_error(state, wrong))
                checked += 1
    assert checked > 100
