"""Tournaments 比赛 through a real hall process: a Swiss tournament of computer entrants
played table by table (boards identical across tables, standings as the formats compute
them on the stored scores, a restart mid-round resuming), and the API's refusals."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

import paiju
from paiju.server.tournaments.director import played
from paiju.server.tournaments.rounds import finish_round, start_round
from paiju.server.tournaments.standings import standings

from .conftest import SUITE_DEAL
from .harness import Hall, ServerProcess

FAST = [*SUITE_DEAL, "--board-pause", "0.05"]


def make_tournament(hall: Hall, game: str, rounds: int, boards: int, bots: int) -> tuple[int, dict[str, Any]]:
    p = hall.login("director")
    with hall.http(p.token) as c:
        r = c.post("/api/tournaments", json={"name": "t", "game": game, "rounds": rounds, "boards": boards})
        assert r.status_code == 200, r.text
        tid = r.json()["id"]
        r = c.post(f"/api/tournaments/{tid}/start", json={"bots": bots, "level": "normal"})
        assert r.status_code == 200, r.text
    return tid, r.json()


def get(hall: Hall, tid: int) -> dict[str, Any]:
    with hall.http() as c:
        r = c.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def wait_for(hall: Hall, tid: int, done: Callable[[dict[str, Any]], bool], timeout: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        t = get(hall, tid)
        if done(t):
            return t
        assert time.monotonic() < deadline, (
            f"the tournament did not get there: {t['status']} round {t['current_round']}"
        )
        time.sleep(0.2)


def stored_hands(db: Path, tid: int) -> list[dict[str, Any]]:
    with sqlite3.connect(db) as c:
        c.row_factory = sqlite3.Row
        rows = c.execute(
            "SELECT * FROM tournament_hands WHERE tournament_id = ? ORDER BY round, table_no, seq", (tid,)
        ).fetchall()
    return [{**dict(r), "scores": orjson.loads(r["scores"]) if r["scores"] else None} for r in rows]


def check_finished(hall: Hall, server: ServerProcess, t: dict[str, Any]) -> None:
    """Every planned hand played from its board's seed; the standings those of the formats."""
    hands = stored_hands(server.db, t["id"])
    assert hands and all(h["scores"] is not None for h in hands)
    seeds: dict[tuple[int, int], set[int]] = {}
    options = set()  # every board is one independent hand: the same engine options (no levels carried over)
    for h in hands:
        seeds.setdefault((h["round"], h["board"]), set()).add(h["seed"])
        with hall.http() as c:
            room = c.get(f"/api/rooms/{h['room_id']}").json()
            record = c.get(f"/api/rooms/{h['room_id']}/hands/{h['seq'] + 1}").json()
        assert record["seed"] == h["seed"]  # the plan's seed, not a new one
        options.add(orjson.dumps(record["options"], option=orjson.OPT_SORT_KEYS))
        assert list(paiju.replay(record).scores) == h["scores"]
        assert room["options"]["competition"] is True
    assert all(len(s) == 1 for s in seeds.values()), "a board was dealt differently at two tables"
    assert len(options) == 1, options
    # the formats' own computation, redone here on the stored scores
    seeded = [e["entrant"] for e in t["entrants"]]
    seed, done = stored_seed(server.db, t["id"]), []
    for r in range(1, t["rounds"] + 1):
        pairing, plan = start_round(t["game"], seeded, done, seed, r, t["boards"])
        rows = [h for h in hands if h["round"] == r]
        assert [(h.table, h.board, h.seed) for h in plan] == [(h["table_no"], h["board"], h["seed"]) for h in rows]
        done.append(finish_round(pairing, plan, played(plan, rows)))
    expected = [(row.entrant, row.score) for row in standings(seeded, done)]
    assert [(row["entrant"], row["score"]) for row in t["standings"]] == expected


def stored_seed(db: Path, tid: int) -> int:
    with sqlite3.connect(db) as c:
        return int(c.execute("SELECT seed FROM tournaments WHERE id = ?", (tid,)).fetchone()[0])


@pytest.mark.slow
@pytest.mark.parametrize("game", ["shuangkou", "baohuang", "shengji"])
def test_a_swiss_tournament_of_bots_plays_through_the_hall(
    make_server: Callable[..., ServerProcess], game: str
) -> None:
    server = make_server(args=FAST)
    hall = Hall(server)
    tid, t = make_tournament(hall, game, rounds=2, boards=5 if game == "baohuang" else 2, bots=8)
    assert t["status"] == "running" and len(t["entrants"]) == 8
    late, partner = hall.login("latecomer"), hall.login("partner")
    with hall.http(late.token) as c:
        r = c.post(f"/api/tournaments/{tid}/register", json={"partner": partner.id})
    assert (r.status_code, r.json().get("code")) == (409, "tournament_closed")
    t = wait_for(hall, tid, lambda t: t["status"] == "finished", timeout=240)
    assert len(t["results"]) == 2
    check_finished(hall, server, t)


@pytest.mark.slow
@pytest.mark.parametrize("rooms_made", [True, False])
def test_a_restart_mid_round_resumes_the_tournament(
    make_server: Callable[..., ServerProcess], rooms_made: bool
) -> None:
    """Killed mid-round; ``rooms_made`` False: as if killed after the round was planned but
    before its rooms were made (only the director's resume can go on from there)."""
    server = make_server(args=FAST)
    hall = Hall(server)
    tid, _ = make_tournament(hall, "shuangkou", rounds=2, boards=2, bots=8)

    def some_played(t: dict[str, Any]) -> bool:
        return any(h["scores"] is not None for r in t["results"] for tab in r["tables"] for h in tab["hands"])

    assert wait_for(hall, tid, some_played)["status"] == "running"
    server.kill9()
    before = stored_hands(server.db, tid)
    if not rooms_made:
        with sqlite3.connect(server.db) as c:
            (current,) = c.execute("SELECT current_round FROM tournaments WHERE id = ?", (tid,)).fetchone()
            where = "tournament_id = ? AND round = ?"
            rooms = [
                r for (r,) in c.execute(f"SELECT DISTINCT room_id FROM tournament_hands WHERE {where}", (tid, current))
            ]
            c.executemany("UPDATE rooms SET status = 'closed' WHERE id = ?", [(r,) for r in rooms])
            c.execute(f"UPDATE tournament_hands SET room_id = NULL WHERE {where}", (tid, current))
    server.start()
    t = wait_for(hall, tid, lambda t: t["status"] == "finished", timeout=240)
    after = stored_hands(server.db, tid)
    for b in before:  # nothing stored was lost or played again
        a = next(x for x in after if (x["round"], x["table_no"], x["seq"]) == (b["round"], b["table_no"], b["seq"]))
        if b["scores"] is not None:
            assert (a["scores"], a["hand_id"]) == (b["scores"], b["hand_id"])
    check_finished(hall, server, t)


@pytest.mark.slow
def test_demo_tournament_starts_one_in_a_running_hall(make_server: Callable[..., ServerProcess]) -> None:
    from typer.testing import CliRunner

    from paiju.cli import app

    server = make_server(args=FAST)
    hall = Hall(server)
    args = ["demo-tournament", "--game", "baohuang", "--entrants", "3", "--rounds", "1", "--url", server.url]
    out = CliRunner().invoke(app, args)
    assert out.exit_code == 0, out.output
    tid = int(out.output.split()[1])
    t = wait_for(hall, tid, lambda t: t["status"] == "finished")
    assert len(t["entrants"]) == 3 and t["standings"][0]["rank"] == 1
    bad = CliRunner().invoke(app, ["demo-tournament", "--game", "shengji", "--boards", "3", "--url", server.url])
    assert bad.exit_code == 2 and "bad_boards" in bad.output


@pytest.mark.slow
def test_a_no_show_is_played_on_hosted_with_the_leave_penalty(make_server: Callable[..., ServerProcess]) -> None:
    server = make_server(args=FAST)
    hall = Hall(server)
    alice = hall.login("alice")
    with hall.http(alice.token) as c:
        tid = c.post("/api/tournaments", json={"game": "baohuang", "rounds": 1, "boards": 5}).json()["id"]
        assert c.post(f"/api/tournaments/{tid}/register", json={}).status_code == 200
        r = c.post(f"/api/tournaments/{tid}/start", json={"bots": 2})
        assert r.status_code == 200, r.text
    t = wait_for(hall, tid, lambda t: t["status"] == "finished")
    hands = stored_hands(server.db, tid)
    assert len(hands) == 5
    for h in hands:  # alice sits where the plan puts her, every hand, and never came: 托管
        seating = orjson.loads(h["seating"])
        seat = next(i for i, s in enumerate(seating) if s["player"] == alice.id)
        with hall.http() as c:
            record = c.get(f"/api/rooms/{h['room_id']}/hands/{h['seq'] + 1}").json()
        assert record["seed"] == h["seed"]
        with sqlite3.connect(server.db) as c:
            mine = [
                x
                for (x,) in c.execute("SELECT hosted FROM actions WHERE hand_id = ? AND seat = ?", (h["hand_id"], seat))
            ]
        assert mine and all(mine), "the no-show's seat was not played by 托管"
    with sqlite3.connect(server.db) as c:
        penalties = c.execute("SELECT COUNT(*) FROM penalties WHERE player_id = ?", (alice.id,)).fetchone()[0]
    assert penalties == 5
    assert {row["entrant"] for row in t["standings"]} == {e["entrant"] for e in t["entrants"]}


@pytest.mark.slow
def test_a_person_plays_the_boards_at_the_seats_the_hall_gives_him(make_server: Callable[..., ServerProcess]) -> None:
    from .harness import act_policy, first_legal

    server = make_server(args=[*SUITE_DEAL, "--board-pause", "1.0"])
    hall = Hall(server)
    bob = hall.login("bob")
    with hall.http(bob.token) as c:
        tid = c.post("/api/tournaments", json={"game": "baohuang", "rounds": 1, "boards": 5}).json()["id"]
        assert c.post(f"/api/tournaments/{tid}/register", json={}).status_code == 200
        assert c.post(f"/api/tournaments/{tid}/start", json={"bots": 2}).status_code == 200
    t = wait_for(hall, tid, lambda t: bool(t["results"]) and t["results"][0]["tables"][0]["room"] is not None, 10)
    room = t["results"][0]["tables"][0]["room"]
    with hall.connect(room, bob, policy=act_policy(first_legal)) as client:
        t = wait_for(hall, tid, lambda t: t["status"] == "finished")
        seats = {m["seat"] for m in client.messages if m.get("type") == "update" and m["room"]["status"] == "playing"}
    assert len(seats) == 5, "the plan moves him one seat a board"
    hands = stored_hands(server.db, tid)
    with sqlite3.connect(server.db) as c:
        for h in hands:
            seat = next(i for i, s in enumerate(orjson.loads(h["seating"])) if s["player"] == bob.id)
            mine = [
                x
                for (x,) in c.execute("SELECT hosted FROM actions WHERE hand_id = ? AND seat = ?", (h["hand_id"], seat))
            ]
            assert mine and not any(mine), "he played his own cards"
        assert c.execute("SELECT COUNT(*) FROM penalties WHERE player_id = ?", (bob.id,)).fetchone()[0] == 0
