"""The cluster of ``hall_load.py --cluster W``: W hall workers on a fresh PostgreSQL schema
and a flushed Redis database, behind HAProxy (``HallCluster``), and what is read of them
from outside — PostgreSQL's and Redis's counters (``Counters``) and the processes of
each part, found in /proc.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from hall_common import ROOT, free_port, loopback_limits, server_python

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
        config = haproxy_config(  # every client comes from loopback: no per-address cap
            workers, bind=("127.0.0.1", self.port), stats=("127.0.0.1", self.stats_port), conns_per_address=None
        )
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
