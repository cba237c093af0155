"""Hints a player learns from: the move, why (the tactic), the cards that matter, and what
each alternative would cost, in the player's words and language.

:func:`hint` asks the level the player chose (:func:`~trixcomplex.bots.level`) for its
move and its reason, names the cards the reason turns on, and prices the alternatives
with a short search (:data:`PRICER`: the same worlds for every candidate, each played
out by RuleBot, the last two tricks solved exactly), so that a hint says not only
*what* but *how much it matters*.  Like the bots it reads only the seat's view.
:meth:`Hint.text` writes it in English or Arabic (``locale=``, the message catalog
:mod:`trixcomplex.core.catalog`).

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
>>> advice = hint(tc.view(state, state.owner), 4, rng=random.Random(1))
>>> advice.tactic, advice.level
('choose_contract', 4)
>>> from trixcomplex.core.catalog import contract_words
>>> advice.text().startswith(contract_words(advice.move.contract) + ":")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from attrs import frozen

from ..core.cards import Card
from ..core.catalog import contract_words, signed, translate
from ..core.engine import Phase
from ..core.moves import Choose, Double, Play, PlayerMove, Redeal
from .diagnostics import TACTICS, explain
from .levels import level
from .montecarlo import MonteCarloBot
from .situation import _KH, Situation

if TYPE_CHECKING:
    from ..knowledge.views import View

__all__ = ["HINT_WORLDS", "PRICER", "Hint", "cards_that_matter", "hint", "move_words"]

HINT_WORLDS = 8
"""The worlds :data:`PRICER` plays every candidate in (about 10 ms of CPU a hint)."""

PRICER = MonteCarloBot(worlds=HINT_WORLDS, endgame=2, equals=True, rule_version=2)
"""The search that prices the alternatives: every candidate (one card of each group of
equals) played out in the same worlds by RuleBot, the last two tricks solved exactly."""


def move_words(move: PlayerMove, locale: str = "en") -> str:
    """A move as a player names it: the card, the contract, the cards doubled, pass.

    >>> from trixcomplex.core.cards import parse_card
    >>> move_words(Play(0, parse_card("QS"))), move_words(Double(1, []), "ar")
    ('Q♠', 'لا أضاعف')
    """
    if isinstance(move, Play):
        return move.card.symbol
    if isinstance(move, Choose):
        return contract_words(move.contract, locale)
    if isinstance(move, Double):
        if not move.cards:
            return translate("no double", locale)
        return translate(
            "double {cards}", locale, cards=" ".join(c.symbol for c in sorted(move.cards))
        )
    if isinstance(move, Redeal):
        return translate("demand a redeal", locale)
    return translate("pass", locale)


def cards_that_matter(sit: Situation, move: PlayerMove) -> tuple[Card, ...]:
    """The cards a decision turns on, as far as the seat can see: in a trick, the card
    winning it so far and the penalty cards (K♥, Queens) on it; my side's and the
    opponents' doubled cards still out; in TRIX, my cards the card laid unlocks (the next
    ranks of its suit in my hand); when doubling, the cards doubled.

    >>> from trixcomplex.bots.club import position
    >>> from trixcomplex.core.cards import parse_card
    >>> sit = position(0, "AS 7S 3S 9H", trick="QS 5S", leader=2)
    >>> [c.symbol for c in cards_that_matter(sit, Play(0, parse_card("7S")))]
    ['Q♠']
    """
    found: list[Card] = []
    if isinstance(move, Double):
        return tuple(sorted(move.cards))
    if sit.phase is Phase.TRIX and isinstance(move, Play):
        c = int(move.card)
        for step in (1, -1):
            nxt = c + step
            if nxt // 13 == c // 13 and sit.hand >> nxt & 1:
                found.append(Card(nxt))
        return tuple(found)
    if sit.phase.plays_tricks:
        if sit.trick:
            led = sit.trick[0] // 13
            best = max((c for c in sit.trick if c // 13 == led), key=int)
            found.append(best)
            found.extend(c for c in sit.trick if c != best and _penalty(int(c)))
        found.extend(c for c, _ in sit.doubled if not (sit.gone >> int(c) & 1) and c not in found)
    return tuple(found)


def _penalty(card: int) -> bool:
    """K♥ or a Queen: the cards that cost most in a trick."""
    return (1 << card) == _KH or card % 13 == 10


@frozen
class Hint:
    """A hint for one decision (see the module).

    - ``move``: the move the chosen level makes; ``level``: that level (1 to 5);
    - ``tactic``: the reason's name (a key of :data:`~trixcomplex.bots.diagnostics.TACTICS`);
    - ``cards``: the cards that matter (:func:`cards_that_matter`);
    - ``costs``: each other candidate searched and what it would cost, in points of the
      deal against ``move`` (positive: worse), cheapest first; empty when the decision
      was not priced (a single legal move);
    - ``sharper``: when the level softened the strong move, that strong move.
    """

    move: PlayerMove
    tactic: str
    level: int
    cards: tuple[Card, ...] = ()
    costs: tuple[tuple[PlayerMove, float], ...] = ()
    sharper: PlayerMove | None = None

    def text(self, locale: str = "en") -> str:
        """The hint in a player's words, in ``locale``'s language (English, Arabic)."""
        parts = [
            translate(
                "{move}: {why}.",
                locale,
                move=move_words(self.move, locale),
                why=translate(TACTICS[self.tactic], locale),
            )
        ]
        if self.cards:
            shown = " ".join(c.symbol for c in self.cards)
            parts.append(translate("The cards that matter: {cards}.", locale, cards=shown))
        if self.costs:
            priced = ", ".join(
                translate(
                    "{move} {points}",
                    locale,
                    move=move_words(m, locale),
                    points=signed(-round(cost), locale),
                )
                for m, cost in self.costs[:3]
            )
            parts.append(translate("Each other choice, in points against this one: {moves}.",
                                   locale, moves=priced))  # fmt: skip
        if self.sharper is not None and self.sharper != self.move:
            parts.append(translate("A stronger player would play {move}.", locale,
                                   move=move_words(self.sharper, locale)))  # fmt: skip
        return " ".join(parts)

    def __str__(self) -> str:
        return self.text()


def hint(
    view: View,
    level_number: int = 4,
    legal: Sequence[PlayerMove] | None = None,
    rng: random.Random | None = None,
    price: bool = True,
) -> Hint:
    """The hint of level ``level_number`` (1 to 5, :func:`~trixcomplex.bots.level`) for
    the view's seat: its move, its reason, the cards that matter and, with ``price``,
    what each alternative costs (:data:`PRICER`'s search, drawn from ``rng``; a fresh
    ``random.Random(0)`` by default, so a hint is reproducible).

    Raises ``ValueError`` for a level outside 1 to 5, or when the seat has no move.
    """
    moves = tuple(view.legal_moves if legal is None else legal)
    rng = random.Random(0) if rng is None else rng
    told = explain(level(level_number), view, moves, rng)
    sit = Situation.of_view(view)
    costs: tuple[tuple[PlayerMove, float], ...] = ()
    if price and len(moves) > 1 and not isinstance(told.move, Redeal):
        found = PRICER.search(view, moves, rng)
        means = dict(zip(found.moves, found.means, strict=True))
        mine = means.get(told.move)
        if mine is None:  # the move stands in a group of equals: its representative's mean
            mine = max(found.means) if told.move == found.move else _equal_mean(sit, told, means)
        costs = tuple(
            sorted(((m, mine - g) for m, g in means.items() if m != told.move), key=lambda x: x[1])
        )
    return Hint(told.move, told.tactic, level_number, cards_that_matter(sit, told.move), costs,
                told.sharper)  # fmt: skip


def _equal_mean(sit: Situation, told: object, means: dict[PlayerMove, float]) -> float:
    """The mean of the searched card of the same suit nearest in rank to the hint's card
    (its equal: the search plays one card of each group of equals)."""
    move = getattr(told, "move", None)
    if isinstance(move, Play):
        same = [(abs(int(m.card) - int(move.card)), g) for m, g in means.items()
                if isinstance(m, Play) and m.card // 13 == move.card // 13]  # fmt: skip
        if same:
            return min(same, key=lambda x: x[0])[1]
    return max(means.values())
