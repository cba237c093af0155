"""What a table is opened with: its settings and its four seats, and the server's refusals.

They live in :mod:`trixcomplex.host.table_seats` (below the server, so a table
that runs without a server, in the browser, opens its seats the same way);
this module names them where the server's code has always found them.
"""

from __future__ import annotations

from trixcomplex.host.table_seats import (
    SERVER_ERROR_CODES,
    Refused,
    Seat,
    Settings,
    join_seat,
    read_create,
    seat_of_token,
    token_hash,
)

__all__ = [
    "SERVER_ERROR_CODES",
    "Refused",
    "Seat",
    "Settings",
    "join_seat",
    "read_create",
    "seat_of_token",
    "token_hash",
]
