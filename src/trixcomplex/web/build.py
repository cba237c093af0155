"""``trixcomplex web build OUT``: a folder any static web host serves, with the table page
playing the library's bots in the browser, with no server.

The folder holds, and the page loads, nothing from another origin:

- the server's pages (``trixcomplex/server/static``: the same files, one copy of each):
  the table (``index.html``) and the score keeper (``scorekeeper.html``), their
  transport set to the engine's Web Worker (``<meta name="trixcomplex-transport"
  content="worker">``);
- ``worker.js``: the Web Worker that runs :mod:`trixcomplex.web.local` under Pyodide;
- ``pyodide/``: the runtime, copied from an installed copy of the npm package
  ``pyodide`` (pinned by ``clients/web/package-lock.json``: ``npm ci`` there);
- ``wheels/``: this project's wheel and the pure-Python wheels of its dependencies
  (pinned with their hashes by ``clients/web/wheels.txt``), and ``web.json``
  naming them.

:class:`BuildError` names what is missing (one line, exit status 2 on the command line).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from attrs import frozen

__all__ = ["PYODIDE_FILES", "BuildError", "Built", "build", "checkout"]

PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)
"""What the folder needs of the npm package ``pyodide`` (its node-only and console
files are left out)."""

_META = '<meta name="trixcomplex-transport" content="server">'
_PACKAGE = Path(__file__).resolve().parent


class BuildError(ValueError):
    """The folder cannot be built: what is missing, and how to get it."""


@frozen
class Built:
    """What :func:`build` wrote: the folder, its wheels, and its size in bytes."""

    out: Path
    wheels: tuple[str, ...]
    pyodide_version: str
    size: int


def checkout() -> Path | None:
    """The checkout this package runs from (``clients/web`` is there), if any."""
    root = _PACKAGE.parents[2]
    return root if (root / "clients" / "web" / "package.json").is_file() else None


def _run(args: list[str], what: str) -> None:
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or ["(no output)"]
        raise BuildError(f"{what} failed: {last[0]}")


def _project_wheel(root: Path | None, wheel: Path | None, into: Path) -> Path:
    if wheel is not None:
        if not wheel.is_file() or not wheel.name.startswith("trixcomplex-"):
            raise BuildError(f"{wheel}: not a trixcomplex wheel")
        return wheel
    if root is None:
        raise BuildError("not run from a checkout: pass --wheel, this project's wheel")
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(into), str(root)],
         "building this project's wheel (pip wheel)")  # fmt: skip
    found = sorted(into.glob("trixcomplex-*.whl"))
    if not found:
        raise BuildError("pip wheel wrote no trixcomplex wheel")
    return found[-1]


def _python_version(pyodide: Path) -> str:
    lock = json.loads((pyodide / "pyodide-lock.json").read_text("utf-8"))
    major, minor = str(lock["info"]["python"]).split(".")[:2]
    return f"{major}.{minor}"


def build(
    out: Path,
    *,
    pyodide: Path | None = None,
    wheel: Path | None = None,
    wheels_txt: Path | None = None,
) -> Built:
    """Write the static folder ``out`` (replacing what a previous build wrote there).

    ``pyodide``: the installed npm package (default: the checkout's
    ``clients/web/node_modules/pyodide``); ``wheel``: this project's wheel (default:
    built from the checkout with ``pip wheel``); ``wheels_txt``: the pinned
    dependencies (default: the checkout's ``clients/web/wheels.txt``).
    """
    root = checkout()
    web = root / "clients" / "web" if root is not None else None
    pyodide = pyodide or (web / "node_modules" / "pyodide" if web is not None else None)
    if pyodide is None or not all((pyodide / name).is_file() for name in PYODIDE_FILES):
        raise BuildError(
            f"no npm package pyodide at {pyodide}: run `npm ci` in clients/web (or pass --pyodide)"
        )
    wheels_txt = wheels_txt or (web / "wheels.txt" if web is not None else None)
    if wheels_txt is None or not wheels_txt.is_file():
        raise BuildError(f"no pinned wheels list at {wheels_txt} (pass --wheels-txt)")
    static = _PACKAGE.parent / "server" / "static"
    pages = {path.name: path.read_text("utf-8") for path in sorted(static.glob("*.html"))}
    for name, page in pages.items():
        if page.count(_META) != 1:
            raise BuildError(f"the page {static / name} lacks its one {_META}")
    version = json.loads((pyodide / "package.json").read_text("utf-8"))["version"]

    if out.exists():
        if not (out / "web.json").is_file() and any(out.iterdir()):
            raise BuildError(f"{out} is not empty and not a folder this command wrote")
        shutil.rmtree(out)
    (out / "wheels").mkdir(parents=True)
    (out / "pyodide").mkdir()
    with tempfile.TemporaryDirectory() as scratch:
        project = _project_wheel(root, wheel, Path(scratch))
        shutil.copy2(project, out / "wheels" / project.name)
    _run(
        [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
         "--require-hashes", "-r", str(wheels_txt), "-d", str(out / "wheels"),
         "--python-version", _python_version(pyodide), "--implementation", "py",
         "--abi", "none", "--platform", "any"],
        "downloading the dependencies' wheels (pip download)",
    )  # fmt: skip
    for name in sorted(path.name for path in static.iterdir() if path.is_file()):
        shutil.copy2(static / name, out / name)
    for name, page in pages.items():  # each page's transport: the worker
        (out / name).write_text(page.replace(_META, _META.replace('"server"', '"worker"')), "utf-8")
    shutil.copy2(_PACKAGE / "worker.js", out / "worker.js")
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide / name, out / "pyodide" / name)
    wheels = tuple(sorted(path.name for path in (out / "wheels").glob("*.whl")))
    if not any(re.match(r"cattrs-", name) for name in wheels):
        raise BuildError("the pinned wheels lack cattrs")
    manifest = {"pyodide": version, "wheels": wheels}
    (out / "web.json").write_text(json.dumps(manifest, indent=1) + "\n", "utf-8")
    size = sum(path.stat().st_size for path in out.rglob("*") if path.is_file())
    return Built(out, wheels, version, size)
