"""Game records: the whole history of a match as JSON, and its replay.

A :class:`Record` is the name of the match's ruleset and the list of every
move of the match, the shuffles included (RECORD.md, ``trixcomplex-record``
version 1).  Replaying it through the engine, under the ruleset it names
(R-SET-1), rebuilds the match exactly; the first illegal or malformed step
is rejected with a :class:`RecordError` naming its 0-based index, the move
and the rule it breaks.

>>> import random
>>> import trixcomplex as tc
>>> rng = random.Random(5)
>>> state = tc.new_match()
>>> for _ in range(20):
...     if state.phase is tc.Phase.DEAL:
...         state = tc.apply(state, tc.Deal.shuffled(rng))
...     else:
...         state = tc.apply(state, rng.choice(tc.legal_moves(state)))
>>> record = tc.Record.of(state)
>>> data = record.to_json()
>>> data["format"], data["version"], data["ruleset"], len(data["moves"])
('trixcomplex-record', 1, 'partnership', 20)
>>> tc.replay(tc.Record.from_json(data)) == state
True

Reading and writing go through one :mod:`cattrs` converter
(:data:`converter`); the JSON of a single move is decided in one place,
:func:`trixcomplex.move_to_json` / :func:`trixcomplex.move_from_json`,
which the converter's hooks call.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from types import NoneType, UnionType
from typing import IO, Any, TextIO, Union, get_args, get_origin

import cattrs
from attrs import field, frozen
from cattrs.errors import (
    AttributeValidationNote,
    ForbiddenExtraKeysError,
    IterableValidationNote,
)

from .cards import Card, parse_card
from .engine import MatchState, Phase, apply, new_match, score
from .errors import IllegalMoveError
from .moves import (
    Choose,
    Deal,
    Double,
    Move,
    MoveFormatError,
    Pass,
    Play,
    Redeal,
    Timeout,
    move_from_json,
    move_to_json,
)
from .rulesets import Ruleset
from .scoresheet import format_scoresheet

__all__ = [
    "FORMAT",
    "MAX_DEPTH",
    "VERSION",
    "Record",
    "RecordError",
    "brief",
    "converter",
    "describe_error",
    "json_depth",
    "replay",
    "replay_json",
    "replay_raw_moves",
    "replay_report",
    "ruleset_of",
    "run_replay",
]

FORMAT = "trixcomplex-record"
"""The ``format`` value of a record file."""
VERSION = 1
"""The only record ``version`` this reader knows."""
MAX_DEPTH = 32
"""Deepest nesting of lists and objects accepted in a record or state (a move needs 2)."""

_MOVE_CLASSES: tuple[type, ...] = (Deal, Choose, Double, Play, Pass, Redeal, Timeout)


# -- the error ----------------------------------------------------------------


def brief(value: object, limit: int = 120) -> str:
    """A short one-line JSON-like text of ``value`` for an error message.

    Never recurses without bound and never prints more than ``limit``
    characters: safe for hostile input (deep nesting, 10 MB strings, huge ints).
    """
    if json_depth(value, MAX_DEPTH) > MAX_DEPTH:
        return f"<{type(value).__name__} nested deeper than {MAX_DEPTH}>"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        return f"<int of {value.bit_length()} bits>"
    try:
        text = json.dumps(value, ensure_ascii=False, default=_default_brief)
    except (ValueError, TypeError):
        text = f"<{type(value).__name__}>"
    text = _one_line(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _one_line(text: str) -> str:
    """``text`` with every line break escaped (``str.splitlines`` sees one line)."""
    if len(text.splitlines()) <= 1 and not text.endswith(("\n", "\r")):
        return text
    return "".join(c if c.splitlines() == [c] else repr(c)[1:-1] for c in text)


def _default_brief(value: object) -> str:
    if isinstance(value, _MOVE_CLASSES):
        return str(value)
    return f"<{type(value).__name__}>"


_MAX_REASON = 300
"""Longest reason kept in an error message (a 10 MB key must not make a 10 MB line)."""


class RecordError(ValueError):
    """A record that is malformed or holds an illegal step.

    ``index`` is the 0-based index of the offending move (``None`` when the
    fault is in the record's envelope), ``move`` the raw JSON or the
    :data:`~trixcomplex.Move` at fault (or ``None``), ``rule`` the RULES.md
    clause it breaks (or ``None`` for a pure format error) and ``reason``
    the explanation.  The message is one line::

        move 5 {"move": "play", "seat": 1, "card": "5S"}: seat 1 must follow suit ♥ (R-CX-2)
    """

    def __init__(
        self,
        reason: str,
        *,
        index: int | None = None,
        move: object = None,
        rule: str | None = None,
    ) -> None:
        reason = reason if len(reason) <= _MAX_REASON else reason[: _MAX_REASON - 1] + "…"
        self.reason = _one_line(reason)
        self.index = index
        self.move = move
        self.rule = rule
        where = "" if index is None else f"move {index} {_move_text(move)}: "
        suffix = f" ({rule})" if rule is not None and not self.reason.endswith(f"({rule})") else ""
        super().__init__(where + self.reason + suffix)

    def __reduce__(self) -> tuple[object, ...]:
        fields = {k: v for k, v in vars(self).items() if k != "reason" and k[0] != "_"}
        return (_rebuild_error, (type(self), self.reason, fields))


def _rebuild_error(cls: type[RecordError], reason: str, fields: dict[str, Any]) -> RecordError:
    return cls(reason, **fields)


def _move_text(move: object) -> str:
    if isinstance(move, _MOVE_CLASSES):
        return brief(move_to_json(move))  # type: ignore[arg-type]
    return brief(move)


def json_depth(value: object, limit: int) -> int:
    """How deep lists, tuples and dicts nest in ``value``, counting stops past ``limit``.

    Iterative (no recursion), so a list nested 100 000 deep is measured safely.

    >>> json_depth({"a": [1, [2]]}, 10), json_depth(3, 10)
    (3, 0)
    """
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Iterable[object] = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        depth += 1
        if depth > deepest:
            deepest = depth
            if deepest > limit:
                return deepest
        stack.extend((child, depth) for child in children)
    return deepest


# -- the converter --------------------------------------------------------------


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
    if tp in _MOVE_CLASSES:
        return (tp,)
    if get_origin(tp) in (Union, UnionType):
        args = get_args(tp)
        if all(a in _MOVE_CLASSES or a is NoneType for a in args):
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
    for cls in _MOVE_CLASSES:
        conv.register_unstructure_hook(cls, move_to_json)
    conv.register_unstructure_hook_func(lambda tp: tp == Move, move_to_json)
    conv.register_structure_hook_func(lambda tp: tp == list[Any], _raw_list)
    return conv


converter = make_converter()
"""The converter reading and writing records (and the base of :mod:`trixcomplex.serialize`)."""


@frozen
class _Envelope:
    """The top level of a record file, moves still raw JSON (read lazily)."""

    format: str
    version: int
    ruleset: str
    moves: list[Any]


def _read_envelope(obj: object) -> _Envelope:
    """Check the record's top level: format, version, ruleset, a list of moves."""
    if not isinstance(obj, dict):
        raise RecordError(f"a record is a JSON object, not {brief(obj, 40)}")
    fmt, version = obj.get("format"), obj.get("version")
    if type(fmt) is not str or fmt != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {brief(fmt, 40)}")
    if type(version) is not int or version != VERSION:
        raise RecordError(f"unknown record version {brief(version, 40)}; this reader knows 1")
    try:
        envelope = converter.structure(obj, _Envelope)
    except Exception as exc:  # cattrs groups several errors; keep the first line
        raise RecordError("malformed record: " + describe_error(exc)) from None
    ruleset_of(envelope.ruleset)  # an unknown ruleset is an envelope fault
    return envelope


def ruleset_of(name: object) -> Ruleset:
    """The :class:`~trixcomplex.Ruleset` a record names (R-SET-1).

    A preset (``"classic"``) or a preset with options as
    :meth:`~trixcomplex.Ruleset.evolve` names them
    (``"classic+doubling=False"``); anything else raises a one-line
    :class:`RecordError` naming it.

    >>> ruleset_of("classic+doubling=False").doubling
    False
    >>> try:
    ...     ruleset_of("classic+doubling=maybe")
    ... except RecordError as exc:
    ...     print(exc.reason.partition(":")[0])
    unknown ruleset "classic+doubling=maybe"
    """
    if type(name) is not str:
        raise RecordError(f"a ruleset name is a string, not {brief(name, 40)}")
    if len(name) > _MAX_RULESET_NAME:
        raise RecordError(f"unknown ruleset {brief(name, 40)}: a name of {len(name)} characters")
    try:
        return Ruleset.from_name(name)
    except ValueError as exc:
        raise RecordError(f"unknown ruleset {brief(name, 60)}: {_one_line(str(exc))}") from None


_MAX_RULESET_NAME = 1000
"""Longest ruleset name read (every option set is far shorter)."""


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


def _read_move(index: int, raw: object) -> Move:
    """Structure one raw move, or raise :class:`RecordError` naming ``index``.

    A record repeats the same few hundred flat moves (plays, passes, choices)
    over and over, so each flat move read is remembered by its exact JSON
    content, the types of its values included (``True == 1`` and ``1.0 == 1``
    in Python, not in a record): reading it again is one dict lookup.  Moves
    are immutable, so the one read is shared.
    """
    key: tuple[object, ...] | None
    try:
        key = (*raw.items(), *map(type, raw.values()))  # type: ignore[attr-defined]
        move = _READ.get(key)
    except (AttributeError, TypeError):  # not an object, or a list inside (a Deal)
        key = move = None
    if move is not None:
        return move
    move = _structure_move_at(index, raw)
    if key is not None and len(_READ) < _READ_LIMIT:
        _READ[key] = move
    return move


_READ: dict[tuple[object, ...], Move] = {}
_READ_LIMIT = 4096  # every play, pass, choice and timeout of every seat fits


def _structure_move_at(index: int, raw: object) -> Move:
    if json_depth(raw, MAX_DEPTH) > MAX_DEPTH:
        raise RecordError(f"nested deeper than {MAX_DEPTH} levels", index=index, move=raw)
    try:
        return converter.structure(raw, Move)  # type: ignore[arg-type]
    except MoveFormatError as exc:
        raise RecordError(str(exc), index=index, move=raw, rule=exc.rule) from None
    except (ValueError, TypeError, RecursionError) as exc:
        return _raise_format(index, raw, describe_error(exc))


def _raise_format(index: int, raw: object, message: str) -> Move:
    raise RecordError(message, index=index, move=raw)


def _apply_at(state: MatchState, index: int, move: Move, raw: object) -> MatchState:
    try:
        return apply(state, move)
    except IllegalMoveError as exc:
        raise RecordError(exc.reason, index=index, move=raw, rule=exc.rule) from None


# -- the record -----------------------------------------------------------------


def _to_moves(moves: Iterable[Move]) -> tuple[Move, ...]:
    out = tuple(moves)
    for move in out:
        if not isinstance(move, _MOVE_CLASSES):
            raise TypeError(f"not a move: {brief(move, 40)}")
    return out


def _to_ruleset_name(value: object) -> str:
    if isinstance(value, Ruleset):
        return value.name
    if type(value) is not str:
        raise TypeError(f"a ruleset is a Ruleset or its name, not {brief(value, 40)}")
    return value


@frozen
class Record:
    """A game record: the ruleset and every move of a match, in order (RECORD.md).

    A record may stop anywhere: an unfinished match is a valid record.
    Build one from a state with :meth:`of`, move by move with
    :meth:`append`, or from JSON with :meth:`from_json`.

    >>> import trixcomplex as tc
    >>> record = tc.Record().append(tc.Timeout())
    >>> record.ruleset, record.to_json()["moves"]
    ('partnership', [{'move': 'timeout'}])
    """

    ruleset: str = field(default="partnership", converter=_to_ruleset_name)
    """The name of the game played (R-SET-1): ``"partnership"``, ``"classic"``,
    ``"classic+doubling=False"``, … (a :class:`~trixcomplex.Ruleset` is taken by name)."""
    moves: tuple[Move, ...] = field(default=(), converter=_to_moves)

    @classmethod
    def of(cls, state: MatchState) -> Record:
        """The record of ``state``: its ruleset's name and its whole move history."""
        return cls(state.ruleset.name, state.history.moves())

    def append(self, move: Move) -> Record:
        """This record with ``move`` added at the end (a host records a live match)."""
        return Record(self.ruleset, (*self.moves, move))

    def to_json(self) -> dict[str, Any]:
        """The RECORD.md JSON object (canonical card codes)."""
        body: dict[str, Any] = converter.unstructure(self)
        return {"format": FORMAT, "version": VERSION, **body}

    @classmethod
    def from_json(cls, obj: object) -> Record:
        """The record of a RECORD.md JSON object, checked move by move.

        Unknown or missing keys, wrong types, bad card codes and decks that
        are not 52 distinct cards raise :class:`RecordError`; reading stops
        at the first bad move.  Legality is checked by :func:`replay`.
        """
        envelope = _read_envelope(obj)
        moves = [_read_move(i, raw) for i, raw in enumerate(envelope.moves)]
        return cls(envelope.ruleset, tuple(moves))

    def __iter__(self) -> Iterator[Move]:
        return iter(self.moves)

    def __len__(self) -> int:
        return len(self.moves)


def replay(record: Record) -> MatchState:
    """The state a record leads to: a fold of :func:`~trixcomplex.apply` over its moves.

    The first illegal step raises :class:`RecordError` naming its index,
    the move and the rule (from the engine's
    :class:`~trixcomplex.IllegalMoveError`).

    >>> import trixcomplex as tc
    >>> try:
    ...     tc.replay(tc.Record(moves=[tc.Pass(1)]))
    ... except tc.RecordError as exc:
    ...     print(exc.index, exc.rule)
    ...     print(exc)
    0 R-MATCH-2
    move 0 {"move": "pass", "seat": 1}: not allowed now: the match is waiting for a deal (R-MATCH-2)
    """
    state = new_match(ruleset_of(record.ruleset))
    for index, move in enumerate(record.moves):
        state = _apply_at(state, index, move, move)
    return state


def replay_json(obj: object) -> MatchState:
    """Read and replay a RECORD.md JSON object in one lazy pass.

    Each move is read and applied before the next is looked at, so a long
    record broken at move 3 fails at move 3 without reading the rest.
    Raises :class:`RecordError` for the first malformed or illegal step.
    """
    envelope = _read_envelope(obj)
    return replay_raw_moves(envelope.moves, ruleset_of(envelope.ruleset))


def replay_raw_moves(moves: Iterable[object], ruleset: Ruleset | None = None) -> MatchState:
    """Read and apply raw JSON moves one at a time, stopping at the first bad one.

    The match is one of ``ruleset`` (the default game when ``None``).
    """
    state = new_match() if ruleset is None else new_match(ruleset)
    for index, raw in enumerate(moves):
        state = _apply_at(state, index, _read_move(index, raw), raw)
    return state


def replay_report(state: MatchState) -> dict[str, Any]:
    """The JSON object ``trixcomplex replay --json`` prints (RECORD.md).

    The keys are RECORD.md's, for every ruleset: ``complete``, ``deals``
    (each finished deal's contract, owner and four scores), ``seats``,
    ``teams`` (seats 0+2 and 1+3, listed in individual games too) and
    ``result``: ``"team0"``, ``"team1"`` or ``"draw"`` in a partnership
    ruleset, ``"seat0"`` … ``"seat3"`` or ``"shared"`` in an individual one
    (:class:`~trixcomplex.MatchResult`), ``None`` while unfinished.

    >>> import trixcomplex as tc
    >>> replay_report(tc.new_match())
    {'complete': False, 'deals': [], 'seats': [0, 0, 0, 0], 'teams': [0, 0], 'result': None}
    """
    summary = score(state)
    return {
        "complete": state.phase is Phase.OVER,
        "deals": [
            {"contract": d.contract.value, "owner": d.owner, "scores": list(d.points)}
            for d in state.results
        ],
        "seats": list(summary.seats),
        "teams": list(summary.teams),
        "result": None if summary.result is None else summary.result.value,
    }


def run_replay(path: str, *, as_json: bool, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """The body of ``trixcomplex replay FILE [--json]``; returns the exit status.

    Reads the record from ``path`` (``-`` is ``stdin``), replays it and
    prints the :func:`replay_report` as indented JSON (``indent=2``) with
    ``as_json``, else the plain-text scoresheet; returns 0.  A missing or
    unreadable file, invalid JSON, a malformed record or an illegal step
    prints exactly one line to ``stderr`` (the index of the move, the move
    and the rule it breaks, where there is one) and returns 1.
    """
    name = "<stdin>" if path == "-" else _one_line(path)
    try:
        text = _read_text(path, stdin)
        try:
            obj = json.loads(text, parse_constant=_no_constant)
        except RecursionError:
            raise RecordError("invalid JSON: nested too deeply") from None
        except ValueError as exc:  # JSONDecodeError, or an integer too long to read
            raise RecordError(f"invalid JSON: {str(exc).splitlines()[0]}") from None
        state = replay_json(obj)
    except RecordError as exc:
        print(f"{name}: {exc}", file=stderr)
        return 1
    except Exception as exc:  # an engine bug: still one line, never a traceback
        print(f"{name}: internal error ({type(exc).__name__}): {brief(str(exc))}", file=stderr)
        return 1
    if as_json:
        print(json.dumps(replay_report(state), indent=2), file=stdout)
    else:
        print(format_scoresheet(state), file=stdout)
    return 0


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON value")


def _read_text(path: str, stdin: IO[str]) -> str:
    try:
        if path == "-":
            return stdin.read()
        with open(path, encoding="utf-8") as file:
            return file.read()
    except OSError as exc:
        raise RecordError(f"cannot read the file: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise RecordError(f"not UTF-8 text: {exc.reason} at byte {exc.start}") from None
