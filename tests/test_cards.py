"""Cards, ranks and their text form (R-CARD-1, R-CARD-2), seats and teams (R-SEAT-1, R-SEAT-2)."""

from __future__ import annotations

import pytest

import trixcomplex as tc
from trixcomplex.core.cards import (
    ALL_CARDS,
    ALL_MASK,
    Card,
    CardParseError,
    Rank,
    Suit,
    card_count,
    cards_of,
    mask_of,
    parse_card,
    suit_mask,
)
from trixcomplex.core.rules import trick_winner
from trixcomplex.core.seats import SEATS, TEAMS, check_seat, next_seat, partner, team_of


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(c) for c in text.split())


# -- R-CARD-1 -----------------------------------------------------------------


def test_r_card_1_one_deck_of_52_distinct_cards() -> None:
    assert len(ALL_CARDS) == 52
    assert len({str(c) for c in ALL_CARDS}) == 52
    assert mask_of(ALL_CARDS) == ALL_MASK
    assert card_count(ALL_MASK) == 52
    assert {(c.rank, c.suit) for c in ALL_CARDS} == {(r, s) for r in Rank for s in Suit}


def test_r_card_1_ranks_ace_high_down_to_two() -> None:
    order = [r.letter for r in sorted(Rank, reverse=True)]
    assert order == ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"]
    assert parse_card("AS") > parse_card("KS") > parse_card("TS") > parse_card("2S")


def test_r_card_1_no_trump_an_offsuit_ace_never_wins() -> None:
    """R-CARD-1 / R-CX-3: no suit is trump, whatever the led suit."""
    for led in Suit:
        low = Card.of(Rank.TWO, led)
        aces = [Card.of(Rank.ACE, s) for s in Suit if s != led]
        assert trick_winner(3, (low, *aces)) == 3


def test_r_card_1_card_is_an_interned_int() -> None:
    card = parse_card("TD")
    assert card == 2 * 13 + 8
    assert card is Card(34) is Card.of(Rank.TEN, Suit.DIAMONDS) is ALL_CARDS[34]
    assert card.mask == 1 << 34
    with pytest.raises(ValueError, match="52"):
        Card(52)
    with pytest.raises(ValueError):
        Card.of(1, 0)


def test_r_card_1_suit_masks_partition_the_deck() -> None:
    masks = [suit_mask(s) for s in Suit]
    assert sum(masks) == ALL_MASK
    assert all(card_count(m) == 13 for m in masks)
    assert [str(c) for c in cards_of(suit_mask(Suit.HEARTS))][:2] == ["2H", "3H"]


# -- R-CARD-2 -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("7H", "7H"),
        ("TD", "TD"),
        ("QS", "QS"),
        ("AC", "AC"),
        ("2S", "2S"),
        ("10D", "TD"),
        ("10♥", "TH"),
        ("q♦", "QD"),
        ("td", "TD"),
        ("kh", "KH"),
        ("As", "AS"),
        ("J♣", "JC"),
        ("9♠", "9S"),
        ("10h", "TH"),
    ],
)
def test_r_card_2_parse_card_accepts_the_text_forms(text: str, code: str) -> None:
    card = parse_card(text)
    assert str(card) == code
    assert parse_card(str(card)) is card


def test_r_card_2_every_card_round_trips_through_its_code() -> None:
    for card in ALL_CARDS:
        assert parse_card(str(card)) is card
        assert parse_card(str(card).lower()) is card
        assert parse_card(card.symbol) is card


@pytest.mark.parametrize(
    "junk", ["", "H", "1H", "11H", "XH", "7X", "7HH", "KING", "0S", "10", "T", "♥7", "7 H"]
)
def test_r_card_2_junk_is_rejected_naming_the_input(junk: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_card(junk)
    assert isinstance(info.value, ValueError)
    assert repr(junk) in str(info.value)
    assert "\n" not in str(info.value)


def test_r_card_2_non_string_is_rejected() -> None:
    with pytest.raises(CardParseError, match="string"):
        parse_card(7)  # type: ignore[arg-type]


# -- R-SEAT-1, R-SEAT-2 -------------------------------------------------------


def test_r_seat_1_four_seats_counter_clockwise() -> None:
    assert SEATS == (0, 1, 2, 3)
    assert [next_seat(s) for s in SEATS] == [1, 2, 3, 0]
    assert tc.next_seat(3) == 0
    for bad in (-1, 4, "1", 1.0, True):
        with pytest.raises(ValueError, match="seat"):
            check_seat(bad)


def test_r_seat_2_partners_sit_opposite() -> None:
    assert [partner(s) for s in SEATS] == [2, 3, 0, 1]
    assert [team_of(s) for s in SEATS] == [0, 1, 0, 1]
    assert TEAMS == ((0, 2), (1, 3))
    assert all(team_of(s) == team_of(tc.partner(s)) for s in SEATS)
