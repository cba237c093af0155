"""RuleBot's choices before the cards: the contract (R-MATCH-5), a redeal (R-OPT-8), doubles.

Pure functions of a :class:`~trixcomplex.bots.situation.Situation`; the
contract weights are fitted by simulation (``benchmarks/fit_weights.py``).
"""

from __future__ import annotations

from ..core.cards import Card, Rank, Suit, cards_of
from ..core.moves import Contract
from ..core.rules import KING_OF_HEARTS, QUEENS, bad_hand
from .situation import _KH, _SUITS, Situation, _above, _below, _rank

__all__ = [
    "CONTRACT_WEIGHTS",
    "HAND_SET_WEIGHTS",
    "ContractWeights",
    "choose_contract",
    "choose_doubles",
    "complex_danger",
    "contract_goodness",
    "contract_scores",
    "trix_gaps",
    "wants_redeal",
]


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
    scores = contract_scores(sit, weights)
    return max(scores, key=scores.__getitem__)


def contract_scores(
    sit: Situation, weights: ContractWeights = CONTRACT_WEIGHTS
) -> dict[Contract, float]:
    """Each remaining contract's weighted :func:`contract_goodness` for this hand, in the
    ruleset's order: what :func:`choose_contract` maximises, and what a weaker level
    (:class:`~trixcomplex.bots.levels.LevelBot`) chooses among more softly."""
    remaining = sit.remaining or sit.ruleset.contracts
    weight = {c: (scale, bias) for c, scale, bias in weights}
    scores = {}
    for c in remaining:
        scale, bias = weight.get(c, (1.0, 0.0))
        scores[c] = scale * contract_goodness(c, sit.hand) + bias
    return scores


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
