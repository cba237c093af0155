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
from builders import RULESET_VARIANTS, random_match
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


@pytest.mark.parametrize("ruleset", RULESET_VARIANTS, ids=lambda r: r.name)
def test_r_cx_2_r_tx_2_a_states_kept_legal_cards_are_the_rule_functions(
    ruleset: tc.Ruleset,
) -> None:
    """R-CX-2, R-CL-2, R-OPT-2, R-TX-2, R-TX-3: every state of whole matches of every
    ruleset variant (built by the runner, ``apply``, ``apply_moves`` and the playout)
    keeps the trick rules and legal cards the rule functions give for its fields:
    ``Ruleset.trick_rules`` and the trick's ``legal_cards`` in a trick deal, TRIX's
    ``layable`` (the pass: none), nothing otherwise; the state rebuilt from its fields
    through its constructor is equal; a state made by ``apply_moves`` or a playout is
    the very same value."""
    from trixcomplex.core.tricks import legal_cards
    from trixcomplex.core.trix import layable

    for seed in range(3):
        states = random_match(seed, ruleset=ruleset, bad_hands="four_twos", redeal_rate=0.5)
        for state in states:
            deal, turn = state.deal, state.turn
            if isinstance(deal, tc.TrickDeal):
                assert turn is not None and state.contract is not None
                rules = ruleset.trick_rules(state.contract)
                assert state.trick_rules is rules
                assert state.legal_cards == legal_cards(state.hands[turn], deal.trick, rules)
            elif isinstance(deal, tc.TrixDeal):
                assert turn is not None and state.trick_rules is None
                assert state.legal_cards == layable(state.hands[turn], deal.playable)
            else:
                assert (state.trick_rules, state.legal_cards) == (None, 0)
            assert attrs.evolve(state) == state and hash(attrs.evolve(state)) == hash(state)
        final = states[-1]
        assert tc.apply_moves(states[0], list(final.history)[len(states[0].history) :]) == final
        start = states[len(states) // 2]
        played = tc.playout(start, random.Random(seed), until="match")
        stepped = start
        rng = random.Random(seed)
        while not stepped.is_over:
            if stepped.phase is tc.Phase.DEAL:
                stepped = tc.apply(stepped, tc.Deal.shuffled(rng))
            else:
                stepped = tc.apply(stepped, rng.choice(tc.legal_moves(stepped)))
        assert played == stepped


def test_a_hand_made_record_of_no_card_phase_keeps_no_legal_cards() -> None:
    """A record the engine does not make (a trick deal without a trick contract, a
    turn out of range) is still built: no rules, no legal card, nothing listed."""
    state = next(s for s in random_match(1) if isinstance(s.deal, tc.TrickDeal))
    odd = attrs.evolve(state, contract=tc.Contract.TRIX)
    assert (odd.trick_rules, odd.legal_cards) == (None, 0) and tc.legal_moves(odd) == ()
    assert attrs.evolve(state, turn=None).legal_cards == 0


class _Subclassed(random.Random):
    """A generator drawing as random.Random does (its own methods untouched)."""


class _OwnShuffle(random.Random):
    """A generator with its own shuffle (reversed), which Deal.shuffled must call."""

    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        x.reverse()


@pytest.mark.parametrize("cls", [random.Random, _Subclassed, _OwnShuffle])
def test_r_match_2_deal_shuffled_is_rng_shuffle(cls: type[random.Random]) -> None:
    """R-MATCH-2: ``Deal.shuffled(rng)`` deals the deck ``rng.shuffle`` leaves, from the
    same calls (the generator left in the same state), drawn inline or not."""
    for seed in range(30):
        a, b = cls(seed), cls(seed)
        for _ in range(3):
            deck = list(tc.ALL_CARDS)
            b.shuffle(deck)
            assert tc.Deal.shuffled(a).deck == tuple(deck)
        assert a.getstate() == b.getstate()
