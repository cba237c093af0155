"""Issue 42 (1): one rating per bot, fitted from every ladder row with choix."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest

import trixcomplex as tc

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

choix = pytest.importorskip("choix")  # the test extra's; benchmarks/ratings.py fits with it

import ratings  # noqa: E402
import strength  # noqa: E402


def test_the_bots_page_ratings_table_regenerates_from_the_ladder_files() -> None:
    """``strength.py --ratings`` refits every row of ``benchmarks/ladder/`` and prints
    the table docs/bots.rst shows, line for line."""
    made = ratings.table(sorted(strength.LADDER.glob("*.jsonl")))
    page = (ROOT / "docs" / "bots.rst").read_text(encoding="utf-8")
    assert made.count("\n") > 10
    assert made in page


def _row(pair: str, index: int, margin: int, ruleset: str = "partnership") -> dict[str, Any]:
    """A ladder row of match ``index``: side A wins when ``margin`` > 0 (in classic, the
    seat of side A's that scored best, or of side B's)."""
    row = {
        "pair": pair, "seed": 1, "ruleset": ruleset, "index": index,
        "sides_seats": [index % 2, 1 - index % 2], "teams": [margin, -margin],
        "margin": 2 * margin, "contract_points": [],
    }  # fmt: skip
    if ruleset != "partnership":
        seats = [0, 0, 0, 0]
        seats[index % 2 if margin > 0 else 1 - index % 2] = 100
        row["seats"] = seats
    return row


def test_the_fit_is_choix_s_and_its_intervals_agree_with_choix_s_posterior(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ratings are choix's Bradley–Terry estimate and the intervals come from choix's
    Hessian; on a small ladder they agree with choix's own Bayesian posterior (expectation
    propagation, ``choix.ep_pairwise``) within a few points."""
    # rule:1 wins 70 of 100 against random, rule 64 of 100 against rule:1
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    one.write_text("".join(json.dumps(_row("rule:1,random", i, 10 if i < 70 else -10)) + "\n"
                           for i in range(100)))  # fmt: skip
    two.write_text("".join(json.dumps(_row("rule,rule:1", i, 10 if i < 64 else -10)) + "\n"
                           for i in range(100)))  # fmt: skip
    calls: list[str] = []
    fit, hessian = choix.ilsr_pairwise, choix.opt.PairwiseFcts.hessian

    def spy_fit(*args: Any, **kwargs: Any) -> Any:
        calls.append("ilsr_pairwise")
        return fit(*args, **kwargs)

    def spy_hessian(self: Any, params: Any) -> Any:
        calls.append("hessian")
        return hessian(self, params)

    monkeypatch.setattr(choix, "ilsr_pairwise", spy_fit)
    monkeypatch.setattr(choix.opt.PairwiseFcts, "hessian", spy_hessian)
    found = {r.names[0]: r for r in ratings.ratings([one, two])["partnership"]}
    assert calls == ["ilsr_pairwise", "hessian"]
    assert found["rule"].rating == ratings.ANCHOR_RATING == found["rule"].low
    # 64% is log(64/36) of odds: 100 points below the anchor, and 70% 147 more below
    assert found["rule:1"].rating == pytest.approx(1500 - ratings.ELO * math.log(64 / 36), abs=1)
    assert found["random"].rating == pytest.approx(
        found["rule:1"].rating - ratings.ELO * math.log(70 / 30), abs=1
    )
    games = [(1, 2)] * 70 + [(2, 1)] * 30 + [(0, 1)] * 64 + [(1, 0)] * 36  # rule, rule:1, random
    mean, cov = choix.ep_pairwise(3, games, ratings.PRIOR)
    for i, name in ((1, "rule:1"), (2, "random")):
        rating = 1500 + ratings.ELO * (mean[i] - mean[0])
        half = ratings.Z95 * ratings.ELO * math.sqrt(cov[i, i] + cov[0, 0] - 2 * cov[i, 0])
        assert found[name].rating == pytest.approx(rating, abs=3)
        assert found[name].high - found[name].rating == pytest.approx(half, rel=0.05)
    assert found["random"].matches == 100 and found["rule:1"].matches == 200


def test_names_of_one_bot_are_one_rating_and_the_games_are_rated_apart(tmp_path: Path) -> None:
    """``rule`` and ``level:4`` are one bot, one row; classic rows make a table of their
    own, anchored at its own RuleBot version 2; a ruleset without ``rule`` is refused."""
    rows = tmp_path / "p.jsonl"
    games = [_row("level:4,level:3", i, 5 if i % 3 else -5) for i in range(30)]
    games.append(_row("rule,level:3", 30, 5))
    rows.write_text("".join(json.dumps(g) + "\n" for g in games))
    classic = tmp_path / "c.jsonl"
    classic.write_text("".join(json.dumps(_row("rule,random", i, 5 if i % 4 else -5,
                                                "classic")) + "\n" for i in range(8)))  # fmt: skip
    tables = ratings.ratings([rows, classic])
    assert set(tables) == {"partnership", tc.CLASSIC.name}
    assert [r.names for r in tables["partnership"]] == [("rule", "level:4"), ("level:3",)]
    assert tables["partnership"][0].matches == 31
    assert tables[tc.CLASSIC.name][0].names == ("rule", "level:4")
    assert tables[tc.CLASSIC.name][0].rating == 1500 and tables[tc.CLASSIC.name][0].matches == 8
    lonely = tmp_path / "x.jsonl"
    lonely.write_text(json.dumps(_row("rule:1,random", 0, 5)) + "\n")
    with pytest.raises(ValueError, match="nothing to anchor"):
        ratings.ratings([lonely])
