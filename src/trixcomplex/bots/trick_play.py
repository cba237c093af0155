"""RuleBot's card in a trick contract (COMPLEX and the classic ones): duck, take, shed, lead.

Pure functions of a :class:`~trixcomplex.bots.situation.Situation`.  What a
deal's cards are worth (its costs, each card's penalty, each doubled card's
doubler) is worked out once per deal (:class:`_Facts`) and shared by every
situation of that deal.
"""

from __future__ import annotations

from attrs import frozen

from ..core.cards import Card, cards_of
from ..core.moves import Contract
from ..core.rules import DIAMONDS, KING_OF_HEARTS, QUEENS, trick_legal_cards, trick_winner
from ..core.rulesets import PARTNERSHIP, TrickRules
from .situation import _ABOVE, _BELOW, _KH, _SUITS, Situation, _highest

__all__ = ["complex_card"]


# -- COMPLEX play (R-CX-2, R-CX-3) ----------------------------------------------


@frozen
class _Costs:
    """What a trick contract charges, as positive costs (reversed scores too: R-OPT-6)."""

    trick: int
    diamond: int
    queen: int
    king: int
    penalty_cards: int
    """The cards that cost something when taken (K♥, Queens, diamonds), as a card set."""


def _costs(rules: TrickRules) -> _Costs:
    diamond, queen, king = abs(rules.diamond), abs(rules.queen), abs(rules.king_of_hearts)
    cards = (DIAMONDS if diamond else 0) | (QUEENS if queen else 0) | (_KH if king else 0)
    return _Costs(abs(rules.trick), diamond, queen, king, cards)


def _card_penalty(card: int, c: _Costs, doubled: tuple[tuple[Card, int], ...]) -> int:
    """What ``card`` costs the taker of the trick it falls in (doubled cards cost double).

    The values are the contract's: in COMPLEX K♥ 75, a Queen 25, a diamond 10;
    in King of Hearts only K♥, in Queens only the Queens, in Diamonds only the
    diamonds, in Ltoosh nothing but the trick itself (R-CL-2 … R-CL-5).
    """
    bit = 1 << card
    value = c.diamond if bit & DIAMONDS else 0
    if bit & _KH:
        value += c.king
    elif bit & QUEENS:
        value += c.queen
    if bit & (_KH | QUEENS) and any(d == card for d, _ in doubled):
        value += c.king if bit & _KH else c.queen
    return value


class _Facts:
    """What the cards of one trick deal are worth: its rules, costs, each card's
    penalty and each doubled card's doubler.  They depend only on the ruleset,
    the contract and the doubles, which no card play changes, so they are
    computed once (:func:`_facts`) and shared by every situation of the deal:
    every move of every playout of a Monte Carlo decision."""

    __slots__ = ("costs", "deal_cost", "doubler", "penalty", "rules", "ruleset", "standard")

    def __init__(self, sit: Situation) -> None:
        self.ruleset = sit.ruleset  # kept alive while cached: its id stays its own
        self.rules = sit.rules
        self.standard = sit.standard
        self.costs = _costs(self.rules)
        # what a whole deal charges (500 in COMPLEX, 75 in King of Hearts …): how much a
        # later trick is worth, to weigh keeping a high card (played as :attr:`rules`)
        contract = sit.trick_contract
        if contract not in sit.ruleset.contracts:
            contract = Contract.COMPLEX
        self.deal_cost = abs((sit.ruleset if contract in sit.ruleset.contracts else PARTNERSHIP)
                             .deal_total(contract))  # fmt: skip
        self.penalty = tuple(_card_penalty(card, self.costs, sit.doubled) for card in range(52))
        self.doubler: dict[int, int] = {}
        for card, doubler in sit.doubled:
            self.doubler.setdefault(card, doubler)


_FACTS: dict[tuple[int, int, tuple[tuple[Card, int], ...]], _Facts] = {}


def _facts(sit: Situation) -> _Facts:
    """The :class:`_Facts` of ``sit``'s deal, from the cache (kept small)."""
    key = (id(sit.ruleset), id(sit.contract), sit.doubled)  # ids: quicker than hashes
    facts = _FACTS.get(key)
    if facts is None:
        if len(_FACTS) >= 256:
            _FACTS.clear()
        facts = _FACTS[key] = _Facts(sit)
    return facts


def _dump_value(card: int, sit: Situation, taker: int, facts: _Facts) -> int:
    """What dumping ``card`` on ``taker``'s trick is worth to my side (+ good, - bad).

    My side is my team in a partnership ruleset and myself alone otherwise.
    """
    pen = facts.penalty[card]
    doubler = facts.doubler.get(card)
    value = -pen if sit.ally(taker) else pen
    if doubler is not None:  # the doubler earns the plain value (R-DBL-4 case 1)
        costs = facts.costs
        plain = costs.king if card == KING_OF_HEARTS else costs.queen
        value += plain if sit.ally(doubler) else -plain
    return value


def _liability(card: int, unseen: int) -> int:
    """How likely ``card`` is to win a trick later: ``unseen`` lower cards, none above."""
    above = (_ABOVE[card] & unseen).bit_count()
    below = (_BELOW[card] & unseen).bit_count()
    if not below:
        return 0
    return below * 2 if above == 0 else max(0, below - 2 * above)


def _trick_winner(sit: Situation) -> tuple[Card, int]:
    """The card winning the trick so far and its seat."""
    seat = trick_winner(sit.leader, sit.trick)
    return sit.trick[(seat - sit.leader) % 4], seat


def complex_card(sit: Situation) -> Card:
    """The card to play in a trick contract: duck, take with the highest, shed on opponents.

    Following suit, play the highest card that still loses; when sure to take
    the trick, take it with the highest card that is not a penalty.  Void,
    shed the contract's penalty cards (K♥, Queens, diamonds: whatever this
    contract charges) on an opponent's trick, never on the partner's (the
    trick's current winner decides); in an individual ruleset every other
    seat is an opponent.
    """
    facts = _facts(sit)
    legal = trick_legal_cards(sit.hand, sit.trick, facts.rules)
    if legal & (legal - 1) == 0:
        return _highest(legal)
    if not sit.trick:
        return _lead(sit, legal, facts) if facts.standard else _classic_lead(sit, legal, facts)
    pen = facts.penalty
    win_card, winner = _trick_winner(sit)
    later = 3 - len(sit.trick)
    led = sit.trick[0] // 13
    opponent_wins = not sit.ally(winner)
    unseen = sit.unseen
    sure = later == 0 or not (_ABOVE[win_card] & unseen)
    if legal & _SUITS[led]:
        below = legal & _BELOW[win_card]
        if below:
            cands = cards_of(below)
            if opponent_wins and sure:
                return max(cands, key=lambda c: (_dump_value(c, sit, winner, facts), c))
            if not opponent_wins:
                return max(cands, key=lambda c: (-pen[c], c))
            return max(cands, key=lambda c: (-pen[c] if later else 0, c))
        # every card of the suit wins for now: take it with the highest non-penalty card
        cands = cards_of(legal)
        return max(cands, key=lambda c: (-pen[c], c))
    # void in the led suit: shed
    cands = cards_of(legal)
    if opponent_wins:
        scale = 1.0 if facts.standard else facts.deal_cost / 500
        return max(
            cands,
            key=lambda c: (_dump_value(c, sit, winner, facts) + scale * _liability(c, unseen), c),
        )
    safe = [c for c in cands if pen[c] == 0]
    if safe:
        return max(safe, key=lambda c: (_liability(c, unseen), c))
    return min(cands, key=lambda c: (pen[c], c))


def _win_chance(card: int, unseen: int) -> float:
    """A rough chance that leading ``card`` takes the trick."""
    above = (_ABOVE[card] & unseen).bit_count()
    below = (_BELOW[card] & unseen).bit_count()
    in_suit = above + below
    if not in_suit:
        return 1.0  # nobody can follow: the trick is mine
    return 1.0 if above == 0 else (below + 1) / (in_suit + 1) / (1 + above)


def _lead(sit: Situation, legal: int, facts: _Facts) -> Card:
    """Lead the card least likely to win, away from penalties (COMPLEX)."""
    unseen = sit.unseen
    return max(cards_of(legal), key=lambda card: _lead_key(sit, card, facts, unseen))


def _lead_key(sit: Situation, card: int, facts: _Facts, unseen: int) -> tuple[float, ...]:
    """How good a COMPLEX lead of ``card`` is (higher is better): its expected cost."""
    pen = facts.penalty
    win = _win_chance(card, unseen)
    cost = 15 + pen[card] + (10 if (1 << card) & DIAMONDS else 0)
    return (-win * cost, -pen[card], -card)


def _classic_lead(sit: Situation, legal: int, facts: _Facts) -> Card:
    """Lead in a classic trick contract (or a COMPLEX house rule).

    The expected cost of a lead is its chance to take the trick times what
    the trick may hold: the trick's own cost (Ltoosh), my card's penalty, and
    half the unseen penalty cards of its suit (which may be forced onto it).
    On top of that:

    - holding a penalty card, lead from my shortest other suit, to become
      void and shed the penalty card later (K♥ in King of Hearts);
    - without the penalty cards of a suit that still holds some (K♥, a
      Queen, diamonds), a low lead in it is good: it flushes them out while
      someone else takes the trick.
    """
    unseen = sit.unseen
    return max(cards_of(legal), key=lambda card: _classic_lead_key(sit, card, facts, unseen))


def _classic_lead_key(sit: Situation, card: int, facts: _Facts, unseen: int) -> tuple[float, ...]:
    """How good a classic lead of ``card`` is (higher is better; :func:`_classic_lead`)."""
    costs = facts.costs
    pen = facts.penalty
    hand = sit.hand
    suit = _SUITS[card // 13]
    win = _win_chance(card, unseen)
    others = cards_of(unseen & suit & costs.penalty_cards)
    out_there = sum(pen[c] for c in others)
    expected = win * (costs.trick + pen[card] + out_there / 2)
    flush = 0.0
    if out_there and not hand & suit & costs.penalty_cards & ~(1 << card):
        flush = (1 - win) * out_there / 4
    short = 0
    if hand & costs.penalty_cards and not (1 << card) & costs.penalty_cards:
        short = -(hand & suit).bit_count()
    return (flush - expected, short, -pen[card], -(card % 13), -card)
