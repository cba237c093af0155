"""Every loader hardened (issue 12, point 8): fuzzing with hostile values.

For each loader — :func:`~trixcomplex.move_from_json`,
:meth:`~trixcomplex.Record.from_json`, :func:`~trixcomplex.replay_json`,
:func:`~trixcomplex.from_json` of a state and of a view, the strict
:func:`trixcomplex.core.jsonio.loads`, :func:`~trixcomplex.parse_card` and
:func:`~trixcomplex.sample_world` — valid input is mutated at a random place
into each kind of hostile value the fuzzing pass found holes with (huge
integers, deep nesting, non-string keys, long strings, seat numbers out of
range), and only the library's documented errors (:class:`~trixcomplex.TrixError`,
one bounded line, a listed code) may escape, within a budget of processor time
(:func:`~cpu_budget.cpu_budget`: a busy machine does not change it, as it would a
wall-clock deadline).
"""

from __future__ import annotations

import copy
import io
import json
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import VIEW_RULESETS, nested, nested_dicts, redeal_heavy_match
from cpu_budget import cpu_budget
from trixcomplex.cli.replay import run_replay
from trixcomplex.core.errors import ERROR_CODES, MAX_MESSAGE
from trixcomplex.core.jsonio import MAX_STRING, brief, loads
from trixcomplex.io.records import MAX_MOVES

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
"""Hypothesis settings of the fuzz tests (no wall-clock deadline: see :data:`LOAD_BUDGET`)."""

LOAD_BUDGET = 3.0
"""Seconds of processor time one hostile input may cost a loader: its sizes are bounded
(a million-item list at most), so only work that grows out of bounds comes near it."""


def deep(depth: int, leaf: object = 1) -> object:
    return nested(depth, leaf)


def deep_dict(depth: int) -> object:
    return nested_dicts(depth, "seat")


def seat_numbers(size: int, rng: random.Random) -> list[int]:
    """``size`` random seat numbers (0 to 3): a long list of values a loader may take one
    by one.  Drawn from one seed, not item by item: hypothesis spends seconds drawing
    thousands of items, and it would shrink such a list no better."""
    return [rng.randrange(4) for _ in range(size)]


LONG = 250_000
"""A list longer than any loader reads (the most, a saved state's values, is 100 000): as
hostile as a million items, at a quarter of the cost of walking it."""

HOSTILE = st.one_of(
    st.sampled_from(
        [
            10**5000,
            -(10**5000),
            2**64,
            5,
            -1,
            2**63,
            10**100,
            float("inf"),
            float("nan"),
            True,
            None,
            "",
            "Q♤",
            "QS\n",
            "\u20037H",
            "Qſ",
        ]
    ),
    st.integers(2, 3000).map(deep),
    st.integers(2, 3000).map(deep_dict),
    st.integers(MAX_STRING - 2, 3 * MAX_STRING).map(lambda n: "x" * n),
    st.dictionaries(
        st.integers() | st.none() | st.booleans(), st.integers(), min_size=1, max_size=3
    ),
    st.builds(seat_numbers, st.integers(1000, 3000), st.randoms(use_true_random=False)),
    st.just(list(range(LONG))),
    st.tuples(st.integers(), st.integers()),
    st.sets(st.integers(), max_size=2),
)
"""The hostile values: huge and out-of-range ints, non-finite floats, deep nesting, long
strings, non-string keys, long lists, Python types that are not JSON."""


def paths(value: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Every place in a JSON value (dict keys and list indices), the root included."""
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += paths(child, (*prefix, index))
    return found


def mutated(value: object, where: int, junk: object, add_key: bool) -> object:
    """``value`` with the place number ``where`` replaced by ``junk`` (or, with
    ``add_key`` and a dict there, given the extra key ``7`` or a copy of a key)."""
    value = copy.deepcopy(value)
    places = paths(value)
    path = places[where % len(places)]
    if not path:
        return junk
    parent: Any = value
    for step in path[:-1]:
        parent = parent[step]
    if add_key and isinstance(parent, dict):
        parent[7] = junk
    else:
        parent[path[-1]] = junk
    return value


def only_documented_errors(load: Callable[[object], object], data: object) -> object | None:
    """Run ``load``; a failure must be a TrixError with a listed code and one bounded line."""
    try:
        return load(data)
    except tc.TrixError as exc:
        assert exc.code in ERROR_CODES, exc.code
        message = str(exc)
        assert len(message.splitlines()) == 1 and len(message) <= MAX_MESSAGE
        assert json.loads(json.dumps(exc.to_json())) == exc.to_json()
        return None


STATES = redeal_heavy_match(tc.CLASSIC.evolve(bad_hand_redeal=True), 3)
MID = STATES[len(STATES) // 2]
RECORD_JSON = json.loads(json.dumps(tc.Record.of(STATES[60], meta={"event": "x"}).to_json()))
STATE_JSON = json.loads(json.dumps(tc.to_json(STATES[40])))
VIEW_JSON = json.loads(json.dumps(tc.to_json(tc.view(MID, 1))))
MOVE_JSON = {"move": "double", "seat": 1, "cards": ["KH", "QS"]}
TURN = next(s for s in STATES if s.turn == 1 and len(tc.legal_moves(s, 1)) > 1)
TURN_JSON = tc.move_to_json(tc.legal_moves(TURN, 1)[-1])


def _view_loader(data: object) -> object:
    loaded = tc.from_json(tc.View, data)
    world = tc.sample_world(loaded, random.Random(1))  # a loaded view always samples
    assert tc.view(world, loaded.seat) == loaded
    return loaded


LOADERS: dict[str, tuple[Callable[[object], object], object]] = {
    "move_from_json": (tc.move_from_json, MOVE_JSON),
    "Record.from_json": (tc.Record.from_json, RECORD_JSON),
    "replay_json": (tc.replay_json, RECORD_JSON),
    "from_json(MatchState)": (lambda d: tc.from_json(tc.MatchState, d), STATE_JSON),
    "from_json(View)": (_view_loader, VIEW_JSON),
    "submit": (lambda d: tc.submit(TURN, 1, d), TURN_JSON),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(LOADERS))
@FUZZ
@given(where=st.integers(0, 10**6), junk=HOSTILE, add_key=st.booleans())
def test_hostile_values_anywhere_give_only_documented_errors(
    name: str, where: int, junk: object, add_key: bool
) -> None:
    """Issue 12 point 8: a hostile value at any place of valid input (a huge int, deep
    nesting, a non-string key, a long string, a long list, a non-JSON type) is read or
    refused with a documented error; the input is never changed."""
    load, valid = LOADERS[name]
    data = mutated(valid, where, junk, add_key)
    before = brief(data, 5000)
    with cpu_budget(LOAD_BUDGET, f"{name} of a hostile input"):
        only_documented_errors(load, data)
    assert brief(data, 5000) == before


@pytest.mark.parametrize("name", list(LOADERS))
def test_the_valid_inputs_load(name: str) -> None:
    load, valid = LOADERS[name]
    assert load(copy.deepcopy(valid)) is not None


# -- the holes one by one -------------------------------------------------------------


def test_hole_huge_and_deep_seats_give_a_move_format_error() -> None:
    """R-SEAT-1: 10**5000 (the int-to-str limit) and a 2,000-deep seat (recursion)."""
    for seat in (10**5000, deep(2000, 0), deep_dict(2000)):
        with pytest.raises(tc.MoveFormatError) as info:
            tc.move_from_json({"move": "pass", "seat": seat})
        assert len(str(info.value)) <= MAX_MESSAGE


@settings(max_examples=30, deadline=None)
@given(size=st.integers(10**5, 10**6), kind=st.sampled_from(["list", "str", "dict"]))
def test_hole_brief_reads_a_bounded_prefix(size: int, kind: str) -> None:
    """A 1M-item value used to cost ~2 s in brief(): now only a prefix is looked at."""
    value: object = {"list": lambda: list(range(size)), "str": lambda: "y" * size}.get(
        kind, lambda: {str(i): i for i in range(size // 10)}
    )()
    with cpu_budget(0.2, f"brief() of a {size}-item {kind}"):
        text = brief(value, 80)
    assert len(text) <= 80 and "\n" not in text


@pytest.mark.parametrize(
    "load",
    [tc.Record.from_json, tc.replay_json, lambda d: tc.from_json(tc.View, d)],
    ids=["Record.from_json", "replay_json", "from_json(View)"],
)
def test_hole_a_non_string_key_is_a_documented_error(load: Callable[[object], object]) -> None:
    """A dict key 7 in a record or view raised TypeError: now a TrixError (json.not-json)."""
    for valid in (RECORD_JSON, VIEW_JSON):
        for where in range(0, len(paths(valid)), 7):
            data = mutated(valid, where, "x", True)
            with pytest.raises(tc.TrixError):
                load(data)


def test_hole_duplicate_keys_are_rejected_everywhere_json_is_read(tmp_path: Any) -> None:
    """A complete record with ', "moves": []' appended used to replay as an empty match with
    exit status 0; every reader of JSON text now refuses a key named twice."""
    text = json.dumps(tc.Record.of(STATES[-1]).to_json())
    attack = text[:-1] + ', "moves": []}'
    assert json.loads(attack)["moves"] == []  # the stdlib takes the last one
    with pytest.raises(tc.TrixError) as info:
        loads(attack)
    assert info.value.code == "json.duplicate-key"
    path = tmp_path / "attack.json"
    path.write_text(attack, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert run_replay(str(path), as_json=True, stdin=io.StringIO(), stdout=out, stderr=err) == 1
    assert json.loads(out.getvalue())["code"] == "json.duplicate-key"
    with pytest.raises(tc.SubmitError) as sub:
        tc.submit(MID, 1, '{"move": "pass", "seat": 1, "seat": 1}')
    assert sub.value.code == "submit.duplicate-key"


@FUZZ
@given(
    pairs=st.lists(
        st.tuples(st.sampled_from(["a", "b", "move", "seat"]), st.integers()),
        min_size=2,
        max_size=6,
    ),
    depth=st.integers(0, 3),
)
def test_duplicate_keys_at_any_depth_are_refused(pairs: list[tuple[str, int]], depth: int) -> None:
    text = "{" + ", ".join(f'"{k}": {v}' for k, v in pairs) + "}"
    for _ in range(depth):
        text = f'{{"x": [{text}]}}'
    duplicated = len({k for k, _ in pairs}) < len(pairs)
    try:
        loads(text)
    except tc.TrixError as exc:
        assert duplicated and exc.code == "json.duplicate-key"
    else:
        assert not duplicated


RANKS = [*"23456789TJQKA", *"tjqka", "10"]
SUITS = [*"SHDC", *"shdc", *"♠♥♦♣"]
DOCUMENTED = {r + s for r in RANKS for s in SUITS}


@settings(max_examples=400, deadline=None)
@given(
    text=st.one_of(
        st.sampled_from(sorted(DOCUMENTED)),
        st.sampled_from(sorted(DOCUMENTED)).flatmap(
            lambda code: st.sampled_from(
                [" " + code, code + "\n", "\u2003" + code, code + " ", code.replace("S", "ſ")]
            )
        ),
        st.text(alphabet="23456789TJQKAtjqka10SHDCshdc♠♥♦♣♤♡♢♧ſK\u212a \n\u2003", max_size=4),
        st.text(max_size=5),
    )
)
def test_hole_parse_card_accepts_exactly_the_documented_forms(text: str) -> None:
    """R-CARD-2: exactly rank (2–9, T, 10, J, Q, K, A, letters in either case) then suit
    (S H D C in either case, or ♠ ♥ ♦ ♣); no spaces, no outline suits, no ſ or Kelvin sign."""
    try:
        card = tc.parse_card(text)
    except tc.CardParseError as exc:
        assert text not in DOCUMENTED
        assert exc.code == "bad-card" and exc.rule == "R-CARD-2"
    else:
        assert text in DOCUMENTED
        assert str(card) == text.upper().replace("10", "T").translate(str.maketrans("♠♥♦♣", "SHDC"))


@pytest.mark.parametrize("code", ["QS\n", "\u20037H", "Qſ", "Q♤", "10♡", " QS", "QS ", "\u212aH"])
def test_hole_the_codes_the_fuzzer_found_are_refused(code: str) -> None:
    """R-CARD-2: the very inputs of issue 12."""
    with pytest.raises(tc.CardParseError):
        tc.parse_card(code)
    with pytest.raises(tc.MoveFormatError):
        tc.move_from_json({"move": "play", "seat": 0, "card": code})


def _tampered_views() -> list[tc.View]:
    """The tampered views of issue 12: seats 5 and 2**64 in laid, deal_number 0 in CHOOSE,
    a DEAL view with a hand; and a few more of the same kind."""
    trix = next(
        s
        for s in STATES
        if s.trix is not None and len(s.trix.finishing_order) == 0 and s.trix.table.bit_count() > 3
    )
    seen = tc.view(trix, 2)
    choose = next(s for s in STATES if s.phase is tc.Phase.CHOOSE)
    between = next(s for s in STATES[1:] if s.phase is tc.Phase.DEAL)
    complex_ = next(s for s in STATES if s.trick_deal is not None and s.trick_deal.tricks)
    laid = list(seen.laid)
    return [
        attrs.evolve(seen, laid=((5, laid[0][1]), *laid[1:])),
        attrs.evolve(seen, laid=((2**64, laid[0][1]), *laid[1:])),
        attrs.evolve(seen, passes=((9, 0),)),
        attrs.evolve(tc.view(choose, 1), deal_number=0),
        attrs.evolve(tc.view(choose, 1), deal_number=10**6),
        attrs.evolve(tc.view(between, 0), hand=trix.hand(0)[:3]),
        attrs.evolve(tc.view(between, 0), hand=trix.hand(0)[:3], hand_sizes=(3, 0, 0, 0)),
        attrs.evolve(tc.view(complex_, 3), leader=4),
        attrs.evolve(tc.view(complex_, 3), owner=-1),
        attrs.evolve(tc.view(complex_, 3), seat=2**64),
        attrs.evolve(tc.view(complex_, 3), hand_sizes=(13, 13, 13, 99)),
        attrs.evolve(tc.view(between, 0), turn=2),
        attrs.evolve(tc.view(between, None), points=(5, 0, 0, -5)),
    ]


@pytest.mark.parametrize("index", range(13))
def test_hole_tampered_views_are_refused_on_load_and_by_sample_world(index: int) -> None:
    """R-HID-1: the view loader validates; sample_world never raises IndexError or
    AssertionError, and never returns a world inconsistent with its view."""
    tampered = _tampered_views()[index]
    with pytest.raises(tc.TrixError) as info:
        tc.sample_world(tampered, random.Random(0))
    assert info.value.code == "view.inconsistent"
    data = json.loads(json.dumps(tc.to_json(tampered)))
    with pytest.raises(tc.StateFormatError) as loaded:
        tc.from_json(tc.View, data)
    assert loaded.value.code in ("view.inconsistent", "json.too-large")  # 2**64 is not read


@pytest.mark.parametrize("ruleset", VIEW_RULESETS, ids=[r.name for r in VIEW_RULESETS])
def test_every_true_view_still_loads_and_samples(ruleset: tc.Ruleset) -> None:
    """The checks refuse no view of a reachable state (every phase, every viewer)."""
    states = redeal_heavy_match(ruleset, 12)
    for state in states[:: max(1, len(states) // 25)]:
        for viewer in (None, 0, 1, 2, 3):
            seen = tc.view(state, viewer)
            assert tc.from_json(tc.View, json.loads(json.dumps(tc.to_json(seen)))) == seen


def test_hole_record_reading_is_bounded_and_fails_early() -> None:
    """A 1M-move record was read whole (~7 s) before replay could refuse move 0; reading
    now stops at the first bad move, and at MAX_MOVES moves in any case."""
    million = {**RECORD_JSON, "moves": [{"move": "timeout"}] * 1_000_000}
    for load in (tc.Record.from_json, tc.replay_json):
        with pytest.raises(tc.RecordError) as info:
            load(million)
        assert info.value.index in (0, None)
    many = {**RECORD_JSON, "moves": [{"move": "timeout"}] * (MAX_MOVES + 5)}
    many["moves"][0] = RECORD_JSON["moves"][0]
    with pytest.raises(tc.RecordError) as info:
        tc.Record.from_json(many)
    assert info.value.code == "record.too-many-moves"
    for meta in ({"x": "y" * 10**7}, {"x": list(range(10**6))}, {str(i): i for i in range(10**5)}):
        with pytest.raises(tc.RecordError) as info:
            tc.Record.from_json({**RECORD_JSON, "meta": meta})
        assert info.value.code == "record.bad-meta"
    with pytest.raises(tc.TrixError) as too_long:
        loads("[" + "1," * 10**6 + "1]", max_length=10**6)
    assert too_long.value.code == "json.too-large"


# -- record metadata --------------------------------------------------------------------


@FUZZ
@given(
    meta=st.dictionaries(
        st.text(max_size=20),
        st.recursive(
            st.none()
            | st.booleans()
            | st.integers(-(2**53), 2**53)
            | st.text(max_size=30)
            | st.floats(allow_nan=False, allow_infinity=False),
            lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
            max_leaves=20,
        ),
        max_size=8,
    )
)
def test_meta_is_kept_exactly_through_write_and_read_and_ignored_by_replay(
    meta: dict[str, Any],
) -> None:
    """Record format: metadata round-trips exactly, is read-only and hashable, and replay
    ignores it."""
    record = tc.Record.of(STATES[30], meta=meta)
    text = json.dumps(record.to_json())
    again = tc.Record.from_json(loads(text))
    assert again == record and hash(again) == hash(record)
    assert again.meta.to_json() == meta
    assert ("meta" in json.loads(text)) == bool(meta)
    assert tc.replay(again) == tc.replay(tc.Record.of(STATES[30])) == STATES[30]
    with pytest.raises((TypeError, AttributeError)):
        again.meta["new"] = 1  # type: ignore[index]


def test_old_records_without_meta_still_load_and_meta_survives_append() -> None:
    old = {k: v for k, v in RECORD_JSON.items() if k != "meta"}
    assert tc.Record.from_json(old).meta == {}
    record = tc.Record.from_json(RECORD_JSON)
    assert record.meta["event"] == "x"
    assert record.append(tc.Timeout()).meta == record.meta
    nested = tc.Record(meta={"players": ["A", "B"], "clock": {"base": 30}})
    again = tc.Record.of(STATES[5], meta=nested.meta)  # a Meta (frozen values) is taken as it is
    assert again.meta == nested.meta and again.meta.to_json()["clock"] == {"base": 30}
    assert tc.Meta(nested.meta) == nested.meta
    for bad in ([], "x", {"k": float("nan")}, {"k": {1: 2}}):
        with pytest.raises(tc.RecordError) as info:
            tc.Record.from_json({**RECORD_JSON, "meta": bad})
        assert info.value.code == "record.bad-meta"
