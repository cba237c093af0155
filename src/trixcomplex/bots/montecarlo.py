"""A Monte Carlo bot: imagine the hidden hands, play each move out, keep the best.

For each decision with more than one legal move, :class:`MonteCarloBot`
samples ``worlds`` deals consistent with its view
(:func:`trixcomplex.sample_world`), plays every candidate move in each of
them and finishes the deal with a playout policy (the rules of
:class:`RuleBot`, or uniform random moves), then picks the move with the best
mean gain for the deal (:func:`gain`): in a partnership ruleset its team's
points minus the other team's, in an individual one its own points minus
the others' average, negated under reversed scores (R-OPT-6) so that the
bot always plays to win the ruleset's way.  Every candidate is tried on
the same worlds, so their differences are not blurred by the luck of the
sampling.

A decision reuses its work: the worlds of one view share
:func:`~trixcomplex.sample_world`'s plan, the rule playouts play their
cards on the engine's fast :func:`~trixcomplex.playout`, and RuleBot's card
in a situation met again (in another world, or after another candidate) is
remembered rather than worked out again.  The moves are those of the plain
host loop asking RuleBot every move (``tests/test_search_equivalence.py``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from attrs import field, frozen
from attrs.converters import optional as optional_converter
from attrs.validators import ge, in_, instance_of

from ..core.cards import Card
from ..core.engine import MatchState, Phase, apply
from ..core.moves import Double, Play, PlayerMove
from ..core.playout import PlayoutState, Policy
from ..core.playout import playout as fast_playout
from ..core.rules import redeal_seat
from ..core.turns import next_move
from .endgame import endgame_values, worth
from .inference import likelihood
from .rule_bot import rule_move
from .situation import Situation

if TYPE_CHECKING:
    from ..knowledge.views import View

__all__ = ["MonteCarloBot", "gain", "playout"]


def playout(state: MatchState, rng: random.Random, policy: str = "rule") -> MatchState:
    """Play ``state`` to the end of its deal, every seat following ``policy``.

    ``policy`` is ``"rule"`` (the moves of :class:`RuleBot` version 1, from each
    seat's own situation in the world), ``"rule2"`` (version 2's) or ``"random"``.
    Returns the state right after the deal is scored (phase DEAL, or OVER after the
    8th deal).
    """
    return _playout(state, rng, policy, {})


_Known = dict[tuple[object, ...], dict[tuple[object, ...], PlayerMove]]
"""RuleBot's card plays already found in one decision's playouts: per contract and
doubles, by what else they depend on."""


def _playout(state: MatchState, rng: random.Random, policy: str, known: _Known) -> MatchState:
    """:func:`playout`, remembering the rule playouts' card plays in ``known`` (for reuse
    by the other playouts of the same decision)."""
    if policy == "random":  # the engine's fast playout plays exactly these moves
        return fast_playout(state, rng) if state.phase not in (Phase.DEAL, Phase.OVER) else state
    while state.phase not in (Phase.DEAL, Phase.OVER):
        phase = state.phase
        if phase.plays_tricks or (phase is Phase.TRIX and redeal_seat(state) is None):
            # the card play, on the engine's fast playout: the moves the host loop would ask
            version = 2 if policy == "rule2" else 1
            return fast_playout(state, rng, _card_policy(state, known, version))
        # contract, doubles, a redeal
        state = apply(state, next_move(state, _rule2_policy if policy == "rule2" else _rule_policy))
    return state


class _NoDraws(random.Random):
    """The generator handed to rule playouts, which draw nothing (RuleBot never does):
    seeding a fresh one per playout would cost more than the playout's first moves."""

    def random(self) -> float:
        raise AssertionError("a rule playout drew a random number")

    def getrandbits(self, k: int, /) -> int:
        raise AssertionError("a rule playout drew a random number")


_NO_DRAWS = _NoDraws(0)


def _rule_policy(world: MatchState, seat: int, legal: Sequence[PlayerMove]) -> PlayerMove:
    """RuleBot's move for ``seat`` in a world the bot imagined (its own to search)."""
    return rule_move(Situation.of_world(world, seat), legal)


def _rule2_policy(world: MatchState, seat: int, legal: Sequence[PlayerMove]) -> PlayerMove:
    """RuleBot version 2's move for ``seat`` in a world the bot imagined."""
    return rule_move(Situation.of_world(world, seat), legal, version=2)


def _card_policy(state: MatchState, known: _Known, version: int = 1) -> Policy:
    """RuleBot's card play (``version``) from ``state`` on, as a playout policy.

    The deal's contract, doubles and remaining contracts do not change while
    its cards are played, and RuleBot's card depends on nothing else but the
    seat, its hand, the cards still held, the trick (and its leader) or the
    TRIX table: so a situation met again, in another world of the same
    decision or after another candidate move, gets the card found the first
    time (from ``known``) without thinking again.
    """
    remaining = state.remaining_contracts
    deal = state.trick_deal
    doubled = deal.doubled if deal is not None else ()
    seen = known.setdefault((state.contract, doubled, version), {})

    def policy(game: PlayoutState, moves: tuple[PlayerMove, ...], rng: random.Random) -> PlayerMove:
        if len(moves) == 1:  # forced: the host loop plays it without asking (R-TX-5)
            return moves[0]
        seat = game.turn
        assert seat is not None
        hands = game.hands
        key = (seat, hands[seat], hands[0] | hands[1] | hands[2] | hands[3],
               game.trick, game.leader, game.table)  # fmt: skip
        move = seen.get(key)
        if move is None:
            move = seen[key] = rule_move(
                Situation.of_game(game, seat, remaining), moves, version=version
            )
        return move

    return policy


def gain(before: MatchState, after: MatchState, seat: int) -> int:
    """What the points scored between ``before`` and ``after`` are worth to ``seat``.

    Partnership rulesets: its team's points minus the other team's (Team
    Totals decide, R-MATCH-8).  Individual rulesets: three times its own
    points minus the other three seats' (its points above their average,
    times 3), since the best individual total wins (R-IND-1).  Reversed
    scores negate it: the lowest total wins (R-OPT-6).
    """
    diff = [a - b for a, b in zip(after.scores, before.scores, strict=True)]
    return worth(diff, seat, after.ruleset)


@frozen
class MonteCarloBot:
    """Search by sampling worlds and playing each legal move out to the end of the deal.

    - ``worlds``: worlds sampled per decision (the budget; more is stronger
      and slower).
    - ``policy``: how the playouts are played: ``"rule"`` (RuleBot version 1),
      ``"rule2"`` (RuleBot version 2) or ``"random"``.
    - ``time_budget``: optional CPU seconds per decision (measured by ``clock``,
      :func:`time.process_time` unless another is given, as tests do): worlds
      are played until it is spent, at most ``worlds`` of them and at least one.
      Results then depend on the machine's speed: leave it ``None`` for
      reproducible play.
    - ``inference``: weight each world by how likely its hands made the other
      seats' card plays and doubling answers seen so far, RuleBot's rules
      being their model (:func:`~trixcomplex.bots.inference.likelihood`).
    - ``endgame``: with this many cards or fewer in my hand in a trick
      contract, no playouts: every layout of the unseen cards consistent with
      the view is solved exactly (:func:`~trixcomplex.bots.endgame.endgame_values`;
      0: never).

    A single legal move is returned at once, without search.  ``mc2`` of
    :func:`~trixcomplex.bots.bot_named` is the bot with all of these:
    version 2 playouts, inference and the endgame solve in the last two tricks.

    >>> MonteCarloBot(worlds=8)
    MonteCarloBot(worlds=8, policy='rule', time_budget=None)
    >>> MonteCarloBot(worlds=8, policy="rule2", inference=True, endgame=2)
    MonteCarloBot(worlds=8, policy='rule2', time_budget=None, inference=True, endgame=2)
    """

    worlds: int = field(default=16, validator=[instance_of(int), ge(1)])
    policy: str = field(default="rule", validator=in_(("rule", "rule2", "random")))
    time_budget: float | None = field(default=None, converter=optional_converter(float))
    inference: bool = field(default=False, validator=instance_of(bool))
    endgame: int = field(default=0, validator=[instance_of(int), ge(0)])
    clock: Callable[[], float] = field(default=time.process_time, eq=False, repr=False)

    def __repr__(self) -> str:
        text = (
            f"MonteCarloBot(worlds={self.worlds}, policy={self.policy!r}, "
            f"time_budget={self.time_budget!r}"
        )
        if self.inference:
            text += ", inference=True"
        if self.endgame:
            text += f", endgame={self.endgame}"
        return text + ")"

    def solves_exactly(self, view: View) -> bool:
        """Whether :meth:`evaluate` solves this view's decision exactly (``endgame``):
        a card play of a trick contract of the ruleset's own, with ``endgame`` cards
        or fewer in hand."""
        return (
            bool(self.endgame)
            and view.phase.plays_tricks
            and len(view.hand) <= self.endgame
            and view.contract in view.ruleset.contracts
        )

    @property
    def version(self) -> int:
        """The RuleBot version of the playouts, the candidates' order and the inference."""
        return 2 if self.policy == "rule2" else 1

    def candidates(self, view: View, legal: Sequence[PlayerMove]) -> list[PlayerMove]:
        """The moves worth searching, RuleBot's move first (it wins ties).

        All legal moves, except in a large doubling window: with many
        doublable cards there are up to 32 answers, and only doubling
        nothing, each single card and the rule-based answer are searched.
        Ties are common (a TRIX card often changes no finishing place in the
        playouts); they go to the rule-based move, not to the lowest card.
        """
        rule = rule_move(Situation.of_view(view), legal, version=self.version)
        if len(legal) <= 8 or not isinstance(legal[0], Double):
            return [rule, *(m for m in legal if m != rule)]
        small = (m for m in legal if isinstance(m, Double) and len(m.cards) <= 1 and m != rule)
        return [rule, *small]

    def choose(self, view: View, legal: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """The candidate with the best mean :func:`gain` over the sampled worlds."""
        if len(legal) == 1:
            return legal[0]
        moves, means, _ = self.evaluate(view, legal, rng)
        best = max(range(len(moves)), key=lambda i: (means[i], -i))
        return moves[best]

    def evaluate(
        self, view: View, legal: Sequence[PlayerMove], rng: random.Random
    ) -> tuple[list[PlayerMove], list[float], int]:
        """The candidates searched, the mean :func:`gain` of each over the worlds
        (weighted by their likelihood with ``inference``), and how many worlds were
        played, or layouts solved in the endgame (what :meth:`choose` decides by)."""
        from ..knowledge.worlds import sample_world  # layer 5, imported when first needed

        seat = view.seat
        assert seat is not None, "a bot plays a seat, not the spectator's view"
        sit = Situation.of_view(view) if self.inference or self.endgame else None
        tricks = [(t.leader, t.cards) for t in view.tricks or ()]
        if sit is not None and self.solves_exactly(view):
            solved = self._endgame(sit, tricks, legal)
            if solved is not None:
                return solved
        moves = self.candidates(view, legal)
        totals = [0.0] * len(moves)
        start = self.clock()
        known: _Known = {}  # shared by every playout of this decision
        played, weights = 0, 0.0
        for _ in range(self.worlds):
            world = sample_world(view, rng)
            seed = rng.getrandbits(64)
            weight = 1.0
            if self.inference and sit is not None and view.phase.plays_tricks:
                weight = likelihood(sit, world.hands, tricks, self.version)
            for i, move in enumerate(moves):
                draws = random.Random(seed) if self.policy == "random" else _NO_DRAWS
                after = _playout(apply(world, move), draws, self.policy, known)
                totals[i] += weight * gain(world, after, seat)
            played += 1
            weights += weight
            if self.time_budget is not None and self.clock() - start >= self.time_budget:
                break
        return moves, [t / weights for t in totals], played

    def _endgame(
        self,
        sit: Situation,
        tricks: Sequence[tuple[int, Sequence[Card]]],
        legal: Sequence[PlayerMove],
    ) -> tuple[list[PlayerMove], list[float], int] | None:
        """:meth:`evaluate` by the exact solve (:meth:`solves_exactly`)."""

        def weigh(hands: tuple[int, int, int, int]) -> float:
            return likelihood(sit, hands, tricks, self.version)

        solved = endgame_values(sit, weigh if self.inference else None)
        if solved is None:
            return None
        cards, means, layouts = solved
        by_card = {m.card: m for m in legal if isinstance(m, Play)}
        if set(cards) != set(by_card):
            return None
        return [by_card[c] for c in cards], means, layouts

    def wants_redeal(self, view: View, rng: random.Random) -> bool:
        """Demand a redeal offered out of turn (R-OPT-8) when playing on loses.

        The deal is played on in ``worlds`` sampled worlds; a redeal scores
        nothing, so it is demanded when the mean :func:`gain` of playing on
        is below 0.
        """
        from ..knowledge.worlds import sample_world

        seat = view.seat
        assert seat is not None, "a bot plays a seat, not the spectator's view"
        total = 0
        known: _Known = {}
        start = self.clock()
        for _ in range(self.worlds):
            world = sample_world(view, rng)
            seed = rng.getrandbits(64)
            draws = random.Random(seed) if self.policy == "random" else _NO_DRAWS
            total += gain(world, _playout(world, draws, self.policy, known), seat)
            if self.time_budget is not None and self.clock() - start >= self.time_budget:
                break
        return total < 0
