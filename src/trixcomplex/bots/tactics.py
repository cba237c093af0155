"""The card sense of :class:`~trixcomplex.bots.RuleBot`, as pure functions of a :class:`Situation`.

A :class:`Situation` is what one seat knows, in card sets: its hand, the
cards gone, the trick on the table, the doubles, the TRIX table.  It is built
from the seat's :class:`~trixcomplex.views.View` (:meth:`Situation.of_view`);
the Monte Carlo bot also builds it for the seats of a world it imagined
(:meth:`Situation.of_world`), so its playouts play like :class:`RuleBot`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from attrs import frozen

from ..cards import ALL_CARDS, ALL_MASK, Card, Rank, Suit, cards_of, suit_mask
from ..complex import legal_cards as complex_legal_cards
from ..moves import Contract
from ..scoring import DIAMONDS, KING_OF_HEARTS, QUEENS
from ..state import MatchState, Phase
from ..trix import legal_cards as trix_legal_cards
from ..trix import playable

if TYPE_CHECKING:
    from ..views import View

__all__ = [
    "Situation",
    "choose_contract",
    "choose_doubles",
    "complex_card",
    "trix_card",
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
        return cls(v.seat, v.phase, owner, hand, gone, trick, leader, doubled, table, sizes)

    @classmethod
    def of_world(cls, state: MatchState, seat: int) -> Situation:
        """The situation of ``seat`` in a world (a state) the bot imagined itself."""
        hands = state.hands
        held = hands[0] | hands[1] | hands[2] | hands[3]
        deal = state.complex
        trick: tuple[Card, ...] = deal.trick if deal is not None else ()
        leader = deal.leader if deal is not None else (state.owner or 0)
        doubled = deal.doubled if deal is not None else ()
        table = state.trix.table if state.trix is not None else 0
        sizes = tuple(h.bit_count() for h in hands)
        owner = state.owner if state.owner is not None else seat
        return cls(
            seat, state.phase, owner, hands[seat], ALL_MASK & ~held, trick, leader, doubled,
            table, sizes,
        )  # fmt: skip

    @property
    def unseen(self) -> int:
        """Cards held by the other three seats (whoever holds them)."""
        return ALL_MASK & ~self.hand & ~self.gone


def _rank(card: int) -> int:
    return card % 13 + 2


def _above(card: int) -> int:
    """The cards of ``card``'s suit ranking above it."""
    suit = _SUITS[card // 13]
    return suit & ~((2 << card) - 1)


def _below(card: int) -> int:
    """The cards of ``card``'s suit ranking below it."""
    return _SUITS[card // 13] & ((1 << card) - 1)


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


def choose_contract(sit: Situation) -> Contract:
    """TRIX first with a connected hand (Jacks, runs), COMPLEX first with a safe one.

    Both contracts are played in the Kingdom; the choice decides which one
    this hand is played in.  The constants are the averages over random hands.
    """
    trix_goodness = (_MEAN_GAPS - trix_gaps(sit.hand)) * 12
    complex_goodness = _MEAN_DANGER - complex_danger(sit.hand)
    return Contract.TRIX if trix_goodness > complex_goodness else Contract.COMPLEX


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
    """
    hand = sit.hand
    out = 0
    shortest = min((hand & s).bit_count() for s in _SUITS)
    for card in cards_of(asked):
        guards = (_below(card) & hand).bit_count()
        over_me = (_above(card) & hand).bit_count()
        need = 5 if card == KING_OF_HEARTS else 4
        if shortest <= 1:
            need -= 1
        if over_me == 0 and guards >= need:
            out |= 1 << card
    return out


# -- COMPLEX play (R-CX-2, R-CX-3) ----------------------------------------------


def _penalty(card: int, sit: Situation) -> int:
    """What ``card`` costs the taker of the trick it falls in (doubled cards cost double)."""
    bit = 1 << card
    value = 10 if bit & DIAMONDS else 0
    if bit & _KH:
        value += 75
    elif bit & QUEENS:
        value += 25
    if bit & (_KH | QUEENS) and any(c == card for c, _ in sit.doubled):
        value += 75 if bit & _KH else 25
    return value


def _doubler(card: int, sit: Situation) -> int | None:
    for c, d in sit.doubled:
        if c == card:
            return d
    return None


def _dump_value(card: int, sit: Situation, taker: int) -> int:
    """What dumping ``card`` on ``taker``'s trick is worth to my team (+ good, - bad)."""
    mine = sit.seat % 2
    pen = _penalty(card, sit)
    doubler = _doubler(card, sit)
    value = pen if taker % 2 != mine else -pen
    if doubler is not None:  # the doubler earns the plain value (R-DBL-4 case 1)
        plain = 75 if card == KING_OF_HEARTS else 25
        value += plain if doubler % 2 == mine else -plain
    return value


def _liability(card: int, sit: Situation) -> int:
    """How likely ``card`` is to win a trick later: unseen lower cards, none above."""
    unseen = sit.unseen
    above = (_above(card) & unseen).bit_count()
    below = (_below(card) & unseen).bit_count()
    if not below:
        return 0
    return below * 2 if above == 0 else max(0, below - 2 * above)


def _trick_winner(sit: Situation) -> tuple[Card, int]:
    trick = sit.trick
    suit = trick[0] // 13
    best = 0
    for i in range(1, len(trick)):
        if trick[i] // 13 == suit and trick[i] > trick[best]:
            best = i
    return trick[best], (sit.leader + best) % 4


def complex_card(sit: Situation) -> Card:
    """The card to play in COMPLEX: duck, take with the highest, shed on opponents.

    Following suit, play the highest card that still loses; when sure to take
    the trick, take it with the highest card that is not a penalty.  Void,
    shed K♥, Queens and diamonds on an opponent's trick, never on the
    partner's (the trick's current winner decides).
    """
    legal = complex_legal_cards(sit.hand, sit.trick)
    if legal & (legal - 1) == 0:
        return _highest(legal)
    if not sit.trick:
        return _lead(sit, legal)
    win_card, winner = _trick_winner(sit)
    later = 3 - len(sit.trick)
    led = sit.trick[0] // 13
    mine = sit.seat % 2
    opponent_wins = winner % 2 != mine
    sure = later == 0 or not (_above(win_card) & sit.unseen)
    if legal & _SUITS[led]:
        below = legal & _below(win_card)
        if below:
            cands = cards_of(below)
            if opponent_wins and sure:
                return max(cands, key=lambda c: (_dump_value(c, sit, winner), c))
            if not opponent_wins:
                return max(cands, key=lambda c: (-_penalty(c, sit), c))
            return max(cands, key=lambda c: (-_penalty(c, sit) if later else 0, c))
        # every card of the suit wins for now: take it with the highest non-penalty card
        cands = cards_of(legal)
        return max(cands, key=lambda c: (-_penalty(c, sit), c))
    # void in the led suit: shed
    cands = cards_of(legal)
    if opponent_wins:
        return max(cands, key=lambda c: (_dump_value(c, sit, winner) + _liability(c, sit), c))
    safe = [c for c in cands if _penalty(c, sit) == 0]
    if safe:
        return max(safe, key=lambda c: (_liability(c, sit), c))
    return min(cands, key=lambda c: (_penalty(c, sit), c))


def _lead(sit: Situation, legal: int) -> Card:
    """Lead the card least likely to win, away from penalties."""
    unseen = sit.unseen
    best: Card | None = None
    best_key: tuple[float, ...] = ()
    for card in cards_of(legal):
        above = (_above(card) & unseen).bit_count()
        below = (_below(card) & unseen).bit_count()
        in_suit = above + below
        win = 1.0 if above == 0 and in_suit else (below + 1) / (in_suit + 1) / (1 + above)
        if not in_suit:
            win = 1.0  # nobody can follow: the trick is mine
        cost = 15 + _penalty(card, sit) + (10 if (1 << card) & DIAMONDS else 0)
        key = (-win * cost, -_penalty(card, sit), -card)
        if best is None or key > best_key:
            best, best_key = card, key
    assert best is not None
    return best


# -- TRIX play (R-TX-2, R-TX-3) -------------------------------------------------


def _beyond(card: int, table: int) -> int:
    """The cards of ``card``'s row that become reachable only through ``card``."""
    suit = _SUITS[card // 13]
    if (1 << card) & _JACKS:
        return suit & ~(1 << card)
    jack = card - card % 13 + 9
    if card > jack:
        return _above(card)
    return _below(card)


def trix_card(sit: Situation) -> Card | None:
    """The card to lay in TRIX, or ``None`` to pass (no legal card, R-TX-3).

    Prefer cards that unlock my own next cards; hold cards that the others
    need (blocking them) while I have other plays; a card with nothing behind
    it in its row (a 2, an Ace) helps nobody and is free to play.
    """
    legal = trix_legal_cards(sit.hand, sit.table)
    if not legal:
        return None
    if legal & (legal - 1) == 0:
        return _highest(legal)
    hand = sit.hand
    others = sit.unseen
    best: Card | None = None
    best_key = (-1e9, 0)
    for card in cards_of(legal):
        after = sit.table | (1 << card)
        opened = playable(after) & ~playable(sit.table) & ~(1 << card)
        behind = _beyond(card, sit.table)
        score = 3.0 * (opened & hand).bit_count()
        score += 1.2 * (behind & hand).bit_count()
        score -= 0.3 * (opened & others).bit_count()
        score -= 0.1 * (behind & others).bit_count()
        key = (score, -card)
        if key > best_key:
            best, best_key = card, key
    return best
