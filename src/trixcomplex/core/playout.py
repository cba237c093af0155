"""Fast playouts: play a state out to the end of the deal or the match.

:func:`playout` is the engine-level tool for search (Monte Carlo rollouts,
simulations): it plays random legal moves, or the moves of a cheap
``policy``, from any state to the end of the current deal or of the match,
under any :class:`~trixcomplex.Ruleset`.  The card play of every trick
contract (COMPLEX, and King of Hearts, Queens, Diamonds and Ltoosh with the
ruleset's :class:`~trixcomplex.TrickRules`) and of TRIX runs on plain mutable
locals (four hand ints, the trick as a list, the TRIX table as an int)
instead of building an immutable :class:`~trixcomplex.MatchState` per move;
the final state is built once, at each deal end, with the engine's own
scoring.  A TRIX deal in which a bad hand may still demand a
:class:`~trixcomplex.Redeal` (R-OPT-8) is stepped through the engine move by
move instead.

The result is *exactly* the state that stepping would give: with no policy,
each player move is ``rng.choice(legal_moves(state))`` and each shuffle is
``Deal.shuffled(rng)``, so the random number generator is called in the same
sequence (for a plain :class:`random.Random` the playout calls its
``getrandbits`` itself, just as ``choice`` and ``shuffle`` do), and the
returned state equals (``==``, history included) the state reached by

.. code-block:: python

    while not done:
        if state.phase is Phase.DEAL:
            state = apply(state, Deal.shuffled(rng))
        else:
            state = apply(state, rng.choice(legal_moves(state)))

>>> import random
>>> import trixcomplex as tc
>>> state = tc.playout(tc.new_match(), random.Random(5), until="match")
>>> state.phase, len(state.results), sum(tc.score(state).teams)
(<Phase.OVER: 'OVER'>, 8, 0)
>>> state = tc.playout(tc.new_match(), random.Random(5))   # one deal only
>>> state.phase, state.deal_number
(<Phase.DEAL: 'DEAL'>, 1)

A policy is a function ``policy(game, moves, rng) -> move`` choosing one
of ``moves``.  It sees the whole game (``game`` is a :class:`PlayoutState`,
hands included): a playout is an engine tool working on a full state, not a
seat's view, so a bot that must not see hidden cards samples a world first
and plays out that.

>>> def lowest(game, moves, rng):
...     return moves[0]          # the lowest card (moves are listed by card)
>>> state = tc.playout(tc.new_match(), random.Random(5), lowest, until="match")
>>> state.is_over
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Literal, TypeVar

from .cards import ALL_CARDS, ALL_MASK, Card, mask_of
from .engine import DealResult, DoublingWindow, MatchState, Phase
from .match import (
    PASSES,
    apply,
    apply_listed,
    finish_trick_deal,
    finish_trix_deal,
    finish_window,
    legal_moves,
    new_trick,
    plays_of,
    window_answers,
)
from .moves import Contract, Deal, Double, Move, Play, PlayerMove
from .rules import (
    NEXT_TO_LAY,
    card_set,
    gone_out,
    redeal_seat,
    tally_tricks,
    trick_deal_over,
    trick_points,
    trick_winner,
)
from .rules import trick_legal_cards as legal_cards
from .rules import trix_playable_after as playable_after
from .rulesets import Ruleset

__all__ = ["PlayoutState", "Policy", "playout"]


class PlayoutState:
    """What a playout policy sees: the whole game at the moment of its choice.

    The names mean what they mean on :class:`~trixcomplex.MatchState`:
    ``phase``, ``deal_number``, ``owner``, ``contract``, ``hands`` (four card
    sets, every hand), ``turn`` (``None`` in the doubling window),
    ``window`` (only in DOUBLE), ``scores`` and ``results`` (finished deals)
    and ``ruleset`` (the game played).
    The deal in progress is given flat: in COMPLEX ``leader``, ``trick``
    (the cards of the trick in progress, in play order), ``tricks`` (how many
    tricks are finished), ``doubled`` and ``points``; in TRIX ``table`` and
    ``finishing_order``.  Fields of the other contract are empty.

    It is the playout's working object, refreshed before each call: read it
    during the call, do not keep it or change it.
    """

    __slots__ = (
        "contract",
        "deal_number",
        "doubled",
        "finishing_order",
        "hands",
        "leader",
        "owner",
        "phase",
        "points",
        "results",
        "ruleset",
        "scores",
        "table",
        "trick",
        "tricks",
        "turn",
        "window",
    )

    phase: Phase
    deal_number: int
    owner: int | None
    contract: Contract | None
    hands: tuple[int, int, int, int]
    turn: int | None
    window: DoublingWindow | None
    leader: int | None
    trick: tuple[Card, ...]
    tricks: int
    doubled: tuple[tuple[Card, int], ...]
    points: tuple[int, int, int, int]
    table: int
    finishing_order: tuple[int, ...]
    scores: tuple[int, int, int, int]
    results: tuple[DealResult, ...]
    ruleset: Ruleset

    def __init__(self, state: MatchState) -> None:
        self.phase = state.phase
        self.deal_number = state.deal_number
        self.owner = state.owner
        self.contract = state.contract
        self.hands = state.hands
        self.turn = state.turn
        self.window = state.window
        self.scores = state.scores
        self.results = state.results
        self.ruleset = state.ruleset
        deal = state.complex
        self.leader = deal.leader if deal is not None else None
        self.trick = deal.trick if deal is not None else ()
        self.tricks = len(deal.tricks) if deal is not None else 0
        self.doubled = deal.doubled if deal is not None else ()
        self.points = deal.points if deal is not None else (0, 0, 0, 0)
        trix = state.trix
        self.table = trix.table if trix is not None else 0
        self.finishing_order = trix.finishing_order if trix is not None else ()

    def __repr__(self) -> str:
        return f"<PlayoutState {self.phase.value} deal {self.deal_number} turn {self.turn}>"


Policy = Callable[[PlayoutState, tuple[PlayerMove, ...], random.Random], PlayerMove]
"""``policy(game, moves, rng) -> move``: pick one of the legal ``moves``.

``moves`` is exactly what :func:`~trixcomplex.legal_moves` lists for the
state (every seat's answers in the doubling window); with
``playout(..., forced="play")`` a policy is only asked when there are two
or more.  ``rng`` is the
playout's generator, for any randomness the policy needs.  Returning a move
not in ``moves`` raises ``ValueError``.
"""


def playout(
    state: MatchState,
    rng: random.Random,
    policy: Policy | None = None,
    *,
    until: Literal["deal", "match"] = "deal",
    forced: Literal["draw", "play"] = "draw",
) -> MatchState:
    """Play ``state`` out to the end of the current deal, or of the match.

    With ``until="deal"`` the playout stops when the deal in progress ends
    (from a state waiting for a deal, it deals one and plays it); with
    ``until="match"`` it plays every remaining deal.  A redeal (R-OPT-8)
    ends the deal too: ``until="deal"`` then returns the state waiting for
    the new shuffle.  A finished match is returned as it is.  Without a
    ``policy`` each player move is ``rng.choice(legal_moves(state))``;
    shuffles are always
    ``Deal.shuffled(rng)`` and timeouts never happen.  The result equals
    (``==``, history included) the state reached by stepping the same random
    choices through :func:`~trixcomplex.legal_moves` and
    :func:`~trixcomplex.apply`, and ``rng`` is left in the same state.

    ``forced`` says what happens when there is only one legal move (a forced
    move, R-TX-5: a pass, a single card of the suit led, the last trick).
    With ``"draw"`` (the default) it is chosen like any other:
    ``rng.choice`` of a one-move list still draws a number, and a policy is
    asked.  With ``"play"`` it is played at once, with no draw and no policy
    call, as a host plays a forced move and as most search loops step
    (``moves[0] if len(moves) == 1 else rng.choice(moves)``); the result then
    equals stepping that way.  Forced moves are about two in five moves of a
    match, so ``"play"`` saves their draws and policy calls; it gives other
    random matches from the same seed than ``"draw"``.

    >>> import trixcomplex as tc
    >>> a = tc.playout(tc.new_match(), random.Random(5), until="match", forced="play")
    >>> rng, state = random.Random(5), tc.new_match()
    >>> while not state.is_over:
    ...     if state.phase is tc.Phase.DEAL:
    ...         state = tc.apply(state, tc.Deal.shuffled(rng))
    ...     else:
    ...         moves = tc.legal_moves(state)
    ...         state = tc.apply(state, moves[0] if len(moves) == 1 else rng.choice(moves))
    >>> a == state
    True
    """
    if until not in ("deal", "match"):
        raise ValueError(f"until must be 'deal' or 'match', not {until!r}")
    if forced not in ("draw", "play"):
        raise ValueError(f"forced must be 'draw' or 'play', not {forced!r}")
    least = 1 if forced == "play" else 0  # a draw when there are more moves than this
    bits = _plain_bits(rng)
    draw = bits if policy is None else None  # the card loops draw inline
    deal_ended = False
    while True:
        phase = state.phase
        if phase is _COMPLEX or phase is _TRICKS:  # any trick contract, under any ruleset
            state = _complex(state, rng, policy, draw, least)
            deal_ended = True
        elif phase is _TRIX:
            if redeal_seat(state) is None:  # no Redeal among the moves, now or later
                state = _trix(state, rng, policy, draw, least)
            else:  # a bad hand may demand a redeal (R-OPT-8)
                state = _stepped(state, rng, policy, draw, least)
            deal_ended = True
        elif phase is _DEAL:
            if deal_ended and until == "deal":
                return state
            state = apply(state, _shuffled(rng, bits))
        elif phase is _OVER:
            return state
        elif phase is _DOUBLE and draw is not None:
            state = _window(state, draw)
        else:  # CHOOSE, and DOUBLE with a policy or another generator: one move
            state = _step(state, rng, policy, draw, least)


# -- drawing as random.Random draws -------------------------------------------
#
# The card loops and the shuffle call the generator's ``getrandbits`` directly,
# exactly as ``random.Random.choice`` and ``shuffle`` do, instead of calling
# them: ``choice(seq)`` is ``seq[self._randbelow(len(seq))]`` and
# ``_randbelow_with_getrandbits(n)`` is ``k = n.bit_length(); r =
# getrandbits(k); while r >= n: r = getrandbits(k)``; ``shuffle(x)`` swaps
# ``x[i]`` with ``x[_randbelow(i + 1)]`` for i from len(x) - 1 down to 1.  This
# is the code of CPython 3.11, 3.12 and 3.13 alike (Lib/random.py).  It saves
# two Python calls per card (``choice`` and ``_randbelow``) and lets the card
# loops pick the card from the legal set without listing the moves first
# (the r-th card in card order is the r-th move of ``plays_of``).  Measured
# (``benchmarks/bench.py --passes 9 --only playout``, three runs alternating
# with the code before): the playout row went from 0.368x to 0.479x the
# yardstick, all of it from this draw and pick (docs/performance.rst).  It
# is used only when ``rng.choice``, ``rng.shuffle``, ``rng._randbelow`` and
# ``rng.getrandbits`` are those very functions (:func:`_plain_bits`); any
# other generator is called through its own methods.

_K = tuple(n.bit_length() for n in range(53))
"""``_K[n]``: ``n.bit_length()``, the bits ``_randbelow(n)`` asks for (a lookup per card)."""

_SWAPS = tuple((i, i + 1, _K[i + 1]) for i in range(51, 0, -1))
"""``rng.shuffle`` of the deck: swap ``deck[i]`` with ``deck[_randbelow(n)]``, ``n = i + 1``."""

_PLAYS = tuple(plays_of(seat, ALL_MASK) for seat in range(4))
"""``_PLAYS[seat][card]``: the engine's interned :class:`Play` of ``seat``."""

_RANDBELOW = vars(random.Random)["_randbelow_with_getrandbits"]

# The phases as module constants (an enum member read through its class costs a
# lookup in the enum machinery, paid once per phase change of the loop above).
_DEAL, _DOUBLE, _COMPLEX, _TRICKS = Phase.DEAL, Phase.DOUBLE, Phase.COMPLEX, Phase.TRICKS
_TRIX, _OVER = Phase.TRIX, Phase.OVER


def _plain_bits(rng: random.Random) -> Callable[[int], int] | None:
    """``rng.getrandbits`` if ``rng`` draws as :class:`random.Random` itself
    does (so the playout may draw that way itself), else ``None``.

    The class's and the instance's ``choice``, ``shuffle``, ``_randbelow``
    and ``getrandbits`` must all be :class:`random.Random`'s own, so every
    draw is ``_randbelow_with_getrandbits`` over the C generator (a class
    defining only ``random()`` gets ``_randbelow_without_getrandbits``).  A
    generator replacing any of them is called through its own ``choice`` and
    ``shuffle`` instead.

    >>> _plain_bits(random.Random(1)) is not None
    True
    >>> class Loaded(random.Random):
    ...     def choice(self, seq):
    ...         return seq[0]
    >>> _plain_bits(Loaded(1)) is None
    True
    """
    cls = type(rng)
    own = getattr(rng, "__dict__", {})
    if (
        getattr(cls, "choice", None) is _RANDOM.choice
        and getattr(cls, "shuffle", None) is _RANDOM.shuffle
        and getattr(cls, "_randbelow", None) is _RANDBELOW
        and getattr(cls, "getrandbits", None) is _RANDOM.getrandbits
        and not own.keys() & _DRAWING
    ):
        return rng.getrandbits
    return None


_RANDOM = random.Random
_DRAWING = frozenset(("choice", "shuffle", "_randbelow", "getrandbits"))


def _below(bits: Callable[[int], int], n: int) -> int:
    """``random.Random._randbelow_with_getrandbits(n)`` drawing from ``bits``: with
    ``bits = rng.getrandbits`` (see :func:`_plain_bits`), ``seq[_below(bits,
    len(seq))]`` is ``rng.choice(seq)``, the same value from the same calls.
    The card loops and the shuffle run this body inline.

    >>> a, b = random.Random(7), random.Random(7)
    >>> [_below(a.getrandbits, 13) for _ in range(5)] == [b.choice(range(13)) for _ in range(5)]
    True
    """
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def _stepped(
    state: MatchState,
    rng: random.Random,
    policy: Policy | None,
    draw: Callable[[int], int] | None,
    least: int,
) -> MatchState:
    """Play the deal of ``state`` move by move through the engine until it ends
    (scored, or cancelled by a :class:`~trixcomplex.Redeal`): the general path
    for every ruleset, drawing from ``rng`` exactly as the fast loops do."""
    while state.phase.plays_cards:
        state = _step(state, rng, policy, draw, least)
    return state


def _step(
    state: MatchState,
    rng: random.Random,
    policy: Policy | None,
    draw: Callable[[int], int] | None,
    least: int,
) -> MatchState:
    """One move through the engine: ``rng.choice`` of the legal moves (drawn by
    :func:`_below` with ``draw``), or the policy's; with ``least`` 1, a forced
    move is played without either.  The move is one ``legal_moves`` listed, so
    it is applied with ``match.apply_listed``."""
    moves = legal_moves(state)
    if len(moves) <= least:
        return apply_listed(state, moves[0])
    if draw is not None:
        return apply_listed(state, moves[_below(draw, len(moves))])
    if policy is None:
        return apply_listed(state, rng.choice(moves))
    return apply_listed(state, _chosen(policy, PlayoutState(state), moves, rng))


_new = object.__new__
_set_deck = Deal.__dict__["deck"].__set__


def _shuffled(rng: random.Random, bits: Callable[[int], int] | None = None) -> Deal:
    """``Deal.shuffled(rng)`` without re-checking the 52 cards it is built from.

    The same calls to ``rng`` in the same order (``tests/test_playout.py``
    holds the two to equality); with ``bits`` (:func:`_plain_bits`) the
    shuffle is ``rng.shuffle``'s own loop, drawing from ``bits``.
    """
    deck = list(ALL_CARDS)
    if bits is None:
        rng.shuffle(deck)
    else:
        for i, n, k in _SWAPS:  # rng.shuffle(deck): j = _below(bits, n), inline
            j = bits(k)
            while j >= n:
                j = bits(k)
            deck[i], deck[j] = deck[j], deck[i]
    deal: Deal = _new(Deal)
    _set_deck(deal, tuple(deck))
    return deal


_M = TypeVar("_M", bound=PlayerMove)


def _chosen(
    policy: Policy | None, game: PlayoutState, moves: tuple[_M, ...], rng: random.Random
) -> _M:
    """The policy's choice among ``moves``; ``ValueError`` if it is not one of them."""
    assert policy is not None
    move = policy(game, moves, rng)
    if move not in moves:
        raise ValueError(f"the playout policy chose {move!r}, which is not a legal move")
    return move


def _window(state: MatchState, draw: Callable[[int], int]) -> MatchState:
    """Answer the doubling window of ``state`` until it closes; the state after it.

    Each answer is ``rng.choice(legal_moves(state))``, drawn by :func:`_below`
    (every seat's awaited answers, :func:`~trixcomplex.core.match.window_answers`); the
    answers are kept as plain locals and the window is closed once, by
    ``match.finish_window`` (R-DBL-2, R-DBL-3), instead of a new state per
    answer.
    """
    window = state.deal
    assert type(window) is DoublingWindow
    asked = window.asked
    answers = list(window.answers)
    played: list[Double] = []
    moves = window_answers(asked, answers)
    while moves:  # every asked seat answers: the window closes (R-DBL-2)
        move = moves[_below(draw, len(moves))]
        played.append(move)
        answers[move.seat] = mask_of(move.cards)
        moves = window_answers(asked, answers)
    a, b, c, d = answers
    return finish_window(state, played, (a, b, c, d))


def _complex(
    state: MatchState,
    rng: random.Random,
    policy: Policy | None,
    draw: Callable[[int], int] | None,
    least: int,
) -> MatchState:
    """Play the trick contract of ``state`` to its end; the state after its last trick.

    Every decision is the engine's own function: the legal cards
    (``complex.legal_cards`` with the contract's
    :class:`~trixcomplex.TrickRules`), the taker (``trick_winner``), the end
    of the deal (``trick_deal_over``) and the deal's points, scored once
    from what each seat took (``finish_trick_deal``; a policy also reads the
    running points, each trick's ``trick_points`` added).  With
    ``draw`` (:func:`_plain_bits`, no policy) the card is drawn inline; a
    seat with ``least`` legal cards or fewer plays its lowest without a draw
    (``least`` is 0, or 1 for ``forced="play"``).
    """
    deal = state.complex
    contract = state.contract
    assert deal is not None and state.turn is not None and contract is not None
    rules = state.ruleset.trick_rules(contract)
    hands = list(state.hands)
    turn = state.turn
    leader = deal.leader
    trick = list(deal.trick)
    doubled = deal.doubled
    # What each seat took, tallied for the deal's result (finish_trick_deal scores
    # the deal from it): the count and the cards of its tricks, and the tricks
    # carrying a doubled card.
    doubled_set = card_set(doubled)
    taken, won, carried = tally_tricks(deal.tricks, doubled_set)
    count = len(deal.tricks)
    played: list[Move] = []
    append, k, plays = played.append, _K, _PLAYS
    seen = PlayoutState(state) if policy is not None else None
    while True:
        hand = hands[turn]
        legal = legal_cards(hand, trick, rules)
        if draw is not None:  # rng.choice(plays_of(turn, legal)): r = _below(draw, n), inline
            n = legal.bit_count()
            if n > least:
                r = draw(k[n])
                while r >= n:
                    r = draw(k[n])
                while r:  # the r-th card of legal, in card order
                    legal &= legal - 1
                    r -= 1
            bit = legal & -legal
            move = plays[turn][bit.bit_length() - 1]
        else:
            if legal.bit_count() <= least:  # forced="play": no draw, no policy call
                move = plays[turn][legal.bit_length() - 1]
            elif seen is None:
                move = rng.choice(plays_of(turn, legal))
            else:
                seen.hands = (hands[0], hands[1], hands[2], hands[3])
                seen.turn = turn
                seen.trick = tuple(trick)
                move = _chosen(policy, seen, plays_of(turn, legal), rng)
            bit = 1 << move.card
        hands[turn] = hand ^ bit
        trick.append(move.card)
        append(move)
        if len(trick) < 4:
            turn = (turn + 1) & 3
            continue
        c0, c1, c2, c3 = trick
        cards = (c0, c1, c2, c3)
        taker = trick_winner(leader, cards)
        mask = 1 << c0 | 1 << c1 | 1 << c2 | 1 << c3
        taken[taker] += 1
        won[taker] |= mask
        if mask & doubled_set:
            carried.append(new_trick(leader, cards, taker))
        count += 1
        if seen is not None:  # the policy's view of what changes once a trick
            a, b, c, d = trick_points(cards, leader, taker, doubled, rules)
            p0, p1, p2, p3 = seen.points
            seen.points = (p0 + a, p1 + b, p2 + c, p3 + d)
            seen.leader = taker
            seen.tricks = count
        leader = turn = taker
        trick = []
        if trick_deal_over(count, hands[0] | hands[1] | hands[2] | hands[3], rules):
            break
    return finish_trick_deal(state, played, taken, won, carried)


def _trix(
    state: MatchState,
    rng: random.Random,
    policy: Policy | None,
    draw: Callable[[int], int] | None,
    least: int,
) -> MatchState:
    """Play the TRIX deal of ``state`` to its end; the state after its last card.

    The legal cards are ``trix.playable`` held (R-TX-2; the pass when there
    are none, R-TX-3), the next seat ``trix.next_to_lay`` (read from its table
    ``NEXT_TO_LAY`` by the seats still holding cards) and the finishing order
    ``trix.gone_out``: the engine's own functions.  With ``draw``
    (:func:`_plain_bits`, no policy) the move is drawn inline; a seat with
    ``least`` moves or fewer makes it without a draw.
    """
    deal = state.trix
    assert deal is not None and state.turn is not None
    hands = list(state.hands)
    turn = state.turn
    table = deal.table
    order = deal.finishing_order
    played: list[Move] = []
    append, k, plays = played.append, _K, _PLAYS
    seen = PlayoutState(state) if policy is not None else None
    can = deal.playable  # what may be laid now (R-TX-2), kept up to date
    after = NEXT_TO_LAY  # after[seat][holders]: next_to_lay(hands, seat), one lookup
    holders = bool(hands[0]) | bool(hands[1]) << 1 | bool(hands[2]) << 2 | bool(hands[3]) << 3
    while True:
        hand = hands[turn]
        legal = hand & can  # trix.legal_cards(hand, table)
        move: PlayerMove
        if draw is not None:  # rng.choice of the plays, or of the pass: _below, inline
            n = legal.bit_count() or 1  # R-TX-3: without a card to lay, the pass is the one move
            if n > least:
                r = draw(k[n])
                while r >= n:
                    r = draw(k[n])
                while r:  # the r-th card of legal, in card order
                    legal &= legal - 1
                    r -= 1
            if legal:
                bit = legal & -legal
                card = bit.bit_length() - 1
                move = plays[turn][card]
            else:
                bit, move = 0, PASSES[turn][0]
        else:
            options: tuple[PlayerMove, ...] = plays_of(turn, legal) if legal else PASSES[turn]
            if len(options) <= least:  # forced="play": no draw, no policy call
                move = options[0]
            elif seen is None:
                move = rng.choice(options)
            else:
                seen.hands = (hands[0], hands[1], hands[2], hands[3])
                seen.turn = turn
                seen.table = table
                seen.finishing_order = order
                move = _chosen(policy, seen, options, rng)
            if type(move) is Play:
                card = move.card
                bit = 1 << card
            else:
                bit = 0
        append(move)
        if bit:
            hand ^= bit
            hands[turn] = hand
            table |= bit
            can = playable_after(can, table, card)  # playable(table), one row read again
            if not hand:
                order = gone_out(order, turn)
                if len(order) == 4:
                    break
                holders ^= 1 << turn
        turn = after[turn][holders]
    return finish_trix_deal(state, played, order)
