"""Bots: legal play, views only (R-HID-1), and RuleBot's recognisable tactics."""

from __future__ import annotations

import pickle
import random
from collections.abc import Sequence

import attrs
import pytest
from attrs import define

import builders
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
    level,
)
from trixcomplex.bots.tactics import (
    CONTRACT_WEIGHTS,
    HAND_SET_WEIGHTS,
    ContractWeights,
    Situation,
    choose_contract,
    choose_doubles,
    complex_card,
    trix_card,
)
from trixcomplex.core.cards import mask_of, parse_card
from trixcomplex.host.tournament import play_match


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


def _decision_points(
    seed: int, ruleset: tc.Ruleset = tc.PARTNERSHIP
) -> list[tuple[tc.MatchState, int]]:
    """States of a RuleBot match where the seat to move has a real choice, one per phase."""
    bots: list[Bot] = [RuleBot()] * 4
    found: dict[tc.Phase, tuple[tc.MatchState, int]] = {}

    def note(state: tc.MatchState) -> None:
        if state.phase in found or not state.to_act:
            return
        seat = min(state.to_act)
        if len(tc.legal_moves(state, seat)) > 1 and (
            not state.phase.plays_tricks or (state.trick_deal and state.trick_deal.tricks)
        ):
            found[state.phase] = (state, seat)

    play_match(bots, random.Random(seed), _rngs(seed), on_move=note, ruleset=ruleset)
    return list(found.values())


@pytest.mark.parametrize(
    "bot", [RuleBot(), RandomBot(), MonteCarloBot(worlds=2), level(1), level(3)], ids=repr
)
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
        if state.phase in (tc.Phase.COMPLEX, tc.Phase.TRICKS, tc.Phase.TRIX):
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
    for bad in ("", "alpha"):
        with pytest.raises(ValueError, match="unknown bot"):
            bot_named(bad)
    for bad in ("mc:0", "mc:x", "mc:10001", "mc:-3"):
        with pytest.raises(ValueError, match="N from 1 to 10000"):
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
    import trixcomplex.knowledge.worlds

    def boom(view: tc.View, rng: random.Random) -> tc.MatchState:
        raise AssertionError("sampled a world for a forced move")

    monkeypatch.setattr(trixcomplex.knowledge.worlds, "sample_world", boom)
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
    import trixcomplex.knowledge.worlds

    calls: list[int] = []
    real = trixcomplex.knowledge.worlds.sample_world

    def counting(view: tc.View, rng: random.Random) -> tc.MatchState:
        calls.append(1)
        return real(view, rng)

    monkeypatch.setattr(trixcomplex.knowledge.worlds, "sample_world", counting)
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


# -- every ruleset (R-SET-1, R-CL-1 … R-CL-8, R-OPT-1 … R-OPT-8) ----------------------

_RULESETS = [
    *tc.RULESETS.values(),
    tc.CLASSIC.evolve(bad_hand_redeal=True),
    tc.CLASSIC.evolve(penalty_cards_first=True),
    tc.CLASSIC.evolve(reversed_scores=True),
    tc.CLASSIC_PARTNERSHIP.evolve(doubling=False, fixed_order=True, free_heart_leads=True),
    tc.CLASSIC.evolve(combined_contracts=True),
    tc.CLASSIC_PARTNERSHIP.evolve(combined_contracts=True, penalty_cards_first=True),
]


@pytest.mark.parametrize("ruleset", _RULESETS, ids=lambda r: r.name)
def test_r_set_1_every_bot_plays_complete_legal_matches_of_every_ruleset(
    ruleset: tc.Ruleset,
) -> None:
    """R-SET-1, R-SET-2, R-SEAT-1: RuleBot, RandomBot and MonteCarloBot (tiny budget)
    play a whole match of every preset and some variants; ask() checks every move."""
    bots: list[Bot] = [MonteCarloBot(worlds=1), RandomBot(), RuleBot(), RandomBot()]
    state = play_match(bots, random.Random(11), _rngs(11), ruleset=ruleset)
    assert state.is_over and len(state.results) <= ruleset.deals_per_match
    if not ruleset.combined_contracts:  # R-OPT-9: fewer deals
        assert len(state.results) == ruleset.deals_per_match
    kingdoms = [
        sorted(p.value for r in state.results if r.kingdom == k for p in r.contract.parts)
        for k in (1, 2, 3, 4)
    ]
    assert all(kingdom == sorted(c.value for c in ruleset.contracts) for kingdom in kingdoms)


def _sit(
    seat: int,
    hand: str,
    trick: str,
    leader: int,
    contract: tc.Contract,
    ruleset: tc.Ruleset = tc.CLASSIC,
    gone: str = "",
) -> Situation:
    """A trick-contract situation of ``ruleset``: ``seat`` holds ``hand``; ``trick`` led by
    ``leader``; ``gone`` more cards already played."""
    cards = _cards(trick)
    return Situation(
        seat=seat, phase=tc.Phase.COMPLEX, owner=leader, hand=_mask(hand),
        gone=mask_of(cards) | (_mask(gone) if gone else 0), trick=cards, leader=leader,
        doubled=(), table=0, hand_sizes=(13, 13, 13, 13), contract=contract, ruleset=ruleset,
    )  # fmt: skip


KH = tc.Contract.KING_OF_HEARTS


def test_r_cl_2_sheds_the_king_of_hearts_on_any_other_seat_when_void() -> None:
    """R-CL-2, R-IND-1: void in the led suit, K♥ goes on the trick — in classic (individual)
    even on seat 3, the seat opposite, who is no partner; in classic-partnership never on
    the partner's trick."""
    sit = _sit(1, "KH 2H AC 3C", "9S 2S", leader=3, contract=KH)
    assert complex_card(sit) == parse_card("KH")
    partners = _sit(1, "KH 2H AC 3C", "9S 2S", leader=3, contract=KH,
                    ruleset=tc.CLASSIC_PARTNERSHIP)  # fmt: skip
    assert partners.ally(3) and complex_card(partners) != parse_card("KH")
    opponent = _sit(1, "KH 2H AC 3C", "9S", leader=0, contract=KH,
                    ruleset=tc.CLASSIC_PARTNERSHIP)  # fmt: skip
    assert complex_card(opponent) == parse_card("KH")


def test_r_cl_2_drops_the_king_under_an_ace_and_ducks_otherwise() -> None:
    """R-CL-2: following hearts with K♥: under the A♥ (a sure winner) drop K♥; under a
    lower heart, duck with a low heart and never take the trick with K♥."""
    assert complex_card(_sit(1, "KH 3H 9C", "AH", leader=0, contract=KH, ruleset=tc.CLASSIC.evolve(
        free_heart_leads=True))) == parse_card("KH")  # fmt: skip
    assert complex_card(_sit(1, "KH 3H 9C", "TH", leader=0, contract=KH)) == parse_card("3H")


def test_r_cl_2_leads_no_heart_and_runs_from_its_shortest_suit_holding_the_king() -> None:
    """R-CL-2: holding K♥, lead the shortest other suit (to get void and shed K♥ later);
    a heart is never led while another suit is held (the rule, unless R-OPT-4)."""
    sit = _sit(0, "KH 2H 3H 4S 5S 6S 7S 8D 9D TD 2C", "", leader=0, contract=KH)
    assert complex_card(sit) == parse_card("2C")
    hearts_and_one = _sit(0, "2H 3H 4H AS", "", leader=0, contract=KH)
    assert complex_card(hearts_and_one) == parse_card("AS")  # the only legal lead


def test_r_cl_2_without_the_king_leads_a_low_heart_to_flush_it_out() -> None:
    """R-CL-2, R-OPT-4: not holding K♥, a low heart lead makes its holder play it
    (someone else takes it); with free heart leads the bot leads 2♥."""
    rules = tc.CLASSIC.evolve(free_heart_leads=True)
    sit = _sit(0, "2H 3H AS KS AD KD", "", leader=0, contract=KH, ruleset=rules)
    assert complex_card(sit) == parse_card("2H")


def test_r_cl_3_queens_sheds_a_queen_and_keeps_the_ace_when_void() -> None:
    """R-CL-3: in Queens only Queens cost: void, shed Q♠ on an opponent's trick; in
    Ltoosh (R-CL-5) the Queen costs nothing and the Ace (a sure later trick) goes."""
    hand = "QS AC 2D 3D"
    assert complex_card(_sit(1, hand, "9H", 0, tc.Contract.QUEENS)) == parse_card("QS")
    assert complex_card(_sit(1, hand, "9H", 0, tc.Contract.LTOOSH)) == parse_card("AC")


def test_r_cl_4_diamonds_sheds_diamonds_and_takes_with_the_highest_non_diamond() -> None:
    """R-CL-4: void, shed a diamond (−10 to the taker) rather than the A♣; last to play
    and sure to win, win with the A♠ and keep diamonds out of it."""
    assert complex_card(_sit(1, "AC 2D 9D", "9H", 0, tc.Contract.DIAMONDS)) == parse_card("9D")
    assert complex_card(_sit(3, "AS KS", "2S 3S 4S", 0, tc.Contract.DIAMONDS)) == parse_card("AS")


def test_r_cl_5_ltoosh_ducks_with_the_highest_losing_card_and_leads_low() -> None:
    """R-CL-5: every trick costs −15: duck under 9♠ with 8♠, lead the card least likely
    to win a trick (the 2♣ of a long suit, not an Ace)."""
    assert complex_card(_sit(1, "2S 8S TS KS", "9S", 0, tc.Contract.LTOOSH)) == parse_card("8S")
    lead = complex_card(_sit(0, "AS KS AH 2C 3C 4C", "", 0, tc.Contract.LTOOSH))
    assert lead == parse_card("2C")


def test_r_opt_2_plays_the_penalty_card_it_must_discard() -> None:
    """R-OPT-2: with penalty_cards_first, a void seat holding a diamond in Diamonds
    must discard one; RuleBot's card is always one of the legal cards."""
    rules = tc.CLASSIC.evolve(penalty_cards_first=True)
    sit = _sit(1, "AC KC 9D", "9H", 0, tc.Contract.DIAMONDS, ruleset=rules)
    assert complex_card(sit) == parse_card("9D")


def _choose_from(
    hand: str, remaining: tuple[tc.Contract, ...], weights: ContractWeights = HAND_SET_WEIGHTS
) -> tc.Contract:
    return choose_contract(
        Situation(
            seat=0, phase=tc.Phase.CHOOSE, owner=0, hand=_mask(hand), gone=0, trick=(),
            leader=0, doubled=(), table=0, hand_sizes=(13, 13, 13, 13),
            contract=None, ruleset=tc.CLASSIC, remaining=remaining,
        ),
        weights,
    )  # fmt: skip


def test_r_set_2_fitted_weights_are_rule_bot_s_and_change_choices() -> None:
    """R-SET-2: RuleBot chooses with the fitted weights (benchmarks/fit_weights.py), not
    the hand-set ones; a bias moves a choice; never a contract already played."""
    C = tc.Contract
    assert RuleBot().weights == CONTRACT_WEIGHTS != HAND_SET_WEIGHTS
    hearts = "KH 2H 3H 4H 5H 6H 7H 8H AS AC KC QC JC"
    no_trix = (C.KING_OF_HEARTS, C.QUEENS, C.DIAMONDS, C.LTOOSH)
    assert _choose_from(hearts, no_trix) is C.KING_OF_HEARTS
    assert _choose_from(hearts, no_trix, CONTRACT_WEIGHTS) is C.DIAMONDS  # 0 diamonds held
    loved = tuple((c, 1.0, 500.0 if c is C.LTOOSH else 0.0) for c in C)
    assert _choose_from(hearts, no_trix, loved) is C.LTOOSH
    assert _choose_from(hearts, (C.QUEENS,), loved) is C.QUEENS
    assert repr(RuleBot(loved)).startswith("RuleBot(((")


def test_r_set_2_chooses_the_remaining_contract_the_hand_suits() -> None:
    """R-SET-2: the owner picks among the remaining contracts only; with the hand-set
    weights (the raw goodness of each contract) the reasons are simple:
    long guarded hearts → King of Hearts; no diamonds → Diamonds; low cards → Ltoosh;
    guarded Queens → Queens; Jacks and runs → TRIX."""
    C = tc.Contract
    no_trix = (C.KING_OF_HEARTS, C.QUEENS, C.DIAMONDS, C.LTOOSH)
    hearts = "KH 2H 3H 4H 5H 6H 7H 8H AS AC KC QC JC"
    assert _choose_from(hearts, no_trix) is C.KING_OF_HEARTS
    no_diamonds = "AS KS QS JS AH KH QH JH AC KC QC JC TC"
    assert _choose_from(no_diamonds, no_trix) is C.DIAMONDS
    low = "2S 3S 4S 5S 2H 3H 4H 5H 2D 3D 2C 3C 4C"
    assert _choose_from(low, (C.QUEENS, C.LTOOSH)) is C.LTOOSH
    guarded = "QS 2S 3S 4S QH 2H 3H 4H QC 2C 3C 4C 5D"
    assert _choose_from(guarded, (C.QUEENS, C.DIAMONDS)) is C.QUEENS
    jacks = "JS QS TS JH QH TH JD QD TD 9D JC QC TC"
    assert _choose_from(jacks, tc.CLASSIC.contracts) is C.TRIX
    for hand in (hearts, no_diamonds, low, guarded, jacks):  # never a played contract
        assert _choose_from(hand, (C.QUEENS,)) is C.QUEENS


def test_r_cl_7_doubles_only_the_doublable_cards_offered() -> None:
    """R-CL-7: in Queens the window offers the Queens only (K♥ is not doublable there),
    in King of Hearts K♥ only; RuleBot doubles a well-guarded offered card and nothing else."""
    deal = deal_of([["7H", "QS", "2S", "3S", "4S", "5S", "KH", "2H", "3H", "4H", "5H", "6H"]])
    state = tc.apply(tc.new_match(tc.CLASSIC), deal)
    assert state.owner == 0
    for contract, expected in ((tc.Contract.QUEENS, "QS"), (KH, "KH")):
        window = tc.apply(state, tc.Choose(0, contract))
        legal = tc.legal_moves(window, 0)
        assert {c for m in legal for c in m.cards} == {parse_card(expected)}  # type: ignore[union-attr]
        move = RuleBot().choose(tc.view(window, 0), legal, random.Random(0))
        assert move == tc.Double(0, [expected])


def _bad_hand_at_trix(seat: int, owner_hand: str = "7H") -> tc.MatchState:
    """A classic+bad_hand_redeal match where ``seat`` holds four 2s and TRIX is chosen."""
    hands: list[list[str]] = [[], [], [], []]
    hands[0] = owner_hand.split()
    hands[seat] += ["2S", "2H", "2D", "2C"]
    state = tc.apply(tc.new_match(tc.CLASSIC.evolve(bad_hand_redeal=True)), deal_of(hands))
    assert state.owner == 0
    return tc.apply(state, tc.Choose(0, tc.Contract.TRIX))


def test_r_opt_8_demands_a_redeal_with_a_bad_hand_in_turn_and_out_of_turn() -> None:
    """R-OPT-8: RuleBot demands the redeal with four 2s, on its own turn (Redeal among its
    moves) and out of turn (the host's offer); the host plays it for the bot."""
    from trixcomplex.bots import offer_redeal
    from trixcomplex.host.tournament import next_move

    in_turn = _bad_hand_at_trix(0, "7H")
    legal = tc.legal_moves(in_turn, 0)
    assert tc.Redeal(0) in legal and len(legal) > 1
    assert RuleBot().choose(tc.view(in_turn, 0), legal, random.Random(0)) == tc.Redeal(0)
    out_of_turn = _bad_hand_at_trix(2)
    assert out_of_turn.turn == 0
    assert offer_redeal(RuleBot(), out_of_turn, 2, random.Random(0)) is True
    bots: list[Bot] = [RuleBot()] * 4
    assert next_move(out_of_turn, bots, _rngs(0)) == tc.Redeal(2)
    with pytest.raises(ValueError, match="may not demand a redeal"):
        offer_redeal(RuleBot(), out_of_turn, 1, random.Random(0))


def test_r_opt_8_a_bot_without_wants_redeal_is_never_made_to_redeal() -> None:
    """R-OPT-8: the host offers the redeal as a question; a bot that cannot answer it
    (only ``choose``) plays on, and the seat to play is asked instead."""
    from trixcomplex.host.tournament import next_move

    @define
    class Plain:
        def choose(
            self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
        ) -> tc.PlayerMove:
            return legal[-1]

    state = _bad_hand_at_trix(2)
    bots: list[Bot] = [Plain()] * 4
    move = next_move(state, bots, _rngs(0))
    assert isinstance(move, tc.Play) and move.seat == 0


def test_r_opt_8_montecarlo_demands_a_redeal_that_playing_on_would_lose() -> None:
    """R-OPT-8: four 2s lose TRIX (laid last): MonteCarloBot's playouts say so."""
    state = _bad_hand_at_trix(2)
    assert MonteCarloBot(worlds=3).wants_redeal(tc.view(state, 2), random.Random(0)) is True


def _scored(ruleset: tc.Ruleset, scores: tuple[int, int, int, int]) -> tc.MatchState:
    import attrs

    return attrs.evolve(tc.new_match(ruleset), scores=scores)


def test_r_ind_1_and_r_opt_6_montecarlo_gain_is_the_rulesets_notion_of_winning() -> None:
    """R-MATCH-8: team margin in partnership; R-IND-1: my points minus the others' mean
    (×4 − sum); R-OPT-6: reversed scores negate it (the lowest total wins)."""
    from trixcomplex.bots.montecarlo import gain

    points = (-75, 0, -25, 0)
    zero = (0, 0, 0, 0)
    for rs, seat, expected in (
        (tc.PARTNERSHIP, 0, -100),
        (tc.CLASSIC_PARTNERSHIP, 1, 100),
        (tc.CLASSIC, 2, -100 + 100),
        (tc.CLASSIC, 1, 100),
        (tc.CLASSIC.evolve(reversed_scores=True), 1, -100),
    ):
        assert gain(_scored(rs, zero), _scored(rs, points), seat) == expected, rs.name


@pytest.mark.parametrize("bot", [RuleBot(), MonteCarloBot(worlds=2)], ids=repr)
def test_r_hid_1_classic_choices_do_not_depend_on_hidden_cards(bot: Bot) -> None:
    """R-HID-1, R-CL-1: in classic Trix too, two worlds with the same view get the same move."""
    points = _decision_points(5, tc.CLASSIC)
    assert {s.phase for s, _ in points} >= {tc.Phase.CHOOSE, tc.Phase.TRICKS, tc.Phase.TRIX}
    for state, seat in points:
        seen = tc.view(state, seat)
        one = tc.sample_world(seen, random.Random(1))
        two = tc.sample_world(seen, random.Random(2))
        assert ask(bot, one, seat, random.Random(9)) == ask(bot, two, seat, random.Random(9))


def test_r_cl_7_doubles_the_king_of_hearts_more_readily_in_king_of_hearts() -> None:
    """R-CL-7, R-CL-2: in King of Hearts only K♥ counts and hearts cannot be led while
    another suit is held, so two lower hearts are enough to double it (+75 when shed);
    the same hand does not double K♥ in COMPLEX (R-DBL-1), and a bare K♥ with long side
    suits is not doubled."""
    hand = "KH 2H 3H 4S 5S 6S 8S 4D 5D 6D 4C 5C 6C"

    def doubles(contract: tc.Contract, ruleset: tc.Ruleset, cards: str = hand) -> int:
        sit = Situation(
            seat=0, phase=tc.Phase.DOUBLE, owner=0, hand=_mask(cards), gone=0, trick=(),
            leader=0, doubled=(), table=0, hand_sizes=(13, 13, 13, 13), contract=contract,
            ruleset=ruleset,
        )  # fmt: skip
        return choose_doubles(sit, _mask("KH"))

    assert doubles(KH, tc.CLASSIC) == _mask("KH")
    assert doubles(tc.Contract.COMPLEX, tc.PARTNERSHIP) == 0
    assert doubles(KH, tc.CLASSIC.evolve(free_heart_leads=True)) == 0  # R-OPT-4: exposed
    bare = "KH 4S 5S 6S 8S 4D 5D 6D 7D 4C 5C 6C 7C"
    assert doubles(KH, tc.CLASSIC, bare) == 0


def test_r_cl_7_doubles_a_queen_with_one_guard_fewer_in_queens() -> None:
    """R-CL-7, R-CL-3: Q♠ with three lower spades and nothing above is doubled in Queens
    (only Queens count there), not in COMPLEX (R-DBL-1 wants four guards)."""
    hand = "QS 2S 3S 4S AH KH 9D TD JD 5C 6C 7C 8C"

    def doubles(contract: tc.Contract, ruleset: tc.Ruleset) -> int:
        sit = Situation(
            seat=0, phase=tc.Phase.DOUBLE, owner=0, hand=_mask(hand), gone=0, trick=(),
            leader=0, doubled=(), table=0, hand_sizes=(13, 13, 13, 13), contract=contract,
            ruleset=ruleset,
        )  # fmt: skip
        return choose_doubles(sit, _mask("QS"))

    assert doubles(tc.Contract.QUEENS, tc.CLASSIC) == _mask("QS")
    assert doubles(tc.Contract.COMPLEX, tc.PARTNERSHIP) == 0


def test_r_opt_7_rule_bot_uses_the_shown_twos() -> None:
    """R-OPT-7: once the 2s are shown, RuleBot plays TRIX with them: over matches of
    classic-partnership (show_twos) some of its choices change when the 2s are hidden
    from it, and every such choice avoids opening a row to an opponent's shown 2."""
    changed = 0
    for seed in range(6):
        states = builders.random_match_of(tc.CLASSIC_PARTNERSHIP, seed)
        for state in states:
            if state.phase is not tc.Phase.TRIX or state.turn is None:
                continue
            v = tc.view(state, state.turn)
            if not any(v.shown_twos) or len(v.legal_moves) < 2:
                continue
            seen = Situation.of_view(v)
            blind = attrs.evolve(seen, shown_twos=(0, 0, 0, 0))
            if trix_card(seen) != trix_card(blind):
                changed += 1
    assert changed > 0


def test_r_cx_3_a_situation_naming_no_contract_plays_complex_in_any_ruleset() -> None:
    """R-CX-2, R-CX-3: a hand-built situation that names no contract is played as the
    the partnership game's COMPLEX, also in a ruleset without COMPLEX (classic), where asking the
    ruleset for COMPLEX's rules used to raise ``KeyError`` on a lead."""
    lead = attrs.evolve(_complex(0, "2S 9S KH", "", 0), ruleset=tc.CLASSIC)
    assert lead.contract is None and lead.standard
    assert complex_card(lead) == complex_card(_complex(0, "2S 9S KH", "", 0))
    follow = attrs.evolve(_complex(1, "2S 9S KH", "AS", 0), ruleset=tc.CLASSIC)
    assert complex_card(follow) == parse_card("9S")  # the highest spade under the Ace


@pytest.mark.parametrize("name", ["rule:", "mc:", "mc2:", "level:"])
def test_a_bot_name_with_a_colon_and_no_number_is_refused(name: str) -> None:
    """``rule:``, ``mc:``, ``mc2:`` and ``level:`` name no bot (the CLI fuzz test found
    ``rule:`` read as ``rule``): one ``ValueError`` saying what N is."""
    with pytest.raises(ValueError, match=r":N "):
        tc.bots.bot_named(name)
