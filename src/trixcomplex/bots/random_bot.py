"""A bot that picks a legal move uniformly at random: the baseline of the strength table."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from attrs import frozen

from ..core.moves import PlayerMove

if TYPE_CHECKING:
    from ..knowledge.views import View

__all__ = ["RandomBot"]


@frozen
class RandomBot:
    """Any legal move, uniformly, drawn from the ``rng`` it is given.

    >>> import random
    >>> from trixcomplex import Pass
    >>> RandomBot().choose(None, [Pass(0)], random.Random(1))  # type: ignore[arg-type]
    Pass(seat=0)
    """

    def choose(self, view: View, legal: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """A uniformly random legal move."""
        return self.choose_legal(legal, rng)

    def choose_legal(self, legal: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """The same move as :meth:`choose`, which reads no view: a host that calls this
        builds none (see :class:`~trixcomplex.bots.Bot`)."""
        return legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]

    def wants_redeal(self, view: View, rng: random.Random) -> bool:
        """A redeal offered out of turn (R-OPT-8): a fair coin, drawn from ``rng``."""
        return rng.random() < 0.5
