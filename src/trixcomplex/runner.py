"""The deal runner: the one card step of every deal, on plain locals.

A card played to a trick, a card laid in TRIX and a TRIX pass are stepped
here and nowhere else.  :func:`~trixcomplex.apply` (one move),
:func:`~trixcomplex.apply_moves` (a record's run of moves) and
:func:`~trixcomplex.playout` (random or policy moves) all load the deal in
progress into a runner (:func:`runner_of`), feed it from a *move source*
and build the state back once (:meth:`TrickRunner.state_after`,
:meth:`TrixRunner.state_after`).

A move source is a function ``source(turn, legal) -> bit``: given the seat
to move and its legal cards (a card set, decided by the rule functions), it
answers the bit of the card played, ``0`` for a TRIX pass (only when
``legal`` is empty, R-TX-3), or :data:`STOP` to end the run there.
:func:`recorded` is the source of given moves, each checked against the
legal set.

Asked for them, a runner reports what each step changed as a
:class:`CardStep`: the seat and card, who moves next, the trick it finished
and what that trick cost, whether the seat went out and whether the deal is
over.  :func:`card_steps` gives them for moves applied to a state.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.playout(tc.new_match(), random.Random(4), until="deal")
>>> state = tc.apply(state, tc.Deal.shuffled(random.Random(1)))
>>> while state.phase is not tc.Phase.COMPLEX:
...     state = tc.apply(state, tc.legal_moves(state)[0])
>>> moves = []
>>> for _ in range(4):
...     moves.append(tc.legal_moves(state if not moves else after)[0])
...     after = tc.apply_moves(state, moves)
>>> after, steps = card_steps(state, moves)
>>> [step.turn for step in steps][:3] == [(state.turn + i) % 4 for i in (1, 2, 3)]
True
>>> steps[3].trick.taker == steps[3].turn == after.turn, steps[3].points == after.deal.points
(True, True)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from .cards import ALL_CARDS, Card
from .complex import ComplexDeal, Trick, _trick, complex_result, legal_cards, trick_deal_over
from .complex import trick_winner as _trick_winner
from .errors import IllegalMoveError
from .kingdoms import match_finished, results_after
from .moves import Contract, Move, Pass, Play
from .rulesets import TrickRules
from .scoring import DealResult, SeatBreakdown, trick_points, trix_points
from .seats import next_seat
from .state import History, MatchState, Phase
from .trix import NEXT_TO_LAY, TrixDeal, gone_out, playable_after
from .tuplerecord import TupleRecord

__all__ = [
    "STOP",
    "CardStep",
    "MoveSource",
    "TrickRunner",
    "TrixRunner",
    "card_steps",
    "end_deal",
    "recorded",
    "runner_of",
]

STOP = -1
"""What a move source answers to end the run before the next move."""

MoveSource = Callable[[int, int], int]
"""``source(turn, legal) -> bit``: the card ``turn`` plays (its bit, one of ``legal``),
``0`` for a TRIX pass (``legal`` empty), or :data:`STOP`."""

_tnew = tuple.__new__
_ZERO = (0, 0, 0, 0)
_NO_HANDS = (0, 0, 0, 0)
_OVER, _DEAL = Phase.OVER, Phase.DEAL
_TRIX_CONTRACT = Contract.TRIX

# Interned moves: PLAYS[seat][card], PASSES[seat] (one-move tuples).
PLAYS = tuple(tuple(Play(seat, Card(card)) for card in range(52)) for seat in range(4))
PASSES = tuple((Pass(seat),) for seat in range(4))
_NEXT_SEAT = tuple(next_seat(seat) for seat in range(4))  # next_seat's answers, one lookup


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


class TrickRunner:
    """A trick deal in progress (COMPLEX, King of Hearts, Queens, Diamonds,
    Ltoosh, a combined contract), as plain mutable locals.

    ``hands`` (a list of four card sets) and ``trick`` (the cards of the trick
    in progress) are changed in place, so a source may read them during its
    call; ``leader``, ``tricks``, ``points`` and ``turn`` are up to date at
    every trick's end and after :meth:`run`.  ``points`` is ``None`` when the
    running points are not kept (a playout scores the deal once, at its end).
    """

    __slots__ = (
        "doubled",
        "hands",
        "leader",
        "over",
        "played",
        "points",
        "rules",
        "trick",
        "tricks",
        "turn",
    )

    def __init__(
        self, state: MatchState, deal: ComplexDeal, rules: TrickRules, points: bool = True
    ) -> None:
        turn = state.turn
        assert turn is not None
        self.hands = list(state.hands)
        self.turn = turn
        self.leader = deal.leader
        self.trick = list(deal.trick)
        self.tricks = deal.tricks
        self.doubled = deal.doubled
        self.points = deal.points if points else None
        self.rules = rules
        self.played: list[Move] = []
        self.over = False

    def run(self, source: MoveSource, steps: list[CardStep] | None = None) -> int:
        """Play cards from ``source`` until it answers :data:`STOP` or the deal ends;
        how many were played.  With ``steps``, each step's :class:`CardStep` is
        appended to it.

        The one card step of every trick contract: the legal cards
        (R-CX-2, R-CL-2, R-OPT-2, R-OPT-4), the next seat (R-SEAT-1), the
        taker (R-CX-3), the trick's points (R-CX-5, R-DBL-4, R-CL-5 …) and the
        deal's end (R-CX-4, R-CL-2 … R-CL-4).
        """
        if self.over:
            return 0
        hands, trick, tricks = self.hands, self.trick, self.tricks
        turn, leader, points, rules = self.turn, self.leader, self.points, self.rules
        append, plays, deck = self.played.append, PLAYS, ALL_CARDS
        played = 0
        while True:
            hand = hands[turn]
            bit = source(turn, legal_cards(hand, trick, rules))
            if bit <= 0:  # STOP (a trick deal has no pass)
                break
            card = deck[bit.bit_length() - 1]
            hands[turn] = hand ^ bit
            trick.append(card)
            append(plays[turn][card])
            played += 1
            seat = turn
            if len(trick) < 4:
                turn = _NEXT_SEAT[turn]  # R-SEAT-1
                if steps is not None:
                    steps.append(_tnew(CardStep, (seat, card, turn, None, None, False, False)))
                continue
            cards = (trick[0], trick[1], trick[2], trick[3])
            taker = _trick_winner(leader, cards)
            done = _trick(leader, cards, taker)
            tricks += (done,)
            self.tricks = tricks
            gained = None
            if points is not None or steps is not None:
                gained = trick_points(cards, leader, taker, self.doubled, rules)
                if points is not None:
                    a, b, c, d = gained
                    points = (points[0] + a, points[1] + b, points[2] + c, points[3] + d)
                    self.points = points
            leader = turn = taker
            trick.clear()
            self.leader = leader
            over = trick_deal_over(len(tricks), hands[0] | hands[1] | hands[2] | hands[3], rules)
            if steps is not None:
                steps.append(_tnew(CardStep, (
                    seat, card, None if over else taker, done, gained, False, over,
                )))  # fmt: skip
            if over:
                self.over = True
                break
        self.turn = turn
        return played

    def state_after(self, state: MatchState, history: History) -> MatchState:
        """The state of the match after the run, from ``state`` (the state it was
        loaded from), ``history`` holding every move so far; a finished deal scored."""
        contract = state.contract
        assert contract is not None and state.owner is not None
        if self.over:
            done = _tnew(ComplexDeal, (self.leader, (), self.tricks, self.doubled, _ZERO))
            result = complex_result(
                state.deal_number, state.owner, done,
                contract=contract, kingdom=state.kingdom, rules=self.rules,
            )  # fmt: skip
            return end_deal(state, result, history)
        hands = self.hands
        points = self.points
        deal = _tnew(ComplexDeal, (
            self.leader, tuple(self.trick), self.tricks, self.doubled,
            _ZERO if points is None else points,
        ))  # fmt: skip
        return _in_deal(state, (hands[0], hands[1], hands[2], hands[3]), self.turn, deal, history)


class TrixRunner:
    """A TRIX deal in progress, as plain mutable locals: ``hands`` (changed in
    place), ``turn``, ``table`` (the cards laid), ``can`` (what may be laid on
    it), ``order`` (the finishing order) and ``holders`` (the seats holding
    cards, bit per seat); up to date after each card laid."""

    __slots__ = ("can", "hands", "holders", "order", "over", "played", "table", "turn")

    def __init__(self, state: MatchState, deal: TrixDeal) -> None:
        turn = state.turn
        assert turn is not None
        hands = self.hands = list(state.hands)
        self.turn = turn
        self.table = deal.table
        self.can = deal.playable
        self.order = deal.finishing_order
        self.holders = (
            bool(hands[0]) | bool(hands[1]) << 1 | bool(hands[2]) << 2 | bool(hands[3]) << 3
        )
        self.played: list[Move] = []
        self.over = False

    def run(self, source: MoveSource, steps: list[CardStep] | None = None) -> int:
        """Lay cards and pass from ``source`` until it answers :data:`STOP` or the
        deal ends; how many moves were made (``steps`` as for :meth:`TrickRunner.run`).

        The one step of TRIX: the legal cards are the playable ones held
        (R-TX-2; the pass when there are none, R-TX-3), the next seat is the
        next one holding cards (R-TX-1, :func:`~trixcomplex.rules.next_to_lay`'s
        table) and the finishing order grows as seats go out (R-TX-4).
        """
        if self.over:
            return 0
        hands, turn, table, can = self.hands, self.turn, self.table, self.can
        order, holders = self.order, self.holders
        append, plays, passes, deck = self.played.append, PLAYS, PASSES, ALL_CARDS
        after = NEXT_TO_LAY  # after[seat][holders]: next_to_lay(hands, seat), one lookup
        played = 0
        while True:
            hand = hands[turn]
            legal = hand & can  # trix_legal: the playable cards held (R-TX-2)
            bit = source(turn, legal)
            if bit < 0 or (not bit and legal):  # STOP
                break
            played += 1
            seat = turn
            out = False
            if bit:
                card = deck[bit.bit_length() - 1]
                append(plays[turn][card])
                hand ^= bit
                hands[turn] = hand
                table |= bit
                can = playable_after(can, table, card)
                self.table, self.can = table, can
                if not hand:
                    out = True
                    order = gone_out(order, turn)
                    self.order = order
                    if len(order) == 4:  # R-TX-4: three seats are out, the fourth is last
                        self.over = True
                        if steps is not None:
                            steps.append(
                                _tnew(CardStep, (seat, card, None, None, None, True, True))
                            )
                        break
                    holders ^= 1 << turn
                    self.holders = holders
            else:
                card = None
                append(passes[turn][0])
            turn = after[turn][holders]
            if steps is not None:
                steps.append(_tnew(CardStep, (seat, card, turn, None, None, out, False)))
        self.turn = turn
        return played

    def state_after(self, state: MatchState, history: History) -> MatchState:
        """As :meth:`TrickRunner.state_after`, for TRIX."""
        if self.over:
            return end_deal(state, _trix_result(state, self.order), history)
        hands = self.hands
        deal = _tnew(TrixDeal, (self.table, self.order, self.can))
        return _in_deal(state, (hands[0], hands[1], hands[2], hands[3]), self.turn, deal, history)


def runner_of(state: MatchState, points: bool = True) -> TrickRunner | TrixRunner | None:
    """The runner of the deal in progress in ``state`` (``None`` when no cards are
    played now); ``points=False``: a trick deal's running points are not kept."""
    deal = state.deal
    if type(deal) is ComplexDeal:
        contract = state.contract
        assert contract is not None
        return TrickRunner(state, deal, state.ruleset.trick_rules(contract), points)
    if type(deal) is TrixDeal:
        return TrixRunner(state, deal)
    return None


def recorded(moves: Sequence[Move], start: int = 0) -> Callable[[int, int], int]:
    """The move source of ``moves[start:]``: each a :class:`~trixcomplex.Play` of a
    legal card or a :class:`~trixcomplex.Pass` with none, by the seat to move;
    :data:`STOP` at the first other move (left to :func:`~trixcomplex.apply`, which
    says what is wrong) or the end of ``moves``.

    >>> from trixcomplex.cards import parse_card
    >>> source = recorded([Play(1, parse_card("2S")), Pass(2)])
    >>> source(1, 1 << parse_card("2S")) == 1 << parse_card("2S"), source(2, 0), source(3, 0)
    (True, 0, -1)
    """
    index = start
    count = len(moves)

    def source(turn: int, legal: int) -> int:
        nonlocal index
        if index == count:
            return STOP
        move = moves[index]
        if type(move) is Play:
            if move.seat != turn:
                return STOP
            bit = 1 << move.card
            if not legal & bit:  # not held, or not legal now
                return STOP
        elif type(move) is Pass and move.seat == turn and not legal:
            bit = 0
        else:
            return STOP
        index += 1
        return bit

    return source


def card_steps(state: MatchState, moves: Sequence[Move]) -> tuple[MatchState, list[CardStep]]:
    """The state after ``moves`` (card plays and TRIX passes of the deal in
    progress in ``state``) and what each of them changed, as :class:`CardStep`\\ s.

    Raises :class:`~trixcomplex.IllegalMoveError` (``index`` set) at the first
    move that is not a legal card or pass now, as :func:`~trixcomplex.apply_moves` would.
    """
    runner = runner_of(state)
    steps: list[CardStep] = []
    ran = runner.run(recorded(moves), steps) if runner is not None else 0
    if ran < len(moves):
        exc = IllegalMoveError(moves[ran], "not a legal card or pass of the deal now", "R-MATCH-2")
        exc.index = ran
        raise exc
    assert runner is not None or not moves
    if runner is None:
        return state, steps
    return runner.state_after(state, state.history.extend(runner.played)), steps


def _in_deal(
    state: MatchState, hands: tuple[int, int, int, int], turn: int, deal: ComplexDeal | TrixDeal,
    history: History,
) -> MatchState:  # fmt: skip
    """The state inside the deal of ``state`` with these four parts changed."""
    return _tnew(MatchState, (
        state.phase, state.deal_number, state.owner, state.contract, hands, turn, deal,
        state.scores, state.results, history, state.ruleset,
    ))  # fmt: skip


def end_deal(state: MatchState, result: DealResult, history: History) -> MatchState:
    """Score a finished deal; the match waits for the next deal or is over
    (R-MATCH-1, R-MATCH-8, R-OPT-9)."""
    s, p = state.scores, result.points
    scores = (s[0] + p[0], s[1] + p[1], s[2] + p[2], s[3] + p[3])
    ruleset = state.ruleset
    results = results_after(state.results, result, ruleset)
    over = match_finished(results, ruleset)
    return _tnew(MatchState, (
        _OVER if over else _DEAL, state.deal_number, state.owner, None, _NO_HANDS, None,
        None, scores, results, history, ruleset,
    ))  # fmt: skip


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
