"""The TypeScript client of clients/typescript: its types are what json-schema-to-typescript
makes of the schemas, it type-checks, and it plays a whole deal on a real server.

The package is copied into a temporary directory and installed there with ``npm ci``
once per run (so two runs side by side never share a node_modules).  Node and npm come
from Debian's ``nodejs`` and ``npm``: without them the tests are skipped, naming the
packages, except in CI (``CI=true``), where a missing one fails.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from server_harness import Server
from system_packages import require

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "clients" / "typescript"
COPIED = ["package.json", "package-lock.json", "tsconfig.json", "schemas.bundle.json"]
COPIED_DIRS = ["scripts", "src", "test"]
LONG = 900  # seconds: only a hung tool is stopped, never a slow machine


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        args, cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True, timeout=LONG
    )
    assert done.returncode == 0, (
        f"{' '.join(args)} failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    )
    return done


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A copy of clients/typescript with its dependencies installed by ``npm ci``."""
    require("nodejs", "node")
    npm = require("npm", "npm")
    copy = tmp_path_factory.mktemp("typescript")
    for name in COPIED:
        shutil.copy2(PACKAGE / name, copy / name)
    for name in COPIED_DIRS:
        shutil.copytree(PACKAGE / name, copy / name)
    run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], copy)
    yield copy


@pytest.mark.slow
def test_the_checked_in_types_are_what_the_generator_writes(package: Path, tmp_path: Path) -> None:
    """src/protocol.ts is json-schema-to-typescript's output for the schemas: regenerating
    changes nothing (a stale or hand-edited file fails)."""
    fresh = tmp_path / "protocol.ts"
    run(["node", "scripts/generate.mjs", "--out", str(fresh)], package)
    assert fresh.read_text(encoding="utf-8") == (PACKAGE / "src" / "protocol.ts").read_text(
        encoding="utf-8"
    )


@pytest.fixture(scope="module")
def compiled(package: Path) -> Path:
    """The package built by ``tsc -p .``, which type-checks (strict) as it compiles and
    exits non-zero on any type error: one run of the compiler serves both tests below."""
    run(["node", "node_modules/typescript/bin/tsc", "-p", "."], package)
    return package


@pytest.mark.slow
def test_the_package_type_checks(compiled: Path) -> None:
    """``tsc -p .`` (strict; the same check as ``tsc --noEmit``) passes on the types, the
    client and its test, and builds each of them."""
    for name in (
        "src/protocol",
        "src/client",
        "src/local",
        "src/index",
        "test/deal.test",
        "test/local.test",
    ):
        assert (compiled / "build" / f"{name}.js").is_file(), name


@pytest.mark.slow
def test_the_client_plays_a_whole_deal_on_a_real_server(compiled: Path, tmp_path: Path) -> None:
    """R-MATCH-2, R-SEAT-1: node's test runner drives a real ``trixcomplex serve`` on loopback
    with the compiled client: a person seat plays a whole deal against three bots, each
    move the first legal one, and the refusals come back typed."""
    with Server(tmp_path / "tables.sqlite3") as server:
        done = run(
            ["node", "--test", "build/test/deal.test.js"], compiled, TRIXCOMPLEX_URL=server.base
        )
    assert "# pass 1" in done.stdout and "# fail 0" in done.stdout, done.stdout
