"""Saving and restoring states and views: ``tc.to_json`` / ``tc.from_json``.

A reconnect restores the match exactly and never reshuffles (R-MATCH-2);
a tampered state is rejected, not loaded.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import VIEW_RULESETS, random_match
from trixcomplex.core.cards import cards_of, mask_of, parse_card
from trixcomplex.io.serialize import CARDS

JSON_SCALARS = (str, int, bool, type(None))


def _is_json_safe(value: object) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if not all(type(k) is str for k in item):
                return False
            stack.extend(item.values())
        elif type(item) is list:
            stack.extend(item)
        elif type(item) not in JSON_SCALARS:
            return False
    return True


def _through_text(data: object) -> object:
    return json.loads(json.dumps(data))


def _sample(states: list[tc.MatchState], step: int) -> list[tc.MatchState]:
    return [*states[::step], states[-1]]


# -- round trips ---------------------------------------------------------------------


@settings(max_examples=8)
@given(st.integers(0, 2**32 - 1))
def test_r_match_2_state_record_json_replay_gives_back_the_state(seed: int) -> None:
    """state → Record.of → to_json → from_json → replay is the same state."""
    final = random_match(seed)[-1]
    data = _through_text(tc.Record.of(final).to_json())
    assert tc.replay(tc.Record.from_json(data)) == final


@settings(max_examples=6)
@given(st.integers(0, 2**32 - 1))
def test_r_match_2_every_sampled_state_round_trips(seed: int) -> None:
    """A reconnect restores the state exactly, hands and all: it never reshuffles."""
    states = random_match(seed)
    for state in _sample(states, 37):
        data = tc.to_json(state)
        assert _is_json_safe(data)
        back = tc.from_json(tc.MatchState, _through_text(data))
        assert back == state
        assert back.hands == state.hands
        assert tc.legal_moves(back) == tc.legal_moves(state)


def test_states_in_every_phase_round_trip() -> None:
    phases = set()
    for seed in (1, 2):
        for state in random_match(seed):
            if state.phase in phases and state.phase is not tc.Phase.DOUBLE:
                continue
            phases.add(state.phase)
            assert tc.from_json(tc.MatchState, _through_text(tc.to_json(state))) == state
    assert phases == set(tc.Phase) - {tc.Phase.TRICKS}  # TRICKS: classic contracts only


def test_r_hid_2_an_open_window_with_answers_round_trips() -> None:
    for state in random_match(21):
        if state.window is not None and any(a is not None for a in state.window.answers):
            data = tc.to_json(state)
            answers = data["state"]["deal"]["answers"]
            # each seat's answer is written as it stands: null (not yet) or its card codes
            for seat, answer in enumerate(state.window.answers):
                expected = None if answer is None else [str(c) for c in cards_of(answer)]
                assert answers[seat] == expected
            assert tc.from_json(tc.MatchState, _through_text(data)) == state
            return
    pytest.fail("no window with answers in this match")


def test_state_json_writes_card_sets_as_codes() -> None:
    state = next(s for s in random_match(3) if s.phase is tc.Phase.TRIX and s.trix and s.trix.table)
    data = tc.to_json(state)
    assert list(data) == ["format", "version", "ruleset", "moves", "state"]
    assert data["format"] == "trixcomplex-state" and data["version"] == 2
    assert data["moves"] == tc.Record.of(state).to_json()["moves"]
    saved = data["state"]
    assert "history" not in saved
    assert saved["hands"] == [[str(c) for c in state.hand(s)] for s in range(4)]
    assert saved["deal"]["table"] == [str(c) for c in cards_of(state.trix.table)]  # type: ignore[union-attr]
    assert saved["phase"] == "TRIX" and saved["contract"] == "TRIX"


# -- tampering ------------------------------------------------------------------------


def _mid_complex() -> tc.MatchState:
    return next(
        s
        for s in random_match(8)
        if s.phase is tc.Phase.COMPLEX
        and s.trick_deal is not None
        and len(s.trick_deal.tricks) == 3
    )


def _tampered(change: object) -> tc.StateFormatError:
    data = _through_text(tc.to_json(_mid_complex()))
    assert isinstance(data, dict)
    change(data)  # type: ignore[operator]
    with pytest.raises(tc.StateFormatError) as info:
        tc.from_json(tc.MatchState, data)
    assert "\n" not in str(info.value)
    return info.value


def _swap_a_card(data: dict[str, object]) -> None:
    hands = data["state"]["hands"]  # type: ignore[index]
    hands[0].append(hands[1].pop())


def test_r_match_2_swapping_a_card_between_hands_is_rejected() -> None:
    error = _tampered(_swap_a_card)
    assert error.field == "hands"
    assert "does not match" in str(error)


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (("scores",), [0, 0, 0, 100], "scores"),
        (("phase",), "TRIX", "phase"),
        (("turn",), 3, "turn"),
        (("owner",), None, "owner"),
        (("deal_number",), 2, "deal_number"),
        (("deal", "points"), [0, 0, 0, 0], "deal"),
        (("deal", "doubled"), [["KH", 0]], "deal"),
        (("results",), [], "results"),
    ],
)
def test_a_tampered_field_is_rejected(path: tuple[str, ...], value: object, field: str) -> None:
    def change(data: dict[str, object]) -> None:
        target = data["state"]
        for key in path[:-1]:
            target = target[key]  # type: ignore[index]
        if target[path[-1]] == value:  # type: ignore[index]
            value2 = [1, 2, 3, 4] if isinstance(value, list) else 1
            target[path[-1]] = value2  # type: ignore[index]
        else:
            target[path[-1]] = value  # type: ignore[index]

    assert _tampered(change).field == field


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.pop("moves"), "needs the key 'moves'"),
        (lambda d: d.update(extra=1), "unknown key"),
        (lambda d: d.update(format="trixcomplex-record"), "format must be"),
        (lambda d: d.update(version=3), "version"),
        (lambda d: d.update(ruleset="poker"), "unknown ruleset"),
        (lambda d: d["state"].pop("turn"), "state needs the key 'turn'"),
        (lambda d: d["state"].update(hidden=1), "unknown key"),
        (lambda d: d["state"].update(scores=[0, 0, 0]), "state.scores"),
        (
            lambda d: d["state"].update(scores=["0", 0, 0, 0]),
            "state.scores[0]: expected an integer",
        ),
        (
            lambda d: d["state"]["deal"]["tricks"][1].update(taker="1"),
            "state.deal.tricks[1].taker: expected an integer",
        ),
        (lambda d: d["state"].update(phase="LUNCH"), "not a Phase"),
        (lambda d: d["state"]["hands"][0].append("ZZ"), "not a card"),
        (lambda d: d["state"]["hands"][0].append(d["state"]["hands"][0][0]), "named twice"),
        (lambda d: d["state"].update(hands="AS"), "state.hands: expected a list"),
        (lambda d: d.update(moves=d["moves"][:-1]), "does not match"),
    ],
)
def test_malformed_state_json_is_rejected_in_one_line(change: object, words: str) -> None:
    assert words in str(_tampered(change))


def test_a_tampered_move_in_the_history_names_its_index_and_rule() -> None:
    """R-CX-2 / R-MATCH-2: the history is replayed, so an altered move is an illegal step."""

    def change(data: dict[str, object]) -> None:
        moves = data["moves"]
        moves[-1] = {"move": "pass", "seat": moves[-1]["seat"]}  # type: ignore[index]

    error = _tampered(change)
    assert error.index == len(_mid_complex().history) - 1
    assert error.rule == "R-CX-2"


def test_loading_leaves_the_input_unchanged() -> None:
    data = _through_text(tc.to_json(_mid_complex()))
    before = copy.deepcopy(data)
    assert tc.from_json(tc.MatchState, data) == _mid_complex()
    assert data == before


# -- other attrs classes: views, scores, card-set fields ------------------------------


def test_r_hid_1_views_serialize_to_json_with_card_codes() -> None:
    states = random_match(9)
    for state in _sample(states, 41):
        for seat in (None, 0, 1, 2, 3):
            seen = tc.view(state, seat)
            data = tc.to_json(seen)
            assert _is_json_safe(data)
            assert data["hand"] == [str(c) for c in seen.hand]
            assert tc.from_json(tc.View, _through_text(data)) == seen


def test_view_moves_and_suits_have_their_json_forms() -> None:
    state = next(s for s in random_match(9) if s.phase is tc.Phase.COMPLEX)
    seen = tc.view(state, state.turn)
    data = tc.to_json(seen)
    assert data["legal_moves"] == [tc.move_to_json(m) for m in seen.legal_moves]
    assert tc.to_json(frozenset({tc.Suit.CLUBS, tc.Suit.SPADES})) == ["S", "C"]
    assert tc.from_json(frozenset[tc.Suit], ["C", "S"]) == {tc.Suit.CLUBS, tc.Suit.SPADES}


def test_score_round_trips() -> None:
    score = tc.score(random_match(10)[-1])
    data = tc.to_json(score)
    assert data["result"] in ("team0", "team1", "draw")
    assert tc.from_json(tc.Score, _through_text(data)) == score


@attrs.frozen
class _Table:
    cards: int = attrs.field(metadata={CARDS: True})
    by_seat: tuple[int | None, int | None] = attrs.field(metadata={CARDS: True})
    count: int
    top: tc.Card | None


def test_card_set_marker_writes_listed_fields_as_codes_and_others_as_numbers() -> None:
    table = _Table(
        mask_of(parse_card(c) for c in ("QS", "2S", "KH")),
        (None, parse_card("AC").mask),
        3,
        parse_card("TD"),
    )
    data = tc.to_json(table)
    assert data == {"cards": ["2S", "QS", "KH"], "by_seat": [None, ["AC"]], "count": 3, "top": "TD"}
    assert tc.from_json(_Table, _through_text(data)) == table


def test_from_json_of_other_classes_rejects_junk_in_one_line() -> None:
    good = {"cards": [], "by_seat": [None, None], "count": 0, "top": None}
    for bad, words in [
        ({**good, "count": "0"}, "expected an integer"),
        ({**good, "count": True}, "expected an integer"),
        ({**good, "more": 1}, "more"),
        ({**good, "by_seat": [None]}, "expected 2 items"),
        ({**good, "top": "11Q"}, "not a card"),
        ([], "expected an object"),
    ]:
        with pytest.raises(tc.StateFormatError) as info:
            tc.from_json(_Table, bad)
        assert words in str(info.value)
        assert "\n" not in str(info.value)


def test_records_and_moves_use_their_record_md_form() -> None:
    record = tc.Record.of(random_match(13, until=20)[-1])
    assert tc.to_json(record) == record.to_json()
    assert tc.from_json(tc.Record, _through_text(tc.to_json(record))) == record
    play = tc.Play(1, "QD")
    assert tc.to_json(play) == {"move": "play", "seat": 1, "card": "QD"}
    assert tc.from_json(tc.Play, tc.to_json(play)) == play
    with pytest.raises(tc.StateFormatError, match="not allowed here"):
        tc.from_json(tc.Play, {"move": "pass", "seat": 1})


def test_the_core_never_imports_records_or_serialization() -> None:
    """Layers (docs/engine.rst): the rules know no file format."""
    import pathlib

    core = pathlib.Path(tc.__file__).parent / "core"
    for path in sorted(core.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for mine in ("records", "serialize", "scoresheet"):
            assert f"io.{mine}" not in text and f"trixcomplex.{mine}" not in text, path.name
            assert f"from .{mine}" not in text, path.name


def test_state_format_error_pickles_with_its_fields() -> None:
    import pickle

    error = tc.StateFormatError("x", index=2, move={"move": "pass"}, rule="R-TX-3", field="hands")
    error.add_note("a note")
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is tc.StateFormatError
    assert (again.index, again.move, again.rule, again.field, str(again)) == (
        2,
        {"move": "pass"},
        "R-TX-3",
        "hands",
        str(error),
    )


# -- rulesets (R-SET-1) ----------------------------------------------------------------

RULESET_NAMES = [
    *tc.RULESETS,
    "partnership+doubling=False",
    "classic+penalty_cards_first=True,reversed_scores=True",
    "classic-partnership+bad_hand_redeal=True",
    "partnership+reversed_scores=True,worst_seat_loses=True",
]


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_r_set_1_states_of_every_ruleset_round_trip(name: str) -> None:
    """R-SET-1: the envelope and the state name the ruleset; loading rebuilds the match
    under it and compares every field, the ruleset included."""
    states = random_match(2, ruleset=tc.Ruleset.from_name(name), timeout_rate=0)
    contracts = set()
    for state in _sample(states, 97):
        contracts.add(state.contract)
        data = tc.to_json(state)
        assert _is_json_safe(data)
        assert data["ruleset"] == name and data["state"]["ruleset"] == name
        back = tc.from_json(tc.MatchState, _through_text(data))
        assert back == state and back.ruleset == state.ruleset
        assert tc.legal_moves(back) == tc.legal_moves(state)
    assert len(contracts) > 2


def test_r_set_1_a_state_loaded_under_another_ruleset_is_rejected() -> None:
    """R-SET-1: an envelope naming another ruleset whose rules accept the same moves
    still does not load: the rebuilt state's ruleset differs from the saved one."""
    state = random_match(3, ruleset=tc.Ruleset.from_name("individual-complex"), timeout_rate=0)[-1]
    data = _through_text(tc.to_json(state))
    data["ruleset"] = "partnership"  # type: ignore[index]
    with pytest.raises(tc.StateFormatError, match=r"state\.ruleset does not match") as info:
        tc.from_json(tc.MatchState, data)
    assert info.value.field == "ruleset"
    data["ruleset"] = "classic"  # type: ignore[index]
    with pytest.raises(tc.StateFormatError) as info:  # its moves are not a classic match
        tc.from_json(tc.MatchState, data)
    assert info.value.index is not None and info.value.rule is not None
    data["ruleset"] = "classic+nonsense=True"  # type: ignore[index]
    with pytest.raises(tc.StateFormatError, match="ruleset") as info:
        tc.from_json(tc.MatchState, data)
    assert info.value.field == "ruleset"


def test_r_opt_8_a_state_after_a_redeal_round_trips() -> None:
    """R-OPT-8: a saved state whose history holds a Redeal loads back exactly."""
    import random

    ruleset = tc.Ruleset.from_name("classic-partnership+bad_hand_redeal=True")
    rng = random.Random(0)
    for _ in range(500):
        state = tc.apply(tc.new_match(ruleset), tc.Deal.shuffled(rng))
        if tc.Contract.TRIX not in state.remaining_contracts or state.phase is not tc.Phase.CHOOSE:
            continue
        state = tc.apply(state, tc.Choose(state.owner, tc.Contract.TRIX))  # type: ignore[arg-type]
        redeal = [m for m in tc.legal_moves(state) if isinstance(m, tc.Redeal)]
        if redeal:
            after = tc.apply(state, redeal[0])
            data = _through_text(tc.to_json(after))
            assert {"move": "redeal", "seat": redeal[0].seat} in data["moves"]  # type: ignore[index]
            assert tc.from_json(tc.MatchState, data) == after
            return
    pytest.fail("no bad hand in 500 deals")


@pytest.mark.parametrize("name", ["classic", "individual-complex+reversed_scores=True"])
def test_r_ind_1_scores_of_individual_rulesets_round_trip_with_winners(name: str) -> None:
    """R-IND-1, R-CL-1: ``to_json(score)`` has the result and the winning seats."""
    summary = tc.score(random_match(4, ruleset=tc.Ruleset.from_name(name), timeout_rate=0)[-1])
    data = tc.to_json(summary)
    assert data["result"] in ("seat0", "seat1", "seat2", "seat3", "shared")
    assert data["winners"] == list(summary.winners) and summary.winners
    assert tc.from_json(tc.Score, _through_text(data)) == summary


def test_r_set_1_views_of_every_ruleset_round_trip() -> None:
    """R-SET-1: a view (which names its ruleset) is written with the ruleset's name."""
    for name in ("classic", "classic-partnership+bad_hand_redeal=True"):
        for state in _sample(
            random_match(5, ruleset=tc.Ruleset.from_name(name), timeout_rate=0), 151
        ):
            for seat in (None, 0, 2):
                seen = tc.view(state, seat)
                data = tc.to_json(seen)
                assert _is_json_safe(data)
                assert name in json.dumps(data)
                assert tc.from_json(tc.View, _through_text(data)) == seen


@attrs.frozen
class _Lobby:
    game: tc.Ruleset
    next_game: tc.Ruleset | None
    offered: tuple[tc.Ruleset, ...]


def test_r_set_1_a_ruleset_anywhere_is_written_as_its_name() -> None:
    """R-SET-1: any field holding a Ruleset (plain, optional, in a tuple) is its name
    in JSON and is read back with ``Ruleset.from_name``; a bad name is one line."""
    lobby = _Lobby(tc.CLASSIC.evolve(doubling=False), None, (tc.PARTNERSHIP, tc.CLASSIC))
    data = tc.to_json(lobby)
    assert data == {
        "game": "classic+doubling=False",
        "next_game": None,
        "offered": ["partnership", "classic"],
    }
    assert tc.from_json(_Lobby, data) == lobby
    assert tc.from_json(_Lobby, {**data, "next_game": "classic"}).next_game == tc.CLASSIC
    assert tc.to_json(tc.CLASSIC) == "classic"
    assert tc.from_json(tc.Ruleset, "classic-partnership") is tc.CLASSIC_PARTNERSHIP
    for bad, where in (
        ({**data, "game": "poker"}, "$.game"),
        ({**data, "offered": [3]}, "$.offered[0]"),
    ):
        with pytest.raises(tc.StateFormatError) as info:
            tc.from_json(_Lobby, bad)
        assert str(info.value).startswith(where) and "ruleset" in str(info.value)
        assert len(str(info.value).splitlines()) == 1


# -- version 1 (issue 11: the deal in one field, Phase.TRICKS) ---------------------------

V1_STATES = sorted((Path(__file__).parent / "records" / "states_v1").glob("*.json"))


@pytest.mark.parametrize("path", V1_STATES, ids=lambda p: p.stem)
def test_saved_states_of_version_1_still_load(path: Path) -> None:
    """States saved by the engine before issue 11 (version 1: ``window``, ``complex`` and
    ``trix`` fields, every trick deal's phase named COMPLEX) load to the state their moves
    rebuild, and are written back as version 2."""
    data = json.loads(path.read_text())
    assert data["version"] == 1 and {"window", "complex", "trix"} <= set(data["state"])
    state = tc.from_json(tc.MatchState, data)
    record = {"format": "trixcomplex-record", "version": 1}
    assert state == tc.replay_json(record | {"ruleset": data["ruleset"], "moves": data["moves"]})
    for name, now in (("window", "window"), ("complex", "trick_deal"), ("trix", "trix")):
        saved = data["state"][name]
        assert (saved is None) == (getattr(state, now) is None)
    if state.contract is tc.Contract.LTOOSH:  # version 1 said COMPLEX; the state says TRICKS
        assert data["state"]["phase"] == "COMPLEX" and state.phase is tc.Phase.TRICKS
        assert tc.view(state, 0).phase is tc.Phase.TRICKS
    again = tc.to_json(state)
    assert again["version"] == 2 and "deal" in again["state"]
    assert tc.from_json(tc.MatchState, again) == state


def test_a_tampered_version_1_state_is_rejected() -> None:
    """A version 1 file is checked field by field like a version 2 one."""
    data = json.loads(V1_STATES[0].read_text())
    data["state"]["phase"] = "TRIX" if data["state"]["phase"] != "TRIX" else "COMPLEX"
    with pytest.raises(tc.StateFormatError, match=r"state\.phase"):
        tc.from_json(tc.MatchState, data)


def test_version_1_fields_are_not_read_in_version_2() -> None:
    """A version 2 state names the deal ``deal``; the old field names are unknown keys."""
    data = json.loads(V1_STATES[0].read_text())
    data["version"] = 2
    with pytest.raises(tc.StateFormatError, match="unknown key"):
        tc.from_json(tc.MatchState, data)


# -- tampering, as a property (issue 16) ----------------------------------------------


@settings(max_examples=10)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(VIEW_RULESETS),
    st.data(),
)
def test_r_match_2_any_field_taken_from_another_moment_is_refused(
    seed: int, ruleset: tc.Ruleset, data: st.DataObject
) -> None:
    """Replace one saved field (or one saved move) of a state with that of another state
    of the same match: whenever the value differs, loading refuses it."""
    states = random_match(seed, ruleset=ruleset)
    state = data.draw(st.sampled_from(states), label="state")
    other = data.draw(st.sampled_from(states), label="other")
    saved, donor = _through_text(tc.to_json(state)), _through_text(tc.to_json(other))
    assert isinstance(saved, dict) and isinstance(donor, dict)
    name = data.draw(st.sampled_from(sorted(saved["state"])), label="field")
    if saved["state"][name] != donor["state"][name]:
        saved["state"][name] = donor["state"][name]
        with pytest.raises(tc.StateFormatError):
            tc.from_json(tc.MatchState, saved)
    saved = _through_text(tc.to_json(state))
    assert isinstance(saved, dict)
    if saved["moves"] and donor["moves"]:
        i = data.draw(st.integers(0, len(saved["moves"]) - 1), label="move")
        j = data.draw(st.integers(0, len(donor["moves"]) - 1), label="donor move")
        if saved["moves"][i] != donor["moves"][j]:
            saved["moves"][i] = donor["moves"][j]
            try:
                back = tc.from_json(tc.MatchState, saved)
            except tc.StateFormatError:
                pass
            else:  # another legal history can only load if it rebuilds every saved field
                assert tc.to_json(back)["state"] == tc.to_json(state)["state"]


def test_a_remembered_move_is_not_read_back_for_a_bool_or_float_seat() -> None:
    """Moves read once are remembered by their exact JSON (issue 16); ``True`` equals ``1``
    in Python but is not a seat in a record, so it is still refused (``1.0`` is seat 1:
    JSON has one kind of number), as is ``1.5``."""
    state = _mid_complex()
    good = _through_text(tc.to_json(state))
    assert tc.from_json(tc.MatchState, good) == state  # every move of it is now remembered
    for bad_seat in (True, 1.5):
        data = _through_text(tc.to_json(state))
        assert isinstance(data, dict)
        index = next(
            i for i, m in enumerate(data["moves"]) if m.get("move") == "play" and m["seat"] == 1
        )
        data["moves"][index]["seat"] = bad_seat
        with pytest.raises(tc.StateFormatError) as info:
            tc.from_json(tc.MatchState, data)
        assert info.value.index == index
