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
from ...core.engine import Phase
from ...core.moves import Choose, Pass, Play, PlayerMove, Redeal
from ...core.rules import TRICKS_PER_DEAL, trick_winner
from ..scoresheet import contract_name
from .layout import (
    _PLACES,
    CardsLike,
    _by_suit,
    _cards,
    _check_table,
    _headline,
    _rank_label,
    _ruleset,
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
