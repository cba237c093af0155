"""The distributions a stranger installs (issue 43, deliverables 5 and 2): the MIT license
in the repository, the sdist and the wheel; metadata that ``twine check`` passes; a README
(the package's long description) with no link that breaks outside the repository; and the
wheel, installed without extras, naming each missing extra.  The two ``slow`` tests share
one build."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

from extras_check import CASES, assert_named, check

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


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The wheel and the sdist, built once by ``python -m build`` from a copy of the
    source tree (building leaves nothing in the checkout), with the backend of the
    ``test`` extra (``--no-isolation``: nothing downloaded)."""
    root = tmp_path_factory.mktemp("packaging")
    source = root / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*_NOT_SOURCE))
    dist = root / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(source)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-3000:]
    wheels, sdists = sorted(dist.glob("*.whl")), sorted(dist.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    return wheels[0], sdists[0]


@pytest.mark.slow
def test_the_sdist_and_the_wheel_pass_twine_check_and_hold_the_license(
    dists: tuple[Path, Path],
) -> None:
    """``twine check --strict`` passes both distributions; each holds LICENSE, and the
    wheel's metadata names it (``License-File``) with the ``License-Expression`` MIT."""
    wheel_path, sdist_path = dists
    check = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(wheel_path), str(sdist_path)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.count("PASSED") == 2, check.stdout
    license_text = (ROOT / "LICENSE").read_bytes()
    with zipfile.ZipFile(wheel_path) as wheel:
        info = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
        assert wheel.read(info.replace("METADATA", "licenses/LICENSE")) == license_text
        metadata = wheel.read(info).decode()
    assert "License-Expression: MIT" in metadata and "License-File: LICENSE" in metadata
    with tarfile.open(sdist_path) as sdist:
        member = sdist.extractfile(f"{sdist_path.name.removesuffix('.tar.gz')}/LICENSE")
        assert member is not None and member.read() == license_text


@pytest.mark.slow
def test_the_wheel_without_extras_names_each_missing_extra(
    dists: tuple[Path, Path], tmp_path: Path
) -> None:
    """Issue 43 (2), for real: the wheel installed with attrs and cattrs only, in a virtual
    environment without system site packages; every optional part names its extra, and
    ``trixcomplex serve`` says which to install in one line."""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False, system_site_packages=False).create(env_dir)
    python = str(env_dir / "bin" / "python")
    pip = [sys.executable, "-m", "pip", "--python", python, "install", "-q",
           "--disable-pip-version-check"]  # fmt: skip
    for args in (["--no-deps", str(dists[0])], ["attrs>=23.1", "cattrs>=23.2"]):
        done = subprocess.run([*pip, *args], capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
    # the extra named is the part's; the package, the first of it the part imports
    assert_named(check(python, "real", CASES), CASES, exact=False)
    serve = subprocess.run(
        [str(env_dir / "bin" / "trixcomplex"), "serve", "--port", "0"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert serve.returncode == 1
    [line] = serve.stderr.splitlines()
    assert line.startswith("trixcomplex serve: error: trixcomplex.server needs the server extra")
    assert line.endswith('python -m pip install "trixcomplex[server]"')
