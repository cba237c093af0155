"""Worlds: full states sampled from what a seat knows, for Monte Carlo bots.

:func:`sample_world` deals the cards a seat cannot see to the other seats,
honouring every public fact of the :class:`~trixcomplex.View` (hand sizes,
voids, TRIX passes, revealed doubles, the 7♥ of Kingdom 1's owner, shown 2s),
then replays the deal's public moves on top, under the view's ruleset.  The result is a
:class:`~trixcomplex.MatchState` whose view for that seat is the view it was
sampled from.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(5)))
>>> seen = tc.view(state, 2)
>>> world = tc.sample_world(seen, random.Random(0))
>>> tc.view(world, 2) == seen, world.hand(2) == state.hand(2)
(True, True)

Every ruleset works the same way:

>>> state = tc.apply(tc.new_match(tc.CLASSIC), tc.Deal.shuffled(random.Random(5)))
>>> state = tc.apply(state, tc.Choose(state.owner, tc.Contract.QUEENS))
>>> world = tc.sample_world(tc.view(state, 1), random.Random(0))
>>> world.ruleset is tc.CLASSIC, world.phase, tc.view(world, 1) == tc.view(state, 1)
(True, <Phase.DOUBLE: 'DOUBLE'>, True)
"""

from __future__ import annotations

import random

from .cards import ALL_CARDS, ALL_MASK, Card, Rank, Suit, cards_of, mask_of, suit_mask
from .engine import History, MatchState, Phase, apply
from .errors import IllegalMoveError, TrixError
from .moves import Choose, Contract, Deal, Double, Move, Pass, Play, Redeal, Timeout
from .rules import SEVEN_OF_HEARTS, owner_before
from .viewcheck import check_view_ranges
from .views import View
from .views import view as view_of

__all__ = ["sample_world"]

_PLAYING = (Phase.CHOOSE, Phase.DOUBLE, Phase.COMPLEX, Phase.TRICKS, Phase.TRIX)
_TWOS = tuple(Card.of(Rank.TWO, suit) for suit in Suit)


def sample_world(view: View, rng: random.Random) -> MatchState:
    """A full state that ``view.seat`` could be in, given everything it sees.

    Guarantees, for every view built by :func:`~trixcomplex.view` from a
    reachable state of any ruleset (the spectator's view included):

    - it never fails: the hidden cards are dealt by a constraint-respecting
      assignment that checks, before every card, that the rest can still be
      dealt (Hall's condition over the other seats), so no retry is needed;
    - ``view(sample_world(v, rng), v.seat) == v``: the seat's own hand is
      exact, and every other seat gets exactly its hand size, no card of a
      suit it showed out of, no card it cannot hold (TRIX passes, R-OPT-2
      discards), and every card it is known to hold (revealed doubles,
      Kingdom 1's 7♥, shown 2s);
    - it plays ``view.ruleset``: the world is built from
      ``new_match(view.ruleset)``'s rules, Kingdoms of
      ``ruleset.deals_per_kingdom`` deals, the owner rotating after each;
    - the randomness comes from ``rng`` only.  With no constraint beyond the
      hand sizes the deal is uniform; with constraints it is close to, but
      not exactly, uniform.

    What the sampled state holds that the view does not fix:

    - the other seats' hands (sampled);
    - in the open doubling window, the other seats' answers: the sample
      always says *nobody else has answered yet* (the seat cannot tell);
    - its ``history``: a synthetic one holding only the current deal number
      — for each redeal of it (R-OPT-8) a made-up deal giving the redealing
      seat four 2s, TRIX and the :class:`~trixcomplex.Redeal`; then a
      :class:`~trixcomplex.Deal` whose deck gives the sampled hands and the
      deal's public moves replayed (a ``Choose`` for the contract if there is
      a choice, each doubler's ``Double`` and a ``Timeout`` closing the
      window, the plays and passes).  Earlier deals are not in it (their
      results and scores are), and it is NOT the true history.  Between
      deals it is empty unless the deal number was redealt.

    The world is checked before it is returned: its view for the seat must
    be ``view`` (whatever its phase).  :class:`~trixcomplex.TrixError` (code
    ``view.inconsistent``, a ``ValueError``) with a one-line reason is raised instead if
    the view cannot be completed (a hand-made view whose facts contradict
    each other); a view of a reachable state always can.
    """
    seat = view.seat
    check_view_ranges(view)
    try:
        if view.phase not in _PLAYING and not view.redeals:
            state = _base(view, view.phase, view.deal_number, view.owner)
        else:
            state = _redealt_deals(view, _before_deal(view), rng)
            if view.phase in _PLAYING:
                state = _current_deal(view, state, rng)
    except IllegalMoveError as exc:
        raise _inconsistent(f"its public moves do not replay: {exc}") from None
    except ValueError as exc:
        raise _inconsistent(str(exc).removeprefix("inconsistent view: ")) from None
    if view_of(state, seat) != view:
        raise _inconsistent("no state shows exactly this view")
    return state


def _inconsistent(reason: str) -> TrixError:
    return TrixError(f"inconsistent view: {reason}", code="view.inconsistent")


def _before_deal(view: View) -> MatchState:
    """The state waiting for the first Deal of the view's deal number (R-SET-2)."""
    number = view.deal_number
    before_owner = owner_before(number, view.owner, view.ruleset, view.score.deals)  # R-MATCH-4
    return _base(view, Phase.DEAL, number - 1, before_owner)


def _redealt_deals(view: View, state: MatchState, rng: random.Random) -> MatchState:
    """Replay one made-up deal per public redeal (R-OPT-8): a deck giving the
    redealing seat four 2s (and in deal 1 the owner 7♥), TRIX, the Redeal."""
    for index, who in enumerate(view.redeals):
        if view.owner is None:
            raise ValueError("inconsistent view: a redeal without a Kingdom owner")
        fixed = {two: who for two in _TWOS}
        if view.deal_number == 1 and index == 0:
            fixed[SEVEN_OF_HEARTS] = view.owner  # it decided the owner (R-MATCH-3)
        state = apply(state, Deal(_deck_with(fixed, rng)))
        if state.phase is Phase.CHOOSE:
            state = apply(state, Choose(view.owner, Contract.TRIX))
        state = apply(state, Redeal(who))
    return state


def _deck_with(fixed: dict[Card, int], rng: random.Random) -> tuple[Card, ...]:
    """A random deck dealing each card of ``fixed`` to its seat."""
    start = [0, 0, 0, 0]
    for card, who in fixed.items():
        start[who] |= 1 << card
    rest = [c for c in ALL_CARDS if c not in fixed]
    rng.shuffle(rest)
    for who in range(4):
        room = 13 - start[who].bit_count()
        start[who] |= mask_of(rest[:room])
        del rest[:room]
    return _deck_of(start, rng)


def _current_deal(view: View, state: MatchState, rng: random.Random) -> MatchState:
    """Deal the sampled hands and replay the deal's public moves on ``state``."""
    seat = view.seat
    played = _played_by(view)
    own = mask_of(view.hand)
    seen = own | played[0] | played[1] | played[2] | played[3]
    if own & (played[0] | played[1] | played[2] | played[3]):
        raise ValueError("inconsistent view: a card is both in the hand and played")
    others = tuple(s for s in range(4) if s != seat)
    if seat is not None and len(view.hand) != view.hand_sizes[seat]:
        raise ValueError(
            f"inconsistent view: seat {seat} holds {len(view.hand)} cards, not its size"
        )
    hands = _deal_hidden(view, others, ALL_MASK & ~seen, rng)
    if seat is not None:
        hands[seat] = own

    start = [hands[s] | played[s] for s in range(4)]
    if any(m.bit_count() != 13 for m in start):
        raise ValueError("inconsistent view: hand sizes and played cards do not make 13 per seat")
    state = apply(state, Deal(_deck_of(start, rng)))
    owner, contract = view.owner, view.contract
    if view.phase is Phase.CHOOSE or owner is None or contract is None:
        return state
    if state.phase is Phase.CHOOSE:
        state = apply(state, Choose(owner, contract))
    if contract is Contract.TRIX:
        for move in _trix_moves(view):
            state = apply(state, move)
        return state
    if state.phase is Phase.DOUBLE:
        if view.phase is Phase.DOUBLE:
            if seat is not None and view.my_answer is not None:
                state = apply(state, Double(seat, view.my_answer))
            return state
        by_doubler: dict[int, list[Card]] = {}
        for card, doubler in view.doubled:
            by_doubler.setdefault(doubler, []).append(card)
        for doubler, cards in sorted(by_doubler.items()):
            state = apply(state, Double(doubler, cards))
        if state.phase is Phase.DOUBLE:  # the doublers' answers did not close it
            state = apply(state, Timeout())
    for trick in view.tricks:
        for i, card in enumerate(trick.cards):
            state = apply(state, Play((trick.leader + i) % 4, card))
    if view.leader is not None:
        for i, card in enumerate(view.trick):
            state = apply(state, Play((view.leader + i) % 4, card))
    return state


def _base(view: View, phase: Phase, number: int, owner: int | None) -> MatchState:
    """A between-deals state with the view's ruleset, scores and finished deals, no history."""
    return MatchState(
        phase=phase,
        deal_number=number,
        owner=owner,
        contract=None,
        hands=(0, 0, 0, 0),
        turn=None,
        deal=None,
        scores=view.score.seats,
        results=view.score.deals,
        history=History.EMPTY,
        ruleset=view.ruleset,
    )


def _played_by(view: View) -> list[int]:
    """The cards each seat has played in this deal (all public)."""
    played = [0, 0, 0, 0]
    for trick in view.tricks:
        for i, card in enumerate(trick.cards):
            played[(trick.leader + i) % 4] |= 1 << card
    if view.leader is not None:
        for i, card in enumerate(view.trick):
            played[(view.leader + i) % 4] |= 1 << card
    for who, card in view.laid:
        played[who] |= 1 << card
    return played


def _deal_hidden(view: View, others: tuple[int, ...], unseen: int, rng: random.Random) -> list[int]:
    """Deal the ``unseen`` cards to ``others``, respecting every public fact."""
    hands = [0, 0, 0, 0]
    caps: list[int] = []
    forced_all = 0
    for who in others:
        forced = mask_of(view.known_holdings[who])
        if forced & ~unseen or forced & forced_all:
            raise ValueError(f"inconsistent view: seat {who}'s known holdings are not unseen")
        forced_all |= forced
        hands[who] = forced
        caps.append(view.hand_sizes[who] - forced.bit_count())
    if view.seat is not None and mask_of(view.known_holdings[view.seat]) & ~mask_of(view.hand):
        raise ValueError(
            f"inconsistent view: seat {view.seat}'s known holdings are not in its hand"
        )
    forbidden = [_forbidden(view, who) for who in others]
    for i, who in enumerate(others):
        if hands[who] & forbidden[i]:
            raise ValueError(f"inconsistent view: seat {who} must hold a card it cannot hold")

    free = list(cards_of(unseen & ~forced_all))
    rng.shuffle(free)
    classes = [_class_of(card, forbidden) for card in free]
    counts = [0] * (1 << len(others))
    for k in classes:
        counts[k] += 1
    if not _feasible(counts, caps):
        raise ValueError("inconsistent view: the unseen cards cannot be dealt to the other seats")
    for card, k in zip(free, classes, strict=True):
        counts[k] -= 1
        candidates = [i for i in range(len(others)) if k >> i & 1 and caps[i] > 0]
        while True:
            i = _weighted_pick(candidates, caps, rng)
            caps[i] -= 1
            if _feasible(counts, caps):
                break
            caps[i] += 1
            candidates.remove(i)
        hands[others[i]] |= 1 << card
    return hands


def _forbidden(view: View, who: int) -> int:
    mask = mask_of(view.cannot_hold[who])
    for suit in view.voids[who]:
        mask |= suit_mask(suit)
    return mask


def _class_of(card: Card, forbidden: list[int]) -> int:
    """The set (as bits over the other seats) of seats that may hold ``card``."""
    k = 0
    for i, mask in enumerate(forbidden):
        if not mask >> card & 1:
            k |= 1 << i
    return k


def _feasible(counts: list[int], caps: list[int]) -> bool:
    """Hall's condition: the cards can fill every seat's remaining room exactly.

    ``counts[k]`` cards may go to the seats in the bit set ``k``.  A perfect
    assignment exists iff the totals match and, for every set of seats ``S``,
    the cards allowed only in ``S`` fit into ``S``'s room.
    """
    if sum(counts) != sum(caps) or min(caps, default=0) < 0:
        return False
    n = len(caps)
    for group in range(1 << n):
        room = sum(caps[i] for i in range(n) if group >> i & 1)
        need = sum(c for k, c in enumerate(counts) if c and not k & ~group)
        if need > room:
            return False
    return True


def _weighted_pick(candidates: list[int], caps: list[int], rng: random.Random) -> int:
    """A candidate seat, chosen with probability proportional to its remaining room."""
    if not candidates:
        raise AssertionError("Hall's condition held, so some seat must fit the card")
    return rng.choices(candidates, weights=[caps[i] for i in candidates])[0]


def _deck_of(start: list[int], rng: random.Random) -> tuple[Card, ...]:
    """A deck whose deal (R-MATCH-2) gives each seat the cards ``start[seat]``."""
    hands = [list(cards_of(m)) for m in start]
    for hand in hands:
        rng.shuffle(hand)
    return tuple(hands[i % 4][i // 4] for i in range(52))


def _trix_moves(view: View) -> list[Move]:
    """The TRIX deal's plays and passes, interleaved as the view records them."""
    moves: list[Move] = []
    passes = list(view.passes)
    for index, (who, card) in enumerate(view.laid):
        while passes and passes[0][1] == index:
            moves.append(Pass(passes.pop(0)[0]))
        moves.append(Play(who, card))
    moves.extend(Pass(who) for who, _ in passes)
    return moves
