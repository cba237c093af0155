"""Seats, turn order and teams (R-SEAT-1, R-SEAT-2).

>>> next_seat(3), partner(1), team_of(2)
(0, 3, 0)
"""

from __future__ import annotations

__all__ = ["SEATS", "TEAMS", "check_seat", "next_seat", "partner", "team_of"]

SEATS: tuple[int, int, int, int] = (0, 1, 2, 3)
"""The four seats. Play runs counter-clockwise, from ``s`` to ``s + 1``."""

TEAMS: tuple[tuple[int, int], tuple[int, int]] = ((0, 2), (1, 3))
"""Team 0 is seats 0 and 2, team 1 is seats 1 and 3 (R-SEAT-2)."""


def next_seat(seat: int) -> int:
    """The seat on the right of ``seat``, who plays next (R-SEAT-1)."""
    return (seat + 1) % 4


def partner(seat: int) -> int:
    """The partner of ``seat``, who sits opposite (R-SEAT-2)."""
    return (seat + 2) % 4


def team_of(seat: int) -> int:
    """The team of ``seat``: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return seat % 2


def check_seat(seat: object) -> int:
    """Return ``seat`` if it is a seat number 0..3, else raise ``ValueError``."""
    if type(seat) is not int or not 0 <= seat <= 3:
        raise ValueError(f"a seat is an int from 0 to 3, not {seat!r}")
    return seat
