"""The pictures in SVG, for browsers and notebooks: hands, tricks, TRIX rows, the table.

Every document is self-contained and well-formed: the suit signs are drawn
as paths (no fonts or images are fetched), ♥ and ♦ in red, ♠ and ♣ in black.

>>> hand_svg("AS").startswith("<svg")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ...core.cards import ALL_CARDS, Card, Suit, cards_of
from ...core.catalog import DEFAULT_LOCALE, check_locale, translate
from ...core.engine import Phase
from ...core.moves import Play
from ...core.rules import TRICKS_PER_DEAL, trick_winner
from ...core.rules import trix_playable as playable
from .layout import (
    CardsLike,
    _by_suit,
    _cards,
    _check_table,
    _headline,
    _rank_label,
    _result,
    _ruleset,
    _seat,
    _seat_name,
    _seat_notes,
    _status,
    _trick,
    _who,
    position,
)

if TYPE_CHECKING:
    from ...knowledge.views import View

__all__ = ["hand_svg", "rows_svg", "table_svg", "trick_svg"]

CARD_W = 40
CARD_H = 56
_RED = "#c8102e"
_BLACK = "#1a1a1a"
_FELT = "#1e6b3c"
_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

# Suit signs as paths in a 100 x 100 box, so no font needs to have them.
_SUIT_PATHS = (
    # spade
    "M50 4C50 4 6 38 6 61C6 77 18 86 30 86C39 86 45 81 48 75L43 97H57L52 75"
    "C55 81 61 86 70 86C82 86 94 77 94 61C94 38 50 4 50 4Z",
    # heart
    "M50 94C50 94 6 62 6 32C6 14 19 5 31 5C42 5 49 13 50 22C51 13 58 5 69 5"
    "C81 5 94 14 94 32C94 62 50 94 50 94Z",
    # diamond
    "M50 2L88 50L50 98L12 50Z",
    # club
    "M50 8A20 20 0 1 1 49.9 8ZM28 42A20 20 0 1 1 27.9 42ZM72 42A20 20 0 1 1 71.9 42Z"
    "M46 56L40 97H60L54 56Z",
)


def _colour(suit: int) -> str:
    return _RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else _BLACK


def _suit_sign(suit: int, x: float, y: float, size: float) -> str:
    return (
        f'<path transform="translate({x:g} {y:g}) scale({size / 100:g})" '
        f'd="{_SUIT_PATHS[suit]}" fill="{_colour(suit)}"/>'
    )


def escape(text: str) -> str:
    """``text`` with ``&``, ``<`` and ``>`` escaped for XML (``xml.sax.saxutils.escape``)."""
    # Imported on first use: xml.sax.saxutils pulls in urllib and http.client, about
    # a fifth of the time ``import trixcomplex`` takes.
    from xml.sax.saxutils import escape

    return escape(text)


def quoteattr(value: str) -> str:
    """``value`` escaped and quoted as an XML attribute value (``xml.sax.saxutils.quoteattr``)."""
    from xml.sax.saxutils import quoteattr

    return quoteattr(value)


def _text(
    x: float, y: float, text: str, *, size: int = 12, fill: str = "#ffffff", **attrs: str
) -> str:
    extra = "".join(f" {k.replace('_', '-')}={quoteattr(v)}" for k, v in attrs.items())
    return (
        f'<text x="{x:g}" y="{y:g}" font-family="{_FONT}" font-size="{size}" '
        f'fill="{fill}"{extra}>{escape(text)}</text>'
    )


def _card_svg(card: Card, x: float, y: float, *, raised: bool = False, dim: bool = False) -> str:
    suit = card.suit
    colour = _colour(suit)
    stroke = "#f2c14e" if raised else "#555555"
    width = 2.5 if raised else 1
    opacity = ' opacity="0.55"' if dim else ""
    return (
        f'<g transform="translate({x:g} {y:g})"{opacity}><title>{escape(card.symbol)}</title>'
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="4" fill="#ffffff" '
        f'stroke="{stroke}" stroke-width="{width}"/>'
        + _text(4, 14, _rank_label(card), size=13, fill=colour, font_weight="bold")
        + _suit_sign(suit, 4, 17, 10)
        + _suit_sign(suit, CARD_W / 2 - 9, CARD_H / 2 - 2, 20)
        + "</g>"
    )


def _back_svg(x: float, y: float, locale: str = DEFAULT_LOCALE) -> str:
    hidden = escape(translate("a hidden card", locale))
    return (
        f'<g transform="translate({x:g} {y:g})"><title>{hidden}</title>'
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="4" fill="#2b4c7e" stroke="#ffffff" '
        'stroke-width="1"/>'
        f'<rect x="4" y="4" width="{CARD_W - 8}" height="{CARD_H - 8}" rx="2" fill="none" '
        'stroke="#9fb7dd" stroke-width="1"/></g>'
    )


def _slot_svg(x: float, y: float) -> str:
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="none" '
        'stroke="#ffffff" stroke-opacity="0.35" stroke-dasharray="3 3"/>'
    )


def _document(
    width: float,
    height: float,
    label: str,
    body: Iterable[str],
    *,
    felt: bool,
    locale: str = DEFAULT_LOCALE,
) -> str:
    background = (
        f'<rect width="{width:g}" height="{height:g}" rx="8" fill="{_FELT}"/>' if felt else ""
    )
    # The language of the words, for screen readers and text shaping (English: unmarked).
    lang = "" if locale == DEFAULT_LOCALE else f' xml:lang="{locale}"'
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}" role="img" aria-label={quoteattr(label)}{lang}>'
        f"<title>{escape(label)}</title>" + background + "".join(body) + "</svg>"
    )


_STEP = 24  # horizontal overlap step of a fanned hand


def _hand_body(
    cards: Sequence[Card], x: float, y: float, highlight: frozenset[Card] = frozenset()
) -> list[str]:
    body = []
    for i, card in enumerate(cards):
        raised = card in highlight
        body.append(_card_svg(card, x + i * _STEP, y - (8 if raised else 0), raised=raised))
    return body


def _hand_order(cards: Iterable[Card]) -> list[Card]:
    return [c for suit in _by_suit(cards, high_first=True) for c in suit]


def _hand_width(n: int) -> int:
    return _STEP * (n - 1) + CARD_W if n else 0


def hand_svg(cards: CardsLike, *, highlight: CardsLike = (), locale: str = DEFAULT_LOCALE) -> str:
    """A hand fanned out by suit, high cards first; cards in ``highlight`` are raised.

    >>> import xml.etree.ElementTree as ET
    >>> root = ET.fromstring(hand_svg("AS QH 2C", highlight="QH"))
    >>> root.tag, root.get("width")
    ('{http://www.w3.org/2000/svg}svg', '104')
    """
    locale = check_locale(locale)
    hand = _hand_order(_cards(cards, "hand"))
    lifted = frozenset(_cards(highlight, "highlight"))
    width = max(_hand_width(len(hand)), CARD_W) + 16
    shown = " ".join(c.symbol for c in hand) or translate("no cards", locale)
    label = translate("hand: {cards}", locale, cards=shown)
    body = _hand_body(hand, 8, 16, lifted)
    return _document(width, CARD_H + 24, label, body, felt=False, locale=locale)


# Where a seat's card lies in the trick picture, by its place (layout.position, R-SEAT-1).
_TRICK_SPOTS = {"bottom": (0, 1), "right": (1, 0), "top": (0, -1), "left": (-1, 0)}


def _trick_body(
    played: Sequence[Card], leader: int, bottom: int, cx: float, cy: float
) -> list[str]:
    taker = trick_winner(leader, played) if len(played) == 4 else None
    body = []
    for i, card in enumerate(played):
        seat = (leader + i) % 4
        dx, dy = _TRICK_SPOTS[position(seat, bottom)]
        x = cx - CARD_W / 2 + dx * (CARD_W + 6)
        y = cy - CARD_H / 2 + dy * (CARD_H / 2 + 6)
        body.append(_card_svg(card, x, y, raised=seat == taker))
    return body


def trick_svg(
    cards: CardsLike, leader: int, *, bottom: int = 0, locale: str = DEFAULT_LOCALE
) -> str:
    """A trick laid out round the table: ``bottom`` (default seat 0) at the bottom,
    the next seat (on its right, R-SEAT-1) at the right; a full trick's taker is outlined.

    >>> import xml.etree.ElementTree as ET
    >>> titles = [e.text for e in ET.fromstring(trick_svg("7H KH", leader=2)).iter()
    ...           if e.tag.endswith("title")]
    >>> titles[1:]
    ['7♥', 'K♥']
    """
    locale = check_locale(locale)
    played = _trick(cards, leader)
    _seat(bottom, "bottom")
    size = 3 * CARD_W + 12 + 2 * 60
    height = 2 * CARD_H + CARD_H + 12 + 40
    body = _trick_body(played, leader, bottom, size / 2, height / 2)
    for seat in range(4):
        dx, dy = _TRICK_SPOTS[position(seat, bottom)]
        x = size / 2 + dx * (size / 2 - 28)
        y = height / 2 + dy * (height / 2 - 10) + (4 if dy <= 0 else 0)
        mark = " ▸" if seat == leader else ""
        body.append(_text(x, y, f"{_seat_name(seat, locale)}{mark}", size=11, text_anchor="middle"))
    shown = " ".join(c.symbol for c in played) or translate("no cards", locale)
    label = translate("trick led by seat {leader}: {cards}", locale, leader=leader, cards=shown)
    return _document(size, height, label, body, felt=True, locale=locale)


_ROW_STEP = CARD_W + 2
_ROWS_HEAD = 16  # the rank labels above the columns
_RANK_LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _rows_body(mask: int, x: float, y: float) -> list[str]:
    """Four rows, one per suit, each card in its rank's column (2 … A)."""
    nxt = playable(mask)
    body = [
        _text(x + 24 + i * _ROW_STEP + CARD_W / 2, y + 11, label, size=11, text_anchor="middle",
              fill_opacity="0.6")
        for i, label in enumerate(_RANK_LABELS)
    ]  # fmt: skip
    for suit in Suit:
        top = y + _ROWS_HEAD + suit * (CARD_H + 6)
        body.append(_suit_sign(suit, x, top + CARD_H / 2 - 9, 18))
        for rank_index in range(13):
            card = ALL_CARDS[suit * 13 + rank_index]
            left = x + 24 + rank_index * _ROW_STEP
            if mask >> card & 1:
                body.append(_card_svg(card, left, top))
            elif nxt >> card & 1:
                body.append(_slot_svg(left, top))
    return body


def rows_svg(table: CardsLike, *, locale: str = DEFAULT_LOCALE) -> str:
    """The TRIX rows: one line per suit, every card in its rank's column, with dashed
    outlines where a card may be laid next (R-TX-2).

    >>> import xml.etree.ElementTree as ET
    >>> root = ET.fromstring(rows_svg(0))
    >>> len([e for e in root.iter() if e.get("stroke-dasharray")])   # the four Jacks
    4
    """
    locale = check_locale(locale)
    mask = _check_table(_cards(table, "table"))
    width = 24 + 13 * _ROW_STEP + 16
    height = _ROWS_HEAD + 4 * (CARD_H + 6) + 10
    laid = " ".join(c.symbol for c in cards_of(mask)) or translate("empty", locale)
    label = translate("TRIX rows: {cards}", locale, cards=laid)
    return _document(width, height, label, _rows_body(mask, 8, 8), felt=True, locale=locale)


_TABLE_W = 640
_TABLE_H = 500


def _stack_body(
    seat: int,
    count: int,
    x: float,
    y: float,
    label: str,
    turn: bool,
    *,
    right: bool = False,
    locale: str = DEFAULT_LOCALE,
) -> list[str]:
    """A seat whose cards are hidden: up to three overlapping backs and a label.

    With ``right`` the labels end at the stack's right edge (for the seat drawn at the right).
    """
    body = [_back_svg(x + 6 * i, y, locale) for i in range(min(count, 3))]
    if not count:
        body.append(_slot_svg(x, y))
    colour = "#f2c14e" if turn else "#ffffff"
    weight = "bold" if turn else "normal"
    mark = "▸ " if turn else ""
    lx, anchor = (x + CARD_W + 12, "end") if right else (x, "start")
    body.append(
        _text(lx, y + CARD_H + 16, f"{mark}{_seat_name(seat, locale)}", fill=colour,
              font_weight=weight,
              text_anchor=anchor)
    )  # fmt: skip
    body.append(_text(lx, y + CARD_H + 30, label, size=10, fill="#d8e8dc", text_anchor=anchor))
    return body


def _scores_body(view: View, cx: float, y: float, locale: str = DEFAULT_LOCALE) -> list[str]:
    """The seat scores and Team Totals between deals and at the end (R-MATCH-7, R-MATCH-8)."""
    seats, teams = view.score.seats, view.score.teams
    lines = [f"{_seat_name(s, locale)}: {seats[s]}" for s in range(4)]
    if _ruleset(view).partnership:  # individual games have no teams (R-IND-1, R-CL-1)
        lines += [
            translate("team 0 (seats 0, 2): {points}", locale, points=teams[0]),
            translate("team 1 (seats 1, 3): {points}", locale, points=teams[1]),
        ]
    body = [
        _text(cx, y + 18 * i + (8 if i >= 4 else 0), line, size=13, text_anchor="middle",
              font_weight="bold" if i >= 4 else "normal")
        for i, line in enumerate(lines)
    ]  # fmt: skip
    if view.phase is Phase.OVER:
        result = _result(view, locale)
        body.append(_text(cx, y + 18 * 6 + 20, result, size=15, fill="#f2c14e",
                          text_anchor="middle", font_weight="bold"))  # fmt: skip
    return body


def table_svg(view: View, *, locale: str = DEFAULT_LOCALE) -> str:
    """The table as ``view.seat`` sees it, as an SVG document (640 × 500).

    The viewer sits at the bottom with its hand face up (the cards it may
    play, or may double while the window asks it, are raised); the seat after
    it (on its right, R-SEAT-1) is drawn at the right, its partner at the top.
    Other hands are drawn as backs with their sizes; the spectator
    (``seat=None``) sees seat 0's place at the bottom, face down.  The centre
    shows the trick (or, between tricks, the last one, faded), the TRIX rows,
    the doubling window's state, or the scores between deals and at the end.
    ``locale`` is the language of its words (``"en"``, the default, or ``"ar"``);
    the drawing is the same (the seats keep their places round the table).
    """
    locale = check_locale(locale)
    bottom = view.seat if view.seat is not None else 0
    status = f"{_who(view, locale)} · {_status(view, locale)}"
    body = [
        _text(16, 24, _headline(view, locale), size=14, font_weight="bold"),
        _text(16, 42, status, size=12, fill="#d8e8dc"),
    ]
    teams, seats = view.score.teams, view.score.seats
    totals = (
        translate("Team Totals {first} : {second}", locale, first=teams[0], second=teams[1])
        if _ruleset(view).partnership
        else translate("Seats {scores}", locale, scores=" : ".join(str(s) for s in seats))
    )
    body.append(_text(_TABLE_W - 16, 24, totals, size=12, text_anchor="end"))
    in_deal = view.deal_number > 0 and view.phase not in (Phase.DEAL, Phase.OVER)
    spots = {  # a seat's place (layout.position) -> top-left corner of its hidden stack
        "right": (_TABLE_W - CARD_W - 40, _TABLE_H / 2 - CARD_H / 2 - 20),
        "top": (_TABLE_W / 2 - CARD_W / 2, 58),
        "left": (28, _TABLE_H / 2 - CARD_H / 2 - 20),
    }
    if in_deal:
        for seat in range(4):
            place = position(seat, bottom)
            if place == "bottom":
                continue
            x, y = spots[place]
            body += _stack_body(
                seat, view.hand_sizes[seat], x, y, _seat_notes(view, seat, locale),
                view.turn == seat, right=place == "right", locale=locale,
            )  # fmt: skip
    cx, cy = _TABLE_W / 2, _TABLE_H / 2 - 10
    if view.phase.plays_tricks:
        assert view.leader is not None
        if view.trick or view.last_trick is None:
            body += _trick_body(view.trick, view.leader, bottom, cx, cy)
            caption = translate("trick {number} of {total}", locale,
                                number=len(view.tricks) + 1, total=TRICKS_PER_DEAL)  # fmt: skip
        else:
            last = view.last_trick
            body.append('<g opacity="0.6">')
            body += _trick_body(last.cards, last.leader, bottom, cx, cy)
            body.append("</g>")
            caption = translate("trick {number} taken by seat {seat}", locale,
                                number=len(view.tricks), seat=last.taker)  # fmt: skip
        body.append(_text(cx, cy + CARD_H + 40, caption, size=11, text_anchor="middle"))
    elif view.phase is Phase.TRIX:
        scale = 0.62
        width, height = (24 + 13 * _ROW_STEP) * scale, (_ROWS_HEAD + 4 * (CARD_H + 6)) * scale
        body.append(
            f'<g transform="translate({cx - width / 2:g} {cy - height / 2:g}) scale({scale})">'
        )
        body += _rows_body(_check_table(view.table), 0, 0)
        body.append("</g>")
    elif view.phase is Phase.DOUBLE:
        window = translate("the doubling window is open", locale)
        body.append(_text(cx, cy, window, size=13, text_anchor="middle"))
        if view.doublable:
            cards = " ".join(c.symbol for c in view.doublable)
            mine = translate("you may double {cards}", locale, cards=cards)
        elif view.my_answer is not None:
            cards = " ".join(c.symbol for c in view.my_answer) or translate("nothing", locale)
            mine = translate("you doubled {cards}", locale, cards=cards)
        else:
            mine = translate("doubles are revealed when it closes", locale)
        body.append(_text(cx, cy + 20, mine, size=11, text_anchor="middle", fill="#d8e8dc"))
    elif view.phase in (Phase.DEAL, Phase.OVER) and view.deal_number:
        body += _scores_body(view, cx, cy - 60, locale)
    if view.doubled:
        doubled = translate(", ", locale).join(
            translate("{card} by seat {seat}", locale, card=card.symbol, seat=seat)
            for card, seat in view.doubled
        )
        body.append(
            _text(16, _TABLE_H - 14, translate("doubled: {cards}", locale, cards=doubled), size=11)
        )
    if in_deal:
        hand_y = _TABLE_H - CARD_H - 72
        if view.seat is None:
            body += _stack_body(
                bottom, view.hand_sizes[bottom], cx - CARD_W / 2, hand_y,
                _seat_notes(view, bottom, locale), view.turn == bottom, locale=locale,
            )  # fmt: skip
        else:
            hand = _hand_order(view.hand)
            # The cards it may play now, or may double while the window asks it.
            legal = frozenset(m.card for m in view.legal_moves if isinstance(m, Play))
            legal |= frozenset(view.doublable)
            body += _hand_body(hand, cx - _hand_width(len(hand)) / 2, hand_y, legal)
            turn = view.turn == view.seat
            colour = "#f2c14e" if turn else "#ffffff"
            you = translate("seat {seat} (you)", locale, seat=view.seat)
            label = f"{'▸ ' if turn else ''}{you} · {_seat_notes(view, view.seat, locale)}"
            body.append(
                _text(cx, hand_y + CARD_H + 18, label, fill=colour, text_anchor="middle",
                      font_weight="bold" if turn else "normal")
            )  # fmt: skip
    label = f"{_headline(view, locale)}; {_who(view, locale)}; {_status(view, locale)}"
    return _document(_TABLE_W, _TABLE_H, label, body, felt=True, locale=locale)
