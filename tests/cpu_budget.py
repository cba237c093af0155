"""A bound on the processor time a piece of code may use, for tests of cost.

A test that bounds how long something takes must not fail because the machine is
busy.  Wall-clock time (hypothesis' ``deadline``, ``time.monotonic``) grows with
everything else the machine runs; the processor time of this process
(:func:`time.process_time`) grows only with the work done here, so a second copy
of the suite running beside this one leaves it almost unchanged.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cpu_budget(seconds: float, what: str) -> Iterator[None]:
    """Fail (AssertionError) if the block uses more than ``seconds`` of this process's
    processor time; ``what`` names the work in the message.

    >>> with cpu_budget(1.0, "a sum"):
    ...     total = sum(range(1000))
    >>> with cpu_budget(0.0, "a loop"):  # doctest: +ELLIPSIS
    ...     begun = time.process_time()
    ...     while time.process_time() == begun:
    ...         pass
    Traceback (most recent call last):
    AssertionError: a loop used ... s of processor time, over its budget of 0.0 s
    """
    start = time.process_time()
    yield
    used = time.process_time() - start
    if used > seconds:
        raise AssertionError(
            f"{what} used {used:.3g} s of processor time, over its budget of {seconds} s"
        )
