"""Fast playouts: play a state out to the end of the deal or the match.

:func:`playout` is the engine-level tool for search (Monte Carlo rollouts,
simulations): it plays random legal moves, or the moves of a cheap
``policy``, from any state to the end of the current deal or of the match,
under any :class:`~trixcomplex.Ruleset`.  The card play of every trick
contract (COMPLEX, and King of Hearts, Queens, Diamonds and Ltoosh with the
ruleset's :class:`~trixcomplex.TrickRules`) and of TRIX runs on plain mutable
locals (four hand ints, the trick as a list, the TRIX table as an int)
instead of building an immutable :class:`~trixcomplex.MatchState` per move;
the final state is built once, at each deal end, with the engine's own
scoring.  A TRIX deal in which a bad hand may still demand a
:class:`~trixcomplex.Redeal` (R-OPT-8) is stepped through the engine move by
move instead.

The result is *exactly* the state that stepping would give: with no policy,
each player move is ``rng.choice(legal_moves(state))`` and each shuffle is
``Deal.shuffled(rng)``, so the random number generator is called in the same
sequence (for a plain :class:`random.Random` the playout calls its
``getrandbits`` itself, just as ``choice`` and ``shuffle`` do), and the
returned state equals (``==``, history included) the state reached by

.. code-block:: python

    while not done:
        if state.phase is Phase.DEAL:
            state = apply(state, Deal.shuffled(rng))
        else:
            state = apply(state, rng.choice(legal_moves(state)))

>>> import random
>>> import trixcomplex as tc
>>> state = tc.playout(tc.new_match(), random.Random(5), until="match")
>>> state.phase, len(state.results), sum(tc.score(state).teams)
(<Phase.OVER: 'OVER'>, 8, 0)
>>> state = tc.playout(tc.new_match(), random.Random(5))   # one deal only
>>> state.phase, state.deal_number
(<Phase.DEAL: 'DEAL'>, 1)

A policy is a function ``policy(game, moves, rng) -> move`` choosing one
of ``moves``.  It sees the whole game (``game`` is a :class:`PlayoutState`,
hands included): a playout is an engine tool working on a full state, not a
seat's view, so a bot that must not see hidden cards samples a world first
and plays out that.

>>> def lowest(game, moves, rng):
...     return moves[0]          # the lowest card (moves are listed by card)
>>> state = tc.playout(tc.new_match(), random.Random(5), lowest, until="match")
>>> state.is_over
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from ._speed import below as _below
from ._speed import plain_bits as _plain_bits
from ._speed import shuffled_deck
from .cards import ALL_MASK, Card, mask_of
from .engine import DealResult, DoublingWindow, MatchState, Phase
from .legal import legal_moves, plays_of, window_answers
from .match import apply, apply_listed, finish_window
from .moves import PASSES, Contract, Deal, Double, Pass, Play, PlayerMove
from .rules import redeal_seat
from .rulesets import Ruleset
from .runner import LIVE_SIZE, MoveSource, run_deal

__all__ = ["PlayoutState", "Policy", "playout"]


class PlayoutState:
    """What a playout policy sees: the whole game at the moment of its choice.

    The names mean what they mean on :class:`~trixcomplex.MatchState`:
    ``phase``, ``deal_number``, ``owner``, ``contract``, ``hands`` (four card
    sets, every hand), ``turn`` (``None`` in the doubling window),
    ``window`` (only in DOUBLE), ``scores`` and ``results`` (finished deals)
    and ``ruleset`` (the game played).
    The deal in progress is given flat: in COMPLEX ``leader``, ``trick``
    (the cards of the trick in progress, in play order), ``tricks`` (how many
    tricks are finished), ``doubled`` and ``points``; in TRIX ``table`` and
    ``finishing_order``.  Fields of the other contract are empty.

    It is the playout's working object, refreshed before each call: read it
    during the call, do not keep it or change it.
    """

    __slots__ = (
        "contract",
        "deal_number",
        "doubled",
        "finishing_order",
        "hands",
        "leader",
        "owner",
        "phase",
        "points",
        "results",
        "ruleset",
        "scores",
        "table",
        "trick",
        "tricks",
        "turn",
        "window",
    )

    phase: Phase
    deal_number: int
    owner: int | None
    contract: Contract | None
    hands: tuple[int, int, int, int]
    turn: int | None
    window: DoublingWindow | None
    leader: int | None
    trick: tuple[Card, ...]
    tricks: int
    doubled: tuple[tuple[Card, int], ...]
    points: tuple[int, int, int, int]
    table: int
    finishing_order: tuple[int, ...]
    scores: tuple[int, int, int, int]
    results: tuple[DealResult, ...]
    ruleset: Ruleset

    def __init__(self, state: MatchState) -> None:
        self.phase = state.phase
        self.deal_number = state.deal_number
        self.owner = state.owner
        self.contract = state.contract
        self.hands = state.hands
        self.turn = state.turn
        self.window = state.window
        self.scores = state.scores
        self.results = state.results
        self.ruleset = state.ruleset
        deal = state.trick_deal
        self.leader = deal.leader if deal is not None else None
        self.trick = deal.trick if deal is not None else ()
        self.tricks = len(deal.tricks) if deal is not None else 0
        self.doubled = deal.doubled if deal is not None else ()
        self.points = deal.points if deal is not None else (0, 0, 0, 0)
        trix = state.trix
        self.table = trix.table if trix is not None else 0
        self.finishing_order = trix.finishing_order if trix is not None else ()

    def __repr__(self) -> str:
        return f"<PlayoutState {self.phase.value} deal {self.deal_number} turn {self.turn}>"


Policy = Callable[[PlayoutState, tuple[PlayerMove, ...], random.Random], PlayerMove]
"""``policy(game, moves, rng) -> move``: pick one of the legal ``moves``.

``moves`` is exactly what :func:`~trixcomplex.legal_moves` lists for the
state (every seat's answers in the doubling window); with
``playout(..., forced="play")`` a policy is only asked when there are two
or more.  ``rng`` is the
playout's generator, for any randomness the policy needs.  Returning a move
not in ``moves`` raises ``ValueError``.
"""


def playout(
    state: MatchState,
    rng: random.Random,
    policy: Policy | None = None,
    *,
    until: Literal["deal", "match"] = "deal",
    forced: Literal["draw", "play"] = "draw",
) -> MatchState:
    """Play ``state`` out to the end of the current deal, or of the match.

    With ``until="deal"`` the playout stops when the deal in progress ends
    (from a state waiting for a deal, it deals one and plays it); with
    ``until="match"`` it plays every remaining deal.  A redeal (R-OPT-8)
    ends the deal too: ``until="deal"`` then returns the state waiting for
    the new shuffle.  A finished match is returned as it is.  Without a
    ``policy`` each player move is ``rng.choice(legal_moves(state))``;
    shuffles are always
    ``Deal.shuffled(rng)`` and timeouts never happen.  The result equals
    (``==``, history included) the state reached by stepping the same random
    choices through :func:`~trixcomplex.legal_moves` and
    :func:`~trixcomplex.apply`, and ``rng`` is left in the same state.

    ``forced`` says what happens when there is only one legal move (a forced
    move, R-TX-5: a pass, a single card of the suit led, the last trick).
    With ``"draw"`` (the default) it is chosen like any other:
    ``rng.choice`` of a one-move list still draws a number, and a policy is
    asked.  With ``"play"`` it is played at once, with no draw and no policy
    call, as a host plays a forced move and as most search loops step
    (``moves[0] if len(moves) == 1 else rng.choice(moves)``); the result then
    equals stepping that way.  Forced moves are about two in five moves of a
    match, so ``"play"`` saves their draws and policy calls; it gives other
    random matches from the same seed than ``"draw"``.

    >>> import trixcomplex as tc
    >>> a = tc.playout(tc.new_match(), random.Random(5), until="match", forced="play")
    >>> rng, state = random.Random(5), tc.new_match()
    >>> while not state.is_over:
    ...     if state.phase is tc.Phase.DEAL:
    ...         state = tc.apply(state, tc.Deal.shuffled(rng))
    ...     else:
    ...         moves = tc.legal_moves(state)
    ...         state = tc.apply(state, moves[0] if len(moves) == 1 else rng.choice(moves))
    >>> a == state
    True
    """
    if until not in ("deal", "match"):
        raise ValueError(f"until must be 'deal' or 'match', not {until!r}")
    if forced not in ("draw", "play"):
        raise ValueError(f"forced must be 'draw' or 'play', not {forced!r}")
    least = 1 if forced == "play" else 0  # a draw when there are more moves than this
    bits = _plain_bits(rng)
    draw = bits if policy is None else None  # the card loops draw inline
    deal_ended = False
    while True:
        phase = state.phase
        if phase is _COMPLEX or phase is _TRICKS:  # any trick contract, under any ruleset
            state = _cards(state, rng, policy, draw, least)
            deal_ended = True
        elif phase is _TRIX:
            if redeal_seat(state) is None:  # no Redeal among the moves, now or later
                state = _cards(state, rng, policy, draw, least)
            else:  # a bad hand may demand a redeal (R-OPT-8)
                state = _stepped(state, rng, policy, draw, least)
            deal_ended = True
        elif phase is _DEAL:
            if deal_ended and until == "deal":
                return state
            state = apply(state, _shuffled(rng, bits))
        elif phase is _OVER:
            return state
        elif phase is _DOUBLE and draw is not None:
            state = _window(state, draw)
        else:  # CHOOSE, and DOUBLE with a policy or another generator: one move
            state = _step(state, rng, policy, draw, least)


_PLAYS = tuple(plays_of(seat, ALL_MASK) for seat in range(4))
"""``_PLAYS[seat][card]``: the engine's interned :class:`Play` of ``seat``."""

# The phases as module constants (an enum member read through its class costs a
# lookup in the enum machinery, paid once per phase change of the loop above).
_DEAL, _DOUBLE, _COMPLEX, _TRICKS = Phase.DEAL, Phase.DOUBLE, Phase.COMPLEX, Phase.TRICKS
_TRIX, _OVER = Phase.TRIX, Phase.OVER


def _stepped(
    state: MatchState,
    rng: random.Random,
    policy: Policy | None,
    draw: Callable[[int], int] | None,
    least: int,
) -> MatchState:
    """Play the deal of ``state`` move by move through the engine until it ends
    (scored, or cancelled by a :class:`~trixcomplex.Redeal`): the general path
    for every ruleset, drawing from ``rng`` exactly as the fast loops do."""
    while state.phase.plays_cards:
        state = _step(state, rng, policy, draw, least)
    return state


def _step(
    state: MatchState,
    rng: random.Random,
    policy: Policy | None,
    draw: Callable[[int], int] | None,
    least: int,
) -> MatchState:
    """One move through the engine: ``rng.choice`` of the legal moves (drawn by
    :func:`_below` with ``draw``), or the policy's; with ``least`` 1, a forced
    move is played without either.  The move is one ``legal_moves`` listed, so
    it is applied with ``match.apply_listed``."""
    moves = legal_moves(state)
    if len(moves) <= least:
        return apply_listed(state, moves[0])
    if draw is not None:
        return apply_listed(state, moves[_below(draw, len(moves))])
    if policy is None:
        return apply_listed(state, rng.choice(moves))
    return apply_listed(state, _chosen(policy, PlayoutState(state), moves, rng))


def _shuffled(rng: random.Random, bits: Callable[[int], int] | None = None) -> Deal:
    """``Deal.shuffled(rng)``, drawn as :func:`~trixcomplex.core._speed.shuffled_deck` draws
    it, without re-checking the 52 cards it is built from (``tests/test_playout.py``
    holds the two to equality)."""
    deal: Deal = _new(Deal)
    _set_deck(deal, shuffled_deck(rng, bits))
    return deal


_new = object.__new__
_set_deck = Deal.__dict__["deck"].__set__


_M = TypeVar("_M", bound=PlayerMove)


def _chosen(
    policy: Policy | None, game: PlayoutState, moves: tuple[_M, ...], rng: random.Random
) -> _M:
    """The policy's choice among ``moves``; ``ValueError`` if it is not one of them."""
    assert policy is not None
    move = policy(game, moves, rng)
    # A policy answers one of the listed (interned) moves: found by identity, one ``is``
    # per move listed before it.  ``move in moves`` calls attrs' Python ``__eq__`` on each
    # of those (about 0.15 µs each: 1.6% of a Monte Carlo decision's bytecodes, issue 44);
    # looking it up by ``id`` was measured slower (every id() makes an int).  An equal
    # move that is not the listed object is still accepted, by ``in``.
    for listed in moves:
        if listed is move:
            return move
    if move not in moves:
        raise ValueError(f"the playout policy chose {move!r}, which is not a legal move")
    return move


def _window(state: MatchState, draw: Callable[[int], int]) -> MatchState:
    """Answer the doubling window of ``state`` until it closes; the state after it.

    Each answer is ``rng.choice(legal_moves(state))``, drawn by :func:`_below`
    (every seat's awaited answers, :func:`~trixcomplex.core.legal.window_answers`); the
    answers are kept as plain locals and the window is closed once, by
    ``match.finish_window`` (R-DBL-2, R-DBL-3), instead of a new state per
    answer.
    """
    window = state.deal
    assert type(window) is DoublingWindow
    asked = window.asked
    answers = list(window.answers)
    played: list[Double] = []
    moves = window_answers(asked, answers)
    while moves:  # every asked seat answers: the window closes (R-DBL-2)
        move = moves[_below(draw, len(moves))]
        played.append(move)
        answers[move.seat] = mask_of(move.cards)
        moves = window_answers(asked, answers)
    a, b, c, d = answers
    return finish_window(state, played, (a, b, c, d))


def _cards(
    state: MatchState,
    rng: random.Random,
    policy: Policy | None,
    draw: Callable[[int], int] | None,
    least: int,
) -> MatchState:
    """Play the deal of ``state`` (any trick contract, or TRIX) to its end on the
    deal runner (:func:`~trixcomplex.core.runner.run_deal`); the state after its last
    card, scored by the runner.

    Every decision is the runner's (the engine's own rule functions); this
    module only chooses the moves: with ``draw`` (:func:`_plain_bits`, no
    policy) the runner draws the card as ``rng.choice`` of the listed moves
    draws it (``run_deal(..., draw=)``), else it is chosen by ``rng.choice``
    or the policy (:func:`_asked`).
    A seat with ``least`` legal moves or fewer makes the first without a draw
    (``least`` is 0, or 1 for ``forced="play"``).
    """
    if draw is not None:
        return run_deal(state, points=False, draw=draw, least=least)
    if policy is None:
        return run_deal(state, _asked(None, rng, policy, least), points=False)
    live: list[Any] = [None] * LIVE_SIZE
    return run_deal(state, _asked(PlayoutState(state), rng, policy, least, live), live=live)


def _asked(
    seen: PlayoutState | None,
    rng: random.Random,
    policy: Policy | None,
    least: int,
    live: list[Any] | None = None,
) -> MoveSource:
    """The move source choosing by ``rng.choice`` of the listed moves, or by the
    ``policy``, shown ``seen`` brought up to date from the runner's ``live`` list
    (see :func:`~trixcomplex.core.runner.run_deal`)."""

    # Two sources, the one wanted picked once per deal: each card asks no more than
    # it needs (no test of ``seen`` or ``live`` per card; issue 44).
    if seen is None:

        def drawn(turn: int, legal: int) -> Play | Pass:
            options: tuple[Play | Pass, ...] = plays_of(turn, legal) if legal else PASSES[turn]
            return options[0] if len(options) <= least else rng.choice(options)  # forced="play"

        return drawn
    assert live is not None and policy is not None

    def source(turn: int, legal: int) -> Play | Pass:
        options: tuple[Play | Pass, ...] = plays_of(turn, legal) if legal else PASSES[turn]
        if len(options) <= least:  # forced="play": no policy call
            move = options[0]
        else:
            hands = seen.hands = tuple(live[0])  # one C call
            seen.turn = turn
            trick = live[1]
            if trick is not None:  # a trick deal
                seen.trick = trick
                if live[3] != seen.tricks:  # a trick ended since the last card asked
                    seen.leader, seen.tricks, seen.points = live[2], live[3], live[4]
            else:  # TRIX: every card no longer held is on the table
                seen.table = ALL_MASK ^ (hands[0] | hands[1] | hands[2] | hands[3])
                seen.finishing_order = live[5]
            move = _chosen(policy, seen, options, rng)
        return move

    return source
