"""Sphinx configuration for the trixcomplex documentation."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

project = "trixcomplex"
author = "trixcomplex developers"
copyright = "2026, trixcomplex developers"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
]
autodoc_typehints = "description"
autodoc_member_order = "bysource"
nitpicky = False
html_theme = "alabaster"
html_static_path = ["_static"]
exclude_patterns = ["_build"]
