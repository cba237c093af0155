"""Per-decision diagnostics: which move a bot makes, and what chose it.

:func:`explain` asks a bot for its move in a view and returns an
:class:`Explanation`: for :class:`~trixcomplex.bots.RuleBot` the tactic (the
function of :mod:`~trixcomplex.bots.tactics` or :mod:`~trixcomplex.bots.club`)
that decided, for :class:`~trixcomplex.bots.MonteCarloBot` the mean gain of
every candidate over the worlds it sampled.  Like the bots, it reads nothing
but the seat's view: two states the seat cannot tell apart get the same
explanation.  ``trixcomplex play --hint`` prints it for the human's seat.

>>> import random
>>> import trixcomplex as tc
>>> from trixcomplex.bots import RuleBot
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
>>> hint = explain(RuleBot(), tc.view(state, state.owner))
>>> hint.tactic, hint.move in tc.legal_moves(state, state.owner)
('choose_contract', True)
>>> hint.summary
'the remaining contract the hand suits best'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from attrs import frozen

from ..core.catalog import N_
from ..core.moves import PlayerMove
from .base import Bot
from .levels import LevelBot
from .montecarlo import MonteCarloBot
from .random_bot import RandomBot
from .rule_bot import RuleBot

if TYPE_CHECKING:
    from ..knowledge.views import View

__all__ = ["TACTICS", "Explanation", "explain"]


TACTICS: dict[str, str] = {
    "forced": N_("the only legal move"),
    "choose_contract": N_("the remaining contract the hand suits best"),
    "choose_doubles": N_("double only well-guarded cards with nothing above them"),
    "double_by_length": N_("double by the suit's length and the voids to come"),
    "wants_redeal": N_("a bad TRIX hand: demand a redeal"),
    "trix_card": N_("lay the card that unlocks my next cards, keep the ones others need"),
    "complex_card": N_("duck with the highest losing card, take high, shed on opponents"),
    "duck": N_("duck with the highest card that still loses"),
    "drop_under_sure_winner": N_("an opponent surely takes the trick: drop what costs him most"),
    "take_high": N_("every card wins: take with the highest card that is no penalty"),
    "under_doubled_queen": N_("forced to win: win below a later opponent's doubled Queen"),
    "shed_on_opponent": N_("void: shed what costs the opponent taking the trick most"),
    "shed_above_doubled": N_("void: shed a card above an opponent's doubled card"),
    "shed_toward_diamond_void": N_("partner wins: shed a diamond to become void in diamonds"),
    "shed_safe_on_partner": N_("partner wins: shed a card that costs nothing"),
    "shed_least_on_partner": N_("partner wins: shed the cheapest penalty card"),
    "lead_low": N_("lead the card least likely to take the trick, away from penalties"),
    "lead_short_suit": N_("lead from a short suit, to become void and shed penalties"),
    "safe_to_take": N_("lead where a void opponent cannot shed a penalty on my trick"),
    "avoid_opponents_voids": N_("every suit left is one the opponents are void in"),
    "lead_into_partner_void": N_("lead into the partner's void: he sheds on the opponent"),
    "avoid_own_doubled_suit": N_("avoid leading the suit of my side's doubled card"),
    "attack_doubled_from_below": N_("lead under an opponent's doubled card"),
    "endplay_doubled_card": N_("lead under an opponent's doubled card, the last of its suit"),
    "endgame_card": N_("the last tricks solved exactly over every layout of the unseen cards"),
    "random": N_("a uniformly random legal move"),
    "search": N_("the best mean gain over the worlds sampled"),
    "cautious_search": N_(
        "RuleBot's move unless another surely gains more over the worlds sampled"
    ),
    "endgame": N_("the best mean exact value over every layout of the unseen cards"),
    "choose": N_("the bot's own choice (it gives no reasons)"),
}
"""Every tactic an :class:`Explanation` may name, with what it does in one line (English;
``translate(TACTICS[name], locale)`` in another language)."""


@frozen
class Explanation:
    """A bot's move in one view and what chose it.

    - ``move``: the move the bot makes (what its ``choose`` returns).
    - ``tactic``: the name of the tactic that chose it (a key of :data:`TACTICS`):
      RuleBot's function, ``"search"`` for MonteCarloBot (``"cautious_search"``
      with its ``caution``, ``"endgame"`` when it solved the last tricks exactly),
      ``"random"``, or ``"choose"`` for a bot that gives no reasons.
    - ``summary``: one line for a human.
    - ``worlds``: the worlds a search played, or the layouts it solved (0 for
      other bots).
    - ``gains``: per candidate move searched, its mean gain over those worlds
      (points of the deal, best first; weighted by the worlds' likelihood with
      ``inference``).
    - ``sharper``: for a :class:`~trixcomplex.bots.levels.LevelBot` whose softer choice
      left RuleBot version 2's move, that move (``None`` otherwise).
    """

    move: PlayerMove
    tactic: str
    summary: str
    worlds: int = 0
    gains: tuple[tuple[PlayerMove, float], ...] = ()
    sharper: PlayerMove | None = None

    def __str__(self) -> str:
        text = f"{self.move}: {self.summary}"
        if self.gains:
            shown = ", ".join(f"{m} {g:+.0f}" for m, g in self.gains[:3])
            text += f" ({self.worlds} worlds; {shown})"
        return text


def explain(
    bot: Bot,
    view: View,
    legal: Sequence[PlayerMove] | None = None,
    rng: random.Random | None = None,
) -> Explanation:
    """``bot``'s move in ``view`` (among ``legal``, by default the view's legal moves)
    and what chose it.  ``rng`` is the generator the bot draws from (a fresh
    ``random.Random(0)`` by default, so that the explanation is reproducible).

    Raises ``ValueError`` when the view's seat has no move to make.
    """
    moves = tuple(view.legal_moves if legal is None else legal)
    if not moves:
        raise ValueError(f"no move to explain: seat {view.seat} has no legal move now")
    rng = random.Random(0) if rng is None else rng
    if len(moves) == 1:
        return Explanation(moves[0], "forced", TACTICS["forced"])
    if isinstance(bot, MonteCarloBot) and not bot.searches(view):
        bot = RuleBot(version=bot.default_version)
    if isinstance(bot, RuleBot):
        move, tactic = bot.decide(view, moves)
        return Explanation(move, tactic, TACTICS[tactic])
    if isinstance(bot, LevelBot):
        move, tactic, strong = bot.decide(view, moves, rng)
        softer = strong if move != strong else None
        return Explanation(move, tactic, TACTICS[tactic], sharper=softer)
    if isinstance(bot, MonteCarloBot):
        found = bot.search(view, moves, rng)
        order = sorted(range(len(found.moves)), key=lambda i: (-found.means[i], i))
        gains = tuple((found.moves[i], found.means[i]) for i in order)
        how = "endgame" if found.exact else "cautious_search" if found.advantages else "search"
        return Explanation(found.move, how, TACTICS[how], max(found.worlds), gains)
    tactic = "random" if isinstance(bot, RandomBot) else "choose"
    return Explanation(bot.choose(view, moves, rng), tactic, TACTICS[tactic])
