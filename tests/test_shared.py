"""What the workers of a cluster share through Redis (shared.py), against a real
redis-server started for this module (Debian's; .ci/run installs it): two ``Shared`` are
two workers.

- the connection caps count every worker's connections, and presence is everyone's;
- rooms and replays per minute are counted across workers;
- a player's table messages are summed over the workers: past the share, dropped;
- the lobby lists every live worker's rooms, and a worker's rooms leave it with the worker.
"""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest

from paiju.server.cluster import shared as shared_module
from paiju.server.cluster.shared import Shared
from paiju.server.tables.throttle import Limits

REDIS = shutil.which("redis-server") or shutil.which("redis-server", path="/usr/sbin:/usr/bin")
pytestmark = pytest.mark.skipif(REDIS is None, reason="needs Debian's redis-server (.ci/run installs it)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    assert REDIS is not None
    port = free_port()
    proc = subprocess.Popen(
        [REDIS, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    import redis

    r = redis.Redis(port=port)
    deadline = time.monotonic() + 10
    while True:
        try:
            r.ping()
            break
        except redis.ConnectionError:
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(10)


def two_workers(url: str, limits: Limits, test: Callable[[Shared, Shared], Awaitable[Any]]) -> Any:
    async def run() -> Any:
        a, b = Shared(url, "wa", limits), Shared(url, "wb", limits)
        await a.redis.flushdb()
        await a.start()
        await b.start()
        try:
            await asyncio.sleep(0.1)  # a first heartbeat each: both are alive
            a.live = b.live = ["wa", "wb"]
            return await test(a, b)
        finally:
            await a.close()
            await b.close()

    return asyncio.run(run())


def test_connection_caps_count_every_workers_connections_and_presence_is_everyones(redis_url: str) -> None:
    limits = Limits(conns_per_player=2, conns_per_address=3)

    async def test(a: Shared, b: Shared) -> None:
        assert await a.connect(1, "10.0.0.1") is None
        assert await b.connect(1, "10.0.0.1") is None
        refused = await a.connect(1, "10.0.0.1")  # a third table of player 1, on either worker
        assert refused is not None and "at most 2" in refused
        assert await b.connect(2, "10.0.0.1") is None
        refused = await a.connect(3, "10.0.0.1")  # a fourth from the address
        assert refused is not None and "address" in refused
        assert await a.is_online(1) and await b.is_online(2) and not await a.is_online(3)
        await b.disconnect(1, "10.0.0.1")
        assert await a.connect(1, "10.0.0.2") is None  # room again on the cluster's count
        await b.disconnect(2, "10.0.0.1")
        assert await b.is_online(1) and not await a.is_online(2)

    two_workers(redis_url, limits, test)


def test_rooms_and_replays_per_minute_are_counted_across_workers(redis_url: str) -> None:
    async def test(a: Shared, b: Shared) -> None:
        got = [await (a if i % 2 else b).within("rooms", 7, 3) for i in range(5)]
        assert got == [True, True, True, False, False]
        assert await a.within("rooms", 8, 3)  # another player: a count of its own
        assert await b.within("replays", "10.0.0.1", 30)

    two_workers(redis_url, Limits(), test)


def test_a_players_messages_are_summed_over_the_workers(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shared_module, "SYNC_EVERY", 0.05)
    limits = Limits(rate=10.0, address_rate=1000.0)  # 20 a second in bursts, across the cluster

    async def test(a: Shared, b: Shared) -> None:
        while time.time() % 1 > 0.3:  # the whole test within one second's window
            await asyncio.sleep(0.01)
        for _ in range(12):  # 24 in all: within each worker's own share, over the cluster's
            assert a.message(5, "10.0.0.1") and b.message(5, "10.0.0.1")
        await asyncio.sleep(0.2)  # a sync or two
        assert not a.message(5, "10.0.0.1") and not b.message(5, "10.0.0.1")
        assert a.message(6, "10.0.0.1")  # another player is not held back
        assert not await a.redis.keys("paiju:msgs:p:6:*")  # under its share: never counted in Redis

    two_workers(redis_url, limits, test)


def test_the_lobby_pages_every_workers_rooms_and_forgets_a_dead_ones(redis_url: str) -> None:
    async def test(a: Shared, b: Shared) -> None:
        for i in range(5):  # r0 … r4, made in that order, on one worker or the other
            (a if i % 2 else b).room_changed(f"r{i}", {"id": f"r{i}", "game": "baohuang", "created": float(i)})
        b.room_changed("s", {"id": "s", "game": "shengji", "created": 9.0})
        await a.flush_rooms()
        await b.flush_rooms()
        rooms, total = await a.lobby_page(0, 3)
        assert [r["id"] for r in rooms] == ["s", "r4", "r3"] and total == 6  # newest first
        rooms, total = await b.lobby_page(3, 3)
        assert [r["id"] for r in rooms] == ["r2", "r1", "r0"]
        rooms, total = await a.lobby_page(0, 10, "shengji")
        assert [r["id"] for r in rooms] == ["s"] and total == 1
        assert await b.room("r1") == {"id": "r1", "game": "baohuang", "created": 1.0}
        b.room_changed("r4", None)  # r4 moved away from wb (or closed)
        await b.flush_rooms()
        assert [r["id"] for r in (await a.lobby_page(0, 10, "baohuang"))[0]] == ["r3", "r2", "r1", "r0"]
        await a.redis.delete("paiju:room:r3", "paiju:room:r1")  # what expiry does to a dead worker's entries
        rooms, total = await b.lobby_page(0, 10)
        assert [r["id"] for r in rooms] == ["s", "r2", "r0"] and total == 3
        assert (await b.lobby_page(0, 10))[1] == 3  # met once, gone from the index

    two_workers(redis_url, Limits(), test)
