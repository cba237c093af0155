"""The host loop: the one place a match is run between players (the host package of the layers).

A host deals, asks the seat to move for its move, checks it and applies it,
until the match (or the deal) is over.  :func:`simulate
<trixcomplex.host.tournament.simulate>`, the command line (``demo`` and ``play``)
and the Monte Carlo bot's playouts all run this loop:

- :func:`run` is the loop itself, over a ``decide(state, seat, legal)``
  function: the Monte Carlo bot plays out worlds it imagined with it.
- :func:`play_match` runs it between :class:`~trixcomplex.bots.Bot` objects,
  each asked through :func:`ask`: a bot is handed its seat's
  :class:`~trixcomplex.View`, never the host's :class:`~trixcomplex.MatchState`.

What comes next is :func:`~trixcomplex.next_step`'s answer (the one the
server's table and the reinforcement-learning table follow too); what the
host does with it, and the rule behind each:

- who is asked: the seat to play, or in the doubling window the lowest seat
  still to answer (:func:`seat_to_move`);
- forced moves: a seat with exactly one legal move is not asked, its move is
  played for it (R-TX-5);
- redeal offers: with ``bad_hand_redeal``, a seat holding a bad TRIX hand
  may demand a redeal out of turn (R-OPT-8); it is offered the choice
  (:func:`offer_redeal`) before the seat to play is asked;
- timeouts: with a ``time_limit``, a bot that has not answered in time while
  choosing or doubling is replaced by the rules' own :class:`~trixcomplex.Timeout`
  (R-MATCH-6, R-DBL-3); a bot that is late or hangs while playing a card
  raises :class:`~trixcomplex.bots.BotTimeout` (a tournament forfeits its match);
- checking: an answer that is not one of the seat's legal moves raises
  :class:`~trixcomplex.bots.BotError`, naming the match, deal, phase, seat,
  the move and the legal moves.

>>> import random
>>> from trixcomplex.bots import RandomBot
>>> rngs = [random.Random(s) for s in range(4)]
>>> final = play_match([RandomBot()] * 4, random.Random(1), rngs)
>>> final.phase.value, len(final.results)
('OVER', 8)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import islice

from ..bots.asking import ask, offer_redeal
from ..bots.base import Bot, BotError, check_bot
from ..core.engine import MatchState, apply, apply_step, new_match
from ..core.moves import Deal, Move, PlayerMove
from ..core.rulesets import PARTNERSHIP, Ruleset
from ..core.runner import CardStep
from ..core.steps import DealCards, MatchOver, step_and_moves
from ..core.turns import Decide, Offer, move_for_step, next_move, redeal_claimant, seat_to_move
from ..knowledge.card_deltas import StepLog
from ..knowledge.views import View, view, view_after_moves

__all__ = [
    "Decide",
    "SeatViews",
    "ask",
    "bots_move",
    "next_move",
    "offer_redeal",
    "play_match",
    "redeal_claimant",
    "run",
    "seat_to_move",
]


def run(
    state: MatchState,
    decide: Decide,
    *,
    offer: Offer | None = None,
    deals: random.Random | None = None,
    redeals: random.Random | None = None,
    on_move: Callable[[MatchState, Move, MatchState], None] | None = None,
    forced: bool = True,
    views: SeatViews | None = None,
) -> MatchState:
    """Run ``state`` forward, one :func:`~trixcomplex.next_step` at a time
    (:func:`~trixcomplex.core.steps.step_and_moves`), and return the state reached.

    With ``deals``, the whole match is played: each deal is shuffled from
    ``deals`` (a deal dealt again after a redeal, R-OPT-8, from ``redeals``
    when given, so that a redeal in one match does not shift another's
    decks).  Without ``deals``, play stops at the end of the current deal
    (the playouts of :class:`~trixcomplex.bots.MonteCarloBot`).  The player
    moves are :func:`next_move`'s.
    ``on_move(before, move, after)`` is called after every move.  ``views``
    (the :class:`SeatViews` ``decide`` asks) is handed the deal runner's step of
    every card, so the seats' views read what each card did.  A
    :class:`~trixcomplex.bots.BotError` raised by ``decide`` leaves with the
    state its seat was asked in as its ``reached``.
    """
    try:
        while True:
            step, legal = step_and_moves(state)
            move: Move
            if type(step) is DealCards:
                if deals is None:
                    return state
                move = Deal.shuffled(redeals if step.again and redeals is not None else deals)
            elif type(step) is MatchOver:
                return state
            else:
                move = move_for_step(state, step, legal, decide, offer, forced)
            before = state
            if views is None or not views.asked:  # no view to keep up to date (yet)
                state = apply(state, move)
            else:
                state, card_step = apply_step(state, move)
                if card_step is not None:
                    views.moved(state, card_step)
            if on_move is not None:
                on_move(before, move, state)
    except BotError as exc:  # a seat's bot failed: say in which state
        exc.reached = state
        raise


class SeatViews:
    """Each seat's views along one match, each built from the seat's previous one.

    Calling it with a state of the match and a seat gives ``view(state, seat)``,
    brought up to date from the last view it gave that seat with
    :func:`~trixcomplex.knowledge.views.view_after_moves` (the moves since, read from the
    state's history; what each card did read from the deal runner's steps the
    game loop hands on with :meth:`moved`, rebuilt when it hands none).  The
    states asked about must follow one history forward, as a host loop's do
    (:func:`play_match` keeps one per match); a state not ahead of the seat's
    last one, or far ahead, gets a full view.  Each seat's view is only ever
    its own: nothing is shared between seats.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(4)))
    >>> seen = SeatViews()
    >>> first = seen(state, 1)
    >>> for _ in range(9):
    ...     state = tc.apply(state, tc.legal_moves(state)[0])
    >>> seen(state, 1) == tc.view(state, 1)
    True
    """

    __slots__ = ("_last", "_log", "asked")

    def __init__(self) -> None:
        self._last: list[tuple[View, int] | None] = [None, None, None, None]
        self._log = StepLog()
        self.asked = False
        """Whether a view was asked for: until then the steps are not worth handing on
        (bots that choose from the legal moves alone never ask)."""

    def moved(self, state: MatchState, step: CardStep) -> None:
        """Note the deal runner's ``step`` of the card or pass that led to ``state``
        (what :func:`~trixcomplex.apply_step` returned with it)."""
        self._log.note(state, (step,))

    def __call__(self, state: MatchState, seat: int) -> View:
        self.asked = True
        last = self._last[seat]
        length = len(state.history)
        if last is None or not 0 < length - last[1] <= _CATCH_UP:
            seen = view(state, seat)
        else:
            behind = length - last[1]
            moves = list(islice(state.history.newest_first(), behind))
            moves.reverse()
            seen = view_after_moves(last[0], moves, state, self._log.up_to(state))
        self._last[seat] = (seen, length)
        return seen


_CATCH_UP = 64
"""Most moves a kept view is brought up to date over (a TRIX deal's moves fit)."""


def _bots_players(
    seats: Sequence[Bot],
    rngs: Sequence[random.Random],
    time_limit: float | None = None,
    match: int | None = None,
    cpu_limit: float | None = None,
) -> tuple[Decide, Offer, SeatViews]:
    """The ``decide`` and ``offer`` of :func:`run` for four bots, each asked by :func:`ask`,
    and the seats' views ``decide`` gives them."""

    seen = SeatViews()

    def decide(st: MatchState, seat: int, legal: Sequence[PlayerMove]) -> Move:
        return ask(
            seats[seat],
            st,
            seat,
            rngs[seat],
            time_limit=time_limit,
            match=match,
            legal=legal,
            view_of=seen,
            cpu_limit=cpu_limit,
        )

    def offer(st: MatchState, seat: int) -> bool:
        return offer_redeal(seats[seat], st, seat, rngs[seat])

    return decide, offer, seen


def bots_move(
    state: MatchState,
    seats: Sequence[Bot],
    rngs: Sequence[random.Random],
    *,
    time_limit: float | None = None,
) -> Move:
    """The next player move of a match between bots, asked the way :func:`play_match` asks.

    A seat that may demand a redeal out of turn (R-OPT-8) is offered it
    first; a single legal move is played without asking (R-TX-5); otherwise
    the seat to move is asked through :func:`ask`.
    """
    decide, offer, _ = _bots_players(seats, rngs, time_limit)
    return next_move(state, decide, offer)


def play_match(
    seats: Sequence[Bot],
    deals: random.Random,
    rngs: Sequence[random.Random],
    *,
    on_move: Callable[[MatchState], None] | None = None,
    ruleset: Ruleset = PARTNERSHIP,
    redeals: random.Random | None = None,
    time_limit: float | None = None,
    match: int | None = None,
    state: MatchState | None = None,
    cpu_limit: float | None = None,
) -> MatchState:
    """Play one whole match of ``ruleset``: ``seats[s]`` plays seat ``s``; returns the final state.

    Shuffles come from ``deals`` only (so two matches given equal ``deals``
    generators see the same decks, whatever the bots do), the shuffles
    after a redeal (R-OPT-8) from ``redeals`` if given, and seat ``s``'s bot
    draws from ``rngs[s]``.  Each bot is asked through :func:`ask` (with
    ``time_limit`` wall-clock and ``cpu_limit`` CPU seconds per decision;
    ``match`` names the match in errors).
    ``on_move`` is called with every state reached.  ``state`` resumes a
    match instead of starting a new one.  A bot's failure
    (:class:`~trixcomplex.bots.BotError`) names the state it failed in as
    its ``reached``.  Every bot is checked against the
    protocol before the first move (:func:`~trixcomplex.bots.check_bot`).
    """
    if len(seats) != 4 or len(rngs) != 4:
        raise ValueError("play_match needs four bots and four random generators, one per seat")
    for s, bot in enumerate(seats):
        check_bot(bot, f"seat {s}")
    decide, offer, seen = _bots_players(seats, rngs, time_limit, match, cpu_limit)
    note = None
    if on_move is not None:
        each = on_move

        def note(before: MatchState, move: Move, after: MatchState) -> None:
            each(after)

    start = new_match(ruleset) if state is None else state
    return run(start, decide, offer=offer, deals=deals, redeals=redeals, on_move=note, views=seen)
