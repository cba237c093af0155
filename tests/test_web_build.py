"""The rules in the browser (docs: "Frontends without a server"): ``trixcomplex web build``.

- The local lobby (:mod:`trixcomplex.web.local`) plays a whole deal of bots in
  CPython on a hand-moved clock, sending the server's messages (fast).
- ``web build`` refuses, in one line, what it cannot build from (fast).
- The slow ones build the folder from the pinned npm package (``npm ci`` in a copy of
  ``clients/web``) and this checkout's wheel, then: the conformance slice (the clause
  cases and random matches of three rulesets, at least 50) runs inside Pyodide in node
  and agrees with CPython; and a person plays a whole deal against three bots with the
  mouse in headless Chromium, the folder served from loopback, every request to another
  origin refused.

Node and npm are Debian's ``nodejs`` and ``npm``, the browser Debian's ``chromium``:
without them the slow tests are skipped, naming the package, except in CI.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import trixcomplex as tc
from system_packages import require
from trixcomplex.conformance.cases import clause_cases, random_cases
from trixcomplex.conformance.check import SubprocessEngine, check_cases
from trixcomplex.host.clock import ManualClock
from trixcomplex.web.local import LocalLobby

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "clients" / "web"
LONG = 900  # seconds: only a hung tool is stopped, never a slow machine


def _run(args: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=LONG)
    assert done.returncode == 0, f"{' '.join(args)}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


# -- the local lobby in CPython (fast) ------------------------------------------------------


def _lobby() -> tuple[LocalLobby, ManualClock, list[tuple[int, dict[str, Any]]]]:
    clock = ManualClock()
    sent: list[tuple[int, dict[str, Any]]] = []
    lobby = LocalLobby(lambda conn, text: sent.append((conn, json.loads(text))), clock, seed=5)
    return lobby, clock, sent


def test_the_local_lobby_plays_a_deal_of_bots_with_the_servers_messages() -> None:
    """R-MATCH-3: the host driven by next_step deals, lets the bots choose, double and play
    until the deal is over; a spectator gets welcome, then updates whose views are the
    library's own view of the table's state (the server's message code builds them)."""
    lobby, clock, sent = _lobby()
    reply = json.loads(lobby.request("POST", "/api/tables", json.dumps({"seats": ["rule"] * 4})))
    assert reply["status"] == 201
    table = lobby.table(reply["body"]["id"])
    lobby.open(7, table.id)
    lobby.receive(7, json.dumps({"type": "watch", "pictures": False}))
    while table.state.deal_number < 2 and clock.step():
        pass
    assert table.state.deal_number == 2, "the deal did not end"
    kinds = [message["type"] for _, message in sent]
    assert kinds[0] == "welcome" and set(kinds[1:]) <= {"update", "seats"}
    events = [event["type"] for _, m in sent if m["type"] == "update" for event in m["events"]]
    assert "deal_over" in events
    last = [m for _, m in sent if m["type"] == "update"][-1]
    assert last["view"] == tc.to_json(tc.view(table.state, None))


def test_the_local_lobby_refuses_as_the_server_does() -> None:
    """The server's refusals: a bad create request, a move before a hello, an illegal move
    (R-MATCH-5: out of turn) with its clause; nothing changes."""
    lobby, clock, sent = _lobby()
    bad = json.loads(lobby.request("POST", "/api/tables", '{"seats": ["robot"]}'))
    assert bad["status"] == 400 and bad["body"]["error"]["code"] == "server.bad-seat"
    assert json.loads(lobby.request("GET", "/api/tables/nope"))["status"] == 404
    body = json.dumps({"seats": ["person", "rule", "rule", "rule"], "deal_pause": 0})
    table_id = json.loads(lobby.request("POST", "/api/tables", body))["body"]["id"]
    lobby.open(1, table_id)
    lobby.receive(1, '{"move": "pass", "seat": 0}')
    assert sent[-1][1]["error"]["code"] == "server.hello-first"
    lobby.receive(1, json.dumps({"type": "join", "seat": 0, "name": "Ann", "pictures": False}))
    clock.advance(0.0)  # the deal
    table = lobby.table(table_id)
    before = table.state
    stranger = next(s for s in range(4) if s != 0 and s not in before.to_act)
    lobby.receive(1, json.dumps({"move": "pass", "seat": stranger}))
    error = sent[-1][1]["error"]
    assert sent[-1][1]["type"] == "refused" and error["rule"] is not None
    assert table.state is before


def test_web_build_names_what_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without the npm package: one line naming `npm ci`, exit status 2, nothing written."""
    from trixcomplex.cli import main

    status = main(["web", "build", str(tmp_path / "out"), "--pyodide", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "npm ci" in err
    assert not (tmp_path / "out").exists()


# -- the built folder (slow) ------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder ``trixcomplex web build`` writes from the lockfile and this checkout."""
    require("nodejs", "node")
    npm = require("npm", "npm")
    web = tmp_path_factory.mktemp("web")
    for name in ("package.json", "package-lock.json", "wheels.txt", "engine.mjs"):
        shutil.copy2(WEB / name, web / name)
    _run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], web)
    out = web / "out"
    _run([sys.executable, "-m", "trixcomplex", "web", "build", str(out),
          "--pyodide", str(web / "node_modules" / "pyodide"),
          "--wheels-txt", str(web / "wheels.txt")])  # fmt: skip
    return out


def conformance_slice() -> list[Any]:
    """The fixed slice: every clause case (its rulesets) and 8 random-match cases each of
    partnership, classic and individual-complex."""
    rulesets = ("partnership", "classic", "individual-complex")
    randoms = [c for name in rulesets for c in random_cases(tc.Ruleset.from_name(name), 8)]
    return [*clause_cases(), *randoms]


@pytest.mark.slow
@pytest.mark.web_build
def test_the_conformance_slice_agrees_inside_pyodide(built: Path) -> None:
    """The same rules, bit for bit: the engine of the built folder, under Pyodide in node,
    answers every case of the slice as CPython does (legal moves, refusals and their
    clauses, views, scores)."""
    cases = conformance_slice()
    assert len(cases) >= 50 and len({case["ruleset"] for case in cases}) >= 3
    engine = SubprocessEngine(f"node {built.parent / 'engine.mjs'} {built}", timeout=LONG)
    try:
        report = check_cases(cases, engine)
    finally:
        engine.close()
    assert report.checked == len(cases) and not report.disagreements, report


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def site(built: Path) -> Iterator[str]:
    """The built folder, served from loopback by a plain static server."""
    handler = functools.partial(_Quiet, directory=str(built))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.slow
@pytest.mark.web_build
def test_a_person_plays_a_deal_against_bots_with_the_mouse(site: str, tmp_path: Path) -> None:
    """R-MATCH-3, R-DBL-1: with no server, a person opens a table against three rule bots
    from the lobby and plays the whole first deal by clicking (contract, doubling answer,
    cards); every request stays on the folder's origin (others are refused)."""
    from playwright.sync_api import Route, sync_playwright

    from browser_harness import CHROMIUM, CHROMIUM_ARGS

    chromium = require("chromium", CHROMIUM)
    foreign: list[str] = []

    def only_the_origin(route: Route) -> None:
        if route.request.url.startswith(site + "/"):
            route.continue_()
        else:
            foreign.append(route.request.url)
            route.abort()

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=chromium, headless=True,
            args=CHROMIUM_ARGS, viewport={"width": 1080, "height": 760},
        )  # fmt: skip
        browser.set_default_timeout(LONG * 1000)
        try:
            browser.route("**/*", only_the_origin)
            page = browser.new_page()
            page.goto(site + "/")
            page.fill("#name", "Ann")
            page.select_option("#kind0", "person")
            page.click("#create button[type=submit]")
            page.wait_for_selector("#play", state="visible")
            page.wait_for_function("last && last.view.deal_number === 1")
            clicks = _play_the_deal(page)
            assert clicks >= 13  # at least one card a trick, by clicking
        finally:
            browser.close()
    assert foreign == []


@pytest.mark.slow
@pytest.mark.web_build
def test_the_static_score_keeper_keeps_a_match_as_the_library(site: str, tmp_path: Path) -> None:
    """Issue 40 deliverable 8, static: the built folder's scorekeeper.html (the server's
    page, its transport the worker) keeps a match with no server: a COMPLEX deal with K♥
    and Q♠ doubled (R-DBL-4) and a TRIX (R-TX-4) give the totals of the library's
    Scorebook, every deal scored by the worker's Python (no request leaves the page for
    /api/); in Arabic, after a reload, the book comes back with the contracts' Arabic
    names and a wrong owner (R-MATCH-5) is refused in Arabic."""
    from playwright.sync_api import Request, Route, sync_playwright

    from browser_harness import CHROMIUM, CHROMIUM_ARGS
    from test_server_table import COMPLEX_TAKEN, _shot, enter_deal
    from test_why_illegal_ar import assert_arabic
    from trixcomplex.io.scorekeeper import DealOutcome, Scorebook

    chromium = require("chromium", CHROMIUM)
    foreign: list[str] = []
    asked: list[str] = []

    def only_the_origin(route: Route) -> None:
        if route.request.url.startswith(site + "/"):
            route.continue_()
        else:
            foreign.append(route.request.url)
            route.abort()

    def note(request: Request) -> None:
        if "/api/" in request.url:
            asked.append(request.url)

    deals = [
        DealOutcome.of("COMPLEX", 0, tricks=(4, 3, 3, 3), taken=COMPLEX_TAKEN,
                       doubled={"KH": (1, 3), "QS": (2, 0)}),
        DealOutcome.of("TRIX", 0, finishing_order=[2, 0, 3, 1]),
    ]  # fmt: skip
    book = Scorebook(tc.PARTNERSHIP)
    for outcome in deals:
        book = book.add(outcome)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=chromium, headless=True,
            args=CHROMIUM_ARGS, viewport={"width": 1080, "height": 900}, locale="en-US",
        )  # fmt: skip
        browser.set_default_timeout(LONG * 1000)
        try:
            browser.route("**/*", only_the_origin)
            page = browser.new_page()
            page.on("request", note)
            page.goto(site + "/scorekeeper.html")
            page.wait_for_selector("body[data-ready=true]")
            page.select_option("#ruleset", "partnership")
            page.click("#new")
            for number, outcome in enumerate(deals, 1):
                enter_deal(page, outcome)
                page.wait_for_function(
                    f"document.querySelectorAll('#sheet tbody tr').length === {number}"
                )
            totals = [int(x) for x in page.locator("#sheet tfoot td").all_inner_texts()[2:]]
            assert totals == list(book.score().seats)
            _shot(page, "scorekeeper-static-en", tmp_path)
            page.select_option("#language", "ar")  # remembered; the page reloads
            page.wait_for_function("document.documentElement.dir === 'rtl'")
            page.wait_for_selector("body[data-ready=true]")
            page.wait_for_function("document.querySelectorAll('#sheet tbody tr').length === 2")
            contracts = page.locator("#sheet tbody td:nth-child(2)").all_inner_texts()
            assert contracts == ["كومبلكس", "تركس"]
            again = [int(x) for x in page.locator("#sheet tfoot td").all_inner_texts()[2:]]
            assert again == totals
            enter_deal(page, DealOutcome.of("COMPLEX", 3, tricks=(4, 3, 3, 3), taken=COMPLEX_TAKEN))
            page.wait_for_selector("#refusal", state="visible")
            refusal = page.inner_text("#refusal")
            assert "R-MATCH-4" in refusal or "R-MATCH-5" in refusal, refusal
            assert_arabic(refusal)
            _shot(page, "scorekeeper-static-ar", tmp_path)
        finally:
            browser.close()
    assert foreign == [] and asked == []


def _play_the_deal(page: Any) -> int:
    """Click until the first deal is over: a legal card, else a button of the actions
    (a contract, the doubling answer, a pass); never a redeal.  Returns the clicks."""
    clicks = 0
    waiting = (
        "last.view.deal_number > 1 || document.querySelector('#hand button.card.legal') || "
        "[...document.querySelectorAll('#actions button')].some(b => b.id !== 'redeal')"
    )
    while True:
        page.wait_for_function(waiting)
        if page.evaluate("last.view.deal_number > 1"):
            return clicks
        before = page.evaluate("JSON.stringify(last.view)")
        legal = page.locator("#hand button.card.legal")
        if legal.count():
            legal.first.click()
        else:
            page.locator("#actions button:not(#redeal)").first.click()
        clicks += 1
        page.wait_for_function("old => JSON.stringify(last.view) !== old", arg=before)


@pytest.mark.slow
@pytest.mark.web_build
def test_the_typescript_local_table_and_engine_play_a_deal_in_node(
    built: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """clients/typescript under Pyodide in node (``node --test``): the Engine plays a whole
    deal by legal moves and refuses a stranger's move with its clause (R-MATCH-5); a person
    plays a whole deal against three bots through the server's own client classes at a
    LocalTables table.  The record the Engine wrote replays in CPython to the very state
    the engine in WebAssembly reached (the round trip)."""
    from test_typescript_client import COPIED, COPIED_DIRS, PACKAGE

    npm = require("npm", "npm")
    copy = tmp_path_factory.mktemp("typescript")
    for name in COPIED:
        shutil.copy2(PACKAGE / name, copy / name)
    for name in COPIED_DIRS:
        shutil.copytree(PACKAGE / name, copy / name)
    _run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], copy)
    _run(["node", "node_modules/typescript/bin/tsc", "-p", "."], copy)  # strict: tsc --noEmit
    written = copy / "round-trip.json"
    done = subprocess.run(
        ["node", "--test", "build/test/local.test.js"], cwd=copy, capture_output=True, text=True,
        timeout=LONG, env={**os.environ, "TRIXCOMPLEX_WEB": str(built),
                           "TRIXCOMPLEX_RECORD_OUT": str(written)},
    )  # fmt: skip
    assert "# pass 2" in done.stdout and "# fail 0" in done.stdout, done.stdout + done.stderr
    played = json.loads(written.read_text("utf-8"))
    replayed = tc.replay(tc.Record.from_json(played["record"]))
    assert tc.to_json(replayed) == played["state"]
    assert replayed.deal_number == 1 and replayed.phase is tc.Phase.DEAL
