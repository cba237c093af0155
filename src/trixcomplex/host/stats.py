"""A tournament's statistics: win, draw and loss rates with Wilson intervals, the margin's
interval, and points per deal of each contract (:func:`summarize`).

>>> lo, hi = wilson_interval(6, 10)
>>> lo < 0.6 < hi
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from attrs import frozen

from ..core.rulesets import PARTNERSHIP

if TYPE_CHECKING:
    from .matches import MatchOutcome

__all__ = ["Z95", "Summary", "mean_interval", "summarize", "wilson_interval"]

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal law (two-sided 95% intervals)."""


@frozen
class Summary:
    """Statistics of side A against side B.

    Rates are over matches with Wilson 95% intervals.  The margin interval
    treats each pair of matches on the same shuffles as one sample (their
    results are not independent); with an odd number of matches the last
    one stands alone.  ``points_per_deal`` gives, per contract of the
    ruleset, side A's and side B's mean points per deal of that contract
    (each contract is played once per Kingdom: four times a match).
    """

    matches: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    win_ci: tuple[float, float]
    draw_rate: float
    draw_ci: tuple[float, float]
    loss_rate: float
    loss_ci: tuple[float, float]
    mean_margin: float
    margin_ci: tuple[float, float]
    points_per_deal: tuple[tuple[str, float, float], ...]


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    >>> lo, hi = wilson_interval(60, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.502, 0.691)
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """A normal-approximation 95% interval for the mean of ``values``."""
    if not values:
        return (0.0, 0.0)
    import statistics

    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, mean)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (mean - half, mean + half)


def summarize(outcomes: Sequence[MatchOutcome]) -> Summary:
    """The :class:`Summary` of some match outcomes (side A's point of view)."""
    import statistics

    n = len(outcomes)
    wins = sum(1 for m in outcomes if m.winner == "A")
    draws = sum(1 for m in outcomes if m.winner == "draw")
    losses = n - wins - draws
    by_pair: dict[int, list[int]] = {}
    for m in outcomes:
        by_pair.setdefault(m.index // 2, []).append(m.margin)
    pair_means = [statistics.fmean(v) for v in by_pair.values()]
    deals = n * 4  # each contract is played once per Kingdom (R-MATCH-1, R-SET-2)
    per: list[tuple[str, float, float]] = []
    contracts = outcomes[0].contracts if outcomes else PARTNERSHIP.contracts
    if any(m.contracts != contracts for m in outcomes):
        raise ValueError("cannot summarize matches of different rulesets together")
    for k, contract in enumerate(contracts):
        a = sum(m.contract_points[k][0] for m in outcomes)
        b = sum(m.contract_points[k][1] for m in outcomes)
        per.append((contract.value, a / deals if deals else 0.0, b / deals if deals else 0.0))
    return Summary(
        matches=n,
        wins=wins,
        draws=draws,
        losses=losses,
        win_rate=wins / n if n else 0.0,
        win_ci=wilson_interval(wins, n),
        draw_rate=draws / n if n else 0.0,
        draw_ci=wilson_interval(draws, n),
        loss_rate=losses / n if n else 0.0,
        loss_ci=wilson_interval(losses, n),
        mean_margin=statistics.fmean(m.margin for m in outcomes) if n else 0.0,
        margin_ci=mean_interval(pair_means),
        points_per_deal=tuple(per),
    )
