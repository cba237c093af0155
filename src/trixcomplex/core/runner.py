"""The deal runner: the one card step of every deal, on plain locals.

A card played to a trick, a card laid in TRIX and a TRIX pass are stepped
here and nowhere else: :func:`run_deal` holds the one loop of each kind of
deal, on plain locals (a list of the four hand ints, the trick's cards, the TRIX
table as an int).  :func:`~trixcomplex.apply`
(one move), :func:`~trixcomplex.apply_moves` (a record's run of moves) and
:func:`~trixcomplex.core.playout` (random or policy moves) all go through it:
it loads the deal in progress, runs it and builds the state once at the end
of the run (scoring a finished deal).

The moves come from a *move source* or are given.  A move source is a
function ``source(turn, legal) -> move``: given the seat to move and its legal
cards (a card set, decided by the rule functions), it answers the seat's
listed :class:`~trixcomplex.Play` of one of them, its listed
:class:`~trixcomplex.Pass` (only when ``legal`` is empty, R-TX-3), or
:data:`STOP` to end the run there (the playout's chooser is one).  Given
moves (a record's, a player's) are each checked against the legal set; the
run stops at the first one refused.

Asked for them, the runner reports what each step changed as a
:class:`CardStep`: the seat and card, who moves next, the trick it finished
and what that trick cost, whether the seat went out, whether the deal is
over.  :func:`card_steps` gives them for moves applied to a state.

>>> import random
>>> import trixcomplex as tc
>>> rng = random.Random(1)
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(rng))
>>> while not state.phase.plays_tricks:
...     state = tc.apply(state, tc.legal_moves(state)[0])
>>> moves = []
>>> for _ in range(4):
...     moves.append(tc.legal_moves(tc.apply_moves(state, moves))[0])
>>> after, steps = card_steps(state, moves)
>>> [step.turn for step in steps[:3]] == [(state.turn + i) % 4 for i in (1, 2, 3)]
True
>>> steps[3].trick.taker == steps[3].turn == after.turn
True
>>> steps[3].points == after.deal.points
True
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from ._speed import _K, positional_builder
from .cards import ALL_CARDS, Card
from .errors import IllegalMoveError
from .kingdoms import match_finished, results_after
from .moves import PASSES, PLAYS, Contract, Move, Pass, Play
from .rulesets import TrickRules
from .scoring import DealResult, SeatBreakdown, trick_points, trix_points
from .seats import next_seat
from .state import History, MatchState, Phase, new_state
from .tricks import (
    Trick,
    TrickDeal,
    complex_result,
    legal_cards,
    new_trick_deal,
    trick_deal_over,
)
from .tricks import trick_winner as _trick_winner
from .trix import NEXT_TO_LAY, TrixDeal, gone_out, layable, playable_after
from .tuplerecord import TupleRecord

__all__ = [
    "STOP",
    "CardStep",
    "MoveSource",
    "card_steps",
    "end_deal",
    "run_deal",
]

STOP = None
"""What a move source answers to end the run before the next move."""

MoveSource = Callable[[int, int], "Play | Pass | None"]
"""``source(turn, legal) -> move``: the listed :class:`~trixcomplex.Play` of ``turn``
for one of ``legal``, its :class:`~trixcomplex.Pass` (TRIX, ``legal`` empty), or
:data:`STOP`.  The move itself, not its card's bit: the runner records it as it
is, with no bit turned back into a card and the card into the listed move (issue 44)."""

_tnew = tuple.__new__
_fields, _EVERY = tuple.__getitem__, slice(None)  # _fields(record, _EVERY): its fields, a tuple
# The state and the deal a run leaves unfinished are built by the builders' own body,
# ``tuple.__new__(cls, fields)`` in field order (core._speed.positional_builder;
# tests/test_speed.py pins each record's field order): every apply() of one card
# ends here, and two Python calls fewer per card measured +4% on random self-play
# (legal_moves + apply per card, in-process A/B alternating 12 rounds, median).
_ZERO = (0, 0, 0, 0)
_NO_HANDS = (0, 0, 0, 0)
_OVER, _DEAL = Phase.OVER, Phase.DEAL
_TRIX_CONTRACT = Contract.TRIX

_NEXT_SEAT = tuple(next_seat(seat) for seat in range(4))  # next_seat's answers, one lookup
_ALONE = tuple((card,) for card in ALL_CARDS)
"""``_ALONE[card]``: the card as a one-card tuple, added to the trick in progress with
no tuple built and freed for it each card."""


class CardStep(TupleRecord):
    """What one card (or TRIX pass) changed: the deal runner's report of a step.

    - ``seat`` moved; ``card`` is the card it played (``None`` for a TRIX pass).
    - ``turn``: who moves next (``None`` once the deal is over).
    - ``trick``: the :class:`~trixcomplex.Trick` this card finished (leader,
      cards, taker), else ``None``; its taker leads next (R-CX-3).
    - ``points``: what that trick charged each seat (R-CX-5, R-DBL-4,
      R-CL-2 … R-CL-7), else ``None``.
    - ``out``: the seat emptied its hand with this TRIX card (R-TX-4).
    - ``deal_over``: the deal ended with this step (R-CX-4, R-CL-2 … R-CL-4, R-TX-4).

    A frozen value; fields are only ever added to, never renamed.

    >>> CardStep(2, None, 3, None, None, False, False)
    CardStep(seat=2, card=None, turn=3, trick=None, points=None, out=False, deal_over=False)
    """

    __slots__ = ()

    seat: int
    card: Card | None
    turn: int | None
    trick: Trick | None
    points: tuple[int, int, int, int] | None
    out: bool
    deal_over: bool

    def __new__(
        cls,
        seat: int,
        card: Card | None,
        turn: int | None,
        trick: Trick | None,
        points: tuple[int, int, int, int] | None,
        out: bool,
        deal_over: bool,
    ) -> CardStep:
        return _tnew(cls, (seat, card, turn, trick, points, out, deal_over))


LIVE_SIZE = 6
"""What :func:`run_deal` keeps in a ``live`` list: ``[hands, trick, leader, tricks,
points, finishing_order]`` — the four hands (the runner's own list, changed in
place), the cards of the trick in progress, the trick deal's leader, finished
tricks and running points (``None`` when not kept), and TRIX's finishing order
(the table is every card no longer held)."""

new_step = positional_builder(CardStep)
"""``CardStep(...)`` in one call (one per step when steps are asked for)."""


def run_deal(
    state: MatchState,
    source: MoveSource | None = None,
    moves: Sequence[Move] = (),
    start: int = 0,
    steps: list[CardStep] | None = None,
    points: bool = True,
    live: list[Any] | None = None,
    draw: Callable[[int], int] | None = None,
    least: int = 0,
) -> MatchState:
    """Step the deal in progress in ``state``: the state after, or ``state`` itself
    when no move was made (not a card phase, or the first move refused).  How many
    moves were made is what its history grew by (one node per move): a pair
    ``(state, count)`` returned for it cost every ``apply`` a tuple and its unpacking
    (issue 44).

    The moves come from ``source`` or, without one, are ``moves[start:]``,
    each checked against the legal set; the run stops at the first move
    refused (left to :func:`~trixcomplex.apply`, which says why), after the
    last of ``moves`` or at the deal's end (the deal then scored, R-MATCH-1).
    With ``steps``, each step's :class:`CardStep` is appended to it.
    ``points=False`` keeps no running points (a run to the deal's end scores
    the deal once, from its tricks).  ``live`` (a list of :data:`LIVE_SIZE`), for
    a source that must see the deal as it runs (a playout policy): the runner
    puts its ``hands`` list in it (changed in place, card by card) and keeps
    the rest up to date: the trick at each card, the rest at each trick's end
    and each seat going out (see :data:`LIVE_SIZE`).  ``draw`` (a plain
    generator's ``getrandbits``, :func:`~trixcomplex.core._speed.plain_bits`)
    stands for the random playout's source: each move is ``rng.choice`` of the
    listed moves, drawn in the loop (the body of
    :func:`~trixcomplex.core._speed.below`, then the r-th card of the legal
    set, the r-th move listed), a seat with ``least`` moves or fewer making
    the first without a draw.  Drawn there, written once, it saves a call
    per card: about 4% of a playout (issue 44, docs/performance.rst).

    The one step of a trick deal (COMPLEX, King of Hearts, Queens, Diamonds,
    Ltoosh, a combined contract): the legal cards (R-CX-2, R-CL-2, R-OPT-2,
    R-OPT-4), the next seat (R-SEAT-1); each fourth card, the taker (R-CX-3),
    the trick's points (R-CX-5, R-DBL-4, R-CL-5 …) and the deal's end
    (R-CX-4, R-CL-2 … R-CL-4).  The one step of TRIX: the legal cards are the
    playable ones held (R-TX-2; the pass when there are none, R-TX-3), the
    next seat the next one holding cards (R-TX-1, read from
    :data:`~trixcomplex.core.rules.NEXT_TO_LAY`), and the finishing order grows as
    seats go out (R-TX-4).  The locals: ``hands`` (a list), the trick's cards,
    the TRIX table and what may be laid on it (ints).
    """
    # The state's fields read at once: the whole record as a plain tuple (one C call,
    # ``tuple.__getitem__`` of a full slice), unpacked.  Read one by one through their
    # descriptors, the 13 fields cost every apply() about 900 machine instructions
    # (issue 44); tests/test_speed.py pins the records' field order.
    rules: TrickRules  # None in TRIX (not read there)
    legal: int
    turn: int  # a card phase always has a turn
    history: History
    (phase, number, owner, contract, held, turn, deal, scores, results, history, ruleset,
     rules, legal) = _fields(state, _EVERY)  # fmt: skip
    # The state keeps its contract's TrickRules (in a trick deal, else None) and the legal
    # cards of the seat to move (MatchState.trick_rules, .legal_cards: worked out by the
    # rule functions when it was made).  After each step the runner decides the next
    # seat's legal cards, once, and the state it builds keeps them: legal_moves lists
    # them and the next apply checks its card against them (issue 44: one legality
    # decision per card instead of two, and no trick_rules call per card).
    trix = type(deal) is TrixDeal
    if rules is None and not trix:  # not a card phase
        return state
    played: list[Move] | None
    record: Callable[[Move], None] | None
    if source is None and draw is None:  # given moves: moves[start:count]
        played = record = None
        index, count = start, len(moves)
    else:  # moves chosen as the run goes, until the source stops or the deal ends
        played = []
        record = played.append
        index, count = 0, 1  # never counted: the source's run ends when it says STOP
    hands = [*held]  # list(...) is a call: 250 machine instructions more per apply
    over = False
    card: Card | None
    move: Move | None
    after: Any
    if trix:
        after = NEXT_TO_LAY  # the next seat: by the deal's kind (one local)
        table, order, can = _fields(deal, _EVERY)  # TrixDeal's fields, in their order
        held_table = table
        if live is not None:
            live[:] = (hands, None, None, 0, None, order)
        # after[seat][holders]: next_to_lay(hands, seat), by the seats holding cards;
        # all four hold cards until the first goes out (R-TX-4: out means emptied, and
        # listed in the finishing order), so the hands are read only once one is out
        if order:
            a, b, c, d = held
            holders = (a != 0) | (b != 0) << 1 | (c != 0) << 2 | (d != 0) << 3
        else:
            holders = 15
    else:
        after = _NEXT_SEAT
        leader, trick, tricks, doubled, total = _fields(deal, _EVERY)  # TrickDeal's, in order
        if live is not None:
            live[:] = (hands, trick, leader, len(tricks), total, doubled)
        if not points and steps is None:
            total = None
    # One loop for both kinds of deal: the move is chosen (drawn, given or asked of the
    # source, tested in that order: the random playout's draw first, one test a card)
    # in one place, then stepped by the deal's kind.
    while True:
        if draw is not None:  # rng.choice of the listed moves, inline (_speed.below)
            n = legal.bit_count() or 1  # R-TX-3: no card to lay, the pass is the one move
            if n > least:
                k = _K[n]
                r = draw(k)
                while r >= n:
                    r = draw(k)
                while r:  # the r-th card of legal, in card order (the r-th move listed)
                    legal &= legal - 1
                    r -= 1
            bit = legal & -legal
            if bit:
                r = bit.bit_length() - 1  # the card as a plain int: tuples indexed by a Card
                record(PLAYS[turn][r])  # type: ignore[misc]  # (an int subclass) miss the fast path
            else:
                record(PASSES[turn][0])  # type: ignore[misc]
        elif index >= count:
            # The end of the given moves, tested only where there are some (a drawn or
            # asked move has none).  Not ``while index < count``: that jump out of this
            # long loop needs an EXTENDED_ARG, which stops CPython 3.11 specializing the
            # compare (COMPARE_OP_INT_JUMP), a generic compare each move.
            break
        elif played is None:  # the next given move: a legal card, or the pass with none
            move = moves[index]
            if type(move) is Play:
                if move.seat != turn:
                    break
                r = move.card
                bit = 1 << r
                if not legal & bit:  # not held, or not legal now
                    break
            elif type(move) is Pass and move.seat == turn and not legal:  # TRIX only (R-TX-3)
                bit = 0
            else:
                break
            index += 1
        else:  # asked of the source
            move = source(turn, legal)  # type: ignore[misc]  # a source when no draw
            if type(move) is Play:
                r = move.card
                bit = 1 << r
            elif move is None or not trix:  # STOP (a trick deal has no pass)
                break
            else:
                bit = 0
            record(move)  # type: ignore[misc]
        # The move is ``bit`` (0: the pass) and ``r``, its card's index (a plain int when
        # drawn: playable_after's tables indexed by a Card, an int subclass, miss the
        # tuple fast path); the Card itself is looked up only where it is kept (a trick,
        # a step).  Each step's CardStep is built before ``turn`` moves on (the seat is
        # ``turn``): no ``seat`` or ``out`` local set per card for the steps only.  The
        # hand is read where a card leaves it, not for every move (a pass or the end of
        # a run).
        if trix:
            if bit:
                hand = hands[turn] ^ bit
                hands[turn] = hand
                table |= bit
                can = playable_after(can, table, r)
                if not hand:  # out (R-TX-4); a seat that passes holds cards
                    order = gone_out(order, turn)
                    if live is not None:
                        live[5] = order
                    if len(order) == 4:  # R-TX-4: three seats are out, the fourth is last
                        over = True
                        break
                    holders ^= 1 << turn
            if steps is not None:
                n = after[turn][holders]  # who moves next
                out = bit != 0 and not hand  # a seat that passes holds cards
                card = ALL_CARDS[r] if bit else None
                steps.append(_tnew(CardStep, (turn, card, n, None, None, out, False)))
            turn = after[turn][holders]
            legal = layable(hands[turn], can)
            continue
        hands[turn] ^= bit
        trick += _ALONE[r]  # (card,), one tuple: a card (a trick deal has no pass)
        if live is not None:
            live[1] = trick
        if len(trick) < 4:
            if steps is not None:  # new_step(...), in place
                card = ALL_CARDS[r]
                steps.append(_tnew(CardStep, (turn, card, after[turn], None, None, False, False)))
            turn = after[turn]  # R-SEAT-1
            legal = legal_cards(hands[turn], trick, rules)
            continue
        taker = _trick_winner(leader, trick)
        done = _tnew(Trick, (leader, trick, taker))  # new_trick(...), in place
        tricks += (done,)
        gained = None
        if total is not None:
            gained = trick_points(trick, leader, taker, doubled, rules)
            a, b, c, d = gained
            total = (total[0] + a, total[1] + b, total[2] + c, total[3] + d)
        seat, leader, turn, trick = turn, taker, taker, ()
        if live is not None:
            live[1], live[2], live[3], live[4] = trick, leader, len(tricks), total
        over = trick_deal_over(len(tricks), hands[0] | hands[1] | hands[2] | hands[3], rules)
        if steps is not None:
            last = done.cards[3]
            steps.append(_tnew(CardStep, (
                seat, last, None if over else taker, done, gained, False, over)))  # fmt: skip
        if over:
            break
        legal = legal_cards(hands[turn], trick, rules)  # the lead
    progress: TrickDeal | TrixDeal
    if trix:
        if over:
            if steps is not None:
                steps.append(new_step(turn, ALL_CARDS[r], None, None, None, True, True))
            result = _trix_result(state, order)
        else:
            # new_trix_deal(...), or the deal itself after passes only (nothing laid)
            progress = _tnew(TrixDeal, (table, order, can)) if table != held_table else deal
    elif over:
        result = complex_result(
            number, owner,
            new_trick_deal(leader, (), tricks, doubled, _ZERO),
            contract=contract, kingdom=state.kingdom, rules=rules,
        )  # fmt: skip
    else:
        progress = _tnew(TrickDeal, (  # new_trick_deal(...)
            leader, trick, tricks, doubled, _ZERO if total is None else total))  # fmt: skip
    if played is None:  # given moves
        ran = index - start
        if ran == 1:  # apply(): one move
            history = _tnew(History, (history, moves[start], history._len + 1))  # .append()
        elif ran:
            history = history.extend(moves[start : start + ran])
        else:
            return state
    else:
        if not played:
            return state
        history = history.extend(played)
    if over:
        return end_deal(state, result, history)
    return _tnew(MatchState, (  # new_state(...)
        phase, number, owner, contract,
        tuple(hands), turn, progress, scores, results,  # tuple(): one C call
        history, ruleset, rules, legal))  # fmt: skip


def card_steps(state: MatchState, moves: Sequence[Move]) -> tuple[MatchState, list[CardStep]]:
    """The state after ``moves`` (card plays and TRIX passes of the deal in
    progress in ``state``) and what each of them changed, as :class:`CardStep`\\ s.

    Raises :class:`~trixcomplex.IllegalMoveError` (``index`` set) at the first
    move that is not a legal card or pass now.
    """
    steps: list[CardStep] = []
    after = run_deal(state, moves=moves, steps=steps)
    ran = after.history._len - state.history._len
    if ran < len(moves):
        exc = IllegalMoveError(moves[ran], "not a legal card or pass of the deal now", "R-MATCH-2")
        exc.index = ran
        raise exc
    return after, steps


def end_deal(state: MatchState, result: DealResult, history: History) -> MatchState:
    """Score a finished deal; the match waits for the next deal or is over
    (R-MATCH-1, R-MATCH-8, R-OPT-9)."""
    s, p = state.scores, result.points
    scores = (s[0] + p[0], s[1] + p[1], s[2] + p[2], s[3] + p[3])
    ruleset = state.ruleset
    results = results_after(state.results, result, ruleset)
    over = match_finished(results, ruleset)
    return new_state(
        _OVER if over else _DEAL,
        state.deal_number,
        state.owner,
        None,
        _NO_HANDS,
        None,
        None,
        scores,
        results,
        history,
        ruleset,
    )


def _trix_result(state: MatchState, order: tuple[int, ...]) -> DealResult:
    """The result of the TRIX deal of ``state`` with the finishing order ``order`` (R-TX-4)."""
    assert state.owner is not None
    return DealResult(
        state.deal_number, state.kingdom, _TRIX_CONTRACT, state.owner,
        trix_points(order, state.ruleset.trix_places), _PLACES_BY_ORDER[order], (), order,
    )  # fmt: skip


_PLACES = tuple(SeatBreakdown(place=p) for p in (1, 2, 3, 4))  # frozen values: shared

# _PLACES_BY_ORDER[order]: the four seats' breakdowns (their places) for each of the
# 24 finishing orders of all four seats.
_PLACES_BY_ORDER: dict[
    tuple[int, ...], tuple[SeatBreakdown, SeatBreakdown, SeatBreakdown, SeatBreakdown]
] = {
    order: (
        _PLACES[order.index(0)], _PLACES[order.index(1)],
        _PLACES[order.index(2)], _PLACES[order.index(3)],
    )
    for order in itertools.permutations(range(4))
}  # fmt: skip
