"""The plain-text form of an observation: :func:`observation_string`."""

from __future__ import annotations

from ...io.render import table_text
from ...knowledge.views import View


def observation_string(view: View) -> str:
    """The plain-text form of ``view``: the table as its seat sees it
    (:func:`trixcomplex.io.render.table_text`), built from the view only."""
    return table_text(view)
