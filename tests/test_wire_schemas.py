"""The wire protocol's schemas: generated, shipped twice alike, their examples valid, the move
schema agreeing with the move loader on every input, and true of everything a real server sends.

The schemas are written by ``tools/make_schemas.py`` into the package and into the
repository's ``schemas/``; a frontend in another language checks what it sends and
receives with them, so a schema that accepts what the library refuses (or the reverse)
is a bug: the move schema and :func:`trixcomplex.move_from_json` are fed the same
mutants (R-CARD-2, R-SEAT-1).
"""

from __future__ import annotations

import importlib.util
import json
import random
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from server_harness import Client, Server
from trixcomplex.io.schema import SCHEMA_NAMES

ROOT = Path(__file__).resolve().parent.parent
PACKAGED = ROOT / "src" / "trixcomplex" / "io" / "schemas"
TOP_LEVEL = ROOT / "schemas"
SERVER_KINDS = ("welcome", "update", "seats", "refused", "bye")


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "make_schemas", ROOT / "tools" / "make_schemas.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(
        tc.json_schema(name), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


VALIDATORS = {name: _validator(name) for name in SCHEMA_NAMES}  # each compiled once


def _errors(name: str, data: object) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}"
        for e in VALIDATORS[name].iter_errors(data)
    ]


# -- the files -----------------------------------------------------------------------------


def test_both_copies_are_what_tools_make_schemas_writes() -> None:
    """The package's schemas, the repository's schemas/ and the TypeScript generator's bundle
    are the generator's output, byte for byte, with no other file: a stale or hand-edited
    copy fails here."""
    generator = _generator()
    expected = {f"{name}.schema.json" for name in SCHEMA_NAMES}
    assert set(generator.SCHEMAS) == set(SCHEMA_NAMES)
    for folder in (PACKAGED, TOP_LEVEL):
        assert {p.name for p in folder.glob("*.json")} == expected, folder
        for name in SCHEMA_NAMES:
            text = (folder / f"{name}.schema.json").read_text(encoding="utf-8")
            assert text == generator.render(name), (folder, name)
    assert generator.BUNDLE.read_text(encoding="utf-8") == generator.bundle()


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_every_schema_has_a_stable_urn_id_and_is_valid_draft_2020_12(name: str) -> None:
    schema = tc.json_schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"] == f"urn:trixcomplex:schema:{name}:1"
    assert "trixcomplex.invalid" not in json.dumps(schema)
    assert ".md" not in json.dumps(schema)  # no pointer at a page outside the package


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_every_example_validates(name: str) -> None:
    examples = tc.json_schema(name)["examples"]
    assert examples, name
    for example_data in examples:
        assert _errors(name, example_data) == [], example_data


def test_the_examples_are_checked() -> None:
    """A broken example fails: the examples are validated, not only present."""
    bad = {**tc.json_schema("welcome")["examples"][0], "seat": 7}
    assert _errors("welcome", bad)


def test_every_message_kind_is_in_its_union() -> None:
    """Each server message's example is a server-message; each hello and player move a
    client-message; the host's moves are not (submit refuses them: submit.host-only)."""
    for kind in SERVER_KINDS:
        for message in tc.json_schema(kind)["examples"]:
            assert _errors("server-message", message) == []
    for hello in tc.json_schema("hello")["examples"]:
        assert _errors("client-message", hello) == []
    for move in tc.json_schema("move")["examples"]:
        host_move = move["move"] in ("deal", "timeout")
        assert bool(_errors("client-message", move)) is host_move


def test_the_hellos_locales_are_the_catalogs() -> None:
    """A hello's ``locale`` takes exactly the catalog's languages (LOCALES), and the server
    refuses any other (it would answer in no language it has)."""
    from trixcomplex.core.catalog import LOCALES

    for kind in ("join", "resume", "watch"):
        hello = tc.json_schema("hello")["$defs"][f"hello_{kind}"]
        assert hello["properties"]["locale"]["enum"] == list(LOCALES)
    assert VALIDATORS["hello"].is_valid({"type": "watch", "locale": "ar"})
    assert not VALIDATORS["hello"].is_valid({"type": "watch", "locale": "fr"})


def test_the_settings_ranges_are_the_servers() -> None:
    """The create-table schema's clock ranges are exactly what the server's Settings take."""
    from trixcomplex.server.table import Refused, Settings

    props = tc.json_schema("create-table")["properties"]
    for key in ("move_time", "forced_delay", "bot_delay", "deal_pause"):
        low, high = props[key]["minimum"], props[key]["maximum"]
        for value, ok in [(low, True), (high, True), (low - 0.01, False), (high + 0.01, False)]:
            assert VALIDATORS["create-table"].is_valid({key: value}) is ok, (key, value)
            try:
                Settings.from_json({key: value})
            except Refused:
                accepted = False
            else:
                accepted = True
            assert accepted is ok, (key, value)


# -- the move schema agrees with move_from_json ---------------------------------------------

CARDS = [str(c) for c in tc.ALL_CARDS]
SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
WRONG_CARD_TEXT = [
    "", " QS", "QS ", "QS\n", "\nQS", "Q\u2664", "1D", "11D", "10", "QSS", "Q\u017f",
    "\uff31S", "0D", "1OD", "Tx", "q\u2661", "10d\n", "10 D", "AS\u0000", "KH\r\n",
]  # fmt: skip
SINGLE = ["COMPLEX", "TRIX", "KING_OF_HEARTS", "QUEENS", "DIAMONDS", "LTOOSH"]
COMBINABLE = ["KING_OF_HEARTS", "QUEENS", "DIAMONDS", "LTOOSH"]
KINDS = ["deal", "choose", "double", "timeout", "play", "pass", "redeal"]

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
numbers = (
    st.sampled_from(
        [0, 1, 3, 4, -1, 0.0, -0.0, 1.0, 3.0, 4.0, 1.5, -1.0, 2.0000001, 1e300, True, False]
        + [2**63 - 1, -(2**63), 2**64, 10**30, 10**400]
    )
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
)


def spellings(code: str) -> list[str]:
    """Every R-CARD-2 spelling of a canonical card code."""
    rank, suit = code[0], code[1]
    ranks = [rank, rank.lower()] + (["10"] if rank == "T" else [])
    return [r + s for r in dict.fromkeys(ranks) for s in (suit, suit.lower(), SYMBOLS[suit])]


def spelled(card: str) -> st.SearchStrategy[str]:
    return st.sampled_from(spellings(card))


card_text = st.sampled_from(CARDS).flatmap(spelled) | st.sampled_from(WRONG_CARD_TEXT)


@st.composite
def valid_moves(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(KINDS))
    seat = draw(st.integers(0, 3))
    if kind == "deal":
        deck = draw(st.permutations(CARDS))
        return {"move": kind, "deck": [draw(spelled(c)) for c in deck]}
    if kind == "timeout":
        return {"move": kind}
    if kind == "choose":
        combined = st.lists(st.sampled_from(COMBINABLE), min_size=2, max_size=4, unique=True)
        return {"move": kind, "seat": seat, "contract": draw(st.sampled_from(SINGLE) | combined)}
    if kind == "double":
        chosen = draw(st.lists(st.sampled_from(CARDS), max_size=5, unique=True))
        return {"move": kind, "seat": seat, "cards": [draw(spelled(c)) for c in chosen]}
    if kind == "play":
        return {"move": kind, "seat": seat, "card": draw(card_text)}
    return {"move": kind, "seat": seat}


@st.composite
def mutated_lists(draw: st.DrawFn, items: list[Any]) -> object:
    items = list(items)
    how = draw(st.sampled_from(["alias", "add", "drop", "replace", "grow", "other"]))
    if how == "alias" and items:  # the same card again, maybe in another spelling
        card = tc.parse_card(draw(st.sampled_from(items))) if _is_card(items) else None
        if card is not None:
            items.insert(draw(st.integers(0, len(items))), draw(spelled(str(card))))
    elif how == "add":
        items.append(draw(card_text | json_values))
    elif how == "drop" and items:
        items.pop(draw(st.integers(0, len(items) - 1)))
    elif how == "replace" and items:
        items[draw(st.integers(0, len(items) - 1))] = draw(card_text | json_values)
    elif how == "grow":
        items = [draw(spelled(c)) for c in draw(st.permutations(CARDS))[: draw(st.integers(6, 60))]]
    else:
        return draw(json_values | card_text)
    return items


def _is_card(items: list[Any]) -> bool:
    try:
        for item in items:
            tc.parse_card(item)
    except (tc.TrixError, TypeError):
        return False
    return True


contract_mutants = (
    st.sampled_from([c.lower() for c in SINGLE] + [c.title() for c in SINGLE] + ["QUEENS+DIAMONDS"])
    | st.lists(st.sampled_from(SINGLE + ["queens", "TRIX+COMPLEX"]), max_size=5)
    | json_values
)
kind_mutants = st.sampled_from(KINDS + ["Play", "PLAY", "fold", " play", "play\n"]) | json_values
key_names = st.sampled_from(["Seat", "seat ", "card", "cards", "deck", "contract", "move", "x"])


@st.composite
def mutants(draw: st.DrawFn) -> object:
    """A valid move with up to three changes, or any JSON value."""
    if draw(st.integers(0, 19)) == 0:
        return draw(json_values)
    move: dict[str, Any] = draw(valid_moves())
    for _ in range(draw(st.integers(0, 3))):
        what = draw(st.sampled_from(["seat", "card", "list", "contract", "kind", "extra", "drop"]))
        if what == "seat":
            move["seat"] = draw(numbers | json_values)
        elif what == "card":
            move["card"] = draw(card_text | json_values)
        elif what == "list":
            key = draw(st.sampled_from(["cards", "deck"]))
            items = move.get(key)
            move[key] = draw(mutated_lists(items if isinstance(items, list) else []))
        elif what == "contract":
            move["contract"] = draw(contract_mutants)
        elif what == "kind":
            move["move"] = draw(kind_mutants)
        elif what == "extra":
            move[draw(key_names | st.text(max_size=5))] = draw(json_values)
        elif move:
            del move[draw(st.sampled_from(sorted(move)))]
    return move


def _loader_accepts(data: object) -> bool:
    try:
        tc.move_from_json(data)
    except tc.MoveFormatError:
        return False
    return True


@settings(max_examples=800)
@given(mutants())
@example({"move": "pass", "seat": 1.0})
@example({"move": "pass", "seat": -0.0})
@example({"move": "play", "seat": 3.0, "card": "QS"})
@example({"move": "pass", "seat": True})
@example({"move": "pass", "seat": 10**400})
@example({"move": "play", "seat": 0, "card": "QS\n"})
@example({"move": "double", "seat": 0, "cards": ["KH", "kh"]})
@example({"move": "double", "seat": 0, "cards": ["TD", "10\u2666"]})
@example({"move": "double", "seat": 0, "cards": ["KH", "QS", "QH", "QD", "QC", "AS"]})
@example({"move": "choose", "seat": 0, "contract": ["QUEENS"]})
@example(
    {"move": "deal", "deck": ["TD" if c == "TD" else "10d" if c == "TS" else c for c in CARDS]}
)
@pytest.mark.slow
def test_the_move_schema_accepts_exactly_what_move_from_json_accepts(data: object) -> None:
    """R-CARD-2, R-SEAT-1: on any input (ints written as floats, negative zero, booleans, huge
    ints, extra or missing keys, wrong cases, a card in two spellings, ...) the published
    move schema and the loader give the same verdict; what both accept writes back valid."""
    accepted = _loader_accepts(data)
    assert VALIDATORS["move"].is_valid(data) is accepted, (data, _errors("move", data))
    if accepted:
        written = tc.move_to_json(tc.move_from_json(data))
        assert VALIDATORS["move"].is_valid(written)


def test_an_integral_float_seat_is_the_integer_seat() -> None:
    """R-SEAT-1: JSON has one kind of number, so 1.0 is seat 1 and -0.0 seat 0 (as every
    JSON Schema validator and JavaScript see them); 1.5 and true are no seat."""
    assert tc.move_from_json({"move": "pass", "seat": 1.0}) == tc.Pass(1)
    zero = tc.move_from_json({"move": "play", "seat": -0.0, "card": "QS"})
    assert zero == tc.Play(0, "QS") and type(zero.seat) is int
    for bad in (1.5, True, 4.0, -1.0):
        with pytest.raises(tc.MoveFormatError) as info:
            tc.move_from_json({"move": "pass", "seat": bad})
        assert info.value.rule == "R-SEAT-1"


# -- everything a real server sends validates --------------------------------------------

FAST = {"move_time": 3600, "forced_delay": 0, "bot_delay": 0, "deal_pause": 0}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("wire") / "tables.sqlite3") as running:
        yield running


def _checked(client: Client, seen: dict[str, int]) -> None:
    """Validate every message the client received since last time, each against its own
    schema and against server-message."""
    while seen["checked"] < len(client.messages):
        message = client.messages[seen["checked"]]
        seen["checked"] += 1
        kind = message.get("type")
        assert kind in SERVER_KINDS, message
        assert _errors(kind, message) == [], kind
        assert _errors("server-message", message) == [], kind
        seen[kind] = seen.get(kind, 0) + 1
        for event in message.get("events", []):
            seen[f"event.{event['type']}"] = seen.get(f"event.{event['type']}", 0) + 1


def _drain(client: Client, seen: dict[str, int], timeout: float = 0.0) -> None:
    while client.poll(timeout) is not None:
        _checked(client, seen)


@pytest.mark.slow
def test_every_message_of_two_real_deals_validates(server: Server) -> None:
    """A person (the first legal move each time) and three bots play the first two deals (a
    COMPLEX and a TRIX one) on a real server, watched by a spectator with pictures: every
    message either connection receives, every HTTP body and every hello and move sent
    validates against its schema."""
    request = {"seats": ["person", "rule", "random", "rule"], **FAST}
    assert _errors("create-table", request) == []
    status, summary = server.request("/api/tables", request)
    assert status == 201 and _errors("table", summary) == []
    table = summary["id"]
    player, spectator = server.client(table), server.client(table)
    join = {"type": "join", "seat": 0, "name": "Ann", "pictures": False}
    watch = {"type": "watch"}
    for hello in (join, watch):
        assert _errors("client-message", hello) == [] and _errors("hello", hello) == []
    player.send(join)
    spectator.send(watch)
    seen_player: dict[str, int] = {"checked": 0}
    seen_spectator: dict[str, int] = {"checked": 0}
    player.send({"move": "pass", "seat": 1})  # another seat's move: refused
    contracts = set()
    answered = 0
    while seen_player.get("event.deal_over", 0) < 2:
        message = player.poll(60.0)
        assert message is not None, "the match did not go on"
        _checked(player, seen_player)
        if message["type"] != "update":
            continue
        contracts |= {e["contract"] for e in message["events"] if e["type"] == "deal_over"}
        view = message["view"]
        if view["legal_moves"] and view["forced_move"] is None:  # forced moves are played for us
            move = view["legal_moves"][0]
            assert _errors("client-message", move) == [] and _errors("move", move) == []
            player.send(move)
            answered += 1
        _drain(spectator, seen_spectator)
    _drain(spectator, seen_spectator, 1.0)
    # the server deals at random: how many of the person's moves were choices varies
    assert contracts == {"COMPLEX", "TRIX"} and answered > 0
    assert seen_player["refused"] >= 1 and seen_player["welcome"] == 1
    assert seen_player["seats"] >= 1
    assert seen_spectator["update"] > 100
    events = {k.removeprefix("event.") for k in seen_player if k.startswith("event.")}
    assert events >= {"deal", "contract", "play", "trick", "deal_over", "pass", "out"}
    assert all("svg" in m for m in spectator.messages if m["type"] == "update")
    assert _errors("tables", server.get("/api/tables")) == []
    assert _errors("table", server.get(f"/api/tables/{table}")) == []
    player.close()
    spectator.close()


@pytest.mark.slow
def test_a_whole_match_of_bots_validates_to_its_record(server: Server) -> None:
    """Four bots play a short match (four TRIX deals) to its end, watched: every message
    validates, the last ones carry match_over and the record's URL, and the record served
    validates against the record schema."""
    rules = {"ruleset": "partnership+contracts=TRIX", "seats": ["rule"] * 4, **FAST}
    status, summary = server.request("/api/tables", rules)
    assert status == 201
    spectator = server.client(summary["id"])
    spectator.send({"type": "watch", "pictures": False})
    seen: dict[str, int] = {"checked": 0}
    while not (spectator.view and spectator.view["phase"] == "OVER"):
        assert spectator.poll(60.0) is not None, "the match did not go on"
        _checked(spectator, seen)
    assert seen["event.match_over"] == 1 and seen["event.deal_over"] == 4
    last = spectator.messages[-1]
    status, record = server.request(last["record"])
    assert status == 200 and _errors("record", record) == []
    assert _errors("table", server.get(f"/api/tables/{summary['id']}")) == []
    spectator.close()


def test_every_refusal_and_goodbye_validates(server: Server) -> None:
    """The HTTP refusals (400, 404, 409) and a connection to no table (refused, then bye)."""
    bodies = [
        server.request("/api/tables", {"seats": ["person"]}),
        server.request("/api/tables", {"move_time": 0}),
        server.request("/api/tables/nosuch"),
        server.request("/api/tables/nosuch/record"),
        server.request(f"/api/tables/{server.create(['person'] * 4, **FAST)}/record"),
    ]
    assert sorted({status for status, _ in bodies}) == [400, 404, 409]
    for _, body in bodies:
        assert _errors("http-error", body) == []
    lost = server.client("nosuch")
    assert lost.expect("refused")["error"]["code"] == "server.unknown-table"
    lost.expect("bye")
    seen: dict[str, int] = {"checked": 0}
    _checked(lost, seen)
    assert seen["refused"] == 1 and seen["bye"] == 1
    lost.close()


def test_a_resumed_seat_and_bad_hellos_get_valid_answers(server: Server) -> None:
    table = server.create(["person", "rule", "rule", "rule"], **{**FAST, "bot_delay": 60})
    first = server.client(table)
    first.join(0, "Bo")
    token = first.token
    assert token is not None
    first.close()
    again = server.client(table)
    resume = {"type": "resume", "token": token, "pictures": True}
    assert _errors("hello", resume) == []
    again.send({"type": "join", "seat": 9, "name": "Cy"})
    assert again.expect("refused")["error"]["code"] == "server.bad-seat"
    again.send({"type": "resume", "token": "nope"})
    assert again.expect("refused")["error"]["code"] == "server.bad-token"
    again.send({"type": "resume", "token": token, "locale": "fr"})  # no such catalog
    assert again.expect("refused")["error"]["code"] == "server.bad-request"
    again.resume(token, pictures=True)
    seen: dict[str, int] = {"checked": 0}
    _checked(again, seen)
    assert seen["refused"] == 3 and seen["welcome"] == 1 and seen["update"] == 1
    again.close()


def test_the_move_examples_are_what_the_library_reads() -> None:
    """Every move example is a move of the library, read the same in canonical form."""
    for data in tc.json_schema("move")["examples"]:
        move = tc.move_from_json(data)
        assert tc.move_from_json(tc.move_to_json(move)) == move
    rng = random.Random(1)
    assert VALIDATORS["move"].is_valid(tc.move_to_json(tc.Deal.shuffled(rng)))
