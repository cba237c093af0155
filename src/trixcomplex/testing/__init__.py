"""The auditor's kit: Hypothesis strategies and invariant checks for the game.

Install with the ``testing`` extra (``pip install "trixcomplex[testing]"``): the
strategies need Hypothesis, which is imported when a strategy is first asked
for; ``import trixcomplex``, the checks and the pytest plugin never load it.

Strategies (each shrinks to a small case): :func:`rulesets`, :func:`matches`,
:func:`states`, :func:`views`, :func:`records`, :func:`legal_moves_of`,
:func:`illegal_moves_of`.  Checks: :func:`check_state`, :func:`check_view`.
A seeded, Hypothesis-free match: :func:`random_match`.  The pytest plugin
(:mod:`trixcomplex.testing.plugin`, loaded automatically once the package is
installed) gives the fixtures ``trix_ruleset``, ``trix_seed``, ``trix_match`` and
``trix_record`` and the options ``--trix-ruleset`` and ``--trix-seed``.

>>> import trixcomplex as tc
>>> from trixcomplex.testing import check_state, random_match
>>> for state in random_match(tc.CLASSIC, 3):
...     check_state(state)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ..conformance.refusals import Refusal
from ..host.randomplay import random_match
from .checks import check_state, check_view

if TYPE_CHECKING:
    from .strategies import (
        OPTIONS,
        illegal_moves_of,
        legal_moves_of,
        matches,
        phases_of,
        records,
        rulesets,
        states,
        views,
    )

_STRATEGIES = frozenset(
    ("OPTIONS", "illegal_moves_of", "legal_moves_of", "matches", "phases_of", "records",
     "rulesets", "states", "views")
)  # fmt: skip


def __getattr__(name: str) -> Any:
    """The strategies, from :mod:`trixcomplex.testing.strategies` when first asked for
    (so that Hypothesis is loaded only then)."""
    if name in _STRATEGIES:
        return getattr(importlib.import_module(".strategies", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "OPTIONS",
    "Refusal",
    "check_state",
    "check_view",
    "illegal_moves_of",
    "legal_moves_of",
    "matches",
    "phases_of",
    "random_match",
    "records",
    "rulesets",
    "states",
    "views",
]
