"""The subpackage layout (docs/engine.rst, "Layers"): the flat module paths of earlier
releases still import, with a DeprecationWarning, as the very module that moved; every
public name of ``trixcomplex`` still resolves; and the project itself uses only the new
paths (the suite turns our own "moved" warning into an error, see pyproject.toml)."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import trixcomplex as tc
from trixcomplex import _moved

ROOT = Path(__file__).resolve().parents[1]

OLD_NAMES = sorted(_moved.MOVED)


def _forget(monkeypatch: pytest.MonkeyPatch, old: str) -> None:
    """Make ``old`` importable afresh (an earlier import cached the alias)."""
    monkeypatch.delitem(sys.modules, old, raising=False)
    leaf = old.rpartition(".")[2]
    if leaf in vars(tc) and leaf not in tc.__all__:
        monkeypatch.delattr(tc, leaf)


@pytest.mark.parametrize("old", OLD_NAMES)
def test_an_old_module_path_imports_the_moved_module_and_warns(
    monkeypatch: pytest.MonkeyPatch, old: str
) -> None:
    _forget(monkeypatch, old)
    new = importlib.import_module(_moved.MOVED[old])
    with pytest.warns(DeprecationWarning, match=re.escape(f"{old} moved to {new.__name__}")):
        aliased = importlib.import_module(old)
    assert aliased is new
    assert sys.modules[old] is new
    with warnings.catch_warnings():  # once: the second import is the cached module
        warnings.simplefilter("error")
        assert importlib.import_module(old) is new


def test_from_an_old_path_import_gives_the_same_objects(monkeypatch: pytest.MonkeyPatch) -> None:
    for old in ("trixcomplex.views", "trixcomplex.match", "trixcomplex.hosting"):
        _forget(monkeypatch, old)
    with pytest.warns(DeprecationWarning, match="trixcomplex.views moved to"):
        from trixcomplex.views import View
    with pytest.warns(DeprecationWarning, match="trixcomplex.match moved to"):
        from trixcomplex.match import apply
    with pytest.warns(DeprecationWarning, match="trixcomplex.hosting moved to"):
        from trixcomplex.hosting import submit
    assert (View, apply, submit) == (tc.View, tc.apply, tc.submit)


def test_the_warning_points_at_the_importer(monkeypatch: pytest.MonkeyPatch) -> None:
    _forget(monkeypatch, "trixcomplex.records")
    with pytest.warns(DeprecationWarning) as caught:
        import trixcomplex.records  # noqa: F401
    assert caught[0].filename == __file__


def test_an_old_module_as_a_package_attribute(monkeypatch: pytest.MonkeyPatch) -> None:
    _forget(monkeypatch, "trixcomplex.worlds")
    with pytest.warns(DeprecationWarning, match="trixcomplex.worlds moved to"):
        module = tc.worlds  # type: ignore[attr-defined]
    assert module.sample_world is tc.sample_world


def test_the_old_host_module_names_resolve_on_the_host_package() -> None:
    from trixcomplex.host import loop

    with pytest.warns(DeprecationWarning, match="trixcomplex.host.play_match moved to"):
        from trixcomplex.host import play_match
    assert play_match is loop.play_match
    with pytest.raises(ImportError):
        from trixcomplex.host import no_such_name  # noqa: F401
    with pytest.raises(AttributeError):
        importlib.import_module("trixcomplex.host")._private  # noqa: B018


@pytest.mark.parametrize("name", ["events", "ledger", "playout", "simulate"])
def test_the_four_functions_no_longer_hide_a_module(name: str) -> None:
    """``tc.events`` and the others are the functions; their modules have other names."""
    assert callable(getattr(tc, name)) and not isinstance(getattr(tc, name), type(tc))
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"trixcomplex.{name}")


def test_every_public_name_resolves() -> None:
    for name in [*tc.__all__, *tc._LAZY]:
        assert getattr(tc, name) is not None, name


def test_no_module_of_the_package_uses_an_old_path() -> None:
    """Importing every module with the "moved" warning as an error: none uses an old path."""
    code = (
        "import importlib, pkgutil, warnings\n"
        "warnings.filterwarnings('error', message=r'trixcomplex\\.[\\w.]+ moved to')\n"
        "import trixcomplex\n"
        "for info in pkgutil.walk_packages(trixcomplex.__path__, 'trixcomplex.'):\n"
        "    if '.server' in info.name or '.rl.' in info.name or info.name.endswith('__main__'):\n"
        "        continue  # optional extras; their imports are checked by their own tests\n"
        "    importlib.import_module(info.name)\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600, check=False)  # fmt: skip
    assert done.stdout.strip() == "ok", done.stderr[-3000:]


_OLD = "|".join(re.escape(name.removeprefix("trixcomplex.")) for name in OLD_NAMES)
_HIDDEN = "|".join(  # old modules that are not public names of the package (tc.render is)
    re.escape(leaf)
    for leaf in (name.removeprefix("trixcomplex.") for name in OLD_NAMES)
    if leaf not in tc.__all__ and leaf not in tc._LAZY
)
_OLD_IMPORT = re.compile(rf"^\s*(from|import) trixcomplex\.({_OLD})\b|\btc\.({_HIDDEN})\.\w", re.M)


def test_the_repository_imports_no_old_path() -> None:
    """Source, tests, docs, examples, benchmarks and tools import the new paths only
    (this file and the alias module excepted)."""
    found = []
    for folder in ("src", "tests", "docs", "examples", "benchmarks", "tools"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in {".py", ".rst", ".md"} or path.name == Path(__file__).name:
                continue
            for match in _OLD_IMPORT.finditer(path.read_text(encoding="utf-8")):
                found.append(f"{path.relative_to(ROOT)}: {match.group(0).strip()}")
    assert not found, found
