"""Is a view's every number in range: :func:`check_view_ranges`, and the error of a view
that no state shows, :func:`inconsistent`.

The cheap first check of a view that came from outside (a client, a file):
its seat numbers, deal number and hand sizes.  :func:`~trixcomplex.sample_world`
runs it before it samples; :func:`trixcomplex.knowledge.viewcheck.check_view` runs it
first, then checks the score history and samples a world (so it sits above
the sampler, and this module below both).

>>> import random
>>> import attrs
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(1)))
>>> check_view_ranges(tc.view(state, 2))
>>> try:
...     check_view_ranges(attrs.evolve(tc.view(state, 2), hand_sizes=(13, 13, 14, 13)))
... except tc.TrixError as exc:
...     print(exc.code, "-", exc)
view.inconsistent - inconsistent view: hand sizes [13, 13, 14, 13] are not 0..13
"""

from __future__ import annotations

from ..core.engine import Phase
from ..core.errors import TrixError
from .seat_view import View

__all__ = ["check_view_ranges", "inconsistent"]

_PLAYING = (Phase.CHOOSE, Phase.DOUBLE, Phase.COMPLEX, Phase.TRICKS, Phase.TRIX)


def inconsistent(reason: str, rule: str | None = None) -> TrixError:
    """The error of a view no state of a match shows (code ``view.inconsistent``, a
    ``ValueError``): ``reason`` in one line, and the clause it breaks if there is one.

    >>> str(inconsistent("deal_number 9", "R-MATCH-1"))
    'inconsistent view: deal_number 9 (R-MATCH-1)'
    """
    suffix = f" ({rule})" if rule is not None else ""
    return TrixError(f"inconsistent view: {reason}{suffix}", code="view.inconsistent", rule=rule)


def _seat_ok(value: object) -> bool:
    return type(value) is int and 0 <= value <= 3


def check_view_ranges(view: View) -> None:
    """Raise :class:`~trixcomplex.TrixError` (``view.inconsistent``) unless every seat
    number, deal number and hand size of ``view`` is in range for its phase and ruleset."""
    if view.seat is not None and not _seat_ok(view.seat):
        raise inconsistent(f"a seat is an int from 0 to 3 or None, not {view.seat!r:.40}")
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
            raise inconsistent(f"{name} names seat {seat!r}, not 0..3")
    last = view.ruleset.deals_per_match
    if view.phase in _PLAYING:
        if not 1 <= view.deal_number <= last:
            raise inconsistent(
                f"deal_number {view.deal_number} in phase {view.phase.value} "
                f"(1..{last} while playing)"
            )
        if view.owner is None:
            raise inconsistent(f"no Kingdom owner in phase {view.phase.value}")
    elif view.phase is Phase.DEAL and not 0 <= view.deal_number < last + bool(view.redeals):
        # waiting for the next deal, or for the same deal again after a redeal (R-OPT-8)
        most = last if view.redeals else last - 1
        raise inconsistent(f"deal_number {view.deal_number} while waiting for a deal (0..{most})")
    elif view.phase is Phase.OVER and view.deal_number != len(view.score.deals):
        raise inconsistent(
            f"deal_number {view.deal_number} in a finished match "
            f"(must be {len(view.score.deals)}, the deals played)"
        )
    if any(not 0 <= n <= 13 for n in view.hand_sizes):
        raise inconsistent(f"hand sizes {list(view.hand_sizes)} are not 0..13")
    if view.phase not in _PLAYING and (view.hand or any(view.hand_sizes)):
        raise inconsistent(f"cards in hand in phase {view.phase.value}")
    own = 0 if view.seat is None else view.hand_sizes[view.seat]
    if len(view.hand) != own:
        raise inconsistent(f"a hand of {len(view.hand)} cards, but its hand size is {own}")
