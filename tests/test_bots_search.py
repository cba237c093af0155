"""MonteCarloBot with inference and the exact endgame (issue 26, deliverable 2)."""

from __future__ import annotations

import math
import random

import pytest

import trixcomplex as tc
from trixcomplex.bots import MC2, MonteCarloBot, ask, bot_named
from trixcomplex.bots.club import position
from trixcomplex.bots.endgame import card_values, endgame_values, layouts
from trixcomplex.bots.inference import SURPRISE, likelihood
from trixcomplex.bots.tactics import Situation
from trixcomplex.core.cards import mask_of, parse_card
from trixcomplex.host.tournament import play_match


def _m(codes: str) -> int:
    return mask_of(parse_card(c) for c in codes.split())


# -- the exact endgame ------------------------------------------------------------------


def test_r_cx_5_endgame_solver_finds_the_best_lead_with_exact_scores() -> None:
    """Checks R-CX-5: with the hands open, 2♠ makes seat 1 win K♠ and then its own Q♦
    (−15, then −15 −10 −25: +65 to my side); A♠ takes a clean trick and hands the last
    spade trick and Q♦ to seat 3 (−15 for me, −50 for him: +35)."""
    sit = position(0, "AS 2S", out="KS QD 3S 4S 5S 6S")
    hands = (sit.hand, _m("KS QD"), _m("3S 4S"), _m("5S 6S"))
    assert [(str(c), v) for c, v in card_values(sit, hands)] == [("2S", 65), ("AS", 35)]


def test_r_cx_5_endgame_solver_lets_the_opponents_play_their_best() -> None:
    """Checks R-CX-5: the opponents choose their cards against me.  Leading 2♠, seat 3
    keeps Q♠ off its partner's K♠ (9♠) and sheds it on my partner's 4♥ next trick
    (+15 −40); leading 2♥, seat 3 sheds Q♠ at once and seat 1 takes the spade trick
    (−40 +15).  Both −25: not the +25 of opponents playing for me."""
    sit = position(0, "2S 2H", out="KS 3H 5S 4H QS 9S")
    hands = (sit.hand, _m("KS 3H"), _m("5S 4H"), _m("QS 9S"))
    assert [(str(c), v) for c, v in card_values(sit, hands)] == [("2S", -25), ("2H", -25)]


def test_r_dbl_4_endgame_solver_counts_a_doubled_queen() -> None:
    """Checks R-DBL-4 case 1: my doubled Q♠ led into seat 1's bare A♠: seat 1 takes it
    (−15 −50, me +25: +90 to my side), then leads 2♥ and seat 3 takes the last trick
    (−15: +15).  Leading 3♥ first wins nothing like it."""
    sit = position(0, "QS 3H", out="AS 2H 4H 5H 6H 7H", doubled="QS/0")
    hands = (sit.hand, _m("AS 2H"), _m("4H 5H"), _m("6H 7H"))
    values = dict(card_values(sit, hands))
    assert values[parse_card("QS")] == 15 + 50 + 25 + 15
    assert max(values, key=lambda c: values[c]) == parse_card("QS")


def test_r_cx_2_endgame_layouts_respect_voids_and_known_cards() -> None:
    """Checks R-CX-2/R-DBL-3: the layouts solved are those the view allows: a seat void
    in a suit gets none of it, a revealed doubled card stays with its doubler."""
    free = list(layouts(position(0, "AS 2H", out="KS 3H QS 4H JS 5H")))
    assert len(free) == 90
    void = list(layouts(position(0, "AS 2H", out="KS 3H QS 4H JS 5H", voids={1: "S"})))
    assert len(void) == 18 and all(not h[1] & _m("KS QS JS") for h in void)
    known = list(layouts(position(0, "AS 2H", out="KS 3H QS 4H JS 5H", doubled="QS/3")))
    assert len(known) == 30 and all(h[3] & _m("QS") for h in known)
    solved = endgame_values(position(0, "AS 2S", out="KS QD 3S 4S 5S 6S"))
    assert solved is not None and solved[2] == 90


def test_r_cx_5_endgame_decides_the_search_bot_in_the_last_tricks() -> None:
    """Checks R-CX-5: in the last two tricks of a real deal, the endgame bot's move is
    the card with the best exact mean over the layouts, and it plays no playouts."""
    state, seat = _late_decision(4)
    seen = tc.view(state, seat)
    bot = MonteCarloBot(worlds=1, policy="rule2", endgame=2)
    moves, means, count = bot.evaluate(seen, tc.legal_moves(state, seat), random.Random(0))
    solved = endgame_values(Situation.of_view(seen))
    assert solved is not None and count == solved[2] > 1
    assert [m.card for m in moves] == solved[0] and means == solved[1]  # type: ignore[attr-defined]
    best = moves[max(range(len(moves)), key=lambda i: (means[i], -i))]
    assert ask(bot, state, seat, random.Random(0)) == best


def _late_decision(seed: int) -> tuple[tc.MatchState, int]:
    found: list[tuple[tc.MatchState, int]] = []

    def note(state: tc.MatchState) -> None:
        deal = state.trick_deal
        if found or deal is None or not state.to_act or len(deal.tricks) != 11:
            return
        seat = min(state.to_act)
        if len(tc.legal_moves(state, seat)) > 1:
            found.append((state, seat))

    rngs = [random.Random(seed + s) for s in range(4)]
    play_match([bot_named("rule")] * 4, random.Random(seed), rngs, on_move=note)
    assert found
    return found[0]


# -- inference --------------------------------------------------------------------------


def test_r_cx_3_inference_prefers_layouts_that_explain_the_play() -> None:
    """Checks R-CX-3: I led 3♠ and seat 1 followed with 8♠.  The model ducks with its
    highest card below the winner, so a seat 1 holding 2♠ would have played it: a
    layout giving 2♠ to seat 1 is less likely than one giving it to seat 2."""
    sit = position(0, "AS 5H", trick="3S 8S", leader=0, out="2S 9S 6H 7H 8H 9H")
    with_two = (sit.hand, _m("2S 6H"), _m("9S 7H"), _m("8H 9H"))
    without = (sit.hand, _m("6H 7H"), _m("9S 2S"), _m("8H 9H"))
    assert likelihood(sit, with_two) == SURPRISE
    assert likelihood(sit, without) == 1.0


def test_r_dbl_2_inference_weighs_the_doubling_answers() -> None:
    """Checks R-DBL-2/R-DBL-3: nothing was doubled; a layout where an opponent holds a
    Queen that the model would have doubled (long hearts, nothing above) is less likely
    than one where it would not have (A♥ above it)."""
    sit = position(0, "2S 3S 4S 5S", out="QH AH 7C 8C 4H 5H 6H 9C TC JC 2D 3D")
    above = (sit.hand, _m("QH AH 7C 8C"), _m("4H 5H 6H 9C"), _m("TC JC 2D 3D"))
    long = (sit.hand, _m("QH 4H 5H 6H"), _m("AH 7C 8C 9C"), _m("TC JC 2D 3D"))
    assert likelihood(sit, above) == 1.0
    assert likelihood(sit, long) == SURPRISE
    doubled = position(0, "2S 3S 4S 5S", out="QH AH 7C 8C 4H 5H 6H 9C TC JC 2D 3D",
                       doubled="QH/1")  # fmt: skip
    assert likelihood(doubled, long) == 1.0


def test_montecarlo_inference_weights_worlds_and_plays_legally() -> None:
    """A weighted search still returns one of the legal moves, its means are finite,
    and the same seed gives the same choice."""
    state, seat = _late_decision(5)
    seen = tc.view(state, seat)
    legal = tc.legal_moves(state, seat)
    bot = MonteCarloBot(worlds=3, policy="rule2", inference=True)
    moves, means, played = bot.evaluate(seen, legal, random.Random(2))
    assert played == 3 and set(moves) <= set(legal)
    assert len(means) == len(moves) and all(math.isfinite(m) for m in means)
    assert bot.choose(seen, legal, random.Random(2)) == bot.choose(seen, legal, random.Random(2))


# -- the time budget --------------------------------------------------------------------


class _Clock:
    """A CPU clock that advances by ``step`` seconds at each reading."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_time_budget_plays_as_many_worlds_as_fit_on_the_injected_clock() -> None:
    """The budget counts the bot's clock (CPU seconds): with a clock advancing 1 s a
    reading and 4.5 s to spend, 5 worlds fit (the budget is checked after each)."""
    state, seat = _late_decision(6)
    seen = tc.view(state, seat)
    legal = tc.legal_moves(state, seat)
    bot = MonteCarloBot(worlds=10_000, policy="rule2", time_budget=4.5, clock=_Clock(1.0))
    _, _, played = bot.evaluate(seen, legal, random.Random(0))
    assert played == 5
    one = MonteCarloBot(worlds=10_000, time_budget=0.0, clock=_Clock(1.0))
    assert one.evaluate(seen, legal, random.Random(0))[2] == 1


# -- names and views only ---------------------------------------------------------------


def test_mc2_is_named_and_picklable() -> None:
    """``mc2`` is the bot with version 2 playouts, inference and the exact endgame."""
    import pickle

    assert bot_named("mc2") == MC2 and bot_named("mc2:4").worlds == 4  # type: ignore[attr-defined]
    assert MC2.inference and MC2.endgame == 2 and MC2.policy == "rule2"
    assert pickle.loads(pickle.dumps(MC2)) == MC2
    with pytest.raises(ValueError, match="mc2:N samples N worlds"):
        bot_named("mc2:0")


def test_r_hid_1_mc2_choice_is_the_same_in_worlds_the_seat_cannot_tell_apart() -> None:
    """Checks R-HID-1: inference and the endgame read only the view."""
    for seed in (4, 6):
        state, seat = _late_decision(seed)
        seen = tc.view(state, seat)
        one = tc.sample_world(seen, random.Random(1))
        two = tc.sample_world(seen, random.Random(2))
        assert tc.view(one, seat) == tc.view(two, seat) == seen
        bot = bot_named("mc2:2")
        assert ask(bot, one, seat, random.Random(3)) == ask(bot, two, seat, random.Random(3))
