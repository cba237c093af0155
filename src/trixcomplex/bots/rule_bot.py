"""A rule-based bot: the play a human would recognise (see :mod:`.tactics`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from attrs import frozen

from ..moves import Choose, Double, Pass, Play, PlayerMove
from ..state import Phase
from .tactics import Situation, choose_contract, choose_doubles, complex_card, trix_card

if TYPE_CHECKING:
    from ..views import View

__all__ = ["RuleBot", "rule_move"]


def rule_move(sit: Situation, legal: Sequence[PlayerMove]) -> PlayerMove:
    """The rule-based move for ``sit`` among ``legal`` (the seat's legal moves).

    Shared by :class:`RuleBot` (with a situation built from its view) and by
    the Monte Carlo playouts (with one built from an imagined world).
    """
    if len(legal) == 1:
        return legal[0]
    seat = sit.seat
    move: PlayerMove
    if sit.phase is Phase.CHOOSE:
        move = Choose(seat, choose_contract(sit))
    elif sit.phase is Phase.DOUBLE:
        asked = 0
        for m in legal:
            if isinstance(m, Double):
                for doublable in m.cards:
                    asked |= 1 << doublable
        doubles = choose_doubles(sit, asked)
        move = Double(seat, [c for c in range(52) if doubles >> c & 1])
    elif sit.phase is Phase.COMPLEX:
        move = Play(seat, complex_card(sit))
    else:
        card = trix_card(sit)
        move = Pass(seat) if card is None else Play(seat, card)
    return move if move in legal else legal[0]


@frozen
class RuleBot:
    """Sensible, deterministic play from the seat's view alone.

    - Contract: TRIX first with Jacks and connected cards, COMPLEX first
      with a safe hand (guarded Queens, low cards, a void).
    - Doubling: only a K♥ or Queen well guarded by lower cards of its suit,
      with nothing above it in hand.
    - COMPLEX: duck with the highest losing card; when sure to take the
      trick, take it with the highest; when void, shed K♥, Queens and
      diamonds on an opponent's trick, never on the partner's.
    - TRIX: lay cards that unlock my next cards, keep cards the others need.

    It never uses ``rng``: the same view always gets the same move.
    """

    def choose(self, view: View, legal: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """The rule-based move for the view's seat."""
        if len(legal) == 1:
            return legal[0]
        return rule_move(Situation.of_view(view), legal)
