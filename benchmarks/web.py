"""What the static table costs in the browser (issue 41): bytes, time to the first card, bots.

Run ``python benchmarks/web.py OUT`` on a folder ``trixcomplex web build OUT`` wrote
(``--build`` writes it first).  It serves OUT from loopback, drives Debian's headless
Chromium with Playwright, and prints one row per goal with PASS or FAIL:

==============================================  ==================  ==========
row                                             figure              goal
==============================================  ==================  ==========
bytes transferred, first load (cold cache)      MB                  <= 15
page open to the first legal move, cold         s                   <= 8
page open to the first legal move, warm         s                   <= 3
RuleBot decision in the worker                  ms (÷ CPython)      <= 5
mc2 decision in the worker                      ms (÷ CPython)      (none)
==============================================  ==================  ==========

"First legal move": the page opens, creates a table (the person at seat 0, three
rule bots, as the lobby's form does), and shows the person a move it may make (a
legal card, or a button: a contract, the doubling window's answer); the bots' delay
(0.6 s a move) is inside that time.
"Warm" is the same in a second tab of the same browser profile (its HTTP cache).
The bots' rows time :func:`~trixcomplex.host.bot_answers.decide` over the same
views (``--views`` positions of seeded random trick-taking deals where a seat chooses
a card to play) in a Web Worker of the page under Pyodide and then in this CPython, and give
the ratio.  The machine is shared: the times move with its load; the ratio is taken
in one run.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update"]  # fmt: skip

TIMING = """
import random, time
import trixcomplex as tc
from trixcomplex.host.bot_answers import decide

def views(count):
    rng, seen = random.Random(41), []
    while len(seen) < count:
        state = tc.apply(tc.new_match(), tc.Deal.shuffled(rng))
        while state.phase is not tc.Phase.DEAL and len(seen) < count:
            moves = tc.legal_moves(state, None)
            tricks = state.phase in (tc.Phase.COMPLEX, tc.Phase.TRICKS)
            if tricks and len(moves) > 1 and rng.random() < 0.3:  # a card to choose
                seen.append(tc.view(state, moves[0].seat))
            state = tc.apply(state, rng.choice(moves))
    return seen

def per_decision(name, count):
    chosen = views(count)
    decide(name, chosen[0], 0)  # the bot's first use builds its tables
    start = time.perf_counter()
    for i, seen in enumerate(chosen):
        decide(name, seen, i)
    return 1000 * (time.perf_counter() - start) / len(chosen)
"""

WORKER = """
import { loadPyodide } from "%(site)s/pyodide/pyodide.mjs";
const manifest = await (await fetch("%(site)s/web.json")).json();
const pyodide = await loadPyodide({ indexURL: "%(site)s/pyodide/" });
await pyodide.loadPackage(manifest.wheels.map((name) => "%(site)s/wheels/" + name));
pyodide.runPython(%(timing)s);
const rule = pyodide.runPython("per_decision('rule', %(views)d)");
const mc2 = pyodide.runPython("per_decision('mc2', %(mc_views)d)");
self.postMessage({ rule, mc2 });
"""


class _Counting(http.server.SimpleHTTPRequestHandler):
    sent = 0

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def copyfile(self, source: Any, outputfile: Any) -> None:
        data = source.read()
        type(self).sent += len(data)
        outputfile.write(data)


def first_move(page: Any, site: str) -> float:
    """Seconds from opening the page to the person's first legal move on show."""
    start = time.perf_counter()
    page.goto(site + "/")
    page.select_option("#kind0", "person")
    page.fill("#name", "Ann")
    page.click("#create button[type=submit]")
    page.wait_for_function(  # a legal card, or a button: a contract, the window's answer
        "document.querySelector('#hand button.card.legal, #actions button')", timeout=300_000
    )
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="a folder `trixcomplex web build` wrote")
    parser.add_argument("--build", action="store_true", help="build OUT first")
    parser.add_argument("--views", type=int, default=40, help="RuleBot decisions timed")
    parser.add_argument("--mc-views", type=int, default=2, help="mc2 decisions timed")
    args = parser.parse_args()
    if args.build:
        subprocess.run([sys.executable, "-m", "trixcomplex", "web", "build", str(args.out)],
                       check=True)  # fmt: skip
    from playwright.sync_api import sync_playwright

    handler = functools.partial(_Counting, directory=str(args.out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    site = f"http://127.0.0.1:{server.server_address[1]}"
    rows: list[tuple[str, str, str, bool]] = []
    try:
        with tempfile.TemporaryDirectory() as profile, sync_playwright() as playwright:
            browser = playwright.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, headless=True, args=ARGS
            )
            try:
                cold = first_move(browser.new_page(), site)
                cold_bytes = _Counting.sent
                print(f"cold: {cold:.1f} s, {cold_bytes / 1e6:.1f} MB", file=sys.stderr)
                warm = first_move(browser.new_page(), site)
                print(f"warm: {warm:.1f} s", file=sys.stderr)
                page = browser.new_page()
                page.goto(site + "/web.json")
                script = WORKER % {"site": site, "timing": json.dumps(TIMING),
                                   "views": args.views, "mc_views": args.mc_views}  # fmt: skip
                worker_ms = page.evaluate(
                    """script => new Promise((resolve, reject) => {
                        const blob = new Blob([script], {type: "text/javascript"});
                        const url = URL.createObjectURL(blob);
                        const worker = new Worker(url, {type: "module"});
                        worker.onmessage = (e) => resolve(e.data);
                        worker.onerror = (e) => reject(new Error(e.message));
                    })""",
                    script,
                )
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()
    scope: dict[str, Any] = {}
    exec(TIMING, scope)  # the same code in this CPython
    cpython_rule = scope["per_decision"]("rule", args.views)
    cpython_mc2 = scope["per_decision"]("mc2", args.mc_views)
    rule, mc2 = worker_ms["rule"], worker_ms["mc2"]
    rows.append(("bytes transferred, first load", f"{cold_bytes / 1e6:.1f} MB", "<= 15",
                 cold_bytes <= 15e6))  # fmt: skip
    rows.append(("first legal move, cold", f"{cold:.1f} s", "<= 8", cold <= 8))
    rows.append(("first legal move, warm", f"{warm:.1f} s", "<= 3", warm <= 3))
    rows.append(("RuleBot decision in the worker",
                 f"{rule:.2f} ms (CPython {cpython_rule:.2f}, x{rule / cpython_rule:.1f})",
                 "<= 5", rule <= 5))  # fmt: skip
    rows.append(("mc2 decision in the worker",
                 f"{mc2:.0f} ms (CPython {cpython_mc2:.0f}, x{mc2 / cpython_mc2:.1f})",
                 "(none)", True))  # fmt: skip
    for row, figure, goal, ok in rows:
        print(f"{row:34} {figure:44} {goal:7} {'PASS' if ok else 'FAIL'}")
    return 0 if all(ok for *_, ok in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
