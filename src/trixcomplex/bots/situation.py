"""What one seat knows at its turn, as card sets: the :class:`Situation` RuleBot's tactics read.

A :class:`Situation` is what one seat knows, in card sets: its hand, the
cards gone, the trick on the table, the doubles, the TRIX table, and what the
table has shown about the other hands (voids, cards a seat cannot hold or is
known to hold).  It is built from the seat's
:class:`~trixcomplex.knowledge.views.View` (:meth:`Situation.of_view`); the
Monte Carlo bot also builds it for the seats of a world it imagined
(:meth:`Situation.of_world`), so its playouts play like :class:`RuleBot`.
The small card-set helpers below (cards above or below a card, a suit's
cards) are shared by every tactic module.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..core.cards import ALL_CARDS, ALL_MASK, Card, Rank, Suit, suit_mask
from ..core.engine import MatchState, Phase
from ..core.moves import Contract
from ..core.playout import PlayoutState
from ..core.rules import KING_OF_HEARTS
from ..core.rulesets import PARTNERSHIP, Ruleset, TrickRules
from ..core.tuplerecord import TupleRecord

if TYPE_CHECKING:
    from ..knowledge.views import View

__all__ = ["Situation"]

_SUITS = tuple(suit_mask(s) for s in Suit)
_KH = 1 << KING_OF_HEARTS
_JACKS = sum(1 << Card.of(Rank.JACK, s) for s in Suit)


def _mask(cards: object) -> int:
    """A card set from a mask or from an iterable of cards (views may give either)."""
    if isinstance(cards, int):
        return cards
    if cards is None:
        return 0
    assert isinstance(cards, Iterable)
    mask = 0
    for card in cards:
        mask |= 1 << int(card)
    return mask


_NONE4 = (0, 0, 0, 0)
_tnew = tuple.__new__


class Situation(TupleRecord):
    """What one seat knows at its turn, as card sets (52-bit ints).

    A frozen value, tuple-backed (:class:`~trixcomplex.core.tuplerecord.TupleRecord`:
    attrs' ``fields``, ``evolve`` and ``asdict`` work on it): the Monte Carlo bot
    builds one for every card its playouts think through, and one ``tuple.__new__``
    costs about a tenth of a frozen attrs class setting its 17 fields one by one
    (about 2 µs, ``timeit``; issue 44).
    """

    __slots__ = ()

    seat: int
    phase: Phase
    owner: int
    hand: int
    gone: int
    """Cards no longer in any hand (played to tricks, or laid on the TRIX table)."""
    trick: tuple[Card, ...]
    leader: int
    doubled: tuple[tuple[Card, int], ...]
    table: int
    hand_sizes: tuple[int, ...]
    contract: Contract | None = None
    """The contract being played (``None`` while choosing; COMPLEX is assumed)."""
    ruleset: Ruleset = PARTNERSHIP
    """The game played: its scores, its house rules, partners or not."""
    remaining: tuple[Contract, ...] = ()
    """The Kingdom's contracts not played yet (what the owner may choose)."""
    shown_twos: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Per seat, the 2s it is known to hold (shown in TRIX under R-OPT-7), unlaid."""
    void_suits: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Per seat, the cards of the suits it is known to be void in (the view's ``voids``)."""
    cannot_hold: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Per seat, the unplayed cards it is known not to hold (the view's ``cannot_hold``)."""
    known: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Per seat, the unplayed cards it is known to hold (revealed doubles, shown 2s …)."""

    def __new__(
        cls,
        seat: int,
        phase: Phase,
        owner: int,
        hand: int,
        gone: int,
        trick: tuple[Card, ...],
        leader: int,
        doubled: tuple[tuple[Card, int], ...],
        table: int,
        hand_sizes: tuple[int, ...],
        contract: Contract | None = None,
        ruleset: Ruleset = PARTNERSHIP,
        remaining: tuple[Contract, ...] = (),
        shown_twos: tuple[int, int, int, int] = _NONE4,
        void_suits: tuple[int, int, int, int] = _NONE4,
        cannot_hold: tuple[int, int, int, int] = _NONE4,
        known: tuple[int, int, int, int] = _NONE4,
    ) -> Situation:
        return _tnew(cls, (
            seat, phase, owner, hand, gone, trick, leader, doubled, table, hand_sizes,
            contract, ruleset, remaining, shown_twos, void_suits, cannot_hold, known,
        ))  # fmt: skip

    @classmethod
    def of_view(cls, view: View) -> Situation:
        """The situation of the view's seat, from the view alone."""
        v: Any = view
        hand = _mask(v.hand)
        trick = tuple(ALL_CARDS[int(c)] for c in (v.trick or ()))
        gone = _mask(trick)
        for t in v.tricks or ():
            gone |= _mask(t.cards)
        table = _mask(v.table)
        gone |= table
        owner = v.owner if v.owner is not None else v.seat
        leader = v.leader if v.leader is not None else owner
        doubled = tuple((ALL_CARDS[int(c)], int(d)) for c, d in (v.doubled or ()))
        sizes = tuple(v.hand_sizes) if v.hand_sizes is not None else (0, 0, 0, 0)
        ruleset = getattr(v, "ruleset", PARTNERSHIP)
        remaining = tuple(getattr(v, "remaining_contracts", ()) or ())
        shown = getattr(v, "shown_twos", None) or ((), (), (), ())
        twos = tuple(_mask(t) & ~table for t in shown)
        voids = getattr(v, "voids", None) or ((), (), (), ())
        voided = tuple(sum((_SUITS[int(s)] for s in suits), 0) for suits in voids)
        cannot = tuple(_mask(c) for c in (getattr(v, "cannot_hold", None) or ((), (), (), ())))
        known = tuple(_mask(c) for c in (getattr(v, "known_holdings", None) or ((), (), (), ())))
        return cls(
            v.seat, v.phase, owner, hand, gone, trick, leader, doubled, table, sizes,
            getattr(v, "contract", None), ruleset, remaining,
            (twos[0], twos[1], twos[2], twos[3]),
            (voided[0], voided[1], voided[2], voided[3]),
            (cannot[0], cannot[1], cannot[2], cannot[3]),
            (known[0], known[1], known[2], known[3]),
        )  # fmt: skip

    @classmethod
    def of_world(cls, state: MatchState, seat: int) -> Situation:
        """The situation of ``seat`` in a world (a state) the bot imagined itself."""
        return cls.of_game(PlayoutState(state), seat, state.remaining_contracts)

    @classmethod
    def of_game(cls, game: PlayoutState, seat: int, remaining: tuple[Contract, ...]) -> Situation:
        """The situation of ``seat`` in a playout's game (a world the bot imagined),
        the Kingdom's ``remaining`` contracts given (they are the same all deal long)."""
        hands = game.hands
        h0, h1, h2, h3 = hands
        owner = game.owner
        leader = game.leader
        return cls(
            seat, game.phase, seat if owner is None else owner, hands[seat],
            ALL_MASK & ~(h0 | h1 | h2 | h3), game.trick, (owner or 0) if leader is None else leader,
            game.doubled, game.table,
            (h0.bit_count(), h1.bit_count(), h2.bit_count(), h3.bit_count()),
            game.contract, game.ruleset, remaining,
        )  # fmt: skip

    @property
    def unseen(self) -> int:
        """Cards held by the other three seats (whoever holds them)."""
        return ALL_MASK & ~self.hand & ~self.gone

    def may_hold(self, seat: int) -> int:
        """The cards ``seat`` may hold, as far as this seat knows: my own hand for me;
        for another seat the unseen cards, less its known voids and the cards it cannot
        hold, less the cards known to be in a third seat's hand."""
        if seat == self.seat:
            return self.hand
        elsewhere = 0
        for other, cards in enumerate(self.known):
            if other != seat:
                elsewhere |= cards
        return self.unseen & ~self.void_suits[seat] & ~self.cannot_hold[seat] & ~elsewhere

    def ally(self, seat: int) -> bool:
        """Whether ``seat``'s points count as mine: myself, and my partner in a
        partnership ruleset; in an individual ruleset every other seat is an
        opponent (R-IND-1, R-CL-1)."""
        return seat == self.seat or (self.ruleset.partnership and seat % 2 == self.seat % 2)

    @property
    def trick_contract(self) -> Contract:
        """The trick contract being played (COMPLEX when the situation does not say)."""
        c = self.contract
        return c if c is not None and c.is_trick_contract else Contract.COMPLEX

    @property
    def rules(self) -> TrickRules:
        """How the trick contract is played and scored (the partnership game's COMPLEX when the
        ruleset has no such contract)."""
        contract = self.trick_contract
        if contract in self.ruleset.contracts:
            return self.ruleset.trick_rules(contract)
        return _COMPLEX_RULES

    @property
    def standard(self) -> bool:
        """Whether this is exactly the partnership game's COMPLEX (the original tactics)."""
        return self.trick_contract is Contract.COMPLEX and self.rules.standard


_COMPLEX_RULES = PARTNERSHIP.trick_rules(Contract.COMPLEX)
"""The partnership game's COMPLEX: how a trick contract the ruleset lacks is played."""


def _rank(card: int) -> int:
    return card % 13 + 2


def _above(card: int) -> int:
    """The cards of ``card``'s suit ranking above it."""
    suit = _SUITS[card // 13]
    return suit & ~((2 << card) - 1)


def _below(card: int) -> int:
    """The cards of ``card``'s suit ranking below it."""
    return _SUITS[card // 13] & ((1 << card) - 1)


_ABOVE = tuple(_above(card) for card in range(52))
_BELOW = tuple(_below(card) for card in range(52))
"""``_ABOVE[card]``, ``_BELOW[card]``: :func:`_above` and :func:`_below` as tables (hot loops)."""


def _highest(mask: int) -> Card:
    return ALL_CARDS[mask.bit_length() - 1]
