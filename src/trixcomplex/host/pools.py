"""Where a tournament's matches run when not in this process: on an executor (a process
pool, or a ``dask.distributed`` cluster), or on process pools that survive faults.

A chunk whose future fails on an executor is submitted again, then played here;
a killed or hung worker of a pool costs only its unfinished matches, each played
again alone, and one whose worker dies again is forfeited by the side asked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..bots.base import Bot, BotError
from ..core.rulesets import PARTNERSHIP, Ruleset
from .matches import MatchOutcome, _forfeit, _sides, _track

if TYPE_CHECKING:  # imported when used: they are a sixth of the time this module takes
    from concurrent.futures import Executor, Future, ProcessPoolExecutor

__all__: list[str] = []


_Play = Callable[[tuple[int, ...]], list[MatchOutcome]]


def _run_on_executor(
    play: _Play,
    executor: Executor,
    matches: int,
    chunk: int,
    retries: int,
    finished: Callable[[Sequence[MatchOutcome]], None],
) -> None:
    """Play every chunk on ``executor``; a failed chunk is resubmitted, then played here."""
    from concurrent.futures import FIRST_COMPLETED, wait

    chunks = [tuple(range(i, min(i + chunk, matches))) for i in range(0, matches, chunk)]
    tries = dict.fromkeys(chunks, 0)
    futures: dict[Future[list[MatchOutcome]], tuple[int, ...]] = {
        executor.submit(play, c): c for c in chunks
    }
    while futures:
        done, _ = wait(futures, return_when=FIRST_COMPLETED)
        for future in done:
            indices = futures.pop(future)
            try:
                found = future.result()
            except BotError:
                raise
            except Exception:  # the worker died or the executor broke: play it again
                tries[indices] += 1
                try:
                    if tries[indices] > retries:
                        raise RuntimeError("retries spent")
                    futures[executor.submit(play, indices)] = indices
                except Exception:
                    finished(play(indices))
                continue
            finished(found)


def _run_on_pools(
    play: _Play,
    matches: int,
    jobs: int,
    stall_timeout: float | None,
    retries: int,
    finished: Callable[[Sequence[MatchOutcome]], None],
    lineup: tuple[Bot, ...] = (),
    ruleset: Ruleset = PARTNERSHIP,
) -> None:
    """Play every match on process pools of ``jobs`` workers, replacing a pool that
    breaks (a killed worker) or stalls (no match finished in ``stall_timeout`` s).

    The matches a broken or stalled pool had begun are suspects: each is played
    again alone, on a pool of one worker.  One that finishes there counts as
    any other (a fault from outside costs nothing); one that kills or hangs
    that worker too is its bot's doing and forfeits, by the side of the seat
    the worker was asking (the workers say whom they ask in shared memory).
    """
    # Imported here: multiprocessing is a tenth of the time ``import trixcomplex`` takes.
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool, ProcessPoolExecutor

    asked = multiprocessing.get_context().RawArray("q", matches)
    for i in range(matches):
        asked[i] = -1
    pending = list(range(matches))
    rebuilt = 0
    while pending:
        pool = ProcessPoolExecutor(jobs, initializer=_track, initargs=(asked,))
        futures = {pool.submit(play, (i,)): i for i in pending}
        lost: list[int] = []
        try:
            while futures:
                done, _ = wait(futures, timeout=stall_timeout, return_when=FIRST_COMPLETED)
                if not done:  # a stall: no match finished in time
                    lost = list(futures.values())
                    break
                for future in done:
                    index = futures.pop(future)
                    try:
                        found = future.result()
                    except BrokenProcessPool:
                        lost.append(index)
                        continue
                    finished(found)
                    pending.remove(index)
                if lost:
                    lost += futures.values()
                    break
        finally:
            _stop_pool(pool)
        begun = [i for i in lost if asked[i] >= 0]
        if not begun:
            rebuilt += 1
            if rebuilt > retries:
                raise RuntimeError(
                    f"matches {pending[:10]} were lost {retries + 1} times "
                    "(a worker killed or hung each time)"
                )
            continue
        for index in begun:  # played alone: a fault that comes again is the bot's
            finished([_play_alone(play, index, stall_timeout, asked, lineup, ruleset)])
            pending.remove(index)


def _play_alone(
    play: _Play,
    index: int,
    stall_timeout: float | None,
    asked: Any,
    lineup: tuple[Bot, ...],
    ruleset: Ruleset,
) -> MatchOutcome:
    """Match ``index`` played on a pool of its own; if its worker dies or hangs again,
    the match is forfeited by the side whose seat was being asked."""
    from concurrent.futures.process import BrokenProcessPool, ProcessPoolExecutor

    asked[index] = -1
    pool = ProcessPoolExecutor(1, initializer=_track, initargs=(asked,))
    future = pool.submit(play, (index,))
    try:
        (found,) = future.result(timeout=stall_timeout)
        return found
    except (BrokenProcessPool, TimeoutError):
        how = "died" if future.done() else f"hung past stall_timeout={stall_timeout:g}s"
    finally:
        _stop_pool(pool)
    where = asked[index]
    deal, seat = (where // 4, where % 4) if where >= 0 else (0, 0)
    a_team = index % 2
    side_a, side_b = _sides(lineup) if lineup else ((None, None), (None, None))
    bot = (side_a if seat % 2 == a_team else side_b)[seat // 2]
    reason = (
        f"{type(bot).__name__}'s worker process {how} at match {index}, deal {deal}, "
        f"seat {seat} (a bot calling os._exit or killing its process), twice"
    )
    return _forfeit(index, a_team, seat, reason, None, ruleset)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Shut ``pool`` down now, killing its workers (a hung one included)."""
    procs = getattr(pool, "_processes", None) or {}
    for proc in list(procs.values()):
        if proc.is_alive():
            proc.kill()
    pool.shutdown(wait=True, cancel_futures=True)
