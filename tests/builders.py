"""Shared test helpers: hand-built deals and random matches."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Literal

import trixcomplex as tc
from trixcomplex.core.cards import ALL_CARDS, parse_card
from trixcomplex.core.scoring import DOUBLABLE


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


MOST_MOVES_PER_DEAL = 4 * 52 + 16
"""More moves than any deal can take: a choice, a doubling window, and 52 cards laid
with at most three passes before each (someone can always lay in TRIX, R-TX-2)."""


def random_match(
    seed: int,
    *,
    ruleset: tc.Ruleset = tc.PARTNERSHIP,
    until: int | None = None,
    timeout_rate: float = 0.15,
    timeout_rates: tuple[float, ...] = (),
    bad_hands: Literal["bad_hand", "four_twos"] | None = None,
    redeal_rate: float = 0.0,
    trix_rate: float = 0.0,
    pick: Literal["random", "first", "last"] = "random",
) -> list[tc.MatchState]:
    """Every state of a random match of ``ruleset``: the one random-match generator.

    Uniform legal moves and ``Deal.shuffled`` decks, with knobs:

    - ``until``: stop after that many moves.
    - ``timeout_rate``: the choosing and doubling windows time out with this
      probability (0: never, and no random draw is spent on it);
      ``timeout_rates``: the rate is drawn once per match from these instead.
    - ``bad_hands``: about a third of the deals give some seat a bad TRIX hand
      (R-OPT-8): ``"bad_hand"`` four 2s or three 2s and the fourth 3
      (:func:`bad_hand_deal`), ``"four_twos"`` four 2s (:func:`four_twos_deal`).
    - ``redeal_rate``: how often an offered :class:`~trixcomplex.Redeal` is demanded;
      ``trix_rate``: how often the owner chooses TRIX when it may.
    - ``pick``: ``"first"`` or ``"last"`` plays the first or last listed move instead of
      a random one (a deterministic policy; the shuffles stay seeded).
    """
    rng = random.Random(seed)
    if timeout_rates:
        timeout_rate = rng.choice(timeout_rates)
    timeouts = bool(timeout_rate or timeout_rates)
    state = tc.new_match(ruleset)
    states = [state]
    in_deal = 0  # moves since the last Deal
    while state.phase is not tc.Phase.OVER and (until is None or len(states) <= until):
        in_deal += 1
        # R-CX-4, R-TX-2: a deal ends; a TRIX round of four turns lays at least one card
        assert in_deal <= MOST_MOVES_PER_DEAL, f"deal {state.deal_number} does not end"
        if state.phase is tc.Phase.DEAL:
            in_deal = 0
            if bad_hands == "bad_hand" and rng.random() < 0.35:
                move: tc.Move = bad_hand_deal(rng, rng.randrange(4), with_three=rng.random() < 0.5)
            else:
                move = tc.Deal.shuffled(rng)
                if bad_hands == "four_twos" and rng.random() < 0.35:
                    move = four_twos_deal(rng, rng.randrange(4))
            state = tc.apply(state, move)
            states.append(state)
            continue
        window = state.phase in (tc.Phase.CHOOSE, tc.Phase.DOUBLE)
        if window and timeouts and rng.random() < timeout_rate:
            state = tc.apply(state, tc.Timeout())
            states.append(state)
            continue
        moves = tc.legal_moves(state)
        redeal = next((m for m in moves if isinstance(m, tc.Redeal)), None)
        trix = tc.Choose(state.owner or 0, tc.Contract.TRIX)
        if redeal_rate and redeal is not None and rng.random() < redeal_rate:
            move = redeal
        elif trix_rate and trix in moves and rng.random() < trix_rate:
            move = trix
        elif pick != "random":
            move = moves[0] if pick == "first" else moves[-1]
        else:
            move = rng.choice(moves)
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
    for _ in range(MOST_MOVES_PER_DEAL):
        if state.phase not in PLAYING:
            return state
        state = tc.apply(state, first_legal(state))
    raise AssertionError(f"deal {state.deal_number} does not end")


def start_complex(
    deal: tc.Deal, doubles: dict[int, str] | None = None, state: tc.MatchState | None = None
) -> tc.MatchState:
    """Deal ``deal`` (into ``state``, default a new match), choose COMPLEX and double.

    ``doubles`` maps a seat to the codes it doubles; every other asked seat
    answers "nothing", so the window closes and the owner is to lead.
    """
    state = start_contract(deal, tc.Contract.COMPLEX, tc.PARTNERSHIP, doubles, state)
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
    if state.phase.plays_tricks:
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


# -- rulesets (issue 8): helpers shared by test_rulesets and the property tests -------

RULESET_VARIANTS: tuple[tc.Ruleset, ...] = (
    *tc.RULESETS.values(),
    tc.PARTNERSHIP.evolve(doubling=False),
    tc.CLASSIC.evolve(penalty_cards_first=True, swapped_scores=True),
    tc.CLASSIC.evolve(fixed_order=True, free_heart_leads=True),
    tc.CLASSIC_PARTNERSHIP.evolve(bad_hand_redeal=True, reversed_scores=True),
    tc.CLASSIC_PARTNERSHIP.evolve(worst_seat_loses=True),
    tc.PARTNERSHIP.evolve(worst_seat_loses=True, reversed_scores=True),
    tc.CLASSIC.evolve(combined_contracts=True),
    tc.CLASSIC_PARTNERSHIP.evolve(combined_contracts=True, penalty_cards_first=True),
)
"""Every preset and a few option variants, each option on in at least one of them."""

_DEAL_TOTALS = {
    tc.Contract.COMPLEX: -500,
    tc.Contract.TRIX: 500,
    tc.Contract.KING_OF_HEARTS: -75,
    tc.Contract.QUEENS: -100,
    tc.Contract.DIAMONDS: -130,
    tc.Contract.LTOOSH: -195,
}


def deal_total(ruleset: tc.Ruleset, contract: tc.Contract) -> int:
    """What every deal of ``contract`` sums to under ``ruleset`` (R-CL-2 … R-CL-8, R-OPT-3,
    R-OPT-6), written out from the clauses rather than read from the engine."""
    total = 0
    for part in contract.parts:  # a combined deal charges each part's total (R-OPT-9)
        total += _DEAL_TOTALS[part]
        if ruleset.swapped_scores and part is tc.Contract.DIAMONDS:
            total += -15 * 13 - _DEAL_TOTALS[part]
        if ruleset.swapped_scores and part is tc.Contract.LTOOSH:
            total += -10 * 13 - _DEAL_TOTALS[part]
    return -total if ruleset.reversed_scores else total


def bad_hand_deal(rng: random.Random, seat: int, *, with_three: bool = False) -> tc.Deal:
    """A shuffled deal in which ``seat`` holds a bad TRIX hand (R-OPT-8): four 2s, or
    (``with_three``) three 2s and the 3 of the fourth suit."""
    wanted = [parse_card(c) for c in ("2S", "2H", "2D", "3C" if with_three else "2C")]
    pool = [c for c in ALL_CARDS if c not in wanted]
    rng.shuffle(pool)
    two_of_clubs = parse_card("2C")
    fill = [c for c in pool if c != two_of_clubs][:9]  # 2C never joins three 2s and 3C
    rest = [c for c in pool if c not in fill]
    hands = [[str(c) for c in rest[13 * i : 13 * i + 13]] for i in range(3)]
    hands.insert(seat, [str(c) for c in wanted + fill])
    return deal_of(hands)


def random_match_of(
    ruleset: tc.Ruleset, seed: int, *, bad_hands: bool = False
) -> list[tc.MatchState]:
    """:func:`random_match` of ``ruleset`` with the timeout rate drawn per match from
    never / sometimes / mostly, and with ``bad_hands`` bad TRIX hands dealt (R-OPT-8)."""
    return random_match(
        seed,
        ruleset=ruleset,
        timeout_rates=(0.0, 0.2, 0.8),
        bad_hands="bad_hand" if bad_hands else None,
    )


def start_contract(
    deal: tc.Deal,
    contract: tc.Contract,
    ruleset: tc.Ruleset,
    doubles: dict[int, str] | None = None,
    state: tc.MatchState | None = None,
) -> tc.MatchState:
    """Deal ``deal`` (into ``state``, default a new match of ``ruleset``), have the owner
    choose ``contract`` if there is a choice, and answer the doubling window if one opens:
    ``doubles`` maps a seat to the codes it doubles, every other asked seat doubles nothing.
    """
    state = tc.apply(state or tc.new_match(ruleset), deal)
    if state.phase is tc.Phase.CHOOSE:
        assert state.owner is not None
        state = tc.apply(state, tc.Choose(state.owner, contract))
    assert state.contract is contract, (state.contract, contract)
    if state.phase is tc.Phase.DOUBLE:
        assert state.window is not None
        for seat in sorted(state.window.waiting()):
            state = tc.apply(state, tc.Double(seat, (doubles or {}).get(seat, "").split()))
    assert state.phase in (tc.Phase.COMPLEX, tc.Phase.TRICKS, tc.Phase.TRIX)
    return state


def every_candidate_move(state: tc.MatchState, deal: tc.Deal) -> list[tc.Move]:
    """:func:`all_candidate_moves` plus a choice of every contract and a Redeal by every seat."""
    moves = all_candidate_moves(state, deal)
    for seat in range(4):
        moves += [tc.Choose(seat, c) for c in tc.Contract]
        moves.append(tc.Redeal(seat))
    return moves


TWOS = tuple(tc.Card.of(tc.Rank.TWO, suit) for suit in tc.Suit)
"""The four 2s."""


def four_twos_deal(rng: random.Random, seat: int) -> tc.Deal:
    """A shuffled deck giving ``seat`` the four 2s (a bad TRIX hand, R-OPT-8)."""
    rest = [c for c in ALL_CARDS if c not in TWOS]
    rng.shuffle(rest)
    hands: list[list[tc.Card]] = [[], [], [], []]
    hands[seat] = list(TWOS)
    for s in range(4):
        while len(hands[s]) < 13:
            hands[s].append(rest.pop())
    return tc.Deal([hands[i % 4][i // 4] for i in range(52)])


def redeal_heavy_match(ruleset: tc.Ruleset, seed: int) -> list[tc.MatchState]:
    """:func:`random_match` of ``ruleset``; with ``bad_hand_redeal``, a third of the decks
    give some seat the four 2s and TRIX is chosen and a redeal demanded often, so redeals
    happen (R-OPT-8)."""
    heavy = ruleset.bad_hand_redeal
    return random_match(
        seed,
        ruleset=ruleset,
        bad_hands="four_twos" if heavy else None,
        redeal_rate=0.6 if heavy else 0.0,
        trix_rate=0.5 if heavy else 0.0,
    )


PLAYING = (tc.Phase.CHOOSE, tc.Phase.DOUBLE, tc.Phase.COMPLEX, tc.Phase.TRICKS, tc.Phase.TRIX)
"""The phases in which seats move."""


def playing_phases(ruleset: tc.Ruleset) -> set[tc.Phase]:
    """The phases of :data:`PLAYING` a match of ``ruleset`` reaches: COMPLEX only with
    the COMPLEX contract, TRICKS only with a classic trick contract, DOUBLE only with
    doubling (R-OPT-1), CHOOSE only without a fixed order (R-OPT-5)."""
    phases = set(PLAYING)
    if tc.Contract.COMPLEX not in ruleset.contracts:
        phases.discard(tc.Phase.COMPLEX)
    if not any(c.is_trick_contract and c is not tc.Contract.COMPLEX for c in ruleset.contracts):
        phases.discard(tc.Phase.TRICKS)
    if not ruleset.doubling:
        phases.discard(tc.Phase.DOUBLE)
    if ruleset.fixed_order:
        phases.discard(tc.Phase.CHOOSE)
    return phases


VIEWERS: tuple[int | None, ...] = (None, 0, 1, 2, 3)
"""The spectator and the four seats."""
VIEW_RULESETS = (
    tc.PARTNERSHIP,
    tc.INDIVIDUAL_COMPLEX,
    tc.CLASSIC,
    tc.CLASSIC_PARTNERSHIP,
    tc.CLASSIC.evolve(doubling=False),
    tc.CLASSIC.evolve(bad_hand_redeal=True),
    tc.CLASSIC.evolve(show_twos=True),
    tc.CLASSIC.evolve(penalty_cards_first=True, fixed_order=True),
    tc.CLASSIC_PARTNERSHIP.evolve(worst_seat_loses=True),
    tc.CLASSIC.evolve(combined_contracts=True),
)
"""Every preset and a few variants: each view and world property runs over all of them."""


def nested(depth: int, leaf: object = 0) -> object:
    """``leaf`` inside ``depth`` lists: ``[[[leaf]]]``."""
    value: object = leaf
    for _ in range(depth):
        value = [value]
    return value


def nested_dicts(depth: int, key: str = "move") -> object:
    """``0`` inside ``depth`` objects of one key: ``{"move": {"move": 0}}``."""
    value: object = 0
    for _ in range(depth):
        value = {key: value}
    return value


def assert_every_contract_seen(seen: Iterable[tc.Contract | None], ruleset: tc.Ruleset) -> None:
    """Every contract of ``ruleset`` was played in ``seen`` (alone or as a part of a
    combined deal), and a combined deal was seen exactly when the ruleset allows one
    (R-SET-2, R-OPT-9)."""
    contracts = {c for c in seen if c is not None}
    assert {p for c in contracts for p in c.parts} == set(ruleset.contracts), contracts
    assert any(c.is_combined for c in contracts) == ruleset.combined_contracts, contracts
