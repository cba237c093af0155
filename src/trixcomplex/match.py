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

from collections.abc import Callable
from typing import Any

from .cards import ALL_CARDS, Card, Rank, Suit, cards_of
from .complex import TRICKS_PER_DEAL, ComplexDeal, Trick, complex_result, trick_taker
from .complex import legal_cards as complex_legal_cards
from .doubling import doubling_subsets, open_window
from .errors import IllegalMoveError
from .moves import Choose, Contract, Deal, Double, Move, Pass, Play, PlayerMove, Timeout
from .scoring import (
    DealResult,
    Score,
    SeatBreakdown,
    match_result,
    team_totals,
    trick_points,
    trix_points,
)
from .state import History, MatchState, Phase
from .trix import TrixDeal
from .trix import legal_cards as trix_legal_cards

__all__ = [
    "DEALS_PER_MATCH",
    "apply",
    "forced_move",
    "is_legal",
    "legal_moves",
    "new_match",
    "score",
]

DEALS_PER_MATCH = 8
"""4 Kingdoms of two deals each (R-MATCH-1)."""

SEVEN_OF_HEARTS = Card.of(Rank.SEVEN, Suit.HEARTS)

_ZERO = (0, 0, 0, 0)
_NO_HANDS = (0, 0, 0, 0)

# Interned player moves for the hot path: _PLAYS[seat][card], _PASSES[seat].
_PLAYS = tuple(tuple(Play(seat, card) for card in ALL_CARDS) for seat in range(4))
_PASSES = tuple((Pass(seat),) for seat in range(4))
_CHOICES = tuple((Choose(seat, Contract.COMPLEX), Choose(seat, Contract.TRIX)) for seat in range(4))


def new_match() -> MatchState:
    """A match waiting for its first deal."""
    return MatchState(
        phase=Phase.DEAL,
        deal_number=0,
        owner=None,
        contract=None,
        hands=_NO_HANDS,
        turn=None,
        window=None,
        complex=None,
        trix=None,
        scores=_ZERO,
        results=(),
        history=History.EMPTY,
    )


# -- legal moves --------------------------------------------------------------


def _plays(seat: int, mask: int) -> tuple[PlayerMove, ...]:
    plays = _PLAYS[seat]
    out = []
    while mask:
        low = mask & -mask
        out.append(plays[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def legal_moves(state: MatchState, seat: int | None = None) -> tuple[PlayerMove, ...]:
    """Every legal player move now, or only ``seat``'s.

    Never lists :class:`Deal` or :class:`Timeout` (those are the host's).  In
    the doubling window it lists, for every seat still to answer, one
    :class:`Double` per subset of its doublable cards.
    """
    phase = state.phase
    turn = state.turn
    if phase is Phase.COMPLEX:
        if seat is not None and seat != turn:
            return ()
        assert turn is not None and state.complex is not None
        return _plays(turn, complex_legal_cards(state.hands[turn], state.complex.trick))
    if phase is Phase.TRIX:
        if seat is not None and seat != turn:
            return ()
        assert turn is not None and state.trix is not None
        legal = trix_legal_cards(state.hands[turn], state.trix.table)
        return _plays(turn, legal) if legal else _PASSES[turn]
    if phase is Phase.DOUBLE:
        assert state.window is not None
        window = state.window
        moves: list[PlayerMove] = []
        for s in sorted(window.waiting()):
            if seat is None or seat == s:
                moves.extend(Double(s, cards_of(m)) for m in doubling_subsets(window.asked[s]))
        return tuple(moves)
    if phase is Phase.CHOOSE:
        assert turn is not None
        return _CHOICES[turn] if seat is None or seat == turn else ()
    return ()


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
    reason and the RULES.md clause if the move is not legal now.
    """
    handler = _HANDLERS.get(type(move))
    if handler is None:
        raise TypeError(f"not a move: {move!r}")
    return handler(state, move)


_PHASE_RULES = {
    Phase.DEAL: ("the match is waiting for a deal", "R-MATCH-2"),
    Phase.CHOOSE: ("the Kingdom owner is choosing the contract", "R-MATCH-5"),
    Phase.DOUBLE: ("the doubling window is open", "R-DBL-2"),
    Phase.COMPLEX: ("a COMPLEX deal is being played", "R-CX-1"),
    Phase.TRIX: ("a TRIX deal is being played", "R-TX-1"),
    Phase.OVER: ("the match is over", "R-MATCH-8"),
}


def _wrong_phase(state: MatchState, move: Move) -> IllegalMoveError:
    reason, rule = _PHASE_RULES[state.phase]
    return IllegalMoveError(move, f"not allowed now: {reason}", rule)


def _apply_deal(state: MatchState, move: Deal) -> MatchState:
    if state.phase is not Phase.DEAL:
        raise _wrong_phase(state, move)
    deck = move.deck
    hands = [0, 0, 0, 0]
    for i, card in enumerate(deck):
        hands[i & 3] |= 1 << card
    number = state.deal_number + 1
    if number == 1:
        owner = deck.index(SEVEN_OF_HEARTS) % 4
    elif number % 2:
        assert state.owner is not None
        owner = (state.owner + 1) % 4
    else:
        assert state.owner is not None
        owner = state.owner
    base = MatchState(
        phase=Phase.CHOOSE,
        deal_number=number,
        owner=owner,
        contract=None,
        hands=(hands[0], hands[1], hands[2], hands[3]),
        turn=owner,
        window=None,
        complex=None,
        trix=None,
        scores=state.scores,
        results=state.results,
        history=state.history.append(move),
    )
    if number % 2:
        return base
    return _start(base, state.results[-1].contract.other)


def _start(state: MatchState, contract: Contract) -> MatchState:
    """The state once ``contract`` is known: open the doubling window or start TRIX."""
    if contract is Contract.COMPLEX:
        return MatchState(
            Phase.DOUBLE, state.deal_number, state.owner, contract, state.hands, None,
            open_window(state.hands), None, None, state.scores, state.results, state.history,
        )  # fmt: skip
    return MatchState(
        Phase.TRIX, state.deal_number, state.owner, contract, state.hands, state.owner,
        None, None, TrixDeal(0, ()), state.scores, state.results, state.history,
    )  # fmt: skip


def _apply_choose(state: MatchState, move: Choose) -> MatchState:
    if state.phase is not Phase.CHOOSE:
        raise _wrong_phase(state, move)
    if move.seat != state.owner:
        raise IllegalMoveError(
            move, f"only the Kingdom owner, seat {state.owner}, chooses the contract", "R-MATCH-5"
        )
    return _start(_with_history(state, move), move.contract)


def _with_history(state: MatchState, move: Move) -> MatchState:
    return MatchState(
        state.phase, state.deal_number, state.owner, state.contract, state.hands, state.turn,
        state.window, state.complex, state.trix, state.scores, state.results,
        state.history.append(move),
    )  # fmt: skip


def _apply_timeout(state: MatchState, move: Timeout) -> MatchState:
    if state.phase is Phase.CHOOSE:
        return _start(_with_history(state, move), Contract.COMPLEX)
    if state.phase is Phase.DOUBLE:
        return _close_window(state, state.history.append(move))
    raise IllegalMoveError(
        move,
        "a timeout is only legal while the owner chooses (R-MATCH-6) "
        "or the doubling window is open (R-DBL-3); "
        f"{_PHASE_RULES[state.phase][0]}",
        "R-MATCH-6",
    )


def _apply_double(state: MatchState, move: Double) -> MatchState:
    if state.phase is not Phase.DOUBLE:
        raise IllegalMoveError(
            move, "cards can only be doubled in the doubling window before a COMPLEX deal",
            "R-DBL-1",
        )  # fmt: skip
    window = state.window
    assert window is not None
    seat = move.seat
    asked = window.asked[seat]
    if not asked:
        raise IllegalMoveError(
            move, f"seat {seat} holds no K♥ or Queen and is not asked", "R-DBL-2"
        )
    if window.answers[seat] is not None:
        raise IllegalMoveError(move, f"seat {seat} has already answered", "R-DBL-2")
    cards = 0
    for card in move.cards:
        cards |= 1 << card
    if cards & ~asked:
        wrong = " ".join(str(c) for c in cards_of(cards & ~asked))
        raise IllegalMoveError(
            move, f"seat {seat} cannot double {wrong}: only the K♥ and Queens it holds", "R-DBL-1"
        )
    window = window.answer(seat, cards)
    history = state.history.append(move)
    if not window.waiting():
        return _close_window(state, history, window.revealed())
    return MatchState(
        Phase.DOUBLE, state.deal_number, state.owner, state.contract, state.hands, None,
        window, None, None, state.scores, state.results, history,
    )  # fmt: skip


def _close_window(
    state: MatchState,
    history: History,
    doubled: tuple[tuple[Card, int], ...] | None = None,
) -> MatchState:
    """Reveal every double at once; the owner leads the first trick (R-DBL-3, R-CX-1)."""
    if doubled is None:
        assert state.window is not None
        doubled = state.window.revealed()
    deal = ComplexDeal(state.owner, (), (), doubled, _ZERO)  # type: ignore[arg-type]
    return MatchState(
        Phase.COMPLEX, state.deal_number, state.owner, state.contract, state.hands, state.owner,
        None, deal, None, state.scores, state.results, history,
    )  # fmt: skip


def _turn_error(state: MatchState, move: Play | Pass) -> IllegalMoveError:
    turn = state.turn
    if state.phase is Phase.TRIX:
        rule = "R-TX-1"
    else:
        deal = state.complex
        assert deal is not None
        rule = "R-SEAT-1" if deal.trick else "R-CX-3" if deal.tricks else "R-CX-1"
    return IllegalMoveError(move, f"it is seat {turn}'s turn, not seat {move.seat}'s", rule)


def _apply_play(state: MatchState, move: Play) -> MatchState:
    phase = state.phase
    if phase is Phase.COMPLEX:
        return _play_complex(state, move)
    if phase is Phase.TRIX:
        return _play_trix(state, move)
    raise _wrong_phase(state, move)


def _play_complex(state: MatchState, move: Play) -> MatchState:
    seat = move.seat
    if seat != state.turn:
        raise _turn_error(state, move)
    deal = state.complex
    assert deal is not None
    card = move.card
    bit = 1 << card
    hands = state.hands
    hand = hands[seat]
    if not hand & bit:
        raise IllegalMoveError(move, f"seat {seat} does not hold {card}", "R-MATCH-2")
    if not complex_legal_cards(hand, deal.trick) & bit:
        led = Suit(deal.trick[0] // 13).symbol
        raise IllegalMoveError(move, f"seat {seat} must follow suit {led}", "R-CX-2")
    new_hands = _replace(hands, seat, hand ^ bit)
    trick = deal.trick + (card,)
    history = state.history.append(move)
    if len(trick) < 4:
        deal = ComplexDeal(deal.leader, trick, deal.tricks, deal.doubled, deal.points)
        return MatchState(
            Phase.COMPLEX, state.deal_number, state.owner, state.contract, new_hands,
            (seat + 1) % 4, None, deal, None, state.scores, state.results, history,
        )  # fmt: skip
    leader = deal.leader
    taker = trick_taker(leader, trick)
    points = trick_points(trick, leader, taker, deal.doubled)
    old = deal.points
    total = (old[0] + points[0], old[1] + points[1], old[2] + points[2], old[3] + points[3])
    tricks = deal.tricks + (Trick(leader, trick, taker),)  # type: ignore[arg-type]
    deal = ComplexDeal(taker, (), tricks, deal.doubled, total)
    if len(tricks) == TRICKS_PER_DEAL:
        assert state.owner is not None
        result = complex_result(state.deal_number, state.owner, deal)
        return _end_deal(state, result, history)
    return MatchState(
        Phase.COMPLEX, state.deal_number, state.owner, state.contract, new_hands,
        taker, None, deal, None, state.scores, state.results, history,
    )  # fmt: skip


def _replace(hands: tuple[int, int, int, int], seat: int, hand: int) -> tuple[int, int, int, int]:
    if seat == 0:
        return (hand, hands[1], hands[2], hands[3])
    if seat == 1:
        return (hands[0], hand, hands[2], hands[3])
    if seat == 2:
        return (hands[0], hands[1], hand, hands[3])
    return (hands[0], hands[1], hands[2], hand)


def _play_trix(state: MatchState, move: Play) -> MatchState:
    seat = move.seat
    if seat != state.turn:
        raise _turn_error(state, move)
    deal = state.trix
    assert deal is not None
    card = move.card
    bit = 1 << card
    hand = state.hands[seat]
    if not hand & bit:
        raise IllegalMoveError(move, f"seat {seat} does not hold {card}", "R-MATCH-2")
    if not trix_legal_cards(hand, deal.table) & bit:
        raise IllegalMoveError(
            move, f"{card} is neither an unstarted Jack nor next to an end of its row", "R-TX-2"
        )
    hand ^= bit
    hands = _replace(state.hands, seat, hand)
    order = deal.finishing_order
    history = state.history.append(move)
    if not hand:
        order += (seat,)
        if len(order) == 3:
            last = next(s for s in range(4) if s not in order)
            order += (last,)
            assert state.owner is not None
            return _end_deal(state, _trix_result(state.deal_number, state.owner, order), history)
    return MatchState(
        Phase.TRIX, state.deal_number, state.owner, state.contract, hands,
        _next_holder(hands, seat), None, None, TrixDeal(deal.table | bit, order),
        state.scores, state.results, history,
    )  # fmt: skip


def _next_holder(hands: tuple[int, int, int, int], seat: int) -> int:
    """The next seat after ``seat`` with cards in hand (R-TX-1)."""
    for step in (1, 2, 3):
        nxt = (seat + step) % 4
        if hands[nxt]:
            return nxt
    return seat


def _apply_pass(state: MatchState, move: Pass) -> MatchState:
    if state.phase is not Phase.TRIX:
        if state.phase is Phase.COMPLEX:
            raise IllegalMoveError(move, "there is no passing in COMPLEX", "R-CX-2")
        raise _wrong_phase(state, move)
    seat = move.seat
    if seat != state.turn:
        raise _turn_error(state, move)
    deal = state.trix
    assert deal is not None
    legal = trix_legal_cards(state.hands[seat], deal.table)
    if legal:
        shown = " ".join(str(c) for c in cards_of(legal))
        raise IllegalMoveError(
            move, f"seat {seat} holds a legal card ({shown}) and must play one", "R-TX-3"
        )
    return MatchState(
        Phase.TRIX, state.deal_number, state.owner, state.contract, state.hands,
        _next_holder(state.hands, seat), None, None, deal, state.scores, state.results,
        state.history.append(move),
    )  # fmt: skip


def _trix_result(number: int, owner: int, order: tuple[int, ...]) -> DealResult:
    places = [SeatBreakdown(place=order.index(s) + 1) for s in range(4)]
    return DealResult(
        number=number,
        kingdom=(number + 1) // 2,
        contract=Contract.TRIX,
        owner=owner,
        points=trix_points(order),
        seats=(places[0], places[1], places[2], places[3]),
        finishing_order=order,
    )


def _end_deal(state: MatchState, result: DealResult, history: History) -> MatchState:
    """Score a finished deal; the match waits for the next deal or is over."""
    s, p = state.scores, result.points
    scores = (s[0] + p[0], s[1] + p[1], s[2] + p[2], s[3] + p[3])
    over = state.deal_number == DEALS_PER_MATCH
    return MatchState(
        Phase.OVER if over else Phase.DEAL, state.deal_number, state.owner, None, _NO_HANDS,
        None, None, None, None, scores, state.results + (result,), history,
    )  # fmt: skip


_HANDLERS: dict[type, Callable[[MatchState, Any], MatchState]] = {
    Play: _apply_play,
    Pass: _apply_pass,
    Double: _apply_double,
    Choose: _apply_choose,
    Timeout: _apply_timeout,
    Deal: _apply_deal,
}


# -- score --------------------------------------------------------------------


def score(state: MatchState) -> Score:
    """The scores so far: cumulative seats, Team Totals, finished deals, result."""
    teams = team_totals(state.scores)
    return Score(
        seats=state.scores,
        teams=teams,
        deals=state.results,
        current=state.complex.points if state.complex is not None else _ZERO,
        result=match_result(teams) if state.phase is Phase.OVER else None,
    )
