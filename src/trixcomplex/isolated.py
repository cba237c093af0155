"""Isolated bots: each bot in a process of its own, given only its view's JSON.

A bot running in the host's process could reach the whole
:class:`~trixcomplex.MatchState` through frame inspection, so secrecy there
rests on the bot's manners.  :class:`IsolatedBot` runs the bot in a child
process (``python -m trixcomplex.isolated SPEC``) and sends it, for each
decision, only ``to_json(view)``, the legal moves in the record format and
a seed for its ``random.Random``; the child answers one move.  What the
child can see is exactly the view: this is the mode for third-party bots
in competitions.

A bot that crashes (its process ends), hangs (no answer within
``time_limit`` seconds: the process is killed) or answers something that
is not a legal move raises :class:`~trixcomplex.bots.BotError` in the host;
:func:`~trixcomplex.simulate.simulate` then forfeits that match, not the
tournament (``simulate(..., isolated=True)``).

``SPEC`` is a bot name (``random``, ``rule``, ``mc:N``) or ``module:name``,
a callable in an importable module returning the bot.

>>> import random
>>> import trixcomplex as tc
>>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(3)))
>>> bot = IsolatedBot("rule")
>>> legal = tc.legal_moves(state, state.owner)
>>> move = bot.choose(tc.view(state, state.owner), legal, random.Random(0))
>>> move in legal
True
>>> bot.close()
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import random
import selectors
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

from attrs import define, field

from .bots.base import Bot, BotError, BotTimeout
from .moves import Choose, Double, Pass, Play, PlayerMove, Redeal, move_from_json, move_to_json
from .serialize import from_json, to_json
from .views import View

__all__ = ["IsolatedBot", "load_bot"]


def load_bot(spec: str) -> Bot:
    """The bot named ``spec``: a bot name of :func:`~trixcomplex.bots.bot_named`, or
    ``module:name`` (a callable returning the bot)."""
    from .bots import bot_named

    module, colon, name = spec.partition(":")
    if colon and not module.startswith("mc"):
        made: Bot = getattr(importlib.import_module(module), name)()
        return made
    return bot_named(spec)


@define(eq=False)
class IsolatedBot:
    """A :class:`~trixcomplex.bots.Bot` whose decisions are made in a child process.

    - ``spec``: the bot to run (see :func:`load_bot`).
    - ``time_limit``: seconds per decision before the child is killed and
      :class:`~trixcomplex.bots.BotTimeout` raised.

    The child starts at the first decision and lives until :meth:`close`
    (a pickled copy starts its own child).
    """

    spec: str
    time_limit: float = 10.0
    _proc: subprocess.Popen[str] | None = field(default=None, init=False, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        return {"spec": self.spec, "time_limit": self.time_limit}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.spec, self.time_limit, self._proc = state["spec"], state["time_limit"], None

    def _start(self) -> subprocess.Popen[str]:
        if self._proc is None or self._proc.poll() is not None:
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "trixcomplex.isolated", self.spec],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                text=True, env=env,
            )  # fmt: skip
        return self._proc

    def _call(self, request: dict[str, Any]) -> Any:
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.flush()
        except OSError:
            self.close()
            raise BotError(None, f"isolated bot {self.spec!r} crashed", "R-SEAT-1") from None
        with selectors.DefaultSelector() as sel:
            sel.register(proc.stdout, selectors.EVENT_READ)
            if not sel.select(self.time_limit):
                self.close()
                raise BotTimeout(
                    None, f"isolated bot {self.spec!r} gave no answer within "
                    f"{self.time_limit:g}s", "R-MATCH-6",
                )  # fmt: skip
        line = proc.stdout.readline()
        if not line:
            self.close()
            raise BotError(None, f"isolated bot {self.spec!r} crashed", "R-SEAT-1")
        try:
            return json.loads(line)["answer"]
        except (ValueError, KeyError, TypeError):
            self.close()
            raise BotError(None, f"isolated bot {self.spec!r} answered {line[:60]!r}",
                           "R-SEAT-1") from None  # fmt: skip

    def choose(self, view: View, legal: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """The child's move, from the view's JSON only."""
        answer = self._call({
            "ask": "choose", "view": to_json(view),
            "legal": [move_to_json(m) for m in legal], "seed": rng.getrandbits(64),
        })  # fmt: skip
        try:
            move = move_from_json(answer)
        except (ValueError, TypeError) as exc:
            raise BotError(answer, f"isolated bot {self.spec!r}: {exc}", "R-SEAT-1") from None
        if isinstance(move, Choose | Double | Play | Pass | Redeal):
            return move
        raise BotError(move, f"isolated bot {self.spec!r}: not a player move", "R-SEAT-1")

    def wants_redeal(self, view: View, rng: random.Random) -> bool:
        """The child's answer to a redeal offered out of turn (R-OPT-8)."""
        seed = rng.getrandbits(64)
        return bool(self._call({"ask": "redeal", "view": to_json(view), "seed": seed}))

    def close(self) -> None:
        """Stop the child process (a new one starts at the next decision)."""
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    stream.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # the interpreter may be shutting down
            self.close()


def _serve(spec: str) -> int:
    """The child's loop: one JSON request a line in, one answer a line out."""
    bot = load_bot(spec)
    for line in sys.stdin:
        request = json.loads(line)
        seen = from_json(View, request["view"])
        rng = random.Random(request["seed"])
        if request["ask"] == "redeal":
            wants = getattr(bot, "wants_redeal", None)
            answer: Any = bool(wants(seen, rng)) if wants is not None else False
        else:
            legal = [move_from_json(m) for m in request["legal"]]
            answer = move_to_json(bot.choose(seen, legal, rng))  # type: ignore[arg-type]
        print(json.dumps({"answer": answer}), flush=True)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(_serve(sys.argv[1]))
