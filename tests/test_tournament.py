"""Tournaments and bots from Python (issue 15, items 4 and 5): errors that say where,
the protocol checked up front, exports, faults survived, untrusted bots isolated."""

from __future__ import annotations

import csv
import io
import json
import pickle
import random
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

import pytest

import trixcomplex as tc
from faulty_bots import HangOnce, KillOnce, Slow
from trixcomplex.bots import BotError, RandomBot, RuleBot, ask
from trixcomplex.host.loop import play_match
from trixcomplex.host.tournament import simulate

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process kills")


class _Wrong:
    """Answers a move of the seat after its own."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        assert view.seat is not None
        return tc.Pass((view.seat + 1) % 4)


def _outcomes(t: tc.Tournament) -> list[tuple[int, int, tuple[int, ...], object]]:
    return [(m.index, m.margin, m.seats, m.record.to_json()) for m in t.matches]


# -- BotError and the protocol ---------------------------------------------------


def test_r_seat_1_bot_error_names_match_deal_phase_seat_move_and_legal_moves() -> None:
    """R-SEAT-1, R-TX-1: a bot answering another seat's move: BotError names the
    match, deal, phase, seat, the move, the legal moves and the engine's clause."""
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(4)))
    seat = state.owner
    assert seat is not None
    with pytest.raises(BotError) as caught:
        from trixcomplex.host.loop import ask as host_ask

        host_ask(_Wrong(), state, seat, random.Random(0), match=17)
    err = caught.value
    assert err.match == 17 and err.deal == 1 and err.phase == "CHOOSE" and err.seat == seat
    assert err.legal == tc.legal_moves(state, seat)
    assert err.move == tc.Pass((seat + 1) % 4)
    text = str(err)
    assert "match 17, deal 1, phase CHOOSE, seat" in text and "legal moves: " in text
    assert err.rule != "R-SEAT-1" or "not a move" in text
    again = pickle.loads(pickle.dumps(err))  # crosses process boundaries intact
    assert (again.match, again.seat, again.legal, again.rule) == (17, seat, err.legal, err.rule)


def test_r_cx_2_bot_error_cites_the_rule_the_move_breaks() -> None:
    """R-CX-2: a card that does not follow suit: BotError cites R-CX-2, the engine's reason."""
    from builders import HEARTS_DEAL, start_complex

    state = tc.apply(start_complex(HEARTS_DEAL), tc.Play(0, "5H"))  # seat 1 holds K♥

    class OffSuit:
        def choose(
            self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
        ) -> tc.PlayerMove:
            return tc.Play(1, "2C")

    with pytest.raises(BotError) as caught:
        ask(OffSuit(), state, 1, random.Random(0))
    assert caught.value.rule == "R-CX-2" and caught.value.phase == "COMPLEX"


def test_a_bot_without_the_protocol_is_refused_before_the_first_match() -> None:
    """An object without ``choose`` is refused with a clear TypeError, no match played."""
    played: list[int] = []
    with pytest.raises(TypeError, match=r"bot 0 \(side A\): str is not a bot.*choose"):
        simulate(["rule", RuleBot()], 2, progress=lambda d, n: played.append(d))  # type: ignore[list-item]
    assert played == []
    with pytest.raises(TypeError, match="seat 2"):
        play_match([RuleBot(), RuleBot(), object(), RuleBot()],  # type: ignore[list-item]
                   random.Random(1), [random.Random(s) for s in range(4)])  # fmt: skip


# -- Tournament: repr, table, exports ------------------------------------------------


def test_tournament_repr_is_short_and_the_table_is_the_cli_s() -> None:
    """The repr is one short line; ``summary_table`` holds what the CLI prints."""
    t = simulate([RuleBot(), RandomBot()], 4, seed=3)
    text = repr(t)
    assert text.startswith("Tournament(RuleBot vs RandomBot, partnership, 4 matches, seed 3")
    assert len(text) < 200 and "\n" not in text and "moves" not in text
    rows = dict(t.summary_table())
    assert rows["ruleset"] == "partnership" and rows["matches"].startswith("4 (seed 3")
    assert "A wins (RuleBot)" in rows and "COMPLEX points per deal" in rows


def test_tournament_exports_json_and_csv() -> None:
    """JSON and CSV carry every match's result; they agree with the matches."""
    t = simulate([RuleBot(), RandomBot()], 3, seed=5, ruleset=tc.CLASSIC)
    data = json.loads(json.dumps(t.to_json()))
    assert data["ruleset"] == "classic" and data["seed"] == 5
    assert data["summary"]["matches"] == 3 and len(data["matches"]) == 3
    rows = list(csv.DictReader(io.StringIO(t.to_csv())))
    assert [int(r["index"]) for r in rows] == [0, 1, 2]
    for row, m, js in zip(rows, t.matches, data["matches"], strict=True):
        assert int(row["margin"]) == m.margin == js["margin"]
        assert row["winner"] == m.winner == js["winner"]
        assert [int(row[f"seat{s}"]) for s in range(4)] == list(m.seats)


# -- time limits and forfeits ----------------------------------------------------------


@POSIX
def test_r_match_6_a_slow_chooser_gets_the_rules_timeout() -> None:
    """R-MATCH-6: over the per-decision limit while choosing, the host plays Timeout."""
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(4)))
    seat = state.owner
    assert seat is not None
    from trixcomplex.host.loop import ask as host_ask

    move = host_ask(Slow(0.5), state, seat, random.Random(0), time_limit=0.1)
    assert move == tc.Timeout()


@POSIX
def test_a_bot_over_the_time_limit_in_play_forfeits_the_match() -> None:
    """A bot hanging over a card is stopped by the per-decision limit; its side forfeits
    that match and the tournament goes on."""
    t = simulate([Slow(5.0, deal=2), RuleBot()], 2, seed=1, time_limit=0.2)
    assert [m.forfeit for m in t.matches] == ["A", "A"]
    assert all(m.winner == "B" for m in t.matches)
    assert "did not answer within 0.2s" in t.matches[0].reason
    assert t.summary.losses == 2


def test_an_illegal_answer_forfeits_the_match() -> None:
    """R-SEAT-1: a bot answering an illegal move in a tournament forfeits its match."""
    t = simulate([RuleBot(), _Wrong()], 2, seed=2)
    assert [m.forfeit for m in t.matches] == ["B", "B"]
    assert all(m.winner == "A" for m in t.matches) and "not legal" in t.matches[0].reason


# -- faults: killed and hung workers --------------------------------------------------


@POSIX
def test_a_killed_worker_loses_no_finished_match_and_reruns_give_identical_results(
    tmp_path: Path,
) -> None:
    """Killing a process-pool worker mid-run: finished matches are kept, the lost ones are
    played again with the same seeds, and the tournament equals an unfaulted run."""
    killer = KillOnce(str(tmp_path / "killed"))
    faulty = simulate([killer, RandomBot()], 6, seed=9, jobs=2)
    assert (tmp_path / "killed").exists()  # a worker really was killed
    clean = simulate([RuleBot(), RandomBot()], 6, seed=9)
    assert _outcomes(faulty) == _outcomes(clean)


@POSIX
def test_a_hung_worker_is_replaced_and_its_matches_rerun(tmp_path: Path) -> None:
    """A worker hung where no alarm reaches it: after ``stall_timeout`` the pool is
    killed and the unfinished matches are played again; the results are unchanged."""
    import time

    hung = HangOnce(str(tmp_path / "hung"))
    start = time.monotonic()
    faulty = simulate([hung, RandomBot()], 4, seed=4, jobs=2, stall_timeout=4)
    assert (tmp_path / "hung").exists()
    # the worker sleeps 600 s: finishing long before proves it was replaced, not waited for
    assert time.monotonic() - start < 300
    clean = simulate([RuleBot(), RandomBot()], 4, seed=4)
    assert _outcomes(faulty) == _outcomes(clean)


def test_an_executor_that_fails_a_chunk_gets_it_again() -> None:
    """A chunk whose future fails is played again; the results equal the in-process run."""
    from concurrent.futures import Executor, Future

    class Flaky(Executor):
        def __init__(self) -> None:
            self.calls = 0

        def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def, override]
            self.calls += 1
            future: Future[object] = Future()
            if self.calls == 2:
                future.set_exception(OSError("worker lost"))
            else:
                future.set_result(fn(*args, **kwargs))
            return future

    flaky = Flaky()
    t = simulate([RuleBot(), RandomBot()], 4, seed=6, executor=flaky)
    assert flaky.calls == 5
    assert _outcomes(t) == _outcomes(simulate([RuleBot(), RandomBot()], 4, seed=6))


def test_progress_advances_match_by_match() -> None:
    """``progress`` is called once per match, 1 … n, on an executor too."""
    from concurrent.futures import ThreadPoolExecutor

    seen: list[int] = []
    with ThreadPoolExecutor(2) as pool:
        simulate([RuleBot(), RandomBot()], 5, executor=pool, progress=lambda d, n: seen.append(d))
    assert seen == [1, 2, 3, 4, 5]


# -- isolated bots ----------------------------------------------------------------------


@POSIX
@pytest.mark.parametrize(
    ("spec", "why"),
    [("faulty_bots:Crash", "crashed"), ("faulty_bots:Spin", "used over 1s of CPU time"),
     ("faulty_bots:Cheat", "chose a move that is not legal")],
)  # fmt: skip
@pytest.mark.slow
def test_r_hid_1_an_isolated_bot_that_crashes_hangs_or_cheats_forfeits(spec: str, why: str) -> None:
    """An isolated bot that crashes, hangs or answers illegally forfeits its matches,
    not the tournament; the reason names the match, deal, seat and what happened.
    The hang is measured in the bot's CPU seconds (``cpu_limit``), so a loaded machine
    cannot make the honest side late; the wall-clock limit is only a generous bound."""
    with warnings.catch_warnings():  # without bubblewrap: the fallback, warned about
        warnings.simplefilter("ignore")
        t = simulate([spec, "random"], 2, seed=3, isolated=True,  # type: ignore[list-item]
                     time_limit=120, cpu_limit=1)  # fmt: skip
    assert [m.forfeit for m in t.matches] == ["A", "A"]
    assert t.summary.matches == 2 and t.summary.losses == 2
    for m in t.matches:
        assert why in m.reason and f"match {m.index}, deal 2" in m.reason


@pytest.mark.slow
@POSIX
def test_r_hid_1_an_isolated_bot_sees_only_its_view() -> None:
    """R-HID-1: an isolated bot searching its process for the match state finds none
    (it holds a View rebuilt from JSON; finding one, it would answer illegally and
    forfeit); the same bot in the host's process finds it."""
    from hostile_bots import StateFinder

    t = simulate(["hostile_bots:StateFinder", "random"], 1, seed=2, isolated=True)  # type: ignore[list-item]
    assert t.matches[0].forfeit is None, t.matches[0].reason
    assert simulate([StateFinder(), RandomBot()], 1, seed=2).matches[0].forfeit == "A"


@pytest.mark.slow
@POSIX
def test_an_isolated_rule_bot_plays_whole_matches() -> None:
    """An isolated RuleBot plays its matches to the end, no forfeit."""
    t = simulate(["rule", "random"], 2, seed=8, isolated=True)  # type: ignore[list-item]
    assert all(m.forfeit is None and len(m.record) > 100 for m in t.matches)
