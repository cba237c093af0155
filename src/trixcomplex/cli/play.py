"""``trixcomplex play``: a match in the terminal against three bots (save and ``--resume``)."""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from ..bots import Bot, bot_named, explain, hint
from ..core.cards import CardParseError, parse_card
from ..core.engine import (
    MatchState,
    Phase,
    apply,
    legal_moves,
    new_match,
)
from ..core.errors import IllegalMoveError, TrixError, one_line
from ..core.jsonio import loads
from ..core.moves import (
    Choose,
    Contract,
    Deal,
    Double,
    Move,
    Pass,
    Play,
    PlayerMove,
    Redeal,
    Timeout,
)
from ..core.rulesets import PARTNERSHIP
from ..io.render import hand_text, move_text
from ..io.scoresheet import contract_name
from ..knowledge.ledger import step as ledger_step
from ..knowledge.views import View, view
from .args import _seat_rngs
from .demo import _play_bots
from .text import _PLACES, _cards, _scoresheet, _symbols, _winner_line


class _EndOfInput(Exception):
    """Standard input ended while the player was asked for a move."""


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
    from ..io.records import RecordError, replay_json
    from .replay import read_record_text

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
    from ..io.records import Record

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


def _level_of(name: str | None) -> int | None:
    """The level (1 to 5) a hint named ``name`` speaks for: ``level:N``, ``rule`` (level 4,
    RuleBot version 2) or ``mc2`` (level 5); ``None`` for another bot (its plain reason).

    >>> _level_of("level:2"), _level_of("rule"), _level_of("mc2"), _level_of("random")
    (2, 4, 5, None)
    """
    from ..bots import level

    if name is None:
        return None
    for n in range(1, 6):
        if bot_named(name) == level(n):
            return n
    return None


def _play(args: argparse.Namespace) -> int:
    from ..io.records import RecordError

    inp, out = sys.stdin, sys.stdout
    me: int = args.seat
    if len(args.bots) not in (1, 3):
        print("trixcomplex play: error: --bots takes 1 or 3 bot names", file=sys.stderr)
        return 2
    names = args.bots if len(args.bots) == 3 else [args.bots[0]] * 3
    hinter = None if args.hint is None else bot_named(args.hint)  # checked by argparse
    teacher = _level_of(args.hint)
    others = iter(bot_named(n) for n in names)
    bots: list[Bot | None] = [None if s == me else next(others) for s in range(4)]
    seed: int | None = args.seed
    if args.resume is not None:
        try:
            state, saved_seed = _load_state(args.resume, inp)
        except RecordError as exc:  # a file that cannot be read: a bad command line (2)
            print(f"trixcomplex play: error: {one_line(args.resume, 200)}: {exc}", file=sys.stderr)
            return 2 if exc.code == "record.unreadable" else 1
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

    hint_rng = random.Random(seed)  # the hints' own draws: the match's are untouched

    def person(st: MatchState, seat: int, legal: Sequence[PlayerMove]) -> Move:
        seen = view(st, seat)
        if hinter is not None:  # what the bot would play here, from this seat's view only
            if teacher is not None:  # a level: the move, why, the cards, the alternatives
                advice = hint(seen, teacher, legal, hint_rng)
                print(f"Hint ({args.hint}): {advice.text()}", file=out)
            else:
                told = explain(hinter, seen, legal, hint_rng)
                counted = f" ({told.worlds} worlds)" if told.worlds else ""
                print(f"Hint ({args.hint}): {move_text(told.move)} — {told.summary}{counted}",
                      file=out)  # fmt: skip
        return _ask_person(seen, legal, inp, out, _engine_reason(st))

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
