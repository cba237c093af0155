"""Regenerate the golden records of tests/records/ (not run by the test suite).

Run from the repository root::

    python tests/records/make_records.py

Each golden record is a complete match found by searching seeds with a
deterministic policy (the deals come from ``random.Random(seed)``); the
script writes ``NAME.json`` (the record) and ``NAME.expected.json`` (its
:func:`trixcomplex.replay_report`).  The broken records are short records
with one bad step; for each it writes ``NAME.json`` and ``NAME.error.txt``
(the one-line :class:`trixcomplex.RecordError` message).

Rewriting the files must leave ``git diff tests/records`` empty unless the
engine's behaviour changed; review any difference before committing it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import trixcomplex as tc
from trixcomplex.core.scoring import KING_OF_HEARTS

HERE = Path(__file__).resolve().parent

Policy = Callable[[tc.MatchState, random.Random], tc.Move]


def play_match(seed: int, policy: Policy, ruleset: tc.Ruleset = tc.PARTNERSHIP) -> tc.MatchState:
    """A complete match of ``ruleset``: deals from ``Random(seed)``, every other move
    from ``policy``."""
    rng = random.Random(seed)
    state = tc.new_match(ruleset)
    while state.phase is not tc.Phase.OVER:
        if state.phase is tc.Phase.DEAL:
            state = tc.apply(state, tc.Deal.shuffled(rng))
        else:
            state = tc.apply(state, policy(state, rng))
    return state


def double_everything(state: tc.MatchState, rng: random.Random) -> tc.Move:
    """Every asked seat doubles all its doublable cards; other moves at random."""
    if state.phase is tc.Phase.DOUBLE:
        assert state.window is not None
        return tc.legal_moves(state, min(state.window.waiting()))[-1]
    return rng.choice(tc.legal_moves(state))


def first_legal(state: tc.MatchState, rng: random.Random) -> tc.Move:
    """The first move ``legal_moves`` lists (no randomness at all)."""
    return tc.legal_moves(state)[0]


def timeouts(state: tc.MatchState, rng: random.Random) -> tc.Move:
    """The owner always times out choosing; in the window one seat answers, then time runs out."""
    if state.phase is tc.Phase.CHOOSE:
        return tc.Timeout()
    if state.phase is tc.Phase.DOUBLE:
        assert state.window is not None
        asked = sum(1 for a in state.window.asked if a)
        if len(state.window.waiting()) < asked:
            return tc.Timeout()
        return tc.legal_moves(state, min(state.window.waiting()))[-1]
    return rng.choice(tc.legal_moves(state))


def choose_trix(state: tc.MatchState, rng: random.Random) -> tc.Move:
    """The owner always chooses TRIX first; other moves at random."""
    if state.phase is tc.Phase.CHOOSE:
        assert state.owner is not None
        return tc.Choose(state.owner, tc.Contract.TRIX)
    return rng.choice(tc.legal_moves(state))


def doubled_combos(state: tc.MatchState) -> set[tuple[str, int]]:
    """The (K♥ or Queen, case) pairs of every doubled card of the match."""
    return {
        ("KH" if d.card == KING_OF_HEARTS else "Q", d.case)
        for deal in state.results
        for d in deal.doubled
    }


def window_timed_out_with_answers(state: tc.MatchState) -> bool:
    """Some doubling window closed by a timeout after at least one answer."""
    moves = state.history.moves()
    return any(
        isinstance(m, tc.Timeout) and isinstance(moves[i - 1], tc.Double)
        for i, m in enumerate(moves)
    )


def jackless_trix_start(state: tc.MatchState) -> bool:
    """A TRIX deal opened with a pass: the owner held no Jack (R-TX-1, R-TX-3)."""
    moves = state.history.moves()
    return any(
        isinstance(move, tc.Choose)
        and move.contract is tc.Contract.TRIX
        and isinstance(moves[i + 1], tc.Pass)
        for i, move in enumerate(moves)
    )


def redeal_when_bad(state: tc.MatchState, rng: random.Random) -> tc.Move:
    """The owner chooses TRIX while it can; a bad hand always redeals (R-OPT-8);
    other moves at random."""
    moves = tc.legal_moves(state)
    redeals = [m for m in moves if isinstance(m, tc.Redeal)]
    if redeals:
        return redeals[0]
    if state.phase is tc.Phase.CHOOSE and tc.Contract.TRIX in state.remaining_contracts:
        assert state.owner is not None
        return tc.Choose(state.owner, tc.Contract.TRIX)
    return rng.choice(moves)


def doubled_in(state: tc.MatchState, contract: tc.Contract) -> bool:
    """Some card was doubled in a deal of ``contract`` (R-CL-7)."""
    return any(deal.doubled for deal in state.results if deal.contract is contract)


def redealt(state: tc.MatchState) -> bool:
    """The match holds a Redeal (R-OPT-8)."""
    return any(isinstance(m, tc.Redeal) for m in state.history)


CLASSIC_REDEAL = tc.Ruleset.from_name("classic-partnership+bad_hand_redeal=True")
"""The ruleset of the golden record with a redeal."""


def search(
    policy: Policy,
    wanted: Callable[[tc.MatchState], bool],
    ruleset: tc.Ruleset = tc.PARTNERSHIP,
) -> tc.MatchState:
    for seed in range(10_000):
        state = play_match(seed, policy, ruleset)
        if wanted(state):
            return state
    raise LookupError("no seed found")


def golden() -> dict[str, tc.MatchState]:
    """The golden matches, by file name."""
    return {
        "doubling_cases": search(double_everything, lambda s: len(doubled_combos(s)) == 6),
        "draw": search(first_legal, lambda s: tc.score(s).result is tc.MatchResult.DRAW),
        "timeouts": search(
            timeouts,
            lambda s: (
                window_timed_out_with_answers(s)
                and sum(isinstance(m, tc.Timeout) for m in s.history) >= 5
            ),
        ),
        "jackless_trix": search(choose_trix, jackless_trix_start),
        "classic": search(
            double_everything,
            lambda s: (
                doubled_in(s, tc.Contract.KING_OF_HEARTS) and doubled_in(s, tc.Contract.QUEENS)
            ),
            tc.CLASSIC,
        ),
        "classic_redeal": search(redeal_when_bad, redealt, CLASSIC_REDEAL),
    }


def _record(moves: list[dict[str, object]], ruleset: str = "partnership") -> dict[str, object]:
    return {"format": "trixcomplex-record", "version": 1, "ruleset": ruleset, "moves": moves}


def broken_rulesets(classic: tc.MatchState, redeal: tc.MatchState) -> dict[str, dict[str, object]]:
    """Records of other rulesets with one bad step (R-SET-1, R-CL-2, R-OPT-8)."""
    out: dict[str, dict[str, object]] = {}
    moves = [tc.move_to_json(m) for m in classic.history.moves()]
    state = tc.new_match(tc.CLASSIC)
    # A heart led in King of Hearts by a leader holding another suit (R-CL-2).
    for i, move in enumerate(classic.history.moves()):
        if (
            state.contract is tc.Contract.KING_OF_HEARTS
            and state.phase is tc.Phase.COMPLEX
            and state.complex is not None
            and not state.complex.trick
        ):
            seat = state.turn
            assert seat is not None
            hand = state.hand(seat)
            hearts = [c for c in hand if c.suit is tc.Suit.HEARTS]
            if hearts and len(hearts) < len(hand):
                bad = tc.move_to_json(tc.Play(seat, hearts[0]))
                out["broken_heart_lead"] = _record([*moves[:i], bad], "classic")
                break
        state = tc.apply(state, move)
    # A redeal demanded by a seat without a bad hand (R-OPT-8).
    moves = [tc.move_to_json(m) for m in redeal.history.moves()]
    i = next(i for i, m in enumerate(redeal.history.moves()) if isinstance(m, tc.Redeal))
    seat = (redeal.history.moves()[i].seat + 1) % 4  # type: ignore[union-attr]
    bad = tc.move_to_json(tc.Redeal(seat))
    out["broken_redeal"] = _record([*moves[:i], bad], CLASSIC_REDEAL.name)
    # The same redeal in the default game, where nothing causes one (R-MATCH-2).
    out["broken_redeal_partnership"] = _record([moves[0], tc.move_to_json(tc.Redeal(0))])
    out["broken_ruleset"] = _record(moves[:1], "classic+doubling=sometimes")
    return out


def broken(draw: tc.MatchState) -> dict[str, dict[str, object]]:
    """Records with one bad step, built from the start of the drawn match."""
    moves = [tc.move_to_json(m) for m in draw.history.moves()]
    states = [tc.new_match()]
    for move in draw.history.moves():
        states.append(tc.apply(states[-1], move))
    out: dict[str, dict[str, object]] = {}

    # A COMPLEX trick in which the second player holds the led suit but plays another.
    for i, state in enumerate(states):
        if state.phase is tc.Phase.COMPLEX and state.complex and len(state.complex.trick) == 1:
            seat = state.turn
            assert seat is not None
            led = state.complex.trick[0].suit
            hand = state.hand(seat)
            off = [c for c in hand if c.suit is not led]
            if off and any(c.suit is led for c in hand):
                bad = tc.move_to_json(tc.Play(seat, off[0]))
                out["broken_follow_suit"] = _record([*moves[:i], bad, *moves[i + 1 : i + 5]])
                break
    # A TRIX pass by a seat holding a legal card.
    for i, state in enumerate(states):
        if state.phase is tc.Phase.TRIX and isinstance(draw.history.moves()[i], tc.Play):
            seat = state.turn
            assert seat is not None
            bad = tc.move_to_json(tc.Pass(seat))
            out["broken_pass"] = _record([*moves[:i], bad])
            break
    out["broken_card_code"] = _record([moves[0], {"move": "play", "seat": 1, "card": "1X"}])
    deck = list(moves[0]["deck"])
    deck[5] = deck[4]
    out["broken_deck"] = _record([{"move": "deal", "deck": deck}])
    # A timeout during a COMPLEX deal: only legal while choosing or doubling.
    i = next(i for i, state in enumerate(states) if state.phase is tc.Phase.COMPLEX)
    out["broken_timeout"] = _record([*moves[:i], {"move": "timeout"}])
    out["broken_unknown_key"] = _record([moves[0], {"move": "timeout", "when": "now"}])
    return out


def _write(path: Path, obj: object) -> None:
    """Pretty JSON with one move (or one deal of a report) per line."""
    assert isinstance(obj, dict)
    lines = []
    for key, value in obj.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            items = ",\n".join("  " + json.dumps(v) for v in value)
            lines.append(f" {json.dumps(key)}: [\n{items}\n ]")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}")
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


def main() -> None:
    matches = golden()
    for name, state in matches.items():
        _write(HERE / f"{name}.json", tc.Record.of(state).to_json())
        _write(HERE / f"{name}.expected.json", tc.replay_report(state))
    bad = broken(matches["draw"])
    bad.update(broken_rulesets(matches["classic"], matches["classic_redeal"]))
    for name, record in bad.items():
        _write(HERE / f"{name}.json", record)
        try:
            tc.replay_json(record)
        except tc.RecordError as exc:
            (HERE / f"{name}.error.txt").write_text(f"{exc}\n", encoding="utf-8")
        else:
            raise AssertionError(f"{name} replays without error")


if __name__ == "__main__":
    main()
