"""What the text and SVG pictures share: the cards asked for, checked and sorted
by suit, and the words that describe a view's table (headline, status, seat notes).

>>> suits = _by_suit(_cards("7S QH AS", "hand"), high_first=True)
>>> [" ".join(c.symbol for c in suit) for suit in suits]
['A♠ 7♠', 'Q♥', '', '']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, TypeAlias

from ...core.cards import Card, Suit, as_card, cards_of
from ...core.catalog import DEFAULT_LOCALE, N_, signed, translate
from ...core.engine import MatchResult, Phase
from ...core.rulesets import Ruleset
from ..scoresheet import contract_name

if TYPE_CHECKING:
    from ...knowledge.views import View

__all__ = ["PLACES", "CardsLike", "position"]

CardsLike: TypeAlias = int | str | Iterable[Card | str]
"""Cards to draw (:data:`trixcomplex.io.render.CardsLike`)."""


# -- where each seat sits ---------------------------------------------------------

PLACES = ("bottom", "right", "top", "left")
"""The four places round the table, from the viewer's own place on."""


def position(seat: int, viewer: int | None) -> str:
    """Where ``seat`` sits on a picture of the table drawn for ``viewer``: one of
    :data:`PLACES`.  The one layout decision the pictures and the server's page share.

    The viewer sits at the bottom (the spectator, ``None``, sees seat 0 there).
    The turn passes counter-clockwise (R-SEAT-1), so the seat that plays after
    the viewer sits on its right, its partner opposite, the seat before it on
    its left: a trick is drawn going round bottom, right, top, left.

    >>> [position(s, 0) for s in range(4)]
    ['bottom', 'right', 'top', 'left']
    >>> position(1, 2), position(3, 2), position(0, None)
    ('left', 'right', 'bottom')
    """
    _seat(seat, "seat")
    bottom = 0 if viewer is None else _seat(viewer, "viewer")
    return PLACES[(seat - bottom) % 4]


# -- input --------------------------------------------------------------------


def _cards(cards: CardsLike, what: str, *, ordered: bool = False) -> tuple[Card, ...]:
    """The cards named by ``cards``; duplicates are an error."""
    if isinstance(cards, Card):
        raise TypeError(f"{what}: expected several cards, not the single card {cards}")
    if isinstance(cards, bool):
        raise TypeError(f"{what}: expected cards, not {cards!r}")
    if isinstance(cards, int):
        if not 0 <= cards < 1 << 52:
            raise ValueError(f"{what}: a card set is a 52-bit int, not {cards!r:.40}")
        if ordered:
            raise TypeError(f"{what}: the cards are in play order, so give a sequence, not a set")
        return cards_of(cards)
    if isinstance(cards, str):
        cards = cards.split()
    try:
        items = list(cards)
    except TypeError:
        raise TypeError(f"{what}: expected cards, not {cards!r:.40}") from None
    out = tuple(as_card(c) for c in items)
    if len(set(out)) != len(out):
        twice = sorted({c for c in out if out.count(c) > 1})
        raise ValueError(f"{what}: the card {twice[0]} is named twice")
    return out


def _seat(value: object, what: str) -> int:
    if type(value) is not int or not 0 <= value <= 3:
        raise ValueError(f"{what} must be a seat number 0..3, not {value!r:.40}")
    return value


def _rank_label(card: Card) -> str:
    """``10`` for the ten, else the rank letter (for people, not files)."""
    return card.symbol[:-1]


def _by_suit(cards: Iterable[Card], *, high_first: bool) -> list[list[Card]]:
    suits: list[list[Card]] = [[], [], [], []]
    for card in sorted(cards, reverse=high_first):
        suits[card.suit].append(card)
    return suits


def _check_table(table: tuple[Card, ...]) -> int:
    """The card set of a TRIX table; ``ValueError`` if a row is not a run through its Jack."""
    mask = 0
    for card in table:
        mask |= 1 << card
    for suit in Suit:
        row = mask >> (13 * suit) & 0x1FFF
        if not row:
            continue
        low = row & -row
        run = (row + low) & row  # zero iff the bits are one contiguous run
        if run or not row >> 9 & 1:
            shown = " ".join(_rank_label(c) for c in cards_of(row << (13 * suit)))
            raise ValueError(
                f"not a TRIX table: the {suit.symbol} row {shown} is not a run through its Jack"
                " (R-TX-2)"
            )
    return mask


def _trick(cards: CardsLike, leader: int) -> tuple[Card, ...]:
    _seat(leader, "leader")
    played = _cards(cards, "trick", ordered=True)
    if len(played) > 4:
        raise ValueError(f"trick: a trick has at most 4 cards, not {len(played)}")
    return played


# -- the whole table, from a view -----------------------------------------------

_PLACES = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"))


def _place(index: int, locale: str = DEFAULT_LOCALE) -> str:
    """The finishing place ``index`` (0 for 1st) in words."""
    return translate(_PLACES[index], locale)


def _seat_name(seat: int, locale: str = DEFAULT_LOCALE) -> str:
    return translate("seat {seat}", locale, seat=seat)


def _who(view: View, locale: str = DEFAULT_LOCALE) -> str:
    if view.seat is None:
        return translate("the spectator's view", locale)
    return translate("seat {seat}'s view", locale, seat=view.seat)


def _ruleset(view: View) -> Ruleset:
    """The game the view is of (R-SET-1)."""
    return view.ruleset


def _deals_per_match(view: View) -> int:
    """The match length of the view's ruleset (8 in the partnership game)."""
    return _ruleset(view).deals_per_match


def _headline(view: View, locale: str = DEFAULT_LOCALE) -> str:
    if view.deal_number == 0:
        return translate("A new match, waiting for the first deal", locale)
    if view.phase is Phase.OVER:
        return translate("The match is over: {deals} deals played", locale, deals=view.deal_number)
    deals = _deals_per_match(view)
    if view.phase is Phase.DEAL:
        return translate("Between deals: {played} of {deals} played", locale,
                         played=view.deal_number, deals=deals)  # fmt: skip
    contract = (
        contract_name(view.contract, locale)
        if view.contract is not None
        else translate("contract to choose", locale)
    )
    return translate(
        "Deal {number} of {deals} · Kingdom {kingdom} · {contract} · owner seat {owner}", locale,
        number=view.deal_number, deals=deals, kingdom=view.kingdom, contract=contract,
        owner=view.owner,
    )  # fmt: skip


def _status(view: View, locale: str = DEFAULT_LOCALE) -> str:
    """What the table waits for, in words (public facts only, R-HID-2)."""
    phase = view.phase
    if phase is Phase.OVER:
        return translate("Match over: {result}", locale, result=_result(view, locale))
    if phase is Phase.DEAL:
        return translate("waiting for deal {number}", locale, number=view.deal_number + 1)
    if phase is Phase.CHOOSE:
        return translate("seat {seat} chooses the contract", locale, seat=view.turn)
    if phase is Phase.DOUBLE:
        return translate("the doubling window is open", locale)
    return translate("seat {seat} to play", locale, seat=view.turn)


def _result(view: View, locale: str = DEFAULT_LOCALE) -> str:
    """Who won a finished match, in words (R-MATCH-8, R-IND-1)."""
    result = view.score.result
    if result is MatchResult.TEAM0:
        return translate("team 0 (seats 0, 2) wins", locale)
    if result is MatchResult.TEAM1:
        return translate("team 1 (seats 1, 3) wins", locale)
    if result is MatchResult.DRAW:
        return translate("a draw", locale)
    seats = view.score.winners
    if len(seats) == 1:  # R-IND-1, R-CL-1: an individual game
        return translate("seat {seat} wins", locale, seat=seats[0])
    return translate("seats {seats} share the win", locale,
                     seats=translate(", ", locale).join(str(s) for s in seats))  # fmt: skip


def _seat_notes(view: View, seat: int, locale: str = DEFAULT_LOCALE) -> str:
    notes = [translate("{count} cards", locale, count=view.hand_sizes[seat])]
    if view.phase.plays_tricks and view.points[seat]:
        notes.append(translate("{points} this deal", locale,
                               points=signed(view.points[seat], locale)))  # fmt: skip
    if seat in view.finishing_order:
        notes.append(_place(view.finishing_order.index(seat), locale))
    if view.shown_twos[seat]:  # R-OPT-7: public once shown
        twos = " ".join(c.symbol for c in view.shown_twos[seat])
        notes.append(translate("2s shown {cards}", locale, cards=twos))
    return translate(", ", locale).join(notes)
