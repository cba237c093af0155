"""OpenSpiel's ISMCTS bot against trixcomplex's RuleBot and MonteCarloBot.

The game is trixcomplex's OpenSpiel adapter (``import trixcomplex.rl.openspiel``
registers ``"python_trix_complex"``).  ISMCTS (Cowling et al. 2011, OpenSpiel's
``open_spiel.python.algorithms.ismcts``) searches information sets, drawing
worlds through the game's ``resample_from_infostate`` (trixcomplex's
:func:`~trixcomplex.sample_world`), with random rollouts.  The trixcomplex bots
play through the same adapter: they see their seat's view and choose among
the legal moves, and their moves go in as action ids.

ISMCTS plays one team (seats 0 and 2 or 1 and 3), the bot the other.  Games
go in pairs on the same cards with the teams' seats exchanged, so the luck
of the deal cancels out.  A game is ``--deals`` deals (2, one Kingdom, by
default: its points sum to zero over the four seats, R-SUM-1); the team with
the higher total wins it.  Win rates come with Wilson 95% intervals.

The default run is tiny (one pair of one-deal games, 5 simulations a move) so
that it runs in seconds; the figures in the docs come from a larger run,
e.g. ``python examples/ismcts_vs_bots.py --pairs 25 --deals 2 --simulations 50``.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import trixcomplex.rl.openspiel  # noqa: F401  (registers the game)
from trixcomplex.bots import Bot, MonteCarloBot, RuleBot
from trixcomplex.host.tournament import wilson_interval


def play_game(game: pyspiel.Game, ismcts_team: int, bot: Bot, seed: int, sims: int) -> float:
    """One game: ISMCTS plays the seats of ``ismcts_team``; returns its team's margin."""
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    searcher = ismcts.ISMCTSBot(
        game, evaluator, uct_c=200.0, max_simulations=sims,
        random_state=np.random.RandomState(seed + 1),
    )  # fmt: skip
    cards = random.Random(seed)  # the deal: the same for both games of a pair
    rng = random.Random(seed + 2)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(cards.choice(outcomes))
        elif state.current_player() % 2 == ismcts_team:
            state.apply_action(searcher.step(state))
        else:
            state.apply_action(state.table.bot_action(bot, rng))
    returns = state.returns()
    return returns[ismcts_team] - returns[1 - ismcts_team]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1, help="pairs of games per opponent")
    parser.add_argument("--deals", type=int, default=1, help="deals per game")
    parser.add_argument("--simulations", type=int, default=5, help="ISMCTS simulations a move")
    parser.add_argument("--worlds", type=int, default=4, help="MonteCarloBot worlds a move")
    parser.add_argument("--ruleset", default="partnership")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = pyspiel.load_game("python_trix_complex", {"ruleset": args.ruleset, "deals": args.deals})
    print(
        f"ISMCTS ({args.simulations} simulations a move, random rollouts) against "
        f"trixcomplex bots: {args.ruleset}, {args.deals} deal(s) a game, "
        f"{2 * args.pairs} games per opponent"
    )
    opponents: list[tuple[str, Bot]] = [
        ("RuleBot", RuleBot()),
        (f"MonteCarloBot(worlds={args.worlds})", MonteCarloBot(worlds=args.worlds)),
    ]
    for name, bot in opponents:
        start = time.process_time()
        wins = draws = 0
        margins = []
        for pair in range(args.pairs):
            for team in (0, 1):
                margin = play_game(game, team, bot, args.seed * 1000 + pair, args.simulations)
                margins.append(margin)
                wins += margin > 0
                draws += margin == 0
        n = len(margins)
        lo, hi = wilson_interval(wins, n)
        print(
            f"ISMCTS vs {name}: win rate {wins / n:.0%} (95% CI {lo:.0%}–{hi:.0%}), "
            f"{wins} wins {draws} draws {n - wins - draws} losses in {n} games, "
            f"mean margin {sum(margins) / n:+.1f} points, {time.process_time() - start:.0f} s CPU"
        )


if __name__ == "__main__":
    main()
