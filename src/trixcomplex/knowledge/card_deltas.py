"""The deal runner's report of each card, for the readers that follow a match.

The runner (:mod:`trixcomplex.core.runner`) steps every card of a deal, once,
and reports each step as a :class:`~trixcomplex.core.runner.CardStep`: the
seat and card, who moves next, the trick it finished and what that trick
cost, whether the seat went out, whether the deal is over.  The readers that
follow a match move by move (a seat's view, :func:`~trixcomplex.view_after_moves`;
the observation tensors of :mod:`trixcomplex.rl`) consume those steps and
never work out a card's effect themselves.

A game loop hands them the steps it got while applying the moves
(:func:`~trixcomplex.apply_step`; :func:`given_steps` picks those of the
moves a reader follows).  A reader given none (or too few) rebuilds them
with :func:`steps_since`: the one place that reads the runner's report back
from the state it left (its finished tricks and their takers, its finishing
order, whose turn it is).

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
>>> state = tc.apply(state, tc.Choose(state.owner, tc.Contract.TRIX))
>>> moves, given = [], []
>>> for _ in range(3):
...     moves.append(tc.legal_moves(state)[0])
...     state, step = tc.apply_step(state, moves[-1])
...     given.append(step)
>>> steps_since(state, moves, 0, 0, 0, (0, 0, 0, 0)) == given
True
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.engine import History, MatchState, TrickDeal, TrixDeal
from ..core.moves import Move, Pass, Play
from ..core.rules import trick_points
from ..core.runner import CardStep, new_step

__all__ = ["StepLog", "given_steps", "steps_since"]

_KEPT = 64
"""Steps a :class:`StepLog` keeps at least (a TRIX deal's moves fit)."""


class StepLog:
    """The runner's steps of the latest card moves of one match, as a game loop hands
    them on move by move: what a reader that catches up over several moves at once
    (a seat's view, asked only at that seat's turn) reads them from.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
    >>> state = tc.apply(state, tc.Choose(state.owner, tc.Contract.TRIX))
    >>> log, moves = StepLog(), []
    >>> for _ in range(3):
    ...     moves.append(tc.legal_moves(state)[0])
    ...     state, step = tc.apply_step(state, moves[-1])
    ...     log.note(state, (step,))
    >>> [s.seat for s in log.up_to(state)] == [m.seat for m in moves]
    True
    """

    __slots__ = ("_at", "_steps")

    def __init__(self) -> None:
        self._steps: list[CardStep] = []
        self._at: object = None  # the history the log ends at

    def note(self, state: MatchState, steps: Sequence[CardStep]) -> None:
        """Log ``steps``, the runner's steps of the last moves to ``state``: added to the
        log when they follow the state it ends at by one move, else the log anew."""
        history = state.history
        if history is self._at:
            return
        if len(steps) == 1 and type(history) is History and history._prev is self._at:
            log = self._steps
            log.append(steps[0])
            if len(log) > 2 * _KEPT:
                del log[:-_KEPT]
        else:
            self._steps = list(steps)
        self._at = history

    def up_to(self, state: MatchState) -> list[CardStep] | None:
        """The steps logged, oldest first, if the log ends at ``state`` (else ``None``)."""
        return self._steps if self._at is state.history else None


def given_steps(
    moves: Sequence[Move], given: Sequence[CardStep] | None
) -> Sequence[CardStep] | None:
    """The :class:`~trixcomplex.core.runner.CardStep` of each of ``moves`` (the last card
    moves of the deal in progress) among ``given``, the steps a caller got from the
    runner for the last moves to the state (``given[-1]`` is the step of its last
    move, as :func:`~trixcomplex.apply_step` returns it): the last ``len(moves)`` of
    them, or ``None`` if they do not cover ``moves`` (the reader then rebuilds them
    with :func:`steps_since`).  The reader has checked that ``moves`` bring the deal
    from what it saw to the state."""
    if given:
        count, have = len(moves), len(given)
        if have >= count > 0:
            steps = given if have == count else given[have - count :]
            last, move = steps[-1], moves[-1]
            if last.seat == move.seat and (type(move) is not Play or last.card == move.card):  # type: ignore[union-attr]
                return steps
    return None


def steps_since(
    state: MatchState,
    moves: Sequence[Move],
    done: int,
    start: int,
    places: int,
    points: tuple[int, int, int, int],
) -> list[CardStep] | None:
    """The :class:`~trixcomplex.core.runner.CardStep` of each of ``moves``, the last moves of
    the deal in progress in ``state``, as the runner reported them when it made them.

    What the reader saw before the moves: ``done`` tricks finished and ``start``
    cards played to the next (a trick deal), ``places`` seats out (TRIX), the
    deal's ``points`` so far.  ``None`` if ``moves`` are not card plays (and, in
    TRIX, passes), or not the cards that bring a trick deal from there to
    ``state``: the reader then looks at ``state`` afresh (in TRIX the reader
    checks the table it saw itself).

    Everything is read from ``state``: the tricks the moves finished (with
    their takers), the seats that went out, who is to move.  A finished
    trick's points are the deal's points gained since when the moves finished
    one trick, and that trick's :func:`~trixcomplex.core.rules.trick_points` when
    they finished several.  The deal is never over in ``state`` (a deal's
    last card ends it: the reader looks afresh).
    """
    deal = state.deal
    if len(moves) == 1:
        return _one_step(state, deal, moves[0], done, start, places, points)
    seats: list[int] = []  # who moved; who moves after each is the next one's mover
    for move in moves:
        if type(move) is not Play and type(move) is not Pass:
            return None
        seats.append(move.seat)
    nexts: list[int | None] = [*seats[1:], state.turn]
    steps: list[CardStep] = []
    add = steps.append
    if type(deal) is TrickDeal:
        tricks = deal.tricks
        finished = len(tricks) - done
        if finished < 0 or 4 * finished + len(deal.trick) - start != len(moves):
            return None
        gained: tuple[int, int, int, int] | None = None
        if finished == 1:
            now = deal.points
            gained = (now[0] - points[0], now[1] - points[1], now[2] - points[2],
                      now[3] - points[3])  # fmt: skip
        at = done
        for move, seat, turn in zip(moves, seats, nexts, strict=True):
            if type(move) is not Play:
                return None  # a trick deal has no pass
            card = move.card
            start += 1
            if start < 4:
                add(new_step(seat, card, turn, None, None, False, False))
                continue
            taken = tricks[at]
            at, start = at + 1, 0
            if taken.cards[3] != card:
                return None
            if finished != 1:
                rules = state.ruleset.trick_rules(state.contract)  # type: ignore[arg-type]
                gained = trick_points(taken.cards, taken.leader, taken.taker, deal.doubled, rules)
            add(new_step(seat, card, taken.taker, taken, gained, False, False))
        return steps
    if type(deal) is TrixDeal:
        out = deal.finishing_order[places:]  # the seats the moves took out (with a last card)
        hands = state.hands
        for i, (move, seat, turn) in enumerate(zip(moves, seats, nexts, strict=True)):
            if type(move) is Play:
                # out with this card: out now, and no move of its own after it
                gone = seat in out and not hands[seat] and seat not in seats[i + 1 :]
                add(new_step(seat, move.card, turn, None, None, gone, False))
            else:
                add(new_step(seat, None, turn, None, None, False, False))
        return steps
    return None


def _one_step(
    state: MatchState, deal: object, move: Move, done: int, start: int, places: int,
    points: tuple[int, int, int, int],
) -> list[CardStep] | None:  # fmt: skip
    """:func:`steps_since` of one move (a game loop's step), read at once."""
    if type(deal) is TrickDeal:
        if type(move) is not Play:
            return None
        tricks = deal.tricks
        if start < 3:  # the trick goes on
            if len(tricks) != done or len(deal.trick) != start + 1:
                return None
            return [new_step(move.seat, move.card, state.turn, None, None, False, False)]
        if len(tricks) != done + 1 or deal.trick:
            return None
        taken, now = tricks[done], deal.points
        if taken.cards[3] != move.card:
            return None
        gained = (now[0] - points[0], now[1] - points[1], now[2] - points[2], now[3] - points[3])
        return [new_step(move.seat, move.card, taken.taker, taken, gained, False, False)]
    if type(deal) is TrixDeal:
        if type(move) is Play:
            gone = len(deal.finishing_order) != places
            return [new_step(move.seat, move.card, state.turn, None, None, gone, False)]
        if type(move) is Pass:
            return [new_step(move.seat, None, state.turn, None, None, False, False)]
    return None
