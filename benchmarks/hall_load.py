"""Hall load benchmark: many simulated players on the web hall, over real sockets.

Run ``.venv/bin/python benchmarks/hall_load.py --clients 50,250,1000 --duration 20``
(``--markdown`` prints rows for docs/benchmarks.md, ``--json FILE`` keeps the numbers).
This is a measurement script, not a test: it asserts nothing.

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
import gc
import json
import multiprocessing
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from paiju.server.web import collector

sys.path.insert(0, str(Path(__file__).resolve().parent))  # hall_common, also when this file is loaded by path
from hall_common import (  # noqa: E402
    ROOT,
    SEATS,
    Client,
    Config,
    Server,
    Stats,
    Window,
    busy_seconds,
    close_clients,
    cpu_plan,
    cpu_seconds,
    create_room,
    free_port,
    http_client,
    login,
    loopback_limits,
    machine,
    measure,
    percentile,
    raise_fd_limit,
    server_python,
    set_nice,
    sit_down,
    sleep_until,
    write_json,
)

TARGET = {"clients": 1000, "p99_ms": 100.0, "errors": 0}
"""The issue's target: 1,000 clients on a 2-core machine, p99 below 100 ms, no errors."""
OPEN_TRIES = 5  # set-up: times a table WebSocket refused as unavailable is opened again


# ---------------------------------------------------------------------------- a cluster
HAPROXY = "/usr/sbin/haproxy"
BASELINE_S = 3.0  # seconds the database's and Redis's other traffic is measured before and after a cluster row


def with_query(url: str, **params: str) -> str:
    """``url`` with more query parameters (libpq's, for a PostgreSQL URL)."""
    return url + ("&" if "?" in url else "?") + "&".join(f"{k}={v}" for k, v in params.items())


def libpq_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL (``postgresql+psycopg://``) as libpq reads it."""
    return re.sub(r"^postgresql\+\w+://", "postgresql://", url)


def pids_named(comm: str, parent: int | None = None) -> list[int]:
    """Processes whose name (/proc/PID/comm) is ``comm`` (and, if given, that are ``parent`` or its children)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and comm_of(int(entry)) == comm:
            if parent is None or int(entry) == parent or parent_of(int(entry)) == parent:
                out.append(int(entry))
    return out


def parent_of(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def comm_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def _get_json(url: str, timeout: float = 2.0) -> Any:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.loads(r.read())


class Counters:
    """PostgreSQL's and Redis's counters, read from outside: the database's commits, the
    action rows stored in the cluster's schema, the workers' own backends
    (``application_name``), and the commands Redis processed. ``postmaster`` and
    ``redis_pid``: the servers' processes when they run on this machine (else None)."""

    def __init__(self, pg: str, schema: str, app_name: str, redis_url: str) -> None:
        import psycopg
        import redis

        self.schema, self.app_name = schema, app_name
        self.pg = psycopg.connect(libpq_url(pg), autocommit=True)
        self.redis = redis.Redis.from_url(redis_url)
        backend = int(self.pg.execute("SELECT pg_backend_pid()").fetchone()[0])  # type: ignore[index]
        postmaster = parent_of(backend) if comm_of(backend) == "postgres" else None
        self.postmaster = postmaster if postmaster is not None and comm_of(postmaster) == "postgres" else None
        redis_pid = int(self.redis.info("server")["process_id"])
        self.redis_pid = redis_pid if comm_of(redis_pid) == "redis-server" else None

    def read(self) -> dict[str, Any]:
        db = self.pg.execute(
            "SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
        stored = self.pg.execute(
            "SELECT n_tup_ins FROM pg_stat_user_tables WHERE schemaname = %s AND relname = 'actions'", (self.schema,)
        ).fetchone()
        backends = [
            r[0]
            for r in self.pg.execute(
                "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (self.app_name,)
            ).fetchall()
        ]
        info = self.redis.info("stats")
        return {
            "time": time.time(),
            "commits": int(db[0]) if db else 0,
            "rollbacks": int(db[1]) if db else 0,
            "stored": int(stored[0]) if stored else 0,
            "backends": backends,
            "redis_commands": int(info["total_commands_processed"]),
        }

    def owners(self) -> list[tuple[str | None, int]]:
        """Every room's worker and fencing token (one more at every claim after the first)."""
        rows = self.pg.execute(f'SELECT worker, token FROM "{self.schema}".room_owners').fetchall()
        return [(r[0], int(r[1])) for r in rows]

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.pg.close()
        with contextlib.suppress(Exception):
            self.redis.close()


def rates(a: dict[str, Any], b: dict[str, Any]) -> dict[str, float]:
    """Per-second rates of the counters between two readings."""
    dt = max(1e-9, b["time"] - a["time"])
    return {k: (b[k] - a[k]) / dt for k in ("commits", "rollbacks", "stored", "redis_commands")}


class HallCluster:
    """``workers`` hall workers on a fresh PostgreSQL schema and a flushed Redis database,
    behind HAProxy: ``url`` is the proxy's (``start`` starts them, ``stop`` and ``cleanup`` undo it)."""

    def __init__(self, workers: int, pg: str, redis_url: str, bot_workers: int = 1) -> None:
        tag = secrets.token_hex(3)
        self.schema, self.app_name = f"bench_{tag}", f"paiju-bench-{tag}"
        self.pg, self.redis_url, self.bot_workers = pg, redis_url, bot_workers
        self.dir = tempfile.TemporaryDirectory(prefix="paiju-hall-load-cluster-")
        self.names = [f"bench{tag}-{i + 1}" for i in range(workers)]  # not another cluster's: pub/sub spans databases
        self.ports = [free_port() for _ in range(workers)]
        self.port, self.stats_port = free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.db = with_query(pg, options=f"-csearch_path%3D{self.schema}", application_name=self.app_name)
        self.cfg = Path(self.dir.name) / "haproxy.cfg"
        self.cmd = [HAPROXY, "-f", str(self.cfg)]
        self.procs: list[subprocess.Popen[bytes]] = []
        self.haproxy: subprocess.Popen[bytes] | None = None
        self.logs: list[tuple[Path, Any]] = []
        self.counters: Counters | None = None
        self.schema_made = False
        self.baseline: dict[str, float] = {}  # before the workers start
        self.baseline_after: dict[str, float] = {}  # after they stopped

    def start(self) -> None:
        """A fresh schema (migrated) and Redis database, the baseline, then the workers."""
        import redis

        from paiju.server.cluster.proxy_config import haproxy_config
        from paiju.server.store.db import Store

        r = redis.Redis.from_url(self.redis_url, decode_responses=True)
        try:
            names: set[str] = r.smembers("paiju:workers")  # type: ignore[assignment]
            alive = [w for w in names if r.exists(f"paiju:worker:{w}")]
            if alive:
                raise SystemExit(
                    f"--redis {self.redis_url}: workers {sorted(alive)} of a running cluster use this database; "
                    "name another database number (redis://host:port/N)"
                )
            r.flushdb()
        finally:
            r.close()
        self.counters = Counters(self.pg, self.schema, self.app_name, self.redis_url)
        self.counters.pg.execute(f'CREATE SCHEMA "{self.schema}"')
        self.schema_made = True
        Store(self.db, checkpoints=False).close()  # migrated once, before the workers start
        # what the rest of the database server and of Redis does meanwhile (other clusters, tests)
        self.baseline = self.measure_baseline()
        extra = ["--bot-workers", str(self.bot_workers)] if self.bot_workers != 1 else []
        for name, port in zip(self.names, self.ports):
            cmd = [server_python(), "-m", "paiju.server.web.serve", "--host", "127.0.0.1", "--port", str(port)]
            cmd += ["--db", self.db, "--redis", self.redis_url, "--worker-id", name, "--bot-delay", "0"]
            cmd += [*loopback_limits(), *extra]
            self.procs.append(self._start(cmd, f"{name}.log"))
        workers = [(n, "127.0.0.1", p) for n, p in zip(self.names, self.ports)]
        config = haproxy_config(workers, bind=("127.0.0.1", self.port), stats=("127.0.0.1", self.stats_port))
        self.cfg.write_text(config, encoding="utf-8")

    def measure_baseline(self) -> dict[str, float]:
        """The rates of the database's and Redis's counters while none of this cluster runs."""
        assert self.counters is not None
        before = self.counters.read()
        time.sleep(BASELINE_S)
        return rates(before, self.counters.read())

    def _start(self, cmd: list[str], log_name: str) -> subprocess.Popen[bytes]:
        path = Path(self.dir.name) / log_name
        log = open(path, "w+b")  # noqa: SIM115 (closed in stop)
        self.logs.append((path, log))
        return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Every worker answers /healthz, then HAProxy sees every one up and answers itself."""
        end = time.monotonic() + timeout
        waiting = dict(zip(self.names, self.ports))
        while waiting:
            for proc in self.procs:
                if proc.poll() is not None:
                    raise RuntimeError(f"a worker exited with {proc.returncode}:\n{self.log_text()[-3000:]}")
            for name, port in list(waiting.items()):
                with contextlib.suppress(OSError, ValueError):
                    if _get_json(f"http://127.0.0.1:{port}/healthz").get("ok"):
                        del waiting[name]
            if time.monotonic() > end:
                raise RuntimeError(f"workers {sorted(waiting)} did not answer within {timeout:.0f} s")
            time.sleep(0.1)
        self.haproxy = self._start(self.cmd, "haproxy.log")
        while True:
            if self.haproxy.poll() is not None:
                raise RuntimeError(f"haproxy exited with {self.haproxy.returncode}:\n{self.log_text()[-3000:]}")
            with contextlib.suppress(OSError, ValueError):
                up = self.servers_up()
                if len(up) == 2 * len(self.names) and all(up.values()):
                    if _get_json(self.url + "/healthz").get("ok"):
                        return
            if time.monotonic() > end:
                raise RuntimeError(f"haproxy did not see every worker up within {timeout:.0f} s")
            time.sleep(0.1)

    def servers(self) -> dict[str, dict[str, str]]:
        """backend/server → its row of HAProxy's statistics (CSV)."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.stats_port}/;csv", timeout=2) as r:
            lines = r.read().decode().lstrip("# ").splitlines()
        head = lines[0].split(",")
        out = {}
        for line in lines[1:]:
            row = dict(zip(head, line.split(",")))
            if row.get("svname") not in ("FRONTEND", "BACKEND", None) and row.get("pxname") in ("rooms", "any"):
                out[f"{row['pxname']}/{row['svname']}"] = row
        return out

    def servers_up(self) -> dict[str, bool]:
        """backend/server → up, as HAProxy sees it."""
        return {k: row.get("status", "").startswith("UP") for k, row in self.servers().items()}

    def checks_down(self) -> int:
        """How many times HAProxy has marked a worker down so far (its health checks failed)."""
        try:
            rows = self.servers()
        except (OSError, ValueError):
            return -1
        return sum(int(row.get("chkdown") or 0) for k, row in rows.items() if k.startswith("rooms/"))

    def rooms(self) -> dict[str, int]:
        """How many rooms each worker plays now (its /healthz)."""
        out = {}
        for name, port in zip(self.names, self.ports):
            try:
                rooms = _get_json(f"http://127.0.0.1:{port}/healthz").get("rooms") or 0
                out[name] = rooms if isinstance(rooms, int) else len(rooms)  # a number, or the rooms' ids
            except (OSError, ValueError):
                out[name] = -1
        return out

    def log_text(self) -> str:
        parts = []
        for path, log in self.logs:
            if not log.closed:
                log.flush()
            parts.append(f"==> {path.name} <==\n" + path.read_text(encoding="utf-8", errors="replace"))
        return "\n".join(parts)

    def error_lines(self) -> list[str]:
        """Lines of the workers' logs that report an error, and HAProxy's alerts and warnings."""
        pat = re.compile(r"Traceback|ERROR|Exception|failed|ALERT|WARNING", re.IGNORECASE)
        out = []
        for path, _ in self.logs:
            text = path.read_text(encoding="utf-8", errors="replace")
            out += [f"{path.stem}: {line}" for line in text.splitlines() if pat.search(line)]
        return out

    def lost_rooms(self) -> int:
        """Rooms the workers logged as lost (a lease found taken at a renewal: dropped)."""
        return sum(
            path.read_text(encoding="utf-8", errors="replace").count(" lost room ")
            for path, _ in self.logs
            if path.name != "haproxy.log"
        )

    def stop(self) -> int | None:
        """Stop HAProxy (the clients are gone), then every worker (SIGINT: they give their
        rooms up); the workers' worst exit code."""
        if self.haproxy is not None and self.haproxy.poll() is None:
            self.haproxy.terminate()
            try:
                self.haproxy.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.haproxy.kill()
                self.haproxy.wait()
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
        for proc in self.procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.terminate()
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        for _, log in self.logs:
            log.close()
        codes = [p.returncode for p in self.procs]
        return max(codes, key=abs) if codes else None

    def cleanup(self) -> None:
        """Drop the schema, empty the Redis database, remove the temporary files."""
        if self.counters is not None:
            if self.schema_made:
                with contextlib.suppress(Exception):
                    self.counters.pg.execute(f'DROP SCHEMA "{self.schema}" CASCADE')
            with contextlib.suppress(Exception):
                self.counters.redis.flushdb()
            self.counters.close()
        self.dir.cleanup()


# ---------------------------------------------------------------------------- the clients
async def _login(http_: httpx.AsyncClient, client: Client, sem: asyncio.Semaphore) -> None:
    async with sem:
        client.token = await login(http_, f"load{client.index}", client.stats)


async def _create_room(http_: httpx.AsyncClient, client: Client, sem: asyncio.Semaphore) -> str:
    async with sem:
        return await create_room(http_, client.token, client.stats)


async def _open(client: Client, ws_url: str, sem: asyncio.Semaphore) -> None:
    """Open the client's table WebSocket and wait for the hall's first message (``hello``).
    On a cluster the room may first have to move to the worker the proxy chose; a refusal
    (``unavailable``: its holder did not give it up in time) is tried again."""
    async with sem:
        for attempt in range(OPEN_TRIES):
            t0 = time.perf_counter()
            ws = await connect(
                f"{ws_url}/ws/{client.room}",
                additional_headers={"X-Paiju-Token": client.token},
                open_timeout=60,
                max_size=None,
                compression="deflate" if client.cfg.compression else None,
            )
            try:
                first = json.loads(await asyncio.wait_for(ws.recv(), 60))
            except BaseException:
                await ws.close()
                raise
            if first.get("type") != "error":
                client.ws, client.first = ws, first
                client.stats.connect_ms.append((time.perf_counter() - t0) * 1000)
                return
            await ws.close()
            if first.get("code") != "unavailable" or attempt == OPEN_TRIES - 1:
                raise RuntimeError(f"room {client.room} refused a connection: {first.get('error')}")
            client.stats.setup_retries += 1
            client.stats.refused_opens += 1
            await asyncio.sleep(0.2)


async def _open_table(table: Sequence[Client], ws_url: str, sem: asyncio.Semaphore) -> None:
    """The table's first player connects (the room moves to its worker if need be), then the others."""
    await _open(table[0], ws_url, sem)
    await asyncio.gather(*(_open(c, ws_url, sem) for c in table[1:]))


async def run_clients(cfg: Config, tables: Sequence[int], control: Any) -> Stats:
    """Set up ``tables`` (table numbers of the whole run), report ready, play, report stats."""
    # the clients' collector is tuned as the hall's (paiju.server.web.collector): its full
    # collections would otherwise stop this process 50–110 ms and count as the hall's latency
    gc.set_threshold(*collector.THRESHOLDS)
    stats = Stats()
    t_setup = time.perf_counter()
    clients = [Client(t * SEATS + s, s, s == 0, stats, cfg) for t in tables for s in range(SEATS)]
    sem = asyncio.Semaphore(64)
    async with http_client(cfg.url, connections=64, timeout=60) as http_:
        await asyncio.gather(*(_login(http_, c, sem) for c in clients))
        starters = [c for c in clients if c.starter]
        rooms = await asyncio.gather(*(_create_room(http_, c, sem) for c in starters))
    for i, c in enumerate(clients):
        c.room = rooms[i // SEATS]
    ws_url = cfg.url.replace("http://", "ws://", 1)
    readers: list[asyncio.Task[None]] = []
    try:
        await asyncio.gather(*(_open_table(clients[i : i + SEATS], ws_url, sem) for i in range(0, len(clients), SEATS)))
        readers = [asyncio.create_task(c.run()) for c in clients]
        await sit_down(clients, 120)
        stats.setup_s = time.perf_counter() - t_setup
        start, end = await control.ready(len(clients))
        window = Window(start, end)
        for c in clients:
            c.go(window)
        await sleep_until(start)
        await measure(clients, stats, end)
    finally:
        await close_clients(clients, readers)
    return stats


async def run_strongest(cfg: Config, started: asyncio.Future[None], stop: asyncio.Event) -> Stats:
    """``cfg.strongest`` rooms of one random player (seat 0) and four 最强 bots, playing
    hand after hand until ``stop``; their own stats (not part of the measured figures)."""
    stats = Stats()
    clients = [Client(1_000_000 + i * SEATS, 0, True, stats, cfg) for i in range(cfg.strongest)]
    sem = asyncio.Semaphore(8)
    async with http_client(cfg.url, connections=8, timeout=60) as hc:
        for c in clients:
            await _login(hc, c, sem)
            c.room = await _create_room(hc, c, sem)
    ws_url = cfg.url.replace("http://", "ws://", 1)
    readers: list[asyncio.Task[None]] = []
    try:
        for c in clients:
            await _open(c, ws_url, sem)
            readers.append(asyncio.create_task(c.run()))
            await c.send({"type": "sit", "seat": 0})
            await asyncio.wait_for(c.seated.wait(), 60)
            for seat in range(1, SEATS):
                await c.send({"type": "bot", "seat": seat, "level": "strongest"})
        for c in clients:
            while not (c.last_update and all(s["bot"] for s in c.last_update["room"]["seats"][1:])):
                await asyncio.sleep(0.05)
            c.go(Window(time.time(), float("inf")))
        started.set_result(None)
        await stop.wait()
    finally:
        for c in clients:
            c.playing = False
        await close_clients(clients, readers)
    return stats


class LocalControl:
    """The go-ahead for clients running in the parent's own event loop."""

    def __init__(self) -> None:
        loop = asyncio.get_running_loop()
        self.is_ready: asyncio.Future[int] = loop.create_future()
        self.window: asyncio.Future[tuple[float, float]] = loop.create_future()

    async def ready(self, n: int) -> tuple[float, float]:
        self.is_ready.set_result(n)
        return await self.window


class PipeControl:
    """The go-ahead for clients in a child process, over a pipe."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def ready(self, n: int) -> tuple[float, float]:
        self.conn.send(("ready", n))
        return await asyncio.to_thread(self.conn.recv)


def _child(cfg: Config, tables: list[int], conn: Any, cpus: set[int] | None) -> None:
    if cpus:
        os.sched_setaffinity(0, cpus)
    try:
        stats = asyncio.run(run_clients(cfg, tables, PipeControl(conn)))
        conn.send(("stats", stats))
    except BaseException as e:  # the parent reports it
        conn.send(("failed", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()


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
            child = ctx.Process(target=_child, args=(cfg, part, theirs, client_cpus), daemon=True)
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


def row_data(r: Result, cluster: bool) -> dict[str, Any]:
    """A row's figures for the JSON file (a run without a cluster: without the cluster's fields)."""
    data = asdict(r)
    return data if cluster else {k: v for k, v in data.items() if k not in CLUSTER_FIELDS}


if __name__ == "__main__":
    main()
