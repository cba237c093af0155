"""``trixcomplex serve``: the table server, to play in the browser (the ``server`` extra)."""

from __future__ import annotations

import argparse
import sys


def _serve_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected seconds (0 or more), not {text!r}")
    return value


def _serve(args: argparse.Namespace) -> int:
    try:  # the server's packages are an extra: import them only when asked
        from ..server import Options, serve
    except ImportError as exc:
        if (exc.name or "").partition(".")[0] not in ("starlette", "uvicorn", "websockets"):
            raise
        print(f"trixcomplex serve needs the server extra ({exc.name} is missing): "
              'pip install "trixcomplex[server]" (from a checkout: pip install ".[server]")',
              file=sys.stderr)  # fmt: skip
        return 1
    options = Options(
        allow_origins=tuple(args.allow_origin), max_tables=args.max_tables,
        create_limit=args.create_limit, create_window=args.create_window,
        retention=args.retention, idle_close=args.idle_close,
        hello_timeout=args.hello_timeout, bot_budget=args.bot_budget,
        bot_window=args.bot_window, bot_workers=args.bot_workers,
        join_limit=args.join_limit, join_window=args.join_window,
        watch_limit=args.watch_limit, seat_timeout=args.seat_timeout,
        outbox_bytes=max(1024, args.outbox_bytes),
    )  # fmt: skip
    return serve(host=args.host, port=args.port, db=args.db, options=options)
