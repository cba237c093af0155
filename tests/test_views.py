"""Views: what each seat sees, and that it never sees more (R-HID-1, R-HID-2, R-HID-3).

The core checks are indistinguishability properties: two worlds that differ
only in what a seat cannot see give that seat (and the spectator) the same
view, in every phase, the doubling window included.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import SPADES_DEAL, deal_of, play, random_match
from trixcomplex.cards import cards_of, mask_of
from trixcomplex.trix import playable

PLAYING = (tc.Phase.CHOOSE, tc.Phase.DOUBLE, tc.Phase.COMPLEX, tc.Phase.TRIX)
VIEWERS: tuple[int | None, ...] = (None, 0, 1, 2, 3)

# -- helpers -------------------------------------------------------------------


def walk(value: object) -> Iterator[object]:
    """Every value inside ``value``: attrs fields, tuples, frozensets, recursively."""
    yield value
    if attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            yield from walk(getattr(value, field.name))
    elif isinstance(value, tuple | frozenset | list):
        for item in value:
            yield from walk(item)


def cards_in(value: object) -> set[tc.Card]:
    return {v for v in walk(value) if isinstance(v, tc.Card)}


def deal_start(states: list[tc.MatchState], i: int) -> int:
    """The index of the state just before the Deal of ``states[i]``'s deal."""
    return i - len(states[i].history.since_deal())


def replay_with(
    states: list[tc.MatchState], i: int, deck: tuple[tc.Card, ...], extra: tuple[tc.Move, ...] = ()
) -> tc.MatchState:
    """``states[i]`` rebuilt: the same moves of its deal on the deck ``deck``, then ``extra``."""
    moves = states[i].history.since_deal()
    state = tc.apply(states[deal_start(states, i)], tc.Deal(deck))
    for move in (*moves[1:], *extra):
        state = tc.apply(state, move)
    return state


def swapped(deck: tuple[tc.Card, ...], a: tc.Card, b: tc.Card) -> tuple[tc.Card, ...]:
    out = list(deck)
    ia, ib = out.index(a), out.index(b)
    out[ia], out[ib] = out[ib], out[ia]
    return tuple(out)


def hidden_swaps(
    state: tc.MatchState, seat: int, rng: random.Random
) -> Iterator[tuple[tc.Card, tc.Card]]:
    """Pairs of same-suit cards held by two seats other than ``seat``, in random order.

    Cards everybody knows the place of (revealed doubles, the Kingdom 1
    owner's 7♥) are left out: moving them changes public facts.
    """
    known = tc.parse_card("7H").mask if state.deal_number == 1 else 0  # R-MATCH-3
    if state.complex is not None:
        known |= mask_of(card for card, _ in state.complex.doubled)  # R-DBL-3
    others = [s for s in range(4) if s != seat]
    pairs = []
    for x in others:
        for y in others:
            if x < y:
                for a in cards_of(state.hands[x] & ~known):
                    for b in cards_of(state.hands[y] & ~known):
                        if a.suit is b.suit:
                            pairs.append((a, b))
    rng.shuffle(pairs)
    yield from pairs


def current_deck(state: tc.MatchState) -> tuple[tc.Card, ...]:
    deal = state.history.since_deal()[0]
    assert isinstance(deal, tc.Deal)
    return deal.deck


# -- basic shape ------------------------------------------------------------------


def test_view_is_frozen_hashable_and_compares_by_value() -> None:
    state = tc.apply(tc.new_match(), SPADES_DEAL)
    a, b = tc.view(state, 0), tc.view(state, 0)
    assert a == b and hash(a) == hash(b) and a is not b
    assert a != tc.view(state, 1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        a.seat = 1  # type: ignore[misc]
    assert not hasattr(a, "__dict__")  # slots


def test_view_rejects_a_bad_seat_with_a_clear_error() -> None:
    state = tc.apply(tc.new_match(), SPADES_DEAL)
    with pytest.raises(ValueError, match="seat is an int from 0 to 3, not 4"):
        tc.view(state, 4)


def test_view_of_a_fresh_deal_shows_own_hand_turn_and_sizes() -> None:
    """R-HID-1, R-MATCH-5: in CHOOSE the owner is to move; only it has moves."""
    state = tc.apply(tc.new_match(), SPADES_DEAL)
    owner = state.owner
    assert owner == 0
    mine = tc.view(state, 0)
    assert " ".join(map(str, mine.hand)) == "2S QS 7H 2C 3C 4C 5C 6C 7C 8C 9C TC JC"
    assert mine.hand_sizes == (13, 13, 13, 13)
    assert mine.turn == 0 and mine.phase is tc.Phase.CHOOSE and mine.kingdom == 1
    assert {m.contract for m in mine.legal_moves if isinstance(m, tc.Choose)} == set(
        tc.PARTNERSHIP.contracts
    )
    assert tc.view(state, 1).legal_moves == () and tc.view(state, 1).turn == 0
    assert mine.known_holdings[0] == (tc.parse_card("7H"),)  # R-MATCH-3 makes it public


# -- R-HID-1 ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1])
def test_r_hid_1_a_view_holds_only_own_hand_and_public_cards(seed: int) -> None:
    """R-HID-1: apart from the public score and the pass deductions, every card a view
    names is in its own hand, played this deal, or publicly known to be held."""
    for state in random_match(seed):
        deal = state.complex
        public = mask_of(tc.view(state, None).table)
        if deal is not None:
            public |= mask_of(c for t in deal.tricks for c in t.cards) | mask_of(deal.trick)
        for seat in VIEWERS:
            v = tc.view(state, seat)
            own = state.hands[seat] if seat is not None else 0
            known = mask_of(c for cards in v.known_holdings for c in cards)
            rest = attrs.evolve(v, score=tc.score(tc.new_match()), cannot_hold=((), (), (), ()))
            named = mask_of(cards_in(rest))
            assert named & ~(own | public | known) == 0, (seed, seat, state.phase)
            assert v.score == tc.score(state)
            if seat is None:
                assert v.hand == () and v.legal_moves == () and v.forced_move is None
            else:
                assert v.hand == state.hand(seat)


def test_r_hid_1_partner_hand_is_never_shown() -> None:
    """R-HID-1: not even the partner's hand is visible."""
    state = tc.apply(tc.new_match(), SPADES_DEAL)
    partner_cards = set(state.hand(2))
    for seat in (0, None):
        assert not cards_in(tc.view(state, seat)) & partner_cards


@pytest.mark.parametrize("seed", [2, 3])
def test_r_hid_1_cannot_hold_follows_from_public_passes_only(seed: int) -> None:
    """R-HID-1, R-TX-3: ``cannot_hold`` is the unlaid cards playable when the seat passed,
    computed here from the view's public ``laid`` and ``passes`` alone."""
    seen_a_pass = False
    for state in random_match(seed):
        if state.phase is not tc.Phase.TRIX:
            continue
        v = tc.view(state, None)
        table = 0
        expect = [0, 0, 0, 0]
        passes = list(v.passes)
        for index, (_, card) in enumerate((*v.laid, (None, None))):
            while passes and passes[0][1] == index:
                expect[passes.pop(0)[0]] |= playable(table)
            if card is not None:
                table |= card.mask
        final = mask_of(v.table)
        assert v.cannot_hold == tuple(cards_of(m & ~final) for m in expect)
        for seat in range(4):
            assert not set(v.cannot_hold[seat]) & set(state.hand(seat))
        seen_a_pass |= bool(v.passes)
    assert seen_a_pass


@pytest.mark.parametrize("seed", [4, 5])
def test_r_hid_1_voids_are_the_suits_shown_out_of(seed: int) -> None:
    """R-HID-1, R-CX-2: a void is public once a seat plays off the led suit; it is true."""
    seen_a_void = False
    for state in random_match(seed):
        if state.phase is not tc.Phase.COMPLEX:
            continue
        v = tc.view(state, 3)
        for seat in range(4):
            for suit in v.voids[seat]:
                assert not any(c.suit is suit for c in state.hand(seat))
            seen_a_void |= bool(v.voids[seat])
        for card, doubler in v.doubled:
            held = card in state.hand(doubler)
            assert held == (card in v.known_holdings[doubler])
    assert seen_a_void


# -- indistinguishability ------------------------------------------------------


@settings(max_examples=25)
@given(seed=st.integers(0, 10**6), pick=st.randoms(use_true_random=False))
def test_r_hid_1_worlds_differing_in_unseen_cards_look_the_same(
    seed: int, pick: random.Random
) -> None:
    """R-HID-1, R-HID-2: swap two same-suit cards between two other seats at the deal;
    replaying the same moves gives the seat and the spectator identical views,
    while the seats whose hands changed see the difference."""
    states = random_match(seed)
    playing = [i for i, s in enumerate(states) if s.phase in PLAYING]
    i = pick.choice(playing)
    state = states[i]
    seat = pick.choice([0, 1, 2, 3])
    for a, b in hidden_swaps(state, seat, pick):
        try:
            other = replay_with(states, i, swapped(current_deck(state), a, b))
        except tc.IllegalMoveError:
            continue  # the swap made a past move illegal: not a world the seat could be in
        assert tc.view(other, seat) == tc.view(state, seat)
        assert tc.view(other, None) == tc.view(state, None)
        holders = [s for s in range(4) if state.hands[s] >> a & 1 or state.hands[s] >> b & 1]
        assert all(tc.view(other, h) != tc.view(state, h) for h in holders)
        return


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_r_hid_1_every_phase_has_indistinguishable_swaps(seed: int) -> None:
    """R-HID-1, R-HID-2: the swap property on the first states of every playing phase of a
    match, for every seat; checks that swaps were found in each phase."""
    states = random_match(seed)
    rng = random.Random(seed)
    checked = {phase: 0 for phase in PLAYING}
    for i, state in enumerate(states):
        if state.phase not in PLAYING or checked[state.phase] >= 12:
            continue
        for seat in range(4):
            for a, b in hidden_swaps(state, seat, rng):
                try:
                    other = replay_with(states, i, swapped(current_deck(state), a, b))
                except tc.IllegalMoveError:
                    continue
                assert tc.view(other, seat) == tc.view(state, seat), (state.phase, seat, a, b)
                assert tc.view(other, None) == tc.view(state, None)
                checked[state.phase] += 1
                break
    assert all(checked.values()), checked


# -- R-HID-2 ---------------------------------------------------------------------


def window_states(seeds: range) -> Iterator[tuple[list[tc.MatchState], int]]:
    for seed in seeds:
        states = random_match(seed)
        for i, state in enumerate(states):
            if state.phase is tc.Phase.DOUBLE:
                yield states, i


def test_r_hid_2_window_shows_no_turn_and_no_one_elses_part() -> None:
    """R-HID-2: during the window ``turn`` is None; a seat sees its own doublable cards
    while it is asked and its own answer once given, nothing about the others."""
    count = 0
    for states, i in window_states(range(4)):
        state = states[i]
        window = state.window
        assert window is not None
        for seat in VIEWERS:
            v = tc.view(state, seat)
            assert v.doubling_open and v.turn is None and v.doubled == ()
            assert v.leader is None and v.trick == () and v.forced_move is None
            if seat is None:
                assert v.doublable == () and v.my_answer is None and v.legal_moves == ()
                continue
            asked, answer = window.asked[seat], window.answers[seat]
            if asked and answer is None:
                assert mask_of(v.doublable) == asked and v.my_answer is None
                assert {mask_of(m.cards) for m in v.legal_moves if isinstance(m, tc.Double)}
                assert all(isinstance(m, tc.Double) and m.seat == seat for m in v.legal_moves)
            else:
                assert v.doublable == () and v.legal_moves == ()
                assert v.my_answer == (None if answer is None else cards_of(answer))
            count += 1
    assert count


def test_r_hid_2_who_else_answered_and_what_is_invisible() -> None:
    """R-HID-2: two windows differing only in other seats' answers (given or not, and what)
    look the same to every seat that did not change and to the spectator."""
    compared = 0
    for states, i in window_states(range(6)):
        state = states[i]
        window = state.window
        assert window is not None
        for t in sorted(window.waiting()):
            for move in tc.legal_moves(state, t):
                other = tc.apply(state, move)
                if other.phase is not tc.Phase.DOUBLE:
                    continue  # the last answer closes the window: that is public
                assert tc.view(other, None) == tc.view(state, None)
                for seat in range(4):
                    if seat != t:
                        assert tc.view(other, seat) == tc.view(state, seat)
                assert tc.view(other, t) != tc.view(state, t)
                compared += 1
    assert compared


def test_r_hid_2_who_was_asked_is_invisible() -> None:
    """R-HID-2: moving the K♥ from one other seat to another (so a different seat is asked)
    leaves the window's view unchanged for the remaining seat and the spectator."""
    base = deal_of([["KH", "2H"], ["3H", "2S"], ["4H"], ["7H"]])
    moved = deal_of([["2H", "4H"], ["KH", "2S"], ["3H"], ["7H"]])
    # Seat 3 holds 7H: it owns Kingdom 1 and chooses COMPLEX; the deal_of fill is the same
    # except that KH, 2H, 3H and 4H changed places between seats 0, 1 and 2.
    worlds = []
    for deal in (base, moved):
        state = play(tc.new_match(), deal, tc.Choose(3, tc.Contract.COMPLEX))
        worlds.append(state)
    a, b = worlds
    assert a.window is not None and b.window is not None
    assert a.window.asked[3] == b.window.asked[3]
    assert a.hands[3] == b.hands[3]
    assert a.window.asked != b.window.asked  # a different set of seats was asked
    assert tc.view(a, 3) == tc.view(b, 3)
    assert tc.view(a, None) == tc.view(b, None)


def test_r_hid_2_doubles_are_revealed_only_when_the_window_closes() -> None:
    """R-HID-2, R-DBL-3: a double is invisible to others while the window is open and
    public (card and doubler) to everyone once it closes."""
    state = play(tc.new_match(), SPADES_DEAL, tc.Choose(0, tc.Contract.COMPLEX))
    assert state.window is not None
    state = tc.apply(state, tc.Double(0, ["QS"]))
    assert state.phase is tc.Phase.DOUBLE
    assert tc.view(state, 0).my_answer == (tc.parse_card("QS"),)
    for seat in (1, 2, 3, None):
        v = tc.view(state, seat)
        assert v.doubled == () and v.my_answer is None
        assert tc.parse_card("QS") not in cards_in(v)
    state = tc.apply(state, tc.Timeout())
    for seat in VIEWERS:
        v = tc.view(state, seat)
        assert not v.doubling_open and v.my_answer is None
        assert v.doubled == ((tc.parse_card("QS"), 0),)
        assert v.known_holdings[0] == (tc.parse_card("QS"), tc.parse_card("7H"))  # R-MATCH-3


# -- R-HID-3 ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", [6])
def test_r_hid_3_no_deck_no_history_in_any_view(seed: int) -> None:
    """R-HID-3: no view ever holds a Deal, a History, a state or the window, nor 52 cards."""
    forbidden = (tc.Deal, tc.History, tc.MatchState, tc.DoublingWindow)
    for state in random_match(seed):
        for seat in VIEWERS:
            v = tc.view(state, seat)
            assert not any(isinstance(x, forbidden) for x in walk(v))


def test_r_hid_3_the_next_deck_is_invisible_between_deals() -> None:
    """R-HID-3: between deals the views do not depend on the deck about to be dealt,
    and views during a deal do not depend on how the deck is ordered within hands."""
    states = random_match(8)
    i = next(k for k, s in enumerate(states) if s.phase is tc.Phase.DEAL and k)
    before = states[i]
    views = {tc.view(before, s) for s in VIEWERS}
    assert all(v.hand == () and v.table == () and v.trick == () for v in views)
    after = tc.apply(before, tc.Deal.shuffled(random.Random(1)))
    again = tc.apply(before, tc.Deal.shuffled(random.Random(2)))
    assert before.deal_number == 1 and after.hands != again.hands
    assert tc.view(after, None) == tc.view(again, None)  # deal 2: the owner stays
    # Reordering the deck without moving a card between seats changes no view.
    deck = list(current_deck(after))
    deck[0], deck[4] = deck[4], deck[0]  # both go to seat 0
    reordered = tc.apply(before, tc.Deal(deck))
    assert reordered != after
    assert all(tc.view(reordered, s) == tc.view(after, s) for s in VIEWERS)


# -- rendering aids ------------------------------------------------------------


def test_view_has_last_trick_points_and_rows_for_a_frontend() -> None:
    """R-CX-3, R-TX-2: the last finished trick, the deal's points so far and the rows."""
    states = random_match(9)
    cx = next(s for s in states if s.complex is not None and len(s.complex.tricks) == 2)
    v = tc.view(cx, None)
    assert cx.complex is not None
    assert v.last_trick == cx.complex.tricks[-1] and v.points == cx.complex.points
    assert v.points == v.score.current and sum(v.points) < 0
    tx = next(s for s in states if s.trix is not None and len(s.trix.finishing_order) == 1)
    w = tc.view(tx, 2)
    for suit in tc.Suit:
        laid = [c.rank for c in w.table if c.suit is suit]
        assert w.rows[suit] == ((min(laid), max(laid)) if laid else None)
    assert tx.trix is not None and w.finishing_order == tx.trix.finishing_order
    assert sorted(c for _, c in w.laid) == list(w.table)


def test_view_turn_and_legal_moves_match_the_engine_for_the_seat_to_move() -> None:
    """R-TX-5: the seat to move sees exactly its legal moves and its forced move."""
    for state in random_match(10):
        for seat in range(4):
            v = tc.view(state, seat)
            assert v.legal_moves == tc.legal_moves(state, seat)
            assert v.forced_move == tc.forced_move(state, seat)
            if state.phase in (tc.Phase.CHOOSE, tc.Phase.COMPLEX, tc.Phase.TRIX):
                assert v.turn == state.turn
            else:
                assert v.turn is None


# -- JSON ------------------------------------------------------------------------


def json_strings(data: object) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from json_strings(key)
            yield from json_strings(value)
    elif isinstance(data, list):
        for item in data:
            yield from json_strings(item)


@pytest.mark.parametrize("seed", [11])
def test_r_hid_1_to_json_of_a_view_is_json_and_holds_no_hidden_card(seed: int) -> None:
    """R-HID-1, R-HID-2: ``tc.to_json(view)`` dumps to JSON, reads back to the same view, and
    names no card of another seat's hand beyond the public facts."""
    codes = {str(c): c for c in tc.ALL_CARDS}
    checked = 0
    for state in random_match(seed)[::3]:
        for seat in VIEWERS:
            v = tc.view(state, seat)
            data = tc.to_json(v)
            assert tc.from_json(tc.View, json.loads(json.dumps(data))) == v
            bare = attrs.evolve(v, score=tc.score(tc.new_match()), cannot_hold=((), (), (), ()))
            named = {codes[s] for s in json_strings(tc.to_json(bare)) if s in codes}
            visible = set(v.hand) | set(v.table) | set(v.trick)
            visible |= {c for t in v.tricks for c in t.cards}
            visible |= {c for cards in v.known_holdings for c in cards}
            assert named <= visible, (state.phase, seat, named - visible)
            hidden = {c for s in range(4) if s != seat for c in state.hand(s)} - visible
            assert not hidden & named
            checked += 1
    assert checked
