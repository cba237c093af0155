"""The server's Prometheus metrics, in a registry of its own (``GET /metrics``).

One :class:`Metrics` per application (never ``prometheus_client``'s global
registry), so that several servers in one process (tests) count apart.  The
tables and the lobby report through its methods; the gauges of what is there
now (tables, connections) are read from the lobby when ``/metrics`` is asked.

>>> metrics = Metrics()
>>> metrics.moved(); metrics.moved()
>>> metrics.store_failed("save")
>>> metrics.value("trixcomplex_moves_total"), metrics.value("trixcomplex_store_errors_total",
...     operation="save")
(2.0, 1.0)
>>> b"trixcomplex_moves_total 2.0" in metrics.exposition()
True
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

__all__ = ["CONTENT_TYPE", "Metrics"]

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The media type of :meth:`Metrics.exposition` (Prometheus' text format)."""

_LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
_DECISION = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Metrics:
    """What one server counts: moves, store errors, move latency and bot decision
    time; and the gauges of its tables and WebSocket connections (:meth:`watch`)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        self._moves = Counter(
            "trixcomplex_moves", "Moves applied at this process's tables", registry=registry
        )
        self._store_errors = Counter(
            "trixcomplex_store_errors",
            "Store operations that failed (the step was refused or is tried again)",
            ["operation"],
            registry=registry,
        )
        self._latency = Histogram(
            "trixcomplex_move_latency_seconds",
            "From receiving a person's move to its updates queued for every connection",
            buckets=_LATENCY,
            registry=registry,
        )
        self._decision = Histogram(
            "trixcomplex_bot_decision_seconds",
            "From asking a bot (in the worker pool) to its answer being ready",
            ["bot"],
            buckets=_DECISION,
            registry=registry,
        )
        self._live = Gauge(
            "trixcomplex_tables_live", "Tables in play (in memory, not over)", registry=registry
        )
        self._owned = Gauge(
            "trixcomplex_tables_owned",
            "Tables in play this process drives (their clocks and bots)",
            registry=registry,
        )
        self._connections = Gauge(
            "trixcomplex_websocket_connections", "Open WebSocket connections", registry=registry
        )

    def watch(
        self,
        live: Callable[[], float],
        owned: Callable[[], float],
        connections: Callable[[], float],
    ) -> None:
        """Read the gauges from these functions whenever the metrics are collected."""
        self._live.set_function(live)
        self._owned.set_function(owned)
        self._connections.set_function(connections)

    def moved(self) -> None:
        """A move was applied (stored, then shown)."""
        self._moves.inc()

    def store_failed(self, operation: str) -> None:
        """A store operation (``save``, ``archive``, ``set_idle``, ``query``) failed."""
        self._store_errors.labels(operation).inc()

    def move_latency(self, seconds: float) -> None:
        """A person's move took ``seconds`` from received to its updates queued."""
        self._latency.observe(max(0.0, seconds))

    def bot_decided(self, bot: str, seconds: float) -> None:
        """Bot ``bot`` answered a question in ``seconds`` (safe from any thread)."""
        self._decision.labels(bot).observe(max(0.0, seconds))

    def value(self, name: str, **labels: str) -> float | None:
        """The current value of the sample ``name`` with ``labels`` (for tests and checks)."""
        return self.registry.get_sample_value(name, labels)

    def exposition(self) -> bytes:
        """Every metric in Prometheus' text format (:data:`CONTENT_TYPE`)."""
        return generate_latest(self.registry)
