"""The published JSON Schemas (draft 2020-12) of the library's JSON: :func:`json_schema`.

One self-contained schema per format, shipped in the package
(``trixcomplex/schemas/NAME.schema.json``) for frontends written in other
languages: ``"move"`` (a move of the record format, as a client sends it),
``"record"``, ``"state"`` (a saved :class:`~trixcomplex.MatchState`),
``"view"``, ``"event"`` (one item of :func:`~trixcomplex.events`) and
``"error"`` (:meth:`~trixcomplex.TrixError.to_json`).  Everything the
library writes validates against them.  A schema checks the form only:
whether a move is legal is the engine's question.

>>> import trixcomplex as tc
>>> schema = tc.json_schema("move")
>>> schema["$schema"]
'https://json-schema.org/draft/2020-12/schema'
>>> sorted(SCHEMA_NAMES)
['error', 'event', 'move', 'record', 'state', 'view']
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["SCHEMA_NAMES", "json_schema"]

SCHEMA_NAMES = ("move", "record", "state", "view", "event", "error")
"""The names :func:`json_schema` knows."""


def json_schema(name: str) -> dict[str, Any]:
    """The JSON Schema named ``name`` (one of :data:`SCHEMA_NAMES`), as a new dict.

    An unknown name raises ``ValueError``.
    """
    if name not in SCHEMA_NAMES:
        raise ValueError(f"no schema named {name!r:.40}; the schemas are {', '.join(SCHEMA_NAMES)}")
    return json.loads(_text(name))  # type: ignore[no-any-return]


@cache
def _text(name: str) -> str:
    return (
        resources.files("trixcomplex")
        .joinpath("schemas", f"{name}.schema.json")
        .read_text(encoding="utf-8")
    )
