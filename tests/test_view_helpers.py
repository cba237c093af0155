"""The view helpers for bot authors: trick winner, unseen cards, known voids, points
so far (issue 15); each is a public fact of the view, decided by the engine's rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import HEARTS_DEAL, VIEW_RULESETS, random_match_of, start_complex
from builders import plays as play_cards
from trixcomplex.core.cards import ALL_CARDS
from trixcomplex.knowledge.views import known_voids, points_this_deal, trick_winner, unseen_cards


def test_r_cx_3_trick_winner_follows_the_trick() -> None:
    """R-CX-3: the highest card of the led suit wins so far; a discard never does."""
    state = tc.apply(start_complex(HEARTS_DEAL), tc.Play(0, "5H"))
    assert trick_winner(tc.view(state, 2)) == 0
    state = tc.apply(state, tc.Play(1, "KH"))
    assert trick_winner(tc.view(state, 2)) == 1
    state = tc.apply(state, tc.Play(2, "AD"))  # seat 2 has no hearts: the A♦ wins nothing
    assert trick_winner(tc.view(state, 3)) == 1
    state = tc.apply(state, tc.Play(3, "AH"))
    assert trick_winner(tc.view(state, 0)) is None  # the trick is taken; seat 3 leads
    assert tc.view(state, 0).last_trick.taker == 3  # type: ignore[union-attr]


def test_r_cx_2_known_voids_and_points_this_deal() -> None:
    """R-CX-2, R-CX-5: a seat that showed out of hearts is known void in hearts, by
    everyone; the points so far are the engine's running charges."""
    state = play_cards(start_complex(HEARTS_DEAL), "5H KH QD 9H")
    for viewer in (0, 1, 3):
        assert tc.Suit.HEARTS in known_voids(tc.view(state, viewer))[2]
    mine = known_voids(tc.view(state, 2))[2]
    assert {tc.Suit.SPADES, tc.Suit.HEARTS, tc.Suit.CLUBS} <= mine  # its own hand: diamonds only
    assert points_this_deal(tc.view(state, 0)) == tc.score(state).current == (0, -125, 0, 0)


def test_unseen_cards_are_the_other_hands() -> None:
    """Unseen: exactly the cards in the other three hands (whoever holds them)."""
    state = play_cards(start_complex(HEARTS_DEAL), "5H KH")
    for seat in range(4):
        others = {c for s in range(4) if s != seat for c in state.hand(s)}
        assert set(unseen_cards(tc.view(state, seat))) == others


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), which=st.integers(0, len(VIEW_RULESETS) - 1),
       at=st.floats(0, 1))  # fmt: skip
def test_r_hid_1_helpers_tell_the_truth_and_only_public_facts(
    seed: int, which: int, at: float
) -> None:
    """R-HID-1: over random states of every ruleset the helpers are true of the hidden
    hands (a known void holds none of the suit; unseen = the others' cards), and
    worlds a seat cannot tell apart (the same view) give the same answers."""
    states = random_match_of(VIEW_RULESETS[which], seed)
    state = states[int(at * (len(states) - 1))]
    for seat in range(4):
        v = tc.view(state, seat)
        others = {c for s in range(4) if s != seat for c in state.hand(s)}
        assert set(unseen_cards(v)) == others
        for s, suits in enumerate(known_voids(v)):
            for suit in suits:
                assert not any(c.suit is suit for c in state.hand(s)), (s, suit)
        if v.trick:  # the same public fact for every viewer, and R-CX-3 by hand
            assert v.leader is not None
            winner = trick_winner(v)
            assert winner == trick_winner(tc.view(state, None))
            led = [c for c in v.trick if c.suit is v.trick[0].suit]
            assert winner == (v.leader + v.trick.index(max(led))) % 4


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_helpers_of_a_fresh_deal(seat: int) -> None:
    """A fresh deal: 39 unseen cards, no trick, only the seat's own voids."""
    state = tc.apply(tc.new_match(), tc.Deal(ALL_CARDS))
    v = tc.view(state, seat)
    assert len(unseen_cards(v)) == 39 and trick_winner(v) is None
    assert all(not voids for s, voids in enumerate(known_voids(v)) if s != seat)
