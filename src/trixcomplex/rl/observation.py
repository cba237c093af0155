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

from ..actions import CONTRACTS, DOUBLABLE_CARDS
from ..cards import Card
from ..engine import MatchState, Phase, Trick
from ..render import table_text
from ..views import View, view, view_after_moves

__all__ = [
    "OBSERVATION_BOUND",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SHAPE",
    "OBSERVATION_VERSION",
    "RULESET_OPTIONS",
    "Observer",
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
    leader = view.leader
    assert leader is not None
    cards = view.trick
    for i in range(start, len(cards)):
        who = 52 * ((leader + i - me) % 4) + cards[i]
        out[_PLAYED + who] = 1.0
        out[_TRICK + who] = 1.0
    out[_LEADER + (leader - me) % 4] = 1.0


def _encode_laid(laid: Sequence[tuple[int, Card]], out: _Buffer, me: int) -> None:
    for seat, card in laid:
        out[_PLAYED + 52 * ((seat - me) % 4) + card] = 1.0


def _encode_voids(view: View, out: _Buffer, me: int) -> None:
    for seat in range(4):
        row = _VOIDS + 4 * ((seat - me) % 4)
        for suit in view.voids[seat]:
            out[row + suit] = 1.0


def _encode_cannot_hold(view: View, out: _Buffer, me: int) -> None:
    _encode_per_seat_cards(view.cannot_hold, _CANNOT, out, me)


def _encode_known_holdings(view: View, out: _Buffer, me: int) -> None:
    _encode_per_seat_cards(view.known_holdings, _KNOWN, out, me)


def _encode_per_seat_cards(
    per_seat: tuple[tuple[Card, ...], ...], base: int, out: _Buffer, me: int
) -> None:
    for seat in range(4):
        row = base + 52 * ((seat - me) % 4)
        for card in per_seat[seat]:
            out[row + card] = 1.0


def _encode_sizes(view: View, out: _Buffer, me: int) -> None:
    sizes = view.hand_sizes
    for seat in range(4):
        out[_SIZES + (seat - me) % 4] = sizes[seat] / 13


def _encode_points(view: View, out: _Buffer, me: int) -> None:
    points = view.points
    for seat in range(4):
        out[_POINTS + (seat - me) % 4] = points[seat] / POINTS_SCALE


def _encode_scores(view: View, out: _Buffer, me: int) -> None:
    """scores and teams: the cumulative scores, the viewer's team first."""
    score = view.score
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
    for card in view.doublable:
        out[_DOUBLABLE + _DOUBLE_INDEX[card]] = 1.0
    if view.my_answer is not None:
        out[_ANSWER] = 1.0
        for card in view.my_answer:
            out[_ANSWER + 1 + _DOUBLE_INDEX[card]] = 1.0


def _encode_passes(view: View, out: _Buffer, me: int, start: int = 0) -> None:
    """The TRIX passes (from the ``start``-th): one more pass for each passer."""
    passes = view.passes
    for i in range(start, len(passes)):
        at = _PASSES + (passes[i][0] - me) % 4
        out[at] = _COUNT[_COUNT_OF[out[at]] + 1]


def _encode_order(view: View, out: _Buffer, me: int) -> None:
    for place, seat in enumerate(view.finishing_order):
        out[_ORDER + 4 * ((seat - me) % 4) + place] = 1.0


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
    if view.turn is not None:
        out[_TURN + (view.turn - me) % 4] = 1.0


def _encode_redeals(view: View, out: _Buffer, me: int) -> None:
    for seat in view.redeals:
        out[_REDEALS + (seat - me) % 4] = 1.0


def _encode_ruleset(view: View, out: _Buffer, me: int) -> None:
    """ruleset and is_spectator."""
    for i, option in enumerate(RULESET_OPTIONS):
        if getattr(view.ruleset, option):
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
_ZEROS[_TRICK_AND_LEADER.stop - _TRICK_AND_LEADER.start] = array(
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
        out = array("f", _ZERO_BYTES)
        for _, _, encode in _SECTIONS:
            encode(view, out, me)
        return np.frombuffer(out, np.float32)
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
            out[_TRICK_AND_LEADER] = _ZEROS[_TRICK_AND_LEADER.stop - _TRICK_AND_LEADER.start]
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
            for card in new[seat]:
                out[row + card] = 1.0


def _passes_since(view: View, before: View, out: _Buffer, me: int) -> bool:
    """Count in ``out`` (``before``'s tensor) the passes made since ``before``, when
    ``before``'s passes are the start of ``view``'s; ``False`` otherwise."""
    done = len(before.passes)
    if len(view.passes) < done or view.passes[:done] != before.passes:
        return False
    _encode_passes(view, out, me, start=done)
    return True


def observation_string(view: View) -> str:
    """The plain-text form of ``view``: the table as its seat sees it
    (:func:`trixcomplex.render.table_text`), built from the view only."""
    return table_text(view)


class Observer:
    """The seats' (and the spectator's) views and tensors of one match, each brought up
    to date only when asked for: by :func:`~trixcomplex.view_after_moves` over the
    moves since that seat's last one, and :func:`observation_tensor` incrementally.

    Follow one match forward: ask with its successive states (any state of it,
    not each one); a state of another match needs a new observer.  Equal to
    ``view(state, seat)`` and ``observation_tensor(view(state, seat))`` always.
    The tensors it keeps are read-only; copy one before changing it.  A
    deep copy (OpenSpiel's ``clone``) or a pickle starts afresh, empty.

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
        self._tensors: dict[int | None, tuple[View, npt.NDArray[np.float32]]] = {}

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
        """``observation_tensor(view(state, seat))`` (read-only), from this seat's last one."""
        seen = self.view(state, seat)
        kept = self._tensors.get(seat)
        if kept is not None and kept[0] is seen:
            return kept[1]
        tensor = observation_tensor(seen, previous=kept)
        tensor.flags.writeable = False
        self._tensors[seat] = (seen, tensor)
        return tensor

    def __deepcopy__(self, memo: dict[int, object]) -> Observer:
        return Observer()

    def __reduce__(self) -> tuple[type[Observer], tuple[()]]:
        return (Observer, ())
