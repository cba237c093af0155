"""The engine face: ``new_match``, ``legal_moves``, ``apply``, ``forced_move``, ``score``.

These are the only doors into the rules.  The flow of a match (R-MATCH-1 …
R-MATCH-8) lives here: deals, Kingdoms and their owners, the contract
choice, and the hand-over between the contract modules.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
>>> state.phase, state.to_act == {state.owner}
(<Phase.CHOOSE: 'CHOOSE'>, True)
>>> state = tc.apply(state, tc.Timeout())          # the owner's time ran out
>>> state.phase, state.contract
(<Phase.DOUBLE: 'DOUBLE'>, <Contract.COMPLEX: 'COMPLEX'>)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from . import moves as _moves
from .cards import Card, Suit, byte_table, cards_of, hand_mask, mask_of
from .doubling import DoublingWindow, doubling_subsets, open_window
from .errors import IllegalMoveError
from .kingdoms import choosable_contracts, deal_owner, match_finished, results_after
from .moves import Choose, Contract, Deal, Double, Move, Pass, Play, PlayerMove, Redeal, Timeout
from .rulesets import DOUBLABLE, PARTNERSHIP, Ruleset, TrickRules
from .scoring import (
    DealResult,
    MatchResult,
    Score,
    SeatBreakdown,
    match_outcome,
    team_totals,
    trick_points,
    trix_points,
)
from .state import DealProgress, History, MatchState, Phase, _next_in_deal, redeal_seat
from .tricks import (
    ComplexDeal,
    Trick,
    _trick,
    complex_result,
    legal_cards,
    taken_result,
    trick_deal_over,
    trick_winner,
)
from .trix import TrixDeal, gone_out, next_to_lay
from .trix import legal_cards as trix_legal_cards
from .trix import playable_after as trix_playable_after

__all__ = [
    "apply",
    "apply_moves",
    "forced_move",
    "is_legal",
    "legal_moves",
    "new_match",
    "score",
]

_ZERO = (0, 0, 0, 0)
# The card paths build their records with one tuple.__new__ each (see tuplerecord);
# the fields are given in declaration order.
_tnew = tuple.__new__
_SEATS = (0, 1, 2, 3)
# Enum members as module constants: ``Phase.COMPLEX`` is a class attribute lookup
# through the enum machinery (~80 ns on Python 3.11), paid several times a move.
_DEAL, _CHOOSE, _DOUBLE = Phase.DEAL, Phase.CHOOSE, Phase.DOUBLE
_COMPLEX, _TRICKS, _TRIX, _OVER = Phase.COMPLEX, Phase.TRICKS, Phase.TRIX, Phase.OVER
_NO_HANDS = (0, 0, 0, 0)
_NEW_TRIX = TrixDeal(0, ())
_TRIX_CONTRACT = Contract.TRIX

# Interned player moves for the hot path: _PLAYS[seat][card], PASSES[seat].
# They are the moves module's, the very ones move_from_json reads canonical moves as.
_PLAYS = _moves.PLAYS
PASSES = _moves.PASSES
"""PASSES[seat]: the one-move tuple of the interned pass of ``seat`` (for the fast playout)."""
_CHOICES = tuple({c: Choose(seat, c) for c in Contract} for seat in range(4))
# _DOUBLES[seat][cards]: the interned Double of ``seat`` doubling the set ``cards``;
# _ANSWERS[seat][asked]: every answer of ``seat`` when asked about the set ``asked``,
# one per subset, in the order of ``doubling_subsets`` (R-DBL-2).
_DOUBLES = tuple(
    {cards: Double(seat, cards_of(cards)) for cards in doubling_subsets(DOUBLABLE)}
    for seat in range(4)
)
_ANSWERS = tuple(
    {asked: tuple(_DOUBLES[seat][m] for m in doubling_subsets(asked)) for asked in _DOUBLES[seat]}
    for seat in range(4)
)


def new_match(ruleset: Ruleset = PARTNERSHIP) -> MatchState:
    """A match of ``ruleset`` (the partnership game by default), waiting
    for its first deal (R-SET-1)."""
    return MatchState(
        phase=_DEAL,
        deal_number=0,
        owner=None,
        contract=None,
        hands=_NO_HANDS,
        turn=None,
        deal=None,
        scores=_ZERO,
        results=(),
        history=History.EMPTY,
        ruleset=ruleset,
    )


# -- legal moves --------------------------------------------------------------


# _PLAY_BYTES[seat][k][b]: the interned plays of ``seat`` for the cards 8k..8k+7 set in byte b.
# Listing a set's plays is then 7 lookups and tuple joins instead of a loop over its cards.
_PLAY_BYTES = tuple(byte_table(_PLAYS[seat]) for seat in range(4))


def plays_of(seat: int, mask: int) -> tuple[Play, ...]:
    """The interned :class:`Play` moves of ``seat`` for the cards of ``mask``, by card."""
    if mask.bit_count() <= 2:  # often one or two cards (TRIX, following suit)
        low = mask & -mask
        if mask == low:
            return (_PLAYS[seat][low.bit_length() - 1],) if mask else ()
        return (_PLAYS[seat][low.bit_length() - 1], _PLAYS[seat][mask.bit_length() - 1])
    t = _PLAY_BYTES[seat]
    if mask < 0x10000:
        if mask < 0x100:
            return t[0][mask]
        return t[0][mask & 255] + t[1][mask >> 8]
    return (
        t[0][mask & 255] + t[1][mask >> 8 & 255] + t[2][mask >> 16 & 255]
        + t[3][mask >> 24 & 255] + t[4][mask >> 32 & 255] + t[5][mask >> 40 & 255]
        + t[6][mask >> 48]
    )  # fmt: skip


_SEAT_NUMBERS = frozenset((0, 1, 2, 3))
_SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))


def legal_moves(state: MatchState, seat: int | None = None) -> tuple[PlayerMove, ...]:
    """Every legal player move now, or only ``seat``'s.

    Never lists :class:`Deal` or :class:`Timeout` (those are the host's).  In
    the doubling window it lists, for every seat still to answer, one
    :class:`Double` per subset of its doublable cards.  A ``seat`` that is
    not 0–3 raises ``ValueError``.
    """
    if seat is not None and seat not in _SEAT_NUMBERS:
        raise ValueError(f"a seat is an int from 0 to 3, not {seat!r}")
    global _listed
    deal = state.deal
    turn = state.turn
    if type(deal) is ComplexDeal:  # COMPLEX, TRICKS
        assert turn is not None
        if seat is not None and seat != turn:
            return ()
        rules = state.ruleset._rules[state.contract]  # type: ignore[index]  # trick_rules(), inlined
        legal = legal_cards(state.hands[turn], deal.trick, rules)
        _listed = (state, legal)
        return plays_of(turn, legal)
    if type(deal) is TrixDeal:  # TRIX
        assert turn is not None
        if state.ruleset.bad_hand_redeal:
            return _trix_moves_with_redeal(state, seat)
        if seat is not None and seat != turn:
            return ()
        legal = state.hands[turn] & deal.playable  # trix.legal_cards, inlined
        _listed = (state, legal)
        return plays_of(turn, legal) if legal else PASSES[turn]  # R-TX-3: else the pass
    phase = state.phase
    if phase is _DOUBLE:
        assert type(deal) is DoublingWindow
        asked, answers = deal.asked, deal.answers
        if seat is not None:  # is it in window.waiting()?
            if seat in _SEATS and asked[seat] and answers[seat] is None:
                return _ANSWERS[seat][asked[seat]]
            return ()
        return window_answers(asked, answers)
    if phase is _CHOOSE:
        assert turn is not None
        if seat is not None and seat != turn:
            return ()
        choices = _CHOICES[turn]
        return tuple([
            choices[c] for c in choosable_contracts(state.remaining_contracts, state.ruleset)
        ])  # fmt: skip
    return ()


# The legal card set legal_moves decided last for the seat to play (in TRIX, 0
# when it listed the pass), with its state: the usual caller applies one of the
# moves next, and apply then knows a move of that seat is legal from one bit,
# without deciding it again (or scanning the moves: a Play compares in Python).
# Only ever a proof of legality: a miss runs the rule checks, and the tuple
# swaps atomically, so threads sharing the module stay correct.
_listed: tuple[MatchState | None, int] = (None, 0)


def window_answers(asked: Sequence[int], answers: Sequence[int | None]) -> tuple[Double, ...]:
    """Every answer a doubling window still awaits, as :func:`legal_moves` lists
    them: for each seat asked (``asked[s]``, the doublable cards it holds) and
    not answered yet (``answers[s] is None``), in seat order, one
    :class:`Double` per subset of its doublable cards, the empty one first
    (R-DBL-1, R-DBL-2).  Empty once every asked seat has answered.

    >>> from trixcomplex.core.cards import parse_card
    >>> qs = 1 << parse_card("QS")
    >>> [str(move) for move in window_answers((0, qs, 0, 0), (None, None, None, None))]
    ['seat 1 doubles nothing', 'seat 1 doubles QS']
    >>> window_answers((0, qs, 0, 0), (None, 0, None, None))
    ()
    """
    moves: tuple[Double, ...] = ()
    for s in range(4):  # every seat in window.waiting(), in seat order
        if asked[s] and answers[s] is None:
            moves += _ANSWERS[s][asked[s]]
    return moves


def trix_moves(seat: int, hand: int, table: int) -> tuple[PlayerMove, ...]:
    """``seat``'s TRIX moves: its legal cards, or the pass when it has none (R-TX-2, R-TX-3)."""
    legal = trix_legal_cards(hand, table)
    return plays_of(seat, legal) if legal else PASSES[seat]


def _trix_moves_with_redeal(state: MatchState, seat: int | None) -> tuple[PlayerMove, ...]:
    """TRIX moves when a bad hand may demand a redeal (R-OPT-8): the turn seat's
    moves, and the bad hand's :class:`Redeal` before the first card or pass."""
    turn = state.turn
    deal = state.deal
    assert turn is not None and type(deal) is TrixDeal
    moves: tuple[PlayerMove, ...] = ()
    if seat is None or seat == turn:
        moves = trix_moves(turn, state.hands[turn], deal.table)
    bad = redeal_seat(state)
    if bad is not None and (seat is None or seat == bad):
        redeal: tuple[PlayerMove, ...] = (Redeal(bad),)
        moves = redeal + moves if seat is not None or bad < turn else moves + redeal
    return moves


def forced_move(state: MatchState, seat: int) -> PlayerMove | None:
    """The single legal move of ``seat``, or ``None`` if it has none or several (R-TX-5).

    A host may play it for the seat after a delay of its own choosing.
    """
    moves = legal_moves(state, seat)
    return moves[0] if len(moves) == 1 else None


def is_legal(state: MatchState, move: Move) -> bool:
    """Whether :func:`apply` would accept ``move`` (Deal and Timeout included)."""
    try:
        apply(state, move)
    except IllegalMoveError:
        return False
    return True


# -- apply --------------------------------------------------------------------


def apply(state: MatchState, move: Move) -> MatchState:
    """The state after ``move``; ``state`` itself is never changed.

    Raises :class:`IllegalMoveError` (a ``ValueError``) naming the move, the
    reason and the rules clause if the move is not legal now.
    """
    if type(move) is Play:  # most moves: skip the handler lookup
        deal = state.deal
        if type(deal) is ComplexDeal:
            return _play_trick(state, move, deal)
        if type(deal) is TrixDeal:
            return _play_trix(state, move, deal)
        raise _wrong_phase(state, move)
    handler = _HANDLERS.get(type(move))
    if handler is None:
        raise TypeError(f"not a move: {move!r}")
    return handler(state, move)


def apply_moves(state: MatchState, moves: Iterable[Move]) -> MatchState:
    """The state after ``moves``, applied in order; ``state`` itself is never changed.

    Equal (``==``, history included) to applying them one at a time with
    :func:`apply`, with the same checks, and made for replaying a record or a
    saved game: a run of card plays (and TRIX passes) within a deal is played
    on plain locals, each move checked by the rule functions :func:`apply`
    uses, and the state is built once at the end of the run (or of the deal,
    scored as :func:`apply` scores it).

    An illegal move raises the :class:`IllegalMoveError` that :func:`apply`
    raises for it, with ``index`` set to its 0-based position in ``moves``.

    >>> import random
    >>> import trixcomplex as tc
    >>> rng = random.Random(3)
    >>> state, moves = tc.new_match(), []
    >>> while len(moves) < 60:
    ...     move = tc.Deal.shuffled(rng) if state.phase is tc.Phase.DEAL else (
    ...         rng.choice(tc.legal_moves(state)))
    ...     state = tc.apply(state, move)
    ...     moves.append(move)
    >>> tc.apply_moves(tc.new_match(), moves) == state
    True
    >>> try:
    ...     tc.apply_moves(tc.new_match(), moves[:3] + moves[:1])
    ... except tc.IllegalMoveError as exc:
    ...     print(exc.index, exc.rule, exc.reason)
    3 R-TX-1 not allowed now: a TRIX deal is being played
    """
    listed = moves if type(moves) is list or type(moves) is tuple else list(moves)
    index, count = 0, len(listed)
    while index < count:
        move = listed[index]
        deal = state.deal
        if type(deal) is ComplexDeal and type(move) is Play:
            state, ran = _trick_run(state, listed, index, deal)
        elif type(deal) is TrixDeal and (type(move) is Play or type(move) is Pass):
            state, ran = _trix_run(state, listed, index, deal)
        else:
            ran = 0
        if ran:
            index += ran
            continue
        try:
            state = apply(state, move)
        except IllegalMoveError as exc:
            exc.index = index
            raise
        index += 1
    return state


def _trick_run(
    state: MatchState, moves: Sequence[Move], start: int, deal: ComplexDeal
) -> tuple[MatchState, int]:
    """Play the card plays ``moves[start:]`` of the trick deal of ``state`` on locals,
    as :func:`_play_trick` plays them one at a time: until a move that is not a
    legal play (left to :func:`apply`), the end of ``moves`` or the end of the
    deal.  The state after them, and how many moves were played (0: none)."""
    contract = state.contract
    assert contract is not None and state.turn is not None
    rules = state.ruleset._rules[contract]
    hands = list(state.hands)
    turn = state.turn
    leader, trick, tricks = deal.leader, list(deal.trick), list(deal.tricks)
    doubled, points = deal.doubled, deal.points
    index, count = start, len(moves)
    while index < count:
        move = moves[index]
        if type(move) is not Play or move.seat != turn:
            break
        card = move.card
        bit = 1 << card
        hand = hands[turn]
        if not legal_cards(hand, trick, rules) & bit:  # not held, or not legal now
            break
        hands[turn] = hand ^ bit
        trick.append(card)
        index += 1
        if len(trick) < 4:
            turn = (turn + 1) & 3  # R-SEAT-1
            continue
        cards = (trick[0], trick[1], trick[2], trick[3])
        taker = trick_winner(leader, cards)  # R-CX-3
        p = trick_points(cards, leader, taker, doubled, rules)
        points = (points[0] + p[0], points[1] + p[1], points[2] + p[2], points[3] + p[3])
        tricks.append(_trick(leader, cards, taker))
        leader = turn = taker
        trick = []
        if trick_deal_over(len(tricks), hands[0] | hands[1] | hands[2] | hands[3], rules):
            done = ComplexDeal(leader, (), tuple(tricks), doubled, points)
            result = _trick_deal_result(state, done, rules)
            history = state.history.extend(moves[start:index])
            return _end_deal(state, result, history), index - start
    if index == start:
        return state, 0
    return _tnew(MatchState, (
        state.phase, state.deal_number, state.owner, contract,
        (hands[0], hands[1], hands[2], hands[3]), turn,
        ComplexDeal(leader, tuple(trick), tuple(tricks), doubled, points), state.scores,
        state.results, state.history.extend(moves[start:index]), state.ruleset,
    )), index - start  # fmt: skip


def _trix_run(
    state: MatchState, moves: Sequence[Move], start: int, deal: TrixDeal
) -> tuple[MatchState, int]:
    """Lay the TRIX plays and passes ``moves[start:]`` on locals, as :func:`_play_trix`
    and :func:`_apply_pass` do one at a time (see :func:`_trick_run`).  With a
    redeal possible (R-OPT-8) each move goes through :func:`apply`."""
    if state.ruleset.bad_hand_redeal:
        return state, 0
    assert state.turn is not None
    hands = list(state.hands)
    turn = state.turn
    table, order, can = deal.table, deal.finishing_order, deal.playable
    index, count = start, len(moves)
    while index < count:
        move = moves[index]
        if type(move) is Pass:
            if move.seat != turn or hands[turn] & can:  # R-TX-1, R-TX-3
                break
        elif type(move) is Play and move.seat == turn:
            card = move.card
            bit = 1 << card
            hand = hands[turn]
            if not hand & bit or not can & bit:  # R-MATCH-2, R-TX-2
                break
            hand ^= bit
            hands[turn] = hand
            table |= bit
            can = trix_playable_after(can, table, card)
            if not hand:
                order = gone_out(order, turn)
                if len(order) == 4:  # R-TX-4
                    index += 1
                    return finish_trix_deal(state, moves[start:index], order), index - start
        else:
            break
        index += 1
        turn = next_to_lay(hands, turn)  # R-TX-1
    if index == start:
        return state, 0
    return _tnew(MatchState, (
        state.phase, state.deal_number, state.owner, state.contract,
        (hands[0], hands[1], hands[2], hands[3]), turn, _tnew(TrixDeal, (table, order, can)),
        state.scores,
        state.results, state.history.extend(moves[start:index]), state.ruleset,
    )), index - start  # fmt: skip


_PHASE_RULES = {
    Phase.DEAL: ("the match is waiting for a deal", "R-MATCH-2"),
    Phase.CHOOSE: ("the Kingdom owner is choosing the contract", "R-MATCH-5"),
    Phase.DOUBLE: ("the doubling window is open", "R-DBL-2"),
    Phase.COMPLEX: ("a COMPLEX deal is being played", "R-CX-1"),
    Phase.TRICKS: ("a trick contract is being played", "R-CL-2"),
    Phase.TRIX: ("a TRIX deal is being played", "R-TX-1"),
    Phase.OVER: ("the match is over", "R-MATCH-8"),
}


def _wrong_phase(state: MatchState, move: Move) -> IllegalMoveError:
    reason, rule = _PHASE_RULES[state.phase]
    return IllegalMoveError(move, f"not allowed now: {reason}", rule)


def _apply_deal(state: MatchState, move: Deal) -> MatchState:
    if state.phase is not _DEAL:
        raise _wrong_phase(state, move)
    a, b, c, d = move.hands()  # R-MATCH-2
    hands = (hand_mask(a), hand_mask(b), hand_mask(c), hand_mask(d))
    ruleset = state.ruleset
    redeal = type(state.history.last) is Redeal  # R-OPT-8: the same deal again
    if redeal:
        number, owner = state.deal_number, state.owner
    else:
        number = state.deal_number + 1
        owner = deal_owner(number, move.deck, state.owner, ruleset, state.results)  # R-MATCH-3, -4
    base = _tnew(MatchState, (
        _CHOOSE, number, owner, None, hands, owner, None, state.scores, state.results,
        state.history.append(move), ruleset,
    ))  # fmt: skip  # MatchState(...), its fields in order (one per deal)
    remaining = base.remaining_contracts
    if len(remaining) > 1 and not ruleset.fixed_order:
        return base  # the owner chooses (R-MATCH-5, R-SET-2)
    return _start(base, remaining[0])  # R-MATCH-5, R-OPT-5


def _start(state: MatchState, contract: Contract, move: Move | None = None) -> MatchState:
    """The state once ``contract`` is known: open the doubling window, start the
    tricks (no doubling in this contract) or start TRIX.  ``move`` (the choice or
    the timeout that settled the contract) is added to the history."""
    owner = state.owner
    assert owner is not None
    history = state.history if move is None else state.history.append(move)
    hands, ruleset = state.hands, state.ruleset
    turn: int | None = owner
    deal: DealProgress
    if contract is _TRIX_CONTRACT:  # the owner lays first (R-TX-1)
        phase, deal = _TRIX, _NEW_TRIX
    else:
        doublable = ruleset.trick_rules(contract).doublable
        if doublable:  # R-DBL-2: the holders of doublable cards answer first
            phase, turn, deal = _DOUBLE, None, open_window(hands, doublable)
        else:  # R-OPT-1, R-CL-7: no window; the owner leads (R-CX-1)
            phase, deal = _trick_phase(contract), _tnew(ComplexDeal, (owner, (), (), (), _ZERO))
    return _tnew(MatchState, (
        phase, state.deal_number, owner, contract, hands, turn, deal, state.scores,
        state.results, history, ruleset,
    ))  # fmt: skip  # MatchState(...), its fields in order


def _apply_choose(state: MatchState, move: Choose) -> MatchState:
    if state.phase is not _CHOOSE:
        raise _wrong_phase(state, move)
    if move.seat != state.owner:
        raise IllegalMoveError(
            move, f"only the Kingdom owner, seat {state.owner}, chooses the contract", "R-MATCH-5"
        )
    remaining = state.remaining_contracts
    if move.contract not in choosable_contracts(remaining, state.ruleset):
        names = " or ".join(c.value for c in remaining)
        contract = move.contract
        if contract.is_combined and not state.ruleset.combined_contracts:
            why, rule = "combines contracts, which this game does not allow", "R-OPT-9"
        elif all(p in state.ruleset.contracts for p in contract.parts):
            why, rule = "was already played in this Kingdom", "R-SET-2"
        else:
            why, rule = "is not a contract of this game", "R-MATCH-1"
        raise IllegalMoveError(move, f"{contract.value} {why}; choose {names}", rule)
    return _start(state, move.contract, move)


def _apply_timeout(state: MatchState, move: Timeout) -> MatchState:
    if state.phase is _CHOOSE:  # R-MATCH-6, R-SET-2: the first remaining contract
        return _start(state, state.remaining_contracts[0], move)
    if state.phase is _DOUBLE:
        return _close_window(state, state.history.append(move))
    raise IllegalMoveError(
        move,
        "a timeout is only legal while the owner chooses or the doubling window is open; "
        f"{_PHASE_RULES[state.phase][0]}",
        "R-MATCH-6",
    )


def _apply_double(state: MatchState, move: Double) -> MatchState:
    if state.phase is not _DOUBLE:
        raise IllegalMoveError(
            move, "cards can only be doubled in the doubling window before the first trick",
            "R-DBL-1",
        )  # fmt: skip
    window = state.deal
    assert type(window) is DoublingWindow
    seat = move.seat
    asked = window.asked[seat]
    if not asked:
        raise IllegalMoveError(
            move, f"seat {seat} holds no K♥ or Queen and is not asked", "R-DBL-2"
        )
    if window.answers[seat] is not None:
        raise IllegalMoveError(move, f"seat {seat} has already answered", "R-DBL-2")
    cards = mask_of(move.cards)
    if cards & ~asked:
        wrong = " ".join(str(c) for c in cards_of(cards & ~asked))
        raise IllegalMoveError(
            move, f"seat {seat} cannot double {wrong}: only the K♥ and Queens it holds", "R-DBL-1"
        )
    window = window.answer(seat, cards)
    history = state.history.append(move)
    if not window.waiting():
        return _close_window(state, history, window.revealed())
    return _tnew(MatchState, (
        _DOUBLE, state.deal_number, state.owner, state.contract, state.hands, None, window,
        state.scores, state.results, history, state.ruleset,
    ))  # fmt: skip  # MatchState(...), its fields in order


def apply_listed(state: MatchState, move: PlayerMove) -> MatchState:
    """``apply(state, move)`` for a ``move`` that :func:`legal_moves` listed for ``state``:
    the same state, without deciding again that the move is legal.

    For :mod:`trixcomplex.core.playout`, which draws its moves from those very lists:
    a contract choice starts the contract without its checks (R-MATCH-5); any
    other move goes through :func:`apply`.  A move not listed for ``state`` is
    not allowed here.
    """
    if type(move) is Choose:
        return _start(state, move.contract, move)
    return apply(state, move)


def finish_window(
    state: MatchState,
    moves: Sequence[Double],
    answers: tuple[int | None, int | None, int | None, int | None],
) -> MatchState:
    """The state after the doubling window of ``state`` received ``moves`` (every
    answer it awaited, in order, each one :func:`window_answers` listed),
    leaving ``answers`` (each asked seat's doubled set, ``None`` for a seat not
    asked, as in the window): the doubles revealed at once, the owner leads
    (R-DBL-2, R-DBL-3, R-CX-1).  Equal to applying ``moves`` one at a time.

    For :mod:`trixcomplex.core.playout`, which draws the answers on plain locals
    and hands the closed window back here.
    """
    window = state.deal
    assert type(window) is DoublingWindow
    revealed = _tnew(DoublingWindow, (window.asked, answers)).revealed()
    return _close_window(state, state.history.extend(moves), revealed)


def _close_window(
    state: MatchState,
    history: History,
    doubled: tuple[tuple[Card, int], ...] | None = None,
) -> MatchState:
    """Reveal every double at once; the owner leads the first trick (R-DBL-3, R-CX-1)."""
    if doubled is None:
        window = state.deal
        assert type(window) is DoublingWindow
        doubled = window.revealed()
    owner, contract = state.owner, state.contract
    assert owner is not None and contract is not None
    return _tnew(MatchState, (
        _trick_phase(contract), state.deal_number, owner, contract, state.hands, owner,
        _tnew(ComplexDeal, (owner, (), (), doubled, _ZERO)), state.scores, state.results,
        history, state.ruleset,
    ))  # fmt: skip  # MatchState(...) and ComplexDeal(...), their fields in order


def _turn_error(state: MatchState, move: Play | Pass) -> IllegalMoveError:
    turn = state.turn
    deal = state.deal
    if type(deal) is ComplexDeal:
        rule = "R-SEAT-1" if deal.trick else "R-CX-3" if deal.tricks else "R-CX-1"
    else:
        rule = "R-TX-1"
    return IllegalMoveError(move, f"it is seat {turn}'s turn, not seat {move.seat}'s", rule)


def _trick_phase(contract: Contract) -> Phase:
    """The phase of a trick deal: COMPLEX, or TRICKS for a classic trick contract."""
    return _COMPLEX if contract is Contract.COMPLEX else _TRICKS


def _play_trick(state: MatchState, move: Play, deal: ComplexDeal) -> MatchState:
    """A card played to a trick of COMPLEX or of a classic trick contract."""
    seat = move.seat
    card = move.card
    bit = 1 << card
    hands = state.hands
    hand = hands[seat] ^ bit
    listed = _listed
    if listed[0] is not state or not listed[1] & bit or seat != state.turn:
        _check_trick_card(state, move, deal)
    new_hands = _replace(hands, seat, hand)
    trick = deal.trick + (card,)
    old_history = state.history
    history = _tnew(History, (old_history, move, old_history._len + 1))  # .append(move)
    if len(trick) < 4:
        # ComplexDeal(...) and _next_in_deal, inlined (three of four cards end here).
        deal = _tnew(ComplexDeal, (deal.leader, trick, deal.tricks, deal.doubled, deal.points))
        return _tnew(MatchState, (
            state.phase, state.deal_number, state.owner, state.contract, new_hands,
            (seat + 1) & 3, deal, state.scores, state.results, history, state.ruleset,
        ))  # fmt: skip  # R-SEAT-1: the next seat plays
    contract = state.contract
    assert contract is not None
    rules = state.ruleset._rules[contract]  # trick_rules(), inlined (hot path)
    leader = deal.leader
    turn = trick_winner(leader, trick)  # the taker leads next (R-CX-3)
    points = trick_points(trick, leader, turn, deal.doubled, rules)
    old = deal.points
    total = (old[0] + points[0], old[1] + points[1], old[2] + points[2], old[3] + points[3])
    tricks = deal.tricks + (_trick(leader, trick, turn),)  # type: ignore[arg-type]
    deal = _tnew(ComplexDeal, (turn, (), tricks, deal.doubled, total))  # ComplexDeal(...)
    left = new_hands[0] | new_hands[1] | new_hands[2] | new_hands[3]
    if trick_deal_over(len(tricks), left, rules):
        return _end_deal(state, _trick_deal_result(state, deal, rules), history)
    return _next_in_deal(state, new_hands, turn, deal, history)


def _check_trick_card(state: MatchState, move: Play, deal: ComplexDeal) -> None:
    """Raise unless ``move`` may be played to the trick of ``deal`` now (R-SEAT-1,
    R-MATCH-2; the legal cards: R-CX-2, R-CL-2, R-OPT-2)."""
    seat = move.seat
    if seat != state.turn:
        raise _turn_error(state, move)
    card = move.card
    bit = 1 << card
    hand = state.hands[seat]
    if not hand & bit:
        raise IllegalMoveError(move, f"seat {seat} does not hold {card}", "R-MATCH-2")
    contract = state.contract
    assert contract is not None
    rules = state.ruleset._rules[contract]
    if not legal_cards(hand, deal.trick, rules) & bit:
        raise _trick_card_error(move, hand, deal.trick, rules)


def _trick_deal_result(state: MatchState, deal: ComplexDeal, rules: TrickRules) -> DealResult:
    """The result of the trick deal of ``state``, finished as ``deal``."""
    assert state.owner is not None and state.contract is not None
    return complex_result(
        state.deal_number, state.owner, deal,
        contract=state.contract, kingdom=state.kingdom, rules=rules,
    )  # fmt: skip


def _trick_card_error(
    move: Play, hand: int, trick: tuple[Card, ...], rules: TrickRules
) -> IllegalMoveError:
    """Why ``move`` is not among the legal cards of a trick (R-CX-2, R-CL-2, R-OPT-2)."""
    seat = move.seat
    if trick and hand & _SUIT_MASKS[trick[0] // 13]:
        led = Suit(trick[0] // 13).symbol
        return IllegalMoveError(move, f"seat {seat} must follow suit {led}", "R-CX-2")
    if trick:
        return IllegalMoveError(
            move, f"seat {seat} cannot follow suit and must discard a penalty card", "R-OPT-2"
        )
    return IllegalMoveError(
        move, f"seat {seat} may not lead a heart while holding another suit", "R-CL-2"
    )


def _apply_redeal(state: MatchState, move: Redeal) -> MatchState:
    """A bad TRIX hand demands a new deal (R-OPT-8); never in the partnership game (R-MATCH-2)."""
    if not state.ruleset.bad_hand_redeal:
        raise IllegalMoveError(move, "nothing causes a redeal in this game", "R-MATCH-2")
    if redeal_seat(state) != move.seat:
        raise IllegalMoveError(
            move,
            f"seat {move.seat} may not demand a redeal: only a seat with four 2s, or three "
            "2s and the fourth suit's 3, before the first TRIX card or pass",
            "R-OPT-8",
        )
    return MatchState(
        phase=_DEAL, deal_number=state.deal_number, owner=state.owner, contract=None,
        hands=_NO_HANDS, turn=None, deal=None, scores=state.scores,
        results=state.results, history=state.history.append(move), ruleset=state.ruleset,
    )  # fmt: skip


def _replace(hands: tuple[int, int, int, int], seat: int, hand: int) -> tuple[int, int, int, int]:
    if seat == 0:
        return (hand, hands[1], hands[2], hands[3])
    if seat == 1:
        return (hands[0], hand, hands[2], hands[3])
    if seat == 2:
        return (hands[0], hands[1], hand, hands[3])
    return (hands[0], hands[1], hands[2], hand)


def _play_trix(state: MatchState, move: Play, deal: TrixDeal) -> MatchState:
    """A card laid in TRIX."""
    seat = move.seat
    card = move.card
    bit = 1 << card
    listed = _listed
    if listed[0] is not state or not listed[1] & bit or seat != state.turn:
        _check_trix_card(state, move, deal)
    hands = state.hands
    hand = hands[seat] ^ bit
    hands = _replace(hands, seat, hand)
    order = deal.finishing_order
    old_history = state.history
    history = _tnew(History, (old_history, move, old_history._len + 1))  # .append(move)
    if not hand:
        order = gone_out(order, seat)
        if len(order) == 4:  # R-TX-4: three seats are out, the fourth is last
            return _end_deal(state, _trix_result(state, order), history)
    table = deal.table | bit
    # TrixDeal(...) and _next_in_deal, inlined (one per card laid).
    deal = _tnew(TrixDeal, (table, order, trix_playable_after(deal.playable, table, card)))
    return _tnew(MatchState, (
        state.phase, state.deal_number, state.owner, state.contract, hands,
        next_to_lay(hands, seat), deal, state.scores, state.results, history, state.ruleset,
    ))  # fmt: skip


def _check_trix_card(state: MatchState, move: Play, deal: TrixDeal) -> None:
    """Raise unless ``move`` may be laid now (R-TX-1, R-MATCH-2, R-TX-2)."""
    seat = move.seat
    if seat != state.turn:
        raise _turn_error(state, move)
    card = move.card
    if not state.hands[seat] & 1 << card:
        raise IllegalMoveError(move, f"seat {seat} does not hold {card}", "R-MATCH-2")
    if not deal.playable >> card & 1:  # the card is held: legal iff playable
        raise IllegalMoveError(
            move, f"{card} is neither an unstarted Jack nor next to an end of its row", "R-TX-2"
        )


def _apply_pass(state: MatchState, move: Pass) -> MatchState:
    deal = state.deal
    if type(deal) is not TrixDeal:
        if type(deal) is ComplexDeal:
            raise IllegalMoveError(move, "there is no passing in a trick contract", "R-CX-2")
        raise _wrong_phase(state, move)
    listed = _listed
    if listed[0] is not state or listed[1] or move.seat != state.turn:
        _check_pass(state, move, deal)
    hands = state.hands
    history = state.history.append(move)
    return _next_in_deal(state, hands, next_to_lay(hands, move.seat), deal, history)


def _check_pass(state: MatchState, move: Pass, deal: TrixDeal) -> None:
    """Raise unless ``move`` may pass now: its turn, and no legal card (R-TX-1, R-TX-3)."""
    seat = move.seat
    if seat != state.turn:
        raise _turn_error(state, move)
    legal = state.hands[seat] & deal.playable  # trix.legal_cards
    if legal:
        shown = " ".join(str(c) for c in cards_of(legal))
        raise IllegalMoveError(
            move, f"seat {seat} holds a legal card ({shown}) and must play one", "R-TX-3"
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


def _end_deal(state: MatchState, result: DealResult, history: History) -> MatchState:
    """Score a finished deal; the match waits for the next deal or is over."""
    s, p = state.scores, result.points
    scores = (s[0] + p[0], s[1] + p[1], s[2] + p[2], s[3] + p[3])
    ruleset = state.ruleset
    results = results_after(state.results, result, ruleset)
    over = match_finished(results, ruleset)  # R-MATCH-1, R-MATCH-8, R-OPT-9
    return _tnew(MatchState, (
        _OVER if over else _DEAL, state.deal_number, state.owner, None, _NO_HANDS, None,
        None, scores, results, history, ruleset,
    ))  # fmt: skip  # MatchState(...), its fields in order


new_trick = _trick
"""``Trick(leader, cards, taker)`` without attrs' ``__init__``: the fast constructor, for
:mod:`trixcomplex.core.playout`."""


def finish_trix_deal(
    state: MatchState, moves: Sequence[Move], order: tuple[int, ...]
) -> MatchState:
    """The state after the TRIX deal of ``state`` ended by ``moves`` (its last moves,
    in order) with the finishing order ``order`` (all four seats, R-TX-4): scored
    with the functions :func:`apply` uses.

    For :mod:`trixcomplex.core.playout` and :func:`apply_moves`, which play a deal's
    cards on plain locals and hand its end back here.
    """
    return _end_deal(state, _trix_result(state, order), state.history.extend(moves))


def finish_trick_deal(
    state: MatchState,
    moves: Sequence[Move],
    tricks: Sequence[int],
    won: Sequence[int],
    carried: Sequence[Trick],
) -> MatchState:
    """The state after the trick deal of ``state`` was played to its end by
    ``moves`` (its last moves, in order), scored from what each seat took (see
    :func:`~trixcomplex.core.tricks.taken_result`): ``tricks[s]`` and ``won[s]``
    (seat ``s``'s tricks and their cards, the whole deal's) and the tricks
    that ``carried`` a doubled card.

    For :mod:`trixcomplex.core.playout`, which tallies these as it plays instead of
    keeping every trick (and so needs no running points).
    """
    deal = state.deal
    contract = state.contract
    assert type(deal) is ComplexDeal and contract is not None and state.owner is not None
    result = taken_result(
        state.deal_number, state.owner, contract, state.kingdom,
        state.ruleset.trick_rules(contract), deal.doubled, tricks, won, carried,
    )  # fmt: skip
    return _end_deal(state, result, state.history.extend(moves))


_HANDLERS: dict[type, Callable[[MatchState, Any], MatchState]] = {
    Pass: _apply_pass,
    Double: _apply_double,
    Choose: _apply_choose,
    Timeout: _apply_timeout,
    Redeal: _apply_redeal,
    Deal: _apply_deal,
}


# -- score --------------------------------------------------------------------


def score(state: MatchState) -> Score:
    """The scores so far: cumulative seats, Team Totals, finished deals, result."""
    teams = team_totals(state.scores)
    result: MatchResult | None = None
    winning: tuple[int, ...] = ()
    if state.phase is _OVER:
        result, winning = match_outcome(state.scores, state.ruleset)
    return Score(
        seats=state.scores,
        teams=teams,
        deals=state.results,
        current=deal.points if type(deal := state.deal) is ComplexDeal else _ZERO,
        result=result,
        winners=winning,
    )
