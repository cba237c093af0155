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

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from attrs import field, frozen
from attrs.converters import optional as optional_converter
from attrs.validators import ge, in_, instance_of
from attrs.validators import optional as optional_validator

from ..core.cards import Card, cards_of
from ..core.engine import MatchState, Phase, apply
from ..core.moves import Double, Play, PlayerMove
from ..core.playout import PlayoutState, Policy
from ..core.playout import playout as fast_playout
from ..core.rules import redeal_seat
from ..core.turns import next_move
from .endgame import endgame_values, worth
from .equals import equal_groups
from .inference import likelihood
from .rule_bot import RULE_BOT_VERSIONS, rule_decision, rule_move
from .situation import Situation

if TYPE_CHECKING:
    from ..knowledge.views import View

__all__ = ["MonteCarloBot", "Search", "advantage", "gain", "playout"]


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


# Module constants (a ``Phase`` member read in a function is a class attribute look-up,
# unspecialized on Python 3.11: about 940 machine instructions; issue 44).
_BETWEEN_DEALS = (Phase.DEAL, Phase.OVER)
_TRIX = Phase.TRIX


def _playout(state: MatchState, rng: random.Random, policy: str, known: _Known) -> MatchState:
    """:func:`playout`, remembering the rule playouts' card plays in ``known`` (for reuse
    by the other playouts of the same decision)."""
    if policy == "random":  # the engine's fast playout plays exactly these moves
        return fast_playout(state, rng) if state.phase not in _BETWEEN_DEALS else state
    while state.phase not in _BETWEEN_DEALS:
        phase = state.phase
        if phase.plays_tricks or (phase is _TRIX and redeal_seat(state) is None):
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
        if move is None:  # rule_move's answer: two or more moves, so its rule_decision's
            move = seen[key] = rule_decision(
                Situation.of_game(game, seat, remaining), moves, version=version
            )[0]
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
class Search:
    """What :meth:`MonteCarloBot.search` found for one decision (a frozen record).

    - ``move``: the move chosen.
    - ``moves``: the candidates searched, RuleBot's move first.
    - ``means``: per candidate, its mean :func:`gain` over the worlds it was played in
      (weighted by their likelihood with inference), or its exact mean over the
      layouts in the endgame.
    - ``worlds``: per candidate, the worlds it was played in (with halving, fewer for
      the candidates dropped early), or the layouts solved.
    - ``sampled``: the worlds sampled (or layouts solved) for the decision.
    - ``exact``: whether the last tricks were solved exactly instead.
    - ``advantages``: with ``caution``, per candidate its :func:`advantage` over
      RuleBot's move (RuleBot's own: 0.0), the move chosen being the greatest
      (RuleBot's on a tie); empty without ``caution`` or when solved exactly.
    """

    move: PlayerMove
    moves: tuple[PlayerMove, ...]
    means: tuple[float, ...]
    worlds: tuple[int, ...]
    sampled: int
    exact: bool = False
    advantages: tuple[float, ...] = ()


def advantage(
    gains: Sequence[float], rule_gains: Sequence[float], weights: Sequence[float], caution: float
) -> float:
    """How surely a candidate gains more than RuleBot's move: the mean of its gain less
    RuleBot's move's gain, world by world, less ``caution`` standard errors of that mean.

    The worlds are the first ``len(gains)`` of the decision (both moves were played in
    them), weighted by ``weights`` (1.0 each without inference; the standard error is
    that of a weighted mean, over the worlds' effective number).  With fewer than two
    worlds there is no spread to measure, and nothing is sure: ``-inf``.

    >>> advantage([10, 30, 20], [0, 10, 20], [1.0, 1.0, 1.0], 0.0)  # differences 10, 20, 0
    10.0
    >>> advantage([10, 30, 20], [0, 10, 20], [1.0, 1.0, 1.0], 1.0)  # one standard error less
    4.226497308103742
    >>> advantage([50], [0], [1.0], 1.0)
    -inf
    """
    n = len(gains)
    w = weights[:n]
    total = sum(w)
    if n < 2 or total <= 0:
        return -math.inf
    squares = sum(x * x for x in w)
    spread = total - squares / total  # the unbiased weighted variance's denominator
    if spread <= 0:  # all the weight on one world
        return -math.inf
    diffs = [g - r for g, r in zip(gains, rule_gains[:n], strict=True)]
    mean = sum(x * d for x, d in zip(w, diffs, strict=True)) / total
    variance = sum(x * (d - mean) ** 2 for x, d in zip(w, diffs, strict=True)) / spread
    return mean - caution * math.sqrt(variance * squares) / total


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
    - ``equals``: in a trick contract, search one card of each group of equals
      (:func:`~trixcomplex.bots.equals.equal_groups`: cards that take the same
      tricks at the same cost), RuleBot's card where it is one of them: the same
      choices for fewer playouts.
    - ``halving``: successive halving (Karnin, Koren and Somekh 2013): the
      worlds come in rounds, and after each the worse half of the candidates
      is dropped, so the playouts go to telling the best candidates apart
      (:meth:`search`); the same number of playouts as without.
    - ``search_trix``: search the cards laid in TRIX too; when ``False``
      they are RuleBot's (:meth:`searches`), the better TRIX player of the
      two (see :doc:`/bots`), and no time goes to them.
    - ``caution``: RuleBot's move is played unless another candidate gains
      more than it surely enough: by more than ``caution`` standard errors of
      the mean difference, world by world (:func:`advantage`).  A few worlds
      make every mean noisy, and the best of several noisy means is too often
      a move that only looked better; RuleBot's move is the sound default.
      0.0 (the default): the best mean, as before.  With ``halving`` the rule
      move stays in every round, since every candidate is measured against it.
    - ``rule_version``: the RuleBot version whose move is the default
      (:attr:`default_version`: the first candidate, the move ``caution`` keeps,
      the TRIX cards with ``search_trix`` off); ``None``: the playouts' version.
      Version 2 is the stronger player, version 1 the better playout policy, so
      ``mc2`` takes version 2's moves as the default and plays version 1's out.

    A single legal move is returned at once, without search.  ``mc2`` of
    :func:`~trixcomplex.bots.bot_named` (:data:`~trixcomplex.bots.MC2`) is 16
    worlds with equals, the endgame solve of the last two tricks, ``caution=1.0``
    and RuleBot version 2's moves as the default (TRIX laid by them).

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
    equals: bool = field(default=False, validator=instance_of(bool))
    halving: bool = field(default=False, validator=instance_of(bool))
    search_trix: bool = field(default=True, validator=instance_of(bool))
    caution: float = field(default=0.0, converter=float, validator=ge(0.0))
    rule_version: int | None = field(
        default=None, validator=optional_validator(in_(RULE_BOT_VERSIONS))
    )
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
        if self.equals:
            text += ", equals=True"
        if self.halving:
            text += ", halving=True"
        if not self.search_trix:
            text += ", search_trix=False"
        if self.caution:
            text += f", caution={self.caution!r}"
        if self.rule_version is not None:
            text += f", rule_version={self.rule_version}"
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

    def searches(self, view: View) -> bool:
        """Whether the view's decision is searched: every one, except the cards laid
        in TRIX when ``search_trix`` is off (RuleBot's rules lay them)."""
        return self.search_trix or view.phase is not Phase.TRIX

    @property
    def version(self) -> int:
        """The RuleBot version of the playouts and of the inference's model of play."""
        return 2 if self.policy == "rule2" else 1

    @property
    def default_version(self) -> int:
        """The RuleBot version whose move is the default: the first candidate (it wins
        ties, and ``caution`` keeps it), the TRIX cards when ``search_trix`` is off;
        ``rule_version``, else the playouts' :attr:`version`."""
        return self.version if self.rule_version is None else self.rule_version

    def candidates(self, view: View, legal: Sequence[PlayerMove]) -> list[PlayerMove]:
        """The moves worth searching, RuleBot's move first (it wins ties).

        All legal moves, except in a large doubling window: with many
        doublable cards there are up to 32 answers, and only doubling
        nothing, each single card and the rule-based answer are searched.
        Ties are common (a TRIX card often changes no finishing place in the
        playouts); they go to the rule-based move, not to the lowest card.
        With ``equals``, a trick contract's card play searches one card of each
        group of equals: RuleBot's where it is in the group, else the lowest.
        """
        sit = Situation.of_view(view)
        rule = rule_move(sit, legal, version=self.default_version)
        if self.equals and view.phase.plays_tricks and isinstance(rule, Play):
            by_card = {m.card: m for m in legal if isinstance(m, Play)}
            groups = equal_groups(sit, sum((1 << c for c in by_card), 0))
            firsts = [cards_of(g)[0] for g in groups if not g >> rule.card & 1]
            return [rule, *(by_card[c] for c in firsts)]
        if len(legal) <= 8 or not isinstance(legal[0], Double):
            return [rule, *(m for m in legal if m != rule)]
        small = (m for m in legal if isinstance(m, Double) and len(m.cards) <= 1 and m != rule)
        return [rule, *small]

    def choose(self, view: View, legal: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """The move of :meth:`search`: the best mean :func:`gain` over the sampled worlds
        (RuleBot's move where :meth:`searches` says no)."""
        if len(legal) == 1:
            return legal[0]
        return self.search(view, legal, rng).move

    def evaluate(
        self, view: View, legal: Sequence[PlayerMove], rng: random.Random
    ) -> tuple[list[PlayerMove], list[float], int]:
        """The candidates searched, the mean :func:`gain` of each over its worlds
        (weighted by their likelihood with ``inference``), and the most worlds a
        candidate was played in, or the layouts solved in the endgame: :meth:`search`
        as plain lists."""
        found = self.search(view, legal, rng)
        return list(found.moves), list(found.means), max(found.worlds)

    def search(self, view: View, legal: Sequence[PlayerMove], rng: random.Random) -> Search:
        """Search the decision: the move chosen, and each candidate's mean :func:`gain`
        and worlds (:class:`Search`).

        Every candidate is played in the same worlds, world after world.  With
        ``halving`` the worlds come in rounds, and after each round the worse half
        of the candidates still searched is dropped: the ``worlds`` × candidates
        playouts are spread evenly over the rounds, so the last two candidates are
        compared over about ``worlds`` × candidates / 2 / rounds worlds each, more
        than ``worlds`` when there are more than four candidates.  The move chosen is
        the best mean among the candidates of the last round (the rule-based move
        first on a tie); with ``caution``, the greatest :func:`advantage` over the
        rule-based move, which is chosen unless some candidate's is above 0.
        """
        from ..knowledge.worlds import sample_world  # layer 5, imported when first needed

        seat = view.seat
        assert seat is not None, "a bot plays a seat, not the spectator's view"
        if not self.searches(view):
            rule = rule_move(Situation.of_view(view), legal, version=self.default_version)
            return Search(rule, (rule,), (0.0,), (0,), 0)
        sit = Situation.of_view(view) if self.inference or self.endgame else None
        tricks = [(t.leader, t.cards) for t in view.tricks or ()]
        if sit is not None and self.solves_exactly(view):
            solved = self._endgame(sit, tricks, legal)
            if solved is not None:
                return solved
        moves = self.candidates(view, legal)
        count = len(moves)
        gains: list[list[int]] = [[] for _ in moves]  # per candidate, world by world
        searched = list(range(count))
        rounds = max(1, (count - 1).bit_length()) if self.halving else 1
        known: _Known = {}  # shared by every playout of this decision
        worlds: list[tuple[MatchState, int, float]] = []  # each world, its seed, its weight

        def mean(i: int) -> float:
            """Candidate ``i``'s mean gain over the worlds it was played in, weighted."""
            weight = sum(worlds[k][2] for k in range(len(gains[i])))
            return sum(worlds[k][2] * g for k, g in enumerate(gains[i])) / weight if weight else 0.0

        start = self.clock()
        for round_ in range(rounds):
            more = self.worlds if rounds == 1 else self.worlds * count // rounds // len(searched)
            until = len(gains[searched[0]]) + max(1, more)
            deadline = (
                None if self.time_budget is None else self.time_budget * (round_ + 1) / rounds
            )
            while len(gains[searched[0]]) < until:
                n = len(gains[searched[0]])
                if n == len(worlds):
                    world = sample_world(view, rng)
                    seed = rng.getrandbits(64)
                    weight = 1.0
                    if self.inference and sit is not None and view.phase.plays_tricks:
                        weight = likelihood(sit, world.hands, tricks, self.version)
                    worlds.append((world, seed, weight))
                world, seed, weight = worlds[n]
                for i in searched:
                    draws = random.Random(seed) if self.policy == "random" else _NO_DRAWS
                    after = _playout(apply(world, moves[i]), draws, self.policy, known)
                    gains[i].append(gain(world, after, seat))
                if deadline is not None and self.clock() - start >= deadline:
                    break
            if round_ < rounds - 1:
                ranked = sorted(searched, key=lambda i: (-mean(i), i))
                kept = ranked[: (len(searched) + 1) // 2]
                if self.caution and 0 not in kept:  # every candidate is measured against it
                    kept.append(0)
                searched = sorted(kept)
        means = tuple(mean(i) for i in range(count))
        played = tuple(len(g) for g in gains)
        if not self.caution:
            best = max(searched, key=lambda i: (means[i], -i))
            return Search(moves[best], tuple(moves), means, played, len(worlds))
        by_world = [weight for _, _, weight in worlds]
        advantages = tuple(
            advantage(g, gains[0], by_world, self.caution) if i else 0.0
            for i, g in enumerate(gains)
        )
        best = max(searched, key=lambda i: (advantages[i], -i))
        return Search(moves[best], tuple(moves), means, played, len(worlds), advantages=advantages)

    def _endgame(
        self,
        sit: Situation,
        tricks: Sequence[tuple[int, Sequence[Card]]],
        legal: Sequence[PlayerMove],
    ) -> Search | None:
        """:meth:`search` by the exact solve (:meth:`solves_exactly`)."""

        def weigh(hands: tuple[int, int, int, int]) -> float:
            return likelihood(sit, hands, tricks, self.version)

        solved = endgame_values(sit, weigh if self.inference else None)
        if solved is None:
            return None
        cards, means, layouts = solved
        by_card = {m.card: m for m in legal if isinstance(m, Play)}
        if set(cards) != set(by_card):
            return None
        best = max(range(len(cards)), key=lambda i: (means[i], -i))
        moves = tuple(by_card[c] for c in cards)
        return Search(moves[best], moves, tuple(means), (layouts,) * len(cards), layouts, True)

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
