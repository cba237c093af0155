"""Observation tensors: a fixed-shape float32 encoding of one seat's :class:`~trixcomplex.View`.

The tensor is a pure function of the view, so it can hold nothing the seat
cannot see (R-HID-1 … R-HID-3): worlds a seat cannot tell apart give it the
same view and therefore bit-identical tensors.

Seats are *relative* to the viewer: index 0 is the viewer, 1 the next seat
(its right, R-SEAT-1), 2 its partner, 3 the seat before it; the spectator's
tensor is relative to seat 0.  Cards are indexed ``suit * 13 + rank - 2``
(the action ids of plays).  The layout is :data:`OBSERVATION_LAYOUT`, a
tuple of ``(name, shape)`` segments laid end to end.

The package has one module per job: :mod:`~trixcomplex.rl.observation.layout`
(the segments and offsets), :mod:`~trixcomplex.rl.observation.encoders` (a view
into its tensor), :mod:`~trixcomplex.rl.observation.trackers` (tensors kept up to
date from the moves), :mod:`~trixcomplex.rl.observation.observers` (the trackers
the adapters hold) and :mod:`~trixcomplex.rl.observation.text` (the string
form); every name is importable from here.



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

from .encoders import observation_tensor
from .layout import (
    OBSERVATION_BOUND,
    OBSERVATION_LAYOUT,
    OBSERVATION_SHAPE,
    OBSERVATION_VERSION,
    PHASES,
    POINTS_SCALE,
    RULESET_OPTIONS,
    SCORE_SCALE,
    segment,
)
from .observers import Observer, TensorTracker
from .text import observation_string
from .trackers import SeatsTracker

__all__ = [
    "OBSERVATION_BOUND",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SHAPE",
    "OBSERVATION_VERSION",
    "PHASES",
    "POINTS_SCALE",
    "RULESET_OPTIONS",
    "SCORE_SCALE",
    "Observer",
    "SeatsTracker",
    "TensorTracker",
    "observation_string",
    "observation_tensor",
    "segment",
]
