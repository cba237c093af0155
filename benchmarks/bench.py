"""How fast is trixcomplex: the goals of issue 16, measured in one run.

Run ``python benchmarks/bench.py`` (``nox -s bench``; ``--quick`` for a
short run).  It prints one row per goal, each with its median and range over
``--passes`` passes (at least 5) and PASS or FAIL against the goal:

========================================  ========================  ==========
row                                       figure                    goal
========================================  ========================  ==========
public API random self-play               card plays/s ÷ yardstick  >= 0.30
``tc.playout`` to the end of the match    card plays/s ÷ yardstick  >= 0.60
``sample_world``                          ms per world              <= 0.1
``MonteCarloBot()`` decision              ms per decision           <= 15
``simulate`` (two RandomBots) ÷ raw       time ratio                <= 1.5
``view()``, bad_hand_redeal, deal 20÷1    time ratio                <= 1.25
``from_json(state)``, late classic        ms                        <= 2
memory, all states of a match kept        bytes per state           <= 1024
``replay`` of a 29 MB record ÷ json       time ratio                <= 2
========================================  ========================  ==========

The record row (issue 25) reads a 29 MB record (a real match's moves
repeated, its second move illegal) as ``trixcomplex replay -`` does, through
the strict reader, until it refuses move 1, and divides by
:func:`json.loads` of the same text in the same pass (``--quick``: 6 MB).

**The yardstick** (:func:`yardstick`) is a tight plain-Python mutable
int-bitset playout of one COMPLEX-style trick deal and one TRIX deal: 52-bit
int hands, per-suit tables of the cards of every 13-bit suit pattern, the
TRIX playable set kept up to date incrementally, and a call to the random
generator only when there is a choice.  It counts card plays, and so do the
engine rows: a ratio is *engine card plays per second ÷ yardstick card plays
per second*, where the engine's time includes everything else a match does
(shuffles, contract choices, doubling answers, TRIX passes, scoring).  The
self-play driver (:func:`selfplay`) also draws a random move only when there
are two or more; ``tc.playout`` draws for every move (its contract: the
generator is used exactly as stepping with ``rng.choice`` uses it).

The machines this runs on are shared, so absolute times drift.  Every pass
times the yardstick and then the workload, back to back, and the ratio is
taken within the pass; the median pass and the range (lowest–highest) are
printed.  Times are CPU times of this process (``time.process_time``), so
waiting for a core is not counted.  A pass of the self-play and playout rows
plays 8 matches (about 40 ms of playouts), short enough that one run's
figure moves by 10–15% on a shared machine; ``--matches N`` makes every pass
N matches (the yardstick's deals with it), for a comparison of two builds
that must tell 2% apart (``alternate.py ... -- --only play --matches 40``).
``--hearts`` adds OpenSpiel's C++ Hearts driven from Python, as a reference
ratio (needs ``open_spiel``).

**The floor** (``benchmarks/floor.py``, the reference row printed first):
the yardstick's very games (the same draws, the same count of card plays,
checked at the start of the run) played through a ``legal_moves`` and an
``apply`` that build a new frozen state per move, as a public API of
immutable values must, with no checks, no scoring and one trick rule: the
ratio a pure-Python engine of immutable states can approach.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any, Literal, TypeVar

import trixcomplex as tc

T = TypeVar("T")

# -- the yardstick ------------------------------------------------------------


def _suit_tables() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``TABLE[suit][pattern]``: the cards (0–51) of ``suit`` with the ranks of ``pattern``."""
    per_pattern = [tuple(r for r in range(13) if m >> r & 1) for m in range(8192)]
    return tuple(tuple(tuple(13 * s + r for r in ranks) for ranks in per_pattern) for s in range(4))


_TABLE = _suit_tables()
_JACKS = sum(1 << (13 * s + 9) for s in range(4))


def _cards(mask: int) -> tuple[int, ...]:
    """The cards of a 52-bit set, through the per-suit tables."""
    t = _TABLE
    return (
        t[0][mask & 0x1FFF]
        + t[1][mask >> 13 & 0x1FFF]
        + t[2][mask >> 26 & 0x1FFF]
        + t[3][mask >> 39 & 0x1FFF]
    )


def yardstick(rng: random.Random, deals: int) -> int:
    """Play ``deals`` pairs of random deals (one trick deal, one TRIX deal); return the card plays.

    Trick deal: follow suit, the highest card of the led suit takes the trick
    and leads the next, 13 tricks.  TRIX deal: each suit's row starts with its
    Jack and grows at either end, a seat with nothing to lay passes, the deal
    ends when three seats are out.  A uniform random legal card per play,
    drawn only when there are two or more; no validation, no history, no
    scoring.  This is about the least a Python program can do per card, so
    the engine's speed is stated as a ratio to it.
    """
    plays = 0
    table = _TABLE
    choice = rng.choice
    deck = list(range(52))
    for _ in range(deals):
        # A trick deal.
        rng.shuffle(deck)
        hands = [0, 0, 0, 0]
        for i, card in enumerate(deck):
            hands[i & 3] |= 1 << card
        leader = 0
        for _trick in range(13):
            hand = hands[leader]
            choices = _cards(hand)
            card = choice(choices) if len(choices) > 1 else choices[0]
            hands[leader] = hand ^ (1 << card)
            led = card // 13
            shift = 13 * led
            suit = table[led]
            best, taker, seat = card, leader, (leader + 1) & 3
            for _ in range(3):
                hand = hands[seat]
                choices = suit[hand >> shift & 0x1FFF] or _cards(hand)
                card = choice(choices) if len(choices) > 1 else choices[0]
                hands[seat] = hand ^ (1 << card)
                if card > best and card // 13 == led:
                    best, taker = card, seat
                seat = (seat + 1) & 3
            leader = taker
        plays += 52
        # A TRIX deal.
        rng.shuffle(deck)
        hands = [0, 0, 0, 0]
        for i, card in enumerate(deck):
            hands[i & 3] |= 1 << card
        playable, out, seat = _JACKS, 0, 0
        while out < 3:
            hand = hands[seat]
            if hand:
                legal = hand & playable
                if legal:
                    choices = _cards(legal)
                    card = choice(choices) if len(choices) > 1 else choices[0]
                    hand ^= 1 << card
                    hands[seat] = hand
                    rank = card % 13
                    playable ^= 1 << card
                    if rank == 9:
                        playable |= 0b101 << (card - 1)
                    elif rank < 9:
                        if rank:
                            playable |= 1 << (card - 1)
                    elif rank < 12:
                        playable |= 1 << (card + 1)
                    plays += 1
                    if not hand:
                        out += 1
            seat = (seat + 1) & 3
    return plays


# -- the engine workloads -----------------------------------------------------


def card_plays(states: list[tc.MatchState]) -> int:
    """The card plays (both sides') in the histories of ``states``."""
    play = tc.Play
    return sum(type(m) is play for s in states for m in s.history)


def selfplay(seeds: range, ruleset: tc.Ruleset, engine: Any = tc) -> list[tc.MatchState]:
    """One random match per seed through ``legal_moves`` + ``apply``; the final states.

    Like the yardstick, the driver draws a random move only when there are two
    or more (a forced move is played without calling the generator), so the
    matches differ from :func:`playouts`' (which draws for every move, see
    ``tc.playout``); the counts of card plays are of the matches each played.
    ``engine`` as in :func:`match_states`.
    """
    out = []
    deal_phase, over = engine.Phase.DEAL, engine.Phase.OVER
    legal_moves, apply, shuffled = engine.legal_moves, engine.apply, engine.Deal.shuffled
    for seed in seeds:
        rng = random.Random(seed)
        choice = rng.choice
        state = engine.new_match(ruleset)
        while state.phase is not over:
            if state.phase is deal_phase:
                state = apply(state, shuffled(rng))
            else:
                moves = legal_moves(state)
                state = apply(state, choice(moves) if len(moves) > 1 else moves[0])
        out.append(state)
    return out


def playouts(
    seeds: range,
    ruleset: tc.Ruleset,
    forced: Literal["draw", "play"] = "draw",
    engine: Any = tc,
) -> list[tc.MatchState]:
    """Random matches, one per seed, with ``tc.playout`` (``forced`` passed on;
    ``engine`` as in :func:`match_states`)."""
    return [
        engine.playout(engine.new_match(ruleset), random.Random(s), until="match", forced=forced)
        for s in seeds
    ]


def match_states(seed: int, ruleset: tc.Ruleset, engine: Any = tc) -> list[tc.MatchState]:
    """Every state of one random match, as :func:`selfplay` plays it (``engine``: the
    package played with, ``trixcomplex`` or another build of it, ``side_by_side.py``)."""
    rng = random.Random(seed)
    state = engine.new_match(ruleset)
    states = [state]
    while state.phase is not engine.Phase.OVER:
        if state.phase is engine.Phase.DEAL:
            state = engine.apply(state, engine.Deal.shuffled(rng))
        else:
            state = engine.apply(state, rng.choice(engine.legal_moves(state)))
        states.append(state)
    return states


def memory_per_state(seed: int, ruleset: tc.Ruleset) -> float:
    """Bytes allocated per state to keep every state of one match (``tracemalloc``).

    Interned objects built at import time (cards, Play/Pass moves) are shared
    by every match and not counted.
    """
    match_states(seed, ruleset)  # warm caches and interned tables outside the trace
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    states = match_states(seed, ruleset)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / len(states)


def playing_views(seeds: range, ruleset: tc.Ruleset, every: int) -> list[tc.View]:
    """Views of every ``every``-th state of random matches, for the seat to act (or seat 0)."""
    views = []
    for seed in seeds:
        for i, state in enumerate(match_states(seed, ruleset)):
            if i % every or state.phase in (tc.Phase.DEAL, tc.Phase.OVER):
                continue
            seat = state.turn if state.turn is not None else min(state.to_act, default=0)
            views.append(tc.view(state, seat))
    return views


def decisions(
    seeds: range, count: int, engine: Any = tc
) -> list[tuple[tc.View, tuple[tc.PlayerMove, ...]]]:
    """``count`` card-play decisions with a real choice (two or more legal moves), partnership
    (``engine`` as in :func:`match_states`)."""
    out: list[tuple[tc.View, tuple[tc.PlayerMove, ...]]] = []
    for seed in seeds:
        for i, state in enumerate(match_states(seed, engine.PARTNERSHIP, engine)):
            if i % 11 or not (state.phase.plays_tricks or state.phase is engine.Phase.TRIX):
                continue
            legal = engine.legal_moves(state, state.turn)
            if len(legal) > 1:
                out.append((engine.view(state, state.turn), legal))
            if len(out) == count:
                return out
    return out


def just_dealt(seeds: range, ruleset: tc.Ruleset, number: int) -> list[tc.MatchState]:
    """The state just after the (first) Deal of deal ``number`` in random matches."""
    out = []
    for seed in seeds:
        for state in match_states(seed, ruleset):
            if state.deal_number == number and type(state.history.last) is tc.Deal:
                out.append(state)
                break
    return out


def big_record(seed: int, size: int) -> str:
    """A record of about ``size`` characters: a real match's moves repeated, the second
    move illegal (the shape of issue 25's 29 MB record)."""
    final = tc.playout(tc.new_match(), random.Random(seed), until="match")
    record = tc.Record.of(final).to_json()
    moves = record["moves"]
    each = len(json.dumps(moves))
    record["moves"] = [moves[0], {"move": "pass", "seat": 1}] + moves * max(1, size // each)
    return json.dumps(record)


def replay_text(text: str) -> int:
    """``trixcomplex replay -`` of ``text`` (JSON output): its exit status."""
    from trixcomplex.cli.replay import run_replay

    out = io.StringIO()
    return run_replay("-", as_json=True, stdin=io.StringIO(text), stdout=out, stderr=out)


def late_state(seed: int) -> tc.MatchState:
    """A classic match's state in the middle of its last deal."""
    states = match_states(seed, tc.CLASSIC)
    last = [s for s in states if s.deal_number == 20 and s.phase is not tc.Phase.OVER]
    return last[len(last) // 2]


def hearts_selfplay(games: int, seed: int) -> int:
    """Random OpenSpiel Hearts games driven from Python; return the card plays."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    plays = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions = [a for a, _ in state.chance_outcomes()]
            else:
                actions = state.legal_actions()
            state.apply_action(rng.choice(actions) if len(actions) > 1 else actions[0])
        plays += 52
    return plays


def move_kind(state: tc.MatchState, move: tc.Move) -> str:
    """What kind of move ``move`` is at ``state``, for :func:`by_move`."""
    deal = state.deal
    if type(move) is tc.Play and type(deal) is tc.TrickDeal:
        if len(deal.trick) < 3:
            return f"trick card {len(deal.trick) + 1}"
        nxt = tc.apply(state, move)
        return "a trick deal's last card" if nxt.deal is None else "trick card 4"
    if type(move) is tc.Play:
        return "TRIX card" if tc.apply(state, move).deal is not None else "a TRIX deal's last card"
    return {tc.Pass: "TRIX pass", tc.Double: "doubling answer", tc.Choose: "contract choice"}.get(
        type(move), type(move).__name__
    )


def by_move(seeds: range, ruleset: tc.Ruleset, passes: int) -> None:
    """Print what ``legal_moves`` + ``apply`` cost per kind of move over random matches
    (the self-play row's moves; ``--by-move``).

    Every (state, move) of the matches is recorded first; each kind's moves are
    then timed together (``legal_moves(state)`` then ``apply(state, move)``; a
    Deal is only applied), median of ``passes``, with the garbage collector
    paused.  Timed apart, each kind runs a little faster than mixed in a match.
    """
    pairs: list[tuple[tc.MatchState, tc.Move]] = []
    for seed in seeds:
        rng = random.Random(seed)
        state = tc.new_match(ruleset)
        while not state.is_over:
            if state.phase is tc.Phase.DEAL:
                move: tc.Move = tc.Deal.shuffled(rng)
            else:
                moves = tc.legal_moves(state)
                move = rng.choice(moves) if len(moves) > 1 else moves[0]
            pairs.append((state, move))
            state = tc.apply(state, move)
    plays = sum(type(m) is tc.Play for _, m in pairs)
    kinds: dict[str, list[tuple[tc.MatchState, tc.Move]]] = {}
    for state, move in pairs:
        kinds.setdefault(move_kind(state, move), []).append((state, move))
    legal_moves, apply, deal = tc.legal_moves, tc.apply, tc.Deal

    def step(group: list[tuple[tc.MatchState, tc.Move]]) -> None:
        for state, move in group:
            if type(move) is not deal:
                legal_moves(state)
            apply(state, move)

    def median_seconds(group: list[tuple[tc.MatchState, tc.Move]]) -> float:
        times = []
        for _ in range(passes):
            start = time.process_time()
            step(group)
            times.append(time.process_time() - start)
        return statistics.median(times)

    gc.collect()
    gc.disable()
    try:
        whole = median_seconds(pairs)
        rows = [(name, len(group), median_seconds(group)) for name, group in kinds.items()]
    finally:
        gc.enable()
    matches = len(seeds)
    print(f"legal_moves + apply by kind of move, {matches} {ruleset.name} matches "
          f"({plays} card plays), garbage collector paused\n")  # fmt: skip
    print(
        f"{'kind of move':<28} {'per match':>9} {'µs/move':>8} {'µs/match':>9} {'µs/card play':>13}"
    )
    for name, count, seconds in sorted(rows, key=lambda r: -r[2]):
        print(
            f"{name:<28} {count / matches:>9.1f} {seconds / count * 1e6:>8.2f} "
            f"{seconds / matches * 1e6:>9.0f} {seconds / plays * 1e6:>13.3f}"
        )
    total = sum(r[2] for r in rows)
    print(f"{'sum of the kinds':<28} {'':>9} {'':>8} {total / matches * 1e6:>9.0f} "
          f"{total / plays * 1e6:>13.3f}")  # fmt: skip
    print(f"{'the moves in match order':<28} {'':>9} {'':>8} {whole / matches * 1e6:>9.0f} "
          f"{whole / plays * 1e6:>13.3f}")  # fmt: skip


# -- timing -------------------------------------------------------------------


def cpu(work: Callable[[], T]) -> tuple[T, float]:
    """Run ``work`` once; return its result and the CPU seconds it took."""
    gc.collect()
    start = time.process_time()
    result = work()
    return result, time.process_time() - start


def cpu_model() -> str:
    """The CPU model named in /proc/cpuinfo, if there is one."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


class Bench:
    """The rows, each timed over ``passes`` passes; :meth:`row` prints one."""

    def __init__(self, passes: int, yard_deals: int, seed: int) -> None:
        self.passes = passes
        self.yard_deals = yard_deals
        self.seed = seed
        self.failed: list[str] = []

    def yard_rate(self) -> float:
        plays, seconds = cpu(lambda: yardstick(random.Random(self.seed), self.yard_deals))
        assert isinstance(plays, int)
        return plays / seconds

    def ratio_row(
        self, name: str, work: Callable[[], list[tc.MatchState]], goal: float | None
    ) -> None:
        """Engine card plays/s ÷ yardstick card plays/s, per pass; higher is better.
        Without a ``goal`` the row is a reference, printed without PASS or FAIL."""
        ratios, rates = self.plays_ratios(work, card_plays)
        extra = f"{statistics.median(rates):>9,.0f} card plays/s"
        if goal is None:
            self.reference(name, ratios, extra)
            return
        self.report(name, ratios, goal, higher=True, unit="x", extra=extra)

    def plays_ratios(
        self, work: Callable[[], T], count: Callable[[T], int]
    ) -> tuple[list[float], list[float]]:
        """Per pass, the yardstick timed and then ``work``: the ratio of their card
        plays/s, and ``work``'s card plays/s.  ``count`` reads the card plays off
        ``work``'s result, outside the timing."""
        ratios, rates = [], []
        for _ in range(self.passes):
            yard = self.yard_rate()
            done, seconds = cpu(work)
            rate = count(done) / seconds
            rates.append(rate)
            ratios.append(rate / yard)
        return ratios, rates

    def reference(self, name: str, ratios: list[float], extra: str = "") -> None:
        """Print a reference row: its ratios' median and range, without a goal."""
        line = (
            f"{'(reference) ' + name:<44} {statistics.median(ratios):>8.3f}x  "
            f"[{min(ratios):.3f}–{max(ratios):.3f}]"
        )
        print(line + (f"{'':<30}{extra}" if extra else ""), flush=True)

    def time_row(
        self, name: str, work: Callable[[], object], per: int, goal: float, scale: float = 1e3
    ) -> None:
        """CPU time of ``work`` ÷ ``per`` (in ms by default), per pass; lower is better."""
        figures = []
        for _ in range(self.passes):
            _, seconds = cpu(work)
            figures.append(seconds / per * scale)
        self.report(name, figures, goal, higher=False, unit=" ms" if scale == 1e3 else "")

    def versus_row(
        self, name: str, slow: Callable[[], object], fast: Callable[[], object], goal: float
    ) -> None:
        """CPU time of ``slow`` ÷ CPU time of ``fast``, per pass (back to back); lower is better."""
        ratios = []
        for _ in range(self.passes):
            _, a = cpu(slow)
            _, b = cpu(fast)
            ratios.append(a / b)
        self.report(name, ratios, goal, higher=False, unit="x")

    def report(
        self, name: str, figures: list[float], goal: float, *, higher: bool, unit: str,
        extra: str = "",
    ) -> None:  # fmt: skip
        med = statistics.median(figures)
        ok = med >= goal if higher else med <= goal
        if not ok:
            self.failed.append(name)
        sign = ">=" if higher else "<="
        digits = 3 if med < 10 else 1
        spread = f"[{min(figures):.{digits}f}–{max(figures):.{digits}f}]"
        print(
            f"{name:<44} {med:>8.{digits}f}{unit:<3} {spread:<17} "
            f"goal {sign} {goal:g}{unit.strip():<2}"
            f"  {'PASS' if ok else 'FAIL'}  {extra}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run (smaller passes)")
    parser.add_argument("--passes", type=int, default=5, help="passes per row (at least 5)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument(
        "--matches", type=int,
        help="matches a pass of the self-play and playout rows (default 8, quick 3; the "
        "yardstick's deals scale with it): longer passes for a comparison of two builds",
    )  # fmt: skip
    parser.add_argument("--hearts", action="store_true", help="add OpenSpiel Hearts as a reference")
    parser.add_argument("--only", help="run only the rows whose name contains this text")
    parser.add_argument(
        "--by-move", action="store_true",
        help="print what legal_moves + apply cost per kind of move (no rows)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    passes = max(5, args.passes)
    matches = args.matches if args.matches is not None else 3 if args.quick else 8
    if matches < 1:
        parser.error("--matches must be at least 1")
    seeds = range(args.seed, args.seed + matches)
    if args.by_move:
        by_move(range(args.seed, args.seed + 4 * matches), tc.PARTNERSHIP, passes)
        return 0
    bench = Bench(passes, yard_deals=matches * 8, seed=args.seed)

    print(f"trixcomplex {tc.__version__}, Python {platform.python_version()}, ", end="")
    print(f"{os.cpu_count()} CPUs: {cpu_model()}")
    print(f"median [lowest–highest] of {passes} passes; CPU time; ratios within each pass\n")
    yard = statistics.median(bench.yard_rate() for _ in range(passes))
    print(f"{'yardstick (one trick deal + one TRIX deal)':<44} {yard:>10,.0f} card plays/s\n")

    def wanted(name: str) -> bool:
        return args.only is None or args.only in name

    partnership = tc.PARTNERSHIP
    if wanted("floor"):
        from floor import floor

        assert floor(random.Random(args.seed), 4) == yardstick(random.Random(args.seed), 4)
        ratios, _ = bench.plays_ratios(
            lambda: floor(random.Random(args.seed), bench.yard_deals), int
        )
        bench.reference("immutable floor (floor.py)", ratios)
    if wanted("self-play"):
        bench.ratio_row("public API random self-play", lambda: selfplay(seeds, partnership), 0.30)
    if wanted("playout"):
        bench.ratio_row(
            "tc.playout to the end of the match", lambda: playouts(seeds, partnership), 0.60
        )
        bench.ratio_row(
            "tc.playout, forced='play'", lambda: playouts(seeds, partnership, "play"), None
        )
    if wanted("sample_world"):
        views = playing_views(range(args.seed, args.seed + 2), partnership, 7) + playing_views(
            range(args.seed, args.seed + 1), tc.CLASSIC, 13
        )
        sample = tc.sample_world

        def worlds() -> None:
            rng = random.Random(args.seed)
            for v in views:
                sample(v, rng)

        bench.time_row(f"sample_world ({len(views)} views)", worlds, len(views), 0.1)
    if wanted("MonteCarlo"):
        from trixcomplex.bots import MonteCarloBot

        bot = MonteCarloBot()
        asked = decisions(range(args.seed, args.seed + 3), 6 if args.quick else 12)

        def decide() -> None:
            rng = random.Random(args.seed)
            for v, legal in asked:
                bot.choose(v, legal, rng)

        bench.time_row(f"MonteCarloBot() decision ({len(asked)})", decide, len(asked), 15)
    if wanted("simulate"):
        from trixcomplex.bots import RandomBot

        n = 2 if args.quick else 4
        bench.versus_row(
            "simulate(2 RandomBots) / raw self-play",
            lambda: tc.simulate([RandomBot(), RandomBot()], matches=n, seed=args.seed),
            lambda: selfplay(range(args.seed, args.seed + n), partnership),
            1.5,
        )
    if wanted("view"):
        redeal = tc.Ruleset.from_name("classic+bad_hand_redeal=True")
        few = range(args.seed, args.seed + (2 if args.quick else 4))
        first, last = just_dealt(few, redeal, 1), just_dealt(few, redeal, 20)
        view = tc.view

        def views_of(states: list[tc.MatchState]) -> Callable[[], None]:
            def run() -> None:
                for _ in range(50):
                    for s in states:
                        for seat in range(4):
                            view(s, seat)

            return run

        bench.versus_row(
            "view(), bad_hand_redeal, deal 20 / deal 1", views_of(last), views_of(first), 1.25
        )
    if wanted("from_json"):
        state = late_state(args.seed)
        data = tc.to_json(state)
        from_json = tc.from_json
        assert from_json(tc.MatchState, data) == state

        def load() -> None:
            for _ in range(20):
                from_json(tc.MatchState, data)

        bench.time_row(
            f"from_json(state), classic deal 20 ({len(state.history)} moves)", load, 20, 2
        )
    if wanted("record"):
        size = 6_000_000 if args.quick else 29_000_000
        text = big_record(args.seed, size)
        assert replay_text(text) == 1  # refused at move 1, as issue 25's record is
        bench.versus_row(
            f"replay of a {len(text) / 1e6:.0f} MB record / json.loads",
            lambda: replay_text(text),
            lambda: json.loads(text),
            2,
        )
    if wanted("memory"):
        figures = [memory_per_state(args.seed + i, partnership) for i in range(passes)]
        bench.report("memory, all states of a match kept (B/state)", figures, 1024,
                     higher=False, unit="")  # fmt: skip
    if args.hearts:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            print("OpenSpiel Hearts: open_spiel is not installed")
        else:
            ratios, _ = bench.plays_ratios(lambda: hearts_selfplay(matches * 8, args.seed), int)
            bench.reference("OpenSpiel C++ Hearts from Python", ratios)
    print(f"\n{'all rows PASS' if not bench.failed else 'FAIL: ' + ', '.join(bench.failed)}")
    return 1 if bench.failed else 0


if __name__ == "__main__":
    sys.exit(main())
