"""Development sessions: ``nox -l`` lists them, ``nox -s NAME`` runs one.

Each session builds its own virtual environment and installs the project
into it, so the checks run the package as a user would install it.
Extra arguments after ``--`` are passed on (``nox -s tests -- -x -k render``).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import nox

nox.options.sessions = ["tests", "typecheck", "lint", "docs"]
nox.options.reuse_existing_virtualenvs = True

PYTHON = ["3.11"]


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """Run the test suite with doctests (pytest; the tooling checks run in their own sessions)."""
    session.install("-e", ".[test]")
    args = session.posargs or ["-m", "not tooling"]
    session.run("python", "-m", "pytest", *args)


@nox.session(python=PYTHON)
def page(session: nox.Session) -> None:
    """The table page's browser tests: geometry, doubles, TRIX rows, the scoresheet at
    three widths, keyboard-only deals in English and Arabic, axe-core, four people in four
    tabs, whole deals by mouse and keyboard, a phone's width (the ``table_page`` tests,
    left out of the default suite for time)."""
    session.install("-e", ".[test]")
    args = session.posargs or ["tests/test_server_table.py", "tests/test_server_browser.py",
                               "tests/test_server_page.py"]  # fmt: skip
    session.run("python", "-m", "pytest", "--table-page", *args)


@nox.session(python=PYTHON)
def web(session: nox.Session) -> None:
    """Build the static table (``trixcomplex web build``) and test it under Pyodide: the
    conformance slice in node, a deal in Chromium, the TypeScript local table (the
    ``web_build`` tests, left out of the default suite for time)."""
    session.install("-e", ".[test]")
    args = session.posargs or ["tests/test_web_build.py"]
    session.run("python", "-m", "pytest", "--web-build", "-n", "0", *args)


@nox.session(python=PYTHON)
def sandbox(session: nox.Session) -> None:
    """The bots run under bubblewrap (Debian's ``bubblewrap``): the ``sandbox`` tests, every
    test asking the ``bwrap`` fixture, left out of the default suite for time."""
    session.install("-e", ".[test]")
    args = session.posargs or ["tests/test_security_bots.py", "tests/test_sandbox_attacks.py"]
    session.run("python", "-m", "pytest", "--sandbox", "-m", "sandbox", *args)


@nox.session(python=PYTHON)
def postgres(session: nox.Session) -> None:
    """Run every server test on PostgreSQL too, whole servers included (Debian's
    ``postgresql-15`` started by the tests; the default suite runs those on SQLite only)."""
    session.install("-e", ".[test]")
    args = session.posargs or ["-m", "postgresql", "tests/test_server_store.py",
                               "tests/test_server_protocol.py", "tests/test_security_server.py",
                               "tests/test_server_cli.py", "tests/test_server_processes.py",
                               "tests/test_server_page.py",
                               "tests/test_server_browser.py",
                               "tests/test_deploy.py"]  # fmt: skip
    session.run("python", "-m", "pytest", "--server-stores=all", "--table-page", *args)


@nox.session(python=PYTHON)
def stress(session: nox.Session) -> None:
    """Run two copies of the whole suite at the same time, each spread over every core.

    No test may depend on an idle machine; this is the proof: both copies must pass.
    Each copy writes its output to its own log (its tail is printed) and its own
    temporary directory.  Arguments after ``--`` go to both copies.
    """
    session.install("-e", ".[test]")
    python = str(Path(session.bin) / "python")
    work = Path(session.create_tmp())
    env = {**os.environ, "PATH": f"{session.bin}{os.pathsep}{os.environ.get('PATH', '')}"}
    copies = []
    for copy in (1, 2):
        log = (work / f"copy{copy}.log").open("w")
        command = [python, "-m", "pytest", "-p", "no:cacheprovider", *session.posargs]
        command += ["--basetemp", str(work / f"copy{copy}")]
        copies.append((copy, log, subprocess.Popen(command, stdout=log, stderr=log, env=env)))
    failed = []
    for copy, log, process in copies:
        code = process.wait()
        log.close()
        tail = (work / f"copy{copy}.log").read_text().splitlines()[-30:]
        session.log(f"copy {copy} exited {code}:\n" + "\n".join(tail))
        if code != 0:
            failed.append(copy)
    if failed:
        session.error(f"copies {failed} failed while the other ran beside them (logs in {work})")


@nox.session(python=PYTHON)
def typecheck(session: nox.Session) -> None:
    """Type-check the package and the benchmarks with mypy --strict."""
    session.install("-e", ".[test]")
    session.run("mypy", "--strict", "src/trixcomplex", "benchmarks")


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """Lint with ruff check and check the formatting with ruff format --check."""
    session.install("ruff>=0.6")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session(python=PYTHON)
def docs(session: nox.Session) -> None:
    """Build the Sphinx site with warnings as errors (output in docs/_build/html), then
    the ``docs_build`` test: a build of its own whose every internal link and anchor must
    resolve (left out of the default suite for time)."""
    session.install("-e", ".[docs,test]")
    session.run("python", "docs/make_pictures.py", "--check")
    session.run("sphinx-build", "-W", "--keep-going", "-b", "html", "docs", "docs/_build/html")
    session.run("python", "-m", "pytest", "--docs-build", "-m", "docs_build", "-n", "0",
                "tests/test_tooling.py")  # fmt: skip


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Run the benchmarks (python benchmarks/bench.py); not part of the default sessions."""
    session.install("-e", ".", "choix>=0.3.6")  # choix: strength.py --ratings
    session.run("python", "benchmarks/bench.py", *session.posargs)


CATALOGS = "src/trixcomplex/locale"


@nox.session(python=PYTHON)
def translations(session: nox.Session) -> None:
    """Update the message catalogs (Babel): extract the marked messages into the template,
    merge it into each language's .po, and compile the .mo files the wheel ships.

    Translate the new entries of ``src/trixcomplex/locale/*/LC_MESSAGES/trixcomplex.po``,
    then run it again to compile them; tests/test_catalog.py fails until every message
    has a translation and the .mo is the .po compiled.
    """
    session.install("Babel>=2.12")
    session.run(
        "pybabel", "extract", "-F", "babel.cfg", "-k", "translate", "--no-location",
        "--sort-output", "--project", "trixcomplex", "--version", "0.1.0",
        "--copyright-holder", "trixcomplex developers",
        "--msgid-bugs-address", "trixcomplex developers",
        "-o", f"{CATALOGS}/trixcomplex.pot", "src/trixcomplex",
    )  # fmt: skip
    session.run(
        "pybabel", "update", "-i", f"{CATALOGS}/trixcomplex.pot", "-d", CATALOGS,
        "-D", "trixcomplex", "--no-fuzzy-matching", "--width", "100",
    )  # fmt: skip
    session.run("pybabel", "compile", "-d", CATALOGS, "-D", "trixcomplex", "--statistics")


@nox.session(python=PYTHON)
def scorekeeper(session: nox.Session) -> None:
    """The score keeper against the engine on every deal of 1,000 random matches across the
    rulesets (tests/test_scorekeeper.py; the default suite plays a few dozen)."""
    session.install("-e", ".[test]")
    session.run(
        "python", "-m", "pytest", "tests/test_scorekeeper.py", "-n", "0", "-s", "-k", "agree",
        env={"TRIXCOMPLEX_SCOREKEEPER_MATCHES": "1000"},
    )  # fmt: skip


@nox.session(python=PYTHON)
def perf(session: nox.Session) -> None:
    """Compare the hot path with a base commit: ``nox -s perf -- BASE [HEAD]``.

    Runs the asv suite (benchmarks/asv: self-play, playout, a Monte Carlo
    decision, sample_world) on BASE and on HEAD (default ``HEAD``, the last
    commit: commit first) with ``asv continuous``, the two builds in
    alternating rounds, and fails when a row is more than 5% slower (and the
    difference is significant by asv's test).  Run it before merging a change
    to ``src/trixcomplex/core/``; never in CI (the timings need a machine
    that both builds share in the same minutes, not an idle one).  Not part
    of the default sessions.
    """
    if not session.posargs or len(session.posargs) > 2:
        session.error("usage: nox -s perf -- BASE [HEAD]  (two commits, branches or tags)")
    base, head = session.posargs[0], session.posargs[1] if len(session.posargs) > 1 else "HEAD"
    session.install("asv>=0.6", "virtualenv")
    config = "benchmarks/asv/asv.conf.json"
    session.run("asv", "machine", "--yes", "--config", config)
    session.run(
        "asv", "continuous", "--config", config, "--factor", "1.05",
        "--interleave-rounds", "--show-stderr", base, head,
    )  # fmt: skip
