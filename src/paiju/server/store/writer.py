"""The store's writer: one thread owns the write connection and commits in groups.

Every change a table makes (an action, a seat, a new or finished hand, a penalty) and every
lobby write (a player, a room) is a :class:`Write`. The event loop hands the writes of one
loop turn to this thread together and awaits their futures; the thread takes every write
queued while its last commit ran and commits them together (group commit), then resolves
their futures on the loop with one wake-up. The loop
never touches the database, so a lock held by another process or a database restarting
stalls only the tables that are writing, never the hall's other tables or its pings.

Why one thread rather than SQLAlchemy's asyncio layer (aiosqlite, asyncpg): SQLite allows
one writer at a time anyway, so one thread that owns the only write connection never
waits on itself and group commit falls out of its queue; the same synchronous SQLAlchemy
Core code serves SQLite and PostgreSQL, the admin commands and the start-up reads; and the
async drivers would still run SQLite in a thread of their own, one per connection.

Failures: a write that cannot be made because the database is unreachable or locked
raises :class:`StoreUnavailable` and the writer goes *down*: later writes fail at once
(no table waits on a dead database) until :meth:`Writer.probe` finds it writable again.
A write the database refuses (a constraint, a hole in a hand's ``seq``) raises
:class:`StoreError` for its own table alone: a group that fails is retried one write at a
time, so one bad write never takes the others down with it. Nothing is dropped silently:
every write's future gets its result or its exception.

Fencing: when several hall workers share the database, a table's writes carry the room's
lease token (``Write.fence``, lease.py). The writer reads the room's current token, locking
its row, in the same transaction as the write: a worker whose lease was taken by another
(it was paused, cut off, or too slow to renew) gets :class:`Fenced` and stores nothing —
timing alone never decides who may append to a hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import exc, insert, select, text
from sqlalchemy.engine import Connection, Engine

from paiju.server import metrics
from paiju.server.store.db import SQLITE_BUSY_TIMEOUT, actions, last_seq, room_owners

log = logging.getLogger("paiju.writer")


class StoreError(Exception):
    """The database refused this write; nothing of it was stored."""


class StoreUnavailable(StoreError):
    """The database cannot be written now (down, unreachable or locked); nothing was stored."""


class Fenced(StoreError):
    """This worker no longer owns the room (another worker claimed it); nothing was stored."""


@dataclass
class Write:
    """One change made durable in one transaction: action rows (appended in ``seq`` order
    after the hand's last stored action) and then ``run(connection)``, whose result the
    awaiting coroutine gets."""

    actions: list[dict[str, Any]] = field(default_factory=list)
    run: Callable[[Connection], Any] | None = None
    probe: bool = False  # a check that the database is writable: allowed while down
    fence: tuple[str, int] | None = None  # (room, lease token): stored only while the token is the room's


@dataclass(eq=False)
class _Item:
    write: Write
    future: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop
    result: Any = None
    error: BaseException | None = None


def unavailable(e: BaseException) -> bool:
    """True when ``e`` says the database cannot be reached or written now, rather than
    that this write is wrong."""
    if isinstance(e, exc.DBAPIError) and e.connection_invalidated:
        return True
    return isinstance(e, exc.OperationalError | exc.InterfaceError | exc.DisconnectionError | exc.TimeoutError)


class Writer:
    """The hall's only writer: a thread, its connection and the queue of writes."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.down = False
        self.commits = 0  # group commits made (for tests and benchmarks)
        self.pending = 0  # writes submitted and not yet settled (paiju_store_queue_writes; the loop's count)
        self._queue: queue.SimpleQueue[list[_Item] | None] = queue.SimpleQueue()
        self._turn: list[_Item] = []  # writes submitted in this turn of the event loop
        self._conn: Connection | None = None
        self._seq: dict[int, int] = {}  # hand id → last stored seq, as this writer knows it
        self._seq_token: dict[int, int | None] = {}  # hand id → the room's lease token it was known under
        self._released = threading.Event()
        self._released.set()
        self._thread = threading.Thread(target=self._run, name="paiju-writer", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ the loop's side
    async def submit(self, write: Write) -> Any:
        """Make ``write`` durable; its ``run`` result. Raises StoreUnavailable / StoreError."""
        loop = asyncio.get_running_loop()
        item = _Item(write, loop.create_future(), loop)
        if not self._turn:  # one hand-over per loop turn: one wake-up of the thread, one commit
            loop.call_soon(self._hand_over)
        self._turn.append(item)
        self.pending += 1
        try:
            return await item.future
        finally:
            self.pending -= 1

    def _hand_over(self) -> None:
        items, self._turn = self._turn, []
        self._queue.put(items)

    async def probe(self) -> None:
        """Check that the database takes writes again; clears ``down`` when it does."""
        await self.submit(Write(run=self._probe_tx, probe=True))

    def close(self) -> None:
        self._released.set()
        self._queue.put(None)
        self._thread.join(timeout=10)
        self._drop()

    def hold_commits(self) -> None:
        """Tests: the writer takes writes but commits none until :meth:`release_commits`
        (to check that nothing is shown before it is stored)."""
        self._released.clear()

    def release_commits(self) -> None:
        self._released.set()

    # ------------------------------------------------------------------ the thread
    def _run(self) -> None:
        while True:
            items = self._queue.get()
            if items is None:
                return
            self._released.wait()
            batch = list(items)
            while True:  # everything queued meanwhile goes into the same commit
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)
                    break
                batch += more
            started = time.perf_counter()
            self._commit(batch)
            metrics.COMMIT_SECONDS.observe(time.perf_counter() - started)
            self._resolve(batch)

    def _connection(self) -> Connection:
        if self._conn is None or self._conn.closed or self._conn.invalidated:
            self._drop()
            self._conn = self.engine.connect()
        return self._conn

    def _drop(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:
                log.debug("dropping the write connection failed", exc_info=True)
        self._conn = None

    def _commit(self, batch: list[_Item]) -> None:
        if self.down:  # fail at once rather than wait on a dead database; probes go through
            for it in batch:
                if not it.write.probe:
                    it.error = StoreUnavailable("the database is unavailable")
            batch = [it for it in batch if it.write.probe]
            if not batch:
                return
        ok: list[_Item] = []
        advanced: dict[int, int] = {}
        try:
            c = self._connection()
            tokens = self._tokens(c, batch)
            for it in batch:
                fence = it.write.fence
                if fence is not None and tokens.get(fence[0]) != fence[1]:
                    it.error = Fenced(f"room {fence[0]} is played by another worker now")
                    continue
                try:
                    advanced = self._check_seq(c, it.write.actions, advanced, None if fence is None else fence[1])
                except StoreError as e:
                    it.error = e
                    continue
                ok.append(it)
            rows = [r for it in ok for r in it.write.actions]
            if rows:
                c.execute(insert(actions), rows)
            for it in ok:
                if it.write.run is not None:
                    it.result = it.write.run(c)
            c.commit()
        except Exception as e:
            self._seq.clear()  # what was stored is read again from the database
            self._seq_token.clear()
            self._rollback()
            if unavailable(e):
                if not self.down:
                    log.error("the database is unavailable: %s", e)
                self.down = True
                self._drop()
                for it in batch:
                    if it.error is None:
                        it.result, it.error = None, StoreUnavailable(str(e))
                return
            if len(ok) > 1:  # find the write the database refused; the others are stored
                for it in ok:
                    it.result = None
                    self._commit([it])
                return
            for it in ok:
                it.result, it.error = None, StoreError(str(e))
            return
        self.commits += 1
        self._seq.update(advanced)
        if len(self._seq) > 10_000:  # finished hands are never written again
            self._seq.clear()
            self._seq_token.clear()

    @staticmethod
    def _tokens(c: Connection, batch: list[_Item]) -> dict[str, int]:
        """The lease tokens of the rooms the batch's fenced writes are for, their rows locked
        until the commit (a claim by another worker waits for it, or this read waits for the claim)."""
        rooms = sorted({it.write.fence[0] for it in batch if it.write.fence is not None})
        if not rooms:
            return {}
        q = select(room_owners.c.room_id, room_owners.c.token).where(room_owners.c.room_id.in_(rooms))
        return {r: int(t) for r, t in c.execute(q.with_for_update()).all()}

    def _check_seq(
        self, c: Connection, rows: list[dict[str, Any]], advanced: dict[int, int], token: int | None = None
    ) -> dict[int, int]:
        """A hand's actions are numbered 1, 2, 3 … with no hole and no repeat: ``rows``
        must follow the last stored action (or those of earlier writes of this group,
        ``advanced``). The last seq per hand with ``rows`` added (raises StoreError). ``token``:
        the room's lease token the write is fenced with (a cluster): what this writer remembers
        of a hand holds only under the same token — under another, another worker may have
        played the room since, and the last seq is read from the database again."""
        out = dict(advanced)
        for r in rows:
            hid = r["hand_id"]
            if hid not in out:
                if hid not in self._seq or self._seq_token.get(hid) != token:
                    self._seq[hid] = last_seq(c, hid)
                    self._seq_token[hid] = token
                out[hid] = self._seq[hid]
            if r["seq"] != out[hid] + 1:
                raise StoreError(f"hand {hid}: action {r['seq']} does not follow the stored action {out[hid]}")
            out[hid] = r["seq"]
        return out

    def _rollback(self) -> None:
        if self._conn is None:
            return
        try:
            self._conn.rollback()
        except Exception:
            self._drop()

    def _probe_tx(self, c: Connection) -> None:
        """Writable again? A real write that changes no value (SQLite: reading works while
        another process holds the write lock). On SQLite it waits 0.2 s for a lock, not
        the busy timeout of a real write: the writes queued behind it fail sooner."""
        sqlite = c.dialect.name == "sqlite"
        if sqlite:
            c.exec_driver_sql("PRAGMA busy_timeout = 200")
        try:
            c.execute(text("UPDATE alembic_version SET version_num = version_num"))
        finally:
            if sqlite:
                c.exec_driver_sql(f"PRAGMA busy_timeout = {int(SQLITE_BUSY_TIMEOUT * 1000)}")
        if self.down:
            log.warning("the database is back")
        self.down = False

    def _resolve(self, batch: list[_Item]) -> None:
        by_loop: dict[asyncio.AbstractEventLoop, list[_Item]] = {}
        for it in batch:
            by_loop.setdefault(it.loop, []).append(it)
        for loop, items in by_loop.items():
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody awaits these any more
                loop.call_soon_threadsafe(_settle, items)


def _error_kind(e: BaseException) -> str:
    if isinstance(e, Fenced):
        return "fenced"
    return "unavailable" if isinstance(e, StoreUnavailable) else "refused"


def _settle(items: list[_Item]) -> None:
    for it in items:
        if it.error is not None:  # counted here, on the loop: once per failed write
            metrics.STORE_ERRORS.labels(_error_kind(it.error)).inc()
        if it.future.done():  # the awaiting coroutine was cancelled
            continue
        if it.error is not None:
            it.future.set_exception(it.error)
        else:
            it.future.set_result(it.result)
