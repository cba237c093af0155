"""Shared test settings: the suite spread over the cores, the hypothesis profiles.

``python -m pytest`` runs the whole suite on every core with pytest-xdist (``-n auto``,
:func:`pytest_cmdline_main`); ``-n 0`` or ``-p no:xdist`` runs it in one process, as
does ``--pdb``.  Named files or tests (``python -m pytest tests/test_cards.py``) run in
one process unless ``-n`` is given: starting workers costs more than they save there.
No test relies on the order tests run in or on sharing a process with another test:
each worker has its own temporary directories and servers take free ports.

Profiles (``--hypothesis-profile=NAME``, or the ``HYPOTHESIS_PROFILE`` variable):

- ``dev`` (the default): a third of the examples of every property, random draws, so a
  run is quick and each run tries new examples;
- ``ci`` (the default in CI, ``CI=true``): every property at its full size,
  derandomized, so a CI run is deeper than a quick one and repeatable;
- ``deep``: twenty times the examples of every property, to hunt for rare failures
  (``python -m pytest --hypothesis-profile=deep -k r_hid``).

No profile has a deadline: a wall-clock limit per example fails on a busy machine, not
on slow code.  A test's own ``@settings(max_examples=n)`` is its full size; a profile's
``max_examples`` relative to hypothesis' 100 scales every such size by the same factor
(:func:`pytest_collection_modifyitems`): ``dev``'s 33 takes a third, ``deep``'s 2000
multiplies them by twenty.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, settings

from browser_harness import CHROMIUM, CHROMIUM_ARGS, LONG
from system_packages import in_ci, require

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext

_BASE_EXAMPLES = 100
"""hypothesis' own default ``max_examples``: a profile's size relative to it scales tests."""

_RELAXED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", _RELAXED, derandomize=True)
settings.register_profile("dev", _RELAXED, max_examples=_BASE_EXAMPLES // 3)
settings.register_profile("deep", _RELAXED, max_examples=20 * _BASE_EXAMPLES)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if in_ci() else "dev"))


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """``-n auto --dist worksteal`` for the whole suite (no paths named), unless ``-n`` or
    ``--pdb`` was given or xdist is off."""
    if (
        config.args_source is not pytest.Config.ArgsSource.TESTPATHS
        or not config.pluginmanager.hasplugin("xdist")
        or config.getoption("numprocesses", None) is not None
        or config.getoption("usepdb", False)
        or "PYTEST_XDIST_WORKER" in os.environ
    ):
        return
    config.option.numprocesses = "auto"
    if config.option.dist == "no":
        config.option.dist = "worksteal"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the ``slow`` and ``tooling`` tests first, scale each property's own
    ``max_examples`` by the loaded profile's size, and leave out the PostgreSQL half of
    whole-server tests unless asked (:data:`SERVER_STORES`)."""
    _deselect_server_stores(config, items)
    _deselect_session_tests(config, items)
    _slow_first(items)
    _scale_examples(items)


def _slow_first(items: list[pytest.Item]) -> None:
    """The tests that take seconds go first (the order is otherwise kept): spread over
    the workers at the start, they finish while the many quick tests fill the gaps,
    instead of one of them ending the run on one core while the other core idles."""
    items.sort(
        key=lambda item: (
            not any(item.iter_markers(name="slow")) and not any(item.iter_markers(name="tooling"))
        )
    )


def _scale_examples(items: list[pytest.Item]) -> None:
    """Scale each property's own ``max_examples`` by the loaded profile's size:
    the ``@settings`` of a ``@given`` test, the ``settings`` of a state machine's case."""
    profile = settings.default.max_examples
    scale = profile / _BASE_EXAMPLES
    if scale == 1:
        return
    done: set[int] = set()
    for item in items:
        test = getattr(item, "obj", None)
        test = getattr(test, "__func__", test)  # a method's function holds its settings
        machine = getattr(item, "cls", None)
        for holder, name in ((test, "_hypothesis_internal_use_settings"), (machine, "settings")):
            own = getattr(holder, name, None)
            if not isinstance(own, settings) or own.max_examples == profile or id(holder) in done:
                continue
            done.add(id(holder))
            setattr(
                holder, name, settings(own, max_examples=max(1, round(own.max_examples * scale)))
            )


# -- the server's two stores (issue 39) ------------------------------------------------


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Any]:
    """One throwaway PostgreSQL server for the session (:mod:`postgres_cluster`)."""
    from postgres_cluster import Cluster

    cluster = Cluster()
    yield cluster
    cluster.stop()


STORES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)]
"""The server's stores every store-using test runs against (``-m 'not postgresql'``:
SQLite only)."""

SERVER_STORES = [
    "sqlite",
    pytest.param("postgresql", marks=[pytest.mark.postgresql, pytest.mark.postgresql_server]),
]
"""As :data:`STORES`, for tests that run whole servers: their PostgreSQL half doubles
seconds-long tests, so it runs with ``--server-stores=all`` (``nox -s postgres``,
which CI runs), not in the default suite."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--server-stores",
        choices=("sqlite", "all"),
        default="sqlite",
        help="the stores tests running whole servers use: sqlite (default) or all "
        "(PostgreSQL too: nox -s postgres)",
    )
    parser.addoption(
        "--table-page",
        action="store_true",
        help="also run the table page's browser tests (marker table_page: Playwright "
        "and axe-core in Chromium, a minute of the suite's four; nox -s page, which CI runs)",
    )
    parser.addoption(
        "--sandbox",
        action="store_true",
        help="also run the bots under bubblewrap (marker sandbox: every test asking the "
        "bwrap fixture, about a minute of the workers' time; nox -s sandbox, which CI runs)",
    )
    parser.addoption(
        "--docs-build",
        action="store_true",
        help="also build the Sphinx site with warnings as errors and check its links "
        "(marker docs_build: 35 s of one worker; nox -s docs, which CI runs)",
    )
    parser.addoption(
        "--web-build",
        action="store_true",
        help="also run the tests of the built static table under Pyodide, in node and "
        "Chromium (marker web_build: a minute of the suite's four; nox -s web, which CI runs)",
    )


def _deselect_session_tests(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the tests of ``trixcomplex web build``'s folder (marker ``web_build``:
    Pyodide in node and Chromium, about a minute) unless ``--web-build``, and the table
    page's browser tests (marker ``table_page``) unless ``--table-page``, the Sphinx
    site's build (marker ``docs_build``) unless ``--docs-build``, and the bots run under
    bubblewrap (marker ``sandbox``, given to every test asking the ``bwrap`` fixture)
    unless ``--sandbox``: each has its nox session, which CI runs, so that the default
    suite stays under four minutes."""
    for item in items:  # the sandbox tests: those that need bubblewrap working
        if "bwrap" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.sandbox)
    for marker, option in (
        ("web_build", "--web-build"),
        ("table_page", "--table-page"),
        ("docs_build", "--docs-build"),
        ("sandbox", "--sandbox"),
    ):
        if config.getoption(option):
            continue
        left = [item for item in items if item.get_closest_marker(marker)]
        if left:
            config.hook.pytest_deselected(items=left)
            items[:] = [item for item in items if not item.get_closest_marker(marker)]


def _deselect_server_stores(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the PostgreSQL half of whole-server tests unless ``--server-stores=all``."""
    if config.getoption("--server-stores") == "all":
        return
    left = [item for item in items if item.get_closest_marker("postgresql_server")]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = [item for item in items if not item.get_closest_marker("postgresql_server")]


@pytest.fixture(params=STORES)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty database of each store: a SQLite file's path, a PostgreSQL URL."""
    return _database(request, tmp_path)


@pytest.fixture(params=SERVER_STORES)
def server_database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """As :func:`database`, for a test that runs whole servers (:data:`SERVER_STORES`)."""
    return _database(request, tmp_path)


@pytest.fixture(scope="module", params=SERVER_STORES)
def module_database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> str:
    """As :func:`server_database`, shared by a module's tests (one server per module and
    store)."""
    return _database(request, tmp_path_factory.mktemp("db"))


def _database(request: pytest.FixtureRequest, where: Path) -> str:
    if request.param == "sqlite":
        return str(where / "tables.sqlite3")
    cluster = request.getfixturevalue("postgres_cluster")
    return str(cluster.database())


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    """One Chromium for the module's tests (each test gets its own context in it);
    skipped without Debian's ``chromium``, failed in CI."""
    from playwright.sync_api import sync_playwright

    executable = require("chromium", CHROMIUM)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def browser(chromium: Browser) -> Iterator[BrowserContext]:
    """A fresh browser context: its own cookies, storage and pages, as a new profile."""
    context = chromium.new_context(viewport={"width": 1080, "height": 820})
    context.set_default_timeout(LONG)
    try:
        yield context
    finally:
        context.close()
