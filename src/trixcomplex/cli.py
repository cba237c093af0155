"""The ``trixcomplex`` command: demo, play, simulate and replay.

- ``trixcomplex demo [--seed N] [--bots rule]``: one whole match between bots,
  deal by deal, then the scoresheet and the winner.
- ``trixcomplex play [--seat N] [--bots rule,rule,rule] [--seed N]``: play a
  match in the terminal against three bots.
- ``trixcomplex simulate --bots rule,random --matches 1000 [--jobs N] [--seed N]
  [--records DIR]``: a tournament, with a progress bar and a summary table.
- ``trixcomplex replay FILE [--json]``: check and score a game record.

``demo``, ``play`` and ``simulate`` take ``--ruleset NAME``: a preset
(``partnership``, the default, ``individual-complex``, ``classic``,
``classic-partnership``) or a preset with options, as records name them
(``classic+doubling=False,fixed_order=True``).

``rich`` (the ``cli`` extra) draws the progress bar and the tables when it is
installed; without it everything is plain text.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path
from typing import Any, TextIO

from .bots import BOT_NAMES, Bot, bot_named
from .bots.base import ask, offer_redeal
from .cards import Card, CardParseError, Suit, parse_card
from .engine import DealResult, MatchResult, MatchState, Phase, apply, legal_moves, new_match, score
from .moves import Choose, Contract, Deal, Double, Move, Pass, Play, PlayerMove, Redeal
from .records import run_replay
from .render import move_text
from .rules import redeal_seat, trick_points, trick_winner
from .rulesets import PARTNERSHIP, RULESETS, Ruleset
from .scoresheet import format_scoresheet
from .simulate import Tournament, play_match, simulate
from .views import View, view

__all__ = ["main"]


class _EndOfInput(Exception):
    """Standard input ended while the player was asked for a move."""


# -- shared bits ----------------------------------------------------------------


def _bot_list(text: str) -> list[str]:
    names = [n.strip().lower() for n in text.split(",")]
    for name in names:
        try:
            bot_named(name)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return names


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}")
    return value


def _seat(text: str) -> int:
    if text not in ("0", "1", "2", "3"):
        raise argparse.ArgumentTypeError(f"a seat is 0, 1, 2 or 3, not {text!r}")
    return int(text)


def _ruleset(text: str) -> Ruleset:
    try:
        return Ruleset.from_name(text.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _seat_rngs(seed: int) -> list[random.Random]:
    return [random.Random(f"trixcomplex:{seed}:seat:{s}") for s in range(4)]


def _cards(cards: Sequence[Card] | frozenset[Card]) -> str:
    return " ".join(c.symbol for c in sorted(cards)) or "nothing"


def _took(deal: DealResult, ruleset: Ruleset = PARTNERSHIP) -> list[str]:
    """Who took what in a finished deal, one line per seat: only what the
    contract charges (R-CX-5; R-CL-2 … R-CL-5: K♥, Queens, diamonds, tricks)."""
    lines = []
    if deal.contract is Contract.TRIX:
        order = ", ".join(f"seat {s}" for s in deal.finishing_order)
        return [f"  finishing order: {order}"]
    rules = ruleset.trick_rules(deal.contract)
    for s, b in enumerate(deal.seats):
        parts = []
        if rules.trick:
            parts.append(f"{b.tricks} trick{'s' if b.tricks != 1 else ''}")
        if b.diamonds and rules.diamond:
            parts.append(f"{b.diamonds} ♦")
        if b.queens and rules.queen:
            parts.append(" ".join(q.symbol for q in b.queens))
        if b.king_of_hearts and rules.king_of_hearts:
            parts.append("K♥")
        took = ", ".join(parts) or "nothing that counts"
        lines.append(f"  seat {s} took {took}: {deal.points[s]:+d}")
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


def _deal_notes(state: MatchState) -> dict[int, list[str]]:
    """What happened before each deal's play, by deal number: redeals, who chose."""
    notes: dict[int, list[str]] = {}
    number = 0
    last: Move | None = None
    for move in state.history.moves():
        if isinstance(move, Deal) and not isinstance(last, Redeal):
            number += 1
        elif isinstance(move, Redeal):
            notes.setdefault(number, []).append(
                f"  TRIX was chosen and seat {move.seat} demanded a redeal (R-OPT-8): "
                "the deal was dealt again"
            )
        elif isinstance(move, Choose):
            notes.setdefault(number, []).append(f"chosen by seat {move.seat}")
        last = move
    return notes


# -- demo -----------------------------------------------------------------------


def _demo(args: argparse.Namespace) -> int:
    if len(args.bots) not in (1, 4):
        print("trixcomplex demo: error: --bots takes 1 or 4 bot names", file=sys.stderr)
        return 2
    names = args.bots if len(args.bots) == 4 else [args.bots[0]] * 4
    bots = [bot_named(n) for n in names]
    ruleset: Ruleset = args.ruleset
    state = play_match(bots, random.Random(args.seed), _seat_rngs(args.seed), ruleset=ruleset)
    print(f"trixcomplex demo, seed {args.seed}: " + ", ".join(
        f"seat {s} {type(b).__name__}" for s, b in enumerate(bots)
    ) + ("" if ruleset is PARTNERSHIP else f"; ruleset {ruleset.name}"))  # fmt: skip
    notes = _deal_notes(state)
    per = ruleset.deals_per_kingdom
    for deal in state.results:
        print()
        lines = notes.get(deal.number, [])
        chosen = [n for n in lines if n.startswith("chosen")]
        if chosen:
            how = chosen[-1]
        elif ruleset.fixed_order:
            how = "in the fixed order"
        else:
            how = "the other contract" if per == 2 else "the last contract"
        print(
            f"Deal {deal.number}, Kingdom {deal.kingdom}, owner seat {deal.owner}: "
            f"{deal.contract.value} ({how})"
        )
        for line in lines:
            if not line.startswith("chosen"):
                print(line)
        if deal.contract.is_trick_contract and ruleset.trick_rules(deal.contract).doublable:
            if deal.doubled:
                for d in deal.doubled:
                    print(
                        f"  seat {d.doubler} doubled {d.card.symbol}; seat {d.taker} took it "
                        f"(case {d.case})"
                    )
            else:
                print("  no doubles")
        for line in _took(deal, ruleset):
            print(line)
    print()
    print(format_scoresheet(state))
    print(_winner_line(state))
    return 0


# -- play -----------------------------------------------------------------------


def _hand_text(hand: Sequence[Card]) -> str:
    parts = []
    for suit in Suit:
        cards = [c for c in hand if c.suit is suit]
        ranks = " ".join(c.symbol[:-1] for c in cards) or "-"
        parts.append(f"{suit.symbol} {ranks}")
    return "   ".join(parts)


def _show_table(v: View, out: TextIO) -> None:
    print(
        f"\nDeal {v.deal_number} (Kingdom {v.kingdom}), owner seat {v.owner}"
        + (f", {v.contract.value}" if v.contract is not None else ""),
        file=out,
    )
    if v.phase.plays_tricks:
        if v.doubled:
            print(
                "Doubled: " + ", ".join(f"{c.symbol} by seat {d}" for c, d in v.doubled), file=out
            )
        if v.trick:
            shown = ", ".join(
                f"seat {(v.leader or 0) + i & 3} {c.symbol}" for i, c in enumerate(v.trick)
            )
            print(f"Trick: {shown}", file=out)
        else:
            print("You lead the trick.", file=out)
        print(f"Points this deal: {', '.join(f'seat {s} {p:+d}' for s, p in enumerate(v.points))}",
              file=out)  # fmt: skip
    elif v.phase is Phase.TRIX:
        rows = []
        for suit in Suit:
            row = v.rows[suit]
            if row is None:
                rows.append(f"{suit.symbol} -")
            else:
                lo, hi = (Card.of(r, suit).symbol[:-1] for r in row)
                rows.append(f"{suit.symbol} {lo}..{hi}" if lo != hi else f"{suit.symbol} {lo}")
        print("Rows: " + "   ".join(rows), file=out)
        sizes = ", ".join(f"seat {s} {n}" for s, n in enumerate(v.hand_sizes))
        print(f"Cards left: {sizes}", file=out)
    print(f"Your hand (seat {v.seat}): {_hand_text(v.hand)}", file=out)


_CONTRACT_NAMES = {c.value.lower(): c for c in Contract}  # "king of hearts", "ltoosh", …
_PART_ORDER = {c.value.lower(): i for i, c in enumerate(Contract)}


def _parse_answer(text: str, legal: Sequence[PlayerMove]) -> PlayerMove | str:
    """The move named by ``text``, or an error message for the player."""
    answer = text.strip()
    low = answer.lower()
    if answer.isdigit():
        number = int(answer)
        if 1 <= number <= len(legal):
            return legal[number - 1]
        return f"{answer} is not a move number: choose 1 to {len(legal)}"
    if low == "pass":
        passes = [m for m in legal if isinstance(m, Pass)]
        return passes[0] if passes else "you cannot pass: you hold a legal card (R-TX-3)"
    if low == "redeal":
        redeals = [m for m in legal if isinstance(m, Redeal)]
        return redeals[0] if redeals else "you cannot demand a redeal now (R-OPT-8)"
    # "queens+diamonds", "Diamonds + Queens": a combined contract (R-OPT-9), any order
    named = "+".join(
        sorted(
            (w.strip().replace(" ", "_").replace("-", "_") for w in low.split("+")),
            key=lambda w: _PART_ORDER.get(w, -1),
        )
    )
    if named in _CONTRACT_NAMES:
        for m in legal:
            if isinstance(m, Choose) and m.contract is _CONTRACT_NAMES[named]:
                return m
        if any(isinstance(m, Choose) for m in legal):
            return f"{_CONTRACT_NAMES[named].value} is not one of the contracts left to choose"
        return "you do not choose the contract now"
    if any(isinstance(m, Double) for m in legal):
        words = low.removeprefix("double").split()
        if words in (["nothing"], ["none"], []) and low not in ("",):
            words = []
        try:
            cards = frozenset(parse_card(w) for w in words)
        except CardParseError as exc:
            return str(exc)
        for m in legal:
            if isinstance(m, Double) and m.cards == cards:
                return m
        return f"you cannot double {_cards(cards)}: only your K♥ and Queens"
    try:
        card = parse_card(answer)
    except CardParseError:
        return f"not a move: {answer[:20]!r} (type a number, a card code like 'QS', or 'pass')"
    for m in legal:
        if isinstance(m, Play) and m.card == card:
            return m
    return f"{card.symbol} is not a legal card now"


def _ask_person(v: View, legal: Sequence[PlayerMove], inp: TextIO, out: TextIO) -> PlayerMove:
    _show_table(v, out)
    if v.phase is Phase.DOUBLE:
        print(f"Doubling window: you may double {_cards(v.doublable)}.", file=out)
    print("Your moves: " + "  ".join(f"{i}) {move_text(m)}" for i, m in enumerate(legal, 1)),
          file=out)  # fmt: skip
    while True:
        print("Your move> ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            raise _EndOfInput
        if not line.strip():
            continue
        answer = _parse_answer(line, legal)
        if not isinstance(answer, str):
            return answer
        print(f"  {answer}; try again.", file=out)


def _narrate(before: MatchState, move: PlayerMove, after: MatchState, me: int, out: TextIO) -> None:
    who = "you" if getattr(move, "seat", None) == me else f"seat {getattr(move, 'seat', '?')}"
    if isinstance(move, Choose):
        print(f"{who} chose {move.contract.value}.", file=out)
    elif isinstance(move, Play):
        verb = "lay" if before.phase is Phase.TRIX else "play"
        print(f"{who} {verb}{'' if who == 'you' else 's'} {move.card.symbol}", file=out)
        deal = before.complex
        if before.phase.plays_tricks and deal is not None and len(deal.trick) == 3:
            cards = (*deal.trick, move.card)
            taker = trick_winner(deal.leader, cards)
            rules = before.ruleset.trick_rules(before.contract)  # type: ignore[arg-type]
            cost = trick_points(cards, deal.leader, taker, deal.doubled, rules)
            paid = ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(cost) if p) or "no points"
            who_takes = "you take" if taker == me else f"seat {taker} takes"
            print(f"  -> {who_takes} the trick ({paid})", file=out)
            if after.phase in (Phase.DEAL, Phase.OVER) and len(deal.tricks) < 12:
                print("  -> every penalty card is taken: the deal ends early", file=out)
    elif isinstance(move, Pass):
        print(f"{who} pass{'' if who == 'you' else 'es'}.", file=out)
    elif isinstance(move, Redeal):
        print(f"{who} demanded a redeal (R-OPT-8): the deal is dealt again.", file=out)
    if before.phase is Phase.DOUBLE and after.phase.plays_tricks:
        doubled = after.complex.doubled if after.complex is not None else ()
        shown = ", ".join(f"{c.symbol} by seat {d}" for c, d in doubled) or "nothing"
        print(f"The doubling window closes. Doubled: {shown}.", file=out)


def _ask_redeal(v: View, inp: TextIO, out: TextIO) -> bool:
    """Ask the person holding a bad TRIX hand whether to demand a redeal (R-OPT-8)."""
    _show_table(v, out)
    print("You hold a bad hand (four 2s, or three 2s and the other 3): you may demand "
          "a redeal before the first card.", file=out)  # fmt: skip
    while True:
        print("Redeal? (yes/no)> ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            raise _EndOfInput
        answer = line.strip().lower()
        if answer in ("y", "yes", "redeal"):
            return True
        if answer in ("n", "no"):
            return False
        if answer:
            print("  answer yes or no; try again.", file=out)


def _play(args: argparse.Namespace) -> int:
    inp, out = sys.stdin, sys.stdout
    me: int = args.seat
    names = args.bots if len(args.bots) == 3 else [args.bots[0]] * 3
    if len(args.bots) not in (1, 3):
        print("trixcomplex play: error: --bots takes 1 or 3 bot names", file=sys.stderr)
        return 2
    others = iter(bot_named(n) for n in names)
    bots: list[Bot | None] = [None if s == me else next(others) for s in range(4)]
    deals = random.Random(args.seed)
    rngs = _seat_rngs(args.seed)
    ruleset: Ruleset = args.ruleset
    partners = (
        f"your partner is seat {(me + 2) % 4}"
        if ruleset.partnership
        else "every seat plays for itself"
    )
    game = "" if ruleset is PARTNERSHIP else f" ({ruleset.name}, {ruleset.deals_per_match} deals)"
    print(f"trixcomplex play, seed {args.seed}: you are seat {me}, {partners}{game}.", file=out)
    print("Type a move number, a card code (e.g. QS, 10H) or 'pass'.", file=out)
    state = new_match(ruleset)
    try:
        while state.phase is not Phase.OVER:
            if state.phase is Phase.DEAL:
                state = apply(state, Deal.shuffled(deals))
                continue
            seat = state.turn if state.turn is not None else min(state.to_act)
            move: PlayerMove | None = None
            bad = redeal_seat(state)
            if bad is not None and bad != seat:  # R-OPT-8: a redeal out of turn
                other = bots[bad]
                if other is None:
                    move = Redeal(me) if _ask_redeal(view(state, me), inp, out) else None
                elif offer_redeal(other, state, bad, rngs[bad]):
                    move = Redeal(bad)
            player = bots[seat]
            if move is None and player is None:
                legal = legal_moves(state, seat)
                if len(legal) == 1 and state.phase in (Phase.COMPLEX, Phase.TRICKS, Phase.TRIX):
                    move = legal[0]
                    print(f"(only one legal move: {move_text(move)}, played for you)", file=out)
                else:
                    move = _ask_person(view(state, seat), legal, inp, out)
            elif move is None:
                assert player is not None
                move = ask(player, state, seat, rngs[seat])
            before, state = state, apply(state, move)
            _narrate(before, move, state, me, out)  # others' doubles stay secret (R-HID-2)
            if state.phase in (Phase.DEAL, Phase.OVER) and not isinstance(move, Redeal):
                print("\n" + format_scoresheet(state), file=out)
    except _EndOfInput:
        print("\nInput ended before the match was over; leaving the match.", file=out)
        return 1
    print(_winner_line(state), file=out)
    return 0


# -- simulate -------------------------------------------------------------------


def _rich() -> Any:
    """The ``rich`` package, or ``None`` when it is not installed (plain text then)."""
    if os.environ.get("TRIXCOMPLEX_PLAIN"):
        return None
    try:
        import rich
        import rich.console
        import rich.progress
        import rich.table
    except ImportError:
        return None
    return rich


def _summary_rows(t: Tournament) -> list[tuple[str, str]]:
    s = t.summary
    a, b = t.sides

    def pct(rate: float, ci: tuple[float, float]) -> str:
        return f"{rate:6.1%}  (95% CI {ci[0]:.1%} .. {ci[1]:.1%})"

    rows = [
        ("ruleset", t.ruleset.name),
        ("matches", f"{s.matches} (seed {t.seed}, seats swapped every other match)"),
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
    if not t.ruleset.partnership:
        rows.append(("a side wins", "when a seat of its own has the best total (shared: draw)"))
    if t.ruleset.reversed_scores:
        rows.append(("reversed scores", "the lowest total wins; the margin is counted that way"))
    return rows


def _simulate(args: argparse.Namespace) -> int:
    if len(args.bots) not in (2, 4):
        print("trixcomplex simulate: error: --bots takes 2 or 4 bot names", file=sys.stderr)
        return 2
    if args.records is not None:
        Path(args.records).mkdir(parents=True, exist_ok=True)
    bots = [bot_named(n) for n in args.bots]
    rich = _rich()
    executor: Executor | None = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        if rich is not None:
            console = rich.console.Console(stderr=True)
            with rich.progress.Progress(console=console, transient=True) as bar:
                task = bar.add_task("matches", total=args.matches)
                result = simulate(
                    bots, args.matches, seed=args.seed, ruleset=args.ruleset, executor=executor,
                    progress=lambda done, total: bar.update(task, completed=done),
                )  # fmt: skip
        else:
            tty = sys.stderr.isatty()
            step = max(1, args.matches // 10)

            def counter(done: int, total: int) -> None:
                if tty:
                    print(f"\r{done}/{total} matches", end="", file=sys.stderr, flush=True)
                elif done == total or done % step == 0:
                    print(f"{done}/{total} matches", file=sys.stderr, flush=True)

            result = simulate(bots, args.matches, seed=args.seed, ruleset=args.ruleset,
                              executor=executor, progress=counter)  # fmt: skip
            if tty:
                print(file=sys.stderr)
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    if args.records is not None:
        for m in result.matches:
            path = Path(args.records) / f"match-{m.index:05d}.json"
            path.write_text(json.dumps(m.record.to_json()) + "\n", encoding="utf-8")
    rows = _summary_rows(result)
    title = f"{result.sides[0]} (A) vs {result.sides[1]} (B)"
    if rich is not None:
        table = rich.table.Table(title=title)
        table.add_column("statistic")
        table.add_column("value")
        for row in rows:
            table.add_row(*row)
        rich.console.Console().print(table)
    else:
        print(title)
        width = max(len(r[0]) for r in rows)
        for key, value in rows:
            print(f"  {key:<{width}}  {value}")
    return 0


# -- replay ---------------------------------------------------------------------


def _replay(args: argparse.Namespace) -> int:
    return run_replay(
        args.file, as_json=args.json, stdin=sys.stdin, stdout=sys.stdout, stderr=sys.stderr
    )


def _serve(args: argparse.Namespace) -> int:
    try:  # the server's packages are an extra: import them only when asked
        from .server import serve
    except ImportError as exc:
        if (exc.name or "").partition(".")[0] not in ("starlette", "uvicorn", "websockets"):
            raise
        print(f"trixcomplex serve needs the server extra ({exc.name} is missing): "
              'pip install "trixcomplex[server]"', file=sys.stderr)  # fmt: skip
        return 1
    return serve(host=args.host, port=args.port, db=args.db)


# -- main -----------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="trixcomplex", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    bots_help = f"bot names, comma-separated ({', '.join(BOT_NAMES)}, mc:N)"
    ruleset_help = (
        f"the game: {', '.join(RULESETS)} (default partnership), "
        "or a preset with options, e.g. classic+doubling=False"
    )

    demo = sub.add_parser("demo", help="play one complete seeded match between bots")
    demo.add_argument("--seed", type=int, default=7, help="the random seed (default 7)")
    demo.add_argument("--bots", type=_bot_list, default=["rule"],
                      help=bots_help + ": 1 for all seats or 4 (default rule)")  # fmt: skip
    demo.add_argument("--ruleset", type=_ruleset, default=PARTNERSHIP, help=ruleset_help)
    demo.set_defaults(func=_demo)

    play = sub.add_parser("play", help="play a match in the terminal against three bots")
    play.add_argument("--seat", type=_seat, default=0, help="your seat, 0-3 (default 0)")
    play.add_argument("--bots", type=_bot_list, default=["rule"],
                      help=bots_help + ": 1 for all three or 3 (default rule)")  # fmt: skip
    play.add_argument("--seed", type=int, default=None, help="the random seed (default: random)")
    play.add_argument("--ruleset", type=_ruleset, default=PARTNERSHIP, help=ruleset_help)
    play.set_defaults(func=_play)

    sim = sub.add_parser("simulate", help="play many seeded matches between two sides of bots")
    sim.add_argument("--bots", type=_bot_list, default=["rule", "random"],
                     help=bots_help + ": side A, side B (or 4, by seat)")  # fmt: skip
    sim.add_argument("--matches", type=_positive, default=100, help="how many (default 100)")
    sim.add_argument("--jobs", type=_positive, default=1, help="worker processes (default 1)")
    sim.add_argument("--seed", type=int, default=0, help="the random seed (default 0)")
    sim.add_argument("--records", metavar="DIR", default=None,
                     help="write every match's game record to DIR as JSON")  # fmt: skip
    sim.add_argument("--ruleset", type=_ruleset, default=PARTNERSHIP, help=ruleset_help)
    sim.set_defaults(func=_simulate)

    rep = sub.add_parser("replay", help="check a game record and print its scoresheet")
    rep.add_argument("file", metavar="FILE", help="the record (JSON), or - for standard input")
    rep.add_argument("--json", action="store_true", help="print the report, or the error, as JSON")
    rep.set_defaults(func=_replay)

    srv = sub.add_parser("serve", help="run the table server: play in the browser")
    srv.add_argument("--host", default="127.0.0.1", help="the address (default 127.0.0.1)")
    srv.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    srv.add_argument("--db", default="trixcomplex.sqlite3", metavar="PATH",
                     help="the tables' SQLite file (default ./trixcomplex.sqlite3)")  # fmt: skip
    srv.set_defaults(func=_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad arguments, 130 on Ctrl-C)."""
    args = _parser().parse_args(argv)
    if getattr(args, "seed", 0) is None:
        args.seed = random.SystemRandom().randrange(2**32)
    try:
        status: int = args.func(args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `trixcomplex demo | head`: stop quietly
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 1
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
