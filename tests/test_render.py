"""Tests of :mod:`trixcomplex.io.render`: text and SVG pictures of hands, tricks, rows and tables.

The pictures must be well-formed, self-contained XML, colour the suits, show
what the rules say (leader and taker of a trick R-CX-3, TRIX rows R-TX-2) and
never more than the viewing seat may see (R-HID-1, R-HID-2).
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

import trixcomplex as tc
from builders import random_match
from trixcomplex.core.cards import ALL_MASK, mask_of, parse_card
from trixcomplex.io.render import (
    Picture,
    hand_picture,
    hand_svg,
    hand_text,
    picture,
    rows_picture,
    rows_svg,
    rows_text,
    table_svg,
    table_text,
    trick_picture,
    trick_svg,
    trick_text,
)

ROOT = Path(__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"
RED, BLACK = "#c8102e", "#1a1a1a"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def card_titles(svg: str) -> list[str]:
    """The face-up cards drawn: each card is a group titled with its symbol, e.g. ``Q♥``."""
    root = parse(svg)
    out = []
    for group in root.iter(f"{SVG}g"):
        title = group.find(f"{SVG}title")
        if title is not None and title.text and title.text != "a hidden card":
            out.append(title.text)
    return out


def sample_states(seeds: range) -> list[tc.MatchState]:
    """A spread of states of random matches: every phase, early and late in deals."""
    states = []
    for seed in seeds:
        match = random_match(seed)
        states.extend(match[:: max(1, len(match) // 25)])
        states.append(match[-1])
    return states


STATES = sample_states(range(3))


# -- Picture ------------------------------------------------------------------


def test_picture_shows_text_in_terminals_and_svg_in_notebooks() -> None:
    pic = hand_picture("AS QH")
    assert isinstance(pic, Picture)
    assert str(pic) == hand_text("AS QH") == "♠ A\n♥ Q\n♦ -\n♣ -"
    assert pic._repr_svg_() == pic.svg == hand_svg("AS QH")
    assert repr(pic) == "<Picture '♠ A'…>"
    with pytest.raises(AttributeError):
        pic.text = "x"  # type: ignore[misc]


def test_pictures_compare_by_value() -> None:
    assert rows_picture("JS QS") == rows_picture(["QS", "JS"])
    assert trick_picture("7H KH", 2) != trick_picture("7H KH", 3)


# -- input --------------------------------------------------------------------


def test_cards_may_be_codes_a_string_cards_or_a_card_set() -> None:
    codes = ["QH", "2S", "TD"]
    cards = [parse_card(c) for c in codes]
    expected = "♠ 2\n♥ Q\n♦ 10\n♣ -"
    assert hand_text(codes) == hand_text("QH 2S 10♦") == expected
    assert hand_text(cards) == hand_text(mask_of(cards)) == hand_text(int(mask_of(cards)))
    assert hand_text([int(c) for c in cards]) == expected


@pytest.mark.parametrize(
    ("bad", "error", "words"),
    [
        ("QH QH", ValueError, "hand: the card QH is named twice"),
        (parse_card("QH"), TypeError, "not the single card QH"),
        ("QH 1X", tc.CardParseError, "'1X'"),
        (-1, ValueError, "52-bit int"),
        (1 << 52, ValueError, "52-bit int"),
        (True, TypeError, "expected cards"),
        ([1.5], TypeError, "not a card: 1.5"),
        (None, TypeError, "expected cards"),
    ],
)
def test_bad_cards_get_a_one_line_error_naming_them(
    bad: object, error: type[Exception], words: str
) -> None:
    with pytest.raises(error) as info:
        hand_text(bad)  # type: ignore[arg-type]
    assert words in str(info.value) and "\n" not in str(info.value)


def test_bad_tricks_are_rejected() -> None:
    with pytest.raises(ValueError, match="at most 4 cards, not 5"):
        trick_text("2S 3S 4S 5S 6S", 0)
    with pytest.raises(ValueError, match=r"leader must be a seat number 0\.\.3, not 4"):
        trick_text("2S", 4)
    with pytest.raises(TypeError, match="play order"):
        trick_text(mask_of([parse_card("2S")]), 0)
    with pytest.raises(ValueError, match="bottom must be a seat number"):
        trick_svg("2S", 0, bottom=-1)


# -- text forms ---------------------------------------------------------------


def test_hand_text_lists_suits_in_order_high_cards_first() -> None:
    """R-CARD-1, R-CARD-2: suits ♠ ♥ ♦ ♣, ranks A K Q J 10 … 2; 10 for the ten."""
    assert hand_text("2C AC TC 3H KS JS") == "♠ K J\n♥ 3\n♦ -\n♣ A 10 2"


def test_r_cx_3_trick_text_marks_the_leader_and_the_taker() -> None:
    """R-CX-3: the highest card of the led suit takes; an off-suit card never wins."""
    text = trick_text("9D 2D AS TD", leader=1)
    assert text.splitlines() == [
        "seat 1  9♦  leads",
        "seat 2  2♦",
        "seat 3  A♠",
        "seat 0  10♦ takes",
    ]
    assert trick_text("AH 2H 3H 4H", leader=3).splitlines()[0] == "seat 3  A♥  leads, takes"


def test_trick_text_of_an_unfinished_trick_names_who_is_still_to_play() -> None:
    """R-SEAT-1: play runs from the leader to the seat on its right, s + 1."""
    assert trick_text("5C 7C", leader=3).splitlines() == [
        "seat 3  5♣  leads",
        "seat 0  7♣",
        "seat 1  …",
        "seat 2  …",
    ]


def test_r_tx_2_rows_text_lists_each_row_from_its_low_end() -> None:
    assert rows_text("JH QH TH 9H KH JC") == "♠ -\n♥ 9 10 J Q K\n♦ -\n♣ J"


@pytest.mark.parametrize(
    ("table", "row"),
    [("QS", "♠ row Q"), ("JS KS", "♠ row J K"), ("9D TD", "♦ row 9 10"), ("JC 9C", "♣ row 9 J")],
)
def test_r_tx_2_rows_that_are_not_runs_through_their_jack_are_rejected(
    table: str, row: str
) -> None:
    with pytest.raises(ValueError, match=f"not a TRIX table: the {row} is not a run"):
        rows_text(table)
    with pytest.raises(ValueError, match="R-TX-2"):
        rows_svg(table)


# -- SVG ------------------------------------------------------------------------


def test_hand_svg_is_well_formed_and_draws_every_card_once() -> None:
    svg = hand_svg("AS 7S QH TH 2H JC 9D")
    assert card_titles(svg) == ["A♠", "7♠", "Q♥", "10♥", "2♥", "9♦", "J♣"]
    assert parse(svg).get("viewBox") == "0 0 200 80"


def test_suits_are_coloured_hearts_and_diamonds_red() -> None:
    root = parse(hand_svg("AS KH QD JC"))
    colours = {}
    for group in root.iter(f"{SVG}g"):
        title = group.find(f"{SVG}title")
        assert title is not None and title.text is not None
        fills = {p.get("fill") for p in group.iter(f"{SVG}path")}
        fills |= {t.get("fill") for t in group.iter(f"{SVG}text")}
        colours[title.text] = fills
    assert colours == {"A♠": {BLACK}, "K♥": {RED}, "Q♦": {RED}, "J♣": {BLACK}}


def test_highlighted_hand_cards_are_raised() -> None:
    root = parse(hand_svg("AS KH QD", highlight="KH"))
    raised = [
        g.find(f"{SVG}title").text  # type: ignore[union-attr]
        for g in root.iter(f"{SVG}g")
        if g.find(f"{SVG}rect").get("stroke") == "#f2c14e"  # type: ignore[union-attr]
    ]
    assert raised == ["K♥"]


def test_r_cx_3_trick_svg_outlines_the_taker_and_places_seats_round_the_table() -> None:
    """R-SEAT-1: with seat 0 at the bottom, seat 1 (on its right) is drawn to the right."""
    root = parse(trick_svg("9D 2D AS TD", leader=1))
    spots = {}
    for g in root.iter(f"{SVG}g"):
        title, rect = g.find(f"{SVG}title"), g.find(f"{SVG}rect")
        assert title is not None and rect is not None
        x, y = (float(v) for v in (g.get("transform") or "")[10:-1].split())
        spots[title.text] = (x, y, rect.get("stroke"))
    bottom, right, top, left = spots["10♦"], spots["9♦"], spots["2♦"], spots["A♠"]
    assert right[0] > bottom[0] > left[0] and top[1] < right[1] < bottom[1]
    assert [s[2] for s in (bottom, right, top, left)] == ["#f2c14e"] + ["#555555"] * 3


def test_r_tx_2_rows_svg_marks_the_places_where_a_card_may_be_laid() -> None:
    root = parse(rows_svg("JS TS JH"))
    slots = [e for e in root.iter(f"{SVG}rect") if e.get("stroke-dasharray")]
    # ♠: 9 and Q; ♥: 10 and Q; ♦ and ♣: their Jacks.
    assert len(slots) == 6
    assert card_titles(rows_svg("JS TS JH")) == ["10♠", "J♠", "J♥"]


def _all_svgs() -> list[str]:
    svgs = [hand_svg(""), hand_svg(ALL_MASK), trick_svg("", 0), rows_svg(0)]
    for state in STATES[::4]:
        svgs += [table_svg(tc.view(state, seat)) for seat in (None, 0, 1, 2, 3)]
    return svgs


def test_every_svg_is_self_contained_well_formed_xml() -> None:
    for svg in _all_svgs():
        root = parse(svg)
        assert root.get("xmlns") is None  # a namespace, not a stray attribute
        assert root.find(f"{SVG}title") is not None  # an accessible name
        for element in root.iter():
            for name, value in element.attrib.items():
                assert "href" not in name, "no linked images or fonts"
                assert "url(" not in value
            assert not element.tag.endswith(("image", "style", "script", "foreignObject"))


# -- the table, from a view ---------------------------------------------------


def _public_cards(seen: tc.View) -> set[str]:
    public = set(seen.trick) | set(seen.table) | {card for card, _ in seen.doubled}
    if seen.last_trick is not None:
        public |= set(seen.last_trick.cards)
    return {card.symbol for card in public}


def test_r_hid_1_a_seat_s_picture_shows_only_its_hand_and_public_cards() -> None:
    for state in STATES:
        for seat in (None, 0, 1, 2, 3):
            seen = tc.view(state, seat)
            drawn = set(card_titles(table_svg(seen)))
            allowed = _public_cards(seen) | {card.symbol for card in seen.hand}
            assert drawn <= allowed, (seat, drawn - allowed)
            if seat is not None and state.phase not in (tc.Phase.DEAL, tc.Phase.OVER):
                assert {c.symbol for c in state.hand(seat)} <= drawn


def test_r_hid_1_the_text_form_shows_no_other_hand() -> None:
    """The text form names cards only in the seat's own hand and public lines."""
    state = random_match(5, until=80)[-1]
    assert state.phase.plays_tricks or state.phase is tc.Phase.TRIX
    for seat in range(4):
        text = table_text(tc.view(state, seat))
        own = text.split("Your hand:\n")[1].split("\n")[:4]
        assert "\n".join(line.strip() for line in own) == hand_text(state.hand(seat))
        assert text.count("Your hand:") == 1
    assert "Your hand" not in table_text(tc.view(state, None))


def test_r_hid_2_a_picture_does_not_change_when_another_seat_answers_the_window() -> None:
    """R-HID-2: nothing visible to seat 0 reveals who was asked or what they answered."""
    checked = 0
    for seed in range(40):
        state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(seed)))
        state = tc.apply(state, tc.Choose(state.owner, tc.Contract.COMPLEX))
        assert state.window is not None
        others = sorted(s for s in state.to_act if s != 0)
        if not others:
            continue
        after = tc.apply(state, tc.legal_moves(state, others[0])[-1])
        if after.phase is not tc.Phase.DOUBLE:
            continue
        assert picture(tc.view(after, 0)) == picture(tc.view(state, 0))
        assert picture(tc.view(after, None)) == picture(tc.view(state, None))
        checked += 1
    assert checked >= 10


def test_the_seat_to_play_sees_its_legal_cards_raised() -> None:
    state = next(s for s in random_match(2) if s.phase is tc.Phase.COMPLEX and s.trick_deal.trick)
    seat = state.turn
    assert seat is not None
    root = parse(table_svg(tc.view(state, seat)))
    raised = {
        g.find(f"{SVG}title").text  # type: ignore[union-attr]
        for g in root.iter(f"{SVG}g")
        if (r := g.find(f"{SVG}rect")) is not None and r.get("stroke") == "#f2c14e"
    }
    legal = {m.card.symbol for m in tc.legal_moves(state) if isinstance(m, tc.Play)}
    assert raised == legal
    assert "Legal: " + " ".join(sorted_symbols(legal)) in table_text(tc.view(state, seat))


def _raised(svg: str) -> set[str]:
    return {
        g.find(f"{SVG}title").text  # type: ignore[union-attr]
        for g in parse(svg).iter(f"{SVG}g")
        if (r := g.find(f"{SVG}rect")) is not None and r.get("stroke") == "#f2c14e"
    }


def test_r_dbl_2_an_asked_seat_sees_its_doublable_cards_and_then_its_own_answer() -> None:
    """R-DBL-2: each asked seat answers once with a subset of its K♥ and Queens."""
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(2)))
    state = tc.apply(state, tc.Choose(state.owner, tc.Contract.COMPLEX))
    seat = min(state.to_act)
    seen = tc.view(state, seat)
    symbols = [c.symbol for c in seen.doublable]
    assert symbols and _raised(table_svg(seen)) == set(symbols)
    assert f"You may double: {' '.join(symbols)}" in table_text(seen)
    answered = tc.view(tc.apply(state, tc.Double(seat, seen.doublable[:1])), seat)
    assert answered.phase is tc.Phase.DOUBLE  # seeded: other seats are still to answer
    assert f"You doubled: {symbols[0]} (answers stay hidden" in table_text(answered)
    assert _raised(table_svg(answered)) == set()


def test_r_match_7_between_deals_the_picture_shows_the_scores_so_far() -> None:
    state = next(s for s in random_match(6) if s.phase is tc.Phase.DEAL and s.deal_number == 2)
    seats, teams = tc.score(state).seats, tc.score(state).teams
    text = table_text(tc.view(state, 3))
    assert text.splitlines()[:2] == [
        "Between deals: 2 of 8 played",
        "seat 3's view · waiting for deal 3",
    ]
    assert "Scores: " + " · ".join(f"seat {s}: {seats[s]}" for s in range(4)) in text
    svg_lines = {e.text for e in parse(table_svg(tc.view(state, 3))).iter(f"{SVG}text")}
    assert {f"team 0 (seats 0, 2): {teams[0]}", f"team 1 (seats 1, 3): {teams[1]}"} <= svg_lines


def sorted_symbols(symbols: set[str]) -> list[str]:
    return [c.symbol for c in sorted(parse_card(s) for s in symbols)]


def test_table_text_names_the_deal_the_turn_and_the_trick() -> None:
    """R-CX-1: the owner leads the first trick; the text says whose turn it is."""
    state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
    owner = state.owner
    state = tc.apply(state, tc.Timeout())  # R-MATCH-6: COMPLEX
    state = tc.apply(state, tc.Timeout())  # R-DBL-3: nobody doubles
    lines = table_text(tc.view(state, owner)).splitlines()
    assert lines[0] == f"Deal 1 of 8 · Kingdom 1 · COMPLEX · owner seat {owner}"
    assert lines[1] == f"seat {owner}'s view · seat {owner} to play"
    assert "Trick 1 of 13:" in lines
    assert lines[-1] == "Team Totals: 0 : 0"


def test_table_text_of_a_finished_match_names_the_winner() -> None:
    """R-MATCH-8: the team with the higher Team Total wins."""
    final = random_match(1)[-1]
    teams = tc.score(final).teams
    text = table_text(tc.view(final, None))
    winner = "team 0" if teams[0] > teams[1] else "team 1" if teams[1] > teams[0] else "a draw"
    assert f"Match over: {winner}" in text
    assert text.endswith(f"Team Totals: {teams[0]} : {teams[1]}")


def test_table_text_shows_the_trix_finishing_order() -> None:
    """R-TX-4: places in the order the seats emptied their hands."""
    state = next(
        s for s in random_match(3) if s.trix is not None and len(s.trix.finishing_order) == 2
    )
    assert state.trix is not None
    first, second = state.trix.finishing_order
    assert f"Finished: 1st seat {first}, 2nd seat {second}" in table_text(tc.view(state, None))


def test_pictures_are_pure_functions_of_the_view() -> None:
    for state in STATES[::7]:
        assert picture(tc.view(state, 1)) == picture(tc.view(state, 1))
        assert picture(tc.view(state, 1)).text == table_text(tc.view(state, 1))


# -- the documentation's pictures -----------------------------------------------


def _make_pictures() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_pictures", ROOT / "docs/make_pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_documentation_pictures_are_up_to_date() -> None:
    """Regenerate them with ``python docs/make_pictures.py`` after changing the renderer."""
    for name, svg in _make_pictures().pictures().items():
        path = ROOT / "docs" / "_static" / name
        assert path.read_text(encoding="utf-8") == svg, f"{name} is stale"
        parse(svg)


CORE_MODULES = (
    "cards", "tricks", "doubling", "errors", "match", "moves", "scoring", "seats", "state", "trix",
)  # fmt: skip


def _documented(page: str) -> set[str]:
    """The objects a reference page documents with an ``auto*`` or ``py:*`` directive."""
    text = (ROOT / "docs" / "api" / page).read_text(encoding="utf-8")
    return set(re.findall(r"^\.\. (?:auto\w+|py:\w+):: (\S+)", text, flags=re.MULTILINE))


def test_every_core_public_name_is_in_the_engine_reference() -> None:
    core = {
        name
        for module in CORE_MODULES
        for name in importlib.import_module(f"trixcomplex.core.{module}").__all__
        if name in tc.__all__
    } | {"__version__"}
    assert core <= set(tc.__all__)
    missing = {f"trixcomplex.{name}" for name in core} - _documented("engine.rst")
    assert not missing, f"add these to docs/api/engine.rst: {sorted(missing)}"


def test_every_render_name_is_in_the_render_reference() -> None:
    import trixcomplex.io.render as render

    names = {f"trixcomplex.io.render.{name}" for name in render.__all__}
    names -= {"trixcomplex.io.render.Picture", "trixcomplex.io.render.picture"}
    names |= {"trixcomplex.Picture", "trixcomplex.picture"}
    missing = names - _documented("render.rst")
    assert not missing, f"add these to docs/api/render.rst: {sorted(missing)}"


# -- other rulesets (R-SET-1) -----------------------------------------------------------


CLASSIC_STATES = random_match(3, ruleset=tc.Ruleset.from_name("classic"), timeout_rate=0)
NAMES = {
    tc.Contract.KING_OF_HEARTS: "King of Hearts",
    tc.Contract.QUEENS: "Queens",
    tc.Contract.DIAMONDS: "Diamonds",
    tc.Contract.LTOOSH: "Ltoosh",
    tc.Contract.TRIX: "TRIX",
}


def test_r_cl_1_pictures_of_every_phase_and_contract_of_a_classic_match() -> None:
    """R-CL-1: ``picture(view(state, seat))`` works in every phase and contract of a
    CLASSIC match; the headline names the contract and counts 20 deals."""
    seen: set[tuple[tc.Phase, tc.Contract | None]] = set()
    for state in CLASSIC_STATES:
        key = (state.phase, state.contract)
        if key in seen and state.phase is not tc.Phase.OVER:
            continue
        seen.add(key)
        for seat in (None, 0, 1, 2, 3):
            shown = picture(tc.view(state, seat))
            parse(shown.svg)
            head = shown.text.splitlines()[0]
            if state.contract is not None:
                assert head.startswith(f"Deal {state.deal_number} of 20 · ")
                assert f" · {NAMES[state.contract]} · " in head
                assert NAMES[state.contract] in shown.svg
    phases = {phase for phase, _ in seen}
    assert phases == set(tc.Phase) - {tc.Phase.COMPLEX}  # classic: TRICKS, never COMPLEX
    assert {c for _, c in seen if c is not None} == set(tc.CLASSIC.contracts)


def test_r_set_2_the_owner_sees_the_remaining_contracts_by_name() -> None:
    """R-SET-2: the choice lists the contracts not yet played, named as people say them."""
    state = next(s for s in CLASSIC_STATES if s.phase is tc.Phase.CHOOSE)
    text = table_text(tc.view(state, state.owner))
    assert "Legal: King of Hearts, Queens, Diamonds, Ltoosh, TRIX" in text


def test_r_cl_1_an_individual_match_names_its_winner_and_shows_no_teams() -> None:
    """R-CL-1, R-IND-1: the end of an individual match names the winning seat (or the
    seats sharing the win); there are no Team Totals."""
    final = CLASSIC_STATES[-1]
    summary = tc.score(final)
    text = table_text(tc.view(final, 0))
    if len(summary.winners) == 1:
        assert f"Match over: seat {summary.winners[0]} wins" in text
    else:
        assert "share the win" in text
    assert "Team Totals" not in text and "Team Totals" not in table_svg(tc.view(final, 0))
    import attrs

    shared = attrs.evolve(final, scores=(40, -100, 40, 20))
    assert "Match over: seats 0, 2 share the win" in table_text(tc.view(shared, None))
    team = random_match(3, ruleset=tc.Ruleset.from_name("classic-partnership"), timeout_rate=0)[-1]
    assert "Team Totals" in table_text(tc.view(team, 0))


def test_r_opt_7_r_opt_8_shown_twos_and_redeals_are_drawn() -> None:
    """R-OPT-7: shown 2s appear in the seat notes; R-OPT-8: a demanded redeal is public."""
    ruleset = tc.Ruleset.from_name("classic-partnership+bad_hand_redeal=True")
    rng = random.Random(0)
    while True:
        state = tc.apply(tc.new_match(ruleset), tc.Deal.shuffled(rng))
        state = tc.apply(state, tc.Choose(state.owner, tc.Contract.TRIX))  # type: ignore[arg-type]
        redeal = [m for m in tc.legal_moves(state) if isinstance(m, tc.Redeal)]
        if redeal:
            break
    seat = redeal[0].seat
    assert "Legal: redeal" in table_text(tc.view(state, seat)).splitlines()
    after = tc.apply(tc.apply(state, redeal[0]), tc.Deal.shuffled(rng))
    for viewer in (None, 0, 1, 2, 3):
        assert f"Redealt: seat {seat} showed a bad hand" in table_text(tc.view(after, viewer))
    trix = next(
        s
        for s in random_match(
            1, ruleset=tc.Ruleset.from_name("classic-partnership"), timeout_rate=0
        )
        if s.phase is tc.Phase.TRIX and any(tc.view(s, None).shown_twos)
    )
    seen = tc.view(trix, None)
    text = table_text(seen)
    for s in range(4):
        if seen.shown_twos[s]:
            assert "2s shown " + " ".join(c.symbol for c in seen.shown_twos[s]) in text


def test_the_seat_that_plays_next_sits_on_the_right() -> None:
    """R-SEAT-1: for every viewer, the engine's next seat (tc.next_seat) is drawn on its
    right, its partner (tc.partner) at the top, the seat before it on its left; the
    spectator sees seat 0's table.  position() is what the SVG trick and the server's
    page (its ``places``) both use."""
    from trixcomplex.io.render import PLACES, position

    for viewer in (0, 1, 2, 3):
        assert position(viewer, viewer) == "bottom"
        assert position(tc.next_seat(viewer), viewer) == "right"
        assert position(tc.partner(viewer), viewer) == "top"
        assert position(tc.next_seat(tc.partner(viewer)), viewer) == "left"
        assert sorted(position(s, viewer) for s in range(4)) == sorted(PLACES)
    assert [position(s, None) for s in range(4)] == [position(s, 0) for s in range(4)]
    with pytest.raises(ValueError, match="seat number"):
        position(4, 0)


def test_the_svg_trick_puts_each_card_at_its_seats_place() -> None:
    """The trick picture follows position(): the card of the seat after the bottom one
    lies right of the centre, its partner's above, the seat before's left (R-SEAT-1)."""
    svg = ET.fromstring(tc.io.render.trick_svg("2C 3C 4C 5C", leader=0, bottom=2))
    spots: dict[str | None, tuple[float, float]] = {}
    for g in svg.iter("{http://www.w3.org/2000/svg}g"):
        title = g.find("{http://www.w3.org/2000/svg}title")
        if title is not None and g.get("transform", "").startswith("translate("):
            x, y = (float(v) for v in g.get("transform", "")[10:-1].split())
            spots[title.text] = (x, y)
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = (spots[c] for c in ("2♣", "3♣", "4♣", "5♣"))
    # bottom = seat 2: seat 3 on its right, seat 0 at the top, seat 1 on its left
    assert x3 > x2 > x1 and x1 < x0 < x3 and y0 < y1 < y2 and y0 < y3 < y2
