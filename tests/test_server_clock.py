"""The table's clock, in process: the host's timeouts come when a seat's time runs out,
as the rules say (R-MATCH-6, R-DBL-3), and the host policy plays for a seat that must play.

Seat 0 is a person who never moves, holding 7♥ (so it chooses, R-MATCH-3) and K♥
(so the doubling window asks it, R-DBL-1); three rule bots answer at once.  The
table runs on a clock moved by hand, so every time is exact, whatever the load.
"""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path

import trixcomplex as tc
from builders import deal_of
from server_harness import InlinePool, TimedStore, _done, run_until
from trixcomplex.server.app import Lobby
from trixcomplex.server.clock import ManualClock
from trixcomplex.server.options import Options
from trixcomplex.server.store_sqlite import SqliteStore
from trixcomplex.server.table import Seat, Settings, Table

MOVE_TIME = 1.0


def test_the_host_times_out_the_choice_the_window_and_a_play() -> None:
    state = tc.apply(tc.new_match(), deal_of([["7H", "KH", "2C", "3C", "4C"]]))
    assert state.owner == 0
    seats = [Seat("person", "idle", "0" * 64), Seat("bot", "rule"), Seat("bot", "rule"),
             Seat("bot", "rule")]  # fmt: skip
    settings = Settings(move_time=MOVE_TIME, forced_delay=60, bot_delay=0, deal_pause=60)
    clock = ManualClock()
    store = TimedStore(clock, state)
    table = Table("t", "2026-01-01T00:00:00Z", settings, seats, state, store, clock=clock,
                  pool=InlinePool(), options=Options(bot_window=0.25))  # fmt: skip
    table.start()
    run_until(clock, lambda: any(isinstance(m, tc.Play) and m.seat == 0 for _, m in store.moves))
    moves = store.moves
    kinds = [type(move).__name__ for _, move in moves]

    # R-MATCH-6: the owner's time runs out, COMPLEX is chosen for it; not before.
    assert moves[0] == (MOVE_TIME, tc.Timeout())
    # R-DBL-3: the window waits for seat 0 (asked: it holds K♥) until its own clock
    # runs out, then closes at once; the bots' answers came at the window's answer time.
    doubles = [(at, move) for at, move in moves if isinstance(move, tc.Double)]
    assert doubles and {at for at, _ in doubles} == {MOVE_TIME + 0.25}
    assert all(move.seat != 0 for _, move in doubles)
    closes_at, closes = next((at, m) for at, m in moves[1:] if not isinstance(m, tc.Double))
    assert closes == tc.Timeout() and closes_at == 2 * MOVE_TIME
    assert "Double" in kinds
    # Seat 0 leads the first trick (the owner, R-CX-1) and is moved for by the host
    # policy when its time runs out: its lowest legal card.
    replayed = tc.replay(tc.Record(moves=tuple(m for m in state.history.moves())))
    for at, move in moves:
        if isinstance(move, tc.Play) and move.seat == 0:
            assert move == tc.timeout_move(replayed, 0) and at == 3 * MOVE_TIME
            break
        replayed = tc.apply(replayed, move)
    else:
        raise AssertionError(f"seat 0 was never moved for: {kinds}")


class _DecliningPool(InlinePool):
    """Bots that never demand a redeal out of turn (R-OPT-8)."""

    def wants_redeal(self, name: str, seen: tc.View, seed: int) -> Future[bool]:
        self.asked.append(("redeal", name, seen))
        return _done(False)


def test_r_opt_8_a_bot_with_a_bad_hand_out_of_turn_is_offered_the_redeal_it_may_decline() -> None:
    """R-OPT-8: a bot holding a bad TRIX hand when another seat is to play is asked
    whether it wants the redeal (the host's offer, from ``next_step``), never asked
    to move with the redeal as its only legal move: declining, the deal goes on."""
    ruleset = tc.Ruleset.from_name("partnership+bad_hand_redeal=True")
    bad = ["2C", "2D", "2H", "2S"]
    state = tc.apply(tc.new_match(ruleset), deal_of([["7H"], [], bad]))
    state = tc.apply(state, tc.Choose(0, tc.Contract.TRIX))
    step = tc.next_step(state)
    assert isinstance(step, tc.OfferRedeal) and step.seat == 2
    seats = [Seat("bot", "rule") for _ in range(4)]
    settings = Settings(move_time=MOVE_TIME, forced_delay=60, bot_delay=0, deal_pause=60)
    clock = ManualClock()
    store = TimedStore(clock, state)
    bots = _DecliningPool()
    table = Table("t", "2026-01-01T00:00:00Z", settings, seats, state, store, clock=clock,
                  pool=bots, options=Options(bot_window=0.25))  # fmt: skip
    table.start()
    run_until(clock, lambda: len(store.moves) >= 4)
    assert not any(isinstance(move, tc.Redeal) for _, move in store.moves)
    assert all(isinstance(move, tc.Play | tc.Pass) for _, move in store.moves)
    asked = [(kind, seen.seat) for kind, _, seen in bots.asked]
    assert asked[0] == ("redeal", 2)
    assert ("decide", 2) not in asked[: asked.index(("decide", 0)) + 1]


def test_r_tx_5_a_forced_move_waits_bot_delay_for_a_bot_forced_delay_for_a_person() -> None:
    """R-TX-5: a seat's only legal card is played for it; the table plays a bot's as
    soon as a bot's own move would come (``bot_delay``) and waits ``forced_delay``
    for a person, who may play it sooner.  Whatever seat 0 leads (a heart or a
    club), seat 1 (a bot) and seat 3 (an idle person) hold one card of that suit."""
    hands = [["7H", "8H", *(f"{r}C" for r in "23456789TJQ")],
             ["KC", "2H", *(f"{r}S" for r in "23456789TJQ")],
             [],
             ["AC", "3H", "KS", "AS", *(f"{r}D" for r in "23456789T")]]  # fmt: skip
    only = {"H": ("2H", "3H"), "C": ("KC", "AC")}
    state = tc.apply(tc.new_match(), deal_of(hands))
    state = tc.apply(state, tc.Choose(0, tc.Contract.COMPLEX))
    seats = [Seat("bot", "rule"), Seat("bot", "rule"), Seat("bot", "rule"),
             Seat("person", "idle", "0" * 64)]  # fmt: skip
    settings = Settings(move_time=100, forced_delay=30, bot_delay=2, deal_pause=60)
    clock = ManualClock()
    store = TimedStore(clock, state)
    table = Table("t", "2026-01-01T00:00:00Z", settings, seats, state, store, clock=clock,
                  pool=InlinePool(), options=Options(bot_window=0.25))  # fmt: skip
    table.start()
    plays = lambda: [(at, move) for at, move in store.moves if isinstance(move, tc.Play)]  # noqa: E731
    run_until(clock, lambda: len(plays()) >= 4)
    (lead_at, lead), (forced_at, forced_bot), (bot_at, _), (person_at, forced_person) = plays()[:4]
    assert isinstance(lead, tc.Play) and lead.seat == 0
    bot_card, person_card = only[str(lead.card)[-1]]
    assert forced_bot == tc.Play(1, tc.parse_card(bot_card))
    assert forced_person == tc.Play(3, tc.parse_card(person_card))
    assert forced_at == lead_at + settings.bot_delay
    assert person_at == bot_at + settings.forced_delay


def test_a_table_taken_over_restarts_the_seat_clock_the_outage_charged_to_nobody(
    tmp_path: Path,
) -> None:
    """Issue 39: the process driving a table dies while a person is thinking (25 of
    their 30 s used), and the table is brought back elsewhere 100 s later (a takeover,
    or a restart: both go through :meth:`Lobby.restore`'s ``_bring_back``).  The
    person's clock starts again at its whole move time from the moment the table is
    driven again: neither the 25 s used nor the 100 s of the outage are charged, so
    the host times the seat out exactly 30 s after the takeover, not a moment before."""
    db = str(tmp_path / "tables.db")
    first_clock = ManualClock()
    first = Lobby(SqliteStore(db), Options(), clock=first_clock, pool=InlinePool())
    table = first.open_table({"seats": ["person", "rule", "rule", "rule"], "move_time": 30,
                              "forced_delay": 60, "bot_delay": 0, "deal_pause": 0})  # fmt: skip
    table.join(0, "Ann")
    # Seat 0 alone to act, outside the windows: nothing happens until its clock runs out.
    run_until(first_clock, lambda: table.state.to_act == frozenset({0})
              and table.state.phase not in (tc.Phase.DEAL, tc.Phase.DOUBLE))  # fmt: skip
    thinking_since = len(table.state.history)
    first_clock.advance(25.0)
    assert len(table.state.history) == thinking_since  # still hers to play
    # The process dies here (nothing stopped, nothing stored but the moves).

    second_clock = ManualClock(start_wall=first_clock.wall() + 100.0)
    second = Lobby(SqliteStore(db), Options(), clock=second_clock, pool=InlinePool())
    second.restore()
    again = second.tables[table.id]
    assert len(again.state.history) == thinking_since and 0 in again.state.to_act
    second_clock.advance(30.0 - 0.01)
    assert len(again.state.history) == thinking_since  # not timed out a moment early
    before = again.state
    second_clock.advance(0.02)
    moved = again.state.history.moves()[thinking_since]
    # R-MATCH-6 in the choice, else the host policy's move for the seat out of time.
    assert moved in (tc.Timeout(), tc.timeout_move(before, 0))
