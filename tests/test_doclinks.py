"""The link checker of the built docs (tests/doclinks.py) finds what it must: a missing
page, a missing anchor; it passes good links, outside links and a page's own anchors."""

from __future__ import annotations

from pathlib import Path

from doclinks import broken_links


def test_broken_links_finds_missing_pages_and_anchors(tmp_path: Path) -> None:
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "bots.html").write_text(
        '<div id="trixcomplex.bots.Bot"></div><a name="old"></a>', encoding="utf-8"
    )
    (tmp_path / "_modules").mkdir()
    (tmp_path / "_modules" / "m.html").write_text(
        '<a href="../api/bots.html#trixcomplex.bots.Bot">[docs]</a>'
        '<a href="../api/bots.html#trixcomplex.bots.Search">[docs]</a>'
        '<a href="../api/bots.html#old"></a><a href="#top"></a><p id="top"></p>'
        '<a href="../api/missing.html"></a><img src="../_static/x.png">'
        '<a href="https://example.org/#nothing"></a><a href="mailto:a@b.c"></a>',
        encoding="utf-8",
    )
    assert broken_links(tmp_path) == [
        "_modules/m.html -> ../_static/x.png",
        "_modules/m.html -> ../api/bots.html#trixcomplex.bots.Search",
        "_modules/m.html -> ../api/missing.html",
    ]
