"""Competition mode 比赛 (the room option ``competition``), against the suite's real hall:
the lobby shows it; the room has no card tracker and no free chat; the seats are drawn by
lot when the match starts (every occupant kept, each person told his new seat); 提示 is
refused with its reason code; between two hands of the match nobody stands up; a
spectator sees the room at once and the game ``spectator_delay`` seconds late.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import httpx
import pytest

from paiju.server.tables.competition import drawn_by_lot

from .harness import Client, Hall, act_policy, first_legal, is_my_turn, sit_with_bots
from .test_newcomer import sit_with


def occupants(room: dict[str, Any]) -> Counter[tuple[Any, Any]]:
    return Counter((s["player_id"], s["bot"]) for s in room["seats"])


def test_drawing_by_lot_keeps_every_occupant_and_fresh_state() -> None:
    seats = [{"player": i if i < 2 else None, "bot": None if i < 2 else "normal", "own": i} for i in range(5)]
    orders = {tuple(s["player"] for s in drawn_by_lot(seats)) for _ in range(200)}
    assert len(orders) > 1  # drawn, not kept
    for order in orders:
        assert Counter(order) == Counter(s["player"] for s in seats)


def play_out(c: Client, hands: int) -> dict[str, Any]:
    """Play the seat with its first legal action (a pass when it may) until ``hands`` are over."""
    while True:
        m = c.until_update(lambda m: is_my_turn(m) or len(m["room"]["hands"]) >= hands, 60)
        if len(m["room"]["hands"]) >= hands and m["room"]["status"] != "playing":
            return m
        legal = m["view"]["legal_actions"]
        c.act("pass" if "pass" in legal else legal[0], m["turn"])


def test_a_competition_room_draws_seats_refuses_hints_and_keeps_the_seats(hall: Hall) -> None:
    p, watcher = hall.login("competitor"), hall.login("competition watcher")
    with hall.http(p.token) as h:
        r = h.post(
            "/api/rooms",
            json={"name": "cup", "game": "baohuang", "options": {"competition": True, "spectator_delay": 5}},
        )
    assert r.status_code == 200, r.text
    rid = r.json()["id"]
    room = hall.room(rid)
    assert room["competition"] is True and room["card_tracker"] is False and room["chat"] is False
    listed = [x for x in httpx.get(hall.url + "/api/rooms", params={"limit": 200}).json()["rooms"] if x["id"] == rid]
    assert listed and listed[0]["competition"] is True
    with hall.connect(rid, p) as c:
        sit_with_bots(c, level="hosted")
        c.sync()
        latest = c.latest_update()
        assert latest is not None
        before = occupants(latest["room"])
        c.send({"type": "say", "text": "hello"})
        assert c.until(lambda m: m["type"] == "error")["code"] == "chat_off"
        c.send({"type": "start"})
        started = c.until_update(lambda m: m["room"]["status"] == "playing")
        assert occupants(started["room"]) == before  # shuffled among the seats, nobody lost
        mine = [s["seat"] for s in started["room"]["seats"] if s["player_id"] == p.id]
        assert mine == [started["seat"]]  # and told where he sits now
        m = c.my_turn(60)
        c.send({"type": "hint"})
        assert c.until(lambda m: m["type"] == "error")["code"] == "no_hint_in_competition"
        assert "tracker" not in m
        # a spectator: the room at once, the game 5 s late
        with hall.connect(rid, watcher) as w:
            t0 = time.monotonic()
            first = w.until_update(lambda m: True)
            assert first["view"] is None and first["room"]["id"] == rid
            late = w.until_update(lambda m: m["view"] is not None, 15)
            assert time.monotonic() - t0 >= 4.5 and late["view"]["phase"] != "over"
        over = play_out(c, 1)
        assert over["room"]["status"] == "between"
        c.send({"type": "stand"})
        assert c.until(lambda m: m["type"] == "error")["code"] == "seat_locked"


@pytest.mark.slow  # a hand played first: ~16 s (make test-slow)
def test_a_competitor_gone_between_hands_is_dealt_in_on_hosted_with_the_penalty(start_server: Any) -> None:
    """Between two hands of a competition match the countdown does not stand the absent up:
    the next hand starts and he leaves it as at a leave (托管 and the leave penalty)."""
    h = Hall(start_server(limits={"ready_timeout": 3.0}))  # p is gone well before it ends
    p, q = h.login("walks away"), h.login("stays")
    with h.http(p.token) as http:
        r = http.post("/api/rooms", json={"name": "cup", "game": "baohuang", "options": {"competition": True}})
    rid = r.json()["id"]
    with h.connect(rid, q, policy=act_policy(first_legal)) as cq:
        with h.connect(rid, p, policy=act_policy(first_legal)) as c:  # both play their first legal action
            sit_with_bots(c, level="hosted", humans=(1,))
            cq.send({"type": "sit", "seat": 1})
            cq.until_update(lambda m: m["seat"] == 1)
            cq.send({"type": "ready"})
            c.send({"type": "start"})
            first = c.until_update(lambda m: len(m["room"]["hands"]) == 1 and m["room"]["status"] == "between", 60)

        # p has gone: the countdown deals the next hand, p's seat on 托管 with the leave penalty
        def gone_hosted(m: dict[str, Any]) -> bool:
            return m["room"]["hand_number"] == 2 and any(
                s["player_id"] == p.id and s["hosted"] for s in m["room"]["seats"]
            )

        m = cq.until_update(gone_hosted, 15)
        (mine,) = [s for s in m["room"]["seats"] if s["player_id"] == p.id]
        assert mine["hosted"] and mine["locked"] and mine["hosted_reason"] == "left"
        was = next(s["seat"] for s in first["room"]["seats"] if s["player_id"] == p.id)
        assert mine["seat"] == was  # the seats are kept for the match
        assert m["room"]["standings"][was] == first["room"]["standings"][was] - 40  # the leave penalty


def test_the_referee_sees_every_hand_live_and_pauses_the_table(hall: Hall) -> None:
    """The competition room's creator, watching, is its referee 裁判: every hand face up,
    live; he pauses (nobody acts, no clock) and resumes. A player or another spectator
    never gets the hands and may not pause."""
    referee, player, other = hall.login("referee"), hall.login("competitor 2"), hall.login("onlooker")
    with hall.http(referee.token) as h:
        r = h.post("/api/rooms", json={"name": "cup", "game": "shuangkou", "options": {"competition": True}})
    rid = r.json()["id"]
    with hall.connect(rid, player) as c, hall.connect(rid, referee) as ref, hall.connect(rid, other) as w:
        sit_with(c, 4, "hosted")
        c.send({"type": "start"})
        m = c.my_turn(60)
        assert "hands" not in m["view"] and "referee" not in m
        live = ref.until_update(lambda x: x["view"] is not None and x["turn"] == m["turn"])
        assert live["referee"] is True and len(live["view"]["hands"]) == 4
        assert live["view"]["hands"][m["seat"]] == m["view"]["hand"]  # face up, as the player holds them
        w.send({"type": "pause"})
        assert w.until(lambda x: x["type"] == "error")["code"] == "not_referee"
        c.send({"type": "pause"})
        assert c.until(lambda x: x["type"] == "error")["code"] == "not_referee"
        ref.send({"type": "pause"})
        paused = c.until_update(lambda x: x["room"]["paused"])
        assert paused["deadline"] is None  # no clock runs
        legal = m["view"]["legal_actions"]
        c.act("pass" if "pass" in legal else legal[0], m["turn"])
        assert c.until(lambda x: x["type"] == "error")["code"] == "table_paused"
        ref.send({"type": "resume"})
        resumed = c.until_update(lambda x: not x["room"]["paused"])
        assert resumed["deadline"] is not None and resumed["turn"] == m["turn"]
        c.act("pass" if "pass" in legal else legal[0], m["turn"])
        c.until_update(lambda x: x["turn"] > m["turn"])
    for seen in w.messages:
        assert "hands" not in str(seen.get("view") or {})
