"""Worlds sampled from a view: always possible, always consistent (R-HID-1, R-HID-2).

The property: for every reachable view ``v``, ``sample_world(v, rng)`` succeeds
and ``view(sample_world(v, rng), v.seat) == v``.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import SPADES_DEAL, SUITS_DEAL, play, random_match
from trixcomplex.cards import cards_of, mask_of

PLAYING = (tc.Phase.CHOOSE, tc.Phase.DOUBLE, tc.Phase.COMPLEX, tc.Phase.TRIX)
VIEWERS: tuple[int | None, ...] = (None, 0, 1, 2, 3)


def check_world(state: tc.MatchState, seat: int | None, rng: random.Random) -> tc.MatchState:
    """Sample a world from ``state``'s view for ``seat`` and check it against the view."""
    v = tc.view(state, seat)
    world = tc.sample_world(v, rng)
    assert tc.view(world, seat) == v
    if seat is not None:
        assert world.hands[seat] == state.hands[seat]
    assert world.scores == state.scores and world.results == state.results
    for s in range(4):
        hand = world.hand(s)
        assert len(hand) == v.hand_sizes[s]
        assert not {c.suit for c in hand} & v.voids[s]
        assert not set(hand) & set(v.cannot_hold[s])
        assert set(v.known_holdings[s]) <= set(hand)
    return world


@pytest.mark.parametrize("seed", [0, 1])
def test_r_hid_1_sample_world_reproduces_every_view_of_a_match(seed: int) -> None:
    """R-HID-1: every state of a random match, every seat and the spectator."""
    rng = random.Random(seed)
    phases = set()
    for state in random_match(seed):
        for seat in VIEWERS:
            check_world(state, seat, rng)
        phases.add(state.phase)
    assert phases == set(tc.Phase)


@settings(max_examples=30)
@given(seed=st.integers(0, 10**6), pick=st.randoms(use_true_random=False))
def test_r_hid_1_sample_world_is_consistent_for_random_views(
    seed: int, pick: random.Random
) -> None:
    """R-HID-1, R-HID-2: a random reachable view of a random match, one world per phase."""
    states = random_match(seed)
    by_phase: dict[tc.Phase, list[tc.MatchState]] = {}
    for state in states:
        by_phase.setdefault(state.phase, []).append(state)
    for phase in PLAYING:
        if phase in by_phase:
            state = pick.choice(by_phase[phase])
            check_world(state, pick.choice(VIEWERS), pick)


def test_r_hid_2_sampled_window_has_no_other_answers() -> None:
    """R-HID-2: in the open window the sample says nobody else has answered, and keeps the
    seat's own answer; the view is reproduced either way."""
    state = play(tc.new_match(), SPADES_DEAL, tc.Choose(0, tc.Contract.COMPLEX))
    assert state.window is not None
    state = tc.apply(state, tc.Double(0, ["QS"]))
    for t in sorted(state.window.waiting() if state.window else ()):
        state = tc.apply(state, tc.Double(t, ()))
        if state.phase is tc.Phase.DOUBLE:
            break
    assert state.phase is tc.Phase.DOUBLE
    world = check_world(state, 0, random.Random(1))
    assert world.window is not None
    assert world.window.answers[0] == tc.parse_card("QS").mask
    assert all(world.window.answers[s] is None for s in (1, 2, 3))
    spectator = check_world(state, None, random.Random(2))
    assert spectator.window is not None and set(spectator.window.answers) == {None}


def test_r_hid_1_sample_world_keeps_revealed_doubles_with_their_doubler() -> None:
    """R-HID-1, R-DBL-3: a revealed, unplayed double stays in its doubler's sampled hand."""
    state = play(tc.new_match(), SPADES_DEAL, tc.Choose(0, tc.Contract.COMPLEX))
    assert state.window is not None
    for t in sorted(state.window.waiting()):
        cards = [str(c) for c in cards_of(state.window.asked[t])] if t == 3 else []
        state = tc.apply(state, tc.Double(t, cards))
    assert state.phase is tc.Phase.COMPLEX
    doubled = {c for c, d in state.complex.doubled if d == 3} if state.complex else set()
    assert doubled
    for k in range(20):
        world = check_world(state, 1, random.Random(k))
        assert doubled <= set(world.hand(3))


def test_r_hid_1_sample_world_gives_a_suit_to_the_only_seat_not_void_in_it() -> None:
    """R-HID-1, R-CX-2: each seat holds one whole suit; seat 1 leads hearts four times and
    the others show out, so every unplayed heart must be in seat 1's sampled hand."""
    state = play(tc.new_match(), SUITS_DEAL, tc.Choose(1, tc.Contract.COMPLEX))
    while state.phase is tc.Phase.DOUBLE:
        state = tc.apply(state, tc.legal_moves(state)[0])
    for _ in range(16):
        state = tc.apply(state, tc.legal_moves(state)[0])
    void = frozenset({tc.Suit.HEARTS})
    assert tc.view(state, None).voids == (void, frozenset(), void, void)
    for seat in VIEWERS:
        for k in range(5):
            world = check_world(state, seat, random.Random(k))
            assert world.hands[1] == state.hands[1]  # the nine hearts left, nothing else


def test_sample_world_is_deterministic_given_the_rng_and_varies_with_it() -> None:
    """No hidden randomness: the same rng seed gives the same world; others differ."""
    state = tc.apply(tc.new_match(), SPADES_DEAL)
    v = tc.view(state, 2)
    a = tc.sample_world(v, random.Random(5))
    assert a == tc.sample_world(v, random.Random(5))
    worlds = {tc.sample_world(v, random.Random(k)).hands for k in range(10)}
    assert len(worlds) > 1


def test_sample_world_history_holds_only_the_current_deal() -> None:
    """The sampled history is synthetic: the sampled Deal, then the deal's public moves."""
    states = random_match(12)
    state = next(s for s in states if s.deal_number > 1 and s.phase is tc.Phase.TRIX)
    world = check_world(state, 1, random.Random(0))
    moves = world.history.moves()
    assert isinstance(moves[0], tc.Deal) and moves == world.history.since_deal()
    assert len(moves) <= len(state.history.since_deal()) + 1
    between = next(s for s in states if s.phase is tc.Phase.DEAL and s.deal_number == 4)
    empty = check_world(between, 0, random.Random(0))
    assert empty.history == tc.History.EMPTY and empty.deal_number == 4


def test_sample_world_rejects_an_impossible_view_with_a_clear_error() -> None:
    """A hand-made view whose facts contradict each other is refused, not half-built."""
    state = tc.apply(tc.new_match(), SPADES_DEAL)
    v = tc.view(state, 0)
    with pytest.raises(ValueError, match="inconsistent view"):
        tc.sample_world(attrs.evolve(v, hand_sizes=(13, 14, 13, 12)), random.Random(0))
    all_void = frozenset(tc.Suit)
    with pytest.raises(ValueError, match="inconsistent view"):
        tc.sample_world(attrs.evolve(v, voids=(all_void,) * 4), random.Random(0))
    with pytest.raises(ValueError, match="seat is an int"):
        tc.sample_world(attrs.evolve(v, seat=7), random.Random(0))
    seven = tc.parse_card("7H")
    with pytest.raises(ValueError, match="inconsistent view"):
        tc.sample_world(attrs.evolve(v, known_holdings=((), (seven,), (), ())), random.Random(0))
    assert mask_of(v.hand) == state.hands[0]


def test_sample_world_checks_the_world_against_the_view_before_returning_it() -> None:
    """A view that no replay of its public moves reproduces is refused with a clear error."""
    states = random_match(13)
    state = next(s for s in states if s.complex is not None and len(s.complex.trick) == 2)
    v = tc.view(state, 0)
    with pytest.raises(ValueError, match="no state shows exactly this view"):
        tc.sample_world(attrs.evolve(v, points=(1, 2, 3, -6)), random.Random(0))
    window = play(tc.new_match(), SPADES_DEAL, tc.Choose(0, tc.Contract.COMPLEX))
    wrong_owner = attrs.evolve(tc.view(window, 1), owner=2)  # 7H says seat 0 owns (R-MATCH-3)
    with pytest.raises(ValueError, match="public moves do not replay"):
        tc.sample_world(wrong_owner, random.Random(0))


def test_sample_world_without_constraints_spreads_cards_evenly() -> None:
    """With only hand sizes to honour (seat 0 owns and holds 7H) every unseen card goes to
    each other seat about a third of the time (fixed seed: deterministic, not flaky)."""
    state = tc.apply(tc.new_match(), SPADES_DEAL)
    v = tc.view(state, 0)
    rng = random.Random(7)
    counts = {(c, s): 0 for c in tc.ALL_CARDS for s in (1, 2, 3)}
    runs = 300
    for _ in range(runs):
        world = tc.sample_world(v, rng)
        for s in (1, 2, 3):
            for c in world.hand(s):
                counts[c, s] += 1
    unseen = [c for c in tc.ALL_CARDS if c not in v.hand]
    assert len(unseen) == 39
    for c in unseen:
        assert all(0.2 * runs < counts[c, s] < 0.47 * runs for s in (1, 2, 3)), c
