"""Writing a bot of your own and measuring it against the built-in bots.

A bot is any object with ``choose(view, legal, rng) -> move``: it sees its
seat's :class:`~trixcomplex.View` only (never another hand, R-HID-1), must
return one of ``legal`` and must draw any randomness from ``rng``.  Here
:class:`DuckingBot` follows a few plain ideas:

- choose TRIX first with two Jacks or more, else COMPLEX (R-MATCH-5);
- never double (R-DBL-2: an empty answer is an answer);
- in COMPLEX, play the highest card that still loses the trick, shed K♥,
  Queens and diamonds when void, and lead low (R-CX-2, R-CX-3, R-CX-5);
- in TRIX, lay the card of the suit it holds most of (R-TX-2).

:func:`trixcomplex.host.tournament.simulate` then plays seeded matches in pairs on
the same shuffles with the seats exchanged, and reports win rates with 95%
intervals.  Run it with ``python examples/custom_bot.py``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import trixcomplex as tc
from trixcomplex.bots import Bot, RandomBot, RuleBot
from trixcomplex.host.tournament import simulate

MATCHES = 24
"""Matches per pairing: enough for a first look, small enough to run in a second."""


def danger(card: tc.Card) -> float:
    """How much a card costs whoever takes it, as a shedding priority (R-CX-5)."""
    if card == tc.parse_card("KH"):
        return 75
    if card.rank is tc.Rank.QUEEN:
        return 25 + (10 if card.suit is tc.Suit.DIAMONDS else 0)
    return (10 if card.suit is tc.Suit.DIAMONDS else 0) + card.rank / 100


class DuckingBot:
    """Ducks tricks in COMPLEX, lays its longest suit in TRIX, never doubles."""

    def choose(
        self, view: tc.View, legal: Sequence[tc.PlayerMove], rng: random.Random
    ) -> tc.PlayerMove:
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        if isinstance(first, tc.Choose):
            jacks = sum(card.rank is tc.Rank.JACK for card in view.hand)
            contract = tc.Contract.TRIX if jacks >= 2 else tc.Contract.COMPLEX
            return tc.Choose(first.seat, contract)
        if isinstance(first, tc.Double):
            return next(m for m in legal if isinstance(m, tc.Double) and not m.cards)
        cards = [m.card for m in legal if isinstance(m, tc.Play)]
        if view.phase is tc.Phase.TRIX:
            length = {suit: sum(c.suit is suit for c in view.hand) for suit in tc.Suit}
            best = max(cards, key=lambda c: (length[c.suit], -abs(c.rank - tc.Rank.JACK)))
        else:
            best = self._complex_card(view, cards)
        return tc.Play(first.seat, best)

    @staticmethod
    def _complex_card(view: tc.View, cards: list[tc.Card]) -> tc.Card:
        if not view.trick:  # leading: the lowest card, of the least dangerous kind
            return min(cards, key=lambda c: (c.rank, danger(c)))
        led = view.trick[0].suit
        winning = max(c for c in view.trick if c.suit is led)
        if cards[0].suit is not led:  # void in the led suit: shed the worst card
            return max(cards, key=danger)
        losing = [c for c in cards if c < winning]
        return max(losing) if losing else max(cards)  # duck, or take it with the highest


def report(name: str, bots: Sequence[Bot]) -> None:
    result = simulate(bots, MATCHES, seed=2026)
    s = result.summary
    low, high = s.win_ci
    margin_low, margin_high = s.margin_ci
    print(
        f"{name:<26} won {s.wins:>2}, drew {s.draws}, lost {s.losses:>2} of {s.matches}: "
        f"win rate {s.win_rate:.0%} (95% CI {low:.0%}-{high:.0%}), "
        f"mean margin {s.mean_margin:+.0f} ({margin_low:+.0f} to {margin_high:+.0f})"
    )


def main() -> None:
    assert isinstance(DuckingBot(), Bot), "it has the Bot protocol's choose method"
    print(f"DuckingBot as side A, {MATCHES} seeded matches per pairing")
    report("DuckingBot vs RandomBot", [DuckingBot(), RandomBot()])
    report("DuckingBot vs RuleBot", [DuckingBot(), RuleBot()])
    report("RuleBot vs RandomBot", [RuleBot(), RandomBot()])


if __name__ == "__main__":
    main()
