"""Every optional part names its extra (issue 43, deliverable 2).

``import trixcomplex`` needs only attrs and cattrs; importing a part whose extra
is missing raises :class:`trixcomplex.MissingExtraError` (an ``ImportError``)
whose message names the extra and the pip command.  Checked twice: cheaply, in
a subprocess whose missing packages are hidden by an import blocker on
``sys.meta_path``; and for real (``slow``, in tests/test_packaging.py), in a
fresh virtual environment without system site packages holding the project's
wheel, attrs and cattrs only.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from extras_check import CASES, assert_named, check
from trixcomplex.core.extras import EXTRAS, MissingExtraError

ROOT = Path(__file__).resolve().parents[1]


def test_each_part_without_its_extra_names_the_extra() -> None:
    """Issue 43 (2): a part imported with its extra's package hidden raises
    MissingExtraError naming the extra and the pip command (and the package)."""
    assert_named(check(sys.executable, "block", CASES), CASES)


def test_missing_extra_error_is_an_import_error_that_pickles() -> None:
    """It is caught as the ImportError it replaces, and crosses process pools intact."""
    import pickle

    error = MissingExtraError("server", "trixcomplex.server", "starlette")
    again = pickle.loads(pickle.dumps(error))
    assert isinstance(again, ImportError)
    assert (str(again), again.name, again.extra) == (str(error), "starlette", "server")


def test_extras_table_matches_pyproject() -> None:
    """EXTRAS (the packages whose absence names an extra) lists pyproject.toml's extras."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = {
        extra: {req.split("[")[0].split(">")[0].split("=")[0].strip() for req in reqs}
        for extra, reqs in project["optional-dependencies"].items()
        if extra not in ("test", "docs", "dev")
    }
    assert set(declared) == set(EXTRAS)
    modules = {"open_spiel": "pyspiel"}  # the distribution's name is not its module's
    for extra, names in declared.items():
        assert {modules.get(n, n) for n in names} <= set(EXTRAS[extra]), extra
