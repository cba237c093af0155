"""The published JSON Schemas (draft 2020-12) of the library's JSON and the server's protocol.

One self-contained schema per format, shipped in the package
(``trixcomplex/io/schemas/NAME.schema.json``, and in the repository's
``schemas/``) for frontends written in other languages, each with its
``$id`` ``urn:trixcomplex:schema:NAME:1`` and ``examples`` that validate.
The library's formats: ``"move"`` (a move as a client sends it and a record
holds it, every card spelling), ``"record"``, ``"state"`` (a saved
:class:`~trixcomplex.MatchState`), ``"view"``, ``"event"`` (one item of
:func:`~trixcomplex.events`) and ``"error"``
(:meth:`~trixcomplex.TrixError.to_json`).  The table server's protocol
(``trixcomplex serve``): its WebSocket messages ``"hello"`` and
``"client-message"`` (what a client sends), ``"welcome"``, ``"update"``,
``"seats"``, ``"refused"``, ``"bye"`` and ``"server-message"`` (what it
sends), and its HTTP bodies ``"create-table"``, ``"table"``, ``"tables"`` and
``"http-error"``.  Everything the library and the server write validates
against them.  A schema checks the form only: whether a move is legal is the
engine's question.

>>> import trixcomplex as tc
>>> schema = tc.json_schema("move")
>>> schema["$schema"], schema["$id"]
('https://json-schema.org/draft/2020-12/schema', 'urn:trixcomplex:schema:move:1')
>>> len(SCHEMA_NAMES)
18
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["SCHEMA_NAMES", "json_schema"]

SCHEMA_NAMES = (
    "move",
    "record",
    "state",
    "view",
    "event",
    "error",
    "hello",
    "client-message",
    "welcome",
    "update",
    "seats",
    "refused",
    "bye",
    "server-message",
    "create-table",
    "table",
    "tables",
    "http-error",
)
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
        resources.files("trixcomplex.io")
        .joinpath("schemas", f"{name}.schema.json")
        .read_text(encoding="utf-8")
    )
