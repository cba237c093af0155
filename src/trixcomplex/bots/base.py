"""The :class:`Bot` protocol, and how a host asks a bot for its move.

A bot is anything with a ``choose(view, legal, rng)`` method.  It receives
the :class:`~trixcomplex.knowledge.views.View` of its own seat (never the
:class:`~trixcomplex.MatchState`: hidden information is kept by the
architecture, R-HID-1), the seat's legal moves and a ``random.Random`` it
must use for every random choice (no hidden randomness).

>>> import random
>>> import trixcomplex as tc
>>> from trixcomplex.bots import RandomBot, ask
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
>>> seat = state.owner
>>> move = ask(RandomBot(), state, seat, random.Random(0))
>>> move in tc.legal_moves(state, seat)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, Self, runtime_checkable

from ..core.engine import MatchState, apply
from ..core.errors import IllegalMoveError
from ..core.moves import PlayerMove

if TYPE_CHECKING:
    from ..knowledge.views import View

__all__ = ["Bot", "BotError", "BotTimeout", "check_bot"]


@runtime_checkable
class Bot(Protocol):
    """A player: picks one of ``legal`` after looking at its seat's ``view``.

    ``legal`` is never empty (a host only asks a seat that may move).  The
    bot must return one of the moves in ``legal`` and must draw every random
    number from ``rng``, so that a match is reproducible from its seed.
    Bots used with a process pool must be picklable (plain attributes only).

    **Optional: a bot that reads no view.**  Building a seat's view costs a
    host more than choosing a random move does.  A bot whose choice depends
    on the legal moves and ``rng`` alone may say so by also having a method
    ``choose_legal(legal, rng) -> move``: the host loop
    (:func:`trixcomplex.host.loop.ask`) then calls it *instead of* ``choose`` and
    builds no view.  It gets nothing more than ``choose`` does (its own
    legal moves and its generator: no state, no other seat's cards), and it
    must return what ``choose`` would with the same ``rng``, drawing the same
    random numbers, so that a match is the same whichever is called
    (:class:`~trixcomplex.bots.RandomBot` does this).  Other callers may
    still call ``choose``.  :func:`check_bot` refuses a ``choose_legal``
    that is not callable.
    """

    def choose(self, view: View, legal: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """The move to make now."""
        ...


def check_bot(bot: object, where: str = "a seat") -> None:
    """Refuse, before any match is played, an object that is not a :class:`Bot`.

    Raises ``TypeError`` naming ``where`` the object was given and what it
    lacks (a callable ``choose(view, legal, rng)``; a ``choose_legal``, if
    it has one, must be callable too).

    >>> check_bot(object(), "side A")
    Traceback (most recent call last):
    TypeError: side A: object is not a bot: it has no choose(view, legal, rng) method
    """
    if not callable(getattr(bot, "choose", None)):
        raise TypeError(
            f"{where}: {type(bot).__name__} is not a bot: it has no choose(view, legal, rng) method"
        )
    blind = getattr(bot, "choose_legal", None)
    if blind is not None and not callable(blind):
        raise TypeError(f"{where}: {type(bot).__name__}.choose_legal is not a method")


def _where(state: MatchState, seat: int, match: int | None) -> str:
    game = f"match {match}, " if match is not None else ""
    return f"{game}deal {state.deal_number}, phase {state.phase.value}, seat {seat}"


class BotError(IllegalMoveError):
    """A bot returned a move that is not one of its legal moves.

    ``rule`` is the clause the move breaks (the engine's own reason when the
    move is a move of the game, R-SEAT-1 when it is not even that);
    ``match`` (the tournament's match number, or ``None``), ``deal``,
    ``phase``, ``seat`` and ``legal`` (the seat's legal moves) say where;
    ``reached`` is the state the bot was asked in, once the host loop
    (:func:`trixcomplex.host.loop.run`) has passed the error on (``None`` before),
    so that a tournament can keep the record of a forfeited match.
    """

    match: int | None = None
    reached: MatchState | None = None
    deal: int | None = None
    phase: str | None = None
    seat: int | None = None
    legal: tuple[PlayerMove, ...] = ()

    @classmethod
    def of(
        cls,
        bot: object,
        state: MatchState,
        seat: int,
        move: object,
        legal: Sequence[PlayerMove],
        match: int | None = None,
        failure: str | None = None,
    ) -> BotError:
        """The error for ``bot`` answering ``move`` at ``seat`` in ``state``
        (or failing to answer: ``failure`` says how)."""
        rule, why = "R-SEAT-1", failure or "not a move of the game"
        if failure is None:
            try:
                apply(state, move)  # type: ignore[arg-type]
            except IllegalMoveError as exc:
                rule, why = exc.rule or "R-SEAT-1", exc.reason
            except Exception as exc:  # not a move at all
                why = f"not a move ({type(exc).__name__})"
        shown = ", ".join(str(m) for m in legal[:12]) + (" …" if len(legal) > 12 else "")
        what = "failed" if failure is not None else "chose a move that is not legal"
        reason = (
            f"{type(bot).__name__} {what} at {_where(state, seat, match)}"
            f": {why}; legal moves: {shown}"
        )
        return cls(move, reason, rule)._at(state, seat, legal, match)

    def _at(
        self, state: MatchState, seat: int, legal: Sequence[PlayerMove], match: int | None
    ) -> Self:
        """This error, placed: the match, deal, phase, seat and legal moves."""
        self.match, self.deal, self.phase = match, state.deal_number, state.phase.value
        self.seat, self.legal = seat, tuple(legal)
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), self.move, self.reason, self.rule, dict(self.__dict__)))


def _rebuild(
    cls: type[BotError], move: object, reason: str, rule: str, attrs: dict[str, object]
) -> BotError:
    error = cls(move, reason, rule)
    error.__dict__.update(attrs)
    return error


class BotTimeout(BotError):
    """A bot did not answer within the host's time limit (a tournament forfeits its match)."""

    @classmethod
    def of(  # type: ignore[override]
        cls,
        bot: object,
        state: MatchState,
        seat: int,
        legal: Sequence[PlayerMove],
        match: int | None = None,
        limit: float | None = None,
        why: str | None = None,
    ) -> BotTimeout:
        """The error for ``bot`` taking longer than ``limit`` seconds at ``seat``
        (``why``: the bot's own account, an isolated bot's clock)."""
        within = f"within {limit:g}s" if limit is not None else "in time"
        reason = f"{type(bot).__name__} did not answer {within}"
        if why is not None:
            reason += f" ({why})"
        return cls("no answer", f"{reason} at {_where(state, seat, match)}", "R-MATCH-6")._at(
            state, seat, legal, match
        )
