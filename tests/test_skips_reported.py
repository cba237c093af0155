"""Skips are never silent (issue 43, deliverable 7): the default run of the suite (the
project's pytest configuration, no options) ends with every skip and its reason."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_default_run_names_every_skip_and_its_reason(tmp_path: Path) -> None:
    test = tmp_path / "test_one_skip.py"
    test.write_text(
        "import pytest\n\n"
        "def test_needs_a_browser():\n"
        "    pytest.skip(\"chromium is not installed (Debian package 'chromium')\")\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "-n", "0",
         "-p", "no:cacheprovider", str(test)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SKIPPED [1]" in done.stdout
    assert "chromium is not installed (Debian package 'chromium')" in done.stdout
