"""Moves as integers: a fixed action space for game-AI frameworks.

Every player move of every ruleset (:data:`~trixcomplex.PlayerMove`) has one
action id in ``range(NUM_ACTIONS)``; the seat is not part of the id (it is
the seat asked).  The table is fixed and versioned by
:data:`ACTION_SPACE_VERSION`: a change of it bumps the version.

====================  ======================================================
ids                   move
====================  ======================================================
0–51                  :class:`~trixcomplex.Play` of the card with that index
                      (``suit * 13 + rank - 2``: 2♠ is 0, A♣ is 51; R-CARD-1)
52                    :class:`~trixcomplex.Pass` (TRIX, R-TX-3)
53                    :class:`~trixcomplex.Redeal` (R-OPT-8)
54–59                 :class:`~trixcomplex.Choose` a contract, in the order
                      of :data:`CONTRACTS`: COMPLEX, TRIX, KING_OF_HEARTS,
                      QUEENS, DIAMONDS, LTOOSH (R-MATCH-5, R-SET-2)
60–91                 :class:`~trixcomplex.Double`: ``60 + bits``, where bit
                      ``i`` of ``bits`` is set when :data:`DOUBLABLE_CARDS`\\
                      ``[i]`` is doubled (Q♠, Q♥, K♥, Q♦, Q♣); 60 is the
                      answer "nothing" (R-DBL-1, R-DBL-2)
92–102                :class:`~trixcomplex.Choose` a combined contract
                      (R-OPT-9), in the order of :data:`COMBINED`: the six
                      pairs, the four triples, then all four trick contracts
====================  ======================================================

A doubling answer is a set of cards, and only K♥ and the four Queens can
ever be doubled (R-DBL-1; R-CL-7 narrows them to K♥ or the Queens), so the
32 subsets of those five cards cover every answer of every ruleset: a seat
asked about ``k`` cards has ``2**k`` legal answers, all among these 32.

>>> import trixcomplex as tc
>>> move_to_action(tc.Play(0, "AS")), move_to_action(tc.Pass(3))
(12, 52)
>>> move_to_action(tc.Double(1, ["KH", "QS"]))
65
>>> import random
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
>>> legal_actions(state, state.owner)
(54, 55)
>>> action_to_move(state, state.owner, 55) == tc.Choose(state.owner, tc.Contract.TRIX)
True
>>> sum(action_mask(state, state.owner))
2
"""

from __future__ import annotations

from ..core.cards import ALL_CARDS, Card, Rank, Suit
from ..core.engine import MatchState, legal_moves
from ..core.errors import IllegalMoveError
from ..core.moves import COMBINATIONS, Choose, Contract, Double, Pass, Play, PlayerMove, Redeal
from ..core.seats import check_seat
from ..knowledge.views import View

__all__ = [
    "ACTION_SPACE_VERSION",
    "CHOOSE_BASE",
    "COMBINED",
    "COMBINED_BASE",
    "CONTRACTS",
    "DOUBLABLE_CARDS",
    "DOUBLE_BASE",
    "NOTHING_DOUBLED",
    "NUM_ACTIONS",
    "PASS",
    "REDEAL",
    "ActionError",
    "action_mask",
    "action_name",
    "action_to_move",
    "legal_actions",
    "move_to_action",
]

ACTION_SPACE_VERSION = 2
"""The version of the action table; bumped whenever an id changes meaning or ids are
added (2: the combined contracts of R-OPT-9, ids 92–102; ids 0–91 as in version 1)."""

PASS = 52
"""The action id of :class:`~trixcomplex.Pass`."""
REDEAL = 53
"""The action id of :class:`~trixcomplex.Redeal`."""
CHOOSE_BASE = 54
"""The first :class:`~trixcomplex.Choose` id: ``CHOOSE_BASE + CONTRACTS.index(contract)``."""
CONTRACTS: tuple[Contract, ...] = (
    Contract.COMPLEX,
    Contract.TRIX,
    Contract.KING_OF_HEARTS,
    Contract.QUEENS,
    Contract.DIAMONDS,
    Contract.LTOOSH,
)
"""The contracts in action order (fixed: not the enum's order, which may grow)."""
DOUBLE_BASE = CHOOSE_BASE + len(CONTRACTS)
"""The first :class:`~trixcomplex.Double` id (doubling nothing)."""
NOTHING_DOUBLED = DOUBLE_BASE
"""The action id of a :class:`~trixcomplex.Double` of no card."""
DOUBLABLE_CARDS: tuple[Card, ...] = (
    Card.of(Rank.QUEEN, Suit.SPADES),
    Card.of(Rank.QUEEN, Suit.HEARTS),
    Card.of(Rank.KING, Suit.HEARTS),
    Card.of(Rank.QUEEN, Suit.DIAMONDS),
    Card.of(Rank.QUEEN, Suit.CLUBS),
)
"""The cards any ruleset lets a seat double (R-DBL-1), by card index: bit ``i`` of a
doubling action is card ``i`` of this tuple."""
COMBINED_BASE = DOUBLE_BASE + (1 << len(DOUBLABLE_CARDS))
"""The first id of a combined :class:`~trixcomplex.Choose` (R-OPT-9): 92."""
COMBINED: tuple[Contract, ...] = COMBINATIONS
"""The combined contracts in action order (R-OPT-9): ``COMBINED_BASE + COMBINED.index(c)``."""
NUM_ACTIONS = COMBINED_BASE + len(COMBINED)
"""The number of action ids: 103."""

_BIT_OF = {card: 1 << i for i, card in enumerate(DOUBLABLE_CARDS)}
_CHOOSE_OF = {contract: CHOOSE_BASE + i for i, contract in enumerate(CONTRACTS)}
_CHOOSE_OF.update({contract: COMBINED_BASE + i for i, contract in enumerate(COMBINED)})


class ActionError(IllegalMoveError):
    """An action id that is out of range, or not a legal move of the seat now.

    ``move`` is the action id, ``rule`` the rules clause (``"R-SEAT-1"``
    for a seat that may not make that move now).
    """


def move_to_action(move: PlayerMove) -> int:
    """The action id of a player move (its seat is not part of the id).

    Raises ``ValueError`` for a move that is not a player move (a
    :class:`~trixcomplex.Deal` or :class:`~trixcomplex.Timeout`) and for a
    :class:`~trixcomplex.Double` of a card that can never be doubled (R-DBL-1).
    """
    kind = type(move)
    if kind is Play:
        return int(move.card)  # type: ignore[union-attr]
    if kind is Pass:
        return PASS
    if kind is Double:
        bits = 0
        for card in move.cards:  # type: ignore[union-attr]
            if card not in _BIT_OF:
                raise ActionError(move, f"{card} can never be doubled", "R-DBL-1")
            bits |= _BIT_OF[card]
        return DOUBLE_BASE + bits
    if kind is Choose:
        return _CHOOSE_OF[move.contract]  # type: ignore[union-attr]
    if kind is Redeal:
        return REDEAL
    raise ValueError(f"{move!r} is not a player move, so it has no action id")


def _move_of(seat: int, action: int) -> PlayerMove:
    """The move ``action`` means for ``seat`` (legal or not)."""
    if action < PASS:
        return Play(seat, ALL_CARDS[action])
    if action == PASS:
        return Pass(seat)
    if action == REDEAL:
        return Redeal(seat)
    if action < DOUBLE_BASE:
        return Choose(seat, CONTRACTS[action - CHOOSE_BASE])
    if action >= COMBINED_BASE:
        return Choose(seat, COMBINED[action - COMBINED_BASE])
    bits = action - DOUBLE_BASE
    return Double(seat, [c for i, c in enumerate(DOUBLABLE_CARDS) if bits >> i & 1])


def _moves(state_or_view: MatchState | View, seat: int) -> tuple[PlayerMove, ...]:
    check_seat(seat)
    if isinstance(state_or_view, View):
        if state_or_view.seat != seat:
            raise ValueError(
                f"the view is seat {state_or_view.seat}'s: it shows no legal move of seat {seat}"
            )
        return state_or_view.legal_moves
    return legal_moves(state_or_view, seat)


def action_name(action: int) -> str:
    """A short name of an action id: ``"play AS"``, ``"pass"``, ``"choose TRIX"``,
    ``"double KH QS"``, ``"double nothing"``.

    >>> action_name(12), action_name(NOTHING_DOUBLED), action_name(DOUBLE_BASE + 0b110)
    ('play AS', 'double nothing', 'double QH KH')
    """
    _check_range(action)
    move = _move_of(0, action)
    if isinstance(move, Play):
        return f"play {move.card}"
    if isinstance(move, Choose):
        return f"choose {move.contract.value}"  # a combination: "choose QUEENS+DIAMONDS"
    if isinstance(move, Double):
        return "double " + (" ".join(str(c) for c in sorted(move.cards)) or "nothing")
    return "pass" if isinstance(move, Pass) else "redeal"


def _check_range(action: int) -> None:
    if type(action) is not int and not hasattr(action, "__index__"):
        raise ActionError(action, f"an action is an int, not {type(action).__name__}", "R-SEAT-1")
    if not 0 <= action < NUM_ACTIONS:
        raise ActionError(action, f"an action id is 0..{NUM_ACTIONS - 1}", "R-SEAT-1")


def action_to_move(state_or_view: MatchState | View, seat: int, action: int) -> PlayerMove:
    """The legal move of ``seat`` that ``action`` stands for, in a state or in the
    seat's own view.

    Raises :class:`ActionError` (an :class:`~trixcomplex.IllegalMoveError`)
    if the id is out of range or not one of the seat's legal moves now.
    """
    _check_range(action)
    action = int(action)
    moves = _moves(state_or_view, seat)
    move = _move_of(seat, action)
    if move not in moves:
        raise ActionError(
            action,
            f"{action_name(action)} is not a legal move of seat {seat} now "
            f"(legal: {', '.join(str(a) for a in _actions_of(moves)) or 'none'})",
            "R-SEAT-1",
        )
    return move


_CARD_IDS = tuple(range(52))
"""A card's action id, a plain ``int`` (a :class:`~trixcomplex.Card` is an ``int`` subclass)."""


def _actions_of(moves: tuple[PlayerMove, ...]) -> tuple[int, ...]:
    # A Play's id is its card as a plain int (move_to_action's first case), looked up
    # without the call: the RL adapters list the actions at every step, and a listing
    # measured 20-30% faster so (the vector environment, issue 44).
    return tuple(sorted([_CARD_IDS[m.card] if type(m) is Play else move_to_action(m)
                         for m in moves]))  # fmt: skip


def legal_actions(state_or_view: MatchState | View, seat: int) -> tuple[int, ...]:
    """The action ids of ``seat``'s legal moves now, ascending (``()`` if it has none).

    ``state_or_view`` is a state or ``seat``'s own view (a view of another
    seat raises ``ValueError``).
    """
    return _actions_of(_moves(state_or_view, seat))


def action_mask(state_or_view: MatchState | View, seat: int) -> tuple[bool, ...]:
    """``NUM_ACTIONS`` booleans: whether each action id is legal for ``seat`` now."""
    mask = [False] * NUM_ACTIONS
    for action in legal_actions(state_or_view, seat):
        mask[action] = True
    return tuple(mask)
