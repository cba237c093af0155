"""Bots: legal play, views only (R-HID-1), and RuleBot's recognisable tactics."""

from __future__ import annotations

import pickle
import random
from collections.abc import Sequence

import pytest
from attrs import define

import trixcomplex as tc
from builders import deal_of, plays, start_complex
from trixcomplex.bots import (
    Bot,
    BotError,
    MonteCarloBot,
    RandomBot,
    RuleBot,
    ask,
    bot_named,
)
from trixcomplex.bots.tactics import (
    Situation,
    choose_contract,
    choose_doubles,
    complex_card,
    trix_card,
)
from trixcomplex.cards import mask_of, parse_card
from trixcomplex.simulate import play_match


def _mask(codes: str) -> int:
    return mask_of(parse_card(c) for c in codes.split())


def _cards(codes: str) -> tuple[tc.Card, ...]:
    return tuple(parse_card(c) for c in codes.split())


def _complex(seat: int, hand: str, trick: str, leader: int, doubled: str = "") -> Situation:
    """A COMPLEX situation: ``seat`` holds ``hand``; ``trick`` led by ``leader``."""
    cards = _cards(trick)
    pairs = tuple((parse_card(c), int(d)) for c, d in (p.split("/") for p in doubled.split()))
    return Situation(
        seat=seat, phase=tc.Phase.COMPLEX, owner=leader, hand=_mask(hand), gone=mask_of(cards),
        trick=cards, leader=leader, doubled=pairs, table=0, hand_sizes=(13, 13, 13, 13),
    )  # fmt: skip


def _rngs(seed: int) -> list[random.Random]:
    return [random.Random(seed * 10 + s) for s in range(4)]


# -- legality and hidden information ----------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_r_seat_1_rule_and_random_bots_play_only_legal_moves(seed: int) -> None:
    """R-SEAT-1, R-CX-2, R-TX-3: every move asked of a bot is legal (ask checks it)."""
    bots: list[Bot] = [RuleBot(), RandomBot(), RuleBot(), RandomBot()]
    state = play_match(bots, random.Random(seed), _rngs(seed))
    assert state.phase is tc.Phase.OVER
    assert len(state.results) == 8
    assert sum(tc.score(state).teams) == 0  # R-SUM-1


def test_r_seat_1_montecarlo_bot_plays_a_whole_legal_match() -> None:
    """R-SEAT-1: the Monte Carlo bot (smallest budget) plays a full match legally."""
    bots: list[Bot] = [MonteCarloBot(worlds=1), RuleBot(), MonteCarloBot(worlds=1), RandomBot()]
    state = play_match(bots, random.Random(3), _rngs(3))
    assert state.is_over and sum(tc.score(state).teams) == 0


@define
class _Spy:
    """Wraps a bot and records the type of every view it is given."""

    inner: Bot
    seen: list[type]

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        self.seen.append(type(view))
        assert isinstance(view, tc.View) and not isinstance(view, tc.MatchState)
        return self.inner.choose(view, legal, rng)


def test_r_hid_1_bots_receive_views_never_the_match_state() -> None:
    """R-HID-1: the host gives a bot its seat's View, never the MatchState."""
    spies = [_Spy(RuleBot(), []), _Spy(RandomBot(), []), _Spy(MonteCarloBot(worlds=1), []),
             _Spy(RuleBot(), [])]  # fmt: skip
    play_match(spies, random.Random(5), _rngs(5))
    for spy in spies:
        assert spy.seen and set(spy.seen) == {tc.View}


def test_r_hid_1_a_bots_view_holds_its_own_hand_only() -> None:
    """R-HID-1: what a bot is shown is exactly view(state, seat): no other hand."""
    shown: list[tc.View] = []

    @define
    class Keep:
        def choose(
            self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
        ) -> tc.PlayerMove:
            shown.append(view)
            return legal[0]

    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(8)))
    assert state.owner is not None
    ask(Keep(), state, state.owner, random.Random(0))
    assert shown == [tc.view(state, state.owner)]
    assert shown[0].hand == state.hand(state.owner)


def _decision_points(seed: int) -> list[tuple[tc.MatchState, int]]:
    """States of a RuleBot match where the seat to move has a real choice, one per phase."""
    bots: list[Bot] = [RuleBot()] * 4
    found: dict[tc.Phase, tuple[tc.MatchState, int]] = {}

    def note(state: tc.MatchState) -> None:
        if state.phase in found or not state.to_act:
            return
        seat = min(state.to_act)
        if len(tc.legal_moves(state, seat)) > 1 and (
            state.phase is not tc.Phase.COMPLEX or (state.complex and state.complex.tricks)
        ):
            found[state.phase] = (state, seat)

    play_match(bots, random.Random(seed), _rngs(seed), on_move=note)
    return list(found.values())


@pytest.mark.parametrize("bot", [RuleBot(), RandomBot(), MonteCarloBot(worlds=2)], ids=repr)
def test_r_hid_1_choice_is_the_same_in_worlds_the_seat_cannot_tell_apart(bot: Bot) -> None:
    """R-HID-1, R-HID-2: two worlds with the same view for a seat get the same move.

    The worlds differ in the other seats' hands (sampled from the seat's view);
    the bot, asked through the host with the same rng seed, must not care.
    """
    points = _decision_points(4)
    assert {s.phase for s, _ in points} >= {tc.Phase.COMPLEX, tc.Phase.TRIX}
    for state, seat in points:
        seen = tc.view(state, seat)
        one = tc.sample_world(seen, random.Random(1))
        two = tc.sample_world(seen, random.Random(2))
        assert tc.view(one, seat) == tc.view(two, seat) == seen
        others = [s for s in range(4) if s != seat]
        if state.phase in (tc.Phase.COMPLEX, tc.Phase.TRIX):
            assert any(one.hands[s] != two.hands[s] for s in others)
        assert ask(bot, one, seat, random.Random(9)) == ask(bot, two, seat, random.Random(9))


def test_an_illegal_answer_is_rejected_with_bot_error() -> None:
    """R-SEAT-1: a bot answering a move that is not legal gets BotError, the state is kept."""

    @define
    class Cheat:
        def choose(
            self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
        ) -> tc.PlayerMove:
            return tc.Pass(0)

    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(2)))
    assert state.owner is not None
    with pytest.raises(BotError, match="not legal"):
        ask(Cheat(), state, state.owner, random.Random(0))


def test_bots_are_picklable_and_named() -> None:
    """Bots cross process boundaries (simulate on a process pool) and have CLI names."""
    for bot in (RandomBot(), RuleBot(), MonteCarloBot(worlds=3, policy="random")):
        assert pickle.loads(pickle.dumps(bot)) == bot
        assert isinstance(bot, Bot)
    assert bot_named("mc:3") == MonteCarloBot(worlds=3)
    assert bot_named(" Rule ") == RuleBot()
    for bad in ("", "mc:0", "mc:x", "alpha"):
        with pytest.raises(ValueError, match="unknown bot"):
            bot_named(bad)
    with pytest.raises(ValueError):
        MonteCarloBot(worlds=0)
    with pytest.raises(ValueError):
        MonteCarloBot(policy="greedy")


# -- Monte Carlo --------------------------------------------------------------------


def test_r_tx_5_montecarlo_returns_a_single_legal_move_without_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R-TX-5: with one legal move there is nothing to search (no world is sampled)."""
    import trixcomplex.worlds

    def boom(view: tc.View, rng: random.Random) -> tc.MatchState:
        raise AssertionError("sampled a world for a forced move")

    monkeypatch.setattr(trixcomplex.worlds, "sample_world", boom)
    rng = random.Random(1)
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(rng))
    while state.turn is None or len(tc.legal_moves(state, state.turn)) != 1:
        state = tc.apply(state, rng.choice(tc.legal_moves(state)))
    seat = state.turn
    legal = tc.legal_moves(state, seat)
    move = MonteCarloBot().choose(tc.view(state, seat), legal, random.Random(0))
    assert move == legal[0]


def test_montecarlo_is_reproducible_from_its_rng() -> None:
    """No hidden randomness: the same view and rng seed give the same move."""
    state, seat = _decision_points(6)[-1]
    seen = tc.view(state, seat)
    legal = tc.legal_moves(state, seat)
    bot = MonteCarloBot(worlds=3)
    assert bot.choose(seen, legal, random.Random(4)) == bot.choose(seen, legal, random.Random(4))


def test_r_dbl_4_montecarlo_searches_few_answers_in_a_large_doubling_window() -> None:
    """R-DBL-2: 5 doublable cards give 32 answers; the bot searches 7 of them."""
    deal = deal_of([["7H", "KH", "QS", "QH", "QD", "QC"], [], [], []])
    state = tc.apply(tc.new_match(), deal)
    state = tc.apply(state, tc.Choose(0, tc.Contract.COMPLEX))
    legal = tc.legal_moves(state, 0)
    assert len(legal) == 32
    picks = MonteCarloBot().candidates(tc.view(state, 0), legal)
    assert tc.Double(0, []) in picks and len(picks) in (6, 7)
    assert all(m in legal for m in picks)


# -- RuleBot tactics (R-CX-3, R-DBL-4, R-TX-2) --------------------------------------


def test_r_cx_3_ducks_with_the_highest_card_that_still_loses() -> None:
    """R-CX-3: following 9♠ with 2♠ 8♠ 10♠ K♠, play 8♠ (loses, and sheds the highest)."""
    sit = _complex(1, "2S 8S TS KS 3H 4C", "9S", leader=0)
    assert complex_card(sit) == parse_card("8S")


def test_r_cx_3_when_sure_to_take_the_trick_takes_it_with_the_highest_safe_card() -> None:
    """R-CX-3: last to play with only higher spades: take with K♠, keeping Q♠ (a penalty)."""
    sit = _complex(3, "TS QS KS 5H", "2S 3S 4S", leader=0)
    assert complex_card(sit) == parse_card("KS")


def test_r_cx_5_void_sheds_the_king_of_hearts_on_an_opponent() -> None:
    """R-CX-5: void in spades while an opponent wins: shed K♥ (−75 to him)."""
    sit = _complex(1, "KH QD 2C 3C 4H", "9S", leader=0)
    assert complex_card(sit) == parse_card("KH")


def test_r_cx_5_never_dumps_a_penalty_on_the_partner() -> None:
    """R-CX-5: void while the partner wins the trick: no K♥, Queen or diamond on him."""
    sit = _complex(2, "KH QC 2C AC 3H 5D", "9S 2S", leader=0)
    card = complex_card(sit)
    assert card not in _cards("KH QC 5D")


def test_r_cx_5_drops_a_queen_under_an_opponents_sure_winner_not_the_partners() -> None:
    """R-CX-5: Q♠ goes under the opponent's A♠ (sure winner), but not under the partner's."""
    assert complex_card(_complex(1, "QS 2S 9S", "AS 3S 4S", leader=2)) == parse_card("QS")
    assert complex_card(_complex(1, "QS 2S 9S", "AS 3S 4S", leader=3)) == parse_card("9S")


def test_r_dbl_4_case_1_sheds_its_own_doubled_queen_on_an_opponent() -> None:
    """R-DBL-4 case 1: my doubled Q♣ (he pays −50, I get +25) goes before a plain Q♥."""
    sit = _complex(1, "QH QC 2H", "9S", leader=0, doubled="QC/1")
    assert complex_card(sit) == parse_card("QC")


def test_r_dbl_1_doubles_only_well_guarded_cards() -> None:
    """R-DBL-1/R-DBL-4: double Q♠ with four low spades and nothing above; not a bare Q♥."""
    hand = "QS 2S 3S 4S 5S QH 2H 9D TD JD 4C 5C 6C"
    sit = Situation(
        seat=0, phase=tc.Phase.DOUBLE, owner=0, hand=_mask(hand), gone=0, trick=(), leader=0,
        doubled=(), table=0, hand_sizes=(13, 13, 13, 13),
    )  # fmt: skip
    assert choose_doubles(sit, _mask("QS QH")) == _mask("QS")
    with_ace = Situation(
        seat=0, phase=tc.Phase.DOUBLE, owner=0, hand=_mask(hand.replace("9D", "AS")), gone=0,
        trick=(), leader=0, doubled=(), table=0, hand_sizes=(13, 13, 13, 13),
    )  # fmt: skip
    assert choose_doubles(with_ace, _mask("QS QH")) == 0  # A♠ above: may have to win it


def _choose(hand: str) -> tc.Contract:
    return choose_contract(
        Situation(
            seat=0,
            phase=tc.Phase.CHOOSE,
            owner=0,
            hand=_mask(hand),
            gone=0,
            trick=(),
            leader=0,
            doubled=(),
            table=0,
            hand_sizes=(13, 13, 13, 13),
        )
    )


def test_r_match_5_chooses_trix_with_jacks_and_complex_with_a_safe_hand() -> None:
    """R-MATCH-5: Jacks and connected cards → TRIX first; low cards and a void → COMPLEX."""
    assert _choose("JS QS TS JH QH TH JD QD TD 9D JC QC TC") is tc.Contract.TRIX
    assert _choose("2S 3S 4S 5S 2H 3H 4H 5H 2C 3C 4C 5C 6C") is tc.Contract.COMPLEX


def test_r_tx_2_lays_the_card_that_unlocks_its_own_next_cards() -> None:
    """R-TX-2: with J♠ down, 10♠ (opening my 9♠ 8♠) beats J♣ (opening rows for others)."""
    sit = Situation(
        seat=0, phase=tc.Phase.TRIX, owner=0, hand=_mask("TS 9S 8S JC AC 2H"), gone=_mask("JS"),
        trick=(), leader=0, doubled=(), table=_mask("JS"), hand_sizes=(6, 9, 9, 9),
    )  # fmt: skip
    assert trix_card(sit) == parse_card("TS")


def test_r_tx_3_passes_only_without_a_legal_card() -> None:
    """R-TX-3: no legal card → None (pass)."""
    sit = Situation(
        seat=0, phase=tc.Phase.TRIX, owner=0, hand=_mask("2S 2H"), gone=_mask("JS"),
        trick=(), leader=0, doubled=(), table=_mask("JS"), hand_sizes=(2, 9, 9, 9),
    )  # fmt: skip
    assert trix_card(sit) is None


def test_r_cx_3_rulebot_ducks_through_a_real_view() -> None:
    """R-CX-3: the same duck, from a dealt hand through view() (seat 1 follows 9♠)."""
    state = start_complex(deal_of([["7H", "9S"], ["2S", "8S", "TS", "KS"], [], []]))
    assert state.owner == 0
    state = plays(state, "9S")
    legal = tc.legal_moves(state, 1)
    move = RuleBot().choose(tc.view(state, 1), legal, random.Random(0))
    assert move == tc.Play(1, "8S")


def test_rulebot_beats_randombot_on_seeded_matches() -> None:
    """RuleBot's team outscores RandomBot's over 8 seeded matches, seats swapped."""
    result = tc.simulate([RuleBot(), RandomBot()], 8, seed=3)
    assert result.summary.mean_margin > 0
    assert result.summary.wins >= 6


def test_montecarlo_time_budget_stops_after_the_first_world(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A spent time budget still plays one world (never zero), then stops sampling."""
    import trixcomplex.worlds

    calls: list[int] = []
    real = trixcomplex.worlds.sample_world

    def counting(view: tc.View, rng: random.Random) -> tc.MatchState:
        calls.append(1)
        return real(view, rng)

    monkeypatch.setattr(trixcomplex.worlds, "sample_world", counting)
    state, seat = _decision_points(6)[-1]
    legal = tc.legal_moves(state, seat)
    move = MonteCarloBot(worlds=50, time_budget=0.0).choose(
        tc.view(state, seat), legal, random.Random(1)
    )
    assert move in legal and len(calls) == 1


@pytest.mark.parametrize("policy", ["rule", "random"])
def test_r_cx_4_and_r_tx_4_playouts_finish_the_deal(policy: str) -> None:
    """R-CX-4, R-TX-4: a playout ends with the deal scored (13 tricks, or all places)."""
    from trixcomplex.bots.montecarlo import playout

    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(4)))
    for contract in tc.PARTNERSHIP.contracts:
        assert state.owner is not None
        chosen = tc.apply(state, tc.Choose(state.owner, contract))
        done = playout(chosen, random.Random(0), policy)
        assert done.phase is tc.Phase.DEAL and len(done.results) == 1
        assert sum(done.results[0].points) == (-500 if contract is tc.Contract.COMPLEX else 500)
