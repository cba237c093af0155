"""Equals: cards of one hand that play alike, searched once by the Monte Carlo bot."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from trixcomplex.bots import MC2, MonteCarloBot
from trixcomplex.bots.club import position
from trixcomplex.bots.endgame import card_values
from trixcomplex.bots.equals import equal_groups
from trixcomplex.bots.situation import Situation
from trixcomplex.core.cards import cards_of, mask_of, parse_card
from trixcomplex.core.moves import Play
from trixcomplex.testing import matches, random_match


def _m(codes: str) -> int:
    return mask_of(parse_card(c) for c in codes.split())


def _groups(sit: Situation, cards: str) -> list[str]:
    return [" ".join(str(c) for c in cards_of(g)) for g in equal_groups(sit, _m(cards))]


def test_r_cx_5_cards_with_only_played_or_own_cards_between_are_equals() -> None:
    """Checks R-CX-5 (a trick is won by the highest card of the led suit): 2♠ 3♠ touch;
    5♠ joins them once 4♠ is played, and 7♠ too when the 6♠ between is mine."""
    assert _groups(position(0, "2S 3S 5S 7S", out="4S 6S 9H"), "2S 3S 5S 7S") == [
        "2S 3S", "5S", "7S",
    ]  # fmt: skip
    assert _groups(position(0, "2S 3S 5S 6S 7S", out="9H 9D"), "2S 3S 5S 6S 7S") == [
        "2S 3S 5S 6S 7S"
    ]
    assert _groups(position(0, "2S 3H 4D", out="9H 9D"), "2S 3H 4D") == ["2S", "3H", "4D"]


def test_r_dbl_4_a_card_that_may_be_doubled_is_never_an_equal() -> None:
    """Checks R-DBL-1/R-DBL-4: K♥ and the Queens are scored by themselves (and may be
    doubled), so they are never grouped with the card next to them."""
    sit = position(0, "JS QS KS JH QH KH AH", out="9D 9C")
    assert _groups(sit, "JS QS KS JH QH KH AH") == ["JS", "QS", "KS", "JH", "QH", "KH", "AH"]


def test_r_cx_5_a_card_on_the_table_separates_two_cards() -> None:
    """Checks R-CX-5: with 6♠ led, 5♠ ducks it and 7♠ beats it: not equals, though the 6♠
    is no longer in any hand."""
    sit = position(1, "5S 7S 9H", "6S", leader=0, out="2H 3H 4H 5H 6H 7H 8H")
    assert _groups(sit, "5S 7S") == ["5S", "7S"]


def _late_states(states: list[tc.MatchState], cards: int) -> list[tuple[tc.MatchState, int]]:
    """The card plays with a choice of a trick contract with ``cards`` or fewer in hand."""
    found = []
    for state in states:
        deal = state.trick_deal
        if deal is None or not state.phase.plays_tricks or not state.to_act:
            continue
        seat = min(state.to_act)
        if len(tc.legal_moves(state, seat)) > 1 and state.hands[seat].bit_count() <= cards:
            found.append((state, seat))
    return found


@settings(max_examples=30, deadline=None)
@given(matches(), st.integers(0, 3))
def test_r_cx_5_equals_have_the_same_exact_value_in_every_ruleset(
    states: list[tc.MatchState], pick: int
) -> None:
    """Checks R-CX-5, R-DBL-4, R-CL-2 … R-CL-7: in the last three tricks of random matches
    of every ruleset, with all four hands open, the cards of each group of equals are
    worth exactly the same (the exact solve of :func:`card_values`)."""
    late = _late_states(states, 3)
    for state, seat in late[pick::4]:
        sit = Situation.of_view(tc.view(state, seat))
        if sit.trick_contract not in sit.ruleset.contracts:
            continue  # a combined contract has no exact solve
        values = dict(card_values(sit, state.hands))
        for group in equal_groups(sit, sum(1 << c for c in values)):
            assert len({values[c] for c in cards_of(group)}) == 1, (state.ruleset.name, group)


def test_montecarlo_with_equals_searches_one_card_of_each_group() -> None:
    """Each group of equals is searched once, RuleBot's card standing for its own group;
    the bot still plays a legal card."""
    checked = 0
    for state, seat in _late_states(random_match(tc.PARTNERSHIP, 5), 9):
        seen = tc.view(state, seat)
        legal = tc.legal_moves(state, seat)
        moves = MC2.candidates(seen, legal)
        plain = MonteCarloBot(rule_version=MC2.rule_version).candidates(seen, legal)
        sit = Situation.of_view(seen)
        groups = equal_groups(sit, sum(1 << m.card for m in legal if isinstance(m, Play)))
        assert moves[0] == plain[0] and len(moves) == len(groups) <= len(plain)
        assert sorted(
            next(i for i, g in enumerate(groups) if g >> m.card & 1)  # type: ignore[attr-defined]
            for m in moves
        ) == list(range(len(groups)))
        checked += len(plain) > len(moves)
    assert checked >= 5
    assert MC2.equals and "equals=True" in repr(MC2)
