"""The table as a place to stay (issue 14, docs/protocol.md): the 记牌器 in every seated
player's update, 准备 between hands with a countdown that stands the unready up, 快速开始
and the lobby's game filter, rooms without a person archived with their hands readable,
and quick phrases 快捷语 and chat reaching everyone in the room, rate-limited."""

from __future__ import annotations

import time
from typing import Any

import paiju

from .harness import Client, Hall, act_policy, biggest, sit_with_bots


def playing(m: dict[str, Any]) -> bool:
    return m["room"]["status"] == "playing"


def said(client: Client) -> dict[str, Any]:
    return client.until(lambda m: m["type"] in ("said", "error"))


# ---------------------------------------------------------------------------- 记牌器
def test_the_tracker_is_each_seated_players_own_and_spectators_get_none(hall: Hall) -> None:
    a, b = hall.login("tracker-a"), hall.login("tracker-b")
    rid = hall.create_room(a)
    with hall.connect(rid, a) as ca, hall.connect(rid, b) as cb:
        sit_with_bots(ca)
        ca.send({"type": "start"})
        m = ca.until_update(lambda m: playing(m) and m["view"] is not None)
        assert m["tracker"] == paiju.baohuang.tracker(m["view"])
        assert sum(m["tracker"].values()) == 216 - len(m["view"]["hand"])
        watched = cb.until_update(playing)
        assert watched["seat"] is None and "tracker" not in watched
    off = hall.create_room(a, {"card_tracker": False})
    with hall.connect(off, a) as ca:
        sit_with_bots(ca)
        ca.send({"type": "start"})
        m = ca.until_update(lambda m: playing(m) and m["view"] is not None)
        assert m["room"]["card_tracker"] is False and "tracker" not in m


# ---------------------------------------------------------------------------- 准备
def test_the_first_hand_starts_when_every_person_is_ready(hall: Hall) -> None:
    a, b = hall.login("ready-a"), hall.login("ready-b")
    rid = hall.create_room(a)
    with hall.connect(rid, a) as ca, hall.connect(rid, b) as cb:
        sit_with_bots(ca, humans=(1,))
        cb.send({"type": "sit", "seat": 1})
        cb.until_update(lambda m: m["seat"] == 1)
        ca.send({"type": "ready"})
        m = cb.until_update(lambda m: m["room"]["ready"][0])
        assert m["room"]["status"] == "waiting" and m["room"]["ready"] == [True, False, True, True, True]
        assert m["room"]["ready_deadline"] is None  # no countdown before the first hand
        cb.send({"type": "start"})  # start is 准备
        m = ca.until_update(playing)
        assert not any(s["hosted"] for s in m["room"]["seats"])


def test_between_hands_ready_starts_at_once_and_the_countdown_stands_the_unready_up(make_server: Any) -> None:
    """The countdown never deals a person in on 托管 (docs/decisions.md, "准备 between hands"):
    the unready person is stood up with no penalty, the hand waits for the seat, and the
    next hand starts with nobody on 托管 (so it cannot dissolve the table)."""
    hall = Hall(make_server(limits={"ready_timeout": 1.5}))
    a = hall.login("countdown")
    rid = hall.create_room(a, game="shuangkou")
    with hall.connect(rid, a, policy=act_policy(biggest)) as ca:
        ca.send({"type": "sit", "seat": 0})
        ca.until_update(lambda m: m["seat"] == 0)
        for s in (1, 2, 3):
            ca.send({"type": "bot", "seat": s, "level": "normal"})
            ca.until_update(lambda m, s=s: m["room"]["seats"][s]["bot"] == "normal")
        ca.send({"type": "start"})
        between = ca.until_update(lambda m: m["room"]["status"] == "between", timeout=60)
        assert between["room"]["ready"] == [False, True, True, True]
        assert 0 < between["room"]["ready_deadline"] <= 1.5
        ca.send({"type": "ready"})  # the only person: the hand starts at once
        m = ca.until_update(lambda m: playing(m) and m["room"]["hand_number"] == 2)
        assert not m["room"]["seats"][0]["hosted"]
        ca.until_update(lambda m: m["room"]["status"] == "between", timeout=60)
        started = time.monotonic()
        notice = ca.until(lambda m: m["type"] == "notice")  # nobody pressed 准备
        assert time.monotonic() - started >= 1.0
        assert notice == {"type": "notice", "code": "unseated", "params": {"by": "not_ready"}}
        m = ca.until_update(lambda m: m["seat"] is None)
        room = m["room"]
        assert room["status"] == "between" and room["hand_number"] == 2 and room["ready_deadline"] is None
        assert room["seats"][0]["player"] is None and not room["seats"][0]["hosted"] and room["message"] is None
        time.sleep(2.0)  # no countdown while a seat is empty: no hand is dealt
        assert ca.latest_update()["room"]["status"] == "between"
        ca.send({"type": "sit", "seat": 0})
        ca.until_update(lambda m: m["seat"] == 0)
        ca.send({"type": "ready"})
        m = ca.until_update(lambda m: playing(m) and m["room"]["hand_number"] == 3)
        assert not any(s["hosted"] for s in m["room"]["seats"])


# ---------------------------------------------------------------------------- 快速开始 and the lobby
def test_quick_start_takes_a_free_seat_or_makes_a_room_with_bots(make_server: Any) -> None:
    hall = Hall(make_server())
    a, b, c = hall.login("quick-a"), hall.login("quick-b"), hall.login("quick-c")
    rid = hall.create_room(a)
    with hall.connect(rid, a) as ca:
        sit_with_bots(ca, humans=(4,))  # seat 4 left free
        with hall.http(b.token) as h:
            r = h.post("/api/quick_start", json={"game": "baohuang"})
            assert r.status_code == 200, r.text
            assert r.json() == {"room": rid, "seat": 4}
            again = h.post("/api/quick_start", json={"game": "baohuang"}).json()
            assert again == {"room": rid, "seat": 4}  # already seated there
        with hall.http(c.token) as h:
            made = h.post("/api/quick_start", json={"game": "shuangkou"}).json()
            refused = h.post("/api/quick_start", json={"game": "poker"})
            assert refused.status_code == 400 and refused.json()["code"] == "unknown_game"
        assert made["room"] != rid and made["seat"] == 0
        room = hall.room(made["room"])
        assert room["game"] == "shuangkou" and [s["bot"] for s in room["seats"]] == [None, "strong", "strong", "strong"]
        with hall.http() as h:
            assert h.post("/api/quick_start", json={"game": "baohuang"}).status_code == 401
            games = {
                g: [r["id"] for r in h.get(f"/api/rooms?game={g}").json()["rooms"]] for g in ("baohuang", "shuangkou")
            }
            assert games == {"baohuang": [rid], "shuangkou": [made["room"]]}
            assert h.get("/api/rooms?game=shengji").json()["rooms"] == []
    with hall.http(b.token) as h:  # not from a page of the hall
        r = h.post("/api/quick_start", json={"game": "baohuang"}, headers={"Origin": "https://elsewhere.example"})
        assert r.status_code == 403


def test_quick_start_never_joins_a_running_match_and_a_seats_match_belongs_to_its_person(make_server: Any) -> None:
    """Quick start takes no seat of a match between its hands; a room of its own is named as the
    page asks and starts once the page connects (docs/decisions.md, "Quick start"); a newcomer in
    another person's old seat starts at 0, and each hand says who played it."""
    hall = Hall(make_server(limits={"ready_timeout": 600}))
    a, b, c = hall.login("match-a"), hall.login("match-b"), hall.login("match-c")
    rid = hall.create_room(a, game="shuangkou")
    with hall.connect(rid, a, policy=act_policy(biggest)) as ca:
        ca.send({"type": "sit", "seat": 0})
        ca.until_update(lambda m: m["seat"] == 0)
        for s in (1, 2, 3):
            ca.send({"type": "bot", "seat": s, "level": "normal"})
            ca.until_update(lambda m, s=s: m["room"]["seats"][s]["bot"] == "normal")
        ca.send({"type": "start"})
        between = ca.until_update(lambda m: m["room"]["status"] == "between", timeout=60)["room"]
        first = between["hands"][0]
        assert first["players"] == [a.id, None, None, None] and first["names"] == ["match-a", None, None, None]
        assert between["standings"][0] == first["scores"][0]
        ca.send({"type": "stand"})
        ca.until_update(lambda m: m["seat"] is None)
        with hall.http(b.token) as h:
            made = h.post("/api/quick_start", json={"game": "shuangkou", "name": "双扣 · 快速开始"}).json()
        assert made["room"] != rid, "quick start joined a match between its hands"
        assert hall.room(made["room"])["name"] == "双扣 · 快速开始"
        with hall.connect(made["room"], b) as cb:  # no 开始: the hand starts as the page connects
            cb.until_update(lambda m: m["room"]["status"] == "playing" and m["seat"] == 0)
        with hall.connect(rid, c) as cc:
            cc.send({"type": "sit", "seat": 0})
            room = cc.until_update(lambda m: m["seat"] == 0)["room"]
            assert room["standings"][0] == 0, "the newcomer carries the previous occupant's points"
            assert room["hands"][0]["names"][0] == "match-a"


# ---------------------------------------------------------------------------- archived rooms
def test_a_room_without_a_person_is_archived_and_its_hands_stay_readable(make_server: Any) -> None:
    hall = Hall(make_server(limits={"archive_after": 1.0}))
    a = hall.login("archive")
    rid = hall.create_room(a)
    with hall.connect(rid, a) as ca:
        sit_with_bots(ca)
        ca.send({"type": "start"})
        ca.until_update(playing)
        ca.send({"type": "hosted", "on": True})  # 托管 plays the hand out; it dissolves the table
        ca.until_update(lambda m: m["room"]["status"] == "waiting" and m["room"]["hands"], timeout=60)
    record = hall.record(rid, 1)
    deadline = time.monotonic() + 15
    with hall.http() as h:
        while h.get(f"/api/rooms/{rid}").status_code != 404:
            assert time.monotonic() < deadline, "the room was not archived"
            time.sleep(0.3)
        assert rid not in [r["id"] for r in h.get("/api/rooms").json()["rooms"]]
        r = h.get(f"/api/rooms/{rid}/hands/1")
        assert r.status_code == 200 and r.json() == record
        assert h.get(f"/api/rooms/{rid}/hands/2").status_code == 404


# ---------------------------------------------------------------------------- 快捷语 and chat
def test_phrases_reach_every_seat_and_spectator_rate_limited_and_chat_only_when_on(hall: Hall) -> None:
    a, b = hall.login("say-a"), hall.login("say-b")
    rid = hall.create_room(a)
    with hall.connect(rid, a) as ca, hall.connect(rid, b) as cb:
        ca.send({"type": "sit", "seat": 0})
        ca.until_update(lambda m: m["seat"] == 0)
        ca.send({"type": "say", "phrase": "nice"})
        heard = {"type": "said", "seat": 0, "name": "say-a", "phrase": "nice", "text": None}
        assert said(ca) == heard and said(cb) == heard
        ca.send({"type": "say", "phrase": "thanks"})
        e = said(ca)
        assert e["type"] == "error" and e["code"] == "say_too_fast" and e["reply_to"] == "say"
        cb.send({"type": "say", "phrase": "emote_smile"})  # a spectator too: seat null
        assert said(ca) == {"type": "said", "seat": None, "name": "say-b", "phrase": "emote_smile", "text": None}
        cb.skip()
        time.sleep(2.1)
        ca.send({"type": "say", "text": "hello"})
        e = said(ca)
        assert e["type"] == "error" and e["code"] == "chat_off"
        ca.send({"type": "say"})
        assert said(ca)["code"] == "say_empty"
        ca.send({"type": "say", "phrase": "loud"})
        assert said(ca)["code"] == "bad_message"
    chat = hall.create_room(a, {"chat": True})
    with hall.connect(chat, a) as ca, hall.connect(chat, b) as cb:
        ca.send({"type": "say", "text": "  good   game  "})
        assert said(cb)["text"] == "good game" and said(ca)["text"] == "good game"
        time.sleep(2.1)
        ca.send({"type": "say", "text": "x" * 61})
        e = said(ca)
        assert e["code"] == "say_too_long" and e["params"] == {"max": 60}
