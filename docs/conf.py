"""Sphinx configuration for the trixcomplex documentation.

Build with ``sphinx-build -W docs docs/_build/html`` (warnings are errors).
The build needs no network: no intersphinx, no remote images.  The table
pictures in ``_static/`` are checked in; ``python docs/make_pictures.py``
redraws them (``tests/test_render.py`` fails when they are stale).
"""

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
    "sphinx_copybutton",
    "myst_parser",  # the changelog page reads CHANGELOG.md itself (MyST Markdown)
]
# A copy button on every code block; it copies the code without the prompts
# (">>> ", "... ", "$ ") and without the doctest output lines.
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True
autodoc_typehints = "description"
autodoc_typehints_format = "short"
autodoc_member_order = "bysource"
autodoc_type_aliases = {
    "CardsLike": "trixcomplex.io.render.CardsLike",
    "PlayerMove": "trixcomplex.PlayerMove",
    "Move": "trixcomplex.Move",
}
python_use_unqualified_type_names = True
nitpicky = False
html_theme = "alabaster"
html_static_path = ["_static"]
html_css_files = ["wrap.css"]  # long lines in code blocks wrap
exclude_patterns = ["_build"]
