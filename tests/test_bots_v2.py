"""RuleBot version 2 (issue 26): the void and doubled-card tactics, and version 1 kept."""

from __future__ import annotations

import hashlib
import random

import pytest

import trixcomplex as tc
from trixcomplex.bots import RuleBot, ask, bot_named
from trixcomplex.bots.club import (
    TACTIC_WEIGHTS,
    TacticWeights,
    club_card,
    club_lead,
    double_by_length,
    endplay_target,
    opponents_void,
    partner_void,
    position,
    shed_toward_diamond_void,
    sure_winner,
    under_doubled_queen,
)
from trixcomplex.bots.endgame import endgame_card, endgame_values, layouts
from trixcomplex.bots.rule_bot import RULE_ENDGAME, rule_decision
from trixcomplex.bots.tactics import Situation, choose_doubles, complex_card
from trixcomplex.core.cards import Suit, cards_of, mask_of, parse_card, suit_mask
from trixcomplex.core.rules import KING_OF_HEARTS, QUEENS
from trixcomplex.host.tournament import play_numbered_match


def _card(code: str) -> int:
    return int(parse_card(code))


def _mask(codes: str) -> int:
    return mask_of(parse_card(c) for c in codes.split())


# -- version 1 is kept exactly --------------------------------------------------------

# the moves of RuleBot version 1 against itself (seed 7, matches 0 and 2), recorded
# before version 2 was written: digests of the records' moves and the seats' totals
V1_MATCHES = {
    ("partnership", 0): ("dc364d04dd99f456", (240, -240, -125, 125)),
    ("partnership", 2): ("4d3aa32623113749", (40, -145, -10, 115)),
    ("classic", 0): ("83040b0022aef79c", (20, -185, -45, 210)),
    ("classic", 2): ("9ccb5e0779e3c31a", (130, -170, 30, 10)),
}


@pytest.mark.parametrize(("ruleset", "index"), sorted(V1_MATCHES))
def test_r_set_1_rule_bot_version_1_plays_exactly_as_before(ruleset: str, index: int) -> None:
    """Checks R-SET-1 (every ruleset): ``RuleBot(version=1)`` plays the first version's
    moves, move for move, in whole matches of the partnership game and classic."""
    v1 = RuleBot(version=1)
    m = play_numbered_match([v1, v1], 7, index, tc.Ruleset.from_name(ruleset))
    digest = hashlib.sha256(repr(m.record.moves).encode()).hexdigest()[:16]
    assert (digest, m.seats) == V1_MATCHES[ruleset, index]


def test_version_2_is_the_default_and_named() -> None:
    """RuleBot() is version 2; ``rule:1`` names version 1; other versions are refused."""
    assert RuleBot().version == 2
    assert bot_named("rule:1") == RuleBot(version=1)
    assert bot_named("rule:2") == bot_named("rule") == RuleBot()
    with pytest.raises(ValueError, match="rule:N plays RuleBot's version N"):
        bot_named("rule:3")
    with pytest.raises(ValueError):
        RuleBot(version=3)


# -- the tactics, on hand-built positions ------------------------------------------------


def test_r_cx_2_never_leads_a_suit_every_opponent_is_void_in() -> None:
    """Checks R-CX-2/R-CX-5: both opponents showed out of spades, so a spade lead would
    let them shed penalties on my side; lead the heart instead (version 1 leads 2♠)."""
    sit = position(0, "2S 3S 9H", voids={1: "S", 3: "S"})
    assert opponents_void(sit, Suit.SPADES)
    assert club_card(sit) == (parse_card("9H"), "lead_low")
    assert complex_card(sit) == parse_card("2S")


def test_r_cx_2_leads_into_the_partners_void() -> None:
    """Checks R-CX-2: my partner is void in clubs; a low club lets him shed on the
    opponent who takes it."""
    sit = position(0, "4C 4H", gone="", voids={2: "C"})
    assert partner_void(sit, Suit.CLUBS)
    card, why = club_card(sit)
    assert (card, why) == (parse_card("4C"), "lead_into_partner_void")


def test_r_cx_3_a_trick_is_sure_when_the_later_seats_are_void() -> None:
    """Checks R-CX-3: an opponent's K♠ with the later seats void in spades is a sure
    winner: drop Q♠ under it (version 1, blind to voids, keeps it)."""
    sit = position(1, "QS 2S 9S", trick="KS", leader=0, voids={2: "S", 3: "S"})
    assert sure_winner(sit, _card("KS"), 0)
    assert club_card(sit) == (parse_card("QS"), "drop_under_sure_winner")
    assert complex_card(sit) == parse_card("9S")


def test_r_cx_5_lead_risks_the_penalties_a_void_opponent_can_shed() -> None:
    """Checks R-CX-5: an opponent void in spades may hold K♥; a likely winning spade
    lead is not safe to take, a club of the same odds is."""
    sit = position(0, "AS KC", gone="AC", voids={1: "S"})
    card, _ = club_card(sit)
    assert card == parse_card("KC")


def test_r_dbl_4_wins_below_a_later_opponents_doubled_queen() -> None:
    """Checks R-DBL-4 case 1: forced to win over 9♠ with J♠ or K♠ while the next
    opponent doubled Q♠: win with J♠, which he cannot drop the Queen on for free."""
    sit = position(1, "JS KS", trick="9S", leader=0, doubled="QS/2")
    assert under_doubled_queen(sit, sit.hand) == _card("JS")
    assert club_card(sit) == (parse_card("JS"), "under_doubled_queen")
    assert complex_card(sit) == parse_card("KS")


def test_r_dbl_4_case_2_endplays_the_last_doubled_queen_out() -> None:
    """Checks R-DBL-4 case 2: the opponent's doubled Q♠ is the last spade out: lead 2♠,
    he must win his own doubled Queen and I, the leader, earn its value."""
    gone = "3S 4S 5S 6S 7S 8S 9S TS JS KS AS"
    sit = position(0, "2S 5H", gone=gone, doubled="QS/1")
    assert endplay_target(sit, _card("2S")) == _card("QS")
    assert club_card(sit) == (parse_card("2S"), "endplay_doubled_card")


def test_r_dbl_4_does_not_lead_the_suit_of_its_sides_doubled_queen() -> None:
    """Checks R-DBL-4: my partner doubled Q♠; don't lead spades (it might fall on him)."""
    sit = position(0, "3S 3C", doubled="QS/2")
    assert club_card(sit) == (parse_card("3C"), "lead_low")
    assert complex_card(sit) == parse_card("3S")


def test_r_dbl_4_attacks_an_opponents_doubled_suit_from_below() -> None:
    """Checks R-DBL-4: an opponent doubled Q♦; a low diamond under it is the lead."""
    sit = position(0, "3D 3H", doubled="QD/1")
    assert club_card(sit) == (parse_card("3D"), "attack_doubled_from_below")


def test_r_cx_5_sheds_towards_a_diamond_void_on_the_partners_trick() -> None:
    """Checks R-CX-5: the partner wins, I am void in spades and hold K♥ and one diamond:
    give the diamond now (−10 for my side) to shed K♥ on an opponent later."""
    sit = position(2, "7D KH 4C 9C", trick="9S 2S", leader=0)
    assert shed_toward_diamond_void(sit, sit.hand) == _card("7D")
    assert club_card(sit) == (parse_card("7D"), "shed_toward_diamond_void")
    no_king = position(2, "7D 5H 4C 9C", trick="9S 2S", leader=0)
    assert club_card(no_king)[0] != parse_card("7D")


def test_r_dbl_1_doubles_by_the_suits_length_and_the_voids_to_come() -> None:
    """Checks R-DBL-1/R-DBL-4: Q♠ in four spades is doubled (version 1 wants more low
    guards); a Q♠ with K♠ above it in hand is not; a short side suit is enough."""
    long = position(0, "QS 9S 5S 2S KD 7D 3D 8H 9H 6C 4C 3C 2C", phase=tc.Phase.DOUBLE)
    qs = 1 << _card("QS")
    assert double_by_length(long, qs) == qs
    assert choose_doubles(long, qs) == 0
    above = position(0, "QS KS 5S 2S KD 7D 3D 8H 9H 6C 4C 3C 2C", phase=tc.Phase.DOUBLE)
    assert double_by_length(above, qs) == 0
    short = position(0, "QS 2S KD 7D 3D 2D 8C 6C 4C 3C 2C 5H 6H", phase=tc.Phase.DOUBLE)
    assert double_by_length(short, qs, TacticWeights(double_short=1)) == 0
    assert double_by_length(short, qs, TacticWeights(double_short=2)) == qs


def test_club_lead_names_its_tactic() -> None:
    """Every lead names the tactic that weighed most (for explanations)."""
    sit = position(0, "2S 3H")
    card, why = club_lead(sit, sit.hand)
    assert why == "lead_low" and card in (_card("2S"), _card("3H"))


# -- views only -----------------------------------------------------------------------


def _complex_decisions(seed: int) -> list[tuple[tc.MatchState, int]]:
    """Card-play decisions after a few tricks (voids and doubles shown), one per trick."""
    from trixcomplex.host.tournament import play_match

    found: list[tuple[tc.MatchState, int]] = []

    def note(state: tc.MatchState) -> None:
        deal = state.trick_deal
        if deal is None or not state.to_act or len(deal.tricks) < 4 or len(found) > 40:
            return
        seat = min(state.to_act)
        if len(tc.legal_moves(state, seat)) > 1 and len(deal.trick) == len(found) % 4:
            found.append((state, seat))

    rng = random.Random(seed)
    play_match([RuleBot()] * 4, rng, [random.Random(seed + s) for s in range(4)], on_move=note)
    return found


def test_r_hid_1_version_2_reads_only_the_view() -> None:
    """Checks R-HID-1: in worlds the seat cannot tell apart (sampled from its view,
    voids and doubles included) version 2 makes the same move with the same tactic."""
    checked = 0
    for state, seat in _complex_decisions(3):
        seen = tc.view(state, seat)
        one = tc.sample_world(seen, random.Random(1))
        two = tc.sample_world(seen, random.Random(2))
        assert tc.view(one, seat) == tc.view(two, seat) == seen
        bot = RuleBot()
        assert ask(bot, one, seat, random.Random(0)) == ask(bot, two, seat, random.Random(0))
        legal = tc.legal_moves(state, seat)
        assert bot.decide(tc.view(one, seat), legal) == bot.decide(tc.view(two, seat), legal)
        checked += 1
    assert checked >= 10


def test_situation_of_view_reads_the_voids_and_doubles_shown() -> None:
    """Checks R-CX-2/R-DBL-3: the situation of a view carries the voids shown and the
    doubled cards known to be held, and nothing of the other hands."""
    for state, seat in _complex_decisions(3):
        seen = tc.view(state, seat)
        sit = Situation.of_view(seen)
        for s in range(4):
            voided = mask_of(c for suit in seen.voids[s] for c in cards_of(suit_mask(suit)))
            assert sit.void_suits[s] == voided
            assert sit.known[s] == mask_of(seen.known_holdings[s])
            if s != seat:
                assert not sit.may_hold(s) & voided
                assert sit.may_hold(s) & state.hands[s] == state.hands[s]


def test_rule_decision_of_version_1_names_its_functions() -> None:
    """Version 1's decisions name version 1's functions."""
    sit = position(1, "2S 8S TS KS 3H 4C", trick="9S", leader=0)
    legal = [tc.Play(1, c) for c in cards_of(_mask("2S 8S"))]
    assert rule_decision(sit, legal, version=1)[1] == "complex_card"


def test_r_dbl_1_fitted_tactic_weights_are_rule_bots_and_change_choices() -> None:
    """Checks R-DBL-1: RuleBot plays the fitted weights by default, and they double a
    Queen in a three-card suit that the hand-set weights would not (they want four, or
    a side suit of one card)."""
    assert RuleBot().tactics == TACTIC_WEIGHTS != TacticWeights()
    short = position(0, "QS 5S 2S KD 7D 3D 2D 8C 6C 4C 3C 5H 6H", phase=tc.Phase.DOUBLE)
    qs = 1 << _card("QS")
    assert double_by_length(short, qs) == qs
    assert double_by_length(short, qs, TacticWeights()) == 0


# -- the exact endgame ------------------------------------------------------------------


def test_r_cx_5_version_2_solves_the_last_tricks_exactly() -> None:
    """Checks R-CX-5: with two cards left, version 2 plays the card of the best mean exact
    value over every layout (cash A♠, +1.7) where its lead tactic would lead low (2♠, −25);
    with the endgame off (``endgame=0``) the tactic decides."""
    sit = position(0, "AS 2S", out="KS QD 3S 4S 5S 6S")
    legal = [tc.Play(0, c) for c in cards_of(sit.hand)]
    assert club_card(sit) == (_card("2S"), "lead_low")
    assert rule_decision(sit, legal, version=2, endgame=3) == (tc.Play(0, _card("AS")),
                                                              "endgame_card")  # fmt: skip
    assert rule_decision(sit, legal, version=2, endgame=0)[1] == "lead_low"
    assert rule_decision(sit, legal, version=1, endgame=3)[1] == "complex_card"
    assert (
        RuleBot().endgame == RULE_ENDGAME == 2 and repr(RuleBot(endgame=0)) == "RuleBot(endgame=0)"
    )


def test_r_cx_5_the_endgame_keeps_the_tactics_card_on_a_tie() -> None:
    """Checks R-CX-5: when the tactic's card is as good as the best, it is kept (the
    tactic's reasons break ties between cards the solve cannot tell apart)."""
    sit = position(0, "AS 2S", out="KS QD 3S 4S 5S 6S")
    assert endgame_card(sit, _card("AS")) == _card("AS")
    both_win = position(0, "AS KS", out="2S 3S 4S 5S 6S 7S")
    assert endgame_card(both_win, _card("KS")) == _card("KS")
    assert endgame_card(both_win, _card("AS")) == _card("AS")


def test_r_cx_5_the_endgame_budget_bounds_the_layouts_solved() -> None:
    """The solve of the last three tricks is budgeted: of the hundreds of layouts an even
    spread of ``limit`` is solved (each layout weighed once), the count of every layout
    still returned."""
    sit = position(0, "AS 2S 9H", out="KS QD 3S 4S 5S 6S 7H 8H TH")
    weighed: list[object] = []

    def weigh(hands: object) -> float:
        weighed.append(hands)
        return 1.0

    solved = endgame_values(sit, weigh, limit=15)
    assert solved is not None and solved[2] == len(list(layouts(sit))) == 1680
    assert len(weighed) == 15 and len(set(weighed)) == 15
    weighed.clear()
    endgame_values(position(0, "AS 2S", out="KS QD 3S 4S 5S 6S"), weigh, limit=15 * 6)
    assert len(weighed) == 90


def _minimax(sit: Situation, hands: tuple[int, int, int, int]) -> dict[int, int]:
    """Per legal card of mine, its value by a plain minimax (no pruning, no memo)."""
    from trixcomplex.bots.endgame import worth
    from trixcomplex.core.rules import trick_legal_cards, trick_points, trick_winner

    rules = sit.ruleset.trick_rules(sit.trick_contract)

    def value(held: list[int], trick: tuple[tc.Card, ...], leader: int) -> int:
        if not any(held) and not trick:
            return 0
        seat = (leader + len(trick)) % 4
        mine = seat % 2 == sit.seat % 2 if sit.ruleset.partnership else seat == sit.seat
        values = [after(held, trick, leader, seat, c)
                  for c in cards_of(trick_legal_cards(held[seat], trick, rules))]  # fmt: skip
        return max(values) if mine else min(values)

    def after(held: list[int], trick: tuple[tc.Card, ...], leader: int, seat: int, c: int) -> int:
        now = list(held)
        now[seat] &= ~(1 << c)
        played = (*trick, tc.Card(c))
        if len(played) < 4:
            return value(now, played, leader)
        taker = trick_winner(leader, played)
        points = trick_points(played, leader, taker, sit.doubled, rules)
        return worth(points, sit.seat, sit.ruleset) + value(now, (), taker)

    legal = trick_legal_cards(hands[sit.seat], sit.trick, rules)
    return {c: after(list(hands), sit.trick, sit.leader, sit.seat, c) for c in cards_of(legal)}


def _endings(
    seed: int, ruleset: tc.Ruleset, cards: int, most: int
) -> list[tuple[tc.MatchState, int]]:
    """Card-play decisions with a choice and at most ``cards`` cards in hand, in a
    RuleBot match (at most ``most`` of them)."""
    from trixcomplex.host.tournament import play_match

    found: list[tuple[tc.MatchState, int]] = []

    def note(state: tc.MatchState) -> None:
        if state.trick_deal is None or not state.to_act or len(found) >= most:
            return
        seat = min(state.to_act)
        if len(state.hand(seat)) <= cards and len(tc.legal_moves(state, seat)) > 1:
            found.append((state, seat))

    rngs = [random.Random(seed + s) for s in range(4)]
    play_match([RuleBot()] * 4, random.Random(seed), rngs, on_move=note, ruleset=ruleset)
    return found


@pytest.mark.parametrize("ruleset", ["partnership", "classic"])
def test_r_cx_5_the_pruned_solver_gives_the_plain_minimax_values(ruleset: str) -> None:
    """Checks R-CX-5: the solver's alpha-beta search and its merging of cards next to each
    other in a hand change no value: every card of real endings of three tricks gets
    what a plain minimax gives it."""
    from trixcomplex.bots.endgame import card_values

    checked = 0
    for state, seat in _endings(7, tc.Ruleset.from_name(ruleset), 3, 12):
        sit = Situation.of_view(tc.view(state, seat))
        h = [mask_of(state.hand(s)) for s in range(4)]
        hands = (h[0], h[1], h[2], h[3])
        assert dict(card_values(sit, hands)) == _minimax(sit, hands)
        checked += 1
    assert checked >= 6


def test_r_dbl_4_the_pruned_solver_gives_the_plain_minimax_values_on_dealt_endings() -> None:
    """Checks R-CX-5, R-DBL-4: the same on random three-trick endings of two suits,
    where K♥ and Queens (some doubled) sit next to other cards of their suit in one
    hand: such cards are never merged, every card keeps its plain minimax value, also
    when the layouts of one ending share the positions solved."""
    from trixcomplex.bots.endgame import card_values

    rng = random.Random(26)
    pool = [c for c in range(52) if c // 13 in (1, 3) and c % 13 >= 6]  # 8..A of ♥, ♠
    for _ in range(40):
        cards = rng.sample(pool, 12)
        h = [mask_of(tc.Card(c) for c in cards[3 * s : 3 * s + 3]) for s in range(4)]
        hands = (h[0], h[1], h[2], h[3])
        doubled = " ".join(f"{tc.Card(c)}/{s}" for s in range(4)
                           for c in cards_of(h[s] & (QUEENS | 1 << KING_OF_HEARTS))
                           if rng.random() < 0.5)  # fmt: skip
        out = " ".join(str(tc.Card(c)) for c in cards[3:])
        hand = " ".join(str(tc.Card(c)) for c in cards[:3])
        sit = position(0, hand, out=out, doubled=doubled)
        assert dict(card_values(sit, hands)) == _minimax(sit, hands)
        memo: dict[tuple[object, ...], float] = {}  # shared, as the layouts share it
        for layout in list(layouts(sit))[::97]:
            assert dict(card_values(sit, layout, memo)) == _minimax(sit, layout)


def test_r_hid_1_the_endgame_reads_only_the_view() -> None:
    """Checks R-HID-1: in the last three tricks, worlds the seat cannot tell apart get
    the same move and the same tactic, the exact endgame among them (solving three
    tricks, budgeted, as ``RuleBot(endgame=3)`` does)."""
    found = _endings(5, tc.PARTNERSHIP, 3, 30)
    tactics = set()
    for state, seat in found:
        seen = tc.view(state, seat)
        one = tc.sample_world(seen, random.Random(1))
        two = tc.sample_world(seen, random.Random(2))
        assert tc.view(one, seat) == tc.view(two, seat) == seen
        legal = tc.legal_moves(state, seat)
        bot = RuleBot(endgame=3)
        decided = bot.decide(tc.view(one, seat), legal)
        assert decided == bot.decide(tc.view(two, seat), legal)
        assert ask(bot, one, seat, random.Random(0)) == ask(bot, two, seat, random.Random(0))
        tactics.add(decided[1])
    assert "endgame_card" in tactics
