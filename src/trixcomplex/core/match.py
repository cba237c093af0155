"""The match flow behind the engine face: what each move does to a state.

:mod:`trixcomplex.core.engine` is the engine face (``new_match``, ``legal_moves``,
``apply``, ``apply_moves``, ``forced_move``, ``is_legal``, ``score``); this
module implements them.  The flow of a match (R-MATCH-1 … R-MATCH-8) lives
here: deals, Kingdoms and their owners, the contract choice, the doubling
window and the hand-over between the contract modules; every card and TRIX
pass is stepped by the deal runner (:mod:`trixcomplex.core.runner`).

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

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn

from .cards import Card, Suit, cards_of, mask_of, suit_mask
from .doubling import DoublingWindow, new_window, open_window
from .errors import IllegalMoveError
from .kingdoms import choosable_contracts, deal_owner

# What may be played now is core.legal's; re-exported from its old place here
# (records and worlds list passes and plays with these).
from .legal import PASSES as PASSES
from .legal import forced_move as forced_move
from .legal import legal_moves as legal_moves
from .legal import plays_of as plays_of
from .legal import trix_moves as trix_moves
from .legal import window_answers as window_answers
from .moves import Choose, Contract, Deal, Double, Move, Pass, Play, PlayerMove, Redeal, Timeout
from .rulesets import PARTNERSHIP, Ruleset, TrickRules
from .runner import CardStep, run_deal
from .scoring import (
    MatchResult,
    Score,
    match_outcome,
    team_totals,
)
from .state import DealProgress, History, MatchState, Phase, new_state, redeal_seat
from .tricks import (
    TrickDeal,
    legal_cards,
    new_trick_deal,
)
from .trix import TrixDeal, layable

__all__ = ["apply", "apply_moves", "apply_step", "is_legal", "new_match", "score"]

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
_TRIX_CONTRACT, _COMPLEX_CONTRACT = Contract.TRIX, Contract.COMPLEX


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
    if type(move) is Play or type(move) is Pass:  # most moves: a step of the deal runner
        after = run_deal(state, None, (move,))
        if after is not state:  # the move was made
            return after
        _refuse(state, move)
    handler = _HANDLERS.get(type(move))
    if handler is None:
        raise TypeError(f"not a move: {move!r}")
    return handler(state, move)


def apply_step(state: MatchState, move: Move) -> tuple[MatchState, CardStep | None]:
    """:func:`apply`, and what ``move`` changed as the deal runner reports it: its
    :class:`~trixcomplex.core.runner.CardStep` for a card played or a TRIX pass,
    ``None`` for any other move.

    For a game loop that keeps views or observation tensors up to date: hand
    the step to :func:`~trixcomplex.view_after` (``steps=``) or to the trackers
    of :mod:`trixcomplex.rl`, and they read what the card did (the trick it
    finished, its taker, its points, a seat going out) instead of working it
    out again.  The same checks and errors as :func:`apply`.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(4)))
    >>> state, step = tc.apply_step(state, tc.Choose(state.owner, tc.Contract.TRIX))
    >>> step is None
    True
    >>> move = tc.legal_moves(state)[0]
    >>> after, step = tc.apply_step(state, move)
    >>> after == tc.apply(state, move), step.seat == move.seat, step.turn == after.turn
    (True, True, True)
    """
    if type(move) is Play or type(move) is Pass:
        steps: list[CardStep] = []
        after = run_deal(state, None, (move,), 0, steps)
        if after is not state:
            return after, steps[0]
        _refuse(state, move)
    return apply(state, move), None


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
        if type(move) is Play or type(move) is Pass:  # a run of cards, on the deal runner
            after = run_deal(state, None, listed, index)
            if after is not state:
                index += after.history._len - state.history._len  # the moves made
                state = after
                continue
        try:
            state = apply(state, move)
        except IllegalMoveError as exc:
            exc.index = index
            raise
        index += 1
    return state


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
    hands = move.hand_masks()  # R-MATCH-2
    ruleset = state.ruleset
    redeal = type(state.history.last) is Redeal  # R-OPT-8: the same deal again
    if redeal:
        number, owner = state.deal_number, state.owner
    else:
        number = state.deal_number + 1
        owner = deal_owner(number, move.deck, state.owner, ruleset, state.results)  # R-MATCH-3, -4
    base = new_state(
        _CHOOSE,
        number,
        owner,
        None,
        hands,
        owner,
        None,
        state.scores,
        state.results,
        state.history.append(move),
        ruleset,
    )
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
            phase, deal = _trick_phase(contract), new_trick_deal(owner, (), (), (), _ZERO)
    return new_state(
        phase,
        state.deal_number,
        owner,
        contract,
        hands,
        turn,
        deal,
        state.scores,
        state.results,
        history,
        ruleset,
    )


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
    return new_state(
        _DOUBLE,
        state.deal_number,
        state.owner,
        state.contract,
        state.hands,
        None,
        window,
        state.scores,
        state.results,
        history,
        state.ruleset,
    )


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
    revealed = new_window(window.asked, answers).revealed()
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
    return new_state(
        _trick_phase(contract),
        state.deal_number,
        owner,
        contract,
        state.hands,
        owner,
        new_trick_deal(owner, (), (), doubled, _ZERO),
        state.scores,
        state.results,
        history,
        state.ruleset,
    )


def _turn_error(state: MatchState, move: Play | Pass) -> IllegalMoveError:
    turn = state.turn
    deal = state.deal
    if type(deal) is TrickDeal:
        rule = "R-SEAT-1" if deal.trick else "R-CX-3" if deal.tricks else "R-CX-1"
    else:
        rule = "R-TX-1"
    return IllegalMoveError(move, f"it is seat {turn}'s turn, not seat {move.seat}'s", rule)


def _trick_phase(contract: Contract) -> Phase:
    """The phase of a trick deal: COMPLEX, or TRICKS for a classic trick contract."""
    return _COMPLEX if contract is _COMPLEX_CONTRACT else _TRICKS


def _check_trick_card(state: MatchState, move: Play, deal: TrickDeal) -> None:
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
    rules = state.ruleset.trick_rules(contract)
    if not legal_cards(hand, deal.trick, rules) & bit:
        raise _trick_card_error(move, hand, deal.trick, rules)


def _trick_card_error(
    move: Play, hand: int, trick: tuple[Card, ...], rules: TrickRules
) -> IllegalMoveError:
    """Why ``move`` is not among the legal cards of a trick (R-CX-2, R-CL-2, R-OPT-2)."""
    seat = move.seat
    if trick and hand & suit_mask(trick[0] // 13):
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


def _check_trix_card(state: MatchState, move: Play, deal: TrixDeal) -> None:
    """Raise unless ``move`` may be laid now (R-TX-1, R-MATCH-2, R-TX-2)."""
    seat = move.seat
    if seat != state.turn:
        raise _turn_error(state, move)
    card = move.card
    if not state.hands[seat] & 1 << card:
        raise IllegalMoveError(move, f"seat {seat} does not hold {card}", "R-MATCH-2")
    if not layable(state.hands[seat], deal.playable) >> card & 1:
        raise IllegalMoveError(
            move, f"{card} is neither an unstarted Jack nor next to an end of its row", "R-TX-2"
        )


def _refuse(state: MatchState, move: Play | Pass) -> NoReturn:
    """Raise the error saying why the deal runner refused ``move`` now."""
    deal = state.deal
    if type(move) is Pass:
        if type(deal) is TrickDeal:
            raise IllegalMoveError(move, "there is no passing in a trick contract", "R-CX-2")
        if type(deal) is TrixDeal:
            _check_pass(state, move, deal)
    elif type(move) is not Play:
        raise TypeError(f"not a card or a pass: {move!r}")
    elif type(deal) is TrickDeal:
        _check_trick_card(state, move, deal)
    elif type(deal) is TrixDeal:
        _check_trix_card(state, move, deal)
    raise _wrong_phase(state, move)


def _check_pass(state: MatchState, move: Pass, deal: TrixDeal) -> None:
    """Raise unless ``move`` may pass now: its turn, and no legal card (R-TX-1, R-TX-3)."""
    seat = move.seat
    if seat != state.turn:
        raise _turn_error(state, move)
    legal = layable(state.hands[seat], deal.playable)
    if legal:
        shown = " ".join(str(c) for c in cards_of(legal))
        raise IllegalMoveError(
            move, f"seat {seat} holds a legal card ({shown}) and must play one", "R-TX-3"
        )


_HANDLERS: dict[type, Callable[[MatchState, Any], MatchState]] = {
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
        current=deal.points if type(deal := state.deal) is TrickDeal else _ZERO,
        result=result,
        winners=winning,
    )
