"""The conformance cases: positions of real matches with everything an engine must say.

A case is one JSON object (one line of ``cases.jsonl``)::

    {"format": "trixcomplex-conformance", "version": 1, "id": "classic/3/117",
     "clause": "R-CX-2" or null, "ruleset": "classic",
     "moves": [...],                 # the position: every move from new_match on
     "legal": [[...], [...], [...], [...]],   # each seat's legal moves there
     "host": ["timeout"],            # the host moves allowed there: "deal", "timeout"
     "refused": [{"move": {...}, "rule": "R-CX-2"}, ...],   # moves it must refuse
     "next": {...} or null,          # a legal move played from the position
     "score": {...},                 # the score after "next"
     "views": [{...}, {...}, {...}, {...}, {...}]}   # seats 0-3 and a spectator, after "next"

Moves, scores and views are in the library's JSON forms (the ``move``, ``score``
and ``view`` schemas); legal moves are compared as sets.  ``clause`` names the
rule a hand-picked case was chosen for (:func:`clause_cases`), ``null`` for the
positions of random matches (:func:`random_cases`).

>>> import trixcomplex as tc
>>> case = random_cases(tc.PARTNERSHIP, 2, seed=1)[1]
>>> case["format"], case["version"], len(case["views"])
('trixcomplex-conformance', 1, 5)

:func:`read_cases` reads a cases file strictly, as every loader of the library
reads what a stranger may have written: each line is parsed by the bounded
parser (:func:`trixcomplex.core.jsonio.loads`: at most :data:`MAX_CASE_CHARS`
characters a line and :data:`MAX_FILE_CHARS` a file, nesting at most 32 deep,
no integer too long to read, no key named twice) and every field a checker
reads is checked (:func:`check_case`).
Anything else is a :class:`CaseFormatError`, a ``ValueError`` naming the file,
the line, the case and the field:

>>> try:
...     check_case({**case, "legal": case["legal"][:3]})
... except CaseFormatError as exc:
...     print(exc.field, "-", exc)
legal - case 'partnership/1/480': legal is not a list of 4 lists of moves
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from ..core.engine import MatchState, Phase, legal_moves, score
from ..core.errors import TrixError, one_line
from ..core.jsonio import brief, loads
from ..core.moves import (
    Choose,
    Contract,
    Double,
    Move,
    Pass,
    Play,
    Redeal,
    Timeout,
    move_from_json,
    move_to_json,
)
from ..core.rulesets import RULESETS, Ruleset
from ..host.randomplay import random_match
from ..io.records import ruleset_of
from ..io.serialize import to_json
from ..knowledge.views import view
from .refusals import refusal_of, refusals

__all__ = [
    "CLAUSES",
    "FORMAT",
    "MAX_CASE_CHARS",
    "MAX_FILE_CHARS",
    "VERSION",
    "CaseFormatError",
    "case_at",
    "check_case",
    "clause_cases",
    "export",
    "random_cases",
    "read_cases",
]

FORMAT = "trixcomplex-conformance"
VERSION = 1
REFUSED_PER_CASE = 8
"""How many refused moves a case lists: one per clause first, then the next ones."""

VIEWERS: tuple[int | None, ...] = (0, 1, 2, 3, None)


MAX_CASE_CHARS = 4 * 1024 * 1024
"""Longest line of a cases file, in characters (4 Mi; the longest case written is some
120 thousand): a longer one is refused before it is parsed."""
MAX_FILE_CHARS = 256 * 1024 * 1024
"""Longest cases file, in characters (256 Mi, some 25 thousand cases; 200 cases take about
2 Mi): the reading stops there, so an endless file costs bounded time and memory."""


class CaseFormatError(ValueError):
    """A cases file, or a case, that is not conformance cases of a known version.

    One line, at most :data:`~trixcomplex.core.errors.MAX_MESSAGE` characters, built
    from bounded prefixes of the bad values.  ``path`` is the file (``None`` for a case
    given as a value), ``line`` its 1-based line, ``case`` the case's id and ``field``
    where in the case the fault is (``"legal[2]"``, ``"moves[0]"``): each ``None`` when
    unknown.  ``reason`` is the message without the place.
    """

    def __init__(
        self,
        reason: str,
        *,
        path: str | None = None,
        line: int | None = None,
        case: str | None = None,
        field: str | None = None,
    ) -> None:
        self.reason, self.path, self.line, self.case, self.field = reason, path, line, case, field
        where = ":".join(str(p) for p in (path, line) if p is not None)
        named = f"case {case!r}: " if case is not None else ""
        super().__init__(one_line(f"{where + ': ' if where else ''}{named}{reason}"))

    def at(self, path: str, line: int) -> CaseFormatError:
        """The same error, placed at line ``line`` of the file ``path``."""
        return CaseFormatError(self.reason, path=path, line=line, case=self.case, field=self.field)


def _is_move(value: Any) -> bool:
    try:
        move_from_json(value)
    except TrixError:
        return False
    return True


def _moves(value: Any) -> bool:
    return isinstance(value, list) and all(_is_move(m) for m in value)


def _score(value: Any) -> bool:
    """A score a checker can compare with: the keys it reads, of the types it reads."""
    return (
        isinstance(value, dict)
        and {"deals", "current", "seats", "teams"} <= value.keys()
        and isinstance(value["deals"], list)
        and all(isinstance(d, dict) and {"contract", "doubled"} <= d.keys() for d in value["deals"])
    )


def _view(value: Any) -> bool:
    return isinstance(value, dict) and ("score" not in value or _score(value["score"]))


_FIELDS: tuple[tuple[str, Callable[[Any], bool], str], ...] = (
    ("id", lambda v: isinstance(v, str), "a string"),
    ("clause", lambda v: v is None or isinstance(v, str), "a clause name or null"),
    ("ruleset", lambda v: isinstance(v, str), "a ruleset name"),
    ("moves", _moves, "a list of moves"),
    ("legal", lambda v: isinstance(v, list) and len(v) == 4, "a list of 4 lists of moves"),
    ("host", lambda v: isinstance(v, list) and all(isinstance(h, str) for h in v),
     "a list of host move names"),
    ("refused", lambda v: isinstance(v, list), "a list of refused moves"),
    ("next", lambda v: v is None or _is_move(v), "a move or null"),
    ("score", _score, "a score (deals, current, seats, teams)"),
    ("views", lambda v: isinstance(v, list) and len(v) == len(VIEWERS) and all(map(_view, v)),
     f"a list of {len(VIEWERS)} views"),
)  # fmt: skip
"""Each field of a case, what it must be, and the words for it."""


def check_case(value: Any) -> dict[str, Any]:
    """``value`` if it is a conformance case of this version with every field a checker
    reads, of the type it reads; else :class:`CaseFormatError` naming the field.

    The moves are read as a record's are (:func:`~trixcomplex.move_from_json`); whether
    they are legal is found when the case is checked (the reference replays them)."""
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        raise CaseFormatError(f"not a {FORMAT} case: {brief(value, 60)}")
    if value.get("version") != VERSION:
        raise CaseFormatError(f"version {brief(value.get('version'), 40)} unknown")
    case = value.get("id") if isinstance(value.get("id"), str) else None
    for name, good, words in _FIELDS:
        if name not in value:
            raise CaseFormatError(f"{name} is missing", case=case, field=name)
        if not good(value[name]):
            raise CaseFormatError(f"{name} is not {words}", case=case, field=name)
    try:
        ruleset_of(value["ruleset"])
    except TrixError as exc:
        raise CaseFormatError(str(exc), case=case, field="ruleset") from None
    for seat, moves in enumerate(value["legal"]):
        if not _moves(moves):
            raise CaseFormatError(
                f"legal[{seat}] is not a list of moves", case=case, field=f"legal[{seat}]"
            )
    for i, refused in enumerate(value["refused"]):
        if not (
            isinstance(refused, dict)
            and _is_move(refused.get("move"))
            and isinstance(refused.get("rule"), str)
        ):
            raise CaseFormatError(
                f"refused[{i}] is not a move and the rule it breaks",
                case=case, field=f"refused[{i}]",
            )  # fmt: skip
    return value


def _refused(state: MatchState) -> list[dict[str, Any]]:
    every = refusals(state)
    picked, rules = [], set()
    for refusal in every:  # one refusal per clause, then more up to the limit
        if refusal.rule not in rules:
            rules.add(refusal.rule)
            picked.append(refusal)
    for refusal in every:
        if len(picked) >= REFUSED_PER_CASE:
            break
        if refusal not in picked:
            picked.append(refusal)
    return [{"move": move_to_json(r.move), "rule": r.rule} for r in picked[:REFUSED_PER_CASE]]


def case_at(states: list[MatchState], index: int, case_id: str, clause: str | None = None) -> Any:
    """The case of position ``states[index]`` of a match, ``states[index + 1]`` (if any)
    being the state after its next move."""
    state = states[index]
    after = states[index + 1] if index + 1 < len(states) else state
    following = after.history.last if after is not state else None
    host = (
        ["deal"]
        if state.phase is Phase.DEAL
        else ["timeout"]
        if state.phase in (Phase.CHOOSE, Phase.DOUBLE)
        else []
    )
    return {
        "format": FORMAT,
        "version": VERSION,
        "id": case_id,
        "clause": clause,
        "ruleset": state.ruleset.name,
        "moves": [move_to_json(m) for m in state.history.moves()],
        "legal": [[move_to_json(m) for m in legal_moves(state, s)] for s in range(4)],
        "host": host,
        "refused": _refused(state),
        "next": None if following is None else move_to_json(following),
        "score": to_json(score(after)),
        "views": [to_json(view(after, seat)) for seat in VIEWERS],
    }


def _positions(states: list[MatchState], wanted: int) -> list[int]:
    """``wanted`` positions spread evenly over a match's phase changes and its regular
    steps, the first and the last position included."""
    starts = {i for i in range(1, len(states)) if states[i].phase is not states[i - 1].phase}
    step = max(1, len(states) // 24)
    candidates = sorted(starts | set(range(0, len(states), step)) | {len(states) - 1})
    if wanted >= len(candidates):
        return candidates
    spread = (len(candidates) - 1) / max(1, wanted - 1)
    return sorted({candidates[round(k * spread)] for k in range(wanted)})


def random_cases(ruleset: Ruleset, count: int, seed: int = 0) -> list[Any]:
    """``count`` cases at positions of seeded random matches of ``ruleset``: at most 24
    a match, spread over its phase changes (each choice, window, trick and TRIX play
    starts one) and its regular steps."""
    out: list[Any] = []
    match = seed
    while len(out) < count:
        states = random_match(ruleset, match)
        for index in _positions(states, min(24, count - len(out))):
            out.append(case_at(states, index, f"{ruleset.name}/{match}/{index}"))
        match += 1
    return out


Finder = Callable[[MatchState, Move | None, MatchState], bool]


def _trick_done(before: MatchState, move: Move | None, after: MatchState) -> bool:
    return (
        before.trick_deal is not None
        and after.trick_deal is not None
        and len(after.trick_deal.tricks) > len(before.trick_deal.tricks)
    )


def _deal_done(contract_is_trix: bool | None = None) -> Finder:
    def found(before: MatchState, move: Move | None, after: MatchState) -> bool:
        if len(after.results) <= len(before.results):
            return False
        trix = after.results[-1].contract is Contract.TRIX
        return contract_is_trix is None or trix is contract_is_trix

    return found


def _contract_done(contract: Contract) -> Finder:
    def found(before: MatchState, move: Move | None, after: MatchState) -> bool:
        return len(after.results) > len(before.results) and after.results[-1].contract is contract

    return found


MoveMaker = Callable[[MatchState], list[Move]]


def _plays_to_act(state: MatchState) -> list[Move]:
    return [Play(s, c) for s in sorted(state.to_act) for c in state.hand(s)]


def _plays_out_of_turn(state: MatchState) -> list[Move]:
    return [Play(s, state.hand(s)[0]) for s in range(4) if s not in state.to_act and state.hands[s]]


def _passes(state: MatchState) -> list[Move]:
    return [Pass(s) for s in range(4)]


def _doubles(state: MatchState) -> list[Move]:
    return [Double(s, [c]) for s in sorted(state.to_act) for c in state.hand(s)[:3]]


def _chooses(state: MatchState) -> list[Move]:
    if state.phase is not Phase.CHOOSE or state.owner is None:
        return []
    return [Choose(state.owner, c) for c in state.ruleset.contracts]


def _combined(state: MatchState) -> list[Move]:
    owner = state.owner or 0
    combined: list[Move] = [Choose(owner, c) for c in Contract if len(c.parts) > 1]
    return combined[:1]


def _refuses(rule: str, make: MoveMaker = _plays_to_act) -> Finder:
    """The position refuses one of ``make``'s moves under ``rule``."""

    def found(before: MatchState, move: Move | None, after: MatchState) -> bool:
        for candidate in make(before):
            refusal = refusal_of(before, candidate)
            if refusal is not None and refusal.rule == rule:
                return True
        return False

    return found


def _moved(kind: type, phase: Phase | None = None) -> Finder:
    return lambda before, move, after: (
        isinstance(move, kind) and (phase is None or before.phase is phase)
    )


def _doubled_taken(before: MatchState, move: Move | None, after: MatchState) -> bool:
    if not _trick_done(before, move, after) or after.trick_deal is None:
        return False
    taken = set(after.trick_deal.tricks[-1].cards)
    return any(card in taken for card, _ in after.trick_deal.doubled)


def _gone_out(before: MatchState, move: Move | None, after: MatchState) -> bool:
    return (
        before.trix is not None
        and after.trix is not None
        and len(after.trix.finishing_order) > len(before.trix.finishing_order)
    )


def _kingdom_starts(before: MatchState, move: Move | None, after: MatchState) -> bool:
    return before.phase is Phase.DEAL and before.kingdom != after.kingdom and after.kingdom > 1


def _over(before: MatchState, move: Move | None, after: MatchState) -> bool:
    return after.phase is Phase.OVER


def _anything(before: MatchState, move: Move | None, after: MatchState) -> bool:
    return (
        before.phase is Phase.COMPLEX
        and before.trick_deal is not None
        and bool(before.trick_deal.trick)
    )


_P, _CL, _CLP = RULESETS["partnership"], RULESETS["classic"], RULESETS["classic-partnership"]
_IND = RULESETS["individual-complex"]

CLAUSES: dict[str, tuple[Ruleset, Finder]] = {
    "R-SEAT-1": (_P, _refuses("R-SEAT-1", _plays_out_of_turn)),
    "R-SEAT-2": (_P, _deal_done(False)),
    "R-CARD-1": (_P, _anything),
    "R-CARD-2": (_P, _moved(Play)),
    "R-MATCH-1": (_P, _kingdom_starts),
    "R-MATCH-2": (_P, _refuses("R-MATCH-2", _passes)),
    "R-MATCH-3": (_P, lambda b, m, a: b.phase is Phase.DEAL and a.deal_number == 1),
    "R-MATCH-4": (_P, _kingdom_starts),
    "R-MATCH-5": (
        _CL,
        lambda b, m, a: b.phase is Phase.CHOOSE and len(b.remaining_contracts) < 5,
    ),
    "R-MATCH-6": (_P, _moved(Timeout, Phase.CHOOSE)),
    "R-MATCH-7": (_P, _deal_done()),
    "R-MATCH-8": (_P, _over),
    "R-CX-1": (_P, _refuses("R-CX-1", _plays_out_of_turn)),
    "R-CX-2": (_P, _refuses("R-CX-2")),
    "R-CX-3": (_P, _trick_done),
    "R-CX-4": (_P, _deal_done(False)),
    "R-CX-5": (_P, _trick_done),
    "R-CX-6": (_P, _deal_done(False)),
    "R-DBL-1": (_P, _refuses("R-DBL-1", _doubles)),
    "R-DBL-2": (_P, _moved(Double)),
    "R-DBL-3": (_P, _moved(Timeout, Phase.DOUBLE)),
    "R-DBL-4": (_P, _doubled_taken),
    "R-DBL-5": (_P, _doubled_taken),
    "R-TX-1": (_P, _refuses("R-TX-1", _plays_out_of_turn)),
    "R-TX-2": (_P, _refuses("R-TX-2")),
    "R-TX-3": (_P, _moved(Pass)),
    "R-TX-4": (_P, _gone_out),
    "R-TX-5": (_P, lambda b, m, a: b.phase is Phase.TRIX and len(legal_moves(b)) == 1),
    "R-SUM-1": (_P, _kingdom_starts),
    "R-HID-1": (_P, _anything),
    "R-HID-2": (_P, _moved(Double)),
    "R-HID-3": (_P, lambda b, m, a: a.phase is Phase.DEAL and len(a.results) == 1),
    "R-IND-1": (_IND, _over),
    "R-CL-1": (_CL, _kingdom_starts),
    "R-CL-2": (_CL, _refuses("R-CL-2")),
    "R-CL-3": (_CL, _contract_done(Contract.QUEENS)),
    "R-CL-4": (_CL, _contract_done(Contract.DIAMONDS)),
    "R-CL-5": (_CL, _contract_done(Contract.LTOOSH)),
    "R-CL-6": (_CL, _contract_done(Contract.TRIX)),
    "R-CL-7": (_CL, _moved(Double)),
    "R-CL-8": (_CL, _kingdom_starts),
    "R-SET-1": (_CLP, lambda b, m, a: b.phase is Phase.DEAL and b.deal_number == 0),
    "R-SET-2": (_CL, _refuses("R-SET-2", _chooses)),
    "R-CLP-1": (_CLP, _over),
    "R-OPT-1": (_CL.evolve(doubling=False), _deal_done(False)),
    "R-OPT-2": (_CL.evolve(penalty_cards_first=True), _refuses("R-OPT-2")),
    "R-OPT-3": (_CL.evolve(swapped_scores=True), _deal_done(False)),
    "R-OPT-4": (_CL.evolve(free_heart_leads=True), _trick_done),
    "R-OPT-5": (_CL.evolve(fixed_order=True), _deal_done()),
    "R-OPT-6": (_CL.evolve(reversed_scores=True), _over),
    "R-OPT-7": (_CL.evolve(show_twos=True), _moved(Pass)),
    "R-OPT-8": (_CL.evolve(bad_hand_redeal=True), _moved(Redeal)),
    "R-OPT-9": (_CL, _refuses("R-OPT-9", _combined)),
    "R-OPT-10": (_CLP.evolve(worst_seat_loses=True), _over),
}
"""Each clause, the ruleset and the test a move of a seeded match must pass for the
position before it to be that clause's hand-picked case."""

_SEARCH = 40
"""How many seeded matches :func:`clause_cases` searches for a clause's case."""


def _first(ruleset: Ruleset, found: Finder) -> Iterator[tuple[list[MatchState], int, int]]:
    for seed in range(_SEARCH):
        states = random_match(ruleset, seed)
        for index in range(len(states) - 1):
            move = states[index + 1].history.last
            if found(states[index], move, states[index + 1]):
                yield states, index, seed
                return


def clause_cases(clauses: Iterable[str] | None = None) -> list[Any]:
    """One hand-picked case per clause of :data:`CLAUSES` (or of ``clauses``): the first
    position of the seeded matches of the clause's ruleset that exercises it."""
    found_at = []
    for clause in clauses if clauses is not None else CLAUSES:
        ruleset, found = CLAUSES[clause]
        for states, index, seed in _first(ruleset, found):
            found_at.append((ruleset.name, seed, index, clause, states))
    found_at.sort(key=lambda f: f[:3])  # positions of one match in order: replayed once
    return [
        case_at(states, index, f"{clause}/{name}/{seed}/{index}", clause)
        for name, seed, index, clause, states in found_at
    ]


def export(
    directory: Path, cases: int = 200, ruleset: Ruleset | None = None, *, total: bool = False
) -> Path:
    """Write ``directory/cases.jsonl``: the clause cases, then ``cases`` random-match cases
    (of ``ruleset``, or shared among the presets).  Returns the file written.

    With ``total=True`` (the command line's ``--cases``), ``cases`` counts every case of
    the file: the clause cases, then random-match cases up to ``cases``; never fewer
    than the clause cases, as every clause keeps its case."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "cases.jsonl"
    chosen = [ruleset] if ruleset is not None else list(RULESETS.values())
    every = clause_cases()
    randoms = max(0, cases - len(every)) if total else cases
    for i, rs in enumerate(chosen):
        share = randoms // len(chosen) + (1 if i < randoms % len(chosen) else 0)
        every += random_cases(rs, share)
    with path.open("w", encoding="utf-8") as out:
        for case in every:
            out.write(json.dumps(case, separators=(",", ":"), ensure_ascii=False) + "\n")
    return path


def read_cases(path: Path) -> list[Any]:
    """The cases of a ``cases.jsonl`` file, each checked (:func:`check_case`);
    :class:`CaseFormatError` for anything else, an empty file included."""
    name = str(path)
    out = []
    try:
        with path.open(encoding="utf-8", newline="") as lines:
            number = read = 0
            while True:
                line = lines.readline(MAX_CASE_CHARS + 1)
                if not line:
                    break
                number, read = number + 1, read + len(line)
                if read > MAX_FILE_CHARS:
                    raise CaseFormatError(
                        f"a file of more than {MAX_FILE_CHARS} characters", path=name, line=number
                    )
                if len(line) > MAX_CASE_CHARS and not line.endswith("\n"):
                    raise CaseFormatError(
                        f"a line of more than {MAX_CASE_CHARS} characters", path=name, line=number
                    )
                if line.strip():
                    out.append(_case_of(line, name, number))
    except UnicodeDecodeError as exc:
        raise CaseFormatError(f"not UTF-8 ({exc.reason})", path=name) from None
    except OSError as exc:
        raise CaseFormatError(f"cannot read ({exc.strerror or exc})", path=name) from None
    if not out:
        raise CaseFormatError("no cases: the file is empty", path=name)
    return out


def _case_of(line: str, path: str, number: int) -> dict[str, Any]:
    try:
        value = loads(line, max_length=MAX_CASE_CHARS)
    except TrixError as exc:
        raise CaseFormatError(f"not JSON: {exc}", path=path, line=number) from None
    try:
        return check_case(value)
    except CaseFormatError as exc:
        raise exc.at(path, number) from None
