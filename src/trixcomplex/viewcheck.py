"""Checking a view that came from outside (a client, a file): :func:`check_view`.

A :class:`~trixcomplex.View` built by :func:`~trixcomplex.view` is always
consistent.  One read from JSON may have been tampered with: a seat number 5
in ``laid``, a playing view of deal 0, a DEAL view holding a hand.
:func:`~trixcomplex.from_json` runs :func:`check_view` on every view it
reads, and :func:`~trixcomplex.sample_world` runs :func:`check_view_ranges`
before it samples and checks the world it returns.

>>> import random
>>> import attrs
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(1)))
>>> check_view(tc.view(state, 2))
>>> try:
...     check_view(attrs.evolve(tc.view(state, 2), deal_number=0))
... except tc.TrixError as exc:
...     print(exc.code, "-", exc)
view.inconsistent - inconsistent view: deal_number 0 in phase CHOOSE (1..8 while playing)
"""

from __future__ import annotations

import random

from .engine import Phase
from .errors import TrixError
from .views import View

__all__ = ["check_view", "check_view_ranges"]

_PLAYING = (Phase.CHOOSE, Phase.DOUBLE, Phase.COMPLEX, Phase.TRICKS, Phase.TRIX)


def _fail(reason: str) -> TrixError:
    return TrixError(f"inconsistent view: {reason}", code="view.inconsistent")


def _seat_ok(value: object) -> bool:
    return type(value) is int and 0 <= value <= 3


def check_view_ranges(view: View) -> None:
    """Raise :class:`~trixcomplex.TrixError` (``view.inconsistent``) unless every seat
    number, deal number and hand size of ``view`` is in range for its phase and ruleset."""
    if view.seat is not None and not _seat_ok(view.seat):
        raise _fail(f"a seat is an int from 0 to 3 or None, not {view.seat!r:.40}")
    seats = [("owner", view.owner), ("turn", view.turn), ("leader", view.leader)]
    seats += [("redeals", s) for s in view.redeals]
    seats += [("finishing_order", s) for s in view.finishing_order]
    seats += [("laid", s) for s, _ in view.laid] + [("passes", s) for s, _ in view.passes]
    seats += [("doubled", s) for _, s in view.doubled]
    seats += [("tricks", t.leader) for t in view.tricks] + [
        ("tricks", t.taker) for t in view.tricks
    ]
    for name, seat in seats:
        if seat is not None and not _seat_ok(seat):
            raise _fail(f"{name} names seat {seat!r}, not 0..3")
    last = view.ruleset.deals_per_match
    if view.phase in _PLAYING:
        if not 1 <= view.deal_number <= last:
            raise _fail(
                f"deal_number {view.deal_number} in phase {view.phase.value} "
                f"(1..{last} while playing)"
            )
        if view.owner is None:
            raise _fail(f"no Kingdom owner in phase {view.phase.value}")
    elif view.phase is Phase.DEAL and not 0 <= view.deal_number < last:
        raise _fail(f"deal_number {view.deal_number} while waiting for a deal (0..{last - 1})")
    elif view.phase is Phase.OVER and view.deal_number != len(view.score.deals):
        raise _fail(
            f"deal_number {view.deal_number} in a finished match "
            f"(must be {len(view.score.deals)}, the deals played)"
        )
    if any(not 0 <= n <= 13 for n in view.hand_sizes):
        raise _fail(f"hand sizes {list(view.hand_sizes)} are not 0..13")
    if view.phase not in _PLAYING and (view.hand or any(view.hand_sizes)):
        raise _fail(f"cards in hand in phase {view.phase.value}")
    own = 0 if view.seat is None else view.hand_sizes[view.seat]
    if len(view.hand) != own:
        raise _fail(f"a hand of {len(view.hand)} cards, but its hand size is {own}")


def check_view(view: View) -> None:
    """Raise :class:`~trixcomplex.TrixError` (``view.inconsistent``) unless some state of
    the match shows exactly ``view`` to its seat.

    A world is sampled (:func:`~trixcomplex.sample_world`, which checks the
    ranges first with :func:`check_view_ranges`) and its view compared with
    ``view``: a view that passes is one a reachable deal could show.
    """
    from .worlds import sample_world  # worlds checks ranges with this module

    try:
        sample_world(view, random.Random(0))
    except TrixError:
        raise
    except Exception as exc:  # a made-up view may trip any check of the sampler
        raise _fail(f"no state shows this view ({type(exc).__name__})") from None
