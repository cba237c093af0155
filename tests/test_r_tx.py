"""TRIX, the card-laying contract (R-TX-1 … R-TX-5), on hand-built deals."""

from __future__ import annotations

import pytest

import trixcomplex as tc
from builders import SUITS_DEAL, finish_deal, hands_deal, start_contract
from trixcomplex.core.cards import cards_of, mask_of, parse_card
from trixcomplex.core.trix import playable, row_ends

# Seat 0 holds 7H (owner of Kingdom 1) but no Jack; seat 1 holds all four Jacks.
JACKLESS_OWNER_DEAL = hands_deal(
    "2S 3S 4S 5S 6S 7S 8S 9S TS 7H 2C 3C 4C",
    "JS QS KS AS JH QH KH AH JD QD KD AD JC",
    "2H 3H 4H 5H 6H 8H 9H TH 2D 3D 4D 5D 6D",
    "7D 8D 9D TD QC KC AC 5C 6C 7C 8C 9C TC",
)
# A whole TRIX deal on JACKLESS_OWNER_DEAL, move by move ("seat:card", "seat:P" = pass).
# Seat 1 empties its hand first (after JC), seat 2 second (2D), seat 0 third (2C);
# seat 3 is left holding A♣ and is 4th at once. After seat 1 is out, it is skipped.
JACKLESS_LINE = (
    "0:P 1:JS 2:P 3:P 0:TS 1:QS 2:P 3:P 0:9S 1:KS 2:P 3:P 0:8S 1:AS 2:P 3:P "
    "0:7S 1:JH 2:TH 3:P 0:6S 1:QH 2:9H 3:P 0:5S 1:KH 2:8H 3:P 0:4S 1:AH 2:P 3:P "
    "0:3S 1:JD 2:P 3:TD 0:2S 1:QD 2:P 3:9D 0:7H 1:KD 2:6H 3:8D 0:P 1:AD 2:5H 3:7D "
    "0:P 1:JC 2:4H 3:TC 0:P 2:3H 3:9C 0:P 2:2H 3:8C 0:P 2:6D 3:7C 0:P 2:5D 3:6C "
    "0:P 2:4D 3:5C 0:4C 2:3D 3:QC 0:3C 2:2D 3:KC 0:2C"
)


def start_trix(deal: tc.Deal) -> tc.MatchState:
    return start_contract(deal, tc.Contract.TRIX, tc.PARTNERSHIP)


def move_of(step: str) -> tc.PlayerMove:
    seat, what = step.split(":")
    return tc.Pass(int(seat)) if what == "P" else tc.Play(int(seat), what)


def run_line(state: tc.MatchState, line: str) -> list[tc.MatchState]:
    states = [state]
    for step in line.split():
        states.append(tc.apply(states[-1], move_of(step)))
    return states


# -- R-TX-1 -------------------------------------------------------------------


def test_r_tx_1_the_owner_plays_first() -> None:
    assert start_trix(SUITS_DEAL).turn == 1
    state = start_trix(JACKLESS_OWNER_DEAL)
    assert state.turn == 0 and state.to_act == {0}
    assert state.trix == tc.TrixDeal(0, ())


def test_r_tx_1_turns_go_counter_clockwise_and_others_get_a_turn_error() -> None:
    state = start_trix(SUITS_DEAL)
    seen = []
    for _ in range(8):
        assert state.turn is not None
        seen.append(state.turn)
        state = tc.apply(state, tc.legal_moves(state)[0])
    assert seen == [1, 2, 3, 0, 1, 2, 3, 0]
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Play(2, "JD"))
    assert info.value.rule == "R-TX-1"
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Pass(3))
    assert info.value.rule == "R-TX-1"


def test_r_tx_1_a_seat_with_an_empty_hand_is_skipped() -> None:
    states = run_line(start_trix(JACKLESS_OWNER_DEAL), JACKLESS_LINE)
    skipped = 0
    for state in states[1:-1]:
        assert state.turn is not None and state.hands[state.turn]
        # The seat to move is the first seat after the last mover that still holds cards.
        last = state.history.last
        assert isinstance(last, (tc.Play, tc.Pass))
        between = [(last.seat + k) % 4 for k in range(1, (state.turn - last.seat) % 4)]
        assert all(state.hands[s] == 0 for s in between)
        skipped += len(between)
    assert skipped == 7  # seat 1 is passed over seven times after going out
    after_jc = states[JACKLESS_LINE.split().index("1:JC") + 1]
    assert after_jc.hands[1] == 0
    assert after_jc.turn == 2


# -- R-TX-2 -------------------------------------------------------------------


def test_r_tx_2_a_row_starts_with_its_jack() -> None:
    state = start_trix(SUITS_DEAL)
    assert tc.legal_moves(state) == (tc.Play(1, "JH"),)
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Play(1, "TH"))
    assert info.value.rule == "R-TX-2"
    assert "neither an unstarted Jack nor next to an end" in str(info.value)


def test_r_tx_2_a_row_grows_up_and_down_one_card_at_a_time() -> None:
    table = mask_of(parse_card(c) for c in ("JS",))
    assert {str(c) for c in cards_of(playable(table))} == {"TS", "QS", "JH", "JD", "JC"}
    table = mask_of(parse_card(c) for c in ("JS", "TS", "9S", "QS", "JD"))
    assert {str(c) for c in cards_of(playable(table))} == {"8S", "KS", "JH", "TD", "QD", "JC"}
    assert row_ends(table, 0) == (9, 12) and row_ends(table, 1) is None
    full = mask_of(parse_card(r + "S") for r in "23456789TJQKA")
    assert not playable(full) & mask_of(parse_card(r + "S") for r in "23456789TJQKA")


def test_r_tx_2_cards_away_from_the_ends_are_rejected() -> None:
    state = start_trix(SUITS_DEAL)
    state = run_line(state, "1:JH 2:JD 3:JC 0:JS")[-1]
    assert {m.card for m in tc.legal_moves(state) if isinstance(m, tc.Play)} == {
        parse_card("TH"),
        parse_card("QH"),
    }
    before = state
    for code in ("9H", "KH", "AH", "2H"):
        with pytest.raises(tc.IllegalMoveError) as info:
            tc.apply(state, tc.Play(1, code))
        assert info.value.rule == "R-TX-2"
    assert state == before
    state = run_line(state, "1:TH 2:QD 3:TC 0:QS 1:9H")[-1]
    assert state.trix is not None and row_ends(state.trix.table, 1) == (9, 11)


def test_r_match_2_laying_a_card_you_do_not_hold() -> None:
    """R-MATCH-2 (the deal decides who holds what): a card not held is rejected."""
    state = start_trix(SUITS_DEAL)
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Play(1, "JS"))
    assert info.value.rule == "R-MATCH-2" and "does not hold JS" in str(info.value)


# -- R-TX-3 -------------------------------------------------------------------


def test_r_tx_3_a_pass_is_rejected_while_a_legal_card_is_held() -> None:
    state = start_trix(SUITS_DEAL)
    copy = start_trix(SUITS_DEAL)
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Pass(1))
    err = info.value
    assert err.rule == "R-TX-3"
    assert err.move == tc.Pass(1)
    assert str(err) == "seat 1 passes: seat 1 holds a legal card (JH) and must play one (R-TX-3)"
    assert state == copy and hash(state) == hash(copy)
    assert tc.Pass(1) not in tc.legal_moves(state)


def test_r_tx_3_a_jackless_owner_passes_first() -> None:
    state = start_trix(JACKLESS_OWNER_DEAL)
    assert tc.legal_moves(state) == (tc.Pass(0),)
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Play(0, "7H"))
    assert info.value.rule == "R-TX-2"
    state = tc.apply(state, tc.Pass(0))
    assert state.turn == 1
    assert state.trix == tc.TrixDeal(0, ())  # nothing laid
    assert state.hands == start_trix(JACKLESS_OWNER_DEAL).hands
    assert {str(m.card) for m in tc.legal_moves(state) if isinstance(m, tc.Play)} == {
        "JS",
        "JH",
        "JD",
        "JC",
    }


def test_r_tx_3_every_pass_in_the_line_is_forced() -> None:
    states = run_line(start_trix(JACKLESS_OWNER_DEAL), JACKLESS_LINE)
    steps = JACKLESS_LINE.split()
    passes = 0
    for state, step in zip(states, steps, strict=False):
        move = move_of(step)
        if isinstance(move, tc.Pass):
            passes += 1
            assert tc.legal_moves(state) == (move,)
        else:
            assert tc.Pass(move.seat) not in tc.legal_moves(state)
    assert passes == 23


# -- R-TX-4 -------------------------------------------------------------------


def test_r_tx_4_finishing_order_with_automatic_fourth_place() -> None:
    states = run_line(start_trix(JACKLESS_OWNER_DEAL), JACKLESS_LINE)
    before_last, last = states[-2], states[-1]
    # Seat 0 lays its last card third; seat 3 still holds A♣ and is 4th at once.
    assert before_last.phase is tc.Phase.TRIX
    assert before_last.trix is not None and before_last.trix.finishing_order == (1, 2)
    assert before_last.hand(3) == (parse_card("AC"),)
    assert last.phase is tc.Phase.DEAL and last.hands == (0, 0, 0, 0) and last.trix is None
    result = last.results[-1]
    assert result.contract is tc.Contract.TRIX
    assert result.finishing_order == (1, 2, 0, 3)
    assert result.points == (100, 200, 150, 50)
    assert [s.place for s in result.seats] == [3, 1, 2, 4]
    assert sum(result.points) == 500
    assert last.scores == (100, 200, 150, 50)


def test_r_tx_4_order_of_a_deal_without_passes() -> None:
    """Each seat lays its own suit: 1, 2, 3 go out in turn; seat 0 keeps one card, 4th."""
    state = finish_deal(start_trix(SUITS_DEAL))
    result = state.results[-1]
    assert result.finishing_order == (1, 2, 3, 0)
    assert result.points == (50, 200, 150, 100)
    assert len(state.history.since_deal()) == 1 + 1 + 13 * 3 + 12  # deal, choose, cards


def test_r_tx_4_finishing_order_records_places_while_playing() -> None:
    states = run_line(start_trix(JACKLESS_OWNER_DEAL), JACKLESS_LINE)
    orders = {s.trix.finishing_order for s in states if s.trix is not None}
    assert orders == {(), (1,), (1, 2)}


# -- R-TX-5 -------------------------------------------------------------------


def test_r_tx_5_forced_pass_is_named() -> None:
    state = start_trix(JACKLESS_OWNER_DEAL)
    assert tc.forced_move(state, 0) == tc.Pass(0)
    assert tc.forced_move(state, 1) is None  # not its turn


def test_r_tx_5_single_legal_card_is_named_several_are_not() -> None:
    state = start_trix(SUITS_DEAL)
    assert tc.forced_move(state, 1) == tc.Play(1, "JH")
    state = run_line(state, "1:JH 2:JD 3:JC 0:JS")[-1]
    assert tc.forced_move(state, 1) is None  # TH and QH
    assert len(tc.legal_moves(state, 1)) == 2


def test_r_tx_5_the_player_may_act_before_the_host() -> None:
    state = start_trix(JACKLESS_OWNER_DEAL)
    forced = tc.forced_move(state, 0)
    assert forced is not None
    assert tc.apply(state, forced) == tc.apply(state, tc.Pass(0))
    assert tc.is_legal(state, tc.Pass(0))


def test_r_tx_5_forced_move_outside_trix() -> None:
    state = tc.apply(tc.new_match(), SUITS_DEAL)
    assert tc.forced_move(state, 1) is None  # CHOOSE: two contracts
    state = tc.apply(state, tc.Choose(1, "COMPLEX"))
    assert tc.forced_move(state, 2) is None  # a Double: nothing or Q♦
    assert tc.forced_move(state, 1) is None


# -- the playable set kept with the table (R-TX-2) ----------------------------


def test_r_tx_2_a_trix_deal_keeps_the_playable_set_of_its_table() -> None:
    """R-TX-2: every TRIX deal carries ``playable(table)``, however it was built: card by
    card (apply), a run at once (apply_moves), JSON, pickling, ``evolve``."""
    import pickle
    import random

    import attrs

    seen = 0
    for ruleset in tc.RULESETS.values():
        rng = random.Random(seen)
        state = tc.new_match(ruleset)
        states = []
        while not state.is_over and len(states) < 400:
            if state.phase is tc.Phase.DEAL:
                state = tc.apply(state, tc.Deal.shuffled(rng))
            else:
                state = tc.apply(state, rng.choice(tc.legal_moves(state)))
            if state.trix is not None:
                states.append(state)
        assert states
        start = states[0]
        again = tc.apply_moves(start, states[-1].history.moves()[len(start.history) :])
        loaded = tc.from_json(tc.MatchState, tc.to_json(states[-1]))
        for deal in [s.trix for s in states] + [again.trix, loaded.trix]:
            assert deal is not None
            assert deal.playable == playable(deal.table)
            assert pickle.loads(pickle.dumps(deal)).playable == deal.playable
            moved = attrs.evolve(deal, table=deal.table | 1 << 9)  # the J♠ laid
            assert moved.playable == playable(deal.table | 1 << 9)
            seen += 1
    assert seen > 500


def test_r_tx_2_the_playable_set_is_not_a_field() -> None:
    """It is derived from the table: not among attrs' fields, not in JSON or the repr."""
    import attrs

    deal = tc.TrixDeal(mask_of([parse_card("JS"), parse_card("TS")]), (1,))
    assert [f.name for f in attrs.fields(tc.TrixDeal)] == ["table", "finishing_order"]
    assert attrs.asdict(deal) == {"table": deal.table, "finishing_order": (1,)}
    assert repr(deal) == f"TrixDeal(table={deal.table}, finishing_order=(1,))"
    assert [str(c) for c in cards_of(deal.playable)] == ["9S", "QS", "JH", "JD", "JC"]
    same = tc.TrixDeal(deal.table, (1,))
    assert deal == same and hash(deal) == hash(same)
