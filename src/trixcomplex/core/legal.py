"""What may be played now: the legal moves of a state, each listed once.

:func:`legal_moves` (and :func:`forced_move`, the one move when there is
only one) lists every legal player move of a state, as the interned move
objects the engine, the playout, records and worlds share; :func:`apply`
(:mod:`trixcomplex.core.match`) accepts exactly these.  The legal cards are
decided by the contract modules' rule functions (a trick's
``tricks.legal_cards``, TRIX's ``trix.layable``) when the state is made, and
kept with it (``MatchState.legal_cards``); the doubling answers by
the window (R-DBL-1, R-DBL-2), the contract choices by
``kingdoms.choosable_contracts`` (R-MATCH-5, R-OPT-9).

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
>>> [str(move) for move in legal_moves(state)][:2]
['seat 0 chooses COMPLEX', 'seat 0 chooses TRIX']
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import byte_table, cards_of
from .doubling import DoublingWindow, doubling_subsets
from .kingdoms import choosable_contracts
from .moves import PASSES, Choose, Contract, Double, Play, PlayerMove, Redeal
from .moves import PLAYS as _PLAYS
from .rulesets import DOUBLABLE
from .state import MatchState, Phase, redeal_seat
from .tricks import TrickDeal
from .trix import TrixDeal
from .trix import legal_cards as trix_legal_cards

__all__ = ["PASSES", "forced_move", "legal_moves", "plays_of", "trix_moves", "window_answers"]

_SEATS = (0, 1, 2, 3)
_DOUBLE, _CHOOSE = Phase.DOUBLE, Phase.CHOOSE

# Interned player moves for the hot path: _PLAYS[seat][card], PASSES[seat] (the moves
# module's, the very ones move_from_json reads canonical moves as).
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


def legal_moves(state: MatchState, seat: int | None = None) -> tuple[PlayerMove, ...]:
    """Every legal player move now, or only ``seat``'s.

    Never lists :class:`Deal` or :class:`Timeout` (those are the host's).  In
    the doubling window it lists, for every seat still to answer, one
    :class:`Double` per subset of its doublable cards.  A ``seat`` that is
    not 0–3 raises ``ValueError``.
    """
    if seat is not None and seat not in _SEAT_NUMBERS:
        raise ValueError(f"a seat is an int from 0 to 3, not {seat!r}")
    deal = state.deal
    # None only where no seat's turn is read (DOUBLE, DEAL, OVER): an annotation, not an
    # assert per branch (a few bytecodes of every legal_moves, issue 44)
    turn: int = state.turn  # type: ignore[assignment]
    if type(deal) is TrickDeal:  # COMPLEX, TRICKS
        if seat is not None and seat != turn:
            return ()
        return plays_of(turn, state.legal_cards)  # legal_cards(hand, trick, rules), kept
    if type(deal) is TrixDeal:  # TRIX
        if state.ruleset.bad_hand_redeal:
            return _trix_moves_with_redeal(state, seat)
        if seat is not None and seat != turn:
            return ()
        legal = state.legal_cards  # layable(hand, deal.playable), kept with the state
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
        if seat is not None and seat != turn:
            return ()
        choices = _CHOICES[turn]
        return tuple([
            choices[c] for c in choosable_contracts(state.remaining_contracts, state.ruleset)
        ])  # fmt: skip
    return ()


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
    for s in _SEATS:  # every seat in window.waiting(), in seat order
        cards = asked[s]
        if cards and answers[s] is None:
            moves += _ANSWERS[s][cards]
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
