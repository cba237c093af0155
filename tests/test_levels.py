"""Issue 42 (2): the five levels of play -- names, determinism, what makes a level weaker."""

from __future__ import annotations

import pickle
import random
from collections.abc import Sequence

import attrs
import pytest

import trixcomplex as tc
from trixcomplex.bots import MC2, Bot, RuleBot, bot_named, level
from trixcomplex.bots.levels import LEVELS, TRICKS, forget
from trixcomplex.bots.situation import Situation
from trixcomplex.host.tournament import play_match


def _rngs(seed: int) -> list[random.Random]:
    return [random.Random(seed * 10 + s) for s in range(4)]


@attrs.define
class _Noted:
    """A bot whose every answer is noted in ``moves`` (shared by the seats)."""

    inner: Bot
    moves: list[tc.PlayerMove]

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        move = self.inner.choose(view, legal, rng)
        self.moves.append(move)
        return move


def _moves(bots: list[Bot], seed: int, ruleset: tc.Ruleset = tc.PARTNERSHIP) -> list[tc.PlayerMove]:
    """Every answer the four seats gave in one match, in order."""
    made: list[tc.PlayerMove] = []
    noted: list[Bot] = [_Noted(b, made) for b in bots]
    play_match(noted, random.Random(seed), _rngs(seed), ruleset=ruleset)
    return made


def test_level_n_and_level_names_are_the_five_levels_and_nothing_else() -> None:
    """``level(n)`` and ``bot_named("level:n")`` are the same five bots, weakest first:
    1 to 3 softened RuleBots, 4 RuleBot version 2, 5 the search bot mc2; any other
    number is refused with the range."""
    assert [level(n) for n in range(1, 6)] == [bot_named(f"level:{n}") for n in range(1, 6)]
    assert [level(n) for n in (1, 2, 3)] == list(LEVELS)
    assert level(4) == RuleBot() and level(5) is MC2
    for bad in ("level:0", "level:6", "level:x", "level", "level:"):
        with pytest.raises(ValueError):
            bot_named(bad)
    with pytest.raises(ValueError, match="from 1 to 5"):
        level(0)
    for weak in LEVELS:
        assert pickle.loads(pickle.dumps(weak)) == weak  # crosses to the server's workers


def test_levels_soften_step_by_step_each_weakness_grows_downwards() -> None:
    """Weaker levels choose more softly, remember less and miss more doubles."""
    temperatures = [b.temperature for b in LEVELS]
    memories = [b.memory for b in LEVELS]
    misses = [b.miss for b in LEVELS]
    assert temperatures == sorted(temperatures, reverse=True)
    assert memories == sorted(memories) and memories[-1] < TRICKS
    assert misses == sorted(misses, reverse=True)


def test_r_seat_1_levels_play_whole_legal_matches_reproducibly_in_every_preset() -> None:
    """R-SEAT-1, R-SET-1: the levels play whole matches of every preset (the host checks
    every move), and the same seeds give the same moves: every draw is from the rng."""
    for ruleset in tc.RULESETS.values():
        bots: list[Bot] = [level(1), level(2), level(3), level(1)]
        assert _moves(bots, 5, ruleset) == _moves(bots, 5, ruleset)


def test_a_level_without_its_weaknesses_plays_rulebot_version_2_move_for_move() -> None:
    """The softening is the only difference: at temperature 0, with the whole deal
    remembered and no double missed, a LevelBot is RuleBot version 2."""
    sharp = attrs.evolve(LEVELS[0], temperature=0.0, memory=TRICKS, miss=0.0)
    rule = RuleBot()
    assert _moves([sharp, rule, sharp, rule], 3) == _moves([rule] * 4, 3)
    assert _moves([level(1), rule, level(1), rule], 3) != _moves([rule] * 4, 3)


def _decisions(seed: int) -> list[tuple[tc.View, tuple[tc.PlayerMove, ...]]]:
    """Views of a RuleBot match where the seat to move has several cards to play."""
    found: list[tuple[tc.View, tuple[tc.PlayerMove, ...]]] = []

    def note(state: tc.MatchState) -> None:
        if state.phase.plays_tricks and state.to_act:
            seat = min(state.to_act)
            legal = tc.legal_moves(state, seat)
            if len(legal) > 1:
                found.append((tc.view(state, seat), legal))

    play_match([RuleBot()] * 4, random.Random(seed), _rngs(seed), on_move=note)
    return found[:300]


def test_weaker_levels_leave_the_strong_card_more_often_and_mostly_for_a_near_one() -> None:
    """A softer choice: level 1 plays RuleBot version 2's card less often than level 2,
    level 2 than level 3; when a level leaves it, the card is usually of the same suit
    (a weaker person's slip, not a random throw)."""
    points = _decisions(2)
    strong = [RuleBot().choose(v, legal, random.Random(0)) for v, legal in points]
    kept, near = [], []
    for weak in LEVELS:
        rng = random.Random(7)
        made = [weak.choose(v, legal, rng) for v, legal in points]
        same = [m == s for m, s in zip(made, strong, strict=True)]
        kept.append(sum(same) / len(points))
        slips = [
            m.card.suit == s.card.suit
            for m, s in zip(made, strong, strict=True)
            if m != s and isinstance(m, tc.Play) and isinstance(s, tc.Play)
        ]
        near.append(sum(slips) / max(1, len(slips)))
    assert kept[0] < kept[1] < kept[2] < 1.0, kept
    assert near[2] > 0.5, near


def test_r_dbl_2_a_level_that_misses_every_double_answers_with_none() -> None:
    """Doubles missed: with ``miss=1`` every doubling answer is empty (R-DBL-2), with
    ``miss=0`` the answers are RuleBot's whenever it remembers the deal."""
    blind = attrs.evolve(LEVELS[2], miss=1.0)
    rule = RuleBot()
    seen = _moves([blind, rule, blind, rule], 4)
    answers = [m for m in seen if isinstance(m, tc.Double) and m.seat % 2 == 0]
    assert answers and all(not m.cards for m in answers)
    doubled = [m for m in _moves([rule] * 4, 4) if isinstance(m, tc.Double) and m.cards]
    assert any(m.seat % 2 == 0 for m in doubled)  # RuleBot in those seats does double


def test_a_short_memory_forgets_older_tricks_and_the_voids_shown() -> None:
    """A memory of k tricks: the cards of older tricks might, as far as it recalls, still
    be out; who showed out of a suit is forgotten; the last k tricks are remembered."""
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(6)))
    bots: list[Bot] = [RuleBot()] * 4
    rngs = _rngs(6)
    while not (state.trick_deal and len(state.trick_deal.tricks) >= 5 and state.to_act):
        seat = min(state.to_act)
        legal = tc.legal_moves(state, seat)
        state = tc.apply(state, bots[seat].choose(tc.view(state, seat), legal, rngs[seat]))
    seat = min(state.to_act)
    seen = tc.view(state, seat)
    sit = Situation.of_view(seen)
    tricks = list(seen.tricks or ())
    short = forget(sit, seen, 2)
    for older in tricks[:-2]:
        assert all(not short.gone >> int(c) & 1 for c in older.cards)
    for recent in tricks[-2:]:
        assert all(short.gone >> int(c) & 1 for c in recent.cards)
    assert short.void_suits == short.cannot_hold == (0, 0, 0, 0)
    assert short.hand == sit.hand and short.trick == sit.trick
    assert forget(sit, seen, TRICKS) == sit


def test_the_lobby_offers_the_five_levels_and_the_server_seats_them() -> None:
    """The table server's lobby: a seat may be ``level:1`` … ``level:5`` (the server's list
    and the page's list of bots), and the server's worker decides with that level."""
    import re
    from pathlib import Path

    pytest.importorskip("starlette")  # the server extra
    from trixcomplex.bots import BOT_NAMES
    from trixcomplex.server.pool import decide
    from trixcomplex.server.seats import Seat

    page = Path(tc.__file__).parent / "server" / "static" / "app.js"
    listed = re.search(r"const BOTS = \[(.*?)\];", page.read_text(encoding="utf-8"))
    assert listed is not None
    offered = re.findall(r'"([^"]+)"', listed.group(1))
    assert set(offered) == set(BOT_NAMES)
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
    assert state.owner is not None
    seen = tc.view(state, state.owner)
    for n in range(1, 6):
        assert Seat.parse(f"level:{n}").name == f"level:{n}"
        assert decide(f"level:{n}", seen, 1) in seen.legal_moves
