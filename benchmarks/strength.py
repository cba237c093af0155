"""Bot strength: seeded tournaments between the bots, with 95% confidence intervals.

Usage (from the repository root)::

    python benchmarks/strength.py --pair rule,random --matches 400 --seed 2026
    python benchmarks/strength.py --pair mc:8,rule --matches 400 --seed 2026 --out mc.jsonl
    python benchmarks/strength.py --pair rule,random --ruleset classic --out classic.jsonl
    python benchmarks/strength.py --pair mc:16:random,rule --out mc-random.jsonl
    python benchmarks/strength.py --table mc.jsonl rule.jsonl      # the docs table
    python benchmarks/strength.py --time mc:4 mc:8 mc mc:16:random  # ms per decision
    python benchmarks/strength.py --pair ismcts:50,rule --out ismcts.jsonl
    python benchmarks/strength.py --pair "mc2[worlds=20,caution=0.5],rule" --matches 100 \
        --out screen.jsonl --versus benchmarks/ladder/p7-mc2-rule2.jsonl

``mc:N:random`` is a :class:`~trixcomplex.bots.MonteCarloBot` of N worlds
with random playouts (``mc:N:rule``: rule playouts, as ``mc:N``;
``mc:N:rule2``: RuleBot version 2 playouts, nothing else); a name
ending ``@S`` gives a Monte Carlo bot a time budget of S CPU seconds a
decision and as many worlds as fit (``mc2@0.015``: such results depend on
the machine); ``ismcts:N`` is OpenSpiel's ISMCTS through the adapter,
:class:`~trixcomplex.rl.openspiel.ISMCTSPlayer` with N simulations a move
(the ``[openspiel]`` extra); every other name is :func:`~trixcomplex.bots.bot_named`'s
(``rule:1`` is RuleBot version 1, ``mc2`` the search bot with equals, the
exact endgame, caution and RuleBot version 2's moves as its default).  A
name followed by ``[field=value,...]`` is that bot with those settings
changed (:func:`attrs.evolve`; each value a Python literal, or a bare word
for a string): ``mc2[worlds=20,caution=0.5]``.  ``--versus FILE`` compares
the ``--out`` row with another row of the same seed, match by match over the
matches both played (the same shuffles, the same seats): each side A's win
rate there and the mean difference of its margins with a 95% interval over
the pairs of matches, so that a change to a bot is screened against the
ladder's row of the bot it changes with far fewer matches than two separate
rows need.  Each match is played
by :func:`trixcomplex.host.tournament.play_numbered_match`: matches ``2k`` and
``2k+1`` share their eight shuffles with the sides' seats exchanged.
Every finished match is appended to the ``--out`` file (JSON lines), so a
long run can be stopped at any time and summarized with ``--table``; a
rerun with the same file resumes where it stopped, and ``--start K`` plays
only the matches from index K, so that several processes can share one row
(each appends whole lines to the same ``--out``).  The results depend
only on the seed and the bots, not on the machine (bots run without a time
budget).  ``--ruleset NAME`` plays another game (a preset or a preset with
options, as records name them); in an individual ruleset a side wins when
the match's winner is one of its seats (see :mod:`trixcomplex.host.tournament`).
``--time`` gives each bot's CPU time per decision over the 12 card-play
decisions of ``benchmarks/bench.py``'s Monte Carlo row (median and range
of 5 passes), for the strength-vs-time table, with its ratio to the
yardstick (``bench.py``'s plain-Python card play) measured in the same pass:
how many yardstick card plays a decision costs.  Every match row also
records each side's CPU time per decision in that match (the table's last
column: mean over the rows).

The ladder of ``docs/bots.rst`` is this table::

    python benchmarks/strength.py --table benchmarks/ladder/*.jsonl

and its ratings table, one Bradley–Terry rating per bot and ruleset fitted from every
row of the ladder (``benchmarks/ratings.py``, the ``choix`` library), is::

    python benchmarks/strength.py --ratings
"""

from __future__ import annotations

import argparse
import ast
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

import attrs

from trixcomplex.bots import MC_WORLDS, Bot, MonteCarloBot, bot_named
from trixcomplex.core.rules import match_outcome
from trixcomplex.core.rulesets import PARTNERSHIP, Ruleset
from trixcomplex.host.tournament import MatchOutcome, play_numbered_match, summarize
from trixcomplex.io.records import Record

LADDER = Path(__file__).resolve().parent / "ladder"
"""The ladder's rows: the files of finished matches the docs' tables are made from."""


def sides(pair: str) -> list[str]:
    """The two bot names of ``pair``, split at the comma outside any ``[...]``.

    >>> sides("mc2[worlds=20,caution=0.5],rule")
    ['mc2[worlds=20,caution=0.5]', 'rule']
    """
    names, depth, start = [], 0, 0
    for i, char in enumerate(pair):
        depth += (char == "[") - (char == "]")
        if char == "," and depth == 0:
            names.append(pair[start:i])
            start = i + 1
    names.append(pair[start:])
    if len(names) != 2 or not all(names):
        raise ValueError(f"bad pair {pair!r}: give two bot names, A,B")
    return names


def _settings(name: str, text: str) -> dict[str, Any]:
    """The ``field=value`` settings of ``name[...]`` (values are literals or bare words)."""
    found: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        field, equals, value = (part.strip() for part in item.partition("="))
        if not equals or not field.isidentifier():
            raise ValueError(f"bad bot {name!r}: settings are field=value, not {item!r}")
        try:
            found[field] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            found[field] = value
    return found


def bot(name: str) -> Bot:
    """The bot called ``name``: ``mc:N:POLICY`` (POLICY ``rule``, ``rule2`` or ``random``), a name
    ending ``@S`` (a time budget of S CPU seconds), ``ismcts:N`` (OpenSpiel's ISMCTS, N
    simulations a move), a :func:`~trixcomplex.bots.bot_named` name, or any of these
    followed by ``[field=value,...]`` (its settings changed).

    >>> searcher = bot("mc2[worlds=20,caution=0.5]")
    >>> searcher.worlds, searcher.caution, searcher.endgame == bot("mc2").endgame
    (20, 0.5, True)
    >>> bot("rule[version=7]")
    Traceback (most recent call last):
    ValueError: bad bot 'rule[version=7]': 'version' must be in (1, 2) (got 7)
    """
    if name.endswith("]") and "[" in name:
        base, _, text = name[:-1].partition("[")
        changed, settings = bot(base), _settings(name, text)
        try:
            return attrs.evolve(changed, **settings)  # type: ignore[misc]
        except (TypeError, ValueError) as exc:  # attrs' validators: (message, field, ...)
            raise ValueError(f"bad bot {name!r}: {exc.args[0] if exc.args else exc}") from None
    name, _, budget = name.partition("@")
    if budget:
        timed = bot(name)
        assert isinstance(timed, MonteCarloBot), "a time budget is for Monte Carlo bots"
        return attrs.evolve(timed, worlds=MC_WORLDS, time_budget=float(budget))
    kind, _, policy = name.strip().lower().rpartition(":")
    if kind == "ismcts":
        from trixcomplex.rl.openspiel import ISMCTSPlayer  # needs the [openspiel] extra

        if not policy.isdigit():
            raise ValueError(f"bad bot {name!r}: ismcts:N plays N simulations a move")
        return ISMCTSPlayer(simulations=int(policy))
    if kind.startswith("mc:") and policy in ("rule", "rule2", "random"):
        worlds = bot_named(kind)
        assert isinstance(worlds, MonteCarloBot)
        return MonteCarloBot(worlds=worlds.worlds, policy=policy)
    return bot_named(name)


class _Timed:
    """A bot whose ``choose`` calls are counted and timed (CPU seconds of this process)."""

    def __init__(self, inner: Bot) -> None:
        self.inner, self.seconds, self.decisions = inner, 0.0, 0

    def choose(self, view: Any, legal: Any, rng: Any) -> Any:
        start = time.process_time()
        move = self.inner.choose(view, legal, rng)
        self.seconds += time.process_time() - start
        self.decisions += 1
        return move

    def wants_redeal(self, view: Any, rng: Any) -> bool:
        ask = getattr(self.inner, "wants_redeal", None)
        return bool(ask(view, rng)) if ask is not None else False

    def take(self) -> float:
        """The CPU milliseconds per decision since the last call."""
        ms = self.seconds / self.decisions * 1e3 if self.decisions else 0.0
        self.seconds, self.decisions = 0.0, 0
        return ms


def _run(pair: str, matches: int, seed: int, out: Path, ruleset: Ruleset, start: int = 0) -> None:
    names = sides(pair)
    bots = [_Timed(bot(n)) for n in names]
    done = (
        {json.loads(line)["index"] for line in out.read_text().splitlines()}
        if out.exists()
        else set()
    )
    machine = f"{platform.machine()} {platform.processor()}"
    head = {"pair": pair, "seed": seed, "ruleset": ruleset.name, "machine": machine}
    began = time.perf_counter()
    with out.open("a", encoding="utf-8") as file:
        for index in range(start, matches):
            if index in done:
                continue
            m = play_numbered_match(bots, seed, index, ruleset)
            row = {
                **head,
                "index": m.index,
                "sides_seats": list(m.sides_seats),
                "teams": list(m.teams),
                "margin": m.margin,
                "contract_points": [list(p) for p in m.contract_points],
                "seats": list(m.seats),
                "ms_per_decision": [round(b.take(), 4) for b in bots],
            }
            file.write(json.dumps(row) + "\n")
            file.flush()
            print(f"{pair}: match {index + 1}/{matches}, {time.perf_counter() - began:.0f}s",
                  file=sys.stderr)  # fmt: skip


def _outcome(r: dict[str, Any], ruleset: Ruleset) -> MatchOutcome:
    seats = tuple(r["seats"]) if "seats" in r else ()
    if seats:
        result, won = match_outcome(seats, ruleset)
    else:  # a file of the first version: partnership matches, margins only
        result, won = match_outcome([r["teams"][0], r["teams"][1], 0, 0], PARTNERSHIP)
    return MatchOutcome(
        index=r["index"],
        sides_seats=(r["sides_seats"][0], r["sides_seats"][1]),
        teams=(r["teams"][0], r["teams"][1]),
        result=result,
        margin=r["margin"],
        contract_points=tuple(tuple(p) for p in r["contract_points"]),
        record=Record(),
        contracts=ruleset.contracts,
        seats=seats,
        winners=won if seats else (),
    )


def _load(path: Path) -> tuple[str, int, str, list[MatchOutcome]]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if not rows:
        raise ValueError(f"{path} holds no finished match")
    ruleset = Ruleset.from_name(rows[0].get("ruleset", "partnership"))
    outcomes = [_outcome(r, ruleset) for r in rows]
    return rows[0]["pair"], rows[0]["seed"], ruleset.name, sorted(outcomes, key=lambda m: m.index)


def _table(paths: list[Path]) -> None:
    """Print the reStructuredText strength table of docs/bots.rst."""
    header = ("Side A vs side B", "n", "A wins (95% CI)", "draws", "mean margin A−B (95% CI)",
              "ms/decision A, B")  # fmt: skip
    rows = []
    for path in paths:
        pair, seed, ruleset, outcomes = _load(path)
        timed = [json.loads(line).get("ms_per_decision") for line in path.read_text().splitlines()]
        ms = [t for t in timed if t]
        cpu = (
            f"{sum(t[0] for t in ms) / len(ms):.2f}, {sum(t[1] for t in ms) / len(ms):.2f}"
            if ms
            else "–"
        )
        s = summarize(outcomes)
        a, b = sides(pair)
        game = "" if ruleset == "partnership" else f", {ruleset}"
        rows.append((
            f"{a} vs {b} (seed {seed}{game})",
            str(s.matches),
            f"{s.win_rate:.1%} ({s.win_ci[0]:.1%} – {s.win_ci[1]:.1%})",
            f"{s.draw_rate:.1%}",
            f"{s.mean_margin:+.0f} ({s.margin_ci[0]:+.0f} – {s.margin_ci[1]:+.0f})",
            cpu,
        ))  # fmt: skip
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    rule = "  ".join("=" * w for w in widths)
    print(rule)
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip())
    print(rule)
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    print(rule)


def _versus(path: Path, other: Path) -> None:
    """Print ``path``'s row against ``other``'s, match by match over the matches both
    played: side A's win rate in each and the mean difference of its margins."""
    pair, seed, ruleset, mine = _load(path)
    pair_b, seed_b, ruleset_b, theirs = _load(other)
    if (seed, ruleset) != (seed_b, ruleset_b):
        raise ValueError(f"{other} played seed {seed_b} of {ruleset_b}, not seed {seed} of "
                         f"{ruleset}: its matches are not these")  # fmt: skip
    by_index = {m.index: m for m in theirs}
    both = [(m, by_index[m.index]) for m in mine if m.index in by_index]
    if not both:
        raise ValueError(f"{path} and {other} have no match index in common")
    # summarize's margin and its interval over the pairs of matches, of the differences
    differences = summarize([attrs.evolve(m, margin=m.margin - t.margin) for m, t in both])
    mean, (low, high) = differences.mean_margin, differences.margin_ci
    wins = summarize([m for m, _ in both]).win_rate, summarize([t for _, t in both]).win_rate
    print(f"{pair} against {pair_b} on the same {len(both)} matches: side A wins "
          f"{wins[0]:.1%} against {wins[1]:.1%}; margin {mean:+.0f} a match "
          f"({low:+.0f} – {high:+.0f})")  # fmt: skip


def _time(names: list[str], passes: int = 5) -> None:
    """Print each bot's CPU milliseconds per decision (median [range] of ``passes``)."""
    import functools
    import random
    import statistics

    from bench import cpu, decisions, yardstick  # bench.py's decisions and yardstick

    asked = decisions(range(1, 4), 12)

    def decide(player: Bot) -> None:
        rng = random.Random(1)
        for v, legal in asked:
            player.choose(v, legal, rng)

    for name in names:
        player = bot(name)
        run = functools.partial(decide, player)
        figures, ratios = [], []
        for _ in range(passes):
            plays, stick = cpu(functools.partial(yardstick, random.Random(0), 20))
            ms = cpu(run)[1] / len(asked) * 1e3
            figures.append(ms)
            ratios.append(ms / (stick / plays * 1e3))
        print(f"{name:<16} {statistics.median(figures):7.2f} ms per decision "
              f"[{min(figures):.2f}–{max(figures):.2f}], {len(asked)} decisions; "
              f"= {statistics.median(ratios):,.0f} yardstick card plays")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pair", help="side A,side B bot names (random, rule, mc, mc:N)")
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument(
        "--start",
        type=int,
        default=0,
        help="play from this match index (split a row among processes sharing --out)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, help="JSON-lines file of finished matches")
    parser.add_argument("--table", type=Path, nargs="+", help="print the table of these files")
    parser.add_argument(
        "--ratings",
        type=Path,
        nargs="*",
        help="print every bot's rating (95%% CI) fitted from these rows (default: the ladder)",
    )
    parser.add_argument("--ruleset", default="partnership", help="the game (default partnership)")
    parser.add_argument("--time", nargs="+", help="time these bots per decision (ms)")
    parser.add_argument(
        "--versus", type=Path, help="compare --out with this row, match by match (same seed)"
    )
    args = parser.parse_args()
    if args.time:
        _time(args.time)
        return 0
    if args.ratings is not None:
        from ratings import table

        try:
            print(table(args.ratings or sorted(LADDER.glob("*.jsonl"))))
        except (OSError, ValueError) as exc:
            parser.error(str(exc))
        return 0
    if args.table:
        try:
            _table(args.table)
        except (OSError, ValueError) as exc:
            parser.error(str(exc))
        return 0
    if not args.pair:
        parser.error("give --pair A,B (or --table FILES)")
    try:
        ruleset = Ruleset.from_name(args.ruleset)
        for name in sides(args.pair):
            bot(name)  # a bad name fails before any match is played
    except ValueError as exc:
        parser.error(str(exc))
    out = args.out or Path(f"strength-{args.pair.replace(',', '-vs-').replace(':', '')}.jsonl")
    _run(args.pair, args.matches, args.seed, out, ruleset, args.start)
    try:
        _table([out])
        if args.versus:
            _versus(out, args.versus)
    except (OSError, ValueError) as exc:
        parser.error(str(exc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
