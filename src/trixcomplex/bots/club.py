"""RuleBot version 2: the card sense of a strong club player, on top of :mod:`.tactics`.

Version 1 (:mod:`.tactics`) counts the cards gone.  Version 2 also reads
what the table has shown, all of it public and in the seat's view: the
suits each seat has shown out of (R-CX-2), the cards a seat cannot hold,
and the doubles revealed when the window closed (R-DBL-3).  Each tactic is
one function below; :func:`club_card` and :func:`double_by_length` put
them together and name the tactic that decided, for
:func:`trixcomplex.bots.explain`.

The examples build positions with :func:`position` (what one seat knows,
written in cards):

>>> sit = position(1, "KH 2C 9C", trick="AS", leader=0)
>>> str(club_card(sit)[0]), club_card(sit)[1]
('KH', 'shed_on_opponent')
"""

from __future__ import annotations

from attrs import frozen

from ..core.cards import ALL_MASK, Card, Suit, cards_of, mask_of, parse_card
from ..core.engine import Phase
from ..core.moves import Contract
from ..core.rules import QUEENS, trick_legal_cards
from ..core.rulesets import PARTNERSHIP, Ruleset
from .situation import _ABOVE, _BELOW, _KH, _SUITS, Situation, _highest
from .trick_play import (
    _classic_lead_key,
    _dump_value,
    _Facts,
    _facts,
    _lead_key,
    _liability,
    _trick_winner,
    _win_chance,
)

__all__ = [
    "TACTIC_WEIGHTS",
    "TacticWeights",
    "club_card",
    "club_lead",
    "double_by_length",
    "endplay_target",
    "live_doubles",
    "opponents_void",
    "partner_void",
    "position",
    "shed_toward_diamond_void",
    "sure_winner",
    "under_doubled_queen",
]

_DIAMONDS = _SUITS[Suit.DIAMONDS]


@frozen
class TacticWeights:
    """RuleBot version 2's thresholds and lead bonuses (fitted: :data:`TACTIC_WEIGHTS`).

    - ``double_length``: double a doublable card in a suit of at least this many cards …
    - ``double_short``: … or with a side suit of at most this many cards to become void in;
    - ``shed_diamonds``: the partner winning and I void, shed a diamond when I hold at
      most this many and K♥ or a Queen (to become void in diamonds);
    - ``partner_void``: what a lead into the partner's void is worth (points);
    - ``attack``: what a lead under an opponent's doubled card is worth (points);
    - ``own_double``: what a lead in the suit of my side's doubled card costs (points);
    - ``short_suit``: holding K♥ or a Queen, what each card of a suit costs a lead in it
      (points: lead from short suits, to become void and shed them).
    """

    double_length: int = 4
    double_short: int = 1
    shed_diamonds: int = 2
    partner_void: float = 10.0
    attack: float = 10.0
    own_double: float = 20.0
    short_suit: float = 0.0


# -- fitted by benchmarks/fit_weights.py --tactics (training seed 11, 200 matches per
# ruleset and candidate, against RuleBot version 1; the run: benchmarks/fit_tactics.jsonl),
# then refitted from there (--from-fitted, training seed 13, 300 matches per ruleset and
# candidate; the run: benchmarks/fit_tactics_13.jsonl)
TACTIC_WEIGHTS = TacticWeights(
    double_length=3, double_short=0, shed_diamonds=3, attack=10.0, short_suit=3.0
)
"""RuleBot version 2's weights, fitted by simulation (``benchmarks/fit_weights.py
--tactics``); ``TacticWeights()`` are the first, hand-set ones."""


def position(
    seat: int,
    hand: str,
    trick: str = "",
    leader: int = 0,
    *,
    gone: str = "",
    out: str | None = None,
    voids: dict[int, str] | None = None,
    doubled: str = "",
    contract: Contract = Contract.COMPLEX,
    ruleset: Ruleset = PARTNERSHIP,
    phase: Phase = Phase.COMPLEX,
) -> Situation:
    """A hand-built :class:`~trixcomplex.bots.tactics.Situation` of a trick contract,
    for examples and tests.

    ``hand``, ``trick`` and ``gone`` (the cards of the finished tricks) are cards
    separated by spaces; or ``out`` lists the cards still in the other hands, and
    every other card is gone.  ``voids`` maps a seat to the suits it showed out of
    (``{2: "S"}``); ``doubled`` lists ``card/doubler`` pairs (``"QS/3"``).  A seat
    holds as many cards as I do, one fewer if it played to the trick.

    >>> sorted(str(c) for c in cards_of(position(0, "AS 2H").hand))
    ['2H', 'AS']
    """
    cards = [parse_card(c) for c in trick.split()]
    pairs = tuple((parse_card(c), int(d)) for c, d in (p.split("/") for p in doubled.split()))
    suit_of = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS}
    void = [0, 0, 0, 0]
    for s, suits in (voids or {}).items():
        for letter in suits:
            void[s] |= _SUITS[suit_of[letter.upper()]]
    known = [0, 0, 0, 0]
    played = mask_of(cards) | mask_of(parse_card(c) for c in gone.split())
    for card, doubler in pairs:
        if not played & (1 << card) and doubler != seat:
            known[doubler] |= 1 << card
    mine = mask_of(parse_card(c) for c in hand.split())
    if out is not None:
        played = ALL_MASK & ~mine & ~mask_of(parse_card(c) for c in out.split())
    size = mine.bit_count()
    before = {(leader + i) % 4 for i in range(len(cards))}
    sizes = tuple(size - (s in before) for s in range(4))
    return Situation(
        seat=seat, phase=phase, owner=leader, hand=mine, gone=played, trick=tuple(cards),
        leader=leader, doubled=pairs, table=0, hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3]),
        contract=contract, ruleset=ruleset, remaining=ruleset.contracts,
        void_suits=(void[0], void[1], void[2], void[3]),
        known=(known[0], known[1], known[2], known[3]),
    )  # fmt: skip


# -- what the table has shown ------------------------------------------------------


def _opponents(sit: Situation) -> list[int]:
    return [s for s in range(4) if not sit.ally(s)]


def opponents_void(sit: Situation, suit: int) -> bool:
    """Whether every opponent is void in ``suit``: never lead it (they shed penalty
    cards on my side's trick, R-CX-2, R-CX-5).

    >>> opponents_void(position(0, "2S 3H", voids={1: "S", 3: "S"}), Suit.SPADES)
    True
    >>> opponents_void(position(0, "2S 3H", voids={1: "S"}), Suit.SPADES)
    False
    """
    return all(not sit.may_hold(s) & _SUITS[suit] for s in _opponents(sit))


def partner_void(sit: Situation, suit: int) -> bool:
    """Whether my partner is void in ``suit`` and an opponent is not: a lead into it lets
    the partner shed a penalty card on the opponent taking it (partnership only).

    >>> partner_void(position(0, "2S 3H", voids={2: "S"}), Suit.SPADES)
    True
    >>> from trixcomplex.core.rulesets import CLASSIC
    >>> partner_void(position(0, "2S 3H", voids={2: "S"}, ruleset=CLASSIC), Suit.SPADES)
    False
    """
    if not sit.ruleset.partnership:
        return False
    partner = (sit.seat + 2) % 4
    return not sit.may_hold(partner) & _SUITS[suit] and not opponents_void(sit, suit)


def sure_winner(sit: Situation, card: int, seat: int) -> bool:
    """Whether ``card``, played by ``seat``, will surely take the trick on the table:
    no seat still to play after me may hold a higher card of the led suit (its voids
    count).

    >>> sure_winner(position(1, "QS 2S", trick="TS", leader=0, voids={2: "S", 3: "S"}),
    ...             parse_card("TS"), 0)
    True
    >>> sure_winner(position(1, "QS 2S", trick="TS", leader=0), parse_card("TS"), 0)
    False
    """
    later = [(sit.leader + i) % 4 for i in range(len(sit.trick) + 1, 4)]
    return not any(sit.may_hold(s) & _ABOVE[card] for s in later)


def live_doubles(sit: Situation) -> list[tuple[int, int]]:
    """The doubled cards not played yet, ``(card, doubler)`` (R-DBL-3: doubles are public).

    >>> [(str(Card(c)), d) for c, d in live_doubles(position(0, "2S", doubled="QS/1"))]
    [('QS', 1)]
    """
    return [(int(c), d) for c, d in sit.doubled if not sit.gone & (1 << c)]


def endplay_target(sit: Situation, card: int) -> int | None:
    """The opponent's doubled card that leading ``card`` forces its doubler to win, if any:
    it is the last card of its suit out, and ``card`` is lower (R-DBL-4 case 2: the
    doubler pays double, and I, the leader, earn its value).

    >>> str(Card(endplay_target(position(0, "2S 5H", gone="3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
    ...                                  doubled="QS/1"), parse_card("2S"))))
    'QS'
    """
    for doubled, doubler in live_doubles(sit):
        if sit.ally(doubler) or doubled // 13 != card // 13 or card > doubled:
            continue
        if sit.unseen & _SUITS[card // 13] == 1 << doubled:
            return doubled
    return None


# -- doubling (R-DBL-1 … R-DBL-4) ---------------------------------------------------


def double_by_length(sit: Situation, asked: int, w: TacticWeights = TACTIC_WEIGHTS) -> int:
    """The doublable cards worth doubling: by the suit's length and the voids to come.

    A doubled card pays its doubler when another seat takes it and costs double
    when he takes it himself (R-DBL-4).  A long suit keeps it under the others'
    higher cards until they are gone; a short side suit soon lets me shed it on
    a void.  Nothing above it in my hand (I might have to win with it).  In
    Queens (only the Queens count) a suit one card shorter is enough.

    >>> str(Card(double_by_length(position(0, "QS 9S 5S 2S KD 7D 3D 2D 8C 6C 4C 3C 2C"),
    ...                           1 << parse_card("QS")).bit_length() - 1))
    'QS'
    """
    hand = sit.hand
    out = 0
    for card in cards_of(asked):
        suit = _SUITS[card // 13]
        length = (hand & suit).bit_count()
        side = min((hand & s).bit_count() for s in _SUITS if s != suit)
        need = w.double_length - (1 if sit.contract is Contract.QUEENS else 0)
        if not hand & _ABOVE[card] and (length >= need or side <= w.double_short):
            out |= 1 << card
    return out


# -- following suit -----------------------------------------------------------------


def under_doubled_queen(sit: Situation, legal: int) -> int | None:
    """Forced to win, win below a later opponent's doubled Queen of the led suit.

    Every card I may play beats the trick so far; an opponent still to play
    doubled this suit's Queen, and would drop it on a card above it
    (R-DBL-4 case 1: I pay double).  A card below the Queen leaves him the
    choice of winning it himself.

    >>> str(Card(under_doubled_queen(position(1, "JS KS", trick="9S", leader=0,
    ...                                       doubled="QS/2"), position(1, "JS KS").hand)))
    'JS'
    """
    led = sit.trick[0] // 13
    later = {(sit.leader + i) % 4 for i in range(len(sit.trick) + 1, 4)}
    for doubled, doubler in live_doubles(sit):
        if doubler in later and not sit.ally(doubler) and doubled // 13 == led:
            under = legal & _BELOW[doubled]
            if under:
                return _highest(under)
    return None


# -- void: shedding -----------------------------------------------------------------


def shed_toward_diamond_void(
    sit: Situation, legal: int, w: TacticWeights = TACTIC_WEIGHTS
) -> int | None:
    """The partner winning and I void: shed a diamond to become void in diamonds,
    holding K♥ or a Queen (shed on the opponents' diamond tricks later).

    A diamond on the partner's trick costs my side 10; K♥ (75) or a Queen (25)
    shed on an opponent's trick is worth far more.

    >>> str(Card(shed_toward_diamond_void(position(2, "3D 7D KH 4C 9C", trick="9S 2S", leader=0),
    ...                                   position(2, "3D 7D KH 4C 9C").hand)))
    '7D'
    """
    diamonds = sit.hand & _DIAMONDS
    holding = sit.hand & (_KH | QUEENS) & ~_DIAMONDS
    if diamonds and holding and diamonds.bit_count() <= w.shed_diamonds and legal & diamonds:
        return _highest(legal & diamonds)
    return None


def _above_doubled(sit: Situation) -> int:
    """My cards above an opponent's live doubled card in its suit (keep none of them)."""
    cards = 0
    for doubled, doubler in live_doubles(sit):
        if not sit.ally(doubler):
            cards |= sit.hand & _ABOVE[doubled]
    return cards


# -- leading ------------------------------------------------------------------------


def _suit_facts(sit: Situation, suit: int, facts: _Facts) -> tuple[bool, bool, int]:
    """For a lead in ``suit``: whether every opponent is void in it, whether the partner
    is (:func:`partner_void`), and the costliest penalty card a void opponent may shed."""
    if opponents_void(sit, suit):
        return True, False, 0
    pen = facts.penalty
    dump = max(
        (pen[c] for s in _opponents(sit) if not sit.may_hold(s) & _SUITS[suit]
         for c in cards_of(sit.may_hold(s) & facts.costs.penalty_cards)),
        default=0,
    )  # fmt: skip
    return False, partner_void(sit, suit), dump


def _lead_value(
    sit: Situation,
    card: int,
    facts: _Facts,
    w: TacticWeights,
    suited: tuple[bool, bool, int],
    live: list[tuple[int, int]],
) -> tuple[float, str]:
    """What the tactics of version 2 add to a lead of ``card`` (``suited``: the
    :func:`_suit_facts` of its suit; ``live``: the live doubles), and the tactic that
    weighs most in it."""
    suit = card // 13
    pen = facts.penalty
    value, why = 0.0, "lead_low"
    all_void, partner, dump = suited
    if all_void:
        return -1000.0, "avoid_opponents_voids"
    win = _win_chance(card, sit.unseen)
    if dump:
        value -= win * dump
        why = "safe_to_take"
    if w.short_suit and sit.hand & (_KH | QUEENS) & ~_SUITS[suit]:
        value -= w.short_suit * (sit.hand & _SUITS[suit]).bit_count()
        why = "lead_short_suit"
    if partner:
        value += (1 - win) * w.partner_void
        why = "lead_into_partner_void"
    for doubled, doubler in live:
        if doubled // 13 != suit:
            continue
        if sit.ally(doubler):
            value -= w.own_double
            why = "avoid_own_doubled_suit"
        elif card < doubled:
            if endplay_target(sit, card) is not None:
                value += 2 * pen[doubled]
                why = "endplay_doubled_card"
            else:
                value += w.attack
                why = "attack_doubled_from_below"
    return value, why


def club_lead(sit: Situation, legal: int, w: TacticWeights = TACTIC_WEIGHTS) -> tuple[int, str]:
    """The lead: version 1's expected cost of each card, plus the void and doubled-card
    tactics (:func:`opponents_void`, :func:`partner_void`, :func:`endplay_target` …).

    >>> card, why = club_lead(position(0, "2S 3H", voids={1: "S", 3: "S"}),
    ...                       position(0, "2S 3H").hand)
    >>> str(Card(card)), why
    ('3H', 'lead_low')
    """
    facts = _facts(sit)
    unseen = sit.unseen
    base = _lead_key if facts.standard else _classic_lead_key
    best: tuple[tuple[float, ...], int, str] | None = None
    live = live_doubles(sit)
    suits: dict[int, tuple[bool, bool, int]] = {}
    for card in cards_of(legal):
        key = base(sit, card, facts, unseen)
        suit = card // 13
        if suit not in suits:
            suits[suit] = _suit_facts(sit, suit, facts)
        extra, why = _lead_value(sit, card, facts, w, suits[suit], live)
        scored = ((key[0] + extra, *key[1:]), card, why)
        if best is None or scored[0] > best[0]:
            best = scored
    assert best is not None
    return best[1], best[2]


# -- the card -----------------------------------------------------------------------


def club_card(sit: Situation, w: TacticWeights = TACTIC_WEIGHTS) -> tuple[Card, str]:
    """Version 2's card in a trick contract, and the tactic that chose it.

    Following suit: duck with the highest losing card; under an opponent's
    :func:`sure_winner` drop the card that costs him most; forced to win, win
    :func:`under_doubled_queen` or with the highest card.  Void: shed on an
    opponent's trick what costs him most, first the cards above his doubled
    card; on the partner's trick :func:`shed_toward_diamond_void` or a safe
    card.  Leading: :func:`club_lead`.

    >>> card, why = club_card(position(1, "QS 2S 9S", trick="KS", leader=0,
    ...                                voids={2: "S", 3: "S"}))
    >>> str(card), why
    ('QS', 'drop_under_sure_winner')
    """
    facts = _facts(sit)
    legal = trick_legal_cards(sit.hand, sit.trick, facts.rules)
    if legal & (legal - 1) == 0:
        return _highest(legal), "forced"
    if not sit.trick:
        card, why = club_lead(sit, legal, w)
        return Card(card), why
    pen = facts.penalty
    win_card, winner = _trick_winner(sit)
    later = 3 - len(sit.trick)
    opponent_wins = not sit.ally(winner)
    unseen = sit.unseen
    if legal & _SUITS[sit.trick[0] // 13]:
        below = legal & _BELOW[win_card]
        if below:
            cands = cards_of(below)
            if opponent_wins and sure_winner(sit, win_card, winner):
                best = max(cands, key=lambda c: (_dump_value(c, sit, winner, facts), c))
                return best, "drop_under_sure_winner"
            if not opponent_wins:
                return max(cands, key=lambda c: (-pen[c], c)), "duck"
            return max(cands, key=lambda c: (-pen[c] if later else 0, c)), "duck"
        under = under_doubled_queen(sit, legal)
        if under is not None:
            return Card(under), "under_doubled_queen"
        return max(cards_of(legal), key=lambda c: (-pen[c], c)), "take_high"
    cands = cards_of(legal)
    if opponent_wins:
        scale = facts.deal_cost / 500
        above = _above_doubled(sit)
        best = max(
            cands,
            key=lambda c: (
                _dump_value(c, sit, winner, facts)
                + scale * _liability(c, unseen)
                + (w.attack if above & (1 << c) else 0),
                c,
            ),
        )
        return best, "shed_above_doubled" if above & (1 << best) else "shed_on_opponent"
    diamond = shed_toward_diamond_void(sit, legal, w)
    if diamond is not None:
        return Card(diamond), "shed_toward_diamond_void"
    safe = [c for c in cands if pen[c] == 0]
    if safe:
        return max(safe, key=lambda c: (_liability(c, unseen), c)), "shed_safe_on_partner"
    return min(cands, key=lambda c: (pen[c], c)), "shed_least_on_partner"
