"""The strict :mod:`cattrs` converter of records (and the base of :mod:`trixcomplex.io.serialize`).

The JSON of a single move is decided in one place,
:func:`trixcomplex.move_to_json` / :func:`trixcomplex.move_from_json`, which
the converter's hooks call.

>>> converter.structure({"move": "pass", "seat": 2}, Move)
Pass(seat=2)
"""

from __future__ import annotations

from types import NoneType, UnionType
from typing import Any, Union, get_args, get_origin

import cattrs
from cattrs.errors import (
    AttributeValidationNote,
    ForbiddenExtraKeysError,
    IterableValidationNote,
)

from ..core.cards import Card, parse_card
from ..core.jsonio import MAX_DEPTH, brief
from ..core.moves import (
    Choose,
    Deal,
    Double,
    Move,
    Pass,
    Play,
    Redeal,
    Timeout,
    move_from_json,
    move_to_json,
)

__all__ = ["MOVE_CLASSES", "converter", "describe_error", "make_converter"]

MOVE_CLASSES: tuple[type, ...] = (Deal, Choose, Double, Play, Pass, Redeal, Timeout)
"""The classes of :data:`~trixcomplex.Move`."""


def _strict_int(value: object, _type: object) -> int:
    if type(value) is not int:
        raise TypeError(f"expected an integer, not {brief(value, 40)}")
    return value


def _strict_str(value: object, _type: object) -> str:
    if type(value) is not str:
        raise TypeError(f"expected a string, not {brief(value, 40)}")
    return value


def _strict_bool(value: object, _type: object) -> bool:
    if type(value) is not bool:
        raise TypeError(f"expected true or false, not {brief(value, 40)}")
    return value


def _structure_card(value: object, _type: object) -> Card:
    if not isinstance(value, str):
        raise TypeError(f"a card is a card code string, not {brief(value, 40)}")
    return parse_card(value)


def _move_classes(tp: object) -> tuple[type, ...]:
    """The move classes a type allows (a move class, a union of them, maybe optional)."""
    if tp in MOVE_CLASSES:
        return (tp,)
    if get_origin(tp) in (Union, UnionType):
        args = get_args(tp)
        if all(a in MOVE_CLASSES or a is NoneType for a in args):
            return tuple(a for a in args if a is not NoneType)
    return ()


def _structure_move(value: object, tp: object) -> Move | None:
    if value is None and NoneType in get_args(tp):
        return None
    move = move_from_json(value)
    allowed = _move_classes(tp)
    if not isinstance(move, allowed):
        raise TypeError(f"a {move_to_json(move)['move']} move is not allowed here")
    return move


def _raw_list(value: object, _type: object) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, not {brief(value, 40)}")
    return value


def make_converter() -> cattrs.Converter:
    """The strict converter of records: exact JSON types, no extra keys.

    Ints, strings and booleans must have exactly that JSON type (``"1"`` is
    not 1, ``true`` is not 1); cards are read with
    :func:`~trixcomplex.parse_card` and written as canonical codes; moves
    are read and written by :func:`~trixcomplex.move_from_json` and
    :func:`~trixcomplex.move_to_json`.
    """
    conv = cattrs.Converter(forbid_extra_keys=True)
    conv.register_structure_hook(int, _strict_int)
    conv.register_structure_hook(str, _strict_str)
    conv.register_structure_hook(bool, _strict_bool)
    conv.register_structure_hook(Card, _structure_card)
    conv.register_unstructure_hook(Card, str)
    conv.register_structure_hook_func(lambda tp: bool(_move_classes(tp)), _structure_move)
    for cls in MOVE_CLASSES:
        conv.register_unstructure_hook(cls, move_to_json)
    conv.register_unstructure_hook_func(lambda tp: tp == Move, move_to_json)
    conv.register_structure_hook_func(lambda tp: tp == list[Any], _raw_list)
    return conv


converter = make_converter()
"""The converter reading and writing records (and the base of :mod:`trixcomplex.io.serialize`)."""


def describe_error(exc: BaseException) -> str:
    """One line for the first error inside a cattrs error group, with its path.

    ``$.results[0].points: expected an integer, not "x"`` names where the
    first fault is and what it is.
    """
    path = "$"
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
        for note in getattr(exc, "__notes__", ()):
            if isinstance(note, AttributeValidationNote):
                path += f".{note.name}"
            elif isinstance(note, IterableValidationNote):
                path += f"[{note.index}]"
    if isinstance(exc, RecursionError):
        text = f"nested deeper than {MAX_DEPTH} levels"
    else:
        lines = str(exc).splitlines()
        text = lines[0] if lines and lines[0] else type(exc).__name__
        if isinstance(exc, KeyError) and exc.args:
            text = f"missing key {brief(exc.args[0], 40)}"
            path = path.removesuffix(f".{exc.args[0]}")
        elif isinstance(exc, ForbiddenExtraKeysError):
            text = f"unknown key {brief(min(exc.extra_fields), 40)}"
    return text if path == "$" else f"{path}: {text}"
