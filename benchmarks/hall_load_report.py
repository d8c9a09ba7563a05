"""What ``hall_load.py`` reports: a row's figures (``Result``), the table or markdown rows
(with the cluster's columns when a row has workers), the verdict against the target, and
a row's figures for the JSON file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

TARGET = {"clients": 1000, "p99_ms": 100.0, "errors": 0}
"""The issue's target: 1,000 clients on a 2-core machine, p99 below 100 ms, no errors."""


# ---------------------------------------------------------------------------- one run
@dataclass
class Result:
    clients: int
    tables: int
    procs: int
    seconds: float
    think_s: float  # mean think time of the clients (0: as fast as the server answers)
    compression: bool  # permessage-deflate offered
    actions: int
    actions_per_s: float
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float
    hands_per_s: float
    errors: int
    error_kinds: dict[str, int]
    unconfirmed: int
    closed: int
    server_log_errors: int
    server_cpu: float  # share of one core over the window
    server_ms_per_action: float  # server CPU time per accepted action
    client_cpu: float  # summed over the client processes
    client_lag_ms: float  # the worst event-loop lag of a client process
    other_cpu: float  # CPU the rest of the machine used meanwhile (other programs): should be ~0
    messages_per_s: float
    kb_per_message: float
    paced_s: float
    setup_s: float
    setup_retries: int
    server_exit: int | None
    strongest_tables: int = 0  # rooms of four 最强 bots playing meanwhile (not measured)
    strongest_hands: int = 0  # hands they finished (warm-up and window)
    bot_fallback: bool = False  # the bot pool failed at least once (a 最强 decision was the heuristic's)
    # a cluster (--cluster): these are left out of the JSON of a run without one
    workers: int = 0  # hall workers behind HAProxy (0: the hall of one process)
    haproxy_cpu: float = float("nan")  # shares of one core over the window, as server_cpu (the workers' together)
    postgres_cpu: float = float("nan")  # the PostgreSQL server: its postmaster and every child (others' backends too)
    postgres_ours_cpu: float = float("nan")  # the backends of the workers' own connections
    redis_cpu: float = float("nan")
    commits_per_s: float = float("nan")  # the workers' commits: measured less the rest of the server's (baseline)
    commits_measured_per_s: float = float("nan")  # pg_stat_database.xact_commit of the database over the window
    commits_other_per_s: float = float("nan")  # the baseline: the database's commits/s without the workers (mean of:)
    commits_other_before_per_s: float = float("nan")  # 3 s before the workers started
    commits_other_after_per_s: float = float("nan")  # 3 s after they stopped
    rollbacks_per_s: float = float("nan")  # pg_stat_database.xact_rollback over the window
    actions_per_commit: float = float("nan")  # accepted actions per commit of the workers (group commit)
    stored_per_s: float = float("nan")  # action rows inserted in the cluster's schema per second
    redis_cmds_per_s: float = float("nan")  # Redis commands of the workers: measured less the baseline
    redis_cmds_measured_per_s: float = float("nan")  # INFO stats total_commands_processed over the window
    redis_cmds_other_per_s: float = float("nan")  # the baseline, without the workers (mean of:)
    redis_cmds_other_before_per_s: float = float("nan")
    redis_cmds_other_after_per_s: float = float("nan")
    connect_p50_ms: float = float("nan")  # set-up: a table WebSocket opened to its hello (a table's first: the handoff)
    connect_max_ms: float = float("nan")
    refused_opens: int = 0  # set-up: WebSockets refused as unavailable (a handoff too slow) and opened again
    handoffs: int = 0  # rooms claimed again after they were made (fencing tokens past 1), by the window's end
    moved_in_window: int = 0  # of them, claims made inside the window (a room changing worker mid-play)
    rooms_per_worker: dict[str, int] = field(default_factory=dict)  # rooms each worker played at the end
    rooms_lost: int = 0  # rooms a worker logged as lost ("lost room …: dropped") and gave up
    checks_down: int = 0  # times HAProxy marked a worker down (failed health checks) until the clients left
    checks_down_in_window: int = 0  # of them, inside the window


_NAMES = [f.name for f in fields(Result)]
CLUSTER_FIELDS = tuple(_NAMES[_NAMES.index("workers") :])


# ---------------------------------------------------------------------------- output
def verdict(results: Sequence[Result]) -> str:
    target = [r for r in results if r.clients == TARGET["clients"]]
    if not target:
        return f"target (1,000 clients, p99 < 100 ms, no errors): not run ({TARGET['clients']} clients not measured)"
    r = target[0]
    how = f"with a mean think time of {r.think_s:g} s" if r.think_s else "clients acting as fast as the server answers"
    if any(t.workers for t in target):  # a row per worker count
        each = "; ".join(f"{_hall_of(t)}: {_met(t)} (p99 {t.p99_ms:.0f} ms, {t.errors} errors)" for t in target)
        return f"target (1,000 clients, p99 < 100 ms, no errors), {how}: {each}"
    return (
        f"target (1,000 clients, p99 < 100 ms, no errors), {how}: {_met(r)} (p99 {r.p99_ms:.0f} ms, {r.errors} errors)"
    )


def _met(r: Result) -> str:
    return "MET" if r.p99_ms < TARGET["p99_ms"] and r.errors == 0 else "NOT MET"


def _hall_of(r: Result) -> str:
    return f"{r.workers} worker{'s' if r.workers != 1 else ''}" if r.workers else "one process"


HEAD = ("clients", "tables", "actions/s", "p50 ms", "p90 ms", "p99 ms", "max ms", "hands/s", "errors")
HEAD2 = ("server CPU", "server ms/action", "client CPU", "client lag ms", "other CPU", "msgs/s", "KiB/msg")
CLUSTER_HEAD = ("workers", *HEAD)
CLUSTER_HEAD2 = (
    "workers CPU",
    "workers ms/action",
    "haproxy CPU",
    "postgres CPU",
    "redis CPU",
    "client CPU",
    "client lag ms",
    "other CPU",
    "commits/s",
    "actions/commit",
    "redis cmds/s",
    "msgs/s",
    "KiB/msg",
)


def _row(r: Result) -> list[str]:
    return [
        f"{r.clients:,}",
        f"{r.tables:,}",
        f"{r.actions_per_s:,.0f}",
        f"{r.p50_ms:.1f}",
        f"{r.p90_ms:.1f}",
        f"{r.p99_ms:.1f}",
        f"{r.max_ms:.0f}",
        f"{r.hands_per_s:.1f}",
        f"{r.errors}",
        f"{r.server_cpu:.0%}",
        f"{r.server_ms_per_action:.2f}",
        f"{r.client_cpu:.0%}",
        f"{r.client_lag_ms:.0f}",
        f"{r.other_cpu:.0%}",
        f"{r.messages_per_s:,.0f}",
        f"{r.kb_per_message:.1f}",
    ]


def _cluster_row(r: Result) -> list[str]:
    """A row of a run with ``--cluster`` (a row of 0 workers: the hall of one process, on SQLite)."""
    row = _row(r)
    if not r.workers:
        blank = ["–"] * 3
        return ["0 (one process)", *row[:11], *blank, *row[11:14], *blank, *row[14:]]
    return [
        f"{r.workers}",
        *row[:11],
        f"{r.haproxy_cpu:.0%}",
        f"{r.postgres_cpu:.0%}",
        f"{r.redis_cpu:.0%}",
        *row[11:14],
        f"{r.commits_per_s:,.0f}",
        f"{r.actions_per_commit:.1f}",
        f"{r.redis_cmds_per_s:,.0f}",
        *row[14:],
    ]


def cluster_details(r: Result) -> str:
    """What a cluster row's columns leave out: where the rooms went, the handoffs, the raw counters."""
    rooms = ", ".join(f"{n}: {k}" for n, k in sorted(r.rooms_per_worker.items()))
    return (
        f"{_hall_of(r)}, {r.clients:,} clients: rooms per worker at the end {{{rooms}}}; "
        f"{r.handoffs} room handoff(s) (claims after the room was made), {r.moved_in_window} inside the window, "
        f"{r.rooms_lost} room(s) logged as lost by a worker; "
        f"a table WebSocket answered (hello) in p50 {r.connect_p50_ms:.0f} ms, max {r.connect_max_ms:.0f} ms, "
        f"{r.refused_opens} refused as unavailable and opened again; "
        f"HAProxy marked a worker down {r.checks_down} time(s), {r.checks_down_in_window} inside the window; "
        f"PostgreSQL {r.commits_measured_per_s:,.0f} commits/s measured, the rest of the server "
        f"{r.commits_other_before_per_s:,.0f}/s before the workers started and {r.commits_other_after_per_s:,.0f}/s "
        f"after they stopped, {r.rollbacks_per_s:,.0f} rollbacks/s, {r.stored_per_s:,.0f} action rows stored/s, "
        f"the workers' backends {r.postgres_ours_cpu:.0%} CPU; Redis {r.redis_cmds_measured_per_s:,.0f} commands/s "
        f"measured, {r.redis_cmds_other_before_per_s:,.0f}/s before and {r.redis_cmds_other_after_per_s:,.0f}/s after"
    )


def _table(results: Sequence[Result]) -> tuple[list[str], list[list[str]]]:
    if any(r.workers for r in results):
        return [*CLUSTER_HEAD, *CLUSTER_HEAD2], [_cluster_row(r) for r in results]
    return [*HEAD, *HEAD2], [_row(r) for r in results]


def print_table(results: Sequence[Result], info: dict[str, Any], notes: list[str]) -> None:
    head, rows = _table(results)
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(head)]
    print(f"Machine: {info['cpu']}, {info['cores']} cores, {info['python']}")
    for n in notes:
        print(n)
    print("  ".join(h.rjust(w) for h, w in zip(head, widths)))
    for row in rows:
        print("  ".join(c.rjust(w) for c, w in zip(row, widths)))
    for r in results:
        if r.workers:
            print(cluster_details(r))
    for r in results:
        if r.error_kinds:
            print(f"errors at {_at(r)}: " + "; ".join(f"{k} ×{v}" for k, v in r.error_kinds.items()))
    print(verdict(results))


def _at(r: Result) -> str:
    return f"{r.clients} clients, {_hall_of(r)}" if r.workers else f"{r.clients} clients"


def print_markdown(results: Sequence[Result], info: dict[str, Any], notes: list[str]) -> None:
    head, rows = _table(results)
    print(f"Machine: {info['cpu']}, {info['cores']} cores, {info['python']}, {info['platform']}.")
    for n in notes:
        print(f"{n}.")
    print()
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---:" for _ in head) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()
    for r in results:
        if r.workers:
            print(f"- {cluster_details(r)}.")
    if any(r.workers for r in results):
        print()
    for r in results:
        if r.error_kinds:
            print(f"Errors at {_at(r)}: " + "; ".join(f"{k} ×{v}" for k, v in r.error_kinds.items()) + ".")
    print(verdict(results) + ".")


def row_data(r: Result, cluster: bool) -> dict[str, Any]:
    """A row's figures for the JSON file (a run without a cluster: without the cluster's fields)."""
    data = asdict(r)
    return data if cluster else {k: v for k, v in data.items() if k not in CLUSTER_FIELDS}
