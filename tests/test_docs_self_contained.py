"""The rules live in the repository: docs/rules.rst is the normative text.

Checks that no page, docstring or comment points at a specification outside
the repository, that every clause ID used by the code, the tests or the docs
is defined on the rules page (exactly once), that every clause defined there
is named by a test, and that every test the page links to exists.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES_PAGE = ROOT / "docs" / "rules.rst"

OUTSIDE = re.compile(r"RULES\.md|RECORD\.md|DESIGN\.md|shared/|seeds/")
"""A pointer at the specification files the project was started from, which
are not part of the repository or the package."""

CLAUSE = re.compile(r"\bR-[A-Z]+-[0-9]+(?![0-9])")
"""A clause ID as code, tests and errors write it (``R-DBL-4``, ``R-OPT-10``)."""

TEXT_SUFFIXES = {".py", ".pyi", ".rst", ".md", ".txt", ".json", ".toml", ".js", ".html", ".css"}


def _text_files(*tops: Path) -> list[Path]:
    files: list[Path] = []
    for top in tops:
        if top.is_file():
            files.append(top)
            continue
        for path in sorted(top.rglob("*")):
            if (
                path.is_file()
                and path.suffix in TEXT_SUFFIXES
                and "_build" not in path.parts
                and not any(part.endswith(".egg-info") for part in path.parts)
            ):
                files.append(path)
    return files


def _project_files() -> list[Path]:
    """What a reader of the project sees: the docs, the package, the tests, the
    README, the examples, the tools, the benchmarks, the build configuration and
    the contributors' guide (this module excepted: it spells the pointers out).
    CHANGELOG.md, a history of past work, is not scanned."""
    tops = [ROOT / name for name in ("docs", "src", "tests", "examples", "tools", "benchmarks")]
    tops += [ROOT / name for name in ("README.md", "CONTRIBUTING.md", "pyproject.toml")]
    tops += [ROOT / "noxfile.py"]
    files = _text_files(*(top for top in tops if top.exists()))
    return [path for path in files if path != Path(__file__).resolve()]


def pointers_outside(files: list[Path], root: Path = ROOT) -> list[str]:
    """Every line of ``files`` pointing at a specification file outside the repository."""
    hits = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE.search(line):
                hits.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return hits


def defined_clauses(text: str) -> list[str]:
    """The clause IDs the rules page defines: each is a definition-list term, a
    line holding the ID alone, followed by the indented clause."""
    return re.findall(r"^(R-[A-Z]+-[0-9]+)\n(?=    \S)", text, re.M)


def test_no_page_docstring_or_comment_points_outside_the_repository() -> None:
    files = _project_files()
    assert len(files) > 50
    hits = pointers_outside(files)
    assert not hits, "pointers outside the repository:\n" + "\n".join(hits)


def test_the_check_for_outside_pointers_finds_one(tmp_path: Path) -> None:
    """The scan itself: a planted pointer in a docstring is found, with its line."""
    planted = tmp_path / "module.py"
    planted.write_text('"""Scores as RULES.md says."""\n', encoding="utf-8")
    clean = tmp_path / "other.py"
    clean.write_text('"""Scores as the rules page says (R-CX-5)."""\n', encoding="utf-8")
    assert pointers_outside([planted, clean], tmp_path) == [
        'module.py:1: """Scores as RULES.md says."""'
    ]


def test_every_clause_is_defined_once_on_the_rules_page() -> None:
    defined = defined_clauses(RULES_PAGE.read_text(encoding="utf-8"))
    assert len(defined) > 50
    twice = sorted({c for c in defined if defined.count(c) > 1})
    assert not twice, f"defined more than once on docs/rules.rst: {twice}"


def test_every_clause_id_used_in_code_tests_and_docs_is_defined_on_the_rules_page() -> None:
    """An error, a test or a page naming a clause names one the rules define."""
    defined = set(defined_clauses(RULES_PAGE.read_text(encoding="utf-8")))
    undefined: dict[str, str] = {}
    for path in _text_files(ROOT / "src", ROOT / "tests", ROOT / "docs", ROOT / "examples"):
        for clause in CLAUSE.findall(path.read_text(encoding="utf-8")):
            if clause not in defined:
                undefined.setdefault(clause, str(path.relative_to(ROOT)))
    assert not undefined, f"clause IDs not defined on docs/rules.rst: {undefined}"


def test_every_clause_of_the_rules_page_is_named_by_a_test() -> None:
    """Each clause has a test naming it: ``test_r_dbl_4_…`` or "R-DBL-4" in a test
    module (its docstrings, its parameters)."""
    tests = "\n".join(
        path.read_text(encoding="utf-8")
        for path in sorted((ROOT / "tests").glob("test_*.py"))
        if path.name != Path(__file__).name
    )
    names = set(re.findall(r"def (test_\w+)\(", tests))
    mentioned = set(CLAUSE.findall(tests))
    unnamed = []
    for clause in defined_clauses(RULES_PAGE.read_text(encoding="utf-8")):
        slug = clause.lower().replace("-", "_") + "_"
        if clause not in mentioned and not any(slug in name + "_" for name in names):
            unnamed.append(clause)
    assert not unnamed, f"clauses of docs/rules.rst no test names: {unnamed}"


def test_every_test_the_rules_page_links_to_exists() -> None:
    """The "Tests:" and "Checked by:" lines name real tests: ``tests/FILE::NAME``
    defined in FILE, a bare ``test_NAME`` defined in some test module."""
    text = RULES_PAGE.read_text(encoding="utf-8")
    sources = {
        path.name: path.read_text(encoding="utf-8") for path in (ROOT / "tests").glob("*.py")
    }
    defines = re.compile(r"^\s*(?:def|class)\s+(\w+)|^(\w+)\s*=", re.M)
    defined = {
        name: {a or b for a, b in defines.findall(source)} for name, source in sources.items()
    }
    linked = re.findall(r"``tests/(\w+\.py)::(\w+)``", text)
    bare = re.findall(r"``(test_\w+)``", text)
    assert len(linked) > 100 and len(bare) > 50
    missing = [
        f"{module}::{name}" for module, name in linked if name not in defined.get(module, ())
    ]
    everywhere = set().union(*defined.values())
    missing += [name for name in bare if name not in everywhere]
    assert not missing, f"docs/rules.rst links to tests that do not exist: {missing}"
