"""The encoders: a :class:`~trixcomplex.View` written into its observation tensor.

:func:`observation_tensor` runs one encoder per section of the layout
(:mod:`trixcomplex.rl.observation.layout`) over a zeroed buffer, or, given an
earlier view of the same seat and its tensor, only those whose view fields are
not the very same objects.  The trackers (:mod:`trixcomplex.rl.observation.trackers`)
write with the same encoders, so the layout has one writer per entry.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from itertools import compress
from operator import attrgetter, is_not
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from ...core.cards import Card, Suit
from ...core.engine import Phase, Score, Trick
from ...core.moves import Contract
from ...core.rulesets import Ruleset
from ...knowledge.views import View
from .layout import (
    AT_ANSWER,
    AT_CANNOT,
    AT_CONTRACT,
    AT_DEAL_IN_KINGDOM,
    AT_DOUBLABLE,
    AT_DOUBLED,
    AT_KINGDOM,
    AT_KNOWN,
    AT_LEADER,
    AT_OPEN,
    AT_ORDER,
    AT_OWNER,
    AT_PASSES,
    AT_PHASE,
    AT_PLAYED,
    AT_POINTS,
    AT_PROGRESS,
    AT_REDEALS,
    AT_REMAINING,
    AT_RULESET,
    AT_SCORES,
    AT_SIZES,
    AT_SPECTATOR,
    AT_TAKEN,
    AT_TEAMS,
    AT_TRICK,
    AT_TRICKS_TAKEN,
    AT_TURN,
    AT_VOIDS,
    CONTRACT_INDEX,
    COUNT,
    COUNT_OF,
    DOUBLE_INDEX,
    N_DOUBLABLE,
    OBSERVATION_SHAPE,
    PHASE_INDEX,
    POINTS_SCALE,
    RULESET_OPTIONS,
    SCORE_SCALE,
    TENSOR_SIZE,
    ZERO_BYTES,
    Buffer,
    span,
)


def _encode_hand(view: View, out: Buffer, me: int) -> None:
    for card in view.hand:
        out[card] = 1.0  # AT_HAND is 0


def _encode_plays(view: View, out: Buffer, me: int) -> None:
    """played, trick, leader, taken, tricks_taken: the cards played this deal."""
    if view.leader is not None:
        _encode_tricks(view.tricks, out, me)
        _encode_trick(view, out, me)
    _encode_laid(view.laid, out, me)


def _encode_tricks(tricks: Sequence[Trick], out: Buffer, me: int) -> None:
    """The finished ``tricks``: played and taken cards, one more trick taken by each taker."""
    for tr in tricks:
        taker = (tr.taker - me) % 4
        taken = AT_TAKEN + 52 * taker
        for i, card in enumerate(tr.cards):
            out[AT_PLAYED + 52 * ((tr.leader + i - me) % 4) + card] = 1.0
            out[taken + card] = 1.0
        at = AT_TRICKS_TAKEN + taker
        out[at] = COUNT[COUNT_OF[out[at]] + 1]


def _encode_trick(view: View, out: Buffer, me: int, start: int = 0) -> None:
    """The trick in progress (its cards from ``start``) and its leader."""
    assert view.leader is not None
    _encode_trick_cards(view.leader, view.trick, out, me, start)


def _encode_trick_cards(
    leader: int, cards: Sequence[Card], out: Buffer, me: int, start: int = 0
) -> None:
    """:func:`_encode_trick` of the trick ``cards`` led by ``leader``."""
    for i in range(start, len(cards)):
        who = 52 * ((leader + i - me) % 4) + cards[i]
        out[AT_PLAYED + who] = 1.0
        out[AT_TRICK + who] = 1.0
    out[AT_LEADER + (leader - me) % 4] = 1.0


def _encode_laid(laid: Sequence[tuple[int, Card]], out: Buffer, me: int) -> None:
    for seat, card in laid:
        out[AT_PLAYED + 52 * ((seat - me) % 4) + card] = 1.0


def _encode_voids(view: View, out: Buffer, me: int) -> None:
    voids = view.voids
    for seat in range(4):
        if voids[seat]:
            encode_void_row(seat, voids[seat], out, me)


def encode_void_row(seat: int, suits: frozenset[Suit], out: Buffer, me: int) -> None:
    row = AT_VOIDS + 4 * ((seat - me) % 4)
    for suit in suits:
        out[row + suit] = 1.0


def _encode_cannot_hold(view: View, out: Buffer, me: int) -> None:
    _encode_per_seat_cards(view.cannot_hold, AT_CANNOT, out, me)


def _encode_known_holdings(view: View, out: Buffer, me: int) -> None:
    _encode_per_seat_cards(view.known_holdings, AT_KNOWN, out, me)


def _encode_per_seat_cards(
    per_seat: tuple[tuple[Card, ...], ...], base: int, out: Buffer, me: int
) -> None:
    for seat in range(4):
        if per_seat[seat]:
            encode_card_row(per_seat[seat], out, base + 52 * ((seat - me) % 4))


def encode_card_row(cards: Sequence[Card], out: Buffer, row: int) -> None:
    for card in cards:
        out[row + card] = 1.0


def _encode_sizes(view: View, out: Buffer, me: int) -> None:
    _encode_hand_sizes(view.hand_sizes, out, me)


def _encode_hand_sizes(sizes: Sequence[int], out: Buffer, me: int) -> None:
    for seat in range(4):
        out[AT_SIZES + (seat - me) % 4] = sizes[seat] / 13


def _encode_points(view: View, out: Buffer, me: int) -> None:
    encode_deal_points(view.points, out, me)


def encode_deal_points(points: Sequence[int], out: Buffer, me: int) -> None:
    for seat in range(4):
        out[AT_POINTS + (seat - me) % 4] = points[seat] / POINTS_SCALE


def _encode_scores(view: View, out: Buffer, me: int) -> None:
    """scores and teams: the cumulative scores, the viewer's team first."""
    _encode_score(view.score, out, me)


def _encode_score(score: Score, out: Buffer, me: int) -> None:
    for seat in range(4):
        out[AT_SCORES + (seat - me) % 4] = score.seats[seat] / SCORE_SCALE
    mine = me % 2
    out[AT_TEAMS] = score.teams[mine] / SCORE_SCALE
    out[AT_TEAMS + 1] = score.teams[1 - mine] / SCORE_SCALE


def _encode_doubled(view: View, out: Buffer, me: int) -> None:
    for card, doubler in view.doubled:
        out[AT_DOUBLED + N_DOUBLABLE * ((doubler - me) % 4) + DOUBLE_INDEX[card]] = 1.0


def _encode_window(view: View, out: Buffer, me: int) -> None:
    """doubling_open, doublable and my_answer: the doubling window as this seat sees it."""
    if view.doubling_open:
        out[AT_OPEN] = 1.0
    encode_answer(view.doublable, view.my_answer, out)


def encode_answer(
    doublable: Sequence[Card], answer: Sequence[Card] | None, out: Buffer, base: int = 0
) -> None:
    """doublable and my_answer: the seat's own part of the doubling window (of the tensor
    at ``base`` in ``out``)."""
    for card in doublable:
        out[base + AT_DOUBLABLE + DOUBLE_INDEX[card]] = 1.0
    if answer is not None:
        out[base + AT_ANSWER] = 1.0
        for card in answer:
            out[base + AT_ANSWER + 1 + DOUBLE_INDEX[card]] = 1.0


def _encode_passes(view: View, out: Buffer, me: int, start: int = 0) -> None:
    """The TRIX passes (from the ``start``-th): one more pass for each passer."""
    passes = view.passes
    for i in range(start, len(passes)):
        count_pass(passes[i][0], out, me)


def count_pass(seat: int, out: Buffer, me: int) -> None:
    """One more TRIX pass by ``seat``."""
    at = AT_PASSES + (seat - me) % 4
    out[at] = COUNT[COUNT_OF[out[at]] + 1]


def _encode_order(view: View, out: Buffer, me: int) -> None:
    encode_places(view.finishing_order, out, me)


def encode_places(order: Sequence[int], out: Buffer, me: int, start: int = 0) -> None:
    """The finishing order (its places from the ``start``-th)."""
    for place in range(start, len(order)):
        encode_place(order[place], place, out, me)


def encode_place(seat: int, place: int, out: Buffer, me: int) -> None:
    """``seat`` finished ``place``-th (0 for the first) in TRIX."""
    out[AT_ORDER + 4 * ((seat - me) % 4) + place] = 1.0


def _encode_contracts(view: View, out: Buffer, me: int) -> None:
    """phase, contract and remaining_contracts."""
    encode_contracts(view.phase, view.contract, view.remaining_contracts, out)


def encode_contracts(
    phase: Phase, contract: Contract | None, remaining: Sequence[Contract], out: Buffer
) -> None:
    """:func:`_encode_contracts` of a view's ``phase``, ``contract`` and
    ``remaining_contracts``."""
    out[AT_PHASE + PHASE_INDEX[phase]] = 1.0
    if contract is not None:  # a combined deal (R-OPT-9): one 1 per part
        for part in contract.parts:
            out[AT_CONTRACT + CONTRACT_INDEX[part]] = 1.0
    for remaining_contract in remaining:
        out[AT_REMAINING + CONTRACT_INDEX[remaining_contract]] = 1.0


def _encode_progress(view: View, out: Buffer, me: int) -> None:
    """kingdom, deal_in_kingdom, match_progress and owner."""
    if view.kingdom:
        out[AT_KINGDOM + view.kingdom - 1] = 1.0
    if view.deal_number:
        before = sum(
            1 for r in view.score.deals if r.kingdom == view.kingdom and r.number < view.deal_number
        )  # the deals of this Kingdom before this one (fewer under R-OPT-9)
        out[AT_DEAL_IN_KINGDOM + before] = 1.0
    out[AT_PROGRESS] = view.deal_number / view.ruleset.deals_per_match
    if view.owner is not None:
        out[AT_OWNER + (view.owner - me) % 4] = 1.0


def _encode_turn(view: View, out: Buffer, me: int) -> None:
    _encode_turn_of(view.turn, out, me)


def _encode_turn_of(turn: int | None, out: Buffer, me: int) -> None:
    if turn is not None:
        out[AT_TURN + (turn - me) % 4] = 1.0


def _encode_redeals(view: View, out: Buffer, me: int) -> None:
    for seat in view.redeals:
        out[AT_REDEALS + (seat - me) % 4] = 1.0


_OPTIONS_ON: dict[Ruleset, tuple[int, ...]] = {}
"""Per ruleset, the indices of its options that are on (read once per ruleset)."""


def _encode_ruleset(view: View, out: Buffer, me: int) -> None:
    """ruleset and is_spectator."""
    options = _OPTIONS_ON.get(view.ruleset)
    if options is None:
        options = _OPTIONS_ON[view.ruleset] = tuple(
            i for i, option in enumerate(RULESET_OPTIONS) if getattr(view.ruleset, option)
        )
    for i in options:
        out[AT_RULESET + i] = 1.0
    if view.seat is None:
        out[AT_SPECTATOR] = 1.0


_Encoder: TypeAlias = Callable[[View, Buffer, int], None]
_SECTIONS: tuple[tuple[tuple[slice, ...], tuple[str, ...], _Encoder], ...] = (
    ((span("hand"),), ("hand",), _encode_hand),
    ((span("played", "tricks_taken"),), ("leader", "tricks", "trick", "laid"), _encode_plays),
    ((span("voids"),), ("voids",), _encode_voids),
    ((span("cannot_hold"),), ("cannot_hold",), _encode_cannot_hold),
    ((span("known_holdings"),), ("known_holdings",), _encode_known_holdings),
    ((span("doubled"),), ("doubled",), _encode_doubled),
    ((span("doubling_open", "my_answer"),), ("doubling_open", "doublable", "my_answer"),
     _encode_window),
    ((span("passes"),), ("passes",), _encode_passes),
    ((span("finishing_order"),), ("finishing_order",), _encode_order),
    ((span("hand_sizes"),), ("hand_sizes",), _encode_sizes),
    ((span("phase", "remaining_contracts"),), ("phase", "contract", "remaining_contracts"),
     _encode_contracts),
    ((span("kingdom", "owner"),), ("kingdom", "deal_number", "owner", "score.deals"),
     _encode_progress),
    ((span("turn"),), ("turn",), _encode_turn),
    ((span("redeals"),), ("redeals",), _encode_redeals),
    # The Team Totals are the sum of the seats' scores (R-MATCH-7): same seats, same teams.
    ((span("scores"), span("teams")), ("score.seats",), _encode_scores),
    ((span("points"),), ("points",), _encode_points),
    ((span("ruleset", "is_spectator"),), ("ruleset",), _encode_ruleset),
)  # fmt: skip
"""The sections of the encoding: the parts of the tensor each one writes, the view
fields (``score.deals``: an attribute of one) it reads, and its encoder, which
writes the section into a zeroed buffer.  The full tensor runs every encoder; the
incremental one re-encodes a section only if one of its fields is not the very
same object as in the earlier view (cards played since are added to the plays
and passes sections as they stand)."""
_PLAYS_SECTION = 1
_PASSES_SECTION = 7
_PER_SEAT_CARDS = {3: ("cannot_hold", AT_CANNOT), 4: ("known_holdings", AT_KNOWN)}
_READ = attrgetter(*(name for _, fields, _ in _SECTIONS for name in fields))
_FIELD_SECTIONS = tuple(i for i, (_, fields, _) in enumerate(_SECTIONS) for _ in fields)
ZEROS = {part.stop - part.start: array("f", bytes(4 * (part.stop - part.start)))
          for parts, _, _ in _SECTIONS for part in parts}  # fmt: skip
ZEROS[52] = array("f", bytes(4 * 52))
CONTRACTS_SECTION = span("phase", "remaining_contracts")
"""The part :func:`encode_contracts` writes."""
TRICK_AND_LEADER = span("trick", "leader")
TRICK_AND_LEADER_ZEROS = ZEROS[TRICK_AND_LEADER.stop - TRICK_AND_LEADER.start] = array(
    "f", bytes(4 * (TRICK_AND_LEADER.stop - TRICK_AND_LEADER.start))
)


def observation_tensor(
    view: View,
    previous: tuple[View, npt.NDArray[np.float32]] | None = None,
) -> npt.NDArray[np.float32]:
    """The float32 tensor of shape :data:`OBSERVATION_SHAPE` encoding ``view``.

    Built from the view only (see the module docs for the layout).  With
    ``previous=(earlier_view, its_tensor)``, an earlier view of the same seat
    and its tensor, the tensor is built incrementally: a copy of
    ``its_tensor`` with only the sections re-encoded whose view fields are not
    the very same objects (``is``) as in ``earlier_view``, and the cards
    played since added.  Bit-identical to ``observation_tensor(view)``;
    fast when ``view`` comes from :func:`~trixcomplex.view_after` of
    ``earlier_view``, which shares every unchanged field.  ``its_tensor`` is
    not changed.

    >>> import random
    >>> import numpy as np
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(5)))
    >>> before = tc.view(state, 2)
    >>> move = tc.legal_moves(state)[0]
    >>> state = tc.apply(state, move)
    >>> after = tc.view_after(before, move, state)
    >>> tensor = observation_tensor(after, previous=(before, observation_tensor(before)))
    >>> np.array_equal(tensor, observation_tensor(after)), tensor.dtype.name
    (True, 'float32')
    """
    me = view.seat if view.seat is not None else 0
    if previous is None or previous[0].seat != view.seat:
        return np.frombuffer(encode_all(view), np.float32)
    before, tensor = previous
    out = _copy(tensor)
    if before is view:
        return np.frombuffer(out, np.float32)
    changed = dict.fromkeys(compress(_FIELD_SECTIONS, map(is_not, _READ(view), _READ(before))))
    for i in changed:  # in section order
        parts, _, encode = _SECTIONS[i]
        if i == _PLAYS_SECTION and _plays_since(view, before, out, me):
            continue
        if i == _PASSES_SECTION and _passes_since(view, before, out, me):
            continue
        if i in _PER_SEAT_CARDS:  # re-encode only the seats whose cards changed
            _per_seat_since(view, before, out, me, *_PER_SEAT_CARDS[i])
            continue
        for part in parts:
            out[part] = ZEROS[part.stop - part.start]
        encode(view, out, me)
    return np.frombuffer(out, np.float32)


def encode_all(view: View) -> Buffer:
    """A new buffer holding the whole tensor of ``view``: every section encoded."""
    me = view.seat if view.seat is not None else 0
    out = array("f", ZERO_BYTES)
    for _, _, encode in _SECTIONS:
        encode(view, out, me)
    return out


def _copy(tensor: npt.NDArray[np.float32]) -> Buffer:
    """A buffer holding a copy of ``tensor`` (fast for a tensor built here: a slice of
    the buffer it views)."""
    base: object = tensor.base
    if type(base) is array and base.typecode == "f" and len(base) == TENSOR_SIZE:
        return base[:]
    if tensor.shape != OBSERVATION_SHAPE or tensor.dtype != np.float32:
        raise ValueError(f"not an observation tensor: shape {tensor.shape}, {tensor.dtype}")
    return array("f", np.ascontiguousarray(tensor).tobytes())


def _plays_since(view: View, before: View, out: Buffer, me: int) -> bool:
    """Add to ``out`` (``before``'s tensor) the cards played since ``before``, when both
    views are of the same deal and ``before``'s plays are the start of ``view``'s;
    ``False`` (nothing done) otherwise."""
    if view.deal_number != before.deal_number or view.phase is not before.phase:
        return False
    done, laid = len(before.tricks), len(before.laid)
    tricks = view.tricks
    if len(tricks) < done or len(view.laid) < laid:
        return False
    if (done and tricks[done - 1] is not before.tricks[-1]) or (
        laid and view.laid[laid - 1] is not before.laid[-1]
    ):
        return False
    if view.leader is not None:
        if len(tricks) == done:  # the same trick in progress, grown
            if view.leader != before.leader or view.trick[: len(before.trick)] != before.trick:
                return False
            _encode_trick(view, out, me, start=len(before.trick))
        else:
            out[TRICK_AND_LEADER] = TRICK_AND_LEADER_ZEROS
            _encode_tricks(tricks[done:], out, me)
            _encode_trick(view, out, me)
    if len(view.laid) != laid:
        _encode_laid(view.laid[laid:], out, me)
    return True


def _per_seat_since(view: View, before: View, out: Buffer, me: int, field: str, base: int) -> None:
    """Re-encode the rows of a per-seat card section (``cannot_hold``,
    ``known_holdings``) whose seat's cards are not the same tuple as ``before``'s."""
    new, old = getattr(view, field), getattr(before, field)
    zeros = ZEROS[52]
    for seat in range(4):
        if new[seat] is not old[seat]:
            row = base + 52 * ((seat - me) % 4)
            out[row : row + 52] = zeros
            encode_card_row(new[seat], out, row)


def _passes_since(view: View, before: View, out: Buffer, me: int) -> bool:
    """Count in ``out`` (``before``'s tensor) the passes made since ``before``, when
    ``before``'s passes are the start of ``view``'s; ``False`` otherwise."""
    done = len(before.passes)
    if len(view.passes) < done or view.passes[:done] != before.passes:
        return False
    _encode_passes(view, out, me, start=done)
    return True
