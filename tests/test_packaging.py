"""The distributions a stranger installs (issue 43, deliverable 5): the MIT license in
the repository, the sdist and the wheel; metadata that ``twine check`` passes; a README
(the package's long description) with no link that breaks outside the repository."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_NOT_SOURCE = (".git", ".venv", ".nox", ".ci-venv", "build", "dist", "node_modules",
               "*.egg-info", "_build", "__pycache__", ".mypy_cache", ".ruff_cache",
               ".hypothesis", ".import_linter_cache")  # fmt: skip


def test_the_license_is_mit_and_named_by_the_metadata() -> None:
    """LICENSE holds the MIT text for the trixcomplex developers; pyproject.toml names
    it as the license file and MIT as the license."""
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 trixcomplex developers\n")
    assert "Permission is hereby granted, free of charge" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in text
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]


def test_the_readme_has_no_link_that_breaks_outside_the_repository() -> None:
    """The README is the package's long description, shown on an index page: every
    Markdown link or image in it is absolute (http, https or mailto), none relative."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]*)", text) + re.findall(r"^\[[^\]]+\]:\s*(\S+)", text, re.M)
    relative = [t for t in targets if not re.match(r"(https?|mailto):", t)]
    assert relative == []


@pytest.mark.slow
def test_the_sdist_and_the_wheel_pass_twine_check_and_hold_the_license(
    tmp_path: Path,
) -> None:
    """``python -m build`` makes both distributions from a copy of the source tree;
    ``twine check --strict`` passes them; each holds LICENSE, and the wheel's metadata
    names it (``License-File``) with the ``License-Expression`` MIT."""
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*_NOT_SOURCE))
    dist = tmp_path / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(source)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-3000:]
    wheels, sdists = sorted(dist.glob("*.whl")), sorted(dist.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    check = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(wheels[0]), str(sdists[0])],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.count("PASSED") == 2, check.stdout
    license_text = (ROOT / "LICENSE").read_bytes()
    with zipfile.ZipFile(wheels[0]) as wheel:
        info = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
        assert wheel.read(info.replace("METADATA", "licenses/LICENSE")) == license_text
        metadata = wheel.read(info).decode()
    assert "License-Expression: MIT" in metadata and "License-File: LICENSE" in metadata
    with tarfile.open(sdists[0]) as sdist:
        member = sdist.extractfile(f"{sdists[0].name.removesuffix('.tar.gz')}/LICENSE")
        assert member is not None and member.read() == license_text
