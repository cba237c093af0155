"""The published JSON Schemas: shipped, valid draft 2020-12, and true of everything written.

Every JSON the library writes — moves, records (with metadata), saved states,
views, events, errors — validates against its schema over random matches of
every ruleset (R-SET-1); the schemas refuse the malformed records of
tests/records/ and malformed moves.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import pickle
import random
from pathlib import Path
from typing import Any

import attrs
import jsonschema
import pytest

import trixcomplex as tc
from builders import VIEW_RULESETS, VIEWERS, redeal_heavy_match
from trixcomplex.core.errors import ERROR_CODES
from trixcomplex.io.schema import SCHEMA_NAMES

ROOT = Path(__file__).resolve().parent.parent
RECORDS = Path(__file__).parent / "records"
RULESET_IDS = [r.name for r in VIEW_RULESETS]


def validator(name: str) -> jsonschema.Draft202012Validator:
    """The draft 2020-12 validator of the schema ``name``, built once for the module.

    It remembers each ``$ref`` and ``oneOf`` of the schema it has seen an instance
    pass (keyed by that part of the schema and the instance's ``repr``, which tells
    lists from tuples and ints from floats and bools), and does not check that
    instance against it again: a match's records, saved states, views and events
    repeat the same moves hundreds of times, and each is tried against every kind of
    move.  The schema's references are local (``#/$defs/...``), so the outcome of a
    part depends on the instance alone; an instance that fails is checked in full
    every time, errors and all.
    """
    base = jsonschema.Draft202012Validator
    passed: set[tuple[int, str]] = set()

    def remembered(keyword: str) -> Any:
        check = base.VALIDATORS[keyword]

        def remembering(v: Any, value: Any, instance: Any, schema: Any) -> Any:
            key = (id(value), repr(instance))
            if key in passed:
                return
            errors = list(check(v, value, instance, schema))
            if not errors:
                passed.add(key)
            yield from errors

        return remembering

    schema = tc.json_schema(name)
    remembering = jsonschema.validators.extend(
        base, {keyword: remembered(keyword) for keyword in ("$ref", "oneOf")}
    )
    # ``schema`` lives as long as the validator, so the ids of its parts stay its own.
    return remembering(schema, format_checker=base.FORMAT_CHECKER)  # type: ignore[no-any-return]


VALIDATORS = {name: validator(name) for name in SCHEMA_NAMES}


def _valid(name: str, data: Any) -> bool:
    return VALIDATORS[name].is_valid(data)


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_every_schema_is_a_valid_draft_2020_12_schema_and_a_fresh_dict(name: str) -> None:
    schema = tc.json_schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "changed"
    assert tc.json_schema(name)["title"] != "changed"


def test_an_unknown_schema_name_is_refused() -> None:
    with pytest.raises(ValueError, match="no schema named"):
        tc.json_schema("deck")


def test_the_shipped_files_are_what_tools_make_schemas_writes() -> None:
    """The schema files in the package are generated: a stale one fails here."""
    spec = importlib.util.spec_from_file_location(
        "make_schemas", ROOT / "tools" / "make_schemas.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name in SCHEMA_NAMES:
        shipped = ROOT / "src" / "trixcomplex" / "io" / "schemas" / f"{name}.schema.json"
        assert shipped.read_text(encoding="utf-8") == module.render(name), name


def test_the_package_data_ships_the_schemas() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"io/schemas/*.json"' in text
    assert '"jsonschema' in text  # the [test] extra pulls the validator in


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", VIEW_RULESETS, ids=RULESET_IDS)
def test_everything_written_validates_over_a_random_match(ruleset: tc.Ruleset) -> None:
    """R-SET-1: moves, the record (with metadata), saved states, views and events of every
    state of a random match of the ruleset validate against the shipped schemas."""
    states = redeal_heavy_match(ruleset, 8)
    record = tc.Record.of(
        states[-1], meta={"players": ["Ann", "Bo", "Cy", "Di"], "round": 3, "rated": True}
    )
    data = json.loads(json.dumps(record.to_json()))
    VALIDATORS["record"].validate(data)
    kinds = set()
    for i, (before, after) in enumerate(itertools.pairwise(states)):
        move = after.history.last
        assert move is not None
        VALIDATORS["move"].validate(tc.move_to_json(move))
        for event in tc.events(before, move, after, VIEWERS[i % len(VIEWERS)]):  # viewers in turn
            VALIDATORS["event"].validate(event)
            kinds.add(event["type"])
    assert kinds >= {"deal", "contract", "play", "trick", "deal_over", "match_over"}
    for state in states[:: max(1, len(states) // 16)]:
        VALIDATORS["state"].validate(json.loads(json.dumps(tc.to_json(state))))
        for viewer in VIEWERS:
            VALIDATORS["view"].validate(json.loads(json.dumps(tc.to_json(tc.view(state, viewer)))))


def _errors() -> list[tc.TrixError]:
    """One error of every kind the library raises for bad input."""
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(1)))
    raised: list[tc.TrixError] = []
    attempts = [
        lambda: tc.apply(tc.new_match(), tc.Pass(0)),
        lambda: tc.parse_card("Q♤"),
        lambda: tc.move_from_json({"move": "pass", "seat": 10**5000}),
        lambda: tc.Record.from_json({"format": "x"}),
        lambda: tc.replay_json(json.loads((RECORDS / "broken_follow_suit.json").read_text())),
        lambda: tc.from_json(tc.MatchState, {"format": "trixcomplex-state"}),
        lambda: tc.submit(state, 1, '{"move": "pass", "seat": 1, "seat": 1}'),
        lambda: tc.submit(state, None, {}),
        lambda: tc.timeout_move(tc.new_match(), 0),
        lambda: tc.sample_world(attrs.evolve(tc.view(state, 0), deal_number=0), random.Random(0)),
    ]
    for attempt in attempts:
        with pytest.raises(tc.TrixError) as info:
            attempt()
        raised.append(info.value)
    return raised


def test_every_error_kind_gives_schema_valid_json_with_a_listed_code() -> None:
    """Every error type's to_json() validates; its code is in ERROR_CODES; it pickles."""
    errors = _errors()
    assert {type(e).__name__ for e in errors} >= {
        "IllegalMoveError",
        "CardParseError",
        "MoveFormatError",
        "RecordError",
        "StateFormatError",
        "SubmitError",
        "TrixError",
    }
    for error in errors:
        data = error.to_json()
        VALIDATORS["error"].validate(data)
        assert data["code"] in ERROR_CODES
        assert data["message"] == str(error)
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error) and copy.to_json() == data


@pytest.mark.parametrize("path", sorted(RECORDS.glob("broken_*.json")), ids=lambda p: p.stem)
def test_the_schema_refuses_exactly_the_malformed_broken_records(path: Path) -> None:
    """Record format: a broken record that Record.from_json refuses (a format fault) is refused
    by the schema too; one that only replay refuses (an illegal move) is well-formed."""
    data = json.loads(path.read_text(encoding="utf-8"))
    try:
        tc.Record.from_json(data)
    except tc.RecordError:
        malformed = True
    else:
        malformed = False
    assert _valid("record", data) is not malformed


def test_the_malformed_broken_records_are_the_expected_ones() -> None:
    refused = {
        p.stem
        for p in RECORDS.glob("broken_*.json")
        if not _valid("record", json.loads(p.read_text()))
    }
    assert refused == {"broken_card_code", "broken_deck", "broken_ruleset", "broken_unknown_key"}


@pytest.mark.parametrize(
    "move",
    [
        {"move": "pass", "seat": 4},
        {"move": "pass", "seat": "0"},
        {"move": "pass"},
        {"move": "pass", "seat": 0, "card": "AS"},
        {"move": "play", "seat": 0, "card": "Q♤"},
        {"move": "play", "seat": 0, "card": " QS"},
        {"move": "double", "seat": 0, "cards": ["KH", "KH"]},
        {"move": "choose", "seat": 0, "contract": "complex"},
        {"move": "deal", "deck": ["AS"] * 52},
        {"move": "deal", "deck": [str(c) for c in tc.ALL_CARDS][:51]},
        {"move": "fold", "seat": 0},
    ],
)
def test_the_move_schema_refuses_what_move_from_json_refuses(move: dict[str, Any]) -> None:
    with pytest.raises(tc.MoveFormatError):
        tc.move_from_json(move)
    assert not _valid("move", move)


def test_the_move_schema_accepts_every_documented_card_form() -> None:
    """R-CARD-2: 10 for the ten, lower case and the suit symbols are accepted by both."""
    for code in ("TD", "10D", "td", "10♦", "q♦", "7h", "A♠", "2♣"):
        move = {"move": "play", "seat": 1, "card": code}
        assert tc.move_from_json(move) == tc.Play(1, code)
        assert _valid("move", move)


def test_ruleset_names_in_the_schema_are_the_readers() -> None:
    """R-SET-1: every preset and option name the reader knows matches the schema's pattern."""
    for ruleset in VIEW_RULESETS:
        assert _valid("record", {**tc.Record(ruleset).to_json()})
    bad = {**tc.Record().to_json(), "ruleset": "poker"}
    assert not _valid("record", bad)
