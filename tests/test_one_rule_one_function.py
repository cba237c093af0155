"""Each rule is decided by exactly one function: the inline forms stay out of the source.

Three rules were once written out inline where the engine needed them fast;
each now has its one function, and these tests fail if an inline copy comes
back anywhere in ``src/trixcomplex`` (doctest lines aside):

- R-TX-2: the cards a seat may lay in TRIX are its playable cards held,
  ``trix.layable(hand, can)`` — never ``hand & can`` / ``hand & deal.playable``;
- R-SEAT-1: the next seat is ``seats.next_seat(seat)`` — never ``(seat + 1) & 3``
  or ``(seat + 1) % 4``;
- a contract's trick rules under a ruleset are ``Ruleset.trick_rules(contract)``
  — never ``ruleset._rules[contract]``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "trixcomplex"

# (clause, the inline form, the one place allowed to hold it: "file.py:function")
INLINE_FORMS = [
    ("R-TX-2", re.compile(r"\bhands?(\[[^\]]*\])? & (deal\.|self\.)?(can|playable)\b"), "trix.py"),
    ("R-TX-2", re.compile(r"\b(can|playable) & hands?\b"), "trix.py"),
    ("R-SEAT-1", re.compile(r"\+ 1\) ?(& ?3|% ?4)"), "seats.py"),
    ("R-SET-1", re.compile(r"\._rules\["), "rulesets.py"),
]


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of ``path`` that are code (doctest examples and comments left out)."""
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith((">>>", "...", "#")):
            continue
        out.append((number, line.split("  #")[0]))
    return out


def inline_copies(clause: str) -> list[str]:
    """Every inline copy of ``clause``'s rule outside its one function, as ``path:line``."""
    found = []
    for name, pattern, home in INLINE_FORMS:
        if name != clause:
            continue
        for path in sorted(SRC.rglob("*.py")):
            for number, line in _code_lines(path):
                if pattern.search(line) and path.name != home:
                    found.append(f"{path.relative_to(SRC)}:{number}: {line.strip()}")
    return found


def test_r_tx_2_trix_legality_only_through_layable() -> None:
    """R-TX-2: which TRIX cards a seat may lay is decided by ``trix.layable`` alone."""
    assert inline_copies("R-TX-2") == []


def test_r_seat_1_next_seat_only_through_next_seat() -> None:
    """R-SEAT-1: the seat after another is decided by ``seats.next_seat`` alone."""
    assert inline_copies("R-SEAT-1") == []


def test_r_set_1_trick_rules_only_through_ruleset_trick_rules() -> None:
    """R-SET-1: a contract's rules under a ruleset are read by ``Ruleset.trick_rules`` alone."""
    assert inline_copies("R-SET-1") == []
    holder = (SRC / "core" / "rulesets.py").read_text(encoding="utf-8")
    assert holder.count("._rules[") == 1  # in trick_rules itself


@pytest.mark.parametrize(
    ("clause", "line"),
    [
        ("R-TX-2", "        legal = state.hands[turn] & deal.playable"),
        ("R-TX-2", "        legal = hand & can"),
        ("R-SEAT-1", "            turn = (turn + 1) & 3"),
        ("R-SET-1", "        rules = state.ruleset._rules[state.contract]"),
    ],
)
def test_the_check_finds_each_inline_form(clause: str, line: str) -> None:
    """The patterns above do match the inline forms they guard against."""
    assert any(p.search(line) for name, p, _ in INLINE_FORMS if name == clause)
