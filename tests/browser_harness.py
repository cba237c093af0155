"""What the browser tests share: Debian's Chromium, how it is started, and the bounds of
their waits.  The fixtures built on them (``chromium``: one Chromium for a module's tests;
``browser``: a fresh context per test) are in ``conftest.py``."""

from __future__ import annotations

import shutil

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
LONG = 120_000  # ms: an upper bound for a wait on a loaded machine, never a pace
DEAL = 600_000  # ms: the upper bound for a whole deal against bots
