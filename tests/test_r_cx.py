"""COMPLEX, the trick-taking contract (R-CX-1 … R-CX-6), on hand-built deals."""

from __future__ import annotations

import random

import pytest

import trixcomplex as tc
from builders import (
    HEARTS_DEAL,
    ORDERED_DEAL,
    QUEEN_OF_DIAMONDS_DEAL,
    SPADES_DEAL,
    SUITS_DEAL,
    finish_deal,
    plays,
    start_complex,
)
from trixcomplex.core.cards import parse_card


def trick_points(state: tc.MatchState) -> tuple[int, int, int, int]:
    assert state.complex is not None
    return state.complex.points


# -- R-CX-1 -------------------------------------------------------------------


def test_r_cx_1_owner_leads_the_first_trick() -> None:
    for deal, owner in ((HEARTS_DEAL, 0), (ORDERED_DEAL, 2)):
        state = start_complex(deal)
        assert state.owner == owner
        assert state.turn == owner and state.to_act == {owner}
        assert state.complex is not None and state.complex.leader == owner
        assert {m.seat for m in tc.legal_moves(state)} == {owner}


def test_r_cx_1_another_seat_leading_the_first_trick_names_r_cx_1() -> None:
    state = start_complex(HEARTS_DEAL)
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Play(1, "KH"))
    assert info.value.rule == "R-CX-1"
    assert "seat 0's turn" in str(info.value)


# -- R-CX-2 -------------------------------------------------------------------


def test_r_cx_2_a_seat_holding_the_led_suit_must_follow() -> None:
    state = plays(start_complex(HEARTS_DEAL), "5H")
    assert tc.legal_moves(state, 1) == (tc.Play(1, "KH"),)
    before = state
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Play(1, "AS"))
    assert info.value.rule == "R-CX-2"
    assert "follow suit ♥" in str(info.value)
    assert state == before


def test_r_cx_2_a_void_seat_may_play_any_card() -> None:
    state = plays(start_complex(HEARTS_DEAL), "5H KH")
    assert state.turn == 2
    assert {m.card for m in tc.legal_moves(state) if isinstance(m, tc.Play)} == set(state.hand(2))
    assert len(tc.legal_moves(state)) == 13


def test_r_cx_2_any_card_may_lead() -> None:
    state = start_complex(HEARTS_DEAL)
    assert len(tc.legal_moves(state)) == 13


def test_r_cx_2_there_is_no_passing_in_complex() -> None:
    state = start_complex(HEARTS_DEAL)
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Pass(0))
    assert info.value.rule == "R-CX-2"


# -- R-CX-3 -------------------------------------------------------------------


def test_r_cx_3_highest_card_of_the_led_suit_takes_and_leads_next() -> None:
    state = plays(start_complex(HEARTS_DEAL), "5H KH QD 9H")
    assert state.complex is not None
    trick = state.complex.tricks[0]
    assert trick.leader == 0 and trick.taker == 1
    assert [str(c) for c in trick.cards] == ["5H", "KH", "QD", "9H"]
    assert trick.played_by(2) == parse_card("QD")
    assert state.turn == 1 and state.complex.leader == 1 and state.complex.trick == ()


def test_r_cx_3_an_offsuit_card_never_wins() -> None:
    # Seat 2 throws the A♦ on a heart trick: K♥ still wins.
    state = plays(start_complex(HEARTS_DEAL), "5H KH AD 9H")
    assert state.complex is not None and state.complex.tricks[0].taker == 1
    # A spade trick won by the later, higher spade, not by the first one.
    state = plays(start_complex(SPADES_DEAL), "2S 3S 6S 8S")
    assert state.complex is not None and state.complex.tricks[0].taker == 3


def test_r_cx_3_only_the_taker_leads_the_next_trick() -> None:
    state = plays(start_complex(HEARTS_DEAL), "5H KH QD 9H")
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Play(0, "2S"))
    assert info.value.rule == "R-CX-3"


def test_r_seat_1_play_within_a_trick_goes_counter_clockwise() -> None:
    """R-SEAT-1: after seat s plays, seat (s + 1) % 4 is to play; others get a turn error."""
    state = plays(start_complex(ORDERED_DEAL), "2D")
    assert state.turn == 3
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Play(1, "5D"))
    assert info.value.rule == "R-SEAT-1"
    state = plays(state, "3D")
    assert state.turn == 0
    state = plays(state, "4D")
    assert state.turn == 1


# -- R-CX-4 -------------------------------------------------------------------


def test_r_cx_4_all_13_tricks_are_played_after_the_penalties_are_gone() -> None:
    penalty_cards = (0x1FFF << 26) | parse_card("KH").mask
    penalty_cards |= sum(parse_card(q).mask for q in ("QS", "QH", "QD", "QC"))
    state = start_complex(HEARTS_DEAL)
    tricks_when_gone = None
    while state.phase is tc.Phase.COMPLEX:
        assert state.complex is not None
        held = state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3]
        if tricks_when_gone is None and not held & penalty_cards:
            tricks_when_gone = len(state.complex.tricks)
        state = first_legal_apply(state)
    assert tricks_when_gone is not None and tricks_when_gone < 13
    result = state.results[-1]
    assert sum(s.tricks for s in result.seats) == 13
    # The tricks after the last penalty card still cost their takers −15 each.
    assert sum(result.points) == -500


def first_legal_apply(state: tc.MatchState) -> tc.MatchState:
    return tc.apply(state, tc.legal_moves(state)[0])


def test_r_cx_4_a_deal_ends_only_after_the_13th_trick() -> None:
    state = start_complex(ORDERED_DEAL)
    for _ in range(12 * 4 + 3):
        state = tc.apply(state, tc.legal_moves(state)[0])
    assert state.phase is tc.Phase.COMPLEX
    assert state.complex is not None and len(state.complex.tricks) == 12
    assert sum(len(state.hand(s)) for s in range(4)) == 1
    state = tc.apply(state, tc.legal_moves(state)[0])
    assert state.phase is tc.Phase.DEAL
    assert len(state.results) == 1 and state.results[0].contract is tc.Contract.COMPLEX


# -- R-CX-5 -------------------------------------------------------------------


def test_r_cx_5_the_minus_125_trick() -> None:
    """A heart trick with K♥, Q♦ and two other hearts: −15 −75 −10 −25 = −125."""
    state = plays(start_complex(HEARTS_DEAL), "5H KH QD 9H")
    assert trick_points(state) == (0, -125, 0, 0)
    assert tc.score(state).current == (0, -125, 0, 0)


def test_r_cx_5_a_plain_trick_costs_15() -> None:
    state = plays(start_complex(SPADES_DEAL), "2S 3S 6S 8S")
    assert trick_points(state) == (0, 0, 0, -15)


def test_r_cx_5_every_diamond_costs_10() -> None:
    state = plays(start_complex(ORDERED_DEAL), "2D 3D 4D 5D")
    assert trick_points(state) == (0, -55, 0, 0)  # −15 − 4×10


def test_r_cx_5_an_undoubled_queen_costs_25() -> None:
    state = plays(start_complex(SPADES_DEAL), "QS 3S 6S AS")
    assert trick_points(state) == (0, 0, 0, -40)  # −15 −25


def test_r_cx_5_queen_of_diamonds_pays_both() -> None:
    state = plays(start_complex(QUEEN_OF_DIAMONDS_DEAL), "2S QD KS KC")
    assert trick_points(state) == (0, 0, -50, 0)  # −15 −10 −25
    # Four diamonds with the Q♦: −15 − 4×10 − 25.
    state = plays(start_complex(ORDERED_DEAL), "2D 3D 4D 5D 9D 6D 7D QD")
    assert trick_points(state) == (-80, -55, 0, 0)


def test_r_cx_5_penalties_accumulate_over_tricks() -> None:
    state = plays(start_complex(HEARTS_DEAL), "5H KH QD 9H KS 2D 2H 2S")
    assert trick_points(state) == (0, -125 - 15 - 10, 0, 0)


# -- R-CX-6 -------------------------------------------------------------------


def assert_complete_undoubled_deal(state: tc.MatchState) -> None:
    result = state.results[-1]
    assert result.contract is tc.Contract.COMPLEX and result.doubled == ()
    assert sum(result.points) == -500
    assert sum(s.tricks for s in result.seats) == 13
    assert sum(s.diamonds for s in result.seats) == 13
    assert sum(len(s.queens) for s in result.seats) == 4
    assert sum(s.king_of_hearts for s in result.seats) == 1
    for seat, part in enumerate(result.seats):
        expected = -15 * part.tricks - 10 * part.diamonds - 25 * len(part.queens)
        expected -= 75 * part.king_of_hearts
        assert result.points[seat] == expected


@pytest.mark.parametrize("deal", [HEARTS_DEAL, SPADES_DEAL, QUEEN_OF_DIAMONDS_DEAL, ORDERED_DEAL])
def test_r_cx_6_an_undoubled_deal_sums_to_minus_500(deal: tc.Deal) -> None:
    state = finish_deal(start_complex(deal))
    assert_complete_undoubled_deal(state)


def test_r_cx_6_one_seat_taking_every_trick_pays_all_500() -> None:
    """Seat 1 (7H, all hearts) leads 13 heart tricks nobody can follow and takes them all."""
    state = finish_deal(start_complex(SUITS_DEAL))
    result = state.results[-1]
    assert [s.tricks for s in result.seats] == [0, 13, 0, 0]
    assert result.points == (0, -13 * 15 - 13 * 10 - 4 * 25 - 75, 0, 0) == (0, -500, 0, 0)
    assert state.scores == result.points == tc.score(state).seats


@pytest.mark.parametrize("seed", range(5))
def test_r_cx_6_shuffled_undoubled_deals_sum_to_minus_500(seed: int) -> None:
    rng = random.Random(seed)
    state = start_complex(tc.Deal.shuffled(rng))
    while state.phase is tc.Phase.COMPLEX:
        state = tc.apply(state, rng.choice(tc.legal_moves(state)))
    assert_complete_undoubled_deal(state)
