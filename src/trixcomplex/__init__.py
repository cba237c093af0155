"""trixcomplex: a rules engine for Trix Complex Partnership (the ERAM CARDS rules).

States are immutable; moves are small frozen records; the engine is a set of
pure functions.

>>> import random
>>> import trixcomplex as tc
>>> rng = random.Random(1)
>>> state = tc.new_match()
>>> while state.phase is not tc.Phase.OVER:
...     if state.phase is tc.Phase.DEAL:
...         state = tc.apply(state, tc.Deal.shuffled(rng))
...     else:
...         state = tc.apply(state, rng.choice(tc.legal_moves(state)))
>>> sum(tc.score(state).teams)
0

``import trixcomplex`` loads the engine: cards, moves, rulesets, states,
``apply``, ``legal_moves``, ``score``.  The rest (views, records and saved
states, client input, bots and tournaments, pictures, the scoresheet, the
JSON schemas, sampled worlds, playouts, events and the ledger) loads on
first use, so the import stays cheap (see "Import time" on the performance
page); ``tc.view``, ``tc.Record``, ``tc.simulate``, ``tc.bots`` and the rest
work as if they had been imported.
"""

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

from . import rules
from .cards import ALL_CARDS, Card, CardParseError, Rank, Suit, parse_card
from .complex import ComplexDeal, Trick
from .doubling import DoublingWindow
from .errors import IllegalMoveError, TrixError
from .match import apply, apply_moves, forced_move, is_legal, legal_moves, new_match, score
from .moves import (
    Choose,
    Contract,
    Deal,
    Double,
    Move,
    MoveFormatError,
    Pass,
    Play,
    PlayerMove,
    Redeal,
    Timeout,
    move_from_json,
    move_to_json,
)
from .rulesets import (
    CLASSIC,
    CLASSIC_PARTNERSHIP,
    INDIVIDUAL_COMPLEX,
    PARTNERSHIP,
    RULESETS,
    Ruleset,
    TrickRules,
)
from .scoring import DealResult, DoubledCard, MatchResult, Score, SeatBreakdown
from .seats import next_seat, partner, team_of
from .state import History, MatchState, Phase
from .trix import TrixDeal

if TYPE_CHECKING:  # loaded on first use: see _LAZY
    from . import bots as bots
    from . import render as render
    from .events import events
    from .hosting import SubmitError, submit, timeout_move
    from .ledger import LedgerEntry, ledger
    from .playout import playout
    from .records import Meta, Record, RecordError, replay, replay_json, replay_report
    from .render import Picture, picture
    from .schema import json_schema
    from .scoresheet import format_scoresheet
    from .serialize import StateFormatError, dumps, from_json, loads, to_json
    from .simulate import Tournament, simulate
    from .steps import Ask, DealCards, Forced, MatchOver, OfferRedeal, Step, next_step
    from .views import View, view, view_after, view_after_moves
    from .worlds import sample_world

__version__ = "0.1.0"

__all__ = [
    "ALL_CARDS",
    "CLASSIC",
    "CLASSIC_PARTNERSHIP",
    "INDIVIDUAL_COMPLEX",
    "PARTNERSHIP",
    "RULESETS",
    "Ask",
    "Card",
    "CardParseError",
    "Choose",
    "ComplexDeal",
    "Contract",
    "Deal",
    "DealCards",
    "DealResult",
    "Double",
    "DoubledCard",
    "DoublingWindow",
    "Forced",
    "History",
    "IllegalMoveError",
    "LedgerEntry",
    "MatchOver",
    "MatchResult",
    "MatchState",
    "Meta",
    "Move",
    "MoveFormatError",
    "OfferRedeal",
    "Pass",
    "Phase",
    "Picture",
    "Play",
    "PlayerMove",
    "Rank",
    "Record",
    "RecordError",
    "Redeal",
    "Ruleset",
    "Score",
    "SeatBreakdown",
    "StateFormatError",
    "Step",
    "SubmitError",
    "Suit",
    "Timeout",
    "Tournament",
    "Trick",
    "TrickRules",
    "TrixDeal",
    "TrixError",
    "View",
    "__version__",
    "apply",
    "apply_moves",
    "dumps",
    "events",
    "forced_move",
    "format_scoresheet",
    "from_json",
    "is_legal",
    "json_schema",
    "ledger",
    "legal_moves",
    "loads",
    "move_from_json",
    "move_to_json",
    "new_match",
    "next_seat",
    "next_step",
    "parse_card",
    "partner",
    "picture",
    "playout",
    "replay",
    "replay_json",
    "replay_report",
    "rules",
    "sample_world",
    "score",
    "simulate",
    "submit",
    "team_of",
    "timeout_move",
    "to_json",
    "view",
    "view_after",
    "view_after_moves",
    "why_illegal",
]

_LAZY = {
    "bots": "bots",
    "render": "render",
    "events": "events",
    "SubmitError": "hosting",
    "submit": "hosting",
    "timeout_move": "hosting",
    "why_illegal": "hosting",
    "LedgerEntry": "ledger",
    "ledger": "ledger",
    "playout": "playout",
    "Meta": "records",
    "Record": "records",
    "RecordError": "records",
    "replay": "records",
    "replay_json": "records",
    "replay_report": "records",
    "Picture": "render",
    "picture": "render",
    "json_schema": "schema",
    "format_scoresheet": "scoresheet",
    "StateFormatError": "serialize",
    "dumps": "serialize",
    "from_json": "serialize",
    "loads": "serialize",
    "to_json": "serialize",
    "Tournament": "simulate",
    "simulate": "simulate",
    "View": "views",
    "view": "views",
    "view_after": "views",
    "view_after_moves": "views",
    "sample_world": "worlds",
    "Ask": "steps",
    "DealCards": "steps",
    "Forced": "steps",
    "MatchOver": "steps",
    "OfferRedeal": "steps",
    "Step": "steps",
    "next_step": "steps",
}
"""The names loaded on first use, with the submodule that defines each."""
_FUNCTION_MODULES = frozenset({"events", "ledger", "playout", "simulate"})
"""Submodules that define a function of their own name: ``tc.simulate`` is the function."""


def __getattr__(name: str) -> Any:
    """Load a name of :data:`_LAZY` on first use (PEP 562) and keep it."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    loaded = importlib.import_module(f"{__name__}.{module}")
    # Importing the submodule set it as the package's attribute: see _Package.
    value = loaded if name == module and name not in _FUNCTION_MODULES else getattr(loaded, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Package(types.ModuleType):
    """The package, which keeps ``tc.simulate`` (and the others of
    :data:`_FUNCTION_MODULES`) the function when its submodule is imported:
    the import system sets a submodule as an attribute of its package."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _FUNCTION_MODULES and isinstance(value, types.ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
