"""``paiju serve``: the web card hall, with its settings and the limits of one visitor."""

from __future__ import annotations

from typing import Any

import typer

from paiju.cli.common import _fail
from paiju.server.tables.throttle import Limits

LIMIT_HELP = "a limit of what one visitor may use, NAME=VALUE (repeatable; docs/protocol.md): " + ", ".join(
    f"{name}={getattr(Limits(), name)}" for name in Limits.names()
)


def serve(
    host: str = typer.Option("127.0.0.1", help="address to listen on"),
    port: int = typer.Option(8000, help="port to listen on"),
    db: str | None = typer.Option(None, help="database URL: sqlite:///file.db (default ./paiju.db) or postgresql://…"),
    bot_delay: float = typer.Option(0.6, help="seconds a computer player waits before acting"),
    rate: float = typer.Option(20.0, help="table messages per second one player may send (bursts of twice that)"),
    origin: list[str] = typer.Option(  # noqa: B008 - typer declares options as defaults
        [], help="another origin whose pages may act in the hall, e.g. the https address of a proxy (repeatable)"
    ),
    max_connections: int = typer.Option(4096, help="open connections of the whole hall"),
    deal_step: float = typer.Option(0.06, help="seconds each decision of the Shengji deal waits while cards arrive"),
    deal_final_window: float = typer.Option(1.5, help="seconds a person has to declare after the last card"),
    bot_workers: int = typer.Option(1, help="processes the 最强 (strongest) bots search in (0: none)"),
    ready_timeout: float = typer.Option(20.0, help="seconds between hands for everyone to press 准备 (then 托管)"),
    archive_after: float = typer.Option(1800.0, help="seconds a room may have no person before it is archived"),
    start_beans: int = typer.Option(1000, help="every account's first beans 游戏豆"),
    relief_below: int = typer.Option(200, help="an account under this many beans may claim relief 救济 once a day"),
    relief: int = typer.Option(500, help="the beans of one relief 救济"),
    start_after_hands: int = typer.Option(
        3, help="scored hands an account finishes before its start beans (0: when it registers)"
    ),
    registrations_per_hour: int = typer.Option(3, help="accounts registered from one address in an hour"),
    analysis_budget: float = typer.Option(1.0, help="seconds of search per decision of a 复盘 analysis"),
    analysis_jobs: int = typer.Option(4, help="复盘 analyses waiting or running at once (one per player)"),
    analysis_workers: int = typer.Option(1, help="processes 复盘 analyses run in (one analysis each)"),
    redis: str | None = typer.Option(
        None,
        help="redis://… : run as one worker of a cluster sharing --db and this Redis (docs/deploy.md)",
    ),
    worker_id: str | None = typer.Option(None, help="this worker's name in its cluster (default: host-port)"),
    lease_ttl: float = typer.Option(3.0, help="seconds a worker's hold on a room lasts unless renewed (cluster)"),
    metrics_port: int | None = typer.Option(
        None, help="serve Prometheus's GET /metrics on this port (docs/operations.md); off by default"
    ),
    metrics_host: str = typer.Option("127.0.0.1", help="address of the metrics port (loopback: not public)"),
    log_format: str = typer.Option("text", help="text, or json: one JSON object per line for a log shipper"),
    limit: list[str] = typer.Option(  # noqa: B008
        [],
        help=LIMIT_HELP,
    ),
) -> None:
    """Run the web card hall: lobby, tables, bots and the browser client."""
    import dataclasses

    from paiju.server.accounts.settlement import BeanSettings
    from paiju.server.tables.analysis_jobs import AnalysisSettings
    from paiju.server.web.serve import cluster_settings
    from paiju.server.web.serve import serve as run_server

    if log_format not in ("text", "json"):
        _fail("--log-format is text or json")
    if metrics_port is not None and not 0 < metrics_port < 65536:
        _fail("--metrics-port is a port number (1-65535)")
    if start_after_hands < 0 or registrations_per_hour < 0:
        _fail("--start-after-hands and --registrations-per-hour are whole numbers ≥ 0")
    if analysis_budget <= 0 or analysis_jobs < 1 or analysis_workers < 1:
        _fail("--analysis-budget must be above 0, --analysis-jobs and --analysis-workers at least 1")
    values: dict[str, Any] = {"rate": rate, "ready_timeout": ready_timeout, "archive_after": archive_after}
    defaults = Limits()
    for item in limit:
        name, _, text = item.partition("=")
        name = name.strip().replace("-", "_")
        if name not in Limits.names() or not text:
            _fail(f"--limit takes NAME=VALUE with NAME one of {', '.join(Limits.names())}")
        kind = type(getattr(defaults, name))
        try:
            values[name] = kind(text)
        except ValueError:
            _fail(f"--limit {name}: {text!r} is not a {kind.__name__}")
    limits = dataclasses.replace(defaults, **values)
    try:
        cluster = cluster_settings(redis, worker_id, port, lease_ttl)
    except SystemExit as e:
        _fail(str(e))
    run_server(
        host=host,
        port=port,
        db=db,
        bot_delay=bot_delay,
        limits=limits,
        origins=origin,
        max_connections=max_connections,
        deal_step=deal_step,
        deal_final_window=deal_final_window,
        bot_workers=bot_workers,
        beans=BeanSettings(start_beans, relief_below, relief, start_after_hands, registrations_per_hour),
        analysis=AnalysisSettings(budget=analysis_budget, jobs=analysis_jobs, workers=analysis_workers),
        cluster=cluster,
        metrics_port=metrics_port,
        metrics_host=metrics_host,
        log_format=log_format,
    )
