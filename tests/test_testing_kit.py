"""The auditor's kit (issue 28): trixcomplex.testing's strategies, checks and plugin."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import attrs
import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from test_import_cost import _loaded_after
from trixcomplex.testing import (
    check_state,
    check_view,
    checks,
    illegal_moves_of,
    legal_moves_of,
    matches,
    phases_of,
    random_match,
    records,
    rulesets,
    states,
    views,
)

ROOT = Path(__file__).resolve().parent.parent
QUICK = settings(max_examples=15, deadline=None)


def test_import_trixcomplex_and_the_plugin_stay_free_of_hypothesis() -> None:
    """The plugin is loaded by every pytest run once the package is installed: it must not
    need the ``testing`` extra; the strategies load Hypothesis when first asked for."""
    assert "hypothesis" not in _loaded_after("import trixcomplex")
    assert "hypothesis" not in _loaded_after("import trixcomplex.testing.plugin")
    assert "hypothesis" not in _loaded_after("from trixcomplex.testing import check_state")
    assert "hypothesis" not in _loaded_after("import trixcomplex.conformance.check")
    assert "hypothesis" in _loaded_after("from trixcomplex.testing import matches")


# -- the strategies draw what they promise ------------------------------------------


@QUICK
@given(matches())
def test_r_sum_1_every_state_of_any_match_passes_check_state(match: list[tc.MatchState]) -> None:
    assert match[0] == tc.new_match(match[0].ruleset)
    assert match[-1].phase is tc.Phase.OVER
    for state in match:
        check_state(state)


@QUICK
@given(matches(tc.CLASSIC, complete=False))
def test_an_unfinished_match_is_a_prefix_of_play(match: list[tc.MatchState]) -> None:
    for before, after in itertools.pairwise(match):
        move = after.history.last
        assert move is not None and tc.apply(before, move) == after


@pytest.mark.parametrize("phase", list(tc.Phase), ids=lambda p: p.value)
def test_states_of_each_phase_are_in_that_phase(phase: tc.Phase) -> None:
    @QUICK
    @given(states(phase))
    def in_phase(state: tc.MatchState) -> None:
        assert state.phase is phase
        assert phase in phases_of(state.ruleset)
        check_state(state)

    in_phase()


def test_a_phase_a_ruleset_never_reaches_is_refused() -> None:
    with pytest.raises(ValueError, match="never reaches phase TRICKS"):
        find(states(tc.Phase.TRICKS, tc.PARTNERSHIP), lambda s: True)


@QUICK
@given(views())
def test_r_hid_1_every_drawn_view_passes_check_view(seen: tc.View) -> None:
    check_view(seen)


@QUICK
@given(records())
def test_a_drawn_record_replays(record: tc.Record) -> None:
    state = tc.replay(record)
    assert state.history.moves() == record.moves
    check_state(state)


@QUICK
@given(states(), st.data())
def test_legal_moves_of_are_applied_and_illegal_moves_of_refused_by_their_clause(
    state: tc.MatchState, data: st.DataObject
) -> None:
    refusal = data.draw(illegal_moves_of(state))
    with pytest.raises(tc.TrixError) as caught:
        tc.apply(state, refusal.move)
    assert caught.value.rule == refusal.rule and refusal.rule.startswith("R-")
    if state.phase is not tc.Phase.OVER:
        check_state(tc.apply(state, data.draw(legal_moves_of(state))))


def test_a_finished_match_has_no_legal_move() -> None:
    final = random_match(tc.PARTNERSHIP, 1)[-1]
    with pytest.raises(ValueError, match="the match is over"):
        legal_moves_of(final)


# -- shrinking ---------------------------------------------------------------------


def test_rulesets_shrink_to_the_first_preset_unchanged() -> None:
    assert find(rulesets(), lambda r: True) == tc.PARTNERSHIP
    assert find(rulesets(), lambda r: not r.doubling) == tc.PARTNERSHIP.evolve(doubling=False)


@pytest.mark.filterwarnings("ignore:Generating overly large repr")
def test_a_match_shrinks_to_the_first_listed_move_at_every_turn() -> None:
    """A failing match of 30 moves or more shrinks to 30 moves, each the first listed.  (A
    window's timeout may stay: it answers for every asked seat in one choice, which is
    simpler.)"""
    match = find(matches(tc.PARTNERSHIP, complete=False), lambda m: len(m) > 30)
    assert len(match) == 31
    for before, after in itertools.pairwise(match):
        move = after.history.last
        if before.phase is not tc.Phase.DEAL and not isinstance(move, tc.Timeout):
            assert move == tc.legal_moves(before)[0], (before.phase, move)


@pytest.mark.slow
def test_r_cx_3_a_failing_state_shrinks_to_an_early_one() -> None:
    """The first state in TRICKS with one trick taken: a deal, a choice, a window's answers
    at most, and the four cards of one trick."""
    state = find(
        states(tc.Phase.TRICKS),
        lambda s: s.trick_deal is not None and len(s.trick_deal.tricks) == 1,
        settings=settings(max_examples=300, deadline=None),
    )
    assert state.deal_number == 1
    assert len(state.history) <= 1 + 1 + 4 + 4


# -- the checks catch what they claim ------------------------------------------------


def _trick_state() -> tc.MatchState:
    return next(s for s in random_match(tc.PARTNERSHIP, 3) if s.phase is tc.Phase.COMPLEX)


def test_r_card_1_check_state_catches_a_lost_or_doubled_card() -> None:
    state = _trick_state()
    hands = list(state.hands)
    lowest = hands[0] & -hands[0]
    with pytest.raises(AssertionError, match="R-CARD-1: 1 card"):
        check_state(attrs.evolve(state, hands=(hands[0] ^ lowest, *hands[1:])))
    with pytest.raises(AssertionError, match="R-CARD-1: a card is in two places"):
        check_state(attrs.evolve(state, hands=(hands[0], hands[1] | lowest, *hands[2:])))


def test_r_sum_1_and_r_match_7_check_state_catches_bad_sums() -> None:
    final = random_match(tc.PARTNERSHIP, 4)[-1]
    with pytest.raises(AssertionError, match="R-MATCH-7"):
        check_state(attrs.evolve(final, scores=(1, *final.scores[1:])))
    first = final.results[0]
    points = (first.points[0] + 10, *first.points[1:])
    results = (attrs.evolve(first, points=points), *final.results[1:])
    scores = (final.scores[0] + 10, *final.scores[1:])
    with pytest.raises(AssertionError, match="R-SUM-1: Kingdom 1 sums to 10, not 0"):
        check_state(attrs.evolve(final, results=results, scores=scores))


def test_r_seat_2_and_r_match_1_check_state_catches_turn_and_deal_number() -> None:
    state = _trick_state()
    with pytest.raises(AssertionError, match="R-MATCH-1: deal_number 3"):
        check_state(attrs.evolve(state, deal_number=3))
    final = random_match(tc.PARTNERSHIP, 4)[-1]
    results = final.results[:-1]
    scores = tuple(sum(r.points[s] for r in results) for s in range(4))
    with pytest.raises(AssertionError, match="R-MATCH-8: phase OVER after 7 deals"):
        check_state(attrs.evolve(final, results=results, scores=scores, deal_number=7))


def test_r_seat_2_check_state_catches_legal_moves_that_disagree_with_the_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An engine listing moves for the wrong seat (here: each seat offered its
    neighbour's moves) fails the check."""
    state = _trick_state()
    real = tc.legal_moves
    monkeypatch.setattr(checks, "legal_moves", lambda s, seat: real(s, (seat + 1) % 4))
    with pytest.raises(AssertionError, match=r"R-SEAT-2: seat \d is (not )?to act but has"):
        check_state(state)


def test_r_match_4_check_state_catches_two_owners_in_a_kingdom() -> None:
    final = random_match(tc.PARTNERSHIP, 4)[-1]
    second = final.results[1]
    results = (final.results[0], attrs.evolve(second, owner=(second.owner + 1) % 4),
               *final.results[2:])  # fmt: skip
    with pytest.raises(AssertionError, match="R-MATCH-4: Kingdom 1 has two owners"):
        check_state(attrs.evolve(final, results=results))


def test_r_hid_1_check_view_catches_a_leak_and_a_foreign_move() -> None:
    state = _trick_state()
    mine = tc.view(state, state.turn)
    other = tc.view(state, (state.turn + 1) % 4)
    with pytest.raises(AssertionError, match="R-HID-1"):
        check_view(attrs.evolve(other, hand=mine.hand))
    with pytest.raises(AssertionError, match="R-HID-1: a spectator"):
        check_view(attrs.evolve(tc.view(state, None), legal_moves=mine.legal_moves))
    with pytest.raises(AssertionError, match=r"R-HID-1: seat \d is offered"):
        check_view(attrs.evolve(other, legal_moves=mine.legal_moves))


def test_checks_are_not_bare_asserts_and_hold_under_python_o() -> None:
    code = (
        "import attrs, random, trixcomplex as tc\n"
        "from trixcomplex.testing import check_state\n"
        "s = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(1)))\n"
        "check_state(attrs.evolve(s, scores=(1, 0, 0, 0)))\n"
    )
    done = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 1 and "AssertionError: R-MATCH-7" in done.stderr


# -- the plugin ----------------------------------------------------------------------

AUDITOR_TEST = """
def test_fixtures(trix_ruleset, trix_seed, trix_match, trix_record):
    import trixcomplex as tc
    from trixcomplex.testing import check_state
    assert trix_match[-1].ruleset == trix_ruleset
    assert tc.replay(trix_record) == trix_match[-1]
    print("RULESET", trix_ruleset.name, "SEED", trix_seed, "MOVES", len(trix_match))
"""


def _pytest_in(
    directory: Path, *args: str, capture: bool = False
) -> subprocess.CompletedProcess[str]:
    """pytest in a child process; its tests' output is shown (``-s``) unless ``capture``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    shown = [] if capture else ["-s"]
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *shown, *args],
        capture_output=True, text=True, timeout=600, cwd=directory, env=env,
    )  # fmt: skip


@pytest.mark.slow
def test_the_plugin_gives_the_fixtures_with_no_set_up(tmp_path: Path) -> None:
    (tmp_path / "test_mine.py").write_text(AUDITOR_TEST)
    done = _pytest_in(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "RULESET partnership SEED 0 MOVES" in done.stdout


def test_a_bad_trix_ruleset_stops_the_run_with_one_line(tmp_path: Path) -> None:
    (tmp_path / "test_mine.py").write_text(AUDITOR_TEST)
    done = _pytest_in(tmp_path, "--trix-ruleset", "poker")
    assert done.returncode == 4
    assert done.stderr.strip().startswith("ERROR: --trix-ruleset: unknown ruleset")
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_the_plugin_gives_the_options_under_xdist(tmp_path: Path) -> None:
    """``--trix-ruleset`` and ``--trix-seed`` reach the fixtures, in an xdist worker too
    (one worker: there is one test; its output comes back in the report, ``-rP``)."""
    pytest.importorskip("xdist", reason="pytest-xdist (the [test] extra) is not installed")
    (tmp_path / "test_mine.py").write_text(AUDITOR_TEST)
    done = _pytest_in(tmp_path, "-n", "1", "-rP", "--trix-ruleset", "classic+doubling=False",
                      "--trix-seed", "5", capture=True)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "RULESET classic+doubling=False SEED 5 MOVES" in done.stdout, done.stdout


@pytest.mark.slow
def test_the_example_auditor_project_passes() -> None:
    """Acceptance (issue 28): examples/auditor, an auditor's own tests on the public kit."""
    done = _pytest_in(ROOT, "examples/auditor", "-rA")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED examples/auditor/test_rules_audit.py::") == 6, done.stdout
