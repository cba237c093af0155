"""Hostile input: junk, huge, deep and long JSON ends in a clean one-line error.

Whatever a client sends, reading a record or a saved state raises
:class:`trixcomplex.RecordError` (a ``ValueError``; a
:class:`~trixcomplex.StateFormatError` is one) with a single-line message,
or succeeds: never another exception type, never unbounded recursion,
never a half-applied change (states are immutable and the input is left
as it was).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import nested, nested_dicts, random_match

ENVELOPE: dict[str, Any] = {"format": "trixcomplex-record", "version": 1, "ruleset": "partnership"}

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["AS", "10♥", "qd", "KH", "COMPLEX", "TRIX", "play", "deal"]),
    lambda children: (
        st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=8), children, max_size=6)
    ),
    max_leaves=40,
)
"""Any JSON value (floats included, as ``json.loads`` gives them)."""

move_like = st.fixed_dictionaries(
    {"move": st.sampled_from(["deal", "choose", "double", "timeout", "play", "pass", "x"])},
    optional={
        "seat": st.integers(-2, 5) | json_values,
        "card": st.sampled_from(["AS", "KH", "1X", ""]) | json_values,
        "cards": st.lists(st.sampled_from(["QS", "KH", "QH", "QS", "AS"]), max_size=5)
        | json_values,
        "deck": json_values,
        "contract": st.sampled_from(["COMPLEX", "TRIX", "complex"]) | json_values,
    },
)
"""Values shaped like moves, so that junk gets past the first checks."""

READERS: dict[str, Callable[[object], object]] = {
    "Record.from_json": tc.Record.from_json,
    "replay_json": tc.replay_json,
    "from_json(MatchState)": lambda data: tc.from_json(tc.MatchState, data),
    "from_json(View)": lambda data: tc.from_json(tc.View, data),
}


def _only_clean_errors(read: Callable[[object], object], data: object) -> None:
    before = copy.deepcopy(data)
    try:
        read(data)
    except tc.RecordError as exc:
        assert isinstance(exc, ValueError)
        assert len(str(exc).splitlines()) == 1
        assert len(str(exc)) < 1000
    assert data == before


def _state_json() -> dict[str, Any]:
    states = random_match(17)
    state = next(s for s in states if s.phase is tc.Phase.DOUBLE)
    return json.loads(json.dumps(tc.to_json(state)))


STATE_JSON = _state_json()
DEAL_JSON = STATE_JSON["moves"][0]


# -- hypothesis junk --------------------------------------------------------------


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_junk_json_gives_a_clean_error_to_every_reader(data: object) -> None:
    for read in READERS.values():
        _only_clean_errors(read, data)


@pytest.mark.slow
@settings(max_examples=150)
@given(st.lists(move_like, max_size=4))
def test_junk_moves_in_a_valid_record_give_a_clean_error(moves: list[object]) -> None:
    record = {**ENVELOPE, "moves": [DEAL_JSON, *moves]}
    for read in (tc.Record.from_json, tc.replay_json):
        _only_clean_errors(read, record)


@settings(max_examples=100)
@given(st.sampled_from(sorted(STATE_JSON["state"])), json_values)
def test_junk_in_a_saved_state_field_gives_a_clean_error(field: str, junk: object) -> None:
    data = copy.deepcopy(STATE_JSON)
    data["state"][field] = junk
    _only_clean_errors(lambda d: tc.from_json(tc.MatchState, d), data)


@settings(max_examples=60)
@given(st.sampled_from(["format", "version", "ruleset", "moves", "state"]), json_values)
def test_junk_in_a_saved_state_envelope_gives_a_clean_error(key: str, junk: object) -> None:
    data = copy.deepcopy(STATE_JSON)
    data[key] = junk
    _only_clean_errors(lambda d: tc.from_json(tc.MatchState, d), data)


# -- huge numbers, deep nesting, long strings -----------------------------------------


HUGE = [10**100, -(10**100), 10**5000, 2**64]


@pytest.mark.parametrize("number", HUGE, ids=["1e100", "-1e100", "1e5000", "2**64"])
def test_huge_numbers_are_rejected_cleanly(number: int) -> None:
    for move in (
        {"move": "play", "seat": number, "card": "AS"},
        {"move": "play", "seat": 0, "card": number},
        {"move": "deal", "deck": [number] * 52},
    ):
        with pytest.raises(tc.RecordError) as info:
            tc.replay_json({**ENVELOPE, "moves": [DEAL_JSON, move]})
        assert info.value.index in (0, 1)
        assert len(str(info.value).splitlines()) == 1 and len(str(info.value)) < 1000
    with pytest.raises(tc.RecordError, match="version"):
        tc.Record.from_json({**ENVELOPE, "version": number, "moves": []})
    data = copy.deepcopy(STATE_JSON)
    data["state"]["turn"] = number
    with pytest.raises(tc.StateFormatError, match=r"state\.turn"):
        tc.from_json(tc.MatchState, data)
    data["state"]["turn"] = None
    data["state"]["scores"] = [number, 0, 0, 0]
    with pytest.raises(tc.StateFormatError, match=r"state\.scores"):
        tc.from_json(tc.MatchState, data)


@pytest.mark.parametrize("deep", [nested(10_000), nested_dicts(10_000)])
def test_deeply_nested_values_never_recurse_without_bound(deep: object) -> None:
    """Depth 10 000 is refused by a depth check (iterative), not by a RecursionError."""
    cases: list[tuple[Callable[[object], object], object]] = [
        (tc.Record.from_json, deep),
        (tc.replay_json, {**ENVELOPE, "moves": [DEAL_JSON, deep]}),
        (tc.replay_json, {**ENVELOPE, "ruleset": deep, "moves": []}),
        (tc.Record.from_json, {**ENVELOPE, "moves": deep}),
        (lambda d: tc.from_json(tc.MatchState, d), deep),
        (lambda d: tc.from_json(tc.MatchState, d), {**STATE_JSON, "version": deep}),
        (lambda d: tc.from_json(tc.MatchState, d), {**STATE_JSON, "moves": [deep]}),
        (
            lambda d: tc.from_json(tc.MatchState, d),
            {**STATE_JSON, "state": {**STATE_JSON["state"], "hands": deep}},
        ),
        (lambda d: tc.from_json(tc.View, d), deep),
    ]
    for read, data in cases:
        with pytest.raises(tc.RecordError) as info:
            read(data)
        assert len(str(info.value).splitlines()) == 1 and len(str(info.value)) < 1000


def test_deep_move_error_names_the_index() -> None:
    with pytest.raises(tc.RecordError) as info:
        tc.replay_json({**ENVELOPE, "moves": [DEAL_JSON, nested(10_000)]})
    assert info.value.index == 1
    assert "nested deeper than" in str(info.value)


TEN_MB = "Q" * 10_000_000


@pytest.mark.parametrize(
    "data",
    [
        {**ENVELOPE, "moves": [DEAL_JSON, {"move": "play", "seat": 0, "card": TEN_MB}]},
        {**ENVELOPE, "moves": [DEAL_JSON, {"move": TEN_MB}]},
        {**ENVELOPE, "moves": [DEAL_JSON, {"move": "timeout", TEN_MB: 1}]},
        {**ENVELOPE, "ruleset": TEN_MB, "moves": []},
        {**ENVELOPE, "format": TEN_MB, "moves": []},
        {**ENVELOPE, TEN_MB: 0, "moves": []},
    ],
)
def test_ten_megabyte_strings_give_a_short_error(data: object) -> None:
    with pytest.raises(tc.RecordError) as info:
        tc.replay_json(data)
    assert len(str(info.value)) < 1000 and len(str(info.value).splitlines()) == 1


def test_ten_megabyte_strings_in_a_saved_state() -> None:
    data = copy.deepcopy(STATE_JSON)
    data["state"]["phase"] = TEN_MB
    with pytest.raises(tc.StateFormatError) as info:
        tc.from_json(tc.MatchState, data)
    assert len(str(info.value)) < 1000


# -- a million moves broken at move 3 -----------------------------------------------


class CountingList(list[Any]):
    """A list that counts how many of its items were handed out."""

    handed_out = 0

    def __iter__(self) -> Iterator[Any]:
        for item in super().__iter__():
            self.handed_out += 1
            yield item

    def __getitem__(self, index: Any) -> Any:
        self.handed_out += 1
        return super().__getitem__(index)


MILLION = 1_000_000


def _million(bad: dict[str, Any]) -> CountingList:
    """Deal, a timeout (owner's choice), a double-window timeout, ``bad``, then a million more."""
    return CountingList(
        [DEAL_JSON, {"move": "timeout"}, {"move": "timeout"}, bad] + [bad] * MILLION
    )


@pytest.mark.parametrize(
    ("bad", "rule"),
    [
        ({"move": "play", "seat": 0, "card": "ZZ"}, "R-CARD-2"),  # malformed
        ({"move": "pass", "seat": 0}, "R-CX-2"),  # well-formed but illegal
    ],
)
def test_a_million_move_record_broken_at_move_3_stops_there(bad: dict[str, Any], rule: str) -> None:
    moves = _million(bad)
    with pytest.raises(tc.RecordError) as info:
        tc.replay_json({**ENVELOPE, "moves": moves})
    assert (info.value.index, info.value.rule) == (3, rule)
    assert moves.handed_out <= 5  # the rest was never looked at

    moves = _million(bad)
    with pytest.raises(tc.StateFormatError) as info2:
        tc.from_json(tc.MatchState, {**STATE_JSON, "moves": moves})
    assert (info2.value.index, info2.value.rule) == (3, rule)
    assert moves.handed_out <= 5


def test_record_from_json_stops_at_the_first_malformed_move() -> None:
    moves = _million({"move": "play", "seat": 9, "card": "AS"})
    with pytest.raises(tc.RecordError) as info:
        tc.Record.from_json({**ENVELOPE, "moves": moves})
    assert (info.value.index, info.value.rule) == (3, "R-SEAT-1")
    assert moves.handed_out <= 5


@pytest.mark.parametrize("breaker", ["\n", "\r", "\u2028", "\x85", "\x0b"])
def test_line_breaks_in_input_never_split_the_error_line(breaker: str) -> None:
    for data in (
        {**ENVELOPE, "moves": [DEAL_JSON, {"move": f"x{breaker}y"}]},
        {**ENVELOPE, "moves": [DEAL_JSON, {"move": "timeout", f"k{breaker}": 1}]},
        {**ENVELOPE, "moves": [DEAL_JSON, {"move": "play", "seat": 0, "card": f"A{breaker}S"}]},
        {**ENVELOPE, "ruleset": f"a{breaker}b", "moves": []},
        {**ENVELOPE, f"k{breaker}": 1, "moves": []},
    ):
        with pytest.raises(tc.RecordError) as info:
            tc.replay_json(data)
        assert len(str(info.value).splitlines()) == 1


# -- ruleset names (R-SET-1) -------------------------------------------------------

ruleset_names = (
    st.text(max_size=40)
    | st.builds(
        lambda base, opts: base + "+" + ",".join(opts),
        st.sampled_from([*tc.RULESETS, "Classic", "", "classic "]),
        st.lists(
            st.sampled_from(
                ["doubling=False", "doubling=True", "doubling=false", "doubling", "=True",
                 "show_twos=True", "name=True", "contracts=False", "partnership=False", ""]
            ),
            max_size=4,
        ),
    )
    | json_values
)  # fmt: skip
"""Ruleset names: junk strings, near-misses of real option names, non-strings."""


def _ruleset_readers(name: object) -> Iterator[Callable[[], object]]:
    yield lambda: tc.Record.from_json({**ENVELOPE, "ruleset": name, "moves": []})
    yield lambda: tc.replay_json({**ENVELOPE, "ruleset": name, "moves": []})
    yield lambda: tc.from_json(tc.MatchState, {**STATE_JSON, "ruleset": name})
    if isinstance(name, str):
        yield lambda: tc.replay(tc.Record(ruleset=name))


@settings(max_examples=150)
@given(ruleset_names)
def test_r_set_1_junk_ruleset_names_are_rejected_in_one_line_naming_them(name: object) -> None:
    """R-SET-1: a record replays under the ruleset it names, or is rejected with one
    line naming the bad name; never another exception."""
    try:
        expected: tc.Ruleset | None = tc.Ruleset.from_name(name)  # type: ignore[arg-type]
    except ValueError:
        expected = None
    for read in _ruleset_readers(name):
        try:
            result = read()
        except tc.RecordError as exc:
            text = str(exc)
            assert len(text.splitlines()) == 1 and len(text) < 1000
            if expected is None:
                assert "ruleset" in text
        else:
            assert expected is not None
            if isinstance(result, tc.MatchState):
                assert result.ruleset == expected


@pytest.mark.parametrize(
    "name",
    [
        "x" * 10_000_000,
        "classic+" + "doubling=False," * 100_000,
        "classic\n+doubling=False",
        "partnership\r",
        "classic+doubling=False\u2028",
        10**5000,
        ["classic"],
        {"name": "classic"},
        None,
        True,
    ],
    ids=["10MB", "long-options", "newline", "cr", "u2028", "huge-int", "list", "dict", "null",
         "true"],
)  # fmt: skip
def test_r_set_1_hostile_ruleset_names_give_a_short_clean_error(name: object) -> None:
    """R-SET-1: huge, multi-line or non-string ruleset names: one short line, nothing read."""
    for read in _ruleset_readers(name):
        with pytest.raises(tc.RecordError) as info:
            read()
        text = str(info.value)
        assert len(text.splitlines()) == 1 and len(text) < 1000
        assert "ruleset" in text


def test_r_set_1_record_of_a_non_string_ruleset_is_refused() -> None:
    """A Record's ruleset is a name (or a Ruleset, taken by its name)."""
    assert tc.Record(ruleset=tc.CLASSIC).ruleset == "classic"
    with pytest.raises(TypeError, match="ruleset"):
        tc.Record(ruleset=3)
