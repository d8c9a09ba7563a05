"""The replay viewer's frames 牌谱回放: finished hands only, every step, every hand face up."""

from __future__ import annotations

from typing import Any

import httpx

import paiju

from .harness import Hall, act_policy, first_legal, sit_with_bots


def frames_of(hall: Hall, path: str, **kw: Any) -> httpx.Response:
    with hall.http() as c:
        return c.get(path, **kw)


def play_hand(hall: Hall, name: str, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """A room whose first hand was played by one person (first legal action) and bots."""
    p = hall.login(name)
    rid = hall.create_room(p, options or {"variant": "qingdao"})
    with hall.connect(rid, p) as c:
        sit_with_bots(c)
        c.send({"type": "start"})
        first = c.my_turn()
        # while the hand is being played neither its record nor its frames are served
        r = frames_of(hall, f"/api/rooms/{rid}/hands/1/replay")
        assert r.status_code == 404 and r.json()["code"] == "hand_not_over"
        c.policy = act_policy(first_legal)
        c.act(first_legal(first["view"]), first["turn"])
        c.until_update(lambda m: m["room"]["status"] == "between", 60)
    return rid, hall.record(rid, 1)


def rebuild(frames: list[dict[str, Any]]) -> list[list[Any]]:
    """Each frame's whole event log, as the page rebuilds it from ``events_from``."""
    out: list[list[Any]] = []
    held: list[Any] = []
    for f in frames:
        held = held[: f["events_from"]] + f["view"]["events"]
        out.append(held)
    return out


def test_frames_show_every_step_from_the_chosen_seat_with_every_hand(hall: Hall) -> None:
    rid, record = play_hand(hall, "replayer")
    r = frames_of(hall, f"/api/rooms/{rid}/hands/1/replay?seat=3")
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    body = r.json()
    assert body["game"] == "baohuang" and body["seat"] == 3 and body["record"] == record
    assert body["room"] == {"id": rid, "name": "test room"}
    frames = body["frames"]
    assert len(frames) == len(record["actions"]) + 1
    game = paiju.replay({**record, "actions": []})
    logs = rebuild(frames)
    for i, f in enumerate(frames):
        if i:
            assert f["actor"] == game.to_act and f["action"] == record["actions"][i - 1]
            game.apply(record["actions"][i - 1])
        assert f["step"] == i
        full = game.view(3)
        assert {**f["view"], "events": logs[i]} == paiju_json(full)
        assert f["hands"] == [game.view(s)["hand"] for s in range(5)]
    assert body["scores"] == list(game.scores)
    # the seats are named: the person where he sat, computer players elsewhere
    named = [s for s in body["seats"] if s["player"]]
    assert [s["player"]["name"] for s in named] == ["replayer"]
    assert sum(f["lead"] for f in frames) >= 1


def paiju_json(view: dict[str, Any]) -> Any:
    import json

    return json.loads(json.dumps(view))


def test_frames_go_plain_to_a_client_without_gzip(hall: Hall) -> None:
    rid, record = play_hand(hall, "plain")
    r = frames_of(hall, f"/api/rooms/{rid}/hands/1/replay", headers={"Accept-Encoding": "identity"})
    assert r.status_code == 200 and "content-encoding" not in r.headers
    assert len(r.json()["frames"]) == len(record["actions"]) + 1


def test_bad_replay_requests_are_refused_clearly(hall: Hall) -> None:
    rid, record = play_hand(hall, "refused")
    for path, status in (
        (f"/api/rooms/{rid}/hands/1/replay?seat=5", 400),
        (f"/api/rooms/{rid}/hands/1/replay?seat=x", 400),
        (f"/api/rooms/{rid}/hands/2/replay", 404),
        ("/api/rooms/no-such-room/hands/1/replay", 404),
    ):
        r = frames_of(hall, path)
        assert r.status_code == status and r.json()["error"], path


def test_a_record_sent_by_the_page_is_replayed(hall: Hall) -> None:
    g = paiju.new_game("shuangkou", seed=11)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    with hall.http() as c:
        r = c.post("/api/replay?seat=1", json=g.record())
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["game"] == "shuangkou" and len(body["frames"]) == len(g.history) + 1 and body["room"] is None
        assert body["frames"][-1]["hands"] == [g.view(s)["hand"] for s in range(4)]
        # a hand not yet over, a broken record, a bad seat: refused, nothing replayed
        unfinished = {**g.record(), "actions": g.record()["actions"][:5]}
        r = c.post("/api/replay", json=unfinished)
        assert r.status_code == 400 and r.json()["code"] == "hand_not_over"
        r = c.post("/api/replay", json={**g.record(), "actions": ["nonsense"]})
        assert r.status_code == 400 and r.json()["code"] == "bad_record"
        r = c.post("/api/replay", json={"game": "chess", "actions": []})
        assert r.status_code == 400 and r.json()["code"] in ("bad_record", "unknown_game")
        r = c.post("/api/replay?seat=4", json=g.record())
        assert r.status_code == 400 and r.json()["code"] == "bad_seat"
        r = c.post("/api/replay", content=b"not json", headers={"content-type": "application/json"})
        assert r.status_code == 400


def test_replays_made_anew_are_limited_per_address(make_server: Any, tmp_path: Any) -> None:
    """Each replay made anew is CPU of the hall's: a few a minute per address; a replay
    already made (cached) is served whatever the count."""
    server = make_server(db=tmp_path / "r.db", limits={"replays_per_minute": 4})
    hall = Hall(server)
    rid, record = play_hand(hall, "greedy viewer")
    codes = [frames_of(hall, f"/api/rooms/{rid}/hands/1/replay?seat={s}").status_code for s in range(5)]
    assert codes == [200, 200, 429, 429, 429]  # a burst of two (half a minute's worth)
    r = frames_of(hall, f"/api/rooms/{rid}/hands/1/replay?seat=4")
    assert r.status_code == 429 and r.json()["code"] == "too_many_replays"
    assert frames_of(hall, f"/api/rooms/{rid}/hands/1/replay?seat=0").status_code == 200  # cached
    with hall.http() as c:
        assert c.post("/api/replay", json=record).status_code == 429
