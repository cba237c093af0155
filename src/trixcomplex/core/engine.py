"""The engine face: the one door into the rules for everything above them.

Layers 5 and 6 (views, worlds, records, serialization, playouts, rendering,
bots, the host loop, the CLI …) import the engine from here and the rule
helpers from :mod:`trixcomplex.core.rules`, never from the state and contract
modules (``state``, ``complex``, ``trix``, ``doubling``, ``scoring``,
``kingdoms``); an import-linter contract (``tests/test_layers.py``) holds
them to it.  Everything here is also in the top-level :mod:`trixcomplex`
API.
"""

from __future__ import annotations

from .doubling import DoublingWindow
from .match import apply, apply_moves, forced_move, is_legal, legal_moves, new_match, score
from .scoring import DealResult, DoubledCard, MatchResult, Score, SeatBreakdown
from .state import History, MatchState, Phase
from .tricks import ComplexDeal, Trick
from .trix import TrixDeal

__all__ = [
    "ComplexDeal",
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
    "TrixDeal",
    "apply",
    "apply_moves",
    "forced_move",
    "is_legal",
    "legal_moves",
    "new_match",
    "score",
]
