"""A real cluster for the tests: hall workers (separate processes) on one PostgreSQL schema
and one Redis, behind HAProxy, all on loopback — and players who come back when their
connection ends, as the page does.

Needs PAIJU_TEST_POSTGRES (a PostgreSQL URL; each cluster gets a schema of its own), and
``redis-server`` and ``haproxy`` on PATH (Debian's; ``.ci/run`` installs them).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, select, text
from websockets.exceptions import ConnectionClosed

from paiju.server.cluster.proxy_config import haproxy_config
from paiju.server.store import db

from .harness import Client, Hall, Loopback, Player, Policy, ServerProcess, free_port

PG = os.environ.get("PAIJU_TEST_POSTGRES")
LEASE_TTL = 3.0  # seconds (the default): failover within 5 s needs the lease to end well before


def tool(name: str) -> str | None:
    """A server program of Debian's, on PATH or in /usr/sbin (haproxy's place)."""
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin")


def missing() -> str | None:
    """Why a cluster cannot be started here (None: it can)."""
    if not PG:
        return "needs PAIJU_TEST_POSTGRES (a PostgreSQL URL; .ci/run starts one)"
    for name in ("redis-server", "haproxy"):
        if tool(name) is None:
            return f"needs Debian's {name} (.ci/run installs it)"
    return None


class Front(Loopback):
    """The proxy, as harness.Hall sees a server."""

    def __init__(self, port: int) -> None:
        self.port = port


class Cluster:
    """``n`` workers w1…wn, Redis, HAProxy and a PostgreSQL schema of their own."""

    def __init__(self, tmp: Path, n: int = 3, bot_delay: float = 0.05) -> None:
        assert PG is not None
        self.tmp = tmp
        self.schema = "cluster_" + secrets.token_hex(4)
        self.admin = create_engine(PG)
        with self.admin.begin() as c:
            c.execute(text(f"CREATE SCHEMA {self.schema}"))
        self.db_url = f"{PG}{'&' if '?' in PG else '?'}options=-csearch_path%3D{self.schema}"
        self.engine = create_engine(self.db_url)
        self.redis_port = free_port()
        self.redis = subprocess.Popen(
            [
                tool("redis-server") or "redis-server",
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.workers: list[ServerProcess] = []
        for i in range(1, n + 1):
            args = ["--redis", f"redis://127.0.0.1:{self.redis_port}/0", "--worker-id", f"w{i}"]
            args += ["--lease-ttl", str(LEASE_TTL), "--deal-step", "0.01", "--deal-final-window", "0.3"]
            w = ServerProcess(tmp / f"w{i}.db", tmp / f"w{i}.log", bot_delay, self.db_url, args=args)
            w.keep_port = True
            self.workers.append(w)
        self.front = Front(free_port())
        self.hall = Hall(self.front)  # type: ignore[arg-type]
        self.proxy: subprocess.Popen[bytes] | None = None

    def start(self) -> Cluster:
        for w in self.workers:
            w.start()
        config = haproxy_config(
            [(f"w{i}", "127.0.0.1", w.port) for i, w in enumerate(self.workers, 1)], ("127.0.0.1", self.front.port)
        )
        cfg = self.tmp / "haproxy.cfg"
        cfg.write_text(config)
        log = open(self.tmp / "haproxy.log", "ab")  # noqa: SIM115 - the proxy's for its life
        haproxy = tool("haproxy") or "haproxy"
        self.proxy = subprocess.Popen([haproxy, "-db", "-f", str(cfg)], stdout=log, stderr=subprocess.STDOUT)
        self.wait_all_up()
        return self

    def wait_all_up(self, timeout: float = 20.0) -> None:
        """Until the proxy has sent a request to every worker (its health checks passed)."""
        seen: set[str] = set()
        deadline = time.monotonic() + timeout
        while len(seen) < len(self.workers):
            if time.monotonic() > deadline:
                raise AssertionError(f"the proxy reached only {sorted(seen)}")
            try:
                r = httpx.get(self.front.url + "/healthz", timeout=2)
                if r.status_code == 200:
                    seen.add(r.json()["worker"])
            except httpx.TransportError:
                pass
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.terminate()
            self.proxy.wait(10)
        for w in self.workers:
            if w.proc is not None and w.proc.poll() is None:
                with_suppressed(lambda w=w: os.kill(w.pid, 18))  # SIGCONT: a stopped worker can terminate
            w.stop()
        self.redis.terminate()
        self.redis.wait(10)
        self.engine.dispose()
        with self.admin.begin() as c:
            c.execute(text(f"DROP SCHEMA {self.schema} CASCADE"))
        self.admin.dispose()

    # ------------------------------------------------------------------ the truth, from the store
    def owner(self, rid: str) -> tuple[str | None, int]:
        """Who holds ``rid`` and its token."""
        with self.engine.connect() as c:
            row = c.execute(
                select(db.room_owners.c.worker, db.room_owners.c.token).where(db.room_owners.c.room_id == rid)
            ).one()
        return row[0], int(row[1])

    def worker(self, name: str) -> ServerProcess:
        return self.workers[int(name[1:]) - 1]

    def health(self, name: str) -> dict[str, Any]:
        r = httpx.get(self.worker(name).url + "/healthz", timeout=5)
        return dict(r.json())

    def stored_actions(self, rid: str) -> dict[int, list[str]]:
        """Every stored action of the room: hand number → action texts in order."""
        q = (
            select(db.hands.c.number, db.actions.c.text)
            .join(db.actions, db.actions.c.hand_id == db.hands.c.id)
            .where(db.hands.c.room_id == rid)
            .order_by(db.hands.c.number, db.actions.c.seq)
        )
        out: dict[int, list[str]] = {}
        with self.engine.connect() as c:
            for number, action in c.execute(q).all():
                out.setdefault(int(number), []).append(str(action))
        return out


def with_suppressed(fn: Callable[[], Any]) -> None:
    """``fn()``, where a process already gone or a connection already closed is no error."""
    with contextlib.suppress(OSError, ConnectionClosed):
        fn()


class Seat:
    """A player at one table through the proxy who reconnects whenever the connection ends or
    goes silent (a paused worker), as the page does; every update shown is kept in order."""

    SILENT = 3.0  # seconds without any message (pings go every 0.5 s) before reconnecting

    def __init__(self, hall: Hall, rid: str, player: Player, policy: Callable[[], Policy] | None = None) -> None:
        # ``policy`` makes each connection's policy: a page shown the table anew acts anew
        # (a move sent to a worker that died unanswered is sent again)
        self.hall, self.rid, self.player, self.make_policy = hall, rid, player, policy
        self.policy: Policy | None = None
        self.client: Client | None = None
        self.connections = 0
        self.updates: list[dict[str, Any]] = []  # (every connection's) updates, in the order shown
        self.stopped = threading.Event()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopped.is_set():
            self.policy = self.make_policy() if self.make_policy is not None else None
            try:
                c = self.hall.connect(self.rid, self.player, policy=self._policy)
            except Exception:
                time.sleep(0.2)
                continue
            self.client, self.connections = c, self.connections + 1
            self.ready.set()
            last_ping = 0.0
            while not self.stopped.is_set() and not c.closed:
                now = time.monotonic()
                with c.cond:
                    heard = c.heard
                if now - heard > self.SILENT:
                    break
                if now - last_ping > 0.5:
                    with_suppressed(lambda c=c: c.send({"type": "ping"}))  # type: ignore[misc]
                    last_ping = now
                time.sleep(0.05)
            c.close()
            time.sleep(0.1)

    def _policy(self, client: Client, msg: dict[str, Any]) -> None:
        client.heard = time.monotonic()
        if msg["type"] == "update":
            self.updates.append({**msg, "connection": self.connections, "at": time.monotonic()})
        if self.policy is not None:
            self.policy(client, msg)

    def progress(self) -> tuple[int, int]:
        """(hand number, turn) of the latest update shown."""
        for m in reversed(self.updates):
            return m["room"]["hand_number"], m["turn"]
        return 0, 0

    def close(self) -> None:
        self.stopped.set()
        self.thread.join(10)
