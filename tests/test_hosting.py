"""Hosting: the one safe entry for client input (submit) and the host's clock (timeout_move).

Hostile clients (R-SEAT-1, R-HID-1): moves for other seats, by spectators,
replayed moves, moves after the match, host-only moves, malformed and
oversize JSON are rejected every time with a :class:`trixcomplex.TrixError`,
and the state is unchanged.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import VIEW_RULESETS, play, random_match, redeal_heavy_match
from trixcomplex.core.errors import ERROR_CODES
from trixcomplex.host.submit import MAX_SUBMIT_LENGTH

RULESET_IDS = [r.name for r in VIEW_RULESETS]


def _rejected(
    state: tc.MatchState,
    seat: int | None,
    data: object,
    code: str | None,
    before_state: tc.MatchState | None = None,
) -> tc.TrixError:
    """Submit ``data``; it must be refused with ``code`` (any code if None), state unchanged
    (equal to ``before_state``, a deep copy of it taken by the caller, or here)."""
    if before_state is None:
        before_state = copy.deepcopy(state)
    before_data = copy.deepcopy(data)
    with pytest.raises(tc.TrixError) as info:
        tc.submit(state, seat, data)
    assert state == before_state
    assert data == before_data
    error = info.value
    assert error.code in ERROR_CODES
    if code is not None:
        assert error.code == code, (error.code, str(error))
    assert len(str(error).splitlines()) == 1 and len(str(error)) <= 500
    return error


def _choose_state() -> tc.MatchState:
    return tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))


# -- the safe path ------------------------------------------------------------------


@pytest.mark.parametrize("as_text", [False, True, "bytes"])
def test_submit_applies_a_seats_own_legal_move(as_text: object) -> None:
    """R-MATCH-5: the owner's own choice, as parsed JSON, text or UTF-8 bytes, is applied."""
    state = _choose_state()
    owner = state.owner
    assert owner is not None
    data: object = {"move": "choose", "seat": owner, "contract": "TRIX"}
    if as_text:
        data = json.dumps(data)
        if as_text == "bytes":
            data = data.encode()
    after = tc.submit(state, owner, data)
    assert after == tc.apply(state, tc.Choose(owner, tc.Contract.TRIX))


@pytest.mark.parametrize("ruleset", VIEW_RULESETS, ids=RULESET_IDS)
def test_submit_replays_whole_random_matches_of_every_ruleset(ruleset: tc.Ruleset) -> None:
    """R-SET-1: every player move of a random match, sent as JSON text by its own seat,
    leads to exactly the engine's state; every host move goes through apply."""
    states = redeal_heavy_match(ruleset, 5)
    for before, after in itertools.pairwise(states):
        move = after.history.last
        assert move is not None
        if isinstance(move, tc.Deal | tc.Timeout):
            continue
        text = json.dumps(tc.move_to_json(move))
        assert tc.submit(before, move.seat, text) == after


# -- hostile clients ------------------------------------------------------------------


def test_r_seat_1_a_move_for_another_seat_is_refused_in_every_phase() -> None:
    """R-SEAT-1: in every phase, any legal move sent from another seat's connection is
    refused as submit.wrong-seat, whoever is to act."""
    phases: set[tc.Phase] = set()
    for state in random_match(3)[:400]:
        before = copy.deepcopy(state)  # once per state: the copy is most of the cost
        for move in tc.legal_moves(state):
            for sender in range(4):
                if sender != move.seat:
                    _rejected(state, sender, tc.move_to_json(move), "submit.wrong-seat", before)
                    phases.add(state.phase)
    assert phases == {tc.Phase.CHOOSE, tc.Phase.DOUBLE, tc.Phase.COMPLEX, tc.Phase.TRIX}


def test_the_issue_12_hole_choose_for_the_owner_from_another_connection_is_refused() -> None:
    """R-MATCH-5: the hole of issue 12 — any connection choosing for the owner."""
    state = _choose_state()
    owner = state.owner
    assert owner is not None
    for sender in (s for s in range(4) if s != owner):
        error = _rejected(
            state, sender, {"move": "choose", "seat": owner, "contract": "TRIX"}, None
        )
        assert error.to_json()["code"] == "submit.wrong-seat"
        assert error.rule == "R-SEAT-1"


def test_spectators_never_move() -> None:
    """R-HID-1: a spectator's connection is refused whatever it sends, legal or not."""
    for state in random_match(4)[:200:7]:
        for move in tc.legal_moves(state)[:3]:
            _rejected(state, None, tc.move_to_json(move), "submit.spectator")
        _rejected(state, None, "not even JSON", "submit.spectator")


@pytest.mark.parametrize(
    "data",
    [
        {"move": "deal", "deck": [str(c) for c in tc.ALL_CARDS]},
        {"move": "timeout"},
        '{"move": "timeout"}',
        {"move": "deal", "deck": "junk"},
    ],
)
def test_host_only_moves_are_refused(data: object) -> None:
    """R-MATCH-2, R-MATCH-6: the deal and the timers are the host's, even when legal now."""
    for state in (tc.new_match(), _choose_state()):
        for seat in range(4):
            _rejected(state, seat, data, "submit.host-only")


def test_r_opt_8_a_redeal_for_another_seat_is_refused_and_its_own_is_not() -> None:
    """R-OPT-8: a bad hand's own redeal goes through; the same move from another seat does not."""
    ruleset = tc.CLASSIC.evolve(bad_hand_redeal=True)
    found = 0
    for state in (s for seed in range(4) for s in redeal_heavy_match(ruleset, seed)):
        for move in tc.legal_moves(state):
            if isinstance(move, tc.Redeal):
                for sender in range(4):
                    if sender != move.seat:
                        _rejected(state, sender, tc.move_to_json(move), "submit.wrong-seat")
                assert tc.submit(state, move.seat, tc.move_to_json(move)) == tc.apply(state, move)
                found += 1
    assert found


def test_replayed_moves_are_illegal_moves() -> None:
    """R-CX-2, R-TX-2, R-DBL-2: resending a move already applied is refused by the rules."""
    states = random_match(6)
    checked = 0
    for i in range(1, len(states)):
        move = states[i].history.last
        if isinstance(move, tc.Deal | tc.Timeout) or move is None:
            continue
        state = states[i]
        if tc.is_legal(state, move):
            continue  # e.g. a TRIX pass may be legal again later: not a replay attack
        error = _rejected(state, move.seat, tc.move_to_json(move), "illegal-move")
        assert isinstance(error, tc.IllegalMoveError) and error.rule
        checked += 1
    assert checked > 100


def test_moves_after_the_match_are_refused() -> None:
    """R-MATCH-8: once the match is over, every move of every seat is refused."""
    over = random_match(8)[-1]
    assert over.is_over
    for seat in range(4):
        for data in (
            {"move": "pass", "seat": seat},
            {"move": "play", "seat": seat, "card": "AS"},
            {"move": "choose", "seat": seat, "contract": "COMPLEX"},
            {"move": "double", "seat": seat, "cards": []},
        ):
            error = _rejected(over, seat, data, "illegal-move")
            assert error.rule is not None  # R-MATCH-8, or R-DBL-1 for a double


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ("", "submit.invalid-json"),
        ('{"move": "pass", "seat": 0', "submit.invalid-json"),
        ("NaN", "submit.invalid-json"),
        (b"\xff\xfe", "submit.invalid-json"),
        ('{"move": "pass", "seat": 0, "seat": 0}', "submit.duplicate-key"),
        ('{"move": "pass", "seat": 1, "seat": 0}', "submit.duplicate-key"),
        ("[" * 100_000 + "]" * 100_000, "submit.too-large"),
        (" " * (MAX_SUBMIT_LENGTH + 1) + "{}", "submit.too-large"),
        ("x" * 10_000_000, "submit.too-large"),
        ({"move": "pass", "seat": 0, "card": "AS"}, "submit.unknown-key"),
        ({"move": "play", "seat": 0}, "submit.missing-key"),
        ({"move": "fold", "seat": 0}, "submit.unknown-kind"),
        ({"seat": 0}, "submit.unknown-kind"),
        ([{"move": "pass", "seat": 0}], "submit.not-object"),
        ("42", "submit.not-object"),
        ({"move": "pass", "seat": "0"}, "submit.wrong-type"),
        ({"move": "pass", "seat": True}, "submit.wrong-type"),
        ({"move": "pass", "seat": 0.5}, "submit.wrong-type"),
        ({"move": "pass", "seat": 10**5000}, "submit.too-large"),
        ({"move": "play", "seat": 0, "card": "Q♤"}, "submit.wrong-type"),
        ({"move": "play", "seat": 0, "card": ["AS"]}, "submit.wrong-type"),
        ({"move": "double", "seat": 0, "cards": ["KH", "KH"]}, "submit.wrong-type"),
        ({"move": "choose", "seat": 0, "contract": "complex"}, "submit.wrong-type"),
        ({"move": "pass", "seat": 0, 7: "x"}, "submit.wrong-type"),
        ({"move": "play", "seat": 0, "card": "A" * 10_000_000}, "submit.too-large"),
    ],
)
def test_malformed_and_oversize_input_is_refused_by_name(data: object, code: str) -> None:
    """R-CARD-2, R-SEAT-1: malformed, oversize and duplicate-key input is refused with a
    code naming what was wrong, whatever the phase, the state unchanged."""
    for state in (tc.new_match(), _choose_state(), random_match(9, until=60)[-1]):
        error = _rejected(state, 0, data, code)
        assert set(error.to_json()) == {"code", "message", "rule", "index"}


def test_the_host_passing_a_bad_seat_is_refused() -> None:
    for seat in (-1, 4, "0", 1.0, True):
        _rejected(_choose_state(), seat, {"move": "pass", "seat": 0}, "submit.bad-seat")  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 50),
    step=st.integers(0, 300),
    sender=st.sampled_from([None, 0, 1, 2, 3]),
    data=st.one_of(
        st.text(max_size=200),
        st.binary(max_size=200),
        st.fixed_dictionaries(
            {"move": st.sampled_from(["play", "pass", "double", "choose", "redeal", "deal"])},
            optional={
                "seat": st.integers(-1, 4) | st.text(max_size=3),
                "card": st.sampled_from(["AS", "7H", "10♦", "Qſ", " QS", "1X"]),
                "cards": st.lists(st.sampled_from(["KH", "QS", "QD", "AS"]), max_size=4),
                "contract": st.sampled_from(["COMPLEX", "TRIX", "QUEENS", "x"]),
            },
        ),
    ),
)
def test_random_client_input_is_applied_exactly_or_refused_cleanly(
    seed: int, step: int, sender: int | None, data: object
) -> None:
    """Anything a client sends either is exactly its own legal move, applied, or is
    refused with a TrixError of a documented code; the state never changes."""
    states = random_match(seed, until=step)
    state = states[-1]
    frozen = copy.deepcopy(state)
    try:
        after = tc.submit(state, sender, data)
    except tc.TrixError as exc:
        assert exc.code in ERROR_CODES
        assert len(str(exc).splitlines()) == 1
    else:
        move = after.history.last
        assert move is not None and not isinstance(move, tc.Deal | tc.Timeout)
        assert move.seat == sender and move in tc.legal_moves(state, sender)
        assert after == tc.apply(state, move)
    assert state == frozen


# -- the clock ------------------------------------------------------------------------


def test_r_match_6_r_dbl_3_the_windows_time_out_with_the_hosts_timeout() -> None:
    """R-MATCH-6, R-DBL-3: the owner choosing and an asked seat in the window get Timeout;
    a seat that is not asked has no clock to run out."""
    state = _choose_state()
    assert tc.timeout_move(state, state.owner) == tc.Timeout()  # type: ignore[arg-type]
    state = tc.apply(state, tc.Timeout())
    assert state.phase is tc.Phase.DOUBLE
    for seat in state.to_act:
        assert tc.timeout_move(state, seat) == tc.Timeout()
    for seat in set(range(4)) - state.to_act:  # not asked: no clock runs for it
        with pytest.raises(tc.TrixError) as info:
            tc.timeout_move(state, seat)
        assert info.value.code == "timeout.no-move"
    chooser = _choose_state()
    for seat in set(range(4)) - chooser.to_act:
        with pytest.raises(tc.TrixError) as info:
            tc.timeout_move(chooser, seat)
        assert info.value.code == "timeout.no-move"


def test_r_tx_5_a_forced_move_is_the_timeout_move() -> None:
    """R-TX-5: a seat with one legal move gets it, whatever the policy."""

    class Never:
        def choose(
            self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
        ) -> tc.PlayerMove:
            raise AssertionError("a forced move needs no policy")

    found = 0
    for state in random_match(10):
        if state.phase in (tc.Phase.COMPLEX, tc.Phase.TRIX):
            seat = state.turn
            assert seat is not None
            forced = tc.forced_move(state, seat)
            if forced is not None:
                assert tc.timeout_move(state, seat) == forced
                assert tc.timeout_move(state, seat, Never()) == forced
                found += 1
    assert found > 10


def test_the_lowest_policy_plays_the_lowest_ranked_legal_card_by_hand() -> None:
    """R-CX-2: seat 0 leads COMPLEX holding 2S … with 2C, 2H among its cards: the lowest
    rank wins, ties broken in suit order ♠ ♥ ♦ ♣ (so 2S before 2H and 2C)."""
    from builders import deal_of, start_complex

    deal = deal_of([["7H", "2S", "2C", "AS"], ["2H"], ["2D"], []])
    state = start_complex(deal)
    assert state.turn == 0
    assert tc.timeout_move(state, 0) == tc.Play(0, "2S")
    state = tc.apply(state, tc.Play(0, "AS"))  # seat 1 must follow spades if it can
    move = tc.timeout_move(state, 1)
    legal = tc.legal_moves(state, 1)
    assert move in legal
    assert move == min(legal, key=lambda m: (m.card.rank, m.card.suit))  # type: ignore[union-attr]


def test_a_bot_policy_is_shown_the_view_and_is_deterministic() -> None:
    """R-HID-1: the policy bot sees only the seat's view and its plays; same state, same move."""
    seen: list[tc.View] = []

    class Last:
        def choose(
            self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
        ) -> tc.PlayerMove:
            seen.append(view)
            return legal[rng.randrange(len(legal))]

    state = next(
        s for s in random_match(11) if s.phase is tc.Phase.COMPLEX and len(tc.legal_moves(s)) > 3
    )
    seat = state.turn
    assert seat is not None
    first = tc.timeout_move(state, seat, Last())
    assert first == tc.timeout_move(state, seat, Last())
    assert seen[0] == tc.view(state, seat) and isinstance(first, tc.Play)


def test_a_bad_policy_and_a_seat_with_nothing_to_do_are_errors() -> None:
    state = next(s for s in random_match(12) if s.phase is tc.Phase.COMPLEX)
    seat = state.turn
    assert seat is not None
    with pytest.raises(tc.TrixError) as info:
        tc.timeout_move(state, seat, "highest")  # type: ignore[arg-type]
    assert info.value.code == "timeout.bad-policy"

    class Cheat:
        def choose(self, view: object, legal: object, rng: object) -> tc.PlayerMove:
            return tc.Pass(seat)  # type: ignore[arg-type]

    if len(tc.legal_moves(state, seat)) > 1:
        with pytest.raises(tc.TrixError) as info:
            tc.timeout_move(state, seat, Cheat())  # type: ignore[arg-type]
        assert info.value.code == "timeout.bad-policy"
    with pytest.raises(tc.TrixError) as info:
        tc.timeout_move(state, (seat + 1) % 4)
    assert info.value.code == "timeout.no-move"
    with pytest.raises(tc.TrixError) as info:
        tc.timeout_move(tc.new_match(), 0)
    assert info.value.code == "timeout.no-move"


@pytest.mark.parametrize("ruleset", VIEW_RULESETS, ids=RULESET_IDS)
def test_matches_run_on_timeouts_alone_stay_valid_records(ruleset: tc.Ruleset) -> None:
    """R-MATCH-6, R-DBL-3, R-TX-5, R-SET-1: a match where every clock runs out (each seat to
    act times out) finishes; its record replays to the same state under the ruleset."""
    rng = random.Random(ruleset.name)
    state = tc.new_match(ruleset)
    while not state.is_over:
        if state.phase is tc.Phase.DEAL:
            move: tc.Move = tc.Deal.shuffled(rng)
        else:
            seat = state.turn if state.turn is not None else min(state.to_act)
            move = tc.timeout_move(state, seat)
            assert isinstance(move, tc.Timeout | tc.Play | tc.Pass)
        state = tc.apply(state, move)
    record = tc.Record.of(state)
    assert tc.replay(tc.Record.from_json(json.loads(json.dumps(record.to_json())))) == state
    assert len(tc.score(state).deals) == ruleset.deals_per_match


def test_a_timeout_move_lapses_a_redeal_it_never_demands() -> None:
    """R-OPT-8: with a bad hand in TRIX, the seat's clock plays a card, never a Redeal."""
    ruleset = tc.CLASSIC.evolve(bad_hand_redeal=True)
    found = 0
    for state in redeal_heavy_match(ruleset, 3):
        for seat in state.to_act:
            if any(isinstance(m, tc.Redeal) for m in tc.legal_moves(state, seat)):
                if seat == state.turn:
                    assert not isinstance(tc.timeout_move(state, seat), tc.Redeal)
                else:
                    with pytest.raises(tc.TrixError):
                        tc.timeout_move(state, seat)
                found += 1
    assert found


def test_play_helper_still_matches_submit() -> None:
    """The builders' play() and submit agree on a hand-played opening (sanity of the fixture)."""
    state = _choose_state()
    owner = state.owner
    assert owner is not None
    assert play(state, tc.Choose(owner, "TRIX")) == tc.submit(
        state, owner, {"move": "choose", "seat": owner, "contract": "TRIX"}
    )
