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
holds the key :data:`CARDS` (``field(metadata={CARDS: True})``).  Every
other ``int`` stays a number.

A state is saved with its whole move history next to its fields, so that
loading it (:func:`from_json`) can check it the strongest way: the moves
are replayed through the engine and every saved field must equal the
rebuilt state's, or :class:`StateFormatError` is raised.  A reconnect
therefore restores the match exactly and never reshuffles (R-MATCH-2).

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

import enum
import json
import marshal
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import IterableValidationError, IterableValidationNote
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from ..core.cards import Card, Suit, cards_of
from ..core.engine import DoublingWindow, History, MatchState, Phase, TrickDeal, TrixDeal
from ..core.errors import TrixError
from ..core.jsonio import check_json
from ..core.jsonio import loads as parse_json
from ..core.moves import Choose, Deal, Double, Pass, Play, Redeal, Timeout
from ..core.rulesets import Ruleset
from ..knowledge.viewcheck import check_view
from ..knowledge.views import View
from .records import (
    MAX_DEPTH,
    Record,
    RecordError,
    brief,
    describe_error,
    json_depth,
    replay_raw_moves,
    ruleset_of,
)
from .records import (
    converter as record_converter,
)

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

CARDS = "trixcomplex.core.cards"
"""Field metadata key marking an ``int`` field (or a tuple of them) as a card set.

``attrs.field(metadata={CARDS: True})`` makes :func:`to_json` write the
field as a list of card codes instead of a number.
"""

STATE_FORMAT = "trixcomplex-state"
"""The ``format`` value of a saved :class:`~trixcomplex.MatchState`."""
STATE_VERSION = 2
"""The state ``version`` written.  Version 2 saves the deal in progress as one
field ``deal`` (the doubling window, the trick deal or the TRIX deal) and names
a classic trick contract's phase ``TRICKS``; version 1 (fields ``window``,
``complex``, ``trix``; ``COMPLEX`` for every trick deal) is still read."""
_V1_FIELDS: dict[str, Any] = {
    "window": DoublingWindow | None,
    "complex": TrickDeal | None,
    "trix": TrixDeal | None,
}

_V1_ATTRIBUTES = {"complex": "trick_deal"}
"""The state's attribute holding a version-1 field, where the names differ."""

_ENGINE_CARD_SETS = {
    (MatchState, "hands"),
    (DoublingWindow, "asked"),
    (DoublingWindow, "answers"),
    (TrixDeal, "table"),
}
_MOVE_CLASSES = (Deal, Choose, Double, Play, Pass, Redeal, Timeout)
_STATE_KEYS = ("format", "version", "ruleset", "moves", "state")
_MAX_ITEMS = 100_000
"""Most JSON values in a view, or in a saved state's ``state`` object."""


class StateFormatError(RecordError):
    """Saved JSON that is malformed, or a state that its own moves do not rebuild.

    A :class:`~trixcomplex.RecordError` (so a :class:`~trixcomplex.TrixError`):
    for a bad move in the saved history ``index``, ``move`` and ``rule`` name
    it; ``field`` names the state field at fault, if any; ``code`` is
    ``state.malformed``, ``state.mismatch``, ``state.bad-move``,
    ``state.illegal-move`` or a ``json.*`` code.
    """

    code = "state.malformed"


def _state_error(exc: RecordError, field: str | None = None) -> StateFormatError:
    """The :class:`StateFormatError` for a record fault met while loading a state or view."""
    code = exc.code.replace("record.", "state.") if exc.code.startswith("record.") else exc.code
    if code not in ("state.bad-move", "state.illegal-move") and not code.startswith("json."):
        code = "state.malformed"
    return StateFormatError(
        exc.reason, index=exc.index, move=exc.move, rule=exc.rule, field=field, code=code
    )


def _check_plain(data: object, what: str) -> None:
    """Raise :class:`StateFormatError` unless ``data`` is plain JSON data within limits."""
    try:
        check_json(data, max_items=_MAX_ITEMS, what=what)
    except TrixError as exc:
        raise StateFormatError(str(exc), code=exc.code) from None


# -- card sets ------------------------------------------------------------------


def _is_card_set(cls: type, field: attrs.Attribute[Any]) -> bool:
    return bool(field.metadata.get(CARDS)) or (cls, field.name) in _ENGINE_CARD_SETS


def _cards_out(value: object) -> object:
    """A card set (or a tuple of them, or ``None``) as lists of card codes."""
    if value is None:
        return None
    if isinstance(value, tuple | list):
        return [_cards_out(v) for v in value]
    if type(value) is int:
        return [str(c) for c in cards_of(value)]
    raise TypeError(f"not a card set: {brief(value, 40)}")


def _cards_in(value: object, tp: object) -> object:
    """The card set(s) of type ``tp`` (``int``, ``int | None`` or tuples of them)."""
    args = get_args(tp)
    if type(None) in args:
        if value is None:
            return None
        (tp,) = (a for a in args if a is not type(None))
        args = get_args(tp)
    if tp is int:
        if not isinstance(value, list):
            raise TypeError(f"a card set is a list of card codes, not {brief(value, 40)}")
        mask = 0
        for code in value:
            card = record_converter.structure(code, Card)
            if mask >> card & 1:
                raise ValueError(f"{card} is named twice in a card set")
            mask |= 1 << card
        return mask
    if get_origin(tp) is tuple:
        if not isinstance(value, list):
            raise TypeError(f"expected a list, not {brief(value, 40)}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_cards_in(v, args[0]) for v in value)
        if len(value) != len(args):
            raise ValueError(f"expected {len(args)} items, not {len(value)}")
        return tuple(_cards_in(v, a) for v, a in zip(value, args, strict=True))
    raise TypeError(f"card-set fields must be int or tuples of int, not {tp!r}")


# -- the converter --------------------------------------------------------------


def _unstructure_enum(value: enum.Enum) -> object:
    return value.letter if isinstance(value, Suit) else value.value


def _structure_enum(value: object, tp: type[enum.Enum]) -> enum.Enum:
    if tp is Suit and isinstance(value, str) and len(value) == 1 and value in "SHDC":
        return Suit("SHDC".index(value))
    for member in tp:
        wanted = member.letter if isinstance(member, Suit) else member.value
        if type(value) is type(wanted) and value == wanted:
            return member
    raise ValueError(f"not a {tp.__name__}: {brief(value, 40)}")


def _is_enum(tp: object) -> bool:
    return isinstance(tp, type) and issubclass(tp, enum.Enum)


def _is_tuple(tp: object) -> bool:
    return tp is tuple or get_origin(tp) is tuple


def _is_set(tp: object) -> bool:
    return tp in (frozenset, set) or get_origin(tp) in (frozenset, set)


def _structure_tuple(value: object, tp: object) -> tuple[Any, ...]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, not {brief(value, 40)}")
    args = get_args(tp)
    if not args:
        raise TypeError("cannot read an untyped tuple")
    if len(args) == 2 and args[1] is Ellipsis:
        return _each(value, [args[0]] * len(value))
    if len(value) != len(args):
        raise ValueError(f"expected {len(args)} items, not {len(value)}")
    return _each(value, args)


def _each(values: list[Any], types: Sequence[Any]) -> tuple[Any, ...]:
    """Structure ``values[i]`` as ``types[i]``; a fault is reported with its index."""
    out = []
    for index, (value, tp) in enumerate(zip(values, types, strict=True)):
        try:
            out.append(_converter.structure(value, tp))
        except Exception as exc:  # cattrs error groups included
            exc.add_note(IterableValidationNote(f"Structuring @ index {index}", index, tp))
            raise IterableValidationError("while structuring a list", [exc], list) from None
    return tuple(out)


def _structure_set(value: object, tp: object) -> frozenset[Any]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, not {brief(value, 40)}")
    args = get_args(tp)
    if not args:
        raise TypeError("cannot read an untyped set")
    items = _each(value, [args[0]] * len(value))
    result = frozenset(items)
    if len(result) != len(items):
        raise ValueError("an element is named twice in a set")
    return result


def _unstructure_seq(value: tuple[Any, ...] | list[Any]) -> list[Any]:
    return [_converter.unstructure(v) for v in value]


def _unstructure_set(value: frozenset[Any] | set[Any]) -> list[Any]:
    return [_converter.unstructure(v) for v in sorted(value)]


def _attrs_unstructure(cls: type[Any]) -> Callable[[Any], dict[str, Any]]:
    attrs.resolve_types(cls)
    overrides: dict[str, Any] = {}
    for f in attrs.fields(cls):
        item = _items_of(f.type)
        if _is_card_set(cls, f):
            overrides[f.name] = override(unstruct_hook=_cards_out)
        elif cls is MatchState and f.name == "history":
            overrides[f.name] = override(omit=True)
        elif f.type in _PLAIN or f.type in _INTS:
            overrides[f.name] = override(unstruct_hook=_PLAIN_HOOKS[f.type])
        elif item is not None:
            overrides[f.name] = override(unstruct_hook=_seq_of(item))
        else:
            # Unstructure by the value's own type: unions, moves, Cards in int slots.
            overrides[f.name] = override(unstruct_hook=_converter.unstructure)
    return make_dict_unstructure_fn(cls, _converter, **overrides)


def _plain_or(kind: type) -> Callable[[Any], Any]:
    """A hook writing a value of type ``kind`` (``int``, ``bool``, ``str``) as it is,
    and any other value (a :class:`~trixcomplex.Card` in an ``int`` field) by its own type."""

    def hook(value: Any) -> Any:
        return value if type(value) is kind else _converter.unstructure(value)

    return hook


def _ints_or(value: tuple[Any, ...]) -> list[Any]:
    """A tuple of ``int`` written as a list, any other item by its own type."""
    return [v if type(v) is int else _converter.unstructure(v) for v in value]


def _items_of(tp: object) -> type | None:
    """The item type of ``tuple[X, ...]`` or ``tuple[X, X, ...]`` when ``X`` is a card
    or a record class (written by a hook of their own), else ``None``."""
    if get_origin(tp) is not tuple:
        return None
    args = [a for a in get_args(tp) if a is not Ellipsis]
    item = args[0] if args and all(a is args[0] for a in args) else None
    return item if item is Card or _is_record_class(item) else None


def _seq_of(item: type) -> Callable[[tuple[Any, ...]], list[Any]]:
    """A hook writing a tuple of ``item`` values as a list, each by ``item``'s own hook
    (any other value by its own type)."""
    hooks: list[Callable[[Any], Any]] = []  # found on first use: the converter is built

    def hook(value: tuple[Any, ...]) -> list[Any]:
        if not hooks:
            hooks.append(_converter.get_unstructure_hook(item))
        each = hooks[0]
        return [each(v) if type(v) is item else _converter.unstructure(v) for v in value]

    return hook


_PLAIN: tuple[Any, ...] = (int, bool, str)
"""Field types whose values are written as they are when they have exactly that type."""
_INTS: tuple[Any, ...] = (tuple[int, ...], tuple[int, int, int, int])
_PLAIN_HOOKS: dict[Any, Callable[[Any], Any]] = {
    **{kind: _plain_or(kind) for kind in _PLAIN},
    **dict.fromkeys(_INTS, _ints_or),
}


def _attrs_structure(cls: type[Any]) -> Callable[[Any, Any], Any]:
    attrs.resolve_types(cls)
    overrides: dict[str, Any] = {}
    for f in attrs.fields(cls):
        if _is_card_set(cls, f):
            overrides[f.name] = override(struct_hook=_card_set_hook(f.type))
    hook = make_dict_structure_fn(cls, _converter, _cattrs_forbid_extra_keys=True, **overrides)
    keys = [f.name for f in attrs.fields(cls) if f.init]

    def structure(value: object, tp: object) -> Any:
        if not isinstance(value, dict):
            raise TypeError(f"expected an object, not {brief(value, 40)}")
        if len(value) < len(keys):  # to_json writes every key: no default stands in for one
            missing = next(k for k in keys if k not in value)
            raise ValueError(f"the key {missing!r} is missing")
        return hook(value, tp)

    return structure


def _card_set_hook(tp: object) -> Callable[[object, object], object]:
    return lambda value, _tp: _cards_in(value, tp)


def _is_record_class(tp: object) -> bool:
    """An attrs class other than a move (moves keep their record-format form) or a
    ruleset (written as its name)."""
    return attrs.has(tp) and tp not in _MOVE_CLASSES and not _is_ruleset(tp)  # type: ignore[arg-type]


def _is_ruleset(tp: object) -> bool:
    return isinstance(tp, type) and issubclass(tp, Ruleset)


def _unstructure_ruleset(value: Ruleset) -> str:
    return value.name


def _structure_ruleset(value: object, _tp: object) -> Ruleset:
    """A ruleset from its name (R-SET-1); ``RecordError`` for a bad one."""
    return ruleset_of(value)


def _make_converter() -> cattrs.Converter:
    conv = record_converter.copy()
    # A Ruleset is written as its name wherever it appears (a state, a view, ...).
    conv.register_unstructure_hook_func(_is_ruleset, _unstructure_ruleset)
    conv.register_structure_hook_func(_is_ruleset, _structure_ruleset)
    conv.register_unstructure_hook_func(_is_enum, _unstructure_enum)
    conv.register_structure_hook_func(_is_enum, _structure_enum)
    # An IntEnum is an int too: name it so that the strict int hook does not take it.
    conv.register_structure_hook(enum.IntEnum, _structure_enum)
    conv.register_unstructure_hook(enum.IntEnum, _unstructure_enum)
    conv.register_unstructure_hook_func(_is_tuple, _unstructure_seq)
    conv.register_unstructure_hook(list, _unstructure_seq)
    conv.register_structure_hook_func(_is_tuple, _structure_tuple)
    conv.register_unstructure_hook_func(_is_set, _unstructure_set)
    conv.register_structure_hook_func(_is_set, _structure_set)
    conv.register_unstructure_hook_factory(_is_record_class, _attrs_unstructure)
    conv.register_structure_hook_factory(_is_record_class, _attrs_structure)
    return conv


_converter = _make_converter()


# -- the face -------------------------------------------------------------------


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
        return {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "ruleset": obj.ruleset.name,
            "moves": [_converter.unstructure(m) for m in obj.history.moves()],
            "state": _converter.unstructure(obj),
        }
    if isinstance(obj, Record):
        return obj.to_json()
    if isinstance(obj, History):
        return [_converter.unstructure(m) for m in obj.moves()]
    return _converter.unstructure(obj)


def from_json(cls: type[T], data: object) -> T:
    """The value of type ``cls`` that :func:`to_json` wrote as ``data``.

    For a :class:`~trixcomplex.MatchState` the saved moves are replayed and
    every saved field is compared with the rebuilt state; any difference
    (a tampered or corrupt state) raises :class:`StateFormatError`, as do
    malformed data, unknown keys and wrong types.  Nothing is half-loaded.
    """
    if cls is MatchState:
        return _load_state(data)  # type: ignore[return-value]
    if cls is Record:
        return Record.from_json(data)  # type: ignore[return-value]
    _check_plain(data, "the data")
    try:
        value = _converter.structure(data, cls)
    except RecordError as exc:
        raise _state_error(exc) from None
    except Exception as exc:  # cattrs error groups included
        raise StateFormatError(describe_error(exc)) from None
    if isinstance(value, View):
        try:
            check_view(value)
        except TrixError as exc:
            raise StateFormatError(str(exc), rule=exc.rule, code=exc.code) from None
    return value


_DEAL_TYPES = {
    frozenset(f.name for f in attrs.fields(cls)): cls
    for cls in (DoublingWindow, TrickDeal, TrixDeal)
}


def _deal_type(raw: object) -> type[Any]:
    """Which record a saved ``deal`` is, from its keys."""
    if not isinstance(raw, dict):
        raise TypeError(f"expected an object or null, not {brief(raw, 40)}")
    cls = _DEAL_TYPES.get(frozenset(raw))
    if cls is None:
        raise ValueError(f"not a doubling window, trick deal or TRIX deal: keys {sorted(raw)}")
    return cls


def _load_state(data: object) -> MatchState:
    """The state ``data`` saves: :func:`_restored` when it is as :func:`to_json` wrote it,
    else :func:`_load_state_checked` (which reads every form and names every fault)."""
    state = _restored(data)
    return state if state is not None else _load_state_checked(data)


def _restored(data: object) -> MatchState | None:
    """The state ``data`` saves, if ``data`` is exactly what :func:`to_json` writes for it.

    The moves are read and replayed once (:func:`~trixcomplex.io.records.replay_raw_moves`:
    canonical moves by table lookup, every move through the engine's ``apply``), and
    the saved fields must be the very JSON that :func:`to_json` writes for the
    rebuilt state: equal (``==``) and of the same JSON types throughout
    (:func:`_same_json`).  Such data is what :func:`_load_state_checked` accepts
    too, and it rebuilds the same state.  Anything else, a fault or merely another
    spelling (``"10D"`` for ``"TD"``, cards in another order, version 1), gives
    ``None``: the caller reads it the checked way, which accepts every form and
    names every fault exactly as before.
    """
    if type(data) is not dict or len(data) != len(_STATE_KEYS):
        return None
    fmt, version, name = data.get("format"), data.get("version"), data.get("ruleset")
    moves, saved = data.get("moves"), data.get("state")
    if fmt != STATE_FORMAT or type(fmt) is not str or type(version) is not int:
        return None
    if version != STATE_VERSION or type(moves) is not list or type(saved) is not dict:
        return None
    try:
        rebuilt = replay_raw_moves(moves, ruleset_of(name))
    except RecordError:
        return None
    expected = _converter.unstructure(rebuilt)
    return rebuilt if saved == expected and _same_json(saved, expected) else None


def _same_json(value: object, canonical: object) -> bool:
    """Whether ``value``, already ``==`` to the plain JSON data ``canonical``, has
    its types too: ``True`` is not ``1``, ``1.0`` is not ``1``, a tuple or a
    subclass is not JSON.

    :mod:`marshal` (version 0: no sharing of repeated objects) writes every value
    with its exact type and refuses subclasses, so equal bytes settle it at C
    speed; objects whose keys come in another order are walked instead.

    >>> _same_json({"a": [1, True]}, {"a": [1, True]}), _same_json([1.0], [1])
    (True, False)
    >>> _same_json({"b": 1, "a": 2}, {"a": 2, "b": 1}), _same_json((1,), [1])
    (True, False)
    """
    try:
        if marshal.dumps(value, 0) == marshal.dumps(canonical, 0):  # type: ignore[arg-type]
            return True
    except ValueError:  # not marshallable: not plain JSON data
        return False
    pending = [(value, canonical)]
    while pending:
        a, b = pending.pop()
        if type(a) is not type(b):
            return False
        if type(a) is dict:
            pending.extend((item, b[key]) for key, item in a.items())  # type: ignore[index]
        elif type(a) is list:
            pending.extend(zip(a, b, strict=True))  # type: ignore[call-overload]
    return True


def _load_state_checked(data: object) -> MatchState:
    """The state ``data`` saves, reading every form :func:`to_json` ever wrote (versions
    1 and 2, any card spelling) and refusing any fault with the field or move at fault."""
    if not isinstance(data, dict):
        raise StateFormatError(f"a saved state is a JSON object, not {brief(data, 40)}")
    _check_plain({k: v for k, v in data.items() if k != "moves"}, "a saved state")
    extra = [k for k in data if k not in _STATE_KEYS]
    if extra:
        raise StateFormatError(f"unknown key {brief(extra[0], 40)} in a saved state")
    missing = [k for k in _STATE_KEYS if k not in data]
    if missing:
        raise StateFormatError(f"a saved state needs the key {missing[0]!r}")
    if type(data["format"]) is not str or data["format"] != STATE_FORMAT:
        raise StateFormatError(f"format must be {STATE_FORMAT!r}, not {brief(data['format'], 40)}")
    version = data["version"]
    if type(version) is not int or version not in (1, STATE_VERSION):
        raise StateFormatError(f"unknown state version {brief(version, 40)}")
    try:
        ruleset = ruleset_of(data["ruleset"])
    except RecordError as exc:
        raise StateFormatError(exc.reason, field="ruleset", code="state.malformed") from None
    moves, saved = data["moves"], data["state"]
    if not isinstance(moves, list):
        raise StateFormatError(f"moves must be a list, not {brief(moves, 40)}")

    if not isinstance(saved, dict):
        raise StateFormatError(f"state must be an object, not {brief(saved, 40)}")
    # The moves are checked one at a time as they are replayed (a long history
    # broken early fails early); the rest of the state is small: check it whole.
    if json_depth(saved, MAX_DEPTH) > MAX_DEPTH:
        raise StateFormatError(f"state is nested deeper than {MAX_DEPTH} levels")
    attrs.resolve_types(MatchState)
    types: dict[str, Any] = {
        f.name: f.type for f in attrs.fields(MatchState) if f.name != "history"
    }
    if version == 1:  # the deal in progress as three fields (see STATE_VERSION)
        del types["deal"]
        types.update(_V1_FIELDS)
    names = list(types)
    extra = [k for k in saved if k not in names]
    if extra:
        raise StateFormatError(f"unknown key {brief(extra[0], 40)} in state", field=str(extra[0]))
    missing = [k for k in names if k not in saved]
    if missing:
        raise StateFormatError(f"state needs the key {missing[0]!r}", field=missing[0])
    try:
        rebuilt = replay_raw_moves(moves, ruleset)
    except RecordError as exc:
        raise _state_error(exc) from None
    for name, tp in types.items():
        raw = saved[name]
        expected = getattr(rebuilt, _V1_ATTRIBUTES.get(name, name))
        try:
            if name == "hands":
                value = _cards_in(raw, tp)
            elif name == "deal":  # one of three records, told apart by its keys
                value = None if raw is None else _converter.structure(raw, _deal_type(raw))
            else:
                value = _converter.structure(raw, tp)
        except Exception as exc:  # cattrs error groups included
            detail = describe_error(exc)  # "$[0].points: ..." or a bare reason
            where = f"state.{name}" + (detail[1:] if detail.startswith("$") else f": {detail}")
            raise StateFormatError(where, field=name) from None
        if version == 1 and name == "phase" and expected is Phase.TRICKS:
            expected = Phase.COMPLEX  # version 1 named every trick deal's phase COMPLEX
        if value != expected:
            raise StateFormatError(
                f"state.{name} does not match the state its moves rebuild (altered or corrupt)",
                field=name,
                code="state.mismatch",
            )
    return rebuilt


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
