"""``import trixcomplex`` stays light: the standard library's heavy modules that only
some features need are imported when those features are first used.

``xml.sax.saxutils`` (SVG escaping) pulls in ``urllib``, ``http.client`` and ``email``;
``concurrent.futures.process`` (worker pools of ``simulate``) pulls in
``multiprocessing``.  Together they were about a fifth of the import time.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import trixcomplex as tc
from trixcomplex.io.render import escape, quoteattr

_HEAVY = ("multiprocessing", "http.client", "email", "xml.sax", "urllib.request")
_NOT_AT_IMPORT = (
    *_HEAVY,
    "urllib",
    "http",
    "xml",
    "concurrent",
    "statistics",
    "csv",
    "logging",
    "sqlite3",
    "rich",
    "numpy",
    "starlette",
    "uvicorn",
    "websockets",
    "pettingzoo",
    "gymnasium",
    "pyspiel",
    "cattrs",
)
"""Not loaded by ``import trixcomplex``: what only some features use (issue 30, item 7)."""
_ENGINE = {
    "trixcomplex",
    "trixcomplex._moved",
    "trixcomplex.core",
    "trixcomplex.core.cards",
    "trixcomplex.core.tricks",
    "trixcomplex.core.doubling",
    "trixcomplex.core.errors",
    "trixcomplex.core.jsonio",
    "trixcomplex.core.kingdoms",
    "trixcomplex.core.match",
    "trixcomplex.core.moves",
    "trixcomplex.core.rules",
    "trixcomplex.core.rulesets",
    "trixcomplex.core.scoring",
    "trixcomplex.core.seats",
    "trixcomplex.core.state",
    "trixcomplex.core.trix",
    "trixcomplex.core.tuplerecord",
}
"""The modules ``import trixcomplex`` loads: the engine and what it is made of."""


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


def test_import_loads_the_engine_and_nothing_a_feature_alone_uses() -> None:
    """Issue 30 item 7: no urllib, http, xml, multiprocessing, rich, numpy, cattrs… at import."""
    loaded = _loaded_after("import trixcomplex")
    assert {m for m in loaded if m.startswith("trixcomplex")} == _ENGINE
    assert not {m for m in loaded if m.partition(".")[0] in _NOT_AT_IMPORT}


def test_the_version_command_loads_no_records_server_tournament_pool_or_rich() -> None:
    loaded = _loaded_after(
        "import contextlib, io\n"
        "from trixcomplex.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--version'])"
    )
    assert "trixcomplex.cli" in loaded
    heavy = ("multiprocessing", "concurrent", "cattrs", "rich", "starlette", "uvicorn", "http")
    assert not {m for m in loaded if m.partition(".")[0] in heavy}, sorted(loaded)


def test_every_public_name_loads_on_first_use_as_the_object_its_module_defines() -> None:
    """A name loaded on first use is the very object of its submodule, also after the
    submodule is imported another way (``tc.simulate`` stays the function)."""
    code = (
        "import trixcomplex as tc, importlib\n"
        "import trixcomplex.host.tournament, trixcomplex.core.playout\n"
        "import trixcomplex.knowledge.ledger, trixcomplex.knowledge.events\n"
        "for name, module in tc._LAZY.items():\n"
        "    obj = getattr(tc, name)\n"
        "    mod = importlib.import_module('trixcomplex.' + module)\n"
        "    assert obj is (mod if name in tc._MODULES else getattr(mod, name)), name\n"
        "assert callable(tc.simulate) and callable(tc.playout) and callable(tc.ledger)\n"
        "assert callable(tc.events)\n"
        "assert set(tc.__all__) <= set(dir(tc))\n"
        "print('ok')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)  # fmt: skip
    assert done.stdout.strip() == "ok", done.stderr
    for name in tc.__all__:
        assert getattr(tc, name) is not None
    from trixcomplex import Record, simulate, view  # from-imports load them too

    assert callable(simulate) and callable(view) and Record is tc.Record
    with pytest.raises(AttributeError, match="no_such_name"):
        tc.no_such_name  # noqa: B018


def test_the_import_time_benchmark_measures_both_rows() -> None:
    """benchmarks/import_time.py runs (its goals are not checked here: no timed tests)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import import_time

    assert import_time.import_seconds("attrs, cattrs") > 0
    assert import_time.command_seconds("--version") > 0
