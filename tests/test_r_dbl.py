"""Doubling K♥ and the Queens in COMPLEX (R-DBL-1 … R-DBL-5), on hand-built deals.

Deals (see ``tests/builders.py``): in HEARTS_DEAL seat 0 owns and leads, seat 1
holds K♥, seat 3 (seat 1's partner) holds A♥; in SPADES_DEAL seat 0 owns and
holds Q♠, seat 2 holds no doublable card; in QUEEN_OF_DIAMONDS_DEAL seat 1 is
void in spades and holds Q♦; in SUITS_DEAL each seat holds one suit.
"""

from __future__ import annotations

import pytest

import trixcomplex as tc
from builders import (
    HEARTS_DEAL,
    QUEEN_OF_DIAMONDS_DEAL,
    SPADES_DEAL,
    SUITS_DEAL,
    finish_deal,
    hands_deal,
    plays,
    start_complex,
)
from trixcomplex.core.cards import mask_of, parse_card

KH, QS, QH, QD, QC = (parse_card(c) for c in ("KH", "QS", "QH", "QD", "QC"))


def points(state: tc.MatchState) -> tuple[int, int, int, int]:
    assert state.complex is not None
    return state.complex.points


def finished(state: tc.MatchState) -> tc.DealResult:
    """Finish the deal; the doubled deal still sums to −500 (R-DBL-5)."""
    state = finish_deal(state)
    result = state.results[-1]
    assert sum(result.points) == -500
    return result


def doubled_record(result: tc.DealResult, card: tc.Card) -> tc.DoubledCard:
    (record,) = [d for d in result.doubled if d.card == card]
    return record


# -- R-DBL-1 ------------------------------------------------------------------


def test_r_dbl_1_only_k_hearts_and_queens_can_be_doubled() -> None:
    state = tc.apply(tc.apply(tc.new_match(), HEARTS_DEAL), tc.Choose(0, "COMPLEX"))
    before = state
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Double(1, ["KH", "AS"]))  # seat 1 holds A♠, not doublable
    assert info.value.rule == "R-DBL-1" and "AS" in str(info.value)
    assert state == before


def test_r_dbl_1_only_the_holder_can_double_a_card() -> None:
    state = tc.apply(tc.apply(tc.new_match(), HEARTS_DEAL), tc.Choose(0, "COMPLEX"))
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Double(0, ["KH"]))  # K♥ is seat 1's
    assert info.value.rule == "R-DBL-1"
    assert all(
        not (m.cards - set(state.hand(m.seat)))
        for m in tc.legal_moves(state)
        if isinstance(m, tc.Double)
    )


def test_r_dbl_1_trix_has_no_doubling() -> None:
    state = tc.apply(tc.apply(tc.new_match(), HEARTS_DEAL), tc.Choose(0, "TRIX"))
    assert state.phase is tc.Phase.TRIX and state.window is None
    assert not any(isinstance(m, tc.Double) for m in tc.legal_moves(state))
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Double(1, ["KH"]))
    assert info.value.rule == "R-DBL-1"


def test_r_dbl_1_no_doubling_once_the_tricks_have_started() -> None:
    state = start_complex(HEARTS_DEAL)
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Double(1, ["KH"]))
    assert info.value.rule == "R-DBL-1"


# -- R-DBL-2 ------------------------------------------------------------------


def test_r_dbl_2_window_opens_after_the_choice_before_the_first_trick() -> None:
    state = tc.apply(tc.new_match(), HEARTS_DEAL)
    assert state.phase is tc.Phase.CHOOSE and state.window is None
    state = tc.apply(state, tc.Choose(0, "COMPLEX"))
    assert state.phase is tc.Phase.DOUBLE and state.turn is None and state.complex is None
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Play(0, "5H"))
    assert info.value.rule == "R-DBL-2"


def test_r_dbl_2_window_opens_right_after_the_deal_when_nobody_chooses() -> None:
    state = tc.apply(tc.apply(tc.new_match(), HEARTS_DEAL), tc.Choose(0, "TRIX"))
    state = finish_deal(state)
    state = tc.apply(state, SPADES_DEAL)  # Kingdom 1, deal 2: COMPLEX, no choice
    assert state.phase is tc.Phase.DOUBLE and state.contract is tc.Contract.COMPLEX


def test_r_dbl_2_every_holder_is_asked_and_only_holders() -> None:
    state = tc.apply(tc.apply(tc.new_match(), SPADES_DEAL), tc.Choose(0, "COMPLEX"))
    assert state.window is not None
    assert state.window.asked == (
        mask_of([QS]),
        mask_of([QH]),
        0,
        mask_of([KH, QD, QC]),
    )
    assert state.to_act == {0, 1, 3}
    assert tc.legal_moves(state, 2) == ()
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Double(2, []))
    assert info.value.rule == "R-DBL-2" and "not asked" in str(info.value)


def test_r_dbl_2_an_answer_is_any_subset_of_the_seats_doublable_cards() -> None:
    state = tc.apply(tc.apply(tc.new_match(), SPADES_DEAL), tc.Choose(0, "COMPLEX"))
    answers = {m.cards for m in tc.legal_moves(state, 3) if isinstance(m, tc.Double)}
    assert len(answers) == 8
    assert frozenset() in answers and frozenset({KH, QD, QC}) in answers
    assert tc.legal_moves(state, 0) == (tc.Double(0, []), tc.Double(0, ["QS"]))


def test_r_dbl_2_each_asked_seat_answers_exactly_once() -> None:
    state = tc.apply(tc.apply(tc.new_match(), SPADES_DEAL), tc.Choose(0, "COMPLEX"))
    state = tc.apply(state, tc.Double(0, []))
    assert state.to_act == {1, 3}
    assert tc.legal_moves(state, 0) == ()
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Double(0, ["QS"]))
    assert info.value.rule == "R-DBL-2" and "already answered" in str(info.value)


# -- R-DBL-3 ------------------------------------------------------------------


def test_r_dbl_3_answers_stay_hidden_until_the_window_closes() -> None:
    state = tc.apply(tc.apply(tc.new_match(), SPADES_DEAL), tc.Choose(0, "COMPLEX"))
    state = tc.apply(state, tc.Double(3, ["KH", "QC"]))
    assert state.phase is tc.Phase.DOUBLE
    assert state.complex is None  # nothing public about doubles yet
    assert state.to_act == {0, 1}
    state = tc.apply(state, tc.Double(0, ["QS"]))
    assert state.complex is None
    state = tc.apply(state, tc.Double(1, []))
    # The last answer closes the window: all doubles are revealed at once.
    assert state.phase is tc.Phase.COMPLEX and state.window is None
    assert state.complex is not None
    assert state.complex.doubled == ((QS, 0), (KH, 3), (QC, 3))
    assert state.turn == state.owner == 0  # the owner leads the first trick


def test_r_dbl_3_timeout_closes_the_window_unanswered_seats_double_nothing() -> None:
    state = tc.apply(tc.apply(tc.new_match(), HEARTS_DEAL), tc.Choose(0, "COMPLEX"))
    state = play_doubles(state, tc.Double(1, ["KH"]), tc.Double(3, ["QC"]))
    assert state.to_act == {0, 2}
    state = tc.apply(state, tc.Timeout())
    assert state.phase is tc.Phase.COMPLEX
    assert state.complex is not None and state.complex.doubled == ((KH, 1), (QC, 3))
    assert state.turn == 0
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Double(0, ["QS"]))
    assert info.value.rule == "R-DBL-1"


def test_r_dbl_3_timeout_with_no_answer_at_all_doubles_nothing() -> None:
    state = tc.apply(tc.apply(tc.new_match(), HEARTS_DEAL), tc.Choose(0, "COMPLEX"))
    state = tc.apply(state, tc.Timeout())
    assert state.complex is not None and state.complex.doubled == ()
    assert sum(finished(state).points) == -500


def test_r_dbl_3_a_second_timeout_is_rejected() -> None:
    state = tc.apply(tc.apply(tc.apply(tc.new_match(), HEARTS_DEAL), tc.Timeout()), tc.Timeout())
    assert state.phase is tc.Phase.COMPLEX
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Timeout())
    assert info.value.rule == "R-MATCH-6"


def play_doubles(state: tc.MatchState, *moves: tc.Double) -> tc.MatchState:
    for move in moves:
        state = tc.apply(state, move)
    return state


# -- R-DBL-4: K♥ --------------------------------------------------------------


def test_r_dbl_4_case1_k_hearts_taken_by_the_doublers_partner() -> None:
    """Seat 1 doubles K♥; its partner seat 3 takes it with A♥: seat 3 −2×75, seat 1 +75."""
    state = plays(start_complex(HEARTS_DEAL, {1: "KH"}), "5H KH QD AH")
    # Seat 3 also pays −15 for the trick and −10 −25 for the undoubled Q♦.
    assert points(state) == (0, 75, 0, -15 - 10 - 25 - 150) == (0, 75, 0, -200)
    record = doubled_record(finished(state), KH)
    assert (record.doubler, record.taker, record.leader, record.case) == (1, 3, 0, 1)
    assert record.points == (0, 75, 0, -150)


def test_r_dbl_4_case2_k_hearts_won_by_its_doubler_after_another_lead() -> None:
    """Seat 1 doubles K♥ and wins seat 0's heart lead with it: seat 1 −150, leader seat 0 +75."""
    state = plays(start_complex(HEARTS_DEAL, {1: "KH"}), "5H KH QD 9H")
    assert points(state) == (75, -15 - 10 - 25 - 150, 0, 0) == (75, -200, 0, 0)
    record = doubled_record(finished(state), KH)
    assert (record.doubler, record.taker, record.leader, record.case) == (1, 1, 0, 2)
    assert record.points == (75, -150, 0, 0)


def test_r_dbl_4_case3_k_hearts_led_and_won_by_its_doubler() -> None:
    """Seat 1 doubles K♥, leads it and wins: −150 + 75 = −75 for the card."""
    state = plays(start_complex(SUITS_DEAL, {1: "KH"}), "KH 2D 2C 2S")
    assert points(state) == (0, -15 - 10 - 75, 0, 0) == (0, -100, 0, 0)
    record = doubled_record(finished(state), KH)
    assert (record.doubler, record.taker, record.leader, record.case) == (1, 1, 1, 3)
    assert record.points == (0, -75, 0, 0)


def test_r_dbl_4_undoubled_k_hearts_is_not_a_doubling_case() -> None:
    state = plays(start_complex(HEARTS_DEAL), "5H KH QD AH")
    assert points(state) == (0, 0, 0, -15 - 10 - 25 - 75)
    assert finished(state).doubled == ()


# -- R-DBL-4: Queens ----------------------------------------------------------


def test_r_dbl_4_case1_queen_taken_by_an_opponent() -> None:
    state = plays(start_complex(SPADES_DEAL, {0: "QS"}), "QS 3S 6S AS")
    assert points(state) == (25, 0, 0, -15 - 50) == (25, 0, 0, -65)
    record = doubled_record(finished(state), QS)
    assert (record.doubler, record.taker, record.leader, record.case) == (0, 3, 0, 1)


def test_r_dbl_4_case1_doublers_partner_takes_the_doubled_queen() -> None:
    """Case 1 applies to the partner too: partner −2v, doubler +v (team net −25)."""
    state = plays(start_complex(SPADES_DEAL, {0: "QS"}), "QS 3S KS 8S")
    assert points(state) == (25, 0, -15 - 50, 0) == (25, 0, -65, 0)
    record = doubled_record(finished(state), QS)
    assert (record.doubler, record.taker, record.case) == (0, 2, 1)
    assert record.points == (25, 0, -50, 0)


def test_r_dbl_4_case2_queen_won_by_its_doubler_after_another_lead() -> None:
    """Seat 3 doubles Q♣ and wins seat 0's club lead with it: seat 3 −50, seat 0 +25."""
    state = plays(start_complex(SPADES_DEAL, {3: "QC"}), "2C 2H 6S QC")
    assert points(state) == (25, 0, 0, -15 - 50) == (25, 0, 0, -65)
    record = doubled_record(finished(state), QC)
    assert (record.doubler, record.taker, record.leader, record.case) == (3, 3, 0, 2)
    assert record.points == (25, 0, 0, -50)


def test_r_dbl_4_case3_queen_led_and_won_by_its_doubler() -> None:
    state = plays(start_complex(SPADES_DEAL, {0: "QS"}), "QS 3S 6S 8S")
    assert points(state) == (-15 - 25, 0, 0, 0) == (-40, 0, 0, 0)
    record = doubled_record(finished(state), QS)
    assert (record.doubler, record.taker, record.leader, record.case) == (0, 0, 0, 3)
    assert record.points == (-25, 0, 0, 0)


# -- R-DBL-5 ------------------------------------------------------------------


def test_r_dbl_5_doubled_queen_of_diamonds_taken_by_another_seat() -> None:
    """Seat 1 doubles Q♦ and throws it on a spade trick seat 2 takes: −15 −10 −50 = −75, +25."""
    state = plays(start_complex(QUEEN_OF_DIAMONDS_DEAL, {1: "QD"}), "2S QD KS KC")
    assert points(state) == (0, 25, -15 - 10 - 50, 0) == (0, 25, -75, 0)
    record = doubled_record(finished(state), QD)
    assert (record.doubler, record.taker, record.leader, record.case) == (1, 2, 0, 1)
    assert record.points == (0, 25, -50, 0)


def test_r_dbl_5_everything_doubled_one_seat_takes_all() -> None:
    """Seat 1 takes all 13 tricks; it doubled K♥ and Q♥ (case 3), the others their Queens."""
    state = start_complex(SUITS_DEAL, {0: "QS", 1: "KH QH", 2: "QD", 3: "QC"})
    result = finished(state)
    seat1 = -13 * 15 - 13 * 10 - 3 * 50 - 75 - 25
    assert result.points == (25, seat1, 25, 25) == (25, -575, 25, 25)
    assert [d.case for d in result.doubled] == [1, 3, 3, 1, 1]  # QS QH KH QD QC
    assert [str(d.card) for d in result.doubled] == ["QS", "QH", "KH", "QD", "QC"]


@pytest.mark.parametrize(
    "doubles",
    [{}, {1: "KH"}, {0: "QS", 2: "QD"}, {0: "QS", 1: "KH", 2: "QD", 3: "QH QC"}, {3: "QH"}],
    ids=str,
)
def test_r_dbl_5_any_doubling_keeps_the_deal_sum_at_minus_500(doubles: dict[int, str]) -> None:
    result = finished(start_complex(HEARTS_DEAL, doubles))
    assert sum(result.points) == -500
    assert len(result.doubled) == sum(len(v.split()) for v in doubles.values())


def test_r_dbl_5_trick_and_diamond_penalties_still_charged_on_a_doubled_trick() -> None:
    # Seat 2 doubles Q♦ and throws it on the heart trick seat 1 takes with K♥:
    # seat 1 pays −15 trick −10 ♦ −50 doubled Q♦ −75 undoubled K♥; seat 2 gets +25.
    state = plays(start_complex(HEARTS_DEAL, {2: "QD"}), "5H KH QD 9H")
    assert points(state) == (0, -15 - 10 - 50 - 75, 25, 0) == (0, -150, 25, 0)


def test_r_dbl_5_doubling_never_changes_the_seat_sum_of_a_trick() -> None:
    deal = hands_deal(
        "QS 2S 7H 2C 3C 4C 5C 6C 7C 8C 9C TC JC",
        "3S 4S 5S 2H 3H 4H 5H 6H 8H 9H TH JH QH",
        "KS 6S 7S 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
        "AS 8S 9S TS JS KH AH QD KD AD QC KC AC",
    )
    assert deal == SPADES_DEAL
    for line in ("QS 3S 6S AS", "QS 3S KS 8S", "QS 3S 6S 8S"):
        plain = sum(points(plays(start_complex(deal), line)))
        doubled = sum(points(plays(start_complex(deal, {0: "QS"}), line)))
        assert plain == doubled


def test_r_dbl_3_the_reveal_lists_every_answer_by_card_with_its_doubler() -> None:
    """R-DBL-3: at the close every double is revealed, as (card, doubler) pairs in card
    order; an unanswered seat (a timeout) doubles nothing.  Checked against the
    definition over every split of the five doublable cards and every answer."""
    import itertools

    from trixcomplex.core.doubling import DoublingWindow

    doublable = (KH, QS, QH, QD, QC)
    checked = 0
    for holders in itertools.product(range(4), repeat=5):  # who holds each card
        asked = [0, 0, 0, 0]
        for card, seat in zip(doublable, holders, strict=True):
            asked[seat] |= 1 << card
        for picks in itertools.product((False, True), repeat=5):  # which cards are doubled
            answers: list[int | None] = [0 if asked[s] else None for s in range(4)]
            for card, seat, pick in zip(doublable, holders, picks, strict=True):
                if pick:
                    answers[seat] = (answers[seat] or 0) | 1 << card
            if checked % 3 == 0:  # some seats time out: their answer stays None
                answers = [None if a == 0 else a for a in answers]
            window = DoublingWindow(tuple(asked), tuple(answers))  # type: ignore[arg-type]
            expected = sorted(
                (card, seat)
                for card, seat, pick in zip(doublable, holders, picks, strict=True)
                if pick
            )
            assert window.revealed() == tuple(expected)
            assert all(type(c) is tc.Card for c, _ in window.revealed())
            checked += 1
    assert checked == 4**5 * 2**5


def test_r_dbl_3_the_reveal_memo_stays_bounded_for_windows_built_by_hand() -> None:
    """R-DBL-3: ``revealed()`` remembers the reveals it worked out, at most 4,096 of
    them: windows built by hand with any card sets (not only doublable cards) are
    still revealed by the definition, and the memo stops growing."""
    from trixcomplex.core import doubling
    from trixcomplex.core.doubling import DoublingWindow

    for k in range(6000):
        a, b = 1 << (k % 52), (k + 1) << 20 & ((1 << 52) - 1) & ~(1 << (k % 52))
        window = DoublingWindow((a, b, 0, 0), (a, b, None, None))
        expected = tuple(sorted([(tc.Card(k % 52), 0)] + [
            (tc.Card(c), 1) for c in range(52) if b >> c & 1
        ]))  # fmt: skip
        assert window.revealed() == expected
    assert len(doubling._REVEALED) == doubling._REVEALED_KEPT
