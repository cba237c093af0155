"""Observation tensors and the sequential table of the rl adapters (R-HID-1 … R-HID-3).

The tensor is built from the view only; the checks are indistinguishability
properties as in test_views: worlds a seat cannot tell apart give it
bit-identical tensors, while the seats whose hands differ see a difference.
"""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import (
    PLAYING,
    VIEW_RULESETS,
    deal_of,
    play,
    playing_phases,
    random_match,
    redeal_heavy_match,
)
from test_views import BAD_DEAL, NOT_BAD_DEAL, unseen_worlds
from trixcomplex.io.actions import CONTRACTS, DOUBLABLE_CARDS, NOTHING_DOUBLED, PASS, REDEAL
from trixcomplex.rl import (
    OBSERVATION_LAYOUT,
    OBSERVATION_SHAPE,
    observation_string,
    observation_tensor,
    segment,
)
from trixcomplex.rl.observation import OBSERVATION_BOUND
from trixcomplex.rl.table import CHANCE, TERMINAL, Table

RULESET_IDS = [r.name for r in VIEW_RULESETS]


def tensor(state: tc.MatchState, seat: int | None) -> np.ndarray:
    return observation_tensor(tc.view(state, seat))


def play_out(table: Table, rng: random.Random) -> Table:
    """``table`` played to its end: shuffled deals, uniform legal actions."""
    while not table.is_over:
        seat = table.to_act
        table = table.deal(rng) if seat == CHANCE else table.act(rng.choice(table.legal_actions()))
    return table


def same(a: np.ndarray, b: np.ndarray) -> bool:
    """Bit-identical."""
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def test_import_trixcomplex_needs_no_rl_package() -> None:
    """``import trixcomplex`` and ``trixcomplex.io.actions`` pull in none of the rl extras."""
    code = (
        "import sys, trixcomplex, trixcomplex.io.actions\n"
        "heavy = [m for m in ('numpy', 'pettingzoo', 'gymnasium', 'pyspiel') if m in sys.modules]\n"
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_layout_is_fixed_and_segments_read_back() -> None:
    """The layout adds up to OBSERVATION_SHAPE; a fresh deal's tensor holds the hand."""
    assert (sum(int(np.prod(s)) for _, s in OBSERVATION_LAYOUT),) == OBSERVATION_SHAPE
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
    seen = tc.view(state, 2)
    t = observation_tensor(seen)
    assert np.flatnonzero(segment(t, "hand")).tolist() == [int(c) for c in seen.hand]
    assert segment(t, "hand_sizes").tolist() == [1.0] * 4
    assert segment(t, "phase").tolist() == [0, 1, 0, 0, 0, 0]  # CHOOSE
    assert segment(t, "is_spectator").tolist() == [0.0]
    assert segment(observation_tensor(tc.view(state, None)), "hand").sum() == 0


@pytest.mark.parametrize("ruleset", VIEW_RULESETS, ids=RULESET_IDS)
def test_tensor_shape_dtype_and_contents_follow_the_view(ruleset: tc.Ruleset) -> None:
    """In every phase of a match of each ruleset: float32 of the fixed shape, within the
    bound, and the segments say what the view says (relative seats: 0 is the viewer)."""
    for state in redeal_heavy_match(ruleset, 5)[::7]:
        for seat in (None, 0, 1, 2, 3):
            seen = tc.view(state, seat)
            t = observation_tensor(seen)
            assert t.dtype == np.float32 and t.shape == OBSERVATION_SHAPE
            assert np.all(np.abs(t) <= OBSERVATION_BOUND)
            me = seat or 0
            assert np.flatnonzero(segment(t, "hand")).tolist() == [int(c) for c in seen.hand]
            sizes = segment(t, "hand_sizes") * 13
            assert [round(float(x)) for x in sizes] == [
                seen.hand_sizes[(me + r) % 4] for r in range(4)
            ]
            turn = np.flatnonzero(segment(t, "turn")).tolist()
            assert turn == ([] if seen.turn is None else [(seen.turn - me) % 4])
            for r in range(4):
                known = np.flatnonzero(segment(t, "known_holdings")[r]).tolist()
                assert known == [int(c) for c in seen.known_holdings[(me + r) % 4]]
                played = set(np.flatnonzero(segment(t, "played")[r]).tolist())
                laid = {int(c) for s, c in seen.laid if s == (me + r) % 4}
                assert laid <= played
            for r in range(4):
                who = (me + r) % 4
                passes = sum(1 for s, _ in seen.passes if s == who)
                assert round(float(segment(t, "passes")[r]) * 13) == passes
                voids = np.flatnonzero(segment(t, "voids")[r]).tolist()
                assert voids == sorted(int(suit) for suit in seen.voids[who])
                cannot = np.flatnonzero(segment(t, "cannot_hold")[r]).tolist()
                assert cannot == [int(c) for c in seen.cannot_hold[who]]
                place = np.flatnonzero(segment(t, "finishing_order")[r]).tolist()
                order = seen.finishing_order
                assert place == ([order.index(who)] if who in order else [])
                assert segment(t, "scores")[r] == np.float32(seen.score.seats[who] / 1000)
                assert segment(t, "points")[r] == np.float32(seen.points[who] / 100)
            owner = np.flatnonzero(segment(t, "owner")).tolist()
            assert owner == ([] if seen.owner is None else [(seen.owner - me) % 4])
            contract = np.flatnonzero(segment(t, "contract")).tolist()
            parts = () if seen.contract is None else seen.contract.parts  # R-OPT-9: multi-hot
            assert contract == sorted(CONTRACTS.index(p) for p in parts)
            doubled = segment(t, "doubled")
            assert sorted(zip(*np.nonzero(doubled), strict=True)) == sorted(
                ((d - me) % 4, DOUBLABLE_CARDS.index(c)) for c, d in seen.doubled
            )
            assert segment(t, "doubling_open")[0] == seen.doubling_open
            assert int(segment(t, "doublable").sum()) == len(seen.doublable)
            assert observation_string(seen) == tc.render.table_text(seen)


@settings(max_examples=15, deadline=None)
@given(
    ruleset=st.sampled_from(VIEW_RULESETS),
    seed=st.integers(0, 10**6),
    pick=st.randoms(use_true_random=False),
)
# Deal 5 (Queens), in the window: T♥ and Q♥ swapped between two other seats leaves one
# with no doublable card, so that world's window has no one left to wait for and has
# closed: a world the seat can tell apart (R-DBL-3), which the generator must skip.
@example(ruleset=tc.CLASSIC, seed=138570, pick=random.Random(42067))
def test_r_hid_1_unseen_swaps_give_bit_identical_tensors(
    ruleset: tc.Ruleset, seed: int, pick: random.Random
) -> None:
    """R-HID-1, R-HID-2: swapping two unseen same-suit cards between two other seats at the
    deal and replaying the moves gives the seat and the spectator bit-identical tensors
    and strings; the seats whose hands changed get different tensors."""
    states = redeal_heavy_match(ruleset, seed)
    i = pick.choice([k for k, s in enumerate(states) if s.phase in PLAYING])
    state = states[i]
    seat = pick.choice([0, 1, 2, 3])
    for other, a, b in unseen_worlds(states, i, seat, pick):
        assert same(tensor(other, seat), tensor(state, seat))
        assert same(tensor(other, None), tensor(state, None))
        assert observation_string(tc.view(other, seat)) == observation_string(tc.view(state, seat))
        holders = [h for h in range(4) if (state.hands[h] >> a | state.hands[h] >> b) & 1]
        assert all(not same(tensor(other, h), tensor(state, h)) for h in holders)
        return


@pytest.mark.parametrize("seed", [0, 1])
def test_r_hid_1_every_phase_has_swaps_with_identical_tensors(seed: int) -> None:
    """R-HID-1, R-HID-2: the swap property for every seat on the first states of every
    playing phase; checks that swaps were found in each phase."""
    states = random_match(seed)
    rng = random.Random(seed)
    checked = dict.fromkeys(playing_phases(tc.PARTNERSHIP), 0)
    for i, state in enumerate(states):
        if state.phase not in PLAYING or checked[state.phase] >= 8:
            continue
        for seat in range(4):
            for other, _, _ in unseen_worlds(states, i, seat, rng):
                assert same(tensor(other, seat), tensor(state, seat)), (state.phase, seat)
                checked[state.phase] += 1
                break
    assert all(checked.values()), checked


def test_r_hid_2_other_answers_leave_tensors_bit_identical() -> None:
    """R-HID-2: in the window, another seat's answer changes no tensor but its own."""
    compared = 0
    for seed in range(4):
        for state in random_match(seed, timeout_rate=0.0):
            if state.phase is not tc.Phase.DOUBLE:
                continue
            for t in sorted(state.to_act):
                for move in tc.legal_moves(state, t):
                    after = tc.apply(state, move)
                    if after.phase is not tc.Phase.DOUBLE:
                        continue
                    for seat in (None, *(s for s in range(4) if s != t)):
                        assert same(tensor(after, seat), tensor(state, seat))
                    assert not same(tensor(after, t), tensor(state, t))
                    compared += 1
    assert compared


WHO_ASKED = (
    deal_of([["KH", "2H"], ["3H", "2S"], ["4H"], ["7H"]]),
    deal_of([["2H", "4H"], ["KH", "2S"], ["3H"], ["7H"]]),
)
"""Two deals differing in which other seat holds K♥ (so who is asked), not for seat 3."""


def test_r_hid_2_who_was_asked_gives_identical_tensors() -> None:
    """R-HID-2: moving K♥ between other seats leaves seat 3's and the spectator's tensors
    bit-identical in the window."""
    a, b = (play(tc.new_match(), deal, tc.Choose(3, tc.Contract.COMPLEX)) for deal in WHO_ASKED)
    for seat in (3, None):
        assert same(tensor(a, seat), tensor(b, seat))
    assert not same(tensor(a, 0), tensor(b, 0))


def window_round(deal: tc.Deal, answer: int) -> list[tuple[int, tuple[int, ...]]]:
    """Through the Table: the seats to act from the choice until the first trick card,
    with seat 3's legal actions; every asked seat answers with ``answer`` bits or nothing."""
    table = Table.new(tc.PARTNERSHIP)
    for card in deal.deck:
        table = table.deal_card(int(card))
    table = table.act(54)  # seat 3 owns 7H: COMPLEX
    seen = []
    while table.state.phase is tc.Phase.DOUBLE or table.window_seat is not None:
        seat = table.to_act
        actions = table.legal_actions()
        seen.append((seat, actions if seat == 3 else ()))
        table = table.act(actions[-1] if answer else actions[0])
    seen.append((table.to_act, ()))
    return seen


@pytest.mark.parametrize("answer", [0, 1])
def test_r_hid_2_the_table_asks_all_four_seats_in_seat_order(answer: int) -> None:
    """R-HID-2, R-DBL-2: the adapters' window asks seats 0, 1, 2, 3 whoever holds the
    doublable cards and whatever they answer, so turn order reveals nothing; a seat with
    nothing to double has the single action NOTHING_DOUBLED."""
    rounds = [window_round(deal, answer) for deal in WHO_ASKED]
    assert rounds[0] == rounds[1]
    assert [seat for seat, _ in rounds[0]] == [0, 1, 2, 3, 3]  # then seat 3 leads (R-DBL-3)


def test_r_dbl_3_the_closing_answer_is_held_until_the_round_ends() -> None:
    """R-DBL-3, R-HID-2: when seat 0 alone is asked, its answer would close the engine's
    window at once (revealing that nobody else was asked); the table holds it until seat 3
    has had its turn, then the doubles are revealed."""
    deal = deal_of([["7H", "KH", "QS", "QH", "QD", "QC"], [], [], []])
    table = Table.new(tc.PARTNERSHIP)
    for card in deal.deck:
        table = table.deal_card(int(card))
    table = table.act(54)
    assert table.to_act == 0 and len(table.legal_actions()) == 32
    table = table.act(64)  # seat 0 doubles K♥
    for seat in (1, 2, 3):
        assert table.to_act == seat and table.legal_actions() == (NOTHING_DOUBLED,)
        assert table.state.phase is tc.Phase.DOUBLE and table.view(None).doubled == ()
        table = table.act(NOTHING_DOUBLED)
    assert table.state.phase is tc.Phase.COMPLEX and table.to_act == 0
    assert table.view(None).doubled == ((tc.parse_card("KH"), 0),)
    with pytest.raises(tc.IllegalMoveError):
        Table.new(tc.PARTNERSHIP).deal_card(0).deal_card(0)


def test_table_ends_after_deals_and_rejects_moves_when_no_seat_acts() -> None:
    """A table of ``deals=1`` ends after one finished deal; chance and the end are not
    seats; a bad action raises an IllegalMoveError and leaves the table as it was."""
    rng = random.Random(4)
    table = Table.new(tc.CLASSIC, deals=1)
    assert table.to_act == CHANCE and table.legal_actions() == ()
    with pytest.raises(ValueError, match="card is to be dealt"):
        table.act(0)
    table = table.deal(rng)
    before = table
    with pytest.raises(tc.IllegalMoveError):
        table.act(NOTHING_DOUBLED)
    assert table == before
    table = play_out(table, rng)
    assert table.to_act == TERMINAL and len(table.state.results) == 1
    with pytest.raises(ValueError, match="over"):
        table.act(0)
    with pytest.raises(ValueError):
        Table.new(tc.CLASSIC, deals=-1)


REVERSED = tc.CLASSIC.evolve(reversed_scores=True)


@pytest.mark.parametrize("ruleset", [*VIEW_RULESETS, REVERSED], ids=[*RULESET_IDS, REVERSED.name])
def test_table_totals_are_the_scores_signed_so_higher_is_better(ruleset: tc.Ruleset) -> None:
    """R-MATCH-7, R-OPT-6: at the end the totals are the Team Totals (partnership) or the
    seats' totals, negated under reversed scores; a random table match is always legal."""
    rng = random.Random(2)
    table = Table.new(ruleset)
    table = play_out(table, rng)
    score = tc.score(table.state)
    sign = -1 if ruleset.reversed_scores else 1
    if ruleset.partnership:
        assert table.totals() == tuple(sign * score.teams[s % 2] for s in range(4))
    else:
        assert table.totals() == tuple(sign * x for x in score.seats)


def redeal_round(deal: tc.Deal, demand: bool) -> tuple[list[tuple[int, tuple[int, ...]]], Table]:
    """Through the Table with ``bad_hand_redeal``: deal, seat 0 chooses TRIX; then the
    seats asked in the redeal round with their actions (seat 2's left out: it differs
    between the deals) and the table after the round."""
    table = Table.new(tc.CLASSIC.evolve(bad_hand_redeal=True))
    for card in deal.deck:
        table = table.deal_card(int(card))
    table = table.act(55)  # seat 0 owns 7H: TRIX
    seen = []
    while table.redeal_seat is not None:
        seat, actions = table.to_act, table.legal_actions()
        seen.append((seat, actions if seat != 2 else ()))
        table = table.act(REDEAL if demand and REDEAL in actions else PASS)
    return seen, table


def test_r_opt_8_the_redeal_round_asks_every_seat_and_hides_the_bad_hand() -> None:
    """R-OPT-8, R-HID-2: a TRIX deal of a bad_hand_redeal ruleset opens with a round asking
    seats 0 to 3; only the bad hand (seat 2, not to play) may answer REDEAL, which deals
    anew; with or without a bad hand the other seats see the same round."""
    bad, _ = redeal_round(BAD_DEAL, demand=False)
    fine, after = redeal_round(NOT_BAD_DEAL, demand=False)
    assert bad == fine == [(0, (PASS,)), (1, (PASS,)), (2, ()), (3, (PASS,))]
    assert after.to_act == 0 and after.state.phase is tc.Phase.TRIX
    _, table = redeal_round(BAD_DEAL, demand=False)
    assert REDEAL not in table.legal_actions()  # seat 0 plays: seat 2 kept its hand
    first = Table.new(tc.CLASSIC.evolve(bad_hand_redeal=True))
    for card in BAD_DEAL.deck:
        first = first.deal_card(int(card))
    first = first.act(55)
    for _ in range(2):
        first = first.act(PASS)
    assert first.to_act == 2 and first.legal_actions() == (PASS, REDEAL)
    with pytest.raises(tc.IllegalMoveError, match="R-OPT-8"):
        first.act(0)
    _, redealt = redeal_round(BAD_DEAL, demand=True)
    assert redealt.to_act == CHANCE and redealt.view(None).redeals == (2,)
