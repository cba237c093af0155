"""The one host loop (issue 11): who is asked, forced moves, redeal offers, the end."""

from __future__ import annotations

import random
from collections.abc import Sequence

import trixcomplex as tc
from builders import random_match_of
from trixcomplex.bots import RandomBot, RuleBot
from trixcomplex.host.loop import play_match, redeal_claimant, run, seat_to_move


class _Counting:
    """RandomBot that notes how many legal moves it was offered each time."""

    def __init__(self) -> None:
        self.offered: list[int] = []

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        self.offered.append(len(legal))
        assert tuple(legal) == view.legal_moves  # what it is offered is what its view says
        return RandomBot().choose(view, legal, rng)


def test_r_tx_5_a_single_legal_move_is_played_without_asking() -> None:
    """R-TX-5: the host plays a seat's single legal move itself; bots are asked only
    when they have a choice (and every seat is asked some time)."""
    bots = [_Counting() for _ in range(4)]
    final = play_match(bots, random.Random(3), [random.Random(s) for s in range(4)])
    assert final.phase is tc.Phase.OVER
    for bot in bots:
        assert bot.offered and min(bot.offered) >= 2


def test_r_dbl_2_the_lowest_seat_still_to_answer_is_asked() -> None:
    """R-DBL-2: in the doubling window the host asks the lowest seat still to answer."""
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
    state = tc.apply(state, tc.Timeout())
    assert state.to_act == frozenset({0, 3}) and seat_to_move(state) == 0
    state = tc.apply(state, tc.Double(0, []))
    assert seat_to_move(state) == 3


def test_run_without_deals_stops_at_the_end_of_the_deal() -> None:
    """Without a deck source the loop plays to the end of the current deal (playouts)."""
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(2)))
    rng = random.Random(0)
    after = run(state, lambda st, seat, legal: legal[rng.randrange(len(legal))])
    assert after.phase is tc.Phase.DEAL and len(after.results) == 1


def test_r_opt_8_the_bad_hand_is_offered_a_redeal_out_of_turn() -> None:
    """R-OPT-8: the seat that may demand a redeal out of turn is found from the legal
    moves; the host offers it before asking the seat to play, and its yes is played."""
    rs = tc.CLASSIC.evolve(bad_hand_redeal=True)
    for seed in range(40):
        for state in random_match_of(rs, seed, bad_hands=True):
            if state.phase is not tc.Phase.TRIX or state.turn is None:
                continue
            bad = redeal_claimant(state, state.turn)
            if bad is None:
                continue
            asked: list[int] = []

            def offer(st: tc.MatchState, seat: int, asked: list[int] = asked) -> bool:
                asked.append(seat)
                return True

            from trixcomplex.host.loop import next_move

            move = next_move(state, lambda st, seat, legal: legal[0], offer)
            assert asked == [bad] and move == tc.Redeal(bad)
            return
    raise AssertionError("no out-of-turn redeal found in 40 matches")


def test_the_host_gives_the_same_match_as_stepping_by_hand() -> None:
    """The loop is the engine and the bots, nothing more: replaying its record gives
    the same final state, for every preset."""
    for rs in tc.RULESETS.values():
        final = play_match([RuleBot(), RandomBot(), RuleBot(), RandomBot()], random.Random(5),
                           [random.Random(s) for s in range(4)], ruleset=rs)  # fmt: skip
        assert tc.replay(tc.Record.of(final)) == final
