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
"""

from . import rules
from .cards import ALL_CARDS, Card, CardParseError, Rank, Suit, parse_card
from .complex import ComplexDeal, Trick
from .doubling import DoublingWindow
from .errors import IllegalMoveError, TrixError
from .events import events
from .hosting import SubmitError, submit, timeout_move
from .ledger import LedgerEntry, ledger
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
from .playout import playout
from .records import Meta, Record, RecordError, replay, replay_json, replay_report
from .render import Picture, picture
from .rulesets import (
    CLASSIC,
    CLASSIC_PARTNERSHIP,
    INDIVIDUAL_COMPLEX,
    PARTNERSHIP,
    RULESETS,
    Ruleset,
    TrickRules,
)
from .schema import json_schema
from .scoresheet import format_scoresheet
from .scoring import DealResult, DoubledCard, MatchResult, Score, SeatBreakdown
from .seats import next_seat, partner, team_of
from .serialize import StateFormatError, dumps, from_json, loads, to_json
from .simulate import Tournament, simulate
from .state import History, MatchState, Phase
from .trix import TrixDeal
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
    "Card",
    "CardParseError",
    "Choose",
    "ComplexDeal",
    "Contract",
    "Deal",
    "DealResult",
    "Double",
    "DoubledCard",
    "DoublingWindow",
    "History",
    "IllegalMoveError",
    "LedgerEntry",
    "MatchResult",
    "MatchState",
    "Meta",
    "Move",
    "MoveFormatError",
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
]
