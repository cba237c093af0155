"""The table page in a real browser: headless Chromium (Debian's ``chromium``) via Playwright.

Four people sit down from the lobby in four tabs, the Kingdom owner chooses
COMPLEX by clicking, the doubling window is answered with its buttons, and
cards are played by clicking; a card that is not legal cannot be played
(R-CX-2), and a move the server refuses is shown as a refusal message.  Then
the server is killed and restarted: the pages reconnect to their seats.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, sync_playwright

from browser_harness import CHROMIUM, CHROMIUM_ARGS
from server_harness import Server
from system_packages import require


@pytest.fixture
def pages(tmp_path: Path, server_database: str) -> Iterator[tuple[Server, list[Page]]]:
    chromium = require("chromium", CHROMIUM)  # skipped without it; in CI, failed
    with Server(server_database) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=chromium, headless=True,
            args=CHROMIUM_ARGS, viewport={"width": 1080, "height": 760},
        )  # fmt: skip
        try:
            yield server, [browser.new_page() for _ in range(4)]
        finally:
            browser.close()


def _hand(page: Page) -> list[str]:
    return page.eval_on_selector_all("#hand button.card", "bs => bs.map(b => b.dataset.card)")


def _mover(tabs: list[Page]) -> Page:
    """The one tab whose hand shows legal cards (every tab has drawn the last move)."""
    (mover,) = [page for page in tabs if page.locator("#hand button.card.legal").count()]
    return mover


_TABLE = "JSON.stringify([last.view.trick, last.view.tricks, last.view.hand_sizes])"


def _pictures(tabs: list[Page]) -> list[str]:
    """What each tab shows of the table: the trick, the tricks taken, the hands' sizes."""
    return [page.evaluate(_TABLE) for page in tabs]


def _wait_until_drawn(tabs: list[Page], before: list[str]) -> None:
    """Wait until every tab has drawn the card just played: its table is no
    longer the one it showed ``before`` (every card played changes every seat's).

    Each tab draws the table when its own update arrives, so just after a card
    is played another tab may still show the table before it (seen in CI).
    """
    for page, picture in zip(tabs, before, strict=True):
        page.wait_for_function(f"old => {_TABLE} !== old", arg=picture)


@pytest.mark.slow
@pytest.mark.table_page  # nox -s page (and nox -s postgres): out of the default suite for time
def test_people_play_in_the_browser(pages: tuple[Server, list[Page]]) -> None:
    """R-MATCH-3, R-DBL-1, R-CX-2: sit down, choose, answer the window, play by clicking."""
    server, tabs = pages
    table = server.create(["person"] * 4, move_time=3600, forced_delay=60, deal_pause=0)
    for seat, page in enumerate(tabs):
        page.goto(server.base + "/")
        page.fill("#name", f"Player {seat}")
        page.click(f"tr:has-text('{table}') button.sit[data-seat='{seat}']")
        page.wait_for_selector("#play", state="visible")
        assert page.url.endswith(f"#{table}/{seat}")
    for page in tabs:
        page.wait_for_function("document.querySelectorAll('#hand button.card').length === 13")

    # The Kingdom owner (who holds 7♥) is asked to choose; nobody else has the buttons.
    owners = [p for p in tabs if p.locator("#choose-COMPLEX").count()]
    assert len(owners) == 1 and "7H" in _hand(owners[0])
    owners[0].click("#choose-COMPLEX")

    # The doubling window: every asked seat answers with the button (doubling nothing).
    status = "document.getElementById('status').textContent"
    # Every tab shows the open window before anyone answers: the last answer closes it.
    for page in tabs:
        page.wait_for_function(f"{status}.includes('doubling window')")
    for page in tabs:
        if page.locator("#double").count():
            page.click("#double")
    # The window's status starts "Deal 1 · COMPLEX" too: wait for the first trick's.
    playing = f"/^Deal 1 · COMPLEX · (your turn|.+ to play)$/.test({status})"
    for page in tabs:
        page.wait_for_function(playing)

    illegal_checked = False
    for _ in range(8):  # two tricks, card by card, by clicking
        mover = _mover(tabs)
        before = _hand(mover)
        legal = mover.eval_on_selector_all(
            "#hand button.card.legal", "bs => bs.map(b => b.dataset.card)"
        )
        disabled = mover.locator("#hand button.card.illegal")
        assert len(legal) + disabled.count() == len(before)
        if disabled.count() and not illegal_checked:
            # Not clickable: a forced click does nothing, and a crafted message is refused.
            card = disabled.first.get_attribute("data-card")
            disabled.first.click(force=True)  # aria-disabled: it only explains itself
            mover.wait_for_timeout(300)
            assert _hand(mover) == before
            mover.evaluate(f"send({{move: 'play', seat: me.seat, card: '{card}'}})")
            mover.wait_for_selector("#refusal", state="visible")
            assert "follow suit" in mover.inner_text("#refusal")
            assert _hand(mover) == before
            illegal_checked = True
        pictures = _pictures(tabs)
        mover.click(f"#hand button.card[data-card='{legal[0]}']")
        _wait_until_drawn(tabs, pictures)
        assert _hand(mover) == [c for c in before if c != legal[0]]
    assert illegal_checked, "no seat had to follow suit in two tricks"
    for page in tabs:
        assert len(_hand(page)) == 11
        assert page.locator("#events li").count() > 0
        assert page.locator("#history li").count() == 2

    # The server dies and comes back on the same database: every page reconnects to
    # its seat by itself, shows the same hand and table, and play goes on by clicking.
    hands = [_hand(page) for page in tabs]
    pictures = _pictures(tabs)
    server.kill()
    for page in tabs:
        page.wait_for_function(f"{status}.startsWith('disconnected')")
    with Server(server.db, port=server.port):
        for page, hand, picture in zip(tabs, hands, pictures, strict=True):
            page.wait_for_function(playing)
            assert _hand(page) == hand
            assert page.evaluate(_TABLE) == picture
        mover = _mover(tabs)
        mover.locator("#hand button.card.legal").first.click()
        mover.wait_for_function("document.querySelectorAll('#hand button.card').length === 10")
