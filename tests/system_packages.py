"""The Debian packages some tests drive (chromium, bubblewrap, nodejs), and what a
test does when one is missing.

Outside CI a missing package skips the test with a message naming the package to
install, so that a contributor without it still runs everything else.  In CI
(the ``CI`` variable set to ``true``, as CI services do) a missing package fails
the test: there the package is part of the set-up, and a skip would hide that the
test never ran.
"""

from __future__ import annotations

import os
import shutil

import pytest


def in_ci() -> bool:
    """Whether the tests run in CI: the ``CI`` variable is ``true`` (or ``1``, ``yes``)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def require(package: str, path: str) -> str:
    """The program ``path`` of the Debian package ``package``, if it is installed.

    ``path`` is an absolute path (``/usr/bin/chromium``) or a command name looked up
    on ``PATH`` (``bwrap``).  If it is missing, the calling test is skipped with a
    message naming ``package`` — or, in CI (:func:`in_ci`), fails with it.

    >>> require("coreutils", "ls").endswith("/ls")
    True
    """
    found = shutil.which(path)
    if found is not None:
        return found
    message = f"{path} is missing: install the Debian package {package} (apt-get install {package})"
    if in_ci():
        pytest.fail(f"{message}; CI must have it", pytrace=False)
    pytest.skip(message)
