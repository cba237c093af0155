"""tests/system_packages.py: a missing system package skips a test outside CI, naming
the package, and fails it in CI (``CI=true``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from system_packages import in_ci, require

MISSING = "/nonexistent/trixcomplex-test-program"


def test_a_present_program_is_returned_in_and_out_of_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    for ci in ("", "true"):
        monkeypatch.setenv("CI", ci)
        assert require("python3", sys.executable) == sys.executable


def test_outside_ci_a_missing_program_skips_naming_the_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for ci in (None, "", "false", "0"):
        if ci is None:
            monkeypatch.delenv("CI", raising=False)
        else:
            monkeypatch.setenv("CI", ci)
        assert not in_ci()
        with pytest.raises(pytest.skip.Exception) as info:
            require("chromium", MISSING)
        assert "install the Debian package chromium" in str(info.value)
        assert MISSING in str(info.value)


def test_in_ci_a_missing_program_fails_naming_the_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for ci in ("true", "TRUE", "1", "yes"):
        monkeypatch.setenv("CI", ci)
        assert in_ci()
        with pytest.raises(pytest.fail.Exception) as info:
            require("bubblewrap", MISSING)
        assert "install the Debian package bubblewrap" in str(info.value)


def test_a_command_name_is_looked_up_on_the_path(monkeypatch: pytest.MonkeyPatch) -> None:
    here = Path(sys.executable)
    monkeypatch.setenv("PATH", str(here.parent))
    assert Path(require("python3", here.name)).samefile(here)
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="nodejs"):
        require("nodejs", "node")
