"""Strangers, round two (issue 38, items 1-4): each attack on the sandbox of isolated
bots written as the attacker wrote it, then closed.

The attackers are in tests/hostile_bots.py: a success shows as an illegal move (a
forfeit of the attacker's side).  Clocks: CPU seconds only (``cpu_limit``); wall-clock
limits here are generous bounds a hung bot alone reaches.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

import trixcomplex as tc
from cpu_budget import cpu_budget
from processes import wait_gone
from system_packages import in_ci
from trixcomplex.bots import BotError, BotTimeout, RuleBot
from trixcomplex.core.moves import move_to_json
from trixcomplex.host import sandbox
from trixcomplex.host.isolated import IsolatedBot
from trixcomplex.host.tournament import simulate

LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux namespaces, /proc")
GENEROUS = 120.0
"""A wall-clock bound only a hung bot reaches (seconds)."""


@pytest.fixture
def bwrap() -> None:
    """bubblewrap installed and working: else skip naming the package (fail in CI)."""
    if sandbox.sandbox_available():
        return
    why = "bubblewrap is missing or cannot run: install the Debian package bubblewrap"
    if in_ci():
        pytest.fail(f"{why}; CI must have it", pytrace=False)
    pytest.skip(why)


def _forfeits(t: tc.Tournament) -> list[str | None]:
    return [m.forfeit for m in t.matches]


def _deal_2_card(seed: int = 1) -> tuple[tc.MatchState, int]:
    """A state of deal 2 where a seat is to play a card, and that seat."""
    rng = random.Random(seed)
    state = tc.new_match()
    while not (state.deal_number == 2 and state.turn is not None):
        deal = state.phase is tc.Phase.DEAL
        state = tc.apply(
            state, tc.Deal.shuffled(rng) if deal else rng.choice(tc.legal_moves(state))
        )
    assert state.turn is not None
    return state, state.turn


# -- 1. one process per seat, fresh per match ---------------------------------------------


@LINUX
def test_a_side_given_as_one_bot_runs_one_process_per_seat(bwrap: None) -> None:
    """Attack: ``simulate(["x", "rule"])`` ran one process for both seats of side A, so
    its bot saw its partner's whole hand (docs/bots.rst: a bot never sees it).  The spy
    betrays once one process is asked for two seats."""
    t = simulate(["hostile_bots:PartnerSpy", "rule"], 1, seed=3, isolated=True,  # type: ignore[list-item]
                 time_limit=GENEROUS)  # fmt: skip
    assert _forfeits(t) == [None], t.matches[0].reason


@LINUX
def test_an_isolated_bot_object_given_as_a_side_is_copied_per_seat(bwrap: None) -> None:
    """The same attack through an :class:`IsolatedBot` object given as a whole side."""
    spy = IsolatedBot("hostile_bots:PartnerSpy", GENEROUS)
    t = simulate([spy, RuleBot()], 1, seed=4)
    assert _forfeits(t) == [None], t.matches[0].reason


@LINUX
def test_a_bot_s_files_do_not_outlive_its_match(
    bwrap: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack: bots shared /tmp across the two matches of a pair (same shuffles), so a
    bot knew its opponents' hands in the second.  Each match starts a fresh process
    with a fresh /tmp and HOME."""
    monkeypatch.setenv("NOTE_NAME", f"{os.getpid()}-{random.random()}")
    bots = [IsolatedBot("hostile_bots:Remembers", GENEROUS, env=("NOTE_NAME",)), RuleBot()]
    t = simulate(bots, 2, seed=5)
    assert _forfeits(t) == [None, None], t.matches[1].reason


# -- 2. nothing of the stranger runs before the drop; limits of its own -------------------


@pytest.mark.slow
@LINUX
def test_a_sitecustomize_beside_the_bot_never_runs_and_the_bot_holds_nothing(
    bwrap: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack: a ``sitecustomize.py`` shipped beside the bot ran as root before the drop
    to ``nobody`` (and could cancel it).  The bot's interpreter starts with ``-I`` after
    the drop; the bot finds no sitecustomize of its own, no root, no capability, no
    ``PYTHON*`` variable."""
    bot_dir = tmp_path / "stranger"
    bot_dir.mkdir()
    (bot_dir / "sitecustomize.py").write_text("PLANTED = True\nimport os\nos.setuid(0)\n")
    source = Path(__file__).with_name("hostile_bots.py").read_text()
    (bot_dir / "strangerbot.py").write_text(source)
    monkeypatch.syspath_prepend(str(bot_dir))
    monkeypatch.setenv("PYTHONSTARTUP", str(bot_dir / "sitecustomize.py"))
    t = simulate(["strangerbot:Privileged", "rule"], 1, seed=6, isolated=True,  # type: ignore[list-item]
                 time_limit=GENEROUS)  # fmt: skip
    assert _forfeits(t) == [None], t.matches[0].reason


@pytest.mark.slow
@LINUX
def test_a_bot_that_forks_to_its_limit_leaves_the_other_bots_their_own(bwrap: None) -> None:
    """Attack: every bot ran as the same user, so the process limit was one pool: a bot
    forking up to it made an honest bot fail to start a thread, and forfeit.  Each
    bot's processes are counted apart (its own user namespace or uid)."""
    t = simulate(["hostile_bots:Forker", "hostile_bots:ThreadStarter"], 1, seed=7,  # type: ignore[list-item]
                 isolated=True, time_limit=GENEROUS)  # fmt: skip
    assert _forfeits(t) == [None], t.matches[0].reason


@LINUX
def test_the_bot_s_tmp_is_writable_and_sized(bwrap: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: inside bubblewrap the bot could not write its /tmp at all (docs: a private
    /tmp, the only writable path); a bot that cancelled the drop wrote 1 GiB into it.
    Now /tmp is the bot's, and a tmpfs of ``Limits.tmp_bytes``: writing twice that fails."""
    limits = sandbox.Limits(tmp_bytes=8 << 20, file_size=32 << 20)
    monkeypatch.setenv("TMP_BYTES", str(limits.tmp_bytes))
    bot = IsolatedBot("hostile_bots:TmpFiller", GENEROUS, limits=limits, env=("TMP_BYTES",))
    t = simulate([bot, RuleBot()], 1, seed=8)
    assert _forfeits(t) == [None], t.matches[0].reason


@LINUX
def test_cpu_spent_in_a_child_never_reaped_is_charged(bwrap: None) -> None:
    """Attack: ``cpu_limit`` missed work done in a child the bot never reaps (3 s of CPU
    under a 0.5 s limit).  The host counts every process of the bot's PID namespace:
    the bot is over its limit while playing a card, and forfeits."""
    state, seat = _deal_2_card()
    bot = IsolatedBot("hostile_bots:HiddenWorker", GENEROUS, cpu_limit=0.5)
    try:
        with pytest.raises(BotTimeout, match="CPU time"):
            bot.choose(tc.view(state, seat), tc.legal_moves(state, seat), random.Random(0))
    finally:
        bot.close()


@pytest.mark.slow
@LINUX
def test_a_bot_s_processes_together_hold_no_more_memory_than_its_limit(
    bwrap: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack: memory was limited per process only, so a bot with many processes held
    many times its limit (and could starve the others).  Where a memory cgroup can be
    made, the bot's processes together are held to ``Limits.memory``: three children of
    96 MiB each under 160 MiB do not all survive."""
    probe = sandbox.MemoryCgroup.create(f"trixcomplex-probe-{os.getpid()}", 1 << 30)
    if probe is None:
        pytest.skip("no writable cgroup v1 memory hierarchy here (the documented fallback: "
                    "address_space per process)")  # fmt: skip
    probe.remove()
    monkeypatch.setenv("HOG_BYTES", str(96 << 20))
    limits = sandbox.Limits(memory=160 << 20)
    bot = IsolatedBot("hostile_bots:MemoryHog", GENEROUS, limits=limits, env=("HOG_BYTES",))
    t = simulate([bot, RuleBot()], 1, seed=12)
    assert "not legal" not in t.matches[0].reason, t.matches[0].reason


# -- 3. the protocol charges the bot ------------------------------------------------------


@LINUX
def test_stale_answers_are_charged_to_the_bot_not_the_host(bwrap: None) -> None:
    """Attack: a bot writing 200,000 lines answering an old question made the host parse
    every one (6 s of host CPU against 0.2 s of the bot's) and still took its answer.
    A few stale lines are tolerated, then the bot forfeits; the host's CPU stays small."""
    state, seat = _deal_2_card()
    bot = IsolatedBot("hostile_bots:StaleFlood", GENEROUS)
    try:
        with (
            cpu_budget(1.0, "reading a flood of stale answers"),
            pytest.raises(BotError, match="stale"),
        ):
            bot.choose(tc.view(state, seat), tc.legal_moves(state, seat), random.Random(0))
    finally:
        bot.close()


@LINUX
def test_a_deeply_nested_answer_is_a_bot_error(bwrap: None) -> None:
    """Attack: an answer line of 300,000 ``[`` raised RecursionError out of
    ``IsolatedBot.choose``.  Every parse failure is a BotError (a forfeit)."""
    state, seat = _deal_2_card()
    bot = IsolatedBot("hostile_bots:DeepAnswer", GENEROUS)
    try:
        with pytest.raises(BotError):
            bot.choose(tc.view(state, seat), tc.legal_moves(state, seat), random.Random(0))
    finally:
        bot.close()


@pytest.mark.parametrize(
    "line",
    [b"[" * 300_000, b"{" * 100_000,
     b'{"id": 1, "answer": ' + b"[" * 30_000 + b"]" * 30_000 + b"}",
     b"\xff\xfe", b'{"id": 1, "answer": 1e999999}', b'{"id": 1, "answer": {"type": "play"}}',
     b"9" * 5000],
)  # fmt: skip
def test_every_malformed_line_is_a_bot_error(line: bytes) -> None:
    """Every parse failure of an answer (nesting, bad bytes, a move that is no move, a
    huge number) is a BotError, never another exception."""
    bot = IsolatedBot("rule", sandbox="unsandboxed")
    bot._buffer += line + b"\n"
    bot._asked = 0
    with pytest.raises(BotError):
        answer = bot._answer(1)
        assert answer is not None
        bot._move(answer[0])


@LINUX
def test_a_late_answer_is_not_taken(bwrap: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: an answer the host read after the limit was still accepted.  The limit is
    checked before any answer is taken: with the answer already in the buffer and the
    host's clock past the limit (an injected clock), the bot gets its Timeout."""
    import types

    import trixcomplex.host.isolated as isolated

    bot = IsolatedBot("rule", 5.0)
    view, legal, rng = _first_question()
    try:
        move = bot.choose(view, legal, rng)  # its process started, on time
        answer = {"id": bot._asked + 1, "answer": move_to_json(move)}  # the next question's
        bot._buffer += json.dumps(answer).encode() + b"\n"
        ticks = iter([0.0, 6.0, 6.0, 6.0, 6.0])
        monkeypatch.setattr(isolated, "time", types.SimpleNamespace(monotonic=lambda: next(ticks)))
        with pytest.raises(BotTimeout, match="within 5s"):
            bot.choose(view, legal, rng)
    finally:
        bot.close()


# -- 4. fail closed; the weaker mode by name only ------------------------------------------


def test_isolated_true_refuses_without_bubblewrap_naming_the_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Attack: without bubblewrap, ``isolated=True`` ran strangers anyway, with a
    warning.  It now refuses before any match, naming the Debian package."""
    import trixcomplex.host.isolated as isolated

    monkeypatch.setattr(isolated, "unavailable_reason", lambda: "bwrap is not installed")
    played: list[int] = []
    for mode in (True, "strict"):
        with pytest.raises(sandbox.SandboxUnavailable, match="'bubblewrap'"):
            simulate(["rule", "random"], 1, isolated=mode,  # type: ignore[list-item]
                     progress=lambda d, n: played.append(d))  # fmt: skip
    with pytest.raises(sandbox.SandboxUnavailable, match="'bubblewrap'"):
        IsolatedBot("rule").choose(*_first_question())
    assert played == []


def _first_question() -> tuple[tc.View, list[tc.PlayerMove], random.Random]:
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(4)))
    assert state.owner is not None
    return tc.view(state, state.owner), tc.legal_moves(state, state.owner), random.Random(0)


def _unsandboxed_runs() -> None:
    """The weaker mode runs here: else the reason it refuses (fail in CI)."""
    try:
        sandbox.check_unsandboxed()
    except sandbox.SandboxUnavailable as exc:
        if in_ci():
            pytest.fail(str(exc), pytrace=False)
        pytest.skip(str(exc))


@LINUX
def test_the_weaker_mode_refuses_as_root_where_the_bot_s_user_cannot_read_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fail closed: run as root, the weaker mode drops the bot to a user of its own; if
    that user could not read the interpreter, it refuses rather than keep root."""
    monkeypatch.setattr(sandbox, "_root_mode", lambda: True)
    monkeypatch.setattr(sandbox, "reachable_by_others", lambda path: False)
    with pytest.raises(sandbox.SandboxUnavailable, match="readable by other users"):
        sandbox.check_unsandboxed()


@LINUX
def test_the_weaker_mode_leaves_no_process_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: without bubblewrap a ``setsid()`` grandchild survived ``close()`` and a
    kill of the host.  In the weaker mode the bot is one process that cannot start
    another (its process limit), and it dies with its host."""
    _unsandboxed_runs()
    shared = Path(tempfile.mkdtemp(prefix="probe-"))  # where the bot's own user may write
    try:
        os.chmod(shared, 0o777)
        probe = shared / "probe"
        monkeypatch.setenv("PROBE_FILE", str(probe))
        bot = IsolatedBot("hostile_bots:SessionLeaver", GENEROUS, sandbox="unsandboxed",
                          env=("PROBE_FILE",))  # fmt: skip
        t = simulate([bot, RuleBot()], 1, seed=9)
        assert _forfeits(t) == [None], t.matches[0].reason
        text = probe.read_text()
        assert text == "no fork" or not wait_gone([int(text)], GENEROUS)
    finally:
        shutil.rmtree(shared, ignore_errors=True)


@LINUX
def test_the_weaker_mode_gives_a_private_home_and_no_user_site(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Attack: a bot planted ``usercustomize.py`` under its HOME=/tmp, and the next bot's
    interpreter ran it as root.  Each bot gets a HOME of its own and ``-I`` (no user
    site): the next bot runs nothing planted."""
    _unsandboxed_runs()
    planter = IsolatedBot("hostile_bots:UserSitePlanter", GENEROUS, sandbox="unsandboxed")
    victim = IsolatedBot("hostile_bots:Privileged", GENEROUS, sandbox="unsandboxed")
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    planted = Path("/tmp", ".local", "lib", version, "site-packages", "usercustomize.py")
    try:
        t = simulate([planter, victim], 1, seed=10)
        assert _forfeits(t) == [None], t.matches[0].reason
    finally:  # the shared /tmp: the weaker mode's known limit, left clean
        if planted.exists() and planted.read_text() == "PLANTED = True\n":
            planted.unlink()
            for parent in planted.parents:
                if parent == Path("/tmp"):
                    break
                with contextlib.suppress(OSError):
                    parent.rmdir()


@LINUX
def test_the_sandboxed_bot_reads_no_seed_anywhere(bwrap: None) -> None:
    """Attack: a bot read ``--seed`` from the host's /proc/<pid>/cmdline and rebuilt
    every hand.  In the sandbox it sees no process but its own."""
    t = simulate(["hostile_bots:SeedReader", "rule"], 1, seed=11, isolated=True,  # type: ignore[list-item]
                 time_limit=GENEROUS)  # fmt: skip
    assert _forfeits(t) == [None], t.matches[0].reason


def test_cli_refuses_a_seed_on_the_command_line_of_the_weaker_mode(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the weaker mode a bot can read the host's command line: ``--seed N`` is refused
    there (one line, exit 2, naming ``--seed-file``)."""
    from trixcomplex.cli import main

    monkeypatch.setenv("TRIXCOMPLEX_PLAIN", "1")
    code = main(["simulate", "--matches", "1", "--isolated=unsandboxed", "--seed", "5"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "--seed-file" in err[0]


def test_cli_reads_the_seed_from_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--seed-file PATH``: the seed never appears on a command line."""
    from trixcomplex.cli import main

    monkeypatch.setenv("TRIXCOMPLEX_PLAIN", "1")
    seed_file = tmp_path / "seed"
    seed_file.write_text("77\n")
    assert main(["simulate", "--matches", "2", "--seed-file", str(seed_file)]) == 0
    assert "(seed 77," in capsys.readouterr().out
    seed_file.write_text("not a number")
    assert main(["simulate", "--matches", "1", "--seed-file", str(seed_file)]) == 2
    assert "--seed-file" in capsys.readouterr().err
