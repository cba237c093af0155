"""Issue 42 (3): hints a player learns from -- the level's move, why, the cards that
matter and what the alternatives cost, in English and Arabic, from the view alone."""

from __future__ import annotations

import random

import pytest

import trixcomplex as tc
from test_why_illegal_ar import assert_arabic
from trixcomplex.bots import RuleBot, explain, hint, level
from trixcomplex.bots.diagnostics import TACTICS
from trixcomplex.bots.hints import PRICER
from trixcomplex.host.tournament import play_match


def _decisions(seed: int) -> list[tuple[tc.MatchState, int]]:
    """Every decision with a choice in one match of RuleBots (every phase)."""
    found: list[tuple[tc.MatchState, int]] = []

    def note(state: tc.MatchState) -> None:
        for seat in sorted(state.to_act):
            if len(tc.legal_moves(state, seat)) > 1:
                found.append((state, seat))

    rngs = [random.Random(seed + s) for s in range(4)]
    play_match([RuleBot()] * 4, random.Random(seed), rngs, on_move=note)
    return found


def test_a_hint_is_the_levels_move_with_its_reason_and_the_alternatives_priced() -> None:
    """The hint's move is the level's own (RuleBot's at level 4), its tactic RuleBot's
    reason, and each other searched candidate's cost is the pricing search's mean of
    the hint's move less its own, on the same worlds (cheapest first)."""
    checked = 0
    for state, seat in _decisions(3)[4::25]:
        seen = tc.view(state, seat)
        advice = hint(seen, 4, rng=random.Random(5))
        move, tactic = RuleBot().decide(seen, seen.legal_moves)
        assert (advice.move, advice.tactic, advice.level) == (move, tactic, 4)
        found = PRICER.search(seen, seen.legal_moves, random.Random(5))
        means = dict(zip(found.moves, found.means, strict=True))
        costs = [c for _, c in advice.costs]
        assert costs == sorted(costs)
        assert {m for m, _ in advice.costs} == set(means) - {advice.move}
        if advice.move in means:
            for m, cost in advice.costs:
                assert cost == pytest.approx(means[advice.move] - means[m])
        checked += 1
    assert checked >= 6


def test_a_hint_names_the_cards_the_trick_turns_on() -> None:
    """In a trick, the hint names the card winning it so far (R-CX-3)."""
    for state, seat in _decisions(3):
        seen = tc.view(state, seat)
        if seen.phase is tc.Phase.COMPLEX and seen.trick:
            break
    advice = hint(seen, 4, price=False)
    led = seen.trick[0].suit
    best = max((c for c in seen.trick if c.suit == led), key=lambda c: c.rank)
    assert advice.cards[0] == best and advice.costs == ()


def test_a_weaker_levels_hint_says_what_a_stronger_player_would_play() -> None:
    """A level whose softer choice left RuleBot's move says so, naming that move, both in
    :func:`explain` (``sharper``) and in the hint's words."""
    for state, seat in _decisions(3):
        seen = tc.view(state, seat)
        told = explain(level(1), seen, rng=random.Random(2))
        if told.sharper is not None:
            break
    else:
        raise AssertionError("level 1 never left RuleBot's move in a whole match")
    assert told.move != told.sharper and told.tactic in TACTICS
    assert told.sharper == RuleBot(endgame=0).choose(seen, seen.legal_moves, random.Random(0))
    words = hint(seen, 1, rng=random.Random(2), price=False).text()
    assert "A stronger player would play" in words


def test_a_hint_reads_in_arabic_with_no_english_left() -> None:
    """``text("ar")``: the whole hint -- the reason, the cards, the alternatives -- from
    the Arabic catalog (card signs aside)."""
    shown = 0
    for state, seat in _decisions(4)[3::40]:
        advice = hint(tc.view(state, seat), 3, rng=random.Random(1))
        assert_arabic(advice.text("ar"))
        assert advice.text() == str(advice)
        shown += 1
    assert shown >= 4


def test_r_hid_1_a_hint_reads_only_the_view() -> None:
    """R-HID-1: two worlds the seat cannot tell apart get the same hint, priced the same."""
    for state, seat in _decisions(5)[7::40]:
        seen = tc.view(state, seat)
        one = tc.sample_world(seen, random.Random(1))
        two = tc.sample_world(seen, random.Random(2))
        assert tc.view(one, seat) == tc.view(two, seat) == seen
        a = hint(tc.view(one, seat), 2, rng=random.Random(3))
        b = hint(tc.view(two, seat), 2, rng=random.Random(3))
        assert a == b


def test_a_hint_from_no_level_is_refused() -> None:
    """A level outside 1 to 5 is a ValueError naming the range."""
    state, seat = _decisions(3)[0]
    with pytest.raises(ValueError, match="from 1 to 5"):
        hint(tc.view(state, seat), 6)
