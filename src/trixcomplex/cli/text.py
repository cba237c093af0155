"""What several commands print alike: cards, who took what, the winner, the scoresheet."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..core.cards import Card, parse_card
from ..core.engine import (
    DealResult,
    MatchResult,
    MatchState,
    score,
)
from ..core.rulesets import PARTNERSHIP, Ruleset
from ..io.scoresheet import format_scoresheet

_PLACES = ("1st", "2nd", "3rd", "4th")


def _cards(cards: Sequence[Card] | frozenset[Card]) -> str:
    return " ".join(c.symbol for c in sorted(cards)) or "nothing"


_CODE = re.compile(r"\b(10|[2-9TJQKA])([SHDC])\b")


def _symbols(text: str) -> str:
    """An engine message with its card codes (``QC``) written as a person reads them (``Q♣``).

    >>> _symbols("seat 0 does not hold QC (R-MATCH-2)")
    'seat 0 does not hold Q♣ (R-MATCH-2)'
    """
    return _CODE.sub(lambda m: parse_card(m.group(0)).symbol, text)


def _took(deal: DealResult, ruleset: Ruleset = PARTNERSHIP) -> list[str]:
    """Who took what in a finished deal, one line per seat: only what the
    contract charges (R-CX-5; R-CL-2 … R-CL-5: K♥, Queens, diamonds, tricks),
    the doubled cards apart, and the doubling points each seat won or paid
    (R-DBL-4)."""
    if not deal.contract.is_trick_contract:
        order = ", ".join(f"seat {s}" for s in deal.finishing_order)
        return [f"  finishing order: {order}"]
    rules = ruleset.trick_rules(deal.contract)
    lines = []
    for s, b in enumerate(deal.seats):
        parts = []
        if rules.trick:
            parts.append(f"{b.tricks} trick{'s' if b.tricks != 1 else ''}")
        if b.diamonds and rules.diamond:
            parts.append(f"{b.diamonds} ♦")
        if b.plain_queens and rules.queen:
            parts.append(" ".join(q.symbol for q in b.plain_queens))
        if b.plain_king_of_hearts and rules.king_of_hearts:
            parts.append("K♥")
        for d in deal.doubled:
            if d.taker == s:
                parts.append(f"doubled {d.card.symbol}")
        took = ", ".join(parts) or "nothing that counts"
        doubling = sum(d.points[s] for d in deal.doubled)
        extra = f" (doubling {doubling:+d})" if deal.doubled and doubling else ""
        lines.append(f"  seat {s} took {took}: {deal.points[s]:+d}{extra}")
    return lines


def _winner_line(state: MatchState) -> str:
    """Who won, the ruleset's way: Team Totals or individual totals, highest or
    lowest (R-MATCH-8, R-IND-1, R-OPT-6)."""
    result = score(state)
    scores, winners, teams = state.scores, result.winners, result.teams
    lowest = " (the lowest total wins)" if state.ruleset.reversed_scores else ""
    if result.result is MatchResult.DRAW:
        return f"The match is a draw, {teams[0]} to {teams[1]}."
    if state.ruleset.partnership:
        win = winners[0]
        return (
            f"Team {win} (seats {win} and {win + 2}) wins, "
            f"{teams[win]} to {teams[1 - win]}{lowest}."
        )
    if len(winners) > 1:
        seats = " and ".join(str(s) for s in winners)
        return f"Seats {seats} share the win with {scores[winners[0]]}{lowest}."
    others = ", ".join(f"seat {s} {scores[s]}" for s in range(4) if s != winners[0])
    return f"Seat {winners[0]} wins with {scores[winners[0]]} ({others}){lowest}."


def _scoresheet(state: MatchState) -> str:
    """The scoresheet as a person reads it: cards as K♥, without its own result line
    (the command prints the result once, in words)."""
    lines = format_scoresheet(state).splitlines()
    return "\n".join(_symbols(line) for line in lines if not line.startswith("Result:"))
