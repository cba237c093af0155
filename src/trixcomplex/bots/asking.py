"""How a host asks a bot for its move: only the seat's view, the legal moves, a time limit.

:func:`ask` builds the seat's :class:`~trixcomplex.View`, asks the bot
(or its ``choose_legal``, when it reads no view), stops it at the time limit
and checks its answer; :func:`offer_redeal` asks the one question ``choose``
cannot, whether to demand a redeal out of turn (R-OPT-8).  Both belong to the
bot protocol (:mod:`trixcomplex.bots.base`); the host loop
(:mod:`trixcomplex.host.loop`), the command line and the RL table call them.

>>> import random
>>> import trixcomplex as tc
>>> from trixcomplex.bots import RandomBot
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
>>> seat = state.owner
>>> move = ask(RandomBot(), state, seat, random.Random(0))
>>> move in tc.legal_moves(state, seat)
True
"""

from __future__ import annotations

import random
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import cast

from ..core.engine import MatchState, is_legal, legal_moves
from ..core.moves import Move, PlayerMove, Redeal, Timeout
from ..knowledge.views import View, view
from .base import Bot, BotError, BotTimeout

__all__ = ["ask", "offer_redeal"]


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
    true ``keeps_time`` attribute (:class:`~trixcomplex.host.isolated.IsolatedBot`)
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
