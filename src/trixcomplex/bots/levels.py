"""Levels of play a frontend can offer: RuleBot version 2 played like weaker people.

A weaker player does not throw cards at random: he sees what a good player
sees, less sharply.  :class:`LevelBot` plays RuleBot version 2's judgement
(:func:`~trixcomplex.bots.rule_bot.rule_decision`) with three human
weaknesses, each drawn from the ``rng`` the host hands it (the same ``rng``
gives the same moves):

- **a softer choice**: the move is drawn from a softmax, at the level's
  ``temperature``, over the candidates' scores (:func:`candidate_scores`):
  for the contract, RuleBot's own weighted hand-suitability scores
  (:func:`~trixcomplex.bots.choosing.contract_scores`, in units of
  :data:`CONTRACT_UNIT`); for a card, how far it is from the strong card (a
  neighbouring card of the same suit is a small slip, another suit a large
  one).  Temperature 0 always plays the strong move;
- **a shorter memory**: only the cards of the last ``memory`` finished tricks
  of the deal are remembered (older ones might, as far as it recalls, still
  be out), and with less than the whole deal remembered, who has shown out
  of which suit is forgotten too and the last tricks are not counted out
  exactly;
- **doubles missed**: each card the strong bot would double is left
  undoubled with probability ``miss``.

:func:`level` gives the five levels: ``level(1)`` the weakest, ``level(4)``
RuleBot version 2 itself (fast: about 0.1 ms a decision), ``level(5)`` the
search bot ``mc2`` (:data:`~trixcomplex.bots.MC2`, about 13 ms a decision).
Their ratings, measured on the ladder, are on :doc:`/bots`.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
>>> seen = tc.view(state, state.owner)
>>> weak = level(1)
>>> weak.choose(seen, seen.legal_moves, random.Random(5)) == weak.choose(
...     seen, seen.legal_moves, random.Random(5))
True
>>> level(4)
RuleBot()
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs
from attrs import field, frozen
from attrs.validators import ge, le

from ..core.engine import Phase
from ..core.moves import Choose, Double, Pass, Play, PlayerMove
from .base import Bot
from .choosing import contract_scores
from .rule_bot import RULE_ENDGAME, RuleBot, rule_decision
from .situation import Situation

if TYPE_CHECKING:
    from ..knowledge.views import View

__all__ = [
    "CONTRACT_UNIT",
    "LEVELS",
    "LevelBot",
    "candidate_scores",
    "forget",
    "level",
    "soft_choice",
]

TRICKS = 13
"""Tricks in a deal: a memory of this many remembers the whole deal."""

CONTRACT_UNIT = 20.0
"""How many points of :func:`~trixcomplex.bots.choosing.contract_scores` count as one
unit of a card's distance in :func:`candidate_scores` (a contract scored 20 below the
best is chosen as often as a card one rank away from the strong card)."""

OTHER_SUIT = 6
"""The distance of a card of another suit than the strong card's, plus the ranks apart."""


def _distance(card: int, strong: int) -> int:
    """How far ``card`` is from ``strong``: the ranks apart, plus :data:`OTHER_SUIT` in
    another suit."""
    apart = abs(card % 13 - strong % 13)
    return apart if card // 13 == strong // 13 else apart + OTHER_SUIT


def candidate_scores(
    sit: Situation, legal: Sequence[PlayerMove], strong: PlayerMove
) -> list[tuple[PlayerMove, float]]:
    """Each candidate move with its score (0 the best, lower worse), ``strong`` the strong
    bot's move: contracts by RuleBot's weighted hand-suitability, in units of
    :data:`CONTRACT_UNIT` below the best; cards (and a TRIX pass) by minus their
    distance from the strong card.  Doubling answers and redeals are not scored (the
    strong move alone, scored 0): a level misses doubles by ``miss`` instead.

    >>> from trixcomplex.bots.club import position
    >>> from trixcomplex.core.cards import parse_card
    >>> sit = position(0, "AS 7S 3S 9H", trick="5S", leader=3)
    >>> legal = [Play(0, parse_card(c)) for c in ("AS", "7S", "3S")]
    >>> [(str(m.card), s) for m, s in candidate_scores(sit, legal, legal[1])]
    [('AS', -7.0), ('7S', 0.0), ('3S', -4.0)]
    """
    if sit.phase is Phase.CHOOSE:
        scores = contract_scores(sit)
        best = max(scores.values())
        return [
            (m, (scores.get(m.contract, best) - best) / CONTRACT_UNIT)
            for m in legal
            if isinstance(m, Choose)
        ]
    if isinstance(strong, Play | Pass) and sit.phase is not Phase.DOUBLE:
        target = strong.card if isinstance(strong, Play) else None
        found: list[tuple[PlayerMove, float]] = []
        for m in legal:
            if isinstance(m, Play):
                far = OTHER_SUIT if target is None else _distance(m.card, target)
                found.append((m, float(-far)))
            elif isinstance(m, Pass):
                found.append((m, 0.0 if target is None else -float(OTHER_SUIT)))
        if found:
            return found
    return [(strong, 0.0)]


def soft_choice(
    scored: Sequence[tuple[PlayerMove, float]], temperature: float, rng: random.Random
) -> PlayerMove:
    """A move drawn with probability proportional to ``exp(score / temperature)`` (one
    draw from ``rng``); temperature 0 is the best score, the first on a tie.

    >>> moves = [(Pass(0), 0.0), (Pass(1), -1.0)]
    >>> soft_choice(moves, 0.0, random.Random(1))
    Pass(seat=0)
    >>> picks = [soft_choice(moves, 1.0, random.Random(i)).seat for i in range(1000)]
    >>> 0.65 < picks.count(0) / 1000 < 0.81      # e / (e + 1) = 0.73
    True
    """
    best = max(s for _, s in scored)
    if temperature <= 0 or len(scored) == 1:
        return next(m for m, s in scored if s == best)
    weights = [math.exp((s - best) / temperature) for _, s in scored]
    draw = rng.random() * sum(weights)
    for (move, _), weight in zip(scored, weights, strict=True):
        draw -= weight
        if draw < 0:
            return move
    return scored[-1][0]


def forget(sit: Situation, view: View, memory: int) -> Situation:
    """``sit`` as a player remembering only the last ``memory`` finished tricks of the
    deal sees it: older tricks' cards might still be out, and (unless the whole deal is
    remembered) no seat is known void or known not to hold a card.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
    >>> seen = tc.view(state, state.owner)
    >>> sit = Situation.of_view(seen)
    >>> forget(sit, seen, 0) == sit          # no trick played yet: nothing to forget
    True
    """
    if memory >= TRICKS:
        return sit
    tricks: Any = getattr(view, "tricks", None) or ()
    older = tricks[: max(0, len(tricks) - memory)]
    lost = 0
    for t in older:
        for c in t.cards:
            lost |= 1 << int(c)
    nothing = (0, 0, 0, 0)
    if not lost and sit.void_suits == nothing and sit.cannot_hold == nothing:
        return sit
    return attrs.evolve(sit, gone=sit.gone & ~lost, void_suits=nothing, cannot_hold=nothing)  # type: ignore[misc]


@frozen
class LevelBot:
    """RuleBot version 2's judgement played like a weaker person (see the module).

    - ``temperature``: of the softmax over the candidates' scores (0: the strong move);
    - ``memory``: finished tricks of the deal remembered (13: all, voids included);
    - ``miss``: the chance of leaving each of the strong bot's doubles undoubled.

    >>> LevelBot(temperature=1.0, memory=2, miss=0.5)
    LevelBot(temperature=1.0, memory=2, miss=0.5)
    """

    temperature: float = field(validator=ge(0.0))
    memory: int = field(validator=[ge(0), le(TRICKS)])
    miss: float = field(validator=[ge(0.0), le(1.0)])

    def decide(
        self, view: View, legal: Sequence[PlayerMove], rng: random.Random
    ) -> tuple[PlayerMove, str, PlayerMove]:
        """The level's move, the tactic of the strong move it softened, and the strong
        move itself (RuleBot version 2's, from what this level remembers)."""
        sit = forget(Situation.of_view(view), view, self.memory)
        endgame = RULE_ENDGAME if self.memory >= TRICKS else 0
        strong, why = rule_decision(sit, legal, version=2, endgame=endgame)
        if len(legal) == 1:
            return strong, why, strong
        if isinstance(strong, Double):
            kept = [c for c in sorted(strong.cards) if rng.random() >= self.miss]
            missed = Double(strong.seat, kept)
            return (missed if missed in legal else strong), why, strong
        move = soft_choice(candidate_scores(sit, legal, strong), self.temperature, rng)
        return move, why, strong

    def choose(self, view: View, legal: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """The level's move for the view's seat (drawn from ``rng``)."""
        if len(legal) == 1:
            return legal[0]
        return self.decide(view, legal, rng)[0]

    def wants_redeal(self, view: View, rng: random.Random) -> bool:
        """Whether to demand a redeal offered out of turn (R-OPT-8): as RuleBot does."""
        return RuleBot().wants_redeal(view, rng)


LEVELS: tuple[LevelBot, LevelBot, LevelBot] = (
    LevelBot(temperature=6.0, memory=0, miss=1.0),
    LevelBot(temperature=3.0, memory=0, miss=1.0),
    LevelBot(temperature=1.5, memory=1, miss=0.8),
)
"""Levels 1, 2 and 3 (level 4 is RuleBot version 2, level 5 the search bot ``mc2``)."""

LEVEL_RANGE = range(1, 6)


def level(n: int) -> Bot:
    """The bot of level ``n``, 1 (the weakest) to 5: levels 1 to 3 are :data:`LEVELS`,
    level 4 RuleBot version 2 (the strongest fast level, about 0.1 ms a decision), level 5
    the search bot :data:`~trixcomplex.bots.MC2` (about 13 ms a decision).

    >>> level(2)
    LevelBot(temperature=3.0, memory=0, miss=1.0)
    >>> level(6)
    Traceback (most recent call last):
    ValueError: bad level 6: levels go from 1 to 5
    """
    if not isinstance(n, int) or n not in LEVEL_RANGE:
        raise ValueError(f"bad level {n!r}: levels go from 1 to 5")
    if n <= len(LEVELS):
        return LEVELS[n - 1]
    if n == 4:
        return RuleBot()
    from . import MC2  # the package's search bot (imported late: it imports this module)

    return MC2
