"""A tampered client file, attacked as a cheat would (issue 25, deliverables 11 and 12).

A view read back with ``tc.from_json(tc.View, ...)`` comes from outside (a client's
file, a bot's message): its score history is checked as far as the view's own facts
allow (R-CL-8, R-CX-6, R-TX-4, R-DBL-4, R-DBL-5, R-MATCH-1, R-MATCH-4, R-SET-2), and
what cannot be checked is listed on the "Hidden information" page under "Trusted from
the server".  Each attack below was written first, seen to be accepted, then closed.

Reading a record is bounded: text over the size limit is refused before it is parsed
(and before more than the limit is read), and the strict reader keeps every guarantee
(duplicate keys, depth, only documented errors) at close to the stdlib parser's speed;
the speed itself is a row of ``benchmarks/bench.py``, not a timed test here.
"""

from __future__ import annotations

import copy
import io
import json
import random
from datetime import timedelta
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import trixcomplex as tc
from builders import RULESET_VARIANTS, VIEW_RULESETS, random_match, random_match_of
from trixcomplex.cli import replay as replay_cli
from trixcomplex.core import jsonio
from trixcomplex.core.errors import ERROR_CODES, MAX_MESSAGE
from trixcomplex.core.jsonio import MAX_DEPTH, json_depth, loads

# -- the views attacked -------------------------------------------------------------------


@cache
def _classic_states() -> tuple[tc.MatchState, ...]:
    """A classic match with doubles in it (seed chosen so that K♥ and a Queen are doubled)."""
    for seed in range(50):
        states = random_match(seed, ruleset=tc.CLASSIC, timeout_rate=0.0)
        if sum(len(d.doubled) for d in states[-1].results) >= 2:
            return tuple(states)
    raise AssertionError("no classic match with two doubled cards")


def _view_data(ruleset: str = "classic", *, finished: int = 12, seat: int | None = 1) -> Any:
    """The JSON of a playing view with at least ``finished`` finished deals."""
    if ruleset == "classic":
        states: tuple[tc.MatchState, ...] = _classic_states()
    else:
        states = tuple(random_match(3, ruleset=tc.Ruleset.from_name(ruleset)))
    state = next(
        s
        for s in states
        if len(s.results) >= finished and s.phase in (tc.Phase.TRICKS, tc.Phase.COMPLEX)
    )
    return json.loads(json.dumps(tc.to_json(tc.view(state, seat))))


def _over_data(ruleset: str = "partnership") -> Any:
    final = random_match(5, ruleset=tc.Ruleset.from_name(ruleset))[-1]
    return json.loads(json.dumps(tc.to_json(tc.view(final, None))))


def _deal_index(data: Any, contract: str, *, with_doubles: bool = False) -> int:
    deals = data["score"]["deals"]
    return next(
        i
        for i, d in enumerate(deals)
        if d["contract"] == contract and i > 0 and (d["doubled"] or not with_doubles)
    )


def _refused(data: Any, code: str = "view.inconsistent", *, where: str = "") -> tc.StateFormatError:
    """Load ``data`` as a view: it must be refused with ``code``, one bounded line naming
    ``where``."""
    with pytest.raises(tc.StateFormatError) as info:
        tc.from_json(tc.View, data)
    error = info.value
    assert error.code == code, str(error)
    assert error.code in ERROR_CODES
    message = str(error)
    assert len(message.splitlines()) == 1 and len(message) <= MAX_MESSAGE
    assert where in message, message
    return error


def _retotal(data: Any) -> None:
    """Make the seat and Team Totals the sums of the (tampered) deals."""
    score = data["score"]
    seats = [sum(d["points"][s] for d in score["deals"]) for s in range(4)]
    score["seats"] = seats
    score["teams"] = [seats[0] + seats[2], seats[1] + seats[3]]


def _add_to_seat_total(data: Any, seat: int, points: int) -> None:
    """Change a seat's total and keep the Team Totals consistent with it."""
    score = data["score"]
    score["seats"][seat] += points
    score["teams"][seat % 2] += points


def test_the_attacked_views_load_untampered() -> None:
    """The base views of the attacks below load: only the tampering is refused."""
    for data in (_view_data(), _view_data("partnership", finished=5), _over_data()):
        loaded = tc.from_json(tc.View, copy.deepcopy(data))
        assert tc.to_json(loaded) == data
    deals = _view_data()["score"]["deals"]
    assert any(d["doubled"] for d in deals) and any(d["contract"] == "TRIX" for d in deals)


# -- the attacks of issue 25, one by one --------------------------------------------------


def test_r_cl_8_a_finished_deals_points_plus_10_are_refused() -> None:
    """R-CL-8, R-CX-6: a finished deal's points +10 (the seat total left alone)."""
    data = _view_data()
    k = _deal_index(data, "QUEENS")
    data["score"]["deals"][k]["points"][0] += 10
    _refused(data, where=f"score.deals[{k}]")


def test_r_cl_8_deal_points_plus_10_with_the_seat_total_to_match_are_refused() -> None:
    """R-CL-8: +10 to a deal and to the seat's total (and Team Total): the totals add up,
    but the deal no longer sums to its contract's total."""
    data = _view_data()
    k = _deal_index(data, "LTOOSH")
    data["score"]["deals"][k]["points"][2] += 10
    _add_to_seat_total(data, 2, 10)
    _refused(data, where=f"score.deals[{k}]")


def test_r_cx_6_complex_points_plus_10_with_totals_to_match_are_refused() -> None:
    """R-CX-6: a COMPLEX deal changed to -490 with the totals to match."""
    data = _view_data("partnership", finished=5)
    k = _deal_index(data, "COMPLEX")
    data["score"]["deals"][k]["points"][1] += 10
    _add_to_seat_total(data, 1, 10)
    error = _refused(data, where=f"score.deals[{k}]")
    assert "-500" in str(error)


def test_r_tx_4_trix_points_plus_10_with_totals_to_match_are_refused() -> None:
    """R-TX-4: a TRIX deal summing to +510."""
    data = _view_data("partnership", finished=5)
    k = _deal_index(data, "TRIX")
    data["score"]["deals"][k]["points"][3] += 10
    _add_to_seat_total(data, 3, 10)
    _refused(data, where=f"score.deals[{k}]")


def test_r_match_7_a_seat_total_plus_10_is_refused() -> None:
    """R-MATCH-7: a seat total +10 (the Team Total changed to match) is not the sum of
    the seat's deal points."""
    data = _view_data()
    _add_to_seat_total(data, 0, 10)
    _refused(data, where="score.seats")


def test_r_match_7_a_seat_total_plus_10_alone_is_refused() -> None:
    data = _view_data("partnership", finished=5)
    data["score"]["seats"][3] += 10
    _refused(data)


def test_r_match_7_points_moved_between_two_seats_of_a_deal_are_refused() -> None:
    """R-CX-5: 10 points moved from one seat to another in a deal (its sum and the totals
    consistent): the points no longer follow from what each seat took."""
    data = _view_data()
    k = _deal_index(data, "DIAMONDS")
    deal = data["score"]["deals"][k]
    deal["points"][0] += 10
    deal["points"][1] -= 10
    _add_to_seat_total(data, 0, 10)
    _add_to_seat_total(data, 1, -10)
    _refused(data, where=f"score.deals[{k}]")


def test_r_match_4_another_owner_is_refused() -> None:
    """R-MATCH-4: one finished deal's owner changed (the Kingdom owner rotates)."""
    data = _view_data()
    k = 7
    deal = data["score"]["deals"][k]
    deal["owner"] = (deal["owner"] + 1) % 4
    _refused(data, where=f"score.deals[{k}]")


def test_r_match_4_every_finished_owner_shifted_is_refused_by_the_current_owner() -> None:
    """R-MATCH-4: every finished deal's owner shifted by one seat (the rotation kept among
    them): the view's own Kingdom owner no longer follows."""
    data = _view_data()
    for deal in data["score"]["deals"]:
        deal["owner"] = (deal["owner"] + 1) % 4
    _refused(data, where="owner")


def test_r_match_4_an_owner_out_of_range_is_refused() -> None:
    data = _view_data()
    data["score"]["deals"][0]["owner"] = 7
    _refused(data, where="score.deals[0]")


def test_r_cx_5_a_trick_moved_between_seats_is_refused() -> None:
    """R-CX-5, R-CL-5: one trick moved from one seat's breakdown to another's, the points
    left: the breakdown no longer gives the points."""
    data = _view_data()
    k = _deal_index(data, "LTOOSH")
    seats = data["score"]["deals"][k]["seats"]
    giver = next(s for s in range(4) if seats[s]["tricks"] > 0)
    seats[giver]["tricks"] -= 1
    seats[(giver + 1) % 4]["tricks"] += 1
    _refused(data, where=f"score.deals[{k}]")


def test_r_cl_3_a_queen_moved_between_seats_is_refused() -> None:
    """R-CL-3: an undoubled Queen moved to another seat's breakdown in a Queens deal."""
    data = _view_data("classic+doubling=False", finished=8)
    k, giver, queen = next(
        (i, s, q)
        for i, d in enumerate(data["score"]["deals"])
        if d["contract"] == "QUEENS"
        for s in range(4)
        for q in d["seats"][s]["queens"]
        if q not in [x["card"] for x in d["doubled"]]
    )
    seats = data["score"]["deals"][k]["seats"]
    seats[giver]["queens"].remove(queen)
    seats[(giver + 1) % 4]["queens"].append(queen)
    _refused(data, where=f"score.deals[{k}]")


def test_r_cx_5_a_queen_named_by_two_seats_is_refused() -> None:
    """R-CX-5: the same Queen in two seats' breakdowns (points left as they are)."""
    data = _view_data("partnership", finished=5)
    k = _deal_index(data, "COMPLEX")
    seats = data["score"]["deals"][k]["seats"]
    taker = next(s for s in range(4) if seats[s]["queens"])
    other = next(s for s in range(4) if s != taker and not seats[s]["queens"])
    seats[other]["queens"].append(seats[taker]["queens"][0])
    _refused(data, where=f"score.deals[{k}]")


def test_r_cl_2_k_hearts_given_to_another_seat_is_refused() -> None:
    """R-CL-2: K♥ moved to another seat's breakdown in a King of Hearts deal."""
    data = _view_data()
    k = _deal_index(data, "KING_OF_HEARTS")
    seats = data["score"]["deals"][k]["seats"]
    taker = next(s for s in range(4) if seats[s]["king_of_hearts"])
    seats[taker]["king_of_hearts"] = False
    seats[(taker + 1) % 4]["king_of_hearts"] = True
    _refused(data, where=f"score.deals[{k}]")


def test_r_tx_4_swapped_places_are_refused() -> None:
    """R-TX-4: two seats' TRIX places swapped (points and finishing order left)."""
    data = _view_data()
    k = _deal_index(data, "TRIX")
    seats = data["score"]["deals"][k]["seats"]
    seats[0]["place"], seats[1]["place"] = seats[1]["place"], seats[0]["place"]
    _refused(data, where=f"score.deals[{k}]")


def test_r_tx_4_a_finishing_order_naming_a_seat_twice_is_refused() -> None:
    data = _view_data()
    k = _deal_index(data, "TRIX")
    deal = data["score"]["deals"][k]
    deal["finishing_order"][1] = deal["finishing_order"][0]
    _refused(data, where=f"score.deals[{k}]")


def test_r_dbl_4_a_doubled_cards_case_or_points_changed_is_refused() -> None:
    """R-DBL-4: a doubled card's case, or its points, changed."""
    base = _view_data()
    k = _deal_index(base, "QUEENS", with_doubles=True)
    data = copy.deepcopy(base)
    doubled = data["score"]["deals"][k]["doubled"][0]
    doubled["case"] = doubled["case"] % 3 + 1
    _refused(data, where=f"score.deals[{k}]")
    data = copy.deepcopy(base)
    doubled = data["score"]["deals"][k]["doubled"][0]
    doubled["points"] = [doubled["points"][i - 1] for i in range(4)]
    _refused(data, where=f"score.deals[{k}]")


def test_r_dbl_5_a_double_removed_is_refused() -> None:
    """R-DBL-5: a doubled card removed from a deal (its points left)."""
    data = _view_data()
    k = _deal_index(data, "QUEENS", with_doubles=True)
    data["score"]["deals"][k]["doubled"].pop()
    _refused(data, where=f"score.deals[{k}]")


def test_r_cl_7_a_double_in_a_contract_without_doubling_is_refused() -> None:
    """R-CL-7: no card is doubled in Diamonds (a doubled K♥ added, points left)."""
    data = _view_data()
    k = _deal_index(data, "DIAMONDS")
    deal = data["score"]["deals"][k]
    deal["doubled"].append(
        {"card": "KH", "doubler": 0, "taker": 0, "leader": 0, "case": 3, "points": [-75, 0, 0, 0]}
    )
    _refused(data, where=f"score.deals[{k}]")


@pytest.mark.parametrize(
    "where",
    [
        ("deals", "seats", "queens"),
        ("deals", "seats", "tricks"),
        ("deals", "seats", "diamonds"),
        ("deals", "seats", "king_of_hearts"),
        ("deals", "seats", "place"),
        ("deals", "doubled"),
        ("deals", "finishing_order"),
        ("winners",),
    ],
    ids=lambda w: ".".join(w),
)
def test_a_deleted_breakdown_key_is_refused_not_filled_with_a_default(
    where: tuple[str, ...],
) -> None:
    """A key deleted from the score (a breakdown's ``queens``, a deal's ``doubled``, …) was
    filled with its default (no Queens taken, nothing doubled): every key must be there."""
    data = _view_data()
    k = _deal_index(data, "QUEENS", with_doubles=True)
    score = data["score"]
    if where[0] == "winners":
        del score["winners"]
    elif len(where) == 2:
        del score["deals"][k][where[1]]
    else:
        del score["deals"][k]["seats"][2][where[2]]
    _refused(data, "state.malformed", where=where[-1])


def test_r_match_1_twenty_four_hundred_finished_deals_are_refused() -> None:
    """R-MATCH-1, R-SET-2: 2,400 finished deals (a deal of the match repeated, renumbered,
    the totals kept consistent, within the JSON item limit) are more than the ruleset
    plays."""
    data = _view_data("partnership", finished=5)
    trix = data["score"]["deals"][_deal_index(data, "TRIX")]
    many = [copy.deepcopy(trix) | {"number": i + 1} for i in range(2400)]
    data["score"]["deals"] = many
    _retotal(data)
    data["deal_number"] = len(many) + 1
    assert len(json.dumps(data)) < 3_000_000 and _values(data) < 100_000
    _refused(data)


def _values(value: object) -> int:
    if isinstance(value, dict):
        return 1 + sum(_values(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(_values(v) for v in value)
    return 1


def test_r_match_1_a_ninth_deal_in_a_finished_partnership_match_is_refused() -> None:
    """R-MATCH-1: a finished partnership match has exactly eight deals."""
    data = _over_data()
    score = data["score"]
    extra = copy.deepcopy(score["deals"][-2])
    extra["number"] = 9
    score["deals"].append(extra)
    for s in range(4):
        _add_to_seat_total(data, s, extra["points"][s])
    data["deal_number"] = 9
    _refused(data)


def test_r_set_2_a_contract_played_twice_in_a_kingdom_is_refused() -> None:
    """R-SET-2: a Kingdom plays each contract once (a deal's contract renamed to the
    contract of the deal before it, in the same Kingdom)."""
    data = _view_data("partnership", finished=5)
    deals = data["score"]["deals"]
    k = next(i for i in range(1, len(deals)) if deals[i]["kingdom"] == deals[i - 1]["kingdom"])
    deals[k] = copy.deepcopy(deals[k - 1]) | {"number": k + 1}
    _retotal(data)
    _refused(data, where=f"score.deals[{k}]")


def test_r_match_1_a_deal_numbered_out_of_order_is_refused() -> None:
    data = _view_data()
    data["score"]["deals"][3]["number"] = 9
    _refused(data, where="score.deals[3]")


def test_r_match_1_a_deal_in_the_wrong_kingdom_is_refused() -> None:
    data = _view_data()
    data["score"]["deals"][3]["kingdom"] = 2
    _refused(data, where="score.deals[3]")


def test_r_match_1_the_deal_number_must_follow_the_finished_deals() -> None:
    """A playing view of deal n shows n - 1 finished deals."""
    data = _view_data()
    data["score"]["deals"].pop()
    _retotal(data)
    _refused(data)


def test_r_match_8_a_changed_result_or_team_total_is_refused() -> None:
    """R-MATCH-8: the result, the winners and the Team Totals follow from the seat totals."""
    for change in (
        lambda s: s.update(result="team1" if s["result"] != "team1" else "team0"),
        lambda s: s.update(winners=[0, 1, 2, 3]),
        lambda s: s["teams"].__setitem__(0, s["teams"][0] + 10),
    ):
        data = _over_data()
        change(data["score"])
        _refused(data)


# -- what the view's facts allow: every true view still loads ------------------------------

ROUND_TRIP_RULESETS = tuple(dict.fromkeys((*RULESET_VARIANTS, *VIEW_RULESETS)))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ruleset=st.sampled_from(ROUND_TRIP_RULESETS),
    seed=st.integers(0, 2**32 - 1),
    bad_hands=st.booleans(),
)
@pytest.mark.slow
def test_every_view_of_a_random_match_loads_back_equal(
    ruleset: tc.Ruleset, seed: int, bad_hands: bool
) -> None:
    """The score checks refuse no true view: every ruleset and variant, random matches
    (timeouts, doubles, redeals, combined contracts), every viewer, a spread of moments."""
    states = random_match_of(ruleset, seed, bad_hands=bad_hands)
    rng = random.Random(seed)
    moments = [*rng.sample(states, min(6, len(states))), states[-1]]
    moments += [s for s in states if s.phase is tc.Phase.DEAL][-2:]
    for state in moments:
        for viewer in (None, 0, 1, 2, 3):
            seen = tc.view(state, viewer)
            data = json.loads(json.dumps(tc.to_json(seen)))
            assert tc.from_json(tc.View, data) == seen


# -- deliverable 12: records read fast, oversized ones refused unparsed ---------------------


def _record_text(size: int) -> str:
    """A record of about ``size`` characters: a real match's moves repeated, the second
    move illegal (the shape of issue 25's 29 MB record)."""
    final = random_match(1)[-1]
    record = tc.Record.of(final).to_json()
    moves = record["moves"]
    each = len(json.dumps(moves))
    record["moves"] = [moves[0], {"move": "pass", "seat": 1}] + moves * max(1, size // each)
    return json.dumps(record)


class _NoParse:
    """A stand-in for the parser that fails the test if it is called."""

    calls = 0

    def __call__(self, *args: object, **kwargs: object) -> object:
        type(self).calls += 1
        raise AssertionError("the parser was called on an oversized record")


def test_an_oversized_record_is_refused_before_it_is_parsed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """A record over the size limit is refused with json.too-large and the parser is never
    called (spied on), from a file and from stdin."""
    spy = _NoParse()
    limit = 10_000
    path = tmp_path / "big.json"
    path.write_text(_record_text(3 * limit), encoding="utf-8")
    outputs = []
    with monkeypatch.context() as patch:
        patch.setattr(jsonio.json, "loads", spy)
        patch.setattr(jsonio.json.JSONDecoder, "decode", spy)
        for source, stdin in ((str(path), io.StringIO()), ("-", io.StringIO(path.read_text()))):
            out = io.StringIO()
            status = replay_cli.run_replay(
                source, as_json=True, stdin=stdin, stdout=out, stderr=io.StringIO(),
                max_chars=limit,
            )  # fmt: skip
            outputs.append((status, out.getvalue()))
        with pytest.raises(tc.TrixError) as info:
            loads("[" * 50 + "not json at all", max_length=40)
    assert info.value.code == "json.too-large"
    assert spy.calls == 0
    for status, output in outputs:
        assert status == 1
        error = json.loads(output)
        assert error["code"] == "json.too-large", error
        assert str(limit) in error["message"]


class _EndlessText(io.TextIOBase):
    """A stream that never ends: reading it whole would never return."""

    def __init__(self) -> None:
        self.served = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> str:
        if size is None or size < 0:
            raise AssertionError("the whole stream was asked for")
        self.served += size
        return "[" * size


def test_an_endless_stdin_is_read_only_up_to_the_limit() -> None:
    """``replay -`` reads at most the limit (plus one character) of standard input."""
    stream = _EndlessText()
    out = io.StringIO()
    status = replay_cli.run_replay(
        "-", as_json=True, stdin=stream, stdout=out, stderr=io.StringIO(), max_chars=5000
    )
    assert status == 1 and json.loads(out.getvalue())["code"] == "json.too-large"
    assert stream.served <= 5001 + 8192


def test_the_default_record_limit_is_documented_and_holds_the_largest_record() -> None:
    """The limit is a parameter with a documented default, and a record of MAX_MOVES of the
    largest moves, pretty-printed, is under it."""
    from trixcomplex.io.records import MAX_MOVES, MAX_RECORD_CHARS

    deal = tc.move_to_json(tc.Deal.shuffled(random.Random(1)))
    largest = {**json.loads(_record_text(1)), "moves": [deal] * MAX_MOVES}
    assert len(json.dumps(largest, indent=4)) < MAX_RECORD_CHARS
    assert "MAX_RECORD_CHARS" in (replay_cli.run_replay.__doc__ or "")


def test_a_record_under_the_limit_still_replays(tmp_path: Any) -> None:
    final = random_match(2)[-1]
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(tc.Record.of(final).to_json(), indent=2), encoding="utf-8")
    out = io.StringIO()
    assert (
        replay_cli.run_replay(
            str(path), as_json=True, stdin=io.StringIO(), stdout=out, stderr=io.StringIO()
        )
        == 0
    )
    assert json.loads(out.getvalue())["complete"] is True


# -- the strict reader keeps its guarantees --------------------------------------------------

_TRICKY_TEXT = st.text(
    alphabet=st.sampled_from(list('[]{}"\\:,/ \n\tabcé♥\u2028\x00\x1f')), max_size=12
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63) | _TRICKY_TEXT,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(_TRICKY_TEXT, children, max_size=3)
    ),
    max_leaves=60,
)


def _deepened(value: object, depth: int) -> object:
    for i in range(depth):
        value = [value] if i % 2 else {"[{": value, '"]}\\': "]]"}
    return value


@settings(max_examples=300, deadline=timedelta(seconds=2))
@given(
    value=JSON_VALUES,
    extra=st.integers(0, 40),
    indent=st.sampled_from([None, 0, 2]),
    ascii_only=st.booleans(),
)
def test_loads_reads_exactly_what_json_reads_within_the_depth_limit(
    value: object, extra: int, indent: int | None, ascii_only: bool
) -> None:
    """The depth pre-scan is exact: brackets, quotes and backslashes inside strings never
    count, and a value loads (equal to the stdlib's) if and only if it nests at most
    MAX_DEPTH deep; deeper is json.too-large."""
    value = _deepened(value, extra)
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    for given_text in (text, text.encode("utf-8")):
        if json_depth(value, MAX_DEPTH) <= MAX_DEPTH:
            assert loads(given_text) == json.loads(text)
        else:
            with pytest.raises(tc.TrixError) as info:
                loads(given_text)
            assert info.value.code == "json.too-large"


def test_loads_depth_limit_is_exact_at_the_edge() -> None:
    for depth in (MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, 1000, 100_000):
        for opening, closing in (("[", "]"), ('{"a":', "}")):
            text = opening * depth + "1" + closing * depth
            if depth <= MAX_DEPTH:
                assert json_depth(loads(text), 10**6) == depth
            else:
                with pytest.raises(tc.TrixError) as info:
                    loads(text)
                assert info.value.code == "json.too-large"
    assert loads('["' + "[" * 100 + '"]') == ["[" * 100]
    assert loads('["\\"' + "[" * 100 + '"]') == ['"' + "[" * 100]
    assert loads('["\\\\", [[1]]]') == ["\\", [[1]]]


@settings(max_examples=300, deadline=timedelta(seconds=2))
@given(
    text=st.text(alphabet=st.sampled_from(list('[]{}"\\:,0123 aeflnrstu.-+')), max_size=60)
    | st.binary(max_size=40)
)
def test_loads_gives_only_documented_errors_for_any_text(text: str | bytes) -> None:
    """Junk text (unbalanced brackets, stray quotes and backslashes, bad UTF-8) gives a
    json.* error or a value equal to the stdlib's, never anything else."""
    try:
        value = loads(text)
    except tc.TrixError as exc:
        assert exc.code in ("json.invalid", "json.too-large", "json.duplicate-key"), exc.code
        assert len(str(exc).splitlines()) == 1
    else:
        assert value == json.loads(text)


def test_duplicate_keys_are_still_refused_in_a_big_text() -> None:
    text = _record_text(200_000)
    attack = text[:-1] + ', "moves": []}'
    with pytest.raises(tc.TrixError) as info:
        loads(attack)
    assert info.value.code == "json.duplicate-key"
    deep_attack = text.replace('{"move": "pass", "seat": 1}', '{"move": "pass", "move": 1}', 1)
    with pytest.raises(tc.TrixError) as info:
        loads(deep_attack)
    assert info.value.code == "json.duplicate-key"
