"""Sphinx configuration for the trixcomplex documentation.

Build with ``sphinx-build -W docs docs/_build/html`` (warnings are errors).
The build needs no network: no intersphinx, no remote images.  The table
pictures in ``_static/`` are checked in; ``python docs/make_pictures.py``
redraws them (``tests/test_render.py`` fails when they are stale).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

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


def _viewcode_back_link_targets(app: Any, doctree: Any, docname: str) -> None:
    """Give each documented object the anchor its source page's "[docs]" link points at.

    ``sphinx.ext.viewcode`` builds every back-link of a module's source page from one
    module name, that of the first object of the module it met: ``MonteCarloBot``,
    documented as ``trixcomplex.bots.MonteCarloBot``, makes ``montecarlo.Search``'s
    back-link ``#trixcomplex.bots.Search`` while ``Search`` is documented as
    ``trixcomplex.bots.montecarlo.Search``.  This adds that anchor to the object's
    signature (tests/test_tooling.py checks every internal link of the site).
    """
    from sphinx import addnodes
    from sphinx.ext.viewcode import _get_full_modname

    modules = getattr(app.env, "_viewcode_modules", {})
    for signode in doctree.findall(addnodes.desc_signature):
        modname, fullname = signode.get("module"), signode.get("fullname")
        if not modname or not fullname:
            continue
        entry = modules.get(_get_full_modname(modname, fullname))
        if not entry or entry[2].get(fullname) != docname or entry[3] == modname:
            continue  # no source page, not its back-link's page, or its anchor is right
        alias = f"{entry[3]}.{fullname}"
        if alias not in signode["ids"]:
            signode["ids"].append(alias)


def setup(app: Any) -> dict[str, bool]:
    app.connect("doctree-resolved", _viewcode_back_link_targets)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
