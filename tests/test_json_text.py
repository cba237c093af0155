"""``tc.dumps`` and ``tc.loads``: JSON text beside ``tc.to_json``'s plain data (issue 30)."""

from __future__ import annotations

import json
import random

import pytest

import trixcomplex as tc


def _mid_deal() -> tc.MatchState:
    rng = random.Random(5)
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(rng))
    for _ in range(12):
        state = tc.apply(state, rng.choice(tc.legal_moves(state)))
    return state


def test_to_json_gives_plain_data_and_dumps_its_text() -> None:
    """to_json returns data, not text; dumps is exactly that data as compact JSON text."""
    state = _mid_deal()
    for obj in (state, tc.view(state, 2), tc.Record.of(state), tc.score(state)):
        data = tc.to_json(obj)
        assert isinstance(data, dict)
        text = tc.dumps(obj)
        assert isinstance(text, str) and json.loads(text) == data
        assert ", " not in text.replace('", "', "")  # compact separators
        assert json.loads(tc.dumps(obj, indent=2)) == data


def test_r_match_2_loads_reads_back_what_dumps_wrote() -> None:
    """R-MATCH-2: a state read from its text is the same state (never reshuffled)."""
    state = _mid_deal()
    assert tc.loads(tc.MatchState, tc.dumps(state)) == state
    assert tc.loads(tc.MatchState, tc.dumps(state).encode()) == state
    for seat in (0, 1, None):
        seen = tc.view(state, seat)
        assert tc.loads(tc.View, tc.dumps(seen)) == seen
    record = tc.Record.of(state)
    assert tc.loads(tc.Record, tc.dumps(record)) == record


def test_loads_refuses_text_that_is_not_strict_json_with_a_trix_error() -> None:
    state = _mid_deal()
    text = tc.dumps(state)
    with pytest.raises(tc.TrixError) as err:
        tc.loads(tc.MatchState, text[:-1])
    assert err.value.code == "json.invalid"
    doubled = text.replace('{"format":', '{"format":"x","format":', 1)
    with pytest.raises(tc.TrixError) as err:
        tc.loads(tc.MatchState, doubled)
    assert err.value.code == "json.duplicate-key"
    altered = json.loads(text)
    altered["state"]["scores"] = [100, 0, 0, 0]
    with pytest.raises(tc.StateFormatError) as bad:
        tc.loads(tc.MatchState, json.dumps(altered))
    assert bad.value.code == "state.mismatch"


def test_an_error_dumps_as_its_to_json_object() -> None:
    """TrixError.to_json is a dict; tc.dumps(error) is its JSON text."""
    with pytest.raises(tc.IllegalMoveError) as err:
        tc.apply(tc.new_match(), tc.Pass(1))
    data = err.value.to_json()
    assert isinstance(data, dict) and data["rule"] == "R-MATCH-2"
    assert json.loads(tc.dumps(err.value)) == data
    assert '"message":"é"' in tc.dumps(tc.TrixError("é"))  # not escaped to \\u00e9
