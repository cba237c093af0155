"""The table's host: the moves a table makes by itself, and when.

What comes next is the library's :func:`~trixcomplex.next_step`; the host
puts it on the table's clocks: the shuffle (after the deal pause), a bot's
move, a forced move, a redeal a bot demands, the timeout of the seat whose
clock runs out.  Bots never think on the event loop: each bot's question (its
seat's view, never the state) goes to a :class:`~trixcomplex.server.pool.BotPool`
and its answer is applied when it is due and ready; a bot that overruns its
budget is moved for as a person out of time would be.  In the doubling window
every answer, bot or person, given before a fixed time after the window opens
is applied at that time, so when anything happens does not tell who was asked
(R-HID-2).
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import Callable
from concurrent.futures import Future
from functools import partial
from typing import Any

from attrs import frozen

import trixcomplex as tc

from .clock import Clock, Timer
from .metrics import Metrics
from .options import Options
from .pool import BotPool
from .seats import Refused, Seat, Settings
from .store import MoveTaken

__all__ = ["TableHost"]

log = logging.getLogger("trixcomplex.server")


@frozen
class _Asked:
    """A question to a bot: at which point of the match (the length of its
    history), when, and the future answer."""

    position: int
    at: float
    answer: Future[Any]


_NO_ANSWER = object()
_RETRY_FIRST, _RETRY_MOST = 0.5, 30.0  # seconds: a failed store is tried again, backing off


class TableHost:
    """The host's own moves at a :class:`~trixcomplex.server.table.Table` (a part of
    it): deals, bots, forced moves and timeouts, on the table's one timer."""

    # The fields of the table this part reads and sets (Table.__init__ sets them all).
    id: str
    settings: Settings
    seats: list[Seat]
    state: tc.MatchState
    _time: Clock
    _pool: BotPool | None
    _options: Options
    _bots: dict[int, str]
    _rng: random.Random
    _shuffler: random.Random
    _offered: set[tuple[int, int]]
    _asked: dict[tuple[str, int], _Asked]
    _held: dict[int, tc.Move]
    _window_opened: float
    _timer: Timer | None
    _stopped: bool
    _last_move_at: float
    _deadline: float
    _retry: float
    _away: dict[int, float]
    _stand_ins: set[int]
    metrics: Metrics | None

    def _apply(self, move: tc.Move) -> None:
        """Apply the host's ``move`` as one step of the table (the table's own)."""
        raise NotImplementedError

    def _take_over(self, seat: int) -> None:
        """A stand-in bot plays ``seat`` from now on (the table's own)."""
        raise NotImplementedError

    def _waiting_for_people(self) -> bool:
        return any(s.kind == "person" and s.token_sha256 is None for s in self.seats)

    def _answers_at(self) -> float:
        """When the doubling window's answers given so far are applied: a fixed time
        after it opens (at a table with bots), whoever was asked (R-HID-2)."""
        if not self._bots:
            return self._window_opened
        return self._window_opened + max(self.settings.bot_delay, self._options.bot_window)

    def _bot_pool(self) -> BotPool:
        if self._pool is None:  # a table made by hand (tests, examples): threads
            self._pool = BotPool(1, processes=False)
        return self._pool

    def _ask(self, kind: str, seat: int) -> None:
        """Ask ``seat``'s bot, in the pool, unless it was asked already at this point."""
        key = (kind, seat)
        position = len(self.state.history)
        if key in self._asked and (kind == "double" or self._asked[key].position == position):
            return
        seen = tc.view(self.state, seat)  # the seat's view only, never the state
        pool, name, seed = self._bot_pool(), self._bots[seat], self._rng.randrange(2**63)
        answer: Future[Any]
        if kind == "redeal":
            answer = pool.wants_redeal(name, seen, seed)
        else:
            answer = pool.decide(name, seen, seed)
        self._asked[key] = _Asked(position, self._time.now(), answer)
        answer.add_done_callback(lambda _: self._time.call_soon_threadsafe(self._wake))
        if self.metrics is not None:
            at = self._asked[key].at
            answer.add_done_callback(partial(self._decided, self.metrics, name, at))

    def _decided(self, metrics: Metrics, name: str, asked_at: float, answer: Future[Any]) -> None:
        """Count the bot's decision time (on the pool's thread: the metrics are safe there)."""
        if not answer.cancelled() and answer.exception() is None:
            metrics.bot_decided(name, self._time.now() - asked_at)

    def _wake(self) -> None:
        if not self._stopped:
            self._schedule()

    def _ask_bots(self) -> None:
        """Put every question the bots must answer now to the pool; forget stale ones."""
        state = self.state
        position = len(state.history)
        window = state.phase is tc.Phase.DOUBLE
        self._asked = {
            key: asked
            for key, asked in self._asked.items()
            if (key[0] == "double") == window and (window or asked.position == position)
        }
        if not window:
            self._held.clear()
        step = tc.next_step(state)
        if type(step) is tc.OfferRedeal:
            # R-OPT-8: a bot may demand a redeal out of turn; ask it once per shuffle.
            shuffle = position - len(state.history.since_deal())
            if step.seat in self._bots and (shuffle, step.seat) not in self._offered:
                self._ask("redeal", step.seat)
            step = step.otherwise
        if type(step) is tc.Ask:  # a forced move is the host's to play (R-TX-5)
            for seat in step.seats:
                if seat in self._bots:
                    self._ask("double" if window else "move", seat)

    def _answer(self, kind: str, seat: int) -> object:
        """The bot's answer if it is ready and sound; ``_NO_ANSWER`` otherwise."""
        asked = self._asked.get((kind, seat))
        if asked is None or not asked.answer.done() or asked.answer.cancelled():
            return _NO_ANSWER
        error = asked.answer.exception()
        if error is not None:
            log.warning("table %s: bot %s failed: %s", self.id, self._bots[seat], error)
            return _NO_ANSWER
        answer = asked.answer.result()
        if kind != "redeal" and answer not in tc.legal_moves(self.state, seat):
            log.warning("table %s: bot %s answered an illegal move", self.id, self._bots[seat])
            return _NO_ANSWER
        return answer

    def _bot_steps(self) -> list[tuple[float, Callable[[], None]]]:
        """The bots' moves and redeal offers: each when due and ready, or when its
        budget runs out (then the host moves for it as for a seat out of time)."""
        steps: list[tuple[float, Callable[[], None]]] = []
        due = self._last_move_at + self.settings.bot_delay
        budget = self._options.bot_budget
        offers = [(s, a) for (kind, s), a in self._asked.items() if kind == "redeal"]
        for seat, asked in offers:
            answer = self._answer("redeal", seat)
            if answer is True:
                steps.append((due, partial(self._apply, tc.Redeal(seat))))
            elif asked.answer.done():  # declined, or failed
                steps.append((self._time.now(), partial(self._declined, seat)))
            else:
                steps.append((asked.at + budget, partial(self._declined, seat)))
        if offers:  # R-OPT-8: the offers are settled before any bot plays
            return steps
        for (kind, seat), asked in self._asked.items():
            if kind != "move":
                continue
            answer = self._answer("move", seat)
            if isinstance(answer, tc.Move):
                steps.append((due, partial(self._apply, answer)))
            elif asked.answer.done():  # failed, or illegal: as if out of time
                steps.append((due, partial(self._overrun, seat)))
            else:
                steps.append((max(due, asked.at + budget), partial(self._overrun, seat)))
        return steps

    def _declined(self, seat: int) -> None:
        state = self.state
        self._offered.add((len(state.history) - len(state.history.since_deal()), seat))
        self._asked.pop(("redeal", seat), None)
        self._schedule()

    def _overrun(self, seat: int) -> None:
        log.warning("table %s: bot %s did not answer in time", self.id, self._bots[seat])
        self._apply(tc.timeout_move(self.state, seat))

    def _window_answers(self) -> None:
        """Apply the doubling window's answers so far, in seat order, all at once:
        each bot's (doubling nothing if it is not ready, R-DBL-3) and each held one."""
        for seat in range(4):
            state = self.state
            if state.phase is not tc.Phase.DOUBLE or seat not in state.to_act:
                continue
            if seat in self._bots:
                answer = self._answer("double", seat)
                move = answer if isinstance(answer, tc.Double) else tc.Double(seat, frozenset())
                self._apply(move)
            elif seat in self._held:
                self._apply(self._held.pop(seat))

    def _deal(self) -> None:
        self._apply(tc.Deal.shuffled(self._shuffler))  # never sent to anyone (R-HID-3)

    def _forced(self, step: tc.Step) -> tuple[float, Callable[[], None]] | None:
        """The forced move of ``step`` (R-TX-5), when it is due: a bot's as its own
        move would be, a person's after the forced-move delay (the person may play
        it sooner); none while a bot's redeal offer is open (R-OPT-8)."""
        if type(step) is tc.OfferRedeal:
            if any(kind == "redeal" for kind, _ in self._asked):
                return None
            step = step.otherwise
        if type(step) is not tc.Forced:
            return None
        move = step.move
        delay = self.settings.bot_delay if move.seat in self._bots else self.settings.forced_delay
        return self._last_move_at + delay, partial(self._apply, move)

    def _timeout(self) -> None:
        # A Timeout in the two windows (R-MATCH-6, R-DBL-3), else the host policy.
        if self.state.phase is tc.Phase.DOUBLE:  # the answers given in time count
            self._window_answers()
            if self.state.phase is not tc.Phase.DOUBLE:
                return
        self._apply(tc.timeout_move(self.state, min(self.state.to_act)))

    def _host_action(self) -> tuple[float, Callable[[], None]] | None:
        """The host's next action and when it is due (monotonic seconds), if any:
        what :func:`~trixcomplex.next_step` says comes next, on the table's clocks."""
        state, settings = self.state, self.settings
        step = tc.next_step(state)
        if type(step) is tc.MatchOver:
            return None
        away: list[tuple[float, Callable[[], None]]] = [
            (since + self._options.seat_timeout, partial(self._take_over, seat))
            for seat, since in self._away.items()
            if seat not in self._bots
        ]
        if type(step) is tc.DealCards:
            if self._waiting_for_people():
                return min(away, key=lambda action: action[0], default=None)
            pause = settings.deal_pause if state.deal_number else 0.0
            away.append((self._last_move_at + pause, self._deal))
            return min(away, key=lambda action: action[0])
        actions = [(self._deadline, self._timeout), *away]
        if state.phase is tc.Phase.DOUBLE:
            if self._held or any(s in state.to_act for s in self._bots):
                actions.append((self._answers_at(), self._window_answers))
        else:
            actions += self._bot_steps()
        forced = self._forced(step)
        if forced is not None:
            actions.append(forced)
        return min(actions, key=lambda action: action[0])

    def _schedule(self) -> None:
        """Set the one timer of the table to the host's next action (asking the bots
        in the pool what they must answer first)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._ask_bots()
        due = self._host_action()
        if due is None:
            return
        when, action = due
        self._timer = self._time.call_later(when - self._time.now(), partial(self._fire, action))

    def _fire(self, action: Callable[[], None]) -> None:
        self._timer = None
        try:
            action()
        except Refused as exc:
            if exc.code != "server.unavailable":
                log.exception("table %s: the host's move failed", self.id)
                return
            # The move was not stored (a full disk): try again later, backing off, so
            # the table goes on once the store is back.
            self._retry = min(_RETRY_MOST, max(_RETRY_FIRST, 2 * self._retry))
            log.warning("table %s: the host's move waits %g s for the store", self.id, self._retry)
            if not self._stopped:
                self._timer = self._time.call_later(self._retry, self._wake)
        except MoveTaken:  # another process stored a move here first: caught up already,
            if not self._stopped:  # the host decides again from the new state
                self._schedule()
        except Exception:  # a bug, not a client's fault: keep serving the other tables
            log.exception("table %s: the host's move failed", self.id)
        else:
            self._retry = 0.0

    def _start_clocks(self) -> float:
        """Every clock from now: the move time, the doubling window, a whole move time
        for the seat to play (a restored table charges nobody the time it was down);
        returns that now."""
        now = self._time.now()
        self._last_move_at = now
        self._window_opened = now
        self._deadline = now + self.settings.move_time
        self._stopped = False
        return now

    def start(self) -> None:
        """Start the table's clocks (after creating or restoring it, inside the event loop)."""
        now = self._start_clocks()
        if not self.state.is_over:  # nobody is connected yet: every joined seat is away
            self._away = {
                s: now
                for s, seat in enumerate(self.seats)
                if seat.kind == "person" and seat.token_sha256 is not None
            }
        self._schedule()

    def settle(self) -> None:
        """Apply what was given but not yet applied, then :meth:`stop` (the server
        drains): the people's doubling answers held for the window's answer time are
        applied now, with the bots' answers ready by now (a bot not ready doubles
        nothing, R-DBL-3), so that no acknowledged answer is lost.  Everything else
        the host would do next follows from the stored record again on restart."""
        try:
            for _ in range(4):  # each seat's answer, caught up after another's came first
                if not (self._held and self.state.phase is tc.Phase.DOUBLE):
                    break
                with contextlib.suppress(MoveTaken):
                    self._window_answers()
        finally:
            self.stop()

    def stop(self) -> None:
        """Stop the table's timer (the server is shutting down, or the table is archived)."""
        self._stopped = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for asked in self._asked.values():
            asked.answer.cancel()
        self._asked.clear()
