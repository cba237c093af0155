"""``tc.playout`` gives exactly what stepping through ``legal_moves``/``apply`` gives.

The playout runs the card play on mutable locals; these tests hold it to the
engine: from states in every phase (DEAL, CHOOSE, DOUBLE, the start of
COMPLEX and TRIX, mid-trick, mid-row, OVER), for both ``until`` values, the
returned state equals (``==``, history included) the stepped one, and the
random number generator ends in the same state (the same call sequence).
Through that equality every rule the engine checks is checked here too:
R-MATCH-1…R-MATCH-5 (deals, owners, contracts), R-DBL-2…R-DBL-5 (the
window and doubled cards), R-CX-1…R-CX-6 (tricks, takers, penalties) and
R-TX-1…R-TX-4 (rows, passes, finishing order).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import RULESET_VARIANTS, random_match
from trixcomplex.core.match import plays_of
from trixcomplex.core.playout import _PLAYS, PlayoutState, _below, _plain_bits, _shuffled

END = (tc.Phase.DEAL, tc.Phase.OVER)


def stepped(
    state: tc.MatchState,
    rng: random.Random,
    until: str,
    pick: object = None,
    forced: str = "draw",
) -> tc.MatchState:
    """The reference: one ``apply`` per move, ``rng.choice(legal_moves(state))``; with
    ``forced="play"`` a single legal move is applied without a draw (or a pick)."""
    deal_ended = False
    while True:
        if state.phase is tc.Phase.OVER:
            return state
        if state.phase is tc.Phase.DEAL:
            if deal_ended and until == "deal":
                return state
            state = tc.apply(state, tc.Deal.shuffled(rng))
            continue
        moves = tc.legal_moves(state)
        if forced == "play" and len(moves) == 1:
            move = moves[0]
        else:
            move = rng.choice(moves) if pick is None else moves[0]
        state = tc.apply(state, move)
        if state.phase in END:
            deal_ended = True


def starts(seed: int) -> list[tc.MatchState]:
    """States of one random match (timeouts included) in every phase, mid-trick and mid-row."""
    states = random_match(seed)
    chosen: dict[object, tc.MatchState] = {}
    for i, state in enumerate(states):
        detail: object = None
        if state.trick_deal is not None:
            detail = (len(state.trick_deal.trick), bool(state.trick_deal.tricks))
        if state.trix is not None:
            detail = (bool(state.trix.table), len(state.trix.finishing_order))
        chosen.setdefault((state.phase, detail, i % 2), state)
    return list(chosen.values())


def assert_same(
    state: tc.MatchState,
    seed: int,
    until: str,
    make: type[random.Random] = random.Random,
    forced: str = "draw",
) -> None:
    rng_fast, rng_step = make(seed), make(seed)
    fast = tc.playout(state, rng_fast, until=until, forced=forced)  # type: ignore[arg-type]
    slow = stepped(state, rng_step, until, forced=forced)
    assert fast == slow
    assert fast.history.moves() == slow.history.moves()
    assert hash(fast) == hash(slow)
    assert rng_fast.getstate() == rng_step.getstate()


@pytest.mark.parametrize("forced", ["draw", "play"])
@pytest.mark.parametrize("until", ["deal", "match"])
@pytest.mark.parametrize("seed", range(12))
def test_playout_equals_stepping_from_every_phase(seed: int, until: str, forced: str) -> None:
    """R-MATCH-1…5, R-DBL-2…5, R-CX-1…6, R-TX-1…4: the same final state as stepping
    (with ``forced="play"``, stepping that plays a forced move without a draw)."""
    phases = set()
    for k, state in enumerate(starts(seed)):
        phases.add(state.phase)
        assert_same(state, 1000 * seed + k, until, forced=forced)
    assert phases == set(tc.Phase) - {tc.Phase.TRICKS}  # TRICKS: classic contracts only


def test_starts_cover_double_mid_trick_and_mid_row() -> None:
    """The start states used above include the doubling window, mid-trick and mid-row."""
    states = [s for seed in range(3) for s in starts(seed)]
    assert any(s.phase is tc.Phase.DOUBLE for s in states)
    assert any(s.trick_deal is not None and len(s.trick_deal.trick) == 3 for s in states)
    assert any(
        s.trick_deal is not None and s.trick_deal.tricks and s.trick_deal.trick for s in states
    )
    assert any(s.trix is not None and s.trix.table and s.trix.finishing_order for s in states)


@settings(max_examples=25)
@given(
    seed=st.integers(0, 2**32),
    cut=st.integers(0, 500),
    until=st.sampled_from(["deal", "match"]),
    forced=st.sampled_from(["draw", "play"]),
)
def test_playout_equals_stepping_property(seed: int, cut: int, until: str, forced: str) -> None:
    """R-CX-1…6, R-TX-1…4: equality from any point of a random match."""
    states = random_match(seed, until=cut)
    assert_same(states[-1], seed + 1, until, forced=forced)


def test_until_deal_stops_at_the_deal_end() -> None:
    """R-MATCH-1: ``until="deal"`` plays one deal; from a DEAL state it deals first."""
    rng = random.Random(3)
    state = tc.playout(tc.new_match(), rng)
    assert state.phase is tc.Phase.DEAL and state.deal_number == 1 and len(state.results) == 1
    mid = random_match(4, until=30)[-1]
    assert mid.phase in (tc.Phase.COMPLEX, tc.Phase.TRICKS, tc.Phase.TRIX)
    after = tc.playout(mid, random.Random(1))
    assert after.deal_number == mid.deal_number and after.phase is tc.Phase.DEAL
    assert len(after.results) == len(mid.results) + 1


def test_until_match_ends_the_match() -> None:
    """R-MATCH-1, R-SUM-1: ``until="match"`` plays all 8 deals; Team Totals sum to zero."""
    state = tc.playout(tc.new_match(), random.Random(9), until="match")
    assert state.phase is tc.Phase.OVER and len(state.results) == 8
    assert sum(tc.score(state).teams) == 0
    assert tc.playout(state, random.Random(1), until="match") is state


def test_playout_is_deterministic() -> None:
    """R-MATCH-2: the engine's only randomness is the rng passed in."""
    start = random_match(5, until=100)[-1]
    for until in ("deal", "match"):
        a = tc.playout(start, random.Random(42), until=until)
        b = tc.playout(start, random.Random(42), until=until)
        assert a == b and a.history.moves() == b.history.moves()
    assert tc.playout(start, random.Random(42), until="match") != tc.playout(
        start, random.Random(43), until="match"
    )


def test_playout_leaves_its_input_alone() -> None:
    """States are immutable: the start state is unchanged and still equals a rebuilt one."""
    start = random_match(6, until=200)[-1]
    copy = random_match(6, until=200)[-1]
    tc.playout(start, random.Random(1), until="match")
    assert start == copy


def test_bad_until_is_rejected() -> None:
    with pytest.raises(ValueError, match="until must be 'deal' or 'match'"):
        tc.playout(tc.new_match(), random.Random(1), until="trick")  # type: ignore[arg-type]


def first(
    game: PlayoutState, moves: tuple[tc.PlayerMove, ...], rng: random.Random
) -> tc.PlayerMove:
    return moves[0]


@pytest.mark.parametrize("seed", range(4))
def test_policy_moves_equal_stepping_with_the_same_choices(seed: int) -> None:
    """R-CX-2, R-TX-3, R-DBL-2: a policy's moves are applied exactly as ``apply`` would."""
    for state in starts(seed):
        fast = tc.playout(state, random.Random(seed), first, until="match")
        slow = stepped(state, random.Random(seed), "match", pick="first")
        assert fast == slow


def test_policy_sees_the_whole_game_consistently() -> None:
    """The policy gets the full state: every move listed is the mover's and legal there."""
    seen_phases: set[tc.Phase] = set()

    def check(
        game: PlayoutState, moves: tuple[tc.PlayerMove, ...], rng: random.Random
    ) -> tc.PlayerMove:
        seen_phases.add(game.phase)
        assert moves
        for move in moves:
            if isinstance(move, tc.Play):
                assert move.seat == game.turn
                assert game.hands[move.seat] >> move.card & 1
                if game.phase is tc.Phase.COMPLEX and game.trick:
                    led = game.trick[0] // 13
                    holds_led = game.hands[move.seat] >> (13 * led) & 0x1FFF
                    assert not holds_led or move.card // 13 == led  # R-CX-2
            elif isinstance(move, tc.Double):
                assert game.window is not None and game.window.asked[move.seat]
        assert sum(bin(h).count("1") for h in game.hands) + len(game.trick) <= 52
        return rng.choice(moves)

    state = tc.playout(tc.new_match(), random.Random(11), check, until="match")
    assert state.is_over
    assert {tc.Phase.COMPLEX, tc.Phase.TRIX, tc.Phase.DOUBLE, tc.Phase.CHOOSE} <= seen_phases
    # A policy calling rng.choice(moves) plays exactly the random playout.
    assert state == tc.playout(tc.new_match(), random.Random(11), until="match")


def seen_by_policy(game: PlayoutState) -> tuple[object, ...]:
    """Every field a policy reads, in slot order."""
    return tuple(getattr(game, name) for name in PlayoutState.__slots__)


@pytest.mark.parametrize("ruleset", RULESET_VARIANTS, ids=lambda r: r.name)
def test_r_cx_5_policy_sees_each_state_as_apply_makes_it(ruleset: tc.Ruleset) -> None:
    """R-CX-5, R-DBL-4, R-TX-4: at every decision of a whole match, what the policy
    reads (hands, trick, tricks, the deal's running points, the table, the finishing
    order, the window …) is ``PlayoutState`` of the state stepping reaches there,
    though the playout keeps the trick deal's points only for the policy."""
    seen: list[tuple[object, ...]] = []

    def record(
        game: PlayoutState, moves: tuple[tc.PlayerMove, ...], rng: random.Random
    ) -> tc.PlayerMove:
        seen.append(seen_by_policy(game))
        return rng.choice(moves)

    end = tc.playout(tc.new_match(ruleset), random.Random(3), record, until="match")
    expected = []
    rng, state = random.Random(3), tc.new_match(ruleset)
    while not state.is_over:
        if state.phase is tc.Phase.DEAL:
            state = tc.apply(state, tc.Deal.shuffled(rng))
        else:
            expected.append(seen_by_policy(PlayoutState(state)))
            state = tc.apply(state, rng.choice(tc.legal_moves(state)))
    assert end == state
    assert seen == expected
    assert any(view[PlayoutState.__slots__.index("points")] != (0, 0, 0, 0) for view in seen)


def test_policy_choosing_an_illegal_move_is_rejected() -> None:
    """R-CX-2: a move the policy makes up is refused, not applied."""

    def cheat(
        game: PlayoutState, moves: tuple[tc.PlayerMove, ...], rng: random.Random
    ) -> tc.PlayerMove:
        if game.phase is tc.Phase.COMPLEX:
            return tc.Pass(game.turn or 0)
        return moves[0]

    with pytest.raises(ValueError, match="not a legal move"):
        tc.playout(tc.new_match(), random.Random(2), cheat, until="match")


def test_policy_choosing_an_equal_copy_of_a_listed_move_is_accepted() -> None:
    """R-CX-2: a policy's move is legal when it equals a listed move: an equal copy
    (not the interned object) is accepted, and the playout equals the one choosing
    the listed object itself."""

    def first(
        game: PlayoutState, moves: tuple[tc.PlayerMove, ...], rng: random.Random
    ) -> tc.PlayerMove:
        return moves[0]

    def copied(
        game: PlayoutState, moves: tuple[tc.PlayerMove, ...], rng: random.Random
    ) -> tc.PlayerMove:
        move = moves[0]
        if type(move) is tc.Play:
            twin = tc.Play(move.seat, move.card)
            assert twin == move and twin is not move
            return twin
        return move

    start = tc.new_match()
    assert tc.playout(start, random.Random(3), copied, until="match") == tc.playout(
        start, random.Random(3), first, until="match"
    )


@pytest.mark.parametrize("inline", [False, True])
@pytest.mark.parametrize("seed", range(5))
def test_fast_shuffle_is_deal_shuffled(seed: int, inline: bool) -> None:
    """R-MATCH-2: the playout's shuffle is ``Deal.shuffled``: same deck, same rng calls,
    through ``rng.shuffle`` or drawing from ``getrandbits`` itself."""
    a, b = random.Random(seed), random.Random(seed)
    fast = _shuffled(a, a.getrandbits if inline else None)
    slow = tc.Deal.shuffled(b)
    assert fast == slow and hash(fast) == hash(slow) and type(fast) is tc.Deal
    assert a.getstate() == b.getstate()


# -- drawing as random.Random draws -------------------------------------------------


def test_below_draws_as_rng_choice_for_every_length() -> None:
    """R-MATCH-2: ``seq[_below(rng.getrandbits, len(seq))]`` is ``rng.choice(seq)`` for
    every length 1…60 (a trick's legal cards, TRIX moves, doubling answers), over many
    seeds: the same values and the generator left in the same state."""
    for seed in range(40):
        a, b = random.Random(seed), random.Random(seed)
        for n in range(1, 61):
            seq = tuple(range(100, 100 + n))
            for _ in range(6):
                assert seq[_below(a.getrandbits, n)] == b.choice(seq)
        assert a.getstate() == b.getstate()


def test_r_cx_2_the_card_drawn_is_the_move_listed_at_that_index() -> None:
    """R-CX-2, R-TX-2: the playout's pick (the r-th card of the legal set, the engine's
    interned play of it) is the r-th move ``legal_moves`` lists for that set."""
    rng = random.Random(4)
    for seat in range(4):
        assert len(_PLAYS[seat]) == 52
        for card in range(52):
            assert _PLAYS[seat][card] is plays_of(seat, 1 << card)[0]
        for _ in range(200):
            legal = rng.getrandbits(52) & rng.getrandbits(52)
            listed = plays_of(seat, legal)
            for r, move in enumerate(listed):
                mask = legal
                for _ in range(r):
                    mask &= mask - 1
                assert _PLAYS[seat][(mask & -mask).bit_length() - 1] is move


class PlainSubclass(random.Random):
    """A subclass that changes nothing about drawing: the playout draws itself."""


class CountingBits(random.Random):
    """Draws as ``random.Random`` does, counting its ``getrandbits`` calls and sizes."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.calls: list[int] = []

    def getrandbits(self, k: int) -> int:
        self.calls.append(k)
        return super().getrandbits(k)


class FirstChoice(random.Random):
    """Replaces ``choice``: always the first move (the playout must call it)."""

    def choice(self, seq):  # type: ignore[no-untyped-def]
        super().random()  # and moves the generator on, differently from Random.choice
        return seq[0]


class ReversedShuffle(random.Random):
    """Replaces ``shuffle``: the deck reversed after Random's shuffle."""

    def shuffle(self, x):  # type: ignore[no-untyped-def]
        super().shuffle(x)
        x.reverse()


class OnlyRandom(random.Random):
    """Defines ``random()`` only: ``random.Random`` then draws integers without
    ``getrandbits`` (``_randbelow_without_getrandbits``)."""

    def random(self) -> float:
        return super().random()


class OwnRandbelow(random.Random):
    """Replaces ``_randbelow``: every index is drawn from the top."""

    def _randbelow(self, n: int) -> int:
        return n - 1 - super()._randbelow(n)


def test_plain_bits_only_for_generators_drawing_as_random() -> None:
    """The playout draws itself only from a generator whose ``choice``, ``shuffle``,
    ``_randbelow`` and ``getrandbits`` are ``random.Random``'s, on the class and the
    instance; any other is called through its own methods."""
    plain = random.Random(1)
    assert _plain_bits(plain) == plain.getrandbits
    assert _plain_bits(PlainSubclass(1)) is not None
    for cls in (CountingBits, FirstChoice, ReversedShuffle, OnlyRandom, OwnRandbelow):
        assert _plain_bits(cls(1)) is None, cls
    assert _plain_bits(random.SystemRandom()) is None
    for name in ("choice", "shuffle", "_randbelow", "getrandbits"):
        patched = random.Random(1)
        setattr(patched, name, getattr(patched, name))  # the same method, on the instance
        assert _plain_bits(patched) is None, name


@pytest.mark.parametrize(
    "make", [PlainSubclass, CountingBits, FirstChoice, ReversedShuffle, OnlyRandom, OwnRandbelow]
)
def test_playout_equals_stepping_with_other_generators(make: type[random.Random]) -> None:
    """R-MATCH-2: with a subclass of ``random.Random`` that changes how it draws, the
    playout still equals stepping with ``rng.choice`` and ``Deal.shuffled(rng)``: its
    own methods are called, with the same ``getrandbits`` calls in the same order."""
    for k, state in enumerate(starts(3)[::2]):
        assert_same(state, k, "match", make)
        assert_same(state, k, "match", make, forced="play")
    a, b = CountingBits(5), CountingBits(5)
    fast = tc.playout(tc.new_match(), a, until="match")
    assert fast == stepped(tc.new_match(), b, "match")
    assert a.calls == b.calls and len(a.calls) > 1000  # the same getrandbits calls, in order


@pytest.mark.parametrize("forced", ["draw", "play"])
def test_playout_equals_stepping_over_many_matches(forced: str) -> None:
    """R-MATCH-1…5, R-CX-1…6, R-TX-1…4: whole matches from many seeds, drawn inline,
    equal the stepped ones (every length of legal set met many times)."""
    for seed in range(100, 140):
        assert_same(tc.new_match(), seed, "match", forced=forced)


def test_r_tx_5_forced_play_draws_only_for_a_choice() -> None:
    """R-TX-5: with ``forced="play"`` a forced move costs no draw and no policy call:
    the generator's calls are exactly those of stepping with ``moves[0] if
    len(moves) == 1 else rng.choice(moves)``, and a policy is only ever shown two
    or more moves; with ``"draw"`` it is shown single moves too.  The two modes
    give different matches from one seed."""
    finals, calls, shown = {}, {}, {}
    for forced in ("draw", "play"):
        rng = CountingBits(9)
        finals[forced] = tc.playout(tc.new_match(), rng, until="match", forced=forced)
        calls[forced] = rng.calls
        lengths: list[int] = []

        def last(game: PlayoutState, moves: tuple[tc.PlayerMove, ...], r: random.Random,
                 lengths: list[int] = lengths) -> tc.PlayerMove:  # fmt: skip
            lengths.append(len(moves))
            return moves[-1]

        tc.playout(tc.new_match(), random.Random(9), last, until="match", forced=forced)
        shown[forced] = lengths
    assert finals["draw"] != finals["play"]
    assert len(calls["play"]) < len(calls["draw"])
    assert min(shown["play"]) == 2 and min(shown["draw"]) == 1
    assert len(shown["draw"]) - len(shown["play"]) > 100  # forced moves: ~2 in 5
    stepped_rng = CountingBits(9)
    assert stepped(tc.new_match(), stepped_rng, "match", forced="play") == finals["play"]
    assert stepped_rng.calls == calls["play"]


def test_bad_forced_is_rejected() -> None:
    """``forced`` is "draw" or "play"; anything else is a ValueError naming it."""
    with pytest.raises(ValueError, match="forced must be 'draw' or 'play', not 'skip'"):
        tc.playout(tc.new_match(), random.Random(1), forced="skip")  # type: ignore[arg-type]


def test_history_extend_is_a_run_of_appends() -> None:
    """A history extended in one step equals, hashes and reads like one appended move by move."""
    moves = random_match(8)[-1].history.moves()
    stepwise = tc.History.EMPTY
    for move in moves:
        stepwise = stepwise.append(move)
    for cut in (0, 1, 2, 53, 200, len(moves)):
        head = stepwise
        for _ in range(len(moves) - cut):
            assert head._prev is not None
            head = head._prev
        mixed = head.extend(moves[cut:])  # a plain prefix, then one segment
        later = mixed.append(moves[0])  # and a plain node after the segment
        assert mixed == stepwise and stepwise == mixed
        assert hash(mixed) == hash(stepwise) and len(mixed) == len(moves)
        assert mixed.moves() == moves and tuple(mixed) == moves
        assert mixed.since_deal() == stepwise.since_deal()
        assert mixed.last == moves[-1]
        assert later == stepwise.append(moves[0]) and later != stepwise.append(moves[1])
    other = tc.History.EMPTY.extend((*moves[:-2], moves[-1], moves[-2]))
    assert other != stepwise and stepwise != other
    assert tc.History.EMPTY.extend([]) is tc.History.EMPTY


def test_history_segment_pickles_to_an_equal_history() -> None:
    import pickle

    moves = random_match(9, until=60)[-1].history.moves()
    history = tc.History.EMPTY.extend(moves)
    assert pickle.loads(pickle.dumps(history)) == history


# -- the engine's fast paths build exactly what the slow ones build ---------------


@pytest.mark.parametrize("seed", range(3))
def test_r_dbl_2_interned_answers_list_every_subset_for_every_waiting_seat(seed: int) -> None:
    """R-DBL-2: in the window, one Double per subset of each waiting seat's doublable cards."""
    from trixcomplex.core.cards import cards_of
    from trixcomplex.core.doubling import doubling_subsets

    windows = [s for s in random_match(seed) if s.phase is tc.Phase.DOUBLE]
    assert windows
    for state in windows:
        assert state.window is not None
        expected = [
            tc.Double(s, cards_of(m))
            for s in sorted(state.window.waiting())
            for m in doubling_subsets(state.window.asked[s])
        ]
        assert list(tc.legal_moves(state)) == expected
        for seat in (0, 1, 2, 3):
            mine = [m for m in expected if m.seat == seat]
            assert list(tc.legal_moves(state, seat)) == mine


def test_r_cx_3_trick_winner_is_the_highest_card_of_the_led_suit() -> None:
    """R-CX-3: the winner of random tricks (one to four cards; with four, the taker),
    checked against the rule read literally."""
    rng = random.Random(5)
    for _ in range(3000):
        cards = tuple(rng.sample(tc.ALL_CARDS, rng.randint(1, 4)))
        leader = rng.randrange(4)
        led = [c for c in cards if c.suit == cards[0].suit]
        expected = (leader + cards.index(max(led))) % 4
        assert tc.rules.trick_winner(leader, cards) == expected
        assert tc.rules.trick_winner(leader, list(cards)) == expected


def test_r_tx_2_playable_after_a_card_is_playable_of_the_new_table() -> None:
    """R-TX-2: the playout's per-card update of the playable set is ``trix.playable``."""
    from trixcomplex.core.rules import trix_playable, trix_playable_after

    rng = random.Random(8)
    for _ in range(300):
        table, can = 0, trix_playable(0)
        while can:
            card = rng.choice([c for c in tc.ALL_CARDS if can >> c & 1])
            table |= 1 << card
            can = trix_playable_after(can, table, card)
            assert can == trix_playable(table)


def test_r_tx_1_next_to_lay_and_its_table_skip_the_seats_that_are_out() -> None:
    """R-TX-1: play passes to the left, skipping seats with empty hands: for every
    seat and every set of seats holding cards, ``next_to_lay`` and the playout's
    table ``NEXT_TO_LAY`` give the first holder after the seat (the seat itself
    when no other seat holds cards)."""
    from trixcomplex.core.rules import NEXT_TO_LAY, next_to_lay

    rng = random.Random(4)
    for holders in range(16):
        for seat in range(4):
            after = [(seat + step) % 4 for step in (1, 2, 3)]
            expected = next((s for s in after if holders >> s & 1), seat)
            hands = tuple(rng.getrandbits(52) | 1 if holders >> s & 1 else 0 for s in range(4))
            assert next_to_lay(hands, seat) == expected
            assert NEXT_TO_LAY[seat][holders] == expected


def test_r_cx_2_listed_plays_are_the_cards_of_the_legal_set_in_card_order() -> None:
    """R-CX-2, R-TX-2: the table-driven listing of plays names every card of a set, by card."""
    from trixcomplex.core.match import plays_of

    rng = random.Random(4)
    for _ in range(3000):
        mask = rng.getrandbits(52)
        for _ in range(rng.randrange(7)):
            mask &= rng.getrandbits(52)
        seat = rng.randrange(4)
        expected = tuple(tc.Play(seat, c) for c in tc.ALL_CARDS if mask >> c & 1)
        assert plays_of(seat, mask) == expected


# -- every ruleset (R-SET-1) ------------------------------------------------------

VARIANTS = [
    *tc.RULESETS,
    "partnership+doubling=False",
    "partnership+reversed_scores=True",
    "classic+penalty_cards_first=True",
    "classic+free_heart_leads=True,reversed_scores=True",
    "classic-partnership+bad_hand_redeal=True",
    "individual-complex+fixed_order=True,swapped_scores=True",
    "classic-partnership+worst_seat_loses=True",
]


@pytest.mark.parametrize("name", VARIANTS)
def test_r_set_1_playout_equals_stepping_for_every_ruleset(name: str) -> None:
    """R-SET-1, R-SET-2, R-CL-2…R-CL-7, R-OPT-1…R-OPT-8: ``playout(...) == stepping``
    from states of every phase and contract of a match of each preset and variant."""
    ruleset = tc.Ruleset.from_name(name)
    states = random_match(7, ruleset=ruleset)
    starts = states[:: max(1, len(states) // 40)] + [states[-1]]
    contracts = set()
    for k, state in enumerate(starts):
        assert state.ruleset is ruleset or state.ruleset == ruleset
        contracts.add(state.contract)
        for until in ("deal", "match"):
            assert_same(state, 100 * k + len(until), until)
        assert_same(state, 100 * k, "match", forced="play")
    assert set(ruleset.contracts) <= contracts


@pytest.mark.parametrize("name", ["classic", "classic-partnership+bad_hand_redeal=True"])
def test_r_set_1_policy_playout_equals_stepping_for_classic(name: str) -> None:
    """R-CL-2…R-CL-5, R-OPT-8: a policy's moves are applied as ``apply`` would apply them."""
    ruleset = tc.Ruleset.from_name(name)
    start = tc.new_match(ruleset)
    fast = tc.playout(start, random.Random(3), first, until="match")
    slow = stepped(start, random.Random(3), "match", pick="first")
    assert fast == slow and fast.is_over and len(fast.results) == 20


def redeal_start(seed: int) -> tc.MatchState:
    """A TRIX start of "classic-partnership+bad_hand_redeal=True" where a seat may redeal."""
    ruleset = tc.Ruleset.from_name("classic-partnership+bad_hand_redeal=True")
    rng = random.Random(seed)
    while True:
        state = tc.apply(tc.new_match(ruleset), tc.Deal.shuffled(rng))
        state = tc.apply(state, tc.Choose(state.owner, tc.Contract.TRIX))  # type: ignore[arg-type]
        if any(isinstance(m, tc.Redeal) for m in tc.legal_moves(state)):
            return state


def test_r_opt_8_playout_equals_stepping_when_a_redeal_is_legal() -> None:
    """R-OPT-8: from a TRIX start where a Redeal is listed, the playout takes the same
    path as stepping, the Redeal included, in both ``until`` modes."""
    state = redeal_start(1)
    took_redeal = False
    for seed in range(12):
        for until in ("deal", "match"):
            assert_same(state, seed, until)
            assert_same(state, seed, until, forced="play")
        after = tc.playout(state, random.Random(seed))
        if isinstance(after.history.moves()[len(state.history)], tc.Redeal):
            took_redeal = True
            # A redeal cancels the deal: it ends there, waiting for the same deal again.
            assert after.phase is tc.Phase.DEAL and after.deal_number == state.deal_number
            assert after.results == state.results
    assert took_redeal
