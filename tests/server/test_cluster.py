"""Several hall workers behind a real proxy (cluster.py, lease.py, shared.py): three
workers, HAProxy, PostgreSQL and Redis on loopback, players through the proxy.

- twelve tables play through the proxy, spread over the workers, and the lobby through
  any worker lists every room;
- a player's connections are capped across the workers;
- kill -9 of the worker playing a busy table: the table goes on on another worker within
  5 s and no action a player was shown is lost; the killed worker comes back, play goes on;
- SIGSTOP of a table's worker for 10 s: another takes the table over; after SIGCONT the
  paused worker stores nothing more for it (fencing) and drops it;
- a rolling restart of every worker, one by one, while the tables play.

Skipped, with the reason, without PostgreSQL, redis-server or haproxy (.ci/run has them).
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator

import httpx
import pytest

from .abuse_helpers import refused_connection
from .cluster_harness import Cluster, Seat, missing
from .harness import Client, Hall, sit_with_bots
from .test_durability import keeps_playing, wait_until
from .test_social import lobby_ids

pytestmark = pytest.mark.skipif(missing() is not None, reason=missing() or "")
FAILOVER = 5.0  # seconds a table may stand still when its worker dies


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("cluster"), n=3).start()
    try:
        yield c
    finally:
        c.stop()
        c.assert_no_crash()


def busy_table(cluster: Cluster, name: str) -> Seat:
    """A Baohuang room made through the proxy: ``name`` at seat 0 (playing every turn and
    starting every next hand), four quick bots, the first hand started."""
    hall = cluster.hall
    p = hall.login(name)
    rid = hall.create_room(p, {"variant": "classic"}, turn_timeout=600, name=name)
    first = hall.connect(rid, p)
    sit_with_bots(first)
    first.send({"type": "start"})
    first.until_update(lambda m: m["room"]["status"] == "playing")
    first.close()
    seat = Seat(hall, rid, p, keeps_playing)
    assert seat.ready.wait(10)
    return seat


def moves(seat: Seat, turns: int = 3, timeout: float = 15.0, what: str = "the table plays") -> None:
    since = seat.progress()
    where = f"{what}: room {seat.rid} at (hand, turn) {since}, connection {seat.connections}"
    wait_until(lambda: seat.progress()[0] > since[0] or seat.progress()[1] >= since[1] + turns, timeout, where)


def nothing_lost(cluster: Cluster, seat: Seat) -> None:
    """Every action any update showed the player is in the store, in the order shown."""
    shown = list(seat.updates)  # first: what was shown before this was stored before it was shown
    stored = cluster.stored_actions(seat.rid)
    for m in shown:
        hand, turn = m["room"]["hand_number"], m["turn"]
        if m["room"]["status"] != "playing":
            continue
        kept = len(stored.get(hand, []))
        if kept < turn:
            seen = [(u["connection"], u["room"]["hand_number"], u["turn"], u["room"]["status"]) for u in shown]
            raise AssertionError(
                f"room {seat.rid} hand {hand}: shown at turn {turn} (connection {m['connection']}), stored {kept}; "
                f"updates shown (connection, hand, turn, status): {seen[-30:]}; "
                f"events {m['view'].get('events', [])[-4:]}; stored {stored.get(hand, [])[-4:]}"
            )


def test_twelve_tables_play_through_the_proxy_and_every_worker_lists_every_room(cluster: Cluster) -> None:
    seats = [busy_table(cluster, f"tw{i}") for i in range(12)]
    try:
        for s in seats:
            moves(s, 5)
        owners = {cluster.owner(s.rid)[0] for s in seats}
        assert len(owners) >= 2, f"twelve rooms on {owners}: the proxy's hash spreads rooms"
        rooms = {s.rid for s in seats}
        for w in cluster.workers:  # straight to each worker, not through the proxy

            def listed(w=w) -> bool:
                r = httpx.get(w.url + "/api/rooms", params={"limit": 200}, timeout=5)
                return rooms <= {room["id"] for room in r.json()["rooms"]}

            wait_until(listed, 5, f"the lobby of {w.url} lists every room")
        for i in range(1, 4):  # every worker healthy, and says so
            h = cluster.health(f"w{i}")
            assert h["ok"] and h["why"] == [] and h["database"] == "ok" and h["unplayed"] == [], h
        for s in seats:  # a room's own page through any worker
            r = httpx.get(cluster.workers[0].url + f"/api/rooms/{s.rid}", timeout=5)
            assert r.status_code == 200 and r.json()["id"] == s.rid
        wait_until(  # presence, from another worker than most of the tables'
            lambda: httpx.get(cluster.workers[1].url + "/api/online", timeout=5).json()["players"] >= 12,
            5,
            "every player at a table is online",
        )
        first = seats[0].player.id  # and each one, asked of a worker that may not be the table's
        assert httpx.get(cluster.workers[2].url + f"/api/players/{first}", timeout=5).json()["player"]["online"]
        for s in seats:
            nothing_lost(cluster, s)
    finally:
        for s in seats:
            s.close()
    wait_until(
        lambda: not httpx.get(cluster.workers[0].url + f"/api/players/{first}", timeout=5).json()["player"]["online"],
        5,
        "a player whose tables are closed is offline",
    )


def test_a_private_room_is_on_no_workers_lobby_and_its_code_finds_it(cluster: Cluster) -> None:
    hall = cluster.hall
    p = hall.login("private host")
    public = hall.create_room(p, name="listed")
    private = hall.create_room(p, {"private": True}, name="unlisted")
    with hall.connect(public, p) as a, hall.connect(private, p) as b:  # both played, their entries published
        a.until_update(lambda m: m["room"]["id"] == public)
        b.until_update(lambda m: m["room"]["id"] == private)
        code = hall.room(private)["code"]
        for w in cluster.workers:  # straight to each worker: every page of its lobby

            def listed(w=w) -> bool:
                return public in lobby_ids(hall, w.url)

            wait_until(listed, 5, f"the lobby of {w.url} lists the public room")
            assert private not in lobby_ids(hall, w.url)
        with hall.http() as c:  # the code through the proxy (not sent by a room's hash)
            assert c.get(f"/api/codes/{code}").json() == {"room": private}


def test_friends_invitations_and_private_rooms_reach_every_worker(cluster: Cluster) -> None:
    """Where a friend sits is found whichever worker plays his table (asked on the bus),
    an invitation sent through one worker is read through another, and an administrator
    lists the private rooms of every worker."""
    from paiju.cli import app as cli

    from .test_moderation import register, runner

    front = cluster.hall
    me, friend = register(front, "cl_follower"), register(front, "cl_friend")
    r = runner.invoke(cli, ["admin", "user", "role", "cl_follower", "moderator", "--db", cluster.db_url])
    assert r.exit_code == 0, r.output
    for a, b in ((me, friend), (friend, me)):
        assert front.http(a.token).post("/api/follow", json={"player": b.id}).json() == {"following": True}
    public = front.create_room(friend, name="friend's open table")
    private = front.create_room(friend, {"private": True}, name="friend's hidden table")
    with front.connect(public, friend) as table, front.connect(private, friend) as hidden:
        table.send({"type": "sit", "seat": 0})
        table.until_update(lambda m: m["seat"] == 0)
        hidden.until_update(lambda m: m["room"]["id"] == private)
        for w in cluster.workers:  # straight to each worker, the table's own and the others
            (entry,) = Hall(w).http(me.token).get("/api/friends").json()["following"]
            assert entry["room"] == {"id": public, "name": "friend's open table", "game": "baohuang"}, w.url

            def lists_private(w=w) -> bool:
                got = Hall(w).http(me.token).get("/api/admin/rooms").json()["rooms"]
                return private in {r["id"] for r in got}

            wait_until(lists_private, 5, f"the administrators' list of {w.url} has the private room")
        assert front.http(friend.token).post(f"/api/rooms/{public}/invite", json={"player": me.id}).status_code == 200
        for w in cluster.workers:
            got = Hall(w).http(me.token).get("/api/invitations").json()["invitations"]
            assert [i["room"] for i in got] == [public], w.url


def test_a_players_connections_are_counted_on_every_worker(cluster: Cluster) -> None:
    """The cap of table connections per player (8) counts them on all the workers: rooms
    on three workers, the ninth connection is refused wherever it lands."""
    hall = cluster.hall
    p = hall.login("many-tabs")
    rooms = [hall.create_room(p, name=f"tab{i}") for i in range(9)]
    open_ = [hall.connect(rid, p) for rid in rooms[:8]]
    try:
        for c in open_:
            assert c.next()["type"] == "hello"
        assert len({cluster.owner(rid)[0] for rid in rooms[:8]}) >= 2, "the rooms are on several workers"
        refused_connection(hall.connect(rooms[8], p), 4429, "too many connections")
        open_.pop().close()  # one closed: its place is free on the cluster's count
        wait_until(lambda: accepted(hall.connect(rooms[8], p)), 5, "a connection is let in again")
    finally:
        for c in open_:
            c.close()


def accepted(c: Client) -> bool:
    first = c.next()
    c.close()
    return bool(first["type"] == "hello")


def test_moderation_reaches_the_worker_that_plays_the_room(cluster: Cluster) -> None:
    """An administrator's request on one worker acts on a table another worker plays: a mute
    reaches the player's open socket, a kick mid-hand closes it with the reason and the leave
    penalty, and a logout or a ban on one worker closes that account's sockets on the others
    within 2 s (the cluster's Redis bus, shared.py; revocation.py)."""
    from paiju.cli import app as cli

    from .test_moderation import closed, register, runner

    front = cluster.hall
    admin, victim = register(front, "cl_admin"), register(front, "cl_victim")
    r = runner.invoke(cli, ["admin", "user", "role", "cl_admin", "admin", "--db", cluster.db_url])
    assert r.exit_code == 0, r.output
    rid = front.create_room(victim, name="moderated")
    table = front.connect(rid, victim)
    try:
        sit_with_bots(table)
        owner = cluster.owner(rid)[0]
        assert owner is not None
        other = next(w for w in cluster.workers if w is not cluster.worker(owner))  # not the table's worker
        elsewhere = Hall(other)
        mute = elsewhere.http(admin.token).post(
            f"/api/admin/users/{victim.id}/mute", json={"minutes": 10, "reason": "spam"}
        )
        assert mute.status_code == 200, mute.text
        time.sleep(1.0)  # the bus is quicker; one try only: talking again at once is say_too_fast
        table.send({"type": "say", "phrase": "hurry"})
        assert table.until(lambda m: m["type"] in ("said", "error"))["code"] == "muted"
        table.send({"type": "start"})
        table.until_update(lambda m: m["room"]["status"] == "playing")
        t0 = time.monotonic()
        kick = elsewhere.http(admin.token).post(
            "/api/admin/kick", json={"room": rid, "seat": 0, "reason": "bot-like play"}
        )
        assert kick.status_code == 200 and kick.json() == {"ok": True, "penalty": 40}, kick.text
        msg = closed(table, 2.0)
        assert msg["params"] == {"reason": "bot-like play", "penalty": 40} and time.monotonic() - t0 < 2.5
        assert cluster.owner(rid)[0] == owner  # carried out where the room is played: it did not move
    finally:
        table.close()
    # a logout on one worker ends that session's socket on another
    room2 = front.create_room(admin, name="logout")
    watch = front.connect(room2, victim)
    try:
        watch.next()
        where = cluster.owner(room2)[0]
        assert where is not None
        other = next(w for w in cluster.workers if w is not cluster.worker(where))
        t0 = time.monotonic()
        assert Hall(other).http(victim.token).post("/api/logout", json={}).status_code == 200
        assert closed(watch, 2.0)["params"] == {"why": "logout"} and time.monotonic() - t0 < 2.5
    finally:
        watch.close()


def test_kill_9_of_a_tables_worker_moves_the_table_within_5_s_and_loses_nothing(cluster: Cluster) -> None:
    seat = busy_table(cluster, "killed")
    others = [busy_table(cluster, f"k{i}") for i in range(3)]
    try:
        moves(seat, 5)
        owner, token = cluster.owner(seat.rid)
        assert owner is not None
        victim = cluster.worker(owner)
        shown = seat.progress()
        victim.kill9()
        killed_at = time.monotonic()
        wait_until(lambda: cluster.owner(seat.rid)[0] not in (None, owner), FAILOVER, "another worker claims the room")
        moves(seat, 1, FAILOVER, "the table plays on another worker")
        took = time.monotonic() - killed_at
        print(f"the table moved on {took:.2f} s after its worker was killed")
        assert took < FAILOVER, f"the table stood still {took:.1f} s"
        assert seat.progress() > shown
        assert cluster.owner(seat.rid)[1] > token
        nothing_lost(cluster, seat)
        victim.start()  # the same worker, the same port: the proxy sends players to it again
        cluster.wait_all_up()
        for s in [seat, *others]:
            moves(s, 5, 20, "play goes on with the worker back")
            nothing_lost(cluster, s)
    finally:
        for s in [seat, *others]:
            s.close()


@pytest.mark.slow  # a fault scenario: ~12 s (make test-slow)
def test_a_paused_worker_stores_nothing_once_another_took_its_table(cluster: Cluster) -> None:
    seat = busy_table(cluster, "paused")
    try:
        moves(seat, 5)
        owner, token = cluster.owner(seat.rid)
        assert owner is not None
        paused = cluster.worker(owner)
        os.kill(paused.pid, signal.SIGSTOP)
        stopped = time.monotonic()
        try:
            wait_until(lambda: cluster.owner(seat.rid)[0] not in (None, owner), 8, "another worker takes the room")
            moves(seat, 3, 8, "the table plays on another worker while its first one is paused")
            time.sleep(max(0.0, stopped + 10 - time.monotonic()))  # paused for 10 s in all
        finally:
            os.kill(paused.pid, signal.SIGCONT)
        new_owner, new_token = cluster.owner(seat.rid)
        assert new_owner != owner and new_token > token
        before = cluster.stored_actions(seat.rid)
        # the paused worker wakes up with the table's timers overdue: it must store nothing for it
        wait_until(lambda: seat.rid not in cluster.health(owner)["room_ids"], 5, "the paused worker drops the room")
        assert "lost room" in paused.log_text() or cluster.health(owner)["dropped"] >= 1
        moves(seat, 5, 15, "play goes on with the new owner")
        after = cluster.stored_actions(seat.rid)
        for hand, acts in before.items():
            assert after[hand][: len(acts)] == acts  # the history only grew, by the new owner's table
        assert cluster.owner(seat.rid) == (new_owner, new_token)  # nobody took it back meanwhile
        nothing_lost(cluster, seat)
    finally:
        seat.close()


@pytest.mark.slow  # a fault scenario: ~17 s (make test-slow)
def test_a_rolling_restart_of_every_worker_keeps_the_tables_playing(cluster: Cluster) -> None:
    seats = [busy_table(cluster, f"roll{i}") for i in range(6)]
    try:
        for s in seats:
            moves(s, 3)
        for w in cluster.workers:
            w.stop()  # SIGTERM: the worker gives its rooms up at once
            for s in seats:
                moves(s, 2, 10, f"play goes on while {w.url} is down")
            w.start()
            cluster.wait_all_up()
        for s in seats:
            moves(s, 3, 15, "play goes on after the rolling restart")
            nothing_lost(cluster, s)
    finally:
        for s in seats:
            s.close()
