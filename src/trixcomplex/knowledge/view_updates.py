"""A seat's view kept up to date move by move: :func:`view_after`, :func:`view_after_moves`.

Following a match, a seat's view need not be built anew after each move: the
view after a card played to a trick, a card laid or a pass in TRIX, or
another seat's answer in the doubling window, is the view before with the
few fields the move changed, deduced by the very functions
:func:`~trixcomplex.view` folds over the deal
(:mod:`trixcomplex.knowledge.deductions`).  Every unchanged field stays the same
object, so a consumer (the observation tensors of :mod:`trixcomplex.rl`)
can skip it by identity.  The result always equals
``view(state, seat)``.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(4)))
>>> seen = tc.view(state, 1)
>>> state = tc.apply(state, tc.Choose(state.owner, tc.Contract.TRIX))
>>> view_after(seen, state.history.last, state) == tc.view(state, 1)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ..core.cards import Card, cards_of, mask_of
from ..core.engine import MatchState, TrickDeal, TrixDeal, forced_move, legal_moves, score
from ..core.moves import Double, Move, Pass, Play, PlayerMove
from ..core.rules import row_ends
from .deductions import played_in_tricks, show_trick_cards_since, shown_by_pass
from .seat_view import ALL_FIELDS, Cards4, View, new_view, view, view_builder

__all__ = ["view_after", "view_after_moves"]

_T = TypeVar("_T")


def view_after(previous: View, move: Move, state: MatchState) -> View:
    """The view of ``state``, the state just after ``move``, for ``previous.seat``,
    given ``previous``: that seat's (or the spectator's) view of the state just before.

    Always equal to ``view(state, previous.seat)``, and cheaper for the moves
    inside a deal: a card played to a trick, a card laid or a pass in TRIX,
    another seat's answer in the doubling window.  It changes only the
    fields ``move`` changed, adding what the move shows of the mover's hand
    (the very functions :func:`~trixcomplex.view` folds over the deal's moves); every
    other field is the same object as in ``previous``, so a consumer may
    test a field with ``is`` to know it is unchanged (the observation
    tensors of :mod:`trixcomplex.rl` do).  The other moves (a deal, a
    choice, the window's close, a deal's last card, a redeal) give
    ``view(state, seat)``.  Of ``state`` it reads only what :func:`~trixcomplex.view`
    reads: hidden information stays hidden the same way.
    :func:`view_after_moves` catches up over several moves at once.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(tc.CLASSIC), tc.Deal.shuffled(random.Random(4)))
    >>> state = tc.apply(state, tc.Choose(state.owner, tc.Contract.DIAMONDS))
    >>> seen = tc.view(state, 0)
    >>> move = tc.legal_moves(state)[0]
    >>> after = tc.apply(state, move)
    >>> seen_after = tc.view_after(seen, move, after)
    >>> seen_after == tc.view(after, 0), seen_after.trick == (move.card,)
    (True, True)
    >>> seen_after.score is seen.score, seen_after.hand_sizes is seen.hand_sizes
    (True, False)
    """
    return view_after_moves(previous, (move,), state)


def view_after_moves(previous: View, moves: Sequence[Move], state: MatchState) -> View:
    """The view of ``state`` for ``previous.seat``, given ``previous``, that seat's view
    of the state before ``moves`` (the moves since, oldest first; ``state`` is
    the state after the last of them).

    :func:`view_after` over several moves at once, building one view instead
    of one per move: a seat's view brought up to date only when it is
    needed.  Always equal to ``view(state, previous.seat)``; cheaper when
    every move is a card played to a trick, a card laid or a pass in TRIX
    of the deal ``previous`` shows, or another seat's answer in the
    doubling window.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(tc.CLASSIC), tc.Deal.shuffled(random.Random(4)))
    >>> state = tc.apply(state, tc.Choose(state.owner, tc.Contract.DIAMONDS))
    >>> seen, moves = tc.view(state, 0), []
    >>> for _ in range(6):
    ...     moves.append(tc.legal_moves(state)[0])
    ...     state = tc.apply(state, moves[-1])
    >>> tc.view_after_moves(seen, moves, state) == tc.view(state, 0)
    True
    """
    if (
        moves
        and state.phase is previous.phase
        and state.deal_number == previous.deal_number
        and state.history.last is moves[-1]
    ):
        deal = state.deal
        kinds = _kinds(moves)
        if type(deal) is TrickDeal and kinds is _PLAYS:
            return _after_trick_cards(previous, moves, state, deal)  # type: ignore[arg-type]
        if type(deal) is TrixDeal and (kinds is _PLAYS or kinds is _TRIX_TURNS):
            return _after_trix_turns(previous, moves, state, deal)  # type: ignore[arg-type]
        if kinds is _ANSWERS and previous.seat not in {m.seat for m in moves}:  # type: ignore[union-attr]
            return previous  # other seats' secret answers: nothing seen changes (R-HID-2)
    return _keeping(previous, view(state, previous.seat))


def _keeping(previous: View, new: View) -> View:
    """``new`` with every field equal to ``previous``'s replaced by ``previous``'s very
    object, so that unchanged fields are shared after a full :func:`~trixcomplex.view` too."""
    values = [
        old if old is value or old == value else value
        for old, value in zip(ALL_FIELDS(previous), ALL_FIELDS(new), strict=True)
    ]
    return new_view(None, *values)


_PLAYS, _TRIX_TURNS, _ANSWERS, _OTHERS = "plays", "trix turns", "answers", "others"


def _kinds(moves: Sequence[Move]) -> str:
    """What ``moves`` are: plays only, plays and passes, doubling answers only, or others."""
    plays = passes = answers = False
    for move in moves:
        kind = type(move)
        if kind is Play:
            plays = True
        elif kind is Pass:
            passes = True
        elif kind is Double:
            answers = True
        else:
            return _OTHERS
    if answers:
        return _OTHERS if plays or passes else _ANSWERS
    return _TRIX_TURNS if passes else _PLAYS


def _after_trick_cards(
    previous: View, moves: Sequence[Play], state: MatchState, deal: TrickDeal
) -> View:
    """:func:`view_after_moves` for cards played to tricks of the deal in progress."""
    seat = previous.seat
    tricks, trick = deal.tricks, deal.trick
    done = len(previous.tricks)
    start = len(previous.trick)
    if 4 * (len(tricks) - done) + len(trick) - start != len(moves) or (
        done and tricks[done - 1] is not previous.last_trick
    ):
        return _keeping(
            previous, view(state, seat)
        )  # ``previous`` is not the view just before ``moves``
    rules = state.ruleset.trick_rules(state.contract)  # type: ignore[arg-type]
    no_heart_lead, discard_first = rules.no_heart_lead, rules.discard_first
    voids = list(previous.voids)
    shown = [0, 0, 0, 0]
    show_trick_cards_since(voids, shown, deal, done, start, no_heart_lead, discard_first)
    cards = [move.card for move in moves]
    cannot_hold = _without(previous.cannot_hold, cards)
    if any(shown):
        cannot_hold = _with(cannot_hold, shown, played_in_tricks(tricks, trick))
    last_trick, points, seen_score = previous.last_trick, previous.points, previous.score
    if len(tricks) != done:  # tricks were finished
        last_trick = tricks[-1]
        if deal.points != points:
            points, seen_score = deal.points, score(state)
    return _AFTER_TRICK_CARD(
        previous,
        *_seat_now(previous, state, state.turn),
        deal.leader,
        trick,
        previous.tricks if len(tricks) == done else tricks,
        last_trick,
        seen_score,
        points,
        _same_or_new(previous.voids, voids),
        cannot_hold,
        _without(previous.known_holdings, cards),
    )


def _after_trix_turns(
    previous: View, moves: Sequence[Play | Pass], state: MatchState, deal: TrixDeal
) -> View:
    """:func:`view_after_moves` for cards laid and passes of the TRIX deal in progress."""
    seat = previous.seat
    laid, passes = previous.laid, previous.passes
    turns = len(laid) + len(passes)
    if previous.turn != moves[0].seat or (
        state.ruleset.show_twos and turns < 4 <= turns + len(moves)  # R-OPT-7: 2s shown now
    ):
        return _keeping(previous, view(state, seat))
    cards = [move.card for move in moves if type(move) is Play]
    table = deal.table & ~mask_of(cards)  # as ``previous`` saw it
    if table.bit_count() != len(previous.table):
        return _keeping(
            previous, view(state, seat)
        )  # ``previous`` is not the view just before ``moves``
    new_laid: list[tuple[int, Card]] = []
    new_passes: list[tuple[int, int]] = []
    shown = [0, 0, 0, 0]
    for move in moves:
        if type(move) is Play:
            table |= 1 << move.card
            new_laid.append((move.seat, move.card))
        else:
            new_passes.append((move.seat, len(laid) + len(new_laid)))
            shown[move.seat] |= shown_by_pass(table)
    cannot_hold, known = previous.cannot_hold, previous.known_holdings
    table_cards, rows = previous.table, previous.rows
    if cards:
        laid += tuple(new_laid)
        table_cards = cards_of(table)
        ends = list(rows)
        for card in cards:
            ends[card // 13] = row_ends(table, card // 13)
        rows = _same_or_new(rows, ends)
        cannot_hold, known = _without(cannot_hold, cards), _without(known, cards)
    if new_passes:
        passes += tuple(new_passes)
        cannot_hold = _with(cannot_hold, shown, table)
    order = deal.finishing_order
    return _AFTER_TRIX_TURN(
        previous,
        *_seat_now(previous, state, state.turn),
        table_cards,
        rows,
        laid,
        passes,
        previous.finishing_order if order == previous.finishing_order else order,
        cannot_hold,
        known,
    )


def _seat_now(
    previous: View, state: MatchState, turn: int | None
) -> tuple[
    tuple[Card, ...],
    tuple[int, int, int, int],
    int | None,
    tuple[PlayerMove, ...],
    PlayerMove | None,
]:
    """The fields ``hand``, ``hand_sizes``, ``turn``, ``legal_moves`` and ``forced_move`` of
    the view of ``state`` (in the order of :class:`~trixcomplex.View`), ``previous``'s
    objects where unchanged."""
    hand, sizes = _hand_and_sizes(previous, state)
    legal, forced = _moves_kept(previous, state)
    return hand, sizes, turn, legal, forced


def _hand_and_sizes(
    previous: View, state: MatchState
) -> tuple[tuple[Card, ...], tuple[int, int, int, int]]:
    """The viewer's hand and the hand sizes in ``state``: ``previous``'s where unchanged."""
    hands = state.hands
    sizes = (hands[0].bit_count(), hands[1].bit_count(), hands[2].bit_count(),
             hands[3].bit_count())  # fmt: skip
    seat = previous.seat
    hand = previous.hand
    if seat is not None and sizes[seat] != previous.hand_sizes[seat]:
        hand = cards_of(hands[seat])
    return hand, previous.hand_sizes if sizes == previous.hand_sizes else sizes


def _moves_of(
    state: MatchState, seat: int | None
) -> tuple[tuple[PlayerMove, ...], PlayerMove | None]:
    """``seat``'s legal moves and forced move, the engine's (none for the spectator)."""
    if seat is None:
        return (), None
    moves = legal_moves(state, seat)
    return moves, forced_move(state, seat) if moves else None


def _moves_kept(
    previous: View, state: MatchState
) -> tuple[tuple[PlayerMove, ...], PlayerMove | None]:
    """:func:`_moves_of` the viewer, ``previous.legal_moves`` itself if they are unchanged."""
    moves, forced = _moves_of(state, previous.seat)
    return (previous.legal_moves if moves == previous.legal_moves else moves), forced


def _same_or_new(old: tuple[_T, _T, _T, _T], new: list[_T]) -> tuple[_T, _T, _T, _T]:
    """``old`` if ``new`` holds its very four objects, else ``new`` as a tuple (the
    callers replace an entry only when it changes)."""
    if new[0] is old[0] and new[1] is old[1] and new[2] is old[2] and new[3] is old[3]:
        return old
    return (new[0], new[1], new[2], new[3])


def _without(per_seat: Cards4, cards: list[Card]) -> Cards4:
    """``per_seat`` without ``cards``, now played: known holdings and the cards a seat
    cannot hold are of unplayed cards only (the very tuples that hold none of them)."""
    out: list[tuple[Card, ...]] | None = None
    for s, held in enumerate(per_seat):
        if held:
            for card in cards:
                if card in held:
                    if out is None:
                        out = list(per_seat)
                    out[s] = tuple(c for c in held if c not in cards)
                    break
    return per_seat if out is None else (out[0], out[1], out[2], out[3])


def _with(per_seat: Cards4, shown: list[int], played: int) -> Cards4:
    """``per_seat`` (cards each seat cannot hold) with the cards ``shown`` added, but
    for those in ``played``."""
    out = list(per_seat)
    for s in range(4):
        if shown[s]:
            held = mask_of(out[s])
            more = shown[s] & ~held & ~played
            if more:
                out[s] = cards_of(held | more)
    return _same_or_new(per_seat, out)


_AFTER_TRICK_CARD = view_builder(
    ("hand", "hand_sizes", "turn", "legal_moves", "forced_move", "leader", "trick", "tricks",
     "last_trick", "score", "points", "voids", "cannot_hold", "known_holdings"),
)  # fmt: skip
_AFTER_TRIX_TURN = view_builder(
    ("hand", "hand_sizes", "turn", "legal_moves", "forced_move", "table", "rows", "laid",
     "passes", "finishing_order", "cannot_hold", "known_holdings"),
)  # fmt: skip
