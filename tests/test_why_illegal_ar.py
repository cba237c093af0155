"""``tc.why_illegal(..., locale="ar")``: every refusal the engine has, answered in Arabic.

The list of refusals is read from the engine itself: every ``IllegalMoveError``
the match flow raises (its clause, and the words of its reason, read from the
source of ``trixcomplex/core/match.py``) and every ``submit.*`` refusal
``why_illegal`` can give (the ``ERROR_CODES`` a move object can meet).  Real
states of real matches, across the rulesets and their options, produce each
one; its Arabic answer must be Arabic (no English word left: a missing
translation fails here, not in front of a player), keep the clause, and the
English answer must stay what it always was.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import trixcomplex as tc
from trixcomplex.core.errors import ERROR_CODES
from trixcomplex.host import refusals
from trixcomplex.host.refusals import REFUSALS, reason_text

SRC = Path(tc.__file__).resolve().parent

_CLAUSE = re.compile(r"R-[A-Z]+-\d+")
_CARD = re.compile(r"(10|[2-9JQKA])[♠♥♦♣]")
_LATIN = re.compile(r"[A-Za-z]{2,}|\b[A-Za-z]\b")


def assert_arabic(text: str) -> None:
    """``text`` is Arabic: Arabic letters, and no English word once the clause IDs and the
    card signs (``Q♠``, the same in every language) are set aside."""
    rest = _CARD.sub("", _CLAUSE.sub("", text))
    assert re.search("[\u0600-\u06ff]", rest), text
    assert not _LATIN.search(rest), f"English left in the Arabic answer: {text!r}"


# -- the engine's refusals, read from its source ------------------------------------------


def _engine_refusals() -> tuple[set[str], list[str]]:
    """The clauses of every ``IllegalMoveError`` of ``core/match.py`` (the phase clauses of
    ``_PHASE_RULES`` included) and the words of each reason, its fields as ``X``."""
    tree = ast.parse((SRC / "core" / "match.py").read_text(encoding="utf-8"))
    clauses: set[str] = set()
    reasons: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalMoveError":
            reason, rule = node.args[1], node.args[2]
            if isinstance(rule, ast.Constant):
                clauses.add(rule.value)
            if isinstance(reason, ast.JoinedStr):
                reasons.append(
                    "".join(
                        str(v.value) if isinstance(v, ast.Constant) else "X" for v in reason.values
                    )
                )
            elif isinstance(reason, ast.Constant):
                reasons.append(reason.value)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple):
            values = node.value.elts  # `why, rule = "...", "R-OPT-9"`
            constants = [v.value for v in values if isinstance(v, ast.Constant)]
            if len(values) == 2 == len(constants) and _CLAUSE.fullmatch(str(constants[1])):
                clauses.add(constants[1])
    from trixcomplex.core.match import _PHASE_RULES

    clauses |= {rule for _, rule in _PHASE_RULES.values()}
    return clauses, reasons


ENGINE_CLAUSES, ENGINE_REASONS = _engine_refusals()

# The submit.* refusals a move object can meet (the others are about raw client text).
SUBMIT_CODES = {"submit.spectator", "submit.wrong-seat", "submit.host-only", "submit.bad-seat"}

# Refusals why_illegal never gives (a host's move is refused as submit.host-only first;
# the deal runner's own words are for apply_moves), still translated for other callers.
NOT_FROM_WHY_ILLEGAL = {
    "a timeout is only legal while the owner chooses or the doubling window is open; {what}",
    "not a legal card or pass of the deal now",
}


def test_the_engine_list_is_read() -> None:
    """The source scan finds the refusals it must (so the walk below cannot pass empty)."""
    assert {"R-CX-2", "R-TX-3", "R-DBL-1", "R-OPT-8", "R-OPT-9", "R-MATCH-8"} <= ENGINE_CLAUSES
    assert len(ENGINE_REASONS) >= 15
    assert set(ERROR_CODES) >= SUBMIT_CODES


def test_every_reason_of_the_engine_has_a_template_in_the_catalog() -> None:
    """Each reason the match flow words (its fields as ``X``) follows one of REFUSALS; the
    fixed words of the phase and choice refusals are among the translated parts."""
    for reason in ENGINE_REASONS:
        assert any(p.fullmatch(reason) for _, p in refusals._PATTERNS), reason
    from trixcomplex.core.match import _PHASE_RULES

    assert {words for words, _ in _PHASE_RULES.values()} <= set(refusals._PARTS["what"])
    source = (SRC / "core" / "match.py").read_text(encoding="utf-8")
    for why in refusals._PARTS["why"]:
        assert f'"{why}"' in source, why


# -- real states producing each refusal ------------------------------------------------------

RULESETS = [
    tc.PARTNERSHIP,
    tc.CLASSIC.evolve(penalty_cards_first=True, bad_hand_redeal=True),
    tc.CLASSIC.evolve(combined_contracts=True),
]


def _tries(seat: int) -> list[tc.Move]:
    """Every move worth trying for ``seat``: each card, a pass, a redeal, each contract,
    doubles, and the host's moves."""
    moves: list[tc.Move] = [tc.Play(seat, card) for card in tc.ALL_CARDS]
    moves += [tc.Pass(seat), tc.Redeal(seat), tc.Double(seat)]
    moves += [tc.Choose(seat, c) for c in tc.Contract]
    moves += [tc.Double(seat, {tc.parse_card(c)}) for c in ("QS", "QH", "QD", "QC", "KH")]
    return moves


def _states(ruleset: tc.Ruleset, seed: int) -> Iterator[tc.MatchState]:
    """Every state of one random match, the finished one included."""
    rng = random.Random(seed)
    state = tc.new_match(ruleset)
    while not state.is_over:
        yield state
        if state.phase is tc.Phase.DEAL:
            state = tc.apply(state, tc.Deal.shuffled(rng))
        else:
            state = tc.apply(state, rng.choice(tc.legal_moves(state)))
    yield state


Kind = tuple[str, str, str]  # code, clause (or code), the template of the English words
Examples = dict[Kind, list[tuple[tc.MatchState, int | None, tc.Move]]]


def _kind(state: tc.MatchState, seat: int | None, move: tc.Move) -> Kind | None:
    """The refusal ``submit`` gives, or ``None``."""
    try:
        tc.submit(state, seat, tc.move_to_json(move))
    except tc.IllegalMoveError as exc:
        code, rule, said = exc.code, exc.rule or "", exc.reason
    except tc.TrixError as exc:
        code, rule, said = exc.code, exc.code, str(exc)
    else:
        return None
    templates = [t for t, p in refusals._PATTERNS if p.fullmatch(said)]
    return code, rule, templates[0] if templates else said


def _walk() -> Examples:
    """Refusals found in real states, each with a few examples."""
    found: Examples = {}
    rng = random.Random(40)
    for i, ruleset in enumerate(RULESETS):
        for state in _states(ruleset, 100 + i):
            if rng.random() > 0.12 and not state.is_over:
                continue
            for seat in range(4):
                for move in _tries(seat):
                    kind = _kind(state, seat, move)
                    if kind is not None and len(found.setdefault(kind, [])) < 12:
                        found[kind].append((state, seat, move))
            for seat, move in (
                (None, tc.Pass(0)),
                (7, tc.Pass(0)),
                (0, tc.Pass(1)),
                (0, tc.Timeout()),
                (0, tc.Deal.shuffled(rng)),
            ):
                kind = _kind(state, seat, move)
                assert kind is not None
                found.setdefault(kind, []).append((state, seat, move))
    return found


@pytest.fixture(scope="module")
def walked() -> Examples:
    return _walk()


def test_every_refusal_of_the_engine_is_answered_in_arabic(
    walked: Examples,
) -> None:
    """Every (illegal-move, clause) the engine raises and every submit.* refusal a move can
    meet comes up in a real state; each answer in Arabic is Arabic and keeps the clause; the
    English answer is the engine's own words (unchanged)."""
    # R-MATCH-6 is only the refused Timeout: a seat's Timeout is submit.host-only first
    # (its Arabic is checked from a real state in the test after this one).
    clauses = ENGINE_CLAUSES - {"R-MATCH-6"}
    wanted = {("illegal-move", c) for c in clauses} | {(c, c) for c in SUBMIT_CODES}
    seen = {(code, rule) for code, rule, _ in walked}
    assert wanted <= seen, f"no real state found for {sorted(wanted - seen)}"
    templates = {template for _, _, template in walked}
    for (code, rule, _), examples in walked.items():
        for state, seat, move in examples:
            english = tc.why_illegal(state, seat, move)
            arabic = tc.why_illegal(state, seat, move, locale="ar")
            assert english is not None and arabic is not None
            assert_arabic(arabic)
            if code == "illegal-move":
                assert arabic.endswith(f"({rule})") and english.endswith(f"({rule})")
            else:
                assert _CLAUSE.findall(arabic) == _CLAUSE.findall(english)
    # every template a seat can meet was met, so each was checked in Arabic above
    assert set(REFUSALS) - NOT_FROM_WHY_ILLEGAL <= templates


def test_the_refusals_no_seat_meets_here_read_in_arabic_too() -> None:
    """The two refusals why_illegal never gives still read in Arabic (other callers show them)."""
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(1)))
    state = tc.apply(state, tc.Choose(state.owner, tc.Contract.TRIX))
    with pytest.raises(tc.IllegalMoveError) as raised:
        tc.apply(state, tc.Timeout())
    assert_arabic(reason_text(raised.value.reason, "ar"))
    assert_arabic(reason_text("not a legal card or pass of the deal now", "ar"))


def test_the_arabic_check_catches_english() -> None:
    """The check above fails on an untranslated answer (it is not a check that cannot fail)."""
    with pytest.raises(AssertionError):
        assert_arabic("seat 1 must follow suit ♥ (R-CX-2)")
    with pytest.raises(AssertionError):
        assert_arabic("المقعد 1 must follow (R-CX-2)")
    assert_arabic("يجب على المقعد 1 أن يتبع اللون ♥ (R-CX-2)")


def test_an_unknown_locale_is_refused_clearly_and_changes_nothing() -> None:
    """``locale="fr"`` raises LocaleError (a ValueError, code locale.unknown) naming the
    known locales; regional tags of a known language are accepted."""
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
    move = tc.Pass(1)
    with pytest.raises(tc.LocaleError, match="use one of en, ar") as raised:
        tc.why_illegal(state, 1, move, locale="fr")
    assert isinstance(raised.value, ValueError) and raised.value.code == "locale.unknown"
    assert tc.why_illegal(state, 1, move, locale="ar-SA") == tc.why_illegal(
        state, 1, move, locale="ar"
    )
    assert tc.why_illegal(state, 1, move, locale="en") == tc.why_illegal(state, 1, move)


def test_r_hid_1_the_arabic_answer_depends_only_on_what_the_seat_sees(
    walked: Examples,
) -> None:
    """R-HID-1: for a seat's own move, the Arabic answer is the same in a world the seat
    cannot tell from the real one (the words add nothing to the English reason's facts)."""
    rng = random.Random(3)
    compared = 0
    for examples in walked.values():
        for state, seat, move in examples[:3]:
            if seat is None or not 0 <= seat <= 3 or getattr(move, "seat", None) != seat:
                continue
            if state.phase in (tc.Phase.DEAL, tc.Phase.OVER):
                continue
            world = tc.sample_world(tc.view(state, seat), rng)
            here = tc.why_illegal(state, seat, move, locale="ar")
            assert tc.why_illegal(world, seat, move, locale="ar") == here
            compared += 1
    assert compared > 20
