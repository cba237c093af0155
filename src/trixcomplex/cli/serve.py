"""``trixcomplex serve``: the table server, to play in the browser (the ``server`` extra)."""

from __future__ import annotations

import argparse
import sys

from ..core.extras import MissingExtraError
from .args import seconds


def _serve_seconds(text: str) -> float:
    return seconds(text, zero=True)


def _serve(args: argparse.Namespace) -> int:
    try:  # the server's packages are an extra: import them only when asked
        from ..server import Options, serve
    except MissingExtraError as exc:  # names the extra and the pip command
        print(f"trixcomplex serve: error: {exc}", file=sys.stderr)
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
