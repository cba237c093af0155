"""Running matches between players: the host loop, client input on the host's clock,
tournaments, isolated bots and their sandbox, random matches.

Above :mod:`trixcomplex.bots` in the layers (docs/engine.rst, "Layers").
Before the subpackages, ``trixcomplex.host`` was the host loop's module, now
:mod:`trixcomplex.host.loop`; its names still resolve here, with a
:class:`DeprecationWarning`.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any


def __getattr__(name: str) -> Any:
    """A name of the old host module (now ``loop``), with a warning."""
    loop = importlib.import_module(f"{__name__}.loop")
    if name.startswith("_") or name not in loop.__all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        f"trixcomplex.host.{name} moved to trixcomplex.host.loop.{name}",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(loop, name)
