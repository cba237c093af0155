"""JSON handling without copies (issue 27): one move reader, one error constructor,
no module-level cache in the record reader, and one parse of each client message."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path
from typing import Any

import pytest

import trixcomplex as tc
from builders import deal_of
from server_harness import InlinePool, TimedStore
from trixcomplex.core import moves
from trixcomplex.host.loop import run
from trixcomplex.io import records, serialize
from trixcomplex.server import app
from trixcomplex.server.clock import ManualClock
from trixcomplex.server.table import Seat, Settings, Table

# -- one error constructor -------------------------------------------------------------


def test_a_state_format_error_is_built_by_the_record_errors_constructor() -> None:
    """``StateFormatError`` is a ``RecordError`` (its ``field`` too), built by the same
    ``__init__``: its message, code, index, move, rule and field as before."""
    assert serialize.StateFormatError.__init__ is records.RecordError.__init__
    error = serialize.StateFormatError(
        "seat 1 must follow suit (R-CX-2)", index=3, move={"move": "pass", "seat": 1},
        rule="R-CX-2", field="hands", code="state.illegal-move",
    )  # fmt: skip
    assert isinstance(error, tc.RecordError)
    assert str(error) == 'move 3 {"move": "pass", "seat": 1}: seat 1 must follow suit (R-CX-2)'
    assert (error.code, error.index, error.rule, error.field) == (
        "state.illegal-move", 3, "R-CX-2", "hands",
    )  # fmt: skip
    assert error.to_json() == {"code": "state.illegal-move", "message": str(error),
                               "rule": "R-CX-2", "index": 3}  # fmt: skip
    again = pickle.loads(pickle.dumps(error))
    assert (type(again), again.field, str(again)) == (serialize.StateFormatError, "hands",
                                                      str(error))  # fmt: skip
    assert tc.RecordError("a record fault").field is None


# -- one move reader, no cache ---------------------------------------------------------


def test_r_card_2_records_read_moves_with_the_moves_modules_one_reader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The record reader has no move parser of its own: every canonical move of a
    record goes through ``moves.canonical_move`` (and ``move_from_json`` tries it first)."""
    assert not hasattr(records, "_canonical_move")
    seen: list[object] = []
    real = moves.canonical_move

    def spy(raw: object) -> tc.Move | None:
        seen.append(raw)
        return real(raw)

    monkeypatch.setattr(records, "canonical_move", spy)
    raw = {"move": "play", "seat": 2, "card": "TD"}
    assert records._read_move(0, raw) == tc.Play(2, "TD")
    assert seen == [raw]
    monkeypatch.setattr(moves, "canonical_move", spy)
    assert tc.move_from_json({"move": "pass", "seat": 1}) == tc.Pass(1)
    assert seen[-1] == {"move": "pass", "seat": 1}


def test_the_record_reader_keeps_no_module_level_cache() -> None:
    """Reading a record leaves the records and moves modules as they were: no dict,
    list or set of theirs grows with what was read."""

    def containers() -> dict[str, int]:
        return {
            f"{module.__name__}.{name}": len(value)
            for module in (records, moves)
            for name, value in vars(module).items()
            if type(value) in (dict, list, set)
        }

    before = containers()
    odd = [{"move": "choose", "seat": s, "contract": ["QUEENS", "DIAMONDS"]} for s in range(4)]
    for index, raw in enumerate(odd + [{"move": "pass", "seat": 1.0}]):
        records._read_move(index, raw)
    assert containers() == before
    assert not hasattr(records, "_READ")


# -- the server parses a move message once ----------------------------------------------


class _Conn:
    """A connection seated at ``seat`` (what ``app.handle`` reads of one)."""

    def __init__(self, seat: int | None) -> None:
        self.seat, self.attached, self.sent = seat, True, []
        self.locale = "en"

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


def _table() -> Table:
    state = tc.apply(tc.new_match(), deal_of([["7H"]]))
    clock = ManualClock()
    seats = [Seat("person", "p", "0" * 64)] + [Seat("bot", "rule") for _ in range(3)]
    settings = Settings(move_time=60, forced_delay=60, bot_delay=60, deal_pause=60)
    return Table("t", "2026-01-01T00:00:00Z", settings, seats, state, TimedStore(clock, state),
                 clock=clock, pool=InlinePool())  # fmt: skip


def test_the_server_parses_a_move_message_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 27: a move message is parsed once (the library's strict reader), then
    routed and checked from that value: one ``json.loads`` per message."""
    parses: list[str] = []
    real = json.loads

    def counting(text: Any, **kwargs: Any) -> Any:
        parses.append(text)
        return real(text, **kwargs)

    table = _table()
    monkeypatch.setattr(json, "loads", counting)
    app.handle(table, _Conn(0), '{"move": "choose", "seat": 0, "contract": "TRIX"}')  # type: ignore[arg-type]
    assert table.state.contract is tc.Contract.TRIX
    assert len(parses) == 1


@pytest.mark.parametrize(
    ("seat", "text", "code"),
    [
        (1, '{"move": "choose", "seat": 0, "contract": "TRIX"}', "submit.wrong-seat"),
        (None, '{"move": "choose", "seat": 0, "contract": "TRIX"}', "submit.spectator"),
        (None, "this is not JSON", "submit.spectator"),
        (0, "this is not JSON", "submit.invalid-json"),
        (0, '{"move": "pass", "seat": 0, "seat": 0}', "submit.duplicate-key"),
        (0, "[" * 500 + "]" * 500, "submit.too-large"),
        (0, json.dumps({"move": "pass", "seat": 0, "x": "y" * 2000}), "submit.too-large"),
        (0, '{"move": "timeout"}', "submit.host-only"),
        (0, '{"move": "play", "seat": 0, "card": "AS"}', "illegal-move"),
    ],
)
def test_a_refused_move_keeps_its_code(seat: int | None, text: str, code: str) -> None:
    """Parsing once changes no refusal: each code is the library's, as before."""
    table = _table()
    with pytest.raises(tc.TrixError) as info:
        app.handle(table, _Conn(seat), text)  # type: ignore[arg-type]
    assert info.value.code == code
    assert table.state.phase is tc.Phase.CHOOSE


# -- the replay command reads a valid record once -------------------------------------


@pytest.mark.parametrize("flags", [[], ["--json"], ["--explain"]])
def test_the_replay_command_parses_and_replays_a_valid_record_once(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
) -> None:
    """Issue 27: ``trixcomplex replay FILE`` reads, parses and replays the record once
    (it used to check it, then read and replay it again for the scoresheet)."""
    from trixcomplex.cli import main
    from trixcomplex.cli import replay as command

    state = run(tc.new_match(), lambda st, seat, legal: legal[0], deals=random.Random(2))
    path = tmp_path / "match.json"
    path.write_text(json.dumps(tc.Record.of(state).to_json()), encoding="utf-8")
    parses: list[object] = []
    replays: list[object] = []
    real_loads, real_replay = json.loads, command.replay_json

    def counting_loads(text: Any, **kwargs: Any) -> Any:
        parses.append(text)
        return real_loads(text, **kwargs)

    def counting_replay(obj: object) -> tc.MatchState:
        replays.append(obj)
        return real_replay(obj)

    monkeypatch.setattr(json, "loads", counting_loads)
    monkeypatch.setattr(command, "replay_json", counting_replay)
    assert main(["replay", str(path), *flags]) == 0
    assert len(parses) == 1 and len(replays) == 1
    out = capsys.readouterr().out
    assert out
    if flags == ["--json"]:
        assert real_loads(out)["complete"] is True
