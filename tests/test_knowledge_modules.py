"""The knowledge side's modules (views, worlds, viewcheck, the observation tensors) as
issue 27 asks: one job each, no module-level mutable state kept with ``global``, and no
import inside a function (the ``viewcheck`` ⇄ ``worlds`` cycle is gone, not dodged)."""

from __future__ import annotations

import ast
import importlib
import inspect
import subprocess
import sys

import pytest

KNOWLEDGE = (
    "trixcomplex.views",
    "trixcomplex.seat_view",
    "trixcomplex.deductions",
    "trixcomplex.view_updates",
    "trixcomplex.view_helpers",
    "trixcomplex.view_ranges",
    "trixcomplex.worlds",
    "trixcomplex.viewcheck",
    "trixcomplex.rl.observation",
    "trixcomplex.rl.observation.layout",
    "trixcomplex.rl.observation.encoders",
    "trixcomplex.rl.observation.trackers",
    "trixcomplex.rl.observation.text",
)


def _tree(name: str) -> tuple[ast.Module, int]:
    source = inspect.getsource(importlib.import_module(name))
    return ast.parse(source), source.count("\n")


def _imported(tree: ast.Module) -> set[str]:
    """The modules a module's top level imports from (relative names as written)."""
    return {
        "." * node.level + (node.module or "")
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
    }


@pytest.mark.parametrize("name", KNOWLEDGE)
def test_no_import_in_a_function_no_global_and_at_most_600_lines(name: str) -> None:
    """Issue 27 (5, 3): no import inside a function (to dodge a cycle or otherwise), no
    ``global`` statement (module state kept by hand), no module over ~600 lines."""
    tree, lines = _tree(name)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inner = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
            assert not inner, f"{name}.{node.name} imports inside itself (line {node.lineno})"
        assert not isinstance(node, ast.Global), f"{name}: global at line {node.lineno}"
    assert lines <= 600, f"{name} has {lines} lines"


def test_worlds_does_not_import_viewcheck_and_both_import_first() -> None:
    """Issue 27 (5): ``viewcheck`` (check_view: ranges, score, a sampled world) sits above
    ``worlds`` (which checks ranges with ``view_ranges``): no cycle, so either module
    imports first in a fresh interpreter."""
    worlds, _ = _tree("trixcomplex.worlds")
    assert ".viewcheck" not in _imported(worlds)
    assert ".worlds" in _imported(_tree("trixcomplex.viewcheck")[0])
    for first in ("trixcomplex.viewcheck", "trixcomplex.worlds"):
        code = f"import {first}; import trixcomplex.viewcheck as v; print(v.check_view.__name__)"
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert proc.returncode == 0 and proc.stdout.strip() == "check_view", proc.stderr
