"""The card sense of :class:`~trixcomplex.bots.RuleBot`, as pure functions of a :class:`Situation`.

A :class:`Situation` is what one seat knows, in card sets: its hand, the
cards gone, the trick on the table, the doubles, the TRIX table.  It is built
from the seat's :class:`~trixcomplex.knowledge.views.View` (:meth:`Situation.of_view`);
the Monte Carlo bot also builds it for the seats of a world it imagined
(:meth:`Situation.of_world`), so its playouts play like :class:`RuleBot`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from attrs import frozen

from ..core.cards import ALL_CARDS, ALL_MASK, Card, Rank, Suit, cards_of, suit_mask
from ..core.engine import MatchState, Phase
from ..core.moves import Contract
from ..core.playout import PlayoutState
from ..core.rules import (
    DIAMONDS,
    KING_OF_HEARTS,
    QUEENS,
    bad_hand,
    trick_legal_cards,
    trick_winner,
    trix_legal_cards,
)
from ..core.rules import trix_playable as playable
from ..core.rulesets import PARTNERSHIP, Ruleset, TrickRules

if TYPE_CHECKING:
    from ..knowledge.views import View

__all__ = [
    "CONTRACT_WEIGHTS",
    "HAND_SET_WEIGHTS",
    "ContractWeights",
    "Situation",
    "choose_contract",
    "choose_doubles",
    "complex_card",
    "contract_goodness",
    "trix_card",
    "wants_redeal",
]

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


@frozen
class Situation:
    """What one seat knows at its turn, as card sets (52-bit ints)."""

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
        return cls(
            v.seat, v.phase, owner, hand, gone, trick, leader, doubled, table, sizes,
            getattr(v, "contract", None), ruleset, remaining,
            (twos[0], twos[1], twos[2], twos[3]),
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


# -- choosing the contract (R-MATCH-5) ------------------------------------------


def trix_gaps(hand: int) -> int:
    """How far a hand is from its rows' Jacks: cards others must lay before mine can go.

    For each card, the cards between it and its Jack that the hand does not
    hold.  Few gaps (Jacks, connected runs) make a good TRIX hand.
    """
    gaps = 0
    for card in cards_of(hand):
        jack = card - card % 13 + 9
        lo, hi = (card, jack) if card < jack else (jack, card)
        between = ((1 << hi) - 1) & ~((2 << lo) - 1) if hi > lo else 0
        gaps += (between & ~hand).bit_count()
        if card != jack and not hand & (1 << jack):
            gaps += 1
    return gaps


def complex_danger(hand: int) -> int:
    """Points a hand risks in COMPLEX: K♥ and Queens without low guards, high cards, no voids."""
    danger = 0
    for s in range(4):
        suit = hand & _SUITS[s]
        n = suit.bit_count()
        if n == 0:
            danger -= 20  # a void sheds penalties
            continue
        low = (suit & (_SUITS[s] & ((1 << (s * 13 + 6)) - 1))).bit_count()  # 2..7
        for card in cards_of(suit):
            r = _rank(card)
            if r >= 12:
                guard = (_below(card) & hand).bit_count()
                if card == KING_OF_HEARTS:
                    danger += 75 if guard < 4 else 30
                elif r == 12:
                    danger += 25 if guard < 3 else 8
                else:
                    danger += 12 if low < 3 else 4
        if s == Suit.DIAMONDS:
            danger += 6 * (suit & ~((1 << (26 + 6)) - 1)).bit_count()
    return danger


def _high_cards(hand: int) -> int:
    """Jacks, Queens, Kings and Aces in ``hand`` (4 in an average hand)."""
    return sum((hand & s & ~((1 << (13 * i + 9)) - 1)).bit_count() for i, s in enumerate(_SUITS))


def _low_cards(hand: int) -> int:
    """2s to 6s in ``hand`` (5 in an average hand)."""
    return sum((hand & s & ((1 << (13 * i + 5)) - 1)).bit_count() for i, s in enumerate(_SUITS))


def contract_goodness(contract: Contract, hand: int) -> float:
    """How well ``hand`` suits ``contract``: above 0 is better than an average hand.

    Simple, explainable counts (the constants are rough averages):

    - TRIX: few gaps to the Jacks (Jacks, connected runs).
    - COMPLEX: little danger (guarded K♥ and Queens, low cards, a void).
    - King of Hearts: long in hearts (K♥ well guarded by low hearts, or able
      to lead hearts to flush it out); a bare K♥ is a disaster.
    - Queens: my Queens guarded by lower cards of their suit; few bare Kings and Aces.
    - Diamonds: short in diamonds, or only low ones.
    - Ltoosh: low cards, few Jacks to Aces.
    """
    suits = [(hand & s).bit_count() for s in _SUITS]
    voids = sum(1 for n in suits if n == 0)
    if contract is Contract.TRIX:
        return (_MEAN_GAPS - trix_gaps(hand)) * 12
    if contract is Contract.COMPLEX:
        return _MEAN_DANGER - complex_danger(hand)
    if contract is Contract.KING_OF_HEARTS:
        hearts = suits[Suit.HEARTS]
        value = 10.0 * (hearts - 3.25) + 10 * voids
        if hand & _KH:
            guards = (_below(KING_OF_HEARTS) & hand).bit_count()
            value += -60 + 15 * min(guards, 4)
        return value
    if contract is Contract.QUEENS:
        value = 10.0 * voids
        for s in range(4):
            suit = hand & _SUITS[s]
            low = (suit & ((1 << (13 * s + 8)) - 1)).bit_count()  # 2..9
            for card in cards_of(suit & (QUEENS | _above(Card.of(Rank.QUEEN, s)))):
                if (1 << card) & QUEENS:
                    value += 10 if low >= 3 else -25
                else:
                    value += 0 if low >= 3 else -10
        return value + 15
    if contract is Contract.DIAMONDS:
        diamonds = hand & _SUITS[Suit.DIAMONDS]
        high = (diamonds & ~((1 << (26 + 7)) - 1)).bit_count()  # 9..A
        return 12.0 * (3.25 - diamonds.bit_count()) - 10 * high + 10
    # LTOOSH: every trick costs, whatever it holds
    return 12.0 * (4 - _high_cards(hand)) + 4 * (_low_cards(hand) - 5) + 10 * voids


ContractWeights = tuple[tuple[Contract, float, float], ...]
"""Per contract, ``(contract, scale, bias)``: the choice weighs
``scale * contract_goodness(contract, hand) + bias``."""

HAND_SET_WEIGHTS: ContractWeights = tuple((c, 1.0, 0.0) for c in Contract)
"""The first, hand-set weights: the raw :func:`contract_goodness` of each contract."""

# -- fitted by benchmarks/fit_weights.py (training seed 11, 300 matches per ruleset
# and candidate); tested on seed 2026 against HAND_SET_WEIGHTS, 2,000 paired matches
# per ruleset: partnership won 52.8% (95% CI 50.6-54.9%), classic 52.7% (50.5-54.9%).
CONTRACT_WEIGHTS: ContractWeights = (
    (Contract.COMPLEX, 1.0, -30.0),
    (Contract.TRIX, 1.0, 45.0),
    (Contract.KING_OF_HEARTS, 1.0, -15.0),
    (Contract.QUEENS, 1.5, -30.0),
    (Contract.DIAMONDS, 0.6, 30.0),
    (Contract.LTOOSH, 1.0, 0.0),
)
"""RuleBot's contract-choice weights, fitted by simulation (``benchmarks/fit_weights.py``)."""


def choose_contract(sit: Situation, weights: ContractWeights = CONTRACT_WEIGHTS) -> Contract:
    """The remaining contract this hand suits best (R-MATCH-5, R-SET-2).

    Every contract of the Kingdom is played once; the choice decides which
    one this hand is played in, so the owner picks the contract with the best
    weighted :func:`contract_goodness` (``weights``: a scale and a bias per
    contract), ties going to the earlier contract of the ruleset.  In the
    partnership game: TRIX first with a connected hand (Jacks, runs),
    COMPLEX first with a safe one.
    """
    remaining = sit.remaining or sit.ruleset.contracts
    weight = {c: (scale, bias) for c, scale, bias in weights}

    def score(c: Contract) -> float:
        scale, bias = weight.get(c, (1.0, 0.0))
        return scale * contract_goodness(c, sit.hand) + bias

    return max(remaining, key=score)


def wants_redeal(sit: Situation) -> bool:
    """Demand a redeal with a bad TRIX hand (R-OPT-8): four 2s (or three 2s and
    the fourth 3) sit at the far ends of the rows and are laid last, so the
    hand all but surely finishes last.  Nothing else counts."""
    return bad_hand(sit.hand)


_MEAN_GAPS = 30
_MEAN_DANGER = 90


# -- doubling (R-DBL-1 … R-DBL-4) ------------------------------------------------


def choose_doubles(sit: Situation, asked: int) -> int:
    """The doublable cards worth doubling: well guarded by low cards, short elsewhere.

    A doubled card pays its doubler when someone else takes it (R-DBL-4 case
    1) but costs double when the doubler has to take it himself.  So double a
    card only when the hand can almost surely get rid of it under a higher
    card or on a void: many lower cards of its suit and no card above it,
    or a short side suit to discard it on.

    King of Hearts is different (R-CL-2, R-CL-7): nothing but K♥ counts and
    hearts may not be led while another suit is held, so its holder sheds it
    on a void far more often than not; K♥ is doubled there with two lower
    hearts, or with a side suit of at most two cards to become void in.  In
    Queens only the Queens count: a Queen is doubled with one guard fewer.
    """
    hand = sit.hand
    out = 0
    shortest = min((hand & s).bit_count() for s in _SUITS)
    if sit.contract is Contract.KING_OF_HEARTS and asked & _KH:
        guards = (_below(KING_OF_HEARTS) & hand).bit_count()
        side = min((hand & s).bit_count() for i, s in enumerate(_SUITS) if i != Suit.HEARTS)
        protected = sit.ruleset.trick_rules(Contract.KING_OF_HEARTS).no_heart_lead
        if guards >= (2 if protected else 4) or (protected and side <= 2):
            out |= _KH
        return out
    for card in cards_of(asked):
        guards = (_below(card) & hand).bit_count()
        over_me = (_above(card) & hand).bit_count()
        need = 5 if card == KING_OF_HEARTS else 4
        if shortest <= 1:
            need -= 1
        if sit.contract is Contract.QUEENS:
            need -= 1
        if over_me == 0 and guards >= need:
            out |= 1 << card
    return out


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


_COMPLEX_RULES = PARTNERSHIP.trick_rules(Contract.COMPLEX)


def _costs(rules: TrickRules) -> _Costs:
    diamond, queen, king = abs(rules.diamond), abs(rules.queen), abs(rules.king_of_hearts)
    cards = (DIAMONDS if diamond else 0) | (QUEENS if queen else 0) | (_KH if king else 0)
    return _Costs(abs(rules.trick), diamond, queen, king, cards)


def _deal_cost(c: _Costs) -> int:
    """What a whole deal of the contract charges (500 in COMPLEX, 75 in King of
    Hearts …): how much a later trick is worth, to weigh keeping a high card."""
    return 13 * c.trick + 13 * c.diamond + 4 * c.queen + c.king


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

    __slots__ = ("costs", "doubler", "penalty", "rules", "ruleset", "standard")

    def __init__(self, sit: Situation) -> None:
        self.ruleset = sit.ruleset  # kept alive while cached: its id stays its own
        self.rules = sit.rules
        self.standard = sit.standard
        self.costs = _costs(self.rules)
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
        scale = 1.0 if facts.standard else _deal_cost(facts.costs) / 500
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
    pen = facts.penalty
    best: Card | None = None
    best_key: tuple[float, ...] = ()
    for card in cards_of(legal):
        win = _win_chance(card, unseen)
        cost = 15 + pen[card] + (10 if (1 << card) & DIAMONDS else 0)
        key = (-win * cost, -pen[card], -card)
        if best is None or key > best_key:
            best, best_key = card, key
    assert best is not None
    return best


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
    costs = facts.costs
    pen = facts.penalty
    unseen = sit.unseen
    hand = sit.hand
    held_penalties = hand & costs.penalty_cards
    best: Card | None = None
    best_key: tuple[float, ...] = ()
    for card in cards_of(legal):
        suit = _SUITS[card // 13]
        win = _win_chance(card, unseen)
        others = cards_of(unseen & suit & costs.penalty_cards)
        out_there = sum(pen[c] for c in others)
        expected = win * (costs.trick + pen[card] + out_there / 2)
        flush = 0.0
        if out_there and not hand & suit & costs.penalty_cards & ~(1 << card):
            flush = (1 - win) * out_there / 4
        short = 0
        if held_penalties and not (1 << card) & costs.penalty_cards:
            short = -(hand & suit).bit_count()
        key = (flush - expected, short, -pen[card], -(card % 13), -card)
        if best is None or key > best_key:
            best, best_key = card, key
    assert best is not None
    return best


# -- TRIX play (R-TX-2, R-TX-3) -------------------------------------------------


def _beyond(card: int) -> int:
    """The cards of ``card``'s row that become reachable only through ``card``."""
    suit = _SUITS[card // 13]
    if (1 << card) & _JACKS:
        return suit & ~(1 << card)
    jack = card - card % 13 + 9
    if card > jack:
        return _above(card)
    return _below(card)


_BEYOND = tuple(_beyond(card) for card in range(52))
"""``_BEYOND[card]``: :func:`_beyond` as a table."""


def trix_card(sit: Situation) -> Card | None:
    """The card to lay in TRIX, or ``None`` to pass (no legal card, R-TX-3).

    Prefer cards that unlock my own next cards; hold cards that the others
    need (blocking them) while I have other plays; a card with nothing behind
    it in its row (a 2, an Ace) helps nobody and is free to play.  With the
    2s shown (R-OPT-7), open the rows that lead to a partner's 2 and keep
    closed those that lead to an opponent's.
    """
    legal = trix_legal_cards(sit.hand, sit.table)
    if not legal:
        return None
    if legal & (legal - 1) == 0:
        return _highest(legal)
    hand = sit.hand
    others = sit.unseen
    table = sit.table
    now = playable(table)
    shown = sit.shown_twos
    any_shown = shown[0] | shown[1] | shown[2] | shown[3]
    best: Card | None = None
    best_key = (-1e9, 0)
    for card in cards_of(legal):
        bit = 1 << card
        opened = playable(table | bit) & ~now & ~bit
        behind = _BEYOND[card]
        score = 3.0 * (opened & hand).bit_count()
        score += 1.2 * (behind & hand).bit_count()
        score -= 0.3 * (opened & others).bit_count()
        score -= 0.1 * (behind & others).bit_count()
        if behind & any_shown:  # R-OPT-7: whose 2s this row leads to
            for seat, twos in enumerate(shown):
                if seat != sit.seat and behind & twos:
                    score += 1.0 if sit.ally(seat) else -1.0
        key = (score, -card)
        if key > best_key:
            best, best_key = card, key
    return best
