"""The table WebSocket (docs/protocol.md): hello/update, refusals that change nothing,
acting only for one's own seat, throttling, and a whole hand played through the socket."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

import paiju
from paiju.server.tables.autoplay import FIRST_TURN_FACTOR

from .harness import Client, Hall, Player, first_legal, hand_results, is_my_turn, jsonish, sit_with_bots


def human_at_turn(hall: Hall, name: str, variant: str = "standard") -> tuple[Player, str, Client, dict[str, Any]]:
    """One human at seat 0 and four bots; the hand waits for the human (turn timeout 600 s)."""
    p = hall.login(name)
    rid = hall.create_room(p, {"variant": variant}, turn_timeout=600)
    c = hall.connect(rid, p)
    sit_with_bots(c)
    c.send({"type": "start"})
    return p, rid, c, c.my_turn()


def assert_unchanged(hall: Hall, c: Client, rid: str, before: dict[str, Any], room_before: dict[str, Any]) -> None:
    """Nothing happened: no update since, the room is the same, and the seat can still act
    at the same turn (so no action was stored in between)."""
    assert not [m for m in c.sync() if m["type"] == "update"], "a refused message caused an update"
    assert hall.room(rid) == room_before
    turn = before["turn"]
    c.act(first_legal(before["view"]), turn)
    after = c.until(lambda m: m["type"] in ("update", "error"))
    assert after["type"] == "update", f"the follow-up action at turn {turn} was refused: {after}"
    assert after["turn"] == turn + 1
    assert after["view"]["events"][: len(before["view"]["events"])] == before["view"]["events"]


# ---------------------------------------------------------------------- connecting
def test_hello_then_update_on_connect(hall: Hall) -> None:
    p = hall.login("greeter")
    rid = hall.create_room(p)
    with hall.connect(rid, p) as c:
        hello = c.next()
        assert hello == {"type": "hello", "player": {"id": p.id, "name": p.name}, "room": rid, "seat": None}
        update = c.next()
        assert update["type"] == "update" and update["room"]["id"] == rid
        assert update["seat"] is None and update["turn"] == 0 and update["view"] is None
        c.send({"type": "sit", "seat": 3})
        sat = c.next()
        assert sat["type"] == "update" and sat["seat"] == 3
        assert sat["room"]["seats"][3]["player"] == p.name and sat["room"]["seats"][3]["connected"] is True
    # the cookie identifies a WebSocket as well as the token parameter does
    cookie = {"Cookie": f"paiju_token={p.token}", "Origin": hall.url}
    with Client(f"{hall.server.ws_url}/ws/{rid}", headers=cookie) as c:
        hello = c.next()
        assert hello["player"]["id"] == p.id and hello["seat"] == 3
        assert c.next()["seat"] == 3


@pytest.mark.parametrize("case", ["no identity", "no room"])
def test_connect_refused(hall: Hall, case: str) -> None:
    p = hall.login("stranger")
    rid = hall.create_room(p)
    if case == "no identity":
        c = hall.connect(rid, None)
    else:
        c = hall.connect("no-such-room", p)
    msg = c.next()
    assert msg["type"] == "error"
    assert ("name" in msg["error"]) if case == "no identity" else ("room" in msg["error"])
    c.wait_closed()
    assert c.ws.close_code == (4401 if case == "no identity" else 4404)
    c.close()


# ---------------------------------------------------------------------- refusals
BAD_MESSAGES: list[tuple[str, str | bytes, str]] = [
    ("bad JSON", "{not json", "JSON"),
    ("bad bytes", b"\xff\xfe\x00", "JSON"),
    ("not an object", "[1, 2, 3]", "object"),
    ("no type", json.dumps({"action": "pass"}), "type"),
    ("unknown type", json.dumps({"type": "fly"}), "fly"),
    ("oversize", json.dumps({"type": "ping", "id": "x" * (64 * 1024 + 10)}), "large"),
    ("oversize act", json.dumps({"type": "act", "action": "pass", "id": "y" * 70000}), "large"),
    ("missing seat", json.dumps({"type": "sit"}), "seat"),
    ("missing action", json.dumps({"type": "act"}), "action"),
    ("extra field seat", json.dumps({"type": "act", "action": "pass", "seat": 1}), "seat"),
    ("extra field", json.dumps({"type": "hint", "please": True}), "please"),
    ("action wrong type", json.dumps({"type": "act", "action": 7}), "action"),
    ("empty action", json.dumps({"type": "act", "action": ""}), "action"),
    ("action too long", json.dumps({"type": "act", "action": "7" * 201}), "action"),
    ("turn wrong type", json.dumps({"type": "act", "action": "pass", "turn": "3"}), "turn"),
    ("negative turn", json.dumps({"type": "act", "action": "pass", "turn": -1}), "turn"),
    ("turn past 2^53", json.dumps({"type": "act", "action": "pass", "turn": 2**60}), "turn"),
    ("id past 2^53", json.dumps({"type": "hint", "id": 2**70}), "id"),
    ("id too long", json.dumps({"type": "hint", "id": "x" * 65}), "id"),
    ("seat wrong type", json.dumps({"type": "sit", "seat": "0"}), "seat"),
    ("seat out of range", json.dumps({"type": "sit", "seat": 99}), "seat"),
    ("hosted wrong type", json.dumps({"type": "hosted", "on": "yes"}), "on"),
    ("bad bot level", json.dumps({"type": "bot", "seat": 1, "level": "godlike"}), "level"),
    ("unreadable action", json.dumps({"type": "act", "action": "fly away"}), "fly"),
    ("impossible action", json.dumps({"type": "act", "action": "BJ BJ BJ BJ BJ"}), "BJ"),
    ("stand while playing", json.dumps({"type": "stand"}), "leave"),
    ("start while playing", json.dumps({"type": "start"}), "already"),
    ("sit while seated", json.dumps({"type": "sit", "seat": 1}), "seat"),
]


@pytest.mark.parametrize(("raw", "named"), [(r, n) for _, r, n in BAD_MESSAGES], ids=[i for i, _, _ in BAD_MESSAGES])
def test_an_invalid_message_is_refused_and_changes_nothing(hall: Hall, raw: str | bytes, named: str) -> None:
    _, rid, c, before = human_at_turn(hall, "refused")
    with c:
        room_before = hall.room(rid)
        c.send(raw)
        err = c.error()
        assert named in err["error"], err
        assert_unchanged(hall, c, rid, before, room_before)


@pytest.mark.parametrize("delta", [1, -1, 1000])
def test_a_stale_turn_is_refused(hall: Hall, delta: int) -> None:
    _, rid, c, before = human_at_turn(hall, "stale")
    with c:
        if before["turn"] + delta < 0:  # the human is first to act: go one turn further
            c.act(first_legal(before["view"]), before["turn"])
            before = c.my_turn()
        room_before = hall.room(rid)
        c.act(first_legal(before["view"]), before["turn"] + delta)
        err = c.error()
        assert "stale" in err["error"] and str(before["turn"]) in err["error"]
        assert_unchanged(hall, c, rid, before, room_before)


def test_only_the_seat_to_act_may_act(hall: Hall) -> None:
    """Two humans: while one is to act the other is refused, whatever he sends; a message
    naming another seat is a schema violation."""
    a, b = hall.login("first"), hall.login("second")
    rid = hall.create_room(a, turn_timeout=600)
    with hall.connect(rid, a) as ca, hall.connect(rid, b) as cb:
        sit_with_bots(ca, 0, humans=(1,))
        cb.send({"type": "sit", "seat": 1})
        cb.until_update(lambda m: m["seat"] == 1)
        ca.send({"type": "start"})
        cb.send({"type": "start"})  # every person is ready 准备: the hand starts
        # the hand stops at the first human to act
        first = ca.until_update(lambda m: m["view"] is not None and m["view"]["to_act"] in (0, 1))
        mover, other = (ca, cb) if first["view"]["to_act"] == 0 else (cb, ca)
        mover.sync(), other.sync()  # the hand waits: the last update of each is the current one
        before, other_update = mover.latest_update(), other.latest_update()
        assert before is not None and other_update is not None
        assert is_my_turn(before) and before["turn"] == other_update["turn"] == first["turn"]
        assert "legal_actions" in before["view"]
        other_view = other_update["view"]
        assert "legal_actions" not in other_view  # only the seat to act is told what it may do
        room_before = hall.room(rid)
        for action in before["view"]["legal_actions"][:3]:
            other.act(action, before["turn"])
            err = other.error()
            assert "not your turn" in err["error"] and str(before["view"]["to_act"]) in err["error"]
        other.send({"type": "act", "action": first_legal(before["view"]), "seat": before["view"]["to_act"]})
        assert "seat" in other.error()["error"]
        other.send({"type": "hint"})
        assert other.error()["error"]
        assert not [m for m in other.sync() if m["type"] == "update"]
        assert_unchanged(hall, mover, rid, before, room_before)


def test_a_spectator_cannot_act(hall: Hall) -> None:
    p, rid, c, before = human_at_turn(hall, "player")
    watcher = hall.login("watcher")
    with c, hall.connect(rid, watcher) as w:
        assert w.next()["seat"] is None
        seen = w.next()
        assert seen["seat"] is None and seen["view"]["hand"] is None and "legal_actions" not in seen["view"]
        assert seen["room"]["spectators"] == 1
        c.sync()  # c was told of the spectator before the pong
        room_before = hall.room(rid)
        for msg in (
            {"type": "act", "action": first_legal(before["view"])},
            {"type": "act", "action": first_legal(before["view"]), "turn": before["turn"]},
            {"type": "hint"},
            {"type": "hosted", "on": True},
            {"type": "start"},
            {"type": "leave"},
            {"type": "stand"},
        ):
            w.send(msg)
            err = w.error()
            assert err["error"] and err.get("reply_to") == msg["type"], err
        assert not [m for m in w.sync() if m["type"] == "update"]
        assert_unchanged(hall, c, rid, before, room_before)


def test_no_hand_being_played(hall: Hall) -> None:
    p = hall.login("early")
    rid = hall.create_room(p)
    with hall.connect(rid, p) as c:
        c.send({"type": "sit", "seat": 0})
        c.until_update(lambda m: m["seat"] == 0)
        room_before = hall.room(rid)
        for msg, named in (
            ({"type": "act", "action": "accept"}, "no hand"),
            ({"type": "act", "action": "accept", "turn": 0}, "no hand"),
            ({"type": "hint"}, "hint"),
            ({"type": "hosted", "on": True}, "托管"),
            ({"type": "start"}, "1, 2, 3, 4"),  # every seat must be taken: names the empty ones
            ({"type": "sit", "seat": 1}, "already"),
            ({"type": "sit", "seat": 7}, "seat 7"),
            ({"type": "bot", "seat": 0, "level": "normal"}, "taken"),
            ({"type": "bot", "seat": 5, "level": "normal"}, "no seat 5"),  # a room of 5 seats: 0-4
            ({"type": "bot", "seat": 2, "level": None}, "computer"),
        ):
            c.send(msg)
            err = c.error()
            assert named in err["error"], (msg, err)
        assert not [m for m in c.sync() if m["type"] == "update"]
        assert hall.room(rid) == room_before
    other = hall.login("late")
    with hall.connect(rid, other) as c2:
        c2.until_update(lambda m: True)
        c2.send({"type": "sit", "seat": 0})
        assert "taken" in c2.error()["error"]


def test_a_burst_past_the_limit_is_dropped_silently_and_the_connection_survives(hall: Hall) -> None:
    """150 pings at once: a player's bucket holds 40 (20 per second), the rest are dropped
    without an answer (an answer would cost the hall as much as the message); fewer drops
    than the flood threshold, so the connection stays and works once the bucket refills."""
    p = hall.login("flooder")
    rid = hall.create_room(p)
    c = hall.connect(rid, p, throttle=False)
    with c:
        c.next(), c.next()  # hello, update
        for i in range(150):
            c.send({"type": "ping", "id": i})
        time.sleep(1.5)
        c.send({"type": "ping", "id": "after"})
        c.until(lambda m: m.get("id") == "after")
        answers = [m for m in c.messages if m["type"] in ("pong", "error")]
        assert not [m for m in answers if m["type"] == "error"], "a dropped message was answered"
        pongs = [m["id"] for m in answers if m["type"] == "pong"]
        assert 30 <= len(pongs) <= 100, len(pongs)  # the bucket's burst, and what refilled meanwhile
        assert pongs[-1] == "after"
        c.send({"type": "sit", "seat": 0})
        assert c.until(lambda m: m["type"] in ("update", "error"))["seat"] == 0


def test_one_human_and_four_bots_play_a_whole_hand_with_hints(hall: Hall) -> None:
    p, rid, c, m = human_at_turn(hall, "hinted", "classic")
    with c:
        acted = -1
        hints = 0
        while m["room"]["status"] == "playing":
            if is_my_turn(m) and m["turn"] > acted:
                # the room's 600 s, twice that for a person's first turn in the room (autoplay.FIRST_TURN_FACTOR)
                assert m["deadline"] is not None and 0 < m["deadline"] <= 600 * FIRST_TURN_FACTOR
                action = c.hint()
                assert action in m["view"]["legal_actions"]
                c.act(action, m["turn"])
                acted, hints = m["turn"], hints + 1
            m = c.until(lambda x: x["type"] in ("update", "error"), 30)
            assert m["type"] == "update", m
        view = m["view"]
        assert view["phase"] == "over" and m["room"]["status"] == "between" and m["deadline"] is None
        assert hints >= 2
    room = hall.room(rid)
    assert room["hand_number"] == 1 and room["status"] == "between"
    assert hand_results(room["hands"]) == [{"number": 1, "scores": view["scores"], "scored": True}]
    assert room["standings"] == view["scores"] and sum(view["scores"]) == 0
    record = hall.record(rid, 1)
    assert len(record["actions"]) == m["turn"]
    assert jsonish(paiju.replay(record).view(0)) == view
