"""The score keeper for real-card games (``trixcomplex.io.scorekeeper``).

- It agrees with the engine: the outcome of every deal of random played matches,
  across the rulesets and their options, scores exactly as the engine scored the
  deal (the whole :class:`~trixcomplex.DealResult`: points, breakdown, doubled cards
  and their cases).  The default suite plays a few dozen matches and a hypothesis
  property; ``nox -s scorekeeper`` plays 1,000 (``TRIXCOMPLEX_SCOREKEEPER_MATCHES``).
- Hand-built deals score exactly as the clauses say (R-CX-5, R-CX-6, R-DBL-4, R-DBL-5,
  R-CL-2 … R-CL-5, R-OPT-3, R-OPT-6, R-OPT-9, R-TX-4).
- An outcome no deal could have is refused with the clause it breaks, and a scorebook
  is never changed by a refused deal.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings

import trixcomplex as tc
from builders import random_match_of
from trixcomplex.io.scorekeeper import (
    DealOutcome,
    OutcomeError,
    Scorebook,
    played_outcomes,
    score_deal,
)
from trixcomplex.io.scoresheet import format_scorebook, format_scoresheet
from trixcomplex.testing.strategies import matches

MATCHES = int(os.environ.get("TRIXCOMPLEX_SCOREKEEPER_MATCHES", "24"))
"""Random matches of the agreement test: a few dozen in the default suite, 1,000 in
``nox -s scorekeeper``."""

VARIANTS = [
    tc.PARTNERSHIP,
    tc.INDIVIDUAL_COMPLEX,
    tc.CLASSIC,
    tc.CLASSIC_PARTNERSHIP,
    tc.CLASSIC.evolve(combined_contracts=True),
    tc.CLASSIC.evolve(swapped_scores=True, penalty_cards_first=True),
    tc.CLASSIC.evolve(doubling=False, bad_hand_redeal=True),
    tc.PARTNERSHIP.evolve(reversed_scores=True),
    tc.PARTNERSHIP.evolve(doubling=False, worst_seat_loses=True),
    tc.CLASSIC_PARTNERSHIP.evolve(fixed_order=True, free_heart_leads=True),
    tc.CLASSIC.evolve(combined_contracts=True, reversed_scores=True, swapped_scores=True),
]

DIAMONDS = ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"]


def _agrees(final: tc.MatchState) -> int:
    """The scorebook of the match's reported outcomes equals the engine's results, deal by
    deal, and survives a JSON round trip; the number of deals checked."""
    book = Scorebook(final.ruleset)
    for outcome in played_outcomes(final):
        book = book.add(outcome)
    assert book.results == final.results
    assert book.score().seats == final.scores
    if final.is_over:
        assert book.is_over and book.score().result == tc.score(final).result
        assert book.score().winners == tc.score(final).winners
    assert Scorebook.from_json(json.loads(json.dumps(book.to_json()))) == book
    redealt = any(isinstance(m, tc.Redeal) for m in final.history.moves())
    if final.is_over and not redealt:  # the same scoresheet, line for line
        for locale in ("en", "ar"):
            assert format_scorebook(book, locale=locale) == format_scoresheet(final, locale=locale)
    return len(book.results)


def test_r_sum_1_the_score_keeper_agrees_with_the_engine_on_random_matches() -> None:
    """Every deal of MATCHES random matches over VARIANTS (every preset, every option)
    scores from its reported outcome exactly as the engine scored it."""
    deals = 0
    for seed in range(MATCHES):
        ruleset = VARIANTS[seed % len(VARIANTS)]
        deals += _agrees(random_match_of(ruleset, seed, bad_hands=seed % 3 == 0)[-1])
    assert deals >= 8 * MATCHES  # whole matches: at least 8 deals each
    print(f"score keeper agreed with the engine on {deals} deals of {MATCHES} matches")


@settings(max_examples=30)
@given(matches())
def test_the_score_keeper_agrees_with_the_engine_property(states: list[tc.MatchState]) -> None:
    """The same, on hypothesis' matches (any preset, options flipped, timeouts, redeals)."""
    _agrees(states[-1])


# -- hand-built deals ------------------------------------------------------------------


def _complex(doubled: dict[str, tuple[int, int]] | None = None) -> DealOutcome:
    """A COMPLEX deal: seat 0 took 4 tricks with QS QC and 2D-4D, seat 1 3 tricks with
    K♥ and 5D-7D, seat 2 3 tricks with QH and 8D-TD, seat 3 3 tricks with QD and JD-AD."""
    taken = {"KH": 1, "QS": 0, "QH": 2, "QD": 3, "QC": 0}
    taken.update({d: (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3)[i] for i, d in enumerate(DIAMONDS)})
    return DealOutcome.of("COMPLEX", 0, tricks=(4, 3, 3, 3), taken=taken, doubled=doubled or {})


def test_r_cx_5_and_r_cx_6_a_plain_complex_deal() -> None:
    """R-CX-5: -15 a trick, -10 a diamond, -25 a Queen, -75 K♥, stacked; R-CX-6: -500."""
    result = score_deal(_complex())
    assert result.points == (-60 - 30 - 50, -45 - 30 - 75, -45 - 30 - 25, -45 - 40 - 25)
    assert sum(result.points) == -500
    assert result.seats[1].king_of_hearts and result.seats[3].diamonds == 4


@pytest.mark.parametrize(
    ("doubled", "case", "change"),
    [
        ({"KH": (2, 0)}, 1, (0, -75, +75, 0)),  # taken by seat 1, not its doubler
        ({"KH": (1, 3)}, 2, (0, -75, 0, +75)),  # its doubler took it, seat 3 led
        ({"KH": (1, 1)}, 3, (0, 0, 0, 0)),  # its doubler took it in its own lead
        ({"QD": (3, 2)}, 2, (0, 0, +25, -25)),  # a Queen: v = 25
    ],
)
def test_r_dbl_4_and_r_dbl_5_the_three_cases(
    doubled: dict[str, tuple[int, int]], case: int, change: tuple[int, ...]
) -> None:
    """R-DBL-4: case 1 the taker pays 2v and the doubler gains v; case 2 the doubler pays
    2v and the leader gains v; case 3 the doubler pays v.  R-DBL-5: the trick's and the
    diamonds' charges stay, and the deal still sums to -500."""
    plain = score_deal(_complex()).points
    result = score_deal(_complex(doubled))
    assert [d.case for d in result.doubled] == [case]
    assert tuple(result.points[s] - plain[s] for s in range(4)) == change
    assert sum(result.points) == -500


def test_r_cl_2_to_r_cl_5_the_classic_contracts() -> None:
    """King of Hearts ends once K♥ is taken (-75); Queens -25 each; Diamonds -10 each
    (-15 under R-OPT-3); Ltoosh -15 a trick (-10 under R-OPT-3); R-OPT-6 negates."""
    king = DealOutcome.of("KING_OF_HEARTS", 2, tricks=(3, 1, 1, 0), taken={"KH": 2})
    assert score_deal(king, tc.CLASSIC).points == (0, 0, -75, 0)
    queens = DealOutcome.of(
        "QUEENS", 2, tricks=(5, 2, 0, 0), taken={"QS": 0, "QH": 0, "QD": 1, "QC": 0}
    )
    assert score_deal(queens, tc.CLASSIC).points == (-75, -25, 0, 0)
    diamonds = DealOutcome.of(
        "DIAMONDS", 2, tricks=(4, 2, 2, 1), taken={d: i % 4 for i, d in enumerate(DIAMONDS)}
    )
    assert score_deal(diamonds, tc.CLASSIC).points == (-40, -30, -30, -30)
    swapped = tc.CLASSIC.evolve(swapped_scores=True)
    assert score_deal(diamonds, swapped).points == (-60, -45, -45, -45)
    ltoosh = DealOutcome.of("LTOOSH", 2, tricks=(5, 4, 3, 1))
    assert score_deal(ltoosh, tc.CLASSIC).points == (-75, -60, -45, -15)
    assert score_deal(ltoosh, swapped).points == (-50, -40, -30, -10)
    reversed_ = tc.CLASSIC.evolve(reversed_scores=True)
    assert score_deal(ltoosh, reversed_).points == (75, 60, 45, 15)


def test_r_opt_9_a_combined_deal_charges_each_part() -> None:
    """Queens + Diamonds: each Queen -25 and each diamond -10, ending once both are taken."""
    taken = {d: i % 4 for i, d in enumerate(DIAMONDS)} | {"QS": 1, "QH": 1, "QC": 2}
    both = DealOutcome.of(["QUEENS", "DIAMONDS"], 0, tricks=(4, 2, 2, 2), taken=taken)
    ruleset = tc.CLASSIC.evolve(combined_contracts=True)
    # seat 0: 4 diamonds; seat 1: 3 and QS QH; seat 2: 3 (QD among them) and QC, QD;
    # seat 3: 3 diamonds
    assert score_deal(both, ruleset).points == (-40, -30 - 50, -30 - 50, -30)


def test_r_tx_4_trix_places() -> None:
    """TRIX: +200, +150, +100, +50 by the finishing order; negated under R-OPT-6."""
    trix = DealOutcome.of("TRIX", 3, finishing_order=[3, 1, 0, 2])
    assert score_deal(trix).points == (100, 150, 50, 200)
    assert [s.place for s in score_deal(trix).seats] == [3, 2, 4, 1]
    assert score_deal(trix, tc.PARTNERSHIP.evolve(reversed_scores=True)).points == (
        -100,
        -150,
        -50,
        -200,
    )


# -- what cannot be ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("outcome", "ruleset", "clause", "words"),
    [
        (DealOutcome.of("LTOOSH", 0, tricks=(5, 5, 3, 1)), tc.CLASSIC, "R-CX-4", "14 tricks"),
        (DealOutcome.of("LTOOSH", 0, tricks=(5, 5, 1, 1)), tc.CLASSIC, "R-CX-4", "plays all 13"),
        (
            DealOutcome.of("COMPLEX", 0, tricks=(13, 0, 0, 0)),
            tc.PARTNERSHIP,
            "R-CX-4",
            "nobody took",
        ),
        (
            DealOutcome.of("COMPLEX", 0, tricks=(1, 4, 4, 4), taken=[("KH", 1), ("KH", 2)]),
            tc.PARTNERSHIP,
            "R-CARD-1",
            "taken twice",
        ),
        (
            DealOutcome.of("QUEENS", 0, tricks=(1, 0, 0, 0), taken={"QS": 0, "QH": 0, "QD": 1}),
            tc.CLASSIC,
            "R-CX-3",
            "seat 1 took 1 counted cards in 0 tricks",
        ),
        (
            DealOutcome.of("QUEENS", 0, tricks=(2, 0, 0, 0), taken={"QS": 0, "QH": 0, "QD": 0}),
            tc.CLASSIC,
            "R-CL-3",
            "before its penalty cards",
        ),
        (
            DealOutcome.of("KING_OF_HEARTS", 0, tricks=(1, 0, 0, 0), taken={"KH": 0, "2C": 0}),
            tc.CLASSIC,
            "R-CX-5",
            "only K♥, the Queens and the diamonds",
        ),
        (
            DealOutcome.of(
                "KING_OF_HEARTS",
                0,
                tricks=(1, 0, 0, 0),
                taken={"KH": 0, "QS": 0},
                doubled={"QS": (0, 0)},
            ),
            tc.CLASSIC,
            "R-CL-7",
            "cannot be doubled",
        ),  # only K♥ is doubled in King of Hearts
        (_complex({"QD": (3, 3), "2D": (0, 0)}), tc.PARTNERSHIP, "R-DBL-1", "2D cannot"),
        (_complex({"KH": (1, 1)}), tc.PARTNERSHIP.evolve(doubling=False), "R-OPT-1", "KH"),
        (
            DealOutcome.of(
                ["KING_OF_HEARTS", "QUEENS"],
                0,
                tricks=(2, 0, 0, 0),
                taken={"KH": 0, "QS": 0, "QH": 0},
            ),
            tc.CLASSIC.evolve(combined_contracts=True),
            "R-OPT-9",
            "before its penalty cards",
        ),
        (
            DealOutcome.of("TRIX", 0, finishing_order=[0, 1, 1, 2]),
            tc.PARTNERSHIP,
            "R-TX-4",
            "each seat once",
        ),
        (
            DealOutcome.of("TRIX", 0, tricks=(1, 0, 0, 0), finishing_order=[0, 1, 2, 3]),
            tc.PARTNERSHIP,
            "R-TX-1",
            "no tricks",
        ),
        (DealOutcome.of("QUEENS", 0), tc.PARTNERSHIP, "R-MATCH-1", "not a contract"),
        (DealOutcome.of(["QUEENS", "LTOOSH"], 0), tc.CLASSIC, "R-OPT-9", "not a contract"),
    ],
)
def test_an_outcome_no_deal_could_have_is_refused_naming_its_clause(
    outcome: DealOutcome, ruleset: tc.Ruleset, clause: str, words: str
) -> None:
    with pytest.raises(OutcomeError) as raised:
        score_deal(outcome, ruleset)
    error = raised.value
    assert isinstance(error, ValueError) and isinstance(error, tc.TrixError)
    assert error.rule == clause and error.code == "outcome.inconsistent"
    assert words in str(error) and str(error).endswith(f"({clause})")


@pytest.mark.parametrize(
    ("kwargs", "clause"),
    [
        ({"contract": "NOPE", "owner": 0}, "R-MATCH-1"),
        ({"contract": "TRIX", "owner": 4}, "R-MATCH-3"),
        ({"contract": "LTOOSH", "owner": 0, "tricks": (13, 0, 0)}, "R-CX-4"),
        ({"contract": "LTOOSH", "owner": 0, "taken": {"KX": 0}}, "R-CARD-2"),
        ({"contract": "LTOOSH", "owner": 0, "taken": {"KH": 5}}, "R-CX-3"),
        ({"contract": "COMPLEX", "owner": 0, "doubled": {"KH": (0, 9)}}, "R-DBL-4"),
    ],
)
def test_malformed_outcomes_are_refused(kwargs: dict[str, object], clause: str) -> None:
    with pytest.raises(OutcomeError) as raised:
        DealOutcome.of(**kwargs)  # type: ignore[arg-type]
    assert raised.value.rule == clause


def test_an_outcome_built_directly_is_checked_too() -> None:
    """The fields of a DealOutcome made without DealOutcome.of are checked by score_deal."""
    bad = DealOutcome(tc.Contract.LTOOSH, 0, (13, 0, 0, 0), ((tc.parse_card("KH"), 7),))
    with pytest.raises(OutcomeError) as raised:
        score_deal(bad, tc.CLASSIC)
    assert raised.value.rule == "R-CX-3"


def test_the_scorebook_follows_the_match_and_never_changes() -> None:
    """R-MATCH-4, R-MATCH-5, R-SET-2, R-MATCH-8: the owner of a Kingdom's deals, the next
    Kingdom's owner, each contract once a Kingdom, nothing after the match; a refused
    deal leaves the book as it was."""
    trix = DealOutcome.of("TRIX", 2, finishing_order=[2, 0, 3, 1])
    book = Scorebook().add(trix)
    with pytest.raises(OutcomeError) as raised:
        book.add(DealOutcome.of("TRIX", 2, finishing_order=[2, 0, 3, 1]))
    assert raised.value.rule == "R-SET-2"
    with pytest.raises(OutcomeError) as raised:
        book.add(_complex())  # seat 0, but seat 2 owns Kingdom 1
    assert raised.value.rule == "R-MATCH-5"
    assert book.outcomes == (trix,) and len(book.results) == 1
    complex_of_2 = DealOutcome.of("COMPLEX", 2, tricks=_complex().tricks, taken=_complex().taken)
    book = book.add(complex_of_2)
    assert book.next_kingdom == 2 and book.next_owner == 3
    with pytest.raises(OutcomeError) as raised:
        book.add(DealOutcome.of("TRIX", 2, finishing_order=[0, 1, 2, 3]))
    assert raised.value.rule == "R-MATCH-4"
    for owner in (3, 0, 1):
        book = book.add(DealOutcome.of("TRIX", owner, finishing_order=[0, 1, 2, 3]))
        book = book.add(DealOutcome.of("COMPLEX", owner, tricks=_complex().tricks,
                                       taken=_complex().taken))  # fmt: skip
    assert book.is_over and book.score().result is not None
    with pytest.raises(OutcomeError) as raised:
        book.add(trix)
    assert raised.value.rule == "R-MATCH-8"
    assert sum(book.score().seats) == 0  # R-SUM-1: four whole Kingdoms


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"format": "trixcomplex-scorebook", "version": 2, "ruleset": "partnership", "deals": []},
        {"format": "trixcomplex-scorebook", "version": 1, "ruleset": "nope", "deals": []},
        {"format": "trixcomplex-scorebook", "version": 1, "ruleset": "partnership",
         "deals": [{"contract": "TRIX"}]},
    ],
)  # fmt: skip
def test_a_bad_scorebook_file_is_refused(data: object) -> None:
    with pytest.raises(OutcomeError):
        Scorebook.from_json(data)
