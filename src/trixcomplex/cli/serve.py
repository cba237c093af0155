"""``trixcomplex serve``: the table server, to play in the browser (the ``server`` extra)."""

from __future__ import annotations

import argparse
import socket
import sys

from ..core.extras import MissingExtraError
from .args import seconds


def _serve_seconds(text: str) -> float:
    return seconds(text, zero=True)


def _drain_seconds(text: str) -> float:
    value = seconds(text)
    if value < 1.0:
        raise argparse.ArgumentTypeError(f"give at least 1 second, not {text[:40]!r}")
    return value


def unusable_address(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host``:``port`` (a name that does not resolve,
    an address of no interface here, a port in use or not allowed), or ``None``.

    Checked by binding a socket once before the server starts, so that a bad address is
    the one line of a bad command line, not the server's log and traceback.

    >>> unusable_address("127.0.0.1", 0) is None
    True
    >>> unusable_address("999.1.1.1", 8000)
    "--host '999.1.1.1' does not resolve: ..."
    """
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        return f"--host {host!r} does not resolve: {getattr(exc, 'strerror', None) or exc}"
    family, kind, proto, _, address = found[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None


def _serve(args: argparse.Namespace) -> int:
    try:  # the server's packages are an extra: import them only when asked
        from ..server import Options, serve
    except MissingExtraError as exc:  # names the extra and the pip command
        print(f"trixcomplex serve: error: {exc}", file=sys.stderr)
        return 1
    problem = unusable_address(args.host, args.port)
    if problem is not None:
        print(f"trixcomplex serve: error: {problem}", file=sys.stderr)
        return 2
    options = Options(
        allow_origins=tuple(args.allow_origin), max_tables=args.max_tables,
        create_limit=args.create_limit, create_window=args.create_window,
        retention=args.retention, idle_close=args.idle_close,
        hello_timeout=args.hello_timeout, bot_budget=args.bot_budget,
        bot_window=args.bot_window, bot_workers=args.bot_workers,
        join_limit=args.join_limit, join_window=args.join_window,
        watch_limit=args.watch_limit, seat_timeout=args.seat_timeout,
        outbox_bytes=max(1024, args.outbox_bytes), drain_seconds=args.drain_seconds,
    )  # fmt: skip
    return serve(host=args.host, port=args.port, db=args.db, options=options,
                 log_format=args.log_format)  # fmt: skip
