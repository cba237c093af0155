"""The deployment of docs/deploy.rst, run: Debian's nginx, with the configuration
``docs/deploy/nginx.conf`` (this very file, its addresses filled in), in front of
three ``trixcomplex serve`` processes on one PostgreSQL database, and a person
playing in Chromium through nginx while the process driving their table is killed
(``kill -9``) twice (issue 39).

nginx runs as a foreground process of the test (``daemon off``), on loopback ports
only, with its pid file, logs and temporary files in a directory of its own.  Outside
CI a machine without ``nginx``, ``chromium`` or ``postgresql-15`` skips the test,
naming the package; in CI it fails (:mod:`system_packages`).  It runs in ``nox -s
postgres`` (``--server-stores=all``).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

import trixcomplex as tc
from browser_harness import CHROMIUM, CHROMIUM_ARGS
from server_harness import Client, Server, free_port, replay
from system_packages import require

CONFIG = Path(__file__).resolve().parents[1] / "docs" / "deploy" / "nginx.conf"
NGINX = "/usr/sbin/nginx"

_MAIN = """\
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log notice;
events {{ worker_connections 256; }}
http {{
    log_format upstreams '$request_method $uri $status "$upstream_status"';
    access_log {dir}/access.log upstreams;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    include {dir}/site.conf;
}}
"""


def site_config(listen: str, servers: list[str]) -> str:
    """``docs/deploy/nginx.conf`` with its names filled in: nginx listening on
    ``listen``, in front of the three ``servers`` (``host:port`` each)."""
    text = CONFIG.read_text()
    text = text.replace("@LISTEN@", listen)
    for i, server in enumerate(servers, 1):
        text = text.replace(f"@SERVER_{i}@", server)
    left = re.findall(r"@[A-Z_0-9]+@", text)
    assert not left, f"names of the configuration left unfilled: {left}"
    return text


class Nginx:
    """Debian's nginx in the foreground, on a loopback port, its files in a directory
    of its own (readable by its worker, which runs as an unprivileged user under root)."""

    def __init__(self, ports: list[int]) -> None:
        binary = require("nginx", NGINX)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        servers = [f"127.0.0.1:{port}" for port in ports]
        site = site_config(f"127.0.0.1:{self.port}", servers)
        self.dir = Path(tempfile.mkdtemp(prefix="trixcomplex-nginx-"))
        self.dir.chmod(0o755)
        (self.dir / "site.conf").write_text(site)
        (self.dir / "nginx.conf").write_text(_MAIN.format(dir=self.dir))
        command = [binary, "-e", str(self.dir / "error.log"), "-p", str(self.dir),
                   "-c", str(self.dir / "nginx.conf"), "-g", "daemon off;"]  # fmt: skip
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=30)
        assert checked.returncode == 0, checked.stderr
        self.process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while not self._listening():
            assert self.process.poll() is None, self.log()
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.05)

    def _listening(self) -> bool:
        import socket

        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", self.port)) == 0

    def requests(self) -> list[tuple[str, int, list[str]]]:
        """Each request nginx answered: its path, its status, and the status of each
        process it asked in turn (``-`` for one that was not reached)."""
        done = []
        for line in (self.dir / "access.log").read_text().splitlines():
            _, path, status, upstreams = line.split(" ", 3)
            asked = upstreams.strip('"').replace(" : ", ", ").split(", ")
            done.append((path, int(status), asked))
        return done

    def log(self) -> str:
        path = self.dir / "error.log"
        return path.read_text() if path.exists() else ""

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def site(postgres_cluster: Any) -> Iterator[tuple[Nginx, list[Server]]]:
    """Three server processes on one new database, nginx in front of them."""
    db = postgres_cluster.database()
    options = (*Server.FAST, "--seat-timeout", "30")
    servers: list[Server] = []
    nginx = None
    try:
        for _ in range(3):
            servers.append(Server(db, None, *options))
        nginx = Nginx([server.port for server in servers])
        yield nginx, servers
    finally:
        if nginx is not None:
            nginx.stop()
        for server in servers:
            server.stop()


def test_the_nginx_configuration_is_the_documented_one() -> None:
    """docs/deploy.rst shows ``docs/deploy/nginx.conf`` itself (one copy, run by the
    test below), with a WebSocket upgrade; any process serves any table, so nginx
    spreads the requests (round robin) and retries only a process that is down, never
    one that answered (no ``http_404``)."""
    text = CONFIG.read_text()
    assert "literalinclude:: deploy/nginx.conf" in (CONFIG.parent.parent / "deploy.rst").read_text()
    assert "proxy_set_header Upgrade $http_upgrade;" in text
    assert "proxy_next_upstream error timeout http_502 http_503;" in text
    assert "http_404" not in text
    assert all(f"@SERVER_{i}@" in text for i in (1, 2, 3))


def _owner(servers: list[Server], table: str) -> Server:
    """The one live process driving ``table`` (asked directly, past nginx)."""
    deadline = time.monotonic() + 60
    while True:
        owners = [
            server
            for server in servers
            if server.process.poll() is None
            and table in {t["id"] for t in server.get("/api/tables")["tables"]}
        ]
        if len(owners) == 1:
            return owners[0]
        assert len(owners) == 0, "two processes drive one table"
        assert time.monotonic() < deadline, "nobody took the table over"
        time.sleep(0.1)


# What the person can do now, as the page shows it: the selector of an enabled button
# (the first legal card, a contract, the doubling window's answer, a pass), or null.
# A forced move is left to the table (it plays it after the forced-move delay).
_NEXT = """() => {
  if (document.getElementById("banner").style.display === "block") return null;
  if (last === null || last.view.forced_move !== null) return null;
  for (const s of ["#hand button.card.legal", "#actions button[id^='choose-']",
                   "#double", "#pass"]) {
    const b = document.querySelector(s);
    if (b && !b.disabled) return b.id ? "#" + b.id : "#hand button.card[data-card='" +
      b.dataset.card + "']";
  }
  return null;
}"""


_BANNER = "document.getElementById('banner').style.display === 'block'"


def _subsequence(short: list[str], long: list[str]) -> bool:
    rest = iter(long)
    return all(card in rest for card in short)


@pytest.mark.postgresql
@pytest.mark.postgresql_server
@pytest.mark.slow
def test_a_person_plays_a_whole_match_through_nginx_while_owners_are_killed(
    site: tuple[Nginx, list[Server]], tmp_path: Path
) -> None:
    """Issue 39's acceptance: a person plays a whole match (the default ruleset, as a
    player opening a table gets it) in Chromium through nginx against three bots,
    while the process driving the table is killed with ``kill -9`` twice (after the
    person's 2nd and 40th acknowledged card).  nginx spreads the connections over the
    processes (round robin), whichever drives the table.  The match completes; the
    page shows its reconnect banner at most (never a refusal); every card it saw
    acknowledged is in the record, in order, in its deal; the record replays to the
    very state the page shows at the end."""
    nginx, servers = site
    chromium = require("chromium", CHROMIUM)
    # Opened through nginx: the process that answers the POST drives the table.
    status, summary = nginx_request(nginx, "/api/tables", {
        "seats": ["person", "rule", "rule", "rule"], "move_time": 3600,
        "forced_delay": 0.3, "bot_delay": 0.05, "deal_pause": 0})  # fmt: skip
    assert status == 201, summary
    table = summary["id"]
    assert summary["settings"]["ruleset"] == tc.Ruleset.from_name("partnership").name
    # Three handshakes in a row go to the three processes in turn (round robin), and
    # each is welcomed where it went: no process sends a client on.
    for _ in range(3):
        watcher = Client(f"ws://127.0.0.1:{nginx.port}/ws/{table}")
        watcher.watch()
        watcher.close()
    handshakes = [r for r in nginx.requests() if r[0] == f"/ws/{table}"]
    assert [(status, asked) for _, status, asked in handshakes] == [(101, ["101"])] * 3
    kills_after = [2, 40]  # acknowledged cards of the person
    killed = 0
    banners = 0
    acknowledged: list[tuple[int, str]] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=chromium, headless=True,
            args=CHROMIUM_ARGS, viewport={"width": 1080, "height": 760},
        )  # fmt: skip
        try:
            page = browser.new_page()
            page.goto(nginx.base + "/")
            page.fill("#name", "Ann")
            page.evaluate(f"join('{table}', 0)")  # the lobby's sit button does this
            page.wait_for_selector("#play", state="visible")
            deadline = time.monotonic() + 1200
            while not page.evaluate("last !== null && last.view.phase === 'OVER'"):
                assert time.monotonic() < deadline, "the match did not end"
                assert not page.locator("#refusal").is_visible(), page.inner_text("#refusal")
                if page.evaluate(_BANNER):
                    banners += 1
                    page.wait_for_function(f"!({_BANNER})", timeout=60_000)
                    continue
                if killed < len(kills_after) and len(acknowledged) >= kills_after[killed]:
                    _owner(servers, table).kill()
                    killed += 1
                    continue
                target = page.evaluate(_NEXT)
                if target is None:
                    page.wait_for_timeout(50)
                    continue
                card = page.get_attribute(target, "data-card")
                deal = page.evaluate("last.view.deal_number")
                page.evaluate("window.seen = last")
                page.click(target)
                page.wait_for_function(f"last !== window.seen || {_BANNER}", timeout=60_000)
                if card is not None:
                    page.wait_for_function(
                        f"!last.view.hand.includes('{card}') || {_BANNER}",
                        timeout=60_000,
                    )
                    # Acknowledged: an update of this deal has the card out of the hand
                    # (not a new deal's hand, which never has it).
                    now = page.evaluate("[last.view.deal_number, last.view.hand]")
                    if now[0] == deal and card not in now[1]:
                        acknowledged.append((deal, card))
            assert killed == 2, f"the match ended after {len(acknowledged)} cards of the person"
            assert not page.locator("#refusal").is_visible(), page.inner_text("#refusal")
            seen_last = page.evaluate("last.view")
        finally:
            browser.close()

    status, record = nginx_request(nginx, f"/api/tables/{table}/record")
    assert status == 200, record
    state = replay(record)
    assert state.is_over
    assert tc.to_json(tc.view(state, 0)) == seen_last  # the state the person saw at the end
    played: dict[int, list[str]] = {}
    deals = 0
    for move in record["moves"]:
        if move["move"] == "deal":
            deals += 1
        elif move["move"] == "play" and move["seat"] == 0:
            played.setdefault(deals, []).append(move["card"])
    for deal in {d for d, _ in acknowledged}:
        mine = [card for d, card in acknowledged if d == deal]
        assert _subsequence(mine, played.get(deal, [])), (deal, mine, played.get(deal))
    assert sum(server.process.returncode is None for server in servers) == 1
    # Through nginx nothing failed but the killed processes' connections: no process
    # answered 5xx, and nothing was passed on for being answered (no 404 hop).
    for path, status, asked in nginx.requests():
        assert status < 500, (path, status, asked)
        assert not [a for a in asked if a.startswith("5") and a != "502"], (path, asked)
        assert "404" not in asked, (path, asked)


def nginx_request(nginx: Nginx, path: str, body: object = None) -> tuple[int, Any]:
    """(status, JSON) of a GET, or a POST of ``body``, through nginx."""
    import json
    import urllib.error
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        nginx.base + path, data=data, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())
