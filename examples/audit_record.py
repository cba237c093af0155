"""Replaying and auditing a game record.

A record (see docs/records.rst) is every move of a match, the shuffles included, so a
rules auditor can rebuild the match exactly and check it.  This script:

1. plays a seeded match between :class:`~trixcomplex.bots.RuleBot` players
   and writes its record as JSON text, as a server would store it;
2. reads the text back, replays it (:func:`trixcomplex.replay`) and prints the
   replay report (:func:`trixcomplex.replay_report`);
3. audits the result independently of the engine's bookkeeping: every COMPLEX
   deal sums to -500 (R-CX-6, R-DBL-5), every TRIX deal to +500 (R-TX-4),
   every Kingdom to 0 and the Team Totals to 0 (R-SUM-1), each doubled card's
   case follows from its doubler, taker and leader (R-DBL-4), and Kingdom
   ownership rotates (R-MATCH-4);
4. tampers with one move -- a seat that could follow suit plays another suit
   -- and shows the replay rejecting it, naming the move's index and the rule
   (R-CX-2).

Run it with ``python examples/audit_record.py``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import trixcomplex as tc
from trixcomplex.bots import RuleBot
from trixcomplex.host.tournament import play_match


def stored_match(seed: int) -> str:
    """A finished match's record as JSON text."""
    state = play_match([RuleBot()] * 4, random.Random(seed), [random.Random(s) for s in range(4)])
    return json.dumps(tc.Record.of(state).to_json())


def expected_case(doubler: int, taker: int, leader: int) -> int:
    """The R-DBL-4 case, straight from the rule text."""
    if taker != doubler:
        return 1
    return 2 if leader != doubler else 3


def audit(state: tc.MatchState) -> list[str]:
    """Every broken invariant of a finished match, as text (empty: all good)."""
    problems = []
    deals = state.results
    for deal in deals:
        expected = -500 if deal.contract is tc.Contract.COMPLEX else 500
        if sum(deal.points) != expected:
            problems.append(f"deal {deal.number} sums to {sum(deal.points)}, not {expected}")
        for d in deal.doubled:
            if d.case != expected_case(d.doubler, d.taker, d.leader):
                problems.append(f"deal {deal.number}: {d.card} has case {d.case}")
    for first, second in zip(deals[::2], deals[1::2], strict=True):
        if sum(first.points) + sum(second.points) != 0:
            problems.append(f"Kingdom {first.kingdom} does not sum to 0 (R-SUM-1)")
        if {first.contract, second.contract} != set(tc.PARTNERSHIP.contracts):
            problems.append(f"Kingdom {first.kingdom} did not play both contracts (R-MATCH-1)")
    for before, after in zip(deals[::2], deals[2::2], strict=False):
        if after.owner != (before.owner + 1) % 4:
            problems.append(f"Kingdom {after.kingdom} has the wrong owner (R-MATCH-4)")
    if sum(tc.score(state).teams) != 0:
        problems.append("the Team Totals do not add up to 0 (R-SUM-1)")
    return problems


def tamper(data: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """A copy of a record's JSON in which one seat fails to follow suit; and that move's index."""
    record = tc.Record.from_json(data)
    state = tc.new_match()
    for index, move in enumerate(record.moves):
        trick = state.complex.trick if state.complex is not None else ()
        if isinstance(move, tc.Play) and trick and move.card.suit is trick[0].suit:
            others = [c for c in state.hand(move.seat) if c.suit is not trick[0].suit]
            if others:
                bad = json.loads(json.dumps(data))
                bad["moves"][index]["card"] = str(others[0])
                return bad, index
        state = tc.apply(state, move)
    raise AssertionError("no trick in which a seat could have revoked")


def main() -> None:
    text = stored_match(seed=31)
    data = json.loads(text)
    print(f"stored record: {len(data['moves'])} moves, {len(text)} bytes of JSON")
    print("first moves:", json.dumps(data["moves"][1:4], ensure_ascii=False))

    state = tc.replay(tc.Record.from_json(data))
    report = tc.replay_report(state)
    print("replay report:")
    for key, value in report.items():
        if key == "deals":
            for number, deal in enumerate(value, start=1):
                print(f"  deal {number}: {json.dumps(deal)}")
        else:
            print(f"  {key}: {json.dumps(value)}")
    assert tc.replay_json(data) == state, "the lazy reader gives the same state"

    problems = audit(state)
    doubled = sum(len(d.doubled) for d in state.results)
    print(f"audit: 8 deals, {doubled} doubled cards checked against R-DBL-4 -> ", end="")
    print("all invariants hold" if not problems else "; ".join(problems))

    bad, index = tamper(data)
    print(f"tampered move {index}: {json.dumps(bad['moves'][index])}")
    try:
        tc.replay_json(bad)
    except tc.RecordError as exc:
        print(f"rejected at move {exc.index}, rule {exc.rule}: {exc}")
    else:
        raise AssertionError("a revoke must not replay")


if __name__ == "__main__":
    main()
