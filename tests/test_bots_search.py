"""MonteCarloBot with inference and the exact endgame (issue 26, deliverable 2)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

import trixcomplex as tc
from trixcomplex.bots import MC2, MonteCarloBot, RuleBot, ask, bot_named, explain
from trixcomplex.bots.club import position
from trixcomplex.bots.endgame import card_values, endgame_values, layouts
from trixcomplex.bots.inference import SURPRISE, likelihood
from trixcomplex.bots.montecarlo import advantage, gain, playout
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


def _decision(seed: int, wanted: Callable[[tc.MatchState, int], bool]) -> tuple[tc.MatchState, int]:
    """The first decision of a seeded RuleBot match, trick contracts only, with more than
    one legal move, that is ``wanted`` (of the state and the seat to move)."""
    found: list[tuple[tc.MatchState, int]] = []

    def note(state: tc.MatchState) -> None:
        if found or state.trick_deal is None or not state.to_act:
            return
        seat = min(state.to_act)
        if len(tc.legal_moves(state, seat)) > 1 and wanted(state, seat):
            found.append((state, seat))

    rngs = [random.Random(seed + s) for s in range(4)]
    play_match([bot_named("rule")] * 4, random.Random(seed), rngs, on_move=note)
    assert found
    return found[0]


def _late_decision(seed: int) -> tuple[tc.MatchState, int]:
    """A card play of the 12th trick (two cards in hand)."""
    return _decision(seed, lambda state, _: len(state.trick_deal.tricks) == 11)  # type: ignore[union-attr]


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


# -- successive halving -----------------------------------------------------------------


def _lead_decision(seed: int, count: int) -> tuple[tc.MatchState, int]:
    """A card play of a real deal with ``count`` candidates to search."""

    def wanted(state: tc.MatchState, seat: int) -> bool:
        legal = tc.legal_moves(state, seat)
        return len(MonteCarloBot().candidates(tc.view(state, seat), legal)) == count

    return _decision(seed, wanted)


def test_halving_spends_the_same_playouts_on_fewer_and_fewer_candidates() -> None:
    """With 8 candidates and 6 worlds each, halving plays 3 rounds of 16 playouts: 2
    worlds for all 8, 4 more for the best 4, 8 more for the best 2 (14 each); the move
    chosen is the better of the last two, and the first candidate is RuleBot's."""
    state, seat = _lead_decision(3, 8)
    seen, legal = tc.view(state, seat), tc.legal_moves(state, seat)
    bot = MonteCarloBot(worlds=6, halving=True)
    found = bot.search(seen, legal, random.Random(1))
    moves = MonteCarloBot(worlds=6).candidates(seen, legal)
    assert list(found.moves) == moves and len(moves) == 8
    assert sorted(found.worlds) == [2, 2, 2, 2, 6, 6, 14, 14] and found.sampled == 14
    last = [i for i, w in enumerate(found.worlds) if w == found.sampled]
    assert found.move == max((found.moves[i] for i in last),
                             key=lambda m: found.means[found.moves.index(m)])  # fmt: skip
    plain = MonteCarloBot(worlds=6).search(seen, legal, random.Random(1))
    assert plain.worlds == (6,) * len(moves) and not plain.exact


def test_halving_shares_its_time_budget_between_the_rounds() -> None:
    """With a time budget each round may spend its share of it (the clock advancing 1 s
    a reading, 5.5 s over 3 rounds: a round stops at 1.8, 3.7 and 5.5 s, after 2 worlds),
    and every candidate of a round sees the same worlds."""
    state, seat = _lead_decision(3, 8)
    seen, legal = tc.view(state, seat), tc.legal_moves(state, seat)
    bot = MonteCarloBot(worlds=100, halving=True, time_budget=5.5, clock=_Clock(1.0))
    found = bot.search(seen, legal, random.Random(1))
    assert sorted(found.worlds) == [2, 2, 2, 2, 4, 4, 6, 6]


# -- caution ---------------------------------------------------------------------------


def _gains_by_world(
    seen: tc.View, moves: list[tc.PlayerMove], worlds: int, seed: int
) -> list[list[int]]:
    """Each candidate's gain in each world, worked out again apart from the search: the
    worlds drawn as the search draws them, one rule playout per candidate in each."""
    rng = random.Random(seed)
    seat = seen.seat
    assert seat is not None
    gains: list[list[int]] = [[] for _ in moves]
    for _ in range(worlds):
        world = tc.sample_world(seen, rng)
        rng.getrandbits(64)
        for i, move in enumerate(moves):
            gains[i].append(gain(world, playout(tc.apply(world, move), rng), seat))
    return gains


def test_caution_keeps_rulebots_move_unless_another_surely_gains_more() -> None:
    """With ``caution`` the search measures each candidate against RuleBot's move, world
    by world: its advantage is the mean difference less ``caution`` standard errors, and
    the move is the greatest advantage above 0, else RuleBot's.  Worked out again from
    the worlds' gains; over these decisions caution keeps RuleBot's move at least once
    where the best mean was another."""
    bitten = 0
    for seed in range(3, 9):
        state, seat = _lead_decision(seed, 3)
        seen, legal = tc.view(state, seat), tc.legal_moves(state, seat)
        plain = MonteCarloBot(worlds=6).search(seen, legal, random.Random(1))
        found = MonteCarloBot(worlds=6, caution=1.0).search(seen, legal, random.Random(1))
        assert found.moves == plain.moves and found.means == plain.means
        gains = _gains_by_world(seen, list(found.moves), 6, 1)
        for i, g in enumerate(gains[1:], 1):
            diffs = [a - b for a, b in zip(g, gains[0], strict=True)]
            mean = sum(diffs) / 6
            spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / 5 / 6)
            assert found.advantages[i] == pytest.approx(mean - spread)
        assert found.advantages[0] == 0.0 and plain.advantages == ()
        best = max(range(len(found.moves)), key=lambda i: (found.advantages[i], -i))
        assert found.move == found.moves[best]
        assert found.move == found.moves[0] or found.advantages[best] > 0
        bitten += found.move != plain.move
    assert bitten


def test_caution_without_spread_to_measure_keeps_rulebots_move() -> None:
    """One world measures no spread: nothing is sure, RuleBot's move is played; and a
    great caution plays RuleBot's move whatever the worlds show."""
    state, seat = _lead_decision(3, 8)
    seen, legal = tc.view(state, seat), tc.legal_moves(state, seat)
    rule = RuleBot(version=1).choose(seen, legal, None)
    for bot in (MonteCarloBot(worlds=1, caution=0.5), MonteCarloBot(worlds=8, caution=1e9)):
        found = bot.search(seen, legal, random.Random(2))
        assert found.move == rule == found.moves[0]
        assert all(a <= 0 for a in found.advantages)
    assert advantage([9, 9], [0, 0], [1.0, 1.0], 5.0) == 9.0  # no spread: sure
    with pytest.raises(ValueError):
        MonteCarloBot(caution=-1.0)


def test_caution_with_halving_keeps_rulebots_move_in_every_round() -> None:
    """Every candidate is measured against RuleBot's move, so halving never drops it:
    it is played in all the worlds; explain names the cautious search."""
    state, seat = _lead_decision(3, 8)
    seen, legal = tc.view(state, seat), tc.legal_moves(state, seat)
    bot = MonteCarloBot(worlds=6, halving=True, caution=1.0)
    found = bot.search(seen, legal, random.Random(1))
    assert found.worlds[0] == found.sampled == max(found.worlds) > 2
    survivors = [i for i, w in enumerate(found.worlds) if w == found.sampled]
    assert found.move in [found.moves[i] for i in survivors]
    hint = explain(bot, seen, legal, random.Random(1))
    assert hint.tactic == "cautious_search" and hint.move == found.move
    assert "caution=1.0" in repr(bot)


# -- the default move's RuleBot version --------------------------------------------------


def test_rule_version_makes_that_versions_move_the_default() -> None:
    """``rule_version=2``: RuleBot version 2's move is the first candidate (the move that
    wins ties and that caution keeps) while version 1 still plays the playouts; over
    these decisions the two versions disagree at least once, and the searched moves are
    the same set either way."""
    bot, plain = MonteCarloBot(worlds=2, rule_version=2), MonteCarloBot(worlds=2)
    assert (bot.default_version, bot.version, plain.default_version) == (2, 1, 1)
    assert MonteCarloBot(policy="rule2").default_version == 2

    def disagree(state: tc.MatchState, seat: int) -> bool:
        seen, legal = tc.view(state, seat), tc.legal_moves(state, seat)
        return RuleBot(version=1).choose(seen, legal, None) != RuleBot(version=2).choose(
            seen, legal, None
        )

    for seed in range(3, 7):
        for state, seat in (_lead_decision(seed, 3), _decision(seed, disagree)):
            seen, legal = tc.view(state, seat), tc.legal_moves(state, seat)
            first = bot.candidates(seen, legal)[0]
            assert first == RuleBot(version=2, endgame=0).choose(seen, legal, None)
            assert set(bot.candidates(seen, legal)) == set(plain.candidates(seen, legal))
            assert plain.candidates(seen, legal)[0] == RuleBot(version=1).choose(seen, legal, None)
    assert "rule_version=2" in repr(bot)
    with pytest.raises(ValueError):
        MonteCarloBot(rule_version=3)


# -- TRIX by RuleBot's rules ------------------------------------------------------------


def test_r_tx_3_search_trix_off_lays_rulebots_card_without_searching() -> None:
    """Checks R-TX-3 (the cards laid in TRIX): with ``search_trix=False`` the bot lays
    RuleBot's card, plays no world for it (a clock that fails when read), explains it by
    RuleBot's tactic, and still searches the trick contracts' cards."""
    found: list[tuple[tc.MatchState, int]] = []

    def note(state: tc.MatchState) -> None:
        if state.phase is tc.Phase.TRIX and state.to_act:
            seat = min(state.to_act)
            if len(tc.legal_moves(state, seat)) > 1:
                found.append((state, seat))

    play_match([bot_named("rule")] * 4, random.Random(2), [random.Random(s) for s in range(4)],
               on_move=note)  # fmt: skip
    assert len(found) > 5

    def no_clock() -> float:
        raise AssertionError("a TRIX card was searched")

    for version in (1, 2):
        bot = MonteCarloBot(worlds=2, search_trix=False, clock=no_clock, rule_version=version)
        rule = RuleBot(version=version)
        for state, seat in found[:10]:
            seen, legal = tc.view(state, seat), tc.legal_moves(state, seat)
            assert not bot.searches(seen)
            assert bot.choose(seen, legal, random.Random(0)) == rule.choose(seen, legal, None)
            hint = explain(bot, seen, legal)
            assert (hint.move, hint.tactic) == rule.decide(seen, legal) and hint.worlds == 0
            assert bot.search(seen, legal, random.Random(0)).sampled == 0
    state, seat = _late_decision(4)
    assert bot.searches(tc.view(state, seat)) and "search_trix=False" in repr(bot)


# -- names and views only ---------------------------------------------------------------


def test_mc2_is_named_and_picklable() -> None:
    """``mc2`` is the bot with equals, the exact endgame and TRIX by RuleBot's rules."""
    import pickle

    assert bot_named("mc2") == MC2 and bot_named("mc2:4").worlds == 4  # type: ignore[attr-defined]
    assert MC2.equals and MC2.endgame == 2 and not MC2.search_trix and MC2.worlds == 16
    assert MC2.policy == "rule" and not MC2.inference and not MC2.halving
    assert MC2.caution == 1.0 and MC2.rule_version == MC2.default_version == 2
    assert pickle.loads(pickle.dumps(MC2)) == MC2
    with pytest.raises(ValueError, match="mc2:N samples N worlds"):
        bot_named("mc2:0")


def test_r_hid_1_mc2_choice_is_the_same_in_worlds_the_seat_cannot_tell_apart() -> None:
    """Checks R-HID-1: inference, the endgame, equals and halving read only the view: the
    same search in two worlds the seat cannot tell apart."""
    decisions = [_late_decision(4), _late_decision(6), _lead_decision(3, 8), _lead_decision(5, 6)]
    bots = [
        bot_named("mc2:2"),
        MonteCarloBot(
            worlds=2, inference=True, halving=True, equals=True, policy="rule2", caution=1.0
        ),
    ]
    for state, seat in decisions:
        seen = tc.view(state, seat)
        one = tc.sample_world(seen, random.Random(1))
        two = tc.sample_world(seen, random.Random(2))
        assert tc.view(one, seat) == tc.view(two, seat) == seen and one != two
        for bot in bots:
            assert ask(bot, one, seat, random.Random(3)) == ask(bot, two, seat, random.Random(3))
            searched = [bot.search(tc.view(w, seat), tc.legal_moves(w, seat), random.Random(3))
                        for w in (one, two)]  # fmt: skip
            assert searched[0] == searched[1]
