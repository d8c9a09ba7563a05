"""The store's writer thread against real databases (SQLite, and PostgreSQL when
PAIJU_TEST_POSTGRES names one): group commit, contiguous ``seq`` numbers, one refused write
never takes the others down, and an unavailable database (a lock held by another process)
fails writes fast until a probe finds it writable again."""

from __future__ import annotations

import asyncio
import concurrent.futures
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paiju.server.store import db
from paiju.server.store.db import Store
from paiju.server.store.writer import StoreError, StoreUnavailable, Write, Writer
from test_store import db_url  # noqa: F401 - the fixture: each test on SQLite and PostgreSQL


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:  # noqa: F811
    s = Store(db_url, checkpoints=False)
    yield s
    s.close()


def _hand(store: Store) -> int:
    room = store.create_room("r", "baohuang", {}, 30.0, 5, None)
    return store.start_hand(room["id"], 1, 7, {"variant": "standard"}, room["seats"])


def _act(hid: int, seq: int, text_: str = "accept") -> Write:
    return Write(actions=[db.action_row(hid, seq, 0, text_, False)])


def _run(coro: Any) -> Any:
    """Run ``coro`` on a new event loop in a thread of its own: the main thread may already
    have a loop marked as running (Playwright's sync API keeps one during the browser tests)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def _stored(store: Store, hid: int) -> list[int]:
    return [a["seq"] for a in store.hand_actions(hid)]


async def _settled(writer: Writer, writes: list[Write]) -> list[Any]:
    return await asyncio.gather(*(writer.submit(w) for w in writes), return_exceptions=True)


def test_writes_queued_together_are_committed_together(store: Store) -> None:
    hands = [_hand(store) for _ in range(5)]
    writer = Writer(store.engine)
    try:
        writer.hold_commits()  # everything below queues while the writer holds its commit

        async def go() -> list[Any]:
            task = asyncio.gather(*(writer.submit(_act(h, 1)) for h in hands))
            await asyncio.sleep(0.2)
            writer.release_commits()
            return await task

        before = writer.commits
        assert _run(go()) == [None] * 5
        assert writer.commits - before <= 2  # the first write may go alone, the rest together
        assert all(_stored(store, h) == [1] for h in hands)
    finally:
        writer.close()


def test_a_hole_or_a_repeat_in_seq_is_refused_and_the_others_are_stored(store: Store) -> None:
    a, b = _hand(store), _hand(store)
    writer = Writer(store.engine)
    try:
        before = writer.commits
        assert _run(writer.submit(_act(a, 1))) is None
        assert writer.commits == before + 1  # one write alone: one commit
        results = _run(_settled(writer, [_act(a, 3), _act(b, 1), _act(a, 1)]))
        assert isinstance(results[0], StoreError) and "does not follow" in str(results[0])
        assert results[1] is None
        assert isinstance(results[2], StoreError)
        assert _stored(store, a) == [1] and _stored(store, b) == [1]
        # two actions of one hand in one write must follow each other too
        bad = Write(actions=[db.action_row(a, 2, 0, "x", False), db.action_row(a, 4, 0, "y", False)])
        with pytest.raises(StoreError):
            _run(writer.submit(bad))
        assert _stored(store, a) == [1]
        assert _run(writer.submit(_act(a, 2))) is None
        assert _stored(store, a) == [1, 2]
    finally:
        writer.close()


def test_a_write_the_database_refuses_fails_alone(store: Store) -> None:
    a, b = _hand(store), _hand(store)
    writer = Writer(store.engine)
    try:

        def duplicate_room(c: Any) -> None:  # the primary key of an existing room: refused
            room = store.all_rooms()[0]
            db.create_room_tx(c, {**room})

        writer.hold_commits()

        async def go() -> list[Any]:
            task = _settled(writer, [_act(a, 1), Write(run=duplicate_room), _act(b, 1)])
            await asyncio.sleep(0.1)
            writer.release_commits()
            return await task

        results = _run(go())
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], StoreError) and not isinstance(results[1], StoreUnavailable)
        assert _stored(store, a) == [1] and _stored(store, b) == [1]
        assert writer.down is False
    finally:
        writer.close()


LOCKER = """
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
c.execute("COMMIT")
"""


def lock_sqlite(path: str, seconds: float) -> subprocess.Popen[str]:
    """Another process holding SQLite's exclusive lock on ``path`` for ``seconds``."""
    proc = subprocess.Popen([sys.executable, "-c", LOCKER, path, str(seconds)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
    return proc


def test_a_locked_database_fails_writes_fast_until_a_probe_finds_it_writable(tmp_path: Path) -> None:
    path = tmp_path / "hall.db"
    store = Store(f"sqlite:///{path}", checkpoints=False)
    hid = _hand(store)
    writer = Writer(store.engine)
    try:
        locker = lock_sqlite(str(path), 4.0)
        with pytest.raises(StoreUnavailable):  # waits the busy timeout (2 s), then gives up
            _run(writer.submit(_act(hid, 1)))
        assert writer.down
        t = time.monotonic()
        with pytest.raises(StoreUnavailable):  # down: no wait on the lock any more
            _run(writer.submit(_act(hid, 1)))
        assert time.monotonic() - t < 1.0
        with pytest.raises(StoreUnavailable):
            _run(writer.probe())
        locker.wait(10)
        _run(writer.probe())
        assert not writer.down
        assert _run(writer.submit(_act(hid, 1))) is None
        assert _stored(store, hid) == [1]
    finally:
        writer.close()
        store.close()


def test_the_hall_waits_for_its_database_at_start_up(tmp_path: Path) -> None:
    """A database that cannot be opened yet (here: its folder appears 0.5 s later) is
    retried with backoff; one that never comes fails after the wait, with the error."""
    import threading

    from sqlalchemy.exc import OperationalError

    from paiju.server.web.app import open_store

    later = tmp_path / "not-yet"
    threading.Timer(0.5, later.mkdir).start()
    store = _run(open_store(f"sqlite:///{later / 'hall.db'}", wait=20))
    assert store.all_rooms() == []
    store.close()
    t = time.monotonic()
    with pytest.raises(OperationalError):
        _run(open_store(f"sqlite:///{tmp_path / 'never' / 'hall.db'}", wait=1))
    assert time.monotonic() - t < 10
