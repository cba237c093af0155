"""The score keeper's API (``POST /api/scorebook``): a match kept on paper, scored deal by
deal by the library.

The answer is built in :mod:`trixcomplex.host.scorebook` (below the server, so that
the static build's worker answers the same request with the very same function);
this module names it where the server's code has always found it.
"""

from __future__ import annotations

from trixcomplex.host.scorebook import MAX_REQUEST, add_deal, answer, sheet

__all__ = ["MAX_REQUEST", "add_deal", "answer", "sheet"]
