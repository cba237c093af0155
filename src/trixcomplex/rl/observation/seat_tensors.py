"""Where a :class:`~trixcomplex.rl.observation.trackers.SeatsTracker`'s buffer holds
each seat's tensor, and the writes of one public change into all four.

The buffer is five tensors end to end: the spectator's as last encoded in full (its
own part, no hand and ``is_spectator``, read by :data:`SPECTATOR_GATHER`), then
seat ``s``'s at ``(1 + s) * TENSOR_SIZE``, turned to that seat
(:func:`~trixcomplex.rl.observation.layout.gather_index`).  A public entry of the
spectator's tensor (``AT_...`` of a seat row: seat ``who``'s row at ``52 * who``)
is at four places, one in each seat's tensor: :data:`SEAT_PLACES`.
"""

from __future__ import annotations

from array import array

import numpy as np

from ...core.cards import Card
from .encoders import TRICK_AND_LEADER
from .layout import (
    AT_CANNOT,
    AT_HAND,
    AT_KNOWN,
    AT_PLAYED,
    AT_SIZES,
    AT_TAKEN,
    AT_TRICK,
    COUNT,
    COUNT_OF,
    GATHER,
    TENSOR_SIZE,
    Buffer,
)


def seat_places() -> tuple[tuple[int, int, int, int], ...]:
    """For each public entry of the spectator's tensor, where the four seats' tensors
    hold it in a tracker's buffer (seat ``s``'s tensor at ``(1 + s) * TENSOR_SIZE``):
    :data:`GATHER`'s turning of the seat rows, the other way round."""
    at = [[0, 0, 0, 0] for _ in range(TENSOR_SIZE)]
    for s in range(4):
        for entry, spectators in enumerate(GATHER[s].tolist()):
            if spectators < TENSOR_SIZE:  # public (a seat's own part is its own)
                at[spectators][s] = (1 + s) * TENSOR_SIZE + entry
    return tuple((a, b, c, d) for a, b, c, d in at)


SEAT_PLACES = seat_places()
"""A public entry's four places in a tracker's buffer, one in each seat's tensor."""
SPECTATOR_GATHER = np.where(
    GATHER[0] < TENSOR_SIZE, GATHER[0] + TENSOR_SIZE, GATHER[0] - TENSOR_SIZE
)
"""The spectator's tensor in a tracker's buffer: seat 0's public entries (turned to seat
0, as the spectator's are: ``gather_index``), its own part from the first tensor."""
TRICK_AND_LEADER_OF_SEATS = tuple(
    slice((1 + s) * TENSOR_SIZE + TRICK_AND_LEADER.start,
          (1 + s) * TENSOR_SIZE + TRICK_AND_LEADER.stop)
    for s in range(4)
)  # fmt: skip
assert AT_KNOWN == AT_CANNOT + 4 * 52  # see _ROWS_AT
SEATS_GATHER = np.concatenate([GATHER[s] for s in range(4)])
"""The four seats' tensors gathered from the spectator's (:data:`GATHER`), end to end."""
PLAYED_ROW = tuple(AT_PLAYED + 52 * s for s in range(4))
TRICK_ROW = tuple(AT_TRICK + 52 * s for s in range(4))
TAKEN_ROW = tuple(AT_TAKEN + 52 * s for s in range(4))
CANNOT_ROW = tuple(AT_CANNOT + 52 * s for s in range(4))
HAND_AT = tuple((1 + s) * TENSOR_SIZE + AT_HAND for s in range(4))


def played_from_hand(out: Buffer, who: int, card: Card, hand: int, marked: int) -> int:
    """Write that ``who`` played ``card`` (out of its own part's hand, into its played
    row, its hand now ``hand``); ``marked`` without the card, its column cleared if it was
    marked."""
    a, b, c, d = SEAT_PLACES[PLAYED_ROW[who] + card]
    out[a] = out[b] = out[c] = out[d] = 1.0
    a, b, c, d = SEAT_PLACES[AT_SIZES + who]
    out[a] = out[b] = out[c] = out[d] = hand.bit_count() / 13
    out[HAND_AT[who] + card] = 0.0
    bit = 1 << card
    if marked & bit:
        clear_column(out, card)
        return marked ^ bit
    return marked


_ROWS_AT = tuple((1 + s) * TENSOR_SIZE + AT_CANNOT for s in range(4))
"""Where each seat's cannot_hold rows start in a buffer: its known_holdings rows follow
them (the layout's order), eight rows of 52, so a card's column is every 52nd entry."""
_COLUMN_ZEROS = array("f", bytes(4 * 8))


def clear_column(out: Buffer, card: Card) -> None:
    """Take the card just played out of every seat's cannot_hold and known_holdings:
    they are of unplayed cards only.  The card's column of those eight rows is one
    strided slice of each seat's tensor: four slice writes cost a vector step 1% less
    than the 32 item writes (``benchmarks/instructions.py --rows vector``)."""
    for at in _ROWS_AT:
        start = at + card
        out[start : start + 8 * 52 : 52] = _COLUMN_ZEROS


def count_one_more(out: Buffer, entry: int) -> None:
    """Add one to the count at ``entry`` of the spectator's tensor (a public count of
    :data:`~trixcomplex.rl.observation.layout.COUNT`: tricks taken, TRIX passes) in the
    four seats' tensors, where each holds it."""
    a, b, c, d = SEAT_PLACES[entry]
    out[a] = out[b] = out[c] = out[d] = COUNT[COUNT_OF[out[a]] + 1]


def put(out: Buffer, entry: int, value: float) -> None:
    """Write ``value`` at ``entry`` of the spectator's tensor (a public entry) into the
    four seats' tensors, where each holds it (:data:`SEAT_PLACES`)."""
    a, b, c, d = SEAT_PLACES[entry]
    out[a] = out[b] = out[c] = out[d] = value
