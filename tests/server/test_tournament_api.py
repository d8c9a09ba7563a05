"""The tournaments API's refusals 比赛 (fast: nothing is played), each with its reason code."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import SQLITE_AND_POSTGRESQL, module_hall
from .harness import Hall, Player

PASSWORD = "correct horse"


@pytest.fixture(scope="module", params=SQLITE_AND_POSTGRESQL)
def hall(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with module_hall(request, tmp_path_factory, "tournaments") as h:  # PostgreSQL: registration rows locked
        yield h


def account(hall: Hall, prefix: str) -> tuple[Player, str]:
    username = f"{prefix}_{secrets.token_hex(3)}"
    with hall.http() as c:
        r = c.post("/api/register", json={"username": username, "password": PASSWORD})
    assert r.status_code == 200, r.text
    p = r.json()["player"]
    return Player(p["id"], p["name"], r.cookies["paiju_token"]), username


def post(hall: Hall, who: Player | None, path: str, body: dict[str, Any]) -> httpx.Response:
    with hall.http(who.token if who else None) as c:
        return c.post(path, json=body)


def refused(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert (r.status_code, r.json().get("code")) == (status, code), r.text
    return dict(r.json())


def test_bad_settings_are_refused_with_reason_codes(hall: Hall) -> None:
    p = hall.login("organiser")
    refused(post(hall, None, "/api/tournaments", {"game": "baohuang"}), 401, "no_name")
    refused(post(hall, p, "/api/tournaments", {"game": "mahjong"}), 400, "unknown_game")
    refused(post(hall, p, "/api/tournaments", {"game": "shengji", "boards": 3}), 400, "bad_boards")
    refused(post(hall, p, "/api/tournaments", {"game": "baohuang", "rounds": 0}), 400, "bad_rounds")
    refused(
        post(hall, p, "/api/tournaments", {"game": "baohuang", "format": "round robin"}), 400, "bad_tournament_format"
    )
    refused(post(hall, p, "/api/tournaments", {"game": "shengji", "format": "knockout"}), 400, "knockout_not_played")
    refused(post(hall, p, "/api/tournaments", {"game": "baohuang", "options": {"chat": True}}), 400, "bad_room_options")
    with hall.http() as c:
        refused(c.get("/api/tournaments/999999"), 404, "no_such_tournament")


def test_registration_and_start_are_checked(hall: Hall) -> None:
    (ann, _), (bob, bob_name) = account(hall, "ann"), account(hall, "bob")
    r = post(hall, ann, "/api/tournaments", {"game": "shengji", "rounds": 1, "boards": 2})
    assert r.status_code == 200, r.text
    tid = r.json()["id"]
    assert r.json()["status"] == "registering" and r.json()["entrants"] == []
    refused(post(hall, ann, f"/api/tournaments/{tid}/register", {}), 400, "pair_of_one")  # a pair game: a partner
    refused(post(hall, ann, f"/api/tournaments/{tid}/register", {"partner": "nobody_here_x"}), 404, "no_such_player")
    refused(post(hall, ann, f"/api/tournaments/{tid}/register", {"partner": ann.id}), 400, "pair_of_one")
    r = post(hall, ann, f"/api/tournaments/{tid}/register", {"partner": bob_name})
    assert r.status_code == 200, r.text
    assert [e["players"] for e in r.json()["entrants"]] == [[ann.id, bob.id]]
    refused(post(hall, bob, f"/api/tournaments/{tid}/register", {"partner": ann.id}), 400, "entrant_twice")
    refused(post(hall, bob, f"/api/tournaments/{tid}/start", {}), 403, "not_tournament_director")
    refused(post(hall, ann, f"/api/tournaments/{tid}/start", {}), 400, "too_few_entrants")
    refused(post(hall, ann, f"/api/tournaments/{tid}/start", {"bots": -1}), 400, "bad_value")
    refused(post(hall, ann, f"/api/tournaments/{tid}/start", {"bots": 1, "level": "godlike"}), 400, "bad_bot_level")
    with hall.http() as c:
        listed = c.get("/api/tournaments").json()["tournaments"]
    assert {"id": tid, "status": "registering", "entrants": 1}.items() <= next(
        t for t in listed if t["id"] == tid
    ).items()
