"""``--ruleset``: a preset with options, as the command line names it, and the options' meanings."""

from __future__ import annotations

import argparse

from ..core.rulesets import RULESETS, Ruleset

RULESET_OPTIONS = {
    "doubling": "R-OPT-1: K♥ and Queens may be doubled (false: no doubling window)",
    "penalty_cards_first": "R-OPT-2: a seat void in the led suit must discard a penalty card",
    "swapped_scores": "R-OPT-3: Diamonds cost -15 each and Ltoosh -10 a trick",
    "free_heart_leads": "R-OPT-4: hearts may be led at any time in King of Hearts",
    "fixed_order": "R-OPT-5: contracts are played in the ruleset's order; nobody chooses",
    "reversed_scores": "R-OPT-6: every point is negated and the lowest total wins",
    "show_twos": "R-OPT-7: in TRIX every seat's 2s are shown after everyone's first turn",
    "bad_hand_redeal": "R-OPT-8: a bad TRIX hand (four 2s, or three 2s and the other 3) "
    "may demand a redeal",
    "combined_contracts": "R-OPT-9: the owner may play two or more of the four trick "
    "contracts in one deal",
    "worst_seat_loses": "R-OPT-10: partnership rulesets only: the team of the seat with the "
    "worst total loses",
}
"""The ruleset options ``--ruleset`` accepts, with their meaning (``--help`` lists them)."""


def parse_ruleset(text: str) -> Ruleset:
    """The ruleset named on the command line: a preset, then ``+`` and options in
    any order, ``true``/``false`` in any case; raises ``ValueError`` naming the
    bad part and the valid choices.

    >>> parse_ruleset("Classic+Fixed_Order=TRUE, doubling=false").name
    'classic+doubling=False,fixed_order=True'
    """
    base, plus, options = text.strip().partition("+")
    base = base.strip().lower()
    if base not in RULESETS:
        raise ValueError(f"unknown ruleset {base[:40]!r}: the presets are {', '.join(RULESETS)}")
    changes: dict[str, bool] = {}
    items = [item.strip() for item in options.split(",")] if plus else []
    for item in items:
        key, eq, value = (part.strip().lower() for part in item.partition("="))
        if key not in RULESET_OPTIONS:
            valid = ", ".join(RULESET_OPTIONS)
            raise ValueError(f"bad ruleset option {item[:40]!r}: the options are {valid}")
        if not eq or value not in ("true", "false"):
            raise ValueError(f"bad ruleset option {item[:40]!r}: give {key}=true or {key}=false")
        changes[key] = value == "true"
    return RULESETS[base].evolve(**changes)


def _ruleset(text: str) -> Ruleset:
    try:
        return parse_ruleset(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
