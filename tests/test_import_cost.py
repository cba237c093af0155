"""``import trixcomplex`` stays light: the standard library's heavy modules that only
some features need are imported when those features are first used.

``xml.sax.saxutils`` (SVG escaping) pulls in ``urllib``, ``http.client`` and ``email``;
``concurrent.futures.process`` (worker pools of ``simulate``) pulls in
``multiprocessing``.  Together they were about a fifth of the import time.
"""

from __future__ import annotations

import subprocess
import sys

import trixcomplex as tc
from trixcomplex.render import escape, quoteattr

_HEAVY = ("multiprocessing", "http.client", "email", "xml.sax", "urllib.request")


def _loaded_after(code: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", f"import sys\n{code}\nprint(' '.join(sys.modules))"],
        capture_output=True, text=True, timeout=600, check=True,  # a hang guard
    )  # fmt: skip
    return set(done.stdout.split())


def test_import_loads_none_of_the_heavy_standard_modules() -> None:
    loaded = _loaded_after("import trixcomplex")
    assert "trixcomplex" in loaded
    assert not {m for m in loaded if m.startswith(_HEAVY)}, sorted(loaded)


def test_the_features_load_them_when_used() -> None:
    loaded = _loaded_after(
        "import trixcomplex as tc\n"
        "tc.render.hand_svg('AS KH')\n"
        "from trixcomplex.bots import RandomBot\n"
        "tc.simulate([RandomBot(), RandomBot()], matches=2, seed=1, jobs=2)"
    )
    assert {"xml.sax.saxutils", "multiprocessing"} <= loaded


def test_svg_escaping_is_the_standard_librarys() -> None:
    from xml.sax import saxutils

    for text in ("seat 0", "a < b & c > d", 'it\'s "quoted"', "tab\tnew\nline", "♥ ♦"):
        assert escape(text) == saxutils.escape(text)
        assert quoteattr(text) == saxutils.quoteattr(text)
    assert "<title>A♠</title>" in tc.render.hand_svg("AS")
