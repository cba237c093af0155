"""Every optional part names its extra (issue 43, deliverable 2).

``import trixcomplex`` needs only attrs and cattrs; importing a part whose extra
is missing raises :class:`trixcomplex.MissingExtraError` (an ``ImportError``)
whose message names the extra and the pip command.  Checked twice: cheaply, in
a subprocess whose missing packages are hidden by an import blocker on
``sys.meta_path``; and for real (``slow``), in a fresh virtual environment
without system site packages holding the project, attrs and cattrs only.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest

from trixcomplex.core.extras import EXTRAS, MissingExtraError

ROOT = Path(__file__).resolve().parents[1]
_NOT_SOURCE = (".git", ".venv", ".nox", ".ci-venv", "build", "dist", "node_modules",
               "*.egg-info", "_build", "__pycache__", ".mypy_cache", ".ruff_cache")  # fmt: skip

# (the code importing the part, the package hidden, the extra its error must name)
CASES = [  # in an order where no case loads a package a later case hides
    ("import trixcomplex.rl", "numpy", "rl"),
    ("import trixcomplex.rl.gymnasium", "gymnasium", "rl"),
    ("import trixcomplex.rl.pettingzoo", "pettingzoo", "rl"),
    ("import trixcomplex.rl.openspiel", "pyspiel", "openspiel"),
    ("from trixcomplex.testing import matches", "hypothesis", "testing"),
    ("import trixcomplex.testing.strategies", "hypothesis", "testing"),
    ("import trixcomplex.server", "uvicorn", "server"),
    ("import trixcomplex.server", "websockets", "server"),
    ("import trixcomplex.server.app", "starlette", "server"),
]

# Runs each case in a fresh set of trixcomplex modules, the package hidden (argv[1]:
# "block" hides it; "real": the environment really lacks it); prints the outcomes as JSON.
CHECKER = r"""
import importlib.abc, json, sys

class Blocker(importlib.abc.MetaPathFinder):
    hidden = ""
    def find_spec(self, name, path=None, target=None):
        if self.hidden and name.partition(".")[0] == self.hidden:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

blocker = Blocker()
if sys.argv[1] == "block":
    sys.meta_path.insert(0, blocker)
import trixcomplex, trixcomplex.core.extras
cases = json.loads(sys.argv[2])
base = set(sys.modules)
out = []
for code, hidden, _ in cases:
    for name in set(sys.modules) - base:  # trixcomplex's parts only: numpy loads once
        if name.startswith("trixcomplex."):
            del sys.modules[name]
    blocker.hidden = hidden
    assert hidden not in sys.modules, f"{hidden} was loaded by an earlier case"
    try:
        exec(code, {})
        out.append(None)
    except ImportError as exc:
        out.append([type(exc).__name__, isinstance(exc, trixcomplex.MissingExtraError),
                    getattr(exc, "extra", None), exc.name, str(exc)])
blocker.hidden = ""
for name in set(sys.modules) - base:
    if name.startswith("trixcomplex."):
        del sys.modules[name]
import trixcomplex.testing  # the checks and the plugin need no Hypothesis
print(json.dumps(out))
"""


def _check(python: str, how: str, cases: list[tuple[str, str, str]]) -> list[object]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if how == "block":
        env["PYTHONPATH"] = str(ROOT / "src")
    done = subprocess.run(
        [python, "-c", CHECKER, how, json.dumps(cases)],
        capture_output=True, text=True, timeout=300, env=env, cwd=ROOT / "tests",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result: list[object] = json.loads(done.stdout)
    return result


def _assert_named(
    outcomes: list[object], cases: list[tuple[str, str, str]], *, exact: bool = True
) -> None:
    """Each case raised MissingExtraError naming its extra and the pip command, and the
    hidden package (``exact``; else the first missing package the part imports)."""
    for (code, hidden, extra), outcome in zip(cases, outcomes, strict=True):
        assert outcome is not None, f"{code} imported without {hidden}"
        kind, is_missing_extra, named, module, message = outcome  # type: ignore[misc]
        assert is_missing_extra, (code, kind, message)
        missing = hidden if exact else module
        assert named in (extra, "rl") and module == missing, (code, message)
        assert f'python -m pip install "trixcomplex[{named}]"' in message, message
        assert f"({missing} is not installed)" in message, message


def test_each_part_without_its_extra_names_the_extra() -> None:
    """Issue 43 (2): a part imported with its extra's package hidden raises
    MissingExtraError naming the extra and the pip command (and the package)."""
    _assert_named(_check(sys.executable, "block", CASES), CASES)


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


@pytest.mark.slow
def test_a_virtual_environment_without_extras(tmp_path: Path) -> None:
    """Issue 43 (2), for real: the project installed with attrs and cattrs only, in a
    virtual environment without system site packages; every part names its extra,
    and ``trixcomplex serve`` says which to install in one line."""
    source = tmp_path / "source"  # a copy: building leaves nothing in the checkout
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*_NOT_SOURCE))
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(env_dir)
    python = str(env_dir / "bin" / "python")
    pip = [python, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    for args in (["--no-deps", str(source)], ["attrs>=23.1", "cattrs>=23.2"]):
        done = subprocess.run([*pip, *args], capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
    # the extra named is the part's; the package, the first of it the part imports
    _assert_named(_check(python, "real", CASES), CASES, exact=False)
    serve = subprocess.run(
        [str(env_dir / "bin" / "trixcomplex"), "serve", "--port", "0"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert serve.returncode == 1
    [line] = serve.stderr.splitlines()
    assert line.startswith("trixcomplex serve: error: trixcomplex.server needs the server extra")
    assert line.endswith('python -m pip install "trixcomplex[server]"')
