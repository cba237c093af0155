"""What one seat sees: :func:`view` turns a state into a :class:`View` (R-HID-1 … R-HID-3).

A view is the only thing a bot or a frontend should be given: the seat's own
hand and the public facts, never another hand, the doubling window's secrets
or a deck.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
>>> seen = view(state, 2)
>>> seen == tc.view(state, 2), len(seen.hand), winning_so_far(seen)
(True, 13, None)

This module is the one place to import the views from; each job lives in a
module of its own:

- :mod:`trixcomplex.knowledge.seat_view`: the :class:`View` record and :func:`view`
  (with :func:`view_without_moves` and :func:`own_part`);
- :mod:`trixcomplex.knowledge.deductions`: what the public moves show of the hands
  (voids, cards a seat cannot hold), the one home of each deduction;
- :mod:`trixcomplex.knowledge.view_updates`: a view kept up to date move by move
  (:func:`view_after`, :func:`view_after_moves`);
- :mod:`trixcomplex.knowledge.view_helpers`: public facts of a view for bot authors
  (:func:`winning_so_far`, :func:`unseen_cards`, :func:`known_voids`,
  :func:`points_this_deal`).
"""

from __future__ import annotations

from .deductions import played_in_tricks, show_trick_cards_since, shown_by_pass
from .seat_view import View, own_part, view, view_without_moves
from .view_helpers import known_voids, points_this_deal, trick_winner, unseen_cards, winning_so_far
from .view_updates import view_after, view_after_moves

__all__ = [
    "View",
    "known_voids",
    "own_part",
    "played_in_tricks",
    "points_this_deal",
    "show_trick_cards_since",
    "shown_by_pass",
    "trick_winner",
    "unseen_cards",
    "view",
    "view_after",
    "view_after_moves",
    "view_without_moves",
    "winning_so_far",
]
