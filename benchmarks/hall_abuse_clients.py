"""The clients of ``hall_abuse.py``: the plan every process follows, the victims
(hall_load's clients), the flooders (reading everything the hall sends) and the
non-readers (raw sockets that only ever write), each kind in a forked client process.
"""

import argparse
import asyncio
import base64
import contextlib
import json
import multiprocessing
import os
import re
import socket
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.frames import Frame, Opcode
from websockets.typing import Origin

from hall_common import (
    SEATS,
    Client,
    Config,
    Stats,
    Window,
    close_clients,
    create_room,
    error_kind,
    http_client,
    login,
    measure,
    sit_down,
    sleep_until,
)

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
