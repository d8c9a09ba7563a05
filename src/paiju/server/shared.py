"""What the workers of a cluster share through Redis: the lobby, presence and fair shares.

Each worker keeps, under keys that expire a few seconds after it stops refreshing them:

- ``paiju:worker:{id}`` — it is alive (the set ``paiju:workers`` names every worker seen);
- ``paiju:rooms:{id}`` — the lobby entry of every room it plays (a hash: room → info), so
  the lobby through any worker lists every room and a dead worker's rooms drop out of it
  until their new owner lists them;
- ``paiju:conns:{id}`` — its open table connections per player (``p:ID``) and per address
  (``a:ADDRESS``): the connection caps count every worker's, and the players with one are
  the ones online (presence).

Rate limits across workers: rooms and replays per minute are counters per minute window
(``INCR``); table messages, far more frequent, are counted locally and added to per-second
counters every ``SYNC_EVERY`` seconds, a player or address over its share in the cluster
being refused for the rest of that second — the cluster allows at most one sync's worth
more than one worker would.

Pub/sub: ``paiju:lobby`` says the lobby changed (a room opened, closed or changed hands),
``paiju:to:{id}`` asks worker ``id`` to give a room up (lease.py's ``wanted_by``, without
waiting for its next renewal).

When Redis does not answer the hall goes on with what it has: its own rooms in the lobby,
its own counts for the caps (a warning is logged); nothing of the game's state is in Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from paiju.server.throttle import Limits

log = logging.getLogger("paiju.shared")

PREFIX = "paiju:"
ALIVE_FOR = 5  # seconds a worker's keys outlive its last heartbeat
BEAT_EVERY = 1.0  # seconds between heartbeats
SYNC_EVERY = 0.2  # seconds between two syncs of the message counts
LOBBY = PREFIX + "lobby"


def _key(*parts: Any) -> str:
    return PREFIX + ":".join(str(p) for p in parts)


class Shared:
    """One worker's side of the cluster's Redis."""

    def __init__(self, url: str, worker: str, limits: Limits) -> None:
        self.url, self.worker, self.limits = url, worker, limits
        self.redis: aioredis.Redis = aioredis.from_url(url, socket_timeout=2.0, socket_connect_timeout=2.0)
        self.on_lobby: Callable[[], None] = lambda: None  # another worker's lobby changed
        self.on_wanted: Callable[[str], Awaitable[None]] | None = None  # a room is asked of this worker
        self._rooms: dict[str, bytes] = {}  # this worker's lobby entries as last sent
        self._dirty: set[str] = set()
        self._gone: set[str] = set()
        self._messages: Counter[str] = Counter()  # messages since the last sync, per p:/a: key
        self._blocked: dict[str, float] = {}  # key → end of the second it is over its share in
        self._tasks: list[asyncio.Task[None]] = []
        self._warned = 0.0
        self.live: list[str] = [worker]  # the workers alive at the last heartbeat

    async def start(self) -> None:
        await self.redis.ping()  # fail at start-up, not later, when Redis is misnamed
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._beat(), name="redis-heartbeat"),
            loop.create_task(self._sync_messages(), name="redis-messages"),
            loop.create_task(self._listen(), name="redis-listen"),
        ]

    async def close(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(BaseException):
                await t
        with contextlib.suppress(RedisError, OSError):
            pipe = self.redis.pipeline(transaction=False)
            pipe.delete(_key("worker", self.worker), _key("rooms", self.worker), _key("conns", self.worker))
            pipe.srem(_key("workers"), self.worker)
            pipe.publish(LOBBY, self.worker)
            await pipe.execute()
        await self.redis.aclose()

    def _trouble(self, what: str, e: BaseException) -> None:
        now = time.monotonic()
        if now - self._warned > 10:
            self._warned = now
            log.warning("Redis: %s failed (%s); going on with this worker's own state", what, e)

    # ------------------------------------------------------------------ liveness and the lobby
    def room_changed(self, room: str, info: dict[str, Any] | None) -> None:
        """The lobby entry of a room this worker plays (None: it plays it no more)."""
        if info is None:
            if self._rooms.pop(room, None) is not None:
                self._gone.add(room)
            self._dirty.discard(room)
            return
        data = orjson.dumps(info)
        if self._rooms.get(room) != data:
            self._rooms[room] = data
            self._dirty.add(room)
            self._gone.discard(room)

    async def flush_rooms(self, announce: bool = False) -> None:
        """Send the changed lobby entries (and say so when a room opened, moved or closed)."""
        dirty, gone = self._dirty, self._gone
        self._dirty, self._gone = set(), set()
        if not dirty and not gone and not announce:
            return
        key = _key("rooms", self.worker)
        pipe = self.redis.pipeline(transaction=False)
        if dirty:
            pipe.hset(key, mapping={r: self._rooms[r] for r in dirty if r in self._rooms})
            pipe.expire(key, ALIVE_FOR)
        if gone:
            pipe.hdel(key, *gone)
        if gone or announce:
            pipe.publish(LOBBY, self.worker)
        try:
            await pipe.execute()
        except (RedisError, OSError) as e:
            self._dirty |= dirty
            self._gone |= gone
            self._trouble("sending the lobby", e)

    async def _beat(self) -> None:
        while True:
            try:
                pipe = self.redis.pipeline(transaction=False)
                pipe.set(_key("worker", self.worker), orjson.dumps({"at": time.time()}), ex=ALIVE_FOR)
                pipe.sadd(_key("workers"), self.worker)
                pipe.expire(_key("rooms", self.worker), ALIVE_FOR)
                pipe.expire(_key("conns", self.worker), ALIVE_FOR)
                pipe.smembers(_key("workers"))
                got = await pipe.execute()
                seen = got[-1]
                if not got[2] and self._rooms:  # the entries are gone (Redis restarted): all of them again
                    await self.redis.hset(_key("rooms", self.worker), mapping=dict(self._rooms))  # type: ignore[arg-type]
                    await self.redis.expire(_key("rooms", self.worker), ALIVE_FOR)
                names = sorted(w.decode() for w in seen)
                alive = await self.redis.mget([_key("worker", w) for w in names]) if names else []
                self.live = [w for w, a in zip(names, alive) if a is not None] or [self.worker]
                dead = [w for w, a in zip(names, alive) if a is None]
                if dead:
                    await self.redis.srem(_key("workers"), *dead)
            except (RedisError, OSError) as e:
                self._trouble("the heartbeat", e)
            await asyncio.sleep(BEAT_EVERY)

    async def lobby(self) -> list[dict[str, Any]]:
        """Every room of every live worker, newest first (a room listed twice while it moves: once)."""
        pipe = self.redis.pipeline(transaction=False)
        for w in self.live:
            pipe.hgetall(_key("rooms", w))
        seen: dict[str, dict[str, Any]] = {}
        for entries in await pipe.execute():
            for data in entries.values():
                info = orjson.loads(data)
                seen.setdefault(info["id"], info)
        return sorted(seen.values(), key=lambda r: r.get("created", 0), reverse=True)

    async def room(self, room: str) -> dict[str, Any] | None:
        """One room's lobby entry from whichever worker plays it."""
        pipe = self.redis.pipeline(transaction=False)
        for w in self.live:
            pipe.hget(_key("rooms", w), room)
        for data in await pipe.execute():
            if data is not None:
                info: dict[str, Any] = orjson.loads(data)
                return info
        return None

    async def ask(self, owner: str, room: str) -> None:
        """Ask ``owner`` to give ``room`` up now (it would see the request at its next renewal)."""
        try:
            await self.redis.publish(_key("to", owner), room)
        except (RedisError, OSError) as e:
            self._trouble("asking for a room", e)

    async def _listen(self) -> None:
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(LOBBY, _key("to", self.worker))
                async for msg in pubsub.listen():
                    channel = msg["channel"].decode()
                    data = msg["data"].decode() if isinstance(msg["data"], bytes) else str(msg["data"])
                    if channel == LOBBY:
                        if data != self.worker:
                            self.on_lobby()
                    elif self.on_wanted is not None:
                        await self.on_wanted(data)
            except (RedisError, OSError) as e:
                self._trouble("listening", e)
                await asyncio.sleep(1.0)
            finally:
                with contextlib.suppress(BaseException):
                    await pubsub.aclose()

    # ------------------------------------------------------------------ connections and presence
    async def connect(self, player: int, address: str) -> str | None:
        """Count a table connection against the cluster's caps, or say why it is refused."""
        p, a = f"p:{player}", f"a:{address}"
        pipe = self.redis.pipeline(transaction=False)
        for w in self.live:
            pipe.hmget(_key("conns", w), [p, a])
        counts = await pipe.execute()
        players = sum(int(c[0] or 0) for c in counts)
        addresses = sum(int(c[1] or 0) for c in counts)
        lim = self.limits
        if players >= lim.conns_per_player:
            return f"too many connections: at most {lim.conns_per_player} tables or tabs open at once"
        if addresses >= lim.conns_per_address:
            return f"too many connections from your address (at most {lim.conns_per_address})"
        await self._count(player, address, 1)
        return None

    async def disconnect(self, player: int, address: str) -> None:
        try:
            await self._count(player, address, -1)
        except (RedisError, OSError) as e:
            self._trouble("counting a connection", e)

    async def _count(self, player: int, address: str, step: int) -> None:
        key = _key("conns", self.worker)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hincrby(key, f"p:{player}", step)
        pipe.hincrby(key, f"a:{address}", step)
        pipe.expire(key, ALIVE_FOR)
        left = await pipe.execute()
        empty = [f for f, n in ((f"p:{player}", left[0]), (f"a:{address}", left[1])) if n <= 0]
        if empty:
            await self.redis.hdel(key, *empty)

    async def online(self) -> set[int]:
        """Players with a table connection open on any live worker."""
        pipe = self.redis.pipeline(transaction=False)
        for w in self.live:
            pipe.hgetall(_key("conns", w))
        out: set[int] = set()
        for fields in await pipe.execute():
            out |= {int(f[2:]) for f, n in fields.items() if f.startswith(b"p:") and int(n) > 0}
        return out

    # ------------------------------------------------------------------ rates
    async def within(self, kind: str, key: Any, per_minute: float) -> bool:
        """One more ``kind`` (rooms, replays) for ``key`` this minute, across the cluster?"""
        window = int(time.time() // 60)
        name = _key("rate", kind, key, window)
        pipe = self.redis.pipeline(transaction=False)
        pipe.incr(name)
        pipe.expire(name, 120)
        count = (await pipe.execute())[0]
        return bool(count <= max(1, math.floor(per_minute)))

    def message(self, player: int, address: str) -> bool:
        """Count one table message; False when the player or address is over its share of
        this second in the cluster (learnt at the last sync)."""
        now = time.time()
        p, a = f"p:{player}", f"a:{address}"
        self._messages[p] += 1
        self._messages[a] += 1
        if self._blocked:
            return not (self._blocked.get(p, 0) > now or self._blocked.get(a, 0) > now)
        return True

    async def _sync_messages(self) -> None:
        window, active = 0, set[str]()  # the second being counted, the keys that sent in it
        while True:
            await asyncio.sleep(SYNC_EVERY)
            counts, self._messages = self._messages, Counter()
            now = time.time()
            self._blocked = {k: t for k, t in self._blocked.items() if t > now}
            second = int(now)
            if second != window:
                window, active = second, set()
            active |= set(counts)
            for k in active - set(counts):  # what the other workers added since: read again (+0)
                counts[k] += 0
            if not counts:
                continue
            try:
                totals = await self._add(counts.items(), second)
            except (RedisError, OSError) as e:
                self._trouble("counting messages", e)
                continue
            lim = self.limits
            for (k, _), total in zip(counts.items(), totals):
                allowed = 2 * (lim.rate if k.startswith("p:") else lim.address_rate)  # a second's burst
                if total > allowed:
                    self._blocked[k] = second + 1

    async def _add(self, counts: Iterable[tuple[str, int]], second: int) -> list[int]:
        pipe = self.redis.pipeline(transaction=False)
        items = list(counts)
        for k, n in items:
            pipe.incrby(_key("msgs", k, second), n)
        for k, _ in items:
            pipe.expire(_key("msgs", k, second), 3)
        got = await pipe.execute()
        return [int(x) for x in got[: len(items)]]
