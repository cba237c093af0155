"""Write the JSON Schemas of src/trixcomplex/schemas/ (draft 2020-12).

Run ``python tools/make_schemas.py`` after changing a format; the test
``tests/test_schema.py`` checks that the shipped files are what this writes.
Each file is self-contained (its shared parts under ``$defs``), so a frontend
in any language can use one file without a schema registry.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

DRAFT = "https://json-schema.org/draft/2020-12/schema"
BASE = "https://trixcomplex.invalid/schemas/"
OUT = Path(__file__).resolve().parent.parent / "src" / "trixcomplex" / "schemas"

SINGLE_CONTRACTS = ["COMPLEX", "TRIX", "KING_OF_HEARTS", "QUEENS", "DIAMONDS", "LTOOSH"]
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

SEAT = {"type": "integer", "minimum": 0, "maximum": 3}
CARD_IN = {
    "type": "string",
    "pattern": "^(?:[2-9TJQKAtjqka]|10)[SHDCshdc\u2660\u2665\u2666\u2663]$",
    "description": "A card code of R-CARD-2 (the library writes the canonical form, e.g. TD).",
}
CARD = {"type": "string", "pattern": "^[2-9TJQKA][SHDC]$", "description": "A canonical card code."}
_OPTION = "[a-z_]+=(?:True|False|[A-Z_]+(?:/[A-Z_]+)*)"
RULESET = {
    "type": "string",
    "maxLength": 1000,
    "pattern": f"^(?:{PRESETS})(?:\\+{_OPTION}(?:,{_OPTION})*)?$",
    "description": "A ruleset name (R-SET-1): a preset, maybe with options and its own "
    "contracts (contracts=A/B/...).",
}


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


def move_defs(card: dict[str, Any]) -> dict[str, Any]:
    kinds = {
        "deal": obj(
            {
                "move": {"const": "deal"},
                "deck": cards(card, minItems=52),
            }
        ),
        "choose": obj({"move": {"const": "choose"}, "seat": SEAT, "contract": CHOSEN_CONTRACT}),
        "double": obj(
            {"move": {"const": "double"}, "seat": SEAT, "cards": cards(card, maxItems=5)}
        ),
        "timeout": obj({"move": {"const": "timeout"}}),
        "play": obj({"move": {"const": "play"}, "seat": SEAT, "card": card}),
        "pass": obj({"move": {"const": "pass"}, "seat": SEAT}),
        "redeal": obj({"move": {"const": "redeal"}, "seat": SEAT}),
    }
    return {
        "card": card,
        "move": {"oneOf": [ref(f"move_{k}") for k in kinds]},
        **{f"move_{k}": v for k, v in kinds.items()},
    }


def schema(name: str, title: str, body: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    return {
        "$schema": DRAFT,
        "$id": f"{BASE}{name}.schema.json",
        "title": title,
        **body,
        "$defs": defs,
    }


def move_schema() -> dict[str, Any]:
    return schema("move", "A trixcomplex move", ref("move"), move_defs(CARD_IN))


META_VALUE: dict[str, Any] = {
    "anyOf": [
        {"type": ["string", "number", "boolean", "null"]},
        {"type": "array", "items": {"$ref": "#/$defs/meta_value"}},
        {"type": "object", "additionalProperties": {"$ref": "#/$defs/meta_value"}},
    ]
}


def record_schema() -> dict[str, Any]:
    body = obj(
        {
            "format": {"const": "trixcomplex-record"},
            "version": {"const": 1},
            "ruleset": RULESET,
            "moves": {"type": "array", "items": ref("move"), "maxItems": 20000},
            "meta": {
                "type": "object",
                "additionalProperties": ref("meta_value"),
                "description": "Optional metadata (players, event, site, date, ...).",
            },
        },
        ["format", "version", "ruleset", "moves"],
    )
    return schema(
        "record",
        "A trixcomplex game record",
        body,
        {**move_defs(CARD_IN), "meta_value": META_VALUE},
    )


def common_defs() -> dict[str, Any]:
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
    doubled_card = {"type": "object", "required": ["card"], "properties": {"card": CARD}}
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
    return {
        **move_defs(CARD),
        "trick": trick,
        "seat_breakdown": breakdown,
        "doubled_card": doubled_card,
        "deal_result": deal_result,
        "score": score,
    }


def state_schema() -> dict[str, Any]:
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
    body = obj(
        {
            "format": {"const": "trixcomplex-state"},
            "version": {"enum": [1, 2], "description": "2 writes the deal as one field, 'deal'"},
            "ruleset": RULESET,
            "moves": {"type": "array", "items": ref("move"), "maxItems": 20000},
            "state": state,
        }
    )
    return schema("state", "A saved trixcomplex match state", body, common_defs())


def view_schema() -> dict[str, Any]:
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
        "legal_moves": {"type": "array", "items": ref("move")},
        "forced_move": nullable(ref("move")),
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
    body = {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }
    return schema("view", "What one seat sees of a trixcomplex match", body, common_defs())


def event_schema() -> dict[str, Any]:
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
    body = {"oneOf": [ref(f"event_{k}") for k in kinds]}
    return schema("event", "One event of trixcomplex.events", body, defs)


def error_schema() -> dict[str, Any]:
    body = obj(
        {
            "code": {"type": "string", "pattern": "^[a-z]+(?:[.-][a-z]+)*$"},
            "message": {"type": "string", "maxLength": 500},
            "rule": nullable({"type": "string", "pattern": "^R-[A-Z]+-[0-9]+$"}),
            "index": nullable({"type": "integer", "minimum": 0}),
        }
    )
    return schema("error", "A trixcomplex error (TrixError.to_json)", body, {})


SCHEMAS = {
    "move": move_schema,
    "record": record_schema,
    "state": state_schema,
    "view": view_schema,
    "event": event_schema,
    "error": error_schema,
}


def render(name: str) -> str:
    return json.dumps(SCHEMAS[name](), indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    for name in SCHEMAS:
        (OUT / f"{name}.schema.json").write_text(render(name), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
