"""The rulesets of issue 8, clause by clause (docs/rulesets.rst).

Hand-built deals with exact expected numbers for every clause R-SET-1, R-SET-2,
R-IND-1, R-CL-1 … R-CL-8, R-CLP-1 and R-OPT-1 … R-OPT-8; the properties that hold
for every ruleset (sums, cards in one place, listed moves) are in
``test_properties.py`` and ``test_state_machine.py``.
"""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path
from typing import Literal

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import (
    SUITS_DEAL,
    deal_of,
    deal_total,
    finish_deal,
    first_legal,
    hands_deal,
    plays,
    random_match,
    random_match_of,
    start_contract,
)
from trixcomplex.core.scoring import winners

C = tc.Contract
KH, QUEENS, DIAMONDS, LTOOSH, TRIX = (
    C.KING_OF_HEARTS,
    C.QUEENS,
    C.DIAMONDS,
    C.LTOOSH,
    C.TRIX,
)
COMPLEX = C.COMPLEX
OPTIONS = [a.name for a in attrs.fields(tc.Ruleset) if a.type in (bool, "bool")]

# -- hand-built deals ------------------------------------------------------------

# Seat 0 holds 7H (owns Kingdom 1, leads) and must lead a spade or a diamond; seat 1 is
# void in spades and holds K♥; seat 2 takes a spade lead with AS; seat 3 is void in
# spades and holds one diamond (AD) and no K♥/Queen.
KH_DISCARD_DEAL = hands_deal(
    "7H 2S 3S 4S 5S 6S 7S 2D 3D 4D 5D 6D 7D",
    "KH 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
    "AS KS QS JS TS 9S 8S 8D 9D TD JD QD KD",
    "2H 3H 4H 5H 6H 8H 9H TH JH QH AH AD AC",
)
# Seat 0 owns with AS and twelve hearts (no K♥); seat 1 holds K♥ and twelve spades.
# Trick 1: AS takes; then seat 0 holds only hearts and leads one; seat 1 must play K♥.
KH_FOLLOW_DEAL = hands_deal(
    "7H AS 2H 3H 4H 5H 6H 8H 9H TH JH QH AH",
    "KH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
)
# Seat 0 owns with twelve spades; seat 1 follows the first spade with 2S, then holds only
# hearts (QH among them); seats 2 and 3 hold all diamonds and all clubs (QD, QC).
QUEENS_DEAL = hands_deal(
    "7H AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S",
    "2S 2H 3H 4H 5H 6H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
)
QUEENS_PLAY = "AS 2S QD QC  KS QH 2D 2C  QS 3H 3D 3C"  # seat 0 takes all four Queens
# Seat 0 owns with twelve spades and takes every trick; the others discard diamonds,
# and the 13th diamond falls in trick 5.
DIAMONDS_DEAL = hands_deal(
    "7H AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S",
    "2S 2D 3D 4D 2H 3H 4H 5H 6H 8H 9H TH JH",
    "5D 6D 7D 8D 9D QH KH AH 2C 3C 4C 5C 6C",
    "TD JD QD KD AD 7C 8C 9C TC JC QC KC AC",
)
DIAMONDS_PLAY = "AS 2S 5D TD  KS 2D 6D JD  QS 3D 7D QD  JS 4D 8D KD  TS 2H 9D AD"


def classic(**options: bool) -> tc.Ruleset:
    """CLASSIC with ``options`` (CLASSIC itself without)."""
    return tc.CLASSIC.evolve(**options) if options else tc.CLASSIC


def policy_match(ruleset: tc.Ruleset, seed: int, *, last: bool = False) -> list[tc.MatchState]:
    """Every state of a match with seeded shuffles and a deterministic policy: the first
    listed move, or (``last``) the last one, which doubles every doublable card and
    chooses the last remaining contract."""
    pick: Literal["first", "last"] = "last" if last else "first"
    return random_match(seed, ruleset=ruleset, timeout_rate=0.0, pick=pick)


def rejected(state: tc.MatchState, move: tc.Move) -> tc.IllegalMoveError:
    """The error ``move`` raises; the state is left equal to itself."""
    twin = copy.deepcopy(state)
    with pytest.raises(tc.IllegalMoveError) as info:
        tc.apply(state, move)
    assert state == twin
    assert info.value.move is move
    return info.value


def owner_of(state: tc.MatchState) -> int:
    """The Kingdom owner of a dealt state."""
    assert state.owner is not None
    return state.owner


def seven_of_hearts_seat(deal: tc.Deal) -> int:
    return next(s for s in range(4) if "7H" in {str(c) for c in deal.hand(s)})


# -- R-SET-1: rulesets are data --------------------------------------------------


def test_r_set_1_presets_and_their_fields() -> None:
    """R-SET-1, R-IND-1, R-CL-1, R-CLP-1: the four presets, by name, with their fields."""
    assert dict(tc.RULESETS) == {
        "partnership": tc.PARTNERSHIP,
        "individual-complex": tc.INDIVIDUAL_COMPLEX,
        "classic": tc.CLASSIC,
        "classic-partnership": tc.CLASSIC_PARTNERSHIP,
    }
    assert tc.PARTNERSHIP.contracts == tc.INDIVIDUAL_COMPLEX.contracts == (COMPLEX, TRIX)
    assert (
        tc.CLASSIC.contracts
        == tc.CLASSIC_PARTNERSHIP.contracts
        == (
            KH,
            QUEENS,
            DIAMONDS,
            LTOOSH,
            TRIX,
        )
    )
    assert [r.partnership for r in tc.RULESETS.values()] == [True, False, False, True]
    assert [r.deals_per_kingdom for r in tc.RULESETS.values()] == [2, 2, 5, 5]
    assert [r.deals_per_match for r in tc.RULESETS.values()] == [8, 8, 20, 20]
    assert [r.show_twos for r in tc.RULESETS.values()] == [False, False, False, True]
    options = (
        "fixed_order",
        "penalty_cards_first",
        "free_heart_leads",
        "swapped_scores",
        "reversed_scores",
        "bad_hand_redeal",
    )
    for ruleset in tc.RULESETS.values():
        assert ruleset.doubling is True
        assert not any(getattr(ruleset, option) for option in options)


def test_r_set_1_new_match_default_is_partnership_and_unchanged() -> None:
    """R-SET-1: ``new_match()`` plays PARTNERSHIP, the partnership game."""
    default = tc.new_match()
    assert default.ruleset is tc.PARTNERSHIP
    assert default == tc.new_match(tc.PARTNERSHIP)
    assert attrs.fields(tc.MatchState).ruleset.default is tc.PARTNERSHIP
    # TRICKS is a member of its own (issue 11): a classic trick deal's phase, never COMPLEX's
    assert tc.Phase("TRICKS") is tc.Phase.TRICKS is not tc.Phase.COMPLEX
    state = tc.apply(default, tc.Deal.shuffled(random.Random(7)))
    assert tc.legal_moves(state) == (
        tc.Choose(owner_of(state), COMPLEX),
        tc.Choose(owner_of(state), TRIX),
    )
    state = tc.apply(state, tc.Timeout())  # R-MATCH-6
    assert (state.phase, state.contract) == (tc.Phase.DOUBLE, COMPLEX)
    final = random_match_of(tc.PARTNERSHIP, 5)[-1]
    assert len(final.results) == 8
    assert [r.contract for r in final.results].count(COMPLEX) == 4
    assert tc.score(final).result in (
        tc.MatchResult.TEAM0,
        tc.MatchResult.TEAM1,
        tc.MatchResult.DRAW,
    )


@pytest.mark.parametrize("ruleset", list(tc.RULESETS.values()), ids=list(tc.RULESETS))
def test_r_set_1_new_match_plays_the_ruleset_given(ruleset: tc.Ruleset) -> None:
    """R-SET-1: the state names its ruleset, through every move to the end."""
    states = policy_match(ruleset, 11)
    assert all(s.ruleset is ruleset for s in states)
    assert len(states[-1].results) == ruleset.deals_per_match
    assert {r.contract for r in states[-1].results} == set(ruleset.contracts)


def test_r_set_1_rulesets_are_frozen_hashable_and_compare_by_value() -> None:
    """R-SET-1: frozen data; equal options and name make equal, hash-equal rulesets."""
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        tc.CLASSIC.doubling = False  # type: ignore[misc]
    a = tc.CLASSIC.evolve(doubling=False)
    b = tc.CLASSIC.evolve(doubling=False)
    assert a is not b and a == b and hash(a) == hash(b)
    assert a != tc.CLASSIC and a != attrs.evolve(tc.CLASSIC, doubling=False)
    assert tc.Ruleset("x", [COMPLEX, TRIX]) == tc.Ruleset("x", (COMPLEX, TRIX))
    assert tc.Ruleset("x", ["COMPLEX", "TRIX"]).contracts == (COMPLEX, TRIX)
    assert len({tc.CLASSIC, a, b, tc.PARTNERSHIP}) == 3
    assert {a: 1}[b] == 1
    # a variant keeps its base untouched, and the default name records the changes
    assert tc.CLASSIC.doubling is True
    assert a.name == "classic+doubling=False"
    with pytest.raises(ValueError, match="R-SET-1"):  # a name is derived, never chosen
        tc.CLASSIC.evolve(name="house", fixed_order=True)
    assert attrs.evolve(tc.CLASSIC, doubling=False).name == "classic"
    # states built from equal rulesets are equal
    assert tc.new_match(a) == tc.new_match(b) != tc.new_match(tc.CLASSIC)


@pytest.mark.parametrize("contracts", [(), (COMPLEX, COMPLEX), (TRIX, KH, TRIX)])
def test_r_set_1_a_ruleset_needs_distinct_contracts(contracts: tuple[tc.Contract, ...]) -> None:
    """R-SET-1, R-SET-2: no empty Kingdom, no contract twice in one."""
    with pytest.raises(ValueError, match="distinct contracts"):
        tc.Ruleset("bad", contracts)


@pytest.mark.parametrize(
    "ruleset",
    [
        *tc.RULESETS.values(),
        tc.CLASSIC.evolve(doubling=False),
        tc.CLASSIC.evolve(swapped_scores=True, penalty_cards_first=True),
        tc.PARTNERSHIP.evolve(reversed_scores=True, bad_hand_redeal=True, fixed_order=True),
        tc.CLASSIC_PARTNERSHIP.evolve(show_twos=False, free_heart_leads=True),
    ],
    ids=lambda r: r.name,
)
def test_r_set_1_from_name_round_trips(ruleset: tc.Ruleset) -> None:
    """R-SET-1: records name their ruleset; the name gives the same ruleset back."""
    assert tc.Ruleset.from_name(ruleset.name) == ruleset


CUSTOM_ORDER = ("TRIX", "QUEENS", "KING_OF_HEARTS", "DIAMONDS", "LTOOSH")


def test_r_set_1_a_custom_contract_order_round_trips_through_a_record() -> None:
    """R-SET-1: a ruleset with its own contract order has a canonical name that
    ``from_name`` reads back, so its records replay (the bug of issue 11)."""
    rs = tc.CLASSIC.evolve(contracts=CUSTOM_ORDER, fixed_order=True)
    assert (
        rs.name == "classic+contracts=TRIX/QUEENS/KING_OF_HEARTS/DIAMONDS/LTOOSH,fixed_order=True"
    )
    assert tc.Ruleset.from_name(rs.name) == rs
    state = tc.playout(tc.new_match(rs), random.Random(3))
    replayed = tc.replay_json(tc.Record.of(state).to_json())
    assert replayed == state and replayed.ruleset == rs


def test_r_set_1_the_same_game_spelled_three_ways_is_one_ruleset() -> None:
    """R-SET-1: strings, Contract members and chained ``evolve`` give equal rulesets."""
    members = tuple(tc.Contract(c) for c in CUSTOM_ORDER)
    by_strings = tc.CLASSIC.evolve(contracts=CUSTOM_ORDER, fixed_order=True)
    by_members = tc.CLASSIC.evolve(contracts=members, fixed_order=True)
    chained = tc.CLASSIC.evolve(fixed_order=True).evolve(contracts=list(CUSTOM_ORDER))
    assert by_strings == by_members == chained
    assert hash(by_strings) == hash(by_members) == hash(chained)
    # back to the preset's own contracts: the preset's name again
    assert chained.evolve(contracts=tc.CLASSIC.contracts, fixed_order=False) == tc.CLASSIC


@settings(max_examples=150, deadline=None)
@given(
    base=st.sampled_from(sorted(tc.RULESETS)),
    steps=st.lists(
        st.one_of(
            st.tuples(st.sampled_from(sorted(OPTIONS)), st.booleans()),
            st.tuples(
                st.just("contracts"),
                st.lists(
                    st.sampled_from([c for c in tc.Contract if not c.is_combined]),
                    min_size=1,
                    max_size=6,
                    unique=True,
                ),
            ),
        ),
        max_size=5,
    ),
)
def test_r_set_1_every_evolved_ruleset_has_a_canonical_name(
    base: str, steps: list[tuple[str, object]]
) -> None:
    """R-SET-1: whatever chain of ``evolve`` calls made a ruleset, ``from_name`` reads its
    name back to an equal ruleset, and one call with all the final values gives it too."""
    ruleset = tc.RULESETS[base]
    for key, value in steps:
        try:
            ruleset = ruleset.evolve(**{key: value})
        except ValueError as exc:  # worst_seat_loses without partners, combined_contracts
            assert "R-OPT-10" in str(exc) or "R-OPT-9" in str(exc)  # without the 4 contracts
    assert tc.Ruleset.from_name(ruleset.name) == ruleset
    final = {key: getattr(ruleset, key) for key in (*OPTIONS, "contracts")}
    assert tc.RULESETS[base].evolve(**final) == ruleset


def test_r_set_1_options_are_booleans() -> None:
    """R-SET-1: an option is True or False (else its name could not be read back)."""
    with pytest.raises(ValueError, match="doubling"):
        tc.CLASSIC.evolve(doubling=1)
    with pytest.raises(ValueError, match="not a ruleset field"):
        tc.CLASSIC.evolve(doubles=False)
    with pytest.raises(ValueError, match="bad ruleset contracts"):
        tc.Ruleset.from_name("classic+contracts=TRIX/NOPE")


def test_r_set_1_no_part_of_a_ruleset_can_be_changed() -> None:
    """R-SET-1: every reachable part of a ruleset is read-only, so a view's ruleset
    cannot be used to rescore later matches of the same (shared) ruleset."""
    seen = tc.view(tc.new_match(), 0)
    rules = seen.ruleset.trick_rules(COMPLEX)
    with pytest.raises(TypeError):
        seen.ruleset._rules[COMPLEX] = attrs.evolve(rules, trick=+1000)  # type: ignore[index]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rules.trick = 1000  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        seen.ruleset.contracts = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        tc.RULESETS["partnership"] = tc.CLASSIC  # type: ignore[index]
    assert isinstance(seen.ruleset.contracts, tuple)
    # a later match still scores a trick at -15 (R-CX-5)
    state = tc.playout(tc.new_match(), random.Random(1))
    assert sum(state.results[-1].points) in (-500, 500)
    assert tc.PARTNERSHIP.trick_rules(COMPLEX).trick == -15


def test_r_set_1_from_name_round_trips_a_variant_of_a_variant() -> None:
    """R-SET-1: every name ``evolve`` makes gives the same ruleset back."""
    twice = tc.CLASSIC.evolve(doubling=False).evolve(fixed_order=True)
    assert twice.name == "classic+doubling=False,fixed_order=True"
    assert tc.Ruleset.from_name(twice.name) == twice
    assert twice == tc.CLASSIC.evolve(fixed_order=True, doubling=False)
    back = twice.evolve(doubling=True, fixed_order=False)
    assert back == tc.CLASSIC and back.name == "classic"


@pytest.mark.parametrize(
    "name",
    [
        "",
        "Classic",
        "classic ",
        "chess",
        "classic+doubling",
        "classic+doubling=",
        "classic+doubling=false",
        "classic+doubling=0",
        "classic+nonsense=True",
        "classic+name=True",
        "classic+contracts=True",
        "classic+swapped_scores=True,doubling=False",  # not sorted
        "classic+doubling=False,doubling=False",  # repeated
        "classic+doubling=False,",
        "classic+doubling=False+fixed_order=True",
        "partnership+" + "x" * 10_000,
    ],
)
def test_r_set_1_from_name_rejects_junk(name: str) -> None:
    """R-SET-1: a bad name is a single-line ValueError naming what was wrong."""
    with pytest.raises(ValueError) as info:
        tc.Ruleset.from_name(name)
    message = str(info.value)
    assert "\n" not in message and len(message) < 300
    assert "ruleset" in message


def test_r_set_1_from_name_rejects_an_empty_option_list() -> None:
    """R-SET-1: only the names ``evolve`` makes are accepted; ``"classic+"`` is not one."""
    with pytest.raises(ValueError, match="ruleset"):
        tc.Ruleset.from_name("classic+")


@pytest.mark.parametrize("junk", [None, 5, b"classic", ["classic"]])
def test_r_set_1_from_name_rejects_non_strings(junk: object) -> None:
    """R-SET-1: only a string names a ruleset."""
    with pytest.raises(ValueError, match="string"):
        tc.Ruleset.from_name(junk)  # type: ignore[arg-type]


def test_r_set_1_records_replay_under_their_ruleset() -> None:
    """R-SET-1: a record names its ruleset and replays under it."""
    final = policy_match(tc.CLASSIC, 3)[-1]
    replayed = tc.replay(tc.Record("classic", final.history.moves()))
    assert replayed == final and replayed.ruleset is tc.CLASSIC


# -- R-SET-2: Kingdoms, owners, choices ------------------------------------------


def test_r_set_2_ownership_rotates_over_four_kingdoms_of_five_deals() -> None:
    """R-SET-2 (R-MATCH-3, R-MATCH-4): 4 Kingdoms × 5 deals; the 7♥ holder of deal 1 owns
    Kingdom 1 and ownership passes to the next seat after each Kingdom."""
    states = policy_match(tc.CLASSIC, 4)
    first_deal = next(m for m in states[-1].history if isinstance(m, tc.Deal))
    first_owner = seven_of_hearts_seat(first_deal)
    results = states[-1].results
    assert [r.number for r in results] == list(range(1, 21))
    assert [r.kingdom for r in results] == [k for k in (1, 2, 3, 4) for _ in range(5)]
    assert [r.owner for r in results] == [(first_owner + k) % 4 for k in range(4) for _ in range(5)]
    for k in range(4):
        assert sorted(r.contract.value for r in results[5 * k : 5 * k + 5]) == sorted(
            c.value for c in tc.CLASSIC.contracts
        )
    for state in states:
        if state.phase not in (tc.Phase.DEAL, tc.Phase.OVER):
            assert state.kingdom == (state.deal_number + 4) // 5
            assert state.owner == (first_owner + state.kingdom - 1) % 4


def test_r_set_2_a_ruleset_of_its_own_contracts() -> None:
    """R-SET-2, R-OPT-5: any tuple of contracts makes a Kingdom: three contracts give 12
    deals and a new owner every three; a fixed order is the tuple's order."""
    mixed = tc.Ruleset("mixed", (COMPLEX, KH, TRIX), partnership=False)
    final = policy_match(mixed, 1)[-1]
    assert mixed.deals_per_match == 12 and len(final.results) == 12
    owners = [r.owner for r in final.results]
    assert owners == [(owners[0] + k) % 4 for k in range(4) for _ in range(3)]
    assert [r.kingdom for r in final.results] == [k for k in (1, 2, 3, 4) for _ in range(3)]
    jordan = tc.Ruleset(
        "jordan", (TRIX, KH, QUEENS, DIAMONDS, LTOOSH), partnership=False, fixed_order=True
    )
    final = policy_match(jordan, 2)[-1]
    assert [r.contract for r in final.results] == list(jordan.contracts) * 4
    assert sum(final.scores) == 0


def test_r_set_2_owner_chooses_only_unplayed_contracts() -> None:
    """R-SET-2: each deal lists the contracts not yet played in the Kingdom, in order."""
    rng = random.Random(1)
    state = tc.apply(tc.new_match(tc.CLASSIC), tc.Deal.shuffled(rng))
    owner = state.owner
    assert owner is not None
    assert state.remaining_contracts == tc.CLASSIC.contracts
    order = (LTOOSH, KH, TRIX, QUEENS)
    for number, contract in enumerate(order, start=1):
        assert state.phase is tc.Phase.CHOOSE and state.deal_number == number
        remaining = tuple(c for c in tc.CLASSIC.contracts if c not in order[: number - 1])
        assert state.remaining_contracts == remaining
        assert tc.legal_moves(state) == tuple(tc.Choose(owner, c) for c in remaining)
        assert tc.legal_moves(state, (owner + 1) % 4) == ()
        state = finish_deal(tc.apply(state, tc.Choose(owner, contract)))
        assert state.results[-1].contract is contract
        state = tc.apply(state, tc.Deal.shuffled(rng))


def test_r_set_2_last_contract_is_played_without_a_choice() -> None:
    """R-SET-2: the fifth deal of a classic Kingdom plays the one contract left."""
    rng = random.Random(2)
    state = tc.new_match(tc.CLASSIC)
    for contract in (TRIX, LTOOSH, DIAMONDS, QUEENS):
        state = tc.apply(state, tc.Deal.shuffled(rng))
        state = finish_deal(tc.apply(state, tc.Choose(owner_of(state), contract)))
    deal = tc.Deal.shuffled(rng)
    state = tc.apply(state, deal)
    assert (state.phase, state.contract) == (tc.Phase.DOUBLE, KH)  # straight to the window
    assert state.history.last == deal and state.remaining_contracts == ()
    state = finish_deal(state)
    assert state.results[-1].contract is KH and state.phase is tc.Phase.DEAL
    # ... and the next Kingdom chooses again among all five
    state = tc.apply(state, tc.Deal.shuffled(rng))
    assert state.phase is tc.Phase.CHOOSE and state.remaining_contracts == tc.CLASSIC.contracts


def test_r_set_2_timeout_picks_the_first_remaining_contract() -> None:
    """R-SET-2, R-MATCH-6: a timeout chooses the first remaining contract in order."""
    rng = random.Random(3)
    state = tc.apply(tc.new_match(tc.CLASSIC), tc.Deal.shuffled(rng))
    state = tc.apply(state, tc.Timeout())
    assert (state.phase, state.contract) == (tc.Phase.DOUBLE, KH)
    state = tc.apply(finish_deal(state), tc.Deal.shuffled(rng))
    state = finish_deal(tc.apply(state, tc.Choose(owner_of(state), TRIX)))
    state = tc.apply(tc.apply(state, tc.Deal.shuffled(rng)), tc.Timeout())
    assert (state.phase, state.contract) == (tc.Phase.DOUBLE, QUEENS)
    state = tc.apply(finish_deal(state), tc.Deal.shuffled(rng))
    state = tc.apply(state, tc.Timeout())
    assert (state.phase, state.contract) == (tc.Phase.TRICKS, DIAMONDS)  # no window
    # the partnership games: COMPLEX (R-MATCH-6)
    for ruleset in (tc.INDIVIDUAL_COMPLEX, tc.PARTNERSHIP.evolve(doubling=False)):
        state = tc.apply(tc.apply(tc.new_match(ruleset), tc.Deal.shuffled(rng)), tc.Timeout())
        assert state.contract is COMPLEX


def test_r_set_2_choosing_a_played_contract_is_rejected() -> None:
    """R-SET-2: a contract already played in this Kingdom cannot be chosen again."""
    rng = random.Random(4)
    state = tc.apply(tc.new_match(tc.CLASSIC), tc.Deal.shuffled(rng))
    state = finish_deal(tc.apply(state, tc.Choose(owner_of(state), KH)))
    state = tc.apply(state, tc.Deal.shuffled(rng))
    err = rejected(state, tc.Choose(owner_of(state), KH))
    assert err.rule == "R-SET-2" and "already played" in err.reason
    assert not tc.is_legal(state, tc.Choose(owner_of(state), KH))
    # in the partnership game the second deal has no choice at all
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(rng))
    state = tc.apply(
        finish_deal(tc.apply(state, tc.Choose(owner_of(state), TRIX))), tc.Deal.shuffled(rng)
    )
    assert state.contract is COMPLEX and state.phase is tc.Phase.DOUBLE


@pytest.mark.parametrize(
    ("ruleset", "foreign"),
    [
        (tc.PARTNERSHIP, KH),
        (tc.PARTNERSHIP, LTOOSH),
        (tc.INDIVIDUAL_COMPLEX, QUEENS),
        (tc.CLASSIC, COMPLEX),
        (tc.CLASSIC_PARTNERSHIP, COMPLEX),
    ],
)
def test_r_match_1_a_contract_not_in_the_game_is_rejected(
    ruleset: tc.Ruleset, foreign: tc.Contract
) -> None:
    """R-SET-2, R-MATCH-1: only the ruleset's contracts can be chosen."""
    state = tc.apply(tc.new_match(ruleset), tc.Deal.shuffled(random.Random(5)))
    err = rejected(state, tc.Choose(owner_of(state), foreign))
    assert err.rule == "R-MATCH-1" and "not a contract of this game" in err.reason


# -- R-IND-1, R-CL-1, R-CLP-1, R-OPT-6: who wins -----------------------------------


def test_r_ind_1_winners_single_and_shared() -> None:
    """R-IND-1: the highest individual total wins; a tie for it is shared."""
    assert winners([40, 65, 65, -170], partnership=False) == (tc.MatchResult.SHARED, (1, 2))
    assert winners([40, 10, 65, -115], partnership=False) == (tc.MatchResult.SEAT2, (2,))
    assert winners([0, 0, 0, 0], partnership=False) == (tc.MatchResult.SHARED, (0, 1, 2, 3))
    assert winners([-5, 0, -5, 10], partnership=False) == (tc.MatchResult.SEAT3, (3,))
    assert [str(r) for r in tc.MatchResult][3:] == ["seat0", "seat1", "seat2", "seat3", "shared"]


@pytest.mark.parametrize("ruleset", [tc.INDIVIDUAL_COMPLEX, tc.CLASSIC], ids=lambda r: r.name)
def test_r_ind_1_r_cl_1_individual_result_of_a_whole_match(ruleset: tc.Ruleset) -> None:
    """R-IND-1, R-CL-1: SEATn for the single best seat, team totals play no part."""
    results = set()
    for seed in range(6):
        final = policy_match(ruleset, seed)[-1]
        s = tc.score(final)
        best = max(s.seats)
        top = tuple(i for i in range(4) if s.seats[i] == best)
        assert s.winners == top
        assert s.result is (
            tc.MatchResult.SHARED if len(top) > 1 else tc.MatchResult(f"seat{top[0]}")
        )
        results.add(s.result)
    assert results <= {
        tc.MatchResult.SEAT0,
        tc.MatchResult.SEAT1,
        tc.MatchResult.SEAT2,
        tc.MatchResult.SEAT3,
        tc.MatchResult.SHARED,
    }
    assert len(results) >= 2


def test_r_ind_1_the_eight_deals_of_rules_md() -> None:
    """R-IND-1: the same moves score the same under PARTNERSHIP and INDIVIDUAL_COMPLEX;
    only who wins differs."""
    for seed in (1, 2, 3):
        team_game = random_match_of(tc.PARTNERSHIP, seed)[-1]
        state = tc.new_match(tc.INDIVIDUAL_COMPLEX)
        for move in team_game.history:
            state = tc.apply(state, move)
        assert state.is_over and state.results == team_game.results
        assert state.scores == team_game.scores
        s = tc.score(state)
        assert s.winners == tuple(i for i in range(4) if s.seats[i] == max(s.seats))


def test_r_cl_1_shared_win_pinned() -> None:
    """R-CL-1: a classic match (first-listed policy, shuffles of Random(160)) ends with
    seats 1 and 2 sharing the best total."""
    final = policy_match(tc.CLASSIC, 160)[-1]
    s = tc.score(final)
    assert s.seats == (40, 65, 65, -170)
    assert (s.result, s.winners) == (tc.MatchResult.SHARED, (1, 2))


def test_r_ind_1_shared_win_pinned() -> None:
    """R-IND-1: an individual COMPLEX match (random_match_of seed 206) ends in a shared win."""
    final = random_match_of(tc.INDIVIDUAL_COMPLEX, 206)[-1]
    s = tc.score(final)
    assert len(s.deals) == 8 and sum(s.seats) == 0
    assert s.seats == (75, 75, -25, -125)
    assert (s.result, s.winners) == (tc.MatchResult.SHARED, (0, 1))


def test_r_clp_1_classic_partnership_team_result() -> None:
    """R-CLP-1: own scores and Kingdoms, Team Totals decide; 2s shown in Trix."""
    assert tc.CLASSIC_PARTNERSHIP.show_twos and tc.CLASSIC_PARTNERSHIP.partnership
    seen = set()
    for seed in range(6):
        final = policy_match(tc.CLASSIC_PARTNERSHIP, seed)[-1]
        s = tc.score(final)
        assert len(s.deals) == 20
        assert len({r.owner for r in s.deals}) == 4  # every seat owns a Kingdom
        assert s.teams == (s.seats[0] + s.seats[2], s.seats[1] + s.seats[3])
        assert sum(s.teams) == 0
        if s.teams[0] > s.teams[1]:
            assert (s.result, s.winners) == (tc.MatchResult.TEAM0, (0, 2))
        elif s.teams[1] > s.teams[0]:
            assert (s.result, s.winners) == (tc.MatchResult.TEAM1, (1, 3))
        else:
            assert (s.result, s.winners) == (tc.MatchResult.DRAW, (0, 1, 2, 3))
        seen.add(s.result)
    assert len(seen) >= 2
    # the same moves under CLASSIC: the same seat scores, an individual result
    moves = policy_match(tc.CLASSIC_PARTNERSHIP, 0)[-1].history.moves()
    state = tc.new_match(tc.CLASSIC)
    for move in moves:
        state = tc.apply(state, move)
    assert state.scores == policy_match(tc.CLASSIC_PARTNERSHIP, 0)[-1].scores
    assert tc.score(state).result not in (
        tc.MatchResult.TEAM0,
        tc.MatchResult.TEAM1,
        tc.MatchResult.DRAW,
    )


WORST_LOSES = tc.PARTNERSHIP.evolve(worst_seat_loses=True)


@pytest.mark.parametrize(
    ("ruleset", "seats", "result"),
    [
        # Team Totals -30 / +30 would give team 1; seat 1 is worst (-45): team 1 loses
        (WORST_LOSES, (10, -45, -40, 75), tc.MatchResult.TEAM0),
        # seat 2 is worst: team 0 loses though its total (+25) is the higher
        (WORST_LOSES, (205, -80, -180, 55), tc.MatchResult.TEAM1),
        # the worst total shared by seats of both teams: a draw
        (WORST_LOSES, (-100, -100, 150, 50), tc.MatchResult.DRAW),
        # shared by the two seats of one team: that team loses
        (WORST_LOSES, (-100, 90, -100, 110), tc.MatchResult.TEAM1),
        # R-OPT-6 too: the highest total is the worst (seat 3, team 1 loses)
        (WORST_LOSES.evolve(reversed_scores=True), (10, -45, -40, 75), tc.MatchResult.TEAM0),
        (tc.CLASSIC_PARTNERSHIP.evolve(worst_seat_loses=True), (-5, 0, 0, 5), tc.MatchResult.TEAM1),
    ],
)
def test_r_opt_10_the_team_of_the_worst_seat_loses(
    ruleset: tc.Ruleset, seats: tuple[int, int, int, int], result: tc.MatchResult
) -> None:
    """R-OPT-10: "the team of the player with the worst score loses" (seed 002), whatever
    the Team Totals; worst totals of both teams draw."""
    winning = {
        tc.MatchResult.TEAM0: (0, 2),
        tc.MatchResult.TEAM1: (1, 3),
        tc.MatchResult.DRAW: (0, 1, 2, 3),
    }[result]
    assert tc.rules.match_outcome(seats, ruleset) == (result, winning)


def test_r_opt_10_a_match_decided_by_the_worst_seat() -> None:
    """R-OPT-10: a whole match (seed 7) whose Team Totals favour team 0 (+60 to -60) but
    whose worst seat, seat 2 at -245, is on team 0: team 1 wins, and the scoresheet
    says why."""
    state = tc.playout(tc.new_match(WORST_LOSES), random.Random(7), until="match")
    s = tc.score(state)
    assert (s.seats, s.teams) == ((305, 80, -245, -140), (60, -60))
    assert (s.result, s.winners) == (tc.MatchResult.TEAM1, (1, 3))
    plain = tc.PARTNERSHIP  # the same deals under the Team Total rule go to team 0
    assert tc.rules.match_outcome(s.seats, plain)[0] is tc.MatchResult.TEAM0
    sheet = tc.format_scoresheet(state)
    assert "the worst seat's team loses" in sheet
    assert sheet.splitlines()[-1] == "Result: team1 wins (seat 2 worst with -245), 60 to -60"
    # the option changes the result only: every deal is scored as without it
    again = tc.playout(tc.new_match(tc.PARTNERSHIP), random.Random(7), until="match")
    assert again.results == state.results


def test_r_opt_10_needs_a_partnership_ruleset() -> None:
    """R-OPT-10: only teams can lose by their worst seat."""
    with pytest.raises(ValueError, match="R-OPT-10"):
        tc.CLASSIC.evolve(worst_seat_loses=True)
    assert tc.CLASSIC_PARTNERSHIP.evolve(worst_seat_loses=True).name == (
        "classic-partnership+worst_seat_loses=True"
    )


def test_r_opt_6_reversed_lowest_wins() -> None:
    """R-OPT-6: reversed scores, lowest total (individual or team) wins."""
    assert winners([40, 65, 65, -170], partnership=False, lowest_wins=True) == (
        tc.MatchResult.SEAT3,
        (3,),
    )
    assert winners([-5, -5, 60, -50], partnership=False, lowest_wins=True) == (
        tc.MatchResult.SEAT3,
        (3,),
    )
    assert winners([-50, 0, -50, 100], partnership=False, lowest_wins=True) == (
        tc.MatchResult.SHARED,
        (0, 2),
    )
    assert winners([10, 40, -90, 40], lowest_wins=True) == (tc.MatchResult.TEAM0, (0, 2))
    assert winners([10, -40, 90, 40], lowest_wins=True) == (tc.MatchResult.TEAM1, (1, 3))
    for ruleset in (classic(reversed_scores=True), tc.PARTNERSHIP.evolve(reversed_scores=True)):
        for seed in range(3):
            s = tc.score(policy_match(ruleset, seed)[-1])
            if ruleset.partnership:
                low = min(s.teams)
                assert s.winners == (
                    (0, 2)
                    if s.teams[0] == low != s.teams[1]
                    else (1, 3)
                    if s.teams[1] == low != s.teams[0]
                    else (0, 1, 2, 3)
                )
            else:
                assert s.winners == tuple(i for i in range(4) if s.seats[i] == min(s.seats))


@pytest.mark.parametrize(
    "base",
    [tc.PARTNERSHIP, tc.CLASSIC, tc.CLASSIC.evolve(swapped_scores=True)],
    ids=lambda r: r.name,
)
def test_r_opt_6_reversed_scores_negate_every_deal(base: tc.Ruleset) -> None:
    """R-OPT-6: the same moves under reversed scores give every deal's points negated,
    doubling included (and the partnership game's fast path agrees with the general one)."""
    reversed_ = base.evolve(reversed_scores=True)
    for seed, last in ((0, True), (1, False), (2, True)):
        plain = policy_match(base, seed, last=last)[-1]
        state = tc.new_match(reversed_)
        for move in plain.history:
            state = tc.apply(state, move)
        assert state.is_over
        for a, b in zip(plain.results, state.results, strict=True):
            assert b.points == tuple(-p for p in a.points)
            assert b.contract is a.contract and b.seats == a.seats
            assert [d.case for d in b.doubled] == [d.case for d in a.doubled]
        assert state.scores == tuple(-p for p in plain.scores)
        if last:
            assert any(r.doubled for r in plain.results)


# -- R-CL-2: King of Hearts --------------------------------------------------------


def test_r_cl_2_king_of_hearts_ends_when_k_hearts_is_taken() -> None:
    """R-CL-2: the taker of K♥ scores −75; the deal ends at once, the other cards unplayed."""
    state = start_contract(KH_DISCARD_DEAL, KH, tc.CLASSIC)
    assert state.owner == 0 and state.turn == 0
    before = plays(state, "2S KH AS")
    assert before.phase is tc.Phase.TRICKS
    assert sum(h.bit_count() for h in before.hands) == 49
    after = plays(before, "AC")
    assert after.phase is tc.Phase.DEAL and after.deal_number == 1
    assert after.hands == (0, 0, 0, 0) and after.trick_deal is None and after.contract is None
    result = after.results[-1]
    assert (result.contract, result.number, result.kingdom, result.owner) == (KH, 1, 1, 0)
    assert result.points == (0, 0, -75, 0) and after.scores == (0, 0, -75, 0)
    assert [s.tricks for s in result.seats] == [0, 0, 1, 0]
    assert [s.king_of_hearts for s in result.seats] == [False, False, True, False]
    assert after.history.since_deal()[-4:] == tuple(
        tc.Play(seat, code) for seat, code in enumerate(("2S", "KH", "AS", "AC"))
    )
    # the next deal is deal 2 of the same Kingdom, with K♥ played
    nxt = tc.apply(after, tc.Deal.shuffled(random.Random(0)))
    assert (nxt.deal_number, nxt.kingdom, nxt.owner) == (2, 1, 0)
    assert KH not in nxt.remaining_contracts


def test_r_cl_2_trick_and_diamond_cost_nothing_in_king_of_hearts() -> None:
    """R-CL-2: only K♥ is charged; tricks, diamonds and Queens taken before cost nothing."""
    state = start_contract(KH_FOLLOW_DEAL, KH, tc.CLASSIC)
    state = plays(state, "AS 2S QD QC")  # seat 0 takes a trick with two Queens and a ♦
    assert state.trick_deal is not None and state.trick_deal.points == (0, 0, 0, 0)
    state = plays(state, "2H KH AD AC")
    assert state.results[-1].points == (0, -75, 0, 0)
    assert state.results[-1].seats[0].queens == tuple(tc.parse_card(c) for c in ("QD", "QC"))


def test_r_cl_2_no_heart_lead_while_holding_another_suit() -> None:
    """R-CL-2: the leader may not lead a heart while it holds another suit."""
    state = start_contract(KH_DISCARD_DEAL, KH, tc.CLASSIC)
    err = rejected(state, tc.Play(0, "7H"))
    assert err.rule == "R-CL-2" and "heart" in err.reason
    assert tc.Play(0, "7H") not in tc.legal_moves(state)
    assert {str(m.card) for m in tc.legal_moves(state)} == set(  # type: ignore[union-attr]
        ["2S", "3S", "4S", "5S", "6S", "7S", "2D", "3D", "4D", "5D", "6D", "7D"]
    )
    # later leads too: seat 0 takes trick 1 with AS, still holding spades
    state = start_contract(KH_FOLLOW_DEAL, KH, tc.CLASSIC)
    assert rejected(state, tc.Play(0, "AH")).rule == "R-CL-2"
    assert tc.legal_moves(state) == (tc.Play(0, "AS"),)


def test_r_cl_2_heart_lead_allowed_when_holding_only_hearts() -> None:
    """R-CL-2: a leader holding only hearts leads one (case 2 deal, trick 2)."""
    state = plays(start_contract(KH_FOLLOW_DEAL, KH, tc.CLASSIC), "AS 2S 2D 2C")
    assert state.turn == 0 and len(tc.legal_moves(state)) == 12
    state = tc.apply(state, tc.Play(0, "2H"))
    assert tc.legal_moves(state) == (tc.Play(1, "KH"),)  # following suit (R-CX-2)


def test_r_cl_2_hearts_may_be_followed_and_led_in_other_contracts() -> None:
    """R-CL-2 applies to King of Hearts only: Queens, Diamonds, Ltoosh allow a heart lead."""
    for contract in (QUEENS, DIAMONDS, LTOOSH):
        state = start_contract(KH_DISCARD_DEAL, contract, tc.CLASSIC)
        assert tc.Play(0, "7H") in tc.legal_moves(state)
        assert tc.apply(state, tc.Play(0, "7H")).trick_deal.trick == (tc.parse_card("7H"),)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("ruleset", "doubles", "expected"),
    [
        (tc.CLASSIC, {}, (0, 0, -75, 0)),
        (tc.CLASSIC, {1: "KH"}, (0, 75, -150, 0)),
        (classic(swapped_scores=True), {1: "KH"}, (0, 75, -150, 0)),
        (classic(reversed_scores=True), {1: "KH"}, (0, -75, 150, 0)),
    ],
    ids=["plain", "case1", "case1-swapped", "case1-reversed"],
)
def test_r_cl_7_king_of_hearts_doubled_case_1(
    ruleset: tc.Ruleset, doubles: dict[int, str], expected: tuple[int, int, int, int]
) -> None:
    """R-CL-7 (R-DBL-4 case 1): another seat takes the doubled K♥: −150, doubler +75
    (R-OPT-3 leaves it, R-OPT-6 negates it)."""
    state = plays(start_contract(KH_DISCARD_DEAL, KH, ruleset, doubles), "2S KH AS AC")
    result = state.results[-1]
    assert result.points == expected and sum(result.points) == deal_total(ruleset, KH)
    if doubles:
        (d,) = result.doubled
        assert (str(d.card), d.doubler, d.taker, d.leader, d.case) == ("KH", 1, 2, 0, 1)
        assert d.points == expected


def test_r_cl_7_king_of_hearts_doubled_case_2() -> None:
    """R-CL-7 (R-DBL-4 case 2): the doubler takes its own K♥ led by another: −150, leader +75."""
    state = start_contract(KH_FOLLOW_DEAL, KH, tc.CLASSIC, {1: "KH"})
    state = plays(state, "AS 2S 2D 2C  2H KH 3D 3C")
    result = state.results[-1]
    assert result.points == (75, -150, 0, 0)
    assert [(d.case, d.leader, d.taker) for d in result.doubled] == [(2, 0, 1)]
    assert state.phase is tc.Phase.DEAL and [s.tricks for s in result.seats] == [1, 1, 0, 0]


def test_r_cl_7_king_of_hearts_doubled_case_3() -> None:
    """R-CL-7 (R-DBL-4 case 3): the doubler leads and takes its own K♥: −75 only."""
    state = start_contract(SUITS_DEAL, KH, tc.CLASSIC, {1: "KH"})
    assert state.owner == 1 and tc.Play(1, "KH") in tc.legal_moves(state)  # only hearts
    state = plays(state, "KH 2D 2C 2S")
    result = state.results[-1]
    assert result.points == (0, -75, 0, 0)
    assert [(d.case, d.doubler, d.taker, d.leader) for d in result.doubled] == [(3, 1, 1, 1)]
    # reversed: the same three cases negated
    state = plays(
        start_contract(SUITS_DEAL, KH, classic(reversed_scores=True), {1: "KH"}), "KH 2D 2C 2S"
    )
    assert state.results[-1].points == (0, 75, 0, 0)


def test_r_cl_7_king_of_hearts_window_asks_only_the_k_hearts_holder() -> None:
    """R-CL-7 (R-DBL-2, R-DBL-3): in King of Hearts only K♥ can be doubled."""
    state = tc.apply(tc.apply(tc.new_match(tc.CLASSIC), KH_DISCARD_DEAL), tc.Choose(0, KH))
    assert state.phase is tc.Phase.DOUBLE and state.window is not None
    assert state.window.asked == (0, 1 << tc.parse_card("KH"), 0, 0)
    assert state.to_act == {1}
    assert tc.legal_moves(state) == (tc.Double(1, []), tc.Double(1, ["KH"]))
    assert rejected(state, tc.Double(1, ["KH", "QC"])).rule == "R-DBL-1"  # QC not doublable here
    assert rejected(state, tc.Double(0, [])).rule == "R-DBL-2"
    closed = tc.apply(state, tc.Timeout())
    assert closed.phase is tc.Phase.TRICKS and closed.trick_deal.doubled == ()  # type: ignore[union-attr]


# -- R-CL-3: Queens --------------------------------------------------------------


def test_r_cl_3_queens_end_once_all_four_are_taken() -> None:
    """R-CL-3: −25 a Queen; the deal ends after the trick with the fourth Queen."""
    state = start_contract(QUEENS_DEAL, QUEENS, tc.CLASSIC)
    *first, last = QUEENS_PLAY.split()
    before = plays(state, " ".join(first))
    assert before.phase is tc.Phase.TRICKS
    assert before.trick_deal is not None and before.trick_deal.points == (-75, 0, 0, 0)
    after = plays(before, last)
    assert after.phase is tc.Phase.DEAL and after.hands == (0, 0, 0, 0)
    result = after.results[-1]
    assert result.points == (-100, 0, 0, 0)
    assert [s.tricks for s in result.seats] == [3, 0, 0, 0]
    assert len(result.seats[0].queens) == 4 and result.seats[0].diamonds == 3


def test_r_cl_7_queens_doubled() -> None:
    """R-CL-7: a doubled Queen taken by another seat (case 1: −50 / +25); a doubled Queen
    led and taken by its doubler (case 3: −25)."""
    state = tc.apply(tc.apply(tc.new_match(tc.CLASSIC), QUEENS_DEAL), tc.Choose(0, QUEENS))
    assert state.window is not None
    assert state.window.asked == tuple(
        1 << tc.parse_card(q) for q in ("QS", "QH", "QD", "QC")
    )  # K♥ (seat 1) is not asked in Queens
    state = start_contract(QUEENS_DEAL, QUEENS, tc.CLASSIC, {1: "QH", 0: "QS"})
    state = plays(state, QUEENS_PLAY)
    result = state.results[-1]
    assert result.points == (-125, 25, 0, 0) and sum(result.points) == -100
    assert [(str(d.card), d.case, d.points) for d in result.doubled] == [
        ("QS", 3, (-25, 0, 0, 0)),
        ("QH", 1, (-50, 25, 0, 0)),
    ]


def test_r_cl_7_queen_doubled_case_2() -> None:
    """R-CL-7 (R-DBL-4 case 2): a Queen's doubler takes it on another's lead: −50, leader +25."""
    deal = hands_deal(
        "7H 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
        "QS 2H 3H 4H 5H 6H 8H 9H TH JH QH KH AH",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    )
    state = plays(start_contract(deal, QUEENS, tc.CLASSIC, {1: "QS"}), "2S QS 2D 2C")
    assert state.phase is tc.Phase.TRICKS and state.trick_deal is not None
    assert state.trick_deal.points == (25, -50, 0, 0)  # the trick itself costs nothing
    result = finish_deal(state).results[-1]
    assert sum(result.points) == -100
    (case2,) = [d for d in result.doubled if str(d.card) == "QS"]
    assert (case2.case, case2.doubler, case2.taker, case2.leader) == (2, 1, 1, 0)


# -- R-CL-4: Diamonds ------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "expected"),
    [
        (tc.CLASSIC, (-130, 0, 0, 0)),
        (classic(swapped_scores=True), (-195, 0, 0, 0)),
        (classic(reversed_scores=True), (130, 0, 0, 0)),
        (classic(swapped_scores=True, reversed_scores=True), (195, 0, 0, 0)),
    ],
    ids=lambda x: x.name if isinstance(x, tc.Ruleset) else "",
)
def test_r_cl_4_r_opt_3_diamonds_end_after_the_13th_diamond(
    ruleset: tc.Ruleset, expected: tuple[int, int, int, int]
) -> None:
    """R-CL-4: −10 a diamond (R-OPT-3: −15; R-OPT-6: negated); ends with the 13th."""
    state = start_contract(DIAMONDS_DEAL, DIAMONDS, ruleset)
    assert state.phase is tc.Phase.TRICKS and state.trick_deal.doubled == ()  # type: ignore[union-attr]
    *first, last = DIAMONDS_PLAY.split()
    before = plays(state, " ".join(first))
    assert before.phase is tc.Phase.TRICKS and len(before.trick_deal.tricks) == 4  # type: ignore[union-attr]
    assert before.trick_deal.points == tuple(p * 11 // 13 for p in expected)  # type: ignore[union-attr]
    after = plays(before, last)
    assert after.phase is tc.Phase.DEAL and after.deal_number == 1
    result = after.results[-1]
    assert result.points == expected
    assert [s.tricks for s in result.seats] == [5, 0, 0, 0]
    assert result.seats[0].diamonds == 13 and result.seats[0].queens  # QS and QD: no charge


# -- R-CL-5: Ltoosh ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "per_trick"),
    [
        (tc.CLASSIC, -15),
        (classic(swapped_scores=True), -10),
        (classic(reversed_scores=True), 15),
        (classic(swapped_scores=True, reversed_scores=True), 10),
    ],
    ids=lambda x: x.name if isinstance(x, tc.Ruleset) else str(x),
)
def test_r_cl_5_r_opt_3_ltoosh_charges_every_trick(ruleset: tc.Ruleset, per_trick: int) -> None:
    """R-CL-5: −15 a trick, all 13 played (R-OPT-3: −10; R-OPT-6: negated)."""
    state = start_contract(SUITS_DEAL, LTOOSH, ruleset)
    assert state.phase is tc.Phase.TRICKS and state.owner == 1
    final = finish_deal(state)
    assert final.results[-1].points == (0, 13 * per_trick, 0, 0)  # seat 1 leads and takes all
    # any distribution: each seat pays per trick taken, nothing for ♦, Queens or K♥
    final = finish_deal(start_contract(KH_DISCARD_DEAL, LTOOSH, ruleset))
    result = final.results[-1]
    assert sum(s.tricks for s in result.seats) == 13
    assert result.points == tuple(per_trick * s.tricks for s in result.seats)
    assert sum(result.points) == 13 * per_trick


# -- R-CL-6: Trix ----------------------------------------------------------------


@pytest.mark.parametrize(
    "ruleset", [tc.CLASSIC, classic(reversed_scores=True)], ids=lambda r: r.name
)
def test_r_cl_6_trix_as_in_rules_md(ruleset: tc.Ruleset) -> None:
    """R-CL-6 (R-TX-1 … R-TX-4): Jacks first; 200/150/100/50 by finishing place."""
    state = start_contract(SUITS_DEAL, TRIX, ruleset)
    assert state.phase is tc.Phase.TRIX and state.turn == 1
    assert tc.legal_moves(state) == (tc.Play(1, "JH"),)
    final = finish_deal(state)
    result = final.results[-1]
    sign = -1 if ruleset.reversed_scores else 1
    places = (200, 150, 100, 50)
    assert result.points == tuple(sign * places[result.finishing_order.index(s)] for s in range(4))
    assert sum(result.points) == sign * 500


# -- R-CL-8: a Kingdom sums to zero ------------------------------------------------


@pytest.mark.parametrize(
    "ruleset",
    [
        tc.CLASSIC,
        classic(swapped_scores=True),
        classic(reversed_scores=True),
        tc.CLASSIC_PARTNERSHIP,
    ],
    ids=lambda r: r.name,
)
def test_r_cl_8_each_kingdom_sums_to_zero(ruleset: tc.Ruleset) -> None:
    """R-CL-8: −75, −100, −130, −195 and +500 (swapped: −195, −130) sum to 0, doubled or not."""
    sign = -1 if ruleset.reversed_scores else 1
    expected = {
        KH: -75,
        QUEENS: -100,
        DIAMONDS: -195 if ruleset.swapped_scores else -130,
        LTOOSH: -130 if ruleset.swapped_scores else -195,
        TRIX: 500,
    }
    doubled = 0
    for seed, last in ((0, True), (1, False)):
        final = policy_match(ruleset, seed, last=last)[-1]
        for k in range(4):
            kingdom = final.results[5 * k : 5 * k + 5]
            assert {r.contract: sum(r.points) for r in kingdom} == {
                c: sign * v for c, v in expected.items()
            }
            assert sum(sum(r.points) for r in kingdom) == 0
        doubled += sum(len(r.doubled) for r in final.results)
        assert sum(final.scores) == 0
    assert doubled > 0


# -- R-OPT-1: no doubling --------------------------------------------------------------


@pytest.mark.parametrize(
    "ruleset",
    [tc.CLASSIC.evolve(doubling=False), tc.PARTNERSHIP.evolve(doubling=False)],
    ids=lambda r: r.name,
)
def test_r_opt_1_no_doubling_window_at_all(ruleset: tc.Ruleset) -> None:
    """R-OPT-1: no DOUBLE phase in any contract, COMPLEX included; Double is rejected."""
    for contract in ruleset.contracts:
        if contract is TRIX:
            continue
        state = tc.apply(tc.apply(tc.new_match(ruleset), SUITS_DEAL), tc.Choose(1, contract))
        assert (state.phase, state.contract, state.turn) == (
            tc.Phase.COMPLEX if contract is COMPLEX else tc.Phase.TRICKS,
            contract,
            1,
        )
        assert state.window is None and state.trick_deal.doubled == ()  # type: ignore[union-attr]
        assert rejected(state, tc.Double(1, ["KH"])).rule == "R-DBL-1"
    states = policy_match(ruleset, 0, last=True)
    assert all(s.phase is not tc.Phase.DOUBLE for s in states)
    assert not any(r.doubled for r in states[-1].results)
    complexes = [r for r in states[-1].results if r.contract is COMPLEX]
    assert all(sum(r.points) == -500 for r in complexes)


# -- R-OPT-2: penalty cards first --------------------------------------------------


def test_r_opt_2_penalty_cards_first_king_of_hearts() -> None:
    """R-OPT-2: a seat void in the led suit must discard K♥ in King of Hearts."""
    ruleset = classic(penalty_cards_first=True)
    state = plays(start_contract(KH_DISCARD_DEAL, KH, ruleset), "2S")
    assert tc.legal_moves(state) == (tc.Play(1, "KH"),)
    err = rejected(state, tc.Play(1, "2C"))
    assert err.rule == "R-OPT-2" and "penalty card" in err.reason
    # a void seat without a penalty card discards anything (seat 3 after KH, AS)
    state = plays(state, "KH AS")
    assert len(tc.legal_moves(state)) == 13
    # without the option, seat 1 may discard any card
    state = plays(start_contract(KH_DISCARD_DEAL, KH, tc.CLASSIC), "2S")
    assert len(tc.legal_moves(state)) == 13


def test_r_opt_2_penalty_cards_first_queens_and_diamonds() -> None:
    """R-OPT-2: a Queen in Queens, a diamond in Diamonds; nothing in Ltoosh."""
    ruleset = classic(penalty_cards_first=True)
    state = plays(start_contract(KH_DISCARD_DEAL, QUEENS, ruleset), "2S")
    assert tc.legal_moves(state) == (tc.Play(1, "QC"),)  # seat 1's only Queen
    assert rejected(state, tc.Play(1, "KH")).rule == "R-OPT-2"
    state = plays(state, "QC AS")
    assert tc.legal_moves(state) == (tc.Play(3, "QH"),)
    state = plays(start_contract(KH_DISCARD_DEAL, DIAMONDS, ruleset), "2S")
    assert len(tc.legal_moves(state)) == 13  # seat 1 holds no diamond
    state = plays(state, "KH AS")
    assert tc.legal_moves(state) == (tc.Play(3, "AD"),)
    assert rejected(state, tc.Play(3, "AC")).rule == "R-OPT-2"
    state = plays(start_contract(KH_DISCARD_DEAL, LTOOSH, ruleset), "2S KH AS")
    assert len(tc.legal_moves(state)) == 13
    # following suit still comes first (R-CX-2): seat 2 holds spades and diamonds
    state = plays(start_contract(KH_DISCARD_DEAL, DIAMONDS, ruleset), "2S KH")
    assert {str(m.card) for m in tc.legal_moves(state)} == set(  # type: ignore[union-attr]
        ["AS", "KS", "QS", "JS", "TS", "9S", "8S"]
    )
    assert rejected(state, tc.Play(2, "8D")).rule == "R-CX-2"


# -- R-OPT-4: free heart leads -----------------------------------------------------


def test_r_opt_4_free_heart_leads() -> None:
    """R-OPT-4: hearts may be led at any time in King of Hearts."""
    ruleset = classic(free_heart_leads=True)
    state = start_contract(KH_DISCARD_DEAL, KH, ruleset)
    assert tc.Play(0, "7H") in tc.legal_moves(state) and len(tc.legal_moves(state)) == 13
    state = plays(state, "7H KH 8D AH")  # seat 1 must follow with K♥; seat 3 takes it
    assert state.phase is tc.Phase.DEAL
    assert state.results[-1].points == (0, 0, 0, -75)


# -- R-OPT-5: fixed order ------------------------------------------------------------


@pytest.mark.parametrize(
    "ruleset",
    [classic(fixed_order=True), tc.PARTNERSHIP.evolve(fixed_order=True)],
    ids=lambda r: r.name,
)
def test_r_opt_5_fixed_order(ruleset: tc.Ruleset) -> None:
    """R-OPT-5: contracts in ``contracts`` order, no CHOOSE phase, Choose rejected."""
    state = tc.apply(tc.new_match(ruleset), tc.Deal.shuffled(random.Random(1)))
    assert state.contract is ruleset.contracts[0] and state.phase is not tc.Phase.CHOOSE
    with pytest.raises(tc.IllegalMoveError):
        tc.apply(state, tc.Choose(owner_of(state), ruleset.contracts[-1]))
    states = policy_match(ruleset, 3, last=True)
    assert all(s.phase is not tc.Phase.CHOOSE for s in states)
    assert not any(isinstance(m, (tc.Choose, tc.Timeout)) for m in states[-1].history)
    assert [r.contract for r in states[-1].results] == list(ruleset.contracts) * 4


# -- R-OPT-7: show twos ----------------------------------------------------------


def known_twos(state: tc.MatchState, viewer: int | None) -> tuple[tuple[str, ...], ...]:
    """The 2s a view lists among each seat's known holdings."""
    return tuple(
        tuple(str(c) for c in held if c.rank is tc.Rank.TWO)
        for held in tc.view(state, viewer).known_holdings
    )


def test_r_opt_7_twos_shown_after_every_seats_first_turn() -> None:
    """R-OPT-7: in TRIX of CLASSIC_PARTNERSHIP, once every seat has had its first turn,
    each seat's 2s are public (known holdings in every view) until laid."""
    state = start_contract(SUITS_DEAL, TRIX, tc.CLASSIC_PARTNERSHIP)
    state = plays(state, "JH")  # seat 1 leads; seats 2, 3, 0 have had no turn yet
    assert known_twos(state, None) == ((), (), (), ())
    state = plays(state, "JD JC")
    assert all(known_twos(state, v) == ((), (), (), ()) for v in (None, 0, 1, 2, 3))
    state = plays(state, "JS")  # every seat has had its first turn
    shown = (("2S",), ("2H",), ("2D",), ("2C",))
    for viewer in (None, 0, 1, 2, 3):
        assert known_twos(state, viewer) == shown
    # without the option nothing is shown
    plain = plays(start_contract(SUITS_DEAL, TRIX, tc.CLASSIC), "JH JD JC JS")
    assert known_twos(plain, None) == ((), (), (), ())
    # a 2 once laid is no longer a holding: play seat 1's hearts down to 2H
    state = plays(state, "TH TD TC TS 9H 9D 9C 9S 8H 8D 8C 8S 7H 7D 7C 7S 6H 6D 6C 6S")
    state = plays(state, "5H 5D 5C 5S 4H 4D 4C 4S 3H 3D 3C 3S 2H")
    assert known_twos(state, None) == (("2S",), (), ("2D",), ("2C",))


# -- R-OPT-8: bad-hand redeal --------------------------------------------------------

REDEAL = classic(bad_hand_redeal=True)
# Seat 2 holds four 2s; seat 0 holds 7H (owner).
FOUR_TWOS = deal_of([["7H"], ["AS"], ["2S", "2H", "2D", "2C"], ["AH"]])
# Seat 3 holds three 2s and the 3 of the fourth suit (3D); 2D is seat 1's.
THREE_TWOS = deal_of([["7H"], ["2D"], ["AH"], ["2S", "2H", "2C", "3D"]])
# Three 2s without the fourth suit's 3: not a bad hand.
NOT_BAD = deal_of([["7H", "3D"], ["2D"], ["AH"], ["2S", "2H", "2C"]])


@pytest.mark.parametrize(("deal", "seat"), [(FOUR_TWOS, 2), (THREE_TWOS, 3)], ids=["four", "three"])
def test_r_opt_8_redeal_listed_for_the_bad_hand(deal: tc.Deal, seat: int) -> None:
    """R-OPT-8: with TRIX chosen, the bad hand's Redeal is listed and it is to act."""
    state = start_contract(deal, TRIX, REDEAL)
    assert state.owner == 0 and state.turn == 0
    assert state.to_act == {0, seat}
    assert tc.legal_moves(state, seat) == (tc.Redeal(seat),)
    assert tc.Redeal(seat) in tc.legal_moves(state)
    assert tc.forced_move(state, seat) == tc.Redeal(seat)
    for other in {0, 1, 2, 3} - {seat}:
        assert tc.Redeal(other) not in tc.legal_moves(state)
        err = rejected(state, tc.Redeal(other))
        assert err.rule == "R-OPT-8"
    assert tc.move_to_json(tc.Redeal(seat)) == {"move": "redeal", "seat": seat}
    assert tc.move_from_json({"move": "redeal", "seat": seat}) == tc.Redeal(seat)


def test_r_opt_8_redeal_deals_the_same_deal_again() -> None:
    """R-OPT-8: after a Redeal: Phase.DEAL, same deal number and owner; the next Deal
    leads to CHOOSE among the unplayed contracts, TRIX included."""
    rng = random.Random(8)
    state = tc.apply(tc.new_match(REDEAL), tc.Deal.shuffled(rng))
    owner = owner_of(state)
    state = finish_deal(tc.apply(state, tc.Choose(owner, QUEENS)))
    state = start_contract(FOUR_TWOS, TRIX, REDEAL, state=state)
    assert (state.deal_number, state.owner) == (2, owner)
    after = tc.apply(state, tc.Redeal(2))
    assert after.phase is tc.Phase.DEAL and after.deal_number == 2 and after.owner == owner
    assert after.hands == (0, 0, 0, 0) and after.contract is None and after.trix is None
    assert after.results == state.results and after.scores == state.scores
    assert after.to_act == frozenset() and tc.legal_moves(after) == ()
    assert after.remaining_contracts == (KH, DIAMONDS, LTOOSH, TRIX)
    again = tc.apply(after, tc.Deal.shuffled(rng))
    assert (again.phase, again.deal_number, again.owner) == (tc.Phase.CHOOSE, 2, owner)
    assert tc.legal_moves(again) == tuple(tc.Choose(owner, c) for c in (KH, DIAMONDS, LTOOSH, TRIX))


def test_r_opt_8_redeal_in_the_first_deal_keeps_the_owner() -> None:
    """R-OPT-8: the first deal's owner (7♥) keeps the Kingdom after a redeal."""
    state = tc.apply(start_contract(FOUR_TWOS, TRIX, REDEAL), tc.Redeal(2))
    moved = deal_of([["AS"], ["7H"]])  # 7♥ is now seat 1's
    state = tc.apply(state, moved)
    assert (state.deal_number, state.owner, state.phase) == (1, 0, tc.Phase.CHOOSE)
    assert state.remaining_contracts == tc.CLASSIC.contracts


def test_r_opt_8_redeal_only_before_the_first_card_or_pass() -> None:
    """R-OPT-8: after the first card (or pass) of TRIX the chance is gone."""
    state = start_contract(FOUR_TWOS, TRIX, REDEAL)
    played = tc.apply(state, first_legal(state))
    assert not isinstance(first_legal(state), tc.Redeal)
    assert played.to_act == {played.turn}
    assert tc.Redeal(2) not in tc.legal_moves(played)
    assert tc.Redeal(2) not in tc.legal_moves(played, 2)
    assert rejected(played, tc.Redeal(2)).rule == "R-OPT-8"
    # a pass: seat 0 (four 2s, no Jack) must pass first
    deal = hands_deal(
        "7H 2S 2H 2D 2C 3S 3H 4S 4H 5S 5H 6S 6H",
        "JS JH JD JC 3D 3C 4D 4C 5D 5C 6D 6C 7S",
        "8S 9S TS QS KS AS 8H 9H TH QH KH AH 7D",
        "8D 9D TD QD KD AD 7C 8C 9C TC QC KC AC",
    )
    state = start_contract(deal, TRIX, REDEAL)
    assert state.to_act == {0} and tc.legal_moves(state) == (tc.Pass(0), tc.Redeal(0))
    passed = tc.apply(state, tc.Pass(0))
    assert rejected(passed, tc.Redeal(0)).rule == "R-OPT-8"
    assert tc.apply(state, tc.Redeal(0)).phase is tc.Phase.DEAL


def test_r_opt_8_no_redeal_for_other_hands_or_contracts() -> None:
    """R-OPT-8: three 2s without the fourth suit's 3 is no bad hand; a bad hand in a trick
    contract has no Redeal."""
    state = start_contract(NOT_BAD, TRIX, REDEAL)
    assert state.to_act == {0} and all(not isinstance(m, tc.Redeal) for m in tc.legal_moves(state))
    assert rejected(state, tc.Redeal(3)).rule == "R-OPT-8"
    for contract in (KH, DIAMONDS):
        state = start_contract(FOUR_TWOS, contract, REDEAL)
        assert tc.Redeal(2) not in tc.legal_moves(state)
        assert rejected(state, tc.Redeal(2)).rule == "R-OPT-8"
    state = tc.apply(tc.new_match(REDEAL), FOUR_TWOS)  # CHOOSE
    assert rejected(state, tc.Redeal(2)).rule == "R-OPT-8"


@pytest.mark.parametrize("ruleset", [tc.PARTNERSHIP, tc.CLASSIC], ids=lambda r: r.name)
def test_r_match_2_no_redeal_without_the_option(ruleset: tc.Ruleset) -> None:
    """R-MATCH-2: without ``bad_hand_redeal`` nothing causes a redeal."""
    state = start_contract(FOUR_TWOS, TRIX, ruleset)
    assert state.to_act == {0}
    assert all(not isinstance(m, tc.Redeal) for m in tc.legal_moves(state))
    assert rejected(state, tc.Redeal(2)).rule == "R-MATCH-2"


# -- R-CL-1: the classic match as a whole ------------------------------------------


def test_r_cl_1_classic_match_of_twenty_deals() -> None:
    """R-CL-1: 20 deals, trick contracts in the COMPLEX (TRICKS) phase, individual scores."""
    states = policy_match(tc.CLASSIC, 9, last=True)
    final = states[-1]
    assert final.is_over and final.deal_number == 20 and len(final.results) == 20
    phases = {(s.phase, s.contract) for s in states if s.contract is not None}
    assert {p for p, c in phases if c is not TRIX} <= {tc.Phase.DOUBLE, tc.Phase.TRICKS}
    assert {p for p, c in phases if c is TRIX} == {tc.Phase.TRIX}
    assert {c for p, c in phases if p is tc.Phase.DOUBLE} == {KH, QUEENS}
    assert tc.score(final).result not in (
        tc.MatchResult.TEAM0,
        tc.MatchResult.TEAM1,
        tc.MatchResult.DRAW,
    )
    for result in final.results:
        assert sum(result.points) == deal_total(tc.CLASSIC, result.contract)


# -- the clauses and their tests -------------------------------------------------------

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules.rst"
CLAUSES = (
    ["R-SET-1", "R-SET-2", "R-IND-1"]
    + [f"R-CL-{n}" for n in range(1, 9)]
    + ["R-CLP-1"]
    + [f"R-OPT-{n}" for n in range(1, 11)]
)


def test_every_clause_is_defined_and_checked_by_named_tests() -> None:
    """Every ruleset clause of docs/rules.rst has tests naming it, and every test its
    "Checked by" lines name exists."""
    text = DOCS.read_text(encoding="utf-8")
    here = Path(__file__).resolve().parent
    sources = {
        name: (here / name).read_text(encoding="utf-8")
        for name in (
            "test_rulesets.py",
            "test_properties.py",
            "test_state_machine.py",
            "test_r_opt_9.py",
        )
    }
    named = set(re.findall(r"``(test_\w+)``", text))
    assert len(named) > 40
    for test in named:
        assert any(f"def {test}(" in src for src in sources.values()), test
    for clause in CLAUSES:
        assert re.search(rf"^{clause}\b|^{clause}\s", text, re.M), clause
        slug = clause.lower().replace("-", "_")
        naming = [t for t in named if f"{slug}_" in t]
        in_docstrings = sources["test_rulesets.py"].count(clause)
        assert naming or in_docstrings >= 2, clause
