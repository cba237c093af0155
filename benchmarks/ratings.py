"""Ratings on one scale: one Bradley–Terry rating per bot, fitted from every ladder row.

Every finished match of every ``benchmarks/ladder/*.jsonl`` row is one paired result:
side A's bot beat side B's, or lost, or drew (a draw counts as one win for each).
The results of one ruleset are fitted together by the Bradley–Terry model with the
`choix <https://pypi.org/project/choix/>`_ library: the strengths are the maximum
likelihood estimate by ``choix.ilsr_pairwise`` (iterative Luce spectral ranking: the
same estimate as ``choix.opt_pairwise``'s Newton steps, a hundred times faster here),
put on the Elo scale
(400 points: ten to one odds) and anchored at RuleBot version 2 (``rule``) = 1500.
The 95% intervals are the library's too: the covariance is the inverse of choix's own
Hessian of the negative log-likelihood at the estimate
(``choix.opt.PairwiseFcts(data, PRIOR).hessian``, the Laplace approximation of
the posterior), and a bot's interval is that of its difference from the anchor (the
anchor's own interval is 0 by definition).  Laplace rather than a bootstrap, because
a bootstrap refits the model hundreds of times (minutes for twelve thousand matches)
where the Hessian is one pass; and rather than ``openskill``, whose ratings are
updated match by match and so depend on the order the files are read in, where the
ladder is a fixed set of results.  The model treats every match as independent: the
two matches of a pair share their shuffles with the seats exchanged, which cancels
the luck of the cards between them, so the intervals are if anything too wide.

The two games are rated apart (partnership rows, classic rows: a rating in one says
nothing about the other), each anchored at its own RuleBot version 2.  Two names of
one bot are one bot (``rule`` and ``level:4``, ``mc`` and ``mc:16``): names are
grouped by the bot they build (:func:`strength.bot`), and the table names each by
all its names (a level by its level's name too: ``mc2 = level:5``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import choix
import choix.opt
import numpy as np

ANCHOR = "rule"
"""The bot whose rating is fixed: RuleBot version 2."""
ANCHOR_RATING = 1500.0
ELO = 400.0 / math.log(10.0)
"""Elo points per unit of Bradley–Terry strength (natural log odds)."""
PRIOR = 1e-4
"""choix's ``alpha``: the regularization of the estimate, and the inverse variance of a
Gaussian prior on each strength in the Hessian (so weak that it changes no difference
between two bots measurably; it only makes the Hessian invertible)."""
Z95 = 1.959963984540054
LEVEL_NAMES = tuple(f"level:{n}" for n in range(1, 6))
"""The levels' names: each is added to the names of the bot it is (``mc2 = level:5``)."""


@dataclass(frozen=True)
class Rating:
    """One bot's rating in one ruleset: its names, rating and 95% interval, matches."""

    names: tuple[str, ...]
    rating: float
    low: float
    high: float
    matches: int


def results(paths: Sequence[Path]) -> dict[str, list[tuple[str, str, str]]]:
    """Per ruleset, every match of the rows in ``paths`` as ``(name of side A's bot, name
    of side B's, winner)`` (winner ``"A"``, ``"B"`` or ``"draw"``)."""
    from strength import _outcome, sides  # the ladder's own reading of a row

    from trixcomplex.core.rulesets import Ruleset

    found: dict[str, list[tuple[str, str, str]]] = {}
    for path in paths:
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        for row in rows:
            ruleset = Ruleset.from_name(row.get("ruleset", "partnership"))
            a, b = sides(row["pair"])
            found.setdefault(ruleset.name, []).append((a, b, _outcome(row, ruleset).winner))
    return found


def fit(games: Sequence[tuple[str, str, str]], anchor: str) -> dict[str, tuple[float, float]]:
    """Each bot's rating and the half-width of its 95% interval, from ``games``
    (``(A, B, winner)``), anchored at ``anchor`` = :data:`ANCHOR_RATING`.

    >>> games = [("x", "y", "A")] * 60 + [("x", "y", "B")] * 40 + [("y", "x", "draw")]
    >>> fitted = fit(games, "y")
    >>> round(fitted["x"][0]), fitted["y"]        # 60.5% of 101: about +74 points
    (1574, (1500.0, 0.0))
    """
    bots = sorted({a for a, _, _ in games} | {b for _, b, _ in games})
    index = {name: i for i, name in enumerate(bots)}
    data: list[tuple[int, int]] = []
    for a, b, winner in games:
        if winner != "B":
            data.append((index[a], index[b]))
        if winner != "A":
            data.append((index[b], index[a]))
    params = choix.ilsr_pairwise(len(bots), data, alpha=PRIOR)
    hessian = choix.opt.PairwiseFcts(data, PRIOR).hessian(params)
    cov = np.linalg.inv(hessian)
    k = index[anchor]
    out = {}
    for name, i in index.items():
        spread = cov[i, i] + cov[k, k] - 2 * cov[i, k]
        out[name] = (
            ANCHOR_RATING + ELO * float(params[i] - params[k]),
            Z95 * ELO * math.sqrt(max(spread, 0.0)),
        )
    return out


def ratings(paths: Sequence[Path]) -> dict[str, list[Rating]]:
    """Per ruleset, every bot's :class:`Rating` from the ladder rows in ``paths``, the
    strongest first."""
    from strength import bot

    keys: dict[str, str] = {}

    def identity(name: str) -> str:
        """The bot ``name`` builds, as text: two names of one bot are one key."""
        if name not in keys:
            built: Any = bot(name)
            keys[name] = repr(built)
        return keys[name]

    anchor = identity(ANCHOR)
    tables = {}
    for ruleset, named in results(paths).items():
        games = [(identity(a), identity(b), winner) for a, b, winner in named]
        names: dict[str, set[str]] = {}
        for a, b, _ in named:
            names.setdefault(identity(a), set()).add(a)
            names.setdefault(identity(b), set()).add(b)
        for level in LEVEL_NAMES:  # a level played under its bot's own name is that level
            if identity(level) in names:
                names[identity(level)].add(level)
        played: dict[str, int] = {}
        for a, b, _ in games:
            played[a] = played.get(a, 0) + 1
            played[b] = played.get(b, 0) + 1
        if anchor not in played:
            raise ValueError(f"no {ruleset} row plays {ANCHOR}: nothing to anchor the scale")
        fitted = fit(games, anchor)
        rows = [
            Rating(tuple(sorted(names[key], key=_order)), r, r - half, r + half, played[key])
            for key, (r, half) in fitted.items()
        ]
        tables[ruleset] = sorted(rows, key=lambda x: -x.rating)
    return tables


def _order(name: str) -> tuple[bool, int, str]:
    """Names of one bot: the level last, the shortest first."""
    return (name.startswith("level:"), len(name), name)


def table(paths: Sequence[Path]) -> str:
    """The reStructuredText ratings table of ``docs/bots.rst``."""
    header = ("Bot", "ruleset", "rating (95% CI)", "matches")
    rows = []
    for ruleset, found in ratings(paths).items():
        for one in found:
            rows.append((
                " = ".join(one.names),
                ruleset,
                f"{one.rating:.0f} ({one.low:.0f} – {one.high:.0f})",
                f"{one.matches:,}",
            ))  # fmt: skip
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    rule = "  ".join("=" * w for w in widths)
    lines = [rule, "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    lines.append(rule)
    for r in rows:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    lines.append(rule)
    return "\n".join(lines)
