"""Playing together, against a real hall on loopback (SQLite; PostgreSQL behind ``slow``
when PAIJU_TEST_POSTGRES names a server): blocked players never share a table (sit, and
quick start looks elsewhere) nor hear each other; a private room is in no lobby page and is
reached by its code and its link; a password room lets nobody in without it (and never
tells it); an invitation seats a friend; reserved seats; follows and the friends list with
presence. The cluster's side (a private room on no worker's lobby) is test_cluster.py's.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import SQLITE_AND_POSTGRESQL, module_hall
from .harness import Client, Hall, Player

PASSWORD = "correct horse"


@pytest.fixture(scope="module", params=SQLITE_AND_POSTGRESQL)
def hall(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with module_hall(request, tmp_path_factory, "social") as h:
        yield h


def account(hall: Hall, prefix: str) -> tuple[Player, str]:
    username = f"{prefix}_{secrets.token_hex(3)}"  # PostgreSQL's database is shared by the whole suite
    with hall.http() as c:
        r = c.post("/api/register", json={"username": username, "password": PASSWORD})
    assert r.status_code == 200, r.text
    p = r.json()["player"]
    return Player(p["id"], p["name"], r.cookies["paiju_token"]), username


def post(hall: Hall, who: Player, path: str, body: dict[str, Any]) -> httpx.Response:
    with hall.http(who.token) as c:
        return c.post(path, json=body)


def get(hall: Hall, who: Player | None, path: str) -> httpx.Response:
    with hall.http(who.token if who else None) as c:
        return c.get(path)


def sit(client: Client, seat: int) -> dict[str, Any]:
    """Sit at ``seat``: the refusal's message, or the update that shows him seated."""
    client.send({"type": "sit", "seat": seat, "id": 1})
    return client.until(lambda m: (m["type"] == "error") or (m["type"] == "update" and m["seat"] == seat))


def lobby_ids(hall: Hall, base: str | None = None) -> set[str]:
    """Every room of every page of the lobby."""
    ids: set[str] = set()
    offset = 0
    while True:
        r = httpx.get((base or hall.url) + "/api/rooms", params={"offset": offset, "limit": 50}, timeout=5)
        page = r.json()
        ids |= {room["id"] for room in page["rooms"]}
        offset += 50
        if offset >= page["total"]:
            return ids


# ---------------------------------------------------------------------------- blocking
def test_blocked_players_never_share_a_table_nor_hear_each_other(hall: Hall) -> None:
    a, _ = account(hall, "blocker")
    b, _ = account(hall, "blocked")
    c = hall.login("bystander")
    guest = hall.login("a guest")
    r = post(hall, guest, "/api/block", {"player": b.id})
    assert r.status_code == 403 and r.json()["code"] == "register_to_block"
    assert post(hall, a, "/api/block", {"player": a.id}).json()["code"] == "block_self"
    assert post(hall, a, "/api/block", {"player": b.id}).json() == {"blocked": True}
    assert get(hall, a, "/api/friends").json()["blocked"] == [{"id": b.id, "name": b.name}]

    loopback = {"one_per_address": False}  # every test player comes from 127.0.0.1
    mine = hall.create_room(a, loopback, name="a's table")
    theirs = hall.create_room(b, loopback, name="b's table")
    with hall.connect(mine, a) as ca, hall.connect(mine, b) as cb, hall.connect(mine, c) as cc:
        assert sit(ca, 0)["type"] == "update"
        assert sit(cb, 1)["code"] == "blocked_table"  # the blocked cannot sit where the blocker sits
        assert sit(cc, 1)["type"] == "update"
        # said to everyone in the room: the bystander hears it, the blocker does not
        cb.send({"type": "say", "phrase": "hurry"})
        cc.until(lambda m: m["type"] == "said" and m["name"] == b.name)
        ca.send({"type": "say", "phrase": "thanks"})
        ca.until(lambda m: m["type"] == "said" and m["phrase"] == "thanks")
        assert not [m for m in ca.messages if m["type"] == "said" and m["name"] == b.name]
        assert not [m for m in cb.messages if m["type"] == "said" and m["phrase"] == "thanks"]  # nor the other way
    with hall.connect(theirs, b) as cb, hall.connect(theirs, a) as ca:
        assert sit(cb, 0)["type"] == "update"
        assert sit(ca, 1)["code"] == "blocked_table"  # nor the blocker where the blocked sits
        cb.send({"type": "stand"})
        cb.until_update(lambda m: m["seat"] is None)
    # quick start: a's table has free seats (a and the bystander sit there); b's looks elsewhere
    with hall.http(b.token) as http:
        r = http.post("/api/quick_start", json={"game": "baohuang"})
    assert r.status_code == 200, r.text
    assert r.json()["room"] != mine
    # unblocked: they may sit together again
    assert post(hall, a, "/api/block", {"player": b.id, "on": False}).json() == {"blocked": False}
    with hall.connect(mine, b) as cb:
        assert sit(cb, 2).get("seat") == 2


# ---------------------------------------------------------------------------- private rooms
def test_a_private_room_is_in_no_lobby_page_and_is_reached_by_code_and_link(hall: Hall) -> None:
    owner = hall.login("host")
    friend = hall.login("friend")
    public = hall.create_room(owner, name="open to all")
    private = hall.create_room(owner, {"private": True}, name="friends only")
    ids = lobby_ids(hall)
    assert public in ids and private not in ids
    room = hall.room(private)  # by its link
    assert room["private"] is True and room["password"] is False and len(room["code"]) == 6
    r = get(hall, None, f"/api/codes/{room['code'].lower()}")  # typed in lower case
    assert r.status_code == 200 and r.json() == {"room": private}
    assert get(hall, None, "/api/codes/ZZZZZZ").json()["code"] == "no_such_room"
    with hall.connect(private, friend) as cf:  # a spectator by its link
        cf.until_update(lambda m: m["room"]["id"] == private)
        with hall.http(friend.token) as http:  # quick start never seats a stranger in it
            got = http.post("/api/quick_start", json={"game": "baohuang"}).json()
        assert got["room"] != private


def test_a_password_room_admits_by_password_or_invitation_and_never_tells_it(hall: Hall) -> None:
    owner = hall.login("host")
    stranger = hall.login("stranger")
    invited = hall.login("invited")
    rid = hall.create_room(owner, name="locked", password="tea time")
    listed = [r for r in httpx.get(hall.url + "/api/rooms", params={"limit": 200}).json()["rooms"] if r["id"] == rid]
    assert listed and listed[0]["password"] is True  # listed with its lock
    text = httpx.get(hall.url + f"/api/rooms/{rid}").text + str(listed)
    assert "tea time" not in text and "argon2" not in text and "invite" not in text
    with hall.connect(rid, stranger) as cs:  # the table's socket refuses him without the password
        assert cs.until(lambda m: m["type"] == "error")["code"] == "room_password"
        cs.wait_closed()
    r = post(hall, stranger, f"/api/rooms/{rid}/join", {"password": "coffee"})
    assert r.status_code == 403 and r.json()["code"] == "room_password"
    r = post(hall, stranger, f"/api/rooms/{rid}/join", {"password": "tea time"})
    assert r.json() == {"room": rid, "seat": None}
    guesser = hall.login("guesser")
    for _ in range(5):  # five wrong passwords in five minutes, then no more tries
        assert post(hall, guesser, f"/api/rooms/{rid}/join", {"password": "x"}).json()["code"] == "room_password"
    r = post(hall, guesser, f"/api/rooms/{rid}/join", {"password": "tea time"})
    assert r.status_code == 429 and r.json()["code"] == "password_too_fast"
    with hall.connect(rid, stranger) as cs:
        cs.until_update(lambda m: m["room"]["id"] == rid)
    # the creator's invitation seats a friend at a free seat, without the password
    assert get(hall, stranger, f"/api/rooms/{rid}/invite").json()["code"] == "not_seated"
    token = get(hall, owner, f"/api/rooms/{rid}/invite").json()["invite"]
    assert post(hall, invited, f"/api/rooms/{rid}/join", {"invite": "x" + token}).json()["code"] == "bad_invite"
    got = post(hall, invited, f"/api/rooms/{rid}/join", {"invite": token, "sit": True}).json()
    assert got["room"] == rid and got["seat"] == 0
    assert hall.room(rid)["seats"][0]["player_id"] == invited.id


def test_reserved_seats_are_taken_by_their_players_only(hall: Hall) -> None:
    owner = hall.login("host")
    named, username = account(hall, "named")
    other = hall.login("other")
    r = post(hall, owner, "/api/rooms", {"name": "r", "game": "baohuang", "reserved": {"9": named.id}})
    assert r.json()["code"] == "no_such_seat"
    r = post(hall, owner, "/api/rooms", {"name": "r", "game": "baohuang", "reserved": {"1": "nobody_at_all"}})
    assert r.status_code == 400 and r.json()["code"] == "no_such_player"
    rid = hall.create_room(owner, name="reserved", reserved={"0": username.upper()})  # by user name
    assert hall.room(rid)["reserved"] == [named.id, None, None, None, None]
    with hall.connect(rid, other) as co:
        assert sit(co, 0)["code"] == "seat_reserved"
        co.send({"type": "sit", "seat": 2})
        co.until_update(lambda m: m["seat"] == 2)
        co.send({"type": "bot", "seat": 0, "level": "normal"})
        assert co.until(lambda m: m["type"] == "error")["code"] == "seat_reserved"
    token = get(hall, owner, f"/api/rooms/{rid}/invite").json()["invite"]
    got = post(hall, named, f"/api/rooms/{rid}/join", {"invite": token, "sit": True}).json()
    assert got["seat"] == 0  # his reserved seat first


# ---------------------------------------------------------------------------- follows
def test_follows_and_the_friends_list_with_presence_and_table(hall: Hall) -> None:
    me, _ = account(hall, "follower")
    friend, _ = account(hall, "followed")
    guest = hall.login("a guest")
    r = post(hall, guest, "/api/follow", {"player": friend.id})
    assert r.status_code == 403 and r.json()["code"] == "register_to_follow"
    assert post(hall, me, "/api/follow", {"player": 10**9}).json()["code"] == "no_such_player"
    assert post(hall, me, "/api/follow", {"player": friend.id}).json() == {"following": True}
    listed = get(hall, me, "/api/friends").json()["following"]
    assert listed == [{"id": friend.id, "name": friend.name, "online": False, "room": None}]
    public = hall.create_room(friend, name="friend's table")
    private = hall.create_room(friend, {"private": True}, name="hidden")
    with hall.connect(public, friend) as cf:
        assert sit(cf, 0)["type"] == "update"
        (entry,) = get(hall, me, "/api/friends").json()["following"]
        assert entry["online"] is True and entry["room"] == {"id": public, "name": "friend's table", "game": "baohuang"}
        cf.send({"type": "stand"})
        cf.until_update(lambda m: m["seat"] is None)
    with hall.connect(private, friend) as cf:
        assert sit(cf, 0)["type"] == "update"
        (entry,) = get(hall, me, "/api/friends").json()["following"]
        assert entry["online"] is True and entry["room"] is None  # a private table is never told
    assert post(hall, me, "/api/follow", {"player": friend.id, "on": False}).json() == {"following": False}
    assert get(hall, me, "/api/friends").json()["following"] == []


# ---------------------------------------------------------------------------- later changes, invitations
def test_the_creator_changes_who_may_come_after_the_room_is_made(hall: Hall) -> None:
    owner = hall.login("host")
    stranger = hall.login("stranger")
    named, username = account(hall, "kept_for")
    rid = hall.create_room(owner, name="changing")
    assert post(hall, stranger, f"/api/rooms/{rid}/access", {"private": True}).json()["code"] == "not_room_creator"
    assert post(hall, owner, f"/api/rooms/{rid}/access", {"private": "yes"}).json()["code"] == "bad_value"
    got = post(hall, owner, f"/api/rooms/{rid}/access", {"private": True}).json()
    assert got["private"] is True and rid not in lobby_ids(hall)
    assert hall.room(rid)["options"]["private"] is True  # the room's options say it too
    assert post(hall, owner, f"/api/rooms/{rid}/access", {"private": False}).status_code == 200
    assert rid in lobby_ids(hall)
    # a password set later: a stranger is refused until he gives it; removed: anybody again
    got = post(hall, owner, f"/api/rooms/{rid}/access", {"password": "later"}).json()
    assert got["password"] is True and "later" not in str(got)
    with hall.connect(rid, stranger) as cs:
        assert cs.until(lambda m: m["type"] == "error")["code"] == "room_password"
    assert post(hall, stranger, f"/api/rooms/{rid}/join", {"password": "later"}).json()["room"] == rid
    assert post(hall, owner, f"/api/rooms/{rid}/access", {"password": ""}).json()["password"] is False
    # seats reserved later (by user name), then freed; a seat that is not there is refused
    r = post(hall, owner, f"/api/rooms/{rid}/access", {"reserved": {"7": username}})
    assert r.json()["code"] == "no_such_seat" and hall.room(rid)["reserved"] == [None] * 5
    got = post(hall, owner, f"/api/rooms/{rid}/access", {"reserved": {"1": username}}).json()
    assert got["reserved"] == [None, named.id, None, None, None]
    with hall.connect(rid, stranger) as cs:
        assert sit(cs, 1)["code"] == "seat_reserved"
    assert post(hall, owner, f"/api/rooms/{rid}/access", {"reserved": {}}).json()["reserved"] == [None] * 5
    # a new invitation: the old link stops working
    old = get(hall, owner, f"/api/rooms/{rid}/invite").json()["invite"]
    new = post(hall, owner, f"/api/rooms/{rid}/access", {"new_invite": True}).json()["invite"]
    assert new != old
    assert post(hall, stranger, f"/api/rooms/{rid}/join", {"invite": old}).json()["code"] == "bad_invite"
    assert post(hall, stranger, f"/api/rooms/{rid}/join", {"invite": new}).json()["room"] == rid


def test_an_invitation_reaches_the_friends_page_and_seats_him(hall: Hall) -> None:
    host, _ = account(hall, "inviter")
    friend, _ = account(hall, "invitee")
    stranger, _ = account(hall, "not_a_friend")
    rid = hall.create_room(host, {"private": True}, name="come and play")
    r = post(hall, host, f"/api/rooms/{rid}/invite", {"player": friend.id})
    assert r.status_code == 403 and r.json()["code"] == "invite_not_friend"  # only those he follows
    assert post(hall, host, "/api/follow", {"player": friend.id}).json() == {"following": True}
    assert post(hall, stranger, f"/api/rooms/{rid}/invite", {"player": friend.id}).json()["code"] == "not_seated"
    assert post(hall, host, f"/api/rooms/{rid}/invite", {"player": host.id}).json()["code"] == "invite_self"
    assert post(hall, host, f"/api/rooms/{rid}/invite", {"player": friend.id}).status_code == 200
    assert post(hall, host, f"/api/rooms/{rid}/invite", {"player": friend.id}).status_code == 200  # again: one shown
    (inv,) = get(hall, friend, "/api/invitations").json()["invitations"]
    assert inv["room"] == rid and inv["name"] == "come and play" and inv["game"] == "baohuang"
    assert inv["from"] == {"id": host.id, "name": host.name}
    assert get(hall, stranger, "/api/invitations").json()["invitations"] == []
    assert post(hall, stranger, f"/api/invitations/{inv['id']}/dismiss", {}).json()["code"] == "no_such_invitation"
    got = post(hall, friend, f"/api/rooms/{rid}/join", {"invite": inv["invite"], "sit": True}).json()
    assert got == {"room": rid, "seat": 0}
    assert post(hall, friend, f"/api/invitations/{inv['id']}/dismiss", {}).json() == {"dismissed": inv["id"]}
    assert get(hall, friend, "/api/invitations").json()["invitations"] == []
    # a block ends it: no invitation either way
    assert post(hall, friend, "/api/block", {"player": host.id}).json() == {"blocked": True}
    r = post(hall, host, f"/api/rooms/{rid}/invite", {"player": friend.id})
    assert r.json()["code"] in ("invite_not_friend", "invite_blocked")


def test_a_password_rooms_admitted_stay_admitted_when_the_hall_restarts(start_server: Any) -> None:
    server = start_server()
    h = Hall(server)
    owner, stranger = h.login("host"), h.login("stranger")
    rid = h.create_room(owner, name="locked", password="open sesame")
    assert post(h, stranger, f"/api/rooms/{rid}/join", {"password": "open sesame"}).status_code == 200
    server.stop()
    server.start()
    with h.connect(rid, stranger) as cs:  # no password asked again
        cs.until_update(lambda m: m["room"]["id"] == rid)
