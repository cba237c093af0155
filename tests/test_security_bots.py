"""Strangers at the table (issue 25, items 1-5): bots that attack the host, the other
bots, the decks or the clock, each written as the attack it is, then closed.

Clocks: no test here races a short wall-clock limit.  A bot that is late is late in
CPU seconds (``cpu_limit``, measured by the host on the bot's own process), which a
loaded machine does not change; wall-clock limits appear only as generous upper bounds.
"""

from __future__ import annotations

import os
import random
import socket
import sys
import warnings
from pathlib import Path

import pytest

import trixcomplex as tc
from faulty_bots import Exits, HardExit, Raises, guessed_deck, hands_of
from processes import wait_gone
from trixcomplex.bots import BotTimeout, RandomBot, RuleBot
from trixcomplex.host import sandbox
from trixcomplex.host.isolated import IsolatedBot
from trixcomplex.host.tournament import match_generators, seed_commitment, simulate

LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux namespaces, /proc")
GENEROUS = 120.0
"""A wall-clock bound only a hung bot reaches (seconds)."""


def require_bwrap() -> None:
    """bubblewrap installed and working: else skip naming the package (fail in CI)."""
    if sandbox.sandbox_available():
        return
    why = "bubblewrap (Debian package 'bubblewrap', command bwrap) is missing or cannot run"
    if os.environ.get("CI") == "true":
        pytest.fail(why)
    pytest.skip(why)


@pytest.fixture
def bwrap() -> None:
    require_bwrap()


def _forfeits(t: tc.Tournament) -> list[str | None]:
    return [m.forfeit for m in t.matches]


# -- 1. the sandbox: other processes, the host's memory, files, the network -------------


@pytest.mark.slow
@LINUX
def test_a_bot_that_kills_the_host_and_the_other_bots_harms_no_one(bwrap: None) -> None:
    """Checks R-HID-1's sandbox: a bot that SIGKILLs its parent and its siblings (the
    host and the other side's bot processes) finds neither: the tournament ends with
    every match played out, the honest side forfeiting nothing."""
    t = simulate(["faulty_bots:Killer", "rule"], 2, seed=3, isolated="strict",  # type: ignore[list-item]
                 time_limit=GENEROUS)  # fmt: skip
    assert _forfeits(t) == [None, None]
    assert all(len(m.record) > 100 for m in t.matches)


@pytest.mark.slow
@LINUX
def test_a_bot_cannot_read_the_host_s_memory(bwrap: None) -> None:
    """Checks R-HID-1: a bot reading /proc/<ppid>/mem (or a sibling's) reads nothing;
    had it read a byte it would have answered illegally, forfeiting."""
    t = simulate(["faulty_bots:MemReader", "rule"], 2, seed=4, isolated="strict",  # type: ignore[list-item]
                 time_limit=GENEROUS)  # fmt: skip
    assert _forfeits(t) == [None, None]


@pytest.mark.slow
@LINUX
def test_a_bot_writes_nowhere_but_its_private_tmp_and_reaches_no_network(
    bwrap: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The filesystem is read-only but a private /tmp, and the bot has no network: a
    bot writing into the test's directory or connecting to a server listening on the
    host's loopback fails (it would have answered illegally on success)."""
    monkeypatch.setenv("PROBE_DIR", str(tmp_path))
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        monkeypatch.setenv("PROBE_PORT", str(server.getsockname()[1]))
        for spec in ("faulty_bots:Writer", "faulty_bots:Networker"):
            probes = ("PROBE_DIR", "PROBE_PORT")  # handed on: the sandbox clears the rest
            bot = IsolatedBot(spec, GENEROUS, sandbox="strict", env=probes)
            t = simulate([bot, RuleBot()], 1, seed=5)
            assert _forfeits(t) == [None], (spec, t.matches[0].reason)
    assert not (tmp_path / "written-by-bot").exists()


@pytest.mark.slow
@LINUX
def test_the_sandboxed_bot_sees_only_itself_and_runs_unprivileged(bwrap: None) -> None:
    """The bot's process is in PID, network, IPC and mount namespaces of its own, runs as
    an unprivileged user without capability and with no new privileges, with the
    rlimits set, and a ``module:attr`` bot from the organizer's path (tests/) loaded."""
    bot = IsolatedBot("faulty_bots:Cheat", GENEROUS, sandbox="strict")
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(4)))
    assert state.owner is not None
    bot.choose(tc.view(state, state.owner), tc.legal_moves(state, state.owner), random.Random(0))
    try:  # the bot's Python, looked at from the host
        proc = Path(f"/proc/{bot._pid}")
        assert b"trixcomplex.host.isolated" in _read(str(proc / "cmdline"))
        for kind in ("pid", "net", "ipc", "mnt"):
            assert os.readlink(proc / "ns" / kind) != os.readlink(f"/proc/self/ns/{kind}")
        status = dict(line.split(":", 1) for line in (proc / "status").read_text().splitlines())
        assert status["Uid"].split()[0] != "0" and status["NoNewPrivs"].strip() == "1"
        assert int(status["CapEff"], 16) == 0 and int(status["CapBnd"], 16) == 0
        assert status["NSpid"].split()[-1] == "1"  # alone in its namespace
        limits = (proc / "limits").read_text()
        assert f"Max open files            {sandbox.Limits().open_files}" in limits
        assert f"Max cpu time              {sandbox.Limits().cpu_seconds}" in limits
        assert f"Max processes             {sandbox.Limits().processes}" in limits
        assert f"Max file size             {sandbox.Limits().file_size}" in limits
        assert b"-I" in _read(str(proc / "cmdline")).split(b"\0")
    finally:
        bot.close()
    t = simulate(["faulty_bots:Cheat", "rule"], 1, seed=1, isolated="strict",  # type: ignore[list-item]
                 time_limit=GENEROUS)  # fmt: skip
    assert "chose a move that is not legal" in t.matches[0].reason  # loaded and played


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError:
        return b""


def test_strict_mode_refuses_to_run_without_bubblewrap(monkeypatch: pytest.MonkeyPatch) -> None:
    """``isolated="strict"`` or ``True`` without bubblewrap: SandboxUnavailable (a
    ValueError) before any match, naming the package; the weaker mode runs only by its
    name and makes the host non-dumpable."""
    import trixcomplex.host.isolated as isolated

    monkeypatch.setattr(isolated, "unavailable_reason", lambda: "bwrap is not installed")
    undumpable: list[bool] = []  # the weaker mode makes the host non-dumpable (not pytest's)
    monkeypatch.setattr(isolated, "make_host_undumpable", lambda: undumpable.append(True) or True)
    played: list[int] = []
    for mode in ("strict", True):
        with pytest.raises(sandbox.SandboxUnavailable, match="bubblewrap"):
            simulate(["rule", "random"], 1, isolated=mode,  # type: ignore[list-item]
                     progress=lambda d, n: played.append(d))  # fmt: skip
    assert played == [] and issubclass(sandbox.SandboxUnavailable, ValueError)
    with pytest.raises(sandbox.SandboxUnavailable):
        IsolatedBot("rule", sandbox="strict").sandboxed  # noqa: B018
    try:
        sandbox.check_unsandboxed()
    except sandbox.SandboxUnavailable:
        return  # run as root with a Python other users cannot read: refused too (fail closed)
    with warnings.catch_warnings():
        warnings.simplefilter("error", sandbox.SandboxWarning)
        t = simulate(["rule", "random"], 1, seed=2, isolated="unsandboxed", time_limit=GENEROUS)  # type: ignore[list-item]
    assert _forfeits(t) == [None] and undumpable


@pytest.mark.slow
@LINUX
def test_strict_mode_runs_where_bubblewrap_does(bwrap: None) -> None:
    """With bubblewrap, strict mode plays, no warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", sandbox.SandboxWarning)
        t = simulate(["rule", "random"], 2, seed=8, isolated="strict", time_limit=GENEROUS)  # type: ignore[list-item]
    assert _forfeits(t) == [None, None]


# -- 2. decks no bot can predict ---------------------------------------------------------


def test_a_deck_guessing_bot_finds_every_deck_from_a_public_seed_and_none_from_a_secret() -> None:
    """A bot matching its 13 cards against decks precomputed from candidate seeds knows
    every hand when the seed is known (a public seed = public decks); the organizer's
    secret seed (drawn at random when not given) leaves it nothing to match."""
    known = simulate([RuleBot(), RandomBot()], 2, seed=17)
    secret = simulate([RuleBot(), RandomBot()], 2)
    assert secret.seed != simulate([RuleBot(), RandomBot()], 2).seed  # drawn each time
    for t, found in ((known, True), (secret, False)):
        first = t.matches[0].record.moves[0]
        assert isinstance(first, tc.Deal)
        mine = hands_of(first)[1]  # seat 1's 13 cards, as its bot sees them
        deck = guessed_deck(mine, range(100))
        assert (deck == first) is found and (deck is None) is not found


def test_the_seed_is_committed_before_the_first_match_and_revealed_with_the_results() -> None:
    """The commitment is announced before any match is played and equals the
    published hash of the seed revealed in the result; the same seed replays the same."""
    events: list[str] = []
    t = simulate([RuleBot(), RandomBot()], 2, seed=2**100 + 7,
                 announce=lambda c: events.append(c),
                 progress=lambda d, n: events.append(f"match {d}"))  # fmt: skip
    assert events[0] == seed_commitment(2**100 + 7) == t.commitment
    assert events[1:] == ["match 1", "match 2"]
    assert t.to_json()["commitment"] == t.commitment and t.to_json()["seed"] == t.seed
    again = simulate([RuleBot(), RandomBot()], 2, seed=t.seed)
    assert [m.record for m in again.matches] == [m.record for m in t.matches]


def test_the_bots_streams_tell_nothing_of_the_decks() -> None:
    """The bots' generators come from another key than the decks': no bot's stream
    equals the deck stream, and a deck is not a function of the public seed's text."""
    decks, redeals, bots = match_generators(5, 0)
    first = decks.getrandbits(64)
    assert all(b.getrandbits(64) != first for b in bots) and redeals.getrandbits(64) != first
    assert random.Random("trixcomplex:5:deals:0").getrandbits(64) != first  # the old way


# -- 3. clocks that never desync ---------------------------------------------------------


@pytest.mark.slow
@LINUX
def test_r_match_6_a_late_chooser_gets_timeout_and_its_late_answer_is_never_read(
    bwrap: None,
) -> None:
    """R-MATCH-6: a bot over its CPU limit while choosing gets the rules' Timeout; its
    answer, written late, is discarded, and every later question gets its own answer:
    the match plays out with no forfeit (the old host read the late answer as the next
    one and forfeited the honest bot)."""
    t = simulate(["faulty_bots:LateChooser", "rule"], 2, seed=6, isolated="strict",  # type: ignore[list-item]
                 cpu_limit=1.0, time_limit=GENEROUS)  # fmt: skip
    assert _forfeits(t) == [None, None], [m.reason for m in t.matches]
    for m in t.matches:
        assert tc.Timeout() in m.record.moves


def test_an_answer_to_an_older_question_is_discarded() -> None:
    """A line answering an earlier question id is skipped; the current id's is read."""
    bot = IsolatedBot("rule", sandbox="off")
    bot._buffer += b'{"id": 1, "answer": "stale"}\n{"id": 2, "answer": "fresh"}\n{"id": 3'
    assert bot._answer(2) == ("fresh",)
    assert bytes(bot._buffer) == b'{"id": 3'  # a partial line waits for its newline
    assert bot._answer(3) is None


@pytest.mark.slow
@LINUX
def test_a_partial_line_cannot_block_the_host(bwrap: None) -> None:
    """A bot writing ``{"answer": `` with no newline to every descriptor, then spinning,
    is stopped by its CPU limit while playing a card and forfeits only that match."""
    t = simulate(["faulty_bots:PartialLine", "rule"], 2, seed=7, isolated="strict",  # type: ignore[list-item]
                 cpu_limit=0.5, time_limit=GENEROUS)  # fmt: skip
    assert _forfeits(t) == ["A", "A"]
    assert all("CPU time" in m.reason and "deal 2" in m.reason for m in t.matches)


@LINUX
def test_a_spinning_bot_is_gone_once_its_match_is_forfeited(bwrap: None) -> None:
    """The bot process itself (not only bubblewrap around it) is killed when the host
    stops it: a spinning bot must not outlive its match, eating the organizer's CPU."""
    rng = random.Random(1)
    state = tc.new_match()
    while not (state.deal_number == 2 and state.to_act):
        deal = state.phase is tc.Phase.DEAL
        state = tc.apply(
            state, tc.Deal.shuffled(rng) if deal else rng.choice(tc.legal_moves(state))
        )
    bot = IsolatedBot("faulty_bots:Spin", cpu_limit=0.5, time_limit=GENEROUS, sandbox="strict")
    seat = min(state.to_act)
    with pytest.raises(BotTimeout):
        bot.choose(tc.view(state, seat), tc.legal_moves(state, seat), random.Random(0))
    spinner = bot._pid
    bot.close()
    assert not wait_gone([spinner], GENEROUS)  # an upper bound: SIGKILL takes effect at once


@pytest.mark.slow
@LINUX
def test_honest_isolated_bots_under_a_cpu_limit_never_forfeit(bwrap: None) -> None:
    """RuleBots held to 2 CPU seconds a decision play out (a loaded machine slows their
    CPU clock with them, so they are never late)."""
    t = simulate(["rule", "rule"], 2, seed=9, isolated="strict", cpu_limit=2.0)  # type: ignore[list-item]
    assert _forfeits(t) == [None, None]
    assert all(tc.Timeout() not in m.record.moves for m in t.matches)


def test_one_timer_owner_the_host_sets_none_around_a_bot_that_keeps_time() -> None:
    """The host's ``ask`` sets no alarm around a bot that keeps its own time: a bot
    that is slower than the host's limit but says it keeps time is not cut short."""
    from trixcomplex.host.loop import ask

    class OwnClock(RuleBot):
        keeps_time = True

        def choose(self, view, legal, rng):  # type: ignore[no-untyped-def]
            import signal

            assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
            assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
            return super().choose(view, legal, rng)

    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(4)))
    assert state.owner is not None
    move = ask(OwnClock(), state, state.owner, random.Random(0), time_limit=5, cpu_limit=5)
    assert move in tc.legal_moves(state, state.owner)


def test_r_match_6_an_in_process_bot_over_its_cpu_limit_gets_timeout() -> None:
    """R-MATCH-6: ``cpu_limit`` in process counts CPU seconds: a chooser spinning past
    it gets the rules' Timeout."""
    from faulty_bots import LateChooser
    from trixcomplex.host.loop import ask

    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(4)))
    assert state.owner is not None
    assert ask(LateChooser(), state, state.owner, random.Random(0), cpu_limit=0.2) == tc.Timeout()


# -- 4. faults cost only their match ------------------------------------------------------


@pytest.mark.parametrize(("bot", "why"), [(Raises(), "raised RuntimeError: bot bug"),
                                          (Exits(), "raised SystemExit: 4")])  # fmt: skip
def test_a_bot_that_raises_or_exits_in_process_forfeits_only_its_match(
    bot: tc.Bot, why: str
) -> None:
    """A bot's RuntimeError or SystemExit in the host's process forfeits its match,
    with the reason; the tournament goes on and is reproducible."""
    t = simulate([bot, RuleBot()], 3, seed=11)
    assert _forfeits(t) == ["A", "A", "A"] and t.summary.matches == 3
    assert all(why in m.reason and "deal 2" in m.reason for m in t.matches)
    assert [m.reason for m in simulate([bot, RuleBot()], 3, seed=11).matches] == [
        m.reason for m in t.matches
    ]


@pytest.mark.parametrize(("bot", "why"), [(Raises(), "raised RuntimeError"),
                                          (Exits(), "raised SystemExit"),
                                          (HardExit(), "worker process died")])  # fmt: skip
def test_a_bot_that_raises_or_ends_its_worker_with_jobs_2_forfeits_only_its_match(
    bot: tc.Bot, why: str
) -> None:
    """With ``jobs=2``: a RuntimeError, a SystemExit, or ``os._exit`` killing the worker
    forfeits the match (the dead worker's pool is rebuilt, the match it was playing run
    again alone, and, dying again, forfeited by the seat it was asking); the others are
    played; two runs agree."""
    t = simulate([bot, RuleBot()], 3, seed=12, jobs=2, stall_timeout=GENEROUS)
    assert _forfeits(t) == ["A", "A", "A"]
    assert all(why in m.reason and "deal 2" in m.reason for m in t.matches), t.matches[0].reason
    again = simulate([bot, RuleBot()], 3, seed=12, jobs=2, stall_timeout=GENEROUS)
    assert [m.reason for m in again.matches] == [m.reason for m in t.matches]
    honest = simulate([RuleBot(), RandomBot()], 2, seed=12, jobs=2)
    assert _forfeits(honest) == [None, None]


@pytest.mark.slow
@LINUX
@pytest.mark.parametrize("spec", [f"faulty_bots:{n}" for n in ("Raises", "Exits", "HardExit")])
def test_an_isolated_bot_that_raises_or_exits_forfeits_only_its_match(
    spec: str, bwrap: None
) -> None:
    """Isolated, every fault of the bot (an exception, sys.exit, os._exit) stays in its
    own process: its match is forfeited with the reason, the tournament goes on."""
    t = simulate([spec, "rule"], 2, seed=13, isolated="strict", time_limit=GENEROUS)  # type: ignore[list-item]
    assert _forfeits(t) == ["A", "A"]
    for m in t.matches:
        assert "deal 2" in m.reason
        assert ("raised" in m.reason) if spec != "faulty_bots:HardExit" else "crashed" in m.reason


# -- 5. the command line ------------------------------------------------------------------


@pytest.mark.slow
@LINUX
def test_cli_simulate_isolated_strict_with_limits(
    bwrap: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``trixcomplex simulate --isolated --strict --time-limit S --cpu-limit S`` plays
    sandboxed bots; the commitment is printed first, the seed with the results."""
    from trixcomplex.cli import main

    monkeypatch.setenv("TRIXCOMPLEX_PLAIN", "1")
    code = main(["simulate", "--bots", "rule,random", "--matches", "2", "--isolated", "--strict",
                 "--time-limit", "120", "--cpu-limit", "5", "--seed", "99"])  # fmt: skip
    out = capsys.readouterr()
    assert code == 0 and f"seed commitment: {seed_commitment(99)}" in out.err
    assert "2 (seed 99" in out.out and "rule" in out.out


def test_cli_strict_without_bubblewrap_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--isolated`` (``--strict`` or not) without bubblewrap: exit 2 and one line naming
    the package."""
    import trixcomplex.host.isolated as isolated
    from trixcomplex.cli import main

    monkeypatch.setattr(isolated, "unavailable_reason", lambda: "bwrap is not installed")
    monkeypatch.setenv("TRIXCOMPLEX_PLAIN", "1")
    for flags in (["--isolated", "--strict"], ["--isolated"]):
        code = main(["simulate", "--matches", "1", *flags])
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and err[-1].startswith("trixcomplex simulate: error:")
        assert "'bubblewrap'" in err[-1] and "Traceback" not in "\n".join(err)
