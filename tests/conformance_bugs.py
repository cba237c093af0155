"""Deliberately broken engines for the conformance checker's tests: one planted bug per
rule family, each bending the reference engine at one point.

Run as a script (``python tests/conformance_bugs.py BUG``) it serves the broken
engine over the protocol, as a foreign engine would.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import trixcomplex as tc
from trixcomplex.conformance.engine import ReferenceEngine, serve

Answer = dict[str, Any]


class Broken(ReferenceEngine):
    """The reference engine with the bug ``name`` planted."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.bug: Callable[[Broken, Answer], Answer | None] = BUGS[name][1]

    def answer(self, request: Answer) -> Answer:
        bent = self.bug(self, request)
        return bent if bent is not None else super().answer(request)

    def plain(self, request: Answer) -> Answer:
        return super().answer(request)


def _playing_seat(engine: Broken, phases: tuple[tc.Phase, ...]) -> int | None:
    state = engine.state
    return state.turn if state.phase in phases else None


_TRICKS = (tc.Phase.COMPLEX, tc.Phase.TRICKS)


def _held_plays(engine: Broken, request: Answer, phases: tuple[tc.Phase, ...]) -> Answer | None:
    """Every held card is playable in ``phases``: listed, and accepted (left unplayed)."""
    seat = _playing_seat(engine, phases)
    if seat is None:
        return None
    if request["cmd"] == "legal_moves" and request["seat"] == seat:
        return {
            "ok": True,
            "moves": [tc.move_to_json(tc.Play(seat, c)) for c in engine.state.hand(seat)],
        }
    if request["cmd"] == "apply" and request["move"].get("move") == "play":
        move = tc.move_from_json(request["move"])
        held = move.seat == seat and move.card in engine.state.hand(seat)
        if held and not tc.is_legal(engine.state, move):
            return {"ok": True}
    return None


def follow_suit(engine: Broken, request: Answer) -> Answer | None:
    """R-CX-2: a seat may play any card, holding the led suit or not."""
    return _held_plays(engine, request, _TRICKS)


def trix_rows(engine: Broken, request: Answer) -> Answer | None:
    """R-TX-2: any held card may be laid in TRIX, whether it fits a row or not."""
    return _held_plays(engine, request, (tc.Phase.TRIX,))


def pass_rule(engine: Broken, request: Answer) -> Answer | None:
    """R-TX-3: a seat may pass in TRIX although it holds a card it could lay."""
    seat = _playing_seat(engine, (tc.Phase.TRIX,))
    passing = request["cmd"] == "apply" and request["move"] == {"move": "pass", "seat": seat}
    if seat is not None and passing and not tc.is_legal(engine.state, tc.Pass(seat)):
        return {"ok": True}  # accepted, and nothing changes
    return None


def trick_winner(engine: Broken, request: Answer) -> Answer | None:
    """R-CX-3: the leader takes every trick (shown so in the views)."""
    if request["cmd"] != "view":
        return None
    answer = engine.plain(request)
    for trick in [*answer["view"]["tricks"], answer["view"]["last_trick"]]:
        if trick is not None:
            trick["taker"] = trick["leader"]
    return answer


def _bend_deals(engine: Broken, request: Answer, bend: Callable[[Answer], None]) -> Answer | None:
    if request["cmd"] not in ("score", "view"):
        return None
    answer = engine.plain(request)
    score = answer["score"] if request["cmd"] == "score" else answer["view"]["score"]
    for deal in score["deals"]:
        bend(deal)
    return answer


def trick_charges(engine: Broken, request: Answer) -> Answer | None:
    """R-CX-5: an undoubled trick deal charges its heaviest loser 5 points less."""

    def bend(deal: Answer) -> None:
        if deal["contract"] != "TRIX" and not deal["doubled"]:
            points = deal["points"]
            points[points.index(min(points))] += 5

    return _bend_deals(engine, request, bend)


def doubling_cases(engine: Broken, request: Answer) -> Answer | None:
    """R-DBL-4: in a deal with a doubled card, seats 0 and 1 swap their points."""

    def bend(deal: Answer) -> None:
        if deal["doubled"]:
            p = deal["points"]
            p[0], p[1] = p[1], p[0]

    return _bend_deals(engine, request, bend)


_BACKWARDS = {200: 50, 150: 100, 100: 150, 50: 200}


def finishing_order(engine: Broken, request: Answer) -> Answer | None:
    """R-TX-4: the places are paid backwards, the first out getting the fourth's +50."""

    def bend(deal: Answer) -> None:
        if deal["contract"] == "TRIX":
            deal["points"] = [_BACKWARDS.get(p, p) for p in deal["points"]]

    return _bend_deals(engine, request, bend)


def owner_rotation(engine: Broken, request: Answer) -> Answer | None:
    """R-MATCH-4: ownership moves to the opposite seat, not the next one."""
    if request["cmd"] != "view":
        return None
    answer = engine.plain(request)
    shown = answer["view"]
    if shown["kingdom"] >= 2 and shown["owner"] is not None:
        shown["owner"] = (shown["owner"] + 2) % 4
    return answer


def choose_timeout(engine: Broken, request: Answer) -> Answer | None:
    """R-MATCH-6: a choosing timeout picks TRIX, not COMPLEX, where TRIX is left."""
    state = engine.state
    timeout = request["cmd"] == "apply" and request["move"] == {"move": "timeout"}
    if timeout and state.phase is tc.Phase.CHOOSE and state.owner is not None:
        trix = tc.Choose(state.owner, tc.Contract.TRIX)
        if tc.is_legal(state, trix):
            engine.state = tc.apply(state, trix)
            return {"ok": True}
    return None


def hidden_hands(engine: Broken, request: Answer) -> Answer | None:
    """R-HID-1: a seat's view shows its partner's hand among the known holdings."""
    if request["cmd"] != "view" or request["seat"] is None:
        return None
    answer = engine.plain(request)
    partner = tc.partner(request["seat"])
    held = [str(c) for c in engine.state.hand(partner)]
    answer["view"]["known_holdings"][partner] = held
    return answer


def first_lead(engine: Broken, request: Answer) -> Answer | None:
    """R-CX-1: the seat after the owner leads the first trick."""
    state = engine.state
    deal = state.trick_deal
    if deal is None or deal.tricks or deal.trick or state.turn != state.owner:
        return None
    wrong = tc.next_seat(state.turn)
    if request["cmd"] == "legal_moves":
        seat = request["seat"]
        cards = state.hand(wrong) if seat == wrong else ()
        return {"ok": True, "moves": [tc.move_to_json(tc.Play(seat, c)) for c in cards]}
    return None


def contract_choice(engine: Broken, request: Answer) -> Answer | None:
    """R-SET-2 (R-MATCH-5): the owner is offered every contract, those played too."""
    state = engine.state
    owner = state.owner
    asked = request["cmd"] == "legal_moves" and request["seat"] == owner
    if asked and state.phase is tc.Phase.CHOOSE and owner is not None:
        every = [tc.Choose(owner, c) for c in state.ruleset.contracts]
        return {"ok": True, "moves": [tc.move_to_json(m) for m in every]}
    return None


BUGS: dict[str, tuple[str, Callable[[Broken, Answer], Answer | None]]] = {
    "follow_suit": ("R-CX-2", follow_suit),
    "trick_winner": ("R-CX-3", trick_winner),
    "trick_charges": ("R-CX-5", trick_charges),
    "doubling_cases": ("R-DBL-4", doubling_cases),
    "trix_rows": ("R-TX-2", trix_rows),
    "pass_rule": ("R-TX-3", pass_rule),
    "finishing_order": ("R-TX-4", finishing_order),
    "owner_rotation": ("R-MATCH-4", owner_rotation),
    "choose_timeout": ("R-MATCH-6", choose_timeout),
    "hidden_hands": ("R-HID-1", hidden_hands),
    "first_lead": ("R-CX-1", first_lead),
    "contract_choice": ("R-SET-2", contract_choice),
}
"""Each planted bug: the clause the checker must name, and the bend."""


if __name__ == "__main__":
    serve(Broken(sys.argv[1]), sys.stdin, sys.stdout)
