"""TensorTracker: one seat's observation tensor kept up to date from the moves (issue 14,
deliverable 6).

The contract: ``TensorTracker(seat).tensor(state)`` is bit-identical (float32, same
shape) to ``observation_tensor(view(state, seat))`` whatever states it is asked
with: every move, random stretches of moves, a state of another branch, of another
match, an earlier one; and it keeps hidden information hidden the same way (R-HID-1
… R-HID-3): worlds a seat cannot tell apart give it identical tensors.  The
deductions it writes (voids R-CX-2, R-CL-2; cannot-hold R-OPT-2, R-TX-3; known
holdings R-DBL-3, R-MATCH-3, R-OPT-7) are checked against the full view's at every
move, and each test also checks that the moves were followed, not encoded in full.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import VIEWERS
from test_view_after import IDS, RULESETS, same
from test_views import deal_start, unseen_deals
from trixcomplex import testing as kit
from trixcomplex.rl.observation import (
    OBSERVATION_LAYOUT,
    SeatsTracker,
    TensorTracker,
    observation_tensor,
    segment,
)


class CountingSeats(SeatsTracker):
    """A SeatsTracker that counts, by phase, the states at which it encoded everything in
    full (the spectator's view: each seat's own part is then encoded again too)."""

    def __init__(self) -> None:
        super().__init__()
        self.full: Counter[tc.Phase] = Counter()

    def _encode_in_full(self, state: tc.MatchState, seat: int | None) -> None:
        if seat is None:
            self.full[state.phase] += 1
        super()._encode_in_full(state, seat)


class CountingTracker(TensorTracker):
    """A TensorTracker that counts the states it encoded in full, by phase."""

    def __init__(self, seat: int | None) -> None:
        super().__init__(seat)
        self._tracker = CountingSeats()

    @property
    def full(self) -> Counter[tc.Phase]:
        return self._tracker.full  # type: ignore[attr-defined, no-any-return]


def full(state: tc.MatchState, seat: int | None) -> np.ndarray:
    return observation_tensor(tc.view(state, seat))


def differing(a: np.ndarray, b: np.ndarray) -> list[str]:
    """The segments in which two tensors differ (for the failure message)."""
    return [name for name, _ in OBSERVATION_LAYOUT if not np.array_equal(segment(a, name),
            segment(b, name))]  # fmt: skip


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_tracked_tensor_is_the_full_tensor_after_every_move(ruleset: tc.Ruleset) -> None:
    """Issue 14 (6): a tracker per seat and the spectator, asked after every move of a
    random match, gives the full tensor of that seat's view, bit for bit: the hand,
    the cards played, the trick, the voids (R-CX-2, R-CL-2), what a seat cannot hold
    (R-OPT-2, R-TX-3), its known holdings (R-DBL-3, R-MATCH-3, R-OPT-7), passes,
    finishing order, sizes, turn and points.  Most moves are followed, not encoded
    in full."""
    trackers = {seat: CountingTracker(seat) for seat in VIEWERS}
    states = kit.random_match(ruleset, 1)
    for n, state in enumerate(states):
        for seat, tracker in trackers.items():
            tensor = tracker.tensor(state)
            expected = full(state, seat)
            assert same(tensor, expected), (n, seat, type(state.history.last).__name__,
                                            differing(tensor, expected))  # fmt: skip
    fulls = sum(trackers[0].full.values())
    assert fulls < len(states) / 4, (fulls, len(states))  # the moves were followed


@settings(max_examples=25, deadline=None)
@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(0, 10**6), picks=st.integers())
def test_tracked_tensor_catches_up_over_any_stretch_and_any_branch(
    ruleset: tc.Ruleset, seed: int, picks: int
) -> None:
    """Issue 14 (6): a tracker asked at random moments (stretches of 1 to 20 moves, a
    step back, a state of another branch played from an earlier one, a state of
    another match) gives the full tensor every time."""
    pick = random.Random(picks)
    states = kit.random_match(ruleset, seed)
    others = kit.random_match(ruleset, seed + 1)
    seat = pick.choice(VIEWERS)
    tracker = TensorTracker(seat)
    i = 0
    while i < len(states) - 1:
        roll = pick.random()
        if roll < 0.08:  # another branch: a different legal move from an earlier state
            base = states[pick.randrange(max(0, i - 8), i + 1)]
            moves = tc.legal_moves(base)
            if moves:
                branch = tc.apply(base, pick.choice(moves))
                assert same(tracker.tensor(branch), full(branch, seat))
        elif roll < 0.12:  # a step back, or another match
            back = pick.choice((states[max(0, i - pick.randrange(1, 6))], pick.choice(others)))
            assert same(tracker.tensor(back), full(back, seat))
        i = min(len(states) - 1, i + pick.randrange(1, 21))
        assert same(tracker.tensor(states[i]), full(states[i], seat)), i


def test_a_branch_sharing_the_very_move_objects_is_not_taken_for_a_descendant() -> None:
    """Issue 14 (6): two branches from one state (in trick contracts and in TRIX), each
    followed by the same move object, are told apart by their histories' nodes: a
    tracker that saw one gives the other's own tensor."""
    rng = random.Random(11)
    found = Counter[tc.Phase]()
    for seed in range(40):
        states = kit.random_match(tc.CLASSIC, seed)
        for k, state in enumerate(states[:-2]):
            if not state.phase.plays_cards or found[state.phase] >= 3 or rng.random() < 0.9:
                continue
            firsts = tc.legal_moves(state)
            if len(firsts) < 2:
                continue
            a, b = (tc.apply(state, m) for m in rng.sample(firsts, 2))
            shared = [m for m in tc.legal_moves(a) if m in tc.legal_moves(b)]
            if not shared:
                continue
            a2, b2 = tc.apply(a, shared[0]), tc.apply(b, shared[0])
            if not tc.legal_moves(b2):
                continue
            b3 = tc.apply(b2, tc.legal_moves(b2)[0])  # b2's last move is a2's very object
            for seat in VIEWERS:
                for later in (b2, b3):
                    tracker = TensorTracker(seat)
                    tracker.tensor(a)
                    tracker.tensor(a2)
                    assert same(tracker.tensor(later), full(later, seat)), (seed, k, seat)
            found[state.phase] += 1
    assert found[tc.Phase.TRIX] and found[tc.Phase.TRICKS], found


@settings(max_examples=15, deadline=None)
@given(
    ruleset=st.sampled_from(RULESETS),
    seed=st.integers(0, 10**6),
    pick=st.randoms(use_true_random=False),
)
def test_r_hid_1_tracked_tensors_cannot_tell_unseen_worlds_apart(
    ruleset: tc.Ruleset, seed: int, pick: random.Random
) -> None:
    """R-HID-1 … R-HID-3: a seat's tracker follows a deal move by move in the real world,
    another in a world with two unseen cards of other seats swapped at the deal; at
    every step both give bit-identical tensors, as the spectator's do, while the
    moves are followed (not encoded in full)."""
    states = kit.random_match(ruleset, seed)
    i = pick.choice([k for k, s in enumerate(states) if s.phase.plays_cards])
    seat = pick.choice([0, 1, 2, 3])
    real = states[deal_start(states, i) + 1 : i + 1]
    for other, a, b in unseen_deals(states, i, seat, pick):
        for who in (seat, None):
            ours, theirs = CountingTracker(who), CountingTracker(who)
            for here, there in zip(real, other, strict=True):
                assert same(ours.tensor(here), theirs.tensor(there))
            assert sum(ours.full.values()) <= 6 + len(real) // 20, ours.full
        holders = [h for h in range(4) if (states[i].hands[h] >> a | states[i].hands[h] >> b) & 1]
        for h in holders:
            ours, theirs = TensorTracker(h), TensorTracker(h)
            for here, there in zip(real, other, strict=True):
                ours.tensor(here), theirs.tensor(there)
            assert not same(ours.tensor(real[-1]), theirs.tensor(other[-1]))  # holders see it
        return


def test_the_tensor_handed_out_is_the_callers_and_copies_start_afresh() -> None:
    """Issue 14 (6): each tensor is a new array the caller owns (changing it changes
    nothing the tracker keeps); a deep copy or a pickle of a tracker is a new, empty
    tracker with a buffer of its own."""
    states = kit.random_match(tc.CLASSIC, 3)
    tracker = TensorTracker(1)
    for state in states[:40]:
        tensor = tracker.tensor(state)
        assert tensor.flags.writeable and tensor.flags.owndata
        tensor[:] = 5.0
        assert same(tracker.tensor(state), full(state, 1))
    for twin in (copy.deepcopy(tracker), pickle.loads(pickle.dumps(tracker))):
        assert type(twin) is TensorTracker and twin.seat == 1
        for state in states[40:60]:
            assert same(twin.tensor(state), full(state, 1))
        assert same(tracker.tensor(states[39]), full(states[39], 1))  # untouched by the twin
        assert same(tracker.tensor(states[41]), full(states[41], 1))


def test_the_moves_of_every_kind_followed_are_followed() -> None:
    """Issue 14 (6): over whole matches the cards played to tricks, the TRIX turns and
    the other seats' doubling answers are followed move by move: a tracker asked after
    every move encodes in full only at a deal's, a choice's or the window's first
    look (a handful per deal), never in mid-trick or mid-TRIX."""
    for ruleset in (tc.CLASSIC, tc.Ruleset.from_name("partnership")):
        states = kit.random_match(ruleset, 5)
        deals = sum(1 for s in states if s.phase is tc.Phase.DEAL)
        for seat in VIEWERS:
            tracker = CountingTracker(seat)
            for state in states:
                tracker.tensor(state)
            assert tracker.full[tc.Phase.TRIX] <= deals + 1, tracker.full
            assert tracker.full[tc.Phase.COMPLEX] + tracker.full[tc.Phase.TRICKS] <= 2 * deals
            assert tracker.full[tc.Phase.DOUBLE] <= deals


# -- SeatsTracker: every seat and the spectator from one tracker ----------------------


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_one_seats_tracker_gives_every_viewer_the_full_tensor(ruleset: tc.Ruleset) -> None:
    """Issue 14 (6): one SeatsTracker asked, after every move of a random match, for the
    mover's tensor (what a game loop asks), now and then for other seats' and the
    spectator's, in any order, gives each the full tensor of its view bit for bit:
    the seat rows turned to the seat, its team first, its own hand and doubling
    answer (R-HID-2) and nobody else's; the moves are followed, the spectator's
    tensor encoded in full only a few times a deal."""
    pick = random.Random(ruleset.name)
    tracker = CountingSeats()
    states = kit.random_match(ruleset, 2)
    for n, state in enumerate(states):
        movers = [m.seat for m in tc.legal_moves(state)]
        asked = movers[:1] + pick.sample(VIEWERS, pick.choice((0, 0, 1, 2, 5)))
        for seat in asked:
            tensor = tracker.tensor(state, seat)
            expected = full(state, seat)
            assert same(tensor, expected), (n, seat, type(state.history.last).__name__,
                                            differing(tensor, expected))  # fmt: skip
    fulls = sum(tracker.full.values())
    deals = sum(1 for s in states if s.phase is tc.Phase.DEAL)
    assert fulls <= 4 * deals + 2 < len(states) / 4, (fulls, deals, len(states))


@settings(max_examples=25, deadline=None)
@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(0, 10**6), picks=st.integers())
def test_seats_tracker_catches_up_over_any_stretch_and_any_branch_for_any_seat(
    ruleset: tc.Ruleset, seed: int, picks: int
) -> None:
    """Issue 14 (6): one SeatsTracker asked at random moments (stretches of 1 to 20 moves,
    a step back, another branch, another match) for a random seat or the spectator
    each time gives that viewer's full tensor every time."""
    pick = random.Random(picks)
    states = kit.random_match(ruleset, seed)
    others = kit.random_match(ruleset, seed + 1)
    tracker = SeatsTracker()
    i = 0
    while i < len(states) - 1:
        roll, seat = pick.random(), pick.choice(VIEWERS)
        if roll < 0.08:
            base = states[pick.randrange(max(0, i - 8), i + 1)]
            moves = tc.legal_moves(base)
            if moves:
                branch = tc.apply(base, pick.choice(moves))
                assert same(tracker.tensor(branch, seat), full(branch, seat))
        elif roll < 0.12:
            back = pick.choice((states[max(0, i - pick.randrange(1, 6))], pick.choice(others)))
            assert same(tracker.tensor(back, seat), full(back, seat))
        i = min(len(states) - 1, i + pick.randrange(1, 21))
        for seat in pick.sample(VIEWERS, pick.randrange(1, 3)):
            assert same(tracker.tensor(states[i], seat), full(states[i], seat)), (i, seat)


@settings(max_examples=15, deadline=None)
@given(
    ruleset=st.sampled_from(RULESETS),
    seed=st.integers(0, 10**6),
    pick=st.randoms(use_true_random=False),
)
def test_r_hid_1_a_shared_tracker_shows_no_seat_another_seats_hand(
    ruleset: tc.Ruleset, seed: int, pick: random.Random
) -> None:
    """R-HID-1 … R-HID-3: one SeatsTracker asked for every seat's tensor at every step
    (the holders of two swapped cards among them) in the real world, another in a
    world with those two cards, unseen by ``seat``, swapped at the deal: ``seat``'s
    tensors and the spectator's stay bit-identical across the worlds; the holders'
    differ.  Sharing the tracker leaks no hand and no doubling answer."""
    states = kit.random_match(ruleset, seed)
    i = pick.choice([k for k, s in enumerate(states) if s.phase.plays_cards])
    seat = pick.choice([0, 1, 2, 3])
    real = states[deal_start(states, i) + 1 : i + 1]
    for other, a, b in unseen_deals(states, i, seat, pick):
        ours, theirs = CountingSeats(), CountingSeats()
        for here, there in zip(real, other, strict=True):
            for who in pick.sample(VIEWERS, len(VIEWERS)):
                mine, yours = ours.tensor(here, who), theirs.tensor(there, who)
                if who in (seat, None):
                    assert same(mine, yours), who
        assert sum(ours.full.values()) <= 6 + len(real) // 20, ours.full
        holders = [h for h in range(4) if (states[i].hands[h] >> a | states[i].hands[h] >> b) & 1]
        assert holders and all(
            not same(ours.tensor(real[-1], h), theirs.tensor(other[-1], h)) for h in holders
        )
        return


def test_seats_tracker_rejects_a_bad_seat_and_copies_start_afresh() -> None:
    """Issue 14 (6): a seat that is not 0-3 or None raises ValueError, naming it; each
    tensor is the caller's; a deep copy or a pickle is a new, empty tracker."""
    states = kit.random_match(tc.CLASSIC, 4)
    tracker = SeatsTracker()
    for bad in (4, -1, True, "1", 1.0):
        with pytest.raises(ValueError, match="seat is an int from 0 to 3"):
            tracker.tensor(states[5], bad)  # type: ignore[arg-type]
    for state in states[:30]:
        tensor = tracker.tensor(state, 3)
        assert tensor.flags.writeable and tensor.flags.owndata
        tensor[:] = 5.0
        assert same(tracker.tensor(state, 3), full(state, 3))
    for twin in (copy.deepcopy(tracker), pickle.loads(pickle.dumps(tracker))):
        assert type(twin) is SeatsTracker and twin._state is None
        for state in states[30:50]:
            assert same(twin.tensor(state, None), full(state, None))
        assert same(tracker.tensor(states[31], 0), full(states[31], 0))  # untouched by the twin


@settings(max_examples=30, deadline=None)
@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(0, 10**6), picks=st.integers())
def test_a_game_loop_handing_the_runners_steps_gets_the_full_tensor_at_every_move(
    ruleset: tc.Ruleset, seed: int, picks: int
) -> None:
    """Issue 44 (3): a game loop applying each move with ``apply_step`` and handing the
    tracker the runner's step of it (what PettingZoo, Gymnasium and TablesEnv do: one
    card or TRIX pass written from its CardStep alone, R-CX-2, R-CX-3, R-TX-3, R-TX-4)
    gets, for the mover and now and then another viewer, the full tensor of its view
    bit for bit at every move of a random match of every ruleset; a step that is not
    the last move's (a stale one) is not taken for it; the cards and passes are
    followed, the spectator's tensor encoded in full only a few times a deal."""
    rng, pick = random.Random(seed), random.Random(picks)
    tracker = CountingSeats()
    state, last = tc.new_match(ruleset), ()
    moves = deals = 0
    while state.phase is not tc.Phase.OVER and moves < 400:
        if state.phase is tc.Phase.DEAL:
            state, last, deals = tc.apply(state, tc.Deal.shuffled(rng)), (), deals + 1
            continue
        move = rng.choice(tc.legal_moves(state))
        for seat in [move.seat] + pick.sample(VIEWERS, pick.choice((0, 0, 0, 1, 2))):
            tensor = tracker.tensor(state, seat, last)
            expected = full(state, seat)
            assert same(tensor, expected), (moves, seat, type(state.history.last).__name__,
                                            differing(tensor, expected))  # fmt: skip
        before = last
        state, step = tc.apply_step(state, move)
        last = () if step is None else (step,)
        if pick.random() < 0.05 and before:  # a stale step: not the last move's
            assert same(tracker.tensor(state, move.seat, before), full(state, move.seat))
        moves += 1
    assert sum(tracker.full.values()) <= 4 * deals + 2 < moves / 4 + 2, (tracker.full, deals)


@pytest.mark.parametrize("card", [0, 12, 13, 38, 51])
def test_a_card_played_leaves_every_seats_cannot_hold_and_known_holdings(card: int) -> None:
    """A view's cannot_hold and known_holdings are of unplayed cards only: the card's
    column of those rows, each seat's turned to it, is cleared in all four seats'
    tensors, and nothing else is (the places named by ``SEAT_PLACES``, counted apart
    from the strided write ``clear_column`` makes)."""
    from trixcomplex.rl.observation.layout import AT_CANNOT, AT_KNOWN, TENSOR_SIZE
    from trixcomplex.rl.observation.seat_tensors import SEAT_PLACES, clear_column

    buffer = np.ones((5, TENSOR_SIZE), np.float32)
    clear_column(buffer.data.cast("B").cast("f"), tc.ALL_CARDS[card])
    column = {
        at
        for row in range(4)
        for entry in (AT_CANNOT + 52 * row + card, AT_KNOWN + 52 * row + card)
        for at in SEAT_PLACES[entry]
    }
    assert len(column) == 32
    cleared = set(np.flatnonzero(buffer.reshape(-1) == 0).tolist())
    assert cleared == column
