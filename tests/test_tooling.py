"""The project's own checks, run as tests so that one command runs them all:
``mypy --strict``, ruff (lint and format) and the docs build with warnings
as errors.  Deselect with ``-m 'not tooling'`` while iterating.  The docs build
(marker ``docs_build``, 35 s of one worker) runs with ``--docs-build`` only, as
``nox -s docs`` and CI run it: the default suite keeps to its four minutes."""

from __future__ import annotations

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


@pytest.mark.docs_build
def test_docs_build_without_warnings_and_every_internal_link_resolves(tmp_path: Path) -> None:
    """The HTML site builds with warnings as errors, the highlighted source pages of
    ``sphinx.ext.viewcode`` included; every internal link and ``#anchor`` of the built
    site resolves, the source pages' "[docs]" back-links to the API pages included
    (issue 43: 107 of them pointed at anchors that did not exist)."""
    from doclinks import broken_links

    _run("sphinx", "-W", "--keep-going", "-q", "-b", "html", "docs", str(tmp_path / "html"))
    assert any((tmp_path / "html" / "_modules").rglob("*.html"))  # the source pages
    assert broken_links(tmp_path / "html") == []
