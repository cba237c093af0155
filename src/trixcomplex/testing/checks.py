"""Invariant checks usable from any test: :func:`check_state` and :func:`check_view`.

Each raises :class:`AssertionError` naming the clause and what was wrong (not a
bare ``assert``, so ``python -O`` keeps them), and returns ``None`` otherwise.

>>> import random
>>> import attrs
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(1)))
>>> check_state(state)
>>> check_view(tc.view(state, 0))
>>> check_state(attrs.evolve(state, scores=(5, 0, 0, 0)))  # doctest: +ELLIPSIS
Traceback (most recent call last):
AssertionError: R-MATCH-7: the seats' scores (5, 0, 0, 0) are not the sum of the ...
"""

from __future__ import annotations

from ..core.engine import MatchState, Phase, legal_moves, score
from ..core.errors import TrixError
from ..core.moves import Redeal
from ..core.rules import kingdom_after, match_finished, team_totals
from ..knowledge.viewcheck import check_view as check_view_consistent
from ..knowledge.views import View

__all__ = ["check_state", "check_view"]

_PLAYING = (Phase.CHOOSE, Phase.DOUBLE, Phase.COMPLEX, Phase.TRICKS, Phase.TRIX)
_FULL = (1 << 52) - 1


def _fail(rule: str, message: str) -> AssertionError:
    return AssertionError(f"{rule}: {message}")


def _check_cards(state: MatchState) -> None:
    """R-CARD-1, R-MATCH-2: every card is in exactly one place while a deal is played."""
    if state.phase not in _PLAYING:
        if any(state.hands):
            raise _fail("R-MATCH-2", f"cards in hand in phase {state.phase.value}")
        return
    places = [(f"hand of seat {s}", h) for s, h in enumerate(state.hands)]
    if state.complex is not None:
        deal = state.complex
        places += [("the trick", sum(1 << c for c in deal.trick))]
        places += [
            (f"trick {i + 1}", sum(1 << c for c in t.cards)) for i, t in enumerate(deal.tricks)
        ]
    if state.trix is not None:
        places.append(("the TRIX table", state.trix.table))
    union = 0
    for name, mask in places:
        if union & mask:
            raise _fail("R-CARD-1", f"a card is in two places (again in {name})")
        union |= mask
    if union != _FULL:
        missing = bin(_FULL & ~union).count("1")
        raise _fail("R-CARD-1", f"{missing} card(s) are nowhere in phase {state.phase.value}")


def _check_sums(state: MatchState) -> None:
    """R-MATCH-7, R-SUM-1: scores are the deals' sums; each finished Kingdom sums to zero."""
    totals = tuple(sum(r.points[s] for r in state.results) for s in range(4))
    if state.scores != totals:
        raise _fail(
            "R-MATCH-7",
            f"the seats' scores {state.scores} are not the sum of the finished deals' "
            f"points {totals}",
        )
    current = kingdom_after(state.results, state.ruleset)[0]
    kingdoms: dict[int, int] = {}
    for result in state.results:
        kingdoms[result.kingdom] = kingdoms.get(result.kingdom, 0) + sum(result.points)
    for kingdom, total in sorted(kingdoms.items()):
        if kingdom < current and total != 0:
            raise _fail("R-SUM-1", f"Kingdom {kingdom} sums to {total}, not 0")
    if score(state).teams != team_totals(state.scores):
        raise _fail("R-MATCH-7", "the Team Totals are not the seats' scores added up")


def _check_owners(state: MatchState) -> None:
    """R-MATCH-4: one owner per Kingdom, the deals numbered in order."""
    owners: dict[int, int] = {}
    for number, result in enumerate(state.results, 1):
        if result.number != number:
            raise _fail("R-MATCH-1", f"deal {number} is numbered {result.number}")
        if owners.setdefault(result.kingdom, result.owner) != result.owner:
            raise _fail("R-MATCH-4", f"Kingdom {result.kingdom} has two owners")
    if state.phase in _PLAYING:
        kingdom = kingdom_after(state.results, state.ruleset)[0]
        if state.owner is None or owners.get(kingdom, state.owner) != state.owner:
            raise _fail("R-MATCH-4", f"the owner {state.owner} is not Kingdom {kingdom}'s")


def _check_turn(state: MatchState) -> None:
    """R-SEAT-2, R-MATCH-1, R-MATCH-8: the phase follows the deals played; a seat is to
    act exactly when it has a legal move, and every move it is offered is its own."""
    playing = state.phase in _PLAYING
    redealt = isinstance(state.history.last, Redeal)  # R-OPT-8: the same deal, dealt again
    expected = len(state.results) + (1 if playing or redealt else 0)
    if state.deal_number != expected:
        raise _fail(
            "R-MATCH-1",
            f"deal_number {state.deal_number} in phase {state.phase.value} after "
            f"{len(state.results)} finished deals (expected {expected})",
        )
    if (state.phase is Phase.OVER) != match_finished(state.results, state.ruleset):
        raise _fail("R-MATCH-8", f"phase {state.phase.value} after {len(state.results)} deals")
    if playing and (state.contract is None) != (state.phase is Phase.CHOOSE):
        raise _fail("R-MATCH-5", f"contract {state.contract} in phase {state.phase.value}")
    for seat in range(4):
        moves = legal_moves(state, seat)
        if (seat in state.to_act) != bool(moves):
            raise _fail(
                "R-SEAT-2",
                f"seat {seat} is {'' if seat in state.to_act else 'not '}to act but has "
                f"{len(moves)} legal moves",
            )
        if any(m.seat != seat for m in moves):
            raise _fail("R-SEAT-1", f"seat {seat} is offered another seat's move")
    if playing and not state.to_act:
        raise _fail("R-SEAT-2", f"nobody is to act in phase {state.phase.value}")


def check_state(state: MatchState) -> None:
    """Raise :class:`AssertionError` unless ``state`` keeps the game's invariants.

    - R-CARD-1: while a deal is played every card is in exactly one place (a hand,
      the trick, a finished trick, the TRIX table); no card is held between deals;
    - R-MATCH-7, R-SUM-1: the seats' scores are the finished deals' points added up,
      the Team Totals theirs, and every finished Kingdom sums to zero;
    - R-MATCH-1, R-MATCH-4: deals are numbered in order, a Kingdom has one owner;
    - R-MATCH-5, R-MATCH-8, R-SEAT-2: the phase agrees with the deals played and the
      contract; while a deal is played someone is to act, and a seat is to act
      exactly when it has legal moves, all of them its own.
    """
    _check_cards(state)
    _check_sums(state)
    _check_owners(state)
    _check_turn(state)


def check_view(view: View) -> None:
    """Raise :class:`AssertionError` unless ``view`` is one a seat could be shown.

    First the plain faults, each named: R-HID-1, a spectator holding a hand or
    offered a move, a seat offered another seat's move or a card it does not
    hold; R-TX-5, a forced move that is not a legal move; R-MATCH-7, Team Totals
    that are not the seats' scores added up.  Then consistency: some state of
    the match shows exactly this view (:func:`trixcomplex.knowledge.viewcheck.check_view`,
    which samples one).
    """
    if view.seat is None and (view.hand or view.legal_moves or view.my_answer is not None):
        raise _fail("R-HID-1", "a spectator's view holds a hand, a move or an answer")
    held = set(view.hand)
    for move in view.legal_moves:
        if move.seat != view.seat:
            raise _fail("R-HID-1", f"seat {view.seat} is offered {move}")
        card = getattr(move, "card", None)
        if card is not None and card not in held:
            raise _fail("R-HID-1", f"seat {view.seat} is offered a card it does not hold: {move}")
    if view.forced_move is not None and view.forced_move not in view.legal_moves:
        raise _fail("R-TX-5", f"the forced move {view.forced_move} is not a legal move")
    if view.score.teams != team_totals(view.score.seats):
        raise _fail("R-MATCH-7", "the view's Team Totals are not its seats' scores added up")
    try:
        check_view_consistent(view)
    except TrixError as exc:
        raise _fail("R-HID-1", str(exc)) from None
