"""The page's words: message ids of the library's one catalog.

They live in :mod:`trixcomplex.host.page_messages` (below the server, so the
table that runs in the browser with no server gives the page the very same
words); this module names them where the server's code has always found them.
"""

from __future__ import annotations

from trixcomplex.host.page_messages import PAGE_MESSAGES, page_messages, request_locale

__all__ = ["PAGE_MESSAGES", "page_messages", "request_locale"]
