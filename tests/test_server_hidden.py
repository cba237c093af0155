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
        self.locale = "en"
        self.last_view: tc.View | None = None

    def send(self, message: dict[str, Any]) -> None:
        raise AssertionError("not used")


def _message(state: tc.MatchState, viewer: int | None) -> dict[str, Any]:
    seats = [Seat("person", f"p{s}", "0" * 64) for s in range(4)]
    table = Table("t", "2026-01-01T00:00:00Z", Settings(state.ruleset.name), seats, state,
                  SqliteStore(":memory:"))  # fmt: skip
    message = table.update_message(Viewer(viewer), tc.view(state, viewer), [])
    del message["clock"]  # time, not the match
    # The last finished deal is replayed from the history, which a sampled world does
    # not hold (only its results); every card in it was played face up:
    # test_the_last_deal_is_what_a_spectator_saw_played checks it holds nothing else.
    message.pop("last_deal", None)
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


@pytest.mark.parametrize("ruleset", VIEW_RULESETS, ids=lambda r: r.name)
def test_the_last_deal_is_what_a_spectator_saw_played(ruleset: tc.Ruleset) -> None:
    """R-HID-2: an update's ``last_deal`` (sent while nothing of the next deal is played)
    holds the finished deal's tricks, lays, passes and revealed doubles exactly as a
    spectator's events told them while it was played, so it tells nobody a hidden card."""
    from trixcomplex.server.messages import finished_deal

    rng = random.Random(ruleset.name + "last")
    state = tc.apply(tc.new_match(ruleset), tc.Deal.shuffled(rng))
    tricks: list[dict[str, Any]] = []
    laid: list[list[Any]] = []
    passes: list[list[Any]] = []
    doubled: list[list[Any]] = []
    while not state.results:
        move = rng.choice(tc.legal_moves(state)) if tc.legal_moves(state) else tc.Timeout()
        after = tc.apply(state, move)
        for event in tc.events(state, move, after, None):
            if event["type"] == "trick":
                tricks.append({k: event[k] for k in ("leader", "cards", "taker")})
            elif event["type"] == "play" and state.phase is tc.Phase.TRIX:
                laid.append([event["seat"], event["card"]])
            elif event["type"] == "pass":
                passes.append([event["seat"], len(laid)])
            elif event["type"] == "doubles_revealed":
                doubled = [[d["card"], d["seat"]] for d in event["doubled"]]
        state = after
    deal = finished_deal(state)
    assert deal is not None
    assert (deal["tricks"], deal["laid"], deal["passes"]) == (tricks, laid, passes)
    assert sorted(deal["doubled"]) == sorted(doubled)
    assert deal["points"] == list(state.results[-1].points)
    assert sum(line["points"] for line in deal["ledger"]) == sum(deal["points"])
