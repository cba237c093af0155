"""Hypothesis strategies for the game: rulesets, matches, states, views, records, moves.

Every strategy is built from Hypothesis's own primitives, one drawn integer per
choice (the shuffle of each deck, the index of each move among the listed
ones, whether a window times out), so a failing example shrinks to a small
case: the first listed moves, the simplest ruleset, an early state.

>>> import trixcomplex as tc
>>> from hypothesis import given, settings
>>> from trixcomplex.testing import matches
>>> @settings(max_examples=3, deadline=None)
... @given(matches(tc.PARTNERSHIP))
... def test_a_match_sums_to_zero(states):
...     assert sum(tc.score(states[-1]).teams) == 0
>>> test_a_match_sums_to_zero()
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence

import attrs

from ..conformance.refusals import Refusal, candidate_moves, refusal_of
from ..core.engine import MatchState, Phase, legal_moves
from ..core.extras import needs_extra
from ..core.moves import Contract, Deal, Move, Timeout
from ..core.rulesets import RULESETS, Ruleset
from ..host.randomplay import SHUFFLES, Draw, play_match
from ..io.records import Record
from ..knowledge.views import View, view

with needs_extra(
    "testing", "trixcomplex.testing's strategies"
):  # a missing package names its extra
    from hypothesis import strategies as st

__all__ = [
    "OPTIONS",
    "illegal_moves_of",
    "legal_moves_of",
    "matches",
    "phases_of",
    "records",
    "rulesets",
    "states",
    "views",
]

OPTIONS: tuple[str, ...] = tuple(
    a.name for a in attrs.fields(Ruleset) if a.type in (bool, "bool") and a.init
)
"""The names of a ruleset's on/off options (R-OPT-1 … R-OPT-10, and ``partnership``)."""

_PLAYING = (Phase.CHOOSE, Phase.DOUBLE, Phase.COMPLEX, Phase.TRICKS, Phase.TRIX)


@st.composite
def rulesets(draw: st.DrawFn, *, presets: Sequence[Ruleset] | None = None) -> Ruleset:
    """A ruleset: one of ``presets`` (default: every preset), each of its options
    flipped or not; shrinks to the first preset (``partnership``) unchanged.

    A flip the preset does not accept (e.g. combining contracts in a game of two
    contracts) is skipped, so every ruleset drawn is one :meth:`Ruleset.evolve` allows.
    """
    chosen = draw(st.sampled_from(list(presets or RULESETS.values())))
    for option in OPTIONS:
        if draw(st.booleans()):
            with contextlib.suppress(ValueError):
                chosen = chosen.evolve(**{option: not getattr(chosen, option)})
    return chosen


def _draw_of(draw: st.DrawFn) -> Draw:
    return lambda n: draw(st.integers(0, n - 1))


def phases_of(ruleset: Ruleset) -> frozenset[Phase]:
    """The phases a match of ``ruleset`` passes through: COMPLEX only with the COMPLEX
    contract, TRICKS only with a classic trick contract, DOUBLE only with doubling
    (R-OPT-1), CHOOSE only without a fixed order (R-OPT-5)."""
    phases = set(Phase)
    contracts = ruleset.contracts
    if not any(c is Contract.COMPLEX for c in contracts):
        phases.discard(Phase.COMPLEX)
    if not any(c.is_trick_contract and c is not Contract.COMPLEX for c in contracts):
        phases.discard(Phase.TRICKS)
    if not ruleset.doubling or not any(c.is_trick_contract for c in contracts):
        phases.discard(Phase.DOUBLE)
    if ruleset.fixed_order:
        phases.discard(Phase.CHOOSE)
    return frozenset(phases)


@st.composite
def matches(
    draw: st.DrawFn,
    ruleset: Ruleset | None = None,
    *,
    complete: bool = True,
    timeouts: bool = True,
) -> list[MatchState]:
    """Every state of a match, from :func:`~trixcomplex.new_match` on: of ``ruleset``
    (default: drawn by :func:`rulesets`), played to its end (``complete``) or stopped
    after a drawn number of moves.  Windows may time out (``timeouts``); under R-OPT-8's
    redeal, bad TRIX hands are dealt and redeals demanded.

    Shrinks to the first listed move at every turn and the first deck.
    """
    chosen = ruleset if ruleset is not None else draw(rulesets())
    until = None if complete else draw(st.integers(0, 600))
    return play_match(chosen, _draw_of(draw), until=until, timeouts=timeouts)


@st.composite
def states(
    draw: st.DrawFn, phase: Phase | None = None, ruleset: Ruleset | None = None
) -> MatchState:
    """A state reached by play: in ``phase`` (default: any) of ``ruleset`` (default: drawn
    among those reaching ``phase``).  Shrinks to the earliest such state of the simplest
    match.  A ``ruleset`` that never reaches ``phase`` is refused with a ``ValueError``."""
    if ruleset is None:
        chosen = draw(rulesets().filter(lambda r: phase is None or phase in phases_of(r)))
    elif phase is not None and phase not in phases_of(ruleset):
        raise ValueError(f"a match of {ruleset.name} never reaches phase {phase.value}")
    else:
        chosen = ruleset
    seen: list[MatchState] = []

    def stop(state: MatchState) -> bool:
        if phase is not None and state.phase is not phase:
            return False
        seen.append(state)
        return draw(st.integers(0, 15)) == 0

    final = play_match(chosen, _draw_of(draw), stop=stop)[-1]
    if phase is Phase.OVER or (phase is None and not seen):
        return final
    return seen[-1]


@st.composite
def views(
    draw: st.DrawFn,
    phase: Phase | None = None,
    ruleset: Ruleset | None = None,
    seats: Sequence[int | None] = (0, 1, 2, 3, None),
) -> View:
    """The view (:func:`~trixcomplex.view`) of a state drawn by :func:`states` for one of
    ``seats`` (``None``: a spectator)."""
    state = draw(states(phase, ruleset))
    return view(state, draw(st.sampled_from(list(seats))))


@st.composite
def records(draw: st.DrawFn, ruleset: Ruleset | None = None, *, complete: bool = False) -> Record:
    """The :class:`~trixcomplex.Record` of a match drawn by :func:`matches`: any prefix,
    or the whole match with ``complete``."""
    played = draw(matches(ruleset, complete=complete))
    final = played[-1]
    return Record(ruleset=final.ruleset.name, moves=final.history.moves())


def legal_moves_of(state: MatchState) -> st.SearchStrategy[Move]:
    """A move ``state`` allows: a listed player move, a timeout in a choosing or doubling
    window, any deck while it waits for a deal.  A finished match allows nothing
    (``ValueError``)."""
    listed: list[Move] = list(legal_moves(state))
    if state.phase is Phase.DEAL:
        return st.integers(0, SHUFFLES - 1).map(lambda seed: Deal.shuffled(random.Random(seed)))
    if state.phase in (Phase.CHOOSE, Phase.DOUBLE):
        listed.append(Timeout())
    if not listed:
        raise ValueError("the match is over: no move is legal")
    return st.sampled_from(listed)


def illegal_moves_of(state: MatchState) -> st.SearchStrategy[Refusal]:
    """A move ``state`` must refuse, with the clause it breaks, as a
    :class:`~trixcomplex.conformance.Refusal` (``move``, ``rule``): a card not held or
    not allowed, a move by a seat not to act, a host move out of its phase, …"""
    listed = frozenset(legal_moves(state))
    waiting = state.phase is Phase.DEAL
    window = state.phase in (Phase.CHOOSE, Phase.DOUBLE)
    refused = [
        m
        for m in candidate_moves(state)
        if m not in listed
        and not (isinstance(m, Deal) and waiting)
        and not (isinstance(m, Timeout) and window)
    ]

    def with_rule(move: Move) -> Refusal:
        found = refusal_of(state, move)
        if found is None:  # pragma: no cover - the candidates above are all refused
            raise AssertionError(f"{move} was expected to be refused")
        return found

    return st.sampled_from(refused).map(with_rule)
