"""The hall's Prometheus metrics, served at ``GET /metrics`` on a port of their own
(``paiju serve --metrics-port``; docs/operations.md lists them, docs/decisions.md says why
a separate port on loopback).

Counters and histograms are incremented where the events happen, through
``prometheus-client``'s own objects (their children cached here, so an action costs a
dictionary look-up and an increment). What is a state rather than an event — connections,
tables by game and state, the store writer's queue, leases — is read from the live halls
only when Prometheus scrapes (:class:`HallCollector`): nothing of it is kept up to date on
the action path. Process CPU, memory and garbage collection come from prometheus-client's
default collectors (``process_*``, ``python_gc_*``).

This module imports nothing of the hall: every layer may count here.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

from prometheus_client import REGISTRY, Counter, Histogram, disable_created_metrics
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

disable_created_metrics()  # no *_created series: Prometheus needs none of them, and they double the page

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

ACTIONS = Counter(
    "paiju_actions_total",
    "Actions taken at the tables (by: person, bot, or hosted: 托管, played by the hall for a person)",
    ["game", "by"],
)
ACTION_LATENCY = Histogram(
    "paiju_action_latency_seconds",
    "From a table taking a person's action to its updates queued for every connection (the store write included)",
    ["game"],
    buckets=LATENCY_BUCKETS,
)
CLOSES = Counter(
    "paiju_ws_closes_total",
    "Table connections ended or refused, by WebSocket close code (client: the player's side closed)",
    ["code"],
)
RATE_LIMITED = Counter("paiju_rate_limited_messages_total", "Table messages dropped by the message rate limits")
RATE_LIMITED_REQUESTS = Counter(
    "paiju_rate_limited_requests_total", "HTTP requests answered 429 by a limit, by reason code", ["code"]
)
COMMIT_SECONDS = Histogram(
    "paiju_store_commit_seconds", "One group commit of the store's writer thread", buckets=LATENCY_BUCKETS
)
STORE_ERRORS = Counter(
    "paiju_store_errors_total",
    "Writes the store did not make (unavailable: the database could not be reached or written; "
    "refused: the database said no; fenced: another worker holds the room)",
    ["kind"],
)
LEASE_RENEWALS = Counter(
    "paiju_lease_renewals_total", "Renewals of this worker's leases (cluster), by result", ["result"]
)
HANDOFFS = Counter(
    "paiju_room_handoffs_total",
    "Rooms moving between workers, from this worker's side (claimed, released, lost)",
    ["kind"],
)
REDIS_ERRORS = Counter("paiju_redis_errors_total", "Redis calls that failed or timed out (cluster)")
BOT_FALLBACKS = Counter(
    "paiju_bot_fallbacks_total", "Questions to the strongest bots' pool answered by the heuristic instead"
)
ANALYSES = Counter("paiju_analyses_total", "复盘 analyses ended, by result (done, failed)", ["result"])

# the gauges read from the live halls at scrape time: name → (help, label names)
GAUGES: dict[str, tuple[str, tuple[str, ...]]] = {
    "paiju_worker_info": ("This process's worker name (1; a hall of one process: hall)", ("worker",)),
    "paiju_connections": ("Open table WebSocket connections", ()),
    "paiju_players_connected": ("Different players with a table connection open", ()),
    "paiju_tables": ("Tables loaded, by game and state", ("game", "state")),
    "paiju_store_queue_writes": ("Writes waiting for the store's writer (submitted, not yet committed)", ()),
    "paiju_store_down": ("1 while the store cannot write (the writer probes the database until it can)", ()),
    "paiju_bot_pool_questions": ("Questions waiting for or being searched by the strongest bots' pool", ()),
    "paiju_analysis_jobs": ("复盘 analyses in memory, by state (queued, running, failed)", ("state",)),
    "paiju_leases_held": ("Rooms this worker holds a lease on (cluster)", ()),
    "paiju_lease_valid": ("1 while this worker's leases are surely its own (renewed in time; cluster)", ()),
}

Sample = tuple[str, tuple[str, ...], float]


class Source(Protocol):
    def metric_samples(self) -> Iterable[Sample]: ...


class HallCollector(Collector):
    """The gauges of every live hall of this process, summed (tests run several halls in one)."""

    def __init__(self) -> None:
        self.sources: weakref.WeakSet[Any] = weakref.WeakSet()

    def collect(self) -> Iterator[Metric]:
        families = {name: GaugeMetricFamily(name, text, labels=list(labels)) for name, (text, labels) in GAUGES.items()}
        totals: dict[tuple[str, tuple[str, ...]], float] = {}
        for source in list(self.sources):
            for name, labels, value in source.metric_samples():
                totals[(name, labels)] = totals.get((name, labels), 0.0) + value
        for (name, labels), value in sorted(totals.items()):
            families[name].add_metric(list(labels), value)
        yield from families.values()


HALLS = HallCollector()
REGISTRY.register(HALLS)

_actions: dict[tuple[str, str], Any] = {}
_latency: dict[str, Any] = {}


def action(game: str, by: str) -> None:
    """One action taken at a table of ``game`` (by a person, a bot, or hosted)."""
    child = _actions.get((game, by))
    if child is None:
        child = _actions[(game, by)] = ACTIONS.labels(game, by)
    child.inc()


def action_latency(game: str, seconds: float) -> None:
    child = _latency.get(game)
    if child is None:
        child = _latency[game] = ACTION_LATENCY.labels(game)
    child.observe(seconds)


def watch(source: Source) -> None:
    """Report ``source``'s gauges while it lives (a hall; weakly held)."""
    HALLS.sources.add(source)


def unwatch(source: Source) -> None:
    HALLS.sources.discard(source)


def serve_metrics(host: str, port: int) -> Any:
    """Serve ``GET /metrics`` on ``host:port`` from a thread of this process (prometheus-client's
    own small HTTP server: a scrape never waits on the event loop, nor the loop on it)."""
    from prometheus_client import start_http_server

    server, _thread = start_http_server(port, addr=host)
    return server
