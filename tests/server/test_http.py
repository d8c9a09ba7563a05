"""The lobby's HTTP API (docs/protocol.md, "Identity" and "HTTP API") against a real hall."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

import paiju
from paiju.baohuang import PRESETS

from .harness import Hall, act_policy, first_legal, guest_me, hand_results, jsonish, sit_with_bots


def post(hall: Hall, path: str, token: str | None = None, **kw: Any) -> httpx.Response:
    with hall.http(token) as c:
        return c.post(path, **kw)


def get(hall: Hall, path: str, token: str | None = None, **kw: Any) -> httpx.Response:
    with hall.http(token) as c:
        return c.get(path, **kw)


def room_ids(hall: Hall) -> set[str]:
    r = get(hall, "/api/rooms")
    assert r.status_code == 200
    return {room["id"] for room in r.json()["rooms"]}


# ---------------------------------------------------------------------- identity
def test_login_sets_the_cookie_and_me_answers(hall: Hall) -> None:
    with httpx.Client(base_url=hall.url, headers={"Origin": hall.url}) as c:
        assert c.get("/api/me").json() == {"player": None}
        r = c.post("/api/login", json={"name": "  Ada  "})
        assert r.status_code == 200
        player = r.json()["player"]
        assert player["name"] == "Ada" and isinstance(player["id"], int)
        cookie = r.headers["set-cookie"]
        assert cookie.startswith("paiju_token=") and "httponly" in cookie.lower()
        token = r.cookies["paiju_token"]
        assert len(token) >= 16
        # the client keeps the cookie: the identity survives the next request
        assert c.get("/api/me").json() == {"player": player}
    # a non-browser client may send the token in a header instead
    assert get(hall, "/api/me", headers={"X-Paiju-Token": token}).json() == {"player": player}
    assert get(hall, "/api/me", token=token).json() == {"player": player}
    # an unknown token is nobody
    assert get(hall, "/api/me", headers={"X-Paiju-Token": "0" * 32}).json() == {"player": None}
    # a second login without the cookie is another player with another token
    other = hall.login("Ada")
    assert other.id != player["id"] and other.token != token


def test_rename_keeps_the_identity(hall: Hall) -> None:
    p = hall.login("before")
    rid = hall.create_room(p)
    with hall.connect(rid, p) as c:
        c.send({"type": "sit", "seat": 2})
        c.until_update(lambda m: m["seat"] == 2)
        r = post(hall, "/api/login", p.token, json={"name": "after"})
        assert r.status_code == 200
        assert guest_me(r.json()) == (p.id, "after")
        assert r.cookies.get("paiju_token") in (None, p.token)  # the same token, if sent again
        assert guest_me(get(hall, "/api/me", p.token).json()) == (p.id, "after")
        # the room shows the new name at the player's seat
        assert hall.room(rid)["seats"][2]["player"] == "after"


@pytest.mark.parametrize(
    "body",
    [{"name": ""}, {"name": "   "}, {"name": "x" * 21}, {"name": 5}, {"name": None}, {"name": ["a"]}, {}],
    ids=["empty", "blank", "too-long", "number", "null", "list", "missing"],
)
def test_bad_names_are_refused(hall: Hall, body: dict[str, Any]) -> None:
    p = hall.login("keeper")
    for token in (None, p.token):
        r = post(hall, "/api/login", token, json=body)
        assert r.status_code == 400
        assert "name" in r.json()["error"]
        assert "paiju_token" not in r.headers.get("set-cookie", "")
    assert guest_me(get(hall, "/api/me", p.token).json()) == (p.id, "keeper")  # unchanged


def test_name_limits_and_bad_bodies(hall: Hall) -> None:
    assert hall.login("x" * 20).name == "x" * 20
    assert hall.login("王" * 20).name == "王" * 20
    r = post(hall, "/api/login", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "JSON" in r.json()["error"]
    r = post(hall, "/api/login", json=["Ada"])
    assert r.status_code == 400 and r.json()["error"]


# ---------------------------------------------------------------------- games
def test_games_lists_baohuang_presets_and_options(hall: Hall) -> None:
    r = get(hall, "/api/games")
    assert r.status_code == 200
    info = r.json()["games"]["baohuang"]
    assert set(info["presets"]) == {"standard", "classic", "weihai", "qingdao"}
    for name, preset in PRESETS.items():
        assert info["presets"][name] == jsonish(preset)
    options = {o["name"]: o for o in info["options"]}
    expected = {"deck", "guard", "abdication", "solo_grab", "rebellion", "kick", "yield_turn", "tribute", "kao"}
    expected |= {"deal_start", "pass_is_final", "hold_sixes", "hold_rank", "leave_penalty", "guard_choice"}
    assert expected <= set(options)
    assert not {"first_seat", "tribute_due"} & set(options)  # internal, not for a room form
    for o in options.values():
        assert {"name", "type", "default"} <= set(o), o
        if o["type"] == "bool":
            assert isinstance(o["default"], bool), o
        if o["type"] == "choice":
            assert o["default"] in o["choices"], o
    assert options["kao"] == {**options["kao"], "type": "bool", "default": False}
    assert options["deck"]["choices"] == ["full", "no345", "weihai"]
    assert options["leave_penalty"]["default"] == 40


# ---------------------------------------------------------------------- rooms
def test_create_room_without_login_is_401(hall: Hall) -> None:
    before = room_ids(hall)
    r = post(hall, "/api/rooms", json={"name": "nobody's", "options": {}})
    assert r.status_code == 401 and r.json()["error"]
    r = post(hall, "/api/rooms", headers={"X-Paiju-Token": "f" * 32}, json={"name": "nobody's", "options": {}})
    assert r.status_code == 401 and r.json()["error"]
    assert room_ids(hall) == before


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"kao": "yes"}, "kao"),
        ({"kao": 1}, "kao"),
        ({"variant": "nope"}, "variant"),
        ({"bogus": 1}, "bogus"),
        ({"deck": "tiny"}, "deck"),
        ({"leave_penalty": -5}, "leave_penalty"),
        ({"hold_rank": "BJ"}, "hold_rank"),
        ({"variant": "classic", "abdication": "standard"}, "abdication"),
        ({"seed": 5}, "seed"),
        ({"leave_penalty": 2**70}, "leave_penalty"),  # past what JSON numbers carry: refused at the door
        ({"hold_rank": "6" * 5000}, "hold_rank"),
    ],
)
def test_create_room_with_a_bad_option_is_400_naming_it(hall: Hall, options: dict[str, Any], named: str) -> None:
    p = hall.login("creator")
    before = room_ids(hall)
    r = post(hall, "/api/rooms", p.token, json={"name": "bad", "game": "baohuang", "options": options})
    assert r.status_code == 400
    assert named in r.json()["error"]
    assert room_ids(hall) == before


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"turn_timeout": 0}, "turn_timeout"),
        ({"turn_timeout": 601}, "turn_timeout"),
        ({"turn_timeout": "fast"}, "turn_timeout"),
        ({"game": "chess"}, "chess"),
        ({"options": 5}, ""),
        ({"game": "shengji", "options": {"throw_penalty": 2**60}}, "throw_penalty"),
        ({"game": "shuangkou", "options": {"points_double": -(2**64)}}, "points_double"),
        ({"game": "shuangkou", "options": {"points_single": 1e300}}, "points_single"),
    ],
)
def test_create_room_with_a_bad_body_is_400(hall: Hall, body: dict[str, Any], named: str) -> None:
    p = hall.login("creator")
    before = room_ids(hall)
    r = post(hall, "/api/rooms", p.token, json={"name": "bad", **body})
    assert r.status_code == 400
    assert named in r.json()["error"]
    assert room_ids(hall) == before


@pytest.mark.parametrize(
    ("body", "named"),
    [
        pytest.param(
            {"options": "kao"},
            "options",
            id="options-string",
        ),
        pytest.param(
            {"options": [["kao", True]]},
            "options",
            id="options-pairs",
        ),
        pytest.param(
            {"turn_timeout": True},
            "turn_timeout",
            id="timeout-true",
        ),
    ],
)
def test_create_room_with_a_body_of_the_wrong_shape_is_400(hall: Hall, body: dict[str, Any], named: str) -> None:
    p = hall.login("creator")
    before = room_ids(hall)
    r = post(hall, "/api/rooms", p.token, json={"name": "bad", **body})
    assert r.status_code == 400
    assert named in r.json()["error"]
    assert room_ids(hall) == before


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_a_turn_timeout_that_is_no_finite_number_is_400(hall: Hall, number: str) -> None:
    p = hall.login("creator")
    before = room_ids(hall)
    body = '{"name": "bad", "turn_timeout": ' + number + "}"
    r = post(hall, "/api/rooms", p.token, content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "turn_timeout" in r.json()["error"]
    assert room_ids(hall) == before


def test_a_room_cannot_fix_the_deal(hall: Hall) -> None:
    """`deal` is no room option of the spec: a creator who could set it would know every
    seat's cards in every hand of the room."""
    p = hall.login("cheat")
    g = paiju.new_game("baohuang", seed=3)
    deal = [" ".join(str(c) for c in g.hand(s)) for s in range(5)]
    r = post(hall, "/api/rooms", p.token, json={"name": "rigged", "options": {"deal": deal}})
    assert r.status_code == 400
    assert "deal" in r.json()["error"]


def test_rooms_are_listed_and_shown(hall: Hall) -> None:
    p = hall.login("lister")
    options = {"variant": "classic", "kao": True}
    rid = hall.create_room(p, options, turn_timeout=45, name="Lobby test")
    listed = {room["id"]: room for room in get(hall, "/api/rooms").json()["rooms"]}
    assert rid in listed
    room = listed[rid]
    assert room["name"] == "Lobby test" and room["game"] == "baohuang"
    assert room["options"] == options
    assert room["status"] == "waiting" and room["spectators"] == 0
    assert len(room["seats"]) == 5
    assert all(s["player"] is None and s["bot"] is None for s in room["seats"])
    shown = hall.room(rid)
    assert shown["id"] == rid and shown["turn_timeout"] == 45
    assert shown["hand_number"] == 0 and shown["hands"] == [] and shown["standings"] == [0] * 5


def test_the_room_list_tells_your_seat(hall: Hall) -> None:
    p, q = hall.login("seated"), hall.login("standing")
    rid = hall.create_room(p)
    with hall.connect(rid, p) as c:
        c.send({"type": "sit", "seat": 4})
        c.until_update(lambda m: m["seat"] == 4)
        for token, seat in ((p.token, 4), (q.token, None), (None, None)):
            rooms = {r["id"]: r for r in get(hall, "/api/rooms", token).json()["rooms"]}
            assert rooms[rid]["your_seat"] == seat
            assert rooms[rid]["seats"][4]["player"] == "seated"


def test_unknown_rooms_and_hands_are_404(hall: Hall) -> None:
    for path in ("/api/rooms/no-such-room", "/api/rooms/no-such-room/hands/1"):
        r = get(hall, path)
        assert r.status_code == 404 and r.json()["error"]
    p = hall.login("empty")
    rid = hall.create_room(p)
    r = get(hall, f"/api/rooms/{rid}/hands/1")
    assert r.status_code == 404 and r.json()["error"]


def test_the_record_of_a_finished_hand_replays(hall: Hall) -> None:
    p = hall.login("recorder")
    rid = hall.create_room(p, {"variant": "qingdao"})
    with hall.connect(rid, p) as c:
        sit_with_bots(c)
        c.send({"type": "start"})
        first = c.my_turn()
        # while the hand is being played it has no record yet
        assert get(hall, f"/api/rooms/{rid}/hands/1").status_code == 404
        c.policy = act_policy(first_legal)
        c.act(first_legal(first["view"]), first["turn"])
        last = c.until_update(lambda m: m["room"]["status"] == "between", 60)
    record = hall.record(rid, 1)
    assert record["game"] == "baohuang" and record["options"]["variant"] == "qingdao"
    assert len(record["actions"]) == last["turn"]
    game = paiju.replay(record)
    assert game.is_over
    room = hall.room(rid)
    assert hand_results(room["hands"]) == [{"number": 1, "scores": list(game.scores), "scored": True}]
    assert room["standings"] == list(game.scores)
    assert last["view"] == jsonish(game.view(0))
    assert get(hall, f"/api/rooms/{rid}/hands/2").status_code == 404
