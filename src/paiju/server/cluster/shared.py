"""What the workers of a cluster share through Redis: the lobby, presence and fair shares.

Each worker keeps, under keys that expire a few seconds after it stops refreshing them:

- ``paiju:worker:{id}`` — it is alive (the set ``paiju:workers`` names every worker seen);
- ``paiju:room:{room}`` — the lobby entry of every room it plays, and the room's place in
  the indexes ``paiju:lobby:all`` and ``paiju:lobby:{game}`` (sorted sets, newest first):
  the lobby through any worker lists every room, a page read costs one page, and a dead
  worker's rooms drop out of it until their new owner lists them;
- ``paiju:conns:{id}`` — its open table connections per player (``p:ID``) and per address
  (``a:ADDRESS``): the connection caps count every worker's, and the players with one are
  the ones online (presence).

Rate limits across workers: rooms and replays per minute are counters per minute window
(``INCR``); table messages, far more frequent, are counted locally, and a player or address
over its even share of a second on one worker is added to a per-second counter in Redis
every ``SYNC_EVERY`` seconds, being refused for the rest of that second when the cluster's
count is over its limit (``_sync_messages``).

Pub/sub (channels are the whole Redis server's, so they are named after the database number
N): ``paiju:lobby:dbN`` says the lobby changed (a room opened, closed or changed hands),
``paiju:to:dbN:{id}`` asks worker ``id`` to give a room up (lease.py's ``wanted_by``, without
waiting for its next renewal).

When Redis does not answer the hall goes on with what it has (a warning is logged); nothing
of the game's state is in Redis. A request never waits long for it: what requests ask (a lobby
page, a room's entry, presence, the connection caps, the per-minute rates) goes through a pool
of its own with a short budget (``QUICK``), and after one of them failed the others leave Redis
alone for ``PAUSE`` seconds, then one request tries again (``_quick``). Meanwhile the lobby is
this worker's own rooms and the other workers' as last read (marked stale), presence the last
known figures, the caps and rates this worker's own counts; once Redis answers again this
worker's connection counts are written anew from its own (``_resync``). The loops (heartbeat,
lobby entries, messages, pub/sub) keep the longer timeouts of the main pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol, TypeVar

import orjson
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from paiju.server import metrics

log = logging.getLogger("paiju.shared")

PREFIX = "paiju:"
ALIVE_FOR = 5  # seconds a worker's keys outlive its last heartbeat
BEAT_EVERY = 1.0  # seconds between heartbeats
SYNC_EVERY = 0.2  # seconds between two syncs of the message counts
REDIS_CONNECTIONS = 32  # per worker, for requests (the loops have a few more of their own)
LOOP_CONNECTIONS = 8
QUICK = 0.1  # seconds a request waits for Redis at most
PAUSE = 1.0  # seconds requests leave Redis alone after it failed one of them
PRIVATE = "private"  # the index of private rooms (``lobby_page(…, game=PRIVATE)``: administrators only)
SEEN_MAX = 5000  # lobby entries kept as last read, per index (the lobby shown while Redis fails)

T = TypeVar("T")


class RedisUnavailable(RedisError):
    """Redis did not answer a request in time, or was not asked (it failed a moment ago)."""


class FairShares(Protocol):
    """The figures of the hall's limits (``tables/throttle.py``'s ``Limits``) summed over workers."""

    @property
    def rate(self) -> float: ...  # table messages per second per player

    @property
    def address_rate(self) -> float: ...  # and per address

    @property
    def conns_per_player(self) -> int: ...  # simultaneous table connections

    @property
    def conns_per_address(self) -> int: ...


def _key(*parts: Any) -> str:
    return PREFIX + ":".join(str(p) for p in parts)


class Shared:
    """One worker's side of the cluster's Redis."""

    def __init__(self, url: str, worker: str, limits: FairShares) -> None:
        self.url, self.worker, self.limits = url, worker, limits
        # the loops' pool: patient (a heartbeat may wait)
        self._pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=LOOP_CONNECTIONS, timeout=5.0, socket_timeout=2.0, socket_connect_timeout=2.0
        )
        self.redis: aioredis.Redis = aioredis.Redis(connection_pool=self._pool)
        # the requests' pool: bounded (a thousand players connecting at once must not open a
        # thousand connections) and short; a command that times out or is cancelled closes
        # its connection (redis-py disconnects on any error or cancellation mid-command), so
        # an answer that comes late is never read as the next command's
        self._quick_pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=REDIS_CONNECTIONS, timeout=QUICK, socket_timeout=QUICK, socket_connect_timeout=QUICK
        )
        self.quick: aioredis.Redis = aioredis.Redis(connection_pool=self._quick_pool)
        self._paused_until = 0.0  # monotonic time requests may ask Redis again (0: it answers)
        self._probing = False  # one request is trying Redis again after a pause
        # channels are the whole server's, whatever the database: named after it, so that two
        # clusters on one Redis (two database numbers) do not hear each other
        db = self._pool.connection_kwargs.get("db", 0)
        self.lobby_channel = _key("lobby", f"db{db}")
        self._to = _key("to", f"db{db}")  # + ":" + a worker: asks that worker for a room
        self.own_channel = f"{self._to}:{worker}"
        self.bus_channel = _key("bus", f"db{db}")  # what every worker hears: sessions ended, rooms asked
        self.on_bus: Callable[[dict[str, Any]], Awaitable[None]] | None = None
        self.on_lobby: Callable[[], None] = lambda: None  # another worker's lobby changed
        self.on_wanted: Callable[[str], Awaitable[None]] | None = None  # a room is asked of this worker
        self.players_here: Callable[[], int] = lambda: 0  # players with a table open on this worker
        # this worker's open table connections per p:/a: key (what its conns hash should hold)
        self.conns_here: Callable[[], dict[str, int]] = dict
        self._rooms: dict[str, bytes] = {}  # this worker's lobby entries as last sent
        self._games: dict[str, str] = {}  # room → its game (the lobby has an index per game)
        self._created: dict[str, float] = {}  # room → when it was made (the lobby's order)
        self._private: set[str] = set()  # rooms in no lobby index (private rooms: by link or code)
        self._dirty: set[str] = set()
        self._gone: dict[str, str] = {}  # rooms no longer played here → their game
        self._second = 0  # the second the message counts are of
        self._local: Counter[str] = Counter()  # this worker's messages in it, per p:/a: key
        self._sent: Counter[str] = Counter()  # of those, how many were added to Redis's count
        self._blocked: dict[str, float] = {}  # key → end of the second it is over its share in
        self._tasks: list[asyncio.Task[None]] = []
        self._warned = 0.0
        self.live: list[str] = [worker]  # the workers alive at the last heartbeat
        self._resync = False  # this worker's connection counts in Redis may be wrong: write them anew
        self._counting = 0  # connection counts being sent
        self._counted = 0  # connection counts sent or skipped, ever
        self._others_online = 0  # players online on the other workers, as last read
        self._online_of: dict[int, bool] = {}  # is_online's last answers
        self._seen: dict[str, dict[str, dict[str, Any]]] = {}  # lobby index → room → entry as last read
        self._seen_total: dict[str, int] = {}

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
            pipe.delete(_key("worker", self.worker), _key("conns", self.worker))
            pipe.srem(_key("workers"), self.worker)
            pipe.publish(self.lobby_channel, self.worker)
            await pipe.execute()
        await self.redis.aclose()
        await self._pool.disconnect()
        await self.quick.aclose()
        await self._quick_pool.disconnect()

    def trouble(self, what: str, e: BaseException) -> None:
        metrics.REDIS_ERRORS.inc()
        self._resync = True  # a count may have been lost or added twice meanwhile
        now = time.monotonic()
        if now - self._warned > 10:
            self._warned = now
            why = str(e) or type(e).__name__
            log.warning("Redis: %s failed (%s); going on with this worker's own state", what, why)

    async def _quick(self, what: str, call: Callable[[], Awaitable[T]]) -> T:
        """``call()`` on behalf of a request: at most ``QUICK`` seconds, and not at all for
        ``PAUSE`` seconds after Redis failed a request (then one request tries again while the
        others go on without it). RedisUnavailable when it did not answer."""
        if self._probing or time.monotonic() < self._paused_until:
            raise RedisUnavailable(f"{what}: Redis failed a moment ago")
        probe = self._paused_until > 0
        self._probing = probe
        try:
            got = await asyncio.wait_for(call(), QUICK)
        except (TimeoutError, RedisError, OSError) as e:
            self._paused_until = time.monotonic() + PAUSE
            self.trouble(what, e)
            raise RedisUnavailable(f"{what}: {str(e) or type(e).__name__}") from e
        finally:
            if probe:
                self._probing = False
        self._paused_until = 0.0
        return got

    # ------------------------------------------------------------------ liveness and the lobby
    def room_changed(self, room: str, info: dict[str, Any] | None) -> None:
        """The lobby entry of a room this worker plays (None: it plays it no more)."""
        if info is None:
            if self._rooms.pop(room, None) is not None:
                self._gone[room] = self._games.pop(room, "")
            self._private.discard(room)
            self._dirty.discard(room)
            return
        data = orjson.dumps(info)
        if self._rooms.get(room) != data:
            self._rooms[room] = data
            self._games[room] = info["game"]
            self._created[room] = float(info.get("created", 0.0))
            if info.get("private"):
                self._private.add(room)
            else:  # made listed by its creator
                self._private.discard(room)
            self._dirty.add(room)
            self._gone.pop(room, None)

    def _index(self, pipe: Any, rooms: Iterable[str]) -> None:
        """Room entries and their places in the lobby's indexes (newest first by score)."""
        for r in rooms:
            pipe.set(_key("room", r), self._rooms[r], ex=ALIVE_FOR)
            listed = ("all", self._games[r])
            # a private room is in no lobby page: in an index of its own (administrators list it)
            shown, hidden = ((PRIVATE,), listed) if r in self._private else (listed, (PRIVATE,))
            for index in shown:
                pipe.zadd(_key("lobby", index), {r: self._created[r]})
            for index in hidden:
                pipe.zrem(_key("lobby", index), r)

    async def flush_rooms(self, announce: bool = False) -> None:
        """Send the changed lobby entries (and say so when a room opened, moved or closed)."""
        dirty, gone = self._dirty, self._gone
        self._dirty, self._gone = set(), {}
        if not dirty and not gone and not announce:
            return
        pipe = self.redis.pipeline(transaction=False)
        self._index(pipe, [r for r in dirty if r in self._rooms])
        for r, game in gone.items():
            pipe.delete(_key("room", r))
            pipe.zrem(_key("lobby", "all"), r)
            pipe.zrem(_key("lobby", PRIVATE), r)
            if game:
                pipe.zrem(_key("lobby", game), r)
        pipe.publish(self.lobby_channel, self.worker)  # the other workers' cached pages are stale
        try:
            await pipe.execute()
        except (RedisError, OSError) as e:
            self._dirty |= dirty
            self._gone.update(gone)
            self.trouble("sending the lobby", e)

    async def _resync_conns(self) -> None:
        """This worker's connection counts in Redis, written anew from its own (after Redis
        failed: a connection counted while it did not answer was not, or twice)."""
        if not self._resync or self._counting:
            return  # a count on its way: the local counts and Redis's are not comparable yet
        self._resync, before = False, self._counted
        key = _key("conns", self.worker)
        pipe = self.redis.pipeline(transaction=True)
        pipe.delete(key)
        counts = self.conns_here()
        if counts:
            pipe.hset(key, mapping=counts)  # type: ignore[arg-type]
            pipe.expire(key, ALIVE_FOR)
        try:
            await pipe.execute()
        except BaseException:
            self._resync = True
            raise
        if self._counted != before:  # one counted meanwhile may have reached Redis first
            self._resync = True

    async def _beat(self) -> None:
        while True:
            try:
                await self._resync_conns()
                pipe = self.redis.pipeline(transaction=False)
                beat = {"at": time.time(), "players": self.players_here()}
                pipe.set(_key("worker", self.worker), orjson.dumps(beat), ex=ALIVE_FOR)
                pipe.sadd(_key("workers"), self.worker)
                pipe.expire(_key("conns", self.worker), ALIVE_FOR)
                pipe.smembers(_key("workers"))
                rooms = list(self._rooms)
                for r in rooms:  # each room's entry lives while its worker does
                    pipe.expire(_key("room", r), ALIVE_FOR)
                got = await pipe.execute()
                seen = got[3]
                lost = [r for r, kept in zip(rooms, got[4:]) if not kept and r in self._rooms]
                if lost:  # gone meanwhile (Redis restarted, or the worker was paused): all of them again
                    pipe = self.redis.pipeline(transaction=False)
                    self._index(pipe, lost)
                    await pipe.execute()
                names = sorted(w.decode() for w in seen)
                alive = await self.redis.mget([_key("worker", w) for w in names]) if names else []
                self.live = [w for w, a in zip(names, alive) if a is not None] or [self.worker]
                dead = [w for w, a in zip(names, alive) if a is None]
                if dead:
                    await self.redis.srem(_key("workers"), *dead)
            except (RedisError, OSError) as e:
                self.trouble("the heartbeat", e)
            await asyncio.sleep(BEAT_EVERY)

    async def lobby_page(self, offset: int, limit: int, game: str | None = None) -> tuple[list[dict[str, Any]], int]:
        """One page of the cluster's open rooms, newest first, and how many there are: the page's
        entries alone are read (a lobby of tens of thousands of rooms costs what a page costs).
        Rooms whose worker is gone (their entry expired) leave the index as they are met.
        RedisUnavailable when Redis does not answer in time (``lobby_copy`` has the last read)."""
        index = game or "all"
        rooms, total, ended = await self._quick("reading the lobby", lambda: self._read_page(offset, limit, game))
        self._keep(index, offset, rooms, total, ended)
        return rooms, total

    async def _read_page(self, offset: int, limit: int, game: str | None) -> tuple[list[dict[str, Any]], int, bool]:
        index = _key("lobby", game or "all")
        pipe = self.quick.pipeline(transaction=False)
        pipe.zrevrange(index, offset, offset + limit - 1)
        pipe.zcard(index)
        ids, total = await pipe.execute()
        if not ids:
            return [], int(total), True
        datas = await self.quick.mget([_key("room", r.decode()) for r in ids])
        stale = [r for r, d in zip(ids, datas) if d is None]
        if stale:
            pipe = self.quick.pipeline(transaction=False)
            pipe.zrem(_key("lobby", "all"), *stale)
            if game:
                pipe.zrem(index, *stale)
            await pipe.execute()
        rooms = [orjson.loads(d) for d in datas if d is not None]
        return rooms, int(total) - len(stale), len(ids) < limit

    def _keep(self, index: str, offset: int, rooms: list[dict[str, Any]], total: int, ended: bool) -> None:
        """A page just read, kept for ``lobby_copy``: its entries, and the entries kept before
        whose place is within the page but are not on it any more (closed, or gone) dropped."""
        seen = self._seen.setdefault(index, {})
        top = math.inf if offset == 0 else (float(rooms[0].get("created", 0)) if rooms else -math.inf)
        bottom = -math.inf if ended else (float(rooms[-1].get("created", 0)) if rooms else math.inf)
        ids = {r["id"] for r in rooms}
        for rid in [rid for rid, r in seen.items() if rid not in ids and bottom < float(r.get("created", 0)) < top]:
            del seen[rid]
        seen.update((r["id"], r) for r in rooms)
        if len(seen) > SEEN_MAX:  # the newest kept
            kept = sorted(seen.values(), key=lambda r: float(r.get("created", 0)), reverse=True)[:SEEN_MAX]
            self._seen[index] = {r["id"]: r for r in kept}
        self._seen_total[index] = total

    def lobby_copy(
        self, offset: int, limit: int, game: str | None, own: Iterable[dict[str, Any]]
    ) -> tuple[list[dict[str, Any]], int]:
        """The lobby while Redis does not answer: this worker's own rooms (``own``, entries with
        their ``created``) and the others as last read, newest first."""
        index = game or "all"
        rooms = dict(self._seen.get(index, {}))
        rooms.update((r["id"], r) for r in own if game is None or r.get("game") == game)
        listed = sorted(rooms.values(), key=lambda r: float(r.get("created", 0)), reverse=True)
        return listed[offset : offset + limit], max(len(listed), self._seen_total.get(index, 0))

    async def room(self, room: str) -> dict[str, Any] | None:
        """One room's lobby entry, from whichever worker plays it (while Redis does not answer:
        as last read in a lobby page, with ``"stale": true``, or RedisUnavailable)."""
        try:
            data = await self._quick("reading a room", lambda: self.quick.get(_key("room", room)))
        except RedisUnavailable:
            for seen in self._seen.values():
                if room in seen:
                    return {**seen[room], "stale": True}
            raise
        if data is None:
            return None
        info: dict[str, Any] = orjson.loads(data)
        return info

    async def ask(self, owner: str, room: str) -> None:
        """Ask ``owner`` to give ``room`` up now (it would see the request at its next renewal)."""
        try:
            await self._quick("asking for a room", lambda: self.quick.publish(f"{self._to}:{owner}", room))
        except (RedisError, OSError) as e:
            self.trouble("asking for a room", e)

    async def _listen(self) -> None:
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.lobby_channel, self.own_channel, self.bus_channel)
                async for msg in pubsub.listen():
                    channel = msg["channel"].decode()
                    data = msg["data"].decode() if isinstance(msg["data"], bytes) else str(msg["data"])
                    if channel == self.lobby_channel:
                        if data != self.worker:
                            self.on_lobby()
                    elif channel == self.bus_channel:
                        await self._heard(data)
                    elif self.on_wanted is not None:
                        await self.on_wanted(data)
            except (RedisError, OSError) as e:
                self.trouble("listening", e)
                await asyncio.sleep(1.0)
            finally:
                with contextlib.suppress(BaseException):
                    await pubsub.aclose()

    # ------------------------------------------------------------------ the bus: every worker hears
    async def publish(self, msg: dict[str, Any]) -> bool:
        """Tell every worker (this one too) ``msg``; False when Redis did not take it (the
        receivers' own checks catch up: revocation.py looks at the store every few seconds)."""
        try:
            await self._quick("telling the workers", lambda: self.quick.publish(self.bus_channel, orjson.dumps(msg)))
        except (RedisError, OSError) as e:
            self.trouble("telling the workers", e)
            return False
        return True

    async def _heard(self, data: str) -> None:
        try:
            msg = orjson.loads(data)
        except orjson.JSONDecodeError:
            return
        if isinstance(msg, dict) and self.on_bus is not None:
            try:
                await self.on_bus(msg)
            except Exception:  # one message must not stop the listening
                log.exception("a message of the bus could not be handled: %.200s", data)

    async def request(self, msg: dict[str, Any], wait: float = 3.0) -> dict[str, Any] | None:
        """Publish ``msg`` with a key to answer on, and wait up to ``wait`` seconds for the
        answer of the worker it concerns (None: nobody answered)."""
        key = _key("reply", secrets.token_hex(8))
        if not await self.publish({**msg, "reply": key}):
            return None
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            await asyncio.sleep(0.05)
            try:
                got = await self._quick("reading an answer", lambda: self.quick.lpop(key))
            except (RedisError, OSError):
                continue
            if isinstance(got, bytes | str):
                answer: dict[str, Any] = orjson.loads(got)
                return answer
        return None

    async def request_all(self, msg: dict[str, Any], wait: float = 1.0) -> list[dict[str, Any]] | None:
        """Publish ``msg`` and gather the answers of every live worker (this one too) for up
        to ``wait`` seconds: those that came (None: Redis did not take it)."""
        key = _key("reply", secrets.token_hex(8))
        expected = len(self.live)
        if not await self.publish({**msg, "reply": key}):
            return None
        got: list[dict[str, Any]] = []
        deadline = time.monotonic() + wait
        while len(got) < expected and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
            left = expected - len(got)
            try:
                items = await self._quick("reading answers", lambda n=left: self.quick.lpop(key, n))  # type: ignore[misc]
            except (RedisError, OSError):
                continue
            got += [orjson.loads(i) for i in items or [] if isinstance(i, bytes | str)]
        return got

    async def answer(self, key: str, result: dict[str, Any]) -> None:
        """Answer a :meth:`request` (kept 30 s for it to read)."""
        pipe = self.quick.pipeline(transaction=False)
        pipe.rpush(key, orjson.dumps(result))
        pipe.expire(key, 30)
        try:
            await self._quick("answering", pipe.execute)
        except (RedisError, OSError) as e:
            self.trouble("answering", e)

    # ------------------------------------------------------------------ connections and presence
    async def connect(self, player: int, address: str) -> str | None:
        """Count a table connection against the cluster's caps, or say why it is refused
        (RedisUnavailable: this worker's own count decides)."""
        return await self._counting_call("counting a connection", lambda: self._connect(player, address))

    async def _connect(self, player: int, address: str) -> str | None:
        p, a = f"p:{player}", f"a:{address}"
        pipe = self.quick.pipeline(transaction=False)
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
        # on Redis trouble, counted anew from this worker's own counts once it answers (_resync_conns)
        with contextlib.suppress(RedisError):
            await self._counting_call("counting a connection", lambda: self._count(player, address, -1))

    async def _counting_call(self, what: str, call: Callable[[], Awaitable[T]]) -> T:
        self._counting += 1
        self._counted += 1
        try:
            return await self._quick(what, call)
        except RedisError:
            self._resync = True
            raise
        finally:
            self._counting -= 1

    async def _count(self, player: int, address: str, step: int) -> None:
        key = _key("conns", self.worker)
        pipe = self.quick.pipeline(transaction=False)
        pipe.hincrby(key, f"p:{player}", step)
        pipe.hincrby(key, f"a:{address}", step)
        pipe.expire(key, ALIVE_FOR)
        left = await pipe.execute()
        empty = [f for f, n in ((f"p:{player}", left[0]), (f"a:{address}", left[1])) if n <= 0]
        if empty:
            await self.quick.hdel(key, *empty)

    async def online(self) -> tuple[int, bool]:
        """Players with a table open, the live workers' counts added up (as of their last
        heartbeat; a player at tables on two workers counts on both): one read per worker.
        And whether the figure is stale: while Redis does not answer, the other workers' as
        last read and this worker's own now."""
        live = list(self.live)
        try:
            beats = await self._quick("reading presence", lambda: self.quick.mget([_key("worker", w) for w in live]))
        except RedisUnavailable:
            return self._others_online + self.players_here(), True
        counts = {w: int(orjson.loads(b).get("players", 0)) for w, b in zip(live, beats) if b is not None}
        total = sum(counts.values())
        self._others_online = total - counts.get(self.worker, 0)
        return total, False

    async def is_online(self, player: int) -> bool:
        """Has ``player`` a table open on any live worker? (While Redis does not answer: the
        last answer, or RedisUnavailable.)"""
        live = list(self.live)

        async def ask() -> list[Any]:
            pipe = self.quick.pipeline(transaction=False)
            for w in live:
                pipe.hget(_key("conns", w), f"p:{player}")
            return list(await pipe.execute())

        try:
            counts = await self._quick("reading presence", ask)
        except RedisUnavailable:
            if player in self._online_of:
                return self._online_of[player]
            raise
        if len(self._online_of) > 10_000:
            self._online_of.clear()
        self._online_of[player] = any(int(n or 0) > 0 for n in counts)
        return self._online_of[player]

    # ------------------------------------------------------------------ rates
    async def within(self, kind: str, key: Any, per_minute: float) -> bool:
        """One more ``kind`` (rooms, replays) for ``key`` this minute, across the cluster?
        (RedisUnavailable: the hall's own counts decide, throttle.py.)"""
        window = int(time.time() // 60)
        name = _key("rate", kind, key, window)

        async def count() -> int:
            pipe = self.quick.pipeline(transaction=False)
            pipe.incr(name)
            pipe.expire(name, 120)
            return int((await pipe.execute())[0])

        return await self._quick(f"counting {kind}", count) <= max(1, math.floor(per_minute))

    def message(self, player: int, address: str) -> bool:
        """Count one table message; False when the player or address is over its share of
        this second in the cluster (learnt at the last sync)."""
        now = time.time()
        second = int(now)
        if second != self._second:
            self._second, self._local, self._sent = second, Counter(), Counter()
        p, a = f"p:{player}", f"a:{address}"
        self._local[p] += 1
        self._local[a] += 1
        if self._blocked:
            return not (self._blocked.get(p, 0) > now or self._blocked.get(a, 0) > now)
        return True

    def _allowed(self, key: str) -> float:
        """Messages a player (``p:``) or an address (``a:``) may send in one second: a burst."""
        return 2 * (self.limits.rate if key.startswith("p:") else self.limits.address_rate)

    async def _sync_messages(self) -> None:
        """Only a key over its even share of this second on this worker (its limit divided by
        the live workers) is counted in Redis: while every worker's count is under its share,
        the cluster's is under the limit; a key over it is summed over the workers that see
        it so. Normal play costs Redis nothing; a flood is held to at most about twice the
        limit across any number of workers (once over the share where it is counted)."""
        while True:
            await asyncio.sleep(SYNC_EVERY)
            now = time.time()
            self._blocked = {k: t for k, t in self._blocked.items() if t > now}
            second = self._second
            if int(now) != second:
                continue  # nothing counted in this second yet
            share = 1.0 / max(1, len(self.live))
            hot = {
                k: n - self._sent[k] for k, n in self._local.items() if n > self._allowed(k) * share or k in self._sent
            }
            if not hot:
                continue
            try:
                totals = await self._add(hot.items(), second)
            except (RedisError, OSError) as e:
                self.trouble("counting messages", e)
                continue
            for (k, added), total in zip(hot.items(), totals):
                self._sent[k] += added
                if total > self._allowed(k):
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
