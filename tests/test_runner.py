"""The deal runner: one card step, and the CardStep it reports for each move.

Each test names the clause of the step it checks.  The every-ruleset
properties (tests/test_properties.py: ``apply`` vs ``apply_moves`` vs
``playout``) cover the runner's states; these check its deltas.
"""

from __future__ import annotations

import itertools
import random
import warnings

import pytest

import trixcomplex as tc
from builders import HEARTS_DEAL, RULESET_VARIANTS, finish_deal, plays, random_match, start_complex
from trixcomplex.core.runner import CardStep, card_steps, run_deal


def test_r_seat_1_a_card_inside_a_trick_passes_the_turn_and_takes_nothing() -> None:
    """R-SEAT-1: a card that does not finish its trick (here K♥, which will take it)
    hands the turn to the next seat; no trick is taken, nothing is charged yet."""
    state = plays(start_complex(HEARTS_DEAL), "5H")
    after, (step,) = card_steps(state, [tc.Play(1, "KH")])
    assert step == CardStep(1, tc.parse_card("KH"), 2, None, None, False, False)
    assert after == tc.apply(state, tc.Play(1, "KH"))


def test_r_cx_3_r_cx_5_a_tricks_last_card_reports_the_trick_its_taker_and_its_points() -> None:
    """R-CX-3, R-CX-5: the fourth card finishes the trick: the taker (K♥, seat 1)
    leads next, and the step carries the trick and what it charged (-125)."""
    state = plays(start_complex(HEARTS_DEAL), "5H KH QD")
    after, (step,) = card_steps(state, [tc.Play(3, "9H")])
    cards = tuple(tc.parse_card(c) for c in ("5H", "KH", "QD", "9H"))
    assert step.trick == tc.Trick(0, cards, 1)  # type: ignore[arg-type]
    assert step.turn == 1 == after.turn
    assert step.points == (0, -125, 0, 0)
    assert not step.deal_over and not step.out
    assert after.trick_deal is not None and after.trick_deal.points == step.points


def test_r_cx_4_the_deals_last_card_ends_the_deal_and_scores_it() -> None:
    """R-CX-4, R-MATCH-1: the last card of the 13th trick ends the deal: no one is
    to play, and the state after is scored, waiting for the next deal."""
    state = start_complex(HEARTS_DEAL)
    while True:
        move = tc.legal_moves(state)[0]
        after = tc.apply(state, move)
        if after.phase is tc.Phase.DEAL:
            break
        state = after
    got, (step,) = card_steps(state, [move])
    assert got == after
    assert step.deal_over and step.turn is None and step.trick is not None
    assert len(after.results) == 1


def _trix_states(seed: int) -> list[tuple[tc.MatchState, tc.Move]]:
    """Each TRIX state of a random match with the move played from it."""
    states = random_match(seed)
    out = []
    for before, after in itertools.pairwise(states):
        last = after.history.last
        if before.phase is tc.Phase.TRIX and isinstance(last, tc.Play | tc.Pass):
            out.append((before, last))
    return out


def test_r_tx_2_r_tx_4_a_trix_card_reports_the_next_seat_and_who_went_out() -> None:
    """R-TX-1, R-TX-2, R-TX-4: a card laid hands the turn to the next seat holding
    cards; the card that empties a hand reports the seat out."""
    seen_out = seen_in = False
    for before, move in _trix_states(3):
        if not isinstance(move, tc.Play):
            continue
        after, (step,) = card_steps(before, [move])
        assert step.seat == move.seat and step.card == move.card and step.trick is None
        assert step.out == (after.phase is not tc.Phase.TRIX or not after.hands[move.seat])
        if step.deal_over:
            assert step.turn is None and after.phase in (tc.Phase.DEAL, tc.Phase.OVER)
        else:
            assert step.turn == after.turn
        seen_out |= step.out
        seen_in |= not step.out
    assert seen_out and seen_in


def test_r_tx_3_a_pass_reports_no_card_and_the_next_seat() -> None:
    """R-TX-3: a seat with no card to lay passes: the step has no card and hands the
    turn on; nothing else changes."""
    passes = [(s, m) for s, m in _trix_states(4) if isinstance(m, tc.Pass)]
    assert passes
    for before, move in passes:
        after, (step,) = card_steps(before, [move])
        assert step == CardStep(move.seat, None, after.turn, None, None, False, False)
        assert after.hands == before.hands and after.deal == before.deal


def test_r_tx_3_a_refused_move_stops_the_run_and_card_steps_names_it() -> None:
    """R-TX-3, R-CX-2: the runner stops at the first move not legal now (here a
    pass in a trick deal): ``run_deal`` makes none, ``card_steps`` raises with its index."""
    state = start_complex(HEARTS_DEAL)
    moves = [tc.Play(0, "5H"), tc.Pass(1)]
    after = run_deal(state, None, moves)
    assert after == tc.apply(state, moves[0]) and len(after.history) == len(state.history) + 1
    with pytest.raises(tc.IllegalMoveError) as caught:
        card_steps(state, moves)
    assert caught.value.index == 1
    done = finish_deal(state)
    assert run_deal(done, None, moves) is done


@pytest.mark.parametrize("ruleset", RULESET_VARIANTS, ids=lambda r: r.name)
def test_r_cx_5_r_tx_4_every_step_agrees_with_apply(ruleset: tc.Ruleset) -> None:
    """R-CX-3, R-CX-5, R-TX-4: over a whole match of every ruleset, each card's
    step says what ``apply`` changed: the next seat, the trick taken and its
    points (the deal's running points grow by them), the seat out, the deal's end."""
    states = random_match(7, ruleset=ruleset)
    checked = 0
    for before, after in itertools.pairwise(states):
        move = after.history.last
        if not before.phase.plays_cards or not isinstance(move, tc.Play | tc.Pass):
            continue
        got, (step,) = card_steps(before, [move])
        assert got == after
        assert step.deal_over == (after.phase in (tc.Phase.DEAL, tc.Phase.OVER))
        if not step.deal_over:
            assert step.turn == after.turn
        deal, was = after.trick_deal, before.trick_deal
        if was is not None and step.trick is not None and deal is not None:
            assert deal.tricks[-1] == step.trick and step.points is not None
            assert deal.points == tuple(a + b for a, b in zip(was.points, step.points, strict=True))
        checked += 1
    assert checked > 100


def test_a_policy_playout_sees_the_deal_as_stepping_does() -> None:
    """R-CX-5: a playout policy is shown the deal as the runner keeps it
    (the running points included): a policy choosing at random plays the very
    match the random playout plays."""
    ruleset = tc.CLASSIC

    def at_random(
        game: object, moves: tuple[tc.PlayerMove, ...], rng: random.Random
    ) -> tc.PlayerMove:
        return rng.choice(moves)

    a = tc.playout(tc.new_match(ruleset), random.Random(9), at_random, until="match")
    assert a == tc.playout(tc.new_match(ruleset), random.Random(9), until="match")


# -- the old names -------------------------------------------------------------

PLACES = ["trixcomplex", "trixcomplex.core.engine", "trixcomplex.core.tricks"]


@pytest.mark.parametrize(
    "where", ["trixcomplex", "trixcomplex.core.engine", "trixcomplex.core.tricks"]
)
def test_complex_deal_is_a_deprecated_alias_of_trick_deal(where: str) -> None:
    """``ComplexDeal`` (any trick deal, not only COMPLEX) is now ``TrickDeal``; the
    old name still works, with a DeprecationWarning naming the new one."""
    import importlib

    module = importlib.import_module(where)
    with pytest.warns(DeprecationWarning, match="use TrickDeal"):
        old = module.ComplexDeal
    assert old is tc.TrickDeal
    with pytest.raises(AttributeError):
        module.NoSuchName  # noqa: B018


def test_match_state_complex_is_a_deprecated_alias_of_trick_deal() -> None:
    """``MatchState.complex`` still gives the trick deal, with a DeprecationWarning."""
    state = plays(start_complex(HEARTS_DEAL), "5H")
    with pytest.warns(DeprecationWarning, match="trick_deal"):
        old = state.complex
    assert old is state.trick_deal is state.deal
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tc.new_match().trick_deal is None
