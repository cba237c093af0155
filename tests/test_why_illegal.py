"""``tc.why_illegal``: the engine's own reason a seat's move is refused, safe to show that seat.

Checks R-CX-2 (the follow-suit message), R-SEAT-1 (a move for another seat)
and R-HID-1 / R-HID-2 by indistinguishability: for every move a seat could
try, the answer is the same in every world the seat cannot tell apart from
the real one, so the explanation reveals nothing of the hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import trixcomplex as tc


def _states(ruleset: tc.Ruleset, seed: int, count: int = 12) -> Iterator[tc.MatchState]:
    """``count`` states of one random match, from every phase a seat moves in."""
    rng = random.Random(seed)
    state = tc.new_match(ruleset)
    seen = 0
    while seen < count and not state.is_over:
        if state.phase is tc.Phase.DEAL:
            state = tc.apply(state, tc.Deal.shuffled(rng))
            continue
        if rng.random() < 0.15:
            seen += 1
            yield state
        state = tc.apply(state, rng.choice(tc.legal_moves(state)))


def _tries(state: tc.MatchState, seat: int) -> list[tc.PlayerMove]:
    """Every move ``seat`` could try: each card, a pass, a redeal, each contract, doubles."""
    moves: list[tc.PlayerMove] = [tc.Play(seat, card) for card in tc.ALL_CARDS]
    moves += [tc.Pass(seat), tc.Redeal(seat), tc.Double(seat)]
    moves += [tc.Choose(seat, c) for c in tc.Contract if c.parts == (c,)]
    moves += [tc.Double(seat, {tc.parse_card(c)}) for c in ("QS", "QH", "QD", "QC", "KH")]
    return moves


def test_r_cx_2_follow_suit_is_explained_in_the_engines_words() -> None:
    """R-CX-2: the explanation is the IllegalMoveError's reason and clause."""
    for state in _states(tc.PARTNERSHIP, 3, 60):
        if state.phase is not tc.Phase.COMPLEX or not state.deal.trick:  # type: ignore[union-attr]
            continue
        seat = state.turn
        assert seat is not None
        led = state.deal.trick[0].suit  # type: ignore[union-attr]
        others = [c for c in state.hand(seat) if c.suit is not led]
        if not others or all(c.suit is not led for c in state.hand(seat)):
            continue
        move = tc.Play(seat, others[0])
        with pytest.raises(tc.IllegalMoveError) as raised:
            tc.apply(state, move)
        reason = tc.why_illegal(state, seat, move)
        assert reason == f"{raised.value.reason} ({raised.value.rule})"
        assert reason == f"seat {seat} must follow suit {led.symbol} (R-CX-2)"
        return
    pytest.fail("no follow-suit position in the sample")


@pytest.mark.parametrize("ruleset", [tc.PARTNERSHIP, tc.CLASSIC, tc.INDIVIDUAL_COMPLEX])
def test_why_illegal_agrees_with_submit(ruleset: tc.Ruleset) -> None:
    """``None`` exactly when submit accepts the move; else submit's refusal (R-SEAT-1 included)."""
    for state in _states(ruleset, 11):
        for seat in range(4):
            for move in _tries(state, seat) + [tc.Pass((seat + 1) % 4)]:
                try:
                    tc.submit(state, seat, tc.move_to_json(move))
                except tc.TrixError as exc:
                    reason = tc.why_illegal(state, seat, move)
                    assert reason is not None and exc.rule is not None and exc.rule in reason
                else:
                    assert tc.why_illegal(state, seat, move) is None


@pytest.mark.parametrize("ruleset", [tc.PARTNERSHIP, tc.CLASSIC, tc.CLASSIC_PARTNERSHIP])
def test_r_hid_1_the_explanation_is_the_same_in_every_world_the_seat_cannot_tell_apart(
    ruleset: tc.Ruleset,
) -> None:
    """R-HID-1: for a seat's own moves the answer depends only on the seat's view."""
    rng = random.Random(29)
    compared = 0
    for state in _states(ruleset, 5):
        for seat in range(4):
            seen = tc.view(state, seat)
            for _ in range(3):
                world = tc.sample_world(seen, rng)
                assert tc.view(world, seat) == seen
                for move in _tries(state, seat):
                    here = tc.why_illegal(state, seat, move)
                    there = tc.why_illegal(world, seat, move)
                    assert here == there, (move, here, there)
                    compared += 1
    assert compared > 1000


def test_r_hid_1_the_servers_update_explains_only_the_seats_own_cards() -> None:
    """The update's ``illegal`` field: each card of the seat's hand it may not play, with
    tc.why_illegal's words; the same in every world the seat cannot tell apart (R-HID-1);
    none for a spectator."""
    pytest.importorskip("starlette")
    from test_server_hidden import _message as message

    rng = random.Random(7)
    explained = 0
    for state in _states(tc.PARTNERSHIP, 17):
        assert "illegal" not in message(state, None)
        for seat in range(4):
            illegal = message(state, seat)["illegal"]
            assert isinstance(illegal, dict)
            for card in state.hand(seat):
                reason = tc.why_illegal(state, seat, tc.Play(seat, card))
                assert illegal.get(str(card)) == reason
            assert set(illegal) <= {str(card) for card in state.hand(seat)}
            world = tc.sample_world(tc.view(state, seat), rng)
            assert message(world, seat)["illegal"] == illegal
            explained += len(illegal)
    assert explained
