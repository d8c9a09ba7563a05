"""The hall's fair limits against hostile clients (docs/protocol.md, "Limits"): message
rates shared by a player's connections and by an address, floods disconnected, caps on
connections, on open rooms and on rooms created a minute, the lobby paged from a
snapshot, hand records cached and served for open rooms only.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable

from websockets.exceptions import ConnectionClosed

from .abuse_helpers import create, lobby, pongs_and_errors, refused_connection
from .harness import Client, Hall, Player, ServerProcess, sit_with_bots


# ====================================================================== 2. fair limits
def test_a_players_rate_is_shared_by_all_their_connections(start_server: Callable[..., ServerProcess]) -> None:
    """Issue: the rate limit was per connection: more tabs bought more of the hall. One
    player's three connections share one bucket (5 a second, bursts of 10): of 45 pings
    sent at once about 10 are answered (per connection it would be 30), the rest dropped
    without an answer, and every connection stays open."""
    server = start_server(limits={"rate": 5, "flood_drops": 1000})
    hall = Hall(server)
    p = hall.login("tabs")
    rid = hall.create_room(p)
    tabs = [hall.connect(rid, p, throttle=False) for _ in range(3)]
    for t in tabs:
        t.until_update(lambda m: True)
    for i in range(15):
        for t in tabs:
            t.send({"type": "ping", "id": i})
    time.sleep(1.5)  # every answer is in, and the bucket refills
    pongs, errors = pongs_and_errors(tabs)
    assert errors == 0, "a dropped message was answered"
    assert 10 <= pongs <= 20, pongs  # one bucket of 10, refilling at 5/s; one per tab: 30
    for t in tabs:  # dropped, not disconnected
        t.skip()
        t.sync()
        t.close()


def test_an_address_rate_is_shared_by_all_its_players(start_server: Callable[..., ServerProcess]) -> None:
    """Three players from one address share its bucket (5 a second, bursts of 10): 45 pings
    at once, about 10 answered, none with an error."""
    server = start_server(limits={"address_rate": 5, "rate": 1000, "flood_drops": 1000})
    hall = Hall(server)
    players = [hall.login(f"roommate{i}") for i in range(3)]
    rid = hall.create_room(players[0])
    clients = [hall.connect(rid, p, throttle=False) for p in players]
    for c in clients:
        c.until_update(lambda m: True)
    for i in range(15):
        for c in clients:
            c.send({"type": "ping", "id": i})
    time.sleep(1.5)
    pongs, errors = pongs_and_errors(clients)
    assert errors == 0 and 10 <= pongs <= 20, (pongs, errors)
    for c in clients:
        c.close()


def test_a_persistent_flooder_is_disconnected_and_the_others_play_on(
    start_server: Callable[..., ServerProcess],
) -> None:
    """Issue: one client slowed every table, and every refused message got an error frame.
    A flood past the rate is dropped unanswered; after ``flood_drops`` drops within the
    window the connection is closed, 1008 "too many messages". Another player still plays."""
    server = start_server(limits={"rate": 5, "flood_drops": 30})
    hall = Hall(server)
    p, q = hall.login("flooder"), hall.login("bystander")
    rid = hall.create_room(p)
    flooder = hall.connect(rid, p, throttle=False)
    flooder.until_update(lambda m: True)
    with contextlib.suppress(ConnectionClosed):
        for i in range(500):
            flooder.send({"type": "ping", "id": i})
    flooder.wait_closed()
    assert (flooder.ws.close_code, flooder.ws.close_reason) == (1008, "too many messages")
    pongs, errors = pongs_and_errors([flooder])
    assert errors == 0 and pongs <= 15, (pongs, errors)
    flooder.close()
    with hall.connect(hall.create_room(q), q) as c:
        c.sync()
        c.send({"type": "sit", "seat": 0})
        assert c.until(lambda m: m["type"] in ("update", "error"))["seat"] == 0


def test_connections_are_capped_per_player_and_per_address(start_server: Callable[..., ServerProcess]) -> None:
    """Issue: no cap on connections per player or per address. Past ``conns_per_player``
    (2) or ``conns_per_address`` (4) the handshake gets an error and close code 4429; a
    connection that closes frees its place."""
    server = start_server(limits={"conns_per_player": 2, "conns_per_address": 4})
    hall = Hall(server)
    a, b, c, d = (hall.login(n) for n in ("ann", "ben", "cat", "dan"))
    rid = hall.create_room(a)
    a1, a2 = hall.connect(rid, a), hall.connect(rid, a)
    for conn in (a1, a2):
        assert conn.next()["type"] == "hello"
    refused_connection(hall.connect(rid, a), 4429, "too many connections")
    a2.close()
    a3 = hall.connect(rid, a)  # a2's place is free again
    assert a3.next()["type"] == "hello"
    others = [hall.connect(rid, b), hall.connect(rid, c)]  # 4 from this address now
    for conn in others:
        assert conn.next()["type"] == "hello"
    refused_connection(hall.connect(rid, d), 4429, "your address")
    room = hall.room(rid)
    assert room["spectators"] == 3  # ann, ben, cat: the refused ones were never at the table
    for conn in (a1, a3, *others):
        conn.close()


def test_a_player_has_a_few_open_rooms_at_once(start_server: Callable[..., ServerProcess]) -> None:
    """Issue: 3,000 rooms in 14 s by one player. A player has at most ``rooms_per_player``
    (2) open rooms: the third is refused with a 400 saying why; once the empty ones have
    closed (``room_idle``) the player may create again."""
    server = start_server(limits={"rooms_per_player": 2, "rooms_per_minute": 600, "room_idle": 2})
    hall = Hall(server)
    p, q = hall.login("builder"), hall.login("neighbour")
    first = [create(hall, p, f"r{i}") for i in range(2)]
    assert [r.status_code for r in first] == [200, 200]
    visits = [hall.connect(r.json()["id"], p) for r in first]  # in use: they stay open meanwhile
    third = create(hall, p, "r2")
    assert third.status_code == 400 and "open rooms" in third.json()["error"], third.text
    assert {r["name"] for r in lobby(hall)["rooms"]} == {"r0", "r1"}
    assert create(hall, q).status_code == 200  # a limit of one player, not of the hall
    for v in visits:
        v.close()
    deadline = time.monotonic() + 15
    while {r["id"] for r in lobby(hall)["rooms"]} & {r.json()["id"] for r in first}:
        assert time.monotonic() < deadline, "the idle rooms did not close"
        time.sleep(0.3)
    assert create(hall, p, "again").status_code == 200


def test_a_player_creates_a_few_rooms_a_minute(start_server: Callable[..., ServerProcess]) -> None:
    """Rooms are created at ``rooms_per_minute`` per player (2: bursts of one): the second
    room at once is refused with a 400, another player is not."""
    server = start_server(limits={"rooms_per_minute": 2, "rooms_per_player": 100})
    hall = Hall(server)
    p, q = hall.login("hasty"), hall.login("patient")
    assert create(hall, p).status_code == 200
    r = create(hall, p, "second")
    assert r.status_code == 400 and "a minute" in r.json()["error"], r.text
    assert "second" not in {room["name"] for room in lobby(hall)["rooms"]}
    assert create(hall, q).status_code == 200


def test_the_lobby_is_paged_and_served_from_a_snapshot(start_server: Callable[..., ServerProcess]) -> None:
    """Issue: GET /api/rooms returned 2 MB built on the event loop. It is paged (offset,
    limit: at most 200) and served from a snapshot rebuilt at most every ``lobby_refresh``
    seconds; a new room shows at once."""
    server = start_server(limits={"lobby_page": 3, "lobby_refresh": 3600})
    hall = Hall(server)
    p = hall.login("lister")
    ids = [hall.create_room(p, name=f"room {i}") for i in range(7)]
    pages = [lobby(hall, f"?offset={o}") for o in (0, 3, 6)]
    assert [len(page["rooms"]) for page in pages] == [3, 3, 1]
    assert all(page["total"] == 7 and page["limit"] == 3 for page in pages)
    assert [r["id"] for page in pages for r in page["rooms"]] == ids[::-1]  # newest first, each once
    assert len(lobby(hall, "?limit=200")["rooms"]) == 7
    with hall.http() as c:
        for query in ("?limit=201", "?limit=0", "?offset=-1", "?offset=x", "?limit=1" + "0" * 5000):
            r = c.get("/api/rooms" + query)
            assert r.status_code == 400 and r.json()["error"], (query, r.text)
    # a seat taken now shows in the room at once, in the lobby's snapshot not yet
    with hall.connect(ids[0], p) as c:
        c.send({"type": "sit", "seat": 0})
        c.until_update(lambda m: m["seat"] == 0)
        assert hall.room(ids[0])["seats"][0]["player"] == "lister"
        listed = {r["id"]: r for r in lobby(hall, "?limit=10")["rooms"]}
        assert listed[ids[0]]["seats"][0]["player"] is None
        # a new room is listed at once (and the snapshot rebuilt with it)
        new = hall.create_room(p, name="newest")
        rooms = lobby(hall, "?limit=10")["rooms"]
        assert rooms[0]["id"] == new
        assert {r["id"]: r for r in rooms}[ids[0]]["seats"][0]["player"] == "lister"


def play_one_hand(hall: Hall, player: Player) -> tuple[str, Client]:
    """A room whose first hand is over, and the player's connection to it (the room is in
    use while it is open): four 托管 bots, the player switches 托管 on at once (the table is
    then dissolved: nobody stays seated)."""
    rid = hall.create_room(player)
    c = hall.connect(rid, player)
    sit_with_bots(c, level="hosted")
    c.send({"type": "start"})
    c.my_turn()
    c.send({"type": "hosted", "on": True})
    c.until_update(lambda m: m["room"]["hand_number"] == 1 and m["room"]["status"] != "playing", 60)
    return rid, c


def test_records_are_served_from_a_cache_and_for_open_rooms_only(start_server: Callable[..., ServerProcess]) -> None:
    """Issue: /api/rooms/{id}/hands/{n} replayed the hand from the store on every call,
    for anyone. A finished hand's record is kept once read, and served only while its room
    is open (listed in the lobby); a closed room's records are 404.

    The cache shows from outside: once a record was read, its rows are cut short in the
    database; the hall still serves the record it kept, while a hand not read before is
    found damaged (409) — that is what every call did before."""
    server = start_server(limits={"room_idle": 1})
    hall = Hall(server)
    p = hall.login("replayer")
    (kept, c1), (unread, c2) = play_one_hand(hall, p), play_one_hand(hall, p)
    with hall.http() as c:  # anyone may read the records of an open room
        first = c.get(f"/api/rooms/{kept}/hands/1")
    assert first.status_code == 200 and first.json()["actions"]
    with sqlite3.connect(server.db, timeout=10) as db:
        for rid in (kept, unread):
            (hand,) = db.execute("SELECT id FROM hands WHERE room_id = ? AND number = 1", (rid,)).fetchone()
            db.execute(
                "DELETE FROM actions WHERE hand_id = ? AND seq = (SELECT MAX(seq) FROM actions WHERE hand_id = ?)",
                (hand, hand),
            )
    with hall.http() as c:
        again = c.get(f"/api/rooms/{kept}/hands/1")
        assert again.status_code == 200 and again.content == first.content
        assert c.get(f"/api/rooms/{unread}/hands/1").status_code == 409
        # nobody uses the rooms any more: they close, archived, and their records are still served
        c1.close()
        c2.close()
        deadline = time.monotonic() + 15
        while c.get(f"/api/rooms/{kept}").status_code != 404:
            assert time.monotonic() < deadline, "the idle room did not close"
            time.sleep(0.3)
        r = c.get(f"/api/rooms/{kept}/hands/1")
        assert r.status_code == 200 and r.content == first.content
        assert c.get(f"/api/rooms/{kept}/hands/2").status_code == 404
        assert c.get("/api/rooms/nosuchroom/hands/1").status_code == 404
