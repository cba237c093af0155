"""The pytest plugin of the auditor's kit: fixtures for a test module with no set-up.

Installed with the package (entry point ``pytest11``), pytest loads it in every
run; it adds only the fixtures below and two options, and imports neither
Hypothesis nor anything heavy:

- ``--trix-ruleset NAME``: the ruleset of ``trix_ruleset`` (a preset such as
  ``classic``, or a preset with options, ``classic+doubling=False``); default
  ``partnership``;
- ``--trix-seed N``: the seed of ``trix_seed`` (default 0).

Fixtures: ``trix_ruleset`` (a :class:`~trixcomplex.Ruleset`), ``trix_seed``
(an int), ``trix_match`` (every state of the seeded random match of
``trix_ruleset``, a list ending in a finished match) and ``trix_record`` (its
:class:`~trixcomplex.Record`).

A bad ``--trix-ruleset`` stops the run with one line naming it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ..host.randomplay import random_match
from ..io.records import Record, RecordError, ruleset_of

if TYPE_CHECKING:
    from ..core.engine import MatchState
    from ..core.rulesets import Ruleset

__all__ = [
    "pytest_addoption",
    "pytest_configure",
    "trix_match",
    "trix_record",
    "trix_ruleset",
    "trix_seed",
]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("trixcomplex", "trixcomplex auditor's kit")
    group.addoption(
        "--trix-ruleset",
        default="partnership",
        metavar="NAME",
        help="ruleset of the trix_ruleset fixture (default: partnership)",
    )
    group.addoption(
        "--trix-seed",
        default=0,
        type=int,
        metavar="N",
        help="seed of the trix_seed fixture and so of trix_match (default: 0)",
    )


def pytest_configure(config: pytest.Config) -> None:
    try:
        ruleset_of(config.getoption("--trix-ruleset"))
    except RecordError as exc:
        raise pytest.UsageError(f"--trix-ruleset: {exc}") from None


@pytest.fixture
def trix_ruleset(request: pytest.FixtureRequest) -> Ruleset:
    """The ruleset named by ``--trix-ruleset`` (default ``partnership``)."""
    return ruleset_of(request.config.getoption("--trix-ruleset"))


@pytest.fixture
def trix_seed(request: pytest.FixtureRequest) -> int:
    """The seed given by ``--trix-seed`` (default 0)."""
    seed: int = request.config.getoption("--trix-seed")
    return seed


@pytest.fixture
def trix_match(trix_ruleset: Ruleset, trix_seed: int) -> list[MatchState]:
    """Every state of the seeded random match of ``trix_ruleset``, played to its end."""
    return random_match(trix_ruleset, trix_seed)


@pytest.fixture
def trix_record(trix_match: list[MatchState]) -> Record:
    """The record of ``trix_match``."""
    final = trix_match[-1]
    return Record(ruleset=final.ruleset.name, moves=final.history.moves())
