"""Per-decision diagnostics: ``trixcomplex.bots.explain`` (issue 26)."""

from __future__ import annotations

import random

import attrs
import pytest

import trixcomplex as tc
from trixcomplex.bots import (
    Explanation,
    MonteCarloBot,
    RandomBot,
    RuleBot,
    explain,
)
from trixcomplex.bots.diagnostics import TACTICS
from trixcomplex.host.tournament import play_match


def _decisions(seed: int, ruleset: tc.Ruleset = tc.PARTNERSHIP) -> list[tuple[tc.MatchState, int]]:
    """Every decision with a choice in one match of RuleBots (every phase)."""
    found: list[tuple[tc.MatchState, int]] = []

    def note(state: tc.MatchState) -> None:
        for seat in sorted(state.to_act):
            if len(tc.legal_moves(state, seat)) > 1:
                found.append((state, seat))

    rngs = [random.Random(seed + s) for s in range(4)]
    play_match([RuleBot()] * 4, random.Random(seed), rngs, on_move=note, ruleset=ruleset)
    return found


@pytest.mark.parametrize("ruleset", [tc.PARTNERSHIP, tc.CLASSIC], ids=lambda r: r.name)
def test_r_seat_1_rule_bot_explains_the_move_it_makes_and_names_its_tactic(
    ruleset: tc.Ruleset,
) -> None:
    """Checks R-SEAT-1: the explained move is the move RuleBot (both versions) makes,
    and the tactic is one of :data:`TACTICS`."""
    named: set[str] = set()
    for state, seat in _decisions(1, ruleset)[::3]:
        seen = tc.view(state, seat)
        for bot in (RuleBot(), RuleBot(version=1)):
            hint = explain(bot, seen)
            assert hint.move == bot.choose(seen, seen.legal_moves, random.Random(0))
            assert hint.summary == TACTICS[hint.tactic]
            named.add(hint.tactic)
    assert {"choose_contract", "trix_card", "complex_card"} <= named
    assert len(named) >= 6


def test_montecarlo_explains_with_its_worlds_statistics() -> None:
    """The search's explanation gives its move, the worlds played and each candidate's
    mean gain, best first; the move is the one ``choose`` makes with the same rng."""
    state, seat = next((s, t) for s, t in _decisions(2) if s.phase is tc.Phase.COMPLEX)
    seen = tc.view(state, seat)
    bot = MonteCarloBot(worlds=3)
    hint = explain(bot, seen, rng=random.Random(4))
    assert hint.tactic == "search" and hint.worlds == 3
    assert hint.move == bot.choose(seen, seen.legal_moves, random.Random(4))
    assert hint.gains[0][0] == hint.move
    gains = [g for _, g in hint.gains]
    assert gains == sorted(gains, reverse=True)
    assert {m for m, _ in hint.gains} <= set(seen.legal_moves)
    assert "3 worlds" in str(hint)
    moves, means, _ = bot.evaluate(seen, seen.legal_moves, random.Random(4))
    assert dict(hint.gains) == dict(zip(moves, means, strict=True))


def test_r_cx_5_the_search_says_when_it_solved_the_last_tricks_exactly() -> None:
    """Checks R-CX-5: in the last two tricks the endgame bot's explanation names the
    exact solve and counts the layouts, not worlds."""
    state, seat = next(
        (s, t) for s, t in _decisions(2)
        if s.phase is tc.Phase.COMPLEX and len(s.hand(t)) == 2
    )  # fmt: skip
    seen = tc.view(state, seat)
    hint = explain(MonteCarloBot(worlds=1, policy="rule2", endgame=2), seen)
    assert hint.tactic == "endgame" and hint.summary == TACTICS["endgame"]
    assert hint.worlds > 1 and hint.move == hint.gains[0][0]
    assert explain(MonteCarloBot(worlds=1), seen).tactic == "search"


def test_explanations_are_frozen_records() -> None:
    """An explanation is a frozen record (it cannot be changed after the fact)."""
    state, seat = _decisions(1)[0]
    hint = explain(RandomBot(), tc.view(state, seat))
    assert isinstance(hint, Explanation) and hint.tactic == "random"
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        hint.tactic = "x"  # type: ignore[misc]


def test_r_seat_1_a_seat_with_nothing_to_do_gets_a_clear_error() -> None:
    """Checks R-SEAT-1: explaining a view with no legal move is a ValueError naming the seat."""
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
    other = (state.owner + 1) % 4
    with pytest.raises(ValueError, match=f"seat {other} has no legal move"):
        explain(RuleBot(), tc.view(state, other))


@pytest.mark.parametrize("bot", [RuleBot(), RuleBot(version=1), MonteCarloBot(worlds=2)], ids=repr)
def test_r_hid_1_the_explanation_reads_only_the_view(bot: RuleBot | MonteCarloBot) -> None:
    """Checks R-HID-1: two worlds the seat cannot tell apart (sampled from its view) get
    the same explanation, tactic and statistics included."""
    checked = 0
    for state, seat in _decisions(5)[5::9]:
        seen = tc.view(state, seat)
        one = tc.sample_world(seen, random.Random(1))
        two = tc.sample_world(seen, random.Random(2))
        assert tc.view(one, seat) == tc.view(two, seat) == seen
        a = explain(bot, tc.view(one, seat), rng=random.Random(7))
        b = explain(bot, tc.view(two, seat), rng=random.Random(7))
        assert a == b
        checked += 1
    assert checked >= 8


def test_play_hint_prints_the_bots_move_and_why_before_each_of_mine(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``trixcomplex play --hint`` prints, before each question to the person, the move
    RuleBot would make there and the tactic's summary (from the person's view); a bad
    bot name is one clear error line."""
    import io
    import sys

    from trixcomplex.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    assert main(["play", "--seed", "3", "--hint"]) == 0
    out = capsys.readouterr().out
    hints = [line for line in out.splitlines() if line.startswith("Hint (rule): ")]
    asked = out.count("Your moves: ")
    assert asked > 20 and len(hints) == asked
    assert all(any(summary in line for summary in TACTICS.values()) for line in hints)
    priced = [line for line in hints if "Each other choice, in points against this one: " in line]
    assert len(priced) > asked // 2  # the alternatives' cost, where there are alternatives
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    with pytest.raises(SystemExit) as refused:  # argparse's refusal: usage, then one line
        main(["play", "--seed", "3", "--hint", "nobot"])
    assert refused.value.code == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines()[-1] == (
        "trixcomplex play: error: argument --hint: unknown bot 'nobot': expected one of "
        "random, rule, rule:N, mc, mc:N, mc2, mc2:N or level:N"
    )


def test_play_without_hint_prints_none(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without ``--hint`` the game prints no hints."""
    import io
    import sys

    from trixcomplex.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    assert main(["play", "--seed", "3"]) == 0
    assert "Hint (" not in capsys.readouterr().out
