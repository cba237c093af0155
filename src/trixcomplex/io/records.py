"""Game records: the whole history of a match as JSON, and its replay.

A :class:`Record` is the name of the match's ruleset and the list of every
move of the match, the shuffles included (the record format, ``trixcomplex-record``
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

A record may carry metadata, like a PGN file's headers (players, event,
site, date, time control, result, free tags), under the key ``"meta"``
(:attr:`Record.meta`): kept exactly through reading and writing, bounded in
size (:data:`MAX_META_CHARS`) and ignored by replay.

>>> record = tc.Record.of(state, meta={"event": "Club night", "players": ["Ann", "Bo", "Cy", "Di"]})
>>> tc.Record.from_json(record.to_json()).meta["players"]
('Ann', 'Bo', 'Cy', 'Di')

Reading is bounded: at most :data:`MAX_MOVES` moves, strings of at most
:data:`~trixcomplex.core.jsonio.MAX_STRING` characters, nesting at most
:data:`MAX_DEPTH` deep; anything beyond fails at once, before any move is read.
A record file or standard input is read only up to :data:`MAX_RECORD_CHARS`
characters: a longer one is refused before it is parsed.

This module holds the record and its replay; the JSON helpers live in
:mod:`trixcomplex.core.jsonio`, the :mod:`cattrs` converter in
:mod:`trixcomplex.io.convert` and the ``replay`` command in
:mod:`trixcomplex.cli.replay` (their names are importable from here too).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from itertools import islice, repeat
from operator import is_
from typing import Any, cast

from attrs import field, frozen

from ..core.engine import MatchState, Phase, apply, apply_moves, new_match, score
from ..core.errors import IllegalMoveError, TrixError, one_line
from ..core.jsonio import MAX_DEPTH, brief, check_json, json_depth
from ..core.moves import Move, MoveFormatError, canonical_move, move_to_json
from ..core.rulesets import Ruleset
from .convert import MOVE_CLASSES, converter, describe_error, make_converter

__all__ = [
    "FORMAT",
    "MAX_DEPTH",
    "MAX_META_CHARS",
    "MAX_MOVES",
    "MAX_RECORD_CHARS",
    "VERSION",
    "Meta",
    "Record",
    "RecordError",
    "brief",
    "converter",
    "describe_error",
    "json_depth",
    "make_converter",
    "replay",
    "replay_json",
    "replay_raw_moves",
    "replay_report",
    "ruleset_of",
]

FORMAT = "trixcomplex-record"
"""The ``format`` value of a record file."""
VERSION = 1
"""The only record ``version`` this reader knows."""
MAX_MOVES = 20_000
"""Most moves read from a record or saved state (a classic match needs well under 3,000)."""
MAX_META_CHARS = 16_384
"""Largest metadata accepted, in characters of its compact JSON."""
MAX_META_ITEMS = 512
"""Most JSON values in a record's metadata."""
MAX_RECORD_CHARS = 32 * 1024 * 1024
"""Longest record text read from a file or standard input, in characters (32 Mi).

Far more than any record within :data:`MAX_MOVES` needs (20,000 moves, all of
them deals, pretty-printed with ``indent=4``, take about 25 MB); a longer text
is refused before it is parsed, having read only this much of it."""

_MOVE_CLASSES = MOVE_CLASSES
_ENVELOPE_KEYS = ("format", "version", "ruleset", "moves", "meta")


# -- the error ----------------------------------------------------------------


class RecordError(TrixError):
    """A record that is malformed or holds an illegal step.

    ``index`` is the 0-based index of the offending move (``None`` when the
    fault is in the record's envelope), ``move`` the raw JSON or the
    :data:`~trixcomplex.Move` at fault (or ``None``), ``rule`` the rules
    clause it breaks (or ``None`` for a pure format error), ``reason``
    the explanation and ``code`` what kind of fault it is (``record.bad-move``,
    ``record.illegal-move``, …) and ``field`` the named field at fault, if any
    (a saved state's: see :class:`~trixcomplex.StateFormatError`, which shares
    this constructor).  The message is one line::

        move 5 {"move": "play", "seat": 1, "card": "5S"}: seat 1 must follow suit ♥ (R-CX-2)
    """

    code = "record.malformed"

    def __init__(
        self,
        reason: str,
        *,
        index: int | None = None,
        move: object = None,
        rule: str | None = None,
        code: str | None = None,
        field: str | None = None,
    ) -> None:
        self.reason = one_line(reason, 300)
        self.move = move
        self.field = field
        where = "" if index is None else f"move {index} {_move_text(move)}: "
        suffix = f" ({rule})" if rule is not None and not self.reason.endswith(f"({rule})") else ""
        super().__init__(where + self.reason + suffix, code=code, rule=rule, index=index)


def _move_text(move: object) -> str:
    if isinstance(move, _MOVE_CLASSES):
        return brief(move_to_json(move))  # type: ignore[arg-type]
    return brief(move)


def _read_move(index: int, raw: object) -> Move:
    """Structure one raw move, or raise :class:`RecordError` naming ``index``.

    At most :data:`MAX_MOVES` moves are read: the move of that index is refused.
    The move is read by the moves module's one reader: a canonical move by table
    lookup (:func:`~trixcomplex.core.moves.canonical_move`, nearly every move of a
    record or saved state), any other form by the strict converter, which
    accepts every form the record format allows and names what is wrong with
    the rest.
    """
    if index >= MAX_MOVES:
        raise RecordError(f"more than {MAX_MOVES} moves", code="record.too-many-moves")
    move = canonical_move(raw)
    if move is not None:
        return move
    return _structure_move_at(index, raw)


def _structure_move_at(index: int, raw: object) -> Move:
    if json_depth(raw, MAX_DEPTH) > MAX_DEPTH:
        raise RecordError(
            f"nested deeper than {MAX_DEPTH} levels", index=index, move=raw, code="record.bad-move"
        )
    try:
        return converter.structure(raw, Move)  # type: ignore[arg-type]
    except MoveFormatError as exc:
        raise RecordError(
            str(exc), index=index, move=raw, rule=exc.rule, code="record.bad-move"
        ) from None
    except (ValueError, TypeError, RecursionError) as exc:
        raise RecordError(
            describe_error(exc), index=index, move=raw, code="record.bad-move"
        ) from None


# -- the envelope -----------------------------------------------------------------


@frozen
class _Envelope:
    """The top level of a record file, moves still raw JSON (read lazily)."""

    format: str
    version: int
    ruleset: str
    moves: list[Any]


def _read_envelope(obj: object) -> tuple[_Envelope, Meta]:
    """Check the record's top level: format, version, ruleset, a list of moves, the meta."""
    if not isinstance(obj, dict):
        raise RecordError(f"a record is a JSON object, not {brief(obj, 40)}")
    for key in obj:
        if type(key) is not str:
            raise RecordError(
                f"a record holds an object key that is not a string: {brief(key, 40)}",
                code="json.not-json",
            )
    fmt, version = obj.get("format"), obj.get("version")
    if type(fmt) is not str or fmt != FORMAT:
        raise RecordError(
            f"format must be {FORMAT!r}, not {brief(fmt, 40)}", code="record.bad-format"
        )
    if type(version) is not int or version != VERSION:
        raise RecordError(
            f"unknown record version {brief(version, 40)}; this reader knows 1",
            code="record.bad-version",
        )
    extra = sorted(k for k in obj if k not in _ENVELOPE_KEYS)
    if extra:
        raise RecordError(f"malformed record: unknown key {brief(extra[0], 40)}")
    meta = _read_meta(obj.get("meta", {}))
    try:
        envelope = converter.structure({k: v for k, v in obj.items() if k != "meta"}, _Envelope)
    except Exception as exc:  # cattrs groups several errors; keep the first line
        raise RecordError("malformed record: " + describe_error(exc)) from None
    ruleset_of(envelope.ruleset)  # an unknown ruleset is an envelope fault
    return envelope, meta


def ruleset_of(name: object) -> Ruleset:
    """The :class:`~trixcomplex.Ruleset` a record names (R-SET-1).

    A preset (``"classic"``) or a preset with options as
    :meth:`~trixcomplex.Ruleset.evolve` names them
    (``"classic+doubling=False"``); anything else raises a one-line
    :class:`RecordError` (code ``record.unknown-ruleset``) naming it.

    >>> ruleset_of("classic+doubling=False").doubling
    False
    >>> try:
    ...     ruleset_of("classic+doubling=maybe")
    ... except RecordError as exc:
    ...     print(exc.reason.partition(":")[0])
    unknown ruleset "classic+doubling=maybe"
    """
    code = "record.unknown-ruleset"
    if type(name) is not str:
        raise RecordError(f"a ruleset name is a string, not {brief(name, 40)}", code=code)
    if len(name) > _MAX_RULESET_NAME:
        raise RecordError(
            f"unknown ruleset {brief(name, 40)}: a name of {len(name)} characters", code=code
        )
    try:
        return Ruleset.from_name(name)
    except ValueError as exc:
        raise RecordError(
            f"unknown ruleset {brief(name, 60)}: {one_line(str(exc))}", code=code
        ) from None


_MAX_RULESET_NAME = 1000
"""Longest ruleset name read (every option set is far shorter)."""


# -- metadata ---------------------------------------------------------------------


class Meta(Mapping[str, Any]):
    """A record's metadata: a read-only, hashable mapping of JSON values.

    Objects are kept as :class:`Meta`, lists as tuples; :meth:`to_json` gives
    the JSON back exactly.  Built by :class:`Record` from any JSON object
    within the limits (:data:`MAX_META_CHARS` characters, :data:`MAX_META_ITEMS`
    values, nesting 8 deep); anything else raises :class:`RecordError` with
    the code ``record.bad-meta``.

    >>> meta = Meta({"white": "Ann", "tags": ["blitz"]})
    >>> meta["tags"], meta.to_json()
    (('blitz',), {'white': 'Ann', 'tags': ['blitz']})
    """

    __slots__ = ("_items",)
    _items: dict[str, Any]

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        items = data.to_json() if isinstance(data, Meta) else dict(data or {})
        try:
            check_json(items, max_items=MAX_META_ITEMS, max_depth=8, what="the metadata")
        except TrixError as exc:
            raise RecordError(str(exc), code="record.bad-meta") from None
        size = len(json.dumps(items, separators=(",", ":"), ensure_ascii=False))
        if size > MAX_META_CHARS:
            raise RecordError(
                f"metadata of {size} characters (at most {MAX_META_CHARS})", code="record.bad-meta"
            )
        object.__setattr__(self, "_items", {k: _frozen(v) for k, v in items.items()})

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Meta is read-only")

    def __reduce__(self) -> tuple[object, tuple[dict[str, Any]]]:
        return (Meta, (self.to_json(),))

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(tuple(self._items.items()))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Meta):
            return bool(self._items == other._items)
        if isinstance(other, Mapping):
            return bool(self.to_json() == dict(other))  # the JSON it stands for
        return NotImplemented

    def __repr__(self) -> str:
        return f"Meta({self.to_json()!r})"

    def to_json(self) -> dict[str, Any]:
        """The metadata as the JSON object it was read from."""
        return {k: _thawed(v) for k, v in self._items.items()}


def _frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return _meta_of(value)
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _meta_of(value: dict[str, Any]) -> Meta:
    meta = Meta.__new__(Meta)
    object.__setattr__(meta, "_items", {k: _frozen(v) for k, v in value.items()})
    return meta


def _thawed(value: Any) -> Any:
    if isinstance(value, Meta):
        return value.to_json()
    if isinstance(value, tuple):
        return [_thawed(v) for v in value]
    return value


EMPTY_META = Meta()


def _read_meta(value: object) -> Meta:
    if isinstance(value, Meta):
        return value
    if isinstance(value, Mapping) and not isinstance(value, dict):
        value = dict(value)
    if not isinstance(value, dict):
        raise RecordError(
            f"meta must be a JSON object, not {brief(value, 40)}", code="record.bad-meta"
        )
    return Meta(value) if value else EMPTY_META


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
    """A game record: the ruleset and every move of a match, in order (the record format).

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
    meta: Meta = field(default=EMPTY_META, converter=_read_meta, kw_only=True)
    """The metadata (:class:`Meta`, read-only): players, event, site, date, time control,
    result, free tags — any small JSON object.  Written under ``"meta"`` when not empty;
    replay ignores it."""

    @classmethod
    def of(cls, state: MatchState, meta: Mapping[str, Any] | None = None) -> Record:
        """The record of ``state``: its ruleset's name, its whole move history and ``meta``."""
        return cls(state.ruleset.name, state.history.moves(), meta=_read_meta(meta or {}))

    def append(self, move: Move) -> Record:
        """This record with ``move`` added at the end (a host records a live match)."""
        return Record(self.ruleset, (*self.moves, move), meta=self.meta)

    def to_json(self) -> dict[str, Any]:
        """The record's JSON object (canonical card codes); ``"meta"`` only if there is some."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "ruleset": self.ruleset,
            "moves": [move_to_json(m) for m in self.moves],
        }
        if self.meta:
            data["meta"] = self.meta.to_json()
        return data

    @classmethod
    def from_json(cls, obj: object) -> Record:
        """The record of a record-format JSON object, checked move by move.

        Unknown or missing keys, wrong types, bad card codes, decks that
        are not 52 distinct cards, more than :data:`MAX_MOVES` moves and bad
        metadata raise :class:`RecordError`; reading stops at the first bad
        move.  Legality is checked by :func:`replay`.
        """
        envelope, meta = _read_envelope(obj)
        moves = [_read_move(i, raw) for i, raw in enumerate(envelope.moves)]  # stops at MAX_MOVES
        return cls(envelope.ruleset, tuple(moves), meta=meta)

    def __iter__(self) -> Iterator[Move]:
        return iter(self.moves)

    def __len__(self) -> int:
        return len(self.moves)


def replay(record: Record) -> MatchState:
    """The state a record leads to: its moves applied in order to a new match
    (:func:`~trixcomplex.apply_moves`, a fold of :func:`~trixcomplex.apply`).

    The first illegal step raises :class:`RecordError` naming its index,
    the move and the rule (from the engine's
    :class:`~trixcomplex.IllegalMoveError`).  The metadata plays no part.

    >>> import trixcomplex as tc
    >>> try:
    ...     tc.replay(tc.Record(moves=[tc.Pass(1)]))
    ... except tc.RecordError as exc:
    ...     print(exc.index, exc.rule, exc.code)
    ...     print(exc)
    0 R-MATCH-2 record.illegal-move
    move 0 {"move": "pass", "seat": 1}: not allowed now: the match is waiting for a deal (R-MATCH-2)
    """
    try:
        return apply_moves(new_match(ruleset_of(record.ruleset)), record.moves)
    except IllegalMoveError as exc:
        assert exc.index is not None
        raise _illegal(exc, exc.index, record.moves[exc.index]) from None


def replay_json(obj: object) -> MatchState:
    """Read and replay a record-format JSON object in one lazy pass.

    Each move is read and applied before the next is looked at, so a long
    record broken at move 3 fails at move 3 without reading the rest.
    Raises :class:`RecordError` for the first malformed or illegal step.
    """
    envelope, _meta = _read_envelope(obj)
    return replay_raw_moves(envelope.moves, ruleset_of(envelope.ruleset))


def replay_raw_moves(moves: Iterable[object], ruleset: Ruleset | None = None) -> MatchState:
    """Read and apply raw JSON moves one at a time, stopping at the first bad one.

    The match is one of ``ruleset`` (the default game when ``None``); at most
    :data:`MAX_MOVES` moves are read.  A list of at most :data:`MAX_MOVES`
    moves has its canonical moves (:func:`~trixcomplex.core.moves.canonical_move`) looked up all at
    once first (a bounded cost, even when an early move is illegal); the
    rest is read move by move.
    """
    state = new_match() if ruleset is None else new_match(ruleset)
    start = 0
    if type(moves) is list and len(moves) <= MAX_MOVES:
        canonical = list(map(canonical_move, moves))
        missing = list(map(is_, canonical, repeat(None)))  # by identity: no __eq__ calls
        if True in missing:  # not canonical from there on: read it move by move
            canonical = canonical[: missing.index(True)]
        try:
            state = apply_moves(state, cast(list[Move], canonical))
        except IllegalMoveError as exc:
            assert exc.index is not None
            raise _illegal(exc, exc.index, moves[exc.index]) from None
        if len(canonical) == len(moves):
            return state
        start = len(canonical)
    index, read = start - 1, _read_move
    try:
        for index, raw in enumerate(islice(moves, start, None), start):
            state = apply(state, read(index, raw))
    except IllegalMoveError as exc:
        raise _illegal(exc, index, raw) from None
    return state


def _illegal(exc: IllegalMoveError, index: int, raw: object) -> RecordError:
    """The :class:`RecordError` for move ``index`` (``raw``) refused by the engine."""
    return RecordError(exc.reason, index=index, move=raw, rule=exc.rule, code="record.illegal-move")


def replay_report(state: MatchState) -> dict[str, Any]:
    """The JSON object ``trixcomplex replay --json`` prints (the replay report).

    The keys are the same for every ruleset: ``complete``, ``deals``
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
