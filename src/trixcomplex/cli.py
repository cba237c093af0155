"""The ``trixcomplex`` command: demo, play, simulate, replay and serve.

- ``trixcomplex demo [--seed N] [--bots rule]``: one whole match between bots,
  deal by deal, then the scoresheet and the winner.
- ``trixcomplex play [--seat N] [--bots rule,rule,rule] [--seed N] [--resume FILE]``:
  play a match in the terminal against three bots; Ctrl-C or Ctrl-D offers to save
  it (with its seed: ``--resume`` goes on with the deals that seed gives); a move the
  person has no choice about is played for them, the table shown first.
- ``trixcomplex simulate --bots rule,random --matches 1000 [--jobs N] [--seed N]
  [--records DIR] [--isolated [--strict]] [--time-limit S] [--cpu-limit S]``: a
  tournament, with a progress bar and a summary table; ``--isolated`` runs each
  bot in a bubblewrap sandbox (``--strict``: or not at all).
- ``trixcomplex replay FILE [--json] [--explain]``: check and score a game
  record; ``--explain`` traces every point to its rule clause.
- ``trixcomplex serve``: the table server, to play in the browser (the
  ``server`` extra).
- ``trixcomplex conformance export DIR`` / ``conformance check --engine CMD``:
  the conformance suite for other engines (:mod:`trixcomplex.conformance`).

``demo``, ``play`` and ``simulate`` take ``--ruleset NAME``: a preset
(``partnership``, the default, ``individual-complex``, ``classic``,
``classic-partnership``) or a preset with options in any order
(``classic+fixed_order=true,doubling=false``).

``rich`` (the ``cli`` extra) draws the progress bar and the tables when it is
installed; without it everything is plain text.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .bots import BOT_NAMES, MC_WORLDS, Bot, bot_named
from .cards import Card, CardParseError, parse_card
from .engine import DealResult, MatchResult, MatchState, Phase, apply, legal_moves, new_match, score
from .errors import IllegalMoveError, TrixError
from .host import ask, offer_redeal, run
from .jsonio import loads
from .ledger import Charges, ledger, tricks_and_places
from .ledger import step as ledger_step
from .moves import Choose, Contract, Deal, Double, Move, Pass, Play, PlayerMove, Redeal, Timeout
from .render import hand_text, move_text
from .rulesets import PARTNERSHIP, RULESETS, Ruleset
from .scoresheet import contract_name, format_scoresheet
from .views import View, view

if TYPE_CHECKING:  # records (cattrs), tournaments and pools: imported by the commands using them
    from concurrent.futures import Executor

__all__ = ["RULESET_OPTIONS", "main"]

RULESET_OPTIONS = {
    "doubling": "R-OPT-1: K♥ and Queens may be doubled (false: no doubling window)",
    "penalty_cards_first": "R-OPT-2: a seat void in the led suit must discard a penalty card",
    "swapped_scores": "R-OPT-3: Diamonds cost -15 each and Ltoosh -10 a trick",
    "free_heart_leads": "R-OPT-4: hearts may be led at any time in King of Hearts",
    "fixed_order": "R-OPT-5: contracts are played in the ruleset's order; nobody chooses",
    "reversed_scores": "R-OPT-6: every point is negated and the lowest total wins",
    "show_twos": "R-OPT-7: in TRIX every seat's 2s are shown after everyone's first turn",
    "bad_hand_redeal": "R-OPT-8: a bad TRIX hand (four 2s, or three 2s and the other 3) "
    "may demand a redeal",
    "combined_contracts": "R-OPT-9: the owner may play two or more of the four trick "
    "contracts in one deal",
    "worst_seat_loses": "R-OPT-10: partnership rulesets only: the team of the seat with the "
    "worst total loses",
}
"""The ruleset options ``--ruleset`` accepts, with their meaning (``--help`` lists them)."""

_PLACES = ("1st", "2nd", "3rd", "4th")


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


def parse_ruleset(text: str) -> Ruleset:
    """The ruleset named on the command line: a preset, then ``+`` and options in
    any order, ``true``/``false`` in any case; raises ``ValueError`` naming the
    bad part and the valid choices.

    >>> parse_ruleset("Classic+Fixed_Order=TRUE, doubling=false").name
    'classic+doubling=False,fixed_order=True'
    """
    base, plus, options = text.strip().partition("+")
    base = base.strip().lower()
    if base not in RULESETS:
        raise ValueError(f"unknown ruleset {base[:40]!r}: the presets are {', '.join(RULESETS)}")
    changes: dict[str, bool] = {}
    items = [item.strip() for item in options.split(",")] if plus else []
    for item in items:
        key, eq, value = (part.strip().lower() for part in item.partition("="))
        if key not in RULESET_OPTIONS:
            valid = ", ".join(RULESET_OPTIONS)
            raise ValueError(f"bad ruleset option {item[:40]!r}: the options are {valid}")
        if not eq or value not in ("true", "false"):
            raise ValueError(f"bad ruleset option {item[:40]!r}: give {key}=true or {key}=false")
        changes[key] = value == "true"
    return RULESETS[base].evolve(**changes)


def _ruleset(text: str) -> Ruleset:
    try:
        return parse_ruleset(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _seat_rngs(seed: int) -> list[random.Random]:
    return [random.Random(f"trixcomplex:{seed}:seat:{s}") for s in range(4)]


def _cards(cards: Sequence[Card] | frozenset[Card]) -> str:
    return " ".join(c.symbol for c in sorted(cards)) or "nothing"


_CODE = re.compile(r"\b(10|[2-9TJQKA])([SHDC])\b")


def _symbols(text: str) -> str:
    """An engine message with its card codes (``QC``) written as a person reads them (``Q♣``).

    >>> _symbols("seat 0 does not hold QC (R-MATCH-2)")
    'seat 0 does not hold Q♣ (R-MATCH-2)'
    """
    return _CODE.sub(lambda m: parse_card(m.group(0)).symbol, text)


def _took(deal: DealResult, ruleset: Ruleset = PARTNERSHIP) -> list[str]:
    """Who took what in a finished deal, one line per seat: only what the
    contract charges (R-CX-5; R-CL-2 … R-CL-5: K♥, Queens, diamonds, tricks),
    the doubled cards apart, and the doubling points each seat won or paid
    (R-DBL-4)."""
    if not deal.contract.is_trick_contract:
        order = ", ".join(f"seat {s}" for s in deal.finishing_order)
        return [f"  finishing order: {order}"]
    rules = ruleset.trick_rules(deal.contract)
    lines = []
    for s, b in enumerate(deal.seats):
        parts = []
        if rules.trick:
            parts.append(f"{b.tricks} trick{'s' if b.tricks != 1 else ''}")
        if b.diamonds and rules.diamond:
            parts.append(f"{b.diamonds} ♦")
        if b.plain_queens and rules.queen:
            parts.append(" ".join(q.symbol for q in b.plain_queens))
        if b.plain_king_of_hearts and rules.king_of_hearts:
            parts.append("K♥")
        for d in deal.doubled:
            if d.taker == s:
                parts.append(f"doubled {d.card.symbol}")
        took = ", ".join(parts) or "nothing that counts"
        doubling = sum(d.points[s] for d in deal.doubled)
        extra = f" (doubling {doubling:+d})" if deal.doubled and doubling else ""
        lines.append(f"  seat {s} took {took}: {deal.points[s]:+d}{extra}")
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


def _scoresheet(state: MatchState) -> str:
    """The scoresheet as a person reads it: cards as K♥, without its own result line
    (the command prints the result once, in words)."""
    lines = format_scoresheet(state).splitlines()
    return "\n".join(_symbols(line) for line in lines if not line.startswith("Result:"))


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
        elif isinstance(move, Timeout):
            notes.setdefault(number, []).append("  the owner's time ran out (R-MATCH-6)")
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
    rngs = _seat_rngs(args.seed)
    state = _play_bots(new_match(ruleset), bots, random.Random(args.seed), rngs)
    print(f"trixcomplex demo, seed {args.seed}: " + ", ".join(
        f"seat {s} {type(b).__name__}" for s, b in enumerate(bots)
    ) + ("" if ruleset == PARTNERSHIP else f"; ruleset {ruleset.name}"))  # fmt: skip
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
            f"{contract_name(deal.contract)} ({how})"
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
    print(_scoresheet(state))
    print(_winner_line(state))
    return 0


def _play_bots(
    state: MatchState,
    bots: Sequence[Bot | None],
    deals: random.Random,
    rngs: Sequence[random.Random],
    person: Callable[[MatchState, int, Sequence[PlayerMove]], Move] | None = None,
    person_redeal: Callable[[MatchState, int], bool] | None = None,
    on_move: Callable[[MatchState, Move, MatchState], None] | None = None,
) -> MatchState:
    """Run the host loop for the command: bots, and maybe one person (``None`` in ``bots``)."""

    def decide(st: MatchState, seat: int, legal: Sequence[PlayerMove]) -> Move:
        bot = bots[seat]
        if bot is None:
            assert person is not None
            return person(st, seat, legal)
        return ask(bot, st, seat, rngs[seat])

    def offer(st: MatchState, seat: int) -> bool:
        bot = bots[seat]
        if bot is None:
            assert person_redeal is not None
            return person_redeal(st, seat)
        return offer_redeal(bot, st, seat, rngs[seat])

    return run(state, decide, offer=offer, deals=deals, on_move=on_move)


# -- play -----------------------------------------------------------------------


def _show_table(v: View, out: TextIO) -> None:
    print(
        f"\nDeal {v.deal_number} (Kingdom {v.kingdom}), owner seat {v.owner}"
        + (f", {contract_name(v.contract)}" if v.contract is not None else ""),
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
        for suit, row in zip(("♠", "♥", "♦", "♣"), v.rows, strict=True):
            if row is None:
                rows.append(f"{suit} -")
            else:
                lo, hi = (_RANKS[r] for r in row)
                rows.append(f"{suit} {lo}..{hi}" if lo != hi else f"{suit} {lo}")
        print("Rows: " + "   ".join(rows), file=out)
        sizes = ", ".join(f"seat {s} {n}" for s, n in enumerate(v.hand_sizes))
        print(f"Cards left: {sizes}", file=out)
    hand = "   ".join(hand_text(v.hand).splitlines())
    print(f"Your hand (seat {v.seat}): {hand}", file=out)


_RANKS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
          11: "J", 12: "Q", 13: "K", 14: "A"}  # fmt: skip
_PART_ORDER = {c.value.lower(): i for i, c in enumerate(Contract)}


def _contract_names() -> dict[str, Contract]:
    """Each contract by its value and its human name, as a person may type them."""
    names: dict[str, Contract] = {}
    for c in Contract:
        names[c.value.lower()] = c
        names[contract_name(c).lower().replace(" ", "_")] = c
    return names


_CONTRACTS = _contract_names()


def _parse_answer(
    text: str,
    legal: Sequence[PlayerMove],
    refused: Callable[[PlayerMove], str | None] | None = None,
) -> PlayerMove | str:
    """The move named by ``text``, or an error message for the player.

    ``refused(move)`` gives the engine's own reason for a move that is not
    legal (``None`` to fall back on a generic message).
    """
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
    if named in _CONTRACTS:
        for m in legal:
            if isinstance(m, Choose) and m.contract is _CONTRACTS[named]:
                return m
        if any(isinstance(m, Choose) for m in legal):
            name = contract_name(_CONTRACTS[named])
            return f"{name} is not one of the contracts left to choose"
        return "you do not choose the contract now"
    if any(isinstance(m, Double) for m in legal):
        words = low.removeprefix("double").split()
        if words in (["nothing"], ["none"]):
            words = []
        try:
            cards = frozenset(parse_card(w) for w in words)
        except CardParseError as exc:
            return _symbols(str(exc))
        for m in legal:
            if isinstance(m, Double) and m.cards == cards:
                return m
        why = refused(Double(legal[0].seat, cards)) if refused is not None else None
        return why or f"you cannot double {_cards(cards)}: only your K♥ and Queens"
    try:
        card = parse_card(answer)
    except CardParseError:
        return f"not a move: {answer[:20]!r} (type a number, a card like 'QS' or Q♠, or 'pass')"
    for m in legal:
        if isinstance(m, Play) and m.card == card:
            return m
    why = refused(Play(legal[0].seat, card)) if refused is not None else None
    return why or f"{card.symbol} is not a legal card now"


def _engine_reason(state: MatchState) -> Callable[[PlayerMove], str | None]:
    """The engine's own reason for refusing a move in ``state``, as a person reads it."""

    def reason(move: PlayerMove) -> str | None:
        try:
            apply(state, move)
        except IllegalMoveError as exc:
            return _symbols(f"{exc.reason} ({exc.rule})")
        return None

    return reason


def _ask_person(
    v: View, legal: Sequence[PlayerMove], inp: TextIO, out: TextIO,
    refused: Callable[[PlayerMove], str | None] | None = None,
) -> PlayerMove:  # fmt: skip
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
        answer = _parse_answer(line, legal, refused)
        if not isinstance(answer, str):
            return answer
        print(f"  {answer}; try again.", file=out)


def _narrate(before: MatchState, move: Move, after: MatchState, me: int, out: TextIO) -> None:
    """Tell the person what ``move`` did: the move, the trick taken and what it cost,
    the seats going out in TRIX with their places, the doubles revealed."""
    seat = getattr(move, "seat", None)
    who = "you" if seat == me else f"seat {seat}"
    if isinstance(move, Choose):
        print(f"{who} chose {contract_name(move.contract)}.", file=out)
    elif isinstance(move, Timeout):
        print("Time ran out (R-MATCH-6, R-DBL-3).", file=out)
    elif isinstance(move, Play):
        verb = "lay" if before.phase is Phase.TRIX else "play"
        print(f"{who} {verb}{'' if who == 'you' else 's'} {move.card.symbol}", file=out)
    elif isinstance(move, Pass):
        print(f"{who} pass{'' if who == 'you' else 'es'}.", file=out)
    elif isinstance(move, Redeal):
        print(f"{who} demanded a redeal (R-OPT-8): the deal is dealt again.", file=out)
    if before.phase is Phase.TRIX:
        _narrate_places(before, after, me, out)
    done = ledger_step(before, move, after)
    if done is not None and done.number:
        paid = ", ".join(f"seat {e.seat} {e.points:+d}" for e in done.entries) or "no points"
        who_takes = "you take" if done.taker == me else f"seat {done.taker} takes"
        print(f"  -> {who_takes} the trick ({paid})", file=out)
        if after.phase in (Phase.DEAL, Phase.OVER) and done.number < 13:
            print("  -> every penalty card is taken: the deal ends early", file=out)
    if before.phase is Phase.DOUBLE and after.phase.plays_tricks:
        doubled = after.trick_deal.doubled if after.trick_deal is not None else ()
        shown = ", ".join(f"{c.symbol} by seat {d}" for c, d in doubled) or "nothing"
        print(f"The doubling window closes. Doubled: {shown}.", file=out)


def _narrate_places(before: MatchState, after: MatchState, me: int, out: TextIO) -> None:
    """Announce each seat going out in TRIX with its place (R-TX-4)."""
    old = before.trix.finishing_order if before.trix is not None else ()
    if after.trix is not None:
        new = after.trix.finishing_order
    elif len(after.results) > len(before.results):
        new = after.results[-1].finishing_order
    else:
        return
    for place, seat in enumerate(new[len(old) :], start=len(old)):
        who = "you go" if seat == me else f"seat {seat} goes"
        last = " (the last seat holding cards)" if place == 3 else ""
        print(f"  -> {who} out: {_PLACES[place]} place{last} (R-TX-4)", file=out)


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


def _load_state(path: str, stdin: TextIO) -> tuple[MatchState, int | None]:
    """The state of the record in ``path`` (``-``: ``stdin``) and the seed saved with it
    (its metadata's ``seed``, if any); ``RecordError`` if the record is bad (read as
    ``replay`` reads it: bounded in size, strict JSON)."""
    from .records import RecordError, replay_json
    from .replay_cli import read_record_text

    text = read_record_text(path, stdin)
    try:
        obj = loads(text)
    except TrixError as exc:
        raise RecordError(str(exc), code=exc.code) from None
    state = replay_json(obj)
    seed = obj.get("meta", {}).get("seed")  # replay_json checked the record's shape
    return state, seed if type(seed) is int else None


def _offer_save(state: MatchState, me: int, seed: int, inp: TextIO, out: TextIO) -> None:
    """On Ctrl-C or Ctrl-D: offer to save the match as a game record, with its seed in
    the metadata, for ``play --resume FILE``."""
    from .records import Record

    print("\nSave the match to resume it later? File name (Enter: do not save)> ",
          end="", file=out, flush=True)  # fmt: skip
    try:
        name = inp.readline().strip()
    except (KeyboardInterrupt, OSError, ValueError):
        name = ""
    if not name:
        return
    try:
        record = Record.of(state, meta={"seed": seed})
        Path(name).write_text(json.dumps(record.to_json()) + "\n", encoding="utf-8")
    except OSError as exc:
        print(f"could not save to {name}: {exc.strerror or exc}", file=out)
        return
    print(f"Saved; resume with: trixcomplex play --resume {name} --seat {me}", file=out)


def _play(args: argparse.Namespace) -> int:
    from .records import RecordError

    inp, out = sys.stdin, sys.stdout
    me: int = args.seat
    if len(args.bots) not in (1, 3):
        print("trixcomplex play: error: --bots takes 1 or 3 bot names", file=sys.stderr)
        return 2
    names = args.bots if len(args.bots) == 3 else [args.bots[0]] * 3
    others = iter(bot_named(n) for n in names)
    bots: list[Bot | None] = [None if s == me else next(others) for s in range(4)]
    seed: int | None = args.seed
    if args.resume is not None:
        try:
            state, saved_seed = _load_state(args.resume, inp)
        except RecordError as exc:
            print(f"trixcomplex play: error: {args.resume}: {exc}", file=sys.stderr)
            return 1
        if state.phase is Phase.OVER:
            print(f"trixcomplex play: error: {args.resume}: the match is already over",
                  file=sys.stderr)  # fmt: skip
            return 1
        seed = saved_seed if seed is None else seed  # the match's own seed goes on
    else:
        state = new_match(args.ruleset)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    deals = random.Random(seed)
    for move in state.history.moves():  # a resumed match's next deals are its seed's
        if isinstance(move, Deal):
            Deal.shuffled(deals)
    ruleset = state.ruleset
    partners = (
        f"your partner is seat {(me + 2) % 4}"
        if ruleset.partnership
        else "every seat plays for itself"
    )
    game = "" if ruleset == PARTNERSHIP else f" ({ruleset.name}, {ruleset.deals_per_match} deals)"
    resumed = f"; resumed at deal {state.deal_number}" if args.resume is not None else ""
    print(f"trixcomplex play, seed {seed}: you are seat {me}, {partners}{game}{resumed}.",
          file=out)  # fmt: skip
    print("Type a move number, a card (QS, 10H or Q♠) or 'pass'.", file=out)
    current = [state]

    def person(st: MatchState, seat: int, legal: Sequence[PlayerMove]) -> Move:
        return _ask_person(view(st, seat), legal, inp, out, _engine_reason(st))

    def person_redeal(st: MatchState, seat: int) -> bool:
        return _ask_redeal(view(st, seat), inp, out)

    def on_move(before: MatchState, move: Move, after: MatchState) -> None:
        current[0] = after
        if isinstance(move, Deal):
            return
        forced = before.phase.plays_cards and len(legal_moves(before, me)) == 1
        if forced and isinstance(move, Play | Pass) and move.seat == me:
            _show_table(view(before, me), out)  # a run of forced moves is seen, move by move
            print(f"(only one legal move: {move_text(move)}, played for you)", file=out)
        _narrate(before, move, after, me, out)  # others' doubles stay secret (R-HID-2)
        if after.phase in (Phase.DEAL, Phase.OVER) and not isinstance(move, Redeal):
            print("\n" + _scoresheet(after), file=out)

    try:
        state = _play_bots(
            state, bots, deals, _seat_rngs(seed),
            person, person_redeal, on_move,
        )  # fmt: skip
    except _EndOfInput:  # Ctrl-D (a terminal reads on after it; a pipe does not)
        print("\nInput ended before the match was over.", file=out)
        _offer_save(current[0], me, seed, inp, out)
        print("Leaving the match.", file=out)
        return 1
    except KeyboardInterrupt:
        _offer_save(current[0], me, seed, inp, out)
        raise
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


def _sim_bot_list(text: str) -> list[str]:
    """``--bots`` of ``simulate``: built-in names, or ``module:attr`` (a factory)."""
    names = [n.strip() for n in text.split(",")]
    builtin = [n.lower() for n in names if ":" not in n or n.lower().startswith("mc")]
    _bot_list(",".join(builtin or ["rule"]))
    return [n.lower() if n.lower() in builtin else n for n in names]


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"give a positive number of seconds, not {text!r}")
    return value


def _simulate(args: argparse.Namespace) -> int:
    from .simulate import seed_commitment, simulate

    if len(args.bots) not in (2, 4):
        print("trixcomplex simulate: error: --bots takes 2 or 4 bot names", file=sys.stderr)
        return 2
    if args.records is not None:
        Path(args.records).mkdir(parents=True, exist_ok=True)
    isolated: bool | str = "strict" if args.strict else args.isolated
    from .isolated import load_bot  # the isolated-bot machinery only when simulating

    try:
        bots: list[Any] = list(args.bots) if isolated else [load_bot(n) for n in args.bots]
    except (ImportError, AttributeError, TypeError) as exc:
        print(f"trixcomplex simulate: error: cannot load a bot: {exc}", file=sys.stderr)
        return 2
    limits = {"time_limit": args.time_limit, "cpu_limit": args.cpu_limit, "isolated": isolated}
    if args.seed is None:
        import secrets

        args.seed = secrets.randbits(128)
    print(f"seed commitment: {seed_commitment(args.seed)}", file=sys.stderr, flush=True)
    rich = _rich()
    executor: Executor | None = None
    if args.jobs > 1:  # multiprocessing is imported only when asked for
        from concurrent.futures import ProcessPoolExecutor

        executor = ProcessPoolExecutor(args.jobs)
    try:
        if rich is not None:
            console = rich.console.Console(stderr=True)
            with rich.progress.Progress(console=console, transient=True) as bar:
                task = bar.add_task("matches", total=args.matches)
                result = simulate(
                    bots, args.matches, seed=args.seed, ruleset=args.ruleset, executor=executor,
                    progress=lambda done, total: bar.update(task, completed=done), **limits,
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
                              executor=executor, progress=counter, **limits)  # fmt: skip
            if tty:
                print(file=sys.stderr)
    except ValueError as exc:  # a sandbox refused in --strict mode, a bad limit
        print(f"trixcomplex simulate: error: {exc}", file=sys.stderr)
        return 2
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    if args.records is not None:
        for m in result.matches:
            path = Path(args.records) / f"match-{m.index:05d}.json"
            path.write_text(json.dumps(m.record.to_json()) + "\n", encoding="utf-8")
    rows = result.summary_table()
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


def explain_lines(state: MatchState) -> list[str]:
    """``replay --explain``: every trick and finishing place of the match with the
    points it charged or awarded and the clause deciding each (see :mod:`~trixcomplex.ledger`)."""
    lines: list[str] = []
    heads: set[int] = set()
    results = {r.number: r for r in state.results}
    for t in tricks_and_places(state):
        if t.deal not in heads:
            heads.add(t.deal)
            lines.extend(_deal_head(t, results.get(t.deal)))
        lines.extend(_trick_lines(t))
        result = results.get(t.deal)
        if result is not None and (t.number == 0 or _last_trick(t, result)):
            points = ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(result.points))
            lines.append(f"  Deal {t.deal} scores: {points}")
    scores = ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(state.scores))
    lines.append("")
    lines.append(f"Totals: {scores}")
    if state.phase is Phase.OVER:
        lines.append(_winner_line(state))
    return lines


def _last_trick(t: Charges, result: DealResult) -> bool:
    return t.number == sum(b.tricks for b in result.seats)


def _deal_head(t: Charges, result: DealResult | None) -> list[str]:
    owner = f", owner seat {result.owner}" if result is not None else ""
    lines = ["", f"Deal {t.deal} (Kingdom {t.kingdom}){owner}: {contract_name(t.contract)}"]
    if result is not None and result.doubled:
        shown = ", ".join(f"{d.card.symbol} by seat {d.doubler}" for d in result.doubled)
        lines.append(f"  doubled (R-DBL-3): {shown}")
    return lines


def _trick_lines(t: Charges) -> list[str]:
    if t.number == 0:
        lines = ["  Finishing order (R-TX-4):"]
        for e in t.entries:
            lines.append(f"    {_PLACES[(e.place or 1) - 1]}: seat {e.seat} {e.points:+d}  "
                         f"[{_clauses(e.rule, e.options)}]")  # fmt: skip
        return lines
    played = ", ".join(
        f"seat {(t.leader + i) % 4} {'leads ' if i == 0 else ''}{c.symbol}"
        for i, c in enumerate(t.cards)
    )
    lines = [f"  Trick {t.number}: {played}; seat {t.taker} takes it"
             + ("" if t.entries else ", nothing charged")]  # fmt: skip
    for e in t.entries:
        if e.case is None:
            what = "the trick's charges, stacked"
        else:
            what = (f"{e.cards[0].symbol} doubled by seat {e.doubler}, taken by seat {e.taker}, "
                    f"trick led by seat {e.leader}: case {e.case}")  # fmt: skip
        lines.append(f"    seat {e.seat} {e.points:+d}  {what}  [{_clauses(e.rule, e.options)}]")
    return lines


def _clauses(rule: str, options: tuple[str, ...]) -> str:
    return ", ".join((rule, *options))


def _replay(args: argparse.Namespace) -> int:
    """``replay FILE``: the record is read and checked by
    :func:`~trixcomplex.records.run_replay` (its one-line errors, as JSON with
    ``--json``); then the scoresheet, the explanation or the JSON report with
    the ledger."""
    from .records import MAX_RECORD_CHARS, replay_json, replay_report, run_replay

    stdin: TextIO = sys.stdin
    text: str | None = None
    if args.file == "-":
        text = sys.stdin.read(MAX_RECORD_CHARS + 1)  # a longer one is refused unparsed
        stdin = io.StringIO(text)
    checked = io.StringIO()
    status = run_replay(args.file, as_json=args.json, stdin=stdin, stdout=checked,
                        stderr=sys.stderr)  # fmt: skip
    if status != 0:
        sys.stdout.write(checked.getvalue())  # with --json, the error's JSON
        return status
    if text is None:
        text = Path(args.file).read_text(encoding="utf-8")
    state = replay_json(json.loads(text))
    if args.json:
        report = replay_report(state)
        report["ledger"] = [e.to_json() for e in ledger(state)]
        if args.explain:
            report["explain"] = explain_lines(state)
        print(json.dumps(report, indent=2))
    elif args.explain:
        for line in explain_lines(state):
            print(line)
    else:
        print(_scoresheet(state))
        if state.phase is Phase.OVER:
            print(_winner_line(state))
    return 0


def _serve_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected seconds (0 or more), not {text!r}")
    return value


def _serve(args: argparse.Namespace) -> int:
    try:  # the server's packages are an extra: import them only when asked
        from .server import Options, serve
    except ImportError as exc:
        if (exc.name or "").partition(".")[0] not in ("starlette", "uvicorn", "websockets"):
            raise
        print(f"trixcomplex serve needs the server extra ({exc.name} is missing): "
              'pip install "trixcomplex[server]" (from a checkout: pip install ".[server]")',
              file=sys.stderr)  # fmt: skip
        return 1
    options = Options(
        allow_origins=tuple(args.allow_origin), max_tables=args.max_tables,
        create_limit=args.create_limit, create_window=args.create_window,
        retention=args.retention, idle_close=args.idle_close,
        hello_timeout=args.hello_timeout, bot_budget=args.bot_budget,
        bot_window=args.bot_window, bot_workers=args.bot_workers,
    )  # fmt: skip
    return serve(host=args.host, port=args.port, db=args.db, options=options)


# -- main -----------------------------------------------------------------------

_DESCRIPTION = """\
A rules engine for Trix Complex Partnership and its family: watch bots play
(demo), play against them (play), run tournaments (simulate), check game
records (replay) and host tables in the browser (serve)."""


def _epilog() -> str:
    options = "\n".join(f"  {k}: {v}" for k, v in RULESET_OPTIONS.items())
    return (
        f"rulesets (--ruleset): the presets {', '.join(RULESETS)};\n"
        "add options after '+', comma-separated, in any order, true or false in any case, e.g.\n"
        "classic+fixed_order=true,doubling=false. The options:\n" + options + "\n\n"
        "bots (--bots): random, rule, mc or mc:N. mc:N is the Monte Carlo bot: for each\n"
        "decision with several legal moves it samples N worlds and plays every candidate\n"
        "move out to the end of the deal, so a decision costs about N x (legal moves)\n"
        f"playouts; mc means mc:16, N is from 1 to {MC_WORLDS}."
    )


def _parser() -> argparse.ArgumentParser:
    from . import __version__

    fmt = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog="trixcomplex", description=_DESCRIPTION, epilog=_epilog(), formatter_class=fmt
    )
    parser.add_argument("--version", action="version", version=f"trixcomplex {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    bots_help = (
        f"bot names, comma-separated ({', '.join(BOT_NAMES)}, or mc:N with N worlds per "
        "decision, each decision costing about N x legal moves playouts)"
    )
    ruleset_help = (
        f"the game: a preset ({', '.join(RULESETS)}; default partnership), optionally "
        "with options after '+' in any order (see trixcomplex --help), "
        "e.g. classic+doubling=false"
    )
    epilog = "The ruleset options and the bots are described once, in: trixcomplex --help"

    demo = sub.add_parser("demo", help="play one complete seeded match between bots",
                          epilog=epilog, formatter_class=fmt)  # fmt: skip
    demo.add_argument("--seed", type=int, default=7, help="the random seed (default 7)")
    demo.add_argument("--bots", type=_bot_list, default=["rule"],
                      help=bots_help + ": 1 for all seats or 4 (default rule)")  # fmt: skip
    demo.add_argument("--ruleset", type=_ruleset, default=PARTNERSHIP, help=ruleset_help)
    demo.set_defaults(func=_demo)

    play = sub.add_parser("play", help="play a match in the terminal against three bots",
                          epilog=epilog, formatter_class=fmt)  # fmt: skip
    play.add_argument("--seat", type=_seat, default=0, help="your seat, 0-3 (default 0)")
    play.add_argument("--bots", type=_bot_list, default=["rule"],
                      help=bots_help + ": 1 for all three or 3 (default rule)")  # fmt: skip
    play.add_argument("--seed", type=int, default=None,
                      help="the random seed (default: random; with --resume, the "
                      "saved one)")  # fmt: skip
    play.add_argument("--ruleset", type=_ruleset, default=PARTNERSHIP, help=ruleset_help)
    play.add_argument("--resume", metavar="FILE", default=None,
                      help="go on with a match saved on Ctrl-C or Ctrl-D (a game "
                      "record)")  # fmt: skip
    play.set_defaults(func=_play)

    sim = sub.add_parser("simulate", help="play many seeded matches between two sides of bots",
                         epilog=epilog, formatter_class=fmt)  # fmt: skip
    sim.add_argument("--bots", type=_sim_bot_list, default=["rule", "random"],
                     help=bots_help + " or module:factory: side A, side B (or 4, by seat; "
                     "default rule,random)")  # fmt: skip
    sim.add_argument("--matches", type=_positive, default=100, help="how many (default 100)")
    sim.add_argument("--jobs", type=_positive, default=1, help="worker processes (default 1)")
    sim.add_argument("--seed", type=int, default=None,
                     help="the run's secret seed: whoever knows it knows every deck "
                     "(default: drawn at random and printed with the results)")  # fmt: skip
    sim.add_argument(
        "--isolated",
        action="store_true",
        help="run each bot in a sandboxed process of its own (bubblewrap)",
    )
    sim.add_argument(
        "--strict", action="store_true", help="with --isolated: refuse to run without bubblewrap"
    )
    sim.add_argument(
        "--time-limit",
        type=_seconds,
        default=None,
        metavar="S",
        help="wall-clock seconds per decision",
    )
    sim.add_argument(
        "--cpu-limit",
        type=_seconds,
        default=None,
        metavar="S",
        help="CPU seconds per decision (the bot's own, not slowed by load)",
    )
    sim.add_argument("--records", metavar="DIR", default=None,
                     help="write every match's game record to DIR as JSON")  # fmt: skip
    sim.add_argument("--ruleset", type=_ruleset, default=PARTNERSHIP, help=ruleset_help)
    sim.set_defaults(func=_simulate)

    rep = sub.add_parser("replay", help="check a game record and print its scoresheet")
    rep.add_argument("file", metavar="FILE", help="the record (JSON), or - for standard input")
    rep.add_argument("--json", action="store_true",
                     help="print the report with the ledger of every point, or the error, "
                     "as JSON")  # fmt: skip
    rep.add_argument("--explain", action="store_true",
                     help="print every trick and place, its points and clauses")  # fmt: skip
    rep.set_defaults(func=_replay)

    srv = sub.add_parser("serve", help="run the table server: play in the browser")
    srv.add_argument("--host", default="127.0.0.1", help="the address (default 127.0.0.1)")
    srv.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    srv.add_argument("--db", default="trixcomplex.sqlite3", metavar="PATH",
                     help="the tables' SQLite file (default ./trixcomplex.sqlite3)")  # fmt: skip
    srv.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                     help="also accept requests from pages of ORIGIN (https://example.org); "
                     "repeatable (default: none; the server's own origin is always "
                     "accepted)")  # fmt: skip
    srv.add_argument("--max-tables", type=_positive, default=1000, metavar="N",
                     help="the most tables played at once, finished ones not counted "
                     "(default 1000)")  # fmt: skip
    srv.add_argument("--create-limit", type=_positive, default=20, metavar="N",
                     help="the most tables one client address opens in --create-window "
                     "(default 20)")  # fmt: skip
    srv.add_argument("--create-window", type=_serve_seconds, default=3600.0, metavar="S",
                     help="the period of --create-limit, in seconds (default 3600)")  # fmt: skip
    srv.add_argument("--retention", type=_serve_seconds, default=3600.0, metavar="S",
                     help="a finished table is archived after S seconds; its record stays "
                     "downloadable (default 3600)")  # fmt: skip
    srv.add_argument("--idle-close", type=_serve_seconds, default=1800.0, metavar="S",
                     help="a table nobody is connected to for S seconds is closed "
                     "(default 1800)")  # fmt: skip
    srv.add_argument("--hello-timeout", type=_serve_seconds, default=10.0, metavar="S",
                     help="a connection that sends no join, resume or watch in S seconds "
                     "is closed (default 10)")  # fmt: skip
    srv.add_argument("--bot-budget", type=_serve_seconds, default=10.0, metavar="S",
                     help="a bot's time for one decision; then the host moves for it "
                     "(default 10)")  # fmt: skip
    srv.add_argument("--bot-window", type=_serve_seconds, default=1.0, metavar="S",
                     help="the doubling window's answers are applied S seconds after it "
                     "opens (at least the table's bot_delay; default 1)")  # fmt: skip
    srv.add_argument("--bot-workers", type=_positive, default=None, metavar="N",
                     help="the processes bots think in (default: one per CPU)")  # fmt: skip
    srv.set_defaults(func=_serve)

    from .conformance.command import add_conformance

    add_conformance(sub, ruleset_help)
    return parser


def _quiet_stdout() -> None:
    """After a broken pipe, send what is left of stdout nowhere (no error at exit)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad arguments, 130 on Ctrl-C,
    0 when the reader of the output goes away, as in ``trixcomplex demo | head``)."""
    try:
        args = _parser().parse_args(argv)
        if getattr(args, "seed", 0) is None and getattr(args, "resume", None) is None:
            args.seed = random.SystemRandom().randrange(2**32)  # play --resume: the saved one
        status: int = args.func(args)
        sys.stdout.flush()
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `trixcomplex demo | head`: stop quietly
        _quiet_stdout()
        return 0
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
