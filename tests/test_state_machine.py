"""A hypothesis state machine that plays a match with legal moves and tries illegal ones.

Every step keeps the engine's contract (R-CX-6, R-DBL-5, R-TX-4, R-SUM-1 on
finished deals and Kingdoms; cards in one place; to-act status; rejected
moves leave the state equal to itself and to a copy taken before).

The same machine runs for every preset ruleset and a few option variants
(``builders.RULESET_VARIANTS``, docs/rulesets.rst): each deal sums to its
contract's total (R-CL-8, R-OPT-3, R-OPT-6), each Kingdom to 0 with every contract
played once (R-SET-2), and the heart-lead (R-CL-2), penalty-card (R-OPT-2) and
redeal (R-OPT-8) rules reject what they forbid.
"""

from __future__ import annotations

import copy
import random
from typing import cast

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

import trixcomplex as tc
from builders import (
    RULESET_VARIANTS,
    assert_cards_in_one_place,
    assert_to_act_matches_legal_moves,
    bad_hand_deal,
    deal_total,
    is_listed,
)
from trixcomplex.core.cards import ALL_CARDS

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
# Every ruleset's machine also tries every contract and Redeal, and deals bad TRIX hands.
ANY_RULESET_MOVE = st.one_of(
    ANY_MOVE,
    st.builds(tc.Choose, SEATS, st.sampled_from(list(tc.Contract))),
    st.builds(tc.Redeal, SEATS),
    st.builds(
        lambda seed, seat, three: bad_hand_deal(random.Random(seed), seat, with_three=three),
        st.integers(0, 2**32 - 1),
        SEATS,
        st.booleans(),
    ),
)


class MatchMachine(RuleBasedStateMachine):
    RULESET = tc.PARTNERSHIP

    def __init__(self) -> None:
        super().__init__()
        self.state = tc.new_match(self.RULESET)
        self.rejected = 0

    def advance(self, move: tc.Move) -> None:
        before = self.state
        after = tc.apply(before, move)
        assert after.history.last == move and len(after.history) == len(before.history) + 1
        assert after == tc.apply(before, move)  # determinism
        assert hash(after) == hash(tc.apply(before, move))
        if len(after.results) > len(before.results):
            self.check_finished_deal(after)
        if isinstance(move, tc.Redeal):
            event("a redeal was played")
            assert after.phase is tc.Phase.DEAL and after.deal_number == before.deal_number
        self.state = after

    def check_finished_deal(self, state: tc.MatchState) -> None:
        ruleset = state.ruleset
        result = state.results[-1]
        assert sum(result.points) == deal_total(ruleset, result.contract)
        started = [r for r in state.results if r.kingdom == result.kingdom]
        assert sum(state.scores) == sum(deal_total(ruleset, r.contract) for r in started)
        played = sorted(p.value for r in started for p in r.contract.parts)
        assert len(played) == len(set(played))  # each contract once a Kingdom (R-SET-2)
        if len(played) == len(ruleset.contracts):  # the Kingdom is over (R-OPT-9: fewer deals)
            assert sum(state.scores) == 0 and sum(tc.score(state).teams) == 0
            assert played == sorted(c.value for c in ruleset.contracts)
            assert state.is_over == (result.kingdom == 4)

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
                if state.ruleset.bad_hand_redeal and rng.random() < 0.3:
                    move = bad_hand_deal(rng, rng.randrange(4), with_three=rng.random() < 0.5)
            elif timeout and state.phase in (tc.Phase.CHOOSE, tc.Phase.DOUBLE):
                move = tc.Timeout()
            else:
                listed = tc.legal_moves(state)
                move = rng.choice(listed)
                redeals = [m for m in listed if isinstance(m, tc.Redeal)]
                if redeals and rng.random() < 0.5:  # R-OPT-8: take the offer half the time
                    move = redeals[0]
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
        if state.phase not in (tc.Phase.COMPLEX, tc.Phase.TRICKS, tc.Phase.TRIX) or seat is None:
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
            expected = {"R-CX-2", "R-TX-2", "R-TX-3", "R-CL-2", "R-OPT-2"}
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


class AnyRulesetMachine(MatchMachine):
    """The machine for one ruleset other than PARTNERSHIP (subclassed per variant)."""

    @rule(move=ANY_RULESET_MOVE)
    def try_any_ruleset_move(self, move: tc.Move) -> None:
        """Any move, every contract and Redeal included: applied if listed, else rejected."""
        self.try_any_move(move)

    @rule()
    def try_redeal(self) -> None:
        """R-OPT-8: a Redeal by the listed bad hand applies; any other seat's is rejected."""
        state = self.state
        listed = [m for m in tc.legal_moves(state) if isinstance(m, tc.Redeal)]
        for seat in range(4):
            move = tc.Redeal(seat)
            if move in listed:
                after = tc.apply(state, move)
                assert after.phase is tc.Phase.DEAL and after.deal_number == state.deal_number
                assert after.owner == state.owner and after.results == state.results
                continue
            try:
                tc.apply(state, move)
            except tc.IllegalMoveError as err:
                rule_id = "R-OPT-8" if state.ruleset.bad_hand_redeal else "R-MATCH-2"
                assert err.rule == rule_id, err
            else:
                raise AssertionError(f"unlisted {move} was accepted")
        if listed:
            event("a redeal was offered")
            self.advance(listed[0])


def _machine_for(ruleset: tc.Ruleset) -> type[AnyRulesetMachine]:
    machine = cast(
        type[AnyRulesetMachine],
        type(f"Machine[{ruleset.name}]", (AnyRulesetMachine,), {"RULESET": ruleset}),
    )
    machine.TestCase.settings = settings(max_examples=8, stateful_step_count=150)
    return machine


for _ruleset in RULESET_VARIANTS:
    if _ruleset is not tc.PARTNERSHIP:
        _name = "".join(c if c.isalnum() else "_" for c in _ruleset.name)
        globals()[f"TestMachine_{_name}"] = _machine_for(_ruleset).TestCase
