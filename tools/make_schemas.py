"""Write the JSON Schemas (draft 2020-12) of the library's JSON and of the server's wire protocol.

Run ``python tools/make_schemas.py`` after changing a format; it writes every
schema twice, into the package (``src/trixcomplex/io/schemas/``) and into the
repository's top-level ``schemas/``, and ``tests/test_wire_schemas.py`` checks
that both copies are what this writes.  Each file is self-contained (its shared
parts under ``$defs``), so a frontend in any language can use one file without
a schema registry; a part shared by several files has the same name and the
same text in each, so the TypeScript generator of ``clients/typescript`` can
merge them into one module.  The ``examples`` of each schema come from
``tools/schema_examples.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import trixcomplex.bots as _bots

DRAFT = "https://json-schema.org/draft/2020-12/schema"
ROOT = Path(__file__).resolve().parent.parent
OUTS = (ROOT / "src" / "trixcomplex" / "io" / "schemas", ROOT / "schemas")
EXAMPLES = Path(__file__).resolve().parent / "schema_examples.json"
BUNDLE = ROOT / "clients" / "typescript" / "schemas.bundle.json"
"""Every def of every schema in one file, the input of the TypeScript types' generator."""
SCHEMA_VERSION = 1
"""The version in every ``$id`` (``urn:trixcomplex:schema:NAME:1``); bumped for a schema whose
format changes incompatibly."""
OLD_BASE = "https://trixcomplex.invalid/schemas/"
"""The ``$id`` prefix of the first six schemas, now only an alias (see docs/schemas.rst)."""

SINGLE_CONTRACTS = ["COMPLEX", "TRIX", "KING_OF_HEARTS", "QUEENS", "DIAMONDS", "LTOOSH"]
LOCALES = ["en", "ar"]
"""trixcomplex.core.catalog.LOCALES (tests/test_wire_schemas.py checks they agree)."""
COMBINABLE = ["KING_OF_HEARTS", "QUEENS", "DIAMONDS", "LTOOSH"]
COMBINATIONS = [
    "+".join(p for i, p in enumerate(COMBINABLE) if mask >> i & 1)
    for size in (2, 3, 4)
    for mask in range(16)
    if mask.bit_count() == size
]
# A deal's contract: one contract, or a combination of R-OPT-9 named "A+B" (parts in order).
CONTRACTS = SINGLE_CONTRACTS + COMBINATIONS
# A choose move names one contract, or a combination as the list of its parts (R-OPT-9).
CHOSEN_CONTRACT = {
    "oneOf": [
        {"enum": SINGLE_CONTRACTS},
        {
            "type": "array",
            "items": {"enum": COMBINABLE},
            "minItems": 2,
            "maxItems": 4,
            "uniqueItems": True,
        },
    ]
}
PHASES = ["DEAL", "CHOOSE", "DOUBLE", "COMPLEX", "TRICKS", "TRIX", "OVER"]
PRESETS = "partnership|individual-complex|classic|classic-partnership"
RESULTS = ["team0", "team1", "draw", "seat0", "seat1", "seat2", "seat3", "shared"]
BOT_NAMES = list(_bots.BOT_NAMES)  # the server's seat names, from the one table it reads
# The server's clock settings: (lowest, highest) seconds; tests/test_wire_schemas.py checks
# them against trixcomplex.server.Settings.
SETTINGS_LIMITS = {
    "move_time": (1.0, 3600.0),
    "forced_delay": (0.0, 60.0),
    "bot_delay": (0.0, 60.0),
    "deal_pause": (0.0, 60.0),
}

SEAT = {"type": "integer", "minimum": 0, "maximum": 3}
RANKS = {"2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9"}
RANKS |= {"T": "[Tt]|10", "J": "[Jj]", "Q": "[Qq]", "K": "[Kk]", "A": "[Aa]"}
SUITS = {"S": "[Ss\u2660]", "H": "[Hh\u2665]", "D": "[Dd\u2666]", "C": "[Cc\u2663]"}
INPUT_CARD = {
    "type": "string",
    "pattern": "^(?:[2-9TJQKAtjqka]|10)[SHDCshdc\u2660\u2665\u2666\u2663]$",
    # Python's re (which Python validators use) lets "$" match before a final newline.
    "not": {"pattern": "\n"},
    "description": "A card code of R-CARD-2 in any of its forms: a rank 2-9, T or 10, J, Q, K "
    "or A, then a suit S, H, D, C or a symbol, letters in either case (TD, 10D, td, 10\u2666).",
}
CARD = {"type": "string", "pattern": "^[2-9TJQKA][SHDC]$", "description": "A canonical card code."}
# No two items of a list of input cards name the same card, in whatever spellings.
DISTINCT_INPUT_CARDS = {
    "allOf": [
        {
            "contains": {"pattern": f"^(?:{RANKS[r]})(?:{SUITS[s]})$"},
            "minContains": 0,
            "maxContains": 1,
        }
        for s in SUITS
        for r in RANKS
    ]
}
_OPTION = "[a-z_]+=(?:True|False|[A-Z_]+(?:/[A-Z_]+)*)"
RULESET = {
    "type": "string",
    "maxLength": 1000,
    "pattern": f"^(?:{PRESETS})(?:\\+{_OPTION}(?:,{_OPTION})*)?$",
    "description": "A ruleset name (R-SET-1): a preset, maybe with options and its own "
    "contracts (contracts=A/B/...).",
}
TABLE_ID = {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$", "description": "A table's id."}
TOKEN = {
    "type": "string",
    "pattern": "^[A-Za-z0-9_-]{1,199}$",
    "description": "A seat's secret token (keep it: it resumes the seat).",
}
PLAYER_KINDS = ["choose", "double", "play", "pass", "redeal"]


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def obj(props: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": props,
        "required": list(props) if required is None else required,
        "additionalProperties": False,
        **extra,
    }


def four(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": schema, "minItems": 4, "maxItems": 4}


def cards(schema: dict[str, Any] = CARD, **extra: Any) -> dict[str, Any]:
    return {"type": "array", "items": schema, "uniqueItems": True, "maxItems": 52, **extra}


def move_defs(prefix: str, card: dict[str, Any]) -> dict[str, Any]:
    """The moves as ``prefix``-named defs: ``move`` (any move), ``player_move`` (a seat's)."""
    some_cards = cards(ref(f"{prefix}card"))
    if prefix:  # input: two spellings of one card are one card named twice
        some_cards = {**some_cards, **ref("distinct_input_cards")}
    kinds = {
        "deal": obj({"move": {"const": "deal"}, "deck": {**some_cards, "minItems": 52}}),
        "choose": obj({"move": {"const": "choose"}, "seat": SEAT, "contract": CHOSEN_CONTRACT}),
        "double": obj({"move": {"const": "double"}, "seat": SEAT, "cards": some_cards}),
        "timeout": obj({"move": {"const": "timeout"}}),
        "play": obj({"move": {"const": "play"}, "seat": SEAT, "card": ref(f"{prefix}card")}),
        "pass": obj({"move": {"const": "pass"}, "seat": SEAT}),
        "redeal": obj({"move": {"const": "redeal"}, "seat": SEAT}),
    }
    return {
        f"{prefix}card": card,
        f"{prefix}move": {"oneOf": [ref(f"{prefix}move_{k}") for k in kinds]},
        f"{prefix}player_move": {"oneOf": [ref(f"{prefix}move_{k}") for k in PLAYER_KINDS]},
        **{f"{prefix}move_{k}": v for k, v in kinds.items()},
        **({"distinct_input_cards": DISTINCT_INPUT_CARDS} if prefix else {}),
    }


META_VALUE: dict[str, Any] = {
    "anyOf": [
        {"type": ["string", "number", "boolean", "null"]},
        {"type": "array", "items": {"$ref": "#/$defs/meta_value"}},
        {"type": "object", "additionalProperties": {"$ref": "#/$defs/meta_value"}},
    ]
}


def game_defs() -> dict[str, Any]:
    """Every named part of the library's own formats (moves, records, states, views, events)."""
    trick = obj({"leader": SEAT, "cards": cards(minItems=4, maxItems=4), "taker": SEAT})
    breakdown = obj(
        {
            "tricks": {"type": "integer"},
            "diamonds": {"type": "integer"},
            "queens": cards(),
            "king_of_hearts": {"type": "boolean"},
            "place": nullable({"type": "integer", "minimum": 1, "maximum": 4}),
        }
    )
    doubled_card = {"type": "object", "required": ["card"], "properties": {"card": ref("card")}}
    deal_result = obj(
        {
            "number": {"type": "integer", "minimum": 1},
            "kingdom": {"type": "integer", "minimum": 1},
            "contract": {"enum": CONTRACTS},
            "owner": SEAT,
            "points": four({"type": "integer"}),
            "seats": four(ref("seat_breakdown")),
            "doubled": {"type": "array", "items": ref("doubled_card")},
            "finishing_order": {"type": "array", "items": SEAT, "maxItems": 4},
        }
    )
    score = obj(
        {
            "seats": four({"type": "integer"}),
            "teams": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
            "deals": {"type": "array", "items": ref("deal_result")},
            "current": four({"type": "integer"}),
            "result": nullable({"enum": RESULTS}),
            "winners": {"type": "array", "items": SEAT, "maxItems": 4},
        }
    )
    record = obj(
        {
            "format": {"const": "trixcomplex-record"},
            "version": {"const": 1},
            "ruleset": RULESET,
            "moves": {"type": "array", "items": ref("input_move"), "maxItems": 20000},
            "meta": {
                "type": "object",
                "additionalProperties": ref("meta_value"),
                "description": "Optional metadata (players, event, site, date, ...).",
            },
        },
        ["format", "version", "ruleset", "moves"],
        description="A game record: the ruleset and every move, deals included; what "
        "trixcomplex.Record reads (every card spelling) and writes (canonical codes).",
    )
    return {
        **move_defs("", CARD),
        **move_defs("input_", INPUT_CARD),
        "trick": trick,
        "seat_breakdown": breakdown,
        "doubled_card": doubled_card,
        "deal_result": deal_result,
        "score": score,
        "meta_value": META_VALUE,
        "game_record": record,
        "saved_state": saved_state(),
        "view": view(),
        **event_defs(),
        "error_info": error_info(),
    }


def saved_state() -> dict[str, Any]:
    state = {
        "type": "object",
        "description": "The state's fields; checked against the moves when loaded.",
        "required": ["phase", "deal_number", "owner", "contract", "hands", "turn", "scores"],
        "properties": {
            "phase": {"enum": PHASES},
            "deal_number": {"type": "integer", "minimum": 0},
            "owner": nullable(SEAT),
            "contract": nullable({"enum": CONTRACTS}),
            "hands": four(cards(maxItems=13)),
            "turn": nullable(SEAT),
            "scores": four({"type": "integer"}),
            "results": {"type": "array", "items": ref("deal_result")},
            "ruleset": RULESET,
        },
    }
    return obj(
        {
            "format": {"const": "trixcomplex-state"},
            "version": {"enum": [1, 2], "description": "2 writes the deal as one field, 'deal'"},
            "ruleset": RULESET,
            "moves": {"type": "array", "items": ref("move"), "maxItems": 20000},
            "state": state,
        },
        description="A saved match state (trixcomplex.to_json of a MatchState).",
    )


def view() -> dict[str, Any]:
    pair = {"type": "array", "minItems": 2, "maxItems": 2}
    row = nullable({**pair, "items": {"type": "integer", "minimum": 2, "maximum": 14}})
    suits = {"type": "array", "items": {"enum": ["S", "H", "D", "C"]}, "uniqueItems": True}
    props = {
        "seat": nullable(SEAT),
        "ruleset": RULESET,
        "phase": {"enum": PHASES},
        "deal_number": {"type": "integer", "minimum": 0},
        "kingdom": {"type": "integer", "minimum": 0},
        "owner": nullable(SEAT),
        "contract": nullable({"enum": CONTRACTS}),
        "remaining_contracts": {"type": "array", "items": {"enum": SINGLE_CONTRACTS}},
        "redeals": {"type": "array", "items": SEAT},
        "score": ref("score"),
        "points": four({"type": "integer"}),
        "hand": cards(maxItems=13),
        "hand_sizes": four({"type": "integer", "minimum": 0, "maximum": 13}),
        "turn": nullable(SEAT),
        "legal_moves": {"type": "array", "items": ref("player_move")},
        "forced_move": nullable(ref("player_move")),
        "leader": nullable(SEAT),
        "trick": cards(maxItems=3),
        "tricks": {"type": "array", "items": ref("trick"), "maxItems": 13},
        "last_trick": nullable(ref("trick")),
        "doubled": {"type": "array", "items": {**pair, "prefixItems": [CARD, SEAT]}},
        "doubling_open": {"type": "boolean"},
        "doublable": cards(maxItems=5),
        "my_answer": nullable(cards(maxItems=5)),
        "table": cards(),
        "rows": four(row),
        "laid": {"type": "array", "items": {**pair, "prefixItems": [SEAT, CARD]}},
        "passes": {
            "type": "array",
            "items": {**pair, "prefixItems": [SEAT, {"type": "integer", "minimum": 0}]},
        },
        "finishing_order": {"type": "array", "items": SEAT, "maxItems": 4},
        "shown_twos": four(cards(maxItems=4)),
        "voids": four(suits),
        "cannot_hold": four(cards()),
        "known_holdings": four(cards()),
    }
    return obj(props, description="What one seat (or a spectator, seat null) sees of a match.")


def event_defs() -> dict[str, Any]:
    points = four({"type": "integer"})
    kinds = {
        "deal": {
            "deal_number": {"type": "integer", "minimum": 1},
            "kingdom": {"type": "integer", "minimum": 1},
            "owner": nullable(SEAT),
            "hand": cards(maxItems=13),
        },
        "contract": {
            "contract": nullable({"enum": CONTRACTS}),
            "owner": nullable(SEAT),
            "timeout": {"type": "boolean"},
        },
        "doubling_open": {"doublable": cards(maxItems=5)},
        "double": {"seat": SEAT, "cards": cards(maxItems=5)},
        "timeout": {},
        "doubles_revealed": {
            "doubled": {"type": "array", "items": obj({"card": CARD, "seat": SEAT})}
        },
        "play": {"seat": SEAT, "card": CARD},
        "pass": {"seat": SEAT},
        "redeal": {"seat": SEAT},
        "trick": {
            "number": {"type": "integer", "minimum": 1, "maximum": 13},
            "leader": SEAT,
            "cards": cards(minItems=4, maxItems=4),
            "taker": SEAT,
            "points": points,
        },
        "out": {"seat": SEAT, "place": {"type": "integer", "minimum": 1, "maximum": 4}},
        "deal_over": {
            "deal_number": {"type": "integer", "minimum": 1},
            "contract": {"enum": CONTRACTS},
            "owner": SEAT,
            "points": points,
        },
        "match_over": {
            "seats": points,
            "teams": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
            "result": nullable({"enum": RESULTS}),
            "winners": {"type": "array", "items": SEAT, "maxItems": 4},
        },
    }
    defs = {f"event_{k}": obj({"type": {"const": k}, **props}) for k, props in kinds.items()}
    union = {
        "description": "One event of trixcomplex.events: what one seat saw happen.",
        "oneOf": [ref(f"event_{k}") for k in kinds],
    }
    return {"game_event": union, **defs}


def error_info() -> dict[str, Any]:
    return obj(
        {
            "code": {"type": "string", "pattern": "^[a-z]+(?:[.-][a-z]+)*$"},
            "message": {"type": "string", "maxLength": 500},
            "rule": nullable({"type": "string", "pattern": "^R-[A-Z]+-[0-9]+$"}),
            "index": nullable({"type": "integer", "minimum": 0}),
        },
        description="A refusal: trixcomplex.TrixError.to_json (the server's codes start "
        "with 'server.').",
    )


def wire_defs() -> dict[str, Any]:
    """The server's messages and HTTP bodies, with every part they use."""
    pictures = {"type": "boolean", "description": "false: send no SVG pictures (default true)"}
    seconds = {
        key: {"type": "number", "minimum": low, "maximum": high}
        for key, (low, high) in SETTINGS_LIMITS.items()
    }
    locale = {
        "enum": list(LOCALES),
        "description": "The language of the illegal cards' reasons and refusals (default en)",
    }
    hellos = {
        "join": obj(
            {
                "type": {"const": "join"},
                "seat": SEAT,
                "name": {"type": "string", "minLength": 1, "maxLength": 40, "pattern": "\\S"},
                "pictures": pictures,
                "locale": locale,
            },
            ["type", "seat", "name"],
            description="Take a free person seat under a name (1 to 40 printable characters).",
        ),
        "resume": obj(
            {"type": {"const": "resume"}, "token": TOKEN, "pictures": pictures, "locale": locale},
            ["type", "token"],
            description="Come back to one's seat with its token.",
        ),
        "watch": obj(
            {"type": {"const": "watch"}, "pictures": pictures, "locale": locale},
            ["type"],
            description="Watch the table as a spectator.",
        ),
    }
    seat_kind = {"enum": ["person", *BOT_NAMES]}
    pair = {"type": "array", "minItems": 2, "maxItems": 2}
    messages = {
        "welcome": obj(
            {
                "type": {"const": "welcome"},
                "table": TABLE_ID,
                "seat": nullable(SEAT),
                "token": TOKEN,
                "settings": ref("settings"),
                "partnership": {
                    "type": "boolean",
                    "description": "Whether the table's ruleset plays in teams (partners opposite)",
                },
            },
            ["type", "table", "seat", "settings"],
            description="The answer to a hello: the connection's seat (null: a spectator), "
            "and after a join the seat's token.",
        ),
        "update": obj(
            {
                "type": {"const": "update"},
                "table": TABLE_ID,
                "view": ref("view"),
                "events": {"type": "array", "items": ref("game_event")},
                "clock": ref("clock"),
                "seats": four(ref("seat_info")),
                "scoresheet": {"type": "string"},
                "svg": {"type": "string", "description": "The view's picture (unless no pictures)"},
                "record": {"type": "string", "description": "The record's URL, once it is over"},
                "places": {
                    **four({"enum": ["bottom", "right", "top", "left"]}),
                    "description": "Where each seat sits on this viewer's picture of the table "
                    "(trixcomplex.io.render.position: the viewer at the bottom, the next seat "
                    "on its right, R-SEAT-1)",
                },
                "last_deal": nullable(ref("finished_deal")),
                "illegal": {
                    "type": "object",
                    "propertyNames": CARD,
                    "additionalProperties": {"type": "string"},
                    "description": "A seat's own update only: why each card of its hand it "
                    "may not play now (trixcomplex.why_illegal); playable cards are left out",
                },
            },
            ["type", "table", "view", "events", "clock", "seats", "scoresheet"],
            description="After every change this connection may see: its view and its events.",
        ),
        "seats": obj(
            {"type": {"const": "seats"}, "seats": four(ref("seat_info"))},
            description="Someone joined, connected or left.",
        ),
        "refused": obj(
            {"type": {"const": "refused"}, "error": ref("error_info")},
            description="The last message was refused; nothing changed.",
        ),
        "bye": obj(
            {"type": {"const": "bye"}},
            description="The server closes the connection (after a refusal saying why).",
        ),
    }
    return {
        **{f"hello_{k}": v for k, v in hellos.items()},
        "hello": {"oneOf": [ref(f"hello_{k}") for k in hellos]},
        "client_message": {
            "description": "Anything a client sends: a hello, then its seat's moves.",
            "oneOf": [ref("hello"), ref("input_player_move")],
        },
        **{f"message_{k}": v for k, v in messages.items()},
        "server_message": {"oneOf": [ref(f"message_{k}") for k in messages]},
        "settings": obj(
            {"ruleset": RULESET, **seconds},
            description="A table's ruleset and clocks, in seconds.",
        ),
        "seat_info": obj(
            {
                "kind": {"enum": ["person", "bot"]},
                "name": nullable({"type": "string"}),
                "taken": {"type": "boolean"},
                "connected": {"type": "boolean"},
            },
            description="A seat as everyone may see it: a bot's name is its kind of bot.",
        ),
        "clock": obj(
            {
                "move_time": {"type": "number", "minimum": 0},
                "seconds_left": nullable({"type": "number", "minimum": 0}),
            },
            description="The clock of the seat(s) to act; seconds_left is null between deals.",
        ),
        "finished_deal": obj(  # the pairs as in a view
            {
                "deal_number": {"type": "integer", "minimum": 1},
                "contract": {"enum": CONTRACTS},
                "owner": SEAT,
                "points": four({"type": "integer"}),
                "tricks": {"type": "array", "items": ref("trick"), "maxItems": 13},
                "doubled": {"type": "array", "items": {**pair, "prefixItems": [CARD, SEAT]}},
                "laid": {"type": "array", "items": {**pair, "prefixItems": [SEAT, CARD]}},
                "passes": {
                    "type": "array",
                    "items": {**pair, "prefixItems": [SEAT, {"type": "integer", "minimum": 0}]},
                },
                "finishing_order": {"type": "array", "items": SEAT, "maxItems": 4},
                "ledger": {"type": "array", "items": {"type": "object"}},
            },
            description="The last finished deal as it was played (all of it public once "
            "played): its tricks, doubles (card, doubler), TRIX lays and passes, points and "
            "ledger lines (trixcomplex.ledger); sent while nothing of the next deal is played.",
        ),
        "create_table": obj(
            {"seats": four(seat_kind), "ruleset": RULESET, **seconds},
            [],
            description="POST /api/tables: the new table's seats (default: a person and three "
            "rule bots) and settings (defaults in the server's documentation).",
        ),
        "table_summary": obj(
            {
                "id": TABLE_ID,
                "created": {"type": "string", "format": "date-time"},
                "settings": ref("settings"),
                "seats": four(ref("seat_info")),
                "phase": {"enum": PHASES},
                "deal_number": {"type": "integer", "minimum": 0},
                "deals": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "The deals of a match in the table's ruleset",
                },
                "contract": nullable({"type": "string"}),
                "finished": {"type": "boolean"},
                "archived": {
                    "type": "boolean",
                    "description": "Finished and past its retention: out of the lobby and of "
                    "memory, its record still downloadable",
                },
            },
            ["id", "created", "settings", "seats", "phase", "deal_number", "finished"],
            description="A table as the lobby lists it.",
        ),
        "table_list": obj(
            {
                "tables": {"type": "array", "items": ref("table_summary")},
                "damaged": {
                    "type": "array",
                    "items": TABLE_ID,
                    "description": "Tables whose stored row cannot be read, set aside "
                    "(only when there are any)",
                },
            },
            ["tables"],
            description="GET /api/tables: every table of the server.",
        ),
        "http_error": obj(
            {"error": ref("error_info")},
            description="An HTTP request refused (status 400, 404, 409, 429, 500 or 503): why.",
        ),
    }


# name: (the def it is, its title).
SCHEMAS: dict[str, tuple[str, str]] = {
    "move": ("input_move", "A move, as a client sends it and a record holds it"),
    "record": ("game_record", "A game record"),
    "state": ("saved_state", "A saved match state"),
    "view": ("view", "What one seat sees of a match"),
    "event": ("game_event", "One event of trixcomplex.events"),
    "error": ("error_info", "An error (TrixError.to_json)"),
    "hello": ("hello", "The first WebSocket message of a connection: join, resume or watch"),
    "client-message": ("client_message", "Any WebSocket message a client sends"),
    "welcome": ("message_welcome", "The server's welcome message"),
    "update": ("message_update", "The server's update message"),
    "seats": ("message_seats", "The server's seats message"),
    "refused": ("message_refused", "The server's refused message"),
    "bye": ("message_bye", "The server's bye message"),
    "server-message": ("server_message", "Any WebSocket message the server sends"),
    "create-table": ("create_table", "The body of POST /api/tables"),
    "table": ("table_summary", "A table's summary (GET /api/tables/{id}, POST's answer)"),
    "tables": ("table_list", "The body of GET /api/tables"),
    "http-error": ("http_error", "The body of a refused HTTP request"),
}
"""Every published schema: its file name's stem, the def it describes and its title."""


def all_defs() -> dict[str, Any]:
    return {**game_defs(), **wire_defs()}


def _refs(node: object) -> set[str]:
    if isinstance(node, dict):
        found = {node["$ref"].removeprefix("#/$defs/")} if "$ref" in node else set()
        return found.union(*(_refs(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_refs(v) for v in node))
    return set()


def reachable(body: object, defs: dict[str, Any]) -> dict[str, Any]:
    """The defs ``body`` uses, directly or through other defs, in ``defs``' order."""
    seen: set[str] = set()
    todo = _refs(body)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo |= _refs(defs[name])
    return {name: value for name, value in defs.items() if name in seen}


def examples() -> dict[str, list[Any]]:
    return json.loads(EXAMPLES.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def schema(name: str) -> dict[str, Any]:
    """The schema ``name``: the def it describes inline, with the defs it uses."""
    def_name, title = SCHEMAS[name]
    defs = all_defs()
    body = defs[def_name]
    return {
        "$schema": DRAFT,
        "$id": f"urn:trixcomplex:schema:{name}:{SCHEMA_VERSION}",
        "title": title,
        **body,
        "examples": examples()[name],
        "$defs": reachable(body, defs),
    }


def render(name: str) -> str:
    return json.dumps(schema(name), indent=2, ensure_ascii=False) + "\n"


def bundle() -> str:
    """Every schema's def, and the parts they use, in one schema (for clients/typescript)."""
    whole = {
        "$schema": DRAFT,
        "$id": f"urn:trixcomplex:schema:bundle:{SCHEMA_VERSION}",
        "title": "TrixcomplexJson",
        "description": "Any JSON of the library or the table server.",
        "oneOf": [ref(def_name) for def_name, _ in SCHEMAS.values()],
        "$defs": all_defs(),
    }
    return json.dumps(whole, indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    for out in OUTS:
        out.mkdir(exist_ok=True)
        for name in SCHEMAS:
            (out / f"{name}.schema.json").write_text(render(name), encoding="utf-8")
    BUNDLE.write_text(bundle(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
