"""The engine's fast paths (``trixcomplex.core._speed``) build exactly what the plain forms build.

Each frozen record is built by its one positional builder, generated from its
fields in declaration order; the field orders are pinned here, so a field
moved or added fails this test instead of silently building wrong records.
"""

from __future__ import annotations

import inspect
import random

import attrs
import pytest

import trixcomplex as tc
from builders import random_match
from trixcomplex.core.doubling import new_window
from trixcomplex.core.runner import CardStep, new_step
from trixcomplex.core.state import new_state
from trixcomplex.core.tricks import new_trick, new_trick_deal
from trixcomplex.core.trix import new_trix_deal

PINNED = [
    (tc.MatchState, new_state, [
        "phase", "deal_number", "owner", "contract", "hands", "turn", "deal", "scores",
        "results", "history", "ruleset",
    ]),
    (tc.TrickDeal, new_trick_deal, ["leader", "trick", "tricks", "doubled", "points"]),
    (tc.TrixDeal, new_trix_deal, ["table", "finishing_order", "playable"]),
    (tc.Trick, new_trick, ["leader", "cards", "taker"]),
    (tc.DoublingWindow, new_window, ["asked", "answers"]),
    (CardStep, new_step, ["seat", "card", "turn", "trick", "points", "out", "deal_over"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("cls", "build", "order"), PINNED, ids=lambda x: getattr(x, "__name__", "")
)
def test_each_builder_takes_its_records_fields_in_the_pinned_order(
    cls: type, build: object, order: list[str]
) -> None:
    """A builder's parameters are its record's fields, in the order every caller passes them."""
    fields = [f.name for f in attrs.fields(cls)]
    assert list(inspect.signature(build).parameters) == order  # type: ignore[arg-type]
    assert order[: len(fields)] == fields


def test_builders_build_what_the_constructors_build() -> None:
    """Every record of a whole match, rebuilt by its builder from its own fields, is
    equal to it, hashes alike and stays frozen."""
    for state in random_match(2, ruleset=tc.CLASSIC):
        values = [getattr(state, name) for name in PINNED[0][2]]
        fast = new_state(*values)
        assert type(fast) is tc.MatchState and fast == state and hash(fast) == hash(state)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            fast.turn = 3  # type: ignore[misc]
        deal = state.deal
        if isinstance(deal, tc.TrickDeal):
            assert new_trick_deal(*attrs.astuple(deal, recurse=False)) == deal
            for t in deal.tricks:
                assert new_trick(t.leader, t.cards, t.taker) == tc.Trick(t.leader, t.cards, t.taker)
        elif isinstance(deal, tc.TrixDeal):
            built = new_trix_deal(deal.table, deal.finishing_order, deal.playable)
            assert built == tc.TrixDeal(deal.table, deal.finishing_order) == deal
        elif isinstance(deal, tc.DoublingWindow):
            assert new_window(deal.asked, deal.answers) == deal


def test_the_playouts_shuffle_is_random_shuffle() -> None:
    """``shuffled_deck`` with the generator's own bits gives ``rng.shuffle``'s deck and
    leaves the generator in the same state."""
    from trixcomplex.core._speed import shuffled_deck

    for seed in range(20):
        a, b = random.Random(seed), random.Random(seed)
        deck = list(tc.ALL_CARDS)
        b.shuffle(deck)
        assert shuffled_deck(a, a.getrandbits) == tuple(deck)
        assert a.getstate() == b.getstate()
