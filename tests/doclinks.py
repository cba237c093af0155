"""Every internal link and anchor of a built HTML site, and those that do not resolve.

Used by the documentation build's test (tests/test_tooling.py) on the site it has
just built, the source pages of ``sphinx.ext.viewcode`` and their "[docs]" links
back to the API pages included (issue 43, deliverable 6).
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Page(HTMLParser):
    """The links (``href``, ``src``) and the anchors (``id``, ``name``) of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.anchors: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name in ("href", "src") and tag != "base":
                self.links.append(value)
            elif name == "id" or (name == "name" and tag == "a"):
                self.anchors.add(value)


def _internal(link: str) -> bool:
    parts = urlsplit(link)
    return not (parts.scheme or parts.netloc) and not link.startswith("//")


def broken_links(site: Path) -> list[str]:
    """Each internal link of the HTML pages under ``site`` whose file does not exist,
    or whose ``#anchor`` is not an ``id`` of its page: ``page -> link``, sorted."""
    pages: dict[Path, _Page] = {}
    for path in sorted(site.rglob("*.html")):
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        pages[path.resolve()] = page
    broken = []
    for path, page in pages.items():
        for link in page.links:
            if not _internal(link):
                continue
            parts = urlsplit(link)
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            fragment = unquote(parts.fragment)
            if not target.exists() or (
                fragment and target in pages and fragment not in pages[target].anchors
            ):
                broken.append(f"{path.relative_to(site.resolve())} -> {link}")
    return sorted(set(broken))
