"""What one seat sees: :func:`view` turns a state into a :class:`View` (R-HID-1 … R-HID-3).

A view is the only thing a bot or a frontend should be given.  It holds the
seat's own hand and public facts only: never another hand (not even the
partner's), never the doubling window's secrets, never a deck.  The
spectator (``seat=None``) sees no hand at all.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
>>> mine = tc.view(state, 0)
>>> len(mine.hand), mine.hand_sizes, mine.turn == state.owner
(13, (13, 13, 13, 13), True)
>>> tc.view(state, None).hand
()

Every ruleset is seen the same way: the view names its ``ruleset`` and the
``contract`` being played, and shows what that game makes public (the 2s of
R-OPT-7, the redeals of R-OPT-8; see the "Hidden information" page).

>>> state = tc.apply(tc.new_match(tc.CLASSIC), tc.Deal.shuffled(random.Random(7)))
>>> seen = tc.view(state, 1)
>>> seen.ruleset.name, [c.value for c in seen.remaining_contracts][:2]
('classic', ['KING_OF_HEARTS', 'QUEENS'])
"""

from __future__ import annotations

from typing import TypeAlias

from attrs import frozen

from .cards import Card, Rank, Suit, cards_of
from .engine import MatchState, Phase, Score, Trick, forced_move, legal_moves, score
from .moves import Contract, Deal, Pass, Play, PlayerMove, Redeal
from .rules import SEVEN_OF_HEARTS, row_ends
from .rules import trick_winner as _trick_winner
from .rules import trix_playable as playable
from .rulesets import Ruleset
from .seats import check_seat

__all__ = ["View", "known_voids", "points_this_deal", "trick_winner", "unseen_cards", "view"]

_TWOS = sum(1 << Card.of(Rank.TWO, suit) for suit in Suit)
_NO_SUITS: frozenset[Suit] = frozenset()
_NOT_HEARTS = frozenset(s for s in Suit if s is not Suit.HEARTS)
_TURN_PHASES = (Phase.CHOOSE, Phase.COMPLEX, Phase.TRICKS, Phase.TRIX)
_PLAYING = (Phase.CHOOSE, Phase.DOUBLE, Phase.COMPLEX, Phase.TRICKS, Phase.TRIX)
_Cards4: TypeAlias = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]

_Row: TypeAlias = tuple[int, int] | None


@frozen
class View:
    """One seat's (or the spectator's) picture of the match at one moment.

    Built by :func:`view`; frozen, hashable, compared by value.  Every field
    is made of cards, enums, ints, ``None``, tuples, frozensets, frozen attrs
    classes and the :class:`~trixcomplex.Ruleset`, which
    :func:`~trixcomplex.to_json` writes as its name (``"classic"``,
    ``"classic+show_twos=True"``) and :func:`~trixcomplex.from_json` reads
    back.  Per-seat tuples are indexed by seat (0–3).

    The match:

    - ``seat``: whose view this is, 0–3, or ``None`` for the spectator.
    - ``ruleset``: the game played (:class:`~trixcomplex.Ruleset`, R-SET-1).
    - ``phase``, ``deal_number`` (1 … ``ruleset.deals_per_match`` during play),
      ``kingdom`` (1–4), ``owner`` (the Kingdom owner), ``contract`` (of the deal
      being played: COMPLEX, TRIX, KING_OF_HEARTS, QUEENS, DIAMONDS or LTOOSH).
    - ``remaining_contracts``: the contracts of the Kingdom not played yet
      (``state.remaining_contracts``; public, R-SET-2).
    - ``redeals``: the seats that demanded a redeal of this deal number, in
      order (R-OPT-8): public once demanded, kept until the deal is finished.
    - ``score``: the public :class:`~trixcomplex.Score` (finished deals included).
    - ``points``: the four seats' points charged so far in this deal.

    Hands and moves:

    - ``hand``: this seat's cards, sorted; ``()`` for the spectator.
    - ``hand_sizes``: how many cards each seat holds (public).
    - ``turn``: the seat to move in CHOOSE, COMPLEX and TRIX, else ``None``
      (``None`` in the doubling window: who still has to answer is secret).
      Never the seat that could demand a redeal (R-OPT-8), unless it is
      also the seat to play.
    - ``legal_moves``: this seat's legal moves now (``()`` for the spectator
      and whenever this seat has nothing to do); a bad TRIX hand sees its own
      :class:`~trixcomplex.Redeal` here, and only it does.
    - ``forced_move``: this seat's single legal move, if it has exactly one (R-TX-5).

    Trick contracts (COMPLEX and the classic ones):

    - ``leader``: the leader of the trick in progress; ``trick``: its cards in play order.
    - ``tricks``: the finished tricks of this deal; ``last_trick``: the latest of them.
    - ``doubled``: revealed doubles ``(card, doubler)`` — empty until the window closes.

    The doubling window (R-HID-2; COMPLEX, King of Hearts and Queens):

    - ``doubling_open``: whether the window is open (public).
    - ``doublable``: this seat's own doublable cards while it is still asked, else ``()``.
    - ``my_answer``: this seat's own answer once given (a tuple of cards, maybe empty),
      else ``None``.

    TRIX:

    - ``table``: the cards laid, sorted; ``rows``: per suit ``(low, high)`` ranks laid
      (2–14) or ``None`` if the suit is not started.
    - ``laid``: ``(seat, card)`` for every card laid, in the order laid.
    - ``passes``: ``(seat, index)`` for every pass, in order; ``index`` is how many
      cards were on the table when the seat passed (``len(laid)`` at that moment),
      so plays and passes interleave exactly.
    - ``finishing_order``: the seats that have emptied their hands, in order.
    - ``shown_twos``: per seat, the 2s it was dealt, once they are shown
      (R-OPT-7: with ``show_twos``, after every seat's first turn), else ``()``.

    Known facts (public deductions, the same for every viewer):

    - ``voids``: per seat, the suits it showed out of in a trick contract
      (R-CX-2), and in King of Hearts every suit but hearts once it led a
      heart (R-CL-2: only a hand of hearts may lead one).
    - ``cannot_hold``: per seat, the unplayed cards it cannot hold: those
      playable when it passed in TRIX (R-TX-3), and with
      ``penalty_cards_first`` the contract's penalty cards once it discarded
      another card (R-OPT-2).
    - ``known_holdings``: per seat, the cards it is known to hold: its revealed
      doubled cards not yet played (R-DBL-3), in deal 1 the 7♥ of the Kingdom
      owner until it is played (R-MATCH-3; not after a redeal), and its shown
      2s until they are laid (R-OPT-7).
    """

    seat: int | None
    ruleset: Ruleset
    phase: Phase
    deal_number: int
    kingdom: int
    owner: int | None
    contract: Contract | None
    remaining_contracts: tuple[Contract, ...]
    redeals: tuple[int, ...]
    score: Score
    points: tuple[int, int, int, int]
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, int, int, int]
    turn: int | None
    legal_moves: tuple[PlayerMove, ...]
    forced_move: PlayerMove | None
    leader: int | None
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    last_trick: Trick | None
    doubled: tuple[tuple[Card, int], ...]
    doubling_open: bool
    doublable: tuple[Card, ...]
    my_answer: tuple[Card, ...] | None
    table: tuple[Card, ...]
    rows: tuple[_Row, _Row, _Row, _Row]
    laid: tuple[tuple[int, Card], ...]
    passes: tuple[tuple[int, int], ...]
    finishing_order: tuple[int, ...]
    shown_twos: _Cards4
    voids: tuple[frozenset[Suit], frozenset[Suit], frozenset[Suit], frozenset[Suit]]
    cannot_hold: _Cards4
    known_holdings: _Cards4

    @property
    def is_spectator(self) -> bool:
        """Whether this is the spectator's view (no hand)."""
        return self.seat is None


def view(state: MatchState, seat: int | None) -> View:
    """What ``seat`` (0–3) sees of ``state``; ``seat=None`` gives the spectator's view.

    A pure function of the state and the seat.  It reads the state's hands
    only for ``seat``'s own hand, the public hand sizes and the 2s once
    R-OPT-7 shows them; the doubling window only for ``seat``'s own part;
    and the history only for public moves: those of the current deal and
    the redeals demanded for it (never a :class:`~trixcomplex.Deal`'s deck).

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
    >>> state = tc.apply(state, tc.Choose(state.owner, tc.Contract.COMPLEX))
    >>> seen = tc.view(state, 1)
    >>> seen.phase, seen.doubling_open, seen.turn, seen.doubled
    (<Phase.DOUBLE: 'DOUBLE'>, True, None, ())
    """
    if seat is not None:
        check_seat(seat)
    phase = state.phase
    hands = state.hands
    ruleset = state.ruleset
    hand = state.hands[seat] if seat is not None else 0
    moves = legal_moves(state, seat) if seat is not None else ()
    forced = forced_move(state, seat) if seat is not None else None
    redeals = _redeals(state) if ruleset.bad_hand_redeal else ()

    leader: int | None = None
    trick: tuple[Card, ...] = ()
    tricks: tuple[Trick, ...] = ()
    doubled: tuple[tuple[Card, int], ...] = ()
    voids = [_NO_SUITS, _NO_SUITS, _NO_SUITS, _NO_SUITS]
    known = [0, 0, 0, 0]
    cannot = [0, 0, 0, 0]
    played = 0
    deal = state.complex
    if deal is not None:
        leader, trick, tricks, doubled = deal.leader, deal.trick, deal.tricks, deal.doubled
        rules = ruleset.trick_rules(state.contract)  # type: ignore[arg-type]
        voids, cannot = _trick_deductions(
            tricks, leader, trick, rules.no_heart_lead, rules.discard_first
        )
        for t in tricks:
            for card in t.cards:
                played |= 1 << card
        for card in trick:
            played |= 1 << card
        for card, doubler in doubled:
            known[doubler] |= 1 << card

    doublable: tuple[Card, ...] = ()
    answer: tuple[Card, ...] | None = None
    window = state.window
    if window is not None and seat is not None:
        mine = window.answers[seat]
        if mine is None:
            doublable = cards_of(window.asked[seat])
        else:
            answer = cards_of(mine)

    table = 0
    laid: tuple[tuple[int, Card], ...] = ()
    passes: tuple[tuple[int, int], ...] = ()
    order: tuple[int, ...] = ()
    twos = [0, 0, 0, 0]
    if state.trix is not None:
        table, order = state.trix.table, state.trix.finishing_order
        laid, passes, cannot = _trix_history(state)
        played = table
        if ruleset.show_twos and len(laid) + len(passes) >= 4:
            # R-OPT-7: every seat has had its first turn (nobody can go out in
            # the first round), so every seat's 2s, held or laid, are public.
            for s in range(4):
                twos[s] = hands[s] & _TWOS
            for who, card in laid:
                twos[who] |= (1 << card) & _TWOS
            for s in range(4):
                known[s] |= twos[s]

    owner = state.owner
    seven_unplayed = not played & 1 << SEVEN_OF_HEARTS
    first_deck = state.deal_number == 1 and not redeals  # a redeal keeps the owner, not 7♥
    if first_deck and owner is not None and phase in _PLAYING and seven_unplayed:
        known[owner] |= 1 << SEVEN_OF_HEARTS  # R-MATCH-3: the owner was dealt 7♥

    return View(
        seat=seat,
        ruleset=ruleset,
        phase=phase,
        deal_number=state.deal_number,
        kingdom=state.kingdom,
        owner=state.owner,
        contract=state.contract,
        remaining_contracts=state.remaining_contracts,
        redeals=redeals,
        score=score(state),
        points=deal.points if deal is not None else (0, 0, 0, 0),
        hand=cards_of(hand),
        hand_sizes=(
            hands[0].bit_count(),
            hands[1].bit_count(),
            hands[2].bit_count(),
            hands[3].bit_count(),
        ),
        turn=state.turn if phase in _TURN_PHASES else None,  # never a turn in the window
        legal_moves=moves,
        forced_move=forced,
        leader=leader,
        trick=trick,
        tricks=tricks,
        last_trick=tricks[-1] if tricks else None,
        doubled=doubled,
        doubling_open=window is not None,
        doublable=doublable,
        my_answer=answer,
        table=cards_of(table),
        rows=(row_ends(table, 0), row_ends(table, 1), row_ends(table, 2), row_ends(table, 3)),
        laid=laid,
        passes=passes,
        finishing_order=order,
        shown_twos=_per_seat(twos, 0),
        voids=(voids[0], voids[1], voids[2], voids[3]),
        cannot_hold=_per_seat(cannot, played),
        known_holdings=_per_seat(known, played),
    )


def _per_seat(masks: list[int], played: int) -> _Cards4:
    """Four card sets as sorted card tuples, without the cards in ``played``."""
    return (
        cards_of(masks[0] & ~played),
        cards_of(masks[1] & ~played),
        cards_of(masks[2] & ~played),
        cards_of(masks[3] & ~played),
    )


def _redeals(state: MatchState) -> tuple[int, ...]:
    """The seats that demanded a redeal of the current deal number, oldest first (R-OPT-8).

    Walks back from the current deal (or, between deals, from the last move)
    over each deal that ended in a :class:`~trixcomplex.Redeal`, and no
    further: the cost is that of the current deal number, not of the match.
    Only the moves' types and the redeal seats are read, never a deck.
    """
    back = state.history.newest_first()
    if state.phase in _PLAYING:
        for move in back:  # back over the current deal, to its Deal
            if type(move) is Deal:
                break
    seats: list[int] = []
    for move in back:  # the move just before that Deal: a Redeal, or not
        if type(move) is not Redeal:
            break
        seats.append(move.seat)
        for earlier in back:  # back over the redealt deal, to its Deal
            if type(earlier) is Deal:
                break
    seats.reverse()
    return tuple(seats)


def _trick_deductions(
    tricks: tuple[Trick, ...],
    leader: int,
    trick: tuple[Card, ...],
    no_heart_lead: bool,
    discard_first: int,
) -> tuple[list[frozenset[Suit]], list[int]]:
    """What the plays of a trick contract tell about the hands.

    Voids: a seat that played off the led suit has none of it (R-CX-2); a
    seat that led a heart where hearts may not be led while holding another
    suit holds hearts only (R-CL-2).  Cannot-hold: a seat that discarded a
    card other than a penalty card, where penalty cards must be discarded
    first, holds no penalty card (R-OPT-2).
    """
    out: list[set[Suit]] = [set(), set(), set(), set()]
    cannot = [0, 0, 0, 0]
    for first, cards in (*((t.leader, t.cards) for t in tricks), (leader, trick)):
        if not cards:
            continue
        led = cards[0].suit
        if no_heart_lead and led is Suit.HEARTS:
            out[first] |= _NOT_HEARTS
        for i, card in enumerate(cards[1:], start=1):
            if card.suit is not led:
                who = (first + i) % 4
                out[who].add(led)
                if discard_first and not discard_first >> card & 1:
                    cannot[who] |= discard_first
    return [frozenset(s) for s in out], cannot


def _trix_history(
    state: MatchState,
) -> tuple[tuple[tuple[int, Card], ...], tuple[tuple[int, int], ...], list[int]]:
    """The TRIX deal's public moves: cards laid, passes, and what each passer cannot hold.

    Reads only :class:`Play` and :class:`Pass` moves of the current deal;
    the :class:`Deal` (the full deck) is skipped, never looked into (R-HID-3).
    """
    laid: list[tuple[int, Card]] = []
    passes: list[tuple[int, int]] = []
    cannot = [0, 0, 0, 0]
    table = 0
    for move in state.history.since_deal():
        if isinstance(move, Play):
            laid.append((move.seat, move.card))
            table |= 1 << move.card
        elif isinstance(move, Pass):
            passes.append((move.seat, len(laid)))
            cannot[move.seat] |= playable(table)
    return tuple(laid), tuple(passes), cannot


# -- helpers for bot authors: public facts of a view, decided by the engine ----------


def trick_winner(v: View) -> int | None:
    """The seat winning the trick in progress so far (R-CX-3), ``None`` before its lead.

    The engine's own trick rule (the one that names the taker of a full trick).

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(2)))
    >>> trick_winner(tc.view(state, 0)) is None    # no trick yet
    True
    """
    if not v.trick or v.leader is None:
        return None
    return _trick_winner(v.leader, v.trick)


def unseen_cards(v: View) -> tuple[Card, ...]:
    """The cards still in the other seats' hands, as this seat knows them: every card
    that is neither in its own hand nor played (to a trick, or laid in TRIX).

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(2)))
    >>> len(unseen_cards(tc.view(state, 0)))
    39
    """
    if sum(v.hand_sizes) == len(v.hand):  # between deals, or nobody else holds a card
        return ()
    gone = _mask_of(v.hand) | _mask_of(v.trick) | _mask_of(v.table)
    for t in v.tricks:
        gone |= _mask_of(t.cards)
    return cards_of(_ALL & ~gone)


def known_voids(
    v: View,
) -> tuple[frozenset[Suit], frozenset[Suit], frozenset[Suit], frozenset[Suit]]:
    """Per seat, the suits it is known to hold none of: the view's ``voids`` (showing
    out, R-CX-2; R-CL-2), a suit whose every unseen card it ``cannot_hold`` (R-TX-3,
    R-OPT-2), and for this seat the suits missing from its own hand.
    """
    unseen = _mask_of(unseen_cards(v))
    out: list[frozenset[Suit]] = []
    for seat in range(4):
        suits = set(v.voids[seat])
        cannot = _mask_of(v.cannot_hold[seat])
        for suit in Suit:
            if seat == v.seat:  # my own hand says it all
                if not _mask_of(v.hand) & _SUIT_MASKS[suit]:
                    suits.add(suit)
                continue
            left = unseen & _SUIT_MASKS[suit]
            if left and not left & ~cannot:
                suits.add(suit)
        out.append(frozenset(suits))
    return (out[0], out[1], out[2], out[3])


def points_this_deal(v: View) -> tuple[int, int, int, int]:
    """The points each seat has been charged or awarded so far in the deal being
    played: the engine's own running total of the finished tricks (``view.points``,
    what :func:`~trixcomplex.ledger` lists for them); all zero in TRIX, which is
    scored when it ends (R-TX-4)."""
    return v.points


_ALL = (1 << 52) - 1
_SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))


def _mask_of(cards: tuple[Card, ...]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask
