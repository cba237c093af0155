"""One seat's view of a state: the :class:`View` record and :func:`view` (R-HID-1 … R-HID-3).

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

from collections.abc import Callable
from operator import attrgetter
from typing import TypeAlias

import attrs
from attrs import frozen

from ..core.cards import Card, Rank, Suit, cards_of
from ..core.engine import (
    MatchState,
    Phase,
    Score,
    Trick,
    TrickDeal,
    TrixDeal,
    forced_move,
    legal_moves,
    score,
)
from ..core.moves import Contract, Deal, PlayerMove, Redeal
from ..core.rules import SEVEN_OF_HEARTS, row_ends
from ..core.rulesets import Ruleset
from ..core.seats import check_seat
from .deductions import played_in_tricks, show_trick_cards_since, trix_history

__all__ = ["View", "own_part", "view", "view_without_moves"]

_TWOS = sum(1 << Card.of(Rank.TWO, suit) for suit in Suit)
_NO_SUITS: frozenset[Suit] = frozenset()
TURN_PHASES = (Phase.CHOOSE, Phase.COMPLEX, Phase.TRICKS, Phase.TRIX)
"""The phases a view shows a turn in: never in the doubling window (R-HID-2)."""
_PLAYING = (Phase.CHOOSE, Phase.DOUBLE, Phase.COMPLEX, Phase.TRICKS, Phase.TRIX)
Cards4: TypeAlias = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
"""Four card tuples, one per seat."""
Row: TypeAlias = tuple[int, int] | None
"""A TRIX row: the ``(low, high)`` ranks laid in a suit, or ``None``."""


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
    rows: tuple[Row, Row, Row, Row]
    laid: tuple[tuple[int, Card], ...]
    passes: tuple[tuple[int, int], ...]
    finishing_order: tuple[int, ...]
    shown_twos: Cards4
    voids: tuple[frozenset[Suit], frozenset[Suit], frozenset[Suit], frozenset[Suit]]
    cannot_hold: Cards4
    known_holdings: Cards4

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
    Following a match move by move, :func:`~trixcomplex.view_after` gives the same view
    for less.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
    >>> state = tc.apply(state, tc.Choose(state.owner, tc.Contract.COMPLEX))
    >>> seen = tc.view(state, 1)
    >>> seen.phase, seen.doubling_open, seen.turn, seen.doubled
    (<Phase.DOUBLE: 'DOUBLE'>, True, None, ())
    """
    return _view(state, seat, True)


def view_without_moves(state: MatchState, seat: int | None) -> View:
    """:func:`view` but for its ``legal_moves`` (``()``) and ``forced_move`` (``None``),
    not listed: for a reader of what the seat has seen only (the observation
    tensors of :mod:`trixcomplex.rl`), to whom the listing is about a fifth of
    the view's cost for nothing.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
    >>> seen, full = view_without_moves(state, state.owner), tc.view(state, state.owner)
    >>> seen.legal_moves, seen == attrs.evolve(full, legal_moves=(), forced_move=None)
    ((), True)
    """
    return _view(state, seat, False)


def own_part(
    state: MatchState, seat: int
) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...] | None]:
    """What ``seat`` sees of ``state`` and the spectator does not: the ``hand``,
    ``doublable`` and ``my_answer`` of its :func:`view` (its own cards, and its
    part of the doubling window: the cards it may still double, or those it
    doubled once it answered, R-HID-2).  Every other field of a seat's view
    but its ``seat`` and legal moves is the spectator's: the observation
    tensors of :class:`trixcomplex.rl.observation.SeatsTracker` are built on it.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
    >>> state = tc.apply(state, tc.Choose(state.owner, tc.Contract.COMPLEX))
    >>> hand, doublable, answer = own_part(state, 1)
    >>> hand == tc.view(state, 1).hand, doublable == tc.view(state, 1).doublable, answer
    (True, True, None)
    """
    doublable: tuple[Card, ...] = ()
    answer: tuple[Card, ...] | None = None
    window = state.window
    if window is not None:
        mine = window.answers[seat]
        if mine is None:
            doublable = cards_of(window.asked[seat])
        else:
            answer = cards_of(mine)
    return cards_of(state.hands[seat]), doublable, answer


def _view(state: MatchState, seat: int | None, listing: bool) -> View:
    """:func:`view`, its legal moves listed only if ``listing``."""
    if seat is not None:
        check_seat(seat)
    phase = state.phase
    hands = state.hands
    ruleset = state.ruleset
    hand: tuple[Card, ...] = ()
    doublable: tuple[Card, ...] = ()
    answer: tuple[Card, ...] | None = None
    moves: tuple[PlayerMove, ...] = ()
    forced: PlayerMove | None = None
    if seat is not None:
        hand, doublable, answer = own_part(state, seat)
        if listing:
            moves = legal_moves(state, seat)
            if moves:
                forced = forced_move(state, seat)
    redeals = _redeals(state) if ruleset.bad_hand_redeal else ()

    leader: int | None = None
    trick: tuple[Card, ...] = ()
    tricks: tuple[Trick, ...] = ()
    doubled: tuple[tuple[Card, int], ...] = ()
    voids = [_NO_SUITS, _NO_SUITS, _NO_SUITS, _NO_SUITS]
    known = [0, 0, 0, 0]
    cannot = [0, 0, 0, 0]
    played = 0
    points = _NO_POINTS
    deal = state.deal
    if type(deal) is TrickDeal:
        leader, trick, tricks, doubled = deal.leader, deal.trick, deal.tricks, deal.doubled
        points = deal.points
        rules = ruleset.trick_rules(state.contract)  # type: ignore[arg-type]
        no_heart_lead, discard_first = rules.no_heart_lead, rules.discard_first
        show_trick_cards_since(voids, cannot, deal, 0, 0, no_heart_lead, discard_first)
        played = played_in_tricks(tricks, trick)
        for card, doubler in doubled:
            known[doubler] |= 1 << card

    window = state.window
    table = 0
    laid: tuple[tuple[int, Card], ...] = ()
    passes: tuple[tuple[int, int], ...] = ()
    order: tuple[int, ...] = ()
    twos = [0, 0, 0, 0]
    if type(deal) is TrixDeal:
        table, order = deal.table, deal.finishing_order
        laid, passes, cannot = trix_history(state)
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

    return new_view(
        None,
        seat=seat,
        ruleset=ruleset,
        phase=phase,
        deal_number=state.deal_number,
        kingdom=state.kingdom,
        owner=owner,
        contract=state.contract,
        remaining_contracts=state.remaining_contracts,
        redeals=redeals,
        score=score(state),
        points=points,
        hand=hand,
        hand_sizes=(
            hands[0].bit_count(),
            hands[1].bit_count(),
            hands[2].bit_count(),
            hands[3].bit_count(),
        ),
        turn=state.turn if phase in TURN_PHASES else None,  # never a turn in the window
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
        rows=(row_ends(table, 0), row_ends(table, 1), row_ends(table, 2), row_ends(table, 3))
        if table
        else _NO_ROWS,
        laid=laid,
        passes=passes,
        finishing_order=order,
        shown_twos=_per_seat(twos, 0),
        voids=(voids[0], voids[1], voids[2], voids[3]),
        cannot_hold=_per_seat(cannot, played),
        known_holdings=_per_seat(known, played),
    )


def view_builder(changed: tuple[str, ...]) -> Callable[..., View]:
    """A fast constructor: ``build(previous, *values)`` is the :class:`View` equal to
    ``previous`` but for the fields ``changed``, which are set to ``values``.

    :func:`~trixcomplex.view_after` builds one view per move.  attrs' generated ``__init__``
    sets each of the 33 slots by name through ``object.__setattr__``; the
    function generated here (as attrs generates ``__init__``) sets them
    through the slot descriptors, unrolled, taking the unchanged ones from
    ``previous``: the very same objects.  What it builds is what
    ``attrs.evolve(previous, **changes)`` builds (same class and slots, equal,
    hashing alike).  With every field changed (``previous`` unused) it is
    :func:`view`'s constructor.
    """
    lines = [f"def build(previous, {', '.join(changed)}):", "    built = new(View)"]
    for name in FIELDS:
        lines.append(f"    set_{name}(built, {name if name in changed else 'previous.' + name})")
    lines.append("    return built")
    namespace: dict[str, object] = {"new": object.__new__, "View": View}
    namespace.update({f"set_{name}": View.__dict__[name].__set__ for name in FIELDS})
    exec("\n".join(lines), namespace)  # generated from the field names only
    return namespace["build"]  # type: ignore[return-value]


FIELDS = tuple(field.name for field in attrs.fields(View))
ALL_FIELDS = attrgetter(*FIELDS)
new_view = view_builder(FIELDS)
_NO_POINTS = (0, 0, 0, 0)
_NO_CARDS: Cards4 = ((), (), (), ())
_NO_ROWS: tuple[Row, Row, Row, Row] = (None, None, None, None)


def _per_seat(masks: list[int], played: int) -> Cards4:
    """Four card sets as sorted card tuples, without the cards in ``played``."""
    if not (masks[0] | masks[1] | masks[2] | masks[3]):
        return _NO_CARDS
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
