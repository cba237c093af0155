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
"""

from __future__ import annotations

from typing import TypeAlias

from attrs import frozen

from .cards import Card, Suit, cards_of
from .complex import Trick
from .match import forced_move, legal_moves, score
from .moves import Contract, Pass, Play, PlayerMove
from .scoring import Score
from .seats import check_seat
from .state import MatchState, Phase
from .trix import playable, row_ends

__all__ = ["View", "view"]

_SEVEN_OF_HEARTS = Card.of(7, Suit.HEARTS)
_NO_SUITS: frozenset[Suit] = frozenset()
_TURN_PHASES = (Phase.CHOOSE, Phase.COMPLEX, Phase.TRIX)

_Row: TypeAlias = tuple[int, int] | None


@frozen
class View:
    """One seat's (or the spectator's) picture of the match at one moment.

    Built by :func:`view`; frozen, hashable, compared by value.  Every field
    is made of cards, enums, ints, ``None``, tuples, frozensets and frozen
    attrs classes, so it serializes without special hooks.  Per-seat tuples
    are indexed by seat (0–3).

    The match:

    - ``seat``: whose view this is, 0–3, or ``None`` for the spectator.
    - ``phase``, ``deal_number`` (1–8 during play), ``kingdom`` (1–4),
      ``owner`` (the Kingdom owner), ``contract`` (of the deal being played).
    - ``score``: the public :class:`~trixcomplex.Score` (finished deals included).
    - ``points``: the four seats' points charged so far in this deal.

    Hands and moves:

    - ``hand``: this seat's cards, sorted; ``()`` for the spectator.
    - ``hand_sizes``: how many cards each seat holds (public).
    - ``turn``: the seat to move in CHOOSE, COMPLEX and TRIX, else ``None``
      (``None`` in the doubling window: who still has to answer is secret).
    - ``legal_moves``: this seat's legal moves now (``()`` for the spectator
      and whenever this seat has nothing to do).
    - ``forced_move``: this seat's single legal move, if it has exactly one (R-TX-5).

    COMPLEX:

    - ``leader``: the leader of the trick in progress; ``trick``: its cards in play order.
    - ``tricks``: the finished tricks of this deal; ``last_trick``: the latest of them.
    - ``doubled``: revealed doubles ``(card, doubler)`` — empty until the window closes.

    The doubling window (R-HID-2):

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

    Known facts (public deductions, the same for every viewer):

    - ``voids``: per seat, the suits it showed out of in COMPLEX (R-CX-2).
    - ``cannot_hold``: per seat, the unlaid cards it cannot hold because it
      passed in TRIX while they were playable (R-TX-3).
    - ``known_holdings``: per seat, the cards it is known to hold: its revealed
      doubled cards not yet played (R-DBL-3), and in deal 1 the 7♥ of the
      Kingdom owner until it is played (R-MATCH-3).
    """

    seat: int | None
    phase: Phase
    deal_number: int
    kingdom: int
    owner: int | None
    contract: Contract | None
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
    voids: tuple[frozenset[Suit], frozenset[Suit], frozenset[Suit], frozenset[Suit]]
    cannot_hold: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    known_holdings: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]

    @property
    def is_spectator(self) -> bool:
        """Whether this is the spectator's view (no hand)."""
        return self.seat is None


def view(state: MatchState, seat: int | None) -> View:
    """What ``seat`` (0–3) sees of ``state``; ``seat=None`` gives the spectator's view.

    A pure function of the state and the seat.  It reads the state's hands
    only for ``seat``'s own hand and the public hand sizes, the doubling
    window only for ``seat``'s own part, and the history only for the public
    moves of the current deal (never a :class:`~trixcomplex.Deal`).

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
    hand = state.hands[seat] if seat is not None else 0
    moves = legal_moves(state, seat) if seat is not None else ()
    forced = forced_move(state, seat) if seat is not None else None

    leader: int | None = None
    trick: tuple[Card, ...] = ()
    tricks: tuple[Trick, ...] = ()
    doubled: tuple[tuple[Card, int], ...] = ()
    voids = [_NO_SUITS, _NO_SUITS, _NO_SUITS, _NO_SUITS]
    known = [0, 0, 0, 0]
    played = 0
    deal = state.complex
    if deal is not None:
        leader, trick, tricks, doubled = deal.leader, deal.trick, deal.tricks, deal.doubled
        voids = _complex_voids(tricks, leader, trick)
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
    cannot = [0, 0, 0, 0]
    if state.trix is not None:
        table, order = state.trix.table, state.trix.finishing_order
        laid, passes, cannot = _trix_history(state)
        played = table

    owner = state.owner
    seven_unplayed = not played & 1 << _SEVEN_OF_HEARTS
    if state.deal_number == 1 and owner is not None and _in_play(phase) and seven_unplayed:
        known[owner] |= 1 << _SEVEN_OF_HEARTS  # R-MATCH-3: the owner was dealt 7♥

    return View(
        seat=seat,
        phase=phase,
        deal_number=state.deal_number,
        kingdom=state.kingdom,
        owner=state.owner,
        contract=state.contract,
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
        voids=(voids[0], voids[1], voids[2], voids[3]),
        cannot_hold=(
            cards_of(cannot[0] & ~table),
            cards_of(cannot[1] & ~table),
            cards_of(cannot[2] & ~table),
            cards_of(cannot[3] & ~table),
        ),
        known_holdings=(
            cards_of(known[0] & ~played),
            cards_of(known[1] & ~played),
            cards_of(known[2] & ~played),
            cards_of(known[3] & ~played),
        ),
    )


def _in_play(phase: Phase) -> bool:
    return phase in (Phase.CHOOSE, Phase.DOUBLE, Phase.COMPLEX, Phase.TRIX)


def _complex_voids(
    tricks: tuple[Trick, ...], leader: int, trick: tuple[Card, ...]
) -> list[frozenset[Suit]]:
    """The suits each seat showed out of: it played off-suit to a trick (R-CX-2)."""
    out: list[set[Suit]] = [set(), set(), set(), set()]
    for t in (*((t.leader, t.cards) for t in tricks), (leader, trick)):
        first, cards = t
        if not cards:
            continue
        led = cards[0].suit
        for i, card in enumerate(cards[1:], start=1):
            if card.suit is not led:
                out[(first + i) % 4].add(led)
    return [frozenset(s) for s in out]


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
