"""One error base for bad input: TrixError, its codes, its JSON and the error-codes page."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

import trixcomplex as tc
from trixcomplex.bots import BotError
from trixcomplex.core.errors import ERROR_CODES, MAX_MESSAGE

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize(
    "cls",
    [
        tc.IllegalMoveError,
        tc.MoveFormatError,
        tc.RecordError,
        tc.StateFormatError,
        tc.CardParseError,
        tc.SubmitError,
        BotError,
    ],
)
def test_every_bad_input_error_is_a_trix_error_and_a_value_error(cls: type) -> None:
    """One ``except tc.TrixError`` catches every rejection; old ``except ValueError`` still do."""
    assert issubclass(cls, tc.TrixError) and issubclass(cls, ValueError)
    assert cls.code in ERROR_CODES  # type: ignore[attr-defined]


def test_the_error_codes_page_lists_exactly_the_codes() -> None:
    text = (DOCS / "errors.rst").read_text(encoding="utf-8")
    listed = re.findall(r"^``([a-z.-]+)``$", text, flags=re.MULTILINE)
    assert listed == list(ERROR_CODES)
    assert "errors" in (DOCS / "index.rst").read_text(encoding="utf-8")


def test_messages_are_one_bounded_line_and_pickle() -> None:
    error = tc.TrixError("x\n" * 10_000, code="json.invalid", rule="R-CARD-2", index=3)
    assert len(str(error)) <= MAX_MESSAGE and len(str(error).splitlines()) == 1
    again = pickle.loads(pickle.dumps(error))
    assert (
        again.to_json()
        == error.to_json()
        == {
            "code": "json.invalid",
            "message": str(error),
            "rule": "R-CARD-2",
            "index": 3,
        }
    )
    illegal = tc.IllegalMoveError(tc.Pass(1), "no", "R-TX-3")
    again_illegal = pickle.loads(pickle.dumps(illegal))
    assert (again_illegal.move, again_illegal.reason, again_illegal.rule) == (
        tc.Pass(1),
        "no",
        "R-TX-3",
    )


def test_a_record_error_names_its_index_in_json() -> None:
    record = tc.Record(moves=[tc.Pass(1)])
    with pytest.raises(tc.RecordError) as info:
        tc.replay(record)
    assert info.value.to_json() == {
        "code": "record.illegal-move",
        "message": str(info.value),
        "rule": "R-MATCH-2",
        "index": 0,
    }
