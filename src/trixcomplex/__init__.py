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
from typing import TYPE_CHECKING, Any

from . import _moved
from .core import rules
from .core.cards import ALL_CARDS, Card, CardParseError, Rank, Suit, parse_card
from .core.doubling import DoublingWindow
from .core.errors import IllegalMoveError, TrixError
from .core.legal import forced_move, legal_moves
from .core.match import apply, apply_moves, apply_step, is_legal, new_match, score
from .core.moves import (
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
from .core.rulesets import (
    CLASSIC,
    CLASSIC_PARTNERSHIP,
    INDIVIDUAL_COMPLEX,
    PARTNERSHIP,
    RULESETS,
    Ruleset,
    TrickRules,
)
from .core.scoring import DealResult, DoubledCard, MatchResult, Score, SeatBreakdown
from .core.seats import next_seat, partner, team_of
from .core.state import History, MatchState, Phase
from .core.tricks import Trick, TrickDeal, renamed
from .core.trix import TrixDeal

if TYPE_CHECKING:  # loaded on first use: see _LAZY
    from . import bots as bots
    from .core.catalog import LOCALES, LocaleError, best_locale
    from .core.extras import MissingExtraError
    from .core.playout import playout
    from .core.steps import Ask, DealCards, Forced, MatchOver, OfferRedeal, Step, next_step
    from .host.submit import SubmitError, submit, timeout_move
    from .host.tournament import Tournament, simulate
    from .io import render as render
    from .io.records import Meta, Record, RecordError, replay, replay_json, replay_report
    from .io.render import Picture, picture
    from .io.schema import json_schema
    from .io.scorekeeper import DealOutcome, OutcomeError, Scorebook, score_deal
    from .io.scoresheet import format_scoresheet
    from .io.serialize import StateFormatError, dumps, from_json, loads, to_json
    from .knowledge.events import events
    from .knowledge.ledger import LedgerEntry, ledger
    from .knowledge.views import View, view, view_after, view_after_moves
    from .knowledge.worlds import sample_world

__version__ = "0.1.0"

__all__ = [
    "ALL_CARDS",
    "CLASSIC",
    "CLASSIC_PARTNERSHIP",
    "INDIVIDUAL_COMPLEX",
    "LOCALES",
    "PARTNERSHIP",
    "RULESETS",
    "Ask",
    "Card",
    "CardParseError",
    "Choose",
    "Contract",
    "Deal",
    "DealCards",
    "DealOutcome",
    "DealResult",
    "Double",
    "DoubledCard",
    "DoublingWindow",
    "Forced",
    "History",
    "IllegalMoveError",
    "LedgerEntry",
    "LocaleError",
    "MatchOver",
    "MatchResult",
    "MatchState",
    "Meta",
    "MissingExtraError",
    "Move",
    "MoveFormatError",
    "OfferRedeal",
    "OutcomeError",
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
    "Scorebook",
    "SeatBreakdown",
    "StateFormatError",
    "Step",
    "SubmitError",
    "Suit",
    "Timeout",
    "Tournament",
    "Trick",
    "TrickDeal",
    "TrickRules",
    "TrixDeal",
    "TrixError",
    "View",
    "__version__",
    "apply",
    "apply_moves",
    "apply_step",
    "best_locale",
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
    "score_deal",
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
    "MissingExtraError": "core.extras",
    "render": "io.render",
    "events": "knowledge.events",
    "SubmitError": "host.submit",
    "submit": "host.submit",
    "timeout_move": "host.submit",
    "why_illegal": "host.submit",
    "LedgerEntry": "knowledge.ledger",
    "ledger": "knowledge.ledger",
    "playout": "core.playout",
    "Meta": "io.records",
    "Record": "io.records",
    "RecordError": "io.records",
    "replay": "io.records",
    "replay_json": "io.records",
    "replay_report": "io.records",
    "Picture": "io.render",
    "picture": "io.render",
    "json_schema": "io.schema",
    "format_scoresheet": "io.scoresheet",
    "StateFormatError": "io.serialize",
    "dumps": "io.serialize",
    "from_json": "io.serialize",
    "loads": "io.serialize",
    "to_json": "io.serialize",
    "Tournament": "host.tournament",
    "simulate": "host.tournament",
    "View": "knowledge.views",
    "view": "knowledge.views",
    "view_after": "knowledge.views",
    "view_after_moves": "knowledge.views",
    "sample_world": "knowledge.worlds",
    "Ask": "core.steps",
    "DealCards": "core.steps",
    "Forced": "core.steps",
    "MatchOver": "core.steps",
    "OfferRedeal": "core.steps",
    "Step": "core.steps",
    "next_step": "core.steps",
    "LOCALES": "core.catalog",
    "LocaleError": "core.catalog",
    "best_locale": "core.catalog",
    "DealOutcome": "io.scorekeeper",
    "OutcomeError": "io.scorekeeper",
    "Scorebook": "io.scorekeeper",
    "score_deal": "io.scorekeeper",
}
"""The names loaded on first use, with the submodule that defines each."""
_MODULES = frozenset({"bots", "render"})
"""Names of :data:`_LAZY` that are the submodule itself (``tc.render``, ``tc.bots``)."""

_moved.install()


def __getattr__(name: str) -> Any:
    """Load a name of :data:`_LAZY` on first use (PEP 562) and keep it; an old
    module path (``tc.views``) is imported through :mod:`trixcomplex._moved`."""
    module = _LAZY.get(name)
    if module is None:
        if f"{__name__}.{name}" in _moved.MOVED:  # warns: the module moved
            return importlib.import_module(f"{__name__}.{name}")
        return renamed(__name__, name)  # a deprecated old name (ComplexDeal), or AttributeError
    loaded = importlib.import_module(f"{__name__}.{module}")
    value = loaded if name in _MODULES else getattr(loaded, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
