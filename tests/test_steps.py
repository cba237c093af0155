"""``next_step``: what comes next, one pure answer for every host (issue 27, item 4).

Each kind of step from a hand-built state, named by the clause that makes it;
then, over random matches of every ruleset (bad TRIX hands and redeals
included), each step agrees with the engine, and a match driven by
``next_step`` alone ends where :func:`trixcomplex.host.loop.run` ends.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import VIEW_RULESETS, deal_of, start_contract
from trixcomplex.core.steps import step_and_moves
from trixcomplex.host.loop import run

_REDEAL = tc.Ruleset.from_name("partnership+bad_hand_redeal=True")
_BAD = ["2C", "2D", "2H", "2S"]


def _trix(hands: list[list[str]], ruleset: tc.Ruleset = _REDEAL) -> tc.MatchState:
    """A TRIX deal of ``hands`` (seat 0 holds 7♥, so it owns the Kingdom and plays first)."""
    state = tc.apply(tc.new_match(ruleset), deal_of(hands))
    assert state.owner == 0
    return tc.apply(state, tc.Choose(0, tc.Contract.TRIX))


# -- each step from a hand-built state ------------------------------------------------


def test_r_match_2_a_match_waiting_for_its_deal_asks_the_dealer_to_deal() -> None:
    assert tc.next_step(tc.new_match()) == tc.DealCards(again=False)


def test_r_opt_8_a_deal_thrown_in_by_a_redeal_is_dealt_again() -> None:
    state = _trix([["7H"], [], _BAD])
    state = tc.apply(state, tc.Redeal(2))
    assert state.phase is tc.Phase.DEAL
    assert tc.next_step(state) == tc.DealCards(again=True)


def test_r_match_5_the_kingdom_owner_is_asked_to_choose() -> None:
    state = tc.apply(tc.new_match(), deal_of([["7H"]]))
    assert tc.next_step(state) == tc.Ask((0,))


def test_r_dbl_2_the_window_asks_every_seat_still_to_answer_and_forces_none() -> None:
    """R-DBL-2: the seats holding K♥ or a Queen are asked, in seat order, and each
    has a real choice (double or not); a seat that answered is asked no more."""
    state = tc.apply(tc.new_match(), deal_of([["7H", "KH"], ["QS"], [], ["QD", "QC"]]))
    state = tc.apply(state, tc.Choose(0, tc.Contract.COMPLEX))
    assert tc.next_step(state) == tc.Ask((0, 1, 3))
    state = tc.apply(state, tc.Double(1, ["QS"]))
    assert tc.next_step(state) == tc.Ask((0, 3))


def test_r_tx_5_a_seat_with_one_legal_card_is_forced() -> None:
    """R-TX-5: seat 0 opens TRIX holding one Jack: its one legal card is named."""
    hand = ["7H", "JS", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "QC", "KC"]
    state = _trix([hand], tc.PARTNERSHIP)
    assert tc.next_step(state) == tc.Forced(tc.Play(0, tc.parse_card("JS")))


def test_r_tx_5_a_forced_pass_is_forced() -> None:
    """R-TX-3, R-TX-5: seat 0 opens TRIX holding no Jack: its pass is forced."""
    hand = ["7H", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "QC", "KC", "AC"]
    state = _trix([hand], tc.PARTNERSHIP)
    assert tc.next_step(state) == tc.Forced(tc.Pass(0))


def test_r_cx_2_a_seat_with_a_choice_is_asked() -> None:
    state = start_contract(deal_of([["7H"]]), tc.Contract.COMPLEX, tc.PARTNERSHIP)
    assert len(tc.legal_moves(state)) > 1
    assert tc.next_step(state) == tc.Ask((0,))


def test_r_opt_8_a_bad_hand_out_of_turn_is_offered_a_redeal_before_the_seat_to_play() -> None:
    """R-OPT-8: seat 2 holds four 2s while seat 0 is to lay: the host offers seat 2 its
    redeal first; declined, seat 0 is asked."""
    step = tc.next_step(_trix([["7H", "JS", "JH"], [], _BAD]))
    assert step == tc.OfferRedeal(2, tc.Ask((0,)))


def test_r_opt_8_the_offer_wraps_a_forced_move() -> None:
    hand = ["7H", "JS", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "QC", "KC", "AC"]
    step = tc.next_step(_trix([hand, [], ["2C", "2D", "2H", "2S"]]))
    assert step == tc.OfferRedeal(2, tc.Forced(tc.Play(0, tc.parse_card("JS"))))


def test_r_opt_8_a_bad_hand_to_play_finds_the_redeal_among_its_moves() -> None:
    """R-OPT-8: the seat to play holds the bad hand: no offer, it is asked, and
    Redeal is one of its legal moves."""
    state = _trix([["7H", *_BAD]])
    assert tc.next_step(state) == tc.Ask((0,))
    assert tc.Redeal(0) in tc.legal_moves(state, 0)


def test_r_opt_8_no_offer_once_a_card_is_laid() -> None:
    state = _trix([["7H", "JS", "JH"], [], _BAD])
    state = tc.apply(state, tc.Play(0, tc.parse_card("JS")))
    assert not isinstance(tc.next_step(state), tc.OfferRedeal)
    assert not tc.rules.redeal_window(state)


def test_r_opt_8_no_offer_without_the_option() -> None:
    step = tc.next_step(_trix([["7H", "JS", "JH"], [], _BAD], tc.PARTNERSHIP))
    assert step == tc.Ask((0,))


def test_r_match_1_a_finished_match_has_no_step() -> None:
    state = run(tc.new_match(), _first_legal, deals=random.Random(3))
    assert state.phase is tc.Phase.OVER
    assert tc.next_step(state) == tc.MatchOver()


def test_the_steps_are_frozen_values() -> None:
    step = tc.Ask((0,))
    with pytest.raises(AttributeError):
        step.seats = (1,)  # type: ignore[misc]
    assert {tc.Ask((0,)), tc.Ask((0,))} == {step}


# -- over random matches of every ruleset ---------------------------------------------


def _first_legal(state: tc.MatchState, seat: int, legal: Any) -> tc.Move:
    return legal[0]


class _BadHands(random.Random):
    """A shuffler that now and then gives a seat the four 2s (a bad TRIX hand, R-OPT-8),
    so the redeal offers and redeals of ``bad_hand_redeal`` rulesets happen."""

    def shuffle(self, x: MutableSequence[Any]) -> None:  # type: ignore[override]
        super().shuffle(x)
        if self.random() < 0.4:
            seat = self.randrange(4)
            twos = [i for i, card in enumerate(x) if card.rank == tc.Rank.TWO]
            for two, place in zip(twos, range(seat, 16, 4), strict=True):
                x[two], x[place] = x[place], x[two]


def _check_step(state: tc.MatchState, step: tc.Step) -> None:
    """The step of ``state`` agrees with the engine (R-MATCH-1, R-MATCH-2, R-TX-5,
    R-OPT-8, R-DBL-2)."""
    assert (state.phase is tc.Phase.OVER) == (type(step) is tc.MatchOver)
    assert (state.phase is tc.Phase.DEAL) == (type(step) is tc.DealCards)
    if type(step) is tc.OfferRedeal:
        assert step.seat == tc.rules.redeal_seat(state) != state.turn
        assert tc.Redeal(step.seat) in tc.legal_moves(state, step.seat)
        step = step.otherwise
    elif state.turn is not None:
        assert tc.rules.redeal_seat(state) in (None, state.turn)
    if type(step) is tc.Forced:
        assert tc.legal_moves(state, step.move.seat) == (step.move,)
        assert state.turn == step.move.seat
    if type(step) is tc.Ask:
        if state.phase is tc.Phase.DOUBLE:
            assert step.seats == tuple(sorted(state.to_act))
        else:
            assert step.seats == (state.turn,)
        assert all(len(tc.legal_moves(state, seat)) > 1 for seat in step.seats)


def _by_next_step(ruleset: tc.Ruleset, seed: int) -> tuple[tc.MatchState, int]:
    """A match driven by ``next_step`` alone, every step checked; its end and its steps."""
    choices, deals, redeals = random.Random(seed), _BadHands(seed), _BadHands(~seed)
    state, steps = tc.new_match(ruleset), 0
    while True:
        step = tc.next_step(state)
        _check_step(state, step)
        steps += 1
        move: tc.Move
        if type(step) is tc.MatchOver:
            return state, steps
        if type(step) is tc.DealCards:
            move = tc.Deal.shuffled(redeals if step.again else deals)
        else:
            if type(step) is tc.OfferRedeal:
                if choices.random() < 0.5:
                    state = tc.apply(state, tc.Redeal(step.seat))
                    continue
                step = step.otherwise
            if type(step) is tc.Forced:
                move = step.move
            else:
                assert type(step) is tc.Ask
                legal = tc.legal_moves(state, step.seats[0])
                move = legal[choices.randrange(len(legal))]
        state = tc.apply(state, move)


def _by_host_run(ruleset: tc.Ruleset, seed: int) -> tc.MatchState:
    choices = random.Random(seed)

    def decide(state: tc.MatchState, seat: int, legal: Any) -> tc.Move:
        return legal[choices.randrange(len(legal))]  # type: ignore[no-any-return]

    def offer(state: tc.MatchState, seat: int) -> bool:
        return choices.random() < 0.5

    return run(tc.new_match(ruleset), decide, offer=offer, deals=_BadHands(seed),
               redeals=_BadHands(~seed))  # fmt: skip


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(VIEW_RULESETS + (_REDEAL,)), st.integers(0, 2**32 - 1))
def test_r_match_1_driving_a_match_by_next_step_alone_ends_where_host_run_ends(
    ruleset: tc.Ruleset, seed: int
) -> None:
    """R-MATCH-1, R-TX-5, R-OPT-8, R-DBL-2: over random matches of every ruleset,
    every step agrees with the engine, and the same choices reach the same end."""
    state, steps = _by_next_step(ruleset, seed)
    assert state.phase is tc.Phase.OVER
    assert state == _by_host_run(ruleset, seed)
    assert steps > len(state.results)


def test_step_and_moves_lists_the_moves_of_the_seat_its_step_names() -> None:
    for state in (_trix([["7H", "JS", "JH"], [], _BAD]), _trix([["7H", *_BAD]])):
        step, moves = step_and_moves(state)
        named = step.otherwise if isinstance(step, tc.OfferRedeal) else step
        assert isinstance(named, tc.Ask)
        assert moves == tc.legal_moves(state, named.seats[0])
    assert step_and_moves(tc.new_match()) == (tc.DealCards(), ())


# -- the rule helpers the hosts share (issue 27, item 2) ------------------------------


def test_r_opt_8_the_redeal_window_closes_at_the_first_pass() -> None:
    """R-OPT-8: before the first card laid *or the first pass*: seat 0 opens TRIX with
    no Jack and must pass; once it has, seat 2's bad hand is offered nothing."""
    hand = ["7H", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "QC", "KC", "AC"]
    state = _trix([hand, [], ["2D", "2H", "2S", "JD"]])
    assert tc.rules.redeal_window(state) and tc.rules.redeal_seat(state) is None
    hand = ["7H", "8H", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "QC", "KC", "AC"]
    state = _trix([hand, [], _BAD])
    assert tc.rules.redeal_window(state)
    assert tc.next_step(state) == tc.OfferRedeal(2, tc.Forced(tc.Pass(0)))
    state = tc.apply(state, tc.Pass(0))
    assert not tc.rules.redeal_window(state)
    assert tc.rules.redeal_seat(state) is None
    assert not isinstance(tc.next_step(state), tc.OfferRedeal)


def test_r_opt_8_the_redeal_window_is_only_in_trix_with_the_option() -> None:
    assert not tc.rules.redeal_window(_trix([["7H"], [], _BAD], tc.PARTNERSHIP))
    state = tc.apply(tc.new_match(_REDEAL), deal_of([["7H"], [], _BAD]))
    assert state.phase is tc.Phase.CHOOSE and not tc.rules.redeal_window(state)


@pytest.mark.parametrize("ruleset", [tc.PARTNERSHIP, tc.CLASSIC, tc.CLASSIC.evolve(
    reversed_scores=True), tc.CLASSIC_PARTNERSHIP.evolve(reversed_scores=True)])  # fmt: skip
def test_r_match_7_r_opt_6_standings_count_the_team_and_make_higher_better(
    ruleset: tc.Ruleset,
) -> None:
    seats = (10, -45, -40, 75)
    got = tc.rules.standings(seats, ruleset)
    sign = -1 if ruleset.reversed_scores else 1
    if ruleset.partnership:
        teams = tc.rules.team_totals(seats)
        assert got == tuple(sign * teams[s % 2] for s in range(4))
    else:
        assert got == tuple(sign * s for s in seats)
    best = {s for s in range(4) if got[s] == max(got)}
    _, winners = tc.rules.match_outcome(seats, ruleset)
    assert best == set(winners)


def test_the_rl_table_decides_no_rule_itself() -> None:
    """Issue 27: the RL table takes what comes next, the redeal window and the totals
    from the rules' own functions; none of their inline forms comes back."""
    source = (Path(tc.__file__).parent / "rl" / "table.py").read_text(encoding="utf-8")
    for inline in ("ruleset.reversed_scores", "Phase.TRIX", "history.last", "REDEAL in actions",
                   "len(actions) == 1", "seats[0] + seats[2]"):  # fmt: skip
        assert inline not in source, inline
