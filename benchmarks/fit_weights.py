"""Fit RuleBot's contract-choice weights by simulation, then test them on fresh seeds.

Usage (from the repository root; long, so run it nice'd in the background)::

    nice -n 19 python benchmarks/fit_weights.py --out fit.jsonl
    python benchmarks/fit_weights.py --out fit.jsonl --report     # the summary again

The weights (:data:`trixcomplex.bots.tactics.CONTRACT_WEIGHTS`) give each
contract a scale and a bias: the owner chooses the remaining contract with
the best ``scale * contract_goodness(contract, hand) + bias``
(:func:`~trixcomplex.bots.tactics.choose_contract`).  The first weights,
set by hand, are ``(1, 0)`` for every contract
(:data:`~trixcomplex.bots.tactics.HAND_SET_WEIGHTS`).

**Fitting** (training seed): a coordinate search.  For each contract in
turn, each step of its bias and of its scale is tried; a step is kept when
``RuleBot(candidate)`` against ``RuleBot(HAND_SET_WEIGHTS)`` wins more
matches net of losses (the mean margin breaks ties) than the best weights
so far did, on the same matches (the same shuffles for every candidate, so
candidates are compared on equal luck).  Each candidate plays ``--train``
matches of each ruleset of ``--rulesets``.

**Testing** (a fresh seed, never seen while fitting): the fitted weights
play ``--test`` matches of each ruleset against the hand-set ones, in pairs
on the same shuffles with the seats exchanged
(:func:`trixcomplex.host.tournament.play_numbered_match`), and the win rate with
its Wilson 95% interval is printed per ruleset and over all of them.

Every evaluation is appended to ``--out`` (JSON lines), so a stopped run
resumes where it stopped.

**RuleBot version 2's tactics** (``--tactics``): the same coordinate search
over the fields of :class:`~trixcomplex.bots.club.TacticWeights` (each tried
at the values of :data:`TACTIC_GRID`), ``RuleBot(tactics=candidate)`` against
``RuleBot(version=1)``, then the test of the fitted weights against version 1
on the fresh seed (the exact endgame off, ``RuleBot(endgame=0)``: the tactics
decide every card, and the search runs several times faster); ``--from-fitted``
starts from today's :data:`~trixcomplex.bots.club.TACTIC_WEIGHTS` rather than
the hand-set ones::

    nice -n 10 python benchmarks/fit_weights.py --tactics --out fit-tactics.jsonl \
        --train 200 --test 1000
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import attrs

from trixcomplex.bots import RuleBot
from trixcomplex.bots.club import TACTIC_WEIGHTS, TacticWeights
from trixcomplex.bots.tactics import HAND_SET_WEIGHTS, ContractWeights
from trixcomplex.core.moves import Contract
from trixcomplex.core.rulesets import Ruleset
from trixcomplex.host.tournament import (
    MatchOutcome,
    play_numbered_match,
    summarize,
    wilson_interval,
)

BIAS_STEPS = (-30.0, -15.0, 15.0, 30.0)
SCALE_STEPS = (0.6, 1.5)

TACTIC_GRID: dict[str, tuple[float, ...]] = {
    "double_length": (2, 3, 4, 5),
    "double_short": (0, 1, 2),
    "short_suit": (0.0, 3.0, 8.0, 15.0),
    "shed_diamonds": (0, 1, 2, 3),
    "partner_void": (0.0, 10.0, 25.0),
    "attack": (0.0, 10.0, 25.0),
    "own_double": (0.0, 20.0, 50.0),
}
"""The values each field of :class:`~trixcomplex.bots.club.TacticWeights` is tried at."""

Candidate = ContractWeights | TacticWeights


def _play(job: tuple[Candidate, int, int, str]) -> MatchOutcome:
    weights, seed, index, ruleset = job
    if isinstance(weights, TacticWeights):
        bots = [RuleBot(tactics=weights, endgame=0), RuleBot(version=1)]
    else:
        bots = [RuleBot(weights), RuleBot(HAND_SET_WEIGHTS)]
    outcome = play_numbered_match(bots, seed, index, Ruleset.from_name(ruleset))
    return outcome


def _evaluate(
    pool: ProcessPoolExecutor, weights: Candidate, seed: int, n: int, rulesets: Sequence[str]
) -> dict[str, list[MatchOutcome]]:
    jobs = [(weights, seed, i, r) for r in rulesets for i in range(n)]
    results = list(pool.map(_play, jobs, chunksize=8))
    return {r: results[k * n : (k + 1) * n] for k, r in enumerate(rulesets)}


def _score(by_ruleset: dict[str, list[MatchOutcome]]) -> tuple[int, float]:
    net = 0
    margin = 0.0
    for outcomes in by_ruleset.values():
        s = summarize(outcomes)
        net += s.wins - s.losses
        margin += s.mean_margin
    return net, margin


def _encode(weights: Candidate) -> Any:
    if isinstance(weights, TacticWeights):
        return attrs.asdict(weights)
    return [[c.value, a, b] for c, a, b in weights]


def _decode(rows: list[list[Any]]) -> ContractWeights:
    return tuple((Contract(c), float(a), float(b)) for c, a, b in rows)


def _with(
    weights: ContractWeights, contract: Contract, scale: float, bias: float
) -> ContractWeights:
    return tuple((c, scale, bias) if c is contract else (c, a, b) for c, a, b in weights)


def _log(out: Path, row: dict[str, Any]) -> None:
    with out.open("a", encoding="utf-8") as file:
        file.write(json.dumps(row) + "\n")


def _fit(
    pool: ProcessPoolExecutor, args: argparse.Namespace, done: dict[str, Any]
) -> ContractWeights:
    rulesets = args.rulesets.split(",")
    contracts = sorted(
        {c for r in rulesets for c in Ruleset.from_name(r).contracts}, key=list(Contract).index
    )
    best = HAND_SET_WEIGHTS
    key = json.dumps(_encode(best))
    if key not in done:
        done[key] = _score(_evaluate(pool, best, args.seed, args.train, rulesets))
        _log(args.out, {"kind": "train", "weights": _encode(best), "score": done[key]})
    best_score = tuple(done[key])
    for contract in contracts:
        for step in [("bias", b) for b in BIAS_STEPS] + [("scale", s) for s in SCALE_STEPS]:
            _, scale, bias = next(w for w in best if w[0] is contract)
            if step[0] == "bias":
                cand = _with(best, contract, scale, bias + step[1])
            else:
                cand = _with(best, contract, round(scale * step[1], 3), bias)
            score, kept = _try(pool, args, done, cand, f"{contract.value} {step}", best_score)
            if kept:
                best, best_score = cand, score
    return best


def _try(
    pool: ProcessPoolExecutor,
    args: argparse.Namespace,
    done: dict[str, Any],
    cand: Candidate,
    label: str,
    best_score: tuple[Any, ...] | None,
) -> tuple[tuple[Any, ...], bool]:
    """The training score of ``cand`` (played now, or found in ``done``), and whether it
    beats ``best_score``; logged to ``--out`` and printed."""
    key = json.dumps(_encode(cand))
    start = time.perf_counter()
    if key not in done:
        done[key] = _score(_evaluate(pool, cand, args.seed, args.train, args.rulesets.split(",")))
        _log(args.out, {"kind": "train", "weights": _encode(cand), "score": done[key]})
    score = tuple(done[key])
    kept = best_score is None or score > best_score
    print(f"{label}: {score} vs best {best_score}"
          f"{' KEPT' if kept else ''} ({time.perf_counter() - start:.0f}s)",
          file=sys.stderr, flush=True)  # fmt: skip
    return score, kept


def _fit_tactics(
    pool: ProcessPoolExecutor, args: argparse.Namespace, done: dict[str, Any]
) -> TacticWeights:
    """The coordinate search over :data:`TACTIC_GRID`, against RuleBot version 1."""
    best = TACTIC_WEIGHTS if args.from_fitted else TacticWeights()
    best_score: tuple[Any, ...] | None = None
    for name, values in TACTIC_GRID.items():
        for value in values:
            kind = type(getattr(best, name))
            cand = attrs.evolve(best, **{name: kind(value)})
            score, kept = _try(pool, args, done, cand, f"{name}={value}", best_score)
            if kept:
                best, best_score = cand, score
    return best


def _test(pool: ProcessPoolExecutor, args: argparse.Namespace, weights: Candidate) -> None:
    rulesets = args.rulesets.split(",")
    by = _evaluate(pool, weights, args.test_seed, args.test, rulesets)
    rows: list[dict[str, Any]] = []
    for r, outcomes in by.items():
        s = summarize(outcomes)
        rows.append({"ruleset": r, "matches": s.matches, "wins": s.wins, "draws": s.draws,
                     "losses": s.losses, "win_ci": s.win_ci, "mean_margin": s.mean_margin,
                     "margin_ci": s.margin_ci})  # fmt: skip
    wins = sum(r["wins"] for r in rows)
    n = sum(r["matches"] for r in rows)
    total = {"ruleset": "all", "matches": n, "wins": wins, "win_ci": wilson_interval(wins, n)}
    _log(args.out, {"kind": "test", "weights": _encode(weights), "seed": args.test_seed,
                    "rows": rows, "total": total})  # fmt: skip
    _report_rows(weights, rows, total)


def _report_rows(weights: Candidate, rows: list[dict[str, Any]], total: dict[str, Any]) -> None:
    if isinstance(weights, TacticWeights):
        print(f"fitted tactics: {weights!r}; against RuleBot version 1:")
    else:
        print("fitted weights (contract, scale, bias):")
        for c, a, b in weights:
            print(f"    (Contract.{c.name}, {a}, {b}),")
    against = "version 1" if isinstance(weights, TacticWeights) else "hand-set"
    for r in [*rows, total]:
        lo, hi = r["win_ci"]
        print(f"{r['ruleset']}: fitted vs {against} won {r['wins']}/{r['matches']} "
              f"= {r['wins'] / r['matches']:.1%} (95% CI {lo:.1%} - {hi:.1%})")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("fit-weights.jsonl"))
    parser.add_argument("--rulesets", default="partnership,classic")
    parser.add_argument("--seed", type=int, default=11, help="the training seed")
    parser.add_argument("--train", type=int, default=200, help="matches per ruleset per candidate")
    parser.add_argument("--test-seed", type=int, default=2026)
    parser.add_argument(
        "--test", type=int, default=2000, help="test matches per ruleset (pairs x 2)"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--report", action="store_true", help="print the last test and stop")
    parser.add_argument(
        "--tactics", action="store_true", help="fit RuleBot version 2's tactics instead"
    )
    parser.add_argument(
        "--from-fitted", action="store_true", help="start the tactics from TACTIC_WEIGHTS"
    )
    args = parser.parse_args()
    rows = [json.loads(x) for x in args.out.read_text().splitlines()] if args.out.exists() else []
    if args.report:
        tests = [r for r in rows if r["kind"] == "test"]
        if not tests:
            parser.error(f"no test in {args.out} yet")
        last = tests[-1]["weights"]
        fitted = TacticWeights(**last) if isinstance(last, dict) else _decode(last)
        _report_rows(fitted, tests[-1]["rows"], tests[-1]["total"])
        return 0
    done = {json.dumps(r["weights"]): r["score"] for r in rows if r["kind"] == "train"}
    with ProcessPoolExecutor(args.workers) as pool:
        weights: Candidate = (
            _fit_tactics(pool, args, done) if args.tactics else _fit(pool, args, done)
        )
        _test(pool, args, weights)
    return 0


if __name__ == "__main__":
    sys.exit(main())
