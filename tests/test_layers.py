"""The layers of docs/engine.rst, enforced: import-linter contracts (``[tool.importlinter]`` in
pyproject.toml) run as a test, and shown to fail on a tree that breaks them.

- ``layers``: core < knowledge < io < bots < host < server, rl < conformance < testing
  < cli; no package imports one of a higher layer.
- ``core-layers``: inside the core, the data < the contracts < the match < the engine
  face < the playout and the turn order.
- ``engine-face``: above the engine face (views, worlds, records, serialization,
  playouts, rendering, scoresheets, bots, the host loop, the CLI …) nothing imports
  ``state``, the contract modules or ``scoring``: the engine is reached through
  ``trixcomplex.core.engine`` and the rule helpers through ``trixcomplex.core.rules``.
- ``bots-public``: bots use the public API only (no engine internals, no files;
  the host loop is public).
- ``io-json-layers``: the JSON face (``serialize``) < the saved-state format
  (``state_json``) < the converter of states and views (``value_converter``) < records.
- ``server-layers``: the application < a table < its parts (host, messages) < the seats
  and the services (pool, store, options, clock).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.tooling


def _lint_imports(src: Path, config: Path) -> subprocess.CompletedProcess[str]:
    code = (
        "import sys; from importlinter.cli import lint_imports; "
        f"sys.exit(lint_imports(config_filename={str(config)!r}, no_cache=True))"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=src.parent,
        env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_import_contracts_hold() -> None:
    """Every contract of pyproject.toml is kept by the tree as it is."""
    proc = _lint_imports(ROOT / "src", ROOT / "pyproject.toml")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    for contract in ("Layers", "Core layers", "Above the engine face", "Bots use the public API"):
        assert f"{contract}" in proc.stdout
    assert "BROKEN" not in proc.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("io/render/text.py", "from ...core.state import Phase as _Phase", "Above the engine face"),
        ("bots/tactics.py", "from ..core.match import apply as _apply", "Bots use the public API"),
        ("bots/rule_bot.py", "from ..core.tricks import legal_cards as _legal", "Above the engine"),
        ("core/scoring.py", "from ..knowledge.views import View as _View", "Layers"),
        ("bots/base.py", "from ..host.loop import run as _run", "Layers"),
        ("io/records.py", "from ..cli.replay import run_replay as _run", "Layers"),
        ("knowledge/views.py", "from ..io.render import picture as _picture", "Layers"),
        ("core/rules.py", "from .playout import playout as _playout", "Core layers"),
        ("core/moves.py", "from .match import apply as _apply", "Core layers"),
        ("io/value_converter.py", "from .state_json import load_state as _load", "JSON layers"),
        ("server/seats.py", "from .table_host import TableHost as _Host", "Server layers"),
    ],
)
def test_a_tree_breaking_a_contract_is_caught(
    tmp_path: Path, module: str, line: str, contract: str
) -> None:
    """The contracts can fail: one forbidden import added to a copy of the tree breaks
    the contract it is against."""
    src = tmp_path / "src"
    shutil.copytree(ROOT / "src" / "trixcomplex", src / "trixcomplex")
    target = src / "trixcomplex" / module
    target.write_text(target.read_text() + f"\n{line}\n")
    proc = _lint_imports(src, ROOT / "pyproject.toml")
    assert proc.returncode != 0
    broken = proc.stdout.split("Broken contracts", 1)[-1]
    assert contract in broken, proc.stdout[-4000:]
