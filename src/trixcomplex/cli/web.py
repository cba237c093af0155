"""The ``trixcomplex web`` command: ``web build OUT`` writes the static table (see :doc:`/web`).

- ``trixcomplex web build OUT [--pyodide DIR] [--wheel FILE] [--wheels-txt FILE]``:
  the table page playing the library's bots in the browser, under Pyodide, with
  no server; every file it loads is inside ``OUT``.

What is missing (the npm package ``pyodide``: ``npm ci`` in ``clients/web``) gets
one line on standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__ = ["add_web"]


def add_web(sub: Any) -> None:
    """Add the ``web`` subcommand to the ``trixcomplex`` command's subparsers."""
    web = sub.add_parser("web", help="build the table page that plays in the browser, no server")
    steps = web.add_subparsers(dest="web", required=True)
    build = steps.add_parser("build", help="write the static table folder OUT")
    build.add_argument("out", metavar="OUT", help="the folder to write (any static host serves it)")
    build.add_argument("--pyodide", metavar="DIR", default=None,
                       help="the installed npm package pyodide (default: "
                       "clients/web/node_modules/pyodide of the checkout)")  # fmt: skip
    build.add_argument("--wheel", metavar="FILE", default=None,
                       help="this project's wheel (default: built from the checkout)")  # fmt: skip
    build.add_argument("--wheels-txt", metavar="FILE", default=None,
                       help="the pinned dependency wheels "
                       "(default: clients/web/wheels.txt)")  # fmt: skip
    build.set_defaults(func=_build)


def _path(text: str | None) -> Path | None:
    return None if text is None else Path(text)


def _build(args: argparse.Namespace) -> int:
    from ..web.build import BuildError, build  # the build's modules load when it runs

    try:
        built = build(Path(args.out), pyodide=_path(args.pyodide), wheel=_path(args.wheel),
                      wheels_txt=_path(args.wheels_txt))  # fmt: skip
    except (BuildError, OSError) as exc:
        print(f"trixcomplex web build: error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {built.out}: Pyodide {built.pyodide_version}, "
          f"{len(built.wheels)} wheels, {built.size / 1e6:.1f} MB")  # fmt: skip
    return 0
