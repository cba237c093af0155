"""A rule-based bot: the play a human would recognise (see :mod:`.tactics`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from attrs import frozen

from ..core.engine import Phase
from ..core.moves import Choose, Double, Pass, Play, PlayerMove, Redeal
from .tactics import (
    CONTRACT_WEIGHTS,
    ContractWeights,
    Situation,
    choose_contract,
    choose_doubles,
    complex_card,
    trix_card,
    wants_redeal,
)

if TYPE_CHECKING:
    from ..knowledge.views import View

__all__ = ["RuleBot", "rule_move"]


def rule_move(
    sit: Situation, legal: Sequence[PlayerMove], weights: ContractWeights = CONTRACT_WEIGHTS
) -> PlayerMove:
    """The rule-based move for ``sit`` among ``legal`` (the seat's legal moves).

    Shared by :class:`RuleBot` (with a situation built from its view) and by
    the Monte Carlo playouts (with one built from an imagined world);
    ``weights`` are the contract-choice weights.
    """
    if len(legal) == 1:
        return legal[0]
    seat = sit.seat
    move: PlayerMove
    if sit.phase is Phase.CHOOSE:
        move = Choose(seat, choose_contract(sit, weights))
    elif sit.phase is Phase.DOUBLE:
        asked = 0
        for m in legal:
            if isinstance(m, Double):
                for doublable in m.cards:
                    asked |= 1 << doublable
        doubles = choose_doubles(sit, asked)
        move = Double(seat, [c for c in range(52) if doubles >> c & 1])
    elif sit.phase.plays_tricks:
        return _play(legal, seat, complex_card(sit))
    elif any(type(m) is Redeal and m.seat == seat for m in legal) and wants_redeal(sit):
        move = Redeal(seat)
    else:
        card = trix_card(sit)
        if card is not None:
            return _play(legal, seat, card)
        move = Pass(seat)
    return move if move in legal else legal[0]


def _play(legal: Sequence[PlayerMove], seat: int, card: int) -> PlayerMove:
    """``Play(seat, card)`` as ``legal`` lists it (the engine's own object), else ``legal[0]``."""
    for move in legal:
        if type(move) is Play and move.card == card and move.seat == seat:
            return move
    return legal[0]


@frozen(repr=False)
class RuleBot:
    """Sensible, deterministic play from the seat's view alone, in every ruleset.

    - Contract: the remaining contract the hand suits best
      (:func:`~trixcomplex.bots.tactics.contract_goodness`): TRIX with Jacks
      and connected cards, COMPLEX with a safe hand, King of Hearts when long
      in hearts, Queens with guarded Queens, Diamonds when short in diamonds,
      Ltoosh with low cards.
    - Doubling: only a doublable card offered (K♥, Queens) that is well
      guarded by lower cards of its suit, with nothing above it in hand;
      more readily in King of Hearts and Queens, where nothing else counts.
    - Trick contracts: duck with the highest losing card; when sure to take
      the trick, take it with the highest; when void, shed the contract's
      penalty cards on an opponent's trick, never on the partner's (in an
      individual ruleset every other seat is an opponent).
    - TRIX: lay cards that unlock my next cards, keep cards the others need;
      demand a redeal with a bad hand (R-OPT-8).

    It never uses ``rng``: the same view always gets the same move.
    ``weights`` are the contract-choice weights (by default the ones fitted
    by ``benchmarks/fit_weights.py``).

    >>> RuleBot()
    RuleBot()
    """

    weights: ContractWeights = CONTRACT_WEIGHTS

    def __repr__(self) -> str:
        return "RuleBot()" if self.weights == CONTRACT_WEIGHTS else f"RuleBot({self.weights!r})"

    def choose(self, view: View, legal: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """The rule-based move for the view's seat."""
        if len(legal) == 1:
            return legal[0]
        return rule_move(Situation.of_view(view), legal, self.weights)

    def wants_redeal(self, view: View, rng: random.Random) -> bool:
        """Whether to demand a redeal offered out of turn (R-OPT-8): with a bad hand, yes."""
        return wants_redeal(Situation.of_view(view))
