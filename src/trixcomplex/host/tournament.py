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

This module is the public face; behind it, one module per job:
:mod:`~trixcomplex.host.decks` (the seeded decks and the commitment),
:mod:`~trixcomplex.host.matches` (one numbered match, its outcome and a
forfeit), :mod:`~trixcomplex.host.stats` (the summary and its intervals) and
:mod:`~trixcomplex.host.pools` (executors and fault-surviving process pools).

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
import io
import secrets
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import attrs
from attrs import frozen

from ..bots.base import Bot, check_bot
from ..core.rulesets import PARTNERSHIP, Ruleset
from .decks import match_generators, seed_commitment
from .loop import bots_move, play_match
from .matches import MatchOutcome, _play_chunk, _sides, play_numbered_match
from .pools import _run_on_executor, _run_on_pools
from .stats import Z95 as Z95
from .stats import Summary, summarize, wilson_interval
from .stats import mean_interval as mean_interval

if TYPE_CHECKING:  # imported when used: they are a sixth of the time this module takes
    from concurrent.futures import Executor

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
    a sandboxed process of its own per seat and per match that sees only its
    view's JSON (:class:`~trixcomplex.host.isolated.IsolatedBot`, with
    ``time_limit`` or 10 seconds per decision when neither limit is given),
    and refuses to run
    (:class:`~trixcomplex.host.sandbox.SandboxUnavailable`, naming the package)
    where bubblewrap cannot; ``"strict"`` is its older name.
    ``isolated="unsandboxed"`` is the weaker mode, for your own bots only
    (see :mod:`~trixcomplex.host.sandbox`).  Bots given as objects run in this
    process whatever ``isolated`` says.
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
    if isolated not in (False, True, "strict", "sandbox", "unsandboxed"):
        raise ValueError(f"isolated must be True, False or 'unsandboxed', not {isolated!r}")
    if isolated:
        mode = "unsandboxed" if isolated == "unsandboxed" else "sandbox"
        bots = _isolate(bots, mode, time_limit, cpu_limit)
    if seed is None:
        seed = secrets.randbits(128)
    if announce is not None:
        announce(seed_commitment(seed))
    lineup = tuple(bots)
    _sides(lineup)
    for k, bot in enumerate(lineup):
        check_bot(bot, f"bot {k} ({'side A' if k % 2 == 0 else 'side B'})")
        check_sandbox = getattr(bot, "check_sandbox", None)
        if check_sandbox is not None:  # an isolated bot: refused before any match if it cannot run
            check_sandbox()
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
    bots: Sequence[Bot | str], mode: str, time_limit: float | None, cpu_limit: float | None
) -> list[Bot]:
    """The bots named by strings, each made an :class:`~trixcomplex.host.isolated.IsolatedBot`
    (``mode``: ``"sandbox"``, refused where bubblewrap cannot run, or ``"unsandboxed"``);
    a side named once gets a process per seat when its matches are played."""
    from .isolated import IsolatedBot

    wall = 10.0 if time_limit is None and cpu_limit is None else time_limit
    return [IsolatedBot(b, wall, cpu_limit, mode) if isinstance(b, str) else b for b in bots]


def _side_names(bots: tuple[Bot, ...]) -> tuple[str, str]:
    side_a, side_b = _sides(bots)

    def name(side: tuple[Bot, Bot]) -> str:
        a, b = (getattr(bot, "spec", None) or type(bot).__name__ for bot in side)
        return a if a == b else f"{a}+{b}"

    return name(side_a), name(side_b)
