"""Take the screenshots of the table server's page for the docs (``docs/_static/server-*.png``).

Starts ``trixcomplex serve`` on a free port of 127.0.0.1 with a throwaway
database, opens the page in headless Chromium (Debian's ``chromium``, via
Playwright), sits down at seat 0 against three rule bots and plays by
clicking, taking a screenshot at each interesting moment::

    python docs/make_screenshots.py

Needs the ``server`` and ``test`` extras and a ``chromium`` binary.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

STATIC = Path(__file__).resolve().parent / "_static"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _create(base: str, body: dict[str, object]) -> str:
    request = urllib.request.Request(
        base + "/api/tables", json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json"},
    )  # fmt: skip
    with urllib.request.urlopen(request) as reply:
        return str(json.load(reply)["id"])


def _status(page: Page) -> str:
    return page.inner_text("#status")


def _moment(page: Page) -> str | None:
    """Which screenshot the page is ready for now, if any."""
    if not page.evaluate("pending === null && me.online"):  # a move on its way
        return None
    status = _status(page)
    if "· COMPLEX · your turn" in status and page.evaluate(
        "document.querySelectorAll('#hand button.card.illegal').length > 0"
    ):
        return "trick"
    if "· TRIX · your turn" in status and page.locator("#hand button.card").count() <= 9:
        return "trix"
    if status.endswith("is over"):
        return "scores"
    return None


def _play_and_shoot(page: Page, seconds: float = 240) -> None:
    """Click the first legal card (or answer, choose, pass), taking each screenshot once."""
    wanted = {"trick", "trix", "scores"}
    deadline = time.monotonic() + seconds
    while wanted and time.monotonic() < deadline:
        moment = _moment(page)
        if moment in wanted:
            wanted.discard(moment)
            if moment == "trick":  # show a refusal: an illegal card sent by hand
                card = page.locator("#hand button.card.illegal").first.get_attribute("data-card")
                page.evaluate(f"send({{move: 'play', seat: me.seat, card: '{card}'}})")
                page.wait_for_selector("#refusal", state="visible")
            page.screenshot(path=str(STATIC / f"server-{moment}.png"))
            if moment == "scores":
                page.wait_for_function(
                    "!document.getElementById('status').textContent.endsWith('is over')"
                )
        for selector in ("#choose-COMPLEX", "#double", "#hand button.card.legal", "#pass"):
            if page.locator(selector).count():
                page.locator(selector).first.click()
                break
        page.wait_for_timeout(150)
    if wanted:
        raise TimeoutError(f"never saw {', '.join(sorted(wanted))}")


def main() -> int:
    if shutil.which("chromium") is None:
        print("make_screenshots.py needs chromium (apt-get install chromium)", file=sys.stderr)
        return 1
    port = _port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as scratch:
        server = subprocess.Popen(
            [sys.executable, "-m", "trixcomplex", "serve", "--port", str(port),
             "--db", str(Path(scratch) / "tables.sqlite3")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(base + "/api/tables")
                    break
                except OSError:
                    time.sleep(0.1)
            _create(base, {"seats": ["person", "person", "rule", "mc"], "ruleset": "classic"})
            settings = {"bot_delay": 0.1, "forced_delay": 0.3, "deal_pause": 4}
            table = _create(base, {"seats": ["person", "rule", "rule", "rule"], **settings})
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch_persistent_context(
                    str(Path(scratch) / "profile"), executable_path=shutil.which("chromium"),
                    headless=True, args=ARGS, viewport={"width": 1080, "height": 860},
                )  # fmt: skip
                page = browser.new_page()
                page.goto(base + "/")
                page.fill("#name", "Ann")
                page.wait_for_selector("button.sit")
                page.screenshot(path=str(STATIC / "server-lobby.png"))
                page.click(f"tr:has-text('{table}') button.sit[data-seat='0']")
                page.wait_for_selector("#hand button.card")
                _play_and_shoot(page)
                browser.close()
        finally:
            server.terminate()
            server.wait(10)
    print("wrote", ", ".join(f"server-{n}.png" for n in ("lobby", "trick", "trix", "scores")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
