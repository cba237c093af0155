"""The table's clock, in process: the host's timeouts come when a seat's time runs out,
as the rules say (R-MATCH-6, R-DBL-3), and the host policy plays for a seat that must play.

Seat 0 is a person who never moves, holding 7♥ (so it chooses, R-MATCH-3) and K♥
(so the doubling window asks it, R-DBL-1); three rule bots answer at once.
"""

from __future__ import annotations

import asyncio
import time

import trixcomplex as tc
from builders import deal_of
from trixcomplex.server.store import Store
from trixcomplex.server.table import Seat, Settings, Table

MOVE_TIME = 1.0


def _seat_0_played(seen: list[tuple[float, tc.Move]]) -> bool:
    return any(isinstance(move, tc.Play) and move.seat == 0 for _, move in seen)


async def _watch(table: Table, limit: float) -> list[tuple[float, tc.Move]]:
    """The moves the table makes, with when each came (from the start), until seat 0
    has been played for or ``limit`` seconds have passed."""
    seen: list[tuple[float, tc.Move]] = []
    start = time.monotonic()
    table.start()
    count = len(table.state.history)
    while time.monotonic() - start < limit and not _seat_0_played(seen):
        await asyncio.sleep(0.01)
        moves = table.state.history.moves()
        for move in moves[count:]:
            seen.append((time.monotonic() - start, move))
        count = len(moves)
    table.stop()
    return seen


def test_the_host_times_out_the_choice_the_window_and_a_play() -> None:
    state = tc.apply(tc.new_match(), deal_of([["7H", "KH", "2C", "3C", "4C"]]))
    assert state.owner == 0
    seats = [Seat("person", "idle", "0" * 64), Seat("bot", "rule"), Seat("bot", "rule"),
             Seat("bot", "rule")]  # fmt: skip
    settings = Settings(move_time=MOVE_TIME, forced_delay=60, bot_delay=0, deal_pause=60)
    table = Table("t", "2026-01-01T00:00:00Z", settings, seats, state, Store(":memory:"))
    moves = asyncio.run(_watch(table, 20 * MOVE_TIME))
    kinds = [type(move).__name__ for _, move in moves]

    # R-MATCH-6: the owner's time runs out, COMPLEX is chosen for it; not before.
    first_at, first = moves[0]
    assert first == tc.Timeout() and first_at > 0.9 * MOVE_TIME
    # R-DBL-3: the window waits for seat 0 (asked: it holds K♥) until its own clock
    # runs out, then closes at once; the bots answered meanwhile.
    closes_at, closes = next(
        (at, move) for at, move in moves[1:] if not isinstance(move, tc.Double)
    )
    assert closes == tc.Timeout() and closes_at - first_at > 0.9 * MOVE_TIME
    assert "Double" in kinds
    assert all(move.seat != 0 for _, move in moves if isinstance(move, tc.Double))
    # Seat 0 leads the first trick (the owner, R-CX-1) and is moved for by the host
    # policy when its time runs out: its lowest legal card.
    replayed = tc.replay(tc.Record(moves=tuple(m for m in state.history.moves())))
    for _, move in moves:
        if isinstance(move, tc.Play) and move.seat == 0:
            assert move == tc.timeout_move(replayed, 0)
            break
        replayed = tc.apply(replayed, move)
    else:
        raise AssertionError(f"seat 0 was never moved for: {kinds}")
