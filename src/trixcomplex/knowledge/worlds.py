"""Worlds: full states sampled from what a seat knows, for Monte Carlo bots.

:func:`sample_world` deals the cards a seat cannot see to the other seats,
honouring every public fact of the :class:`~trixcomplex.View` (hand sizes,
voids, TRIX passes, revealed doubles, the 7♥ of Kingdom 1's owner, shown 2s),
then puts the deal's public moves on top, under the view's ruleset: the
deal's opening (the Deal, the contract, the doubles) goes through the engine,
the cards played so far are built at once from what the view shows.  The result is a
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
from collections.abc import Sequence
from math import comb

from ..core.cards import ALL_CARDS, ALL_MASK, Card, Rank, Suit, cards_of, mask_of, suit_mask
from ..core.engine import History, MatchState, Phase, TrickDeal, TrixDeal, apply
from ..core.errors import IllegalMoveError
from ..core.moves import PASSES, PLAYS, Choose, Contract, Deal, Double, Move, Redeal, Timeout
from ..core.rules import SEVEN_OF_HEARTS, owner_before
from .view_ranges import check_view_ranges, inconsistent
from .views import View
from .views import view as view_of

__all__ = ["sample_world"]

_PLAYING = (Phase.CHOOSE, Phase.DOUBLE, Phase.COMPLEX, Phase.TRICKS, Phase.TRIX)
_BIT = tuple(1 << i for i in range(52))  # faster than ``1 << card`` on the Card int subclass


_TWOS = tuple(Card.of(Rank.TWO, suit) for suit in Suit)


def sample_world(view: View, rng: random.Random) -> MatchState:
    """A full state that ``view.seat`` could be in, given everything it sees.

    Guarantees, for every view built by :func:`~trixcomplex.view` from a
    reachable state of any ruleset (the spectator's view included):

    - it never fails: the deals of the hidden cards that respect every
      constraint are counted and one of them drawn, so no retry is needed;
    - ``view(sample_world(v, rng), v.seat) == v``: the seat's own hand is
      exact, and every other seat gets exactly its hand size, no card of a
      suit it showed out of, no card it cannot hold (TRIX passes, R-OPT-2
      discards), and every card it is known to hold (revealed doubles,
      Kingdom 1's 7♥, shown 2s);
    - it plays ``view.ruleset``: the world is built from
      ``new_match(view.ruleset)``'s rules, Kingdoms of
      ``ruleset.deals_per_kingdom`` deals, the owner rotating after each;
    - the randomness comes from ``rng`` only, and the hidden cards are dealt
      exactly uniformly: every deal of them consistent with the view is
      equally likely (the rooms and the allowed seats of each card are
      counted, not guessed).

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

    What depends on the view alone (the state before the deal, the cards
    played, the classes of the hidden cards and the count of their deals) is
    worked out once and kept for the last few views sampled (a small cache
    keyed by the view's value), so many worlds of one view in a row (a Monte
    Carlo decision) cost less than the first; the worlds drawn are the same
    either way.
    """
    plan = _PLANS.plan(view)
    try:
        state = plan.sample(rng)
    except IllegalMoveError as exc:
        raise inconsistent(f"its public moves do not replay: {exc}") from None
    except ValueError as exc:
        raise inconsistent(str(exc).removeprefix("inconsistent view: ")) from None
    if view_of(state, view.seat) != view:
        raise inconsistent("no state shows exactly this view")
    return state


class _Plan:
    """What :func:`sample_world` needs of one view that no draw changes, worked out once.

    The state before the deal, the cards each seat has played, the hidden
    cards' classes and the count of their consistent deals (the split), the
    deal in progress and its moves: a Monte Carlo bot samples many worlds
    from the same view, and only the drawing and the building are done for
    each (the plan of the last view is kept).  Raises ``ValueError`` for a
    view whose facts contradict each other.
    """

    __slots__ = (
        "before", "choose", "deal", "doubles", "fixed", "forced", "moves", "own", "played",
        "split", "view",
    )  # fmt: skip

    def __init__(self, view: View) -> None:
        self.view = view
        self.fixed: MatchState | None = None
        if view.phase not in _PLAYING and not view.redeals:
            self.fixed = _base(view, view.phase, view.deal_number, view.owner)
            return
        self.before = _before_deal(view)
        if view.phase not in _PLAYING:
            return
        seat = view.seat
        played = _played_by(view)
        own = mask_of(view.hand)
        seen = own | played[0] | played[1] | played[2] | played[3]
        if own & (played[0] | played[1] | played[2] | played[3]):
            raise ValueError("inconsistent view: a card is both in the hand and played")
        if seat is not None and len(view.hand) != view.hand_sizes[seat]:
            raise ValueError(
                f"inconsistent view: seat {seat} holds {len(view.hand)} cards, not its size"
            )
        if any(view.hand_sizes[s] + played[s].bit_count() != 13 for s in range(4)):
            # every world gives each seat its hand size (the split fills the rooms exactly)
            raise ValueError(
                "inconsistent view: hand sizes and played cards do not make 13 per seat"
            )
        self.played, self.own = played, own
        self.forced, self.split = _hidden(view, ALL_MASK & ~seen)
        self.moves: list[Move] = []
        self.deal: TrickDeal | TrixDeal | None = None
        self.choose: Choose | None = None
        self.doubles: list[Double] = []
        owner, contract = view.owner, view.contract
        if owner is None or contract is None or view.phase is Phase.CHOOSE:
            return
        self.choose = Choose(owner, contract)
        if view.phase is Phase.DOUBLE:
            if seat is not None and view.my_answer is not None:
                self.doubles = [Double(seat, view.my_answer)]
            return
        by_doubler: dict[int, list[Card]] = {}
        for card, doubler in view.doubled:
            by_doubler.setdefault(doubler, []).append(card)
        self.doubles = [Double(doubler, cards) for doubler, cards in sorted(by_doubler.items())]
        self.moves, self.deal = _cards_played(view)

    def sample(self, rng: random.Random) -> MatchState:
        """A world drawn from ``rng`` (the redeals' decks, then the hidden hands)."""
        if self.fixed is not None:
            return self.fixed
        view = self.view
        state = _redealt_deals(view, self.before, rng) if view.redeals else self.before
        if view.phase in _PLAYING:
            state = self._current_deal(state, rng)
        return state

    def _current_deal(self, state: MatchState, rng: random.Random) -> MatchState:
        """Deal the sampled hands and replay the deal's public moves on ``state``."""
        view = self.view
        seat = view.seat
        hands = self.split.draw(self.forced, rng)
        if seat is not None:
            hands[seat] = self.own
        played = self.played
        state = apply(state, _deck_of([hands[s] | played[s] for s in range(4)]))
        if self.choose is None:  # choosing, or no contract known
            return state
        if state.phase is Phase.CHOOSE:
            state = apply(state, self.choose)
        if state.phase is Phase.DOUBLE:
            for double in self.doubles:
                state = apply(state, double)
            if view.phase is Phase.DOUBLE:
                return state
            if state.phase is Phase.DOUBLE:  # the doublers' answers did not close it
                state = apply(state, _TIMEOUT)
        if not self.moves or self.deal is None:
            return state
        return MatchState(
            phase=state.phase,
            deal_number=state.deal_number,
            owner=state.owner,
            contract=state.contract,
            hands=(hands[0], hands[1], hands[2], hands[3]),
            turn=view.turn,
            deal=self.deal,
            scores=state.scores,
            results=state.results,
            history=state.history.extend(self.moves),
            ruleset=state.ruleset,
        )


_TIMEOUT = Timeout()


class _Plans:
    """The plans of the views sampled last: a bounded cache keyed by the view's value.

    A plan is a pure function of its (frozen) view, so a plan found here is the
    one :class:`_Plan` would build again: what is drawn never depends on the
    cache.  At most ``size`` views with their plans, newest first.  The view
    asked last is found by identity (a Monte Carlo decision asks with one
    view many times in a row), any other by equality (cheaper than hashing a
    view) once its ranges are checked, so an equal view of other types (seat
    ``True`` for 1) is refused as before.  Concurrent callers may at worst
    plan a view twice.
    """

    __slots__ = ("_kept", "_size")

    def __init__(self, size: int) -> None:
        self._size = size
        self._kept: list[tuple[View, _Plan]] = []  # newest first

    def plan(self, view: View) -> _Plan:
        """The plan of ``view``; raises :class:`~trixcomplex.TrixError` for a view out of
        range or whose facts contradict each other."""
        kept = self._kept
        if kept and kept[0][0] is view:
            return kept[0][1]
        check_view_ranges(view)  # every new view object: an equal one may differ in type
        number, sizes, trick = view.deal_number, view.hand_sizes, view.trick
        for kept_view, kept_plan in kept:  # cheap fields first: two views seldom share them
            if (
                kept_view.deal_number == number
                and kept_view.hand_sizes == sizes
                and kept_view.trick == trick
                and kept_view == view
            ):
                plan = kept_plan
                break
        else:
            plan = _planned(view)
        kept.insert(0, (view, plan))
        del kept[self._size :]
        return plan


def _planned(view: View) -> _Plan:
    """The plan of ``view``, or :class:`~trixcomplex.TrixError` if its facts contradict
    each other."""
    try:
        return _Plan(view)
    except ValueError as exc:
        raise inconsistent(str(exc).removeprefix("inconsistent view: ")) from None


_PLANS = _Plans(size=4)
"""The plans of the views sampled last (a bot samples many worlds of one view in a row)."""


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
        state = apply(state, _deck_with(fixed, rng))
        if state.phase is Phase.CHOOSE:
            state = apply(state, Choose(view.owner, Contract.TRIX))
        state = apply(state, Redeal(who))
    return state


def _deck_with(fixed: dict[Card, int], rng: random.Random) -> Deal:
    """A random deck dealing each card of ``fixed`` to its seat."""
    start = [0, 0, 0, 0]
    for card, who in fixed.items():
        start[who] |= _BIT[card]
    rest = [c for c in ALL_CARDS if c not in fixed]
    rng.shuffle(rest)
    for who in range(4):
        room = 13 - start[who].bit_count()
        start[who] |= mask_of(rest[:room])
        del rest[:room]
    return _deck_of(start)


def _cards_played(view: View) -> tuple[list[Move], TrickDeal | TrixDeal]:
    """The view's plays and passes of the deal in progress, and the deal they make.

    The state is built at once rather than replayed move by move: the deal in
    progress is exactly what the view shows (the trick deal's leader, trick,
    tricks, doubles and points; the TRIX table and finishing order), the hands
    are the sampled ones and the history gets the moves as one node.  The
    final check of :func:`sample_world` (the world's view is ``view``) covers it.
    """
    if view.contract is Contract.TRIX:
        return _trix_moves(view), TrixDeal(mask_of(view.table), view.finishing_order)
    moves: list[Move] = []
    plays = _PLAYS
    for trick in view.tricks:
        first, second, third, fourth = trick.cards
        by = trick.leader
        moves += (
            plays[by][first],
            plays[by + 1][second],
            plays[by + 2][third],
            plays[by + 3][fourth],
        )
    leader = view.leader
    if leader is None:
        raise ValueError("inconsistent view: a trick deal with nobody to lead")
    moves.extend(plays[leader + i][card] for i, card in enumerate(view.trick))
    return moves, TrickDeal(leader, view.trick, view.tricks, view.doubled, view.points)


_PLAYS = tuple(PLAYS[seat % 4] for seat in range(7))
"""``_PLAYS[seat][card]``: the engine's interned ``Play(seat % 4, card)`` (``moves.PLAYS``;
seat up to 6, so that a trick's leader plus its place needs no ``% 4``)."""


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
            played[(trick.leader + i) % 4] |= _BIT[card]
    if view.leader is not None:
        for i, card in enumerate(view.trick):
            played[(view.leader + i) % 4] |= _BIT[card]
    for who, card in view.laid:
        played[who] |= _BIT[card]
    return played


def _hidden(view: View, unseen: int) -> tuple[list[int], _Split]:
    """How the ``unseen`` cards go to the other seats: the cards each is known to hold,
    and the split of the rest respecting every public fact."""
    others = tuple(s for s in range(4) if s != view.seat)
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

    free = unseen & ~forced_all
    by_class: dict[int, tuple[Card, ...]] = {}
    if not any(forbidden):  # every seat may hold every card: one class
        if free:
            by_class[(1 << len(others)) - 1] = cards_of(free)
        return hands, _Split(by_class, caps, others)
    for k in range(1 << len(others)):  # the cards exactly the seats in ``k`` may hold
        cards = free
        for i, mask in enumerate(forbidden):
            cards &= ~mask if k >> i & 1 else mask
        if cards:
            by_class[k] = cards_of(cards)
    return hands, _Split(by_class, caps, others)


def _forbidden(view: View, who: int) -> int:
    mask = mask_of(view.cannot_hold[who])
    for suit in view.voids[who]:
        mask |= suit_mask(suit)
    return mask


_Rooms = tuple[int, ...]


class _Split:
    """Deal the cards to the seats, every consistent deal exactly equally likely.

    ``by_class[k]`` are the cards that may go to the seats in the bit set
    ``k`` (bits index ``caps``); seat ``i`` takes exactly ``caps[i]`` cards.
    A deal is a split of each class's count among its seats, then which cards
    go where inside the class.  The number of deals that complete each
    partial split is counted (memoised over the rooms left, once for all the
    draws of a view), each class's split drawn with probability proportional
    to it, and the class's cards shuffled and cut by the split: so each
    consistent deal has probability one over their number.  The largest class
    goes last, where its split is forced (it must fill the rooms left).
    Raises ``ValueError`` if no deal is consistent.
    """

    __slots__ = ("caps", "groups", "last", "memo", "n", "others")

    def __init__(
        self, by_class: dict[int, tuple[Card, ...]], caps: list[int], others: tuple[int, ...]
    ) -> None:
        self.n = len(caps)
        self.caps = tuple(caps)
        self.others = others
        self.groups = sorted(by_class.items(), key=lambda item: len(item[1]))
        self.last = len(self.groups) - 1
        self.memo: dict[tuple[int, _Rooms], tuple[int, list[tuple[int, _Rooms]]]] = {}
        if sum(caps) != sum(len(cards) for _, cards in self.groups) or min(caps, default=0) < 0:
            raise ValueError(
                "inconsistent view: the unseen cards cannot be dealt to the other seats"
            )
        nothing = self.last < 0 and not any(caps)  # no card to deal, no room: one deal
        # one class may go to every seat: the sizes add up, so a deal exists (no count)
        if self.last == 0 and self.groups[0][0] == (1 << self.n) - 1:
            return
        if not nothing and (self.last < 0 or self.completions(0, self.caps) == 0):
            raise ValueError(
                "inconsistent view: the unseen cards cannot be dealt to the other seats"
            )

    def completions(self, j: int, rooms: _Rooms) -> int:
        """The deals of classes ``j``… filling ``rooms`` exactly."""
        if j == self.last:
            k, cards = self.groups[j]
            if any(room and not k >> i & 1 for i, room in enumerate(rooms)):
                return 0
            return _multinomial(len(cards), rooms)
        return self.options(j, rooms)[0]

    def options(self, j: int, rooms: _Rooms) -> tuple[int, list[tuple[int, _Rooms]]]:
        """Class ``j``'s splits with their numbers of completions, and their total."""
        key = (j, rooms)
        known = self.memo.get(key)
        if known is None:
            k, cards = self.groups[j]
            count = len(cards)
            weighted, total = [], 0
            for split in _splits(count, [i for i in range(self.n) if k >> i & 1], rooms):
                left = tuple(r - t for r, t in zip(rooms, split, strict=True))
                weight = self.completions(j + 1, left)
                if weight:
                    weight *= _multinomial(count, split)
                    weighted.append((weight, split))
                    total += weight
            known = self.memo[key] = (total, weighted)
        return known

    def draw(self, forced: list[int], rng: random.Random) -> list[int]:
        """The four hands: ``forced`` (the cards known held) plus one deal drawn from ``rng``."""
        hands = list(forced)
        others = self.others
        rooms = self.caps
        last = self.last
        for j, (_, dealt) in enumerate(self.groups):
            split = rooms if j == last else _draw(*self.options(j, rooms), rng)
            cards = list(dealt)
            rng.shuffle(cards)
            at = 0
            for i, take in enumerate(split):
                if take:
                    share = 0
                    for card in cards[at : at + take]:
                        share |= _BIT[card]
                    hands[others[i]] |= share
                    at += take
            rooms = tuple(r - t for r, t in zip(rooms, split, strict=True))
        return hands


def _draw(
    total: int, options: list[tuple[int, tuple[int, ...]]], rng: random.Random
) -> tuple[int, ...]:
    """One of the weighted ``options``, with probability its weight over their ``total`` (exact)."""
    ticket = rng.randrange(total)
    for weight, option in options:
        if ticket < weight:
            return option
        ticket -= weight
    raise AssertionError("the ticket is below the total weight")


def _splits(count: int, allowed: list[int], rooms: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way to share ``count`` cards among the ``allowed`` seats within their ``rooms``,
    by the first seat's share, then the second's … (smallest first)."""
    out: list[tuple[int, ...]] = []
    take = [0] * len(rooms)
    if len(allowed) <= 2:  # one or two seats (the usual classes), without recursion
        first, second = (allowed[0], None) if len(allowed) == 1 else allowed
        room = 0 if second is None else rooms[second]
        for amount in range(max(0, count - room), min(count, rooms[first]) + 1):
            take[first] = amount
            if second is not None:
                take[second] = count - amount
            out.append(tuple(take))
        return out

    def fill(at: int, left: int) -> None:
        if at == len(allowed):
            if not left:
                out.append(tuple(take))
            return
        seat = allowed[at]
        after = sum(rooms[i] for i in allowed[at + 1 :])
        for amount in range(max(0, left - after), min(left, rooms[seat]) + 1):
            take[seat] = amount
            fill(at + 1, left - amount)
        take[seat] = 0

    fill(0, count)
    return out


def _multinomial(total: int, parts: Sequence[int]) -> int:
    """``total! / (parts[0]! parts[1]! …)`` for parts summing to ``total``."""
    ways, left = 1, total
    for part in parts:
        ways *= comb(left, part)
        left -= part
    return ways


def _deck_of(start: list[int]) -> Deal:
    """The Deal (R-MATCH-2) giving each seat the cards ``start[seat]``, each hand in card order.

    The order of a seat's cards in the deck is not part of any view, so it is
    not drawn.  Four disjoint sets of 13 are the 52 cards, so the deck needs
    no re-check (``Deal``'s converter is skipped, as ``Deal.shuffled`` does).
    """
    if start[0] | start[1] | start[2] | start[3] != ALL_MASK:
        raise ValueError("inconsistent view: a card is in two places")
    deck: list[Card] = [ALL_CARDS[0]] * 52
    for seat in range(4):  # seat s gets deck[s], deck[s + 4], … (13 cards each: checked)
        deck[seat::4] = cards_of(start[seat])
    deal: Deal = object.__new__(Deal)
    object.__setattr__(deal, "deck", tuple(deck))
    return deal


def _trix_moves(view: View) -> list[Move]:
    """The TRIX deal's plays and passes, interleaved as the view records them."""
    moves: list[Move] = []
    passes = view.passes
    at = 0  # the next pass
    for index, (who, card) in enumerate(view.laid):
        while at < len(passes) and passes[at][1] == index:
            moves.append(PASSES[passes[at][0]][0])
            at += 1
        moves.append(_PLAYS[who][card])
    moves.extend(PASSES[who][0] for who, _ in passes[at:])
    return moves
