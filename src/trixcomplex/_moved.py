"""The old flat module paths, kept working with a :class:`DeprecationWarning`.

The modules of trixcomplex moved into subpackages that show the layers
(``core``, ``knowledge``, ``io``, ``host``, ``cli``: docs/engine.rst, "Layers").
``import trixcomplex.views`` or ``from trixcomplex.match import apply`` still
works: a finder on :data:`sys.meta_path` answers each old name of
:data:`MOVED` with the new module itself (the same object, so classes and
``isinstance`` agree), warning once, when the old name is first imported.
``events``, ``ledger``, ``playout`` and ``simulate`` are not here: they are
the functions ``trixcomplex.events`` and so on, no longer hiding a module.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

_PACKAGE = __name__.rpartition(".")[0]

MOVED: dict[str, str] = {
    f"{_PACKAGE}.{old}": f"{_PACKAGE}.{new}"
    for old, new in {
        "errors": "core.errors",
        "jsonio": "core.jsonio",
        "tuplerecord": "core.tuplerecord",
        "cards": "core.cards",
        "seats": "core.seats",
        "moves": "core.moves",
        "rulesets": "core.rulesets",
        "scoring": "core.scoring",
        "kingdoms": "core.kingdoms",
        "doubling": "core.doubling",
        "trix": "core.trix",
        "complex": "core.tricks",
        "state": "core.state",
        "match": "core.match",
        "rules": "core.rules",
        "engine": "core.engine",
        "views": "knowledge.views",
        "viewcheck": "knowledge.viewcheck",
        "worlds": "knowledge.worlds",
        "convert": "io.convert",
        "serialize": "io.serialize",
        "records": "io.records",
        "schema": "io.schema",
        "render": "io.render",
        "scoresheet": "io.scoresheet",
        "actions": "io.actions",
        "hosting": "host.submit",
        "isolated": "host.isolated",
        "sandbox": "host.sandbox",
        "randomplay": "host.randomplay",
        "replay_cli": "cli.replay",
        "conformance.command": "cli.conformance",
    }.items()
}
"""Each old module path and the module now at its place.  (``trixcomplex.host``
is the host package now: its old names resolve there, see its ``__getattr__``.)"""


class _Alias:
    """Finds an old module path and loads it as the module that moved (a meta path
    finder and its loader: no ``importlib.abc`` base, which ``import trixcomplex``
    would pay for)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, cast("Loader", self))

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name} moved to {MOVED[spec.name]}; import it from there",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module was imported under its new name."""


def install() -> None:
    """Put the finder on :data:`sys.meta_path` (once)."""
    if not any(isinstance(finder, _Alias) for finder in sys.meta_path):
        sys.meta_path.append(_Alias())
