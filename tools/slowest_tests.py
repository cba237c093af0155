"""Measure the whole suite and write its 20 slowest tests into the contributor's guide.

Run ``python tools/slowest_tests.py`` on a quiet machine from a checkout with the
``[test]`` extra installed.  It runs ``python -m pytest --durations=20`` exactly as a
contributor would (every core, the default profile), and replaces the table between
the ``slowest-tests`` markers of ``docs/contributing.rst`` with the list pytest
printed, the run's wall time and the date.  ``--from FILE`` reads the output of a
run made by hand instead (``python -m pytest --durations=20 > FILE``).
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "contributing.rst"
START = ".. slowest-tests-start"
END = ".. slowest-tests-end"
_LINE = re.compile(r"^(?P<seconds>\d+\.\d+)s (?P<when>call|setup|teardown)\s+(?P<test>\S.*)$")
_TOTAL = re.compile(r" in (?P<seconds>\d+\.\d+)s")


def slowest(output: str) -> list[tuple[float, str, str]]:
    """The ``(seconds, phase, test)`` rows of pytest's ``--durations`` list.

    >>> slowest("== slowest 2 durations ==\\n3.50s call     tests/test_a.py::test_b\\n")
    [(3.5, 'call', 'tests/test_a.py::test_b')]
    """
    return [
        (float(m["seconds"]), m["when"], m["test"].strip())
        for m in map(_LINE.match, output.splitlines())
        if m
    ]


def table(rows: list[tuple[float, str, str]], wall: float, cores: int) -> str:
    """The reStructuredText list-table of the rows, with the run's wall time above it."""
    day = datetime.date.today().isoformat()
    lines = [
        START,
        "",
        f"Measured on {day}: ``python -m pytest --durations=20``, {cores} cores, "
        f"the whole run {wall:.0f} s of wall time.",
        "",
        ".. list-table::",
        "   :header-rows: 1",
        "   :widths: 10 10 80",
        "",
        "   * - seconds",
        "     - phase",
        "     - test",
    ]
    for seconds, when, test in rows:
        lines += [f"   * - {seconds:.2f}", f"     - {when}", f"     - ``{test}``"]
    lines += ["", END]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="source", type=Path, help="a saved pytest output")
    args = parser.parse_args(argv)
    if args.source is not None:
        output = args.source.read_text(encoding="utf-8")
        total = _TOTAL.findall(output)
        wall = float(total[-1]) if total else 0.0
    else:
        began = time.monotonic()
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "--durations=20", "-p", "no:cacheprovider"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        wall = time.monotonic() - began
        output = run.stdout
        if run.returncode != 0:
            sys.stdout.write(output[-4000:])
            print("the suite failed: the page is left as it was", file=sys.stderr)
            return 1
    rows = slowest(output)[:20]
    if not rows:
        print("no --durations list in the output", file=sys.stderr)
        return 1
    page = PAGE.read_text(encoding="utf-8")
    begin, end = page.index(START), page.index(END) + len(END)
    PAGE.write_text(page[:begin] + table(rows, wall, os.cpu_count() or 1) + page[end:])
    print(f"{len(rows)} tests written to {PAGE.relative_to(ROOT)}; the run took {wall:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
