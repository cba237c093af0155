"""A plain-text scoresheet of a match, deal by deal.

:func:`format_scoresheet` is what the command line prints for ``demo``,
``play`` and ``replay``: one block per finished deal (number, Kingdom,
owner, contract and the four seats' points), the doubled cards of a
COMPLEX deal with their doubler, taker, case and who paid what
(R-DBL-4), the TRIX finishing order (R-TX-4), the cumulative seat scores
and Team Totals after the deal (R-MATCH-7), then the result (R-MATCH-8)
or "in progress". No colour codes: it goes to files and logs as well.

>>> import random
>>> import trixcomplex as tc
>>> rng = random.Random(1)
>>> state = tc.new_match()
>>> while state.phase is not tc.Phase.OVER:
...     if state.phase is tc.Phase.DEAL:
...         state = tc.apply(state, tc.Deal.shuffled(rng))
...     else:
...         state = tc.apply(state, rng.choice(tc.legal_moves(state)))
>>> sheet = format_scoresheet(state).splitlines()
>>> for line in sheet[:5] + sheet[-1:]:
...     print(line)
Scoresheet                                seat 0  seat 1  seat 2  seat 3
Deal 1  Kingdom 1  owner seat 2  COMPLEX     -30    -275    -190      -5
  doubled KH by seat 1, taken by seat 1 (led by seat 3): case 2, seat 1 -150, seat 3 +75
  after deal 1                               -30    -275    -190      -5
  Team Totals: team 0 -220, team 1 -280
Result: team0 wins, 365 to -365
"""

from __future__ import annotations

from .scoring import DealResult, MatchResult, team_totals
from .state import MatchState, Phase

__all__ = ["format_scoresheet"]

_LABEL = 40
"""Width of the label column; the four seat columns follow, 8 wide each."""


def _row(label: str, values: tuple[int, ...] | list[int]) -> str:
    return f"{label:<{_LABEL}}" + "".join(f"{v:>8}" for v in values)


def _signed(points: int) -> str:
    return f"{points:+d}"


def _deal_lines(deal: DealResult) -> list[str]:
    head = (
        f"Deal {deal.number}  Kingdom {deal.kingdom}  owner seat {deal.owner}  "
        f"{deal.contract.value}"
    )
    lines = [_row(head, deal.points)]
    for d in deal.doubled:
        paid = ", ".join(f"seat {s} {_signed(p)}" for s, p in enumerate(d.points) if p)
        lines.append(
            f"  doubled {d.card} by seat {d.doubler}, taken by seat {d.taker} "
            f"(led by seat {d.leader}): case {d.case}, {paid}"
        )
    if deal.finishing_order:
        order = ", ".join(f"seat {s}" for s in deal.finishing_order)
        lines.append(f"  finishing order: {order}")
    return lines


def _result_line(state: MatchState) -> str:
    teams = team_totals(state.scores)
    if state.phase is not Phase.OVER:
        if state.phase is Phase.DEAL:
            where = f"{len(state.results)} of 8 deals played"
        else:
            what = state.contract.value if state.contract is not None else "contract not chosen"
            where = f"deal {state.deal_number} (Kingdom {state.kingdom}, {what}) being played"
        return f"Result: in progress, {where}"
    # Equal Team Totals are a draw for all four seats (R-MATCH-8).
    if teams[0] == teams[1]:
        return f"Result: draw, {teams[0]} to {teams[1]}"
    winner = MatchResult.TEAM0 if teams[0] > teams[1] else MatchResult.TEAM1
    return f"Result: {winner} wins, {teams[0]} to {teams[1]}"


def format_scoresheet(state: MatchState) -> str:
    """The scoresheet of ``state`` as plain text (no trailing newline).

    Every finished deal is listed with its points, doubled cards or
    finishing order, then the running seat scores and Team Totals (team 0
    = seats 0+2, team 1 = seats 1+3).  While a deal is being played, one
    line shows its COMPLEX points so far or the seats already out of TRIX.
    The last line is the result, or ``Result: in progress, ...`` for an
    unfinished match.

    >>> import trixcomplex as tc
    >>> print(format_scoresheet(tc.new_match()))
    Scoresheet                                seat 0  seat 1  seat 2  seat 3
    Result: in progress, 0 of 8 deals played
    """
    lines = [_row("Scoresheet", []) + "".join(f"{'seat ' + str(s):>8}" for s in range(4))]
    running = [0, 0, 0, 0]
    for deal in state.results:
        lines.extend(_deal_lines(deal))
        running = [running[s] + deal.points[s] for s in range(4)]
        teams = team_totals(running)
        lines.append(_row(f"  after deal {deal.number}", running))
        lines.append(f"  Team Totals: team 0 {teams[0]}, team 1 {teams[1]}")
    lines.extend(_current_lines(state))
    lines.append(_result_line(state))
    return "\n".join(lines)


def _current_lines(state: MatchState) -> list[str]:
    """The deal being played: COMPLEX points charged so far, TRIX seats already out."""
    if state.complex is not None:
        return [_row(f"  deal {state.deal_number} so far", state.complex.points)]
    if state.trix is not None and state.trix.finishing_order:
        out = ", ".join(f"seat {s}" for s in state.trix.finishing_order)
        return [f"  deal {state.deal_number} so far: out {out}"]
    return []
