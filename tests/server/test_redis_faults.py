"""A cluster's Redis hung (SIGSTOP) or dead, measured through real workers: two workers
(cluster_harness.py: PostgreSQL, a Redis of the cluster's own, HAProxy), a room on each.

- while Redis is hung or dead, no request waits for it more than a moment: ``GET /api/rooms``,
  ``GET /api/online`` and a table's WebSocket join (to its hello) of the first worker each
  answer well under 0.5 s (a request waited 2 s, a join 4 s, before requests had a budget);
- meanwhile the lobby lists the worker's own room and the other worker's as last read, and
  the lobby and presence say ``"stale": true``;
- once Redis answers again (SIGCONT, or a new redis-server on its port) the lobby and
  presence are fresh again within a few seconds, both rooms listed.

The figures (median and max per kind of request) are printed (``pytest -s``). Marked slow
(about a minute with the cluster's start); tests/test_shared.py checks the same fallbacks
on one worker's ``Shared`` in the fast suite. Skipped, with the reason, without PostgreSQL,
redis-server or haproxy (.ci/run has them).
"""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from .cluster_harness import Cluster, missing, tool
from .harness import Hall

pytestmark = [pytest.mark.slow, pytest.mark.skipif(missing() is not None, reason=missing() or "")]
BOUND = 0.5  # seconds any request may take while Redis fails (the Redis budget is 0.1 s)


class Scene:
    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        w1, w2 = cluster.workers
        self.here, self.there = Hall(w1), Hall(w2)
        self.player = self.here.login("patient")
        self.mine = self.here.create_room(self.player, name="on w1")  # made and held by w1
        self.theirs = self.there.create_room(self.there.login("other"), name="on w2")  # by w2
        self.http = httpx.Client(base_url=w1.url, timeout=10)

    def lobby(self) -> dict[str, Any]:
        return dict(self.http.get("/api/rooms", params={"limit": 200}).json())

    def fresh(self) -> bool:
        """w1's lobby lists both rooms and neither it nor presence is stale."""
        lobby = self.lobby()
        ids = {r["id"] for r in lobby["rooms"]}
        return {self.mine, self.theirs} <= ids and not lobby["stale"] and not self.online()["stale"]

    def online(self) -> dict[str, Any]:
        return dict(self.http.get("/api/online").json())

    def join(self) -> dict[str, Any]:
        c = self.here.connect(self.mine, self.player)
        try:
            return c.next(timeout=10)
        finally:
            c.close()

    def measure(self, seconds: float, during: str) -> dict[str, list[float]]:
        """Each kind of request again and again for ``seconds``: how long each took, checked."""
        took: dict[str, list[float]] = {"rooms": [], "online": [], "join": []}
        checks: dict[str, Callable[[], Any]] = {"rooms": self.lobby, "online": self.online, "join": self.join}
        start = time.monotonic()
        end = start + seconds
        while time.monotonic() < end:
            settled = time.monotonic() - start > 1.0  # a lobby page read just before is served 0.5 s
            for what, call in checks.items():
                started = time.monotonic()
                got = call()
                took[what].append(time.monotonic() - started)
                if what == "rooms":
                    ids = [r["id"] for r in got["rooms"]]
                    assert self.mine in ids and self.theirs in ids, (during, got)
                    assert got.get("stale") or not settled, (during, got)
                elif what == "online":
                    assert got.get("stale"), (during, got)
                else:
                    assert got["type"] == "hello", (during, got)
            time.sleep(0.05)
        for what, ts in took.items():
            print(
                f"\n{during}: {what} median {statistics.median(ts) * 1000:.1f} ms, "
                f"max {max(ts) * 1000:.1f} ms over {len(ts)}",
                end="",
            )
        for what, ts in took.items():
            assert max(ts) < BOUND, f"{during}: {what} took {max(ts):.2f} s: {[round(t, 3) for t in ts]}"
        return took


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("redis-faults"), n=2).start()
    try:
        yield c
    finally:
        c.stop()
        c.assert_no_crash()


@pytest.fixture(scope="module")
def scene(cluster: Cluster) -> Scene:
    s = Scene(cluster)
    until(s.fresh, 10, "w1's lobby lists w2's room")
    return s


def until(pred: Callable[[], bool], timeout: float, what: str) -> float:
    started = time.monotonic()
    while not pred():
        assert time.monotonic() - started < timeout, what
        time.sleep(0.05)
    return time.monotonic() - started


def hung(cluster: Cluster, scene: Scene, seconds: float) -> None:
    redis = cluster.redis
    os.kill(redis.pid, signal.SIGSTOP)
    try:
        scene.measure(seconds, f"Redis hung {seconds:.0f} s")
    finally:
        os.kill(redis.pid, signal.SIGCONT)
    took = until(scene.fresh, 10, "fresh again after SIGCONT")
    print(f"\nfresh again {took:.2f} s after SIGCONT")


def test_a_hung_redis_delays_no_request_and_the_lobby_is_fresh_again_after(cluster: Cluster, scene: Scene) -> None:
    hung(cluster, scene, 6)


def test_a_dead_redis_delays_no_request_and_a_new_one_is_filled_again(cluster: Cluster, scene: Scene) -> None:
    cluster.redis.kill()
    cluster.redis.wait(10)
    try:
        scene.measure(5, "Redis down")
    finally:
        cluster.redis = subprocess.Popen(
            [tool("redis-server") or "redis-server", "--port", str(cluster.redis_port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    took = until(scene.fresh, 10, "fresh again with a new, empty Redis")
    print(f"\nfresh again {took:.2f} s after a new redis-server started")
    assert scene.join()["type"] == "hello"


def test_redis_hung_for_15_s_delays_no_request(cluster: Cluster, scene: Scene) -> None:
    hung(cluster, scene, 15)
