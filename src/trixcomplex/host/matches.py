"""One numbered match of a tournament: who sits where, its seeded decks, its outcome
seen from side A, and the forfeit of a side whose bot fails.

:func:`play_numbered_match` is a pure function of the bots, the seed and the
match number, so a tournament can be played in any order, in pieces, or on
other processes (which say here, in shared memory, which seat they are asking).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from attrs import frozen

from ..bots.base import Bot, BotError
from ..core.engine import MatchResult, MatchState
from ..core.moves import Contract
from ..core.rules import match_outcome, team_totals
from ..core.rulesets import PARTNERSHIP, Ruleset
from ..io.records import Record
from .decks import match_generators
from .loop import play_match, seat_to_move

__all__ = ["MatchOutcome", "play_numbered_match"]


@frozen
class MatchOutcome:
    """One match of a tournament, seen from side A.

    - ``index``: the match number (0-based); matches ``2k`` and ``2k+1``
      share their shuffles.
    - ``sides_seats``: the team (0 or 1) of side A, then of side B: side A
      holds seats ``sides_seats[0]`` and ``sides_seats[0] + 2``.
    - ``teams``: the two teams' totals (team 0 = seats 0+2), individual
      rulesets included.
    - ``result``: the engine's :class:`~trixcomplex.MatchResult`.
    - ``margin``: side A's total minus side B's, negated under reversed
      scores (R-OPT-6): positive is good for side A.
    - ``contract_points``: side A's and side B's points per contract, in the
      order of ``contracts``, summed over the match: ``((COMPLEX_A,
      COMPLEX_B), (TRIX_A, TRIX_B))`` in the partnership game.
    - ``record``: the whole match as a :class:`~trixcomplex.Record`.
    - ``contracts``: the ruleset's contracts (``contract_points``' order).
    - ``seats``: the four seats' totals.
    - ``winners``: the winning seats (:attr:`~trixcomplex.Score.winners`).
    - ``forfeit``: ``"A"`` or ``"B"`` when that side's bot failed (crashed,
      hung past the time limit or answered an illegal move) and lost the
      match by forfeit; ``reason`` says what happened.  ``None`` otherwise.
    """

    index: int
    sides_seats: tuple[int, int]
    teams: tuple[int, int]
    result: MatchResult
    margin: int
    contract_points: tuple[tuple[int, int], ...]
    record: Record
    contracts: tuple[Contract, ...] = PARTNERSHIP.contracts
    seats: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    forfeit: str | None = None
    reason: str = ""

    @property
    def winner(self) -> str:
        """``"A"``, ``"B"`` or ``"draw"``: the side holding every winning seat
        (a win shared by both sides, or a team draw, is a draw); a side that
        forfeited loses."""
        if self.forfeit is not None:
            return "B" if self.forfeit == "A" else "A"
        if self.winners:
            a = self.sides_seats[0]
            if all(s % 2 == a for s in self.winners):
                return "A"
            if all(s % 2 != a for s in self.winners):
                return "B"
            return "draw"
        return "A" if self.margin > 0 else "B" if self.margin < 0 else "draw"


def _sides(bots: Sequence[Bot]) -> tuple[tuple[Bot, Bot], tuple[Bot, Bot]]:
    if len(bots) == 2:
        return (bots[0], bots[0]), (bots[1], bots[1])
    if len(bots) == 4:
        return (bots[0], bots[2]), (bots[1], bots[3])
    raise ValueError(
        f"give 2 bots (side A, side B) or 4 (seats 0-3, side A = seats 0 and 2), not {len(bots)}"
    )


def play_numbered_match(
    bots: Sequence[Bot],
    seed: int,
    index: int,
    ruleset: Ruleset = PARTNERSHIP,
    *,
    time_limit: float | None = None,
    cpu_limit: float | None = None,
) -> MatchOutcome:
    """Match ``index`` of the tournament of ``bots`` seeded ``seed``: a pure function of these.

    :func:`simulate` plays matches ``0 .. matches - 1`` with it; call it
    directly to play a tournament in pieces (and stop at any time).  A bot
    that fails (:class:`~trixcomplex.bots.BotError`: an illegal answer, no
    answer within ``time_limit`` wall-clock or ``cpu_limit`` CPU seconds
    per decision while playing a card, an exception it raised, an isolated
    bot's crash) forfeits the match: its side loses (``forfeit``, ``reason``).
    """
    side_a, side_b = _sides(bots)
    a_team = index % 2  # side A sits as team 0 in even matches, team 1 in odd ones
    seats: list[Bot] = [side_a[0], side_b[0], side_a[1], side_b[1]]
    if a_team == 1:
        seats = [side_b[0], side_a[0], side_b[1], side_a[1]]
    seats = _one_per_seat(seats)
    deals, redeals, rngs = match_generators(seed, index)
    note = None
    if _ASKED is not None:  # in a jobs=N worker: say who is asked, should the worker die
        note = functools.partial(_note_asked, _ASKED, index)
        _ASKED[index] = -1
    try:
        state = play_match(
            seats, deals, rngs, ruleset=ruleset, redeals=redeals,
            time_limit=time_limit, match=index, cpu_limit=cpu_limit, on_move=note,
        )  # fmt: skip
    except BotError as exc:
        seat = exc.seat if exc.seat is not None else 0
        return _forfeit(index, a_team, seat, str(exc), exc.reached, ruleset)
    finally:
        for bot in seats:
            close = getattr(bot, "close", None)
            if close is not None:
                close()
    teams = team_totals(state.scores)
    per = {contract: [0, 0] for contract in ruleset.contracts}
    for deal in state.results:
        mine = deal.points[a_team] + deal.points[a_team + 2]
        theirs = deal.points[1 - a_team] + deal.points[3 - a_team]
        per[deal.contract][0] += mine
        per[deal.contract][1] += theirs
    result, won = match_outcome(state.scores, ruleset)
    sign = -1 if ruleset.reversed_scores else 1
    return MatchOutcome(
        index=index,
        sides_seats=(a_team, 1 - a_team),
        teams=teams,
        result=result,
        margin=sign * (teams[a_team] - teams[1 - a_team]),
        contract_points=tuple((a, b) for a, b in per.values()),
        record=Record.of(state),
        contracts=ruleset.contracts,
        seats=state.scores,
        winners=won,
    )


def _one_per_seat(seats: list[Bot]) -> list[Bot]:
    """The seats' bots, a bot that sits twice and can be copied (``for_another_seat``: an
    isolated bot's process) copied for its second seat, so partners share no process."""
    placed: list[Bot] = []
    for bot in seats:
        another = getattr(bot, "for_another_seat", None)
        placed.append(another() if another is not None and any(b is bot for b in placed) else bot)
    return placed


def _forfeit(
    index: int,
    a_team: int,
    seat: int,
    reason: str,
    state: MatchState | None,
    ruleset: Ruleset,
) -> MatchOutcome:
    """The outcome of match ``index`` lost by forfeit by ``seat``'s side (``state``: the
    state the bot failed in, for the record)."""
    loser = "A" if seat % 2 == a_team else "B"
    team = 1 - seat % 2  # the winning team
    return MatchOutcome(
        index=index,
        sides_seats=(a_team, 1 - a_team),
        teams=(0, 0),
        result=MatchResult.TEAM0 if team == 0 else MatchResult.TEAM1,
        margin=0,
        contract_points=tuple((0, 0) for _ in ruleset.contracts),
        record=Record.of(state) if state is not None else Record(),
        contracts=ruleset.contracts,
        seats=(0, 0, 0, 0),
        winners=(team, team + 2),
        forfeit=loser,
        reason=reason,
    )


def _play_chunk(
    bots: tuple[Bot, ...],
    seed: int,
    indices: tuple[int, ...],
    ruleset: Ruleset = PARTNERSHIP,
    time_limit: float | None = None,
    cpu_limit: float | None = None,
) -> list[MatchOutcome]:
    return [
        play_numbered_match(bots, seed, i, ruleset, time_limit=time_limit, cpu_limit=cpu_limit)
        for i in indices
    ]


_ASKED: Any = None
"""In a ``jobs=N`` worker: per match, ``4 * deal + seat`` of the seat last asked to move."""


def _track(asked: Any) -> None:
    """A ``jobs=N`` worker's initializer: where it says who it asks."""
    global _ASKED
    _ASKED = asked


def _note_asked(asked: Any, index: int, state: MatchState) -> None:
    if state.turn is not None or state.to_act:
        asked[index] = 4 * state.deal_number + seat_to_move(state)
