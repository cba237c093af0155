"""The pictures in plain text, for terminals: hands, tricks, TRIX rows, moves, the table.

>>> print(hand_text("AS 7S QH TH 2H JC"))
♠ A 7
♥ Q 10 2
♦ -
♣ J
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...core.cards import Card, Suit, cards_of
from ...core.catalog import DEFAULT_LOCALE, check_locale, translate
from ...core.engine import Phase
from ...core.moves import Choose, Pass, Play, PlayerMove, Redeal
from ...core.rules import TRICKS_PER_DEAL, trick_winner
from ..scoresheet import contract_name
from .layout import (
    CardsLike,
    _by_suit,
    _cards,
    _check_table,
    _headline,
    _place,
    _rank_label,
    _ruleset,
    _seat_name,
    _seat_notes,
    _status,
    _trick,
    _who,
)

if TYPE_CHECKING:
    from ...knowledge.views import View

__all__ = ["hand_text", "move_text", "rows_text", "table_text", "trick_text"]


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


def trick_text(cards: CardsLike, leader: int, *, locale: str = DEFAULT_LOCALE) -> str:
    """A trick in play order, one line per seat, marking who leads and (when full) who takes.

    Seats still to play show ``…``:

    >>> print(trick_text("QD", leader=3))
    seat 3  Q♦  leads
    seat 0  …
    seat 1  …
    seat 2  …
    >>> print(trick_text("QD", leader=3, locale="ar").splitlines()[0])
    المقعد 3  Q♦  يبدأ
    """
    played = _trick(cards, leader)
    taker = trick_winner(leader, played) if len(played) == 4 else None
    lines = []
    for i in range(4):
        seat = (leader + i) % 4
        name = _seat_name(seat, locale)
        if i >= len(played):
            lines.append(f"{name}  …")
            continue
        marks = ([translate("leads", locale)] if i == 0 else []) + (
            [translate("takes", locale)] if seat == taker else []
        )
        joined = translate(", ", locale).join(marks)
        lines.append(f"{name}  {played[i].symbol:<3} {joined}".rstrip())
    return "\n".join(lines)


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


def move_text(move: PlayerMove, *, locale: str = DEFAULT_LOCALE) -> str:
    """A player move as a person names it: ``K♥``, ``pass``, ``Queens``,
    ``redeal``, ``double Q♠ K♥`` or ``double nothing`` (in ``locale``).

    >>> from trixcomplex import Double, Pass
    >>> move_text(Pass(1)), move_text(Double(2, ["KH", "QS"])), move_text(Double(2))
    ('pass', 'double Q♠ K♥', 'double nothing')
    >>> move_text(Pass(1), locale="ar")
    'تمرير'
    """
    if isinstance(move, Play):
        return move.card.symbol
    if isinstance(move, Pass):
        return translate("pass", locale)
    if isinstance(move, Choose):
        return contract_name(move.contract, locale)
    if isinstance(move, Redeal):
        return translate("redeal", locale)
    if move.cards:
        cards = " ".join(c.symbol for c in sorted(move.cards))
        return translate("double {cards}", locale, cards=cards)
    return translate("double nothing", locale)


def table_text(view: View, *, locale: str = DEFAULT_LOCALE) -> str:
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

    ``locale`` is its language (``"en"``, the default, or ``"ar"``).

    >>> print(table_text(tc.view(state, None), locale="ar").splitlines()[1])
    منظور المتفرج · دور المقعد 0 في اللعب
    """
    locale = check_locale(locale)
    comma = translate(", ", locale)
    lines = [_headline(view, locale), f"{_who(view, locale)} · {_status(view, locale)}"]
    if view.deal_number and view.phase not in (Phase.DEAL, Phase.OVER):
        lines.append(" · ".join(
            f"{_seat_name(s, locale)}: {_seat_notes(view, s, locale)}" for s in range(4)
        ))  # fmt: skip
    for seat in view.redeals:  # R-OPT-8: a redeal is public once demanded
        lines.append(translate("Redealt: seat {seat} showed a bad hand", locale, seat=seat))
    if view.doubled:
        doubled = comma.join(
            translate("{card} by seat {seat}", locale, card=card.symbol, seat=seat)
            for card, seat in view.doubled
        )
        lines.append(translate("Doubled: {cards}", locale, cards=doubled))
    if view.doublable:
        cards = " ".join(c.symbol for c in view.doublable)
        lines.append(translate("You may double: {cards}", locale, cards=cards))
    if view.my_answer is not None:
        mine = " ".join(c.symbol for c in view.my_answer) or translate("nothing", locale)
        lines.append(translate(
            "You doubled: {cards} (answers stay hidden until the window closes)", locale,
            cards=mine,
        ))  # fmt: skip
    if view.phase.plays_tricks:
        assert view.leader is not None
        number = len(view.tricks) + 1
        lines.append(translate("Trick {number} of {total}:", locale, number=number,
                               total=TRICKS_PER_DEAL))  # fmt: skip
        trick = trick_text(view.trick, view.leader, locale=locale)
        lines.extend("  " + line for line in trick.splitlines())
        if not view.trick and view.last_trick is not None:
            last = view.last_trick
            cards = " ".join(c.symbol for c in last.cards)
            lines.append(translate(
                "Last trick, led by seat {leader}: {cards}, taken by seat {taker}", locale,
                leader=last.leader, cards=cards, taker=last.taker,
            ))  # fmt: skip
    if view.phase is Phase.TRIX:
        lines.append(translate("TRIX rows:", locale))
        lines.extend("  " + line for line in rows_text(view.table).splitlines())
        if view.finishing_order:
            places = comma.join(
                f"{_place(i, locale)} {_seat_name(s, locale)}"
                for i, s in enumerate(view.finishing_order)
            )
            lines.append(translate("Finished: {places}", locale, places=places))
    if view.hand:
        lines.append(translate("Your hand:", locale))
        lines.extend("  " + line for line in hand_text(view.hand).splitlines())
    if view.legal_moves and view.phase in (Phase.COMPLEX, Phase.TRICKS, Phase.TRIX, Phase.CHOOSE):
        gap = comma if view.phase is Phase.CHOOSE else " "  # "King of Hearts, Queens, ..."
        moves = gap.join(move_text(m, locale=locale) for m in view.legal_moves)
        lines.append(translate("Legal: {moves}", locale, moves=moves))
    seats = view.score.seats
    if view.score.deals:
        scores = " · ".join(f"{_seat_name(s, locale)}: {seats[s]}" for s in range(4))
        lines.append(translate("Scores: {scores}", locale, scores=scores))
    teams = view.score.teams
    if _ruleset(view).partnership:  # individual games have no teams (R-IND-1, R-CL-1)
        lines.append(translate("Team Totals: {first} : {second}", locale, first=teams[0],
                               second=teams[1]))  # fmt: skip
    return "\n".join(lines)
