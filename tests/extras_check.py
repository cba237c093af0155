"""The check shared by tests/test_missing_extras.py (packages hidden by an import
blocker) and tests/test_packaging.py (a virtual environment without the extras): each
optional part, imported without its extra, raises MissingExtraError naming it."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

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


def check(python: str, how: str, cases: list[tuple[str, str, str]]) -> list[object]:
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


def assert_named(
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
