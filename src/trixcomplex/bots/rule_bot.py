"""A rule-based bot: the play a human would recognise (see :mod:`.tactics` and :mod:`.club`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from attrs import field, frozen
from attrs.validators import ge, in_, instance_of

from ..core.engine import Phase
from ..core.moves import Choose, Double, Pass, Play, PlayerMove, Redeal
from .choosing import (
    CONTRACT_WEIGHTS,
    ContractWeights,
    choose_contract,
    choose_doubles,
    wants_redeal,
)
from .club import TACTIC_WEIGHTS, TacticWeights, club_card, double_by_length
from .endgame import endgame_card
from .situation import Situation
from .trick_play import complex_card
from .trix_play import trix_card

if TYPE_CHECKING:
    from ..knowledge.views import View

__all__ = ["RULE_BOT_VERSIONS", "RULE_ENDGAME", "RuleBot", "rule_decision", "rule_move"]

RULE_BOT_VERSIONS = (1, 2)
"""The versions of :class:`RuleBot`'s play (2, the default, reads voids and doubles)."""

RULE_ENDGAME = 2
"""Version 2 solves the trick play exactly with this many cards or fewer in hand
(:func:`~trixcomplex.bots.endgame.endgame_card`, within its budget of layouts)."""

# Module constants: on Python 3.11 ``Phase.CHOOSE`` in a function is an unspecialized
# class attribute look-up (about 940 machine instructions), paid twice for every card
# a Monte Carlo playout asks this bot for (issue 44).
_CHOOSE, _DOUBLE = Phase.CHOOSE, Phase.DOUBLE


def rule_move(
    sit: Situation,
    legal: Sequence[PlayerMove],
    weights: ContractWeights = CONTRACT_WEIGHTS,
    version: int = 1,
    tactics: TacticWeights = TACTIC_WEIGHTS,
    endgame: int = 0,
) -> PlayerMove:
    """The rule-based move for ``sit`` among ``legal`` (the seat's legal moves).

    Shared by :class:`RuleBot` (with a situation built from its view) and by
    the Monte Carlo playouts (with one built from an imagined world);
    ``weights`` are the contract-choice weights, ``version`` the version of
    the play (``tactics``: version 2's weights; ``endgame``: with this many cards or
    fewer in hand version 2 solves the last tricks exactly, 0: never).
    """
    if len(legal) == 1:
        return legal[0]
    return rule_decision(sit, legal, weights, version, tactics, endgame)[0]


def rule_decision(
    sit: Situation,
    legal: Sequence[PlayerMove],
    weights: ContractWeights = CONTRACT_WEIGHTS,
    version: int = 1,
    tactics: TacticWeights = TACTIC_WEIGHTS,
    endgame: int = 0,
) -> tuple[PlayerMove, str]:
    """:func:`rule_move`, and the name of the tactic (the function) that chose it."""
    seat = sit.seat
    if len(legal) == 1:
        return legal[0], "forced"
    move: PlayerMove
    if sit.phase is _CHOOSE:
        move, why = Choose(seat, choose_contract(sit, weights)), "choose_contract"
    elif sit.phase is _DOUBLE:
        asked = 0
        for m in legal:
            if isinstance(m, Double):
                for doublable in m.cards:
                    asked |= 1 << doublable
        doubles, why = choose_doubles(sit, asked), "choose_doubles"
        if version >= 2:
            more = double_by_length(sit, asked, tactics)
            if more & ~doubles:
                why = "double_by_length"
            doubles |= more
        move = Double(seat, [c for c in range(52) if doubles >> c & 1])
    elif sit.phase.plays_tricks:
        if version >= 2:
            card, why = club_card(sit, tactics)
            if sit.hand.bit_count() <= endgame and why != "forced":
                exact = endgame_card(sit, card)
                if exact is not None and exact != card:
                    card, why = exact, "endgame_card"
            return _play(legal, seat, card), why
        return _play(legal, seat, complex_card(sit)), "complex_card"
    elif any(type(m) is Redeal and m.seat == seat for m in legal) and wants_redeal(sit):
        move, why = Redeal(seat), "wants_redeal"
    else:
        laid = trix_card(sit)
        if laid is not None:
            return _play(legal, seat, laid), "trix_card"
        move, why = Pass(seat), "trix_card"
    return (move if move in legal else legal[0]), why


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

    Version 2 (the default) plays like a strong club player: it also reads
    what the table has shown (voids, revealed doubles) with the tactics of
    :mod:`trixcomplex.bots.club` — doubling by the suit's length and the
    voids to come, no lead into the opponents' voids, leads into the
    partner's void, the doubled-card tactics, shedding towards a diamond
    void; and in the last ``endgame`` tricks (:data:`RULE_ENDGAME`, 0:
    never) the card of the best mean exact value over every layout of the
    unseen cards the view allows (:func:`~trixcomplex.bots.endgame.endgame_card`).
    ``RuleBot(version=1)`` keeps the first version's play exactly, for
    comparisons.

    It never uses ``rng``: the same view always gets the same move.
    ``weights`` are the contract-choice weights (by default the ones fitted
    by ``benchmarks/fit_weights.py``), ``tactics`` version 2's weights.

    >>> RuleBot(), RuleBot(version=1)
    (RuleBot(), RuleBot(version=1))
    """

    weights: ContractWeights = CONTRACT_WEIGHTS
    version: int = field(default=2, validator=in_(RULE_BOT_VERSIONS), kw_only=True)
    tactics: TacticWeights = field(default=TACTIC_WEIGHTS, kw_only=True)
    endgame: int = field(default=RULE_ENDGAME, validator=[instance_of(int), ge(0)], kw_only=True)

    def __repr__(self) -> str:
        args = [] if self.weights == CONTRACT_WEIGHTS else [repr(self.weights)]
        if self.version != 2:
            args.append(f"version={self.version}")
        if self.tactics != TACTIC_WEIGHTS:
            args.append(f"tactics={self.tactics!r}")
        if self.endgame != RULE_ENDGAME:
            args.append(f"endgame={self.endgame}")
        return f"RuleBot({', '.join(args)})"

    def choose(self, view: View, legal: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """The rule-based move for the view's seat."""
        if len(legal) == 1:
            return legal[0]
        return rule_move(Situation.of_view(view), legal, self.weights, self.version, self.tactics,
                         self.endgame)  # fmt: skip

    def decide(self, view: View, legal: Sequence[PlayerMove]) -> tuple[PlayerMove, str]:
        """:meth:`choose`'s move and the name of the tactic that chose it."""
        return rule_decision(Situation.of_view(view), legal, self.weights, self.version,
                             self.tactics, self.endgame)  # fmt: skip

    def wants_redeal(self, view: View, rng: random.Random) -> bool:
        """Whether to demand a redeal offered out of turn (R-OPT-8): with a bad hand, yes."""
        return wants_redeal(Situation.of_view(view))
