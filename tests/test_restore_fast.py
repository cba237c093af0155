"""Restoring a saved state fast, with the same tamper detection (issue 16, R-MATCH-2).

``from_json(MatchState, data)`` reads data exactly as ``to_json`` wrote it the
fast way (``state_json._restored``: canonical moves by table lookup, one replay,
one type-exact comparison of the saved fields with the rebuilt state's JSON),
and everything else the checked way (``state_json._load_state_checked``).  These
tests hold the two ways to the same answers and show that a tampered field or
move, deep or shallow, is still refused.
"""

from __future__ import annotations

import enum
import json
import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import VIEW_RULESETS, random_match, random_match_of
from trixcomplex.core.moves import canonical_move as _canonical_move
from trixcomplex.io import state_json
from trixcomplex.io.records import _read_move


def _saved(state: tc.MatchState) -> dict[str, Any]:
    data = json.loads(json.dumps(tc.to_json(state)))
    assert isinstance(data, dict)
    return data


def _late_classic() -> tc.MatchState:
    """A classic match in its last deals: a long history (hundreds of moves)."""
    states = random_match(16, ruleset=tc.CLASSIC)
    return next(s for s in reversed(states) if s.phase.plays_cards and s.deal_number >= 18)


def _refused(data: dict[str, Any]) -> tc.StateFormatError:
    with pytest.raises(tc.StateFormatError) as info:
        tc.from_json(tc.MatchState, data)
    return info.value


# -- the fast way and the checked way agree ------------------------------------------


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(VIEW_RULESETS), st.integers(0, 2**32 - 1), st.data())
def test_r_match_2_both_ways_restore_the_same_state(
    ruleset: tc.Ruleset, seed: int, data: st.DataObject
) -> None:
    """Over random matches of every ruleset (timeouts, redeals included): the fast way
    takes what to_json writes and gives the state back, the same as the checked way."""
    states = random_match_of(ruleset, seed, bad_hands=ruleset.bad_hand_redeal)
    state = data.draw(st.sampled_from(states), label="state")
    saved = _saved(state)
    fast = state_json._restored(saved)
    assert fast is not None, "to_json's own output must take the fast way"
    assert fast == state == state_json._load_state_checked(saved)
    assert tc.to_json(fast) == tc.to_json(state)


def test_what_to_json_writes_never_takes_the_checked_way(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _late_classic()

    def checked(data: object) -> tc.MatchState:
        raise AssertionError("the checked way was taken")

    monkeypatch.setattr(state_json, "_load_state_checked", checked)
    assert tc.from_json(tc.MatchState, _saved(state)) == state


def test_keys_in_another_order_still_load() -> None:
    """A store that reorders object keys (PostgreSQL jsonb sorts them) changes nothing."""
    state = _late_classic()

    def reorder(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: reorder(value[k]) for k in sorted(value, key=lambda k: (len(k), k))}
        if isinstance(value, list):
            return [reorder(v) for v in value]
        return value

    data = reorder(_saved(state))
    assert list(data["state"]) != list(tc.to_json(state)["state"])
    assert state_json._restored(data) == state
    assert tc.from_json(tc.MatchState, data) == state


def test_other_card_spellings_still_load_the_checked_way() -> None:
    """R-CARD-2: ``10D`` and ``td`` are cards too; they are read the checked way."""
    state = _late_classic()
    data = _saved(state)
    for move in data["moves"]:
        if move["move"] == "play" and move["card"][0] == "T":
            move["card"] = "10" + move["card"][1]
    data["state"]["hands"] = [[c.lower() for c in hand] for hand in data["state"]["hands"]]
    assert state_json._restored(data) is None
    assert tc.from_json(tc.MatchState, data) == state


def test_version_1_is_read_the_checked_way() -> None:
    """A version 1 file is never taken by the fast way (its fields differ)."""
    data = _saved(_late_classic())
    data["version"] = 1
    assert state_json._restored(data) is None


# -- tampering is still refused ------------------------------------------------------


def _first_revoke(state: tc.MatchState) -> tuple[int, tc.Card]:
    """The first play of ``state``'s history that another card of the seat's hand
    would make a revoke (not following suit, R-CX-2): its index and that card."""
    replay = tc.new_match(state.ruleset)
    for index, move in enumerate(state.history.moves()):
        deal = replay.trick_deal
        if replay.phase is tc.Phase.TRICKS and deal is not None and deal.trick:
            assert type(move) is tc.Play
            hand = replay.hand(move.seat)
            led = deal.trick[0].suit
            off_suit = [c for c in hand if c.suit is not led]
            if off_suit and any(c.suit is led for c in hand):
                return index, off_suit[0]
        replay = tc.apply(replay, move)
    raise AssertionError("no follow-suit choice in the history")


def test_r_cx_2_a_card_changed_deep_in_the_first_deal_is_refused() -> None:
    """A play in deal 1 of a long history swapped for another card of the same seat's
    hand that breaks follow-suit: refused, naming that move and the rule."""
    state = _late_classic()
    index, card = _first_revoke(state)
    assert index < len(state.history) // 5  # early: every later move is still to replay
    data = _saved(state)
    data["moves"][index]["card"] = str(card)
    error = _refused(data)
    assert (error.index, error.rule, error.code) == (index, "R-CX-2", "state.illegal-move")


@pytest.mark.parametrize(
    ("where", "field"),
    [
        (("scores", 0), "scores"),
        (("results", 0, "points", 1), "results"),
        (("results", 2, "seats", 3, "tricks"), "results"),
        (("results", 1, "owner"), "results"),
        (("deal_number",), "deal_number"),
    ],
)
def test_a_number_changed_anywhere_is_refused(where: tuple[Any, ...], field: str) -> None:
    data = _saved(_late_classic())
    target = data["state"]
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] += 1
    error = _refused(data)
    assert error.field == field and error.code == "state.mismatch"


def test_a_card_moved_between_hands_is_refused() -> None:
    data = _saved(_late_classic())
    hands = data["state"]["hands"]
    donor = next(i for i in range(4) if hands[i])
    hands[(donor + 1) % 4].append(hands[donor].pop())
    assert _refused(data).field == "hands"


def test_r_match_2_a_history_cut_short_or_lengthened_is_refused() -> None:
    """The saved fields belong to the whole history: one move fewer, or one more, and
    they no longer match (or the extra move is illegal)."""
    state = _late_classic()
    data = _saved(state)
    data["moves"] = data["moves"][:-1]
    assert _refused(data).code == "state.mismatch"
    data = _saved(state)
    data["moves"].insert(len(data["moves"]) // 2, data["moves"][len(data["moves"]) // 2])
    assert _refused(data).code in ("state.illegal-move", "state.mismatch")


@pytest.mark.parametrize(
    ("where", "other", "words"),
    [
        (("results", 0, "number"), True, "expected an integer"),  # deal 1: True == 1
        (("results", 0, "points", 0), float, "expected an integer"),
        (("results", 0, "seats", 0, "king_of_hearts"), int, "expected true or false"),
        (("scores",), tuple, "a tuple, which is not JSON data"),
    ],
)
def test_an_equal_value_of_another_type_is_refused(
    where: tuple[Any, ...], other: Any, words: str
) -> None:
    """``True == 1`` and ``1.0 == 1`` in Python, not in a saved state: the fast way
    compares types too, and the checked way names the fault."""
    data = _saved(_late_classic())
    target = data["state"]
    for key in where[:-1]:
        target = target[key]
    old = target[where[-1]]
    target[where[-1]] = other if other is True else other(old)
    assert type(target[where[-1]]) is not type(old)
    assert target[where[-1]] == old or other is tuple  # (1,) != [1] in Python already
    assert state_json._restored(data) is None
    assert words in str(_refused(data))


class _Number(enum.IntEnum):
    ONE = 1


def test_a_subclass_of_int_is_refused() -> None:
    """A Python caller's IntEnum equal to a saved number is not JSON data."""
    data = _saved(_late_classic())
    number = _Number.ONE
    assert data["state"]["results"][0]["number"] == number
    data["state"]["results"][0]["number"] = number
    assert state_json._restored(data) is None
    _refused(data)


# -- reading canonical moves ---------------------------------------------------------


def test_r_card_2_a_canonical_move_reads_as_the_strict_reader_reads_it() -> None:
    """Every canonical play, pass and choice of every seat, and a deal, read by table
    lookup, equals what the strict converter reads; plays and passes are the engine's
    interned ones."""
    moves: list[tc.Move] = [tc.Deal.shuffled(random.Random(4))]
    for seat in range(4):
        moves += [tc.Play(seat, card) for card in tc.Deal.shuffled(random.Random(0)).deck]
        moves += [tc.Pass(seat), *(tc.Choose(seat, c) for c in tc.Contract if not c.is_combined)]
        moves += [tc.Double(seat), tc.Double(seat, ["KH"]), tc.Double(seat, ["QS", "KH", "QD"])]
        moves += [tc.Redeal(seat), tc.Timeout()]
    for move in moves:
        raw = tc.move_to_json(move)
        assert _canonical_move(raw) == move == tc.move_from_json(raw)
    playing = next(s for s in random_match(3) if s.phase.plays_cards)
    for legal in tc.legal_moves(playing):
        assert _canonical_move(tc.move_to_json(legal)) is legal


@pytest.mark.parametrize(
    "raw",
    [
        {"move": "play", "seat": True, "card": "TD"},
        {"move": "play", "seat": 1.0, "card": "TD"},
        {"move": "play", "seat": 1, "card": "10D"},
        {"move": "play", "seat": 1, "card": "TD", "extra": 0},
        {"move": "pass", "seat": 4},
        {"move": "pass", "seat": 0, "card": "TD"},
        {"move": "choose", "seat": 0, "contract": ["QUEENS", "DIAMONDS"]},
        {"move": "deal", "deck": ["AS"] * 52},
        {"move": "deal", "deck": [str(c) for c in tc.Deal.shuffled(random.Random(1)).deck][:51]},
        {"move": "deal", "deck": [[]] * 52},
        ["play", 1, "TD"],
        {"move": "double", "seat": 4, "cards": []},
        {"move": "double", "seat": 0, "cards": ["KH", "KH"]},
        {"move": "double", "seat": 0, "cards": ["kh"]},
        {"move": "double", "seat": 0, "cards": [["KH"]]},
        {"move": "double", "seat": 0, "cards": "KH"},
        {"move": "timeout", "seat": 0},
        {"move": "redeal", "seat": 1.0},
        {"move": "redeal"},
    ],
)
def test_anything_not_canonical_is_left_to_the_strict_reader(raw: object) -> None:
    assert _canonical_move(raw) is None


def test_r_dbl_2_a_double_reads_the_same_in_any_card_order() -> None:
    """Record format: a double's cards are a set; read by table or not, the same move."""
    forward = {"move": "double", "seat": 1, "cards": ["QS", "KH"]}
    backward = {"move": "double", "seat": 1, "cards": ["KH", "QS"]}
    assert _canonical_move(forward) == _canonical_move(backward) == tc.Double(1, ["KH", "QS"])
    assert _canonical_move(forward) == tc.move_from_json(backward)


def test_a_deck_naming_a_card_twice_is_still_a_bad_deck() -> None:
    """R-MATCH-2: the table lookup does not let a repeated card through."""
    deck = [str(c) for c in tc.Deal.shuffled(random.Random(1)).deck]
    deck[5] = deck[6]
    with pytest.raises(tc.RecordError) as info:
        _read_move(0, {"move": "deal", "deck": deck})
    assert info.value.rule == "R-MATCH-2"


# -- writing: the typed hooks keep the value's own type --------------------------------


@attrs.frozen
class _Loose:
    """A caller's record holding a card in an ``int`` field and a card among ints."""

    number: int
    numbers: tuple[int, ...]
    pairs: tuple[_Pair, ...]


@attrs.frozen
class _Pair:
    a: int
    b: int


@attrs.frozen
class _PairPlus(_Pair):
    c: int = 0


def test_a_value_of_another_type_than_its_field_is_written_by_its_own_type() -> None:
    """to_json writes a card as its code even in a field declared ``int``, and a
    subclass's record by its own hook (the fast hooks of declared types fall back)."""
    card = tc.Card(12)  # AS
    loose = _Loose(card, (1, card), (_Pair(1, 2), _PairPlus(3, card, 4)))
    assert json.dumps(tc.to_json(loose)) == json.dumps(
        {
            "number": "AS",
            "numbers": [1, "AS"],
            "pairs": [{"a": 1, "b": 2}, {"a": 3, "b": "AS", "c": 4}],
        }
    )


def test_r_cx_2_an_illegal_move_after_another_spelling_names_its_index() -> None:
    """Canonical moves are looked up all at once, the rest read one by one from the
    first other spelling on: an illegal move after it still names its own index."""
    state = _late_classic()
    index, card = _first_revoke(state)
    data = tc.Record.of(state).to_json()
    first_play = next(i for i, m in enumerate(data["moves"]) if m["move"] == "play")
    assert first_play < index
    data["moves"][first_play]["card"] = data["moves"][first_play]["card"].lower()
    assert tc.replay_json(data) == state  # another spelling, the same match
    data["moves"][index]["card"] = str(card)
    with pytest.raises(tc.RecordError) as info:
        tc.replay_json(data)
    assert (info.value.index, info.value.rule) == (index, "R-CX-2")
    assert info.value.move == data["moves"][index]
