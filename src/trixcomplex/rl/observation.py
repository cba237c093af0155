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

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..actions import CONTRACTS, DOUBLABLE_CARDS
from ..cards import Card
from ..engine import Phase
from ..render import table_text
from ..views import View

__all__ = [
    "OBSERVATION_BOUND",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SHAPE",
    "OBSERVATION_VERSION",
    "RULESET_OPTIONS",
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


def observation_tensor(view: View) -> npt.NDArray[np.float32]:
    """The float32 tensor of shape :data:`OBSERVATION_SHAPE` encoding ``view``.

    Built from the view only (see the module docs for the layout).
    """
    out = np.zeros(OBSERVATION_SHAPE, dtype=np.float32)
    me = view.seat if view.seat is not None else 0

    def rel(seat: int) -> int:
        return (seat - me) % 4

    ones: list[int] = []

    def cards(name: str, row: int, seq: Sequence[Card]) -> None:
        base = _at_of(name, row)
        ones.extend(base + int(c) for c in seq)

    cards("hand", 0, view.hand)
    if view.leader is not None:
        for tr in view.tricks:
            for i, card in enumerate(tr.cards):
                who = rel(tr.leader + i)
                ones.append(_at_of("played", who, int(card)))
                ones.append(_at_of("taken", rel(tr.taker), int(card)))
            out[_at_of("tricks_taken", rel(tr.taker))] += 1 / 13
        for i, card in enumerate(view.trick):
            who = rel(view.leader + i)
            ones.append(_at_of("played", who, int(card)))
            ones.append(_at_of("trick", who, int(card)))
        ones.append(_at_of("leader", rel(view.leader)))
    for seat, card in view.laid:
        ones.append(_at_of("played", rel(seat), int(card)))
    for seat in range(4):
        r = rel(seat)
        ones.extend(_at_of("voids", r, int(suit)) for suit in view.voids[seat])
        cards("cannot_hold", r, view.cannot_hold[seat])
        cards("known_holdings", r, view.known_holdings[seat])
        out[_at_of("hand_sizes", r)] = view.hand_sizes[seat] / 13
        out[_at_of("scores", r)] = view.score.seats[seat] / SCORE_SCALE
        out[_at_of("points", r)] = view.points[seat] / POINTS_SCALE
    for card, doubler in view.doubled:
        ones.append(_at_of("doubled", rel(doubler), _DOUBLE_INDEX[card]))
    if view.doubling_open:
        ones.append(_at_of("doubling_open"))
    ones.extend(_at_of("doublable", _DOUBLE_INDEX[c]) for c in view.doublable)
    if view.my_answer is not None:
        ones.append(_at_of("my_answer"))
        ones.extend(_at_of("my_answer", 1 + _DOUBLE_INDEX[c]) for c in view.my_answer)
    for seat, _ in view.passes:
        out[_at_of("passes", rel(seat))] += 1 / 13
    for place, seat in enumerate(view.finishing_order):
        ones.append(_at_of("finishing_order", rel(seat), place))
    ones.append(_at_of("phase", _PHASE_INDEX[view.phase]))
    if view.contract is not None:  # a combined deal (R-OPT-9): one 1 per part
        ones.extend(_at_of("contract", _CONTRACT_INDEX[p]) for p in view.contract.parts)
    ones.extend(_at_of("remaining_contracts", _CONTRACT_INDEX[c]) for c in view.remaining_contracts)
    if view.kingdom:
        ones.append(_at_of("kingdom", view.kingdom - 1))
    ruleset = view.ruleset
    if view.deal_number:
        before = sum(
            1 for r in view.score.deals if r.kingdom == view.kingdom and r.number < view.deal_number
        )  # the deals of this Kingdom before this one (fewer under R-OPT-9)
        ones.append(_at_of("deal_in_kingdom", before))
    out[_at_of("match_progress")] = view.deal_number / ruleset.deals_per_match
    if view.owner is not None:
        ones.append(_at_of("owner", rel(view.owner)))
    if view.turn is not None:
        ones.append(_at_of("turn", rel(view.turn)))
    ones.extend(_at_of("redeals", rel(seat)) for seat in view.redeals)
    mine = me % 2
    out[_at_of("teams", 0)] = view.score.teams[mine] / SCORE_SCALE
    out[_at_of("teams", 1)] = view.score.teams[1 - mine] / SCORE_SCALE
    ones.extend(
        _at_of("ruleset", i) for i, option in enumerate(RULESET_OPTIONS) if getattr(ruleset, option)
    )
    if view.seat is None:
        ones.append(_at_of("is_spectator"))
    out[ones] = 1.0
    return out


def observation_string(view: View) -> str:
    """The plain-text form of ``view``: the table as its seat sees it
    (:func:`trixcomplex.render.table_text`), built from the view only."""
    return table_text(view)
