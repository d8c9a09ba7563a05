"""The clients of ``hall_load.py``: the measured tables set up over HTTP and the table
WebSocket (a room's first connection tried again while the room moves to its worker) and
played through the window, the rooms of 最强 bots playing meanwhile, and the go-ahead
given to clients in this process or in child processes.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import time
from collections.abc import Sequence
from typing import Any

import httpx
from websockets.asyncio.client import connect

from hall_common import (
    SEATS,
    Client,
    Config,
    Stats,
    Window,
    close_clients,
    create_room,
    http_client,
    login,
    measure,
    sit_down,
    sleep_until,
)
from paiju.server.web import collector

OPEN_TRIES = 5  # set-up: times a table WebSocket refused as unavailable is opened again


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


def child_main(cfg: Config, tables: list[int], conn: Any, cpus: set[int] | None) -> None:
    if cpus:
        os.sched_setaffinity(0, cpus)
    try:
        stats = asyncio.run(run_clients(cfg, tables, PipeControl(conn)))
        conn.send(("stats", stats))
    except BaseException as e:  # the parent reports it
        conn.send(("failed", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()
