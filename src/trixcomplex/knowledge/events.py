"""Events: what one seat (or a spectator) may be told about a move, as JSON.

A frontend animates a move from a list of small JSON objects, each with a
``"type"``: ``"seat 2 played Q♠"``, ``"trick 5 taken by seat 1 for −40"``,
``"doubles revealed: K♥ by seat 3"``, ``"seat 0 is out, 2nd"``, ``"deal
over"``, ``"match over"``.  :func:`events` builds them from the viewer's
:func:`~trixcomplex.view` before and after the move and from the move itself
where the viewer may see it, so they never tell more than the views do: a
:class:`~trixcomplex.Deal`'s deck is never shown, a
:class:`~trixcomplex.Double` only to its own seat, and who was asked or
answered stays secret until the window closes (R-HID-1, R-HID-2, R-HID-3).

>>> import random
>>> import trixcomplex as tc
>>> before = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
>>> move = tc.Choose(before.owner, tc.Contract.TRIX)
>>> after = tc.apply(before, move)
>>> tc.events(before, move, after, None)
[{'type': 'contract', 'contract': 'TRIX', 'owner': 3, 'timeout': False}]
>>> move = tc.legal_moves(after)[0]
>>> tc.events(after, move, tc.apply(after, move), 0)
[{'type': 'play', 'seat': 3, 'card': 'JS'}]

The event types and their keys:

- ``deal``: ``deal_number``, ``kingdom``, ``owner``, ``hand`` (the viewer's new
  cards; ``[]`` for a spectator).
- ``contract``: ``contract``, ``owner``, ``timeout`` (whether the owner's clock
  chose it, R-MATCH-6).
- ``doubling_open``: ``doublable`` (the viewer's own doublable cards, if asked).
- ``double``: ``seat``, ``cards`` — the viewer's own answer, to itself only.
- ``timeout``: the doubling window's clock ran out (R-DBL-3).
- ``doubles_revealed``: ``doubled``, a list of ``{"card", "seat"}`` (R-DBL-3).
- ``play``: ``seat``, ``card``; ``pass``: ``seat``; ``redeal``: ``seat`` (R-OPT-8).
- ``trick``: ``number`` (1–13), ``leader``, ``cards`` (in play order),
  ``taker``, ``points`` (the four seats' points it charged).
- ``out``: ``seat``, ``place`` (1–4): a seat emptied its hand in TRIX.
- ``deal_over``: ``deal_number``, ``contract``, ``owner``, ``points``.
- ``match_over``: ``seats``, ``teams``, ``result``, ``winners``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.cards import Card
from ..core.engine import MatchState, Phase
from ..core.errors import TrixError
from ..core.moves import Choose, Deal, Double, Move, Pass, Play, Redeal, Timeout
from ..core.rules import trick_winner
from .views import View, view

__all__ = ["EVENT_TYPES", "events"]

EVENT_TYPES = (
    "deal",
    "contract",
    "doubling_open",
    "double",
    "timeout",
    "doubles_revealed",
    "play",
    "pass",
    "redeal",
    "trick",
    "out",
    "deal_over",
    "match_over",
)
"""Every event ``type``, in the order events of one move are listed."""


def events(
    before: MatchState, move: Move, after: MatchState, viewer: int | None
) -> list[dict[str, Any]]:
    """The events of ``move`` (which led from ``before`` to ``after``) that ``viewer`` may see.

    ``viewer`` is a seat 0–3 or ``None`` for a spectator.  A pure function;
    the result is JSON-ready (strings, ints, lists, dicts, ``None``).  Two
    worlds a viewer cannot tell apart give it the same events.  ``after``
    must be ``apply(before, move)``: a pair whose histories do not differ by
    exactly ``move`` raises :class:`~trixcomplex.TrixError`.
    """
    if len(after.history) != len(before.history) + 1 or after.history.last != move:
        raise TrixError("events: after is not the state before with the move applied")
    seen_before, seen_after = view(before, viewer), view(after, viewer)
    finished = len(seen_after.score.deals) > len(seen_before.score.deals)
    out: list[dict[str, Any]] = list(_move_events(seen_before, move, seen_after, viewer, finished))
    if seen_after.doubling_open and not seen_before.doubling_open:
        out.append({"type": "doubling_open", "doublable": _codes(seen_after.doublable)})
    if seen_before.doubling_open and not seen_after.doubling_open:
        doubled = [{"card": str(c), "seat": s} for c, s in seen_after.doubled]
        out.append({"type": "doubles_revealed", "doubled": doubled})
    if isinstance(move, Play):
        out += _trick_and_out_events(seen_before, move, seen_after, finished)
    if finished:
        result = seen_after.score.deals[-1]
        out.append(
            {
                "type": "deal_over",
                "deal_number": result.number,
                "contract": result.contract.value,
                "owner": result.owner,
                "points": list(result.points),
            }
        )
    if seen_after.phase is Phase.OVER and seen_before.phase is not Phase.OVER:
        score = seen_after.score
        out.append(
            {
                "type": "match_over",
                "seats": list(score.seats),
                "teams": list(score.teams),
                "result": None if score.result is None else score.result.value,
                "winners": list(score.winners),
            }
        )
    return out


def _move_events(
    seen_before: View, move: Move, seen_after: View, viewer: int | None, finished: bool
) -> list[dict[str, Any]]:
    """The move itself, as far as ``viewer`` may see it."""
    if isinstance(move, Deal):  # the deck is never shown, only the viewer's own hand
        dealt: list[dict[str, Any]] = [
            {
                "type": "deal",
                "deal_number": seen_after.deal_number,
                "kingdom": seen_after.kingdom,
                "owner": seen_after.owner,
                "hand": _codes(seen_after.hand),
            }
        ]
        if seen_after.contract is not None:  # a contract not chosen (fixed order, R-OPT-5)
            dealt.append(_contract(seen_after, timeout=False))
        return dealt
    if isinstance(move, Choose):
        return [_contract(seen_after, timeout=False)]
    if isinstance(move, Timeout):
        if seen_before.phase is Phase.CHOOSE:
            return [_contract(seen_after, timeout=True)]
        return [{"type": "timeout"}]
    if isinstance(move, Double):  # secret: only its own seat hears of it (R-HID-2)
        if viewer != move.seat:
            return []
        return [{"type": "double", "seat": move.seat, "cards": _codes(sorted(move.cards))}]
    if isinstance(move, Play):
        return [{"type": "play", "seat": move.seat, "card": str(move.card)}]
    if isinstance(move, Pass):
        return [{"type": "pass", "seat": move.seat}]
    assert isinstance(move, Redeal)
    return [{"type": "redeal", "seat": move.seat}]


def _contract(seen: View, *, timeout: bool) -> dict[str, Any]:
    contract = None if seen.contract is None else seen.contract.value
    return {"type": "contract", "contract": contract, "owner": seen.owner, "timeout": timeout}


def _trick_and_out_events(
    seen_before: View, move: Play, seen_after: View, finished: bool
) -> list[dict[str, Any]]:
    """A trick completed by ``move``, or the seats a TRIX play put out."""
    out: list[dict[str, Any]] = []
    charged = seen_after.score.deals[-1].points if finished else seen_after.points
    if seen_before.phase.plays_tricks and len(seen_before.trick) == 3:
        assert seen_before.leader is not None
        cards = (*seen_before.trick, move.card)
        out.append(
            {
                "type": "trick",
                "number": len(seen_before.tricks) + 1,
                "leader": seen_before.leader,
                "cards": _codes(cards),
                "taker": trick_winner(seen_before.leader, cards),
                "points": [a - b for a, b in zip(charged, seen_before.points, strict=True)],
            }
        )
    if seen_before.phase is Phase.TRIX:
        order = (
            seen_after.score.deals[-1].finishing_order if finished else seen_after.finishing_order
        )
        for place in range(len(seen_before.finishing_order), len(order)):
            out.append({"type": "out", "seat": order[place], "place": place + 1})
    return out


def _codes(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]
