"""The bean economy's rules at a real hall (issue 28, item 6): a seat only for a balance that
covers the hand's cost, unseated between hands once it no longer does, 同IP不能同桌, the
registrations per address and the start beans after N scored hands over HTTP."""

from __future__ import annotations

import os
from collections.abc import Callable

from sqlalchemy import insert

from paiju.server.store import db
from paiju.server.store.db import Store, ledger

from .harness import Hall, ServerProcess, sit_with_bots
from .test_accounts import me, register


def test_a_seat_needs_beans_covering_the_most_one_hand_can_cost(hall: Hall) -> None:
    p = register(hall, f"cover{os.getpid()}")
    rid = hall.create_room(p, {"bean_multiplier": 100, "table_multiplier": 4})  # Baohuang: 24 × 400
    with hall.connect(rid, p) as c:
        m = c.until_update(lambda m: True)
        assert m["room"]["beans"]["hand_cost"] == 9600
        c.send({"type": "sit", "seat": 0})
        e = c.error()
        assert e["code"] == "beans_do_not_cover" and e["params"] == {"need": 9600, "beans": 1000}
    guest = hall.login("guest at risk")
    with hall.connect(rid, guest) as c:  # a guest holds no beans: the house stands in for it
        c.send({"type": "sit", "seat": 0})
        c.until_update(lambda m: m["seat"] == 0)


def test_one_account_with_beans_at_stake_per_address_and_table(hall: Hall) -> None:
    a, b = register(hall, f"addr_a{os.getpid()}"), register(hall, f"addr_b{os.getpid()}")
    rid = hall.create_room(a, {})
    assert hall.room(rid)["beans"]["one_per_address"] is True
    with hall.connect(rid, a) as ca:
        ca.send({"type": "sit", "seat": 0})
        seats = ca.until_update(lambda m: m["seat"] == 0)["room"]["seats"]
        assert all("addr" not in s for s in seats) and "127.0.0.1" not in str(seats)  # never sent
        with hall.connect(rid, b) as cb:
            cb.until_update(lambda m: m["room"]["seats"][0]["player_id"] == a.id)
            cb.send({"type": "sit", "seat": 1})
            assert cb.error()["code"] == "same_address"  # both from loopback
    open_ = hall.create_room(a, {"one_per_address": False})
    with hall.connect(open_, a) as ca:
        ca.send({"type": "sit", "seat": 0})
        ca.until_update(lambda m: m["seat"] == 0)
        with hall.connect(open_, b) as cb:
            cb.send({"type": "sit", "seat": 1})
            cb.until_update(lambda m: m["seat"] == 1)
    with hall.http() as c:
        lobby = c.get("/api/rooms").json()
    rooms = {r["id"]: r for r in lobby["rooms"]}
    assert rooms[rid]["beans"]["one_per_address"] is True and rooms[open_]["beans"]["one_per_address"] is False


def test_an_account_that_no_longer_covers_a_hand_is_unseated_before_the_next(hall: Hall) -> None:
    p = register(hall, f"short{os.getpid()}")
    rid = hall.create_room(p, {"bean_multiplier": 20})  # 24 × 20 = 480
    with hall.connect(rid, p) as c:
        sit_with_bots(c)
        store = Store(hall.server.db_url, run_migrations=False, checkpoints=False)
        try:  # it lost at another table meanwhile: 1000 − 900 = 100 < 480
            with store.engine.begin() as tx:
                tx.execute(insert(ledger).values(player_id=p.id, amount=-900, kind="grant", created_at=db.now()))
        finally:
            store.close()
        c.send({"type": "ready"})
        notice = c.until(lambda m: m.get("type") == "notice")
        assert notice == {"type": "notice", "code": "unseated", "params": {"by": "beans", "need": 480, "beans": 100}}
        m = c.until_update(lambda m: m["seat"] is None)
        assert m["room"]["seats"][0]["player"] is None and m["room"]["status"] != "playing"


def test_registrations_per_address_and_start_beans_after_scored_hands(
    make_server: Callable[..., ServerProcess],
) -> None:
    hall = Hall(make_server(args=["--registrations-per-hour", "2", "--start-after-hands", "3"]))
    first = register(hall, "fresh_one")
    got = me(hall, first.token) or {}
    assert (got["beans"], got["start_pending"], got["relief_due"]) == (0, 3, False)
    register(hall, "fresh_two")
    with hall.http() as c:
        r = c.post("/api/register", json={"username": "fresh_three", "password": "correct horse"})
    assert r.status_code == 429
    assert r.json()["code"] == "too_many_registrations" and r.json()["params"] == {"count": 2}
    with hall.http() as c:
        r = c.post("/api/login", json={"username": "fresh_three", "password": "correct horse"})
    assert r.status_code != 200  # nothing was written
    rid = hall.create_room(first, {"min_beans": 100})
    with hall.connect(rid, first) as c:  # before its start beans an account sits where a guest may
        c.until_update(lambda m: True)
        c.send({"type": "sit", "seat": 0})
        assert c.error()["code"] == "too_few_beans"
