"""One worker of a cluster: the rooms it plays, claimed, renewed, given up and taken over.

``paiju serve --db postgresql://… --redis redis://… --worker-id ID`` runs a worker. A
front proxy (deploy/haproxy.cfg) sends each room's requests to one worker by a consistent
hash of the room's id; that worker plays the room once it holds the room's lease
(lease.py). How a room finds its worker:

- **new room**: made by whichever worker the request reached, which holds it at once;
- **a player connects** where the proxy sent them: the worker claims the room if nobody holds
  it (its owner died or gave it up), or asks the holder to give it up (``wanted_by`` and a
  Redis message) and claims it as soon as it is released — at most ``handoff_wait`` seconds;
- **nobody connects** (computer players alone, a waiting room): a worker claims rooms whose
  lease ended ``orphan_after`` seconds ago, after the proxy's worker had its chance.

A worker renews all its leases every ``renew_every`` seconds. One that cannot renew in time
— paused, cut off from the database, or too slow — stops writing for its rooms at once
(``holding`` turns false, every fenced write is refused) and drops them: their players
reconnect through the proxy to the new owner, which replays each hand from the store. The
database's token check (writer.py) makes this safe even when the worker learns it late.
Bots and timers run only where the table runs: on the owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from paiju.server import metrics
from paiju.server.cluster import lease as leases
from paiju.server.cluster.lease import Lease
from paiju.server.cluster.shared import Shared
from paiju.server.tables.host import TableHost
from paiju.server.tables.table import Table
from paiju.server.tables.throttle import Throttle

log = logging.getLogger("paiju.cluster")
PUBLISH_EVERY = 1.0  # seconds between two sendings of the changed lobby entries
MOVED = (1012, "the room moved to another server: reconnecting")  # 1012: service restart, try again


class RoomBusy(Exception):
    """The room cannot be played here right now; the player's client tries again. ``code``
    says why (a reason code, reasons.py): ``room_moving`` — its holder did not give it up
    in time; ``worker_busy`` — this worker is stopping."""

    def __init__(self, room: str, code: str = "room_moving") -> None:
        super().__init__(room)
        self.room, self.code = room, code


@dataclass(frozen=True)
class ClusterSettings:
    """A worker's place in a cluster (``paiju serve --redis … --worker-id …``)."""

    worker: str
    redis: str
    lease_ttl: float = 3.0  # seconds a lease lasts unless renewed
    renew_every: float = 0.5  # seconds between renewals (several per lease: one late renewal costs nothing)
    orphan_after: float = 1.0  # seconds an ended lease waits for the proxy's worker before any worker claims it
    handoff_wait: float = 3.0  # seconds a player's connection waits for the room's holder to give it up
    claims_per_sweep: int = 64  # rooms one sweep claims (the others' sweeps share the rest)


class RoomsHost(TableHost, Protocol):
    """What a worker's rooms need of the hall (hall.py's ``Hall``): its tables by room, and
    what a table needs, since the worker opens the tables it claims."""

    tables: dict[str, Table]
    throttle: Throttle


class Cluster:
    """The leases this worker holds and its link to the others (Redis)."""

    def __init__(self, hall: RoomsHost, settings: ClusterSettings) -> None:
        self.hall = hall
        self.settings = settings
        self.worker = settings.worker
        self.leases: dict[str, Lease] = {}
        self.valid_until = 0.0  # monotonic time the leases are surely still ours until
        self.shared = Shared(settings.redis, settings.worker, hall.limits)
        self.dropped = 0  # rooms dropped because their lease was lost (tests, logs)
        self.leaving = False  # stopping: no room is claimed any more
        self._claims: dict[str, asyncio.Future[Table | None]] = {}
        # rooms the database records as this worker's that it does not play (their tables were
        # dropped — a release that failed, an outage longer than the lease): room → token,
        # as found by the last renewal, and since when some are (``stuck_since``, for /healthz)
        self.unplayed: dict[str, int] = {}
        self.unplayed_since: float | None = None
        self._unreleased: dict[str, Lease] = {}  # dropped rooms whose release failed: retried
        self.renewed_at = 0.0  # monotonic time of the last renewal the database answered
        self._touched: set[str] = set()
        # lobby pages read from Redis, kept ``lobby_refresh`` seconds or until a worker says the lobby changed
        self._pages: dict[tuple[int, int, str | None], tuple[float, list[dict[str, Any]], int]] = {}
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        await self.shared.start()
        self.shared.on_wanted = self._wanted
        self.shared.players_here = lambda: len(self.hall.throttle.conns_of_player)
        self.shared.conns_here = self._conns_here
        self.shared.on_lobby = self._pages.clear
        started = time.monotonic()
        await self._tx(leases.renew_tx, self.worker, self.settings.lease_ttl)  # the lease rooms made here rest on
        self.valid_until = started + self.settings.lease_ttl - self.settings.renew_every
        loop = asyncio.get_running_loop()
        for fn in (self._renew, self._sweep, self._publish):
            self._tasks.append(loop.create_task(fn(), name=f"cluster-{fn.__name__.strip('_')}"))

    async def leave(self) -> None:
        """The worker is stopping: claim nothing more, stop every table, and give every room up
        at once (the others claim them without waiting for the lease to end)."""
        self.leaving = True
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(BaseException):
                await t
        self._tasks = []
        for table in list(self.hall.tables.values()):
            await self._forget(table)
        with contextlib.suppress(Exception):
            await self.shared.flush_rooms()  # out of the lobby now, not when the entries expire
        try:
            n = await self._tx(leases.release_all_tx, self.worker)
            log.info("worker %s gave up %d room(s)", self.worker, n)
        except Exception as e:
            log.warning(
                "worker %s could not give its rooms up (they are claimed when the leases end): %s", self.worker, e
            )

    async def close(self) -> None:
        if not self.leaving:
            await self.leave()
        await self.shared.close()

    async def _tx(self, fn: Callable[..., Any], *args: Any) -> Any:
        def run() -> Any:
            with self.hall.store.engine.begin() as c:
                return fn(c, *args)

        return await asyncio.to_thread(run)

    async def within(self, kind: str, key: object, per_minute: float) -> bool:
        """A per-minute limit counted across the cluster (this worker's own count alone when Redis fails)."""
        try:
            return await self.shared.within(kind, key, per_minute)
        except Exception as e:
            self.shared.trouble(f"counting {kind}", e)
            return True

    # ------------------------------------------------------------------ fencing
    def holding(self) -> bool:
        """Are this worker's leases surely still its own (renewed less than a lease ago)?"""
        return time.monotonic() < self.valid_until

    def fence(self, room: str) -> tuple[str, int] | None:
        lease = self.leases.get(room)
        return None if lease is None else (room, lease.token)

    # ------------------------------------------------------------------ owning rooms
    def created(self, table: Table, token: int) -> None:
        """A room this worker made (its lease came with the room's row)."""
        self.leases[table.id] = Lease(table.id, token)
        self.touched(table)

    async def acquire(self, room: str, orphan: bool = False) -> Table | None:
        """The table of ``room``, claimed for this worker if need be (None: no such open room;
        RoomBusy: its holder did not give it up in time — the player's client tries again).
        ``orphan``: only if nobody has played it for ``orphan_after`` seconds (the sweep).
        One claim of a room at a time: a player's and the sweep's never open it twice."""
        table = self.hall.tables.get(room)
        if table is not None:
            return table
        if self.leaving:
            raise RoomBusy(room, "worker_busy")
        pending = self._claims.get(room)
        if pending is None:
            pending = self._claims[room] = asyncio.get_running_loop().create_future()
            try:
                pending.set_result(await (self._claim_orphan(room) if orphan else self._claim(room)))
            except Exception as e:
                pending.set_exception(e)
            finally:
                self._claims.pop(room, None)
        return await asyncio.shield(pending)

    async def _claim(self, room: str, wait: bool = True) -> Table | None:
        if len(room) > 16 or (await self._tx(leases.owner_tx, room)) is None:
            return None
        deadline = time.monotonic() + (self.settings.handoff_wait if wait else 0.0)
        asked = False
        while True:
            got: Lease | None = await self._tx(leases.claim_tx, room, self.worker)
            if got is not None:
                return await self._open(got)
            if not asked:
                owner = await self._tx(leases.want_tx, room, self.worker)
                if owner is not None:
                    await self.shared.ask(owner, room)
                asked = True
            if time.monotonic() >= deadline:
                raise RoomBusy(room)
            await asyncio.sleep(0.05)

    async def _open(self, got: Lease) -> Table | None:
        """Start the table of a room just claimed, replayed from the store."""
        store = self.hall.store
        row = await asyncio.to_thread(store.room, got.room)
        if row is None or row["status"] in leases.CLOSED:
            await self._tx(leases.release_tx, got)
            return None
        ids = [s["player"] for s in row["seats"] if s["player"] is not None]
        for pid, name in (await asyncio.to_thread(store.players_by_id, ids)).items():
            self.hall.remember(pid, name)
        table = Table(self.hall, row)
        self.leases[got.room] = got  # before loading: a hand's end found unfinished is written at once
        try:
            await asyncio.to_thread(table.load)
        except Exception:
            self.leases.pop(got.room, None)
            log.exception("room %s could not be loaded; given up", got.room)
            with contextlib.suppress(Exception):
                await self._tx(leases.release_tx, got)
            return None
        self.hall.tables[table.id] = table
        table.start()
        self.touched(table)
        metrics.HANDOFFS.labels("claimed").inc()
        log.info("worker %s plays room %s (token %d)", self.worker, got.room, got.token, extra={"room": got.room})
        return table

    async def release(self, table: Table) -> None:
        """Give a room up to the worker that asked for it: the table stops, then the lease ends."""
        await self._give_up(table)
        metrics.HANDOFFS.labels("released").inc()
        log.info("worker %s gave room %s up", self.worker, table.id, extra={"room": table.id})

    def lost(self, table: Table) -> None:
        """Another worker may play the room now: stop playing it at once (and if nobody took it
        after all, give it up, so that whoever the proxy sends its players to claims it)."""
        if self.hall.tables.get(table.id) is table:
            self.dropped += 1
            metrics.HANDOFFS.labels("lost").inc()
            log.warning(
                "worker %s lost room %s (another worker may play it): dropped", self.worker, table.id,
                extra={"room": table.id},
            )  # fmt: skip
            asyncio.get_running_loop().create_task(self._give_up(table))

    async def _give_up(self, table: Table) -> None:
        """Stop the table, then end its lease — token-checked: a room another worker claimed
        meanwhile is left alone; one not released ends by itself with this worker's lease."""
        got = self.leases.get(table.id)
        await self._forget(table)
        if got is not None:
            try:
                await self._tx(leases.release_tx, got)
            except Exception as e:  # retried at each renewal until the database takes it
                self._unreleased[table.id] = got
                log.warning("room %s was not released (retried until it is): %s", table.id, e)

    async def _forget(self, table: Table) -> None:
        """The table stops here: out of this worker and its lobby entries; its players reconnect."""
        if self.hall.tables.get(table.id) is table:
            del self.hall.tables[table.id]
        self.leases.pop(table.id, None)
        self._touched.discard(table.id)
        self.shared.room_changed(table.id, None)
        await table.stop()
        for conn in list(table.conns):
            conn.kick(*MOVED)

    async def closed(self, table: Table) -> None:
        """The room closed (idle or archived): out of the lobby, and nobody's (no worker loads it again)."""
        got = self.leases.pop(table.id, None)
        self._touched.discard(table.id)
        self.shared.room_changed(table.id, None)
        if got is not None:
            with contextlib.suppress(Exception):  # else it ends with the lease; closed rooms are never claimed
                await self._tx(leases.release_tx, got)

    async def _wanted(self, room: str) -> None:
        table = self.hall.tables.get(room)
        if table is not None and room in self.leases:
            await self.release(table)
        elif room in self.unplayed and self._idle(room):  # recorded here, not played: free it now
            await self._release_unplayed(room, self.unplayed[room])

    def _idle(self, room: str) -> bool:
        """Is nothing of this worker's playing, claiming or opening ``room``?"""
        return room not in self.hall.tables and room not in self.leases and room not in self._claims

    async def _release_unplayed(self, room: str, token: int) -> bool:
        """End this worker's hold on a room it does not play (token-checked: a room claimed
        since, by anyone, this worker included, is left alone)."""
        try:
            await self._tx(leases.release_tx, Lease(room, token))
        except Exception as e:
            log.warning("room %s, recorded as worker %s's but not played, was not released: %s", room, self.worker, e)
            return False
        self._unreleased.pop(room, None)
        self.unplayed.pop(room, None)
        log.info("worker %s gave up room %s, which it did not play", self.worker, room)
        return True

    async def _tidy(self, held: dict[str, tuple[int, str | None]]) -> None:
        """Give up the rooms the database records as this worker's but that it does not play.

        After an outage longer than the lease every table was dropped and none could be
        released; once the database answers again, this worker's lease is renewed and those
        rooms would stay recorded under it, played by nobody, claimable by nobody. A room is
        released at once when its release had failed or another worker asks for it; else when
        two renewals in a row found it so, with the same token — a room being made or claimed
        here right now is recorded a moment before it is played, and is never judged by one
        renewal (and a claim raises the token, which the release checks)."""
        unplayed: dict[str, int] = {}
        for room, (token, wanted) in held.items():
            if not self._idle(room):
                continue
            failed = self._unreleased.get(room)
            retried = failed is not None and failed.token == token
            due = retried or wanted is not None or self.unplayed.get(room) == token
            if not (due and self._idle(room) and await self._release_unplayed(room, token)):
                unplayed[room] = token
        self._unreleased = {r: got for r, got in self._unreleased.items() if r in unplayed}
        self.unplayed = unplayed
        if not unplayed:
            self.unplayed_since = None
        elif self.unplayed_since is None:
            self.unplayed_since = time.monotonic()

    def stuck(self) -> bool:
        """Has the database recorded, for longer than a lease, rooms this worker does not play
        (and cannot release)? Their players could not be served anywhere: /healthz says so."""
        since = self.unplayed_since
        return since is not None and time.monotonic() - since > self.settings.lease_ttl

    # ------------------------------------------------------------------ the loops
    async def _renew(self) -> None:
        s = self.settings
        while True:
            started = time.monotonic()
            before = dict(self.leases)  # a room claimed while the renewal runs is not judged by it
            try:
                held: dict[str, tuple[int, str | None]] = await self._tx(leases.renew_tx, self.worker, s.lease_ttl)
            except Exception as e:
                log.warning("worker %s could not renew its leases: %s", self.worker, e)
                held = None  # type: ignore[assignment]
            metrics.LEASE_RENEWALS.labels("failed" if held is None else "ok").inc()
            if held is not None and time.monotonic() - started < s.lease_ttl:
                self.valid_until = started + s.lease_ttl - s.renew_every  # by this machine's clock, with a margin
                self.renewed_at = started
            if not self.holding():  # not renewed in time: nothing of ours is sure any more
                for table in list(self.hall.tables.values()):
                    self.lost(table)
            elif held is not None:
                for room, got in before.items():
                    now = held.get(room)
                    mine = self.hall.tables.get(room)
                    if mine is None or self.leases.get(room) is not got:
                        continue
                    if now is None or now[0] != got.token:
                        self.lost(mine)
                    elif now[1] is not None and now[1] != self.worker:
                        await self.release(mine)
                await self._tidy(held)
            await asyncio.sleep(s.renew_every)

    async def _sweep(self) -> None:
        """Claim the open rooms nobody plays (their owner died, stopped or gave them up)."""
        s = self.settings
        while True:
            await asyncio.sleep(s.renew_every)
            if not self.holding():
                continue
            try:
                rooms = await self._tx(leases.orphans_tx, s.orphan_after, s.claims_per_sweep)
            except Exception as e:
                log.debug("no sweep for orphaned rooms: %s", e)
                continue
            for room in rooms:
                if room not in self.hall.tables and room not in self._claims:
                    with contextlib.suppress(Exception):
                        await self.acquire(room, orphan=True)

    async def _claim_orphan(self, room: str) -> Table | None:
        got: Lease | None = await self._tx(leases.claim_tx, room, self.worker, self.settings.orphan_after)
        return await self._open(got) if got is not None else None

    def touched(self, table: Table) -> None:
        """The room's lobby entry may have changed (published with the next batch)."""
        self._touched.add(table.id)

    async def _publish(self) -> None:
        """Send the lobby entries of the rooms that changed, once a second (a room's entry is
        made anew only when something shown in the lobby changed)."""
        announced: set[str] = set()
        while True:
            await asyncio.sleep(PUBLISH_EVERY)
            touched, self._touched = self._touched, set()
            for room in touched:
                table = self.hall.tables.get(room)
                if table is not None:
                    info = table.room_info()
                    info["created"] = table.created
                    self.shared.room_changed(room, info)
            fresh = set(self.hall.tables) - announced
            announced = set(self.hall.tables)
            await self.shared.flush_rooms(announce=bool(fresh))

    async def lobby_page(self, offset: int, limit: int, game: str | None) -> tuple[list[dict[str, Any]], int, bool]:
        """A page of the cluster's lobby (this worker's own rooms as they are now), and whether
        it is stale: on Redis trouble, this worker's own rooms and the others' as last read."""
        key = (offset, limit, game)
        cached = self._pages.get(key)
        stale = False
        if cached is not None and time.monotonic() - cached[0] < self.hall.limits.lobby_refresh:
            rooms, total = cached[1], cached[2]
        else:
            try:
                rooms, total = await self.shared.lobby_page(offset, limit, game)
            except Exception as e:
                self.shared.trouble("reading the lobby", e)
                mine = [{**t.room_info(), "created": t.created} for t in self.hall.tables.values() if t.listed]
                rooms, total = self.shared.lobby_copy(offset, limit, game, mine)
                stale = True
            else:
                if len(self._pages) > 256:
                    self._pages.clear()
                self._pages[key] = (time.monotonic(), rooms, total)
        out = []
        for r in rooms:
            table = self.hall.tables.get(r["id"])
            out.append(table.room_info() if table is not None else {k: v for k, v in r.items() if k != "created"})
        return out, total, stale

    def _conns_here(self) -> dict[str, int]:
        """This worker's table connections per player (``p:``) and address (``a:``)."""
        t = self.hall.throttle
        counts = {f"p:{p}": n for p, n in t.conns_of_player.items()}
        counts.update((f"a:{a}", n) for a, n in t.conns_of_address.items())
        return counts
