"""The project's own checks, run as tests so that one command runs them all:
``mypy --strict``, ruff (lint and format) and the docs build with warnings
as errors.  Deselect with ``-m 'not tooling'`` while iterating."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.tooling


def _run(*args: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]


def test_mypy_strict() -> None:
    _run("mypy", "--strict", "src/trixcomplex", "benchmarks")


def test_ruff_check() -> None:
    _run("ruff", "check", ".")


def test_ruff_format() -> None:
    _run("ruff", "format", "--check", ".")


def _docs_extensions(leave_out: str) -> str:
    """docs/conf.py's ``extensions`` but ``leave_out``, as ``sphinx -D`` takes them."""
    tree = ast.parse((ROOT / "docs" / "conf.py").read_text(encoding="utf-8"))
    (listed,) = (
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(
            isinstance(target, ast.Name) and target.id == "extensions" for target in node.targets
        )
    )
    return ",".join(name for name in listed if name != leave_out)


def test_docs_build_without_warnings(tmp_path: Path) -> None:
    """The HTML site builds with warnings as errors.  Only the highlighted source pages
    of ``sphinx.ext.viewcode`` are left out (a fifth of the build, and they warn about
    nothing the API pages would not); ``nox -s docs`` builds the whole site."""
    without_source_pages = "extensions=" + _docs_extensions("sphinx.ext.viewcode")
    _run("sphinx", "-W", "--keep-going", "-q", "-b", "html", "-D", without_source_pages,
         "docs", str(tmp_path / "html"))  # fmt: skip
