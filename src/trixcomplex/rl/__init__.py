"""Reinforcement-learning and game-AI adapters (the ``[rl]`` extra: numpy, PettingZoo,
Gymnasium; the ``[openspiel]`` extra for :mod:`trixcomplex.rl.openspiel`).

- :func:`observation_tensor`, :data:`OBSERVATION_SHAPE`, :func:`observation_string`:
  a seat's :class:`~trixcomplex.View` as a fixed-shape float32 tensor and as text;
  :class:`TensorTracker`: one seat's tensor kept up to date from the moves;
  :class:`SeatsTracker`: several seats' tensors kept up to date together;
  :class:`Observer`: every seat's view and tensor of a match, kept up to date
  incrementally.
- :mod:`trixcomplex.rl.table`: the sequential table every adapter plays on.
- :mod:`trixcomplex.rl.pettingzoo`: ``env()``, ``raw_env``, ``parallel_env()``.
- :mod:`trixcomplex.rl.gymnasium`: ``SeatEnv``, one seat learning against bots.
- :mod:`trixcomplex.rl.openspiel`: the OpenSpiel game ``"python_trix_complex"``, and
  ``ISMCTSPlayer``, OpenSpiel's ISMCTS as a trixcomplex bot.

``import trixcomplex`` never imports this package; importing it needs numpy (without
it: a :class:`~trixcomplex.MissingExtraError` naming the ``rl`` extra).
Integer actions live in the core, :mod:`trixcomplex.io.actions`.
"""

from __future__ import annotations

from ..core.extras import needs_extra

with needs_extra("rl", "trixcomplex.rl"):  # numpy missing: the error names the extra
    from .observation import (
        OBSERVATION_LAYOUT,
        OBSERVATION_SHAPE,
        OBSERVATION_VERSION,
        Observer,
        SeatsTracker,
        TensorTracker,
        observation_string,
        observation_tensor,
        segment,
    )


__all__ = [
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SHAPE",
    "OBSERVATION_VERSION",
    "Observer",
    "SeatsTracker",
    "TensorTracker",
    "observation_string",
    "observation_tensor",
    "segment",
]
