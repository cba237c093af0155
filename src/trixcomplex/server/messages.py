"""What a table tells: each connection's updates, the lobby's summary, the record's metadata.

They are built in :mod:`trixcomplex.host.table_messages` (below the server, so
the table that runs in the browser with no server sends the very same
messages); this module names them where the server's code has always found them.
"""

from __future__ import annotations

from trixcomplex.host.table_messages import TableMessages, Viewer, finished_deal

__all__ = ["TableMessages", "Viewer", "finished_deal"]
