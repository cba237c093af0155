"""The engine's tuple-backed records behave as the frozen attrs classes they replaced.

MatchState, ComplexDeal, Trick, TrixDeal and DoublingWindow are built in one call each
(``trixcomplex.core.tuplerecord``); their public face must not change: named
fields, the constructors, attrs' introspection (fields, evolve, asdict),
value equality with their own class only, hashing, repr, pickling and
copying, FrozenInstanceError, and no sequence behaviour.
"""

from __future__ import annotations

import copy
import operator
import pickle
import random

import attrs
import pytest

import trixcomplex as tc


def _states() -> list[tc.MatchState]:
    """A state in each of DEAL, CHOOSE, DOUBLE, COMPLEX (mid-trick) and TRIX."""
    rng = random.Random(4)
    state = tc.new_match()
    seen: dict[tc.Phase, tc.MatchState] = {}
    while not state.is_over and len(seen) < 5:
        deal = state.complex
        if state.phase not in seen and (deal is None or (deal.trick and deal.tricks)):
            seen[state.phase] = state
        if state.phase is tc.Phase.DEAL:
            state = tc.apply(state, tc.Deal.shuffled(rng))
        else:
            state = tc.apply(state, rng.choice(tc.legal_moves(state)))
    return list(seen.values())


def _records() -> list[object]:
    out: list[object] = []
    for state in _states():
        out.append(state)
        if state.complex is not None:
            out.append(state.complex)
            out.extend(state.complex.tricks[:1])
        if state.trix is not None:
            out.append(state.trix)
        if state.window is not None:
            out.append(state.window)
    return out


def test_records_cover_every_tuple_backed_class() -> None:
    kinds = {type(r) for r in _records()}
    assert kinds == {tc.MatchState, tc.ComplexDeal, tc.Trick, tc.TrixDeal, tc.DoublingWindow}


@pytest.mark.parametrize("record", _records(), ids=lambda r: type(r).__name__)
def test_equal_only_to_an_equal_record_of_its_own_class(record: object) -> None:
    fields = attrs.fields(type(record))
    values = tuple(getattr(record, f.name) for f in fields)
    again = attrs.evolve(record)
    assert again == record and hash(again) == hash(record) and again is not record
    assert operator.ne(again, record) is False
    # Never equal to the plain tuple of its fields, from either side.
    assert record != values and values != record
    assert operator.eq(record, values) is False and operator.eq(values, record) is False
    first = fields[0]
    value = getattr(record, first.name)  # another value (an int for values derived from it)
    changed = attrs.evolve(record, **{first.alias: value ^ 1 if type(value) is int else object()})
    assert changed != record and operator.eq(changed, record) is False
    assert record != object() and record is not None


@pytest.mark.parametrize("record", _records(), ids=lambda r: type(r).__name__)
def test_frozen_named_fields_repr_pickle_copy(record: object) -> None:
    cls = type(record)
    names = [f.name for f in attrs.fields(cls)]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        setattr(record, names[0], 1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        delattr(record, names[0])
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        record.other = 1  # type: ignore[attr-defined]
    shown = ", ".join(f"{n}={getattr(record, n)!r}" for n in names)
    assert repr(record) == f"{cls.__name__}({shown})"
    for back in (pickle.loads(pickle.dumps(record)), copy.copy(record), copy.deepcopy(record)):
        assert type(back) is cls and back == record and hash(back) == hash(record)
    assert attrs.asdict(record, recurse=False) == {n: getattr(record, n) for n in names}
    assert attrs.has(cls) and bool(record)


@pytest.mark.parametrize("record", _records(), ids=lambda r: type(r).__name__)
def test_not_a_sequence_nor_ordered(record: object) -> None:
    with pytest.raises(TypeError):
        len(record)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        iter(record)  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        record[0]  # type: ignore[index]
    with pytest.raises(TypeError):
        operator.contains(record, 0)  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        record < record  # type: ignore[operator]  # noqa: B015
    with pytest.raises(TypeError):
        record + (1,)  # type: ignore[operator]
    with pytest.raises(TypeError):
        record * 2  # type: ignore[operator]


def test_constructors_keep_their_signatures() -> None:
    """MatchState is keyword-only with a default ruleset; the deals are positional."""
    fields = attrs.fields(tc.MatchState)
    assert [f.name for f in fields] == [
        "phase", "deal_number", "owner", "contract", "hands", "turn", "deal", "scores",
        "results", "history", "ruleset",
    ]  # fmt: skip
    assert all(f.kw_only for f in fields) and fields.ruleset.default is tc.PARTNERSHIP
    state = tc.new_match(tc.CLASSIC)
    values = {f.name: getattr(state, f.name) for f in fields}
    assert tc.MatchState(**values) == state
    del values["ruleset"]
    assert tc.MatchState(**values).ruleset is tc.PARTNERSHIP
    with pytest.raises(TypeError):
        tc.MatchState(*values.values())  # type: ignore[misc]
    deal = tc.ComplexDeal(1, (), (), (), (0, 0, 0, 0))
    assert (deal.leader, deal.trick, deal.points) == (1, (), (0, 0, 0, 0))
    assert tc.TrixDeal(5, (2,)).finishing_order == (2,)
    assert tc.Trick(0, (1, 2, 3, 4), 3).played_by(1) == 2  # type: ignore[arg-type]
    assert [f.name for f in attrs.fields(tc.ComplexDeal)] == [
        "leader", "trick", "tricks", "doubled", "points",
    ]  # fmt: skip


def test_states_round_trip_through_json() -> None:
    """serialize reads the records through attrs.fields and cattrs (the deal included)."""
    for state in _states():
        assert tc.from_json(tc.MatchState, tc.to_json(state)) == state
        if state.deal is not None:
            assert tc.from_json(type(state.deal), tc.to_json(state.deal)) == state.deal


def test_history_nodes_are_values_not_tuples() -> None:
    """History is tuple-backed too: equal move lists are equal and hash alike, however
    built (appended one by one, or extended in one segment), and nothing else is."""
    state = _states()[-1]
    moves = state.history.moves()
    appended = tc.History.EMPTY
    for move in moves:
        appended = appended.append(move)
    segment = tc.History.EMPTY.extend(moves)
    half = tc.History.EMPTY.extend(moves[:50]).extend(moves[50:])
    assert hash(appended) == hash(segment) == hash(half) == hash(state.history)
    assert appended == segment == half == state.history
    assert hash(appended) == hash(appended)  # the cached hash is the computed one
    shorter = state.history._prev
    assert shorter is not None and shorter != state.history and hash(shorter) != hash(appended)
    assert state.history != (shorter, moves[-1], len(moves)) and moves[-1] in state.history
    assert moves[0] in appended and tc.Timeout() not in state.history
    assert len(state.history) == len(moves) and list(state.history) == list(moves)
    with pytest.raises(TypeError):
        state.history[0]  # type: ignore[index]
    with pytest.raises(TypeError):
        state.history < state.history  # type: ignore[operator]  # noqa: B015
    with pytest.raises(AttributeError):
        state.history._len = 3  # type: ignore[misc]
    assert not tc.History.EMPTY and bool(state.history)


def test_an_unhashed_history_node_holds_no_dict() -> None:
    """Nodes keep a hash only once asked (and every 64th on the way): memory stays flat."""
    history = tc.History.EMPTY
    timeout = tc.Timeout()
    for _ in range(200):
        history = history.append(timeout)
    assert "_cached_hash" not in vars(history)
    hash(history)
    node: tc.History | None = history
    kept = []
    while node is not None:
        if "_cached_hash" in vars(node):
            kept.append(len(node))
        node = node._prev
    assert kept == [200, 192, 128, 64]


def test_a_subclass_keeps_the_fields_and_cannot_add_any() -> None:
    class Mine(tc.TrixDeal):
        __slots__ = ()

    mine = Mine(5, (1,))
    assert attrs.fields(Mine) == attrs.fields(tc.TrixDeal) and mine.table == 5
    assert repr(mine) == "Mine(table=5, finishing_order=(1,))" and mine != tc.TrixDeal(5, (1,))
    with pytest.raises(TypeError):

        class More(tc.TrixDeal):
            extra: int
