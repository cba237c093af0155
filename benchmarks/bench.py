"""How fast is trixcomplex, measured against a plain-Python yardstick.

Run ``python benchmarks/bench.py`` (``--quick`` for a short run).  It prints,
in one run:

1. random self-play of complete matches through the public API
   (``legal_moves`` + ``apply`` with full validation, ``rng.choice`` of the
   legal moves, ``Deal.shuffled`` for the deals): moves/s and matches/s;
2. the same matches through :func:`trixcomplex.playout`: moves/s;
3. a minimal mutable trick-taking playout in plain Python (the yardstick,
   :func:`yardstick` below): card plays/s, and every figure above as a ratio
   to it;
4. the memory of keeping every state of one complete match, per state.

``--ruleset NAME`` (a preset or a variant, e.g. ``classic`` or
``classic-partnership+bad_hand_redeal=True``) plays matches of that ruleset
instead of the default game; the yardstick stays the same.

The machines this runs on are shared, so absolute times drift; the ratios to
the yardstick (measured in the same run, interleaved) are the figures to
compare.  Times are CPU times of this process (``time.process_time``), so
waiting for a core while other processes run is not counted.  Every
workload is timed ``--repeat`` times on the same seeds, the workloads
interleaved round by round; the *best* (fastest) round is reported, because
noise from other processes (cache and frequency effects) only ever makes a
round slower.  The median round is printed beside it.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable

import trixcomplex as tc

# -- the yardstick ------------------------------------------------------------

_SUIT = tuple(0x1FFF << (13 * s) for s in range(4))


def yardstick(rng: random.Random, deals: int) -> int:
    """Play ``deals`` random trick-taking deals on mutable locals; return the card plays.

    52-bit int hands, follow suit, the highest card of the led suit takes the
    trick and leads the next; a uniform random legal card per play; no
    validation, no history, no scoring.  This is about the least a Python
    program can do per card, so the engine's speed is stated as a ratio to it.
    """
    plays = 0
    cards = list(range(52))
    for _ in range(deals):
        rng.shuffle(cards)
        hands = [0, 0, 0, 0]
        for i, card in enumerate(cards):
            hands[i & 3] |= 1 << card
        leader = 0
        for _trick in range(13):
            seat, led, best, taker = leader, -1, -1, leader
            for _ in range(4):
                hand = hands[seat]
                legal = hand & _SUIT[led] if led >= 0 else 0
                if not legal:
                    legal = hand
                choices = []
                while legal:
                    low = legal & -legal
                    choices.append(low.bit_length() - 1)
                    legal ^= low
                card = rng.choice(choices)
                hands[seat] = hand ^ (1 << card)
                if led < 0:
                    led = card // 13
                if card // 13 == led and card > best:
                    best, taker = card, seat
                seat = (seat + 1) & 3
            leader = taker
            plays += 4
    return plays


# -- the engine workloads -----------------------------------------------------


def new_match(ruleset: str | None = None) -> tc.MatchState:
    """A new match of the named ruleset (the default game for ``None``, as older
    versions of trixcomplex have it)."""
    if ruleset is None:
        return tc.new_match()
    return tc.new_match(tc.Ruleset.from_name(ruleset))


def selfplay(seeds: range, ruleset: str | None = None) -> int:
    """Play one random match per seed through ``legal_moves`` + ``apply``; return the moves."""
    moves = 0
    deal_phase, over = tc.Phase.DEAL, tc.Phase.OVER
    legal_moves, apply, shuffled = tc.legal_moves, tc.apply, tc.Deal.shuffled
    for seed in seeds:
        rng = random.Random(seed)
        choice = rng.choice
        state = new_match(ruleset)
        while state.phase is not over:
            if state.phase is deal_phase:
                state = apply(state, shuffled(rng))
            else:
                state = apply(state, choice(legal_moves(state)))
        moves += len(state.history)
    return moves


def playouts(seeds: range, ruleset: str | None = None) -> int:
    """Play the same matches as :func:`selfplay` with ``tc.playout``; return the moves."""
    moves = 0
    for seed in seeds:
        state = tc.playout(new_match(ruleset), random.Random(seed), until="match")
        moves += len(state.history)
    return moves


def match_states(seed: int, ruleset: str | None = None) -> list[tc.MatchState]:
    """Every state of one random match, as :func:`selfplay` plays it."""
    rng = random.Random(seed)
    state = new_match(ruleset)
    states = [state]
    while state.phase is not tc.Phase.OVER:
        if state.phase is tc.Phase.DEAL:
            state = tc.apply(state, tc.Deal.shuffled(rng))
        else:
            state = tc.apply(state, rng.choice(tc.legal_moves(state)))
        states.append(state)
    return states


def memory_per_state(seed: int, ruleset: str | None = None) -> tuple[int, float]:
    """The number of states of one match and the bytes allocated per state to keep them all.

    Measured with ``tracemalloc``: everything the match allocated and still
    holds (states, hands, tricks, history nodes, the Deal moves) divided by
    the number of states.  Interned objects (cards, Play/Pass moves) built at
    import time are not counted, as they are shared by every match.
    """
    match_states(seed, ruleset)  # warm up caches and interned tables outside the trace
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    states = match_states(seed, ruleset)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return len(states), (after - before) / len(states)


# -- timing -------------------------------------------------------------------


def timed(work: Callable[[], int]) -> tuple[int, float]:
    """Run ``work`` once; return its count and the CPU seconds it took."""
    gc.collect()
    start = time.process_time()
    count = work()
    return count, time.process_time() - start


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run (fewer, shorter rounds)")
    parser.add_argument("--matches", type=int, help="matches per round (default 10, quick 4)")
    parser.add_argument("--repeat", type=int, help="rounds per workload (default 25, quick 8)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--ruleset", help="play matches of this ruleset (default: partnership)")
    args = parser.parse_args(argv)
    matches = args.matches or (4 if args.quick else 10)
    repeat = args.repeat or (8 if args.quick else 25)
    seeds = range(args.seed, args.seed + matches)
    yard_deals = matches * 8

    print(f"trixcomplex {tc.__version__}, Python {platform.python_version()}, ", end="")
    print(f"{os.cpu_count()} CPUs: {cpu_model()}")
    print(f"ruleset {args.ruleset or 'partnership'}: ", end="")
    print(f"{matches} matches per round, best of {repeat} rounds (median in brackets)\n")

    # Interleave the workloads round by round so drift hits them alike.
    names = ["yardstick", "api", "playout"]
    if not hasattr(tc, "playout"):  # an older trixcomplex, for before/after figures
        names.remove("playout")
    works: dict[str, Callable[[], int]] = {
        "yardstick": lambda: yardstick(random.Random(args.seed), yard_deals),
        "api": lambda: selfplay(seeds, args.ruleset),
        "playout": lambda: playouts(seeds, args.ruleset),
    }
    times: dict[str, list[float]] = {n: [] for n in names}
    counts: dict[str, int] = {}
    for round_ in range(repeat):
        k = round_ % len(names)
        for name in names[k:] + names[:k]:  # rotate the order too
            counts[name], seconds = timed(works[name])
            times[name].append(seconds)

    def rate(name: str) -> tuple[float, float]:
        return counts[name] / min(times[name]), counts[name] / statistics.median(times[name])

    yard, yard_med = rate("yardstick")
    api, api_med = rate("api")
    api_matches = matches / min(times["api"])
    print(f"yardstick (mutable trick-taking)  {yard:>10,.0f} card plays/s  [{yard_med:,.0f}]")
    print(
        f"public API self-play              {api:>10,.0f} moves/s       [{api_med:,.0f}]"
        f"  {api_matches:6.1f} matches/s   ratio {api / yard:.3f}  (target >= 0.25)"
    )
    if "playout" in names:
        fast, fast_med = rate("playout")
        print(
            f"tc.playout                        {fast:>10,.0f} moves/s       [{fast_med:,.0f}]"
            f"                       ratio {fast / yard:.3f}  (target >= 0.5)"
        )
        if counts["playout"] != counts["api"]:
            print("WARNING: tc.playout played other matches than the public API did")
            return 1
    print(f"  (a match is {counts['api'] / matches:.0f} moves on average, Deals included)")
    n, per_state = memory_per_state(args.seed, args.ruleset)
    print(
        f"\nmemory, all {n} states of one match kept: {per_state:,.0f} bytes per state"
        "  (target < 1024)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
