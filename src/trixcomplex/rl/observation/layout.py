"""The layout of an observation tensor: its segments, where each one starts, its scales.

The tensor is one flat float32 vector, the segments of :data:`OBSERVATION_LAYOUT`
laid end to end (:data:`OBSERVATION_SHAPE`); :func:`segment` reads one back in its
shape.  The encoders (:mod:`trixcomplex.rl.observation.encoders`) and the trackers
(:mod:`trixcomplex.rl.observation.trackers`) write at the offsets named here
(``AT_HAND`` … ``AT_SPECTATOR``), into a ``Buffer`` (an ``array("f")``).

>>> OBSERVATION_SHAPE[0] == sum(int(np.prod(shape)) for _, shape in OBSERVATION_LAYOUT)
True
>>> OFFSET["hand"], span("doubling_open", "my_answer").start == OFFSET["doubling_open"][0]
((0, (52,)), True)
"""

from __future__ import annotations

from array import array
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from ...core.engine import Phase
from ...io.actions import CONTRACTS, DOUBLABLE_CARDS

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
"""The phases of the ``phase`` segment, in order (TRICKS shares COMPLEX's entry)."""
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
"""The points of the deal in progress are divided by this."""
OBSERVATION_BOUND = 64.0
"""No entry of a tensor is ever larger in size (the scaled scores stay far inside it)."""

N_DOUBLABLE = len(DOUBLABLE_CARDS)
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
    ("doubled", (4, N_DOUBLABLE)),  # revealed doubles: doubler x DOUBLABLE_CARDS
    ("doubling_open", (1,)),
    ("doublable", (N_DOUBLABLE,)),  # the viewer's own pending doublable cards
    ("my_answer", (1 + N_DOUBLABLE,)),  # answered?, then the cards the viewer doubled
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

OFFSET: dict[str, tuple[int, tuple[int, ...]]] = {}
_at = 0
for _name, _shape in OBSERVATION_LAYOUT:
    OFFSET[_name] = (_at, _shape)
    _at += int(np.prod(_shape))
OBSERVATION_SHAPE: tuple[int] = (_at,)
"""The tensor's shape: one flat float32 vector."""
del _at, _name, _shape

DOUBLE_INDEX = {card: i for i, card in enumerate(DOUBLABLE_CARDS)}
PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}
PHASE_INDEX[Phase.TRICKS] = PHASE_INDEX[Phase.COMPLEX]  # cards played to tricks, any contract
CONTRACT_INDEX = {contract: i for i, contract in enumerate(CONTRACTS)}


def segment(tensor: npt.NDArray[np.float32], name: str) -> npt.NDArray[np.float32]:
    """The part of ``tensor`` named ``name`` in :data:`OBSERVATION_LAYOUT`, in its shape."""
    start, shape = OFFSET[name]
    return tensor[start : start + int(np.prod(shape))].reshape(shape)


def span(*names: str) -> slice:
    """The part of the tensor spanned by the consecutive segments ``names``."""
    start = OFFSET[names[0]][0]
    end, shape = OFFSET[names[-1]]
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


COUNT = _counts()
COUNT_OF = {value: n for n, value in enumerate(COUNT)}

# The encoders write the tensor into an ``array("f")`` (float32): an item written
# there costs a fraction of one written into a numpy array, and the numpy tensor
# handed out is a view of the same memory (``np.frombuffer``).
Buffer: TypeAlias = "array[float]"
TENSOR_SIZE = OBSERVATION_SHAPE[0]
ZERO_BYTES = bytes(4 * TENSOR_SIZE)

(AT_HAND, AT_PLAYED, AT_TRICK, AT_LEADER, AT_TAKEN, AT_TRICKS_TAKEN, AT_VOIDS, AT_CANNOT,
 AT_KNOWN, AT_DOUBLED, AT_OPEN, AT_DOUBLABLE, AT_ANSWER, AT_PASSES, AT_ORDER, AT_SIZES,
 AT_PHASE, AT_CONTRACT, AT_REMAINING, AT_KINGDOM, AT_DEAL_IN_KINGDOM, AT_PROGRESS, AT_OWNER,
 AT_TURN, AT_REDEALS, AT_SCORES, AT_POINTS, AT_TEAMS, AT_RULESET,
 AT_SPECTATOR) = (OFFSET[name][0] for name, _ in OBSERVATION_LAYOUT)  # fmt: skip


SEAT_ROWS = frozenset({
    "played", "trick", "leader", "taken", "tricks_taken", "voids", "cannot_hold",
    "known_holdings", "doubled", "passes", "finishing_order", "hand_sizes", "owner", "turn",
    "redeals", "scores", "points",
})  # fmt: skip
"""The segments with a row (or an entry) per seat: relative to the viewer, the
viewer's own first (``kingdom`` is a Kingdom's number, not a seat)."""


def gather_index(seat: int | None) -> npt.NDArray[np.intp]:
    """Where each entry of ``seat``'s tensor is in a
    :class:`~trixcomplex.rl.observation.SeatsTracker`'s buffer: the
    spectator's tensor (seat 0's seats first) with its seat rows turned to
    ``seat``'s, its team first, and ``seat``'s own part (hand, doubling answer)
    from that seat's region.

    >>> int(gather_index(None)[AT_HAND]), int(gather_index(2)[AT_HAND]) == 3 * TENSOR_SIZE
    (0, True)
    """
    if seat is None:
        return np.arange(TENSOR_SIZE, dtype=np.intp)
    at: list[int] = []
    for name, shape in OBSERVATION_LAYOUT:
        start = OFFSET[name][0]
        width = int(np.prod(shape[1:])) if len(shape) > 1 else 1
        size = int(np.prod(shape))
        if name in SEAT_ROWS:
            at += [start + width * ((j // width + seat) % 4) + j % width for j in range(size)]
        elif name == "teams":  # the viewer's team first
            at += [start + seat % 2, start + 1 - seat % 2]
        elif name in ("hand", "doublable", "my_answer", "is_spectator"):
            at += [(1 + seat) * TENSOR_SIZE + start + j for j in range(size)]
        else:
            at += [start + j for j in range(size)]
    return np.array(at, dtype=np.intp)


GATHER: dict[int | None, npt.NDArray[np.intp]] = {
    seat: gather_index(seat) for seat in (None, 0, 1, 2, 3)
}
"""Each seat's (and the spectator's) :func:`gather_index`, worked out once."""
