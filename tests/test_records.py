"""Game records (docs/records.rst): reading, writing, replay, the report and the replay command."""

from __future__ import annotations

import copy
import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import trixcomplex as tc
from builders import deal_of, random_match
from trixcomplex.cli.replay import run_replay
from trixcomplex.core.errors import ERROR_CODES

ENVELOPE = {"format": "trixcomplex-record", "version": 1, "ruleset": "partnership"}


def _record(*moves: object) -> dict[str, object]:
    return {**ENVELOPE, "moves": list(moves)}


def _deal_json(seed: int = 1) -> dict[str, object]:
    return tc.move_to_json(random_match(seed, until=1)[1].history.last)  # type: ignore[arg-type]


def _error(obj: object) -> tc.RecordError:
    with pytest.raises(tc.RecordError) as info:
        tc.replay_json(obj)
    return info.value


# -- writing and reading ------------------------------------------------------------


def test_r_match_2_record_of_a_match_round_trips_every_shuffle() -> None:
    state = random_match(11)[-1]
    record = tc.Record.of(state)
    data = json.loads(json.dumps(record.to_json()))
    assert list(data) == ["format", "version", "ruleset", "moves"]
    assert data["format"] == "trixcomplex-record" and data["version"] == 1
    assert data["ruleset"] == "partnership"
    back = tc.Record.from_json(data)
    assert back == record
    assert tc.replay(back) == state
    deals = [m for m in back.moves if isinstance(m, tc.Deal)]
    assert len(deals) == 8
    assert [m.deck for m in deals] == [m.deck for m in state.history if isinstance(m, tc.Deal)]


def test_append_builds_the_record_of_a_live_match_move_by_move() -> None:
    states = random_match(12)
    record = tc.Record()
    for state in states[1:]:
        move = state.history.last
        assert move is not None
        record = record.append(move)
    assert record == tc.Record.of(states[-1])
    assert len(record) == len(states) - 1
    assert list(record) == list(states[-1].history)


def test_record_holds_only_moves() -> None:
    with pytest.raises(TypeError):
        tc.Record(moves=["timeout"])  # type: ignore[list-item]


def test_r_card_2_reader_accepts_other_card_forms_writer_is_canonical() -> None:
    deal = _deal_json()
    deck = list(deal["deck"])  # type: ignore[call-overload]
    index = deck.index("TH")
    deck[index] = "10♥"
    deck[0] = deck[0].lower()
    record = tc.Record.from_json(_record({"move": "deal", "deck": deck}))
    written = record.to_json()["moves"][0]["deck"]
    assert written == deal["deck"]


def test_every_move_kind_is_written_as_in_record_md() -> None:
    moves: list[tc.Move] = [
        tc.Choose(2, tc.Contract.COMPLEX),
        tc.Double(1, ["QS", "KH"]),
        tc.Double(3, []),
        tc.Timeout(),
        tc.Play(2, "AS"),
        tc.Pass(0),
    ]
    assert tc.Record(moves=moves).to_json()["moves"] == [
        {"move": "choose", "seat": 2, "contract": "COMPLEX"},
        {"move": "double", "seat": 1, "cards": ["QS", "KH"]},
        {"move": "double", "seat": 3, "cards": []},
        {"move": "timeout"},
        {"move": "play", "seat": 2, "card": "AS"},
        {"move": "pass", "seat": 0},
    ]


def test_an_unfinished_record_is_valid() -> None:
    state = random_match(3, until=40)[-1]
    assert state.phase is not tc.Phase.OVER
    assert tc.replay(tc.Record.from_json(tc.Record.of(state).to_json())) == state
    assert tc.replay(tc.Record()) == tc.new_match()


# -- rejected records -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("obj", "words"),
    [
        ([], "a record is a JSON object"),
        ({**_record(), "extra": 1}, "extra"),
        ({"format": "trixcomplex-record", "version": 1, "moves": []}, "ruleset"),
        ({**_record(), "format": "chess-pgn"}, "format must be 'trixcomplex-record'"),
        ({**_record(), "version": 2}, "unknown record version 2"),
        ({**_record(), "version": "1"}, "unknown record version"),
        ({**_record(), "version": True}, "unknown record version true"),
        ({**_record(), "ruleset": "poker"}, "unknown ruleset"),
        ({**_record(), "ruleset": "classic+doubling=maybe"}, "bad ruleset option"),
        ({**_record(), "ruleset": 3}, "ruleset"),
        ({**ENVELOPE, "moves": {"0": {"move": "timeout"}}}, "moves"),
    ],
)
def test_malformed_envelope_is_rejected(obj: object, words: str) -> None:
    for read in (tc.Record.from_json, tc.replay_json):
        with pytest.raises(tc.RecordError) as info:
            read(obj)
        assert words in str(info.value)
        assert info.value.index is None
        assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("move", "words", "rule"),
    [
        ({"move": "play", "seat": 0, "card": "AS", "x": 1}, "unknown key 'x'", None),
        ({"move": "play", "seat": "0", "card": "AS"}, "seat must be an integer", "R-SEAT-1"),
        ({"move": "play", "seat": True, "card": "AS"}, "seat must be an integer", "R-SEAT-1"),
        ({"move": "play", "seat": 4, "card": "AS"}, "seat must be an integer", "R-SEAT-1"),
        ({"move": "play", "seat": 0, "card": "1X"}, "not a card: '1X'", "R-CARD-2"),
        ({"move": "play", "seat": 0, "card": 12}, "card", "R-CARD-2"),
        ({"move": "play", "seat": 0}, "needs the key 'card'", None),
        ({"move": "fold", "seat": 0}, "unknown move kind 'fold'", None),
        ({"seat": 0}, "unknown move kind", None),
        ("timeout", "a move is a JSON object", None),
        ({"move": "choose", "seat": 0, "contract": "KINGDOM"}, "contract must be", "R-MATCH-1"),
        ({"move": "double", "seat": 0, "cards": "KH"}, "cards must be a list", "R-CARD-2"),
    ],
)
def test_malformed_move_names_its_index_and_what_is_wrong(
    move: dict[str, object], words: str, rule: str | None
) -> None:
    obj = _record(_deal_json(), move)
    for read in (tc.Record.from_json, tc.replay_json):
        with pytest.raises(tc.RecordError) as info:
            read(obj)
        error = info.value
        assert error.index == 1
        assert error.move == move
        assert error.rule == rule
        assert words in str(error)
        assert str(error).startswith("move 1 ")
        assert "\n" not in str(error)


def test_r_match_2_a_deck_that_is_not_52_distinct_cards_is_rejected() -> None:
    deck = list(_deal_json()["deck"])  # type: ignore[call-overload]
    short = _error(_record({"move": "deal", "deck": deck[:51]}))
    assert (short.index, short.rule) == (0, "R-MATCH-2")
    assert "52 cards, not 51" in str(short)
    twice = _error(_record({"move": "deal", "deck": [deck[1], *deck[1:]]}))
    assert (twice.index, twice.rule) == (0, "R-MATCH-2")
    assert f"repeated: {deck[1]}" in str(twice)


def test_r_cx_2_replay_of_an_illegal_step_names_index_move_and_rule() -> None:
    """R-CX-2: a seat holding the led suit must follow it."""
    deal = deal_of([["7H", "2S"], ["3S", "AH"], [], []])  # seat 0 owns (7H), seat 1 has spades
    state = tc.apply(tc.new_match(), deal)
    state = tc.apply(tc.apply(state, tc.Choose(0, tc.Contract.COMPLEX)), tc.Timeout())
    state = tc.apply(state, tc.Play(0, "2S"))
    bad = tc.Play(1, "AH")
    record = tc.Record.of(state).append(bad).append(tc.Play(2, "2H"))
    with pytest.raises(tc.RecordError) as info:
        tc.replay(record)
    error = info.value
    assert error.index == 4
    assert error.move == bad
    assert error.rule == "R-CX-2"
    assert str(error) == (
        'move 4 {"move": "play", "seat": 1, "card": "AH"}: seat 1 must follow suit ♠ (R-CX-2)'
    )
    raw = tc.Record.of(state).append(bad).to_json()
    with pytest.raises(tc.RecordError) as info:
        tc.replay_json(raw)
    assert info.value.move == raw["moves"][4]
    assert str(info.value) == str(error)


def test_r_match_6_a_timeout_outside_the_two_windows_is_rejected() -> None:
    error = _error(_record({"move": "timeout"}))
    assert (error.index, error.rule) == (0, "R-MATCH-6")


def test_replay_refuses_an_unknown_ruleset() -> None:
    with pytest.raises(tc.RecordError, match="unknown ruleset"):
        tc.replay(tc.Record(ruleset="classic+doubling"))


def test_record_error_pickles_with_its_fields() -> None:
    import pickle

    error = _error(_record({"move": "timeout"}))
    again = pickle.loads(pickle.dumps(error))
    assert (again.index, again.move, again.rule, str(again)) == (
        error.index,
        error.move,
        error.rule,
        str(error),
    )


def test_reading_leaves_the_input_unchanged() -> None:
    obj = _record(_deal_json(), {"move": "play", "seat": 0, "card": "ZZ"})
    before = copy.deepcopy(obj)
    with pytest.raises(tc.RecordError):
        tc.Record.from_json(obj)
    assert obj == before


# -- the report ---------------------------------------------------------------------


def test_r_match_7_r_match_8_report_of_a_complete_match() -> None:
    state = random_match(4)[-1]
    report = tc.replay_report(state)
    result = tc.score(state)
    assert list(report) == ["complete", "deals", "seats", "teams", "result"]
    assert report["complete"] is True
    assert report["seats"] == list(state.scores)
    assert report["teams"] == [state.scores[0] + state.scores[2], state.scores[1] + state.scores[3]]
    assert report["result"] == str(result.result)
    assert report["deals"] == [
        {"contract": d.contract.value, "owner": d.owner, "scores": list(d.points)}
        for d in state.results
    ]
    assert json.loads(json.dumps(report)) == report


def test_report_of_an_unfinished_match_has_no_result() -> None:
    states = random_match(4)
    mid = next(s for s in states if len(s.results) == 3)
    report = tc.replay_report(mid)
    assert report["complete"] is False
    assert report["result"] is None
    assert len(report["deals"]) == 3


# -- the replay command --------------------------------------------------------------


def _run(path: str, *, as_json: bool = True, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run_replay(path, as_json=as_json, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_run_replay_prints_the_report_as_indented_json(tmp_path: Path) -> None:
    state = random_match(5)[-1]
    path = tmp_path / "match.json"
    path.write_text(json.dumps(tc.Record.of(state).to_json()), encoding="utf-8")
    status, out, err = _run(str(path))
    assert (status, err) == (0, "")
    assert json.loads(out) == tc.replay_report(state)
    assert out == json.dumps(tc.replay_report(state), indent=2) + "\n"


def test_run_replay_prints_the_scoresheet_without_json(tmp_path: Path) -> None:
    state = random_match(5)[-1]
    path = tmp_path / "match.json"
    path.write_text(json.dumps(tc.Record.of(state).to_json()), encoding="utf-8")
    status, out, err = _run(str(path), as_json=False)
    assert (status, err) == (0, "")
    assert out == tc.format_scoresheet(state) + "\n"


def test_run_replay_reads_standard_input_for_dash() -> None:
    state = random_match(6, until=30)[-1]
    status, out, err = _run("-", stdin=json.dumps(tc.Record.of(state).to_json()))
    assert (status, err) == (0, "")
    assert json.loads(out)["complete"] is False


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"format": ', "invalid JSON"),
        ("", "invalid JSON"),
        ("NaN", "NaN is not a JSON value"),
        ("[" * 100_000 + "]" * 100_000, "invalid JSON"),
        ('{"a": 1' + "0" * 5000 + "}", "invalid JSON"),
        ("[]", "a record is a JSON object"),
        (json.dumps(_record({"move": "timeout"})), 'move 0 {"move": "timeout"}'),
    ],
)
def test_run_replay_bad_input_is_one_line_on_stderr(text: str, words: str) -> None:
    status, out, err = _run("-", stdin=text, as_json=False)
    assert status == 1
    assert out == ""
    assert err.startswith("<stdin>: ")
    assert words in err
    assert err.count("\n") == 1 and err.endswith("\n")
    # With --json the same error is one line of error JSON on stdout (issue 12).
    status, out, err = _run("-", stdin=text)
    assert (status, err) == (1, "")
    assert out.count("\n") == 1 and out.endswith("\n")
    error = json.loads(out)
    assert set(error) == {"code", "message", "rule", "index"}
    assert words in error["message"] and error["code"] in ERROR_CODES


def test_run_replay_missing_or_unreadable_file(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.json")
    status, out, err = _run(missing, as_json=False)  # a bad command line: exit 2
    assert (status, out) == (2, "")
    assert err == f"{missing}: cannot read the file: No such file or directory\n"
    status, _, err = _run(str(tmp_path), as_json=False)
    assert status == 2 and err.count("\n") == 1
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00")
    status, _, err = _run(str(binary), as_json=False)
    assert status == 2 and "not UTF-8" in err and err.count("\n") == 1  # unreadable: 2
    status, out, err = _run(str(binary))
    assert (status, err) == (2, "") and json.loads(out)["code"] == "record.unreadable"


def test_cli_replay_end_to_end(tmp_path: Path) -> None:
    """``python -m trixcomplex.cli replay FILE --json``: exit status and one-line errors."""
    state = random_match(7)[-1]
    good = tmp_path / "good.json"
    good.write_text(json.dumps(tc.Record.of(state).to_json()), encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_record({"move": "pass", "seat": 0})), encoding="utf-8")
    cmd = [sys.executable, "-m", "trixcomplex.cli", "replay"]
    ok = subprocess.run([*cmd, str(good), "--json"], capture_output=True, text=True, check=False)
    assert (ok.returncode, ok.stderr) == (0, "")
    report = json.loads(ok.stdout)
    assert [e["seat"] for e in report.pop("ledger")]  # --json includes the ledger (issue 15)
    assert report == tc.replay_report(state)
    fail = subprocess.run([*cmd, str(bad), "--json"], capture_output=True, text=True, check=False)
    assert fail.returncode == 1
    assert fail.stderr == ""
    error = json.loads(fail.stdout)  # issue 12: --json prints the error's JSON
    assert (error["code"], error["rule"], error["index"]) == ("record.illegal-move", "R-MATCH-2", 0)
    assert 'move 0 {"move": "pass", "seat": 0}' in error["message"]
    plain = subprocess.run([*cmd, str(bad)], capture_output=True, text=True, check=False)
    assert (plain.returncode, plain.stdout) == (1, "")
    assert plain.stderr.count("\n") == 1
    assert 'move 0 {"move": "pass", "seat": 0}' in plain.stderr and "(R-MATCH-2)" in plain.stderr


# -- rulesets (R-SET-1) ----------------------------------------------------------------

RULESET_NAMES = [
    *tc.RULESETS,
    "classic+doubling=False",
    "classic+fixed_order=True,reversed_scores=True",
    "partnership+swapped_scores=True",
    "classic-partnership+bad_hand_redeal=True",
    "classic-partnership+worst_seat_loses=True",
    "classic+contracts=TRIX/QUEENS/KING_OF_HEARTS/DIAMONDS/LTOOSH,fixed_order=True",
]


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_r_set_1_records_name_their_ruleset_and_replay_under_it(name: str) -> None:
    """R-SET-1: ``Record.of`` takes the state's ruleset name; JSON keeps it; replay
    starts from ``new_match(Ruleset.from_name(name))`` and rebuilds the match."""
    ruleset = tc.Ruleset.from_name(name)
    state = random_match(3, ruleset=ruleset, timeout_rate=0.1)[-1]
    record = tc.Record.of(state)
    assert record.ruleset == name == state.ruleset.name
    data = json.loads(json.dumps(record.to_json()))
    assert data["ruleset"] == name
    back = tc.Record.from_json(data)
    assert back == record
    assert tc.replay(back) == state and tc.replay(back).ruleset == ruleset
    assert tc.replay_json(data) == state
    report = tc.replay_report(state)
    assert list(report) == ["complete", "deals", "seats", "teams", "result"]
    assert report["complete"] is True and len(report["deals"]) == ruleset.deals_per_match
    summary = tc.score(state)
    assert report["result"] == summary.result.value  # type: ignore[union-attr]
    teams = {"team0", "team1", "draw"}
    seats = {"seat0", "seat1", "seat2", "seat3", "shared"}
    assert report["result"] in (teams if ruleset.partnership else seats)


def test_r_set_1_a_record_replayed_under_another_ruleset_fails_or_differs() -> None:
    """R-SET-1: the ruleset name matters: a classic record is not a partnership match."""
    state = tc.apply(tc.new_match(tc.CLASSIC), tc.Deal.shuffled(random.Random(4)))
    state = tc.apply(state, tc.Choose(state.owner, tc.Contract.KING_OF_HEARTS))  # type: ignore[arg-type]
    data = tc.Record.of(state).to_json()
    assert tc.replay_json(data) == state
    error = _error({**data, "ruleset": "partnership"})
    assert error.index == 1 and error.rule == "R-MATCH-1"  # KING_OF_HEARTS &c. not in the game
    individual = random_match(4, ruleset=tc.INDIVIDUAL_COMPLEX, timeout_rate=0.1)[-1]
    as_partnership = tc.replay_json(
        {**tc.Record.of(individual).to_json(), "ruleset": "partnership"}
    )
    assert as_partnership.history == individual.history and as_partnership != individual


@pytest.mark.parametrize(
    ("scores", "result"),
    [
        ((300, -100, -100, -100), "seat0"),
        ((-100, -100, -100, 300), "seat3"),
        ((100, 100, -100, -100), "shared"),
        ((0, 0, 0, 0), "shared"),
    ],
)
def test_r_ind_1_report_result_strings_of_individual_rulesets(
    scores: tuple[int, int, int, int], result: str
) -> None:
    """R-IND-1, R-CL-1: the best individual total wins; a tie for the best is shared."""
    import attrs

    over = random_match(5, ruleset=tc.CLASSIC, timeout_rate=0.1)[-1]
    state = attrs.evolve(over, scores=scores)
    report = tc.replay_report(state)
    assert report["result"] == result
    assert report["seats"] == list(scores)
    reversed_rules = tc.CLASSIC.evolve(reversed_scores=True)
    lowest = tc.replay_report(attrs.evolve(state, ruleset=reversed_rules))["result"]
    assert lowest == ("shared" if result == "shared" and scores[0] == 0 else lowest)
    if result == "seat0":
        assert lowest == "shared"  # R-OPT-6: seats 1, 2 and 3 share the lowest total


def test_r_opt_8_redeal_moves_are_read_and_written() -> None:
    """R-OPT-8: ``{"move": "redeal", "seat": N}`` in a record, both ways."""
    record = tc.Record("classic-partnership+bad_hand_redeal=True", [tc.Redeal(2)])
    data = record.to_json()
    assert data["moves"] == [{"move": "redeal", "seat": 2}]
    assert tc.Record.from_json(data) == record
    for bad, words in (
        ({"move": "redeal", "seat": 4}, "seat"),
        ({"move": "redeal"}, "seat"),
        ({"move": "redeal", "seat": 1, "card": "AS"}, "card"),
    ):
        with pytest.raises(tc.RecordError, match=words) as info:
            tc.Record.from_json({**data, "moves": [bad]})
        assert info.value.index == 0


def test_r_opt_8_an_illegal_redeal_names_its_rule() -> None:
    """R-OPT-8 with the option; R-MATCH-2 in the default game, where nothing causes one."""
    error = _error(_record(_deal_json(), {"move": "redeal", "seat": 0}))
    assert (error.index, error.rule) == (1, "R-MATCH-2")
    name = "classic+bad_hand_redeal=True"
    deal = _deal_json()
    error = _error({**ENVELOPE, "ruleset": name, "moves": [deal, {"move": "redeal", "seat": 0}]})
    assert (error.index, error.rule) == (1, "R-OPT-8")
