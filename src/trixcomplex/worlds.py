"""Worlds: full states sampled from what a seat knows, for Monte Carlo bots.

:func:`sample_world` deals the cards a seat cannot see to the other seats,
honouring every public fact of the :class:`~trixcomplex.View` (hand sizes,
voids, TRIX passes, revealed doubles, the 7♥ of Kingdom 1's owner), then
replays the deal's public moves on top.  The result is a
:class:`~trixcomplex.MatchState` whose view for that seat is the view it was
sampled from.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(5)))
>>> seen = tc.view(state, 2)
>>> world = tc.sample_world(seen, random.Random(0))
>>> tc.view(world, 2) == seen, world.hand(2) == state.hand(2)
(True, True)
"""

from __future__ import annotations

import random

from .cards import ALL_MASK, Card, cards_of, mask_of, suit_mask
from .errors import IllegalMoveError
from .match import apply
from .moves import Choose, Contract, Deal, Double, Move, Pass, Play, Timeout
from .seats import check_seat
from .state import History, MatchState, Phase
from .views import View
from .views import view as view_of

__all__ = ["sample_world"]

_PLAYING = (Phase.CHOOSE, Phase.DOUBLE, Phase.COMPLEX, Phase.TRIX)


def sample_world(view: View, rng: random.Random) -> MatchState:
    """A full state that ``view.seat`` could be in, given everything it sees.

    Guarantees, for every view built by :func:`~trixcomplex.view` from a
    reachable state (the spectator's view included):

    - it never fails: the hidden cards are dealt by a constraint-respecting
      assignment that checks, before every card, that the rest can still be
      dealt (Hall's condition over the other seats), so no retry is needed;
    - ``view(sample_world(v, rng), v.seat) == v``: the seat's own hand is
      exact, and every other seat gets exactly its hand size, no card of a
      suit it showed out of, no card it cannot hold after a TRIX pass, and
      every card it is known to hold;
    - the randomness comes from ``rng`` only.  With no constraint beyond the
      hand sizes the deal is uniform; with constraints it is close to, but
      not exactly, uniform.

    What the sampled state holds that the view does not fix:

    - the other seats' hands (sampled);
    - in the open doubling window, the other seats' answers: the sample
      always says *nobody else has answered yet* (the seat cannot tell);
    - its ``history``: a synthetic one holding only the current deal — a
      :class:`~trixcomplex.Deal` whose deck gives the sampled hands, then the
      deal's public moves replayed (a ``Choose`` for the contract, each
      doubler's ``Double`` and a ``Timeout`` closing the window, the plays and
      passes).  Earlier deals are not in it (their results and scores are),
      and it is NOT the true history.  Between deals it is empty.

    The world is checked before it is returned: its view for the seat must
    be ``view``.  ``ValueError`` with a one-line reason is raised instead if
    the view cannot be completed (a hand-made view whose facts contradict
    each other); a view of a reachable state always can.
    """
    seat = view.seat
    if seat is not None:
        check_seat(seat)
    if view.phase not in _PLAYING:
        return _base(view, view.phase, view.deal_number, view.owner)

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
    deck = _deck_of(start, rng)

    number = view.deal_number
    owner = view.owner
    if number == 1:
        before_owner = None
    elif number % 2 and owner is not None:
        before_owner = (owner - 1) % 4
    else:
        before_owner = owner
    state = _base(view, Phase.DEAL, number - 1, before_owner)
    try:
        for move in _public_moves(view, deck):
            if move is _CLOSE and state.phase is not Phase.DOUBLE:
                continue  # the doublers' answers closed the window already
            state = apply(state, move)
    except IllegalMoveError as exc:
        raise ValueError(f"inconsistent view: its public moves do not replay: {exc}") from None
    if view_of(state, seat) != view:
        raise ValueError("inconsistent view: no state shows exactly this view")
    return state


def _base(view: View, phase: Phase, number: int, owner: int | None) -> MatchState:
    """A between-deals state with the view's scores and finished deals, no history."""
    return MatchState(
        phase=phase,
        deal_number=number,
        owner=owner,
        contract=None,
        hands=(0, 0, 0, 0),
        turn=None,
        window=None,
        complex=None,
        trix=None,
        scores=view.score.seats,
        results=view.score.deals,
        history=History.EMPTY,
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


def _public_moves(view: View, deck: tuple[Card, ...]) -> list[Move]:
    """The deal's moves: the sampled Deal, then the public moves the view records."""
    moves: list[Move] = [Deal(deck)]
    contract = view.contract
    owner = view.owner
    if view.phase is Phase.CHOOSE or owner is None or contract is None:
        return moves
    if view.deal_number % 2:
        moves.append(Choose(owner, contract))
    if contract is Contract.COMPLEX:
        if view.phase is Phase.DOUBLE:
            if view.seat is not None and view.my_answer is not None:
                moves.append(Double(view.seat, view.my_answer))
            return moves
        by_doubler: dict[int, list[Card]] = {}
        for card, doubler in view.doubled:
            by_doubler.setdefault(doubler, []).append(card)
        moves.extend(Double(d, cards) for d, cards in sorted(by_doubler.items()))
        moves.append(_CLOSE)
        for trick in view.tricks:
            moves.extend(Play((trick.leader + i) % 4, c) for i, c in enumerate(trick.cards))
        if view.leader is not None:
            moves.extend(Play((view.leader + i) % 4, c) for i, c in enumerate(view.trick))
        return moves
    passes = list(view.passes)
    for index, (who, card) in enumerate(view.laid):
        while passes and passes[0][1] == index:
            moves.append(Pass(passes.pop(0)[0]))
        moves.append(Play(who, card))
    moves.extend(Pass(who) for who, _ in passes)
    return moves


_CLOSE = Timeout()
"""Closes the window if the doublers' answers did not (see :func:`_public_moves`)."""
