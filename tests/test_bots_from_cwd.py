"""A bot file in the current directory (issue 43, item 3): ``--bots shedder:ShedderBot``
finds ./shedder.py as ``python -m`` would, in process and isolated alike, or says exactly
what to do; an isolated bot is given its own file only, read-only, nothing beside it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from system_packages import in_ci
from trixcomplex.cli import main
from trixcomplex.host import sandbox
from trixcomplex.host.isolated import BotNotFound, IsolatedBot, load_bot, locate_bot
from trixcomplex.host.tournament import simulate

SHEDDER = """\
import os
from trixcomplex.bots import RuleBot


class ShedderBot(RuleBot):
    pass


class Nosy(RuleBot):
    \"\"\"Betrays (an illegal move) if it can read the file beside its own, or write
    beside it.\"\"\"

    def choose(self, view, legal, rng):
        import trixcomplex as tc

        here = os.path.dirname(os.path.abspath(__file__))
        try:
            open(os.path.join(here, "secret.txt")).read()
            return tc.Pass((view.seat + 1) % 4)
        except OSError:
            pass
        try:
            open(os.path.join(here, "planted.py"), "w").write("x = 1")
            return tc.Pass((view.seat + 1) % 4)
        except OSError:
            pass
        return super().choose(view, legal, rng)
"""


@pytest.fixture
def bot_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory holding shedder.py and a secret beside it, made the current one; the
    module is forgotten afterwards (another test may write another shedder.py)."""
    (tmp_path / "shedder.py").write_text(SHEDDER)
    (tmp_path / "secret.txt").write_text("the organizer's notes")
    tmp_path.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    yield tmp_path
    sys.modules.pop("shedder", None)


def test_an_in_process_bot_file_in_the_current_directory_loads(bot_dir: Path) -> None:
    """``shedder:ShedderBot`` loads from ./shedder.py with no PYTHONPATH set."""
    assert type(load_bot("shedder:ShedderBot")).__name__ == "ShedderBot"


def test_cli_in_process_bot_from_the_current_directory(
    bot_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``trixcomplex simulate --bots shedder:ShedderBot,rule`` plays (it said ``No module
    named 'shedder'`` before)."""
    monkeypatch.setenv("TRIXCOMPLEX_PLAIN", "1")
    assert main(["simulate", "--bots", "shedder:ShedderBot,rule", "--matches", "2"]) == 0
    assert "ShedderBot (A) vs RuleBot (B)" in capsys.readouterr().out


def test_a_missing_bot_module_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A module that is nowhere: one line naming the directory searched and the fix."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TRIXCOMPLEX_PLAIN", "1")
    with pytest.raises(BotNotFound, match="current directory"):
        locate_bot("nosuchbot:Bot")
    for flags in ([], ["--isolated", "--time-limit", "60"]):
        code = main(["simulate", "--bots", "nosuchbot:Bot,rule", "--matches", "1", *flags])
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(err) == 1, err
        assert "nosuchbot.py" in err[0] and "PYTHONPATH" in err[0] and str(tmp_path) in err[0]


def test_an_isolated_bot_file_is_found_without_running_it_in_the_host(bot_dir: Path) -> None:
    """Locating ./shedder.py for the sandbox imports nothing in the host."""
    assert locate_bot("shedder:ShedderBot") == str(bot_dir / "shedder.py")
    assert "shedder" not in sys.modules


@pytest.mark.slow
def test_an_isolated_bot_file_in_the_current_directory_plays_and_reads_nothing_beside_it(
    bot_dir: Path,
) -> None:
    """Isolated, ./shedder.py is bound alone, read-only: the bot plays, and can neither
    read the file beside it nor write there (it would answer illegally)."""
    if not sandbox.sandbox_available():
        why = "bubblewrap is missing or cannot run: install the Debian package bubblewrap"
        pytest.fail(why) if in_ci() else pytest.skip(why)
    t = simulate(["shedder:Nosy", "rule"], 1, seed=3, isolated=True, time_limit=120)  # type: ignore[list-item]
    assert t.matches[0].forfeit is None, t.matches[0].reason
    assert not (bot_dir / "planted.py").exists()
    bot = IsolatedBot("shedder:ShedderBot")
    assert bot._source == str(bot_dir / "shedder.py")
