"""Cross-site requests refused: an ASGI middleware checking the ``Origin`` header.

A browser names the page that makes a request in its ``Origin`` header, on
every cross-site request and every WebSocket handshake, and a page cannot
forge it.  So a hostile page (``http://evil.example``) that makes its
visitor's browser open tables on this server, or connect to it and be handed
a seat, is told apart by that header alone.  Allowed: a request without
``Origin`` (not from a page: ``curl``, a program), a page of the server's own
origin (the ``Origin``'s host and port are the request's ``Host``, as the
browser sent it), and the origins given with ``--allow-origin``.  Anything
else is refused before it reaches the application: an HTTP request with
``403`` and the error ``server.bad-origin``, a WebSocket handshake with
``403`` (the client sees the handshake refused; nothing is accepted).

Starlette's own ``CORSMiddleware`` only tells browsers what they may *read*;
it lets a simple cross-site ``POST`` through, so it does not do this.

>>> same_origin("http://127.0.0.1:8000", "127.0.0.1:8000")
True
>>> same_origin("http://evil.example", "127.0.0.1:8000"), same_origin("null", "x")
(False, False)
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["OriginGuard", "same_origin"]


def same_origin(origin: str, host: str) -> bool:
    """Whether the page ``origin`` is of the server reached as ``host`` (the ``Host`` header)."""
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc.lower() == host.lower()


class OriginGuard:
    """Refuse every HTTP request and WebSocket handshake from a page of another origin."""

    def __init__(self, app: ASGIApp, allow: Iterable[str] = ()) -> None:
        self.app = app
        self.allow = frozenset(o.rstrip("/").lower() for o in allow)

    def allowed(self, headers: dict[bytes, bytes]) -> bool:
        """Whether a request with these headers may go on."""
        origin = headers.get(b"origin")
        if origin is None:
            return True
        text = origin.decode("latin-1").strip()
        host = headers.get(b"host", b"").decode("latin-1").strip()
        return text.rstrip("/").lower() in self.allow or same_origin(text, host)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if self.allowed(dict(scope["headers"])):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})  # uvicorn answers 403
            return
        error = {
            "code": "server.bad-origin",
            "message": "requests from a page of another site are refused",
            "rule": None,
            "index": None,
        }
        body = json.dumps({"error": error}).encode()
        await send({
            "type": "http.response.start",
            "status": 403,
            "headers": [(b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode())],
        })  # fmt: skip
        await send({"type": "http.response.body", "body": body})
