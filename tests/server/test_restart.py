"""Reconnecting keeps the seat and the view; a crashed hall (SIGKILL) resumes every hand
from its records (docs/protocol.md: "Every accepted action is written to the store before
the update that shows it is sent. After a crash and restart every table resumes")."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx

import paiju

from .harness import (
    Client,
    Hall,
    Player,
    ServerProcess,
    act_policy,
    biggest,
    first_legal,
    game_at,
    guest_me,
    jsonish,
    sit_with_bots,
)


def into_the_play(c: Client, min_turn: int = 8) -> dict[str, Any]:
    """Act (the first legal action) until the hand is in the play phase, past ``min_turn``,
    and waits for this seat again; that update."""
    m = c.my_turn(30)
    while m["view"]["step"] != "play" or m["turn"] < min_turn:
        c.act(first_legal(m["view"]), m["turn"])
        m = c.until_update(lambda x, t=m["turn"]: x["turn"] > t and x["view"]["to_act"] == 0, 30)
    c.sync()
    latest = c.latest_update()
    assert latest is not None and latest["turn"] == m["turn"]
    return latest


def start_with_bots(hall: Hall, name: str, **kw: Any) -> tuple[Player, str, Client]:
    p = hall.login(name)
    rid = hall.create_room(p, {"variant": "classic"}, turn_timeout=600)
    c = hall.connect(rid, p, **kw)
    sit_with_bots(c)
    c.send({"type": "start"})
    return p, rid, c


def wait_until(cond: Callable[[], bool], timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def play_to_the_end(hall: Hall, rid: str, p: Player) -> dict[str, Any]:
    with hall.connect(rid, p, policy=act_policy(biggest)) as c:  # acts from the first update on
        return c.until_update(lambda m: m["room"]["status"] != "playing", 60)


def test_reconnect_gives_the_same_seat_and_view(hall: Hall) -> None:
    p, rid, c = start_with_bots(hall, "reconnecter")
    with c:
        before = into_the_play(c)
    wait_until(lambda: hall.room(rid)["seats"][0]["connected"] is False)
    assert hall.room(rid)["status"] == "playing"
    with hall.connect(rid, p) as again:
        hello = again.next()
        assert hello["type"] == "hello" and hello["seat"] == 0
        now = again.next()
        assert now["type"] == "update" and now["seat"] == 0
        assert now["turn"] == before["turn"] and now["view"] == before["view"]
        assert now["view"]["hand"] == before["view"]["hand"] and now["view"]["to_act"] == 0
        assert now["room"]["seats"][0]["connected"] is True
        # a second tab of the same player acts for the same seat; both are told
        with hall.connect(rid, p) as tab:
            assert tab.next()["seat"] == 0
            assert tab.next()["view"] == before["view"]
            again.sync()
            tab.act(biggest(before["view"]), before["turn"])
            for conn in (tab, again):
                m = conn.until_update(lambda m: m["turn"] > before["turn"])
                assert m["view"]["events"][len(before["view"]["events"])]["seat"] == 0


def test_a_killed_hall_resumes_the_hand(make_server: Callable[..., ServerProcess]) -> None:
    server = make_server()
    hall = Hall(server)
    p, rid, c = start_with_bots(hall, "survivor")
    with c:
        before = into_the_play(c)
        room_before = hall.room(rid)
        server.kill9()
        c.wait_closed()
    server.start()  # the same database file, a new process
    with httpx.Client(base_url=server.url) as h:
        assert guest_me(h.get("/api/me", headers={"X-Paiju-Token": p.token}).json()) == (p.id, p.name)
        assert rid in {r["id"] for r in h.get("/api/rooms").json()["rooms"]}
    room = hall.room(rid)
    assert room["status"] == "playing" and room["hand_number"] == 1
    assert {k: v for k, v in room.items() if k != "seats"} == {k: v for k, v in room_before.items() if k != "seats"}
    with hall.connect(rid, p) as again:
        assert again.next()["seat"] == 0
        now = again.next()
        assert now["turn"] == before["turn"], "the restarted hall lost or invented actions"
        assert now["view"] == before["view"]
        assert now["deadline"] is not None
    last = play_to_the_end(hall, rid, p)
    assert last["view"]["phase"] == "over" and last["room"]["status"] == "between"
    record = hall.record(rid, 1)
    assert jsonish(game_at(record, before["turn"]).view(0)) == before["view"]
    assert paiju.replay(record).scores == tuple(last["view"]["scores"])
    assert hall.room(rid)["hands"][0]["scored"] is True


def test_every_update_shown_before_a_crash_was_stored(make_server: Callable[..., ServerProcess]) -> None:
    """The seat is on 托管 and the bots play every 20 ms; the hall is killed in the middle
    of the stream. Every update a client saw must be rebuilt by the stored record, and the
    hand goes on by itself after the restart."""
    server = make_server(bot_delay=0.02)
    hall = Hall(server)
    p, rid, c = start_with_bots(hall, "crasher")
    with c:
        first = c.my_turn(30)
        c.send({"type": "hosted", "on": True})
        c.until_update(lambda m: m["turn"] >= first["turn"] + 40, 30)
        server.kill9()
        c.wait_closed()
        seen = [m for m in c.messages if m["type"] == "update" and m["view"] is not None]
    assert seen[-1]["view"]["phase"] != "over", "the hand ended before the crash: nothing was tested"
    server.bot_delay = 0.0
    server.start()
    with hall.connect(rid, p) as again:
        last = again.until_update(lambda m: m["view"]["phase"] == "over", 60)
    assert last["room"]["hands"][0]["scored"] is False  # the only human was on 托管
    record = hall.record(rid, 1)
    assert len(record["actions"]) >= seen[-1]["turn"]
    game = paiju.replay({**record, "actions": []})
    for m in seen:
        while len(game.history) < m["turn"]:
            game.apply(record["actions"][len(game.history)])
        assert jsonish(game.view(0)) == m["view"], f"turn {m['turn']} was shown but not stored as shown"


def test_a_seat_left_on_hosted_stays_locked_after_a_restart(make_server: Callable[..., ServerProcess]) -> None:
    """A switches 托管 on, then leaves: his seat is locked (he left). After a crash the seat
    must still be locked: a player who left cannot take his seat back by switching 托管 off."""
    server = make_server()
    hall = Hall(server)
    a, b = hall.login("left-A"), hall.login("left-B")
    rid = hall.create_room(a, {"variant": "standard"}, turn_timeout=600)
    ca, cb = hall.connect(rid, a), hall.connect(rid, b)
    with ca, cb:
        sit_with_bots(ca, 0, humans=(1,))
        cb.send({"type": "sit", "seat": 1})
        cb.until_update(lambda m: m["seat"] == 1)
        ca.send({"type": "start"})
        cb.send({"type": "start"})  # every person is ready 准备: the hand starts
        while True:  # A plays until the hand waits for B, who never acts
            m = ca.until_update(lambda m: m["view"] is not None and m["view"]["to_act"] in (0, 1))
            if m["view"]["to_act"] == 1:
                break
            ca.act(biggest(m["view"]), m["turn"])
        ca.send({"type": "hosted", "on": True})
        ca.until_update(lambda m: m["room"]["seats"][0]["hosted"])
        ca.send({"type": "leave"})
        ca.until_update(lambda m: m["room"]["seats"][0]["locked"])
        assert hall.room(rid)["standings"][0] == -40
        server.kill9()
    server.start()
    seat = hall.room(rid)["seats"][0]
    assert seat["hosted"] is True and seat["locked"] is True
    with hall.connect(rid, a) as again:
        again.until_update(lambda m: True)
        again.send({"type": "hosted", "on": False})
        assert again.until(lambda m: m["type"] in ("error", "update"))["type"] == "error"
