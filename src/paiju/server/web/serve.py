"""Running the hall: ``paiju serve`` and ``python -m paiju.server.web.serve`` (one process, or
one worker of a cluster) — uvicorn with the hall's connection limits and its command-line
options."""

from __future__ import annotations

import contextlib
import dataclasses
import re
import socket
import sys
from collections.abc import Sequence
from typing import Any

from paiju.server.accounts.settlement import BeanSettings
from paiju.server.tables.analysis_jobs import AnalysisSettings
from paiju.server.tables.cluster_rooms import ClusterSettings
from paiju.server.tables.deal import DEAL_FINAL_WINDOW, DEAL_STEP
from paiju.server.tables.throttle import Limits
from paiju.server.tables.tournament_table import BOARD_PAUSE
from paiju.server.web import collector, logs
from paiju.server.web.app import create_app

MAX_CONNECTIONS = 4096  # open connections of the whole hall (uvicorn answers 503 past it)
HEADER_TIMEOUT = 10.0  # seconds a client has to send a request's headers


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    bot_delay: float = 0.6,
    limits: Limits | None = None,
    origins: Sequence[str] = (),
    max_connections: int = MAX_CONNECTIONS,
    header_timeout: float = HEADER_TIMEOUT,
    deal_step: float = DEAL_STEP,
    deal_final_window: float = DEAL_FINAL_WINDOW,
    bot_workers: int = 1,
    beans: BeanSettings | None = None,
    analysis: AnalysisSettings | None = None,
    cluster: ClusterSettings | None = None,
    metrics_port: int | None = None,
    metrics_host: str = "127.0.0.1",
    log_format: str = "text",
    board_pause: float = BOARD_PAUSE,
) -> None:
    """Run the hall with uvicorn (blocking). ``metrics_port``: serve Prometheus's ``GET /metrics``
    there, on ``metrics_host`` (loopback by default: never the players' address; docs/decisions.md)."""
    import uvicorn

    from paiju.server.web.slow_clients import HeaderTimeoutProtocol, QuickCloseWebSocketProtocol, capped

    HeaderTimeoutProtocol.header_timeout = header_timeout
    collector.tune()

    worker = f" (worker {cluster.worker} of a cluster)" if cluster is not None else ""
    print(f"paiju hall on http://{host}:{port}/{worker}", flush=True)
    if metrics_port is not None:
        from paiju.server.metrics import serve_metrics

        try:
            serve_metrics(metrics_host, metrics_port)
        except OSError as e:
            raise SystemExit(f"--metrics-port {metrics_port} on {metrics_host}: {e}") from None
        print(f"metrics on http://{metrics_host}:{metrics_port}/metrics", flush=True)
    app = create_app(
        db,
        bot_delay=bot_delay,
        limits=limits,
        origins=origins,
        deal_step=deal_step,
        deal_final_window=deal_final_window,
        bot_workers=bot_workers,
        beans=beans,
        analysis=analysis,
        cluster=cluster,
        board_pause=board_pause,
    )

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            """A worker of a cluster gives its rooms up first, so that the others claim them
            while this one is still closing its connections (a rolling restart moves fast)."""
            h = getattr(app.state, "hall", None)
            if h is not None and h.cluster is not None:
                await h.cluster.leave()
            await super().shutdown(sockets)

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        http=capped((limits or Limits()).http_conns_per_address),  # slow_clients.py: half-open connections
        ws=QuickCloseWebSocketProtocol,
        ws_max_size=1 << 20,
        ws_per_message_deflate=False,  # costs more CPU than it saves on the small, frequent updates
        limit_concurrency=max_connections,
        timeout_keep_alive=5,
        timeout_graceful_shutdown=5,
    )
    # after uvicorn's Config, which sets its own loggers up: in JSON its lines are JSON too
    logs.setup(log_format, cluster.worker if cluster is not None else "hall")
    server = Server(config)
    with contextlib.suppress(KeyboardInterrupt):  # as uvicorn.run: Ctrl-C stops the hall without a traceback
        server.run()
    if not server.started:
        sys.exit(3)  # uvicorn's exit code when the server could not start


def cluster_settings(redis: str | None, worker_id: str | None, port: int, lease_ttl: float) -> ClusterSettings | None:
    """A worker's settings from ``--redis``/``--worker-id`` (None: a hall of one process)."""
    if redis is None:
        if worker_id is not None:
            raise SystemExit("--worker-id needs --redis: the workers of a cluster share a Redis server")
        return None
    if not 0.5 <= lease_ttl <= 60:
        raise SystemExit("--lease-ttl is between 0.5 and 60 seconds")
    worker = worker_id or f"{socket.gethostname()}-{port}"
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", worker):
        raise SystemExit("--worker-id is 1-64 letters, digits, '.', '_' or '-'")
    return ClusterSettings(worker=worker, redis=redis, lease_ttl=lease_ttl, renew_every=lease_ttl / 6)


def ops_arguments(ap: Any) -> None:
    """The operator's options: metrics and the log format (``paiju serve`` has the same)."""
    ap.add_argument("--metrics-port", type=int, default=None, help="serve Prometheus's GET /metrics on this port")
    ap.add_argument("--metrics-host", default="127.0.0.1", help="address of the metrics port (default: loopback)")
    ap.add_argument("--log-format", choices=logs.FORMATS, default="text", help="json: one JSON object per line")


def cluster_arguments(ap: Any) -> None:
    ap.add_argument("--redis", default=None, help="redis://… : run as one worker of a cluster")
    ap.add_argument("--worker-id", default=None, help="this worker's name in the cluster (default: host-port)")
    ap.add_argument("--lease-ttl", type=float, default=ClusterSettings.lease_ttl, help="seconds a room's lease lasts")


def limit_arguments(ap: Any) -> None:
    """One ``--name`` option per field of :class:`Limits` (``paiju serve`` and ``python -m``)."""
    defaults = Limits()
    for f in dataclasses.fields(Limits):
        flag = "--" + f.name.replace("_", "-")
        ap.add_argument(flag, type=type(getattr(defaults, f.name)), default=getattr(defaults, f.name))


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="Run the paiju hall")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--db", default=None)
    ap.add_argument("--bot-delay", type=float, default=0.6)
    ap.add_argument("--origin", action="append", default=[], help="another origin whose pages may act (a proxy)")
    ap.add_argument("--max-connections", type=int, default=MAX_CONNECTIONS)
    ap.add_argument("--header-timeout", type=float, default=HEADER_TIMEOUT)
    ap.add_argument("--deal-step", type=float, default=DEAL_STEP, help="seconds per decision of the Shengji deal")
    ap.add_argument("--deal-final-window", type=float, default=DEAL_FINAL_WINDOW, help="seconds after the last card")
    ap.add_argument(
        "--board-pause", type=float, default=BOARD_PAUSE, help="seconds between a tournament table's boards"
    )
    ap.add_argument("--bot-workers", type=int, default=1, help="processes the 最强 (strongest) bots search in")
    ap.add_argument("--start-beans", type=int, default=BeanSettings.start, help="every account's first beans")
    ap.add_argument("--relief-below", type=int, default=BeanSettings.relief_below, help="救济 under this balance")
    ap.add_argument("--relief", type=int, default=BeanSettings.relief, help="beans of one 救济 (once a day)")
    ap.add_argument(
        "--start-after-hands", type=int, default=BeanSettings.start_after_hands, help="scored hands before start beans"
    )
    ap.add_argument(
        "--registrations-per-hour", type=int, default=BeanSettings.registrations_per_hour, help="per address"
    )
    ap.add_argument("--analysis-budget", type=float, default=AnalysisSettings.budget, help="复盘 seconds per decision")
    ap.add_argument("--analysis-jobs", type=int, default=AnalysisSettings.jobs, help="复盘 analyses at once")
    ap.add_argument("--analysis-workers", type=int, default=AnalysisSettings.workers, help="复盘 worker processes")
    cluster_arguments(ap)
    ops_arguments(ap)
    limit_arguments(ap)
    a = ap.parse_args()
    chosen = Limits(**{name: getattr(a, name) for name in Limits.names()})
    serve(
        a.host,
        a.port,
        a.db,
        a.bot_delay,
        chosen,
        a.origin,
        a.max_connections,
        a.header_timeout,
        deal_step=a.deal_step,
        deal_final_window=a.deal_final_window,
        bot_workers=a.bot_workers,
        beans=BeanSettings(a.start_beans, a.relief_below, a.relief, a.start_after_hands, a.registrations_per_hour),
        analysis=AnalysisSettings(budget=a.analysis_budget, jobs=a.analysis_jobs, workers=a.analysis_workers),
        cluster=cluster_settings(a.redis, a.worker_id, a.port, a.lease_ttl),
        metrics_port=a.metrics_port,
        metrics_host=a.metrics_host,
        log_format=a.log_format,
        board_pause=a.board_pause,
    )
