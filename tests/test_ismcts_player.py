"""OpenSpiel's ISMCTS as a trixcomplex bot (:class:`~trixcomplex.rl.openspiel.ISMCTSPlayer`):
it decides from its seat's view only (R-HID-1, R-HID-2, checked by indistinguishability),
reproducibly from its generator, and plays legal moves through the hosts and the adapter."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pyspiel
import pytest

import trixcomplex as tc
from builders import PLAYING, random_match, redeal_heavy_match
from trixcomplex.core.rules import redeal_seat
from trixcomplex.rl.openspiel import ISMCTSPlayer, TrixComplexState
from trixcomplex.rl.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import strength

PLAYER = ISMCTSPlayer(simulations=40)


def decisions(seeds: range) -> Iterator[tuple[tc.MatchState, int]]:
    """States of random partnership matches and a seat asked there with two or more
    legal moves: the first few of each playing phase (the doubling window included)."""
    for seed in seeds:
        seen = dict.fromkeys(PLAYING, 0)
        for state in random_match(seed, timeout_rate=0.0):
            if state.phase not in PLAYING or seen[state.phase] >= 3:
                continue
            for seat in range(4):
                if len(tc.legal_moves(state, seat)) >= 2:
                    seen[state.phase] += 1
                    yield state, seat
                    break


def twin(state: tc.MatchState, seat: int, rng: random.Random) -> tc.MatchState:
    """Another world ``seat`` cannot tell from ``state``: other hands dealt anew."""
    seen = tc.view(state, seat)
    for _ in range(20):
        other = tc.sample_world(seen, rng)
        if other.hands != state.hands:
            assert tc.view(other, seat) == seen
            return other
    raise AssertionError("no other world found")


def table_at(state: tc.MatchState, seat: int) -> TrixComplexState:
    """The OpenSpiel state of ``state`` with ``seat`` to act, ending with the deal."""
    window = seat if state.phase is tc.Phase.DOUBLE else None
    return TrixComplexState.from_table(
        pyspiel.load_game(
            "python_trix_complex",
            {"ruleset": state.ruleset.name, "deals": len(state.results) + 1},
        ),
        Table(state, deals=len(state.results) + 1, window_seat=window),
    )


def test_r_hid_1_choose_picks_the_same_move_in_worlds_the_seat_cannot_tell_apart() -> None:
    """R-HID-1, R-HID-2: the real world and another with the same view for the seat (the
    hidden hands dealt anew, in the doubling window nobody else's answer) get the same
    move from the same seed, in every playing phase."""
    rng = random.Random(3)
    phases = set()
    for state, seat in decisions(range(2)):
        other = twin(state, seat, rng)
        legal = tc.legal_moves(state, seat)
        assert tc.legal_moves(other, seat) == legal
        move = PLAYER.choose(tc.view(state, seat), legal, random.Random(9))
        assert move in legal
        assert PLAYER.choose(tc.view(other, seat), legal, random.Random(9)) == move
        phases.add(state.phase)
    assert phases == set(PLAYING) - {tc.Phase.TRICKS}  # partnership: no classic tricks


def test_r_hid_1_the_search_from_an_adapter_state_reads_only_the_information_state() -> None:
    """R-HID-1, R-HID-2: :meth:`ISMCTSPlayer.step` on two OpenSpiel states with the same
    information state for the seat to act (the real hands, and others the seat cannot
    tell apart) picks the same action from the same seed: every simulation searches a
    resampled world, never the state's own hidden cards."""
    rng = random.Random(4)
    checked = 0
    for state, seat in decisions(range(2)):
        if state.phase is tc.Phase.DOUBLE:
            continue  # the window's tables are asked in seat order: seat 0 only here
        real, other = table_at(state, seat), table_at(twin(state, seat, rng), seat)
        assert real.current_player() == other.current_player() == seat
        assert real.information_state_string(seat) == other.information_state_string(seat)
        assert PLAYER.step(real, random.Random(9)) == PLAYER.step(other, random.Random(9))
        checked += 1
    assert checked >= 10


def test_choose_is_reproducible_from_its_generator_and_draws_from_it() -> None:
    """The same seed gives the same move; the generator is the bot's only source of
    randomness (it advances), and a forced move is played without a search."""
    state, seat = next(d for d in decisions(range(1)) if d[0].phase is tc.Phase.COMPLEX)
    seen, legal = tc.view(state, seat), tc.legal_moves(state, seat)
    a, b = random.Random(11), random.Random(11)
    assert PLAYER.choose(seen, legal, a) == PLAYER.choose(seen, legal, b)
    assert a.getstate() == b.getstate() != random.Random(11).getstate()
    untouched = random.Random(11)
    assert PLAYER.choose(seen, legal[:1], untouched) == legal[0]
    assert untouched.getstate() == random.Random(11).getstate()


def test_r_opt_8_wants_redeal_answers_alike_in_worlds_the_seat_cannot_tell_apart() -> None:
    """R-OPT-8, R-HID-1: the seat holding a bad TRIX hand is asked whether it demands a
    redeal; its answer is a search's too, the same in a world it cannot tell apart."""
    ruleset = tc.Ruleset.from_name("classic+bad_hand_redeal=True")
    rng = random.Random(5)
    asked = 0
    for seed in range(40):
        for state in redeal_heavy_match(ruleset, seed):
            seat = redeal_seat(state)
            if seat is None:
                continue
            other = twin(state, seat, rng)
            answer = PLAYER.wants_redeal(tc.view(state, seat), random.Random(2))
            assert PLAYER.wants_redeal(tc.view(other, seat), random.Random(2)) is answer
            asked += 1
            break
        if asked >= 2:
            break
    assert asked >= 2


def test_r_opt_8_the_redeal_round_and_the_first_card_are_told_apart() -> None:
    """R-OPT-8: the table's redeal round shows in no view, so the TRIX owner holding a bad
    hand sees the same when asked for a redeal and for its first card; the search keeps
    the two apart (a PASS or REDEAL from the round is never tried as its first card, which
    the table would refuse, R-SEAT-1).  Seat 3 is asked last in the round, so its search
    reaches its own first card at once."""
    ruleset = tc.Ruleset.from_name("classic+bad_hand_redeal=True")
    asked = 0
    for seed in range(60):
        for state in redeal_heavy_match(ruleset, seed):
            seat = redeal_seat(state)
            if seat != 3 or state.owner != 3:
                continue
            for draw in range(4):
                PLAYER.wants_redeal(tc.view(state, seat), random.Random(draw))
            asked += 1
            break
        if asked >= 3:
            break
    assert asked >= 3


def test_plays_a_deal_through_the_adapter_on_both_paths() -> None:
    """The player plays seats 0 and 2 by :meth:`~ISMCTSPlayer.step` on the OpenSpiel state
    and seats 1 and 3 as a bot of the table (:meth:`Table.bot_action`, its view only);
    every action is legal, and the deal is played to its end."""
    player = ISMCTSPlayer(simulations=8)
    game = pyspiel.load_game("python_trix_complex", {"ruleset": "classic", "deals": 1})
    state = game.new_initial_state()
    rng = random.Random(6)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        seat = state.current_player()
        by_search = seat % 2 == 0
        action = player.step(state, rng) if by_search else state.table.bot_action(player, rng)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert len(state.table.state.results) == 1
    assert state.returns() == list(state.table.totals())


def test_from_table_refuses_a_table_of_another_game() -> None:
    """A table of another ruleset or horizon is not a state of the game: a ValueError
    naming both."""
    game = pyspiel.load_game("python_trix_complex", {"ruleset": "classic", "deals": 1})
    with pytest.raises(ValueError, match="partnership"):
        TrixComplexState.from_table(game, Table.new(tc.PARTNERSHIP, deals=1))
    with pytest.raises(ValueError, match="after 2 deal"):
        TrixComplexState.from_table(game, Table.new(tc.CLASSIC, deals=2))


def test_the_strength_ladder_names_ismcts_players() -> None:
    """``benchmarks/strength.py`` plays ``ismcts:N`` as an ISMCTSPlayer of N simulations;
    a bad N is refused with a ValueError naming it."""
    assert strength.bot("ismcts:7") == ISMCTSPlayer(simulations=7)
    assert strength.bot("ISMCTS:50").simulations == 50  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="ismcts:N"):
        strength.bot("ismcts:many")
    with pytest.raises(ValueError, match="simulations=0"):
        strength.bot("ismcts:0")
