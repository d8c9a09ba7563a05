"""Hall load benchmark: many simulated players on the web hall, over real sockets.

Run ``.venv/bin/python benchmarks/hall_load.py --clients 50,250,1000 --duration 20``
(``--markdown`` prints rows for docs/benchmarks.md, ``--json FILE`` keeps the numbers).
This is a measurement script, not a test: it asserts nothing. Its parts are modules beside
it: the clients (``hall_load_clients.py``), the cluster (``hall_cluster.py``) and the
report (``hall_load_report.py``); ``hall_common.py`` holds what the hall benchmarks share.

For each client count N the script

1. starts a fresh hall as a subprocess on loopback
   (``python -m paiju.server.web.serve --host 127.0.0.1 --port <free> --db sqlite:///<tmp> --bot-delay 0``),
   pinned to one CPU when the machine has more than one;
2. makes N/5 tables of 5 human players: every client logs in (``POST /api/login``), the
   first of each table creates a room (Baohuang ``standard``, ``turn_timeout`` 600 s so
   nobody is ever put on 托管), all five open the table WebSocket and sit, and the first
   sends ``start``;
3. lets every seat play as fast as the server answers: when an ``update`` shows the
   client's seat to act at a turn it has not acted at, it sends ``act`` with a random
   action of ``view.legal_actions`` and the ``turn``; when a hand is over the table's
   first client sends ``start`` for the next one;
4. measures for ``--duration`` seconds after ``--warmup`` seconds, then stops acting,
   waits a little for the answers still on their way, closes every connection and stops
   the server (SIGINT, then SIGTERM/SIGKILL if it lingers).

What is measured (inside the measured window):

- accepted actions/s: an action counts when its client receives the ``update`` whose
  ``turn`` (or hand number) has moved past the turn it acted at, i.e. confirmed by the
  server, which stores the action before sending that update;
- latency: from sending ``act`` to receiving that update (p50/p90/p99/max, ms);
- errors: every ``error`` message received, by kind, plus connections closed unexpectedly,
  actions never confirmed, and lines the server logged as errors;
- CPU: the server's and the client processes' CPU time over the window (100% = one core),
  server CPU per accepted action, the client process's worst event-loop lag, and what the
  rest of the machine used meanwhile — to tell which side was the bottleneck and whether
  the machine was shared.

Clients are asyncio tasks in one process (``--procs``: more processes, the tables split
between them). A client respects the protocol's documented limit of 20 messages per
second per connection (a token bucket of 18/s, bursts of 30; ``--no-pace`` turns that off
and lets the server answer "slow down"). ``--think S`` makes clients wait 0..2S seconds
before acting, ``--no-compression`` stops them offering permessage-deflate, ``--nice -10``
raises the benchmark's priority on a shared machine, ``--py-spy FILE`` records the server.

``--strongest-tables N`` adds N more Baohuang rooms of one player and four 最强 (strongest)
bots — the search bot, thinking in the hall's bot worker process (``--bot-workers``,
default 1; paiju.server.tables.bot_pool) — playing through the whole window. Their player acts
at random like the others, but their actions are not counted: the figures are the other
tables', to show whether search-bot tables move them. The workers inherit the server's
CPU pinning, and a pool whose hall is pinned moves them to the other CPUs by itself
(bot_pool.hall_cpus: here the clients' CPU), where they run under SCHED_IDLE;
``--workers-on-clients`` also moves them there, from outside.

``--cluster W`` measures a cluster instead (paiju.server.tables.cluster_rooms): W hall workers
(``python -m paiju.server.web.serve … --db postgresql://… --redis redis://… --worker-id ID``)
on a fresh PostgreSQL schema (``--pg URL``, default ``$PAIJU_BENCH_POSTGRES`` or
``$PAIJU_TEST_POSTGRES``; the schema ``bench_…`` is made before and dropped after) and a
flushed Redis database (``--redis URL``, default ``$PAIJU_BENCH_REDIS`` or
``$PAIJU_TEST_REDIS``; name a database number of its own, e.g. ``redis://host:6379/5`` —
the script refuses one a running cluster uses), behind HAProxy (``/usr/sbin/haproxy``,
its configuration from paiju.server.cluster.proxy_config.haproxy_config). Every HTTP request and
WebSocket of the clients goes through the proxy, which sends a room's to one worker by a
hash of the room's id; a room is made on whichever worker the proxy picks, so the first
connection to it may wait for the handoff (in the set-up, before the warm-up; a table's
first player connects before the other four, and a refused first connection — the
holder did not give the room up in time — is tried again). ``--cluster 1,2,3`` runs each
worker count in turn for each client count. Nothing is pinned in cluster mode: workers,
HAProxy, PostgreSQL, Redis and the clients share the machine's CPUs. Each row also gives,
over the window: the workers' CPU together, HAProxy's, PostgreSQL's (its postmaster and
every child: the backends of anything else using that server count too; the workers' own
backends, found by ``application_name``, are in the JSON) and Redis's (the process its
``INFO`` names); the workers' commits per second (``pg_stat_database.xact_commit`` of the
database, less the rest of the server's rate, measured 3 s before the workers start and
3 s after they stop), accepted actions per commit (group commit), action rows stored per
second (``pg_stat_user_tables`` of the schema), Redis commands per second (``INFO stats``,
less the same kind of baseline); and, for the whole run, the time a table WebSocket took to
be answered (a table's first: the handoff), the rooms' handoffs (fencing tokens), how many
rooms each worker played at the end and how often HAProxy marked a worker down.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # its modules, also when this file is loaded by path
from hall_cluster import HallCluster, pids_named, rates
from hall_common import (  # noqa: E402
    SEATS,
    Config,
    Server,
    Stats,
    busy_seconds,
    cpu_plan,
    cpu_seconds,
    machine,
    percentile,
    raise_fd_limit,
    set_nice,
    sleep_until,
    write_json,
)
from hall_load_clients import LocalControl, child_main, run_clients, run_strongest
from hall_load_report import TARGET, Result, cluster_details, print_markdown, print_table, row_data, verdict


# ---------------------------------------------------------------------------- one run
def merge(stats: list[Stats]) -> Stats:
    out = Stats()
    for s in stats:
        out.latencies_ms += s.latencies_ms
        out.connect_ms += s.connect_ms
        out.errors.update(s.errors)
        for name in (
            "confirmed",
            "unconfirmed",
            "hands",
            "messages",
            "bytes",
            "closed",
            "setup_retries",
            "refused_opens",
        ):
            setattr(out, name, getattr(out, name) + getattr(s, name))
        out.paced_s += s.paced_s
        out.cpu_s += s.cpu_s
        out.setup_s = max(out.setup_s, s.setup_s)
        out.lag_ms = max(out.lag_ms, s.lag_ms)
    return out


class Watch:
    """CPU of the server and of the whole machine over the window; py-spy on the server if asked.
    On a cluster: the workers' CPU together (``server_cpu``), HAProxy's, PostgreSQL's and
    Redis's (``cpu``), and the database's and Redis's counters (``before``, ``after``)."""

    def __init__(self, server_pid: int, py_spy: str | None, cluster: HallCluster | None = None) -> None:
        self.pid, self.py_spy, self.cluster = server_pid, py_spy, cluster
        self.server_cpu = self.machine_cpu = float("nan")
        self.strongest_hands = 0  # hands the 最强 rooms finished (warm-up and window)
        self.cpu: dict[str, float] = {}  # cluster: share of one core by group over the window
        self.before: dict[str, Any] = {}  # cluster: the counters at the window's start
        self.after: dict[str, Any] = {}  # and at its end
        self.tokens: tuple[int, int] = (0, 0)  # cluster: the rooms' fencing tokens summed, at start and end
        self.downs: tuple[int, int] = (0, 0)  # cluster: workers marked down by HAProxy so far, at start and end

    def _groups(self) -> dict[str, dict[int, float]]:
        """CPU seconds so far of every process of each group of the cluster."""
        assert self.cluster is not None and self.cluster.haproxy is not None and self.cluster.counters is not None
        groups = {
            "workers": self.cluster.pids,
            "haproxy": [self.cluster.haproxy.pid],
            "postgres": pids_named("postgres", self.cluster.counters.postmaster),
            "redis": [self.cluster.counters.redis_pid]
            if self.cluster.counters.redis_pid
            else pids_named("redis-server"),
        }
        return {g: {pid: cpu_seconds(pid) for pid in pids} for g, pids in groups.items()}

    def _cluster_sample(self) -> tuple[dict[str, dict[int, float]], dict[str, Any], int, int]:
        assert self.cluster is not None and self.cluster.counters is not None
        counters = self.cluster.counters
        tokens = sum(t for _, t in counters.owners())
        return self._groups(), counters.read(), tokens, self.cluster.checks_down()

    async def _run_cluster(self, end: float) -> None:
        g0, self.before, tok0, down0 = await asyncio.to_thread(self._cluster_sample)
        m0, t0 = busy_seconds(None), time.time()
        await sleep_until(end)
        g1, self.after, tok1, down1 = await asyncio.to_thread(self._cluster_sample)
        elapsed = time.time() - t0
        self.machine_cpu = (busy_seconds(None) - m0) / elapsed
        self.tokens, self.downs = (tok0, tok1), (down0, down1)

        def used(group: str, only: set[int] | None = None) -> float:
            pids = [p for p in g1[group] if only is None or p in only]
            spent = [g1[group][p] - g0[group].get(p, 0.0) for p in pids]  # a process started meanwhile: all of it
            return sum(x for x in spent if x == x) / elapsed  # nan: gone meanwhile

        self.cpu = {g: used(g) for g in g1}
        self.cpu["postgres_ours"] = used("postgres", set(self.before["backends"]) | set(self.after["backends"]))
        self.server_cpu = self.cpu["workers"]

    async def run(self, start: float, end: float) -> None:
        await sleep_until(start)
        spy = None
        if self.py_spy:  # the server, or a cluster's first worker
            exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
            fmt = "flamegraph" if self.py_spy.endswith(".svg") else "raw"
            seconds = str(int(end - start))
            cmd = [exe, "record", "--gil", "-o", self.py_spy, "-f", fmt, "-d", seconds, "--pid", str(self.pid)]
            spy = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if self.cluster is not None:
            await self._run_cluster(end)
        else:
            c0, m0, t0 = cpu_seconds(self.pid), busy_seconds(None), time.time()
            await sleep_until(end)
            elapsed = time.time() - t0
            self.server_cpu = (cpu_seconds(self.pid) - c0) / elapsed
            self.machine_cpu = (busy_seconds(None) - m0) / elapsed
        if spy is not None:
            await asyncio.to_thread(spy.wait)


async def _drive(cfg: Config, procs: int, client_cpus: set[int] | None, watch: Watch) -> Stats:
    """Run the clients (here or in child processes), give the go-ahead, collect their stats."""
    n_tables = cfg.clients // SEATS
    parts = [list(range(n_tables))[i::procs] for i in range(procs)]
    parts = [p for p in parts if p]
    extra: asyncio.Task[Stats] | None = None
    stop = asyncio.Event()
    if cfg.strongest:  # the search-bot rooms play from before the warm-up to the end
        started: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        extra = asyncio.create_task(run_strongest(cfg, started, stop))
        waits: list[asyncio.Future[Any]] = [extra, started]
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        if extra.done():
            extra.result()  # raises the set-up failure
    try:
        return await _drive_clients(cfg, parts, client_cpus, watch)
    finally:
        stop.set()
        if extra is not None:
            strongest = await extra
            watch.strongest_hands = strongest.hands


async def _drive_clients(cfg: Config, parts: list[list[int]], client_cpus: set[int] | None, watch: Watch) -> Stats:
    """The measured clients, in this process or in ``len(parts)`` child processes."""

    def window() -> tuple[float, float]:
        start = time.time() + cfg.warmup
        return start, start + cfg.duration

    if len(parts) == 1:
        saved = os.sched_getaffinity(0) if client_cpus else None
        if client_cpus:
            os.sched_setaffinity(0, client_cpus)
        try:
            control = LocalControl()
            task = asyncio.create_task(run_clients(cfg, parts[0], control))
            waits: list[asyncio.Future[Any]] = [task, control.is_ready]
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            if task.done():
                task.result()  # raises the set-up failure
            start, end = window()
            control.window.set_result((start, end))
            await watch.run(start, end)
            stats = [await task]
        finally:
            if saved:
                os.sched_setaffinity(0, saved)
    else:
        ctx = multiprocessing.get_context("fork")
        pipes, children = [], []
        for part in parts:
            ours, theirs = ctx.Pipe()
            child = ctx.Process(target=child_main, args=(cfg, part, theirs, client_cpus), daemon=True)
            child.start()
            theirs.close()
            pipes.append(ours)
            children.append(child)
        try:
            for p in pipes:
                kind, value = await asyncio.to_thread(p.recv)
                if kind != "ready":
                    raise RuntimeError(f"a client process failed during set-up: {value}")
            start, end = window()
            for p in pipes:
                p.send((start, end))
            await watch.run(start, end)
            stats = []
            for p in pipes:
                kind, value = await asyncio.to_thread(p.recv)
                if kind != "stats":
                    raise RuntimeError(f"a client process failed: {value}")
                stats.append(value)
        finally:
            for child in children:
                child.join(timeout=10)
                if child.is_alive():
                    child.terminate()
    return merge(stats)


def bot_workers_of(server_pid: int) -> list[int]:
    """The hall's bot-pool workers: its children started by multiprocessing's spawn."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes()
            except (OSError, IndexError, ValueError):
                continue
            if ppid == server_pid and b"spawn_main" in cmd:
                out.append(int(entry))
    return out


def pin_bot_workers(server_pid: int, cpus: set[int], stop: threading.Event) -> None:
    """Until ``stop``: move every bot worker of the hall (started when first needed) to ``cpus``."""
    done: set[int] = set()
    while not stop.wait(0.1):
        for pid in bot_workers_of(server_pid):
            if pid not in done:
                with contextlib.suppress(OSError):
                    os.sched_setaffinity(pid, cpus)
                    done.add(pid)


def run_one(base: Config, clients: int, log: Any, py_spy: str | None = None) -> Result:
    """Measure ``clients`` clients against a fresh server, or a fresh cluster of
    ``base.cluster`` workers (``base`` gives every other setting)."""
    if clients < SEATS or clients % SEATS:
        raise SystemExit(f"--clients: {clients} is not a multiple of {SEATS} (five players a table)")
    if base.cluster:
        return run_cluster(base, clients, log, py_spy)
    server_cpus, client_cpus, _ = cpu_plan(base.procs, base.pin)
    server = Server(server_cpus, base.bot_workers)
    stop_pinning = threading.Event()
    if base.strongest and base.workers_on_clients and client_cpus:
        args = (server.proc.pid, client_cpus, stop_pinning)
        threading.Thread(target=pin_bot_workers, args=args, daemon=True).start()
    try:
        server.wait_ready()
        cfg = replace(base, url=server.url, clients=clients)
        log(f"{clients} clients: server pid {server.proc.pid} on port {server.port}, {clients // SEATS} tables")
        watch = Watch(server.proc.pid, py_spy)
        stats = asyncio.run(_drive(cfg, cfg.procs, client_cpus, watch))
    finally:
        stop_pinning.set()
        exit_code = server.stop()
        log_errors = server.error_lines()
        fallback = "plays the heuristic's choice" in server.log_text()  # the bot pool failed (logged once)
        if base.logs:
            keep_logs([server.log_path], Path(base.logs) / f"single-{clients}")
        server.cleanup()
    return result_of(base, clients, stats, watch, log_errors, exit_code, fallback)


def keep_logs(paths: Sequence[Path], into: Path) -> None:
    into.mkdir(parents=True, exist_ok=True)
    for path in paths:
        shutil.copy(path, into / path.name)


def result_of(
    base: Config, clients: int, stats: Stats, watch: Watch, log_errors: list[str], exit_code: int | None, fallback: bool
) -> Result:
    duration = base.duration
    lat = sorted(stats.latencies_ms)
    errors = sum(stats.errors.values())
    return Result(
        clients=clients,
        tables=clients // SEATS,
        procs=min(base.procs, clients // SEATS),
        seconds=duration,
        think_s=base.think,
        compression=base.compression,
        actions=stats.confirmed,
        actions_per_s=stats.confirmed / duration,
        p50_ms=percentile(lat, 50),
        p90_ms=percentile(lat, 90),
        p99_ms=percentile(lat, 99),
        max_ms=lat[-1] if lat else float("nan"),
        hands_per_s=stats.hands / duration,
        errors=errors + stats.unconfirmed + len(log_errors),
        error_kinds=dict(
            stats.errors.most_common()
            + ([("actions never confirmed", stats.unconfirmed)] if stats.unconfirmed else [])
            + ([("server log: " + line[:100], 1) for line in log_errors[:5]])
        ),
        unconfirmed=stats.unconfirmed,
        closed=stats.closed,
        server_log_errors=len(log_errors),
        server_cpu=watch.server_cpu,
        server_ms_per_action=watch.server_cpu * duration / max(1, stats.confirmed) * 1000,
        client_cpu=stats.cpu_s / duration,
        client_lag_ms=stats.lag_ms,
        other_cpu=watch.machine_cpu
        - watch.server_cpu
        - stats.cpu_s / duration
        - sum(watch.cpu.get(g, 0.0) for g in ("haproxy", "postgres", "redis")),
        messages_per_s=stats.messages / duration,
        kb_per_message=stats.bytes / max(1, stats.messages) / 1024,
        paced_s=stats.paced_s,
        setup_s=stats.setup_s,
        setup_retries=stats.setup_retries,
        server_exit=exit_code,
        strongest_tables=base.strongest,
        strongest_hands=watch.strongest_hands,
        bot_fallback=fallback,
    )


def run_cluster(base: Config, clients: int, log: Any, py_spy: str | None = None) -> Result:
    """Measure ``clients`` clients against a fresh cluster of ``base.cluster`` workers behind HAProxy."""
    if not base.pg or not base.redis:
        raise SystemExit("--cluster needs --pg URL and --redis URL (or PAIJU_BENCH_POSTGRES and PAIJU_BENCH_REDIS)")
    hall = HallCluster(base.cluster, base.pg, base.redis, base.bot_workers)
    rooms: dict[str, int] = {}
    owners: list[tuple[str | None, int]] = []
    downs = 0
    try:
        hall.start()
        hall.wait_ready()
        cfg = replace(base, url=hall.url, clients=clients)
        log(
            f"{clients} clients, {base.cluster} worker(s): workers {hall.pids} on ports {hall.ports}, "
            f"haproxy pid {hall.haproxy.pid if hall.haproxy else '-'} on port {hall.port}, schema {hall.schema}, "
            f"{clients // SEATS} tables"
        )
        watch = Watch(hall.pids[0], py_spy, hall)
        stats = asyncio.run(_drive(cfg, cfg.procs, None, watch))
        rooms, downs = hall.rooms(), hall.checks_down()
        assert hall.counters is not None
        owners = hall.counters.owners()
    finally:
        exit_code = hall.stop()
        if hall.baseline:
            hall.baseline_after = hall.measure_baseline()
        log_errors, lost = hall.error_lines(), hall.lost_rooms()
        fallback = "plays the heuristic's choice" in hall.log_text()
        if base.logs:
            keep_logs([path for path, _ in hall.logs], Path(base.logs) / f"cluster{base.cluster}-{clients}")
        hall.cleanup()
    r = result_of(base, clients, stats, watch, log_errors, exit_code, fallback)
    duration = base.duration
    measured = rates(watch.before, watch.after)
    other = {k: (hall.baseline[k] + hall.baseline_after[k]) / 2 for k in hall.baseline}
    ours = measured["commits"] - other["commits"]
    redis_ours = measured["redis_commands"] - other["redis_commands"]
    connect = sorted(stats.connect_ms)
    return replace(
        r,
        workers=base.cluster,
        haproxy_cpu=watch.cpu["haproxy"],
        postgres_cpu=watch.cpu["postgres"],
        postgres_ours_cpu=watch.cpu["postgres_ours"],
        redis_cpu=watch.cpu["redis"],
        commits_per_s=ours,
        commits_measured_per_s=measured["commits"],
        commits_other_per_s=other["commits"],
        commits_other_before_per_s=hall.baseline["commits"],
        commits_other_after_per_s=hall.baseline_after["commits"],
        rollbacks_per_s=measured["rollbacks"],
        actions_per_commit=stats.confirmed / duration / ours if ours > 0 else float("nan"),
        stored_per_s=measured["stored"],
        redis_cmds_per_s=redis_ours,
        redis_cmds_measured_per_s=measured["redis_commands"],
        redis_cmds_other_per_s=other["redis_commands"],
        redis_cmds_other_before_per_s=hall.baseline["redis_commands"],
        redis_cmds_other_after_per_s=hall.baseline_after["redis_commands"],
        connect_p50_ms=percentile(connect, 50),
        connect_max_ms=connect[-1] if connect else float("nan"),
        refused_opens=stats.refused_opens,
        handoffs=sum(t - 1 for _, t in owners),
        moved_in_window=watch.tokens[1] - watch.tokens[0],
        rooms_per_worker=rooms,
        rooms_lost=lost,
        checks_down=downs,
        checks_down_in_window=watch.downs[1] - watch.downs[0],
    )


def main(argv: Sequence[str] | None = None) -> list[Result]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--clients", default="50,250,1000", help="client counts, comma-separated (multiples of 5)")
    ap.add_argument("--duration", type=float, default=20.0, help="measured seconds per client count (default 20)")
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds of play before measuring (default 5)")
    ap.add_argument("--procs", type=int, default=1, help="client processes (default 1)")
    ap.add_argument("--no-pin", action="store_true", help="do not pin the server and the clients to separate CPUs")
    ap.add_argument("--no-pace", action="store_true", help="clients ignore the 20 messages/s limit")
    ap.add_argument(
        "--py-spy",
        metavar="FILE",
        help="record the server (a cluster's first worker) with py-spy in the last row's window",
    )
    ap.add_argument(
        "--nice", type=int, default=0, help="niceness of the server and clients, e.g. -10 on a shared machine (root)"
    )
    ap.add_argument("--no-compression", action="store_true", help="do not offer permessage-deflate (browsers do)")
    ap.add_argument("--think", type=float, default=0.0, help="mean think time before each action, s (default 0)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the clients' random choices")
    ap.add_argument("--json", metavar="FILE", help="also write every figure to FILE")
    ap.add_argument("--markdown", action="store_true", help="print markdown rows ready for docs")
    ap.add_argument(
        "--strongest-tables", type=int, default=0, help="more rooms of four 最强 search bots, playing meanwhile"
    )
    ap.add_argument("--bot-workers", type=int, default=1, help="the hall's bot worker processes (default 1)")
    ap.add_argument(
        "--workers-on-clients",
        action="store_true",
        help="move the bot workers to the clients' CPU (default: the server's)",
    )
    ap.add_argument(
        "--cluster",
        default="0",
        help="hall workers behind HAProxy, comma-separated to run each in turn (default 0: one process)",
    )
    ap.add_argument(
        "--pg",
        default=os.environ.get("PAIJU_BENCH_POSTGRES") or os.environ.get("PAIJU_TEST_POSTGRES") or "",
        help="a cluster's PostgreSQL URL (default $PAIJU_BENCH_POSTGRES or $PAIJU_TEST_POSTGRES)",
    )
    ap.add_argument(
        "--redis",
        default=os.environ.get("PAIJU_BENCH_REDIS") or os.environ.get("PAIJU_TEST_REDIS") or "",
        help="a cluster's Redis URL, a database of its own (emptied): default $PAIJU_BENCH_REDIS or $PAIJU_TEST_REDIS",
    )
    ap.add_argument("--logs", metavar="DIR", help="keep the server's logs (a cluster's: workers' and HAProxy's) in DIR")
    args = ap.parse_args(argv)
    counts = [int(x) for x in args.clients.split(",") if x.strip()]
    clusters = [int(x) for x in args.cluster.split(",") if x.strip()] or [0]
    if any(w < 0 for w in clusters):
        ap.error("--cluster: a number of workers is 0 or more")
    procs = max(1, args.procs)

    def log(msg: str) -> None:
        print(f"[hall-load] {msg}", file=sys.stderr, flush=True)

    fd_note = raise_fd_limit(max(counts) * 2 + 1024)
    _, _, pin_note = cpu_plan(procs, not args.no_pin)
    if any(clusters):
        pin = "nothing pinned: workers, HAProxy, PostgreSQL, Redis and clients share every CPU"
        pin_note = f"cluster rows: {pin}" + (f"; one-process rows: {pin_note}" if 0 in clusters else "")
    pacing = "clients paced to 18 msg/s (server limit 20/s)" if not args.no_pace else "clients not paced"
    thinking = f"think time uniform 0-{2 * args.think:g} s" if args.think > 0 else "no think time"
    deflate = "no compression" if args.no_compression else "permessage-deflate"
    nice_note, restore_nice = set_nice(args.nice)
    notes = [
        f"{procs} client process(es) of asyncio clients; {pin_note}; {nice_note}; {fd_note}",
        f"{args.warmup:g} s warm-up, {args.duration:g} s measured per row; {pacing}; {thinking}; {deflate}",
    ]
    log(notes[0])
    info = machine()
    base = Config(
        url="",
        clients=0,
        warmup=args.warmup,
        duration=args.duration,
        pace=not args.no_pace,
        seed=args.seed,
        think=args.think,
        procs=procs,
        pin=not args.no_pin,
        compression=not args.no_compression,
        strongest=max(0, args.strongest_tables),
        bot_workers=args.bot_workers,
        workers_on_clients=args.workers_on_clients,
        pg=args.pg,
        redis=args.redis,
        logs=args.logs or "",
    )
    if base.strongest:
        notes.append(
            f"{base.strongest} more room(s) of one random player and four 最强 bots playing meanwhile (not measured), "
            f"{args.bot_workers} bot worker(s) under SCHED_IDLE on the CPUs the server is not pinned to"
        )
    results = []
    try:
        runs = [(n, w) for n in counts for w in clusters]
        for i, (n, w) in enumerate(runs):
            r = run_one(replace(base, cluster=w), n, log, args.py_spy if i == len(runs) - 1 else None)
            if r.strongest_tables:
                how = "some decisions fell back to the heuristic" if r.bot_fallback else "every search answered"
                log(f"{n} clients: the 最强 room(s) finished {r.strongest_hands} hands (warm-up and window); {how}")
            log(
                f"{n} clients: {r.actions_per_s:,.0f} actions/s, p50 {r.p50_ms:.1f} ms, p99 {r.p99_ms:.1f} ms, "
                f"{r.errors} errors, server CPU {r.server_cpu:.0%}, client CPU {r.client_cpu:.0%}, "
                f"other programs {r.other_cpu:.0%}"
            )
            if r.workers:
                log(cluster_details(r))
            results.append(r)
    finally:
        restore_nice()
    if args.markdown:
        print_markdown(results, info, notes)
    else:
        print_table(results, info, notes)
    if args.json:
        data = {
            "command": "benchmarks/hall_load.py " + " ".join(sys.argv[1:] if argv is None else argv),
            "machine": info,
            "notes": notes,
            "target": {**TARGET, "verdict": verdict(results)},
            "results": [row_data(r, any(clusters)) for r in results],
        }
        write_json(args.json, data)
        log(f"wrote {args.json}")
    return results


if __name__ == "__main__":
    main()
