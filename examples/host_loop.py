"""A minimal turn-based host: deals, per-seat views, clocks, timeouts and auto-play.

The engine has no clock and no randomness; the host owns both.  This host:

- shuffles every deal with its own seeded ``random.Random`` (the shuffle is a
  :class:`~trixcomplex.Deal` move, R-MATCH-2);
- gives each player only its seat's :func:`~trixcomplex.view` (R-HID-1), never
  the state;
- runs a simulated clock (no real waiting, so the script is fast): each player
  takes a random "thinking time", and a player slower than the time limit is
  timed out -- with a :class:`~trixcomplex.Timeout` move while the owner
  chooses (COMPLEX is chosen, R-MATCH-6) or while the doubling window is open
  (unanswered seats double nothing, R-DBL-3);
- feeds every player's answer, as the JSON text a client would send, through
  :func:`~trixcomplex.submit` with the seat the "connection" belongs to: the
  one safe entry for client input (it refuses moves for other seats);
- plays a seat's single legal move for it at once (``forced_move``, R-TX-5),
  and, when a slow player runs out of time, applies
  :func:`~trixcomplex.timeout_move` (a ``Timeout`` in the two timed windows,
  else the forced move or the lowest legal card).

Run it with ``python examples/host_loop.py``; it prints the notable events,
one seat's text picture of the table at the first trick, and the scoresheet.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import trixcomplex as tc
from trixcomplex.io.scoresheet import format_scoresheet

CHOOSE_LIMIT = 10.0
"""Seconds the Kingdom owner has to choose the contract."""
DOUBLE_LIMIT = 8.0
"""Seconds the doubling window stays open."""
PLAY_LIMIT = 15.0
"""Seconds a seat has for one card."""


class SimulatedPlayer:
    """A remote player: sees its view, thinks for a while, answers a legal move."""

    def __init__(self, seat: int, slowness: float) -> None:
        self.seat = seat
        self.slowness = slowness  # mean thinking time in seconds

    def think_time(self, rng: random.Random) -> float:
        return rng.expovariate(1 / self.slowness)

    def answer(self, view: tc.View, rng: random.Random) -> str:
        """The JSON text this player's client sends."""
        assert view.seat == self.seat and view.legal_moves, "asked only when it may move"
        return json.dumps(tc.move_to_json(rng.choice(view.legal_moves)))


def host_match(seed: int) -> tuple[tc.MatchState, Counter[str]]:
    """Host one whole match; returns the final state and a count of what the host did."""
    rng = random.Random(seed)  # the host's own randomness: shuffles and simulated clocks
    players = [SimulatedPlayer(seat, slowness) for seat, slowness in enumerate((3, 6, 4, 12))]
    events: Counter[str] = Counter()
    shown_table = False
    state = tc.new_match()
    while not state.is_over:
        if state.phase is tc.Phase.DEAL:
            state = tc.apply(state, tc.Deal.shuffled(rng))
            if state.deal_number % 2:
                print(f"deal {state.deal_number}: seat {state.owner} owns Kingdom {state.kingdom}")
            continue

        if state.phase is tc.Phase.DOUBLE:
            # Every asked seat thinks at the same time; the answers stay secret
            # (the engine keeps them) until the window closes.
            times = {asked: players[asked].think_time(rng) for asked in sorted(state.to_act)}
            for asked in sorted(times, key=times.__getitem__):  # the fastest answers first
                if times[asked] > DOUBLE_LIMIT:
                    break
                text = players[asked].answer(tc.view(state, asked), rng)
                state = tc.submit(state, asked, text)  # checked: seat, format, rules
            if state.phase is tc.Phase.DOUBLE:
                late = sorted(state.to_act)
                state = tc.apply(state, tc.timeout_move(state, late[0]))  # a Timeout
                events["doubling window closed by a timeout"] += 1
                print(f"  doubling window timed out; seats {late} double nothing (R-DBL-3)")
            seen_by_all = tc.view(state, None)  # the doubles are public now
            doubles = ", ".join(f"{card.symbol} by seat {s}" for card, s in seen_by_all.doubled)
            print(f"  doubles revealed: {doubles or 'none'}")
            continue

        assert state.turn is not None
        seat: int = state.turn
        seen = tc.view(state, seat)
        if seen.forced_move is not None:  # one legal move: play it now (R-TX-5)
            state = tc.apply(state, seen.forced_move)
            events["forced move auto-played"] += 1
            continue
        if state.phase.plays_tricks and len(seen.trick) == 2 and not shown_table:
            print(tc.picture(seen))  # the text form of what this seat sees
            shown_table = True
        limit = CHOOSE_LIMIT if state.phase is tc.Phase.CHOOSE else PLAY_LIMIT
        if players[seat].think_time(rng) <= limit:
            state = tc.submit(state, seat, players[seat].answer(seen, rng))
            continue
        if state.phase is tc.Phase.CHOOSE:
            events["contract choice timed out"] += 1
            print(f"  seat {seat} was too slow to choose: COMPLEX (R-MATCH-6)")
        else:
            events["slow player's card played by the host"] += 1
        state = tc.apply(state, tc.timeout_move(state, seat))
    return state, events


def main() -> None:
    state, events = host_match(seed=2024)
    print()
    for what, count in sorted(events.items()):
        print(f"{what}: {count}")
    print()
    print(format_scoresheet(state))


if __name__ == "__main__":
    main()
