"""What the hall benchmarks share (``hall_load.py``, ``hall_abuse.py``): the machine's
figures, a hall started as a subprocess on loopback, and the simulated players — logged in
over HTTP, seated over the table WebSocket, acting at random — with what they measure.

Every client comes from 127.0.0.1 and carries the hall's own ``Origin``; one HTTP client
logs in many players, so it keeps no cookie and passes each player's token in a header.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.cookiejar
import json
import os
import platform
import random
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from machine import cpu_model

ROOT = Path(__file__).resolve().parents[1]
SEATS = 5  # Baohuang: five players a table
ROOM_BODY = {"game": "baohuang", "options": {"variant": "standard"}, "turn_timeout": 600}
PACE_RATE, PACE_BURST = 18.0, 30.0  # below the server's 20/s, bursts of 40
GRACE_S = 3.0  # after the window: how long to wait for answers still on their way


# ---------------------------------------------------------------------------- machine
def machine() -> dict[str, Any]:
    """What the numbers were measured on."""
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
    }


def raise_fd_limit(wanted: int) -> str:
    """Raise this process's open-file limit (inherited by the server) to ``wanted`` if allowed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= wanted:
        return f"fd limit {soft}"
    new = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
    except (ValueError, OSError) as e:
        return f"fd limit {soft} (could not raise: {e})"
    return f"fd limit raised {soft} -> {new}"


def set_nice(nice: int) -> tuple[str, Any]:
    """Give this process (and so the server and client processes it starts) the niceness
    ``nice``; return what was done and a function that undoes what outlives the process."""
    if nice == 0:
        return "normal priority", lambda: None
    try:
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    except (AttributeError, OSError) as e:
        return f"normal priority (could not set nice {nice}: {e})", lambda: None
    note = f"nice {nice} (server and clients)"
    # with autogroup scheduling (Linux), niceness only counts inside the session's group: set
    # the group's niceness too, and put it back at the end (the group outlives this process)
    autogroup = Path("/proc/self/autogroup")
    try:
        before = autogroup.read_text(encoding="ascii").split("nice")[-1].strip()
        autogroup.write_text(str(nice), encoding="ascii")
    except (OSError, ValueError):
        return note, lambda: None

    def restore() -> None:
        with contextlib.suppress(OSError):
            autogroup.write_text(before, encoding="ascii")

    return note + ", and of the session's scheduling autogroup", restore


def cpu_plan(procs: int, pin: bool) -> tuple[set[int] | None, set[int] | None, str]:
    """CPUs for the server and for the clients: the server alone on the last CPU."""
    try:
        cpus = sorted(os.sched_getaffinity(0))
    except AttributeError:
        return None, None, "not pinned (no sched_setaffinity)"
    if not pin or len(cpus) < 2:
        return None, None, "not pinned"
    server, clients = {cpus[-1]}, set(cpus[:-1])
    return server, clients, f"server pinned to CPU {cpus[-1]}, {procs} client process(es) on CPU(s) {sorted(clients)}"


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), in seconds."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def busy_seconds(cpus: set[int] | None) -> float:
    """CPU seconds the given CPUs (None: the whole machine) spent busy so far, from /proc/stat."""
    names = {"cpu"} if cpus is None else {f"cpu{c}" for c in cpus}
    total = 0.0
    try:
        with open("/proc/stat", encoding="ascii") as f:
            for line in f:
                name, *ticks = line.split()
                if name in names:
                    t = [int(x) for x in ticks[:8]]
                    total += sum(t) - t[3] - t[4]  # less idle and iowait
    except (OSError, ValueError):
        return float("nan")
    return total / os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------------------- the server
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_python() -> str:
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def server_help() -> str:
    """The ``--help`` text of ``python -m paiju.server.web.serve`` (empty if it fails)."""
    try:
        done = subprocess.run(
            [server_python(), "-m", "paiju.server.web.serve", "--help"],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=ROOT,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout


def loopback_limits() -> list[str]:
    """Every client of the benchmark comes from 127.0.0.1: lift the hall's per-address
    limits (when the hall has them) so that they measure a thousand visitors, not one."""
    out = server_help()
    wanted = {"--conns-per-address": "1000000", "--address-rate": "1000000000", "--max-connections": "100000"}
    return [arg for flag, value in wanted.items() if flag in out for arg in (flag, value)]


class Server:
    """The hall in a subprocess, on a fresh SQLite file: with the loopback limits lifted, or
    with ``options`` instead when given."""

    def __init__(
        self,
        cpus: set[int] | None,
        bot_workers: int = 1,
        options: Sequence[str] | None = None,
        prefix: str = "paiju-hall-load-",
    ) -> None:
        self.dir = tempfile.TemporaryDirectory(prefix=prefix)
        self.port = free_port()
        self.db = Path(self.dir.name) / "hall.db"
        self.log_path = Path(self.dir.name) / "server.log"
        self.url = f"http://127.0.0.1:{self.port}"
        cmd = [server_python(), "-m", "paiju.server.web.serve", "--host", "127.0.0.1", "--port", str(self.port)]
        cmd += ["--db", f"sqlite:///{self.db}", "--bot-delay", "0"]
        cmd += loopback_limits() if options is None else options
        if bot_workers != 1:
            cmd += ["--bot-workers", str(bot_workers)]
        self.cmd = cmd
        self.log = open(self.log_path, "w+b")  # noqa: SIM115 (closed in stop)

        def preexec() -> None:
            if cpus:
                os.sched_setaffinity(0, cpus)

        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT, cwd=ROOT, preexec_fn=preexec)

    def wait_ready(self, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}:\n{self.log_text()[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + "/api/games", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not answer within {timeout:.0f} s:\n{self.log_text()[-3000:]}")

    def log_text(self) -> str:
        if not self.log.closed:
            self.log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def error_lines(self) -> list[str]:
        """Lines of the server's log that report an error (tracebacks, ERROR, exceptions)."""
        pat = re.compile(r"Traceback|ERROR|Exception|failed", re.IGNORECASE)
        return [line for line in self.log_text().splitlines() if pat.search(line)]

    def stop(self) -> int | None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # uvicorn: graceful shutdown
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.terminate()
                try:
                    self.proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
        self.log.close()
        return self.proc.returncode

    def cleanup(self) -> None:
        self.dir.cleanup()


# ---------------------------------------------------------------------------- the clients
@dataclass
class Config:
    url: str
    clients: int
    warmup: float
    duration: float
    pace: bool = True
    seed: int = 1
    think: float = 0.0  # mean seconds a client waits before acting (uniform in 0..2×think)
    procs: int = 1
    pin: bool = True
    compression: bool = True  # offer permessage-deflate, as browsers do
    strongest: int = 0  # more rooms of one player and four 最强 bots, not measured
    bot_workers: int = 1
    workers_on_clients: bool = False  # move the bot workers to the clients' CPU(s)
    cluster: int = 0  # hall workers behind HAProxy (0: the hall of one process)
    pg: str = ""  # a cluster's PostgreSQL server (a schema of its own is made there)
    redis: str = ""  # a cluster's Redis database (emptied before and after)
    logs: str = ""  # a directory to keep the server's (workers', HAProxy's) logs in


@dataclass
class Stats:
    """What one client process saw (raw latencies, merged by the parent)."""

    latencies_ms: list[float] = field(default_factory=list)  # actions sent inside the window
    confirmed: int = 0  # actions confirmed inside the window
    unconfirmed: int = 0  # actions still unanswered at the end
    hands: int = 0  # hands finished inside the window
    messages: int = 0  # messages received inside the window
    bytes: int = 0  # their size (text, after decompression)
    errors: Counter[str] = field(default_factory=Counter)
    closed: int = 0  # connections that closed before the end
    paced_s: float = 0.0  # time spent waiting for the client's own rate limit
    cpu_s: float = 0.0  # CPU time of the process inside the window
    setup_s: float = 0.0
    lag_ms: float = 0.0  # the worst event-loop lag of the client process inside the window
    setup_retries: int = 0  # HTTP requests of the set-up sent again after a transport error
    connect_ms: list[float] = field(default_factory=list)  # set-up: from opening a table WebSocket to its hello
    refused_opens: int = 0  # set-up: table WebSockets refused as unavailable (a room's handoff too slow), tried again


class NoCookies(http.cookiejar.DefaultCookiePolicy):
    """One HTTP client logs in many players: never keep a cookie, pass the token in a header."""

    def set_ok(self, cookie: http.cookiejar.Cookie, request: Any) -> bool:
        return False


def error_kind(text: str) -> str:
    """An error message with its numbers blanked, so that alike errors are counted together."""
    return re.sub(r"\d+", "N", text)[:120]


class Window:
    """The measured window, in ``time.time()`` seconds (shared by every process)."""

    def __init__(self, start: float, end: float) -> None:
        self.start, self.end = start, end

    def inside(self, t: float) -> bool:
        return self.start <= t < self.end


class Client:
    """One seat of one table: a player with one WebSocket."""

    def __init__(self, index: int, seat: int, starter: bool, stats: Stats, cfg: Config) -> None:
        self.index, self.seat, self.starter, self.stats, self.cfg = index, seat, starter, stats, cfg
        self.rng = random.Random(cfg.seed * 1_000_003 + index)
        self.token = ""
        self.room = ""
        self.ws: ClientConnection | None = None
        self.first: dict[str, Any] | None = None  # the hall's first message on the WebSocket (hello)
        self.seated = asyncio.Event()
        self.all_seated = asyncio.Event()
        self.window: Window | None = None
        self.playing = False  # acting and starting hands (False before "go" and after the window)
        self.last_update: dict[str, Any] | None = None
        self.acted: tuple[int, int] | None = None  # (hand number, turn) of the last act sent
        self.pending: tuple[int, int, float, float] | None = None  # hand, turn, perf_counter, time.time
        self.started_for: int = -1  # hand number a start was sent after
        self.tokens, self.stamp = PACE_BURST, time.monotonic()
        self.closing = False
        self.tasks: set[asyncio.Task[None]] = set()

    async def pace(self) -> None:
        if not self.cfg.pace:
            return
        now = time.monotonic()
        self.tokens = min(PACE_BURST, self.tokens + (now - self.stamp) * PACE_RATE)
        self.stamp = now
        if self.tokens < 1:
            wait = (1 - self.tokens) / PACE_RATE
            if self.window and self.window.inside(time.time()):
                self.stats.paced_s += wait
            await asyncio.sleep(wait)
            self.tokens, self.stamp = 1.0, time.monotonic()
        self.tokens -= 1

    async def send(self, msg: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.pace()
        await self.ws.send(json.dumps(msg))

    async def run(self) -> None:
        """Read and answer messages until the connection is closed."""
        assert self.ws is not None
        try:
            if self.first is not None and self.first.get("type") == "update":
                await self.on_update(self.first, time.time())
            async for raw in self.ws:
                now = time.time()
                if self.window and self.window.inside(now):
                    self.stats.messages += 1
                    self.stats.bytes += len(raw)
                msg = json.loads(raw)
                kind = msg.get("type")
                if kind == "update":
                    await self.on_update(msg, now)
                elif kind == "error":
                    self.on_error(msg)
        except ConnectionClosed:
            pass
        if not self.closing:
            self.stats.closed += 1
            self.stats.errors["connection closed by the server"] += 1

    def on_error(self, msg: dict[str, Any]) -> None:
        text = str(msg.get("error", ""))
        self.stats.errors[f"{msg.get('reply_to')}: {error_kind(text)}"] += 1
        if msg.get("reply_to") == "act":
            self.pending = None
        elif text.startswith("slow down"):  # the message was dropped: try again shortly
            self.pending, self.acted, self.started_for = None, None, -1
            asyncio.get_running_loop().call_later(0.06, self.retry)

    def retry(self) -> None:
        """Act on the newest update again (after "go", or after a message was refused as too fast)."""
        if self.playing and self.last_update is not None:
            task = asyncio.create_task(self.on_update(self.last_update, time.time()))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def on_update(self, msg: dict[str, Any], now: float) -> None:
        self.last_update = msg
        room, view, turn = msg["room"], msg["view"], msg["turn"]
        hand = room["hand_number"]
        if msg["seat"] == self.seat:
            self.seated.set()
        if all(s["player"] is not None for s in room["seats"]):
            self.all_seated.set()
        if self.pending is not None and (hand > self.pending[0] or turn > self.pending[1]):
            _, _, t_perf, t_sent = self.pending
            self.pending = None
            if self.window and self.window.inside(t_sent):
                self.stats.latencies_ms.append((time.perf_counter() - t_perf) * 1000)
            if self.window and self.window.inside(now):
                self.stats.confirmed += 1
        if not self.playing:
            return
        status = room["status"]
        if status == "playing" and view is not None and view.get("to_act") == self.seat:
            key = (hand, turn)
            if self.acted != key and self.pending is None:
                self.acted = key
                legal = view["legal_actions"]
                text = json.dumps({"type": "act", "action": legal[self.rng.randrange(len(legal))], "turn": turn})
                self.pending = (hand, turn, 0.0, 0.0)  # no second act while this one waits for its turn to send
                if self.cfg.think > 0:
                    await asyncio.sleep(self.rng.uniform(0, 2 * self.cfg.think))
                await self.pace()
                if not self.playing:  # the window closed meanwhile
                    self.pending = None
                    return
                self.pending = (hand, turn, time.perf_counter(), time.time())
                assert self.ws is not None
                await self.ws.send(text)
        elif (self.starter or "ready" in room) and status in ("between", "waiting") and self.started_for != hand:
            # a hall with 准备 (room.ready) starts a hand once every seat is ready: each sends start (= ready)
            if self.starter and status == "between" and self.window and self.window.inside(now):
                self.stats.hands += 1
            self.started_for = hand
            await self.send({"type": "start"})

    def go(self, window: Window) -> None:
        """Start playing: act on the newest update (the starter starts the first hand)."""
        self.window = window
        self.playing = True
        self.retry()


async def post(http_client: httpx.AsyncClient, path: str, body: dict[str, Any], stats: Stats, **kw: Any) -> Any:
    """POST during set-up; a pooled connection the server has closed meanwhile is retried."""
    for attempt in range(4):
        try:
            r = await http_client.post(path, json=body, **kw)
            r.raise_for_status()
            return r
        except httpx.TransportError:
            if attempt == 3:
                raise
            stats.setup_retries += 1
            await asyncio.sleep(0.2 * (attempt + 1))
    raise AssertionError("unreachable")


def http_client(url: str, connections: int = 16, timeout: float = 30) -> httpx.AsyncClient:
    """An HTTP client whose every request carries the hall's own Origin; one client logs in many
    players, so it keeps no cookie (the token goes in a header)."""
    jar = http.cookiejar.CookieJar(policy=NoCookies())
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    return httpx.AsyncClient(base_url=url, headers={"Origin": url}, cookies=jar, limits=limits, timeout=timeout)


async def login(http_: httpx.AsyncClient, name: str, stats: Stats) -> str:
    r = await post(http_, "/api/login", {"name": name}, stats)  # json=: Content-Type application/json
    return str(r.cookies["paiju_token"])


async def create_room(http_: httpx.AsyncClient, token: str, stats: Stats) -> str:
    r = await post(http_, "/api/rooms", ROOM_BODY, stats, headers={"X-Paiju-Token": token})
    return str(r.json()["id"])


async def watch_loop(end: float, stats: Stats, tick: float = 0.01) -> None:
    """Sleep until ``end`` in ticks, recording how late each tick wakes: the client process's
    own event-loop lag (if high, the clients, not the server, were slow to read answers)."""
    loop = asyncio.get_running_loop()
    while time.time() < end:
        t = loop.time()
        await asyncio.sleep(tick)
        stats.lag_ms = max(stats.lag_ms, (loop.time() - t - tick) * 1000)


async def sleep_until(t: float) -> None:
    """Sleep until ``time.time()`` reaches ``t``."""
    await asyncio.sleep(max(0.0, t - time.time()))


# ---------------------------------------------------------------------------- a table's life
async def sit_down(clients: Sequence[Client], timeout: float) -> None:
    """Every client sits in its seat; wait until each is seated and each table full."""
    for c in clients:
        await c.send({"type": "sit", "seat": c.seat})
    await asyncio.wait_for(asyncio.gather(*(c.seated.wait() for c in clients)), timeout)
    await asyncio.wait_for(asyncio.gather(*(c.all_seated.wait() for c in clients if c.starter)), timeout)


async def measure(clients: Sequence[Client], stats: Stats, end: float) -> None:
    """Play until ``end`` (the clients were told to go), counting this process's CPU and its
    event-loop lag; then stop acting and wait a little for the answers still on their way."""
    cpu0 = time.process_time()
    await watch_loop(end, stats)
    stats.cpu_s = time.process_time() - cpu0
    for c in clients:
        c.playing = False
    grace_end = time.monotonic() + GRACE_S
    while any(c.pending for c in clients) and time.monotonic() < grace_end:
        await asyncio.sleep(0.05)
    stats.unconfirmed = sum(1 for c in clients if c.pending)


async def close_clients(clients: Sequence[Client], readers: Sequence[asyncio.Task[None]]) -> None:
    """Close every client's WebSocket and end its reader and its pending tasks."""
    for c in clients:
        c.closing = True
    await asyncio.gather(*(c.ws.close() for c in clients if c.ws is not None), return_exceptions=True)
    tasks = [*readers, *(t for c in clients for t in c.tasks)]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list (nan when empty)."""
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1, round(q / 100 * len(sorted_values) + 0.5) - 1))
    return float(sorted_values[k])


def write_json(path: str, data: Any) -> None:
    """Every figure of a run, as an indented JSON file."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, ensure_ascii=False)
        f.write("\n")
