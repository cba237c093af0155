"""The :class:`Bot` protocol, and how a host asks a bot for its move.

A bot is anything with a ``choose(view, legal, rng)`` method.  It receives
the :class:`~trixcomplex.views.View` of its own seat (never the
:class:`~trixcomplex.MatchState`: hidden information is kept by the
architecture, R-HID-1), the seat's legal moves and a ``random.Random`` it
must use for every random choice (no hidden randomness).

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
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..engine import MatchState, legal_moves
from ..errors import IllegalMoveError
from ..moves import PlayerMove

if TYPE_CHECKING:
    from ..views import View

__all__ = ["Bot", "BotError", "ask", "offer_redeal"]


@runtime_checkable
class Bot(Protocol):
    """A player: picks one of ``legal`` after looking at its seat's ``view``.

    ``legal`` is never empty (a host only asks a seat that may move).  The
    bot must return one of the moves in ``legal`` and must draw every random
    number from ``rng``, so that a match is reproducible from its seed.
    Bots used with a process pool must be picklable (plain attributes only).
    """

    def choose(self, view: View, legal: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """The move to make now."""
        ...


class BotError(IllegalMoveError):
    """A bot returned a move that is not one of its legal moves."""


def ask(bot: Bot, state: MatchState, seat: int, rng: random.Random) -> PlayerMove:
    """Ask ``bot`` for ``seat``'s move in ``state``, showing it only the seat's view.

    This is the host's side of the protocol: it builds the view, lists the
    legal moves and checks the answer.  Raises :class:`BotError` (an
    :class:`~trixcomplex.IllegalMoveError`) if the bot answers an illegal move.
    """
    from ..views import view  # layer 5; imported here so the protocol stays importable

    legal = legal_moves(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no move to make in phase {state.phase.value}")
    move = bot.choose(view(state, seat), legal, rng)
    if move not in legal:
        raise BotError(move, f"{type(bot).__name__} chose a move that is not legal", "R-SEAT-1")
    return move


def offer_redeal(bot: Bot, state: MatchState, seat: int, rng: random.Random) -> bool:
    """Ask ``seat``'s bot whether it demands a redeal it may make out of turn (R-OPT-8).

    With ``bad_hand_redeal``, the seat holding a bad TRIX hand may play
    :class:`~trixcomplex.Redeal` before the first card, even when another
    seat is to play.  Its only legal move is then the Redeal itself, which
    ``choose`` cannot decline, so a host asks this yes/no question first
    (once, before asking the seat to play).  A bot answers through an
    optional method ``wants_redeal(view, rng) -> bool``; a bot without it
    never demands a redeal out of turn.  Raises ``ValueError`` if ``seat``
    may not demand one now.
    """
    from ..moves import Redeal
    from ..views import view

    if Redeal(seat) not in legal_moves(state, seat):
        raise ValueError(f"seat {seat} may not demand a redeal now (R-OPT-8)")
    wants = getattr(bot, "wants_redeal", None)
    if wants is None:
        return False
    return bool(wants(view(state, seat), rng))
