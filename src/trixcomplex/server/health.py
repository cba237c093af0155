"""The routes a site's load balancer and monitoring call: alive, ready, metrics.

- ``GET /healthz``: the process is alive and its event loop answers: always
  ``200 {"status": "alive"}`` (even while draining: it is still alive).
- ``GET /readyz``: the process can take players: the database answers a cheap
  query through the store (its ``ping``), the stored tables are loaded,
  and it is not draining (SIGTERM).  ``200 {"status": "ready", "tables": N}``,
  else ``503`` with the server's JSON error (``server.unavailable``) saying why.
- ``GET /metrics``: the Prometheus metrics (:mod:`~trixcomplex.server.metrics`).

They read the application's lobby (``app.state.lobby``): its ``store``,
``ready``, ``draining``, ``tables`` and ``metrics``.  Like every route they
pass the origin check (a monitoring probe sends no ``Origin``).
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .metrics import CONTENT_TYPE
from .seats import Refused
from .store import STORE_ERRORS

__all__ = ["routes"]

log = logging.getLogger("trixcomplex.server")


def _unready(reason: str) -> Response:
    error = Refused(reason, "unavailable").to_json()
    return JSONResponse({"error": error}, status_code=503, headers={"Cache-Control": "no-store"})


async def _healthz(request: Request) -> Response:
    return JSONResponse({"status": "alive"}, headers={"Cache-Control": "no-store"})


async def _readyz(request: Request) -> Response:
    lobby: Any = request.app.state.lobby
    if lobby.draining:
        return _unready("the server is going away: use another")
    if not lobby.ready:
        return _unready("the tables are not loaded yet")
    try:
        lobby.store.ping()
    except STORE_ERRORS as exc:
        lobby.metrics.store_failed("query")
        log.warning("not ready: the store does not answer: %s", exc)
        return _unready("the database cannot be reached")
    body = {"status": "ready", "tables": len(lobby.tables)}
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


async def _metrics(request: Request) -> Response:
    lobby: Any = request.app.state.lobby
    return Response(lobby.metrics.exposition(), media_type=CONTENT_TYPE)


def routes() -> list[Route]:
    """The routes of this module, for the application's table of routes."""
    return [
        Route("/healthz", _healthz, methods=["GET"]),
        Route("/readyz", _readyz, methods=["GET"]),
        Route("/metrics", _metrics, methods=["GET"]),
    ]
