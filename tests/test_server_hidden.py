"""What the server sends a connection depends only on what its seat may see (R-HID-1 … R-HID-3).

Indistinguishability: for a state and a world sampled from one viewer's view
(:func:`trixcomplex.sample_world`, the same view with other hands, other
doubling answers, other decks), the server's message to that viewer (view,
picture, scoresheet, seats, clock) is the same.  The scoresheet is the one
part built from the state rather than the view, so this is where a leak
would show.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import trixcomplex as tc
from builders import PLAYING, VIEW_RULESETS, VIEWERS, random_match
from trixcomplex.server.store_sqlite import SqliteStore
from trixcomplex.server.table import Seat, Settings, Table


class Viewer:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.pictures = True
        self.last_view: tc.View | None = None

    def send(self, message: dict[str, Any]) -> None:
        raise AssertionError("not used")


def _message(state: tc.MatchState, viewer: int | None) -> dict[str, Any]:
    seats = [Seat("person", f"p{s}", "0" * 64) for s in range(4)]
    table = Table("t", "2026-01-01T00:00:00Z", Settings(state.ruleset.name), seats, state,
                  SqliteStore(":memory:"))  # fmt: skip
    message = table.update_message(Viewer(viewer), tc.view(state, viewer), [])
    del message["clock"]  # time, not the match
    return message


@pytest.mark.parametrize("ruleset", VIEW_RULESETS, ids=lambda r: r.name)
def test_worlds_a_viewer_cannot_tell_apart_give_it_the_same_message(ruleset: tc.Ruleset) -> None:
    rng = random.Random(ruleset.name)
    states = random_match(rng.randrange(10**6), ruleset=ruleset, timeout_rate=0.2)
    checked = 0
    for state in rng.sample(states, 12):
        if state.phase not in PLAYING:
            continue
        for viewer in VIEWERS:
            world = tc.sample_world(tc.view(state, viewer), rng)
            assert _message(world, viewer) == _message(state, viewer)
            checked += 1
    assert checked
