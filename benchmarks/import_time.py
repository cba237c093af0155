"""How long ``import trixcomplex`` and ``trixcomplex --version`` take (issue 30, item 7).

Run ``python benchmarks/import_time.py`` (``--passes N``, at least 5).  It prints
two rows, each with its median and range over the passes and PASS or FAIL:

=================================================  =====================  =========
row                                                figure                 goal
=================================================  =====================  =========
``import trixcomplex`` ÷ ``import attrs, cattrs``  CPU time ratio         <= 1.5
``trixcomplex --version``                          CPU seconds            <= 0.2
=================================================  =====================  =========

**The yardstick** is importing the library's two dependencies, ``attrs`` and
``cattrs``, in a fresh interpreter.  Each pass starts one fresh interpreter
that imports the yardstick and one that imports ``trixcomplex`` (which loads
attrs, and cattrs only when records or saved states are first used), back to
back, three times, and takes the fastest of each; each child reports the CPU
time (``time.process_time``) its import took, so
waiting for a core on a shared machine is not counted, and the ratio is
taken within the pass.  ``--version`` is the whole command, interpreter
start-up included: the CPU time the child process used.

Both are measured with the bytecode caches written, as an installed package
has them: the children run without ``PYTHONDONTWRITEBYTECODE`` and one
warm-up run of each comes first.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys

_IMPORT = "import time\nt = time.process_time()\nimport {modules}\nprint(time.process_time() - t)\n"


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its .pyc files
    return env


def import_seconds(modules: str) -> float:
    """The CPU seconds ``import {modules}`` takes in a fresh interpreter."""
    code = _IMPORT.format(modules=modules)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=_env()
    )
    return float(done.stdout)


def command_seconds(*args: str) -> float:
    """The CPU seconds (user and system) a fresh ``python -m trixcomplex ARGS`` uses."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-m", "trixcomplex", *args], capture_output=True, check=True, env=_env()
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def import_ratios(passes: int) -> list[float]:
    """Per pass: the time of ``import trixcomplex`` ÷ that of ``import attrs, cattrs``."""
    import_seconds("trixcomplex")  # warm-up: write the bytecode caches
    ratios = []
    for _ in range(passes):
        yardstick, library = [], []
        for _ in range(3):
            yardstick.append(import_seconds("attrs, cattrs"))
            library.append(import_seconds("trixcomplex"))
        ratios.append(min(library) / min(yardstick))
    return ratios


def _row(name: str, values: list[float], unit: str, goal: float) -> bool:
    median = statistics.median(values)
    ok = median <= goal
    print(
        f"{name:<44} {median:8.3f} {unit:<3} ({min(values):.3f}–{max(values):.3f})"
        f"  goal <= {goal:g}  {'PASS' if ok else 'FAIL'}"
    )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=9, help="passes per row (at least 5)")
    args = parser.parse_args(argv)
    passes = max(5, args.passes)
    ok = _row("import trixcomplex ÷ import attrs, cattrs", import_ratios(passes), "x", 1.5)
    command_seconds("--version")
    version = [command_seconds("--version") for _ in range(passes)]
    ok &= _row("trixcomplex --version", version, "s", 0.2)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
