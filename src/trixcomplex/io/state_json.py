"""The saved-state format: a :class:`~trixcomplex.MatchState` as JSON, and read back checked.

A state is saved with its ruleset's name and its whole move history next to
its fields (:func:`state_to_json`), so that loading it (:func:`load_state`)
can check it the strongest way: the moves are replayed through the engine and
every saved field must equal the rebuilt state's, or :class:`StateFormatError`
is raised.  A reconnect therefore restores the match exactly and never
reshuffles (R-MATCH-2).  Data exactly as :func:`state_to_json` wrote it is
read the fast way (one replay, one comparison of JSON); any other form (an
older version, another card spelling) or any fault, the checked way, which
names the field or move at fault.

:func:`~trixcomplex.to_json` and :func:`~trixcomplex.from_json`
(:mod:`trixcomplex.io.serialize`) are the public face of this format.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(2)))
>>> data = state_to_json(state)
>>> data["format"], data["version"], load_state(data) == state
('trixcomplex-state', 2, True)
"""

from __future__ import annotations

import marshal
from typing import Any

import attrs

from ..core.engine import DoublingWindow, MatchState, Phase, TrickDeal, TrixDeal
from ..core.errors import TrixError
from ..core.jsonio import check_json
from .records import (
    MAX_DEPTH,
    RecordError,
    brief,
    describe_error,
    json_depth,
    replay_raw_moves,
    ruleset_of,
)
from .value_converter import converter, read_card_sets

__all__ = [
    "STATE_FORMAT",
    "STATE_VERSION",
    "StateFormatError",
    "check_plain",
    "load_state",
    "state_error",
    "state_to_json",
]

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


def state_error(exc: RecordError, field: str | None = None) -> StateFormatError:
    """The :class:`StateFormatError` for a record fault met while loading a state or view."""
    code = exc.code.replace("record.", "state.") if exc.code.startswith("record.") else exc.code
    if code not in ("state.bad-move", "state.illegal-move") and not code.startswith("json."):
        code = "state.malformed"
    return StateFormatError(
        exc.reason, index=exc.index, move=exc.move, rule=exc.rule, field=field, code=code
    )


def check_plain(data: object, what: str) -> None:
    """Raise :class:`StateFormatError` unless ``data`` is plain JSON data within limits."""
    try:
        check_json(data, max_items=_MAX_ITEMS, what=what)
    except TrixError as exc:
        raise StateFormatError(str(exc), code=exc.code) from None


def state_to_json(state: MatchState) -> dict[str, Any]:
    """The saved form of ``state``: its format, version, ruleset's name, moves and fields."""
    return {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "ruleset": state.ruleset.name,
        "moves": [converter.unstructure(m) for m in state.history.moves()],
        "state": converter.unstructure(state),
    }


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


def load_state(data: object) -> MatchState:
    """The state ``data`` saves: :func:`_restored` when it is as :func:`state_to_json` wrote it,
    else :func:`_load_state_checked` (which reads every form and names every fault)."""
    state = _restored(data)
    return state if state is not None else _load_state_checked(data)


def _restored(data: object) -> MatchState | None:
    """The state ``data`` saves, if ``data`` is exactly what :func:`state_to_json` writes for it.

    The moves are read and replayed once (:func:`~trixcomplex.io.records.replay_raw_moves`:
    canonical moves by table lookup, every move through the engine's ``apply``), and
    the saved fields must be the very JSON that :func:`state_to_json` writes for the
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
    expected = converter.unstructure(rebuilt)
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
    """The state ``data`` saves, reading every form :func:`state_to_json` ever wrote (versions
    1 and 2, any card spelling) and refusing any fault with the field or move at fault."""
    if not isinstance(data, dict):
        raise StateFormatError(f"a saved state is a JSON object, not {brief(data, 40)}")
    check_plain({k: v for k, v in data.items() if k != "moves"}, "a saved state")
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
        raise state_error(exc) from None
    for name, tp in types.items():
        raw = saved[name]
        expected = getattr(rebuilt, _V1_ATTRIBUTES.get(name, name))
        try:
            if name == "hands":
                value = read_card_sets(raw, tp)
            elif name == "deal":  # one of three records, told apart by its keys
                value = None if raw is None else converter.structure(raw, _deal_type(raw))
            else:
                value = converter.structure(raw, tp)
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
