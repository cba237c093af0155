"""The table page drawn in the game's geometry, in a real browser (Chromium via Playwright).

Issue 40, the page's part: the seats where the library's
:func:`~trixcomplex.io.render.position` puts them (the next seat to play on
your right, R-SEAT-1), play going round counter-clockwise on the screen
(checked from the drawn cards' bounding boxes), the last trick reviewable and
kept after the deal's end, the doubled cards marked from the view after a
reload (R-DBL-1), TRIX drawn as four rows of cards built out from the Jacks
(R-TX-2) with the finishing order, a scoresheet whose columns are all inside
the viewport at 360, 1,024 and 1,400 px and whose total includes the deal in
progress, one naming of seats, and no serious or critical axe-core violation.

Screenshots go to ``docs/_static/page-*.png`` when
``TRIXCOMPLEX_SCREENSHOTS=docs/_static``, else to the test's temporary directory.
"""

from __future__ import annotations

import itertools
import math
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from browser_harness import DEAL, LONG
from server_harness import Server
from system_packages import require
from trixcomplex.io.render import position

AXE = "axe-core@4.14.1"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("server") / "tables.sqlite3") as running:
        yield running


@pytest.fixture(scope="module")
def axe(tmp_path_factory: pytest.TempPathFactory) -> str:
    """axe-core's browser script, installed from npm (``npm install axe-core``)."""
    npm = require("npm", "npm")
    folder = tmp_path_factory.mktemp("axe")
    subprocess.run(
        [npm, "install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error", AXE],
        cwd=folder, check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    return (folder / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")


def _shot(page: Page, name: str, tmp_path: Path) -> None:
    folder = Path(os.environ.get("TRIXCOMPLEX_SCREENSHOTS") or tmp_path)
    page.screenshot(path=str(folder / f"page-{name}.png"))
    assert (folder / f"page-{name}.png").stat().st_size > 1000


def _table(server: Server, seats: list[str] | None = None, **settings: Any) -> str:
    clocks = {"move_time": 3600, "forced_delay": 60, "bot_delay": 0, "deal_pause": 0}
    seats = seats or ["person", "rule", "rule", "rule"]
    return server.create(seats, **{**clocks, **settings})


def _sit(page: Page, server: Server, table: str, seat: int = 0, name: str = "Ann") -> None:
    page.goto(server.base + "/")
    page.fill("#name", name)
    page.click(f"tr:has-text('{table}') button.sit[data-seat='{seat}']")
    page.wait_for_selector("#play", state="visible")
    page.wait_for_function("last !== null && me.online")


# What the person may do now (once its last move is applied).
_NEXT = """() => {
  if (pending !== null || !me.online || last === null) return false;
  if (last.view.phase === 'OVER') return 'over';
  for (const s of ['#hand button.card.legal', '#actions button[id^=choose-]', '#double', '#pass']) {
    const found = document.querySelector(s);
    if (found) return s === '#hand button.card.legal' ? 'card:' + found.dataset.card : s;
  }
  return false;
}"""


def _next(page: Page) -> str:
    return str(page.wait_for_function(_NEXT, timeout=DEAL).json_value())


def _act(page: Page, action: str, *, double_all: bool = False) -> None:
    """Do ``action``: play the card, choose the first contract offered, answer the window
    (doubling every card offered when ``double_all``), pass."""
    if action.startswith("card:"):
        page.click(f"#hand button.card[data-card='{action[5:]}']")
    elif action == "#double" and double_all:
        for box in page.locator("#actions input[type=checkbox]").all():
            box.check()
        page.click("#double")
    elif action.startswith("#actions"):
        page.locator(action).first.click()
    else:
        page.click(action)


def _centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _axe(page: Page, script: str) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations of the page as it is now."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(content=script)
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document)).violations
            .filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => ({id: v.id, impact: v.impact,
                          nodes: v.nodes.map(n => n.target.join(' '))}))"""
    )
    return found


@pytest.mark.slow
@pytest.mark.table_page
@pytest.mark.parametrize("seat", [0, 1])
def test_the_seats_sit_where_the_library_puts_them(
    browser: BrowserContext, server: Server, tmp_path: Path, seat: int
) -> None:
    """R-SEAT-1: you at the bottom, the seat after you on your right, your partner opposite,
    the seat before you on your left: the page's places are the library's
    trixcomplex.io.render.position (the one layout decision), and drawn where they say."""
    page = browser.new_page()
    kinds = ["rule"] * 4
    kinds[seat] = "person"
    table = _table(server, kinds)
    _sit(page, server, table, seat)
    places = page.evaluate("last.places")
    assert places == [position(s, seat) for s in range(4)]
    me = _centre(page, f"[data-seat='{seat}'].seat")
    after = _centre(page, f"[data-seat='{(seat + 1) % 4}'].seat")
    partner = _centre(page, f"[data-seat='{(seat + 2) % 4}'].seat")
    before = _centre(page, f"[data-seat='{(seat + 3) % 4}'].seat")
    assert after[0] > me[0] > before[0], "the next seat is not on the right"
    # Your partner opposite, between the two others (in TRIX the side seats move up
    # beside it to leave the rows the felt's width, keeping their sides).
    assert before[0] < partner[0] < after[0] and partner[1] < me[1]
    assert partner[1] <= after[1] < me[1] and partner[1] <= before[1] < me[1]
    assert "your partner" in page.inner_text(f"[data-seat='{(seat + 2) % 4}'].seat")
    # A spectator sees seat 0 at the bottom, seat 1 on its right.
    watcher = browser.new_page()
    watcher.goto(server.base + f"/#{table}")
    watcher.wait_for_function("last !== null")
    assert watcher.evaluate("last.places") == [position(s, None) for s in range(4)]


@pytest.mark.slow
@pytest.mark.table_page
def test_play_goes_round_counter_clockwise_and_the_last_trick_stays(
    browser: BrowserContext, server: Server, tmp_path: Path, axe: str
) -> None:
    """R-SEAT-1: every full trick's cards, drawn in play order, go round the centre
    counter-clockwise on the screen (bottom, right, top, left); the last trick can be
    reviewed at any time, and at the deal's end it is still on the table with the
    deal's tricks and each seat's points with the ledger's lines; whose turn it is is
    marked on one seat and spoken by the live region; no serious axe-core violation."""
    page = browser.new_page()
    table = _table(server)
    _sit(page, server, table)
    checked = reviewed = axed = 0
    for _ in range(2000):
        action = _next(page)
        if action == "over":
            break
        if (checked and reviewed and axed) and page.evaluate(
            "last.last_deal !== undefined && last.last_deal !== null"
            " && last.last_deal.tricks.length > 0"
        ):
            break  # a deal of tricks is over, every check made (a short deal -- King of
            # Hearts ends with the K -- may give none: the next deal gives them)
        view = page.evaluate("last.view")
        if page.locator("#choose-COMPLEX").count():
            action = "#choose-COMPLEX"
        if view["phase"] in ("COMPLEX", "TRICKS") and len(view["trick"]) == 3:
            # The three cards before yours: each one counter-clockwise from the one before.
            angles = []
            for i in range(3):
                seat = (view["leader"] + i) % 4
                x, y = _centre(page, f"#centre .face[data-seat='{seat}']")
                cx, cy = _centre(page, "#centre")
                angles.append(math.degrees(math.atan2(cy - y, x - cx)))
            turns = [(b - a) % 360 for a, b in itertools.pairwise(angles)]
            assert all(80 < turn < 100 for turn in turns), angles
            checked += 1
        if view["turn"] == 0 and view["phase"] != "CHOOSE":
            assert page.locator(".seat.turn").count() == 1
            assert page.locator("#place-bottom.turn").count() == 1
            assert "Your turn" in page.inner_text("#announce")
        if view["trick"] and view["last_trick"] and not reviewed:
            page.click("#review")
            shown = page.eval_on_selector_all("#centre .face", "fs => fs.map(f => f.dataset.card)")
            assert shown == view["last_trick"]["cards"]
            page.keyboard.press("Enter")  # the button keeps the focus: back with the keyboard
            shown = page.eval_on_selector_all("#centre .face", "fs => fs.map(f => f.dataset.card)")
            assert shown == view["trick"]
            reviewed += 1
        if action.startswith("card:") and not axed and view["phase"] != "TRIX":
            violations = _axe(page, axe)
            assert violations == [], violations
            _shot(page, "geometry", tmp_path)
            axed += 1
        _act(page, action)
    assert checked and reviewed and axed
    # The deal is over: its last trick is still on the table, with the deal's tricks and
    # its summary (read in one go: the next deal may start at any moment).
    deal, faces, tricks, summary, lines = page.evaluate(
        """() => [last.last_deal,
                  [...document.querySelectorAll('#centre .face')].map(f => f.dataset.card),
                  document.querySelectorAll('#history li.trick').length,
                  document.getElementById('summary').innerText,
                  [0, 1, 2, 3].map(s => document.querySelector(
                    `#summary li[data-seat='${s}']`).firstChild.textContent)]"""
    )
    assert faces == deal["tricks"][-1]["cards"], deal
    assert tricks == len(deal["tricks"]) == 13
    for line, points in zip(lines, deal["points"], strict=True):
        assert line.endswith(f"{points:+d}" if points else "0"), line
    assert "(R-" in summary
    violations = _axe(page, axe)
    assert violations == [], violations
    _shot(page, "deal-over", tmp_path)


@pytest.mark.slow
@pytest.mark.table_page
def test_doubles_stay_in_sight_after_a_reload(
    browser: BrowserContext, server: Server, tmp_path: Path
) -> None:
    """R-DBL-1: a doubled card is marked wherever it is shown (the hand, the trick, the
    history) with who doubled it, from the view, so a reload keeps the marks."""
    page = browser.new_page()
    table = _table(server)
    _sit(page, server, table)
    for _ in range(400):
        action = _next(page)
        if action == "over":
            break
        if page.evaluate(
            "last.view.doubled.some(([card]) => [...last.view.hand, ...last.view.trick,"
            " ...last.view.tricks.flatMap(t => t.cards)].includes(card))"
        ):
            break  # a doubled card is in sight: in the hand, the trick or the history
        _act(page, action, double_all=True)
    doubled = dict(page.evaluate("last.view.doubled"))
    assert doubled, "no card was doubled in the deals played"
    page.reload()
    page.wait_for_function("last !== null && me.online")
    marks = page.eval_on_selector_all(
        ".doubled", "es => es.map(e => [e.dataset.card, Number(e.dataset.doubler), "
        "e.getAttribute('aria-label') || e.textContent])",
    )  # fmt: skip
    seen = page.evaluate(
        "[...last.view.hand, ...last.view.trick, ...last.view.tricks.flatMap(t => t.cards)]"
    )
    shown = {card for card in doubled if card in seen}
    assert shown, "no doubled card is in sight after the reload"
    assert {card for card, _, _ in marks} == shown
    for card, doubler, label in marks:
        assert doubler == doubled[card]
        expected = "you" if doubler == 0 else "your partner" if doubler == 2 else "bot"
        assert "doubled by" in label and expected in label, label
    _shot(page, "doubled", tmp_path)


@pytest.mark.slow
@pytest.mark.table_page
def test_trix_is_drawn_as_cards_from_the_jacks(
    browser: BrowserContext, server: Server, tmp_path: Path
) -> None:
    """R-TX-2: in TRIX each suit is a row of cards through its Jack's column, exactly the
    view's rows; the finishing order grows on the table; a pass shows on the seat and
    in the history."""
    page = browser.new_page()
    table = _table(server)
    _sit(page, server, table)
    rows_checked = passes = 0
    for _ in range(2000):
        action = _next(page)
        view = page.evaluate("last.view")
        if action == "over" or (view["phase"] == "DEAL" and rows_checked > 3):
            break
        if view["phase"] == "TRIX" and view["laid"]:
            jack_x = None
            for i, suit in enumerate("SHDC"):
                row = view["rows"][i]
                cards = page.eval_on_selector_all(
                    f"#rows .row[data-suit='{suit}'] .face", "fs => fs.map(f => f.dataset.card)"
                )
                ranks = "23456789TJQKA"
                want = (
                    []
                    if row is None
                    else [f"{ranks[r - 2]}{suit}" for r in range(row[0], row[1] + 1)]
                )
                assert cards == want
                if row is not None:
                    x, _ = _centre(page, f"#rows .face[data-card='J{suit}']")
                    assert jack_x is None or abs(x - jack_x) < 2, "the Jacks are not in one column"
                    jack_x = x
            order = page.locator("#order li").all_inner_texts()
            assert len(order) == len(view["finishing_order"])
            passes += page.locator("#history li.pass").count()
            rows_checked += 1
            if rows_checked == 6:
                _shot(page, "trix", tmp_path)
        _act(page, action)
    assert rows_checked > 3, "no TRIX deal was played"


@pytest.mark.slow
@pytest.mark.table_page
def test_the_scoresheet_fits_and_adds_up(
    browser: BrowserContext, server: Server, tmp_path: Path
) -> None:
    """At 360, 1,024 and 1,400 px every column of the scoresheet is inside the viewport;
    the total is the finished deals plus the deal in progress (marked as in progress).
    The table waits for the person meanwhile, so all three widths see one scoresheet."""
    page = browser.new_page()
    table = _table(server)
    _sit(page, server, table, name="Annabelle Longname-Smith")
    while True:  # into deal 2, two tricks (or six lays) in, the person to move
        action = _next(page)
        if page.evaluate(
            "last.view.deal_number >= 2"
            " && (last.view.tricks.length >= 2 || last.view.laid.length >= 6)"
        ):
            break
        _act(page, action)
    for width in (360, 1024, 1400):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_function(f"document.documentElement.clientWidth === {width}")
        cells = page.eval_on_selector_all(
            "#scoresheet th, #scoresheet td",
            "cs => cs.map(c => { const r = c.getBoundingClientRect(); return [r.left, r.right]; })",
        )
        assert len(cells) >= 6 * 4
        assert all(left >= 0 and right <= width for left, right in cells), (width, cells)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        _shot(page, f"scoresheet-{width}", tmp_path)
    sheet = page.evaluate(
        """() => [...document.querySelectorAll('#scoresheet tbody tr')].map(r =>
             [r.className, [...r.cells].slice(2).map(c => Number(c.textContent))])"""
    )
    total = [row for cls, row in sheet if "total" in cls]
    parts = [row for cls, row in sheet if cls in ("deal", "current")]
    assert len(total) == 1 and any(cls == "current" for cls, _ in sheet)
    assert total[0] == [sum(column) for column in zip(*parts, strict=True)]
    assert "in progress" in page.inner_text("#scoresheet tr.current")


@pytest.mark.slow
@pytest.mark.table_page
def test_one_naming_and_one_notation(browser: BrowserContext, server: Server) -> None:
    """Names, "you" and "your partner" everywhere a person reads: no "seat N" in the
    lobby, on the table, in the log rebuilt after a reload; phases in words in the
    lobby; cards written one way (7♦, never 7D)."""
    page = browser.new_page()
    table = _table(server)
    _sit(page, server, table)
    played = "last.view.tricks.length >= 1 || last.view.laid.length >= 4"
    while True:
        action = _next(page)
        if action.startswith("card:") and page.evaluate(
            f"({played}) && Object.keys(last.illegal || {{}}).length > 0"
        ):
            break
        _act(page, action)
    # A refusal in the page's words: a move out of turn, sent by hand.
    page.evaluate("send({move: 'play', seat: me.seat, card: Object.keys(last.illegal)[0]})")
    page.wait_for_selector("#refusal", state="visible")
    refusal = page.inner_text("#refusal")
    assert "seat " not in refusal.lower() and "(R-" in refusal, refusal
    assert "you plays" not in refusal, refusal
    page.reload()
    page.wait_for_function("last !== null && me.online")
    text = page.inner_text("#play")
    first = page.locator("#history li").first.inner_text()
    assert first.startswith(("Trick 1:", "You ", "Your partner ", "rule bot")), first
    assert "seat " not in text.lower()
    assert not __import__("re").search(r"\b(10|[2-9TJQKA])[SHDC]\b", text), text
    assert page.locator("#events li").count() > 0
    lobby = browser.new_page()
    lobby.goto(server.base + "/")
    row = lobby.locator(f"tr:has-text('{table}')").inner_text()
    assert "Deal 1 of 8 — " in row and "seat " not in row.lower(), row


@pytest.mark.slow
@pytest.mark.table_page
def test_a_right_to_left_page_keeps_the_games_geometry(
    browser: BrowserContext, server: Server, tmp_path: Path, axe: str
) -> None:
    """Arabic chosen with the page's language selector (remembered across pages): the
    page is right to left (dir="rtl", lang="ar") and mirrors, but the table keeps the
    game's geometry (R-SEAT-1: the next seat on your right), the scoresheet still fits
    at 360 px, and the lobby and the page have no serious or critical axe-core violation."""
    lobby = browser.new_page()
    lobby.goto(server.base + "/")
    lobby.wait_for_selector("#create")
    lobby.select_option("#language", "ar")
    lobby.wait_for_function("document.documentElement.dir === 'rtl'")
    assert lobby.inner_text("#open") == "افتح الطاولة"
    violations = _axe(lobby, axe)
    assert violations == [], violations
    _shot(lobby, "lobby-ar", tmp_path)
    page = browser.new_page()
    page.set_viewport_size({"width": 360, "height": 800})
    table = _table(server)
    _sit(page, server, table)
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [
        "ar",
        "rtl",
    ]
    me = _centre(page, "#place-bottom")
    after = _centre(page, "[data-seat='1'].seat")
    before = _centre(page, "[data-seat='3'].seat")
    assert after[0] > me[0] > before[0], "right to left moved the next seat to the left"
    hand = page.locator("#hand").bounding_box()
    assert hand is not None and hand["x"] + hand["width"] <= 360
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    violations = _axe(page, axe)
    assert violations == [], violations
    _shot(page, "rtl-360", tmp_path)


def _tab_to(page: Page, selector: str) -> None:
    """Press Tab (only the keyboard) until the focus is on an element matching ``selector``."""
    for _ in range(80):
        if page.evaluate(f"document.activeElement.matches({selector!r})"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.slow
@pytest.mark.table_page
@pytest.mark.parametrize("locale", ["en-US", "ar-SA"])
def test_a_whole_deal_with_the_keyboard_only(
    chromium: Browser, server: Server, tmp_path: Path, axe: str, locale: str
) -> None:
    """Everything from the keyboard: Tab to the contract buttons, the doubling window's
    boxes and Answer, the hand (arrows to a playable card, Enter to play it), Pass, and
    the last-trick button; no mouse and no scripted focus for a whole deal.  In a browser
    whose language is Arabic the page is in Arabic (the library's catalog, by
    Accept-Language), right to left (dir="rtl", lang="ar"), and no English word is left
    in the table's status, the hand's spoken names and the history."""
    context = chromium.new_context(locale=locale, viewport={"width": 1080, "height": 820})
    context.set_default_timeout(LONG)
    page = context.new_page()
    table = _table(server)
    _sit(page, server, table)
    arabic = locale.startswith("ar")
    language = page.evaluate("[document.documentElement.lang, document.documentElement.dir]")
    assert language == (["ar", "rtl"] if arabic else ["en", "ltr"])
    english_words = __import__("re").compile(r"[A-Za-z]{3,}")
    refused = False
    page.keyboard.press("Tab")
    while True:
        action = _next(page)
        if page.evaluate("last.view.deal_number > 1 || last.view.phase === 'DEAL'"):
            break
        # A refusal in Arabic: a card the page says may not be played, sent by hand.
        if (
            arabic
            and action.startswith("card:")
            and not refused
            and page.evaluate("Object.keys(last.illegal || {}).length > 0")
        ):
            page.evaluate("send({move: 'play', seat: me.seat, card: Object.keys(last.illegal)[0]})")
            page.wait_for_selector("#refusal", state="visible")
            refusal = page.inner_text("#refusal")
            rules = __import__("re").sub(r"R-[A-Z]+-\d+", "", refusal)
            assert "(R-" in refusal and not english_words.findall(rules), refusal
            refused = True
            continue
        if action.startswith("card:"):
            _tab_to(page, "#hand button.card")
            for _ in range(14):
                if page.evaluate("document.activeElement.classList.contains('legal')"):
                    break
                page.keyboard.press("ArrowRight")
            card = page.evaluate("document.activeElement.dataset.card")
            page.keyboard.press("Enter")
            page.wait_for_function(
                f"!document.querySelector(\"#hand button[data-card='{card}']\")"
                " || (pending === null && last.view.hand.includes('" + card + "'))"
            )
            continue
        if action == "#double":
            for box in range(page.locator("#actions input[type=checkbox]").count()):
                _tab_to(page, f"#actions label:nth-of-type({box + 1}) input")
                page.keyboard.press("Space")
        _tab_to(page, "#choose-COMPLEX, #choose-TRIX" if action.startswith("#actions") else action)
        page.keyboard.press("Enter")
        if arabic:  # everything the player reads now is Arabic (the rule IDs aside)
            shown = page.inner_text("#status") + " " + page.inner_text("#history")
            shown += " " + " ".join(page.locator("#hand button .sr-only").all_inner_texts())
            rules = __import__("re").sub(r"R-[A-Z]+-\d+", "", shown)
            assert not english_words.findall(rules), shown
    assert page.evaluate("last.view.score.deals.length") >= 1  # the deal was played out
    assert refused or not arabic
    violations = _axe(page, axe)
    assert violations == [], violations
    _shot(page, "keyboard-" + locale[:2], tmp_path)
    context.close()


def test_every_message_id_the_page_uses_has_an_arabic_translation() -> None:
    """The page's words come from the library's one catalog (server/page_messages.py,
    served by /api/messages): every id the page asks t() for, or names in index.html's
    data-msg, is in it, and so is every card's spoken name and every contract's name (a
    missing one would show its id); every one has a non-empty Arabic translation with
    the same fields, written in Arabic letters (issue 40 deliverable 6)."""
    import re

    import trixcomplex as tc
    from trixcomplex.server.page_messages import PAGE_MESSAGES, page_messages

    static = Path(tc.__file__).parent / "server" / "static"
    source = (static / "app.js").read_text("utf-8")
    html = (static / "index.html").read_text("utf-8")
    ids = set(PAGE_MESSAGES)
    used = set(re.findall(r'\bt\("([\w.-]+)"[,)]', source))  # not t("rank." + code)
    used |= set(re.findall(r'data-msg(?:-label)?="([\w.-]+)"', html))
    assert len(used) > 60, "no t() call found"
    assert used <= ids, sorted(used - ids)
    dynamic = {f"rank.{r}" for r in "23456789TJQKA"} | {f"suit.{s}" for s in "SHDC"}
    dynamic |= {f"place.{n}" for n in range(1, 5)}
    # A combined contract (R-OPT-9) is named by its parts: "King of Hearts + Queens".
    dynamic |= {f"contract.{part}" for c in tc.Contract for part in c.value.split("+")}
    assert dynamic <= ids, sorted(dynamic - ids)
    arabic = page_messages("ar")
    for key, english in PAGE_MESSAGES.items():
        words = re.sub(r"\{\w+\}", "", english)
        assert sorted(re.findall(r"\{\w+\}", arabic[key])) == sorted(
            re.findall(r"\{\w+\}", english)
        )
        if re.search(r"[A-Za-z]{2}", words):  # no English word left (the key names aside)
            assert arabic[key] != english, key
            assert not re.search("[A-Za-z]", re.sub(r"\{\w+\}|trixcomplex|Enter", "", arabic[key]))
    assert (arabic["dir"], page_messages("en")["dir"]) == ("rtl", "ltr")
    assert "const MSG = {" not in source, "a second table of English words in the page"


def test_the_page_gets_its_words_in_the_browsers_language_or_the_chosen_one(
    server: Server,
) -> None:
    """GET /api/messages: the Accept-Language's first known language (best_locale), the
    selector's ?locale= first, English for an unknown language (never an error)."""
    import json
    import urllib.request

    def ask(path: str, accept: str) -> dict[str, str]:
        request = urllib.request.Request(server.base + path, headers={"Accept-Language": accept})
        with urllib.request.urlopen(request, timeout=30) as reply:
            return dict(json.load(reply))

    assert ask("/api/messages", "fr-FR, ar;q=0.8, en;q=0.5")["dir"] == "rtl"
    assert ask("/api/messages", "de")["lang"] == "en"
    assert ask("/api/messages?locale=en", "ar")["lang"] == "en"
    assert ask("/api/messages?locale=ar-EG", "en")["status.your_turn"] == "دورك"
    assert ask("/api/messages?locale=xx", "ar")["lang"] == "en"


@pytest.mark.slow
@pytest.mark.table_page
@pytest.mark.parametrize("locale", ["en-US", "ar-SA"])
def test_the_score_keeper_adds_up_as_the_library(
    chromium: Browser, server: Server, tmp_path: Path, axe: str, locale: str
) -> None:
    """Issue 40 deliverable 8's page (/scorekeeper): three deals of classic Trix entered in
    the form (TRIX's finishing order R-TX-4, Queens' takers R-CL-3, Ltoosh's tricks
    R-CL-5) give the totals of the library's Scorebook; an impossible deal is refused
    with its clause (R-CL-4) and changes nothing; in Arabic the page is right to left
    and the contracts have the players' names; axe finds nothing serious."""
    import trixcomplex as tc
    from trixcomplex.io.scorekeeper import DealOutcome, Scorebook

    context = chromium.new_context(locale=locale, viewport={"width": 1080, "height": 820})
    context.set_default_timeout(LONG)
    page = context.new_page()
    page.goto(server.base + "/scorekeeper")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#ruleset", "classic")
    page.click("#new")
    book = Scorebook(tc.Ruleset.from_name("classic"))

    def enter(outcome: DealOutcome) -> None:
        enter_deal(page, outcome)

    deals = [
        DealOutcome.of("TRIX", 0, finishing_order=[2, 0, 3, 1]),
        DealOutcome.of(
            "QUEENS", 0, tricks=[4, 3, 3, 3], taken={"QS": 1, "QH": 2, "QD": 3, "QC": 1}
        ),
        DealOutcome.of("LTOOSH", 0, tricks=[5, 2, 3, 3]),
    ]
    for number, outcome in enumerate(deals, 1):
        book = book.add(outcome)
        enter(outcome)
        page.wait_for_function(f"document.querySelectorAll('#sheet tbody tr').length === {number}")
    totals = [int(x) for x in page.locator("#sheet tfoot td").all_inner_texts()[2:]]
    assert totals == list(book.score().seats)
    enter(DealOutcome.of("DIAMONDS", 0, tricks=[5, 2, 3, 2]))
    page.wait_for_selector("#refusal", state="visible")
    assert "R-CL-4" in page.inner_text("#refusal")
    assert page.locator("#sheet tbody tr").count() == 3
    arabic = locale.startswith("ar")
    language = page.evaluate("[document.documentElement.lang, document.documentElement.dir]")
    assert language == (["ar", "rtl"] if arabic else ["en", "ltr"])
    contracts = page.locator("#sheet tbody td:nth-child(2)").all_inner_texts()
    assert contracts == (["تركس", "البنات", "اللطوش"] if arabic else ["TRIX", "Queens", "Ltoosh"])
    page.reload()  # the book is kept in the browser and scored again by the server
    page.wait_for_selector("body[data-ready=true]")
    assert [int(x) for x in page.locator("#sheet tfoot td").all_inner_texts()[2:]] == totals
    violations = _axe(page, axe)
    assert violations == [], violations
    _shot(page, "scorekeeper-" + locale[:2], tmp_path)
    context.close()


def enter_deal(page: Page, outcome: Any) -> None:
    """Fill the score keeper's form with ``outcome`` (a DealOutcome) as players would:
    the contract, the owner, the finishing order or the tricks, who took each card, who
    doubled each doubled card and who led its trick; then add the deal."""
    import trixcomplex as tc

    page.select_option("#contract", outcome.contract.value)
    page.select_option("#owner", str(outcome.owner))
    for place, s in enumerate(outcome.finishing_order, 1):
        page.select_option(f"#place{place}", str(s))
    if outcome.contract is not tc.Contract.TRIX:
        for s, count in enumerate(outcome.tricks):
            page.fill(f"#tricks{s}", str(count))
    for card, s in outcome.taken:
        page.select_option(f"#taken-{card}", str(s))
    for card, doubler, leader in outcome.doubled:
        page.select_option(f"#doubler-{card}", str(doubler))
        page.select_option(f"#leader-{card}", str(leader))  # shown once a doubler is chosen
    page.click("#add")


COMPLEX_TAKEN = {"KH": 1, "QS": 0, "QH": 2, "QD": 3, "QC": 0, "2D": 0, "3D": 0, "4D": 0,
                 "5D": 1, "6D": 1, "7D": 1, "8D": 2, "9D": 2, "TD": 2, "JD": 3, "KD": 3,
                 "AD": 3}  # fmt: skip
"""Who took each counted card in the score keeper's COMPLEX deals (docs/scorekeeper.rst)."""


@pytest.mark.slow
@pytest.mark.table_page
@pytest.mark.parametrize("locale", ["en-US", "ar-SA"])
def test_a_doubled_card_on_the_score_keepers_form_scores_as_the_library(
    chromium: Browser, server: Server, tmp_path: Path, axe: str, locale: str
) -> None:
    """R-DBL-4 on the score keeper's form: a COMPLEX deal with K♥ doubled by the seat that
    took it back in another's trick (case 2) and Q♠ doubled by one seat and taken by
    another (case 1) scores exactly the library's points, which differ from the same deal
    undoubled by the doubles' own points (R-DBL-5: still -500); a TRIX by the wrong owner
    is refused (R-MATCH-5) naming the players as the form does, in the page's language;
    axe finds nothing serious."""
    import re

    from test_why_illegal_ar import assert_arabic
    from trixcomplex.io.scorekeeper import DealOutcome, score_deal

    context = chromium.new_context(locale=locale, viewport={"width": 1080, "height": 900})
    context.set_default_timeout(LONG)
    page = context.new_page()
    page.goto(server.base + "/scorekeeper")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#ruleset", "partnership")
    page.click("#new")
    tricks = (4, 3, 3, 3)
    doubled = DealOutcome.of("COMPLEX", 0, tricks=tricks, taken=COMPLEX_TAKEN,
                             doubled={"KH": (1, 3), "QS": (2, 0)})  # fmt: skip
    plain = score_deal(DealOutcome.of("COMPLEX", 0, tricks=tricks, taken=COMPLEX_TAKEN))
    result = score_deal(doubled)
    assert sorted(d.case for d in result.doubled) == [1, 2]  # Q♠ case 1, K♥ case 2
    ids = page.evaluate("[...document.querySelectorAll('[id]')].map((e) => e.id)")
    assert len(ids) == len(set(ids)), "a control twice on the form (Q♦ is a Queen and a diamond)"
    page.select_option("#contract", "COMPLEX")
    page.select_option("#doubler-KH", "1")
    page.wait_for_selector("#leader-KH", state="visible")
    _shot(page, "scorekeeper-doubled-" + locale[:2], tmp_path)
    enter_deal(page, doubled)
    page.wait_for_function("document.querySelectorAll('#sheet tbody tr').length === 1")
    row = [int(x) for x in page.locator("#sheet tbody tr td").all_inner_texts()[2:]]
    assert row == list(result.points)
    assert row != list(plain.points)  # the doubles changed it, as the library says
    assert sum(row) == -500
    enter_deal(page, DealOutcome.of("TRIX", 2, finishing_order=[2, 0, 3, 1]))
    page.wait_for_selector("#refusal", state="visible")
    refusal = page.inner_text("#refusal")
    assert "R-MATCH-5" in refusal and page.locator("#sheet tbody tr").count() == 1
    if locale.startswith("ar"):
        assert "اللاعب 1" in refusal and "اللاعب 3" in refusal, refusal
        assert_arabic(refusal)
    else:
        assert "Player 1, not Player 3" in refusal, refusal
        assert not re.search(r"\bseat \d", refusal)
    violations = _axe(page, axe)
    assert violations == [], violations
    context.close()


def test_the_scorebook_api_keeps_nothing_and_refuses_with_the_clause(server: Server) -> None:
    """POST /api/scorebook: the book comes back with the deal (the library's Scorebook
    JSON, so the client holds it); an impossible deal is the library's refusal naming its
    clause (400, outcome.inconsistent, R-CX-4 for tricks that are not 13); a deal sent
    with the book a second time is scored again from the book sent, not from anything the
    server kept; not JSON is refused (415)."""
    import json
    import urllib.error
    import urllib.request

    def post(body: object, kind: str = "application/json") -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(
            server.base + "/api/scorebook", json.dumps(body).encode(), {"Content-Type": kind}
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as reply:
                return reply.status, dict(json.load(reply))
        except urllib.error.HTTPError as error:
            return error.code, dict(json.load(error))

    trix = {"contract": "TRIX", "owner": 1, "tricks": [0, 0, 0, 0], "taken": {},
            "doubled": {}, "finishing_order": [1, 2, 3, 0]}  # fmt: skip
    status, first = post({"book": None, "ruleset": "partnership", "deal": trix})
    assert status == 200 and first["sheet"]["totals"] == [50, 200, 150, 100]
    assert first["book"]["format"] == "trixcomplex-scorebook"
    ltoosh = {**trix, "contract": "COMPLEX", "tricks": [4, 3, 3, 2], "finishing_order": []}
    status, refused = post({"book": first["book"], "deal": ltoosh})
    assert status == 400, refused
    assert refused["error"]["code"] == "outcome.inconsistent"
    assert refused["error"]["rule"] == "R-CX-4", refused
    status, again = post({"book": None, "ruleset": "partnership", "deal": trix, "locale": "ar"})
    assert again["sheet"]["deals"] == [{**first["sheet"]["deals"][0], "contract": "تركس"}]
    assert post({"book": None, "deal": trix}, "text/plain")[0] == 415
