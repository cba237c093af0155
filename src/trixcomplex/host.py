"""The host loop: the one place a match is run between players (layer 6 of the engine's layers).

A host deals, asks the seat to move for its move, checks it and applies it,
until the match (or the deal) is over.  :func:`simulate
<trixcomplex.simulate.simulate>`, the command line (``demo`` and ``play``)
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
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from itertools import islice
from typing import cast

from .bots.base import Bot, BotError, BotTimeout, check_bot
from .engine import MatchState, apply, is_legal, legal_moves, new_match
from .moves import Deal, Move, PlayerMove, Redeal, Timeout
from .rules import redeal_seat
from .rulesets import PARTNERSHIP, Ruleset
from .steps import Ask, DealCards, Forced, MatchOver, OfferRedeal, Step, step_and_moves
from .views import View, view, view_after_moves

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

Decide = Callable[[MatchState, int, Sequence[PlayerMove]], Move]
"""How a player's move is found: ``decide(state, seat, legal)`` returns a
legal move, or :class:`~trixcomplex.Timeout` while choosing or doubling."""

Offer = Callable[[MatchState, int], bool]
"""Whether ``seat`` demands the redeal it may demand out of turn (R-OPT-8)."""


def seat_to_move(state: MatchState) -> int:
    """The seat a host asks now: the seat to play, or in the doubling window
    the lowest seat still to answer (answers are secret, so their order is
    the host's, R-DBL-2): the first seat of :func:`~trixcomplex.next_step`'s
    :class:`~trixcomplex.Ask`."""
    return state.turn if state.turn is not None else min(state.to_act)


def redeal_claimant(state: MatchState, seat: int) -> int | None:
    """The seat other than ``seat`` that may demand a redeal now (R-OPT-8), if any:
    the seat :func:`~trixcomplex.next_step` offers a redeal to
    (:func:`~trixcomplex.rules.redeal_seat`)."""
    bad = redeal_seat(state)
    return bad if bad is not None and bad != seat else None


def next_move(
    state: MatchState, decide: Decide, offer: Offer | None = None, *, forced: bool = True
) -> Move:
    """The next player move of ``state`` (never a :class:`~trixcomplex.Deal`), by
    :func:`~trixcomplex.next_step`.

    A redeal out of turn is offered first (``offer``; none when ``None``),
    then a single legal move is played without asking (``forced``, R-TX-5),
    else ``decide`` is asked.  ``ValueError`` if no player move is due.
    """
    step, legal = step_and_moves(state)
    return _player_move(state, step, legal, decide, offer, forced)


def _player_move(
    state: MatchState,
    step: Step,
    legal: tuple[PlayerMove, ...],
    decide: Decide,
    offer: Offer | None,
    forced: bool,
) -> Move:
    """The player move ``step`` (of ``state``, ``legal`` the moves of the seat it
    names) leads to: :func:`next_move`'s answer."""
    if type(step) is OfferRedeal:
        if offer is not None and offer(state, step.seat):
            return Redeal(step.seat)
        step = step.otherwise
    if type(step) is Forced:
        return step.move if forced else decide(state, step.move.seat, (step.move,))
    if type(step) is Ask:
        return decide(state, step.seats[0], legal)
    raise ValueError(f"no player move is due in phase {state.phase.value}: {step}")


def run(
    state: MatchState,
    decide: Decide,
    *,
    offer: Offer | None = None,
    deals: random.Random | None = None,
    redeals: random.Random | None = None,
    on_move: Callable[[MatchState, Move, MatchState], None] | None = None,
    forced: bool = True,
) -> MatchState:
    """Run ``state`` forward, one :func:`~trixcomplex.next_step` at a time
    (:func:`~trixcomplex.steps.step_and_moves`), and
    return the state reached.

    With ``deals``, the whole match is played: each deal is shuffled from
    ``deals`` (a deal dealt again after a redeal, R-OPT-8, from ``redeals``
    when given, so that a redeal in one match does not shift another's
    decks).  Without ``deals``, play stops at the end of the current deal
    (the playouts of :class:`~trixcomplex.bots.MonteCarloBot`).  The player
    moves are :func:`next_move`'s.
    ``on_move(before, move, after)`` is called after every move.  A
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
                move = _player_move(state, step, legal, decide, offer, forced)
            before, state = state, apply(state, move)
            if on_move is not None:
                on_move(before, move, state)
    except BotError as exc:  # a seat's bot failed: say in which state
        exc.reached = state
        raise


@contextmanager
def _deadline(seconds: float | None, *, cpu: bool = False) -> Iterator[None]:
    """Interrupt the block with :class:`BotTimeout` after ``seconds`` (main thread, Unix):
    wall-clock seconds, or with ``cpu`` seconds of this process's CPU time."""
    usable = (
        seconds is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return
    assert seconds is not None
    which, timer = (
        (signal.SIGPROF, signal.ITIMER_PROF) if cpu else (signal.SIGALRM, signal.ITIMER_REAL)
    )
    what = "of CPU time" if cpu else ""

    def expire(signum: int, frame: object) -> None:
        raise BotTimeout(None, f"no answer within {seconds:g}s {what}".rstrip(), "R-MATCH-6")

    previous = signal.signal(which, expire)
    signal.setitimer(timer, seconds)
    try:
        yield
    finally:
        signal.setitimer(timer, 0)
        signal.signal(which, previous)


def ask(
    bot: Bot,
    state: MatchState,
    seat: int,
    rng: random.Random,
    *,
    time_limit: float | None = None,
    match: int | None = None,
    legal: Sequence[PlayerMove] | None = None,
    view_of: Callable[[MatchState, int], View] = view,
    cpu_limit: float | None = None,
) -> Move:
    """Ask ``bot`` for ``seat``'s move in ``state``, showing it only the seat's view.

    The host's side of the protocol: build the view, list the legal moves,
    ask, check the answer.  A bot that reads no view says so by having a
    ``choose_legal(legal, rng)`` method (see :class:`~trixcomplex.bots.Bot`):
    it is asked that instead, and no view is built.  ``legal`` is the seat's
    legal moves when the caller has them already (:func:`next_move` has);
    ``view_of(state, seat)`` gives the seat's view (:func:`~trixcomplex.view`,
    or a match's :class:`SeatViews`, which brings the seat's last view up to
    date instead of building it again).
    Raises :class:`~trixcomplex.bots.BotError` (an
    :class:`~trixcomplex.IllegalMoveError`, clause R-SEAT-1 or the rule the
    move breaks) if the bot answers an illegal move; ``match`` (a tournament's
    match number) is named in the error.  With ``time_limit`` (seconds), a
    bot that has not answered in time is stopped: while choosing or doubling
    its answer becomes :class:`~trixcomplex.Timeout` (R-MATCH-6, R-DBL-3),
    otherwise :class:`~trixcomplex.bots.BotTimeout` is raised.  With
    ``cpu_limit`` the same holds for seconds of CPU time (this process's,
    so a loaded machine does not make an honest bot late).  A bot with a
    true ``keeps_time`` attribute (:class:`~trixcomplex.isolated.IsolatedBot`)
    enforces its own limits: the host then sets no timer around it, so one
    clock decides.  A bot that raises (``SystemExit`` included) fails
    with :class:`~trixcomplex.bots.BotError` naming the exception.
    """
    if legal is None:
        legal = legal_moves(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no move to make in phase {state.phase.value}")
    blind = getattr(bot, "choose_legal", None)
    move: object
    late: BotTimeout | None = None
    try:
        if (time_limit is None and cpu_limit is None) or getattr(bot, "keeps_time", False):
            move = (  # no clock to start, or the bot keeps its own (one timer owner)
                blind(legal, rng)
                if blind is not None
                else bot.choose(view_of(state, seat), legal, rng)
            )
        else:
            move = _timed(bot, blind, view_of, state, seat, legal, rng, time_limit, cpu_limit)
    except BotTimeout as exc:  # an isolated bot's own clock ran out
        move, late = _LATE, exc
    except BotError as exc:  # an isolated bot that crashed: say where
        if exc.seat is None:
            raise BotError.of(bot, state, seat, exc.move, legal, match, exc.reason) from None
        raise
    except (Exception, SystemExit) as exc:  # the bot's own fault costs only its match
        raise BotError.of(bot, state, seat, None, legal, match, _raised(exc)) from exc
    if move is _LATE:  # no answer in time
        if is_legal(state, Timeout()):  # the rules give the host a timeout here
            return Timeout()
        why = late.reason if late is not None else None
        raise BotTimeout.of(bot, state, seat, legal, match, time_limit or cpu_limit, why)
    if move not in legal:
        raise BotError.of(bot, state, seat, move, legal, match)
    return cast("PlayerMove", move)


_LATE = object()
"""What :func:`_timed` returns for a bot that did not answer in time."""


def _raised(exc: BaseException) -> str:
    """What a bot's exception says, for the reason of its forfeit."""
    return f"raised {type(exc).__name__}: {exc}"[:300]


def _timed(
    bot: Bot,
    blind: Callable[[Sequence[PlayerMove], random.Random], PlayerMove] | None,
    view_of: Callable[[MatchState, int], View],
    state: MatchState,
    seat: int,
    legal: Sequence[PlayerMove],
    rng: random.Random,
    time_limit: float | None,
    cpu_limit: float | None = None,
) -> object:
    """The bot's answer within ``time_limit`` wall-clock seconds and ``cpu_limit``
    seconds of this process's CPU time, or ``_LATE`` if it was late or stopped."""
    start, cpu_start = time.monotonic(), time.process_time()
    try:
        with _deadline(time_limit), _deadline(cpu_limit, cpu=True):
            if blind is not None:
                move = blind(legal, rng)
            else:
                move = bot.choose(view_of(state, seat), legal, rng)
    except BotTimeout:
        return _LATE
    if time_limit is not None and time.monotonic() - start > time_limit:
        return _LATE
    if cpu_limit is not None and time.process_time() - cpu_start > cpu_limit:
        return _LATE
    return move


def offer_redeal(bot: Bot, state: MatchState, seat: int, rng: random.Random) -> bool:
    """Ask ``seat``'s bot whether it demands a redeal it may make out of turn (R-OPT-8).

    With ``bad_hand_redeal``, the seat holding a bad TRIX hand may play
    :class:`~trixcomplex.Redeal` before the first card, even when another
    seat is to play.  Its only legal move is then the Redeal itself, which
    ``choose`` cannot decline, so a host asks this yes/no question first
    (once, before asking the seat to play).  A bot answers through an
    optional method ``wants_redeal(view, rng) -> bool``; a bot without it
    never demands a redeal out of turn (nor does an isolated bot late to
    answer).  A bot that raises fails with :class:`~trixcomplex.bots.BotError`.
    Raises ``ValueError`` if ``seat`` may not demand one now.
    """
    if Redeal(seat) not in legal_moves(state, seat):
        raise ValueError(f"seat {seat} may not demand a redeal now (R-OPT-8)")
    wants = getattr(bot, "wants_redeal", None)
    if wants is None:
        return False
    legal = (Redeal(seat),)
    try:
        return bool(wants(view(state, seat), rng))
    except BotTimeout:  # an isolated bot late to an offer it may decline: declined
        return False
    except BotError as exc:  # an isolated bot that crashed or was late: say where
        if exc.seat is None:
            raise BotError.of(bot, state, seat, exc.move, legal, None, exc.reason) from None
        raise
    except (Exception, SystemExit) as exc:  # the bot's own fault costs only its match
        raise BotError.of(bot, state, seat, None, legal, None, _raised(exc)) from exc


class SeatViews:
    """Each seat's views along one match, each built from the seat's previous one.

    Calling it with a state of the match and a seat gives ``view(state, seat)``,
    brought up to date from the last view it gave that seat with
    :func:`~trixcomplex.views.view_after_moves` (the moves since, read from the
    state's history).  The states asked about must follow one history forward,
    as a host loop's do (:func:`play_match` keeps one per match); a state not
    ahead of the seat's last one, or far ahead, gets a full view.  Each seat's
    view is only ever its own: nothing is shared between seats.

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

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: list[tuple[View, int] | None] = [None, None, None, None]

    def __call__(self, state: MatchState, seat: int) -> View:
        last = self._last[seat]
        length = len(state.history)
        if last is None or not 0 < length - last[1] <= _CATCH_UP:
            seen = view(state, seat)
        else:
            behind = length - last[1]
            moves = list(islice(state.history.newest_first(), behind))
            moves.reverse()
            seen = view_after_moves(last[0], moves, state)
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
) -> tuple[Decide, Offer]:
    """The ``decide`` and ``offer`` of :func:`run` for four bots, each asked by :func:`ask`."""

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

    return decide, offer


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
    decide, offer = _bots_players(seats, rngs, time_limit)
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
    decide, offer = _bots_players(seats, rngs, time_limit, match, cpu_limit)
    note = None
    if on_move is not None:
        each = on_move

        def note(before: MatchState, move: Move, after: MatchState) -> None:
            each(after)

    start = new_match(ruleset) if state is None else state
    return run(start, decide, offer=offer, deals=deals, redeals=redeals, on_move=note)
