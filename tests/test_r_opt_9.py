"""R-OPT-9 (combined contracts, seed 002's "Trix Complex" variant), clause by clause:
hand-built deals with exact scores, the Kingdom with fewer deals, the match's end,
the choice's JSON and the refusals (docs/rulesets.rst)."""

from __future__ import annotations

import json
import random

import pytest

import trixcomplex as tc
from builders import finish_deal, hands_deal, plays, start_contract
from trixcomplex.core.moves import MoveFormatError, move_from_json, move_to_json

C = tc.Contract
COMBINED = tc.CLASSIC.evolve(combined_contracts=True)
COMBINED_PARTNERS = tc.CLASSIC_PARTNERSHIP.evolve(combined_contracts=True)

# Seat 1 holds 7♥ and so owns the first Kingdom; it holds only hearts and takes every
# trick it leads.  The Queens fall in the first two tricks, the diamonds by trick 7.
QD_DEAL = hands_deal(
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 2C 3C 4C 5C 6C 7C",
    "9D TD JD QD KD AD 8C 9C TC JC QC KC AC",
)


def test_r_opt_9_the_owner_may_choose_any_two_or_more_remaining_trick_contracts() -> None:
    """R-OPT-9, R-MATCH-5: the choices are the five contracts and the 11 combinations."""
    state = tc.apply(tc.new_match(COMBINED), QD_DEAL)
    choices = [m.contract.value for m in tc.legal_moves(state) if isinstance(m, tc.Choose)]
    assert choices[:5] == [c.value for c in tc.CLASSIC.contracts]
    assert sorted(choices[5:]) == sorted(
        [
            "KING_OF_HEARTS+QUEENS", "KING_OF_HEARTS+DIAMONDS", "KING_OF_HEARTS+LTOOSH",
            "QUEENS+DIAMONDS", "QUEENS+LTOOSH", "DIAMONDS+LTOOSH",
            "KING_OF_HEARTS+QUEENS+DIAMONDS", "KING_OF_HEARTS+QUEENS+LTOOSH",
            "KING_OF_HEARTS+DIAMONDS+LTOOSH", "QUEENS+DIAMONDS+LTOOSH",
            "KING_OF_HEARTS+QUEENS+DIAMONDS+LTOOSH",
        ]
    )  # fmt: skip
    # without the option: the five contracts only
    plain = tc.apply(tc.new_match(tc.CLASSIC), QD_DEAL)
    assert len(tc.legal_moves(plain)) == 5


def test_r_opt_9_queens_and_diamonds_in_one_deal() -> None:
    """R-OPT-9 with R-CL-3, R-CL-4, R-CL-7: −25 a Queen and −10 a diamond in one deal; only
    the Queens are doubled; the deal goes on after the last Queen and ends once the last
    diamond is taken (trick 7)."""
    state = tc.apply(
        tc.apply(tc.new_match(COMBINED), QD_DEAL), tc.Choose(1, ["QUEENS", "DIAMONDS"])
    )
    assert state.contract is C.QUEENS_DIAMONDS and state.phase is tc.Phase.DOUBLE
    assert state.window is not None  # the Queens' holders are asked, nobody about K♥
    queens = {
        s: sum(1 << tc.parse_card(q) for q in qs)
        for s, qs in {0: ["QS"], 1: ["QH"], 3: ["QD", "QC"]}.items()
    }
    assert state.window.asked == (queens[0], queens[1], 0, queens[3])
    state = start_contract(QD_DEAL, C.QUEENS_DIAMONDS, COMBINED, {0: "QS"})
    # both parts count as played while the deal is played (R-SET-2)
    assert state.remaining_contracts == (C.KING_OF_HEARTS, C.LTOOSH, C.TRIX)
    assert tc.view(state, 2).remaining_contracts == state.remaining_contracts
    state = plays(state, "QH 2D QD QS  2H 3D QC 2S")  # every Queen is taken by seat 1
    assert state.phase is tc.Phase.TRICKS  # QUEENS alone would end here (R-CL-3)
    assert state.complex is not None and state.complex.points == (25, -50 - 75 - 30, 0, 0)
    state = plays(state, "3H 4D 9D 3S  4H 5D TD 4S  5H 6D JD 5S  6H 7D KD 6S")
    assert state.phase is tc.Phase.TRICKS
    after = plays(state, "7H 8D AD 7S")  # the 13th diamond: the deal ends (R-CL-4)
    assert after.phase is tc.Phase.DEAL and after.deal_number == 1
    result = after.results[-1]
    assert result.contract is C.QUEENS_DIAMONDS and result.kingdom == 1
    # seat 1: QS doubled by seat 0 (case 1, −50), QH QD QC (−75), 13 diamonds (−130)
    assert result.points == (25, -255, 0, 0) and sum(result.points) == -230
    assert [s.tricks for s in result.seats] == [0, 7, 0, 0]
    assert [(str(d.card), d.case) for d in result.doubled] == [("QS", 1)]
    nxt = tc.apply(after, tc.Deal.shuffled(random.Random(3)))
    assert nxt.kingdom == 1 and nxt.owner == 1
    assert nxt.remaining_contracts == (C.KING_OF_HEARTS, C.LTOOSH, C.TRIX)
    assert {m.contract for m in tc.legal_moves(nxt)} == {
        C.KING_OF_HEARTS, C.LTOOSH, C.TRIX, C.KING_OF_HEARTS_LTOOSH
    }  # fmt: skip


KL_DEAL = hands_deal(
    "7H 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
    "AS 2H 3H 4H 5H 6H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
)


def test_r_opt_9_king_of_hearts_and_ltoosh_in_one_deal() -> None:
    """R-OPT-9 with R-CL-2, R-CL-5: no heart lead while holding another suit (K♥ is a
    part); K♥ −75 and −15 a trick; all 13 tricks are played (Ltoosh)."""
    state = start_contract(KL_DEAL, C.KING_OF_HEARTS_LTOOSH, COMBINED)
    assert state.owner == 0 and state.turn == 0
    leads = {m.card for m in tc.legal_moves(state)}
    assert tc.parse_card("7H") not in leads and len(leads) == 12  # R-CL-2
    with pytest.raises(tc.IllegalMoveError) as err:
        tc.apply(state, tc.Play(0, "7H"))
    assert err.value.rule == "R-CL-2"
    # under LTOOSH alone the heart lead is free
    ltoosh = start_contract(KL_DEAL, C.LTOOSH, tc.CLASSIC)
    assert tc.parse_card("7H") in {m.card for m in tc.legal_moves(ltoosh)}
    state = plays(state, "2S AS 2D 2C  KH 3D 3C 7H")  # seat 1 takes K♥ in trick 2
    assert state.phase is tc.Phase.TRICKS  # KING_OF_HEARTS alone would end here
    assert state.complex is not None and state.complex.points == (0, -30 - 75, 0, 0)
    after = finish_deal(state)  # seat 1 leads hearts; nobody else holds one
    result = after.results[-1]
    assert sum(s.tricks for s in result.seats) == 13
    assert result.points == (0, -270, 0, 0) and after.scores == (0, -270, 0, 0)


def test_r_opt_9_the_window_asks_only_about_the_parts_doublable_cards() -> None:
    """R-OPT-9, R-CL-7: K♥+Ltoosh asks the K♥ holder only; Diamonds+Ltoosh opens no window."""
    state = tc.apply(
        tc.apply(tc.new_match(COMBINED), KL_DEAL), tc.Choose(0, C.KING_OF_HEARTS_LTOOSH)
    )
    assert state.window is not None
    assert state.window.asked == (0, 1 << tc.parse_card("KH"), 0, 0)
    plain = tc.apply(tc.apply(tc.new_match(COMBINED), KL_DEAL), tc.Choose(0, C.DIAMONDS_LTOOSH))
    assert plain.phase is tc.Phase.TRICKS and plain.turn == 0


def _play_kingdom(
    state: tc.MatchState, choices: list[tc.Contract], rng: random.Random
) -> tc.MatchState:
    for contract in choices:
        state = tc.apply(state, tc.Deal.shuffled(rng))
        if state.phase is tc.Phase.CHOOSE:  # else the last contract, started at once
            state = tc.apply(state, tc.Choose(state.owner, contract))  # type: ignore[arg-type]
        assert state.contract is contract
        while state.phase is tc.Phase.DOUBLE:
            state = tc.apply(state, tc.Timeout())
        state = finish_deal(state)
    return state


def test_r_opt_9_a_kingdom_has_fewer_deals_and_the_match_ends_when_all_are_used() -> None:
    """R-OPT-9, R-MATCH-1, R-MATCH-4, R-MATCH-8: a Kingdom ends once its five contracts
    are used up (2, 3 or 5 deals); ownership passes then; the match ends after the
    fourth Kingdom, here after 2 + 3 + 5 + 2 = 12 deals."""
    rng = random.Random(11)
    every = C.KING_OF_HEARTS_QUEENS_DIAMONDS_LTOOSH
    state = _play_kingdom(tc.new_match(COMBINED), [C.TRIX, every], rng)
    first = state.results[0].owner
    assert [r.kingdom for r in state.results] == [1, 1]
    assert sum(state.scores) == 0  # the Kingdom sums to zero (R-CL-8)
    state = _play_kingdom(state, [C.QUEENS_LTOOSH, C.TRIX, C.KING_OF_HEARTS_DIAMONDS], rng)
    state = _play_kingdom(state, list(tc.CLASSIC.contracts), rng)
    assert state.phase is tc.Phase.DEAL and state.kingdom == 3
    state = _play_kingdom(state, [every, C.TRIX], rng)
    assert state.is_over and state.deal_number == 12 and state.kingdom == 4
    assert [r.kingdom for r in state.results] == [1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4]
    assert [r.owner for r in state.results] == [
        (first + k - 1) % 4 for k in (1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4)
    ]
    assert sum(state.scores) == 0 and tc.score(state).result is not None
    assert tc.legal_moves(state) == ()


def test_r_opt_9_a_used_contract_cannot_be_combined_again() -> None:
    """R-SET-2: a combination with a part already played is refused, naming the clause."""
    rng = random.Random(5)
    state = _play_kingdom(tc.new_match(COMBINED), [C.QUEENS], rng)
    state = tc.apply(state, tc.Deal.shuffled(rng))
    with pytest.raises(tc.IllegalMoveError) as err:
        tc.apply(state, tc.Choose(state.owner, C.QUEENS_DIAMONDS))  # type: ignore[arg-type]
    assert err.value.rule == "R-SET-2"


def test_r_opt_9_no_combination_without_the_option() -> None:
    """R-OPT-9: without ``combined_contracts`` a combined choice is illegal."""
    state = tc.apply(tc.new_match(tc.CLASSIC), QD_DEAL)
    with pytest.raises(tc.IllegalMoveError) as err:
        tc.apply(state, tc.Choose(1, C.QUEENS_DIAMONDS))
    assert err.value.rule == "R-OPT-9"
    assert not tc.is_legal(state, tc.Choose(1, C.QUEENS_DIAMONDS))


@pytest.mark.parametrize(
    "ruleset",
    [tc.PARTNERSHIP, tc.INDIVIDUAL_COMPLEX, tc.CLASSIC.evolve(contracts=("QUEENS", "TRIX"))],
    ids=lambda r: r.name,
)
def test_r_opt_9_needs_the_four_trick_contracts(ruleset: tc.Ruleset) -> None:
    """R-OPT-9: a ruleset without KING_OF_HEARTS, QUEENS, DIAMONDS and LTOOSH refuses it."""
    with pytest.raises(ValueError, match="R-OPT-9"):
        ruleset.evolve(combined_contracts=True)


def test_r_opt_9_a_ruleset_lists_single_contracts() -> None:
    """R-SET-1, R-OPT-9: combinations are not contracts of a ruleset's list."""
    with pytest.raises(ValueError, match="single contracts"):
        tc.CLASSIC.evolve(contracts=(C.QUEENS_DIAMONDS, C.TRIX))


def test_r_opt_9_the_ruleset_name_round_trips() -> None:
    """R-SET-1: the option is in the canonical name and read back."""
    assert COMBINED.name == "classic+combined_contracts=True"
    assert tc.Ruleset.from_name(COMBINED.name) == COMBINED
    assert tc.Ruleset.from_name(COMBINED_PARTNERS.name) == COMBINED_PARTNERS


def test_r_opt_9_a_choice_in_json() -> None:
    """Record format: one contract stays a string; a combination is the list of its parts."""
    single = tc.Choose(2, C.QUEENS)
    assert move_to_json(single) == {"move": "choose", "seat": 2, "contract": "QUEENS"}
    both = tc.Choose(2, ["DIAMONDS", "QUEENS"])
    assert both.contract is C.QUEENS_DIAMONDS
    assert move_to_json(both) == {"move": "choose", "seat": 2, "contract": ["QUEENS", "DIAMONDS"]}
    assert move_from_json(move_to_json(both)) == both
    assert move_from_json({"move": "choose", "seat": 2, "contract": ["DIAMONDS", "QUEENS"]}) == both
    assert str(both) == "seat 2 chooses QUEENS + DIAMONDS"


@pytest.mark.parametrize(
    "named",
    [
        ["QUEENS"],
        ["QUEENS", "QUEENS"],
        ["TRIX", "QUEENS"],
        ["COMPLEX", "QUEENS"],
        [],
        "QUEENS+DIAMONDS",
        ["queens", "DIAMONDS"],
    ],
)
def test_r_opt_9_a_bad_combination_in_json(named: object) -> None:
    """Record format: a list of fewer than two, repeated or non-trick contracts is refused."""
    with pytest.raises(MoveFormatError) as err:
        move_from_json({"move": "choose", "seat": 0, "contract": named})
    assert err.value.code == "move.bad-contract"


def test_r_opt_9_a_record_with_combined_deals_round_trips() -> None:
    """Record format: a match with combined deals is written and read back to an equal state."""
    rng = random.Random(2)
    state = _play_kingdom(tc.new_match(COMBINED_PARTNERS), [C.KING_OF_HEARTS_QUEENS, C.TRIX], rng)
    data = tc.Record.of(state).to_json()
    chosen = [m for m in data["moves"] if m["move"] == "choose"]
    assert chosen[0]["contract"] == ["KING_OF_HEARTS", "QUEENS"]
    assert tc.replay_json(json.loads(json.dumps(data))) == state


def test_r_opt_9_text_pictures_scoresheet_and_cli_name_the_parts() -> None:
    """R-OPT-9: a combined deal is named by its parts in the table text and SVG, the
    move text, the scoresheet, and the CLI reads it typed in any order."""
    from trixcomplex.cli.play import _parse_answer

    state = tc.apply(tc.new_match(COMBINED), QD_DEAL)
    assert _parse_answer("diamonds + queens", tc.legal_moves(state)) == tc.Choose(
        1, C.QUEENS_DIAMONDS
    )
    assert _parse_answer("Queens+Diamonds", tc.legal_moves(state)) == tc.Choose(
        1, C.QUEENS_DIAMONDS
    )
    assert tc.render.move_text(tc.Choose(1, C.QUEENS_DIAMONDS)).count("Queens + Diamonds") == 1
    state = start_contract(QD_DEAL, C.QUEENS_DIAMONDS, COMBINED)
    seen = tc.view(state, 1)
    assert "Queens + Diamonds" in tc.render.table_text(seen)
    assert "Queens + Diamonds" in tc.render.table_svg(seen)
    over = finish_deal(state)
    sheet = tc.format_scoresheet(over)
    assert "Queens + Diamonds" in sheet and "-230" in sheet.replace("−", "-")


def test_r_opt_9_a_saved_state_and_view_in_a_combined_deal_round_trip() -> None:
    """Record format, R-OPT-9: a state and a view inside a combined deal (and after it) are
    written with the contract ``"QUEENS+DIAMONDS"`` and read back equal."""
    state = plays(start_contract(QD_DEAL, C.QUEENS_DIAMONDS, COMBINED), "QH 2D QD QS")
    data = tc.to_json(state)
    assert data["state"]["contract"] == "QUEENS+DIAMONDS"
    assert tc.from_json(tc.MatchState, json.loads(json.dumps(data))) == state
    seen = tc.view(state, 0)
    assert tc.from_json(tc.View, json.loads(json.dumps(tc.to_json(seen)))) == seen
    after = finish_deal(state)
    assert tc.from_json(tc.MatchState, json.loads(json.dumps(tc.to_json(after)))) == after
