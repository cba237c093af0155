"""A plain-text scoresheet of a match, deal by deal.

:func:`format_scoresheet` is what the command line prints for ``demo``,
``play`` and ``replay``, for every ruleset: the ruleset's name, then one
block per finished deal (number, Kingdom, owner, contract and the four
seats' points), the doubled cards with their doubler, taker, case and who
paid what (R-DBL-4, R-CL-7), a trick contract that ended early (R-CL-2 …
R-CL-4), the TRIX finishing order (R-TX-4), redeals (R-OPT-8), the
cumulative seat scores and, in partnership games, the Team Totals after
the deal (R-MATCH-7), then the result (R-MATCH-8, R-IND-1) or "in
progress". No colour codes: it goes to files and logs as well.

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
>>> for line in sheet[:6] + sheet[-1:]:
...     print(line)
Scoresheet                                seat 0  seat 1  seat 2  seat 3
Ruleset: partnership (8 deals, Team Totals decide)
Deal 1  Kingdom 1  owner seat 2  COMPLEX     -30    -275    -190      -5
  doubled KH by seat 1, taken by seat 1 (led by seat 3): case 2, seat 1 -150, seat 3 +75
  after deal 1                               -30    -275    -190      -5
  Team Totals: team 0 -220, team 1 -280
Result: team0 wins, 365 to -365
"""

from __future__ import annotations

from ..core.engine import DealResult, MatchResult, MatchState, Phase
from ..core.moves import Contract, Deal, Redeal
from ..core.rules import (
    TRICKS_PER_DEAL,
    choosable_contracts,
    match_outcome,
    team_totals,
    worst_seats,
)
from ..core.rulesets import Ruleset

__all__ = ["contract_name", "format_scoresheet"]

_CONTRACT_NAMES = {
    Contract.KING_OF_HEARTS: "King of Hearts",
    Contract.QUEENS: "Queens",
    Contract.DIAMONDS: "Diamonds",
    Contract.LTOOSH: "Ltoosh",
}


def contract_name(contract: Contract) -> str:
    """The contract as people name it: ``COMPLEX``, ``TRIX``, ``King of Hearts``,
    ``Queens``, ``Diamonds``, ``Ltoosh``, a combined deal's parts joined by ``+``
    (R-OPT-9) (the scoresheet and the pictures use it).

    >>> contract_name(Contract.KING_OF_HEARTS), contract_name(Contract.TRIX)
    ('King of Hearts', 'TRIX')
    >>> contract_name(Contract.QUEENS_DIAMONDS)
    'Queens + Diamonds'
    """
    return " + ".join(_CONTRACT_NAMES.get(p, p.value) for p in contract.parts)


_LABEL = 40
"""Least width of the label column (the partnership game's); the four seat columns
follow, 8 wide each."""


def _label_width(ruleset: Ruleset) -> int:
    """The label column's width: room for the longest deal line of ``ruleset``."""
    choices = choosable_contracts(ruleset.contracts, ruleset)  # combinations too (R-OPT-9)
    longest = max(len(contract_name(c)) for c in choices)
    return max(_LABEL, len(_deal_head(ruleset.deals_per_match, 4, 3, "")) + longest)


def _deal_head(number: int, kingdom: int, owner: int, contract: str) -> str:
    return f"Deal {number}  Kingdom {kingdom}  owner seat {owner}  {contract}"


def _row(label: str, values: tuple[int, ...] | list[int], width: int) -> str:
    return f"{label:<{width}}" + "".join(f"{v:>8}" for v in values)


def _signed(points: int) -> str:
    return f"{points:+d}"


def _deal_lines(deal: DealResult, width: int) -> list[str]:
    head = _deal_head(deal.number, deal.kingdom, deal.owner, contract_name(deal.contract))
    lines = [_row(head, deal.points, width)]
    if deal.contract.is_trick_contract:
        played = sum(seat.tricks for seat in deal.seats)
        if played < TRICKS_PER_DEAL:  # R-CL-2 … R-CL-4: the penalty cards were all taken
            lines.append(f"  ended early after {played} of {TRICKS_PER_DEAL} tricks")
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


def _redeals(state: MatchState) -> dict[int, list[int]]:
    """The seats that demanded a redeal (R-OPT-8), by deal number."""
    out: dict[int, list[int]] = {}
    number = 0
    redealt = False
    for move in state.history.moves():
        if type(move) is Deal:
            number += 0 if redealt else 1
            redealt = False
        elif type(move) is Redeal:
            out.setdefault(number, []).append(move.seat)
            redealt = True
    return out


def _redeal_lines(number: int, seats: list[int]) -> list[str]:
    return [f"Deal {number} redealt: seat {seat} showed a bad hand (R-OPT-8)" for seat in seats]


def _seats_text(seats: tuple[int, ...]) -> str:
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(str(s) for s in seats[:-1]) + f" and {seats[-1]}"


def _ruleset_line(ruleset: Ruleset) -> str:
    if ruleset.worst_seat_loses:
        who = "the worst seat's team loses"
    else:
        who = "Team Totals decide" if ruleset.partnership else "individual totals decide"
    lowest = ", lowest wins" if ruleset.reversed_scores else ""
    return f"Ruleset: {ruleset.name} ({ruleset.deals_per_match} deals, {who}{lowest})"


def _result_line(state: MatchState) -> str:
    ruleset = state.ruleset
    if state.phase is not Phase.OVER:
        if state.phase is Phase.DEAL:
            where = f"{len(state.results)} of {ruleset.deals_per_match} deals played"
        else:
            what = (
                contract_name(state.contract)
                if state.contract is not None
                else "contract not chosen"
            )
            where = f"deal {state.deal_number} (Kingdom {state.kingdom}, {what}) being played"
        return f"Result: in progress, {where}"
    result, seats = match_outcome(state.scores, ruleset)
    if ruleset.partnership:
        teams = team_totals(state.scores)
        why = ""
        if ruleset.worst_seat_loses:  # R-OPT-10
            worst = worst_seats(state.scores, lowest_wins=ruleset.reversed_scores)
            why = f" ({_seats_text(worst)} worst with {state.scores[worst[0]]})"
        # Equal Team Totals are a draw for all four seats (R-MATCH-8).
        if result is MatchResult.DRAW:
            return f"Result: draw{why}, {teams[0]} to {teams[1]}"
        return f"Result: {result} wins{why}, {teams[0]} to {teams[1]}"
    best = state.scores[seats[0]]
    if len(seats) == 1:  # R-IND-1, R-CL-1: the best individual total wins
        return f"Result: seat {seats[0]} wins with {best}"
    return f"Result: {_seats_text(seats)} share the win with {best}"  # ties are shared


def format_scoresheet(state: MatchState) -> str:
    """The scoresheet of ``state`` as plain text (no trailing newline).

    The first lines are the seat columns and the ruleset (its name, deals,
    and whether Team Totals or individual totals decide).  Every finished
    deal is listed with its contract, points, doubled cards, finishing
    order, or the number of tricks if it ended early, then the running seat
    scores and (in partnership rulesets) the Team Totals (team 0 = seats
    0+2, team 1 = seats 1+3).  A redeal (R-OPT-8) is noted before the deal
    it replaced.  While a deal is being played, one line shows its trick
    points so far or the seats already out of TRIX.  The last line is the
    result (``team0 wins``, ``draw``, ``seat 2 wins``, ``seats 1 and 3 share
    the win``), or ``Result: in progress, ...`` for an unfinished match.

    >>> import trixcomplex as tc
    >>> print(format_scoresheet(tc.new_match()))
    Scoresheet                                seat 0  seat 1  seat 2  seat 3
    Ruleset: partnership (8 deals, Team Totals decide)
    Result: in progress, 0 of 8 deals played
    """
    ruleset = state.ruleset
    width = _label_width(ruleset)
    lines = [_row("Scoresheet", [], width) + "".join(f"{'seat ' + str(s):>8}" for s in range(4))]
    lines.append(_ruleset_line(ruleset))
    redeals = _redeals(state)
    running = [0, 0, 0, 0]
    for deal in state.results:
        lines.extend(_redeal_lines(deal.number, redeals.pop(deal.number, [])))
        lines.extend(_deal_lines(deal, width))
        running = [running[s] + deal.points[s] for s in range(4)]
        lines.append(_row(f"  after deal {deal.number}", running, width))
        if ruleset.partnership:
            teams = team_totals(running)
            lines.append(f"  Team Totals: team 0 {teams[0]}, team 1 {teams[1]}")
    for number in sorted(redeals):  # the deal being played (or waiting for its new shuffle)
        lines.extend(_redeal_lines(number, redeals[number]))
    lines.extend(_current_lines(state, width))
    lines.append(_result_line(state))
    return "\n".join(lines)


def _current_lines(state: MatchState, width: int) -> list[str]:
    """The deal being played: trick points charged so far, TRIX seats already out."""
    if state.complex is not None:
        return [_row(f"  deal {state.deal_number} so far", state.complex.points, width)]
    if state.trix is not None and state.trix.finishing_order:
        out = ", ".join(f"seat {s}" for s in state.trix.finishing_order)
        return [f"  deal {state.deal_number} so far: out {out}"]
    return []
