"""Search made faster, choices unchanged (issue 16, deliverables 3 and 4).

The Monte Carlo bot's decisions and the sampled worlds were recorded, for
seeded views of every preset and of option rulesets, with the code as it was
before the speed work (``tests/golden/search_decisions.json``).  The faster
:func:`~trixcomplex.sample_world`, rule playouts and tactics must reproduce
them exactly, and leave the bot's random generator in the same state: so the
faster bot *is* the old bot (same moves from the same seeds), and its
strength needs no new measurement.

Regenerate the file only when a change is *meant* to change the choices
(and then measure the strength again with ``benchmarks/strength.py``)::

    python tests/test_search_equivalence.py   # writes tests/golden/search_decisions.json
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import trixcomplex as tc
from builders import playing_phases, random_match
from trixcomplex.bots import MonteCarloBot
from trixcomplex.bots.montecarlo import playout
from trixcomplex.bots.rule_bot import rule_move
from trixcomplex.bots.tactics import Situation
from trixcomplex.core.rules import redeal_seat
from trixcomplex.host.loop import redeal_claimant, run, seat_to_move

GOLDEN = Path(__file__).parent / "golden" / "search_decisions.json"

VARIANTS = [
    *tc.RULESETS,
    "partnership+reversed_scores=True",
    "classic+penalty_cards_first=True",
    "classic+show_twos=True",
    "classic-partnership+bad_hand_redeal=True",
    "individual-complex+fixed_order=True,swapped_scores=True",
]


def _cases(name: str) -> list[tuple[int, tc.MatchState, int]]:
    """Seeded states of a random match of ``name`` where a seat has a choice."""
    ruleset = tc.Ruleset.from_name(name)
    bad = "bad_hand" if ruleset.bad_hand_redeal else None
    states = random_match(5, ruleset=ruleset, bad_hands=bad, timeout_rate=0.0)
    out, redeals = [], []
    for index, state in enumerate(states):
        if state.phase in (tc.Phase.DEAL, tc.Phase.OVER):
            continue
        seat = seat_to_move(state)
        if redeal_seat(state) is not None:  # R-OPT-8: a bad hand may demand a redeal
            redeals.append((index, state, seat))
        elif len(tc.legal_moves(state, seat)) > 1 and (index % 9 == 0 or state.phase in _RARE):
            out.append((index, state, seat))
    return out[:24] + redeals[:8]


_RARE = (tc.Phase.CHOOSE, tc.Phase.DOUBLE)


def _world_key(world: tc.MatchState) -> list[Any]:
    return [list(world.hands), world.phase.value, len(world.history)]


def record(name: str) -> list[dict[str, Any]]:
    """The decisions, worlds and playouts of ``name``'s cases, as the code makes them now."""
    rows = []
    for index, state, seat in _cases(name):
        view = tc.view(state, seat)
        legal = tc.legal_moves(state, seat)
        rng = random.Random(f"{name}:{index}")
        world = tc.sample_world(view, rng)
        worlds = [_world_key(world), _world_key(tc.sample_world(view, rng))]
        ends = [
            list(playout(world, random.Random(index), policy).scores)
            for policy in ("rule", "random")
        ]
        rule = MonteCarloBot(worlds=3).choose(view, legal, rng)
        rand = MonteCarloBot(worlds=2, policy="random").choose(view, legal, rng)
        claimant = redeal_claimant(state, seat)
        redeal = None
        if claimant is not None:
            redeal = MonteCarloBot(worlds=3).wants_redeal(tc.view(state, claimant), rng)
        rows.append({
            "index": index,
            "worlds": worlds,
            "playouts": ends,
            "rule": repr(rule),
            "random": repr(rand),
            "redeal": redeal,
            "rng_after": rng.getrandbits(64),
        })  # fmt: skip
    return rows


def _golden() -> dict[str, list[dict[str, Any]]]:
    data: dict[str, list[dict[str, Any]]] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name", VARIANTS)
def test_r_hid_1_search_choices_are_those_recorded_before_the_speedup(name: str) -> None:
    """R-HID-1, R-SET-1 (every ruleset), R-OPT-8 (redeal offers): the same worlds, playout
    scores, Monte Carlo moves (rule and random playouts) and redeal answers, from the same
    seeds, as recorded before the speed work, with the generator left in the same state."""
    expected = _golden()[name]
    assert len(expected) >= 10
    assert record(name) == expected


def _host_loop_rule_playout(state: tc.MatchState) -> tc.MatchState:
    """The rule playout as it was: the host loop, RuleBot's move from each seat's
    situation in the world, every move through ``apply``."""
    return run(state, lambda world, seat, legal: rule_move(Situation.of_world(world, seat), legal))


@pytest.mark.parametrize("name", VARIANTS)
def test_r_set_1_rule_playouts_end_in_the_state_the_host_loop_reaches(name: str) -> None:
    """R-SET-1, R-CX-2, R-TX-2, R-DBL-2, R-OPT-8: ``playout(state, rng, "rule")`` (cards on
    the engine's fast playout, RuleBot's card plays shared through a per-decision memo) ends
    in exactly the state, history included, of the host loop asking RuleBot every move, from
    states of every phase; playouts sharing one memo agree with fresh ones."""
    from trixcomplex.bots.montecarlo import _playout

    ruleset = tc.Ruleset.from_name(name)
    bad = "bad_hand" if ruleset.bad_hand_redeal else None
    states = random_match(8, ruleset=ruleset, bad_hands=bad, timeout_rate=0.0)
    known: dict[tuple[object, ...], dict[tuple[object, ...], tc.PlayerMove]] = {}
    phases = set()
    every = max(1, len(states) // 60)
    for index, state in enumerate(states):
        if state.phase in (tc.Phase.DEAL, tc.Phase.OVER):
            continue
        if index % every and state.phase not in _RARE:
            continue
        phases.add(state.phase)
        expected = _host_loop_rule_playout(state)
        assert playout(state, random.Random(0)) == expected
        assert _playout(state, random.Random(0), "rule", known) == expected
    assert playing_phases(ruleset) <= phases


def test_the_recorded_cases_cover_every_phase_with_a_choice() -> None:
    """The golden cases include contract choices, doubling answers, trick and TRIX plays,
    and a redeal offer (R-MATCH-5, R-DBL-2, R-CX-2, R-TX-2, R-OPT-8)."""
    phases = set()
    for name in VARIANTS:
        for _, state, _ in _cases(name):
            phases.add(state.phase)
    assert {tc.Phase.CHOOSE, tc.Phase.DOUBLE, tc.Phase.TRIX} <= phases
    assert phases & {tc.Phase.COMPLEX, tc.Phase.TRICKS}
    assert any(row["redeal"] is not None for rows in _golden().values() for row in rows)


if __name__ == "__main__":
    GOLDEN.parent.mkdir(exist_ok=True)
    data = {name: record(name) for name in VARIANTS}
    GOLDEN.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}: {sum(len(v) for v in data.values())} cases", file=sys.stderr)
