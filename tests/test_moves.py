"""Moves and their record-format JSON form; the Deal move (R-MATCH-2)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import trixcomplex as tc
from trixcomplex.core.cards import ALL_CARDS, CardParseError, parse_card
from trixcomplex.core.moves import Contract, MoveFormatError, move_from_json, move_to_json

EVERY_KIND: list[tc.Move] = [
    tc.Deal.shuffled(random.Random(3)),
    tc.Deal(ALL_CARDS),
    tc.Choose(0, "COMPLEX"),
    tc.Choose(3, Contract.TRIX),
    tc.Double(1, ["KH", "QS"]),
    tc.Double(2, []),
    tc.Double(0, ["QD", "QC", "QH", "QS", "KH"]),
    tc.Play(2, "10♦"),
    tc.Play(3, "AS"),
    tc.Pass(1),
    tc.Timeout(),
]


@pytest.mark.parametrize("move", EVERY_KIND, ids=str)
def test_move_json_round_trip(move: tc.Move) -> None:
    obj = move_to_json(move)
    assert move_from_json(obj) == move
    assert move_from_json(json.loads(json.dumps(obj))) == move
    assert hash(move_from_json(obj)) == hash(move)


def test_move_to_json_uses_canonical_codes() -> None:
    assert move_to_json(tc.Play(2, "10♦")) == {"move": "play", "seat": 2, "card": "TD"}
    assert move_to_json(tc.Double(1, ["qs", "KH"])) == {
        "move": "double",
        "seat": 1,
        "cards": ["QS", "KH"],
    }
    assert move_to_json(tc.Choose(0, "TRIX")) == {"move": "choose", "seat": 0, "contract": "TRIX"}
    assert move_to_json(tc.Pass(3)) == {"move": "pass", "seat": 3}
    assert move_to_json(tc.Timeout()) == {"move": "timeout"}
    deck = move_to_json(tc.Deal(ALL_CARDS))["deck"]
    assert deck[:3] == ["2S", "3S", "4S"] and len(deck) == 52


@pytest.mark.parametrize(
    "obj",
    [
        None,
        [],
        "play",
        {},
        {"move": "jump"},
        {"move": 3},
        {"move": "play", "seat": 1},
        {"move": "play", "seat": 1, "card": "ZZ"},
        {"move": "play", "seat": 1, "card": 7},
        {"move": "play", "seat": 4, "card": "7H"},
        {"move": "play", "seat": "1", "card": "7H"},
        {"move": "play", "seat": True, "card": "7H"},
        {"move": "play", "seat": 1, "card": "7H", "extra": 1},
        {"move": "pass"},
        {"move": "pass", "seat": -1},
        {"move": "double", "seat": 1, "cards": "KH"},
        {"move": "double", "seat": 1, "cards": ["KH", "KH"]},
        {"move": "double", "seat": 1, "cards": [24]},
        {"move": "double", "seat": 1},
        {"move": "choose", "seat": 0, "contract": "complex"},
        {"move": "choose", "seat": 0, "contract": None},
        {"move": "deal", "deck": ["2S"] * 52},
        {"move": "deal", "deck": [str(c) for c in ALL_CARDS[:51]]},
        {"move": "deal", "deck": "2S3S"},
        {"move": "timeout", "seat": 0},
    ],
    ids=repr,
)
def test_malformed_move_json_is_rejected(obj: Any) -> None:
    with pytest.raises(MoveFormatError) as info:
        move_from_json(obj)
    assert isinstance(info.value, ValueError)
    assert str(info.value) and "\n" not in str(info.value)


def test_r_match_2_deal_validates_52_distinct_cards() -> None:
    with pytest.raises(ValueError, match="52 cards, not 51"):
        tc.Deal(ALL_CARDS[:51])
    with pytest.raises(ValueError, match="repeated: 2S"):
        tc.Deal((ALL_CARDS[0], *ALL_CARDS[:51]))
    with pytest.raises(CardParseError):
        tc.Deal(["XX", *ALL_CARDS[1:]])
    with pytest.raises(CardParseError):
        tc.Deal("2S" * 52)
    assert tc.Deal([str(c) for c in ALL_CARDS]) == tc.Deal(ALL_CARDS)


def test_r_match_2_deal_hands_card_i_to_seat_i_mod_4() -> None:
    deal = tc.Deal.shuffled(random.Random(11))
    for seat in range(4):
        assert deal.hand(seat) == tuple(deal.deck[i] for i in range(52) if i % 4 == seat)
    state = tc.apply(tc.new_match(), deal)
    for seat in range(4):
        assert set(state.hand(seat)) == set(deal.hand(seat))


def test_deal_shuffled_depends_only_on_the_rng() -> None:
    assert tc.Deal.shuffled(random.Random(5)) == tc.Deal.shuffled(random.Random(5))
    assert tc.Deal.shuffled(random.Random(5)) != tc.Deal.shuffled(random.Random(6))


def test_move_fields_are_validated() -> None:
    with pytest.raises(ValueError, match="seat"):
        tc.Play(4, "7H")
    with pytest.raises(CardParseError):
        tc.Play(0, "7X")
    with pytest.raises(ValueError):
        tc.Choose(0, "NONE")
    with pytest.raises(ValueError, match="twice"):
        tc.Double(0, ["QS", "qs"])
    assert tc.Play(0, "7h") == tc.Play(0, parse_card("7H")) == tc.Play(0, 18)


def test_moves_print_for_people() -> None:
    assert str(tc.Play(1, "5S")) == "seat 1 plays 5S"
    assert str(tc.Double(2, [])) == "seat 2 doubles nothing"
    assert str(tc.Double(2, ["KH", "QS"])) == "seat 2 doubles QS KH"
    assert str(tc.Pass(0)) == "seat 0 passes"
    assert str(tc.Choose(3, "TRIX")) == "seat 3 chooses TRIX"
    assert str(tc.Timeout()) == "timeout"


def test_r_match_2_shuffled_deal_equals_a_checked_deal_of_the_same_deck() -> None:
    """R-MATCH-2: Deal.shuffled skips the re-check but builds the same valid Deal."""
    deal = tc.Deal.shuffled(random.Random(11))
    checked = tc.Deal(list(deal.deck))
    assert deal == checked and hash(deal) == hash(checked)
    assert sorted(deal.deck) == list(tc.ALL_CARDS)


def test_legal_moves_rejects_a_seat_that_is_not_0_to_3() -> None:
    """R-SEAT-1: seats are 0..3; anything else is a programming error, not ``()``."""
    state = tc.new_match()
    for bad in (4, -1, 7):
        with pytest.raises(ValueError, match="seat"):
            tc.legal_moves(state, bad)
        with pytest.raises(ValueError, match="seat"):
            tc.forced_move(state, bad)
