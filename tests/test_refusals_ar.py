"""Every refusal a player can be shown, in Arabic too: the hosts' own (``server.*``) and the
score keeper's (``outcome.inconsistent``), besides the engine's (``test_why_illegal_ar.py``).

The list is read from the source: every ``Refused(...)`` of the server, the host layer
and the browser's worker, every ``OutcomeError(...)`` of the score keeper.  Each one's
words must follow a template of :data:`trixcomplex.host.refusals.SERVER_REFUSALS` for its
code (so a refusal added without its template fails here, not in front of a player),
and each template of a code the page can show must read in Arabic with no English word
left.  Then the server and the worker are asked as a page asks (``?locale=ar``), and
each refusal they send comes back in Arabic with its code and clause unchanged.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import trixcomplex as tc
from server_harness import Server
from test_why_illegal_ar import assert_arabic
from trixcomplex.host import refusals
from trixcomplex.host.clock import ManualClock
from trixcomplex.host.refusals import SERVER_REFUSALS, reason_text, refusal_json
from trixcomplex.host.table_seats import SERVER_ERROR_CODES
from trixcomplex.web.local import LocalLobby

SRC = Path(tc.__file__).resolve().parent

# Refusals whose words are not written at the call (the message is passed on): a health
# check's reason (read by load balancers), Starlette's own "Not Found", a ruleset name's
# error read from a stored book.  None of them reaches the page.
PASSED_ON = {"reason", "str(exc.detail)[:200]", "str(exc)"}

# The protocol's own words, kept as they are in Arabic (key names, JSON, message types),
# and a ruleset's name (data, as a table's id): refusals of a program that speaks the
# protocol wrongly, or of a book no form of the page writes.
PROTOCOL_WORDS = {
    "{contract} is not a contract of the ruleset {ruleset}",
    "send a JSON object",
    "send each message as a JSON text frame",
    "the request is not a JSON object",
    "the body is not a JSON object",
    "pictures is true or false",
    "locale is one of {locales}",
    "unknown key {key} in a {hello} message",
    "send join, resume or watch first",
    "send the request as application/json",
    "send an object of book, ruleset, deal and locale: deal is required",
    "taken and doubled are objects keyed by card codes",
}

# What each field is filled with to try a template: the value a real refusal has.
SAMPLES = {
    "setting": "move_time", "card": "QS", "cards": "KH QS", "contract": "QUEENS",
    "names": "COMPLEX or TRIX", "seat": "2", "owner": "1", "ruleset": "classic",
    "locales": "en, ar", "hello": "join",
}  # fmt: skip


def _source_refusals() -> Iterator[tuple[str, str, str]]:
    """(where, code, words) of each refusal in the source; words with ``X`` for a field,
    or ``passed:<expression>`` when the message is not written at the call."""
    files = [path for d in ("server", "host", "web") for path in sorted((SRC / d).glob("*.py"))]
    files.append(SRC / "io" / "scorekeeper.py")
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", None)
            if name == "Refused" and len(node.args) >= 2:
                code = node.args[1]
                assert isinstance(code, ast.Constant), ast.unparse(node)
                code_text = f"server.{code.value}"
            elif name == "OutcomeError":
                code_text = "outcome.inconsistent"
            else:
                continue
            message = node.args[0]
            where = f"{path.relative_to(SRC)}:{node.lineno}"
            if isinstance(message, ast.Constant):
                yield where, code_text, str(message.value)
            elif isinstance(message, ast.JoinedStr):
                words = "".join(
                    str(v.value) if isinstance(v, ast.Constant) else "X" for v in message.values
                )
                yield where, code_text, words
            else:
                yield where, code_text, "passed:" + ast.unparse(message)


SOURCE = list(_source_refusals())


def test_the_source_scan_finds_the_refusals() -> None:
    """The scan reads the server's, the worker's and the score keeper's refusals (so the
    checks below cannot pass empty)."""
    codes = {code for _, code, _ in SOURCE}
    assert {"server.seat-taken", "server.unknown-table", "outcome.inconsistent"} <= codes
    assert len(SOURCE) >= 80
    assert any(where.startswith("web/") for where, _, _ in SOURCE)


def test_every_refusal_of_the_hosts_has_a_template_for_its_code() -> None:
    """Each refusal's words (its fields as ``X``) follow a template of its own code; only
    the known passed-on messages have none; no template is left that nothing says."""
    used: set[str] = set()
    passed = set()
    for where, code, words in SOURCE:
        if words.startswith("passed:"):
            passed.add(words[7:])
            continue
        templates = SERVER_REFUSALS.get(code, ())
        found = [t for t in templates if refusals._pattern(t).fullmatch(words)]
        assert found, f"{where}: {code} {words!r} has no template in SERVER_REFUSALS"
        used.update(found)
    assert passed == PASSED_ON
    every = {t for templates in SERVER_REFUSALS.values() for t in templates}
    assert every == used, f"templates nothing says: {sorted(every - used)}"
    assert set(SERVER_REFUSALS) <= {*SERVER_ERROR_CODES, "outcome.inconsistent"}
    # server.bad-origin is written by the origin guard for a page of another site;
    # server.elsewhere stays a known code (clients of older servers) but no host sends it
    # since any process serves any table (docs/deploy.rst)
    left = set(SERVER_ERROR_CODES) - set(SERVER_REFUSALS)
    assert left == {"server.bad-origin", "server.elsewhere"}, left


@pytest.mark.parametrize(
    "template", sorted({t for templates in SERVER_REFUSALS.values() for t in templates})
)
def test_every_server_refusal_reads_in_arabic(template: str) -> None:
    """The refusal, its fields filled as a real one's, reads in Arabic (no English word
    left, the protocol's own words aside) and stays the same in English."""
    fields = {name: SAMPLES.get(name, "7") for name in re.findall(r"\{(\w+)\}", template)}
    english = template.format(**fields)
    assert reason_text(english, "en") == english
    arabic = reason_text(english, "ar")
    assert arabic != english
    if template in PROTOCOL_WORDS:
        assert re.search("[\u0600-\u06ff]", arabic), arabic
    else:
        assert_arabic(arabic)


def _in_arabic(error: dict[str, Any], code: str, *data: str) -> None:
    """``error`` is the refusal ``code`` in Arabic; ``data`` (a table's id, a name) is the
    data it quotes, not words."""
    assert error["code"] == code, error
    text = str(error["message"])
    for value in data:
        text = text.replace(value, "")
    assert_arabic(text)


# -- the server, asked as the page asks --------------------------------------------------


def _refused(client: Any) -> dict[str, Any]:
    """The next refusal ``client`` is sent (the updates before it skipped)."""
    for _ in range(200):
        message = client.poll(30.0)
        assert message is not None, "no refusal came"
        if message["type"] == "refused":
            return dict(message["error"])
    raise AssertionError("no refusal among 200 messages")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    options = ("--max-tables", "1", "--join-limit", "2", "--watch-limit", "1")
    with Server(tmp_path_factory.mktemp("ar") / "tables.sqlite3", None, *options) as running:
        yield running


def test_the_servers_refusals_come_in_the_pages_language(server: Server) -> None:
    """With ``?locale=ar`` on the WebSocket and on POST /api/tables (what the page sends),
    every refusal the page can meet here is Arabic, its code unchanged: no such table,
    a bot's seat, a bad name, a taken seat, a bad token, a second tab, a second hello, a
    message too long, too many joins and watchers, too many tables, a bad setting, and an
    illegal move (R-MATCH-5, choosing for the owner) with its clause; the same refusal
    without a language stays English."""
    table = server.create(["person", "person", "rule", "rule"], deal_pause=0, bot_delay=0)
    status, body = server.request("/api/tables?locale=ar", {"seats": ["rule"] * 4})
    assert status == 503
    _in_arabic(body["error"], "server.too-many-tables")
    status, body = server.request("/api/tables?locale=ar", {"move_time": 0})
    assert status == 400
    _in_arabic(body["error"], "server.bad-setting")
    status, english = server.request("/api/tables", {"move_time": 0})
    assert english["error"]["message"].startswith("move_time must be a number")

    nowhere = server.client("nope0000?locale=ar")
    _in_arabic(_refused(nowhere), "server.unknown-table", "'nope0000'")

    ann = server.client(f"{table}?locale=ar")
    for hello, code in [
        ({"seat": 2, "name": "Ann"}, "server.not-a-person-seat"),
        ({"seat": 0, "name": ""}, "server.bad-name"),
    ]:
        ann.send({"type": "join", "pictures": False, "locale": "ar", **hello})
        _in_arabic(_refused(ann), code)
    ann.send({"type": "join", "seat": 0, "name": "Ann", "pictures": False, "locale": "ar"})
    ann.expect("welcome")
    ann.expect("update")
    ann.send({"type": "watch", "locale": "ar"})
    _in_arabic(_refused(ann), "server.already-joined")
    ann.send("x" * 5000)
    _in_arabic(_refused(ann), "server.too-long")

    other = server.client(table)  # no language on the URL: the hello's
    other.send({"type": "join", "seat": 0, "name": "Bo", "pictures": False, "locale": "ar"})
    _in_arabic(_refused(other), "server.seat-taken")
    other.send({"type": "resume", "token": "not-a-token", "pictures": False, "locale": "ar"})
    _in_arabic(_refused(other), "server.bad-token")
    assert ann.token is not None
    other.send({"type": "resume", "token": ann.token, "pictures": False, "locale": "ar"})
    _in_arabic(_refused(other), "server.seat-connected")
    other.send({"type": "resume", "token": ann.token, "pictures": False})
    assert _refused(other)["message"].startswith("seat 0 is already")

    bo = server.client(f"{table}?locale=ar")
    bo.send({"type": "join", "seat": 1, "name": "Bo", "pictures": False, "locale": "ar"})
    bo.expect("welcome")  # the second join of this address: the limit
    third = server.client(f"{table}?locale=ar")
    third.send({"type": "join", "seat": 1, "name": "Cy", "pictures": False, "locale": "ar"})
    _in_arabic(_refused(third), "server.rate-limited")
    watcher = server.client(f"{table}?locale=ar")
    watcher.watch(pictures=False)
    fourth = server.client(f"{table}?locale=ar")
    fourth.send({"type": "watch", "pictures": False, "locale": "ar"})
    _in_arabic(_refused(fourth), "server.too-many-watchers")

    deadline = 0
    while (ann.view is None or ann.view["deal_number"] < 1) and deadline < 100:
        ann.poll(0.2)
        deadline += 1
    assert ann.view is not None and ann.view["deal_number"] == 1
    owner = ann.view["owner"]
    stranger = next(s for s in (0, 1) if s != owner) if owner in (0, 1) else 0
    mover = ann if stranger == 0 else bo
    mover.send({"move": "choose", "seat": stranger, "contract": "TRIX"})
    refused = _refused(mover)
    _in_arabic(refused, "illegal-move")
    assert str(refused["rule"]).startswith("R-")  # R-MATCH-5, or the phase's once a bot chose
    for client in (nowhere, ann, other, bo, third, watcher, fourth):
        client.ws.close()


# -- the browser's worker, asked as the static page asks ---------------------------------------


def test_the_workers_refusals_come_in_the_pages_language() -> None:
    """The static build's worker (:class:`~trixcomplex.web.local.LocalLobby`) answers in
    the page's language as the server does: a bad setting on POST /api/tables?locale=ar,
    no such table, a bot's seat, a taken seat, an illegal move with its clause, and the
    score keeper's impossible deal (R-CX-4) through the very function the server calls."""
    sent: list[tuple[int, dict[str, Any]]] = []
    clock = ManualClock()
    lobby = LocalLobby(lambda c, text: sent.append((c, json.loads(text))), clock, 3)
    bad = json.loads(lobby.request("POST", "/api/tables?locale=ar", '{"bot_delay": -1}'))
    assert bad["status"] == 400
    _in_arabic(bad["body"]["error"], "server.bad-setting")
    body = json.dumps({"seats": ["person", "person", "rule", "rule"], "deal_pause": 0})
    table = json.loads(lobby.request("POST", "/api/tables", body))["body"]["id"]
    lobby.open(1, "nope0000", "ar")
    _in_arabic(sent[-2][1]["error"], "server.unknown-table", "'nope0000'")
    lobby.open(2, table, "ar")
    lobby.receive(2, json.dumps({"type": "join", "seat": 3, "name": "Ann", "locale": "ar"}))
    _in_arabic(sent[-1][1]["error"], "server.not-a-person-seat")
    lobby.receive(2, json.dumps({"type": "join", "seat": 0, "name": "Ann", "locale": "ar"}))
    lobby.open(3, table)
    lobby.receive(3, json.dumps({"type": "join", "seat": 0, "name": "Bo", "locale": "ar"}))
    _in_arabic(sent[-1][1]["error"], "server.seat-taken")
    lobby.receive(3, json.dumps({"type": "join", "seat": 1, "name": "Bo", "locale": "ar"}))
    state = lobby.table(table).state
    while state.deal_number < 1:
        assert clock.step()
        state = lobby.table(table).state
    stranger = next(s for s in (0, 1) if s not in state.to_act)
    lobby.receive(2 if stranger == 0 else 3, json.dumps({"move": "pass", "seat": stranger}))
    error = sent[-1][1]["error"]
    _in_arabic(error, "illegal-move")
    assert error["rule"] is not None
    deal = {"contract": "COMPLEX", "owner": 0, "tricks": [4, 3, 3, 2], "taken": {},
            "doubled": {}, "finishing_order": []}  # fmt: skip
    book = json.dumps({"book": None, "ruleset": "partnership", "deal": deal, "locale": "ar"})
    reply = json.loads(lobby.request("POST", "/api/scorebook", book))
    assert reply["status"] == 400 and reply["body"]["error"]["rule"] == "R-CX-4"
    _in_arabic(reply["body"]["error"], "outcome.inconsistent")
    assert refusal_json(tc.TrixError("x", code="c"), "en")["message"] == "x"
