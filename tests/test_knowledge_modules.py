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
    "trixcomplex.knowledge.views",
    "trixcomplex.knowledge.seat_view",
    "trixcomplex.knowledge.deductions",
    "trixcomplex.knowledge.view_updates",
    "trixcomplex.knowledge.view_helpers",
    "trixcomplex.knowledge.view_ranges",
    "trixcomplex.knowledge.worlds",
    "trixcomplex.knowledge.viewcheck",
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
    worlds, _ = _tree("trixcomplex.knowledge.worlds")
    assert ".viewcheck" not in _imported(worlds)
    assert ".worlds" in _imported(_tree("trixcomplex.knowledge.viewcheck")[0])
    for first in ("trixcomplex.knowledge.viewcheck", "trixcomplex.knowledge.worlds"):
        code = (
            f"import {first}; from trixcomplex.knowledge import viewcheck as v; print(v.check_view)"
        )
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert proc.returncode == 0 and "check_view" in proc.stdout, proc.stderr
