"""The message catalog (``trixcomplex.core.catalog``, ``src/trixcomplex/locale``): complete,
compiled from its source, read with the standard library only, and used by every renderer.

- every message of the template (``trixcomplex.pot``) has a non-empty Arabic translation
  keeping its ``{fields}``;
- the template holds exactly the messages marked in the source (``pybabel extract``), and
  the committed ``.mo`` is exactly the ``.po`` compiled (so the wheel ships what was
  reviewed);
- the players' names of the contracts (R-MATCH-1, R-CL-1) and every clause of the rules
  page has a title in both languages;
- the pictures, the scoresheet and the ledger in Arabic leave no English word behind,
  and in English are unchanged (their own tests pin the English text).
"""

from __future__ import annotations

import gettext
import random
import re
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from fnmatch import fnmatch
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import trixcomplex as tc
from builders import random_match
from test_why_illegal_ar import assert_arabic
from trixcomplex.core import catalog
from trixcomplex.io.render import table_svg, table_text
from trixcomplex.io.scoresheet import contract_name, format_scoresheet

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "trixcomplex" / "locale"
POT = LOCALE / "trixcomplex.pot"
PO = LOCALE / "ar" / "LC_MESSAGES" / "trixcomplex.po"
MO = LOCALE / "ar" / "LC_MESSAGES" / "trixcomplex.mo"


def _messages(path: Path) -> dict[str, str]:
    with path.open("rb") as file:
        return {m.id: m.string for m in read_po(file) if m.id}  # type: ignore[misc]


def _fields(text: str) -> list[str]:
    return sorted(re.findall(r"\{(\w*)\}", text))


def test_every_message_of_the_template_has_an_arabic_translation() -> None:
    """Each msgid of the .pot has a non-empty Arabic msgstr with the same fields."""
    template = _messages(POT)
    arabic = _messages(PO)
    assert len(template) > 150
    missing = [m for m in template if not arabic.get(m)]
    assert not missing, f"untranslated: {missing}"
    for msgid in template:
        assert _fields(arabic[msgid]) == _fields(msgid), msgid
    assert set(arabic) == set(template), "the .po has messages the template no longer has"


def test_the_template_holds_exactly_the_messages_marked_in_the_source() -> None:
    """``pybabel extract`` (babel.cfg, keywords translate and N_) finds the .pot's messages:
    a message added to the code without running the extraction fails here."""
    found = {
        message
        for _, _, message, _, _ in extract_from_dir(
            str(ROOT / "src" / "trixcomplex"),
            method_map=[("**.py", "python")],
            keywords={"translate": None, "N_": None},
        )
        if isinstance(message, str)
    }
    assert found == set(_messages(POT))


def test_the_committed_mo_is_the_po_compiled() -> None:
    """The .mo read by gettext (what the wheel ships) holds exactly the .po's translations."""
    with MO.open("rb") as file:
        compiled = gettext.GNUTranslations(file)
    table = {k: v for k, v in compiled._catalog.items() if k}  # type: ignore[attr-defined]
    assert table == {k: v for k, v in _messages(PO).items()}


def test_the_wheel_ships_the_catalogs() -> None:
    """package-data in pyproject.toml takes the .mo (and its sources) into the wheel."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["package-data"]["trixcomplex"]
    for path in (POT, PO, MO):
        relative = path.relative_to(ROOT / "src" / "trixcomplex").as_posix()
        assert any(fnmatch(relative, p) for p in patterns), relative
    assert "Babel" not in str(data["project"]["dependencies"])
    assert any(d.startswith("Babel") for d in data["project"]["optional-dependencies"]["test"])


def test_reading_a_catalog_needs_only_the_standard_library() -> None:
    """In a fresh interpreter with Babel blocked, the Arabic text still reads."""
    code = (
        "import sys; sys.modules['babel'] = None\n"
        "from trixcomplex.core.catalog import translate\n"
        "print(translate('Queens', 'ar'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "البنات"


def test_the_players_names_of_the_contracts() -> None:
    """R-MATCH-1, R-CL-1: the names Arabic-speaking players use."""
    names = {c: contract_name(c, "ar") for c in tc.CLASSIC.contracts + (tc.Contract.COMPLEX,)}
    assert names == {
        tc.Contract.KING_OF_HEARTS: "شايب الكوبة",
        tc.Contract.QUEENS: "البنات",
        tc.Contract.DIAMONDS: "الديناري",
        tc.Contract.LTOOSH: "اللطوش",
        tc.Contract.TRIX: "تركس",
        tc.Contract.COMPLEX: "كومبلكس",
    }
    assert contract_name(tc.Contract.QUEENS_DIAMONDS, "ar") == "البنات + الديناري"  # R-OPT-9


def test_every_clause_of_the_rules_has_a_title_in_both_languages() -> None:
    """CLAUSE_TITLES names exactly the clauses of docs/rules.rst; each reads in Arabic."""
    rules = (ROOT / "docs" / "rules.rst").read_text(encoding="utf-8")
    clauses = re.findall(r"^(R-[A-Z]+-\d+)$", rules, flags=re.MULTILINE)
    assert set(clauses) == set(catalog.CLAUSE_TITLES)
    for clause in clauses:
        assert_arabic(catalog.clause_title(clause, "ar"))
    for phase in tc.Phase:
        assert_arabic(catalog.phase_words(phase, "ar"))


def test_the_glossary_lists_each_term_in_both_languages_with_its_clause() -> None:
    """docs/glossary.rst: every contract name, in English and Arabic, with its clause."""
    text = (ROOT / "docs" / "glossary.rst").read_text(encoding="utf-8")
    for value, english in catalog.CONTRACT_NAMES.items():
        assert english in text and catalog.translate(english, "ar") in text, value
    for clause in ("R-MATCH-1", "R-CL-2", "R-CL-3", "R-CL-4", "R-CL-5", "R-TX-1", "R-CX-1"):
        assert clause in text
    assert "glossary" in (ROOT / "docs" / "index.rst").read_text(encoding="utf-8")


def test_locales_and_browsers() -> None:
    """Regional tags read as their language; a browser's unknown language falls back to
    English; an unknown locale= is an error naming the known ones."""
    assert catalog.check_locale("ar-EG") == "ar"
    assert tc.best_locale("de-DE,de;q=0.9,ar;q=0.5") == "ar"
    assert tc.best_locale("de-DE, fr;q=0.9") == "en"
    assert catalog.is_right_to_left("ar-SA") and not catalog.is_right_to_left("en")
    for bad in ("fr", "", "arabic", None, 3):
        with pytest.raises(tc.LocaleError):
            catalog.translate("Queens", bad)  # type: ignore[arg-type]


def _no_english(text: str, ruleset: tc.Ruleset) -> None:
    """No English word in ``text`` but card ranks of the hands and rows and the ruleset's
    machine name."""
    for line in text.replace(ruleset.name, "").splitlines():
        line = line.strip()
        if not line or line[0] in "♠♥♦♣":  # a hand or a TRIX row: ranks only
            continue
        rest = re.sub(r"(10|[2-9JQKA])[♠♥♦♣]", "", line)
        assert not re.search(r"[A-Za-z]{2,}", re.sub(r"R-[A-Z]+-\d+", "", rest)), line


@pytest.mark.parametrize("ruleset", [tc.PARTNERSHIP, tc.CLASSIC])
def test_the_pictures_scoresheet_and_ledger_in_arabic_leave_no_english(
    ruleset: tc.Ruleset,
) -> None:
    """Every state of a random match: the text table of each seat, the SVG's words, the
    scoresheet and each ledger line read in Arabic; English stays the default."""
    states = random_match(3, ruleset=ruleset)
    for state in states[:: max(1, len(states) // 60)] + [states[-1]]:
        for seat in (None, 0, 1):
            seen = tc.view(state, seat)
            _no_english(table_text(seen, locale="ar"), ruleset)
            svg = table_svg(seen, locale="ar")
            root = ET.fromstring(svg)  # well-formed, and marked as Arabic for screen readers
            assert root.get("{http://www.w3.org/XML/1998/namespace}lang") == "ar"
            _no_english(" ".join(re.findall(r">([^<>]+)<", svg)), ruleset)
            assert table_text(seen) == table_text(seen, locale="en")
        _no_english(format_scoresheet(state, locale="ar"), ruleset)
    final = states[-1]
    for entry in tc.ledger(final):
        _no_english(entry.describe("ar"), ruleset)
        assert entry.describe() == entry.describe("en")
    assert table_svg(tc.view(final, 0), locale="ar") != table_svg(tc.view(final, 0))


def test_no_english_check_catches_english() -> None:
    with pytest.raises(AssertionError):
        _no_english("Scoresheet  المقعد 0", tc.PARTNERSHIP)
    _no_english("ورقة النقاط  المقعد 0  Q♠ (R-CX-5) partnership", tc.PARTNERSHIP)


def test_a_ledger_line_names_who_what_and_the_clauses() -> None:
    """LedgerEntry.describe: the seat, the signed points, the trick or the case (R-DBL-4),
    and the clauses, in both languages."""
    rng = random.Random(5)
    state = tc.new_match()
    while not any(e.case for e in tc.ledger(state)) and not state.is_over:
        if state.phase is tc.Phase.DEAL:
            state = tc.apply(state, tc.Deal.shuffled(rng))
        else:
            state = tc.apply(state, rng.choice(tc.legal_moves(state)))
    doubled = next(e for e in tc.ledger(state) if e.case)
    line = doubled.describe()
    assert line.startswith(f"seat {doubled.seat} {doubled.points:+d}: {doubled.cards[0].symbol}")
    assert f"case {doubled.case} (R-DBL-4" in line
    arabic = doubled.describe("ar")
    assert f"الحالة {doubled.case}" in arabic and "(R-DBL-4" in arabic


def test_the_plain_pictures_label_themselves_in_arabic() -> None:
    """hand, trick and rows pictures: their labels in Arabic, the cards unchanged."""
    from trixcomplex.io.render import hand_svg, rows_svg, trick_svg, trick_text

    for svg in (hand_svg("AS QH", locale="ar"), trick_svg("7H KH", 2, locale="ar"),
                rows_svg("JS QS", locale="ar"), hand_svg("", locale="ar")):  # fmt: skip
        root = ET.fromstring(svg)
        label = root.get("aria-label") or ""
        assert_arabic(label)
    assert trick_text("7H KH 2H 5S", 2, locale="ar").splitlines()[1] == "المقعد 3  K♥  يأخذ"
