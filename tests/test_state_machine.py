"""A hypothesis state machine that plays a match with legal moves and tries illegal ones.

Every step keeps the engine's contract (R-CX-6, R-DBL-5, R-TX-4, R-SUM-1 on
finished deals and Kingdoms; cards in one place; to-act status; rejected
moves leave the state equal to itself and to a copy taken before).
"""

from __future__ import annotations

import copy
import random

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

import trixcomplex as tc
from builders import assert_cards_in_one_place, assert_to_act_matches_legal_moves, is_listed
from trixcomplex.cards import ALL_CARDS

CARDS = st.sampled_from(ALL_CARDS)
SEATS = st.integers(0, 3)
ANY_MOVE = st.one_of(
    st.builds(tc.Play, SEATS, CARDS),
    st.builds(tc.Pass, SEATS),
    st.builds(tc.Double, SEATS, st.frozensets(CARDS, max_size=3)),
    st.builds(
        tc.Double,
        SEATS,
        st.frozensets(st.sampled_from([c for c in ALL_CARDS if str(c) in "KH QS QH QD QC"])),
    ),
    st.builds(tc.Choose, SEATS, st.sampled_from(list(tc.PARTNERSHIP.contracts))),
    st.just(tc.Timeout()),
    st.builds(lambda seed: tc.Deal.shuffled(random.Random(seed)), st.integers(0, 2**32 - 1)),
)


class MatchMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.state = tc.new_match()
        self.rejected = 0

    def advance(self, move: tc.Move) -> None:
        before = self.state
        after = tc.apply(before, move)
        assert after.history.last == move and len(after.history) == len(before.history) + 1
        assert after == tc.apply(before, move)  # determinism
        assert hash(after) == hash(tc.apply(before, move))
        if len(after.results) > len(before.results):
            self.check_finished_deal(after)
        self.state = after

    def check_finished_deal(self, state: tc.MatchState) -> None:
        result = state.results[-1]
        expected = -500 if result.contract is tc.Contract.COMPLEX else 500
        assert sum(result.points) == expected
        assert sum(state.scores) == (0 if len(state.results) % 2 == 0 else expected)
        if len(state.results) % 2 == 0:
            assert sum(tc.score(state).teams) == 0
            assert {r.contract for r in state.results[-2:]} == set(tc.PARTNERSHIP.contracts)

    @rule(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 40), timeout=st.booleans())
    def play_legal(self, seed: int, count: int, timeout: bool) -> None:
        """Apply up to ``count`` legal moves (a host's Deal or Timeout where due)."""
        rng = random.Random(seed)
        for _ in range(count):
            state = self.state
            if state.is_over:
                return
            if state.phase is tc.Phase.DEAL:
                move: tc.Move = tc.Deal.shuffled(rng)
            elif timeout and state.phase in (tc.Phase.CHOOSE, tc.Phase.DOUBLE):
                move = tc.Timeout()
            else:
                listed = tc.legal_moves(state)
                move = rng.choice(listed)
                assert tc.is_legal(state, move)
            self.advance(move)

    @rule(move=ANY_MOVE)
    def try_any_move(self, move: tc.Move) -> None:
        """A random move of any kind: applied if listed, else rejected without change."""
        state = self.state
        if is_listed(state, move):
            self.advance(move)
            return
        twin = copy.deepcopy(state)
        try:
            tc.apply(state, move)
        except tc.IllegalMoveError as err:
            assert err.move is move
            assert err.rule.startswith("R-") and err.reason
            assert str(err) == f"{move}: {err.reason} ({err.rule})"
            assert "\n" not in str(err)
        else:
            raise AssertionError(f"unlisted move {move} was accepted")
        assert state == twin and hash(state) == hash(twin) and state == self.state
        assert not tc.is_legal(state, move)
        self.rejected += 1

    @rule(data=st.data())
    def try_held_but_illegal(self, data: st.DataObject) -> None:
        """The seat to move plays a card it holds but may not play, or passes needlessly."""
        state = self.state
        seat = state.turn
        if state.phase not in (tc.Phase.COMPLEX, tc.Phase.TRIX) or seat is None:
            return
        listed = set(tc.legal_moves(state, seat))
        wrong: list[tc.PlayerMove] = [
            tc.Play(seat, c) for c in state.hand(seat) if tc.Play(seat, c) not in listed
        ]
        wrong += [tc.Pass(seat)] if tc.Pass(seat) not in listed else []
        if not wrong:
            event("every held card is legal")
            return
        move = data.draw(st.sampled_from(wrong))
        twin = copy.deepcopy(state)
        try:
            tc.apply(state, move)
        except tc.IllegalMoveError as err:
            expected = {"R-CX-2", "R-TX-2", "R-TX-3"}
            assert err.rule in expected, err
        else:
            raise AssertionError(f"illegal {move} was accepted")
        assert state == twin
        event(f"rejected {type(move).__name__} in {state.phase.value}")

    @invariant()
    def cards_in_one_place(self) -> None:
        assert_cards_in_one_place(self.state)

    @invariant()
    def to_act_matches_legal_moves(self) -> None:
        assert_to_act_matches_legal_moves(self.state)

    def teardown(self) -> None:
        event(f"reached phase {self.state.phase.value} after deal {self.state.deal_number}")

    @invariant()
    def score_is_consistent(self) -> None:
        s = tc.score(self.state)
        assert s.seats == self.state.scores
        assert s.teams == (s.seats[0] + s.seats[2], s.seats[1] + s.seats[3])
        assert (s.result is None) == (not self.state.is_over)
        total = [sum(r.points[i] for r in self.state.results) for i in range(4)]
        assert list(s.seats) == total


MatchMachine.TestCase.settings = settings(max_examples=25, stateful_step_count=150)
TestMatchMachine = MatchMachine.TestCase
