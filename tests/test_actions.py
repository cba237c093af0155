"""Integer actions (trixcomplex.io.actions): a fixed table covering every player move of
every ruleset, round trips, and agreement with the engine's legal moves."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import VIEW_RULESETS, play, random_match_of, redeal_heavy_match
from trixcomplex.core.cards import ALL_CARDS, cards_of
from trixcomplex.io.actions import (
    ACTION_SPACE_VERSION,
    CHOOSE_BASE,
    DOUBLABLE_CARDS,
    DOUBLE_BASE,
    NOTHING_DOUBLED,
    NUM_ACTIONS,
    PASS,
    REDEAL,
    ActionError,
    action_mask,
    action_name,
    action_to_move,
    legal_actions,
    move_to_action,
)

RULESET_IDS = [r.name for r in VIEW_RULESETS]


def every_player_move(seat: int) -> list[tc.PlayerMove]:
    """Every player move ``seat`` could ever make under any ruleset (R-DBL-1: the doubles
    are the subsets of K♥ and the Queens)."""
    moves: list[tc.PlayerMove] = [tc.Play(seat, c) for c in ALL_CARDS]
    moves += [tc.Pass(seat), tc.Redeal(seat)]
    moves += [tc.Choose(seat, c) for c in tc.Contract]
    for bits in range(32):
        moves.append(tc.Double(seat, [c for i, c in enumerate(DOUBLABLE_CARDS) if bits >> i & 1]))
    return moves


def test_the_table_is_fixed() -> None:
    """The documented table of version 2: ids never change meaning without a new version;
    version 2 only added the combined contracts (R-OPT-9) after the 92 ids of version 1."""
    assert (ACTION_SPACE_VERSION, NUM_ACTIONS) == (2, 103)
    assert move_to_action(tc.Play(2, "2S")) == 0 and move_to_action(tc.Play(2, "AC")) == 51
    assert move_to_action(tc.Play(0, "TD")) == 2 * 13 + 8
    assert (PASS, REDEAL, CHOOSE_BASE, DOUBLE_BASE) == (52, 53, 54, 60)
    assert move_to_action(tc.Choose(0, "COMPLEX")) == 54
    assert move_to_action(tc.Choose(0, "TRIX")) == 55
    assert move_to_action(tc.Choose(0, "LTOOSH")) == 59
    assert move_to_action(tc.Double(0, [])) == NOTHING_DOUBLED == 60
    assert move_to_action(tc.Double(0, ["QS"])) == 61
    assert move_to_action(tc.Double(0, ["KH"])) == 64
    assert move_to_action(tc.Double(0, ["QS", "QH", "KH", "QD", "QC"])) == 91
    assert [str(c) for c in DOUBLABLE_CARDS] == ["QS", "QH", "KH", "QD", "QC"]
    assert move_to_action(tc.Choose(0, ["KING_OF_HEARTS", "QUEENS"])) == 92
    assert move_to_action(tc.Choose(0, ["QUEENS", "DIAMONDS"])) == 95
    assert move_to_action(tc.Choose(0, ["LTOOSH", "DIAMONDS", "QUEENS", "KING_OF_HEARTS"])) == 102
    assert action_name(95) == "choose QUEENS+DIAMONDS"


@pytest.mark.parametrize("seat", range(4))
def test_every_move_has_its_own_id_and_round_trips(seat: int) -> None:
    """The ids of all player moves of a seat are exactly range(NUM_ACTIONS), one each."""
    moves = every_player_move(seat)
    ids = [move_to_action(m) for m in moves]
    assert sorted(ids) == list(range(NUM_ACTIONS))
    names = {action_name(a) for a in ids}
    assert len(names) == NUM_ACTIONS


@pytest.mark.parametrize("ruleset", VIEW_RULESETS, ids=RULESET_IDS)
def test_r_dbl_1_every_ruleset_doubles_only_cards_of_the_table(ruleset: tc.Ruleset) -> None:
    """R-DBL-1, R-CL-7: whatever a ruleset lets a seat double is among DOUBLABLE_CARDS, so
    the 32 doubling ids cover every answer."""
    for contract in ruleset.contracts:
        if contract.is_trick_contract:
            doublable = set(cards_of(ruleset.trick_rules(contract).doublable))
            assert doublable <= set(DOUBLABLE_CARDS)


def test_non_player_moves_and_undoublable_cards_have_no_id() -> None:
    """Deal and Timeout are not player moves; a Double of a card outside R-DBL-1 has no id."""
    with pytest.raises(ValueError, match="not a player move"):
        move_to_action(tc.Timeout())  # type: ignore[arg-type]
    with pytest.raises(ActionError, match="R-DBL-1"):
        move_to_action(tc.Double(0, ["AS"]))


def check_actions_agree(state: tc.MatchState) -> None:
    """Every legal move has an action, every legal action a legal move; in the state
    and in the seat's own view; the mask marks exactly the legal actions."""
    for seat in range(4):
        moves = tc.legal_moves(state, seat)
        actions = legal_actions(state, seat)
        assert sorted(move_to_action(m) for m in moves) == list(actions)
        assert len(set(actions)) == len(actions)
        assert all(type(a) is int for a in actions)  # plain ints, never Cards (an int subclass)
        assert {action_to_move(state, seat, a) for a in actions} == set(moves)
        seen = tc.view(state, seat)
        assert legal_actions(seen, seat) == actions
        assert all(action_to_move(seen, seat, a) == action_to_move(state, seat, a) for a in actions)
        mask = action_mask(state, seat)
        assert len(mask) == NUM_ACTIONS
        assert [a for a in range(NUM_ACTIONS) if mask[a]] == list(actions)
        assert action_mask(seen, seat) == mask


@settings(max_examples=12, deadline=None)
@given(ruleset=st.sampled_from(VIEW_RULESETS), seed=st.integers(0, 10**6))
def test_every_legal_move_has_an_action_and_every_legal_action_a_legal_move(
    ruleset: tc.Ruleset, seed: int
) -> None:
    """Checks R-SEAT-1 for actions over a random match of every preset and variant (with
    redeals where the ruleset has them): legal moves and legal actions are in bijection."""
    for state in redeal_heavy_match(ruleset, seed)[::3]:
        check_actions_agree(state)


@pytest.mark.parametrize("ruleset", tc.RULESETS.values(), ids=list(tc.RULESETS))
def test_every_kind_of_action_occurs_in_a_match_of_each_preset(ruleset: tc.Ruleset) -> None:
    """Each preset's random matches use plays, passes, choices and doubles (with their
    subsets), each through its id; the windows' legal ids are 2**k doubling ids."""
    kinds: set[str] = set()
    for seed in range(2):
        for state in random_match_of(ruleset, seed):
            if state.phase is tc.Phase.DOUBLE:
                check_actions_agree(state)
            for seat in range(4):
                for a in legal_actions(state, seat):
                    kinds.add(action_name(a).split()[0])
                if state.phase is tc.Phase.DOUBLE:
                    ids = legal_actions(state, seat)
                    if ids:
                        k = len(tc.view(state, seat).doublable)
                        assert len(ids) == 2**k and NOTHING_DOUBLED in ids
    assert kinds == {"play", "pass", "choose", "double"}


def test_r_opt_8_redeal_has_its_action() -> None:
    """R-OPT-8: a bad hand's Redeal is REDEAL in its own legal actions."""
    ruleset = tc.CLASSIC.evolve(bad_hand_redeal=True)
    for state in redeal_heavy_match(ruleset, 3):
        for seat in range(4):
            if tc.Redeal(seat) in tc.legal_moves(state, seat):
                assert REDEAL in legal_actions(state, seat)
                assert action_to_move(state, seat, REDEAL) == tc.Redeal(seat)
                return
    raise AssertionError("no redeal offered in the match")


def test_illegal_actions_are_rejected_naming_the_action_and_rule() -> None:
    """R-SEAT-1: an id out of range, another seat's turn, a move not legal now: ActionError
    (an IllegalMoveError, a ValueError), and the view of another seat is refused."""
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
    owner = state.owner
    assert owner is not None
    other = (owner + 1) % 4
    with pytest.raises(ActionError, match=r"0\.\.102"):
        action_to_move(state, owner, NUM_ACTIONS)
    with pytest.raises(ActionError, match=r"0\.\.102"):
        action_to_move(state, owner, -1)
    with pytest.raises(ActionError, match=r"play AS is not a legal move of seat .*R-SEAT-1"):
        action_to_move(state, owner, 12)
    with pytest.raises(tc.IllegalMoveError, match="choose COMPLEX"):
        action_to_move(state, other, CHOOSE_BASE)
    with pytest.raises(ValueError, match="the view is seat"):
        legal_actions(tc.view(state, owner), other)
    with pytest.raises(ValueError):
        legal_actions(state, 4)
    assert legal_actions(state, other) == () and not any(action_mask(state, other))


def test_r_dbl_2_a_window_answer_maps_to_its_subset() -> None:
    """R-DBL-2: in a hand-built window the asked seat's ids are the subsets of its cards."""
    from builders import deal_of

    deal = deal_of([["7H", "KH", "QS"], ["QH"], ["QD"], ["QC"]])
    state = play(tc.new_match(), deal, tc.Choose(0, "COMPLEX"))
    assert legal_actions(state, 0) == (60, 61, 64, 65)
    assert action_to_move(state, 0, 65) == tc.Double(0, ["QS", "KH"])
    assert legal_actions(state, 1) == (60, 62)
    assert legal_actions(state, 3) == (60, 76)
