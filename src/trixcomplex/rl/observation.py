"""Observation tensors: a fixed-shape float32 encoding of one seat's :class:`~trixcomplex.View`.

The tensor is a pure function of the view, so it can hold nothing the seat
cannot see (R-HID-1 … R-HID-3): worlds a seat cannot tell apart give it the
same view and therefore bit-identical tensors.

Seats are *relative* to the viewer: index 0 is the viewer, 1 the next seat
(its right, R-SEAT-1), 2 its partner, 3 the seat before it; the spectator's
tensor is relative to seat 0.  Cards are indexed ``suit * 13 + rank - 2``
(the action ids of plays).  The layout is :data:`OBSERVATION_LAYOUT`, a
tuple of ``(name, shape)`` segments laid end to end:

>>> import random
>>> import trixcomplex as tc
>>> from trixcomplex.rl import observation_tensor, OBSERVATION_SHAPE
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
>>> tensor = observation_tensor(tc.view(state, 1))
>>> tensor.shape == OBSERVATION_SHAPE, tensor.dtype.name, int(tensor[:52].sum())
(True, 'float32', 13)
>>> segment(tensor, "hand_sizes").tolist()
[1.0, 1.0, 1.0, 1.0]
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from itertools import compress, islice
from operator import attrgetter, is_not
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from ..core.cards import Card, Suit, cards_of
from ..core.engine import ComplexDeal, History, MatchState, Phase, Score, Trick, TrixDeal
from ..core.moves import Double, Move, Pass, Play
from ..core.rulesets import Ruleset
from ..core.seats import check_seat
from ..io.actions import CONTRACTS, DOUBLABLE_CARDS
from ..io.render import table_text
from ..knowledge.views import (
    View,
    own_part,
    played_in_tricks,
    show_trick_cards_since,
    shown_by_pass,
    view,
    view_after_moves,
    view_without_moves,
)

__all__ = [
    "OBSERVATION_BOUND",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SHAPE",
    "OBSERVATION_VERSION",
    "RULESET_OPTIONS",
    "Observer",
    "SeatsTracker",
    "TensorTracker",
    "observation_string",
    "observation_tensor",
    "segment",
]

OBSERVATION_VERSION = 1
"""The version of :data:`OBSERVATION_LAYOUT`; bumped whenever the layout changes."""

PHASES: tuple[Phase, ...] = (
    Phase.DEAL,
    Phase.CHOOSE,
    Phase.DOUBLE,
    Phase.COMPLEX,
    Phase.TRIX,
    Phase.OVER,
)
RULESET_OPTIONS: tuple[str, ...] = (
    "partnership",
    "doubling",
    "fixed_order",
    "penalty_cards_first",
    "free_heart_leads",
    "swapped_scores",
    "reversed_scores",
    "show_twos",
    "bad_hand_redeal",
)
"""The :class:`~trixcomplex.Ruleset` options of the ``ruleset`` segment, in order."""

SCORE_SCALE = 1000.0
"""Scores are divided by this (points of the deal in progress by ``POINTS_SCALE``)."""
POINTS_SCALE = 100.0
OBSERVATION_BOUND = 64.0
"""No entry of a tensor is ever larger in size (the scaled scores stay far inside it)."""

_D = len(DOUBLABLE_CARDS)
OBSERVATION_LAYOUT: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("hand", (52,)),  # the viewer's cards
    ("played", (4, 52)),  # the cards each seat played (trick or TRIX) this deal
    ("trick", (4, 52)),  # the trick in progress: the card each seat played to it
    ("leader", (4,)),  # who leads the trick in progress
    ("taken", (4, 52)),  # the cards in the tricks each seat took this deal
    ("tricks_taken", (4,)),  # tricks each seat took / 13
    ("voids", (4, 4)),  # suits each seat is known to be void in
    ("cannot_hold", (4, 52)),  # unplayed cards each seat is known not to hold
    ("known_holdings", (4, 52)),  # cards each seat is known to hold
    ("doubled", (4, _D)),  # revealed doubles: doubler x DOUBLABLE_CARDS
    ("doubling_open", (1,)),
    ("doublable", (_D,)),  # the viewer's own pending doublable cards
    ("my_answer", (1 + _D,)),  # answered?, then the cards the viewer doubled
    ("passes", (4,)),  # TRIX passes by each seat / 13
    ("finishing_order", (4, 4)),  # seat x place (1st … 4th) in TRIX
    ("hand_sizes", (4,)),  # cards held / 13
    ("phase", (len(PHASES),)),
    ("contract", (len(CONTRACTS),)),
    ("remaining_contracts", (len(CONTRACTS),)),
    ("kingdom", (4,)),
    ("deal_in_kingdom", (5,)),  # which deal of the Kingdom (1st … 5th)
    ("match_progress", (1,)),  # deal_number / deals_per_match
    ("owner", (4,)),
    ("turn", (4,)),
    ("redeals", (4,)),  # seats that demanded a redeal of this deal (R-OPT-8)
    ("scores", (4,)),  # cumulative seat scores / SCORE_SCALE
    ("points", (4,)),  # points charged this deal / POINTS_SCALE
    ("teams", (2,)),  # Team Totals / SCORE_SCALE: the viewer's team first
    ("ruleset", (len(RULESET_OPTIONS),)),
    ("is_spectator", (1,)),
)
"""The segments of the tensor, in order: ``(name, shape)``."""

_OFFSET: dict[str, tuple[int, tuple[int, ...]]] = {}
_at = 0
for _name, _shape in OBSERVATION_LAYOUT:
    _OFFSET[_name] = (_at, _shape)
    _at += int(np.prod(_shape))
OBSERVATION_SHAPE: tuple[int] = (_at,)
"""The tensor's shape: one flat float32 vector."""
del _at, _name, _shape

_DOUBLE_INDEX = {card: i for i, card in enumerate(DOUBLABLE_CARDS)}
_PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}
_PHASE_INDEX[Phase.TRICKS] = _PHASE_INDEX[Phase.COMPLEX]  # cards played to tricks, any contract
_CONTRACT_INDEX = {contract: i for i, contract in enumerate(CONTRACTS)}


def segment(tensor: npt.NDArray[np.float32], name: str) -> npt.NDArray[np.float32]:
    """The part of ``tensor`` named ``name`` in :data:`OBSERVATION_LAYOUT`, in its shape."""
    start, shape = _OFFSET[name]
    return tensor[start : start + int(np.prod(shape))].reshape(shape)


def _at_of(name: str, row: int = 0, column: int = 0) -> int:
    start, shape = _OFFSET[name]
    return start + row * shape[-1] + column if len(shape) == 2 else start + row + column


def _slice(*names: str) -> slice:
    """The part of the tensor spanned by the consecutive segments ``names``."""
    start = _OFFSET[names[0]][0]
    end, shape = _OFFSET[names[-1]]
    return slice(start, end + int(np.prod(shape)))


def _counts() -> tuple[float, ...]:
    """``n / 13`` as the tensor holds a count of ``n`` (tricks taken, passes): 1/13
    added ``n`` times in float32, the tensor's arithmetic, bit for bit."""
    cell = np.zeros(1, np.float32)
    out = []
    for _ in range(64):
        out.append(float(cell[0]))
        cell[0] += 1 / 13
    return tuple(out)


_COUNT = _counts()
_COUNT_OF = {value: n for n, value in enumerate(_COUNT)}

# The encoders write the tensor into an ``array("f")`` (float32): an item written
# there costs a fraction of one written into a numpy array, and the numpy tensor
# handed out is a view of the same memory (``np.frombuffer``).
_Buffer: TypeAlias = "array[float]"
_SIZE = OBSERVATION_SHAPE[0]
_ZERO_BYTES = bytes(4 * _SIZE)

(_HAND, _PLAYED, _TRICK, _LEADER, _TAKEN, _TRICKS_TAKEN, _VOIDS, _CANNOT, _KNOWN, _DOUBLED,
 _OPEN, _DOUBLABLE, _ANSWER, _PASSES, _ORDER, _SIZES, _PHASE, _CONTRACT, _REMAINING, _KINGDOM,
 _DEAL_IN_KINGDOM, _PROGRESS, _OWNER, _TURN, _REDEALS, _SCORES, _POINTS, _TEAMS, _RULESET,
 _SPECTATOR) = (_OFFSET[name][0] for name, _ in OBSERVATION_LAYOUT)  # fmt: skip


def _encode_hand(view: View, out: _Buffer, me: int) -> None:
    for card in view.hand:
        out[card] = 1.0  # _HAND is 0


def _encode_plays(view: View, out: _Buffer, me: int) -> None:
    """played, trick, leader, taken, tricks_taken: the cards played this deal."""
    if view.leader is not None:
        _encode_tricks(view.tricks, out, me)
        _encode_trick(view, out, me)
    _encode_laid(view.laid, out, me)


def _encode_tricks(tricks: Sequence[Trick], out: _Buffer, me: int) -> None:
    """The finished ``tricks``: played and taken cards, one more trick taken by each taker."""
    for tr in tricks:
        taker = (tr.taker - me) % 4
        taken = _TAKEN + 52 * taker
        for i, card in enumerate(tr.cards):
            out[_PLAYED + 52 * ((tr.leader + i - me) % 4) + card] = 1.0
            out[taken + card] = 1.0
        at = _TRICKS_TAKEN + taker
        out[at] = _COUNT[_COUNT_OF[out[at]] + 1]


def _encode_trick(view: View, out: _Buffer, me: int, start: int = 0) -> None:
    """The trick in progress (its cards from ``start``) and its leader."""
    assert view.leader is not None
    _encode_trick_cards(view.leader, view.trick, out, me, start)


def _encode_trick_cards(
    leader: int, cards: Sequence[Card], out: _Buffer, me: int, start: int = 0
) -> None:
    """:func:`_encode_trick` of the trick ``cards`` led by ``leader``."""
    for i in range(start, len(cards)):
        who = 52 * ((leader + i - me) % 4) + cards[i]
        out[_PLAYED + who] = 1.0
        out[_TRICK + who] = 1.0
    out[_LEADER + (leader - me) % 4] = 1.0


def _encode_laid(laid: Sequence[tuple[int, Card]], out: _Buffer, me: int) -> None:
    for seat, card in laid:
        out[_PLAYED + 52 * ((seat - me) % 4) + card] = 1.0


def _encode_voids(view: View, out: _Buffer, me: int) -> None:
    voids = view.voids
    for seat in range(4):
        if voids[seat]:
            _encode_void_row(seat, voids[seat], out, me)


def _encode_void_row(seat: int, suits: frozenset[Suit], out: _Buffer, me: int) -> None:
    row = _VOIDS + 4 * ((seat - me) % 4)
    for suit in suits:
        out[row + suit] = 1.0


def _encode_cannot_hold(view: View, out: _Buffer, me: int) -> None:
    _encode_per_seat_cards(view.cannot_hold, _CANNOT, out, me)


def _encode_known_holdings(view: View, out: _Buffer, me: int) -> None:
    _encode_per_seat_cards(view.known_holdings, _KNOWN, out, me)


def _encode_per_seat_cards(
    per_seat: tuple[tuple[Card, ...], ...], base: int, out: _Buffer, me: int
) -> None:
    for seat in range(4):
        if per_seat[seat]:
            _encode_card_row(per_seat[seat], out, base + 52 * ((seat - me) % 4))


def _encode_card_row(cards: Sequence[Card], out: _Buffer, row: int) -> None:
    for card in cards:
        out[row + card] = 1.0


def _encode_sizes(view: View, out: _Buffer, me: int) -> None:
    _encode_hand_sizes(view.hand_sizes, out, me)


def _encode_hand_sizes(sizes: Sequence[int], out: _Buffer, me: int) -> None:
    for seat in range(4):
        out[_SIZES + (seat - me) % 4] = sizes[seat] / 13


def _encode_points(view: View, out: _Buffer, me: int) -> None:
    _encode_deal_points(view.points, out, me)


def _encode_deal_points(points: Sequence[int], out: _Buffer, me: int) -> None:
    for seat in range(4):
        out[_POINTS + (seat - me) % 4] = points[seat] / POINTS_SCALE


def _encode_scores(view: View, out: _Buffer, me: int) -> None:
    """scores and teams: the cumulative scores, the viewer's team first."""
    _encode_score(view.score, out, me)


def _encode_score(score: Score, out: _Buffer, me: int) -> None:
    for seat in range(4):
        out[_SCORES + (seat - me) % 4] = score.seats[seat] / SCORE_SCALE
    mine = me % 2
    out[_TEAMS] = score.teams[mine] / SCORE_SCALE
    out[_TEAMS + 1] = score.teams[1 - mine] / SCORE_SCALE


def _encode_doubled(view: View, out: _Buffer, me: int) -> None:
    for card, doubler in view.doubled:
        out[_DOUBLED + _D * ((doubler - me) % 4) + _DOUBLE_INDEX[card]] = 1.0


def _encode_window(view: View, out: _Buffer, me: int) -> None:
    """doubling_open, doublable and my_answer: the doubling window as this seat sees it."""
    if view.doubling_open:
        out[_OPEN] = 1.0
    _encode_answer(view.doublable, view.my_answer, out)


def _encode_answer(
    doublable: Sequence[Card], answer: Sequence[Card] | None, out: _Buffer, base: int = 0
) -> None:
    """doublable and my_answer: the seat's own part of the doubling window (of the tensor
    at ``base`` in ``out``)."""
    for card in doublable:
        out[base + _DOUBLABLE + _DOUBLE_INDEX[card]] = 1.0
    if answer is not None:
        out[base + _ANSWER] = 1.0
        for card in answer:
            out[base + _ANSWER + 1 + _DOUBLE_INDEX[card]] = 1.0


def _encode_passes(view: View, out: _Buffer, me: int, start: int = 0) -> None:
    """The TRIX passes (from the ``start``-th): one more pass for each passer."""
    passes = view.passes
    for i in range(start, len(passes)):
        _count_pass(passes[i][0], out, me)


def _count_pass(seat: int, out: _Buffer, me: int) -> None:
    """One more TRIX pass by ``seat``."""
    at = _PASSES + (seat - me) % 4
    out[at] = _COUNT[_COUNT_OF[out[at]] + 1]


def _encode_order(view: View, out: _Buffer, me: int) -> None:
    _encode_places(view.finishing_order, out, me)


def _encode_places(order: Sequence[int], out: _Buffer, me: int, start: int = 0) -> None:
    """The finishing order (its places from the ``start``-th)."""
    for place in range(start, len(order)):
        out[_ORDER + 4 * ((order[place] - me) % 4) + place] = 1.0


def _encode_contracts(view: View, out: _Buffer, me: int) -> None:
    """phase, contract and remaining_contracts."""
    out[_PHASE + _PHASE_INDEX[view.phase]] = 1.0
    if view.contract is not None:  # a combined deal (R-OPT-9): one 1 per part
        for part in view.contract.parts:
            out[_CONTRACT + _CONTRACT_INDEX[part]] = 1.0
    for contract in view.remaining_contracts:
        out[_REMAINING + _CONTRACT_INDEX[contract]] = 1.0


def _encode_progress(view: View, out: _Buffer, me: int) -> None:
    """kingdom, deal_in_kingdom, match_progress and owner."""
    if view.kingdom:
        out[_KINGDOM + view.kingdom - 1] = 1.0
    if view.deal_number:
        before = sum(
            1 for r in view.score.deals if r.kingdom == view.kingdom and r.number < view.deal_number
        )  # the deals of this Kingdom before this one (fewer under R-OPT-9)
        out[_DEAL_IN_KINGDOM + before] = 1.0
    out[_PROGRESS] = view.deal_number / view.ruleset.deals_per_match
    if view.owner is not None:
        out[_OWNER + (view.owner - me) % 4] = 1.0


def _encode_turn(view: View, out: _Buffer, me: int) -> None:
    _encode_turn_of(view.turn, out, me)


def _encode_turn_of(turn: int | None, out: _Buffer, me: int) -> None:
    if turn is not None:
        out[_TURN + (turn - me) % 4] = 1.0


def _encode_redeals(view: View, out: _Buffer, me: int) -> None:
    for seat in view.redeals:
        out[_REDEALS + (seat - me) % 4] = 1.0


_OPTIONS_ON: dict[Ruleset, tuple[int, ...]] = {}
"""Per ruleset, the indices of its options that are on (read once per ruleset)."""


def _encode_ruleset(view: View, out: _Buffer, me: int) -> None:
    """ruleset and is_spectator."""
    options = _OPTIONS_ON.get(view.ruleset)
    if options is None:
        options = _OPTIONS_ON[view.ruleset] = tuple(
            i for i, option in enumerate(RULESET_OPTIONS) if getattr(view.ruleset, option)
        )
    for i in options:
        out[_RULESET + i] = 1.0
    if view.seat is None:
        out[_SPECTATOR] = 1.0


_Encoder: TypeAlias = Callable[[View, _Buffer, int], None]
_SECTIONS: tuple[tuple[tuple[slice, ...], tuple[str, ...], _Encoder], ...] = (
    ((_slice("hand"),), ("hand",), _encode_hand),
    ((_slice("played", "tricks_taken"),), ("leader", "tricks", "trick", "laid"), _encode_plays),
    ((_slice("voids"),), ("voids",), _encode_voids),
    ((_slice("cannot_hold"),), ("cannot_hold",), _encode_cannot_hold),
    ((_slice("known_holdings"),), ("known_holdings",), _encode_known_holdings),
    ((_slice("doubled"),), ("doubled",), _encode_doubled),
    ((_slice("doubling_open", "my_answer"),), ("doubling_open", "doublable", "my_answer"),
     _encode_window),
    ((_slice("passes"),), ("passes",), _encode_passes),
    ((_slice("finishing_order"),), ("finishing_order",), _encode_order),
    ((_slice("hand_sizes"),), ("hand_sizes",), _encode_sizes),
    ((_slice("phase", "remaining_contracts"),), ("phase", "contract", "remaining_contracts"),
     _encode_contracts),
    ((_slice("kingdom", "owner"),), ("kingdom", "deal_number", "owner", "score.deals"),
     _encode_progress),
    ((_slice("turn"),), ("turn",), _encode_turn),
    ((_slice("redeals"),), ("redeals",), _encode_redeals),
    # The Team Totals are the sum of the seats' scores (R-MATCH-7): same seats, same teams.
    ((_slice("scores"), _slice("teams")), ("score.seats",), _encode_scores),
    ((_slice("points"),), ("points",), _encode_points),
    ((_slice("ruleset", "is_spectator"),), ("ruleset",), _encode_ruleset),
)  # fmt: skip
"""The sections of the encoding: the parts of the tensor each one writes, the view
fields (``score.deals``: an attribute of one) it reads, and its encoder, which
writes the section into a zeroed buffer.  The full tensor runs every encoder; the
incremental one re-encodes a section only if one of its fields is not the very
same object as in the earlier view (cards played since are added to the plays
and passes sections as they stand)."""
_PLAYS_SECTION = 1
_PASSES_SECTION = 7
_PER_SEAT_CARDS = {3: ("cannot_hold", _CANNOT), 4: ("known_holdings", _KNOWN)}
_READ = attrgetter(*(name for _, fields, _ in _SECTIONS for name in fields))
_FIELD_SECTIONS = tuple(i for i, (_, fields, _) in enumerate(_SECTIONS) for _ in fields)
_ZEROS = {part.stop - part.start: array("f", bytes(4 * (part.stop - part.start)))
          for parts, _, _ in _SECTIONS for part in parts}  # fmt: skip
_ZEROS[52] = array("f", bytes(4 * 52))
_TRICK_AND_LEADER = _slice("trick", "leader")
_TRICK_AND_LEADER_ZEROS = _ZEROS[_TRICK_AND_LEADER.stop - _TRICK_AND_LEADER.start] = array(
    "f", bytes(4 * (_TRICK_AND_LEADER.stop - _TRICK_AND_LEADER.start))
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
        return np.frombuffer(_encode_all(view), np.float32)
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
            out[part] = _ZEROS[part.stop - part.start]
        encode(view, out, me)
    return np.frombuffer(out, np.float32)


def _encode_all(view: View) -> _Buffer:
    """A new buffer holding the whole tensor of ``view``: every section encoded."""
    me = view.seat if view.seat is not None else 0
    out = array("f", _ZERO_BYTES)
    for _, _, encode in _SECTIONS:
        encode(view, out, me)
    return out


def _copy(tensor: npt.NDArray[np.float32]) -> _Buffer:
    """A buffer holding a copy of ``tensor`` (fast for a tensor built here: a slice of
    the buffer it views)."""
    base: object = tensor.base
    if type(base) is array and base.typecode == "f" and len(base) == _SIZE:
        return base[:]
    if tensor.shape != OBSERVATION_SHAPE or tensor.dtype != np.float32:
        raise ValueError(f"not an observation tensor: shape {tensor.shape}, {tensor.dtype}")
    return array("f", np.ascontiguousarray(tensor).tobytes())


def _plays_since(view: View, before: View, out: _Buffer, me: int) -> bool:
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
            out[_TRICK_AND_LEADER] = _TRICK_AND_LEADER_ZEROS
            _encode_tricks(tricks[done:], out, me)
            _encode_trick(view, out, me)
    if len(view.laid) != laid:
        _encode_laid(view.laid[laid:], out, me)
    return True


def _per_seat_since(view: View, before: View, out: _Buffer, me: int, field: str, base: int) -> None:
    """Re-encode the rows of a per-seat card section (``cannot_hold``,
    ``known_holdings``) whose seat's cards are not the same tuple as ``before``'s."""
    new, old = getattr(view, field), getattr(before, field)
    zeros = _ZEROS[52]
    for seat in range(4):
        if new[seat] is not old[seat]:
            row = base + 52 * ((seat - me) % 4)
            out[row : row + 52] = zeros
            _encode_card_row(new[seat], out, row)


def _passes_since(view: View, before: View, out: _Buffer, me: int) -> bool:
    """Count in ``out`` (``before``'s tensor) the passes made since ``before``, when
    ``before``'s passes are the start of ``view``'s; ``False`` otherwise."""
    done = len(before.passes)
    if len(view.passes) < done or view.passes[:done] != before.passes:
        return False
    _encode_passes(view, out, me, start=done)
    return True


_TRICK_PHASES = (Phase.COMPLEX, Phase.TRICKS)
_CATCH_UP = 64
"""At most this many moves are followed one by one; a longer gap is encoded in full."""
_NOTHING_SHOWN = [0, 0, 0, 0]

_SEAT_ROWS = frozenset({
    "played", "trick", "leader", "taken", "tricks_taken", "voids", "cannot_hold",
    "known_holdings", "doubled", "passes", "finishing_order", "hand_sizes", "owner", "turn",
    "redeals", "scores", "points",
})  # fmt: skip
"""The segments with a row (or an entry) per seat: relative to the viewer, the
viewer's own first (``kingdom`` is a Kingdom's number, not a seat)."""
_WINDOW = _slice("doublable", "my_answer")
"""A seat's own part (``views.own_part``) is its hand and this part of its tensor."""
_ZEROS[_WINDOW.stop - _WINDOW.start] = array("f", bytes(4 * (_WINDOW.stop - _WINDOW.start)))


def _gather(seat: int | None) -> npt.NDArray[np.intp]:
    """Where each entry of ``seat``'s tensor is in a :class:`SeatsTracker`'s buffer: the
    spectator's tensor (seat 0's seats first) with its seat rows turned to
    ``seat``'s, its team first, and ``seat``'s own part (hand, doubling answer)
    from that seat's region."""
    if seat is None:
        return np.arange(_SIZE, dtype=np.intp)
    at: list[int] = []
    for name, shape in OBSERVATION_LAYOUT:
        start = _OFFSET[name][0]
        width = int(np.prod(shape[1:])) if len(shape) > 1 else 1
        size = int(np.prod(shape))
        if name in _SEAT_ROWS:
            at += [start + width * ((j // width + seat) % 4) + j % width for j in range(size)]
        elif name == "teams":  # the viewer's team first
            at += [start + seat % 2, start + 1 - seat % 2]
        elif name in ("hand", "doublable", "my_answer", "is_spectator"):
            at += [(1 + seat) * _SIZE + start + j for j in range(size)]
        else:
            at += [start + j for j in range(size)]
    return np.array(at, dtype=np.intp)


_GATHER: dict[int | None, npt.NDArray[np.intp]] = {
    seat: _gather(seat) for seat in (None, 0, 1, 2, 3)
}
_PLAYED_ROW = tuple(_PLAYED + 52 * s for s in range(4))
_TRICK_ROW = tuple(_TRICK + 52 * s for s in range(4))
_TAKEN_ROW = tuple(_TAKEN + 52 * s for s in range(4))
_CANNOT_ROW = tuple(_CANNOT + 52 * s for s in range(4))
_HAND_AT = tuple((1 + s) * _SIZE + _HAND for s in range(4))


class SeatsTracker:
    """Every seat's and the spectator's observation tensor of one match, kept up to date
    from the moves themselves: each move is read once and written once, whoever
    is asked for.

    ``tensor(state, seat)`` is always bit-identical to
    ``observation_tensor(view(state, seat))``.  The tracker keeps the
    spectator's tensor and, for each seat asked for, what that seat sees and
    the spectator does not (its hand and its part of the doubling window); a
    seat's tensor is gathered from the two, the seat rows turned to the seat
    (:func:`~trixcomplex.view` shows every seat the same public facts).

    Asked with a state that follows the one it saw last (any number of moves
    later), it walks the history back to that state and, when every move
    since is a card played to a trick, a card laid or a pass in TRIX, or an
    answer in the doubling window of the same deal, writes only the entries
    those moves change: the hand, the cards played, the trick and its leader,
    the tricks taken, the hand sizes, the turn, the passes and the finishing
    order; the points when a trick changes them (the engine's
    ``deal.points``); and the voids and cards a seat cannot hold, deduced by
    the very functions :func:`~trixcomplex.view` uses
    (``views.show_trick_cards_since`` and ``views.shown_by_pass``).  Anything
    else (a deal, a choice, the window's close, a deal's last card, a redeal,
    the 2s shown by R-OPT-7, a state of another branch or match) encodes the
    spectator's full :func:`~trixcomplex.view` again, and each seat's own
    part when it is next asked for, as a seat's own doubling answer does for
    that seat.

    A game loop asks for the mover's tensor at every move (what the adapters of
    :mod:`trixcomplex.rl` do through :class:`Observer`); one tracker serves
    all four seats for the work of one.  Each call hands out a new array the
    caller owns.  A deep copy or a pickle is a new, empty tracker.

    >>> import random
    >>> import numpy as np
    >>> import trixcomplex as tc
    >>> tracker = SeatsTracker()
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(5)))
    >>> for _ in range(30):
    ...     move = tc.legal_moves(state)[0]
    ...     tensor = tracker.tensor(state, move.seat)  # the mover's
    ...     state = tc.apply(state, move)
    >>> np.array_equal(tracker.tensor(state, 2), observation_tensor(tc.view(state, 2)))
    True
    """

    __slots__ = (
        "_cannot",
        "_done",
        "_fresh",
        "_marked",
        "_np",
        "_out",
        "_places",
        "_played",
        "_points",
        "_rules",
        "_start",
        "_state",
        "_turn",
        "_turns",
        "_voids",
    )  # fmt: skip

    def __init__(self) -> None:
        # The spectator's tensor, then each seat's own part (in a tensor of its own):
        self._out = array("f", bytes(4 * 5 * _SIZE))
        self._np = np.frombuffer(self._out, np.float32)
        self._state: MatchState | None = None
        self._fresh = 0  # bit 0: the spectator's tensor is up to date; bit 1 + s: seat s's part
        # What the moves since are read against (set by _take_stock):
        self._voids: list[frozenset[Suit]] = []
        self._cannot = [0, 0, 0, 0]  # cards each seat cannot hold (played ones may be left)
        self._marked = 0  # cards in some seat's cannot_hold or known_holdings row
        self._played = 0  # cards played this deal (to tricks, or laid)
        self._done = self._start = self._turns = self._places = 0
        self._turn: int | None = None
        self._points: tuple[int, ...] = ()
        self._rules = (False, 0)  # the trick contract's no_heart_lead, discard_first

    def tensor(self, state: MatchState, seat: int | None) -> npt.NDArray[np.float32]:
        """``observation_tensor(view(state, seat))``, a new array the caller owns."""
        gather = _GATHER.get(seat) if seat is None or type(seat) is int else None
        if gather is None:
            check_seat(seat)
        seen = self._state
        if state is not seen:
            self._state = state
            if not self._fresh:
                pass
            elif type(node := state.history) is History and node._prev is seen.history:  # type: ignore[union-attr]
                # One move since, a game loop's step: followed without walking back.
                if not self._after([node._move], state, seen):  # type: ignore[list-item, arg-type]
                    self._fresh = 0
            elif not self._follow(seen, state):  # type: ignore[arg-type]
                self._fresh = 0
        if not self._fresh & 1:
            self._encode_in_full(state, None)
        if seat is not None and not self._fresh >> 1 + seat & 1:
            self._encode_in_full(state, seat)
        return self._np.take(gather)  # type: ignore[arg-type]

    def __deepcopy__(self, memo: dict[int, object]) -> SeatsTracker:
        return SeatsTracker()

    def __reduce__(self) -> tuple[type[SeatsTracker], tuple[()]]:
        return (SeatsTracker, ())

    def _encode_in_full(self, state: MatchState, seat: int | None) -> None:
        """Encode the spectator's tensor (``seat=None``) or ``seat``'s own part from its
        full view of ``state``."""
        if seat is None:
            seen = view_without_moves(state, None)
            self._out[:_SIZE] = _encode_all(seen)
            self._take_stock(state, seen)
            self._fresh = 1
            return
        hand, doublable, answer = own_part(state, seat)
        out, base = self._out, (1 + seat) * _SIZE
        out[base + _HAND : base + _HAND + 52] = _ZEROS[52]
        out[base + _WINDOW.start : base + _WINDOW.stop] = _ZEROS[_WINDOW.stop - _WINDOW.start]
        _encode_card_row(hand, out, base + _HAND)
        _encode_answer(doublable, answer, out, base)
        self._fresh |= 2 << seat

    def _take_stock(self, state: MatchState, seen: View) -> None:
        """Read from the spectator's view ``seen`` what the moves from ``state`` on are to
        be read against."""
        self._voids = list(seen.voids)
        self._cannot = cannot = [_mask(cards) for cards in seen.cannot_hold]
        known = seen.known_holdings
        self._marked = (
            cannot[0] | cannot[1] | cannot[2] | cannot[3]
            | _mask(known[0]) | _mask(known[1]) | _mask(known[2]) | _mask(known[3])
        )  # fmt: skip
        deal = state.deal
        if type(deal) is TrixDeal:
            self._played = deal.table
        elif type(deal) is ComplexDeal:
            self._played = played_in_tricks(deal.tricks, deal.trick)
        else:
            self._played = 0
        self._done, self._start = len(seen.tricks), len(seen.trick)
        self._turns, self._places = len(seen.laid) + len(seen.passes), len(seen.finishing_order)
        self._turn, self._points = seen.turn, seen.points
        if state.phase in _TRICK_PHASES:
            rules = state.ruleset.trick_rules(state.contract)  # type: ignore[arg-type]
            self._rules = (rules.no_heart_lead, rules.discard_first)

    def _follow(self, seen: MatchState, state: MatchState) -> bool:
        """Bring the tensors from ``seen`` to ``state`` move by move; ``False`` (all then
        to be encoded in full) unless ``state`` follows ``seen`` in the same deal by
        moves of the kinds followed."""
        moves: list[Move] = []  # back from state to seen: the nodes, not the moves, compared
        node: History | None = state.history
        last = seen.history
        for _ in range(_CATCH_UP):
            if type(node) is not History:  # one node per move only (not a segment, not None)
                return False
            moves.append(node._move)  # type: ignore[arg-type]
            node = node._prev
            if node is last:
                break
        else:
            return False
        moves.reverse()
        return self._after(moves, state, seen)

    def _after(self, moves: list[Move], state: MatchState, seen: MatchState) -> bool:
        """Bring the tensors from ``seen`` to ``state``, the state after ``moves``; ``False``
        unless both are of the same deal and phase and the moves of the kinds followed."""
        phase = state.phase
        if (
            phase is not seen.phase
            or state.deal_number != seen.deal_number
            or state.ruleset is not seen.ruleset
            or state.scores is not seen.scores
        ):
            return False
        if phase in _TRICK_PHASES:
            return self._after_trick_cards(moves, state)
        if phase is Phase.TRIX:
            return self._after_trix_turns(moves, state)
        if phase is Phase.DOUBLE:  # a secret answer changes only what its seat sees (R-HID-2)
            for move in moves:
                if type(move) is not Double:
                    return False
                self._fresh &= ~(2 << move.seat)
            return True
        return False

    def _after_trick_cards(self, moves: list[Move], state: MatchState) -> bool:
        deal = state.deal
        if type(deal) is not ComplexDeal:
            return False
        tricks, trick = deal.tricks, deal.trick
        done, start = self._done, self._start
        finished = len(tricks) - done
        if 4 * finished + len(trick) - start != len(moves):
            return False
        out, hands = self._out, state.hands
        played, marked = self._played, self._marked
        for move in moves:
            if type(move) is not Play:
                return False
            card, who = move.card, move.seat
            bit = 1 << card
            played |= bit
            out[_PLAYED_ROW[who] + card] = 1.0
            out[_TRICK_ROW[who] + card] = 1.0
            out[_SIZES + who] = hands[who].bit_count() / 13
            out[_HAND_AT[who] + card] = 0.0
            if marked & bit:
                marked ^= bit
                _clear_column(out, card)
        self._played = played
        if finished:  # the tricks finished since: taken by their takers; a new trick led
            out[_TRICK_AND_LEADER] = _TRICK_AND_LEADER_ZEROS
            for t in tricks[done:]:
                row = _TAKEN_ROW[t.taker]
                for card in t.cards:
                    out[row + card] = 1.0
                at = _TRICKS_TAKEN + t.taker
                out[at] = _COUNT[_COUNT_OF[out[at]] + 1]
            leader = deal.leader
            out[_LEADER + leader] = 1.0
            for i, card in enumerate(trick):  # the new trick's cards, if any
                out[_TRICK_ROW[(leader + i) % 4] + card] = 1.0
            if deal.points != self._points:  # the cumulative scores change only between deals
                self._points = deal.points
                _encode_deal_points(deal.points, out, 0)
            self._done = len(tricks)
        self._start = len(trick)
        voids, shown = self._voids, [0, 0, 0, 0]
        no_heart_lead, discard_first = self._rules
        grew = show_trick_cards_since(voids, shown, deal, done, start, no_heart_lead, discard_first)
        if grew:
            for s in range(4):
                if grew >> s & 1:
                    _encode_void_row(s, voids[s], out, 0)
        if shown != _NOTHING_SHOWN:
            for s in range(4):
                if shown[s]:
                    marked |= self._cannot_hold(s, shown[s], played)
        self._marked = marked
        turn = state.turn
        if turn != self._turn:  # the turn mark moved
            out[_TURN + self._turn] = 0.0  # type: ignore[operator]
            out[_TURN + turn] = 1.0  # type: ignore[operator]
            self._turn = turn
        return True

    def _after_trix_turns(self, moves: list[Move], state: MatchState) -> bool:
        deal = state.deal
        if type(deal) is not TrixDeal:
            return False
        turns = self._turns
        if state.ruleset.show_twos and turns < 4 <= turns + len(moves):
            return False  # R-OPT-7: the 2s are shown now
        out, hands = self._out, state.hands
        table, marked, final = self._played, self._marked, deal.table
        for move in moves:
            if type(move) is Play:
                card, who = move.card, move.seat
                bit = 1 << card
                if table & bit:
                    return False
                table |= bit
                out[_PLAYED_ROW[who] + card] = 1.0
                out[_SIZES + who] = hands[who].bit_count() / 13
                out[_HAND_AT[who] + card] = 0.0
                if marked & bit:
                    marked ^= bit
                    _clear_column(out, card)
            elif type(move) is Pass:
                who = move.seat
                _count_pass(who, out, 0)
                marked |= self._cannot_hold(who, shown_by_pass(table), final)
            else:
                return False
        if table != final:
            return False
        self._played, self._marked, self._turns = table, marked, turns + len(moves)
        order = deal.finishing_order
        if len(order) != self._places:
            _encode_places(order, out, 0, self._places)
            self._places = len(order)
        self._move_turn(state.turn)
        return True

    def _move_turn(self, turn: int | None) -> None:
        """Move the turn mark to ``turn``, after any followed moves."""
        if turn != self._turn:
            if self._turn is not None:
                self._out[_TURN + self._turn] = 0.0
            if turn is not None:
                self._out[_TURN + turn] = 1.0
            self._turn = turn

    def _cannot_hold(self, seat: int, shown: int, played: int) -> int:
        """Add the cards ``shown`` (but those ``played``) to what ``seat`` cannot hold;
        the cards added."""
        more = shown & ~self._cannot[seat] & ~played
        if more:
            self._cannot[seat] |= more
            _encode_card_row(cards_of(more), self._out, _CANNOT_ROW[seat])
        return more


class TensorTracker:
    """One seat's (or the spectator's, ``seat=None``) observation tensor of a match,
    kept up to date from the moves themselves: a :class:`SeatsTracker` asked for
    that one seat.

    :meth:`tensor` is always bit-identical to
    ``observation_tensor(view(state, seat))``; see :class:`SeatsTracker` for
    the moves it follows and what it encodes in full.  Each call hands out a
    new array the caller owns.  A deep copy or a pickle is a new, empty tracker.

    >>> import random
    >>> import numpy as np
    >>> import trixcomplex as tc
    >>> tracker = TensorTracker(2)
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(5)))
    >>> for _ in range(30):
    ...     tensor = tracker.tensor(state)
    ...     state = tc.apply(state, tc.legal_moves(state)[0])
    >>> np.array_equal(tracker.tensor(state), observation_tensor(tc.view(state, 2)))
    True
    """

    def __init__(self, seat: int | None) -> None:
        if seat is not None:
            check_seat(seat)
        self.seat = seat
        self._tracker = SeatsTracker()

    def tensor(self, state: MatchState) -> npt.NDArray[np.float32]:
        """``observation_tensor(view(state, seat))``, a new array the caller owns."""
        return self._tracker.tensor(state, self.seat)

    def __deepcopy__(self, memo: dict[int, object]) -> TensorTracker:
        return TensorTracker(self.seat)

    def __reduce__(self) -> tuple[type[TensorTracker], tuple[int | None]]:
        return (TensorTracker, (self.seat,))


def _clear_column(out: _Buffer, card: Card) -> None:
    """Take the card just played out of every seat's cannot_hold and known_holdings:
    they are of unplayed cards only."""
    for row in _CANNOT, _CANNOT + 52, _CANNOT + 104, _CANNOT + 156:
        out[row + card] = 0.0
    for row in _KNOWN, _KNOWN + 52, _KNOWN + 104, _KNOWN + 156:
        out[row + card] = 0.0


def _mask(cards: Sequence[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def observation_string(view: View) -> str:
    """The plain-text form of ``view``: the table as its seat sees it
    (:func:`trixcomplex.io.render.table_text`), built from the view only."""
    return table_text(view)


class Observer:
    """The seats' (and the spectator's) views and tensors of one match, each brought up
    to date only when asked for: a view by :func:`~trixcomplex.view_after_moves`
    over the moves since that seat's last one, a tensor by one
    :class:`SeatsTracker` for them all, from the moves themselves.

    Follow one match forward: ask with its successive states (any state of it,
    not each one); a state of another branch or match is seen in full.  Equal
    to ``view(state, seat)`` and ``observation_tensor(view(state, seat))``
    always.  Each tensor handed out is a new array the caller owns.  A deep
    copy (OpenSpiel's ``clone``) or a pickle starts afresh, empty.

    >>> import random
    >>> import numpy as np
    >>> import trixcomplex as tc
    >>> observer = Observer()
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(5)))
    >>> for _ in range(12):
    ...     tensor = observer.tensor(state, state.turn)
    ...     state = tc.apply(state, tc.legal_moves(state)[0])
    >>> observer.view(state, 1) == tc.view(state, 1)
    True
    >>> np.array_equal(observer.tensor(state, 1), observation_tensor(tc.view(state, 1)))
    True
    """

    def __init__(self) -> None:
        self._views: dict[int | None, tuple[MatchState, View]] = {}
        self._tracker = SeatsTracker()

    def view(self, state: MatchState, seat: int | None) -> View:
        """``view(state, seat)``, from this seat's last view if there is one."""
        seen = self._views.get(seat)
        if seen is not None and seen[0] is state:
            return seen[1]
        new = None
        since = len(state.history) - len(seen[0].history) if seen is not None else 0
        if seen is not None and since > 0:
            moves = list(islice(state.history.newest_first(), since + 1))
            before = moves.pop() if len(moves) > since else None
            if before is seen[0].history.last:  # the state follows the one seen last
                moves.reverse()
                new = view_after_moves(seen[1], moves, state)
        if new is None:
            new = view(state, seat)
        self._views[seat] = (state, new)
        return new

    def tensor(self, state: MatchState, seat: int | None) -> npt.NDArray[np.float32]:
        """``observation_tensor(view(state, seat))``, kept up to date by the observer's
        :class:`SeatsTracker`: a new array the caller owns."""
        return self._tracker.tensor(state, seat)

    def __deepcopy__(self, memo: dict[int, object]) -> Observer:
        return Observer()

    def __reduce__(self) -> tuple[type[Observer], tuple[()]]:
        return (Observer, ())
