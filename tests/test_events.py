"""Events per seat: what each viewer is told about a move, and never more (R-HID-1 … R-HID-3).

The core checks are the views' indistinguishability properties (see
test_views.py): two worlds a viewer cannot tell apart — the same moves on
decks differing only in cards it cannot see, or windows differing in other
seats' secret answers or in who was asked — give it identical events, in
every phase of every ruleset.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict

import pytest

import trixcomplex as tc
from builders import (
    PLAYING,
    SPADES_DEAL,
    VIEW_RULESETS,
    VIEWERS,
    assert_every_contract_seen,
    deal_of,
    hands_deal,
    play,
    plays,
    random_match,
    redeal_heavy_match,
    start_complex,
)
from test_views import swapped, unseen_worlds

RULESET_IDS = [r.name for r in VIEW_RULESETS]


def _events_of(states: list[tc.MatchState], i: int, viewer: int | None) -> list[dict[str, object]]:
    move = states[i + 1].history.last
    assert move is not None
    return tc.events(states[i], move, states[i + 1], viewer)


def _codes(view: tc.View) -> set[str]:
    data = json.dumps(tc.to_json(view))
    return {c for c in (str(card) for card in tc.ALL_CARDS) if f'"{c}"' in data}


# -- exact events of hand-built deals ----------------------------------------------------


def test_r_cx_3_a_trick_event_names_its_cards_taker_and_points() -> None:
    """R-CX-3, R-CX-5: seat 0 leads QS into SPADES_DEAL; seat 3's AS takes it and the Queen
    (−15 for the trick and −25 for the Queen, R-CX-5).  Every viewer gets the same public events."""
    state = start_complex(SPADES_DEAL)
    before = plays(state, "QS 3S KS")
    move = tc.Play(3, "AS")
    after = tc.apply(before, move)
    for viewer in VIEWERS:
        assert tc.events(before, move, after, viewer) == [
            {"type": "play", "seat": 3, "card": "AS"},
            {
                "type": "trick",
                "number": 1,
                "leader": 0,
                "cards": ["QS", "3S", "KS", "AS"],
                "taker": 3,
                "points": [0, 0, 0, -15 - 25],
            },
        ]


def test_r_dbl_3_a_double_is_told_to_its_seat_only_until_the_window_closes() -> None:
    """R-HID-2, R-DBL-3: seat 0's double of QS is its own secret; the closing timeout
    reveals it to everyone, with who doubled."""
    state = play(tc.new_match(), SPADES_DEAL, tc.Choose(0, tc.Contract.COMPLEX))
    move = tc.Double(0, ["QS"])
    after = tc.apply(state, move)
    assert tc.events(state, move, after, 0) == [{"type": "double", "seat": 0, "cards": ["QS"]}]
    for viewer in (None, 1, 2, 3):
        assert tc.events(state, move, after, viewer) == []
    closed = tc.apply(after, tc.Timeout())
    for viewer in VIEWERS:
        assert tc.events(after, tc.Timeout(), closed, viewer) == [
            {"type": "timeout"},
            {"type": "doubles_revealed", "doubled": [{"card": "QS", "seat": 0}]},
        ]


def test_r_match_5_the_deal_and_the_choice_of_contract() -> None:
    """R-MATCH-3, R-MATCH-5, R-DBL-1: the deal tells each seat its own hand and the owner;
    the choice of COMPLEX opens the window, each seat told its own doublable cards."""
    start = tc.new_match()
    after = tc.apply(start, SPADES_DEAL)
    for viewer in VIEWERS:
        hand = [] if viewer is None else [str(c) for c in after.hand(viewer)]
        assert tc.events(start, SPADES_DEAL, after, viewer) == [
            {"type": "deal", "deal_number": 1, "kingdom": 1, "owner": 0, "hand": hand}
        ]
    chosen = tc.apply(after, tc.Choose(0, tc.Contract.COMPLEX))
    doublable = {0: ["QS"], 1: ["QH"], 2: [], 3: ["KH", "QD", "QC"], None: []}
    for viewer in VIEWERS:
        assert tc.events(after, tc.Choose(0, tc.Contract.COMPLEX), chosen, viewer) == [
            {"type": "contract", "contract": "COMPLEX", "owner": 0, "timeout": False},
            {"type": "doubling_open", "doublable": doublable[viewer]},
        ]


def test_r_tx_4_out_events_give_each_seat_its_place() -> None:
    """R-TX-4: in a TRIX deal where each seat holds one whole suit, the seats go out
    in the order they empty their hands; the last card ends the deal."""
    suits = hands_deal(
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    )
    state = play(tc.new_match(), suits, tc.Choose(1, tc.Contract.TRIX))
    outs: list[dict[str, object]] = []
    overs: list[dict[str, object]] = []
    while state.phase is tc.Phase.TRIX:
        move = tc.legal_moves(state)[0]
        after = tc.apply(state, move)
        got = tc.events(state, move, after, None)
        outs += [e for e in got if e["type"] == "out"]
        overs += [e for e in got if e["type"] == "deal_over"]
        state = after
    result = tc.score(state).deals[-1]
    assert [e["seat"] for e in outs] == list(result.finishing_order)
    assert [e["place"] for e in outs] == [1, 2, 3, 4][: len(outs)]
    assert len(outs) >= 3
    assert overs == [
        {
            "type": "deal_over",
            "deal_number": 1,
            "contract": "TRIX",
            "owner": 1,
            "points": list(result.points),
        }
    ]


def test_r_match_8_the_last_move_ends_the_deal_and_the_match() -> None:
    """R-MATCH-8, R-SUM-1: the final move of a match gives deal_over and match_over, the
    latter with the final scores and result, to every viewer."""
    states = random_match(14)
    final = tc.score(states[-1])
    for viewer in VIEWERS:
        got = _events_of(states, len(states) - 2, viewer)
        assert got[-1] == {
            "type": "match_over",
            "seats": list(final.seats),
            "teams": list(final.teams),
            "result": None if final.result is None else final.result.value,
            "winners": list(final.winners),
        }
        assert got[-2]["type"] == "deal_over"


def test_events_refuse_states_that_do_not_match_the_move() -> None:
    states = random_match(1, until=5)
    with pytest.raises(tc.TrixError):
        tc.events(states[0], tc.Timeout(), states[2], None)
    with pytest.raises(ValueError, match="seat"):
        _events_of(states, 1, 7)


# -- never more than the view -------------------------------------------------------------


@pytest.mark.parametrize("ruleset", VIEW_RULESETS, ids=RULESET_IDS)
def test_r_hid_1_events_name_no_card_their_views_do_not(ruleset: tc.Ruleset) -> None:
    """R-HID-1, R-HID-3: every card an event names is in the viewer's view before or
    after the move, or is the card just played; every event is JSON."""
    states = redeal_heavy_match(ruleset, 31)
    for i in range(0, len(states) - 1, 3):
        for viewer in VIEWERS:
            got = _events_of(states, i, viewer)
            text = json.dumps(got)
            assert json.loads(text) == got
            named = {c for c in (str(card) for card in tc.ALL_CARDS) if f'"{c}"' in text}
            move = states[i + 1].history.last
            if isinstance(move, tc.Play):
                named.discard(str(move.card))
            # The views are read only for the cards left (most events name none but
            # the card just played): the check is the same, at a fraction of the cost.
            for state in states[i : i + 2]:
                if named:
                    named -= _codes(tc.view(state, viewer))
            assert not named, (named, got)


@pytest.mark.parametrize("ruleset", VIEW_RULESETS, ids=RULESET_IDS)
def test_r_hid_1_swaps_leave_events_unchanged_in_every_phase_of_every_ruleset(
    ruleset: tc.Ruleset,
) -> None:
    """R-HID-1, R-HID-2, R-SET-1: in every playing phase and contract of a random match,
    the same move in a world where two cards the viewer cannot see swapped places gives
    the viewer and the spectator the same events whenever it gives them the same views."""
    states = redeal_heavy_match(ruleset, 21)
    rng = random.Random(21)
    moments: dict[tuple[tc.Phase, tc.Contract | None], list[int]] = defaultdict(list)
    for i, state in enumerate(states[:-1]):
        if state.phase in PLAYING:
            moments[state.phase, state.contract].append(i)
    assert_every_contract_seen((c for _, c in moments), ruleset)
    for key, indices in moments.items():
        rng.shuffle(indices)
        compared = sum(_same_events_after_a_swap(states, i, rng) for i in indices[:40])
        assert compared, key


def _same_events_after_a_swap(states: list[tc.MatchState], i: int, rng: random.Random) -> int:
    """For each seat, the first hidden swap under which the move of ``states[i]`` stays
    legal: the seat and the spectator see the same view before the move (the swap is
    hidden); wherever they also see the same view after it, their events must be the same.
    (A swap may change what the move visibly does — a last answer closing the window in one
    world only — and then the views differ too.)  Returns how many pairs were compared."""
    state, after = states[i], states[i + 1]
    move = after.history.last
    assert move is not None
    compared = 0
    for seat in range(4):
        for other, _, _ in unseen_worlds(states, i, seat, rng):
            try:
                other_after = tc.apply(other, move)
            except tc.IllegalMoveError:
                continue
            for viewer in (seat, None):
                assert tc.view(other, viewer) == tc.view(state, viewer)
                if tc.view(other_after, viewer) == tc.view(after, viewer):
                    mine = tc.events(state, move, after, viewer)
                    assert tc.events(other, move, other_after, viewer) == mine, (viewer, move)
                    compared += 1
            break
    return compared


@pytest.mark.parametrize("ruleset", VIEW_RULESETS, ids=RULESET_IDS)
def test_r_hid_3_a_deal_tells_a_seat_nothing_of_the_other_hands(ruleset: tc.Ruleset) -> None:
    """R-HID-3: the deal event of two decks differing only in other seats' cards is the
    same for the seat and the spectator (7♥ and the 2s stay put: they are public facts)."""
    rng = random.Random(ruleset.name)
    states = redeal_heavy_match(ruleset, 4)
    fixed = {tc.parse_card(c) for c in ("7H", "2S", "2H", "2D", "2C", "3S", "3H", "3D", "3C")}
    compared = 0
    for i, state in enumerate(states[:-1]):
        move = states[i + 1].history.last
        if not isinstance(move, tc.Deal):
            continue
        for seat in range(4):
            mine = set(move.hand(seat))
            free = [c for c in move.deck if c not in mine and c not in fixed]
            a, b = rng.sample(free, 2)
            other_deal = tc.Deal(swapped(move.deck, a, b))
            other_after = tc.apply(state, other_deal)
            for viewer in (seat, None):
                assert tc.events(state, other_deal, other_after, viewer) == tc.events(
                    state, move, states[i + 1], viewer
                )
            compared += 1
    assert compared >= 4 * len(states[-1].results)


def test_r_hid_2_other_seats_answers_are_not_events() -> None:
    """R-HID-2: while the window stays open, any answer of seat t gives every other seat and
    the spectator the same events (none), whatever t doubled."""
    compared = 0
    for seed in range(6):
        states = random_match(seed)
        for state in states:
            if state.phase is not tc.Phase.DOUBLE:
                continue
            assert state.window is not None
            for t in sorted(state.window.waiting()):
                for move in tc.legal_moves(state, t):
                    after = tc.apply(state, move)
                    if after.phase is not tc.Phase.DOUBLE:
                        continue
                    for viewer in VIEWERS:
                        if viewer != t:
                            assert tc.events(state, move, after, viewer) == []
                    compared += 1
    assert compared


def test_r_hid_2_who_was_asked_is_not_an_event() -> None:
    """R-HID-2: moving K♥ between other seats (so others are asked) leaves the events of the
    owner's choice unchanged for the owner and the spectator."""
    base = deal_of([["KH", "2H"], ["3H", "2S"], ["4H"], ["7H"]])
    moved = deal_of([["2H", "4H"], ["KH", "2S"], ["3H"], ["7H"]])
    got = []
    for deal in (base, moved):
        dealt = tc.apply(tc.new_match(), deal)
        choose = tc.Choose(3, tc.Contract.COMPLEX)
        chosen = tc.apply(dealt, choose)
        got.append({v: tc.events(dealt, choose, chosen, v) for v in (3, None)})
    assert got[0] == got[1]


@pytest.mark.parametrize("ruleset", VIEW_RULESETS, ids=RULESET_IDS)
def test_r_cx_5_trick_events_add_up_to_each_deals_points(ruleset: tc.Ruleset) -> None:
    """R-CX-5, R-CL-2 … R-CL-6, R-TX-4: a frontend summing the trick events of a trick deal
    gets the deal's points, and the out events of a TRIX deal give its finishing order."""
    states = redeal_heavy_match(ruleset, 5)
    charged, order, deals = [0, 0, 0, 0], [], 0
    for i in range(len(states) - 1):
        for event in _events_of(states, i, None):
            if event["type"] == "trick":
                charged = [a + b for a, b in zip(charged, event["points"], strict=True)]  # type: ignore[call-overload]
            elif event["type"] == "out":
                order.append(event["seat"])
            elif event["type"] == "deal_over":
                result = tc.score(states[i + 1]).deals[-1]
                if result.contract is tc.Contract.TRIX:
                    assert order == list(result.finishing_order)
                else:
                    assert charged == event["points"] == list(result.points)
                charged, order, deals = [0, 0, 0, 0], [], deals + 1
    assert deals == len(states[-1].results)
