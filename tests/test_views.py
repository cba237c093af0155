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
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import (
    PLAYING,
    SPADES_DEAL,
    TWOS,
    VIEW_RULESETS,
    VIEWERS,
    assert_every_contract_seen,
    deal_of,
    play,
    playing_phases,
    random_match,
    redeal_heavy_match,
    start_contract,
)
from trixcomplex.core.cards import ALL_CARDS, cards_of, mask_of
from trixcomplex.core.trix import playable

RULESETS = VIEW_RULESETS
RULESET_IDS = [r.name for r in RULESETS]

# -- helpers -------------------------------------------------------------------


def walk(value: object) -> Iterator[object]:
    """Every value inside ``value``: attrs fields, tuples, frozensets, recursively."""
    yield value
    if attrs.has(type(value)):
        for field in attrs.fields(type(value)):  # type: ignore[arg-type]
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

    Cards everybody knows the place of (the public ``known_holdings``: revealed
    doubles, the Kingdom 1 owner's 7♥, shown 2s) are left out: moving them
    changes public facts.
    """
    public = tc.view(state, None).known_holdings
    known = mask_of(c for cards in public for c in cards)
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


def unseen_world(
    states: list[tc.MatchState], i: int, a: tc.Card, b: tc.Card
) -> tc.MatchState | None:
    """``states[i]`` replayed with the cards ``a`` and ``b`` swapped at the deal, if that is
    a world a seat that sees neither card could be in: ``None`` when a past move is
    illegal there, or when the public course of the deal differs (:func:`same_course`)."""
    try:
        other = replay_with(states, i, swapped(current_deck(states[i]), a, b))
    except tc.IllegalMoveError:
        return None
    return other if same_course(states[i], other) else None


def same_course(real: tc.MatchState, other: tc.MatchState) -> bool:
    """Whether two replays of the same moves are at the same public point: the phase.

    Swapping cards can change which seats a doubling window asks (R-DBL-2), so the
    window can close at a different move, or stay open, in the other world.  Who was
    asked and who has answered are hidden (R-HID-2), but whether the window is still
    open is not: its closing reveals the doubles and starts the first trick (R-DBL-3).
    A world where the phase differs is one the seat can tell apart, not one it could
    be in.
    """
    return other.phase is real.phase


def unseen_worlds(
    states: list[tc.MatchState], i: int, seat: int, rng: random.Random
) -> Iterator[tuple[tc.MatchState, tc.Card, tc.Card]]:
    """``states[i]`` replayed with each of :func:`hidden_swaps` made at the deal, and the
    two cards swapped; swaps that give a world the seat could not be in are skipped
    (:func:`unseen_world`)."""
    for a, b in hidden_swaps(states[i], seat, rng):
        other = unseen_world(states, i, a, b)
        if other is not None:
            yield other, a, b


def unseen_deals(
    states: list[tc.MatchState], i: int, seat: int, rng: random.Random
) -> Iterator[tuple[list[tc.MatchState], tc.Card, tc.Card]]:
    """The deal of ``states[i]`` replayed move by move with each of :func:`hidden_swaps`
    made at its :class:`~trixcomplex.Deal`: the states after the Deal up to the one of
    ``states[i]`` (as ``states[deal_start(states, i) + 1 : i + 1]`` are in the real
    world), and the two cards swapped; swaps that make a past move illegal, or the
    public course differ at any step (:func:`same_course`), are skipped."""
    start = deal_start(states, i)
    moves = states[i].history.since_deal()[1:]
    for a, b in hidden_swaps(states[i], seat, rng):
        other = [tc.apply(states[start], tc.Deal(swapped(current_deck(states[i]), a, b)))]
        try:
            for move in moves:
                other.append(tc.apply(other[-1], move))
        except tc.IllegalMoveError:
            continue  # a past move was illegal there: not a world the seat could be in
        real = states[start + 1 : i + 1]
        if all(same_course(r, o) for r, o in zip(real, other, strict=True)):
            yield other, a, b


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
        deal = state.trick_deal
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
    for other, a, b in unseen_worlds(states, i, seat, pick):
        assert tc.view(other, seat) == tc.view(state, seat)
        assert tc.view(other, None) == tc.view(state, None)
        holders = [s for s in range(4) if state.hands[s] >> a & 1 or state.hands[s] >> b & 1]
        assert all(tc.view(other, h) != tc.view(state, h) for h in holders)
        return
    assume(False)  # no swap to check at this state: not an example that passes unchecked


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_r_hid_1_every_phase_has_indistinguishable_swaps(seed: int) -> None:
    """R-HID-1, R-HID-2: the swap property on the first states of every playing phase of a
    match, for every seat; checks that swaps were found in each phase."""
    states = random_match(seed)
    rng = random.Random(seed)
    checked = {phase: 0 for phase in playing_phases(tc.PARTNERSHIP)}
    for i, state in enumerate(states):
        if state.phase not in PLAYING or checked[state.phase] >= 12:
            continue
        for seat in range(4):
            for other, a, b in unseen_worlds(states, i, seat, rng):
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
    cx = next(s for s in states if s.trick_deal is not None and len(s.trick_deal.tricks) == 2)
    v = tc.view(cx, None)
    assert cx.trick_deal is not None
    assert v.last_trick == cx.trick_deal.tricks[-1] and v.points == cx.trick_deal.points
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
            if state.phase in (tc.Phase.CHOOSE, tc.Phase.COMPLEX, tc.Phase.TRICKS, tc.Phase.TRIX):
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


# -- every ruleset (R-SET-1) -------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS, ids=RULESET_IDS)
def test_r_hid_1_swaps_are_invisible_in_every_phase_and_contract_of_every_ruleset(
    ruleset: tc.Ruleset,
) -> None:
    """R-HID-1, R-HID-2, R-SET-1: in every playing phase and contract of a random match of
    each preset and variant, swapping two unseen same-suit cards between two other seats
    leaves the seat's and the spectator's views unchanged; the holders see the change."""
    states = redeal_heavy_match(ruleset, 21)
    rng = random.Random(21)
    checked: dict[tuple[tc.Phase, tc.Contract | None], int] = {}
    for state in states:
        if state.phase in PLAYING:
            checked[state.phase, state.contract] = 0
    order = list(range(len(states)))
    rng.shuffle(order)
    for i in order:
        state = states[i]
        key = (state.phase, state.contract)
        if state.phase not in PLAYING or checked[key] >= 3:
            continue
        for seat in range(4):
            for other, a, b in unseen_worlds(states, i, seat, rng):
                assert tc.view(other, seat) == tc.view(state, seat), (key, seat, a, b)
                assert tc.view(other, None) == tc.view(state, None)
                holders = [h for h in range(4) if (state.hands[h] >> a | state.hands[h] >> b) & 1]
                assert all(tc.view(other, h) != tc.view(state, h) for h in holders)
                checked[key] += 1
                break
    assert all(checked.values()), checked
    contracts = {contract for _, contract in checked if contract is not None}
    assert_every_contract_seen(contracts, ruleset)
    assert any(phase is tc.Phase.DOUBLE for phase, _ in checked) == ruleset.doubling  # R-OPT-1


@settings(max_examples=20)
@given(
    ruleset=st.sampled_from(RULESETS),
    seed=st.integers(0, 10**6),
    pick=st.randoms(use_true_random=False),
)
def test_r_hid_1_random_swaps_are_invisible_under_every_ruleset(
    ruleset: tc.Ruleset, seed: int, pick: random.Random
) -> None:
    """R-HID-1, R-HID-2: the swap property at a random state of a random match of a
    random preset or variant, for a random seat."""
    states = redeal_heavy_match(ruleset, seed)
    i = pick.choice([k for k, s in enumerate(states) if s.phase in PLAYING])
    state = states[i]
    seat = pick.choice([0, 1, 2, 3])
    for other, _, _ in unseen_worlds(states, i, seat, pick):
        assert tc.view(other, seat) == tc.view(state, seat)
        assert tc.view(other, None) == tc.view(state, None)
        return
    assume(False)  # no swap to check at this state: not an example that passes unchecked


@pytest.mark.parametrize("ruleset", RULESETS, ids=RULESET_IDS)
def test_r_hid_1_views_of_every_ruleset_name_it_and_match_the_engine(ruleset: tc.Ruleset) -> None:
    """R-HID-1, R-SET-1, R-SET-2: every view carries the ruleset, the contract and the
    Kingdom's remaining contracts; ``turn`` is the engine's turn seat (never a seat that
    could only demand a redeal) and each seat sees exactly its own legal moves."""
    for state in redeal_heavy_match(ruleset, 22)[::2]:
        for seat in VIEWERS:
            v = tc.view(state, seat)
            assert v.ruleset == ruleset and v.contract == state.contract
            assert v.remaining_contracts == state.remaining_contracts
            assert v.kingdom == state.kingdom and v.deal_number == state.deal_number
            assert v.turn == (
                state.turn if state.phase in (tc.Phase.CHOOSE, *PLAYING[2:]) else None
            )
            if seat is not None:
                assert v.legal_moves == tc.legal_moves(state, seat)
                assert v.forced_move == tc.forced_move(state, seat)
            else:
                assert v.legal_moves == ()


@pytest.mark.parametrize("ruleset", RULESETS[1:], ids=RULESET_IDS[1:])
def test_r_hid_1_views_of_every_ruleset_name_no_hidden_card(ruleset: tc.Ruleset) -> None:
    """R-HID-1, R-HID-2: ``tc.to_json`` of a view of any ruleset writes the ruleset's name
    and names no card of another seat's hand beyond the public facts (played cards,
    revealed doubles, 7♥, shown 2s).  (That such a view reads back to itself, over the
    same rulesets: test_loaders.py, ``test_every_true_view_still_loads_and_samples``.)"""
    codes = {str(c): c for c in tc.ALL_CARDS}
    for state in redeal_heavy_match(ruleset, 23)[::11]:
        for seat in VIEWERS:
            v = tc.view(state, seat)
            data = json.loads(json.dumps(tc.to_json(v)))
            assert data["ruleset"] == ruleset.name
            bare = attrs.evolve(v, score=tc.score(tc.new_match()), cannot_hold=((), (), (), ()))
            named = {codes[s] for s in json_strings(tc.to_json(bare)) if s in codes}
            visible = set(v.hand) | set(v.table) | set(v.trick)
            visible |= {c for t in v.tricks for c in t.cards}
            visible |= {c for cards in v.known_holdings for c in cards}
            visible |= {c for cards in v.shown_twos for c in cards}
            assert named <= visible, (state.phase, seat, named - visible)


# -- classic contracts (R-CL-2 … R-CL-7) ---------------------------------------------


def classic_window_states(ruleset: tc.Ruleset, seeds: range) -> Iterator[tc.MatchState]:
    for seed in seeds:
        for state in redeal_heavy_match(ruleset, seed):
            if state.phase is tc.Phase.DOUBLE:
                yield state


@pytest.mark.parametrize("ruleset", [tc.CLASSIC, tc.CLASSIC_PARTNERSHIP], ids=["c", "cp"])
def test_r_hid_2_classic_windows_hide_who_was_asked_and_answered(ruleset: tc.Ruleset) -> None:
    """R-HID-2, R-CL-7: the King of Hearts and Queens windows show no turn and nothing of
    other seats; another seat's answer changes no view but its own."""
    seen: set[tc.Contract] = set()
    for state in classic_window_states(ruleset, range(2)):
        assert state.window is not None and state.contract is not None
        seen.add(state.contract)
        for seat in VIEWERS:
            v = tc.view(state, seat)
            assert v.doubling_open and v.turn is None and v.doubled == ()
            if seat is not None:
                asked = state.window.asked[seat] if state.window.answers[seat] is None else 0
                assert mask_of(v.doublable) == asked
        for t in sorted(state.window.waiting()):
            for move in tc.legal_moves(state, t):
                other = tc.apply(state, move)
                if other.phase is tc.Phase.DOUBLE:
                    assert tc.view(other, None) == tc.view(state, None)
                    assert all(tc.view(other, s) == tc.view(state, s) for s in range(4) if s != t)
    assert seen == {tc.Contract.KING_OF_HEARTS, tc.Contract.QUEENS}


def test_r_cl_7_doubling_off_never_opens_a_window() -> None:
    """R-OPT-1, R-CL-7: without doubling no view ever shows an open window or a double."""
    for state in redeal_heavy_match(tc.CLASSIC.evolve(doubling=False), 24):
        v = tc.view(state, None)
        assert not v.doubling_open and v.doubled == () and v.phase is not tc.Phase.DOUBLE


def test_r_cl_2_a_heart_lead_shows_the_leader_holds_only_hearts() -> None:
    """R-CL-2, R-HID-1: in King of Hearts a heart may only be led from a hand of hearts, so
    the leader's ``voids`` gain every other suit — a true, public deduction."""
    hearts = [str(tc.Card.of(rank, tc.Suit.HEARTS)) for rank in tc.Rank]
    state = tc.apply(tc.new_match(tc.CLASSIC.evolve(doubling=False)), deal_of([hearts]))
    state = tc.apply(state, tc.Choose(0, tc.Contract.KING_OF_HEARTS))
    assert tc.view(state, None).voids[0] == frozenset()
    state = tc.apply(state, tc.Play(0, "2H"))
    for seat in VIEWERS:
        assert tc.view(state, seat).voids[0] == frozenset(tc.Suit) - {tc.Suit.HEARTS}


@pytest.mark.parametrize("seed", [25, 26])
def test_r_cl_2_voids_in_king_of_hearts_are_true(seed: int) -> None:
    """R-CL-2, R-CX-2, R-HID-1: every void a King of Hearts view shows is true."""
    checked = 0
    for state in redeal_heavy_match(tc.CLASSIC, seed):
        if state.trick_deal is not None and state.contract is tc.Contract.KING_OF_HEARTS:
            v = tc.view(state, None)
            for seat in range(4):
                assert not {c.suit for c in state.hand(seat)} & v.voids[seat]
            checked += 1
    assert checked


def test_r_opt_2_a_non_penalty_discard_shows_no_penalty_card_is_held() -> None:
    """R-OPT-2, R-HID-1: with penalty cards first, a seat void in the led suit that discards
    another card holds none of the contract's penalty cards: they are in ``cannot_hold``."""
    ruleset = tc.CLASSIC.evolve(penalty_cards_first=True)
    found = 0
    for seed in (27, 28):
        for state in redeal_heavy_match(ruleset, seed):
            deal = state.trick_deal
            if deal is None or state.contract not in (tc.Contract.QUEENS, tc.Contract.DIAMONDS):
                continue
            v = tc.view(state, 3)
            for seat in range(4):
                assert not set(v.cannot_hold[seat]) & set(state.hand(seat))
                found += bool(v.cannot_hold[seat])
    assert found


@pytest.mark.parametrize("contract", ["KING_OF_HEARTS", "QUEENS", "DIAMONDS"])
def test_r_hid_1_a_deal_that_ends_early_keeps_the_cards_left_hidden(contract: str) -> None:
    """R-HID-1, R-CL-2 … R-CL-4: when the penalty cards are all taken the deal ends with
    cards still in hands; no view then (nor later) names any of them."""
    rng = random.Random(29)
    ended = 0
    for _ in range(5):
        state = tc.apply(tc.new_match(tc.CLASSIC), tc.Deal.shuffled(rng))
        state = tc.apply(state, tc.Choose(state.owner or 0, contract))
        while state.phase is not tc.Phase.DEAL:
            before = state
            state = tc.apply(state, rng.choice(tc.legal_moves(state)))
        assert before.trick_deal is not None
        left = set(ALL_CARDS) - {c for t in before.trick_deal.tricks for c in t.cards}
        left -= set(before.trick_deal.trick) | set(state.results[-1].seats[0].queens)
        last = state.history.moves()[-4:]
        left -= {m.card for m in last if isinstance(m, tc.Play)}
        if not left:
            continue  # all 13 tricks were played
        ended += 1
        for seat in VIEWERS:
            v = tc.view(state, seat)
            assert v.hand == () and v.hand_sizes == (0, 0, 0, 0) and v.redeals == ()
            assert not cards_in(v) & left
    assert ended


# -- R-OPT-7: 2s shown in TRIX -----------------------------------------------------

SHOW = tc.CLASSIC.evolve(show_twos=True)


def trix_start(ruleset: tc.Ruleset, deal: tc.Deal) -> tc.MatchState:
    """Deal ``deal`` in a new match of ``ruleset`` and let the owner choose TRIX."""
    return start_contract(deal, tc.Contract.TRIX, ruleset)


# Seat 0 owns (7H) and holds 2S; seat 1 holds 2H and 2D; seat 3 holds 2C; seat 2 none.
TWOS_DEAL = deal_of([["7H", "2S"], ["2H", "2D"], ["3S"], ["2C"]])


@pytest.mark.parametrize("ruleset", [SHOW, tc.CLASSIC_PARTNERSHIP], ids=["show", "cp"])
def test_r_opt_7_twos_are_shown_once_every_seat_has_had_its_first_turn(
    ruleset: tc.Ruleset,
) -> None:
    """R-OPT-7, R-HID-1: before the fourth TRIX move nothing about other seats' 2s is
    visible (a swap moving a 2 between two other seats changes no view); from then on
    every view shows each seat's 2s and lists them as known holdings."""
    state = trix_start(ruleset, TWOS_DEAL)
    dealt = ((TWOS[0],), (TWOS[1], TWOS[2]), (), (TWOS[3],))
    low_card = next(c for c in state.hand(3) if 2 < c.rank < 6)  # not playable in round 1
    for turn in range(6):
        v = tc.view(state, 2)
        spectator = tc.view(state, None)
        if turn < 4:
            assert v.shown_twos == spectator.shown_twos == ((), (), (), ())
            assert not set(TWOS) & (cards_in(v) | cards_in(spectator))
            # moving 2D from seat 1 to seat 3 (for a low card) changes nothing seat 2 sees
            deck = swapped(current_deck(state), tc.parse_card("2D"), low_card)
            moves = state.history.since_deal()[1:]
            other = play(tc.new_match(ruleset), tc.Deal(deck), *moves)
            assert tc.view(other, 2) == v and tc.view(other, None) == spectator
        else:
            assert v.shown_twos == spectator.shown_twos == dealt
            for seat in range(4):
                assert set(dealt[seat]) <= set(v.known_holdings[seat])
        state = tc.apply(state, tc.legal_moves(state)[0])


def test_r_opt_7_a_shown_two_leaves_known_holdings_once_laid() -> None:
    """R-OPT-7: a shown 2 is a known holding until it is laid; then it is on the table
    and still listed in ``shown_twos``."""
    state = trix_start(SHOW, TWOS_DEAL)
    laid_twos = 0
    while state.phase is tc.Phase.TRIX:
        state = tc.apply(state, tc.legal_moves(state)[0])
        v = tc.view(state, None)
        if v.phase is not tc.Phase.TRIX or len(v.laid) + len(v.passes) < 4:
            continue
        for seat in range(4):
            for two in v.shown_twos[seat]:
                assert (two in v.known_holdings[seat]) == (two not in v.table)
                assert (two in v.table) == ((seat, two) in v.laid)
        laid_twos += sum(1 for _, card in v.laid[-1:] if card in TWOS)
    assert laid_twos  # the checks saw a shown 2 laid


def test_r_opt_7_without_the_option_twos_are_never_shown() -> None:
    """R-OPT-7: with ``show_twos`` off (classic, partnership) no view ever shows 2s."""
    for ruleset in (tc.CLASSIC, tc.PARTNERSHIP):
        state = tc.apply(tc.new_match(ruleset), TWOS_DEAL)
        state = tc.apply(state, tc.Choose(0, tc.Contract.TRIX))
        for _ in range(8):
            state = tc.apply(state, tc.legal_moves(state)[0])
            v = tc.view(state, 0)
            assert v.shown_twos == ((), (), (), ())
            assert not {TWOS[1], TWOS[2], TWOS[3]} & cards_in(v)


# -- R-OPT-8: the bad-hand redeal ------------------------------------------------

REDEAL = tc.CLASSIC.evolve(bad_hand_redeal=True)
# Seat 0 owns (7H); seat 2 holds the four 2s: a bad hand.
BAD_DEAL = deal_of([["7H"], [], ["2S", "2H", "2D", "2C"], []])
# The same deal with 2C (seat 2) and 4C (seat 3) swapped: three 2s without 3C (seat 3 holds
# it) is not a bad hand.
NOT_BAD_DEAL = tc.Deal(swapped(BAD_DEAL.deck, tc.parse_card("2C"), tc.parse_card("4C")))


def test_r_opt_8_only_the_bad_hand_sees_its_redeal() -> None:
    """R-OPT-8, R-HID-1: in TRIX before the first move the bad hand's own legal moves hold
    ``Redeal``; the turn is still the owner's and no other view names a redeal."""
    state = trix_start(REDEAL, BAD_DEAL)
    assert state.to_act == {0, 2}
    assert tc.view(state, 2).legal_moves == (tc.Redeal(2),)
    for seat in (None, 0, 1, 3):
        v = tc.view(state, seat)
        assert v.turn == 0 and v.redeals == ()
        assert not any(isinstance(m, tc.Redeal) for m in v.legal_moves)
    after = tc.apply(state, tc.legal_moves(state, 0)[0])  # the first move: too late
    assert not any(isinstance(m, tc.Redeal) for m in tc.view(after, 2).legal_moves)


def test_r_opt_8_views_read_only_the_current_deal_numbers_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R-OPT-8: under ``bad_hand_redeal`` a view walks back over the current deal number
    only (its redeals), never the whole history: with reading past it made to fail, every
    view of a long redeal-heavy match is still built, and equals the one built before."""
    states = redeal_heavy_match(REDEAL, 5)
    late = [s for s in states if s.deal_number >= 15 and s.phase in PLAYING][::7]
    assert late and any(tc.view(s, None).redeals for s in states if s.deal_number >= 3)
    before = [tc.view(s, seat) for s in late for seat in (None, 1)]
    walked = {"most": 0}
    real = tc.History.newest_first

    def counted(self: tc.History) -> Iterator[tc.Move]:
        for n, move in enumerate(real(self), start=1):
            walked["most"] = max(walked["most"], n)
            yield move

    def whole(self: tc.History) -> tuple[tc.Move, ...]:
        raise AssertionError("the view read the whole history")

    monkeypatch.setattr(tc.History, "newest_first", counted)
    monkeypatch.setattr(tc.History, "moves", whole)
    monkeypatch.setattr(tc.History, "__iter__", whole)
    after = [tc.view(s, seat) for s in late for seat in (None, 1)]
    assert after == before
    longest_deal = max(len(s.history.since_deal()) for s in states)
    assert 0 < walked["most"] < 4 * longest_deal < len(late[-1].history)


@pytest.mark.parametrize("moves", [0, 1])
def test_r_opt_8_other_seats_cannot_tell_that_a_redeal_is_possible(moves: int) -> None:
    """R-OPT-8, R-HID-1: a world where seat 2 may demand a redeal and one where it may not
    (a 2 swapped with seat 3) look the same to seats 0 and 1 and to the spectator."""
    a, b = trix_start(REDEAL, BAD_DEAL), trix_start(REDEAL, NOT_BAD_DEAL)
    assert tc.parse_card("3C") in a.hand(3) and tc.parse_card("4C") in b.hand(2)
    for _ in range(moves):
        a, b = tc.apply(a, tc.legal_moves(a, 0)[0]), tc.apply(b, tc.legal_moves(b, 0)[0])
    if not moves:
        assert 2 in a.to_act and 2 not in b.to_act
    for seat in (None, 0, 1):
        assert tc.view(a, seat) == tc.view(b, seat)
    assert tc.view(a, 2) != tc.view(b, 2)


def test_r_opt_8_a_demanded_redeal_is_public_until_the_deal_is_played() -> None:
    """R-OPT-8: once demanded, every view lists the redeal in ``redeals``: between deals,
    in the new deal of the same number (TRIX still to choose) and until it ends."""
    state = tc.apply(trix_start(REDEAL, BAD_DEAL), tc.Redeal(2))
    for seat in VIEWERS:
        v = tc.view(state, seat)
        assert v.phase is tc.Phase.DEAL and v.redeals == (2,) and v.deal_number == 1
        assert v.owner == 0 and tc.Contract.TRIX in v.remaining_contracts
    state = tc.apply(state, tc.Deal.shuffled(random.Random(30)))
    assert state.owner == 0 and state.deal_number == 1
    for seat in VIEWERS:
        v = tc.view(state, seat)
        assert v.redeals == (2,) and v.phase is tc.Phase.CHOOSE
        assert tc.parse_card("7H") not in cards_in(attrs.evolve(v, hand=()))  # new deck
    assert tc.Choose(0, tc.Contract.TRIX) in tc.view(state, 0).legal_moves
    state = tc.apply(state, tc.Choose(0, tc.Contract.LTOOSH))
    assert tc.view(state, 1).redeals == (2,)
    while state.phase is not tc.Phase.DEAL:
        state = tc.apply(state, tc.legal_moves(state)[0])
    assert all(tc.view(state, s).redeals == () for s in VIEWERS)


def test_r_opt_8_views_of_the_default_game_never_have_redeals() -> None:
    """R-OPT-8, R-MATCH-2: without the option a bad hand has no Redeal and views none."""
    for ruleset in (tc.CLASSIC, tc.PARTNERSHIP):
        state = tc.apply(tc.new_match(ruleset), BAD_DEAL)
        state = tc.apply(state, tc.Choose(0, tc.Contract.TRIX))
        assert tc.view(state, 2).legal_moves != (tc.Redeal(2),)
        assert tc.view(state, 2).redeals == ()
