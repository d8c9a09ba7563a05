"""A real cluster for the tests: hall workers (separate processes) on one PostgreSQL schema
and one Redis, behind HAProxy, all on loopback — and players who come back when their
connection ends, as the page does.

Needs PAIJU_TEST_POSTGRES (a PostgreSQL URL; each cluster gets a schema of its own), and
``redis-server`` and ``haproxy`` on PATH (Debian's; ``.ci/run`` installs them).
"""

from __future__ import annotations

import contextlib
import os
import random
import re
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

from .harness import CRASH, Client, Hall, Loopback, Player, Policy, ServerProcess, free_port

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

    def __init__(self, tmp: Path, n: int = 3, bot_delay: float = 0.05, lease_ttl: float = LEASE_TTL) -> None:
        assert PG is not None
        self.tmp = tmp
        self.schema = "cluster_" + secrets.token_hex(4)
        self.admin = create_engine(PG, pool_pre_ping=True)
        with self.admin.begin() as c:
            c.execute(text(f"CREATE SCHEMA {self.schema}"))
        self.db_url = f"{PG}{'&' if '?' in PG else '?'}options=-csearch_path%3D{self.schema}"
        self.engine = create_engine(self.db_url, pool_pre_ping=True)  # the tests restart the database
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
            args += ["--lease-ttl", str(lease_ttl), "--deal-step", "0.01", "--deal-final-window", "0.3"]
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

    def assert_no_crash(self) -> None:
        """No worker logged an exception."""
        for w in self.workers:
            crash = CRASH.search(w.log_text())
            assert crash is None, f"a worker logged an exception:\n{w.log_text()[-3000:]}"

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


def page_constant(name: str) -> float:
    """A timing of the table page's socket (web/table/socket.js), in seconds: the harness's
    players reconnect and give a silent server up exactly as the page does."""
    found = re.search(rf"export const {name} = (\d+);", SOCKET_JS.read_text(encoding="utf-8"))
    assert found is not None, f"socket.js exports no {name}"
    return int(found.group(1)) / 1000


SOCKET_JS = Path(__file__).resolve().parents[2] / "src" / "paiju" / "web" / "table" / "socket.js"


class Seat:
    """A player at one table through the proxy who behaves as the table page does: it
    reconnects when the connection ends or cannot open, with the page's backoff, and gives a
    silent server up after two unanswered pings (sent as often as the page sends them);
    every update shown is kept in order."""

    PING_PLAYING = page_constant("PING_PLAYING")
    PING_IDLE = page_constant("PING_IDLE")
    OPEN_WAIT = page_constant("OPEN_WAIT")
    RETRY_FIRST = page_constant("RETRY_FIRST")
    RETRY_MAX = page_constant("RETRY_MAX")

    def __init__(self, hall: Hall, rid: str, player: Player, policy: Callable[[], Policy] | None = None) -> None:
        # ``policy`` makes each connection's policy: a page shown the table anew acts anew
        # (a move sent to a worker that died unanswered is sent again)
        self.hall, self.rid, self.player, self.make_policy = hall, rid, player, policy
        self.policy: Policy | None = None
        self.client: Client | None = None
        self.connections = 0
        self.updates: list[dict[str, Any]] = []  # (every connection's) updates, in the order shown
        self.refusals: list[tuple[float, str]] = []  # (when, reason code) of each refused connection
        self.stopped = threading.Event()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        attempts, first = 0, True
        while not self.stopped.is_set():
            if not first:  # the page's scheduleReconnect
                delay = min(self.RETRY_MAX, self.RETRY_FIRST * 2**attempts) * random.uniform(0.8, 1.2)
                attempts += 1
                if self.stopped.wait(delay):
                    break
            first = False
            self.policy = self.make_policy() if self.make_policy is not None else None
            try:
                c = self.hall.connect(self.rid, self.player, policy=self._policy, open_timeout=self.OPEN_WAIT)
            except Exception:
                continue
            attempts = 0  # the socket opened
            self.client, self.connections = c, self.connections + 1
            self.ready.set()
            pinged_at, unanswered, heard = time.monotonic(), 0, c.heard
            while not self.stopped.is_set() and not c.closed:
                now = time.monotonic()
                with c.cond:
                    if c.heard != heard:  # any message answers the pings
                        heard, unanswered = c.heard, 0
                playing = any(u["room"]["status"] == "playing" for u in self.updates[-1:])
                if now - pinged_at >= (self.PING_PLAYING if playing else self.PING_IDLE) - 0.1:
                    if unanswered >= 2:
                        break  # two pings unanswered: the server is given up
                    unanswered += 1
                    pinged_at = now
                    with_suppressed(lambda c=c: c.send({"type": "ping"}))  # type: ignore[misc]
                time.sleep(0.05)
            c.close()

    def _policy(self, client: Client, msg: dict[str, Any]) -> None:
        client.heard = time.monotonic()
        if msg["type"] == "error" and msg.get("reply_to") is None:
            self.refusals.append((time.monotonic(), str(msg.get("code"))))
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
