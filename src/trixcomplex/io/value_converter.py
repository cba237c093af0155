"""The :mod:`cattrs` converter of states, views and any frozen attrs value.

Built on the records' converter (:mod:`trixcomplex.io.convert`: cards by
their codes, moves in their record form), it adds what a state or a view
holds besides: enums by value (suits by letter), tuples as lists,
frozensets as sorted lists, a :class:`~trixcomplex.Ruleset` as its name,
and card sets.  A *card set* is an ``int`` (52-bit mask) in the engine; it
is written as a list of card codes only where the field is declared a card
set: the engine's own card-set fields and any attrs field whose metadata
holds the key :data:`CARDS`.  Every other ``int`` stays a number.  Reading
is strict: every key must be there, no other key may be, and a fault names
its place.

:func:`~trixcomplex.to_json` and :func:`~trixcomplex.from_json`
(:mod:`trixcomplex.io.serialize`) are the public face of this converter.

>>> import trixcomplex as tc
>>> converter.unstructure(tc.Suit.HEARTS), converter.structure("H", tc.Suit)
('H', <Suit.HEARTS: 1>)
>>> from trixcomplex.core.cards import cards_of
>>> [str(card) for card in cards_of(read_card_sets(["TD", "QS"], int))]
['QS', 'TD']
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import IterableValidationError, IterableValidationNote
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from ..core.cards import Card, Suit, cards_of
from ..core.engine import DoublingWindow, MatchState, TrixDeal
from ..core.jsonio import brief
from ..core.rulesets import Ruleset
from .convert import MOVE_CLASSES
from .convert import converter as record_converter
from .records import ruleset_of

__all__ = ["CARDS", "converter", "read_card_sets"]

CARDS = "trixcomplex.core.cards"
"""Field metadata key marking an ``int`` field (or a tuple of them) as a card set.

``attrs.field(metadata={CARDS: True})`` makes :func:`~trixcomplex.to_json` write the
field as a list of card codes instead of a number.
"""

_ENGINE_CARD_SETS = {
    (MatchState, "hands"),
    (DoublingWindow, "asked"),
    (DoublingWindow, "answers"),
    (TrixDeal, "table"),
}


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


def read_card_sets(value: object, tp: object) -> object:
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
            return tuple(read_card_sets(v, args[0]) for v in value)
        if len(value) != len(args):
            raise ValueError(f"expected {len(args)} items, not {len(value)}")
        return tuple(read_card_sets(v, a) for v, a in zip(value, args, strict=True))
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
            out.append(converter.structure(value, tp))
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
    return [converter.unstructure(v) for v in value]


def _unstructure_set(value: frozenset[Any] | set[Any]) -> list[Any]:
    return [converter.unstructure(v) for v in sorted(value)]


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
            overrides[f.name] = override(unstruct_hook=converter.unstructure)
    return make_dict_unstructure_fn(cls, converter, **overrides)


def _plain_or(kind: type) -> Callable[[Any], Any]:
    """A hook writing a value of type ``kind`` (``int``, ``bool``, ``str``) as it is,
    and any other value (a :class:`~trixcomplex.Card` in an ``int`` field) by its own type."""

    def hook(value: Any) -> Any:
        return value if type(value) is kind else converter.unstructure(value)

    return hook


def _ints_or(value: tuple[Any, ...]) -> list[Any]:
    """A tuple of ``int`` written as a list, any other item by its own type."""
    return [v if type(v) is int else converter.unstructure(v) for v in value]


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
            hooks.append(converter.get_unstructure_hook(item))
        each = hooks[0]
        return [each(v) if type(v) is item else converter.unstructure(v) for v in value]

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
    hook = make_dict_structure_fn(cls, converter, _cattrs_forbid_extra_keys=True, **overrides)
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
    return lambda value, _tp: read_card_sets(value, tp)


def _is_record_class(tp: object) -> bool:
    """An attrs class other than a move (moves keep their record-format form) or a
    ruleset (written as its name)."""
    return attrs.has(tp) and tp not in MOVE_CLASSES and not _is_ruleset(tp)  # type: ignore[arg-type]


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


converter = _make_converter()
