"""Seats, teams and the flow of a match (R-SEAT-1, R-SEAT-2, R-MATCH-1 … R-MATCH-8)."""

from __future__ import annotations

import random

import pytest

import trixcomplex as tc
from builders import HEARTS_DEAL, SUITS_DEAL, finish_deal, random_match, start_complex
from trixcomplex.core.cards import ALL_CARDS, parse_card
from trixcomplex.core.scoring import match_result

SEVEN_OF_HEARTS = parse_card("7H")


def deal_with_7h_at(seat: int, rng: random.Random) -> tc.Deal:
    """A shuffled deal in which ``seat`` holds 7H."""
    deck = list(tc.Deal.shuffled(rng).deck)
    where = deck.index(SEVEN_OF_HEARTS)
    target = (where // 4) * 4 + seat
    deck[where], deck[target] = deck[target], deck[where]
    return tc.Deal(deck)


def play_match(deals: list[tc.Deal], rng: random.Random) -> list[tc.MatchState]:
    """Every state of a match using ``deals`` in order and random legal moves."""
    state = tc.new_match()
    states = [state]
    deals = list(deals)
    while not state.is_over:
        if state.phase is tc.Phase.DEAL:
            move: tc.Move = deals.pop(0)
        else:
            move = rng.choice(tc.legal_moves(state))
        state = tc.apply(state, move)
        states.append(state)
    return states


def deal_starts(states: list[tc.MatchState]) -> list[tc.MatchState]:
    """The state right after each Deal move."""
    return [s for s in states if isinstance(s.history.last, tc.Deal)]


# -- R-SEAT-1, R-SEAT-2 (engine level; the seat helpers are in test_cards.py) ----


def test_r_seat_1_seat_numbers_are_0_to_3_in_every_move() -> None:
    for bad in (4, -1):
        with pytest.raises(ValueError, match="seat"):
            tc.Play(bad, "7H")
    state = tc.apply(tc.new_match(), HEARTS_DEAL)
    assert state.to_act == {0} and tc.legal_moves(state, 3) == ()


def test_r_seat_2_team_totals_add_partners() -> None:
    """R-SEAT-2 / R-MATCH-7: team 0 is seats 0+2, team 1 is seats 1+3."""
    state = finish_deal(start_complex(SUITS_DEAL, {0: "QS", 2: "QD"}))
    assert state.scores == (25, -550, 25, 0)
    assert tc.score(state).teams == (50, -550)


# -- R-MATCH-1 ----------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_r_match_1_four_kingdoms_of_complex_and_trix(seed: int) -> None:
    states = random_match(seed)
    final = states[-1]
    assert final.is_over and final.deal_number == 8
    results = final.results
    assert [r.number for r in results] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [r.kingdom for r in results] == [1, 1, 2, 2, 3, 3, 4, 4]
    for k in range(4):
        assert {results[2 * k].contract, results[2 * k + 1].contract} == set(
            tc.PARTNERSHIP.contracts
        )
    assert sum(isinstance(m, tc.Deal) for m in final.history) == 8
    assert [s.kingdom for s in deal_starts(states)] == [1, 1, 2, 2, 3, 3, 4, 4]


def test_r_match_1_no_ninth_deal() -> None:
    final = random_match(4)[-1]
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(final, tc.Deal.shuffled(random.Random(0)))
    assert info.value.rule == "R-MATCH-8"
    assert tc.legal_moves(final) == () and final.to_act == frozenset()


# -- R-MATCH-2 ----------------------------------------------------------------


def test_r_match_2_card_i_goes_to_seat_i_mod_4() -> None:
    deal = tc.Deal(ALL_CARDS)
    state = tc.apply(tc.new_match(), deal)
    for seat in range(4):
        assert state.hand(seat) == ALL_CARDS[seat::4]
        assert len(state.hand(seat)) == 13


def test_r_match_2_four_twos_in_one_hand_do_not_redeal() -> None:
    twos = [parse_card(c) for c in ("2S", "2H", "2D", "2C")]
    rest = [c for c in ALL_CARDS if c not in twos]
    deck = []
    for i in range(52):
        deck.append(twos.pop() if i % 4 == 1 and twos else rest.pop())
    state = tc.apply(tc.new_match(), tc.Deal(deck))
    assert {parse_card(c) for c in ("2S", "2H", "2D", "2C")} <= set(state.hand(1))
    assert state.phase is tc.Phase.CHOOSE and state.deal_number == 1
    owner = state.owner
    assert owner is not None
    assert tc.legal_moves(state) == (tc.Choose(owner, "COMPLEX"), tc.Choose(owner, "TRIX"))
    for contract in tc.PARTNERSHIP.contracts:  # the deal is played as dealt
        chosen = tc.apply(state, tc.Choose(owner, contract))
        assert chosen.hands == state.hands
        assert not any(isinstance(m, tc.Redeal) for m in tc.legal_moves(chosen))
        with pytest.raises(tc.IllegalMoveError) as info:
            tc.apply(chosen, tc.Redeal(1))
        assert info.value.rule == "R-MATCH-2"


def test_r_match_2_every_deal_needs_its_own_shuffle() -> None:
    """After each deal the match waits for a new Deal move (a fresh shuffle), hands empty."""
    states = random_match(5)
    waiting = [s for s in states if s.phase is tc.Phase.DEAL]
    assert len(waiting) == 8  # before deals 1 … 8
    assert all(s.hands == (0, 0, 0, 0) and s.to_act == frozenset() for s in waiting)


def test_r_match_2_nothing_causes_a_redeal() -> None:
    """A Deal while a deal is in progress is rejected; the error names the phase's rule."""
    choosing = tc.apply(tc.new_match(), HEARTS_DEAL)
    trix = tc.apply(choosing, tc.Choose(0, "TRIX"))
    window = tc.apply(choosing, tc.Choose(0, "COMPLEX"))
    cx = start_complex(HEARTS_DEAL)
    rules = {choosing: "R-MATCH-5", window: "R-DBL-2", cx: "R-CX-1", trix: "R-TX-1"}
    for state, rule in rules.items():
        with pytest.raises(tc.IllegalMoveError) as info:
            tc.apply(state, SUITS_DEAL)
        assert info.value.rule == rule
        assert "not allowed now" in str(info.value)
        assert state.hands == choosing.hands


def test_r_match_2_a_card_that_is_not_held_names_r_match_2() -> None:
    state = start_complex(HEARTS_DEAL)
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Play(0, "KH"))
    assert info.value.rule == "R-MATCH-2" and "does not hold KH" in str(info.value)


# -- R-MATCH-3, R-MATCH-4 -----------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_r_match_3_owner_of_kingdom_1_holds_7h(seat: int) -> None:
    state = tc.apply(tc.new_match(), deal_with_7h_at(seat, random.Random(seat)))
    assert SEVEN_OF_HEARTS in state.hand(seat)
    assert state.owner == seat and state.turn == seat and state.to_act == {seat}


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_r_match_4_ownership_rotates_over_four_kingdoms(first: int) -> None:
    """Deal 1 gives 7H to ``first``; every later deal gives it to seat 0, which must not matter."""
    rng = random.Random(100 + first)
    deals = [deal_with_7h_at(first, rng)] + [deal_with_7h_at(0, rng) for _ in range(7)]
    states = play_match(deals, rng)
    owners = [s.owner for s in deal_starts(states)]
    expected = [(first + k) % 4 for k in range(4)]
    assert owners == [o for o in expected for _ in (1, 2)]
    assert [r.owner for r in states[-1].results] == owners


# -- R-MATCH-5 ----------------------------------------------------------------


def test_r_match_5_the_owner_chooses_the_first_contract() -> None:
    state = tc.apply(tc.new_match(), HEARTS_DEAL)
    assert state.phase is tc.Phase.CHOOSE and state.contract is None
    assert tc.legal_moves(state) == (tc.Choose(0, "COMPLEX"), tc.Choose(0, "TRIX"))
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, tc.Choose(1, "TRIX"))
    assert info.value.rule == "R-MATCH-5" and "seat 0" in str(info.value)
    assert tc.apply(state, tc.Choose(0, "TRIX")).contract is tc.Contract.TRIX


@pytest.mark.parametrize("first", list(tc.PARTNERSHIP.contracts))
def test_r_match_5_the_second_deal_plays_the_other_contract_unchosen(first: tc.Contract) -> None:
    state = tc.apply(tc.apply(tc.new_match(), HEARTS_DEAL), tc.Choose(0, first))
    state = finish_deal(state)
    state = tc.apply(state, SUITS_DEAL)
    assert state.contract is first.other and state.owner == 0
    assert state.phase is (tc.Phase.DOUBLE if first is tc.Contract.TRIX else tc.Phase.TRIX)
    assert not any(isinstance(m, tc.Choose) for m in tc.legal_moves(state))
    with pytest.raises(tc.IllegalMoveError):
        tc.apply(state, tc.Choose(0, first))
    with pytest.raises(tc.IllegalMoveError):
        tc.apply(state, tc.Choose(0, first.other))


# -- R-MATCH-6 ----------------------------------------------------------------


def test_r_match_6_choosing_timeout_picks_complex() -> None:
    state = tc.apply(tc.new_match(), HEARTS_DEAL)
    state = tc.apply(state, tc.Timeout())
    assert state.contract is tc.Contract.COMPLEX and state.phase is tc.Phase.DOUBLE
    assert state.history.last == tc.Timeout()
    state = finish_deal(state)
    assert state.results[-1].contract is tc.Contract.COMPLEX
    state = tc.apply(state, SUITS_DEAL)
    assert state.contract is tc.Contract.TRIX


def test_r_match_6_timeout_outside_choose_and_double_is_rejected() -> None:
    deal_wait = tc.new_match()
    trix = tc.apply(tc.apply(tc.new_match(), HEARTS_DEAL), tc.Choose(0, "TRIX"))
    cx = start_complex(HEARTS_DEAL)
    over = random_match(6)[-1]
    for state in (deal_wait, trix, cx, over):
        with pytest.raises(tc.IllegalMoveError) as info:
            tc.apply(state, tc.Timeout())
        assert info.value.rule == "R-MATCH-6"
        assert "timeout is only legal" in str(info.value)


# -- R-MATCH-7 ----------------------------------------------------------------


@pytest.mark.parametrize("seed", [7, 8])
def test_r_match_7_seat_scores_sum_into_team_totals(seed: int) -> None:
    for state in random_match(seed):
        total = [0, 0, 0, 0]
        for result in state.results:
            for seat in range(4):
                total[seat] += result.points[seat]
        assert state.scores == tuple(total)
        s = tc.score(state)
        assert s.seats == state.scores
        assert s.teams == (total[0] + total[2], total[1] + total[3])


# -- R-MATCH-8 ----------------------------------------------------------------


def test_r_match_8_a_drawn_match() -> None:
    """Found by searching ``random_match(seed)`` (tests/builders.py) for seed = 0, 1, 2, …
    for Team Totals (0, 0): seed 0 is the first (seeds 8 and 36 also draw)."""
    final = random_match(0)[-1]
    assert final.is_over
    assert final.scores == (-120, -520, 120, 520)
    s = tc.score(final)
    assert s.teams == (0, 0)
    assert s.result is tc.MatchResult.DRAW
    with pytest.raises(tc.IllegalMoveError):
        tc.apply(final, tc.Deal.shuffled(random.Random(0)))  # no ninth deal


@pytest.mark.parametrize("seed", range(1, 8))
def test_r_match_8_the_higher_team_total_wins(seed: int) -> None:
    states = random_match(seed)
    final = states[-1]
    s = tc.score(final)
    assert all(tc.score(x).result is None for x in states[:-1])
    expected = {1: tc.MatchResult.TEAM0, -1: tc.MatchResult.TEAM1, 0: tc.MatchResult.DRAW}
    diff = s.teams[0] - s.teams[1]
    assert s.result is expected[(diff > 0) - (diff < 0)]
    assert min(s.teams) <= 0  # totals add to 0: the loser (or both) is at or below 0


def test_r_match_8_totals_may_be_negative() -> None:
    assert match_result((-40, 40)) is tc.MatchResult.TEAM1
    assert match_result((-5, -10)) is tc.MatchResult.TEAM0
    assert match_result((-15, -15)) is tc.MatchResult.DRAW
    finals = [random_match(seed)[-1] for seed in range(1, 4)]
    assert any(min(tc.score(f).teams) < 0 for f in finals)
