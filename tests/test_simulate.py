"""Tournaments: seeded, seat-swapped, identical on every executor."""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor

import pytest

import trixcomplex as tc
from trixcomplex.bots import MonteCarloBot, RandomBot, RuleBot
from trixcomplex.host.tournament import (
    Tournament,
    mean_interval,
    play_match,
    simulate,
    summarize,
    wilson_interval,
)


def _key(t: Tournament) -> object:
    return [(m.index, m.teams, m.margin, m.record) for m in t.matches], t.summary


def test_r_match_2_pairs_of_matches_share_shuffles_with_seats_swapped() -> None:
    """R-MATCH-2, R-SEAT-2: matches 2k and 2k+1 get the same 8 decks, sides exchanged."""
    t = simulate([RuleBot(), RandomBot()], 4, seed=5)
    assert [m.sides_seats for m in t.matches] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    for k in (0, 2):
        decks = [[mv for mv in t.matches[i].record.moves if isinstance(mv, tc.Deal)]
                 for i in (k, k + 1)]  # fmt: skip
        assert len(decks[0]) == 8 and decks[0] == decks[1]
    assert t.matches[0].record.moves[0] != t.matches[2].record.moves[0]


def test_r_match_8_outcomes_match_their_records() -> None:
    """R-MATCH-7, R-MATCH-8: each outcome's totals and margin are its replayed record's."""
    t = simulate([RuleBot(), RandomBot()], 2, seed=9)
    for m in t.matches:
        final = tc.replay(m.record)
        assert final.is_over
        assert tc.score(final).teams == m.teams
        a = m.sides_seats[0]
        assert m.margin == m.teams[a] - m.teams[1 - a]
        assert m.result == tc.score(final).result


def test_r_cx_6_and_r_tx_4_points_per_deal_add_up() -> None:
    """R-CX-6, R-TX-4: per deal, the two sides share −500 in COMPLEX and +500 in TRIX."""
    s = simulate([RuleBot(), RandomBot()], 4, seed=1).summary
    per = {contract: (a, b) for contract, a, b in s.points_per_deal}
    assert per["COMPLEX"][0] + per["COMPLEX"][1] == pytest.approx(-500)
    assert per["TRIX"][0] + per["TRIX"][1] == pytest.approx(500)
    assert s.wins + s.draws + s.losses == s.matches == 4
    assert s.win_ci[0] <= s.win_rate <= s.win_ci[1]
    assert s.margin_ci[0] <= s.mean_margin <= s.margin_ci[1]


def test_same_seed_same_tournament_other_seed_other_one() -> None:
    """No hidden randomness: everything comes from the seed."""
    bots = [RandomBot(), RuleBot()]
    assert _key(simulate(bots, 2, seed=4)) == _key(simulate(bots, 2, seed=4))
    assert _key(simulate(bots, 2, seed=4)) != _key(simulate(bots, 2, seed=5))


def test_process_pool_gives_the_in_process_result() -> None:
    """A ProcessPoolExecutor (bots pickled to workers) changes nothing but the speed."""
    bots = [MonteCarloBot(worlds=1), RuleBot()]
    local = simulate(bots, 3, seed=2)
    with ProcessPoolExecutor(2) as pool:
        remote = simulate(bots, 3, seed=2, executor=pool, chunk=1)
    assert _key(remote) == _key(local)


def test_dask_distributed_gives_the_in_process_result() -> None:
    """The dask extra: ``client.get_executor()`` of a LocalCluster, same result."""
    distributed = pytest.importorskip("distributed")
    bots = [RuleBot(), RandomBot()]
    local = simulate(bots, 4, seed=6)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        remote = simulate(bots, 4, seed=6, executor=client.get_executor(), chunk=2)
    assert _key(remote) == _key(local)


def test_four_bots_by_seat_and_progress_reports() -> None:
    """Four bots are seated by seat (side A = seats 0 and 2); progress ends at (n, n)."""
    calls: list[tuple[int, int]] = []
    t = simulate(
        [RuleBot(), RandomBot(), RandomBot(), RuleBot()], 2, seed=3,
        progress=lambda done, total: calls.append((done, total)),
    )  # fmt: skip
    assert t.sides == ("RuleBot+RandomBot", "RandomBot+RuleBot")
    assert calls[-1] == (2, 2) and len(calls) == 2


@pytest.mark.parametrize(
    ("bots", "matches", "message"),
    [
        ([RuleBot()], 2, "give 2 bots"),
        ([RuleBot(), RuleBot(), RuleBot()], 2, "give 2 bots"),
        ([RuleBot(), RandomBot()], 0, "positive integer"),
        ([RuleBot(), RandomBot()], True, "positive integer"),
    ],
)
def test_bad_arguments_are_rejected_in_one_line(bots: list, matches: int, message: str) -> None:
    """A wrong lineup or match count is a single clear ValueError, before any play."""
    with pytest.raises(ValueError, match=message):
        simulate(bots, matches)


def test_play_match_needs_four_seats() -> None:
    """R-SEAT-1: four seats, four bots."""
    with pytest.raises(ValueError, match="four bots"):
        play_match([RuleBot()] * 3, random.Random(0), [random.Random(0)] * 4)


def test_confidence_intervals() -> None:
    """Wilson intervals stay in [0, 1] and contain the rate; the mean interval its mean."""
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    lo, hi = wilson_interval(50, 100)
    assert lo < 0.5 < hi and hi - lo == pytest.approx(0.192, abs=0.002)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert mean_interval([1.0, 3.0])[0] < 2.0 < mean_interval([1.0, 3.0])[1]
    assert mean_interval([]) == (0.0, 0.0) and mean_interval([4.0]) == (4.0, 4.0)
    assert summarize([]).matches == 0


# -- rulesets (R-SET-1, R-IND-1, R-CL-1, R-CL-8, R-OPT-6) -----------------------------


def test_r_cl_8_classic_points_per_deal_over_its_five_contracts() -> None:
    """R-CL-1, R-CL-8: a classic tournament reports each of its five contracts; per deal
    the two sides share −75, −100, −130, −195 and +500, doubling included."""
    t = simulate([RuleBot(), RandomBot()], 2, seed=3, ruleset=tc.CLASSIC)
    assert t.ruleset is tc.CLASSIC
    per = {contract: a + b for contract, a, b in t.summary.points_per_deal}
    assert per == pytest.approx(
        {"KING_OF_HEARTS": -75, "QUEENS": -100, "DIAMONDS": -130, "LTOOSH": -195, "TRIX": 500}
    )
    for m in t.matches:
        assert m.contracts == tc.CLASSIC.contracts and len(m.record.moves) > 20 * 13
        assert tc.score(tc.replay(m.record)).seats == m.seats


def test_r_ind_1_a_side_wins_when_the_match_winner_is_one_of_its_seats() -> None:
    """R-IND-1: in an individual ruleset side A wins when every winning seat is its own;
    a win shared by a seat of each side is a draw; the margin is the sides' totals."""
    t = simulate([RuleBot(), RandomBot()], 4, seed=1, ruleset=tc.INDIVIDUAL_COMPLEX)
    for m in t.matches:
        final = tc.score(tc.replay(m.record))
        assert m.winners == final.winners and m.result == final.result
        a = m.sides_seats[0]
        mine = {s for s in final.winners if s % 2 == a}
        expected = "A" if mine == set(final.winners) else "B" if not mine else "draw"
        assert m.winner == expected
        assert m.margin == sum(m.seats[a::2]) - sum(m.seats[1 - a :: 2])
    s = t.summary
    assert s.wins == sum(m.winner == "A" for m in t.matches)
    assert s.wins + s.draws + s.losses == 4


def test_r_opt_6_reversed_scores_count_the_margin_the_rulesets_way() -> None:
    """R-OPT-6: under reversed scores every point is negated and the lowest total wins;
    the bots play the same moves, so the margins (counted for side A) are unchanged."""
    plain = simulate([RuleBot(), RandomBot()], 2, seed=4, ruleset=tc.CLASSIC)
    mirror = simulate(
        [RuleBot(), RandomBot()], 2, seed=4, ruleset=tc.CLASSIC.evolve(reversed_scores=True)
    )
    for p, m in zip(plain.matches, mirror.matches, strict=True):
        assert m.seats == tuple(-x for x in p.seats)
        assert m.margin == p.margin and m.winner == p.winner
    assert mirror.summary.wins == plain.summary.wins


def test_r_opt_8_redeals_do_not_shift_the_paired_matchs_shuffles() -> None:
    """R-OPT-8: a redeal's new deck comes from its own generator, so both matches of a
    pair still get the same regular shuffles."""
    rs = tc.CLASSIC.evolve(bad_hand_redeal=True)
    t = simulate([RuleBot(), RandomBot()], 2, seed=3, ruleset=rs)
    decks = []
    for m in t.matches:
        moves = m.record.moves
        regular = [
            mv
            for i, mv in enumerate(moves)
            if isinstance(mv, tc.Deal) and not (i and isinstance(moves[i - 1], tc.Redeal))
        ]
        decks.append(regular)  # fmt: skip
    assert len(decks[0]) == 20 and decks[0] == decks[1]


def test_a_ruleset_tournament_is_the_same_on_a_process_pool() -> None:
    """R-SET-1: the ruleset travels to the workers; same result as in process."""
    bots = [RuleBot(), RandomBot()]
    local = simulate(bots, 2, seed=2, ruleset=tc.CLASSIC_PARTNERSHIP)
    with ProcessPoolExecutor(1) as pool:
        remote = simulate(bots, 2, seed=2, ruleset=tc.CLASSIC_PARTNERSHIP, executor=pool, chunk=1)
    assert _key(remote) == _key(local) and remote.ruleset is tc.CLASSIC_PARTNERSHIP


def test_a_bad_ruleset_is_one_clear_error() -> None:
    """R-SET-1: the ruleset must be a Ruleset (a name is for the command line)."""
    with pytest.raises(ValueError, match="ruleset must be a Ruleset"):
        simulate([RuleBot(), RandomBot()], 2, ruleset="classic")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="different rulesets"):
        a = simulate([RuleBot(), RandomBot()], 1, seed=1).matches
        b = simulate([RuleBot(), RandomBot()], 1, seed=1, ruleset=tc.CLASSIC).matches
        summarize([*a, *b])
