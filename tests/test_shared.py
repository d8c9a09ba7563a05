"""What the workers of a cluster share through Redis (shared.py), against a real
redis-server started for this module (Debian's; .ci/run installs it): two ``Shared`` are
two workers.

- the connection caps count every worker's connections, and presence is everyone's;
- rooms and replays per minute are counted across workers;
- a player's table messages are summed over the workers: past the share, dropped;
- the lobby lists every live worker's rooms, and a worker's rooms leave it with the worker;
- a hung Redis (SIGSTOP) or a dead one costs a request at most ``QUICK`` seconds, then nothing
  for ``PAUSE`` seconds: the lobby is this worker's rooms and the others' as last read,
  presence the last known figures (both stale), the caps and rates this worker's own; a
  command that timed out leaves no answer behind for the next; once Redis answers, everything
  is fresh again and this worker's connection counts are written anew.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import socket
import statistics
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


def start_redis(port: int) -> subprocess.Popen[bytes]:
    assert REDIS is not None
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
    r.close()
    return proc


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    port = free_port()
    proc = start_redis(port)
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(10)


@pytest.fixture
def own_redis() -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """A redis-server of the test's own, to pause and kill (the test may replace it: ``[0]``)."""
    port = free_port()
    procs = [start_redis(port)]
    yield procs[0], port
    for p in procs:
        with contextlib.suppress(ProcessLookupError):
            os.kill(p.pid, signal.SIGCONT)
        p.terminate()
        p.wait(10)


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


def figures(seconds: list[float]) -> str:
    return f"median {statistics.median(seconds) * 1000:.1f} ms, max {max(seconds) * 1000:.1f} ms over {len(seconds)}"


async def timed(call: Callable[[], Awaitable[Any]]) -> tuple[float, Any]:
    """Seconds ``call()`` took, and what it gave (or the exception it raised)."""
    started = time.monotonic()
    try:
        got = await call()
    except Exception as e:
        got = e
    return time.monotonic() - started, got


def test_a_hung_redis_costs_a_request_at_most_a_moment_and_the_hall_goes_on_with_what_it_knew(
    own_redis: tuple[subprocess.Popen[bytes], int],
) -> None:
    proc, port = own_redis
    url = f"redis://127.0.0.1:{port}/0"

    async def test(a: Shared, b: Shared) -> None:
        b.room_changed("theirs", {"id": "theirs", "game": "baohuang", "created": 1.0})
        b.players_here = lambda: 3
        await b.flush_rooms()
        await asyncio.sleep(1.2)  # b's heartbeat says its 3 players
        assert [r["id"] for r in (await a.lobby_page(0, 10))[0]] == ["theirs"]
        assert await a.online() == (3, False)
        assert await a.is_online(5) is False
        mine = [{"id": "mine", "game": "shengji", "created": 2.0}]
        a.players_here = lambda: 1
        os.kill(proc.pid, signal.SIGSTOP)
        try:
            waits: dict[str, list[float]] = {}
            for _ in range(3):  # each call: the first after a pause waits QUICK, the others nothing
                for what, call in (
                    ("lobby", lambda: a.lobby_page(0, 10)),
                    ("room", lambda: a.room("theirs")),
                    ("online", a.online),
                    ("is_online", lambda: a.is_online(5)),
                    ("connect", lambda: a.connect(5, "10.0.0.5")),
                    ("disconnect", lambda: a.disconnect(5, "10.0.0.5")),
                    ("within", lambda: a.within("rooms", 5, 3)),
                ):
                    took, got = await timed(call)
                    waits.setdefault(what, []).append(took)
                    if what == "online":
                        assert got == (3 + 1, True)  # b's as last read, a's own now
                    elif what == "room":
                        assert got == {"id": "theirs", "game": "baohuang", "created": 1.0, "stale": True}
                    elif what == "is_online":
                        assert got is False  # the last answer
                    elif what != "disconnect":
                        assert isinstance(got, shared_module.RedisUnavailable), (what, got)
                await asyncio.sleep(shared_module.PAUSE + 0.1)  # Redis asked again: one request waits
            rooms, total = a.lobby_copy(0, 10, None, mine)
            assert [r["id"] for r in rooms] == ["mine", "theirs"] and total == 2
            assert [r["id"] for r in a.lobby_copy(0, 10, "shengji", mine)[0]] == ["mine"]
            with pytest.raises(shared_module.RedisUnavailable):
                await a.room("never-seen")
            every = [t for ts in waits.values() for t in ts]
            print(f"\nhung Redis, Shared's request calls: {figures(every)}")
            assert max(every) < shared_module.QUICK + 0.15, waits
            took, _ = await timed(
                lambda: asyncio.gather(*(a.lobby_page(0, 10) for _ in range(50)), return_exceptions=True)
            )
            assert took < shared_module.QUICK + 0.15  # fifty at once wait together, not one after another
        finally:
            os.kill(proc.pid, signal.SIGCONT)
        await asyncio.sleep(shared_module.PAUSE + 0.1)
        assert [r["id"] for r in (await a.lobby_page(0, 10))[0]] == ["theirs"]  # fresh again
        deadline = time.monotonic() + 5
        while await a.online() != (3 + 1, False):  # b's 3 and a's 1, once a's heartbeat went through
            assert time.monotonic() < deadline, await a.online()
            await asyncio.sleep(0.1)
        assert await a.within("rooms", 5, 3)

    two_workers(url, Limits(), test)


def test_a_command_that_timed_out_leaves_no_answer_behind_for_the_next(
    own_redis: tuple[subprocess.Popen[bytes], int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With one connection in the requests' pool, a GET whose answer comes after its timeout
    must not be taken for the next GET's answer: its connection is closed, not reused."""
    proc, port = own_redis
    monkeypatch.setattr(shared_module, "REDIS_CONNECTIONS", 1)

    async def run() -> None:
        a = Shared(f"redis://127.0.0.1:{port}/0", "wa", Limits())
        try:
            await a.redis.mset({"k1": "one", "k2": "two"})
            assert await a.quick.get("k1") == b"one"
            os.kill(proc.pid, signal.SIGSTOP)
            try:
                with pytest.raises(shared_module.RedisUnavailable):
                    await a._quick("a read", lambda: a.quick.get("k1"))
            finally:
                os.kill(proc.pid, signal.SIGCONT)
            await asyncio.sleep(0.2)  # the late answer to GET k1 would be on the socket by now
            a._paused_until = 0.0
            assert await a.quick.get("k2") == b"two"
            assert await a.quick.get("k1") == b"one"
        finally:
            await a.close()

    asyncio.run(run())


def test_a_dead_redis_costs_nothing_and_the_connection_counts_are_written_anew_when_it_is_back(
    own_redis: tuple[subprocess.Popen[bytes], int],
) -> None:
    proc, port = own_redis
    url = f"redis://127.0.0.1:{port}/0"
    here = {"p:1": 1, "a:10.0.0.1": 1}

    async def run() -> None:
        a = Shared(url, "wa", Limits())
        a.conns_here = lambda: dict(here)
        await a.start()
        try:
            assert await a.connect(1, "10.0.0.1") is None
            proc.terminate()
            proc.wait(10)
            waits = []
            for _ in range(20):
                took, got = await timed(lambda: a.connect(2, "10.0.0.2"))
                waits.append(took)
                assert isinstance(got, shared_module.RedisUnavailable)
                await asyncio.sleep(0.1)
            print(f"\ndead Redis, connect: {figures(waits)}")
            assert max(waits) < shared_module.QUICK + 0.15
            here["p:2"] = here["a:10.0.0.2"] = 1  # the hall let them in on its own count
            await a.disconnect(1, "10.0.0.1")
            del here["p:1"], here["a:10.0.0.1"]
            own_redis_restarted = start_redis(port)  # an empty Redis: every count lost
            try:
                deadline = time.monotonic() + 5
                while await a.redis.hgetall("paiju:conns:wa") != {b"p:2": b"1", b"a:10.0.0.2": b"1"}:
                    assert time.monotonic() < deadline, await a.redis.hgetall("paiju:conns:wa")
                    await asyncio.sleep(0.1)
                await asyncio.sleep(shared_module.PAUSE)
                assert await a.is_online(2) and not await a.is_online(1)
            finally:
                await a.close()
                own_redis_restarted.terminate()
                own_redis_restarted.wait(10)
        finally:
            with contextlib.suppress(Exception):
                await a.close()

    asyncio.run(run())
