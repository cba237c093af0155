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

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..core.catalog import DEFAULT_LOCALE, N_, check_locale, contract_words, signed, translate
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

if TYPE_CHECKING:
    from .scorekeeper import Scorebook

__all__ = ["contract_name", "format_scorebook", "format_scoresheet"]


def contract_name(contract: Contract, locale: str = DEFAULT_LOCALE) -> str:
    """The contract as people name it: ``COMPLEX``, ``TRIX``, ``King of Hearts``,
    ``Queens``, ``Diamonds``, ``Ltoosh``, a combined deal's parts joined by ``+``
    (R-OPT-9) (the scoresheet and the pictures use it); in ``locale``, from the
    message catalog (:func:`trixcomplex.core.catalog.contract_words`).

    >>> contract_name(Contract.KING_OF_HEARTS), contract_name(Contract.TRIX)
    ('King of Hearts', 'TRIX')
    >>> contract_name(Contract.QUEENS_DIAMONDS)
    'Queens + Diamonds'
    >>> contract_name(Contract.KING_OF_HEARTS, "ar"), contract_name(Contract.COMPLEX, "ar")
    ('شايب الكوبة', 'كومبلكس')
    """
    return contract_words(contract, locale)


_LABEL = 40
"""Least width of the label column (the partnership game's); the four seat columns
follow, 8 wide each."""


def _label_width(ruleset: Ruleset, locale: str) -> int:
    """The label column's width: room for the longest deal line of ``ruleset``."""
    choices = choosable_contracts(ruleset.contracts, ruleset)  # combinations too (R-OPT-9)
    longest = max(len(contract_name(c, locale)) for c in choices)
    return max(_LABEL, len(_deal_head(ruleset.deals_per_match, 4, 3, "", locale)) + longest)


def _seat(seat: int, locale: str) -> str:
    return translate("seat {seat}", locale, seat=seat)


def _deal_head(number: int, kingdom: int, owner: int, contract: str, locale: str) -> str:
    return translate(
        "Deal {number}  Kingdom {kingdom}  owner seat {owner}  {contract}",
        locale,
        number=number,
        kingdom=kingdom,
        owner=owner,
        contract=contract,
    )


def _column(locale: str) -> int:
    """The width of a seat's column: 8, or more for longer seat names (a space between)."""
    return max(8, len(_seat(3, locale)) + 1)


def _row(label: str, values: tuple[int, ...] | list[int], width: int, locale: str) -> str:
    column = _column(locale)
    return f"{label:<{width}}" + "".join(f"{v:>{column}}" for v in values)


def _deal_lines(deal: DealResult, width: int, locale: str) -> list[str]:
    contract = contract_name(deal.contract, locale)
    head = _deal_head(deal.number, deal.kingdom, deal.owner, contract, locale)
    lines = [_row(head, deal.points, width, locale)]
    if deal.contract.is_trick_contract:
        played = sum(seat.tricks for seat in deal.seats)
        if played < TRICKS_PER_DEAL:  # R-CL-2 … R-CL-4: the penalty cards were all taken
            lines.append(
                "  "
                + translate(
                    "ended early after {played} of {total} tricks",
                    locale,
                    played=played,
                    total=TRICKS_PER_DEAL,
                )
            )
    for d in deal.doubled:
        paid = translate(", ", locale).join(
            f"{_seat(s, locale)} {signed(p, locale)}" for s, p in enumerate(d.points) if p
        )
        lines.append(
            "  "
            + translate(
                "doubled {card} by seat {doubler}, taken by seat {taker} (led by seat {leader}): "
                "case {case}, {paid}",
                locale,
                card=d.card if locale == DEFAULT_LOCALE else d.card.symbol,
                doubler=d.doubler,
                taker=d.taker,
                leader=d.leader,
                case=d.case,
                paid=paid,
            )
        )
    if deal.finishing_order:
        order = translate(", ", locale).join(_seat(s, locale) for s in deal.finishing_order)
        lines.append("  " + translate("finishing order: {order}", locale, order=order))
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


def _redeal_lines(number: int, seats: list[int], locale: str) -> list[str]:
    return [
        translate(
            "Deal {number} redealt: seat {seat} showed a bad hand (R-OPT-8)",
            locale,
            number=number,
            seat=seat,
        )
        for seat in seats
    ]


def _seats_text(seats: tuple[int, ...], locale: str) -> str:
    if len(seats) == 1:
        return _seat(seats[0], locale)
    return translate(
        "seats {seats} and {last}",
        locale,
        seats=translate(", ", locale).join(str(s) for s in seats[:-1]),
        last=seats[-1],
    )


def _ruleset_line(ruleset: Ruleset, locale: str) -> str:
    if ruleset.worst_seat_loses:
        who = translate("the worst seat's team loses", locale)
    elif ruleset.partnership:
        who = translate("Team Totals decide", locale)
    else:
        who = translate("individual totals decide", locale)
    if ruleset.reversed_scores:
        who = translate("{who}, lowest wins", locale, who=who)
    return translate(
        "Ruleset: {name} ({deals} deals, {who})",
        locale,
        name=ruleset.name,
        deals=ruleset.deals_per_match,
        who=who,
    )


_TEAMS = {MatchResult.TEAM0: N_("team0"), MatchResult.TEAM1: N_("team1")}


def _played(played: int, ruleset: Ruleset, locale: str) -> str:
    return translate(
        "Result: in progress, {where}",
        locale,
        where=translate(
            "{played} of {deals} deals played",
            locale,
            played=played,
            deals=ruleset.deals_per_match,
        ),
    )


def _result_line(state: MatchState, locale: str) -> str:
    ruleset = state.ruleset
    if state.phase is not Phase.OVER:
        if state.phase is Phase.DEAL:
            return _played(len(state.results), ruleset, locale)
        else:
            what = (
                contract_name(state.contract, locale)
                if state.contract is not None
                else translate("contract not chosen", locale)
            )
            where = translate(
                "deal {number} (Kingdom {kingdom}, {what}) being played",
                locale,
                number=state.deal_number,
                kingdom=state.kingdom,
                what=what,
            )
        return translate("Result: in progress, {where}", locale, where=where)
    return _final_line(state.scores, ruleset, locale)


def _final_line(scores: tuple[int, int, int, int], ruleset: Ruleset, locale: str) -> str:
    """The result of a finished match with the final seat totals ``scores``."""
    result, seats = match_outcome(scores, ruleset)
    if ruleset.partnership:
        teams = team_totals(scores)
        why = ""
        if ruleset.worst_seat_loses:  # R-OPT-10
            worst = worst_seats(scores, lowest_wins=ruleset.reversed_scores)
            why = translate(
                " ({seats} worst with {points})",
                locale,
                seats=_seats_text(worst, locale),
                points=scores[worst[0]],
            )
        # Equal Team Totals are a draw for all four seats (R-MATCH-8).
        if result is MatchResult.DRAW:
            return translate(
                "Result: draw{why}, {first} to {second}",
                locale,
                why=why,
                first=teams[0],
                second=teams[1],
            )
        return translate(
            "Result: {team} wins{why}, {first} to {second}",
            locale,
            team=translate(_TEAMS[result], locale),
            why=why,
            first=teams[0],
            second=teams[1],
        )
    best = scores[seats[0]]
    if len(seats) == 1:  # R-IND-1, R-CL-1: the best individual total wins
        return translate("Result: seat {seat} wins with {best}", locale, seat=seats[0], best=best)
    return translate(
        "Result: {seats} share the win with {best}",
        locale,
        seats=_seats_text(seats, locale),
        best=best,
    )  # ties are shared


def format_scoresheet(state: MatchState, *, locale: str = DEFAULT_LOCALE) -> str:
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
    ``locale`` is its language (``"en"``, the default, or ``"ar"``).

    >>> import trixcomplex as tc
    >>> print(format_scoresheet(tc.new_match()))
    Scoresheet                                seat 0  seat 1  seat 2  seat 3
    Ruleset: partnership (8 deals, Team Totals decide)
    Result: in progress, 0 of 8 deals played
    >>> print(format_scoresheet(tc.new_match(), locale="ar").splitlines()[-1])
    النتيجة: جارية، لُعبت 0 من 8 توزيعات
    """
    locale = check_locale(locale)
    ruleset = state.ruleset
    width = _label_width(ruleset, locale)
    redeals = _redeals(state)
    lines = _sheet_lines(ruleset, state.results, redeals, width, locale)
    for number in sorted(redeals):  # the deal being played (or waiting for its new shuffle)
        lines.extend(_redeal_lines(number, redeals[number], locale))
    lines.extend(_current_lines(state, width, locale))
    lines.append(_result_line(state, locale))
    return "\n".join(lines)


def _sheet_lines(
    ruleset: Ruleset,
    results: Sequence[DealResult],
    redeals: dict[int, list[int]],
    width: int,
    locale: str,
) -> list[str]:
    """The head and the finished deals of a scoresheet (the redeals before their deals
    are taken out of ``redeals``)."""
    column = _column(locale)
    heads = "".join(f"{_seat(s, locale):>{column}}" for s in range(4))
    lines = [_row(translate("Scoresheet", locale), [], width, locale) + heads]
    lines.append(_ruleset_line(ruleset, locale))
    running = [0, 0, 0, 0]
    for deal in results:
        lines.extend(_redeal_lines(deal.number, redeals.pop(deal.number, []), locale))
        lines.extend(_deal_lines(deal, width, locale))
        running = [running[s] + deal.points[s] for s in range(4)]
        after = translate("after deal {number}", locale, number=deal.number)
        lines.append(_row("  " + after, running, width, locale))
        if ruleset.partnership:
            teams = team_totals(running)
            lines.append(
                "  "
                + translate(
                    "Team Totals: team 0 {first}, team 1 {second}",
                    locale,
                    first=teams[0],
                    second=teams[1],
                )
            )
    return lines


def format_scorebook(book: Scorebook, *, locale: str = DEFAULT_LOCALE) -> str:
    """The scoresheet of a match kept from reported deals (a
    :class:`~trixcomplex.Scorebook`), as :func:`format_scoresheet` writes a played one.

    >>> import trixcomplex as tc
    >>> book = tc.Scorebook().add(tc.DealOutcome.of("TRIX", 1, finishing_order=[1, 2, 3, 0]))
    >>> print(format_scorebook(book))
    Scoresheet                                seat 0  seat 1  seat 2  seat 3
    Ruleset: partnership (8 deals, Team Totals decide)
    Deal 1  Kingdom 1  owner seat 1  TRIX         50     200     150     100
      finishing order: seat 1, seat 2, seat 3, seat 0
      after deal 1                                50     200     150     100
      Team Totals: team 0 200, team 1 300
    Result: in progress, 1 of 8 deals played
    """
    locale = check_locale(locale)
    width = _label_width(book.ruleset, locale)
    lines = _sheet_lines(book.ruleset, book.results, {}, width, locale)
    if book.is_over:
        lines.append(_final_line(book.score().seats, book.ruleset, locale))
    else:
        lines.append(_played(len(book.results), book.ruleset, locale))
    return "\n".join(lines)


def _current_lines(state: MatchState, width: int, locale: str) -> list[str]:
    """The deal being played: trick points charged so far, TRIX seats already out."""
    so_far = translate("deal {number} so far", locale, number=state.deal_number)
    if state.trick_deal is not None:
        return [_row("  " + so_far, state.trick_deal.points, width, locale)]
    if state.trix is not None and state.trix.finishing_order:
        out = translate(", ", locale).join(_seat(s, locale) for s in state.trix.finishing_order)
        return ["  " + translate("{so_far}: out {seats}", locale, so_far=so_far, seats=out)]
    return []
