"""Shared test helpers: hand-built deals and random matches."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import trixcomplex as tc
from trixcomplex.cards import ALL_CARDS, parse_card
from trixcomplex.scoring import DOUBLABLE


def deal_of(hands: Sequence[Iterable[str]]) -> tc.Deal:
    """The Deal giving each seat the cards named (13 each, codes like ``"KH"``).

    Seats may be given fewer than 13 cards: the rest of the deck is handed out
    in index order to fill them up.
    """
    named = [[parse_card(c) for c in hand] for hand in hands]
    while len(named) < 4:
        named.append([])
    used = {c for hand in named for c in hand}
    if len(used) != sum(len(h) for h in named):
        raise ValueError("a card is named twice")
    rest = [c for c in ALL_CARDS if c not in used]
    for hand in named:
        if len(hand) > 13:
            raise ValueError("a hand holds at most 13 cards")
        while len(hand) < 13:
            hand.append(rest.pop(0))
    deck = [named[i % 4][i // 4] for i in range(52)]
    return tc.Deal(deck)


def play(state: tc.MatchState, *moves: tc.Move) -> tc.MatchState:
    """Apply ``moves`` in order."""
    for move in moves:
        state = tc.apply(state, move)
    return state


def random_match(seed: int, *, until: int | None = None) -> list[tc.MatchState]:
    """Every state of a random match (uniform legal moves, timeouts now and then).

    With ``until``, stop after that many moves.
    """
    rng = random.Random(seed)
    state = tc.new_match()
    states = [state]
    while state.phase is not tc.Phase.OVER and (until is None or len(states) <= until):
        if state.phase is tc.Phase.DEAL:
            move: tc.Move = tc.Deal.shuffled(rng)
        elif state.phase in (tc.Phase.CHOOSE, tc.Phase.DOUBLE) and rng.random() < 0.15:
            move = tc.Timeout()
        else:
            move = rng.choice(tc.legal_moves(state))
        state = tc.apply(state, move)
        states.append(state)
    return states


def hands_deal(*hands: str) -> tc.Deal:
    """The Deal giving seat ``s`` exactly the 13 cards of ``hands[s]`` (space-separated codes).

    Unlike :func:`deal_of` nothing is filled in, so a test shows every card.
    """
    named = [h.split() for h in hands]
    if len(named) != 4 or any(len(h) != 13 for h in named):
        raise ValueError("hands_deal needs four hands of exactly 13 cards")
    return deal_of(named)


def first_legal(state: tc.MatchState) -> tc.PlayerMove:
    """A deterministic policy: the first move ``legal_moves`` lists."""
    return tc.legal_moves(state)[0]


def finish_deal(state: tc.MatchState) -> tc.MatchState:
    """Play the deal in progress to its end with :func:`first_legal`."""
    while state.phase in (tc.Phase.CHOOSE, tc.Phase.DOUBLE, tc.Phase.COMPLEX, tc.Phase.TRIX):
        state = tc.apply(state, first_legal(state))
    return state


def start_complex(
    deal: tc.Deal, doubles: dict[int, str] | None = None, state: tc.MatchState | None = None
) -> tc.MatchState:
    """Deal ``deal`` (into ``state``, default a new match), choose COMPLEX and double.

    ``doubles`` maps a seat to the codes it doubles; every other asked seat
    answers "nothing", so the window closes and the owner is to lead.
    """
    doubles = doubles or {}
    state = tc.apply(state or tc.new_match(), deal)
    if state.phase is tc.Phase.CHOOSE:
        assert state.owner is not None
        state = tc.apply(state, tc.Choose(state.owner, tc.Contract.COMPLEX))
    assert state.window is not None
    for seat in sorted(state.window.waiting()):
        state = tc.apply(state, tc.Double(seat, doubles.get(seat, "").split()))
    assert state.phase is tc.Phase.COMPLEX
    return state


def plays(state: tc.MatchState, codes: str) -> tc.MatchState:
    """Play the cards ``codes`` (space-separated), each by the seat whose turn it is."""
    for code in codes.split():
        assert state.turn is not None
        state = tc.apply(state, tc.Play(state.turn, code))
    return state


# -- hand-built deals shared by the rule tests ---------------------------------

# Seat 0 holds 7H, so it owns Kingdom 1 and leads. Seat 2 holds all 13 diamonds.
HEARTS_DEAL = hands_deal(
    "5H 7H 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
    "KH KS AS 2C 3C 4C 5C 6C 7C 8C 9C TC JC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2H 3H 4H 6H 8H 9H TH JH QH AH QC KC AC",
)
# Seat 0 owns (7H) and holds QS; seat 2 holds no K♥ and no Queen.
SPADES_DEAL = hands_deal(
    "QS 2S 7H 2C 3C 4C 5C 6C 7C 8C 9C TC JC",
    "3S 4S 5S 2H 3H 4H 5H 6H 8H 9H TH JH QH",
    "KS 6S 7S 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
    "AS 8S 9S TS JS KH AH QD KD AD QC KC AC",
)
# Seat 1 is void in spades and holds Q♦ as its only diamond.
QUEEN_OF_DIAMONDS_DEAL = hands_deal(
    "2S 3S 7H 2C 3C 4C 5C 6C 7C 8C 9C TC JC",
    "QD 2H 3H 4H 5H 6H 8H 9H TH JH QH KH AH",
    "4S 5S 6S 7S 8S 9S TS JS QS KS AS 2D 3D",
    "4D 5D 6D 7D 8D 9D TD JD KD AD QC KC AC",
)
# The unshuffled deck: seat s gets every card whose index is s mod 4; 7H goes to seat 2.
ORDERED_DEAL = tc.Deal(ALL_CARDS)


# Each seat holds one whole suit; seat 1 (hearts, 7H) owns Kingdom 1.
SUITS_DEAL = hands_deal(
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
)


# -- invariants shared by the property tests ----------------------------------


def assert_cards_in_one_place(state: tc.MatchState) -> None:
    """Every card is in exactly one place: hands, trick, finished tricks or the TRIX table."""
    places = list(state.hands)
    if state.phase is tc.Phase.COMPLEX:
        assert state.complex is not None
        places += [1 << c for c in state.complex.trick]
        places += [1 << c for t in state.complex.tricks for c in t.cards]
    elif state.phase is tc.Phase.TRIX:
        assert state.trix is not None
        places.append(state.trix.table)
    elif state.phase in (tc.Phase.DEAL, tc.Phase.OVER):
        assert places == [0, 0, 0, 0]
        assert state.complex is None and state.trix is None
        return
    union = 0
    for mask in places:
        assert not union & mask, "a card is in two places"
        union |= mask
    assert union == (1 << 52) - 1, "a card is missing"


def assert_to_act_matches_legal_moves(state: tc.MatchState) -> None:
    """A seat is to act exactly when it has a legal move; every listed move is its own."""
    for seat in range(4):
        moves = tc.legal_moves(state, seat)
        assert (seat in state.to_act) == bool(moves)
        assert all(m.seat == seat for m in moves)
    assert set(tc.legal_moves(state)) == {m for s in range(4) for m in tc.legal_moves(state, s)}


def all_candidate_moves(state: tc.MatchState, deal: tc.Deal) -> list[tc.Move]:
    """Every move of every kind a test could try now: all plays, passes, chooses,
    the Doubles of every seat's doublable cards (and one foreign card), a timeout, a deal."""
    moves: list[tc.Move] = [tc.Timeout(), deal]
    for seat in range(4):
        moves += [tc.Play(seat, card) for card in ALL_CARDS]
        moves += [tc.Pass(seat), tc.Choose(seat, "COMPLEX"), tc.Choose(seat, "TRIX")]
        mine = state.hands[seat] & DOUBLABLE
        moves.append(tc.Double(seat, []))
        moves += [tc.Double(seat, [c]) for c in ALL_CARDS if (1 << c) & mine]
        moves.append(tc.Double(seat, ["KH", "QS", "QH", "QD", "QC"]))
        moves.append(tc.Double(seat, ["AS"]))
    return moves


def is_listed(state: tc.MatchState, move: tc.Move) -> bool:
    """Whether ``move`` is legal by the lists: ``legal_moves``, or a host move in its phase."""
    if isinstance(move, tc.Deal):
        return state.phase is tc.Phase.DEAL
    if isinstance(move, tc.Timeout):
        return state.phase in (tc.Phase.CHOOSE, tc.Phase.DOUBLE)
    return move in tc.legal_moves(state, move.seat)
