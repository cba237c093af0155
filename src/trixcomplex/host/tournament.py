"""Tournaments: many seeded matches between two sides of bots, with statistics.

:func:`simulate` plays ``matches`` matches between side A and side B, under
any :class:`~trixcomplex.Ruleset` (the partnership game by default).  Side A
sits at seats 0 and 2 or 1 and 3.  Matches go in pairs on the same shuffles
with the sides' seats exchanged, so the luck of the cards cancels out.

What "win" means for a side:

- in a partnership ruleset, side A wins when its team wins (R-MATCH-8);
- in an individual ruleset (R-IND-1, R-CL-1), side A wins when the match's
  winner is one of its two seats; a win shared between a seat of each side
  is a draw.

The margin is always side A's two seats' total minus side B's, counted the
ruleset's way round: negated under reversed scores (R-OPT-6), where the
lowest total wins, so a positive margin is good for side A.

Everything is derived from ``seed``: the same seed gives the same matches,
in process or on any :class:`concurrent.futures.Executor` (a process pool, or a ``dask.distributed``
cluster through ``client.get_executor()``).  The seed is the run's secret:
the decks come from an HMAC of it (:func:`match_generators`), so whoever
knows it knows every deck; the result publishes :func:`seed_commitment`
before the first match (``announce``) and the seed itself only with the
results.

>>> from trixcomplex.bots import RandomBot, RuleBot
>>> result = simulate([RuleBot(), RandomBot()], matches=2, seed=1)
>>> [m.sides_seats for m in result.matches]
[(0, 1), (1, 0)]
>>> result.matches[0].record.moves[0] == result.matches[1].record.moves[0]   # same shuffle
True
>>> result.summary.matches
2
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import io
import math
import os
import random
import secrets
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import attrs
from attrs import frozen

from ..bots.base import Bot, BotError, check_bot
from ..core.engine import MatchResult, MatchState
from ..core.moves import Contract
from ..core.rules import match_outcome, team_totals
from ..core.rulesets import PARTNERSHIP, Ruleset
from ..io.records import Record
from .loop import bots_move, play_match, seat_to_move

if TYPE_CHECKING:  # imported when used: they are a sixth of the time this module takes
    from concurrent.futures import Executor, Future, ProcessPoolExecutor

__all__ = [
    "MatchOutcome",
    "Summary",
    "Tournament",
    "match_generators",
    "next_move",
    "play_match",
    "play_numbered_match",
    "seed_commitment",
    "simulate",
    "summarize",
    "wilson_interval",
]

next_move = bots_move
"""The next move of a match between bots: :func:`trixcomplex.host.loop.bots_move`."""

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal law (two-sided 95% intervals)."""


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


@frozen
class Summary:
    """Statistics of side A against side B.

    Rates are over matches with Wilson 95% intervals.  The margin interval
    treats each pair of matches on the same shuffles as one sample (their
    results are not independent); with an odd number of matches the last
    one stands alone.  ``points_per_deal`` gives, per contract of the
    ruleset, side A's and side B's mean points per deal of that contract
    (each contract is played once per Kingdom: four times a match).
    """

    matches: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    win_ci: tuple[float, float]
    draw_rate: float
    draw_ci: tuple[float, float]
    loss_rate: float
    loss_ci: tuple[float, float]
    mean_margin: float
    margin_ci: tuple[float, float]
    points_per_deal: tuple[tuple[str, float, float], ...]


@frozen(repr=False)
class Tournament:
    """What :func:`simulate` returns: the sides' names, every match, the summary, the ruleset.

    Its ``repr`` is one short line (not the records);
    :meth:`summary_table` is the table ``trixcomplex simulate`` prints;
    :meth:`to_json` and :meth:`to_csv` export the results.

    >>> from trixcomplex.bots import RandomBot, RuleBot
    >>> t = simulate([RuleBot(), RandomBot()], matches=2, seed=1)
    >>> t
    Tournament(RuleBot vs RandomBot, partnership, 2 matches, seed 1: A 2 wins, 0 draws, 0 losses)
    >>> print(t.to_csv().splitlines()[0])
    index,side_a_team,winner,margin,team0,team1,seat0,seat1,seat2,seat3,forfeit
    """

    sides: tuple[str, str]
    seed: int
    matches: tuple[MatchOutcome, ...]
    summary: Summary
    ruleset: Ruleset = PARTNERSHIP
    commitment: str = ""
    """:func:`seed_commitment` of ``seed``, announced before the first match."""

    def __repr__(self) -> str:
        s = self.summary
        return (
            f"Tournament({self.sides[0]} vs {self.sides[1]}, {self.ruleset.name}, "
            f"{s.matches} matches, seed {self.seed}: A {s.wins} wins, {s.draws} draws, "
            f"{s.losses} losses)"
        )

    def summary_table(self) -> tuple[tuple[str, str], ...]:
        """The summary as ``(statistic, value)`` rows, as ``trixcomplex simulate`` prints them."""
        s = self.summary
        a, b = self.sides

        def pct(rate: float, ci: tuple[float, float]) -> str:
            return f"{rate:6.1%}  (95% CI {ci[0]:.1%} .. {ci[1]:.1%})"

        rows = [
            ("ruleset", self.ruleset.name),
            ("matches", f"{s.matches} (seed {self.seed}, seats swapped every other match)"),
            (f"A wins ({a})", pct(s.win_rate, s.win_ci)),
            ("draws", pct(s.draw_rate, s.draw_ci)),
            (f"B wins ({b})", pct(s.loss_rate, s.loss_ci)),
            (
                "mean margin (A - B)",
                f"{s.mean_margin:+.1f}  (95% CI {s.margin_ci[0]:+.1f} .. {s.margin_ci[1]:+.1f})",
            ),
        ]
        for contract, pa, pb in s.points_per_deal:
            rows.append((f"{contract} points per deal", f"A {pa:+.1f}, B {pb:+.1f}"))
        forfeits = [m for m in self.matches if m.forfeit is not None]
        if forfeits:
            lost = ", ".join(f"{m.index} ({m.forfeit})" for m in forfeits[:10])
            rows.append(("forfeits", f"{len(forfeits)}: match (side) {lost}"))
        if not self.ruleset.partnership:
            rows.append(("a side wins", "when a seat of its own has the best total (shared: draw)"))
        if self.ruleset.reversed_scores:
            rows.append(
                ("reversed scores", "the lowest total wins; the margin is counted that way")
            )
        return tuple(rows)

    def to_json(self) -> dict[str, Any]:
        """The tournament as JSON: sides, seed, ruleset name, the summary and one
        object per match (its record is left out: see each ``MatchOutcome.record``)."""
        return {
            "sides": list(self.sides),
            "seed": self.seed,
            "commitment": self.commitment,
            "ruleset": self.ruleset.name,
            "summary": {k: _plain(v) for k, v in attrs.asdict(self.summary).items()},
            "matches": [_match_row(m) for m in self.matches],
        }

    def to_csv(self) -> str:
        """One CSV line per match (header first): the columns of :meth:`to_json`'s matches."""
        import csv

        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(_CSV_FIELDS), lineterminator="\n")
        writer.writeheader()
        for m in self.matches:
            row = _match_row(m)
            writer.writerow({k: row[k] for k in _CSV_FIELDS})
        return out.getvalue()


_CSV_FIELDS = ("index", "side_a_team", "winner", "margin", "team0", "team1",
               "seat0", "seat1", "seat2", "seat3", "forfeit")  # fmt: skip


def _plain(value: object) -> object:
    return [_plain(v) for v in value] if isinstance(value, tuple | list) else value


def _match_row(m: MatchOutcome) -> dict[str, Any]:
    seats = list(m.seats) if m.seats else [None] * 4
    return {
        "index": m.index,
        "side_a_team": m.sides_seats[0],
        "winner": m.winner,
        "margin": m.margin,
        "team0": m.teams[0],
        "team1": m.teams[1],
        "seat0": seats[0],
        "seat1": seats[1],
        "seat2": seats[2],
        "seat3": seats[3],
        "result": m.result.value,
        "contract_points": [list(p) for p in m.contract_points],
        "forfeit": m.forfeit,
        "reason": m.reason,
    }


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    >>> lo, hi = wilson_interval(60, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.502, 0.691)
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """A normal-approximation 95% interval for the mean of ``values``."""
    if not values:
        return (0.0, 0.0)
    import statistics

    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, mean)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (mean - half, mean + half)


def _key(seed: int) -> bytes:
    """The run's secret key: a hash of the organizer's ``seed``."""
    return hashlib.sha256(f"trixcomplex run key:{seed}".encode()).digest()


def _stream(key: bytes, label: str) -> random.Random:
    """A generator seeded with ``HMAC-SHA256(key, label)``."""
    return random.Random(hmac.new(key, label.encode(), hashlib.sha256).digest())


def match_generators(
    seed: int, index: int
) -> tuple[random.Random, random.Random, list[random.Random]]:
    """Match ``index``'s generators in the tournament seeded ``seed``: the decks, the
    decks after a redeal (R-OPT-8), and the four seats' bots' own.

    Each is seeded with an HMAC of a key derived from ``seed``: the decks
    with the deal key, shared by matches ``2k`` and ``2k + 1``; the bots'
    with a bot key derived apart, so that what a bot draws from its
    generator tells nothing about any deck.  Without ``seed`` no one can
    compute a deck, and with it everyone can: keep it secret until the
    results are out (:func:`seed_commitment`).

    >>> decks, _, _ = match_generators(7, 0)
    >>> again, _, _ = match_generators(7, 1)
    >>> decks.random() == again.random()    # a pair of matches: the same shuffles
    True
    """
    key = _key(seed)
    deal_key = hmac.new(key, b"deals", hashlib.sha256).digest()
    bot_key = hmac.new(key, b"bots", hashlib.sha256).digest()
    pair = index // 2
    return (
        _stream(deal_key, f"deals:{pair}"),
        _stream(deal_key, f"redeals:{pair}"),
        [_stream(bot_key, f"match:{index}:seat:{s}") for s in range(4)],
    )


def seed_commitment(seed: int) -> str:
    """The public commitment to a tournament's secret ``seed``: a SHA-256 hex digest.

    Published before the first match (``simulate(..., announce=...)``,
    :attr:`Tournament.commitment`), it lets anyone check afterwards that the
    seed revealed with the results is the one the decks came from.  It hides
    the seed only if the seed is hard to guess: a small seed is found by
    trying them all, so let :func:`simulate` draw one or choose a long random one.

    >>> seed_commitment(1) == seed_commitment(1) != seed_commitment(2)
    True
    >>> len(seed_commitment(1))
    64
    """
    return hashlib.sha256(f"trixcomplex seed commitment:{seed}".encode()).hexdigest()


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


def summarize(outcomes: Sequence[MatchOutcome]) -> Summary:
    """The :class:`Summary` of some match outcomes (side A's point of view)."""
    import statistics

    n = len(outcomes)
    wins = sum(1 for m in outcomes if m.winner == "A")
    draws = sum(1 for m in outcomes if m.winner == "draw")
    losses = n - wins - draws
    by_pair: dict[int, list[int]] = {}
    for m in outcomes:
        by_pair.setdefault(m.index // 2, []).append(m.margin)
    pair_means = [statistics.fmean(v) for v in by_pair.values()]
    deals = n * 4  # each contract is played once per Kingdom (R-MATCH-1, R-SET-2)
    per: list[tuple[str, float, float]] = []
    contracts = outcomes[0].contracts if outcomes else PARTNERSHIP.contracts
    if any(m.contracts != contracts for m in outcomes):
        raise ValueError("cannot summarize matches of different rulesets together")
    for k, contract in enumerate(contracts):
        a = sum(m.contract_points[k][0] for m in outcomes)
        b = sum(m.contract_points[k][1] for m in outcomes)
        per.append((contract.value, a / deals if deals else 0.0, b / deals if deals else 0.0))
    return Summary(
        matches=n,
        wins=wins,
        draws=draws,
        losses=losses,
        win_rate=wins / n if n else 0.0,
        win_ci=wilson_interval(wins, n),
        draw_rate=draws / n if n else 0.0,
        draw_ci=wilson_interval(draws, n),
        loss_rate=losses / n if n else 0.0,
        loss_ci=wilson_interval(losses, n),
        mean_margin=statistics.fmean(m.margin for m in outcomes) if n else 0.0,
        margin_ci=mean_interval(pair_means),
        points_per_deal=tuple(per),
    )


def simulate(
    bots: Sequence[Bot],
    matches: int,
    *,
    seed: int | None = None,
    ruleset: Ruleset = PARTNERSHIP,
    executor: Executor | None = None,
    chunk: int = 1,
    progress: Callable[[int, int], None] | None = None,
    jobs: int | None = None,
    time_limit: float | None = None,
    stall_timeout: float | None = None,
    retries: int = 3,
    isolated: bool | str = False,
    cpu_limit: float | None = None,
    announce: Callable[[str], None] | None = None,
) -> Tournament:
    """Play ``matches`` seeded matches between two sides of bots; return every match and stats.

    ``bots`` is ``[A, B]`` (each side's bot plays both seats of its team) or
    four bots by seat (side A = seats 0 and 2).  Every match plays
    ``ruleset`` (see the module's notes for what a side's win means in an
    individual ruleset).  Match ``i`` reuses the
    shuffles of match ``i ^ 1`` with the sides' seats exchanged (seats are
    rotated for fairness).  ``progress`` is called with ``(done, matches)``
    after every match.  Every bot is checked against the protocol before the
    first match (``TypeError`` otherwise).

    Where the matches run (the result is the same for the same ``seed``):

    - in this process (the default);
    - on an ``executor`` (a process pool, or ``dask.distributed``'s
      ``client.get_executor()``), in chunks of ``chunk`` matches (bots must
      then be picklable); a chunk whose future fails is submitted again
      (``retries`` times), then played in this process;
    - on a process pool of ``jobs`` workers that survives faults: a killed
      worker (``BrokenProcessPool``) costs only its unfinished matches: the
      pool is rebuilt and each match it had begun is played again alone,
      with the same seeds, so the results equal an unfaulted run's; a match
      whose worker dies again (a bot calling ``os._exit``) is forfeited by
      the side of the seat being asked.  With ``stall_timeout``, a pool
      that finishes no match for that many seconds (a hung worker) is
      treated the same way.

    ``seed`` is the run's secret (the decks come from it,
    :func:`match_generators`); without it one is drawn at random.
    ``announce`` is called with :func:`seed_commitment` before the first
    match; the seed itself is in the result (:attr:`Tournament.seed`).

    ``time_limit`` is the per-decision limit in wall-clock seconds and
    ``cpu_limit`` in seconds of CPU time (the bot process's own for an
    isolated bot, measured by the host; a loaded machine does not make an
    honest bot late): a bot over either while choosing or doubling gets the
    rules' timeout (R-MATCH-6, R-DBL-3), while playing a card its side
    forfeits the match.  A bot answering an illegal move, raising an
    exception (``SystemExit`` too) or whose process dies forfeits too (see
    :attr:`MatchOutcome.forfeit`).  ``isolated=True`` runs every bot
    named by a string spec (``"rule"``, ``"mc:8"``, ``"module:factory"``) in
    a sandboxed process of its own that sees only its view's JSON
    (:class:`~trixcomplex.host.isolated.IsolatedBot`, with ``time_limit`` or 10
    seconds per decision when neither limit is given); ``isolated="strict"``
    refuses to run (:class:`~trixcomplex.host.sandbox.SandboxUnavailable`) where
    bubblewrap cannot.
    """
    if isinstance(matches, bool) or not isinstance(matches, int) or matches < 1:
        raise ValueError(f"matches must be a positive integer, not {matches!r}")
    if chunk < 1:
        raise ValueError(f"chunk must be a positive integer, not {chunk!r}")
    if not isinstance(ruleset, Ruleset):
        raise ValueError(f"ruleset must be a Ruleset (e.g. tc.CLASSIC), not {ruleset!r:.60}")
    for name, limit in (("time_limit", time_limit), ("cpu_limit", cpu_limit)):
        if limit is not None and not limit > 0:
            raise ValueError(f"{name} must be a positive number of seconds, not {limit!r}")
    if isolated not in (False, True, "strict"):
        raise ValueError(f"isolated must be True, False or 'strict', not {isolated!r}")
    if isolated:
        bots = _isolate(bots, isolated == "strict", time_limit, cpu_limit)
    if seed is None:
        seed = secrets.randbits(128)
    if announce is not None:
        announce(seed_commitment(seed))
    lineup = tuple(bots)
    _sides(lineup)
    for k, bot in enumerate(lineup):
        check_bot(bot, f"bot {k} ({'side A' if k % 2 == 0 else 'side B'})")
    names = _side_names(lineup)
    outcomes: dict[int, MatchOutcome] = {}

    def finished(found: Sequence[MatchOutcome]) -> None:
        for outcome in found:
            outcomes[outcome.index] = outcome
            if progress is not None:
                progress(len(outcomes), matches)

    play = functools.partial(
        _play_chunk, lineup, seed, ruleset=ruleset, time_limit=time_limit, cpu_limit=cpu_limit
    )
    if jobs is not None:
        _run_on_pools(play, matches, jobs, stall_timeout, retries, finished, lineup, ruleset)
    elif executor is not None:
        _run_on_executor(play, executor, matches, chunk, retries, finished)
    else:
        for i in range(matches):
            finished(play((i,)))
    final = tuple(outcomes[i] for i in range(matches))
    summary = summarize(final)
    return Tournament(
        sides=names, seed=seed, matches=final, summary=summary, ruleset=ruleset,
        commitment=seed_commitment(seed),
    )  # fmt: skip


def _isolate(
    bots: Sequence[Bot | str], strict: bool, time_limit: float | None, cpu_limit: float | None
) -> list[Bot]:
    """The bots named by strings, each made an :class:`~trixcomplex.host.isolated.IsolatedBot`
    (sandboxed, or refused in ``strict`` mode where bubblewrap cannot run)."""
    from .isolated import IsolatedBot
    from .sandbox import (
        SandboxUnavailable,
        bwrap_path,
        fallback_warning,
        make_host_undumpable,
        python_paths,
        reachable_by_others,
        sandbox_available,
    )

    if not sandbox_available():
        missing = "bwrap is not installed" if bwrap_path() is None else "bwrap cannot run here"
        if strict:
            raise SandboxUnavailable(
                f"isolated='strict' needs bubblewrap (Debian package 'bubblewrap'): {missing}"
            )
        blocked = [p for p in python_paths() if not reachable_by_others(p)]
        if os.name == "posix" and os.geteuid() == 0 and blocked:
            missing += f"; the bots keep root: {blocked[0]} is not readable by 'nobody'"
        fallback_warning(missing)
        make_host_undumpable()
    wall = 10.0 if time_limit is None and cpu_limit is None else time_limit
    mode = "strict" if strict else "auto"
    return [IsolatedBot(b, wall, cpu_limit, mode) if isinstance(b, str) else b for b in bots]


_Play = Callable[[tuple[int, ...]], list[MatchOutcome]]


def _run_on_executor(
    play: _Play,
    executor: Executor,
    matches: int,
    chunk: int,
    retries: int,
    finished: Callable[[Sequence[MatchOutcome]], None],
) -> None:
    """Play every chunk on ``executor``; a failed chunk is resubmitted, then played here."""
    from concurrent.futures import FIRST_COMPLETED, wait

    chunks = [tuple(range(i, min(i + chunk, matches))) for i in range(0, matches, chunk)]
    tries = dict.fromkeys(chunks, 0)
    futures: dict[Future[list[MatchOutcome]], tuple[int, ...]] = {
        executor.submit(play, c): c for c in chunks
    }
    while futures:
        done, _ = wait(futures, return_when=FIRST_COMPLETED)
        for future in done:
            indices = futures.pop(future)
            try:
                found = future.result()
            except BotError:
                raise
            except Exception:  # the worker died or the executor broke: play it again
                tries[indices] += 1
                try:
                    if tries[indices] > retries:
                        raise RuntimeError("retries spent")
                    futures[executor.submit(play, indices)] = indices
                except Exception:
                    finished(play(indices))
                continue
            finished(found)


def _run_on_pools(
    play: _Play,
    matches: int,
    jobs: int,
    stall_timeout: float | None,
    retries: int,
    finished: Callable[[Sequence[MatchOutcome]], None],
    lineup: tuple[Bot, ...] = (),
    ruleset: Ruleset = PARTNERSHIP,
) -> None:
    """Play every match on process pools of ``jobs`` workers, replacing a pool that
    breaks (a killed worker) or stalls (no match finished in ``stall_timeout`` s).

    The matches a broken or stalled pool had begun are suspects: each is played
    again alone, on a pool of one worker.  One that finishes there counts as
    any other (a fault from outside costs nothing); one that kills or hangs
    that worker too is its bot's doing and forfeits, by the side of the seat
    the worker was asking (the workers say whom they ask in shared memory).
    """
    # Imported here: multiprocessing is a tenth of the time ``import trixcomplex`` takes.
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool, ProcessPoolExecutor

    asked = multiprocessing.get_context().RawArray("q", matches)
    for i in range(matches):
        asked[i] = -1
    pending = list(range(matches))
    rebuilt = 0
    while pending:
        pool = ProcessPoolExecutor(jobs, initializer=_track, initargs=(asked,))
        futures = {pool.submit(play, (i,)): i for i in pending}
        lost: list[int] = []
        try:
            while futures:
                done, _ = wait(futures, timeout=stall_timeout, return_when=FIRST_COMPLETED)
                if not done:  # a stall: no match finished in time
                    lost = list(futures.values())
                    break
                for future in done:
                    index = futures.pop(future)
                    try:
                        found = future.result()
                    except BrokenProcessPool:
                        lost.append(index)
                        continue
                    finished(found)
                    pending.remove(index)
                if lost:
                    lost += futures.values()
                    break
        finally:
            _stop_pool(pool)
        begun = [i for i in lost if asked[i] >= 0]
        if not begun:
            rebuilt += 1
            if rebuilt > retries:
                raise RuntimeError(
                    f"matches {pending[:10]} were lost {retries + 1} times "
                    "(a worker killed or hung each time)"
                )
            continue
        for index in begun:  # played alone: a fault that comes again is the bot's
            finished([_play_alone(play, index, stall_timeout, asked, lineup, ruleset)])
            pending.remove(index)


def _play_alone(
    play: _Play,
    index: int,
    stall_timeout: float | None,
    asked: Any,
    lineup: tuple[Bot, ...],
    ruleset: Ruleset,
) -> MatchOutcome:
    """Match ``index`` played on a pool of its own; if its worker dies or hangs again,
    the match is forfeited by the side whose seat was being asked."""
    from concurrent.futures.process import BrokenProcessPool, ProcessPoolExecutor

    asked[index] = -1
    pool = ProcessPoolExecutor(1, initializer=_track, initargs=(asked,))
    future = pool.submit(play, (index,))
    try:
        (found,) = future.result(timeout=stall_timeout)
        return found
    except (BrokenProcessPool, TimeoutError):
        how = "died" if future.done() else f"hung past stall_timeout={stall_timeout:g}s"
    finally:
        _stop_pool(pool)
    where = asked[index]
    deal, seat = (where // 4, where % 4) if where >= 0 else (0, 0)
    a_team = index % 2
    side_a, side_b = _sides(lineup) if lineup else ((None, None), (None, None))
    bot = (side_a if seat % 2 == a_team else side_b)[seat // 2]
    reason = (
        f"{type(bot).__name__}'s worker process {how} at match {index}, deal {deal}, "
        f"seat {seat} (a bot calling os._exit or killing its process), twice"
    )
    return _forfeit(index, a_team, seat, reason, None, ruleset)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Shut ``pool`` down now, killing its workers (a hung one included)."""
    procs = getattr(pool, "_processes", None) or {}
    for proc in list(procs.values()):
        if proc.is_alive():
            proc.kill()
    pool.shutdown(wait=True, cancel_futures=True)


def _side_names(bots: tuple[Bot, ...]) -> tuple[str, str]:
    side_a, side_b = _sides(bots)

    def name(side: tuple[Bot, Bot]) -> str:
        a, b = (getattr(bot, "spec", None) or type(bot).__name__ for bot in side)
        return a if a == b else f"{a}+{b}"

    return name(side_a), name(side_b)
