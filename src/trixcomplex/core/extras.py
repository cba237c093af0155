"""The optional parts of the library and the extra each needs: one error names it.

``import trixcomplex`` needs only ``attrs`` and ``cattrs``; every other package
belongs to an extra of the distribution (``pip install "trixcomplex[rl]"``).
Importing a part whose extra is not installed raises :class:`MissingExtraError`,
an ``ImportError`` whose message names the part, the missing package, the extra
and the pip command, instead of a bare ``No module named 'numpy'``.

>>> error = MissingExtraError("rl", "trixcomplex.rl", "numpy")
>>> print(error)
trixcomplex.rl needs the rl extra (numpy is not installed): python -m pip install "trixcomplex[rl]"
>>> isinstance(error, ImportError), error.name, error.extra
(True, 'numpy', 'rl')
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["EXTRAS", "MissingExtraError", "needs_extra"]

EXTRAS: dict[str, tuple[str, ...]] = {
    "cli": ("rich",),
    "server": ("starlette", "uvicorn", "websockets", "prometheus_client"),
    "postgres": ("psycopg", "psycopg_pool"),
    "dask": ("dask", "distributed"),
    "rl": ("numpy", "pettingzoo", "gymnasium"),
    "openspiel": ("pyspiel", "open_spiel"),
    "testing": ("hypothesis",),
}
"""Each extra of the distribution and the top-level modules it installs (the
``[project.optional-dependencies]`` of ``pyproject.toml``; a test compares them)."""


class MissingExtraError(ImportError):
    """A part of trixcomplex was imported without the extra it needs.

    ``extra`` is the extra to install, ``part`` the module that needs it and
    ``name`` (as for any ``ImportError``) the missing package's module.
    """

    def __init__(self, extra: str, part: str, missing: str) -> None:
        self.extra = extra
        self.part = part
        super().__init__(
            f"{part} needs the {extra} extra ({missing} is not installed): "
            f'python -m pip install "trixcomplex[{extra}]"',
            name=missing,
        )

    def __reduce__(self) -> tuple[type[MissingExtraError], tuple[str, str, str]]:
        return type(self), (self.extra, self.part, self.name or "")


@contextmanager
def needs_extra(extra: str, part: str) -> Iterator[None]:
    """Run the imports of ``part`` in this block: a module of ``extra`` that is missing
    raises :class:`MissingExtraError` (any other ``ImportError`` passes unchanged).

    >>> import sys
    >>> from unittest import mock
    >>> with mock.patch.dict(sys.modules, {"numpy": None}):  # as if it were not installed
    ...     with needs_extra("rl", "trixcomplex.rl"):
    ...         import numpy
    Traceback (most recent call last):
    trixcomplex.core.extras.MissingExtraError: trixcomplex.rl needs the rl extra (numpy ...
    """
    try:
        yield
    except MissingExtraError:
        raise
    except ImportError as exc:
        missing = (exc.name or "").partition(".")[0]
        if missing not in EXTRAS[extra]:
            raise
        raise MissingExtraError(extra, part, missing) from exc
