"""A host that spends its time in the bots and the engine (issue 16, item 6).

A bot that reads no view says so with ``choose_legal(legal, rng)``: the host
asks it that instead of ``choose`` and builds no view (R-HID-1: it is handed
nothing but its own legal moves and its generator).  A tournament keeps no
per-move bookkeeping; a bot's failure names the state it failed in.
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Sequence

import pytest

import trixcomplex as tc
from builders import random_match
from trixcomplex.bots import BotError, BotTimeout, RandomBot, RuleBot, check_bot
from trixcomplex.host import loop as host
from trixcomplex.host.tournament import simulate

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


class _ViewingRandom:
    """RandomBot's choice through ``choose`` only: the host must build its view."""

    def __init__(self) -> None:
        self.views = 0

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        assert isinstance(view, tc.View) and tuple(legal) == view.legal_moves
        self.views += 1
        return RandomBot().choose(view, legal, rng)

    def wants_redeal(self, view: tc.View, rng: random.Random) -> bool:
        return RandomBot().wants_redeal(view, rng)


def _results(t: tc.Tournament) -> list[object]:
    return [(m.index, m.seats, m.margin, m.winner, m.record) for m in t.matches]


@pytest.mark.parametrize(
    "ruleset",
    [tc.PARTNERSHIP, tc.CLASSIC, tc.Ruleset.from_name("classic+bad_hand_redeal=True")],
    ids=lambda r: r.name,
)
def test_r_hid_1_a_match_is_the_same_with_and_without_the_shortcut(ruleset: tc.Ruleset) -> None:
    """RandomBot asked through choose_legal plays exactly the matches it plays through
    choose with a view (same rng draws, same records, same results)."""
    viewing = _ViewingRandom()
    slow = simulate([viewing, viewing], 4, seed=7, ruleset=ruleset)
    fast = simulate([RandomBot(), RandomBot()], 4, seed=7, ruleset=ruleset)
    assert viewing.views > 100
    assert _results(fast) == _results(slow)
    assert fast.summary == slow.summary


def test_the_host_builds_no_view_for_a_bot_that_reads_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[int] = []
    real_view, real_after = tc.view, tc.view_after_moves

    def counting_view(state: tc.MatchState, seat: int | None = None) -> tc.View:
        built.append(seat if seat is not None else -1)
        return real_view(state, seat)

    def counting_after(
        previous: tc.View, moves: Sequence[tc.Move], state: tc.MatchState
    ) -> tc.View:
        built.append(previous.seat if previous.seat is not None else -1)
        return real_after(previous, moves, state)

    monkeypatch.setattr(host, "view", counting_view)
    monkeypatch.setattr(host, "view_after_moves", counting_after)
    simulate([RandomBot(), RandomBot()], 2, seed=3)
    assert built == []
    viewing = _ViewingRandom()
    simulate([viewing, RandomBot()], 2, seed=3)
    assert len(built) == viewing.views > 0  # only the bot that reads views gets them


class _Blind:
    """Records what choose_legal is handed; choose must never be called."""

    def __init__(self) -> None:
        self.handed: list[tuple[object, ...]] = []

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        raise AssertionError("choose called although choose_legal exists")

    def choose_legal(self, *args: object, **kwargs: object) -> tc.PlayerMove:
        assert not kwargs
        self.handed.append(args)
        legal, rng = args
        assert isinstance(legal, Sequence) and isinstance(rng, random.Random)
        return legal[0]  # type: ignore[no-any-return]


@pytest.mark.parametrize("time_limit", [None, pytest.param(30.0, marks=POSIX)])
def test_r_hid_1_choose_legal_is_handed_only_its_legal_moves_and_its_rng(
    time_limit: float | None,
) -> None:
    """With or without a per-decision clock, the host calls choose_legal, never choose."""
    blind = _Blind()
    rngs = [random.Random(s) for s in range(4)]
    final = host.play_match([blind] * 4, random.Random(2), rngs, time_limit=time_limit)
    assert final.phase is tc.Phase.OVER and len(blind.handed) > 50
    for legal, rng in blind.handed:
        assert isinstance(legal, tuple) and legal
        assert all(isinstance(m, tc.PlayerMove.__args__) for m in legal)
        assert any(rng is r for r in rngs)


def test_check_bot_refuses_a_choose_legal_that_is_not_a_method() -> None:
    class Odd(RandomBot):
        choose_legal = 3  # type: ignore[assignment]

    with pytest.raises(TypeError, match="choose_legal is not a method"):
        check_bot(Odd(), "side A")
    with pytest.raises(TypeError, match="choose_legal"):
        simulate([Odd(), RandomBot()], 2)


class _IllegalAt:
    """RandomBot until its ``n``-th decision, then a move of another seat."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.asked = 0

    def choose_legal(self, legal: Sequence[tc.PlayerMove], rng: random.Random) -> tc.PlayerMove:
        self.asked += 1
        if self.asked == self.n:
            return tc.Pass((legal[0].seat + 1) % 4)
        return RandomBot().choose_legal(legal, rng)

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        return self.choose_legal(legal, rng)


def test_r_seat_1_a_forfeit_keeps_the_record_up_to_the_failing_decision() -> None:
    """The forfeit's record is the match up to the state the bot failed in
    (BotError.reached), with no per-move callback kept by the tournament."""
    t = simulate([_IllegalAt(40), RandomBot()], 1, seed=5)
    (m,) = t.matches
    assert m.forfeit == "A" and "not legal" in m.reason
    reached = tc.replay(m.record)
    assert reached.phase.plays_cards or reached.phase in (tc.Phase.CHOOSE, tc.Phase.DOUBLE)
    seat = reached.turn if reached.turn is not None else min(reached.to_act)
    assert seat % 2 == m.sides_seats[0]  # side A's seat was to move
    bad = _IllegalAt(40)  # side A's one bot plays seats 0 and 2, as in the tournament
    from trixcomplex.host.tournament import match_generators

    deals, redeals, rngs = match_generators(5, 0)
    with pytest.raises(BotError) as info:
        host.play_match([bad, RandomBot(), bad, RandomBot()], deals, rngs, redeals=redeals)
    assert info.value.reached is not None and info.value.reached == reached


class _TimesOutItself:
    """An isolated bot's own clock: raises BotTimeout whatever the host's limit."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        raise BotTimeout(None, "no answer within 3s", "R-MATCH-6")


def test_r_match_6_a_bot_timing_out_without_a_host_limit() -> None:
    """Choosing: the rules' Timeout; playing a card: BotTimeout saying it did not answer
    in time (it used to fail formatting a missing limit)."""
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(4)))
    assert state.owner is not None
    assert host.ask(_TimesOutItself(), state, state.owner, random.Random(0)) == tc.Timeout()
    playing = tc.playout(state, random.Random(1), until="deal")
    playing = tc.apply(playing, tc.Deal.shuffled(random.Random(9)))
    while not playing.phase.plays_cards:
        playing = tc.apply(playing, tc.legal_moves(playing)[0])
    with pytest.raises(BotTimeout, match="did not answer in time"):
        host.ask(_TimesOutItself(), playing, host.seat_to_move(playing), random.Random(0))


class _SlowBlind(RandomBot):
    """Waits for an event nobody sets: late under the host's limit however busy the
    machine (a sleep just longer than the limit is a race on a loaded one).  The wait
    ends after a minute only so that a host that never stops it fails, not hangs."""

    def choose_legal(self, legal: Sequence[tc.PlayerMove], rng: random.Random) -> tc.PlayerMove:
        threading.Event().wait(60)
        return super().choose_legal(legal, rng)


@POSIX
def test_r_match_6_a_time_limit_holds_for_choose_legal_too() -> None:
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(4)))
    assert state.owner is not None
    move = host.ask(_SlowBlind(), state, state.owner, random.Random(0), time_limit=0.1)
    assert move == tc.Timeout()


def test_progress_is_reported_after_every_match() -> None:
    """Issue 16 item 6: progress per match, in order, ending at (n, n)."""
    calls: list[tuple[int, int]] = []
    simulate([RandomBot(), RandomBot()], 3, seed=1, progress=lambda d, n: calls.append((d, n)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


class _Recording:
    """RuleBot that keeps every view it is handed."""

    def __init__(self) -> None:
        self.views: list[tc.View] = []

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        self.views.append(view)
        return RuleBot().choose(view, legal, rng)


@pytest.mark.parametrize(
    "ruleset", [tc.PARTNERSHIP, tc.CLASSIC, tc.INDIVIDUAL_COMPLEX], ids=lambda r: r.name
)
def test_r_hid_1_kept_views_are_the_views_of_the_states_asked(ruleset: tc.Ruleset) -> None:
    """The host brings each seat's view up to date from its previous one
    (host.SeatViews); every view handed to a bot equals view(state, seat) of the
    state it was asked in, found by replaying the match's record."""
    bots = [_Recording() for _ in range(4)]
    final = host.play_match(
        bots,
        random.Random(3),
        [random.Random(s) for s in range(4)],
        ruleset=ruleset,
        time_limit=None,
    )
    expected: list[list[tc.View]] = [[], [], [], []]
    state = tc.new_match(ruleset)
    for move in final.history:
        if state.phase not in (tc.Phase.DEAL, tc.Phase.OVER):
            seat = host.seat_to_move(state)
            if len(tc.legal_moves(state, seat)) > 1:
                expected[seat].append(tc.view(state, seat))
        state = tc.apply(state, move)
    assert state == final
    for seat in range(4):
        assert len(bots[seat].views) > 20
        assert bots[seat].views == expected[seat]


def test_seat_views_start_again_from_a_full_view_when_far_behind() -> None:
    """A seat's kept view more than a deal behind, or a state not after it, gives
    the full view again (never a wrong one)."""
    states = [s for s in random_match(5) if s.phase is not tc.Phase.OVER]
    seen = host.SeatViews()
    for i in (10, 11, 200, 201, 150):  # forward, far forward, then backward
        assert seen(states[i], 1) == tc.view(states[i], 1)


@pytest.mark.parametrize("ruleset", [tc.PARTNERSHIP, tc.CLASSIC], ids=lambda r: r.name)
def test_kept_views_are_mostly_brought_up_to_date_not_built_again(
    ruleset: tc.Ruleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 16 item 6: a view-reading bot's views come from its previous ones
    (view_after_moves) for most decisions; a full view only at a deal's start,
    after a choice or the window's close (about one decision in six)."""
    from trixcomplex.knowledge import views

    full: list[int] = []
    real = views.view

    def counting(state: tc.MatchState, seat: int | None = None) -> tc.View:
        full.append(1)
        return real(state, seat)

    monkeypatch.setattr(views, "view", counting)
    monkeypatch.setattr(host, "view", counting)
    bots = [_Recording() for _ in range(4)]
    host.play_match(bots, random.Random(3), [random.Random(s) for s in range(4)], ruleset=ruleset)
    asked = sum(len(b.views) for b in bots)
    assert asked > 200 and len(full) < asked / 4
