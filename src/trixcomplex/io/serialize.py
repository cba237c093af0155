"""JSON for states and views: :func:`to_json` and :func:`from_json`.

``to_json(obj)`` gives JSON-safe data (only dicts, lists, strings, ints,
booleans and ``None``) for a :class:`~trixcomplex.MatchState`, a
:class:`~trixcomplex.View` or any frozen attrs class made of cards, enums,
ints, strings, ``None``, tuples, frozensets, moves and nested attrs
classes.  Cards are written as their codes (``"TD"``), enums by value
(suits by letter), tuples as lists, frozensets as sorted lists, moves as
their record-format objects.

A *card set* is an ``int`` (52-bit mask) in the engine; it is written as a
list of card codes only where the field is declared a card set: the
engine's own card-set fields (``MatchState.hands``, ``DoublingWindow.asked``
and ``answers``, ``TrixDeal.table``) and any attrs field whose metadata
holds the key :data:`~trixcomplex.io.value_converter.CARDS`
(``field(metadata={CARDS: True})``).  Every other ``int`` stays a number.

A state is saved with its whole move history next to its fields, so that
loading it (:func:`from_json`) can check it the strongest way: the moves
are replayed through the engine and every saved field must equal the
rebuilt state's, or :class:`StateFormatError` is raised.  A reconnect
therefore restores the match exactly and never reshuffles (R-MATCH-2).

This module is the public face: the converter and its hooks live in
:mod:`trixcomplex.io.value_converter`, the saved-state format (writing it,
reading it back the fast or the checked way) in
:mod:`trixcomplex.io.state_json`.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(2)))
>>> data = tc.to_json(state)
>>> data["format"], data["state"]["phase"], len(data["state"]["hands"][0])
('trixcomplex-state', 'CHOOSE', 13)
>>> tc.from_json(tc.MatchState, data) == state
True
>>> data["state"]["scores"] = [100, 0, 0, 0]
>>> try:
...     tc.from_json(tc.MatchState, data)
... except tc.StateFormatError as exc:
...     print(exc)
state.scores does not match the state its moves rebuild (altered or corrupt)
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from ..core.engine import History, MatchState
from ..core.errors import TrixError
from ..core.jsonio import loads as parse_json
from ..knowledge.viewcheck import check_view
from ..knowledge.views import View
from .records import Record, RecordError, describe_error
from .state_json import (
    STATE_FORMAT,
    STATE_VERSION,
    StateFormatError,
    check_plain,
    load_state,
    state_error,
    state_to_json,
)
from .value_converter import CARDS, converter

__all__ = [
    "CARDS",
    "STATE_FORMAT",
    "STATE_VERSION",
    "StateFormatError",
    "dumps",
    "from_json",
    "loads",
    "to_json",
]

T = TypeVar("T")


def to_json(obj: object) -> Any:
    """JSON-safe data for ``obj`` (a state, a view, any frozen attrs value).

    The result is plain Python data (dicts, lists, strings, ints, booleans,
    ``None``), not text: pass it to :func:`json.dumps`, or call :func:`dumps`
    for the JSON text itself.

    A :class:`~trixcomplex.MatchState` is written as ``{"format":
    "trixcomplex-state", "version": 2, "ruleset": "partnership", "moves":
    [...], "state": {...}}``: its ruleset's name (``state.ruleset.name``),
    its move history (as in a record) and every other field.  A
    :class:`~trixcomplex.Ruleset`, wherever it appears (a state, a view, any
    attrs field), is written as its name and read back with
    :meth:`~trixcomplex.Ruleset.from_name` (R-SET-1).  A
    :class:`~trixcomplex.Record` is written in its record form
    (:meth:`~trixcomplex.Record.to_json`).

    >>> import trixcomplex as tc
    >>> data = tc.to_json(tc.score(tc.new_match()))
    >>> data["seats"], data["teams"], data["deals"], data["result"], data["winners"]
    ([0, 0, 0, 0], [0, 0], [], None, [])
    """
    if isinstance(obj, MatchState):
        return state_to_json(obj)
    if isinstance(obj, Record):
        return obj.to_json()
    if isinstance(obj, History):
        return [converter.unstructure(m) for m in obj.moves()]
    return converter.unstructure(obj)


def from_json(cls: type[T], data: object) -> T:
    """The value of type ``cls`` that :func:`to_json` wrote as ``data``.

    For a :class:`~trixcomplex.MatchState` the saved moves are replayed and
    every saved field is compared with the rebuilt state; any difference
    (a tampered or corrupt state) raises :class:`StateFormatError`, as do
    malformed data, unknown keys and wrong types.  Nothing is half-loaded.
    """
    if cls is MatchState:
        return load_state(data)  # type: ignore[return-value]
    if cls is Record:
        return Record.from_json(data)  # type: ignore[return-value]
    check_plain(data, "the data")
    try:
        value = converter.structure(data, cls)
    except RecordError as exc:
        raise state_error(exc) from None
    except Exception as exc:  # cattrs error groups included
        raise StateFormatError(describe_error(exc)) from None
    if isinstance(value, View):
        try:
            check_view(value)
        except TrixError as exc:
            raise StateFormatError(str(exc), rule=exc.rule, code=exc.code) from None
    return value


def dumps(obj: object, *, indent: int | None = None) -> str:
    """The JSON text of ``obj``: what a server sends, a file holds.

    ``obj`` is anything :func:`to_json` takes (a state, a view, a record, a
    score, any frozen attrs value) or a :class:`~trixcomplex.TrixError`
    (its :meth:`~trixcomplex.TrixError.to_json` object).  Compact unless
    ``indent`` is given; non-ASCII characters are written as they are.
    :func:`loads` reads the text back.

    >>> import trixcomplex as tc
    >>> tc.dumps(tc.Play(0, "QS"))
    '{"move":"play","seat":0,"card":"QS"}'
    >>> tc.dumps(tc.TrixError("no such thing", code="json.invalid"))
    '{"code":"json.invalid","message":"no such thing","rule":null,"index":null}'
    """
    data = obj.to_json() if isinstance(obj, TrixError) else to_json(obj)
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(data, indent=indent, separators=separators, ensure_ascii=False)


def loads(kind: type[T], text: str | bytes | bytearray) -> T:
    """The value of type ``kind`` whose JSON text :func:`dumps` wrote.

    The text is parsed strictly (a key named twice, ``NaN``, text over the
    input limits: a :class:`~trixcomplex.TrixError` with a ``json.*`` code),
    then read as :func:`from_json` reads data: a state is rebuilt from its
    moves and checked field by field, a view is checked against the rules.
    Nothing is half-loaded.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(2)))
    >>> tc.loads(tc.MatchState, tc.dumps(state)) == state
    True
    >>> tc.loads(tc.View, tc.dumps(tc.view(state, 1))) == tc.view(state, 1)
    True
    >>> tc.loads(tc.Record, '{"format": "trixcomplex-record", "format": 1}')
    Traceback (most recent call last):
    ...
    trixcomplex.core.errors.TrixError: invalid JSON: the key "format" appears twice in an object
    """
    return from_json(kind, parse_json(text))
