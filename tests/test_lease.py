"""Room leases and fencing (lease.py, writer.py) on a real database: SQLite, and PostgreSQL
when PAIJU_TEST_POSTGRES names a server (a schema of its own per test).

Two workers are two claimants of one ``room_owners`` row: whoever claimed last holds the
token, and a write carrying an older token stores nothing — whatever the clocks say.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select, text

from paiju.server.cluster import lease as leases
from paiju.server.store import db
from paiju.server.store.db import Store
from paiju.server.store.writer import Fenced, StoreError, Write, Writer

PG = os.environ.get("PAIJU_TEST_POSTGRES")


def schema_url(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Store]:
    if request.param == "sqlite":
        s = Store(f"sqlite:///{tmp_path / 'lease.db'}", checkpoints=False)
        yield s
        s.close()
        return
    if not PG:
        pytest.skip("needs PAIJU_TEST_POSTGRES (a PostgreSQL URL; .ci/run starts one)")
    schema = "lease_" + secrets.token_hex(4)
    admin = create_engine(PG)
    with admin.begin() as c:
        c.execute(text(f"CREATE SCHEMA {schema}"))
    s = Store(schema_url(PG, schema))
    yield s
    s.close()
    with admin.begin() as c:
        c.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    admin.dispose()


def tx(store: Store, fn: Any, *args: Any) -> Any:
    with store.engine.begin() as c:
        return fn(c, *args)


def new_room(store: Store, owner: str | None = None, ttl: float = 30.0) -> str:
    """A room made by ``owner`` (its lease renewed for ``ttl`` seconds), or by a hall of one process."""
    if owner is not None:
        tx(store, leases.renew_tx, owner, ttl)
    row = db.room_row("r", "baohuang", {}, 30.0, 5, None)
    tx(store, db.create_room_tx, row, owner)
    return str(row["id"])


def start_hand(store: Store, room: str) -> int:
    return int(store.start_hand(room, 1, 7, {}, [{"player": None}] * 5))


def action(hand: int, seq: int) -> dict[str, Any]:
    return {"hand_id": hand, "seq": seq, "seat": 0, "text": "pass", "hosted": False, "created_at": db.now()}


def stored(store: Store, hand: int) -> int:
    with store.engine.connect() as c:
        return int(
            c.execute(select(func.count()).select_from(db.actions).where(db.actions.c.hand_id == hand)).scalar_one()
        )


async def submit(writer: Writer, write: Write) -> Any:
    return await writer.submit(write)


def test_a_room_made_by_a_worker_is_its_own_and_nobody_elses(store: Store) -> None:
    room = new_room(store, "w1")
    assert tx(store, leases.claim_tx, room, "w2") is None  # w1's lease runs
    assert tx(store, leases.owner_tx, room) == ("w1", True)
    assert tx(store, leases.renew_tx, "w1", 30) == {room: (1, None)}
    assert tx(store, leases.renew_tx, "w2", 30) == {}


def test_a_room_whose_worker_stopped_renewing_is_claimed_with_a_new_token(store: Store) -> None:
    room = new_room(store, "w1", ttl=0.2)
    time.sleep(0.3)
    assert tx(store, leases.owner_tx, room) == ("w1", False)
    tx(store, leases.renew_tx, "w2", 30)
    assert tx(store, leases.claim_tx, room, "w2", 1.0) is None  # not yet ended for a second
    got = tx(store, leases.claim_tx, room, "w2")
    assert got == leases.Lease(room, 2)
    # w1 comes back: renewing tells it the room is not its own any more, and it cannot take it back
    assert tx(store, leases.renew_tx, "w1", 30) == {}
    assert tx(store, leases.claim_tx, room, "w1") is None


def test_the_writer_refuses_a_write_whose_token_is_old_and_stores_nothing(store: Store) -> None:
    room = new_room(store, "w1", ttl=0.2)
    hand = start_hand(store, room)
    old, new = Writer(store.engine), Writer(store.engine)
    try:
        assert asyncio.run(submit(old, Write(actions=[action(hand, 1)], fence=(room, 1)))) is None
        time.sleep(0.3)  # w1 paused past its lease: w2 claims the room
        tx(store, leases.renew_tx, "w2", 30)
        assert tx(store, leases.claim_tx, room, "w2") == leases.Lease(room, 2)
        with pytest.raises(Fenced):  # w1 wakes up and writes the next action: refused
            asyncio.run(submit(old, Write(actions=[action(hand, 2)], fence=(room, 1))))
        assert stored(store, hand) == 1
        asyncio.run(submit(new, Write(actions=[action(hand, 2)], fence=(room, 2))))
        assert stored(store, hand) == 2

        # in one group commit, the fenced write alone fails: the others are stored
        async def group() -> list[Any]:
            return await asyncio.gather(
                new.submit(Write(actions=[action(hand, 3)], fence=(room, 2))),
                new.submit(Write(run=lambda c: db.save_room_tx(c, room, status="closed"), fence=(room, 1))),
                return_exceptions=True,
            )

        results = asyncio.run(group())
        assert results[0] is None and isinstance(results[1], Fenced)
        assert stored(store, hand) == 3 and store.room(room)["status"] == "playing"
    finally:
        old.close()
        new.close()


def test_a_worker_that_claims_a_room_again_appends_after_what_the_others_stored(store: Store) -> None:
    """What a writer remembers of a hand's last action holds only under the token it was
    known with: w1 stores action 1, the room moves to w2, which stores 2 and 3 and gives it
    back; w1 claims it again (token 3) and its action 4 is stored, the next after the
    three stored, not after the one w1 stored itself."""
    room = new_room(store, "w1")
    tx(store, leases.renew_tx, "w2", 30)
    hand = start_hand(store, room)
    w1, w2 = Writer(store.engine), Writer(store.engine)
    try:
        assert asyncio.run(submit(w1, Write(actions=[action(hand, 1)], fence=(room, 1)))) is None
        tx(store, leases.release_tx, leases.Lease(room, 1))  # the room moves to w2
        assert tx(store, leases.claim_tx, room, "w2") == leases.Lease(room, 2)
        asyncio.run(submit(w2, Write(actions=[action(hand, 2)], fence=(room, 2))))
        asyncio.run(submit(w2, Write(actions=[action(hand, 3)], fence=(room, 2))))
        tx(store, leases.release_tx, leases.Lease(room, 2))  # and back to w1
        assert tx(store, leases.claim_tx, room, "w1") == leases.Lease(room, 3)
        assert asyncio.run(submit(w1, Write(actions=[action(hand, 4)], fence=(room, 3)))) is None
        assert stored(store, hand) == 4
        with pytest.raises(StoreError, match="does not follow the stored action 4"):
            asyncio.run(submit(w1, Write(actions=[action(hand, 4)], fence=(room, 3))))
        with pytest.raises(Fenced):  # w2's memory of the room is no use to it any more
            asyncio.run(submit(w2, Write(actions=[action(hand, 5)], fence=(room, 2))))
        assert stored(store, hand) == 4
    finally:
        w1.close()
        w2.close()


def test_a_released_room_is_claimable_at_once_and_the_wanted_worker_is_told(store: Store) -> None:
    room = new_room(store, "w1")
    tx(store, leases.renew_tx, "w2", 30)
    assert tx(store, leases.want_tx, room, "w2") == "w1"
    assert tx(store, leases.renew_tx, "w1", 30) == {room: (1, "w2")}  # w1 learns that w2 wants it
    tx(store, leases.release_tx, leases.Lease(room, 1))
    assert tx(store, leases.claim_tx, room, "w2") == leases.Lease(room, 2)
    tx(store, leases.release_tx, leases.Lease(room, 1))  # an old token releases nothing
    assert tx(store, leases.owner_tx, room) == ("w2", True)


def test_orphans_are_the_open_rooms_nobody_has_played_for_a_while(store: Store) -> None:
    held = new_room(store, "w1")
    nobodys = new_room(store)  # made by a hall of one process: nobody plays it
    ended = new_room(store, "w9", ttl=0.1)
    closed = new_room(store)
    store.save_room(closed, status="closed")
    time.sleep(0.5)
    assert set(tx(store, leases.orphans_tx, 0.2, 10)) == {nobodys, ended}
    assert held not in tx(store, leases.orphans_tx, 0.0, 10)
    assert tx(store, leases.release_all_tx, "w1") == 1
    assert held in tx(store, leases.orphans_tx, 0.0, 10)  # given up: claimable at once


def test_two_claims_at_once_give_the_room_to_exactly_one(store: Store) -> None:
    rooms = [new_room(store) for _ in range(20)]
    won: dict[str, list[str]] = {"a": [], "b": []}

    def claim_all(worker: str) -> None:
        for r in rooms:
            for _ in range(50):  # SQLite: a busy database is tried again
                try:
                    if tx(store, leases.claim_tx, r, worker) is not None:
                        won[worker].append(r)
                    break
                except Exception:
                    time.sleep(0.01)

    for w in won:
        tx(store, leases.renew_tx, w, 30)
    threads = [threading.Thread(target=claim_all, args=(w,)) for w in won]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(won["a"] + won["b"]) == sorted(rooms)  # every room once, none twice


def test_migration_0005_gives_every_existing_room_an_owner_row_of_nobody(tmp_path: Any) -> None:
    from alembic import command
    from alembic.config import Config

    store = Store(f"sqlite:///{tmp_path / 'old.db'}", checkpoints=False)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(db.__file__).with_name("migrations")))
    with store.engine.begin() as c:
        cfg.attributes["connection"] = c
        command.downgrade(cfg, "0004")  # a store of before the cluster
        row = db.room_row("old room", "baohuang", {}, 30.0, 5, None)
        c.execute(db.rooms.insert().values(**row))
    store.close()
    store = Store(f"sqlite:///{tmp_path / 'old.db'}", checkpoints=False)  # migrated again on opening
    assert tx(store, leases.owner_tx, row["id"]) == (None, False)
    assert tx(store, leases.orphans_tx, 0.0, 10) == [row["id"]]
    assert tx(store, leases.claim_tx, row["id"], "w1") == leases.Lease(row["id"], 1)
    store.close()
