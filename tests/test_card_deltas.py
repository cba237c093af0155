"""The runner's CardSteps, handed to the readers that follow a match (issue 27, deliverable 1).

One place works out what a card does: the deal runner.  ``apply_step`` hands a
game loop the runner's :class:`~trixcomplex.core.runner.CardStep` of each
move; the kept views (``view_after_moves``) and the observation trackers
(``SeatsTracker``, ``Observer``) read those steps, and a reader given none
rebuilds them with ``card_deltas.steps_since``, checked here to be the
runner's very steps over random matches of every ruleset.  The readers'
results are the same with and without the steps, and always the full
``view`` / ``observation_tensor`` (the hidden-information properties of
tests/test_view_after.py and tests/test_rl_tracker.py hold for both paths,
since both give the full view's result).
"""

from __future__ import annotations

import itertools
import random

import attrs
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from trixcomplex import testing as kit
from trixcomplex.core.runner import CardStep, card_steps
from trixcomplex.host.loop import SeatViews
from trixcomplex.knowledge.card_deltas import StepLog, given_steps, steps_since
from trixcomplex.rl.observation import Observer, SeatsTracker, observation_tensor
from trixcomplex.rl.table import CHANCE, Table

_CARD_MOVES = (tc.Play, tc.Pass)
_NO_POINTS = (0, 0, 0, 0)


def _stepped(states: list[tc.MatchState]) -> list[tuple[tc.MatchState, tc.Move, CardStep | None]]:
    """``(state, move, step)`` for every move of the match: the state before it, the move,
    and the step ``apply_step`` reports for it (checked to give the very state after)."""
    out = []
    for before, after in itertools.pairwise(states):
        move = after.history.last
        assert move is not None
        got, step = tc.apply_step(before, move)
        assert got == after
        out.append((before, move, step))
    return out


def _seen_before(state: tc.MatchState) -> tuple[int, int, int, tuple[int, int, int, int]]:
    """What a reader saw of the deal in progress in ``state``: ``done``, ``start``,
    ``places``, ``points`` (the arguments of ``steps_since``)."""
    deal = state.deal
    if type(deal) is tc.TrickDeal:
        return len(deal.tricks), len(deal.trick), 0, deal.points
    if type(deal) is tc.TrixDeal:
        return 0, 0, len(deal.finishing_order), _NO_POINTS
    return 0, 0, 0, _NO_POINTS


def _card_runs(states: list[tc.MatchState]) -> list[tuple[int, int]]:
    """``(i, j)``: the stretches of card moves ``states[i] -> states[j]`` inside one deal
    (the deal still in progress in ``states[j]``), as long as possible."""
    runs = []
    i = 0
    while i < len(states) - 1:
        j = i
        while (
            j + 1 < len(states)
            and type(states[j + 1].history.last) in _CARD_MOVES
            and states[j + 1].phase is states[i].phase
            and states[j + 1].deal_number == states[i].deal_number
        ):
            j += 1
        if j > i:
            runs.append((i, j))
        i = j + 1
    return runs


@settings(max_examples=12, deadline=None)
@given(states=kit.matches(complete=False), pick=st.randoms(use_true_random=False))
def test_r_match_2_apply_step_and_steps_since_are_the_runners_own_steps(
    states: list[tc.MatchState], pick: random.Random
) -> None:
    """Checks R-MATCH-2 (each card stepped once, by the runner): ``apply_step`` gives
    ``apply``'s state and the runner's ``card_steps`` step of every card or pass (no
    step for any other move); ``steps_since`` reads the very same steps back from the
    state after one move or after any stretch of card moves of a deal, over random
    matches of every ruleset (tricks taken and their points, seats going out)."""
    for before, move, step in _stepped(states):
        if type(move) not in _CARD_MOVES:
            assert step is None
            continue
        _, (own,) = card_steps(before, [move])
        assert step == own
    for i, j in _card_runs(states):
        k = pick.randint(i, j - 1)  # any start inside the stretch
        moves = [s.history.last for s in states[k + 1 : j + 1]]
        _, own_steps = card_steps(states[k], moves)  # type: ignore[arg-type]
        read = steps_since(states[j], moves, *_seen_before(states[k]))  # type: ignore[arg-type]
        assert read == own_steps
        assert given_steps(moves, own_steps) is own_steps  # given steps covering the moves
        if len(moves) > 1:
            assert given_steps(moves[1:], own_steps) == own_steps[1:]  # the last ones
        assert given_steps(moves, own_steps[1:]) is None  # too few: rebuilt


def test_steps_since_refuses_moves_that_do_not_lead_to_the_state() -> None:
    """A reader of a trick deal that did not see the state just before the moves gets
    ``None`` (it then looks at the state afresh), and given steps of other moves are
    not taken."""
    states = kit.random_match(tc.PARTNERSHIP, 3)
    i, j = next(
        (i, j) for i, j in _card_runs(states) if j - i >= 5 and states[i].phase.plays_tricks
    )
    moves = [s.history.last for s in states[i + 1 : j + 1]]
    done, start, places, points = _seen_before(states[i])
    assert steps_since(states[j], moves[1:], done, start, places, points) is None
    _, own = card_steps(states[i], moves)  # type: ignore[arg-type]
    wrong = [*own[:-1], own[-2]]  # the last step not of the last move: rebuilt
    assert given_steps(moves, wrong) is None  # type: ignore[arg-type]


@settings(max_examples=10, deadline=None)
@given(states=kit.matches(complete=False), pick=st.randoms(use_true_random=False))
def test_r_hid_1_kept_views_are_the_same_with_and_without_the_runners_steps(
    states: list[tc.MatchState], pick: random.Random
) -> None:
    """Checks R-HID-1 (a view shows what its seat sees, the way ``view`` does): a view
    brought up to date over any stretch of moves with the runner's steps equals the
    one brought up to date without them and ``view()``, for every seat and the
    spectator, over random matches of every ruleset."""
    stepped = _stepped(states)
    for _ in range(8):
        if len(stepped) < 2:
            break
        i = pick.randrange(len(stepped))
        j = min(len(stepped), i + pick.randint(1, 12))
        moves = [m for _, m, _ in stepped[i:j]]
        steps = [s for _, _, s in stepped[i:j] if s is not None]
        after = states[j]
        for seat in (None, 0, 1, 2, 3):
            previous = tc.view(states[i], seat)
            full = tc.view(after, seat)
            with_steps = tc.view_after_moves(previous, moves, after, steps)
            assert with_steps == tc.view_after_moves(previous, moves, after) == full
            if j == i + 1:
                assert tc.view_after(previous, moves[0], after, steps[-1:]) == full


@settings(max_examples=10, deadline=None)
@given(states=kit.matches(complete=False), pick=st.randoms(use_true_random=False))
def test_r_hid_1_tracked_tensors_are_the_same_with_and_without_the_runners_steps(
    states: list[tc.MatchState], pick: random.Random
) -> None:
    """Checks R-HID-1 (a tensor shows what its seat sees): trackers and observers fed the
    runner's steps of each move, asked at random moments for random seats, give the
    tensors (and views) of trackers fed none, bit-identical to the full tensor of the
    full view, over random matches of every ruleset."""
    fed, unfed = SeatsTracker(), SeatsTracker()
    observer = Observer()
    steps: tuple[CardStep, ...] = ()
    for state, _, step in [*_stepped(states), (states[-1], None, None)]:
        if pick.random() < 0.6:  # asked now (else the moves since pile up)
            seat = pick.choice((None, 0, 1, 2, 3))
            full = observation_tensor(tc.view(state, seat))
            tensor = fed.tensor(state, seat, steps)
            assert tensor.tobytes() == unfed.tensor(state, seat).tobytes() == full.tobytes()
            assert np.array_equal(observer.tensor(state, seat, steps), full)
            assert observer.view(state, seat, steps) == tc.view(state, seat)
        steps = () if step is None else (step,)


def test_the_rl_table_keeps_the_runners_step_of_its_last_card() -> None:
    """The table the adapters play on keeps the runner's step of the card or pass that
    led to its state (none after any other action, never compared), which the
    adapters hand their observers."""
    table = Table.new(tc.CLASSIC)
    rng = random.Random(2)
    seen = 0
    while not table.is_over and seen < 120:
        if table.to_act == CHANCE:
            table = table.deal(rng)
            assert table.steps == ()
            continue
        before = table.state
        table = table.act(rng.choice(table.legal_actions()))
        move = table.state.history.last
        if table.state is not before and type(move) in _CARD_MOVES:
            assert table.steps == tuple(card_steps(before, [move])[1])  # type: ignore[list-item]
            assert attrs.evolve(table, steps=()) == table
            seen += 1
        else:
            assert table.steps == ()
    assert seen == 120


def test_r_hid_1_a_host_loops_seat_views_read_the_steps_it_hands_on() -> None:
    """Checks R-HID-1: a host loop's seat views, handed the runner's step of every card
    (``SeatViews.moved``) and asked at each seat's turn, are ``view()`` itself; the
    steps they catch up over are the logged ones, those of the moves since."""
    seen, log, steps = SeatViews(), StepLog(), []
    state = tc.apply(tc.new_match(tc.CLASSIC), tc.Deal.shuffled(random.Random(6)))
    logged = 0
    for _ in range(300):
        if state.phase is tc.Phase.DEAL:
            state = tc.apply(state, tc.Deal.shuffled(random.Random(len(state.history))))
            steps = []
            continue
        if state.phase is tc.Phase.OVER:
            break
        seat = next(iter(state.to_act))
        assert seen(state, seat) == tc.view(state, seat)
        state, step = tc.apply_step(state, tc.legal_moves(state, seat)[0])
        if step is None:
            steps = []
            continue
        seen.moved(state, step)
        log.note(state, (step,))
        steps.append(step)
        assert log.up_to(state) == steps[-2 * 64 :][-len(log.up_to(state) or ()) :]
        assert len(log.up_to(state) or ()) >= min(len(steps), 64)
        logged += 1
    assert logged > 200
    assert log.up_to(tc.new_match()) is None  # not a state the log ends at
