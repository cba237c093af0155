"""The engine face: the one door into the rules for everything above them.

``new_match``, ``legal_moves``, ``apply``, ``apply_moves``, ``apply_step``, ``forced_move``,
``is_legal`` and ``score`` (implemented by :mod:`trixcomplex.core.match`, the
match flow, with the deal runner :mod:`trixcomplex.core.runner`), and the values
they work on.

Layers 5 and 6 (views, worlds, records, serialization, playouts, rendering,
bots, the host loop, the CLI …) import the engine from here and the rule
helpers from :mod:`trixcomplex.core.rules`, never from the state and contract
modules (``state``, ``complex``, ``trix``, ``doubling``, ``scoring``,
``kingdoms``); an import-linter contract (``tests/test_layers.py``) holds
them to it.  Everything here is also in the top-level :mod:`trixcomplex`
API.
"""

from __future__ import annotations

from typing import Any

from .doubling import DoublingWindow
from .legal import forced_move, legal_moves
from .match import apply, apply_moves, apply_step, is_legal, new_match, score
from .scoring import DealResult, DoubledCard, MatchResult, Score, SeatBreakdown
from .state import History, MatchState, Phase
from .tricks import Trick, TrickDeal, renamed
from .trix import TrixDeal

__all__ = [
    "DealResult",
    "DoubledCard",
    "DoublingWindow",
    "History",
    "MatchResult",
    "MatchState",
    "Phase",
    "Score",
    "SeatBreakdown",
    "Trick",
    "TrickDeal",
    "TrixDeal",
    "apply",
    "apply_moves",
    "apply_step",
    "forced_move",
    "is_legal",
    "legal_moves",
    "new_match",
    "score",
]


def __getattr__(name: str) -> Any:
    """``ComplexDeal``: the deprecated old name of :class:`TrickDeal`."""
    return renamed(__name__, name)
