"""Hall abuse benchmark: do flooding clients slow the honest tables down, and does the memory
of a hall whose clients stop reading stay bounded?

Run ``.venv/bin/python benchmarks/hall_abuse.py`` (defaults: 10 victim tables, flooders
0, 1 and 20, then 20 non-reading clients; about 80 s). ``--markdown`` prints rows for
docs/benchmarks.md, ``--json FILE`` keeps every figure; on a shared machine run it under
``nice``. A short run: ``--flooders 0,1 --nonreaders 2 --duration 3`` (about 35 s).
This is a measurement script, not a test: it asserts nothing.

For each row the script starts a fresh hall as ``benchmarks/hall_load.py`` does
(``python -m paiju.server.web.serve --host 127.0.0.1 --port <free> --db sqlite:///<tmp>
--bot-delay 0``, pinned to one CPU), with the options that lift the hall's per-address
limits when its ``--help`` lists them (every client here is on 127.0.0.1, which would make
victims and flooders one "address"; the options used are printed). Every HTTP request and
WebSocket handshake carries ``Origin: http://127.0.0.1:<port>``, the hall's own origin.

- **Victims**: ``--tables`` Baohuang ``standard`` tables (default 10) of five human
  players, ``turn_timeout`` 600 — hall_load's clients (``hall_common.Client``): each thinks
  0..2×``--think`` seconds (default 0.2) and acts with a random legal action, keeping to
  18 messages/s. Latency, as in hall_load: from sending ``act`` to the ``update`` whose turn
  passed it; p50/p90/p99/max and confirmed actions/s over the ``--duration`` window, after
  ``--warmup`` seconds of play.
- **Flooders** (``--flooders 0,1,20``, one row each): each its own player, on the WebSocket
  of a room of its own, sending without any pacing a cycle of ~60 KB unknown-type messages
  (``{"type": "xxx…"}``, ``{"type": "bogus", "pad": "…"}``), ``act`` messages the hall
  refuses (not seated) and pings, and reading everything the hall sends: this row measures
  CPU fairness, not memory. A flooder the hall disconnects reconnects after 0.5 s
  (``--no-reconnect``: it stays away); closes are counted by close code, refused
  connections (an HTTP status, or a close before ``hello``) apart. Flooders run in a
  process of their own at ``--flooder-nice`` 10, so that the victims' own process is not
  what slows the victims down.
- **Non-readers** (``--nonreaders 20``, one more row): clients that send like flooders but
  never read: a raw TCP socket with a small ``SO_RCVBUF`` (``--rcvbuf`` 4096), the upgrade
  handshake written by hand (its answer is the only thing ever read), then only masked
  frames written (each message masked once, then the same bytes sent again). By default
  each also watches a victim table as a spectator (``--nonreader-room victims``), so the
  table's updates pile up for it as well as the answers to its own messages (``own``: a
  room of its own). Only once the window is over does a non-reader read what is waiting,
  to find whether the hall had sent it a close frame (``close 1008, TCP still open``: the
  hall said goodbye but went on taking its writes). The server's RSS
  (``/proc/<pid>/status`` VmRSS, and VmHWM for peaks between samples) is read every second:
  before they connect, while they send for ``--duration`` seconds, and ``--after`` seconds
  (default 3) after they close their sockets; the row reports the peak growth and what stays.

Three tables, a row per load (0, 1, 20 flooders; the non-readers):

- victims: p50/p90/p99/max ms, confirmed actions/s, victim errors (``error`` messages,
  closed connections, actions never confirmed), and the worst event-loop lag of the
  victims' own process (a 10 ms ticker: if it is high, the clients were late, not the hall);
- the flood: messages and MB the flooders sent per second, replies they received per
  second (by kind below the tables), connections opened, closed by the server (by close
  code), refused (HTTP status, or 4429 and the like before ``hello``), and CPU over the
  window (100 % = one core): the flooders' process, the server, the server's own core
  (every program on it), and the rest of the machine (other programs; ~0 when idle);
- the server's RSS: before, peak, growth, after, what stays (MB).

The target (the issue's): a flood moves the victims' p99 by less than 50 ms (p99 with 1 and
with 20 flooders minus p99 with none), and the RSS grows by less than 60 MB under the
non-readers. The script prints whether it was met, and cautions when the victims' process
lagged or other programs took CPU meanwhile (on 2 cores the flood's loopback traffic and
the clients share the victims' core).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import math
import multiprocessing
import os
import re
import socket
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.frames import Frame, Opcode
from websockets.typing import Origin

sys.path.insert(0, str(Path(__file__).resolve().parent))  # hall_common, also when this file is loaded by path
from hall_common import (  # noqa: E402
    GRACE_S,
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
    error_kind,
    http_client,
    login,
    machine,
    measure,
    percentile,
    raise_fd_limit,
    server_help,
    set_nice,
    sit_down,
    sleep_until,
    write_json,
)

TARGET_P99_DELTA_MS = 50.0  # a flood moves the victims' p99 by less than this
TARGET_RSS_MB = 60.0  # the server's RSS grows by less than this under non-readers
PAD = 60_000  # characters of padding: ~60 KB messages, under the hall's 64 KiB limit
REFUSED_ACT = {"type": "act", "action": "pass", "turn": 0}  # valid, refused: the flooder is not seated
FLOOD_MIX = [
    json.dumps({"type": "x" * PAD}),  # an unknown type of ~60 KB
    json.dumps(REFUSED_ACT),
    json.dumps({"type": "ping"}),
    json.dumps({"type": "bogus", "pad": "y" * PAD}),
    json.dumps(REFUSED_ACT),
    json.dumps({"type": "ping"}),
]
RECONNECT_S = 0.5  # a disconnected flooder comes back after this
# server options that lift per-address limits (all clients here are 127.0.0.1)
ADDRESS_LIMIT_WORDS = ("max", "rate", "burst", "limit", "conn")


# ---------------------------------------------------------------------------- the server
def address_limit_options(help_text: str) -> list[str]:
    """Options (with values) that raise the hall's per-address limits, as far as its help
    lists them: loopback clients must not all count as one abusive address."""
    args: list[str] = []
    for name, metavar in dict(re.findall(r"(--[a-z0-9][a-z0-9-]*)(?:[ =]([A-Z][A-Z0-9_]*))?", help_text)).items():
        if "address" not in name or not metavar or not any(w in name for w in ADDRESS_LIMIT_WORDS):
            continue
        args += [name, "10000" if "conn" in name else "1000000"]
    return args


def rss_mb(pid: int, key: str = "VmRSS") -> float:
    """A memory figure of /proc/<pid>/status (VmRSS, VmHWM), in MB; nan if unreadable."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return float("nan")


# ---------------------------------------------------------------------------- set-up over HTTP
@dataclass
class Plan:
    """When things happen, in ``time.time()`` seconds, shared by every process."""

    go: float  # victims start playing, flooders start flooding
    start: float  # the measured window starts; non-readers connect
    end: float  # the window ends: flooders and non-readers stop, victims stop acting
    close_at: float  # victims close their connections (after the RSS's "after" samples)


async def open_ws(url: str, room: str, token: str, timeout: float = 30) -> ClientConnection:
    return await connect(
        f"{url.replace('http://', 'ws://', 1)}/ws/{room}",
        origin=Origin(url),
        additional_headers={"X-Paiju-Token": token},
        compression=None,
        max_size=None,
        open_timeout=timeout,
        close_timeout=2,
    )


class Control:
    """A client process's side of the pipe: say ready (with what the parent needs), get the plan."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def ready(self, info: Any) -> Plan:
        self.conn.send(("ready", info))
        if not await asyncio.to_thread(self.conn.poll, 600):
            raise TimeoutError("no plan from the parent")
        plan: Plan = self.conn.recv()
        return plan


# ---------------------------------------------------------------------------- victims
async def play_victims(cfg: Config, control: Control) -> Stats:
    """hall_load's clients on ``cfg.clients // 5`` tables: set up, report the rooms, play the plan."""
    stats = Stats()
    clients = [Client(t * SEATS + s, s, s == 0, stats, cfg) for t in range(cfg.clients // SEATS) for s in range(SEATS)]
    sem = asyncio.Semaphore(16)

    async def set_up(c: Client) -> None:
        async with sem:
            c.token = await login(http_, f"victim{c.index}", stats)
            if c.starter:
                c.room = await create_room(http_, c.token, stats)

    async with http_client(cfg.url) as http_:
        await asyncio.gather(*(set_up(c) for c in clients))
    for c in clients:
        c.room = clients[c.index - c.seat].room
    readers: list[asyncio.Task[None]] = []
    try:
        for c in clients:
            c.ws = await open_ws(cfg.url, c.room, c.token)
        readers = [asyncio.create_task(c.run()) for c in clients]
        await sit_down(clients, 60)
        plan = await control.ready([c.room for c in clients if c.starter])
        window = Window(plan.start, plan.end)
        await sleep_until(plan.go)
        for c in clients:
            c.go(window)
        await sleep_until(plan.start)
        await measure(clients, stats, plan.end)
        await sleep_until(plan.close_at)  # stay connected while the RSS "after" is read
    finally:
        await close_clients(clients, readers)
    return stats


# ---------------------------------------------------------------------------- flooders
@dataclass
class FloodStats:
    """What the flooders (or the non-readers) of one row did and saw."""

    sent: int = 0  # messages sent inside the window
    sent_bytes: int = 0
    replies: Counter[str] = field(default_factory=Counter)  # received inside the window, by type / error kind
    closes: Counter[str] = field(default_factory=Counter)  # connections the server ended, by close code
    refused: Counter[str] = field(default_factory=Counter)  # connections refused (HTTP status, close before hello)
    connects: int = 0  # connections opened
    stalled: int = 0  # non-readers whose writes the server had stopped taking (> 1 s) at the end
    cpu_s: float = 0.0  # CPU time of the flooders' process inside the window


def reply_kind(raw: str | bytes) -> str:
    try:
        msg = json.loads(raw)
        kind = str(msg.get("type"))
    except (ValueError, AttributeError):
        return "not JSON"
    if kind != "error":
        return kind
    text = error_kind(str(msg.get("error", "")))
    return "error: " + (text if len(text) <= 48 else text[:47] + "…")


async def read_replies(ws: ClientConnection, stats: FloodStats, window: Window, hello: asyncio.Event) -> None:
    """Read (and count) everything the hall sends to a flooder, until the connection ends."""
    with contextlib.suppress(ConnectionClosed):
        async for raw in ws:
            kind = reply_kind(raw)
            if kind == "hello":
                hello.set()
            if window.inside(time.time()):
                stats.replies[kind] += 1


async def flood_reading(url: str, token: str, room: str, plan: Plan, stats: FloodStats, reconnect: bool) -> None:
    """One flooder: send FLOOD_MIX as fast as the socket takes it, read every answer; when the
    hall disconnects it, count the close code and (with ``reconnect``) come back."""
    window = Window(plan.start, plan.end)
    await sleep_until(plan.go)
    i = 0
    while time.time() < plan.end:
        try:
            ws = await open_ws(url, room, token, timeout=max(1.0, min(10.0, plan.end - time.time())))
        except InvalidStatus as e:
            stats.refused[f"HTTP {e.response.status_code}"] += 1
        except (OSError, TimeoutError, InvalidHandshake) as e:
            stats.refused[type(e).__name__] += 1
        else:
            stats.connects += 1
            hello = asyncio.Event()
            reader = asyncio.create_task(read_replies(ws, stats, window, hello))
            with contextlib.suppress(ConnectionClosed):
                while time.time() < plan.end and not reader.done():
                    text = FLOOD_MIX[i % len(FLOOD_MIX)]
                    i += 1
                    await ws.send(text)
                    if window.inside(time.time()):
                        stats.sent += 1
                        stats.sent_bytes += len(text)
                    if i % 8 == 0:
                        await asyncio.sleep(0)  # let the reader (and the other flooders) run
            if time.time() < plan.end or reader.done():  # the hall ended it
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(reader), 3)
                code = f"close {ws.close_code}"
                if hello.is_set():
                    stats.closes[code] += 1
                else:
                    stats.refused[code] += 1
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 3)
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)
        if not reconnect:
            return
        await asyncio.sleep(max(0.0, min(RECONNECT_S, plan.end - time.time())))


def masked_frames() -> list[bytes]:
    """FLOOD_MIX as client frames, masked once: a non-reader only ever writes bytes."""
    return [Frame(Opcode.TEXT, m.encode()).serialize(mask=True) for m in FLOOD_MIX]


async def read_handshake_answer(loop: asyncio.AbstractEventLoop, sock: socket.socket) -> tuple[int, bytes]:
    """The HTTP status of the upgrade's answer, and the bytes that came after it: the only
    bytes a non-reader reads while it floods."""
    buf = b""
    while b"\r\n\r\n" not in buf and len(buf) < 65536:
        chunk = await loop.sock_recv(sock, 1024)
        if not chunk:
            break
        buf += chunk
    m = re.match(rb"HTTP/1\.1 (\d{3})", buf)
    return (int(m.group(1)) if m else 0), buf.partition(b"\r\n\r\n")[2]


async def read_what_is_waiting(loop: asyncio.AbstractEventLoop, sock: socket.socket, limit: int = 8 << 20) -> bytes:
    """After the flood: what the hall had sent and the non-reader had left unread (briefly)."""
    buf = bytearray()
    with contextlib.suppress(TimeoutError, OSError):
        async with asyncio.timeout(0.3):
            while len(buf) < limit:
                chunk = await loop.sock_recv(sock, 65536)
                if not chunk:
                    break
                buf += chunk
    return bytes(buf)


def close_code_in(data: bytes) -> int | None:
    """The code of the close frame among the hall's (unmasked) frames ``data``, if it is there."""
    i = 0
    while i + 2 <= len(data):
        opcode, n, j = data[i] & 0x0F, data[i + 1] & 0x7F, i + 2
        if n >= 126:
            width = 2 if n == 126 else 8
            n, j = int.from_bytes(data[j : j + width], "big"), j + width
        if j + n > len(data):
            return None
        if opcode == 0x8:
            return int.from_bytes(data[j : j + 2], "big") if n >= 2 else 1005
        i = j + n
    return None


async def flood_not_reading(
    url: str, token: str, room: str, plan: Plan, stats: FloodStats, rcvbuf: int, frames: list[bytes]
) -> None:
    """One non-reader: from the window's start to its end, write frames and never read. Once
    the window is over it reads what is waiting, only to find whether the hall had closed it."""
    loop = asyncio.get_running_loop()
    host, port = url.removeprefix("http://").split(":")
    await sleep_until(plan.start)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)  # before connect: a small window
    sock.setblocking(False)
    last_write = time.time()
    early = b""  # what came with the handshake's answer (hello, update, perhaps a refusal)
    ended = ""  # how the hall ended the connection, as seen from here
    connected = False
    try:
        async with asyncio.timeout(max(0.1, plan.end - time.time())):
            await loop.sock_connect(sock, (host, int(port)))
            key = base64.b64encode(os.urandom(16)).decode()
            request = (
                f"GET /ws/{room} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: {url}\r\n"
                f"X-Paiju-Token: {token}\r\n\r\n"
            )
            await loop.sock_sendall(sock, request.encode())
            status, early = await read_handshake_answer(loop, sock)
            if status != 101:
                stats.refused[f"HTTP {status}"] += 1
                return
            stats.connects += 1
            connected = True
            i = 0
            while True:  # until the timeout at the window's end
                frame = frames[i % len(frames)]
                i += 1
                await loop.sock_sendall(sock, frame)
                last_write = time.time()
                if plan.start <= last_write < plan.end:
                    stats.sent += 1
                    stats.sent_bytes += len(frame)
                if i % 8 == 0:
                    await asyncio.sleep(0)
    except TimeoutError:  # the window ended
        if time.time() - last_write > 1.0:
            stats.stalled += 1  # the hall no longer took its writes
    except OSError as e:  # reset or broken pipe: the hall dropped the TCP connection
        ended = type(e).__name__
    finally:
        if connected:
            code = close_code_in(early + await read_what_is_waiting(loop, sock))
            if code is not None:  # a close frame: with no error on our side, it kept taking our writes
                ended = f"close {code}, then {ended}" if ended else f"close {code}, TCP still open"
            if code == 4429:  # refused at once: too many connections
                stats.refused[ended] += 1
            elif ended:
                stats.closes[ended] += 1
        sock.close()  # with unread bytes in the buffer: a reset, i.e. the client left


async def flood_hall(
    url: str, n_flooders: int, n_nonreaders: int, opts: argparse.Namespace, victim_rooms: list[str], control: Control
) -> tuple[FloodStats, FloodStats]:
    """Log in the flooders and non-readers (each its own player), make their rooms, run the plan."""
    throwaway = Stats()
    sem = asyncio.Semaphore(16)

    async def player(name: str, own_room: bool) -> tuple[str, str]:
        async with sem:
            token = await login(http_, name, throwaway)
            return token, await create_room(http_, token, throwaway) if own_room else ""

    own = opts.nonreader_room == "own" or not victim_rooms
    async with http_client(url) as http_:
        flooders = await asyncio.gather(*(player(f"flood{i}", True) for i in range(n_flooders)))
        mutes = await asyncio.gather(*(player(f"mute{i}", own) for i in range(n_nonreaders)))
    if not own:  # spectators of the victims' tables, round robin
        mutes = [(token, victim_rooms[i % len(victim_rooms)]) for i, (token, _) in enumerate(mutes)]
    flood, mute = FloodStats(), FloodStats()
    frames = masked_frames()
    plan = await control.ready(None)
    tasks = [flood_reading(url, t, r, plan, flood, not opts.no_reconnect) for t, r in flooders]
    tasks += [flood_not_reading(url, t, r, plan, mute, opts.rcvbuf, frames) for t, r in mutes]

    async def cpu_over_window() -> None:
        await sleep_until(plan.start)
        cpu0 = time.process_time()
        await sleep_until(plan.end)
        flood.cpu_s = mute.cpu_s = time.process_time() - cpu0

    running = [asyncio.create_task(t) for t in [cpu_over_window(), *tasks]]
    _, late = await asyncio.wait(running, timeout=max(1.0, plan.end - time.time()) + 15)
    for task in late:  # bounded: a client still stuck 15 s after the window is given up
        task.cancel()
    whose = [flood] * (1 + len(flooders)) + [mute] * len(mutes)
    for stats, outcome in zip(whose, await asyncio.gather(*running, return_exceptions=True)):
        if isinstance(outcome, BaseException):  # a client's own failure: counted, not fatal
            stats.refused[f"client gave up: {type(outcome).__name__}"] += 1
    return flood, mute


# ---------------------------------------------------------------------------- client processes
def _child_main(target: Callable[..., Any], args: tuple[Any, ...], conn: Any, cpus: set[int] | None, nice: int) -> None:
    if cpus:
        os.sched_setaffinity(0, cpus)
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    try:
        conn.send(("result", asyncio.run(target(*args, Control(conn)))))
    except BaseException as e:  # the parent reports it
        conn.send(("failed", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()


class Child:
    """A client process (forked): it sets up, says ready, gets the plan, runs it, sends its result."""

    def __init__(
        self, name: str, target: Callable[..., Any], args: tuple[Any, ...], cpus: set[int] | None, nice: int
    ) -> None:
        ctx = multiprocessing.get_context("fork")
        self.name = name
        self.conn, theirs = ctx.Pipe()
        self.proc = ctx.Process(target=_child_main, args=(target, args, theirs, cpus, nice), daemon=True)
        self.proc.start()
        theirs.close()

    def receive(self, kind: str, timeout: float) -> Any:
        if not self.conn.poll(timeout):
            raise RuntimeError(f"the {self.name} process sent nothing within {timeout:.0f} s")
        try:
            got, value = self.conn.recv()
        except EOFError:
            raise RuntimeError(f"the {self.name} process died (exit code {self.proc.exitcode})") from None
        if got != kind:
            raise RuntimeError(f"the {self.name} process failed: {value}")
        return value

    def send(self, value: Any) -> None:
        self.conn.send(value)

    def stop(self) -> None:
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.proc.terminate()
            self.proc.join(timeout=5)


# ---------------------------------------------------------------------------- one row
@dataclass
class Result:
    label: str
    flooders: int
    nonreaders: int
    victims: int
    seconds: float
    think_s: float
    # victims
    actions: int
    actions_per_s: float
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float
    victim_errors: dict[str, int]
    victim_closed: int
    unconfirmed: int
    victim_lag_ms: float  # the worst event-loop lag of the victims' process
    # flooders or non-readers
    connects: int
    sent_per_s: float
    sent_mb_per_s: float
    replies_per_s: float
    reply_kinds: dict[str, int]
    closed_by_server: int
    close_codes: dict[str, int]
    refused: dict[str, int]
    stalled: int
    flooder_cpu: float  # share of one core used by the flooders' process
    # server
    server_cpu: float  # share of one core over the window
    server_core_busy: float  # how busy the server's CPU was, every program counted (when pinned)
    other_cpu: float  # what the rest of the machine used meanwhile: ~0 on an idle machine
    rss_before_mb: float  # before the flood (non-readers: just before they connect)
    rss_peak_mb: float  # the most seen, samples and VmHWM, from the flood's start on
    rss_growth_mb: float
    rss_after_mb: float  # the last sample (non-readers: --after s after they left)
    rss_stays_mb: float
    rss_samples: list[tuple[float, float]]  # (seconds from the flood's start, MB)
    server_log_errors: list[str]
    server_exit: int | None


def label_of(flooders: int, nonreaders: int) -> str:
    if nonreaders:
        return f"{nonreaders} non-reader{'s' * (nonreaders != 1)}"
    return f"{flooders} flooder{'s' * (flooders != 1)}"


@dataclass
class ServerWatch:
    """What was read of the server during one row."""

    cpu: float = float("nan")  # the server's share of one core over the window
    core_busy: float = float("nan")  # how busy the server's own CPU was (every program), when pinned
    machine_busy: float = float("nan")  # every CPU, every program (100% = one core)
    samples: list[tuple[float, float]] = field(default_factory=list)  # (s from the flood's start, RSS MB)
    before: float = float("nan")  # RSS just before the flood
    hwm_peak: float = float("nan")  # VmHWM at the end if it rose during the flood (a peak between samples)


def watch_server(pid: int, cpus: set[int] | None, plan: Plan, flood_from: float) -> ServerWatch:
    """Read the server's RSS every second from ``plan.go`` to ``plan.close_at`` (and just before
    ``flood_from``), and the CPU of the server, of its core and of the machine over the window."""
    w = ServerWatch()
    before_at = max(plan.go, flood_from - 0.2)
    marks = {plan.go + k for k in range(math.ceil(plan.close_at - plan.go) + 1)} | {plan.start, plan.end, before_at}
    hwm0 = cpu0 = core0 = machine0 = float("nan")
    for m in sorted(m for m in marks if m <= plan.close_at):
        time.sleep(max(0.0, m - time.time()))
        rss = rss_mb(pid)
        if m == before_at:
            w.before, hwm0 = rss, rss_mb(pid, "VmHWM")
        if m >= flood_from:
            w.samples.append((round(m - flood_from, 2), round(rss, 1)))
        if m == plan.start:
            cpu0, core0, machine0 = cpu_seconds(pid), busy_seconds(cpus), busy_seconds(None)
        if m == plan.end:
            span = max(1e-9, plan.end - plan.start)
            w.cpu = (cpu_seconds(pid) - cpu0) / span
            w.core_busy = (busy_seconds(cpus) - core0) / span if cpus else float("nan")
            w.machine_busy = (busy_seconds(None) - machine0) / span
    hwm = rss_mb(pid, "VmHWM")
    if hwm > hwm0:
        w.hwm_peak = hwm
    return w


def run_row(opts: argparse.Namespace, flooders: int, nonreaders: int, server_args: list[str], log: Any) -> Result:
    """One row against a fresh hall: victims, plus ``flooders`` flooders or ``nonreaders`` non-readers."""
    server_cpus, client_cpus, _ = cpu_plan(2, not opts.no_pin)
    server = Server(server_cpus, options=server_args, prefix="paiju-hall-abuse-")
    children: list[Child] = []
    try:
        server.wait_ready()
        pid = server.proc.pid
        label = label_of(flooders, nonreaders)
        log(f"{label}: server pid {pid} on port {server.port}, {opts.tables} victim tables")
        cfg = Config(
            url=server.url,
            clients=opts.tables * SEATS,
            warmup=opts.warmup,
            duration=opts.duration,
            seed=opts.seed,
            think=opts.think,
            compression=False,  # the hall does not take permessage-deflate
        )
        victims = Child("victims", play_victims, (cfg,), client_cpus, 0)
        children.append(victims)
        rooms = victims.receive("ready", 120)
        flood = None
        if flooders or nonreaders:
            args = (server.url, flooders, nonreaders, opts, rooms)
            flood = Child("flooders", flood_hall, args, client_cpus, opts.flooder_nice)
            children.append(flood)
            flood.receive("ready", 120)
        go = time.time() + 0.5
        start = go + opts.warmup
        end = start + opts.duration
        plan = Plan(go, start, end, end + (opts.after if nonreaders else 0.0))
        for child in children:
            child.send(plan)
        flood_from = start if nonreaders else go
        watch = watch_server(pid, server_cpus, plan, flood_from)
        vstats: Stats = victims.receive("result", GRACE_S + 60)
        fstats = FloodStats()
        if flood is not None:
            fstats = flood.receive("result", 60)[1 if nonreaders else 0]
    finally:
        for child in children:
            child.stop()
        exit_code = server.stop()
        log_errors = server.error_lines()
        server.cleanup()
    lat = sorted(vstats.latencies_ms)
    during = [mb for _, mb in watch.samples if not math.isnan(mb)]
    during += [] if math.isnan(watch.hwm_peak) else [watch.hwm_peak]
    peak = max(during) if during else float("nan")
    after = watch.samples[-1][1] if watch.samples else float("nan")
    before = watch.before
    d = opts.duration
    clients_cpu = (vstats.cpu_s + fstats.cpu_s) / d
    return Result(
        label=label,
        flooders=flooders,
        nonreaders=nonreaders,
        victims=cfg.clients,
        seconds=d,
        think_s=opts.think,
        actions=vstats.confirmed,
        actions_per_s=vstats.confirmed / d,
        p50_ms=percentile(lat, 50),
        p90_ms=percentile(lat, 90),
        p99_ms=percentile(lat, 99),
        max_ms=lat[-1] if lat else float("nan"),
        victim_errors=dict(vstats.errors.most_common()),
        victim_closed=vstats.closed,
        unconfirmed=vstats.unconfirmed,
        victim_lag_ms=vstats.lag_ms,
        connects=fstats.connects,
        sent_per_s=fstats.sent / d,
        sent_mb_per_s=fstats.sent_bytes / d / 1e6,
        replies_per_s=sum(fstats.replies.values()) / d,
        reply_kinds=dict(fstats.replies.most_common()),
        closed_by_server=sum(fstats.closes.values()),
        close_codes=dict(fstats.closes.most_common()),
        refused=dict(fstats.refused.most_common()),
        stalled=fstats.stalled,
        flooder_cpu=fstats.cpu_s / d,
        server_cpu=watch.cpu,
        server_core_busy=watch.core_busy,
        other_cpu=watch.machine_busy - watch.cpu - clients_cpu,
        rss_before_mb=before,
        rss_peak_mb=peak,
        rss_growth_mb=peak - before,
        rss_after_mb=after,
        rss_stays_mb=after - before,
        rss_samples=watch.samples,
        server_log_errors=log_errors[:20],
        server_exit=exit_code,
    )


# ---------------------------------------------------------------------------- output
def verdict(results: Sequence[Result]) -> list[str]:
    """One line per part of the target: p99 with 1 and with 20 flooders, and the RSS growth."""
    base = next((r for r in results if r.flooders == 0 and r.nonreaders == 0), None)
    lines = []
    for n in (1, 20):
        r = next((r for r in results if r.flooders == n and r.nonreaders == 0), None)
        what = f"victims' p99 with {n} flooder{'s' * (n != 1)} − without < {TARGET_P99_DELTA_MS:g} ms"
        if base is None or r is None:
            lines.append(f"target: {what}: not measured")
            continue
        delta = r.p99_ms - base.p99_ms
        ok = delta < TARGET_P99_DELTA_MS
        lines.append(
            f"target: {what}: {'MET' if ok else 'NOT MET'} ({r.p99_ms:.1f} − {base.p99_ms:.1f} = {delta:+.1f} ms)"
        )
    mute = next((r for r in results if r.nonreaders), None)
    what = f"RSS growth under non-readers < {TARGET_RSS_MB:g} MB"
    if mute is None:
        lines.append(f"target: {what}: not measured")
    else:
        ok = mute.rss_growth_mb < TARGET_RSS_MB
        lines.append(
            f"target: {what}: {'MET' if ok else 'NOT MET'} ({mute.nonreaders} non-readers: "
            f"+{mute.rss_growth_mb:.1f} MB at the peak, {mute.rss_stays_mb:+.1f} MB stays)"
        )
    for r in results:
        if r.victim_errors or r.victim_closed or r.unconfirmed:
            lines.append(
                f"warning: victims were hit at {r.label}: {sum(r.victim_errors.values())} errors, "
                f"{r.victim_closed} connections closed, {r.unconfirmed} actions never confirmed"
            )
        if r.victim_lag_ms > TARGET_P99_DELTA_MS / 2:  # the client side, not the hall, was late
            lines.append(
                f"caution at {r.label}: the victims' own process lagged up to {r.victim_lag_ms:.0f} ms "
                "(the clients' CPU was short): part of their latency is the clients'"
            )
        if r.other_cpu > 0.3:
            lines.append(f"caution at {r.label}: other programs used {r.other_cpu:.0%} of a core meanwhile")
    return lines


def _codes(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} ×{v}" for k, v in counts.items()) or "0"


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.0%}"


# three tables, a row per load: the victims, the flood and the server's CPU, the server's memory
VICTIM_HEAD = ("load", "p50 ms", "p90 ms", "p99 ms", "max ms", "actions/s", "victim errors", "victim lag ms")
FLOOD_HEAD = (
    "load",
    "msgs/s sent",
    "MB/s sent",
    "replies/s",
    "conns",
    "closed by server",
    "refused",
    "flooder CPU",
    "server CPU",
    "server core busy",
    "other CPU",
)
RSS_HEAD = ("load", "RSS before MB", "peak MB", "growth MB", "after MB", "stays MB")


def _victim_row(r: Result) -> list[str]:
    return [
        r.label,
        f"{r.p50_ms:.1f}",
        f"{r.p90_ms:.1f}",
        f"{r.p99_ms:.1f}",
        f"{r.max_ms:.0f}",
        f"{r.actions_per_s:,.0f}",
        f"{sum(r.victim_errors.values()) + r.victim_closed + r.unconfirmed}",
        f"{r.victim_lag_ms:.0f}",
    ]


def _flood_row(r: Result) -> list[str]:
    return [
        r.label,
        f"{r.sent_per_s:,.0f}",
        f"{r.sent_mb_per_s:,.1f}",
        f"{r.replies_per_s:,.0f}",
        f"{r.connects}",
        f"{r.closed_by_server} ({_codes(r.close_codes)})" if r.closed_by_server else "0",
        _codes(r.refused) + (f", {r.stalled} stalled" if r.stalled else ""),
        _pct(r.flooder_cpu) if r.flooders or r.nonreaders else "-",
        _pct(r.server_cpu),
        _pct(r.server_core_busy),
        _pct(r.other_cpu),
    ]


def _rss_row(r: Result) -> list[str]:
    return [
        r.label,
        f"{r.rss_before_mb:.1f}",
        f"{r.rss_peak_mb:.1f}",
        f"{r.rss_growth_mb:+.1f}",
        f"{r.rss_after_mb:.1f}",
        f"{r.rss_stays_mb:+.1f}",
    ]


def _tables(results: Sequence[Result]) -> list[tuple[tuple[str, ...], list[list[str]]]]:
    return [
        (VICTIM_HEAD, [_victim_row(r) for r in results]),
        (FLOOD_HEAD, [_flood_row(r) for r in results]),
        (RSS_HEAD, [_rss_row(r) for r in results]),
    ]


def _details(r: Result) -> list[str]:
    out = []
    if r.reply_kinds:
        out.append(f"replies to the {r.label}: {_codes(r.reply_kinds)}")
    if r.victim_errors or r.victim_closed or r.unconfirmed:
        out.append(
            f"victims at {r.label}: errors {_codes(r.victim_errors)}; {r.victim_closed} connections closed, "
            f"{r.unconfirmed} actions never confirmed"
        )
    if r.nonreaders:
        out.append(
            f"RSS at {r.label}, MB by second from their start: " + " ".join(f"{mb:g}" for _, mb in r.rss_samples)
        )
    if r.server_log_errors:
        out.append(f"server log at {r.label}: {len(r.server_log_errors)} error lines, first: {r.server_log_errors[0]}")
    return out


def print_table(results: Sequence[Result], info: dict[str, Any], notes: list[str]) -> None:
    print(f"Machine: {info['cpu']}, {info['cores']} cores, {info['python']}")
    for n in notes:
        print(n)
    for head, rows in _tables(results):
        widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(head)]
        print()
        print("  ".join(h.rjust(w) for h, w in zip(head, widths)))
        for row in rows:
            print("  ".join(c.rjust(w) for c, w in zip(row, widths)))
    print()
    for r in results:
        for line in _details(r):
            print(line)
    for line in verdict(results):
        print(line)


def print_markdown(results: Sequence[Result], info: dict[str, Any], notes: list[str]) -> None:
    print(f"Machine: {info['cpu']}, {info['cores']} cores, {info['python']}, {info['platform']}.")
    for n in notes:
        print(f"{n}.")
    for head, rows in _tables(results):
        print()
        print("| " + " | ".join(head) + " |")
        print("|---|" + "|".join("---:" for _ in head[1:]) + "|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    print()
    for r in results:
        for line in _details(r):
            print(f"{line}.")
    for line in verdict(results):
        print(f"{line}.")


def main(argv: Sequence[str] | None = None) -> list[Result]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--flooders", default="0,1,20", help="flooder counts, comma-separated, one row each")
    ap.add_argument("--nonreaders", type=int, default=20, help="non-reading clients of the last row (0: no such row)")
    ap.add_argument("--tables", type=int, default=10, help="victim tables of five players (default 10)")
    ap.add_argument("--think", type=float, default=0.2, help="victims' mean think time before acting, s (default 0.2)")
    ap.add_argument("--duration", type=float, default=10.0, help="measured seconds per row (default 10)")
    ap.add_argument("--warmup", type=float, default=2.0, help="seconds of play (and flood) before measuring")
    ap.add_argument("--after", type=float, default=3.0, help="seconds the RSS is read after the non-readers left")
    ap.add_argument("--no-reconnect", action="store_true", help="a flooder the hall disconnects stays away")
    ap.add_argument(
        "--nonreader-room",
        choices=("victims", "own"),
        default="victims",
        help="non-readers watch the victims' tables (default) or sit in rooms of their own",
    )
    ap.add_argument("--rcvbuf", type=int, default=4096, help="SO_RCVBUF of the non-readers' sockets, bytes")
    ap.add_argument("--flooder-nice", type=int, default=10, help="niceness added to the flooders' process (default 10)")
    ap.add_argument("--no-pin", action="store_true", help="do not pin the server and the clients to separate CPUs")
    ap.add_argument("--nice", type=int, default=0, help="niceness of the whole benchmark, e.g. -10 (root)")
    ap.add_argument("--keep-address-limits", action="store_true", help="do not raise the hall's per-address limits")
    ap.add_argument(
        "--server-arg", action="append", default=[], metavar="ARG", help="one more server option (repeatable)"
    )
    ap.add_argument("--seed", type=int, default=1, help="seed of the victims' random choices")
    ap.add_argument("--json", metavar="FILE", help="also write every figure to FILE")
    ap.add_argument("--markdown", action="store_true", help="print markdown rows ready for docs")
    opts = ap.parse_args(argv)
    counts = [int(x) for x in opts.flooders.split(",") if x.strip()]

    def log(msg: str) -> None:
        print(f"[hall-abuse] {msg}", file=sys.stderr, flush=True)

    fd_note = raise_fd_limit(4096)
    _, _, pin_note = cpu_plan(2, not opts.no_pin)
    nice_note, restore_nice = set_nice(opts.nice)
    help_text = server_help()
    server_args = [] if opts.keep_address_limits else address_limit_options(help_text)
    server_args += opts.server_arg
    found = sorted(set(re.findall(r"--[a-z0-9][a-z0-9-]*", help_text)) - {"--help"})
    notes = [
        f"server options used: {' '.join(server_args) or 'none'} (the hall's --help lists: {' '.join(found) or '?'})",
        f"{opts.tables} victim tables ({opts.tables * SEATS} clients), think time uniform 0-{2 * opts.think:g} s; "
        f"{opts.warmup:g} s warm-up, {opts.duration:g} s measured per row; flooders "
        f"{'reconnect' if not opts.no_reconnect else 'stay away'} when disconnected, nice +{opts.flooder_nice}; "
        f"non-readers in {'the victims' if opts.nonreader_room == 'victims' else 'their own'} rooms, "
        f"SO_RCVBUF {opts.rcvbuf}",
        f"{pin_note}; {nice_note}; {fd_note}",
    ]
    for n in notes:
        log(n)
    info = machine()
    rows = [(n, 0) for n in counts] + ([(0, opts.nonreaders)] if opts.nonreaders > 0 else [])
    results = []
    try:
        for flooders, nonreaders in rows:
            r = run_row(opts, flooders, nonreaders, server_args, log)
            log(
                f"{r.label}: victims p50 {r.p50_ms:.1f} ms, p99 {r.p99_ms:.1f} ms, {r.actions_per_s:,.0f} actions/s; "
                f"sent {r.sent_per_s:,.0f} msgs/s, {r.closed_by_server} closed by the server; "
                f"server CPU {r.server_cpu:.0%}, RSS {r.rss_before_mb:.0f} -> peak {r.rss_peak_mb:.0f} MB"
            )
            results.append(r)
    finally:
        restore_nice()
    if opts.markdown:
        print_markdown(results, info, notes)
    else:
        print_table(results, info, notes)
    if opts.json:
        data = {
            "command": "benchmarks/hall_abuse.py " + " ".join(sys.argv[1:] if argv is None else argv),
            "machine": info,
            "notes": notes,
            "server_options": server_args,
            "target": {
                "p99_delta_ms": TARGET_P99_DELTA_MS,
                "rss_growth_mb": TARGET_RSS_MB,
                "verdict": verdict(results),
            },
            "results": [asdict(r) for r in results],
        }
        write_json(opts.json, data)
        log(f"wrote {opts.json}")
    return results


if __name__ == "__main__":
    main()
