"""Pictures of the table: plain text for terminals and SVG for browsers and notebooks.

Two levels:

- :func:`picture` draws the whole table as one seat sees it, from a
  :class:`~trixcomplex.knowledge.views.View` (so it can never show a hidden card: it
  never sees one, R-HID-1).  The result is a :class:`Picture`: ``str()``
  gives the text form, and Jupyter shows the SVG inline.
- :func:`hand_picture`, :func:`trick_picture` and :func:`rows_picture` draw
  plain cards; their strings are :func:`hand_text` / :func:`hand_svg`,
  :func:`trick_text` / :func:`trick_svg` and :func:`rows_text` /
  :func:`rows_svg`.

Cards may be given as :class:`~trixcomplex.Card` objects, card codes
(``"QH"``, ``"10♦"``), one string of codes separated by spaces, or a card
set (a 52-bit int).  Every SVG is a self-contained, well-formed XML
document: the suit signs are drawn as paths (no fonts or images are
fetched), ♥ and ♦ in red, ♠ and ♣ in black.

>>> print(hand_text("AS 7S QH TH 2H JC"))
♠ A 7
♥ Q 10 2
♦ -
♣ J
>>> print(trick_text(["7H", "KH", "2H", "5S"], leader=2))
seat 2  7♥  leads
seat 3  K♥  takes
seat 0  2♥
seat 1  5♠
>>> pic = rows_picture("JS TS 9S QS JH")
>>> print(pic)
♠ 9 10 J Q
♥ J
♦ -
♣ -
>>> pic.svg.startswith("<svg")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, TypeAlias

from attrs import field, frozen

from ..core.cards import ALL_CARDS, Card, Suit, as_card, cards_of
from ..core.engine import MatchResult, Phase
from ..core.moves import Choose, Pass, Play, PlayerMove, Redeal
from ..core.rules import TRICKS_PER_DEAL, trick_winner
from ..core.rules import trix_playable as playable
from ..core.rulesets import Ruleset
from .scoresheet import contract_name

if TYPE_CHECKING:
    from ..knowledge.views import View

__all__ = [
    "CardsLike",
    "Picture",
    "hand_picture",
    "hand_svg",
    "hand_text",
    "move_text",
    "picture",
    "rows_picture",
    "rows_svg",
    "rows_text",
    "table_svg",
    "table_text",
    "trick_picture",
    "trick_svg",
    "trick_text",
]

CardsLike: TypeAlias = int | str | Iterable[Card | str]
"""Cards to draw: a card set (52-bit int), ``"AS KH 10♦"``, or an iterable of cards or codes."""


@frozen(repr=False)
class Picture:
    """A drawing in two forms: ``svg`` (an SVG document) and ``text`` (for terminals).

    ``str(picture)`` is the text form; in Jupyter the SVG is shown inline
    (``_repr_svg_``).  Save it with ``Path("table.svg").write_text(picture.svg)``.
    """

    svg: str = field()
    text: str = field()

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        first = self.text.partition("\n")[0]
        return f"<Picture {first!r}…>" if "\n" in self.text else f"<Picture {first!r}>"


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


# -- text ---------------------------------------------------------------------


def hand_text(cards: CardsLike) -> str:
    """A hand as four lines, one per suit (♠ ♥ ♦ ♣), high cards first; ``-`` for a void.

    >>> print(hand_text(0))
    ♠ -
    ♥ -
    ♦ -
    ♣ -
    """
    suits = _by_suit(_cards(cards, "hand"), high_first=True)
    return "\n".join(_suit_line(Suit(s), suits[s]) for s in range(4))


def _suit_line(suit: Suit, cards: Sequence[Card]) -> str:
    return f"{suit.symbol} " + (" ".join(_rank_label(c) for c in cards) or "-")


def trick_text(cards: CardsLike, leader: int) -> str:
    """A trick in play order, one line per seat, marking who leads and (when full) who takes.

    Seats still to play show ``…``:

    >>> print(trick_text("QD", leader=3))
    seat 3  Q♦  leads
    seat 0  …
    seat 1  …
    seat 2  …
    """
    played = _trick(cards, leader)
    taker = trick_winner(leader, played) if len(played) == 4 else None
    lines = []
    for i in range(4):
        seat = (leader + i) % 4
        if i >= len(played):
            lines.append(f"seat {seat}  …")
            continue
        marks = (["leads"] if i == 0 else []) + (["takes"] if seat == taker else [])
        lines.append(f"seat {seat}  {played[i].symbol:<3} {', '.join(marks)}".rstrip())
    return "\n".join(lines)


def _trick(cards: CardsLike, leader: int) -> tuple[Card, ...]:
    _seat(leader, "leader")
    played = _cards(cards, "trick", ordered=True)
    if len(played) > 4:
        raise ValueError(f"trick: a trick has at most 4 cards, not {len(played)}")
    return played


def rows_text(table: CardsLike) -> str:
    """The TRIX rows (R-TX-2), one line per suit from its low end to its high end.

    ``ValueError`` if a row is not an unbroken run through its Jack.

    >>> print(rows_text("JC QC TC 9C JD"))
    ♠ -
    ♥ -
    ♦ J
    ♣ 9 10 J Q
    """
    mask = _check_table(_cards(table, "table"))
    suits = _by_suit(cards_of(mask), high_first=False)
    return "\n".join(_suit_line(Suit(s), suits[s]) for s in range(4))


# -- SVG ----------------------------------------------------------------------

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


def _back_svg(x: float, y: float) -> str:
    return (
        f'<g transform="translate({x:g} {y:g})"><title>a hidden card</title>'
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


def _document(width: float, height: float, label: str, body: Iterable[str], *, felt: bool) -> str:
    background = (
        f'<rect width="{width:g}" height="{height:g}" rx="8" fill="{_FELT}"/>' if felt else ""
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}" role="img" aria-label={quoteattr(label)}>'
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


def hand_svg(cards: CardsLike, *, highlight: CardsLike = ()) -> str:
    """A hand fanned out by suit, high cards first; cards in ``highlight`` are raised.

    >>> import xml.etree.ElementTree as ET
    >>> root = ET.fromstring(hand_svg("AS QH 2C", highlight="QH"))
    >>> root.tag, root.get("width")
    ('{http://www.w3.org/2000/svg}svg', '104')
    """
    hand = _hand_order(_cards(cards, "hand"))
    lifted = frozenset(_cards(highlight, "highlight"))
    width = max(_hand_width(len(hand)), CARD_W) + 16
    label = "hand: " + (" ".join(c.symbol for c in hand) or "no cards")
    return _document(width, CARD_H + 24, label, _hand_body(hand, 8, 16, lifted), felt=False)


# Where each seat's card lies in the trick picture, relative to the seat at the bottom.
_TRICK_SPOTS = ((0, 1), (1, 0), (0, -1), (-1, 0))  # bottom, right, top, left (R-SEAT-1)


def _trick_body(
    played: Sequence[Card], leader: int, bottom: int, cx: float, cy: float
) -> list[str]:
    taker = trick_winner(leader, played) if len(played) == 4 else None
    body = []
    for i, card in enumerate(played):
        seat = (leader + i) % 4
        dx, dy = _TRICK_SPOTS[(seat - bottom) % 4]
        x = cx - CARD_W / 2 + dx * (CARD_W + 6)
        y = cy - CARD_H / 2 + dy * (CARD_H / 2 + 6)
        body.append(_card_svg(card, x, y, raised=seat == taker))
    return body


def trick_svg(cards: CardsLike, leader: int, *, bottom: int = 0) -> str:
    """A trick laid out round the table: ``bottom`` (default seat 0) at the bottom,
    the next seat (on its right, R-SEAT-1) at the right; a full trick's taker is outlined.

    >>> import xml.etree.ElementTree as ET
    >>> titles = [e.text for e in ET.fromstring(trick_svg("7H KH", leader=2)).iter()
    ...           if e.tag.endswith("title")]
    >>> titles[1:]
    ['7♥', 'K♥']
    """
    played = _trick(cards, leader)
    _seat(bottom, "bottom")
    size = 3 * CARD_W + 12 + 2 * 60
    height = 2 * CARD_H + CARD_H + 12 + 40
    body = _trick_body(played, leader, bottom, size / 2, height / 2)
    for seat in range(4):
        dx, dy = _TRICK_SPOTS[(seat - bottom) % 4]
        x = size / 2 + dx * (size / 2 - 28)
        y = height / 2 + dy * (height / 2 - 10) + (4 if dy <= 0 else 0)
        mark = " ▸" if seat == leader else ""
        body.append(_text(x, y, f"seat {seat}{mark}", size=11, text_anchor="middle"))
    label = f"trick led by seat {leader}: " + (" ".join(c.symbol for c in played) or "no cards")
    return _document(size, height, label, body, felt=True)


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


def rows_svg(table: CardsLike) -> str:
    """The TRIX rows: one line per suit, every card in its rank's column, with dashed
    outlines where a card may be laid next (R-TX-2).

    >>> import xml.etree.ElementTree as ET
    >>> root = ET.fromstring(rows_svg(0))
    >>> len([e for e in root.iter() if e.get("stroke-dasharray")])   # the four Jacks
    4
    """
    mask = _check_table(_cards(table, "table"))
    width = 24 + 13 * _ROW_STEP + 16
    height = _ROWS_HEAD + 4 * (CARD_H + 6) + 10
    laid = " ".join(c.symbol for c in cards_of(mask)) or "empty"
    return _document(width, height, f"TRIX rows: {laid}", _rows_body(mask, 8, 8), felt=True)


def hand_picture(cards: CardsLike, *, highlight: CardsLike = ()) -> Picture:
    """A :class:`Picture` of a hand (see :func:`hand_text` and :func:`hand_svg`)."""
    return Picture(hand_svg(cards, highlight=highlight), hand_text(cards))


def trick_picture(cards: CardsLike, leader: int, *, bottom: int = 0) -> Picture:
    """A :class:`Picture` of a trick (see :func:`trick_text` and :func:`trick_svg`)."""
    return Picture(trick_svg(cards, leader, bottom=bottom), trick_text(cards, leader))


def rows_picture(table: CardsLike) -> Picture:
    """A :class:`Picture` of the TRIX rows (see :func:`rows_text` and :func:`rows_svg`)."""
    return Picture(rows_svg(table), rows_text(table))


# -- the whole table, from a view -----------------------------------------------

_PLACES = ("1st", "2nd", "3rd", "4th")


def _who(view: View) -> str:
    return "the spectator's view" if view.seat is None else f"seat {view.seat}'s view"


def _ruleset(view: View) -> Ruleset:
    """The game the view is of (R-SET-1)."""
    return view.ruleset


def _deals_per_match(view: View) -> int:
    """The match length of the view's ruleset (8 in the partnership game)."""
    return _ruleset(view).deals_per_match


def _headline(view: View) -> str:
    if view.deal_number == 0:
        return "A new match, waiting for the first deal"
    if view.phase is Phase.OVER:
        return f"The match is over: {view.deal_number} deals played"
    deals = _deals_per_match(view)
    if view.phase is Phase.DEAL:
        return f"Between deals: {view.deal_number} of {deals} played"
    contract = contract_name(view.contract) if view.contract is not None else "contract to choose"
    return (
        f"Deal {view.deal_number} of {deals} · Kingdom {view.kingdom} · {contract} · "
        f"owner seat {view.owner}"
    )


def _status(view: View) -> str:
    """What the table waits for, in words (public facts only, R-HID-2)."""
    phase = view.phase
    if phase is Phase.OVER:
        result = view.score.result
        if result is MatchResult.TEAM0:
            return "Match over: team 0 (seats 0, 2) wins"
        if result is MatchResult.TEAM1:
            return "Match over: team 1 (seats 1, 3) wins"
        if result is MatchResult.DRAW:
            return "Match over: a draw"
        seats = view.score.winners
        if len(seats) == 1:  # R-IND-1, R-CL-1: an individual game
            return f"Match over: seat {seats[0]} wins"
        return "Match over: seats " + ", ".join(str(s) for s in seats) + " share the win"
    if phase is Phase.DEAL:
        return f"waiting for deal {view.deal_number + 1}"
    if phase is Phase.CHOOSE:
        return f"seat {view.turn} chooses the contract"
    if phase is Phase.DOUBLE:
        return "the doubling window is open"
    return f"seat {view.turn} to play"


def move_text(move: PlayerMove) -> str:
    """A player move as a person names it: ``K♥``, ``pass``, ``Queens``,
    ``redeal``, ``double Q♠ K♥`` or ``double nothing``.

    >>> from trixcomplex import Double, Pass
    >>> move_text(Pass(1)), move_text(Double(2, ["KH", "QS"])), move_text(Double(2))
    ('pass', 'double Q♠ K♥', 'double nothing')
    """
    if isinstance(move, Play):
        return move.card.symbol
    if isinstance(move, Pass):
        return "pass"
    if isinstance(move, Choose):
        return contract_name(move.contract)
    if isinstance(move, Redeal):
        return "redeal"
    if move.cards:
        return "double " + " ".join(c.symbol for c in sorted(move.cards))
    return "double nothing"


def _seat_notes(view: View, seat: int) -> str:
    notes = [f"{view.hand_sizes[seat]} cards"]
    if view.phase.plays_tricks and view.points[seat]:
        notes.append(f"{view.points[seat]:+d} this deal")
    if seat in view.finishing_order:
        notes.append(_PLACES[view.finishing_order.index(seat)])
    if view.shown_twos[seat]:  # R-OPT-7: public once shown
        notes.append("2s shown " + " ".join(c.symbol for c in view.shown_twos[seat]))
    return ", ".join(notes)


def table_text(view: View) -> str:
    """The table as ``view.seat`` sees it, in plain text: the deal, whose turn it is,
    the hand sizes, the trick or the TRIX rows, the seat's own hand and legal moves,
    and the scores.  Only what the view holds is shown, so nothing hidden can leak.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
    >>> state = tc.apply(state, tc.Choose(state.owner, tc.Contract.TRIX))
    >>> print(table_text(tc.view(state, None)))
    Deal 1 of 8 · Kingdom 1 · TRIX · owner seat 0
    the spectator's view · seat 0 to play
    seat 0: 13 cards · seat 1: 13 cards · seat 2: 13 cards · seat 3: 13 cards
    TRIX rows:
      ♠ -
      ♥ -
      ♦ -
      ♣ -
    Team Totals: 0 : 0
    """
    lines = [_headline(view), f"{_who(view)} · {_status(view)}"]
    if view.deal_number and view.phase not in (Phase.DEAL, Phase.OVER):
        lines.append(" · ".join(f"seat {s}: {_seat_notes(view, s)}" for s in range(4)))
    for seat in view.redeals:  # R-OPT-8: a redeal is public once demanded
        lines.append(f"Redealt: seat {seat} showed a bad hand")
    if view.doubled:
        lines.append(
            "Doubled: " + ", ".join(f"{card.symbol} by seat {seat}" for card, seat in view.doubled)
        )
    if view.doublable:
        lines.append("You may double: " + " ".join(c.symbol for c in view.doublable))
    if view.my_answer is not None:
        mine = " ".join(c.symbol for c in view.my_answer) or "nothing"
        lines.append(f"You doubled: {mine} (answers stay hidden until the window closes)")
    if view.phase.plays_tricks:
        assert view.leader is not None
        number = len(view.tricks) + 1
        lines.append(f"Trick {number} of {TRICKS_PER_DEAL}:")
        lines.extend("  " + line for line in trick_text(view.trick, view.leader).splitlines())
        if not view.trick and view.last_trick is not None:
            last = view.last_trick
            cards = " ".join(c.symbol for c in last.cards)
            lines.append(
                f"Last trick, led by seat {last.leader}: {cards}, taken by seat {last.taker}"
            )
    if view.phase is Phase.TRIX:
        lines.append("TRIX rows:")
        lines.extend("  " + line for line in rows_text(view.table).splitlines())
        if view.finishing_order:
            places = ", ".join(f"{_PLACES[i]} seat {s}" for i, s in enumerate(view.finishing_order))
            lines.append(f"Finished: {places}")
    if view.hand:
        lines.append("Your hand:")
        lines.extend("  " + line for line in hand_text(view.hand).splitlines())
    if view.legal_moves and view.phase in (Phase.COMPLEX, Phase.TRICKS, Phase.TRIX, Phase.CHOOSE):
        gap = ", " if view.phase is Phase.CHOOSE else " "  # "King of Hearts, Queens, ..."
        lines.append("Legal: " + gap.join(move_text(m) for m in view.legal_moves))
    seats = view.score.seats
    if view.score.deals:
        lines.append("Scores: " + " · ".join(f"seat {s}: {seats[s]}" for s in range(4)))
    teams = view.score.teams
    if _ruleset(view).partnership:  # individual games have no teams (R-IND-1, R-CL-1)
        lines.append(f"Team Totals: {teams[0]} : {teams[1]}")
    return "\n".join(lines)


_TABLE_W = 640
_TABLE_H = 500


def _stack_body(
    seat: int, count: int, x: float, y: float, label: str, turn: bool, *, right: bool = False
) -> list[str]:
    """A seat whose cards are hidden: up to three overlapping backs and a label.

    With ``right`` the labels end at the stack's right edge (for the seat drawn at the right).
    """
    body = [_back_svg(x + 6 * i, y) for i in range(min(count, 3))]
    if not count:
        body.append(_slot_svg(x, y))
    colour = "#f2c14e" if turn else "#ffffff"
    weight = "bold" if turn else "normal"
    mark = "▸ " if turn else ""
    lx, anchor = (x + CARD_W + 12, "end") if right else (x, "start")
    body.append(
        _text(lx, y + CARD_H + 16, f"{mark}seat {seat}", fill=colour, font_weight=weight,
              text_anchor=anchor)
    )  # fmt: skip
    body.append(_text(lx, y + CARD_H + 30, label, size=10, fill="#d8e8dc", text_anchor=anchor))
    return body


def _scores_body(view: View, cx: float, y: float) -> list[str]:
    """The seat scores and Team Totals between deals and at the end (R-MATCH-7, R-MATCH-8)."""
    seats, teams = view.score.seats, view.score.teams
    lines = [f"seat {s}: {seats[s]}" for s in range(4)]
    if _ruleset(view).partnership:  # individual games have no teams (R-IND-1, R-CL-1)
        lines += [f"team 0 (seats 0, 2): {teams[0]}", f"team 1 (seats 1, 3): {teams[1]}"]
    body = [
        _text(cx, y + 18 * i + (8 if i >= 4 else 0), line, size=13, text_anchor="middle",
              font_weight="bold" if i >= 4 else "normal")
        for i, line in enumerate(lines)
    ]  # fmt: skip
    if view.phase is Phase.OVER:
        result = _status(view).removeprefix("Match over: ")
        body.append(_text(cx, y + 18 * 6 + 20, result, size=15, fill="#f2c14e",
                          text_anchor="middle", font_weight="bold"))  # fmt: skip
    return body


def table_svg(view: View) -> str:
    """The table as ``view.seat`` sees it, as an SVG document (640 × 500).

    The viewer sits at the bottom with its hand face up (the cards it may
    play, or may double while the window asks it, are raised); the seat after
    it (on its right, R-SEAT-1) is drawn at the right, its partner at the top.
    Other hands are drawn as backs with their sizes; the spectator
    (``seat=None``) sees seat 0's place at the bottom, face down.  The centre
    shows the trick (or, between tricks, the last one, faded), the TRIX rows,
    the doubling window's state, or the scores between deals and at the end.
    """
    bottom = view.seat if view.seat is not None else 0
    body = [
        _text(16, 24, _headline(view), size=14, font_weight="bold"),
        _text(16, 42, f"{_who(view)} · {_status(view)}", size=12, fill="#d8e8dc"),
    ]
    teams, seats = view.score.teams, view.score.seats
    totals = (
        f"Team Totals {teams[0]} : {teams[1]}"
        if _ruleset(view).partnership
        else "Seats " + " : ".join(str(s) for s in seats)
    )
    body.append(_text(_TABLE_W - 16, 24, totals, size=12, text_anchor="end"))
    in_deal = view.deal_number > 0 and view.phase not in (Phase.DEAL, Phase.OVER)
    spots = {  # seat offset from the viewer -> top-left corner of its hidden stack
        1: (_TABLE_W - CARD_W - 40, _TABLE_H / 2 - CARD_H / 2 - 20),
        2: (_TABLE_W / 2 - CARD_W / 2, 58),
        3: (28, _TABLE_H / 2 - CARD_H / 2 - 20),
    }
    if in_deal:
        for offset, (x, y) in spots.items():
            seat = (bottom + offset) % 4
            body += _stack_body(
                seat, view.hand_sizes[seat], x, y, _seat_notes(view, seat), view.turn == seat,
                right=offset == 1,
            )  # fmt: skip
    cx, cy = _TABLE_W / 2, _TABLE_H / 2 - 10
    if view.phase.plays_tricks:
        assert view.leader is not None
        if view.trick or view.last_trick is None:
            body += _trick_body(view.trick, view.leader, bottom, cx, cy)
            caption = f"trick {len(view.tricks) + 1} of {TRICKS_PER_DEAL}"
        else:
            last = view.last_trick
            body.append('<g opacity="0.6">')
            body += _trick_body(last.cards, last.leader, bottom, cx, cy)
            body.append("</g>")
            caption = f"trick {len(view.tricks)} taken by seat {last.taker}"
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
        body.append(_text(cx, cy, "the doubling window is open", size=13, text_anchor="middle"))
        if view.doublable:
            mine = "you may double " + " ".join(c.symbol for c in view.doublable)
        elif view.my_answer is not None:
            mine = "you doubled " + (" ".join(c.symbol for c in view.my_answer) or "nothing")
        else:
            mine = "doubles are revealed when it closes"
        body.append(_text(cx, cy + 20, mine, size=11, text_anchor="middle", fill="#d8e8dc"))
    elif view.phase in (Phase.DEAL, Phase.OVER) and view.deal_number:
        body += _scores_body(view, cx, cy - 60)
    if view.doubled:
        doubled = ", ".join(f"{card.symbol} by seat {seat}" for card, seat in view.doubled)
        body.append(_text(16, _TABLE_H - 14, f"doubled: {doubled}", size=11))
    if in_deal:
        hand_y = _TABLE_H - CARD_H - 72
        if view.seat is None:
            body += _stack_body(
                bottom, view.hand_sizes[bottom], cx - CARD_W / 2, hand_y,
                _seat_notes(view, bottom), view.turn == bottom,
            )  # fmt: skip
        else:
            hand = _hand_order(view.hand)
            # The cards it may play now, or may double while the window asks it.
            legal = frozenset(m.card for m in view.legal_moves if isinstance(m, Play))
            legal |= frozenset(view.doublable)
            body += _hand_body(hand, cx - _hand_width(len(hand)) / 2, hand_y, legal)
            turn = view.turn == view.seat
            colour = "#f2c14e" if turn else "#ffffff"
            label = f"{'▸ ' if turn else ''}seat {view.seat} (you) · {_seat_notes(view, view.seat)}"
            body.append(
                _text(cx, hand_y + CARD_H + 18, label, fill=colour, text_anchor="middle",
                      font_weight="bold" if turn else "normal")
            )  # fmt: skip
    label = f"{_headline(view)}; {_who(view)}; {_status(view)}"
    return _document(_TABLE_W, _TABLE_H, label, body, felt=True)


def picture(view: View) -> Picture:
    """The whole table as ``view.seat`` sees it: a :class:`Picture` of
    :func:`table_svg` and :func:`table_text`.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
    >>> pic = tc.picture(tc.view(state, 1))
    >>> print(str(pic).splitlines()[1])
    seat 1's view · seat 0 chooses the contract
    """
    return Picture(table_svg(view), table_text(view))
