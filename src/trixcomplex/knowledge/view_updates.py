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
from ..core.moves import Double, Move, PlayerMove
from ..core.rules import row_ends
from ..core.runner import CardStep
from .card_deltas import given_steps, steps_since
from .deductions import played_in_tricks, show_trick_cards_since, shown_by_pass
from .seat_view import ALL_FIELDS, Cards4, View, new_view, view, view_builder

__all__ = ["view_after", "view_after_moves"]

_T = TypeVar("_T")
_NO_POINTS = (0, 0, 0, 0)


def view_after(
    previous: View, move: Move, state: MatchState, steps: Sequence[CardStep] | None = None
) -> View:
    """The view of ``state``, the state just after ``move``, for ``previous.seat``,
    given ``previous``: that seat's (or the spectator's) view of the state just before.

    Always equal to ``view(state, previous.seat)``, and cheaper for the moves
    inside a deal: a card played to a trick, a card laid or a pass in TRIX,
    another seat's answer in the doubling window.  It changes only the
    fields ``move`` changed, read from the deal runner's
    :class:`~trixcomplex.core.runner.CardStep` of the move (``steps``: what
    :func:`~trixcomplex.apply_step` returned for it, as a one-step sequence;
    rebuilt from ``state`` when not given), adding what the move shows of the
    mover's hand (the very functions :func:`~trixcomplex.view` folds over the
    deal's moves); every other field is the same object as in ``previous``,
    so a consumer may test a field with ``is`` to know it is unchanged (the
    observation tensors of :mod:`trixcomplex.rl` do).  The other moves (a
    deal, a choice, the window's close, a deal's last card, a redeal) give
    ``view(state, seat)``.  Of ``state`` it reads only what :func:`~trixcomplex.view`
    reads: hidden information stays hidden the same way.
    :func:`view_after_moves` catches up over several moves at once.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(tc.CLASSIC), tc.Deal.shuffled(random.Random(4)))
    >>> state = tc.apply(state, tc.Choose(state.owner, tc.Contract.DIAMONDS))
    >>> seen = tc.view(state, 0)
    >>> move = tc.legal_moves(state)[0]
    >>> after, step = tc.apply_step(state, move)
    >>> seen_after = tc.view_after(seen, move, after, steps=(step,))
    >>> seen_after == tc.view(after, 0) == tc.view_after(seen, move, after)
    True
    >>> seen_after.trick == (move.card,)
    True
    >>> seen_after.score is seen.score, seen_after.hand_sizes is seen.hand_sizes
    (True, False)
    """
    return view_after_moves(previous, (move,), state, steps)


def view_after_moves(
    previous: View,
    moves: Sequence[Move],
    state: MatchState,
    steps: Sequence[CardStep] | None = None,
) -> View:
    """The view of ``state`` for ``previous.seat``, given ``previous``, that seat's view
    of the state before ``moves`` (the moves since, oldest first; ``state`` is
    the state after the last of them).

    :func:`view_after` over several moves at once, building one view instead
    of one per move: a seat's view brought up to date only when it is
    needed.  Always equal to ``view(state, previous.seat)``; cheaper when
    every move is a card played to a trick, a card laid or a pass in TRIX
    of the deal ``previous`` shows, or another seat's answer in the
    doubling window.  ``steps``: the deal runner's
    :class:`~trixcomplex.core.runner.CardStep`\\ s of the last moves to ``state``
    (``steps[-1]`` of ``moves[-1]``), as a game loop got them from
    :func:`~trixcomplex.apply_step`; read when they cover ``moves``, else
    rebuilt from ``state`` (:mod:`trixcomplex.knowledge.card_deltas`).

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(tc.CLASSIC), tc.Deal.shuffled(random.Random(4)))
    >>> state = tc.apply(state, tc.Choose(state.owner, tc.Contract.DIAMONDS))
    >>> seen, moves, steps = tc.view(state, 0), [], []
    >>> for _ in range(6):
    ...     moves.append(tc.legal_moves(state)[0])
    ...     state, step = tc.apply_step(state, moves[-1])
    ...     steps.append(step)
    >>> tc.view_after_moves(seen, moves, state, steps) == tc.view(state, 0)
    True
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
        if type(deal) is TrickDeal:
            return _after_trick_cards(previous, moves, state, deal, steps)
        if type(deal) is TrixDeal:
            return _after_trix_turns(previous, moves, state, deal, steps)
        if _answers_of_others(previous.seat, moves):
            return previous  # other seats' secret answers: nothing seen changes (R-HID-2)
    return _keeping(previous, view(state, previous.seat))


def _answers_of_others(seat: int | None, moves: Sequence[Move]) -> bool:
    """Whether ``moves`` are all doubling answers of seats other than ``seat``."""
    return all(type(move) is Double and move.seat != seat for move in moves)


def _keeping(previous: View, new: View) -> View:
    """``new`` with every field equal to ``previous``'s replaced by ``previous``'s very
    object, so that unchanged fields are shared after a full :func:`~trixcomplex.view` too."""
    values = [
        old if old is value or old == value else value
        for old, value in zip(ALL_FIELDS(previous), ALL_FIELDS(new), strict=True)
    ]
    return new_view(None, *values)


def _after_trick_cards(
    previous: View,
    moves: Sequence[Move],
    state: MatchState,
    deal: TrickDeal,
    given: Sequence[CardStep] | None,
) -> View:
    """:func:`view_after_moves` for cards played to tricks of the deal in progress: what
    the runner's steps of ``moves`` changed."""
    seat = previous.seat
    done = len(previous.tricks)
    start = len(previous.trick)
    tricks = deal.tricks
    steps = None
    if 4 * (len(tricks) - done) + len(deal.trick) - start == len(moves) and (
        not done or tricks[done - 1] is previous.last_trick
    ):
        steps = given_steps(moves, given) or steps_since(
            state, moves, done, start, 0, previous.points
        )
    if steps is None:  # ``previous`` is not the view just before ``moves``
        return _keeping(previous, view(state, seat))
    cards: list[Card] = []
    last_trick, points = previous.last_trick, previous.points
    for step in steps:  # the runner's CardSteps
        cards.append(step.card)  # type: ignore[arg-type]  # a trick deal has no pass
        if step.trick is not None:  # a trick taken (R-CX-3), and what it cost (R-CX-5)
            last_trick = step.trick
            gained = step.points
            assert gained is not None
            if gained != _NO_POINTS:
                points = (points[0] + gained[0], points[1] + gained[1], points[2] + gained[2],
                          points[3] + gained[3])  # fmt: skip
    rules = state.ruleset.trick_rules(state.contract)  # type: ignore[arg-type]
    voids = list(previous.voids)
    shown = [0, 0, 0, 0]
    show_trick_cards_since(
        voids, shown, deal, done, start, rules.no_heart_lead, rules.discard_first
    )
    cannot_hold = _without(previous.cannot_hold, cards)
    if any(shown):
        cannot_hold = _with(cannot_hold, shown, played_in_tricks(deal.tricks, deal.trick))
    return _AFTER_TRICK_CARD(
        previous,
        *_seat_now(previous, state, steps[-1].turn),
        deal.leader,
        deal.trick,
        previous.tricks if last_trick is previous.last_trick else deal.tricks,
        last_trick,
        previous.score if points is previous.points else score(state),
        points,
        _same_or_new(previous.voids, voids),
        cannot_hold,
        _without(previous.known_holdings, cards),
    )


def _after_trix_turns(
    previous: View,
    moves: Sequence[Move],
    state: MatchState,
    deal: TrixDeal,
    given: Sequence[CardStep] | None,
) -> View:
    """:func:`view_after_moves` for cards laid and passes of the TRIX deal in progress: what
    the runner's steps of ``moves`` changed."""
    seat = previous.seat
    laid, passes, order = previous.laid, previous.passes, previous.finishing_order
    turns = len(laid) + len(passes)
    steps = None
    if previous.turn == getattr(moves[0], "seat", None) and not (
        state.ruleset.show_twos and turns < 4 <= turns + len(moves)  # R-OPT-7: 2s shown now
    ):
        steps = given_steps(moves, given) or steps_since(state, moves, 0, 0, len(order), _NO_POINTS)
    if steps is None:
        return _keeping(previous, view(state, seat))
    cards = [step.card for step in steps if step.card is not None]
    table = deal.table & ~mask_of(cards)  # as ``previous`` saw it
    if table.bit_count() != len(previous.table):
        return _keeping(previous, view(state, seat))  # not the view just before ``moves``
    new_laid: list[tuple[int, Card]] = []
    new_passes: list[tuple[int, int]] = []
    shown = [0, 0, 0, 0]
    for step in steps:  # the runner's CardSteps
        card = step.card
        if card is not None:
            table |= 1 << card
            new_laid.append((step.seat, card))
            if step.out:  # the seat went out (R-TX-4)
                order += (step.seat,)
        else:  # a pass (R-TX-3)
            new_passes.append((step.seat, len(laid) + len(new_laid)))
            shown[step.seat] |= shown_by_pass(table)
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
    return _AFTER_TRIX_TURN(
        previous,
        *_seat_now(previous, state, steps[-1].turn),
        table_cards,
        rows,
        laid,
        passes,
        order,
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
