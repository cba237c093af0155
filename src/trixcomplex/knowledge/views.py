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

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import TypeAlias, TypeVar

import attrs
from attrs import frozen

from ..core.cards import Card, Rank, Suit, cards_of
from ..core.engine import (
    ComplexDeal,
    MatchState,
    Phase,
    Score,
    Trick,
    TrixDeal,
    forced_move,
    legal_moves,
    score,
)
from ..core.moves import Contract, Deal, Double, Move, Pass, Play, PlayerMove, Redeal
from ..core.rules import SEVEN_OF_HEARTS, row_ends
from ..core.rules import trick_winner as _trick_winner
from ..core.rules import trix_playable as playable
from ..core.rulesets import Ruleset
from ..core.seats import check_seat

__all__ = [
    "View",
    "known_voids",
    "points_this_deal",
    "trick_winner",
    "unseen_cards",
    "view",
    "view_after",
    "view_after_moves",
]

_TWOS = sum(1 << Card.of(Rank.TWO, suit) for suit in Suit)
_NO_SUITS: frozenset[Suit] = frozenset()
_NOT_HEARTS = frozenset(s for s in Suit if s is not Suit.HEARTS)
_VOID_IN = tuple(frozenset((s,)) for s in Suit)
_HEARTS = int(Suit.HEARTS)
_TURN_PHASES = (Phase.CHOOSE, Phase.COMPLEX, Phase.TRICKS, Phase.TRIX)
_PLAYING = (Phase.CHOOSE, Phase.DOUBLE, Phase.COMPLEX, Phase.TRICKS, Phase.TRIX)
_Cards4: TypeAlias = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]

_Row: TypeAlias = tuple[int, int] | None
_T = TypeVar("_T")


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
    Following a match move by move, :func:`view_after` gives the same view
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
    if type(deal) is ComplexDeal:
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

    return _new_view(
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


def view_after(previous: View, move: Move, state: MatchState) -> View:
    """The view of ``state``, the state just after ``move``, for ``previous.seat``,
    given ``previous``: that seat's (or the spectator's) view of the state just before.

    Always equal to ``view(state, previous.seat)``, and cheaper for the moves
    inside a deal: a card played to a trick, a card laid or a pass in TRIX,
    another seat's answer in the doubling window.  It changes only the
    fields ``move`` changed, adding what the move shows of the mover's hand
    (the very functions :func:`view` folds over the deal's moves); every
    other field is the same object as in ``previous``, so a consumer may
    test a field with ``is`` to know it is unchanged (the observation
    tensors of :mod:`trixcomplex.rl` do).  The other moves (a deal, a
    choice, the window's close, a deal's last card, a redeal) give
    ``view(state, seat)``.  Of ``state`` it reads only what :func:`view`
    reads: hidden information stays hidden the same way.
    :func:`view_after_moves` catches up over several moves at once.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(tc.CLASSIC), tc.Deal.shuffled(random.Random(4)))
    >>> state = tc.apply(state, tc.Choose(state.owner, tc.Contract.DIAMONDS))
    >>> seen = tc.view(state, 0)
    >>> move = tc.legal_moves(state)[0]
    >>> after = tc.apply(state, move)
    >>> seen_after = tc.view_after(seen, move, after)
    >>> seen_after == tc.view(after, 0), seen_after.trick == (move.card,)
    (True, True)
    >>> seen_after.score is seen.score, seen_after.hand_sizes is seen.hand_sizes
    (True, False)
    """
    return view_after_moves(previous, (move,), state)


def view_after_moves(previous: View, moves: Sequence[Move], state: MatchState) -> View:
    """The view of ``state`` for ``previous.seat``, given ``previous``, that seat's view
    of the state before ``moves`` (the moves since, oldest first; ``state`` is
    the state after the last of them).

    :func:`view_after` over several moves at once, building one view instead
    of one per move: a seat's view brought up to date only when it is
    needed.  Always equal to ``view(state, previous.seat)``; cheaper when
    every move is a card played to a trick, a card laid or a pass in TRIX
    of the deal ``previous`` shows, or another seat's answer in the
    doubling window.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(tc.CLASSIC), tc.Deal.shuffled(random.Random(4)))
    >>> state = tc.apply(state, tc.Choose(state.owner, tc.Contract.DIAMONDS))
    >>> seen, moves = tc.view(state, 0), []
    >>> for _ in range(6):
    ...     moves.append(tc.legal_moves(state)[0])
    ...     state = tc.apply(state, moves[-1])
    >>> tc.view_after_moves(seen, moves, state) == tc.view(state, 0)
    True
    """
    if (
        moves
        and state.phase is previous.phase
        and state.deal_number == previous.deal_number
        and state.history.last is moves[-1]
    ):
        deal = state.deal
        kinds = _kinds(moves)
        if type(deal) is ComplexDeal and kinds is _PLAYS:
            return _after_trick_cards(previous, moves, state, deal)  # type: ignore[arg-type]
        if type(deal) is TrixDeal and (kinds is _PLAYS or kinds is _TRIX_TURNS):
            return _after_trix_turns(previous, moves, state, deal)  # type: ignore[arg-type]
        if kinds is _ANSWERS and previous.seat not in {m.seat for m in moves}:  # type: ignore[union-attr]
            return previous  # other seats' secret answers: nothing seen changes (R-HID-2)
    return _keeping(previous, view(state, previous.seat))


def _keeping(previous: View, new: View) -> View:
    """``new`` with every field equal to ``previous``'s replaced by ``previous``'s very
    object, so that unchanged fields are shared after a full :func:`view` too."""
    values = [
        old if old is value or old == value else value
        for old, value in zip(_ALL_FIELDS(previous), _ALL_FIELDS(new), strict=True)
    ]
    return _new_view(None, *values)


_PLAYS, _TRIX_TURNS, _ANSWERS, _OTHERS = "plays", "trix turns", "answers", "others"


def _kinds(moves: Sequence[Move]) -> str:
    """What ``moves`` are: plays only, plays and passes, doubling answers only, or others."""
    plays = passes = answers = False
    for move in moves:
        kind = type(move)
        if kind is Play:
            plays = True
        elif kind is Pass:
            passes = True
        elif kind is Double:
            answers = True
        else:
            return _OTHERS
    if answers:
        return _OTHERS if plays or passes else _ANSWERS
    return _TRIX_TURNS if passes else _PLAYS


def _after_trick_cards(
    previous: View, moves: Sequence[Play], state: MatchState, deal: ComplexDeal
) -> View:
    """:func:`view_after_moves` for cards played to tricks of the deal in progress."""
    seat = previous.seat
    tricks, trick = deal.tricks, deal.trick
    done = len(previous.tricks)
    start = len(previous.trick)
    if 4 * (len(tricks) - done) + len(trick) - start != len(moves) or (
        done and tricks[done - 1] is not previous.last_trick
    ):
        return _keeping(
            previous, view(state, seat)
        )  # ``previous`` is not the view just before ``moves``
    rules = state.ruleset.trick_rules(state.contract)  # type: ignore[arg-type]
    no_heart_lead, discard_first = rules.no_heart_lead, rules.discard_first
    voids = list(previous.voids)
    shown = [0, 0, 0, 0]
    show_trick_cards_since(voids, shown, deal, done, start, no_heart_lead, discard_first)
    cards = [move.card for move in moves]
    cannot_hold = _without(previous.cannot_hold, cards)
    if any(shown):
        cannot_hold = _with(cannot_hold, shown, played_in_tricks(tricks, trick))
    last_trick, points, seen_score = previous.last_trick, previous.points, previous.score
    if len(tricks) != done:  # tricks were finished
        last_trick = tricks[-1]
        if deal.points != points:
            points, seen_score = deal.points, score(state)
    hand, sizes = _hand_and_sizes(previous, state)
    legal, forced = _moves_kept(previous, state)
    return _AFTER_TRICK_CARD(
        previous,
        hand,
        sizes,
        state.turn,
        legal,
        forced,
        deal.leader,
        trick,
        previous.tricks if len(tricks) == done else tricks,
        last_trick,
        seen_score,
        points,
        _same_or_new(previous.voids, voids),
        cannot_hold,
        _without(previous.known_holdings, cards),
    )


def _after_trix_turns(
    previous: View, moves: Sequence[Play | Pass], state: MatchState, deal: TrixDeal
) -> View:
    """:func:`view_after_moves` for cards laid and passes of the TRIX deal in progress."""
    seat = previous.seat
    laid, passes = previous.laid, previous.passes
    turns = len(laid) + len(passes)
    if previous.turn != moves[0].seat or (
        state.ruleset.show_twos and turns < 4 <= turns + len(moves)  # R-OPT-7: 2s shown now
    ):
        return _keeping(previous, view(state, seat))
    cards = [move.card for move in moves if type(move) is Play]
    table = deal.table & ~_mask_of(cards)  # as ``previous`` saw it
    if table.bit_count() != len(previous.table):
        return _keeping(
            previous, view(state, seat)
        )  # ``previous`` is not the view just before ``moves``
    new_laid: list[tuple[int, Card]] = []
    new_passes: list[tuple[int, int]] = []
    shown = [0, 0, 0, 0]
    for move in moves:
        if type(move) is Play:
            table |= 1 << move.card
            new_laid.append((move.seat, move.card))
        else:
            new_passes.append((move.seat, len(laid) + len(new_laid)))
            shown[move.seat] |= shown_by_pass(table)
    cannot_hold, known = previous.cannot_hold, previous.known_holdings
    table_cards, rows = previous.table, previous.rows
    if cards:
        laid += tuple(new_laid)
        table_cards = cards_of(table)
        ends = list(rows)
        for card in cards:
            ends[card // 13] = row_ends(table, card // 13)
        rows = _same_or_new(rows, ends)
        cannot_hold, known = _without(cannot_hold, cards), _without(known, cards)
    if new_passes:
        passes += tuple(new_passes)
        cannot_hold = _with(cannot_hold, shown, table)
    order = deal.finishing_order
    hand, sizes = _hand_and_sizes(previous, state)
    legal, forced = _moves_kept(previous, state)
    return _AFTER_TRIX_TURN(
        previous,
        hand,
        sizes,
        state.turn,
        legal,
        forced,
        table_cards,
        rows,
        laid,
        passes,
        previous.finishing_order if order == previous.finishing_order else order,
        cannot_hold,
        known,
    )


def _hand_and_sizes(
    previous: View, state: MatchState
) -> tuple[tuple[Card, ...], tuple[int, int, int, int]]:
    """The viewer's hand and the hand sizes in ``state``: ``previous``'s where unchanged."""
    hands = state.hands
    sizes = (hands[0].bit_count(), hands[1].bit_count(), hands[2].bit_count(),
             hands[3].bit_count())  # fmt: skip
    seat = previous.seat
    hand = previous.hand
    if seat is not None and sizes[seat] != previous.hand_sizes[seat]:
        hand = cards_of(hands[seat])
    return hand, previous.hand_sizes if sizes == previous.hand_sizes else sizes


def _moves_of(
    state: MatchState, seat: int | None
) -> tuple[tuple[PlayerMove, ...], PlayerMove | None]:
    """``seat``'s legal moves and forced move, the engine's (none for the spectator)."""
    if seat is None:
        return (), None
    moves = legal_moves(state, seat)
    return moves, forced_move(state, seat) if moves else None


def _moves_kept(
    previous: View, state: MatchState
) -> tuple[tuple[PlayerMove, ...], PlayerMove | None]:
    """:func:`_moves_of` the viewer, ``previous.legal_moves`` itself if they are unchanged."""
    moves, forced = _moves_of(state, previous.seat)
    return (previous.legal_moves if moves == previous.legal_moves else moves), forced


def _same_or_new(old: tuple[_T, _T, _T, _T], new: list[_T]) -> tuple[_T, _T, _T, _T]:
    """``old`` if ``new`` holds its very four objects, else ``new`` as a tuple (the
    callers replace an entry only when it changes)."""
    if new[0] is old[0] and new[1] is old[1] and new[2] is old[2] and new[3] is old[3]:
        return old
    return (new[0], new[1], new[2], new[3])


def _without(per_seat: _Cards4, cards: list[Card]) -> _Cards4:
    """``per_seat`` without ``cards``, now played: known holdings and the cards a seat
    cannot hold are of unplayed cards only (the very tuples that hold none of them)."""
    out: list[tuple[Card, ...]] | None = None
    for s, held in enumerate(per_seat):
        if held:
            for card in cards:
                if card in held:
                    if out is None:
                        out = list(per_seat)
                    out[s] = tuple(c for c in held if c not in cards)
                    break
    return per_seat if out is None else (out[0], out[1], out[2], out[3])


def _with(per_seat: _Cards4, shown: list[int], played: int) -> _Cards4:
    """``per_seat`` (cards each seat cannot hold) with the cards ``shown`` added, but
    for those in ``played``."""
    out = list(per_seat)
    for s in range(4):
        if shown[s]:
            held = _mask_of(out[s])
            more = shown[s] & ~held & ~played
            if more:
                out[s] = cards_of(held | more)
    return _same_or_new(per_seat, out)


def _view_builder(changed: tuple[str, ...]) -> Callable[..., View]:
    """A fast constructor: ``build(previous, *values)`` is the :class:`View` equal to
    ``previous`` but for the fields ``changed``, which are set to ``values``.

    :func:`view_after` builds one view per move.  attrs' generated ``__init__``
    sets each of the 33 slots by name through ``object.__setattr__``; the
    function generated here (as attrs generates ``__init__``) sets them
    through the slot descriptors, unrolled, taking the unchanged ones from
    ``previous``: the very same objects.  What it builds is what
    ``attrs.evolve(previous, **changes)`` builds (same class and slots, equal,
    hashing alike).  With every field changed (``previous`` unused) it is
    :func:`view`'s constructor.
    """
    lines = [f"def build(previous, {', '.join(changed)}):", "    built = new(View)"]
    for name in _FIELDS:
        lines.append(f"    set_{name}(built, {name if name in changed else 'previous.' + name})")
    lines.append("    return built")
    namespace: dict[str, object] = {"new": object.__new__, "View": View}
    namespace.update({f"set_{name}": View.__dict__[name].__set__ for name in _FIELDS})
    exec("\n".join(lines), namespace)  # generated from the field names only
    return namespace["build"]  # type: ignore[return-value]


_FIELDS = tuple(field.name for field in attrs.fields(View))
_ALL_FIELDS = attrgetter(*_FIELDS)
_new_view = _view_builder(_FIELDS)
_AFTER_TRICK_CARD = _view_builder(
    ("hand", "hand_sizes", "turn", "legal_moves", "forced_move", "leader", "trick", "tricks",
     "last_trick", "score", "points", "voids", "cannot_hold", "known_holdings"),
)  # fmt: skip
_AFTER_TRIX_TURN = _view_builder(
    ("hand", "hand_sizes", "turn", "legal_moves", "forced_move", "table", "rows", "laid",
     "passes", "finishing_order", "cannot_hold", "known_holdings"),
)  # fmt: skip
_NO_POINTS = (0, 0, 0, 0)
_NO_CARDS: _Cards4 = ((), (), (), ())
_NO_ROWS: tuple[_Row, _Row, _Row, _Row] = (None, None, None, None)


def _per_seat(masks: list[int], played: int) -> _Cards4:
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


def show_trick_cards_since(
    voids: list[frozenset[Suit]],
    cannot: list[int],
    deal: ComplexDeal,
    done: int,
    start: int,
    no_heart_lead: bool,
    discard_first: int,
) -> int:
    """Add to ``voids`` and ``cannot`` (per seat) what the cards played in ``deal`` since
    ``done`` tricks were finished and ``start`` cards played to the next one show of
    their players' hands: the rest of that trick, the tricks finished since, the
    trick in progress.  The seats whose entry of ``voids`` grew (each is
    replaced only when it grows), as a set of bits (``1 << seat``).

    Voids: a seat that played off the led suit has none of it (R-CX-2); a
    seat that led a heart where hearts may not be led while holding another
    suit holds hearts only (R-CL-2).  Cannot-hold: a seat that discarded a
    card other than a penalty card, where penalty cards must be discarded
    first, holds no penalty card (R-OPT-2).

    :func:`view` takes it over the whole deal (``done=start=0``);
    :func:`view_after` and the observation tensors of
    :class:`trixcomplex.rl.observation.TensorTracker` take it from an earlier
    moment of the deal to its present.
    """
    grew = 0
    tricks = deal.tricks
    last = len(tricks)
    cards: tuple[Card, ...]
    for k in range(done, last + 1):  # the trick in progress before, newer ones, the present one
        if k < last:
            leader, cards = tricks[k].leader, tricks[k].cards
        else:
            leader, cards = deal.leader, deal.trick
            if not cards:
                break
        led = cards[0] // 13
        if not start:
            if no_heart_lead and led == _HEARTS and not voids[leader] >= _NOT_HEARTS:
                voids[leader] = voids[leader] | _NOT_HEARTS
                grew |= 1 << leader
            start = 1
        for i in range(start, len(cards)):
            card = cards[i]
            if card // 13 != led:
                who = (leader + i) % 4
                if led not in voids[who]:
                    voids[who] = voids[who] | _VOID_IN[led]
                    grew |= 1 << who
                if discard_first and not discard_first >> card & 1:
                    cannot[who] |= discard_first
        start = 0
    return grew


def shown_by_pass(table: int) -> int:
    """The cards a seat that passes in TRIX with ``table`` laid cannot hold: every card
    playable on it (R-TX-3).  :func:`view`, :func:`view_after` and the observation
    tensors of :class:`trixcomplex.rl.observation.TensorTracker` all ask this."""
    return playable(table)


def played_in_tricks(tricks: tuple[Trick, ...], trick: tuple[Card, ...]) -> int:
    """The cards played so far in a trick deal (its finished ``tricks`` and the ``trick``
    in progress), as a set: what :func:`view` and the observation tensors of
    :class:`trixcomplex.rl.observation.TensorTracker` take out of the cards a seat
    cannot hold or is known to hold."""
    played = 0
    for t in tricks:
        a, b, c, d = t.cards
        played |= 1 << a | 1 << b | 1 << c | 1 << d
    for card in trick:
        played |= 1 << card
    return played


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
        if type(move) is Play:
            laid.append((move.seat, move.card))
            table |= 1 << move.card
        elif type(move) is Pass:
            passes.append((move.seat, len(laid)))
            cannot[move.seat] |= shown_by_pass(table)
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


def _mask_of(cards: Sequence[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask
