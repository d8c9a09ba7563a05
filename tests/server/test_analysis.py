"""复盘 in the hall: a finished hand's analysis made in a worker, its progress, its cache."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

import paiju
from paiju.analysis import decision_steps

from .harness import Hall, Player, ServerProcess, act_policy, first_legal

FAST = ["--analysis-budget", "0.01", "--bot-delay", "0"]


def play_shuangkou(hall: Hall, p: Player) -> str:
    """A Shuangkou room whose first hand ``p`` (seat 0, first legal action) played with three bots."""
    rid = hall.create_room(p, {}, game="shuangkou")
    with hall.connect(rid, p) as c:
        c.send({"type": "sit", "seat": 0})
        c.until_update(lambda m: m["seat"] == 0)
        for s in (1, 2, 3):
            c.send({"type": "bot", "seat": s, "level": "normal"})
            c.until_update(lambda m, s=s: m["room"]["seats"][s]["bot"] == "normal")
        c.policy = act_policy(first_legal)
        c.send({"type": "start"})
        c.until_update(lambda m: m["room"]["status"] == "between", 60)
    return rid


def ask(hall: Hall, p: Player | None, path: str, method: str = "GET") -> httpx.Response:
    with hall.http(p.token if p else None) as c:
        return c.request(method, path, json={} if method == "POST" else None)  # the page always sends JSON


def until_done(hall: Hall, path: str, seen: list[dict[str, Any]], timeout: float = 60) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        body = ask(hall, None, path).json()
        seen.append(body)
        if body["state"] in ("done", "failed"):
            return dict(body)
        time.sleep(0.05)
    raise AssertionError(f"the analysis did not finish: {seen[-1]}")


def test_an_analysis_runs_in_a_worker_shows_progress_and_is_kept(
    make_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    server = make_server(db=tmp_path / "a.db", args=FAST)
    hall = Hall(server)
    p = hall.login("analyst")
    rid = play_shuangkou(hall, p)
    record = hall.record(rid, 1)
    path = f"/api/rooms/{rid}/hands/1/analysis?seat=0"
    assert ask(hall, None, path).json() == {"state": "none"}
    # only a player may start one, from the hall's page
    assert ask(hall, None, path, "POST").status_code == 401
    r = ask(hall, p, path, "POST")
    assert r.status_code == 202 and r.json()["state"] in ("queued", "running")
    total = len(decision_steps(record, 0))
    assert r.json()["total"] == total
    seen: list[dict[str, Any]] = []
    body = until_done(hall, path, seen)
    assert body["state"] == "done", body
    a = body["analysis"]
    unsampled = [d["step"] for d in a["not_analysed"] if d["why"] == "cannot_sample"]
    assert sorted([d["step"] for d in a["decisions"]] + unsampled) == decision_steps(record, 0)
    assert a["seat"] == 0 and a["game"] == "shuangkou" and a["budget"] == 0.01 and a["double_dummy"]
    for d in a["decisions"]:
        assert record["actions"][d["step"]] == d["action"]
        assert d["loss"] >= 0 and d["worlds"] >= 1 and d["dd"] is not None
    progress = [b["done"] for b in seen if b["state"] == "running"]
    assert progress == sorted(progress) and all(0 <= x <= total for x in progress)
    # asking again answers from the store, for anyone, and after a restart too
    assert ask(hall, p, path, "POST").json() == body
    server.stop()
    server.start()
    assert ask(hall, None, path).json() == body


def test_analysis_is_refused_for_hands_in_play_bad_seats_and_too_many(
    make_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    server = make_server(db=tmp_path / "b.db", args=[*FAST, "--analysis-budget", "0.05", "--analysis-jobs", "1"])
    hall = Hall(server)
    p, q = hall.login("first"), hall.login("second")
    rid = play_shuangkou(hall, p)
    rid2 = play_shuangkou(hall, q)
    # a hand still being played (the second hand has not started: no such finished hand)
    assert ask(hall, p, f"/api/rooms/{rid}/hands/2/analysis?seat=0", "POST").status_code == 404
    r = ask(hall, p, f"/api/rooms/{rid}/hands/1/analysis?seat=4", "POST")
    assert r.status_code == 400 and r.json()["code"] == "bad_seat"
    r = ask(hall, p, f"/api/rooms/{rid}/hands/1/analysis?seat=0", "POST")
    assert r.status_code == 202
    # one at a time for a player, and the hall's limit for everyone
    r = ask(hall, p, f"/api/rooms/{rid}/hands/1/analysis?seat=1", "POST")
    assert r.status_code == 429 and r.json()["code"] == "analysis_yours"
    r = ask(hall, q, f"/api/rooms/{rid2}/hands/1/analysis?seat=0", "POST")
    assert r.status_code == 429 and r.json()["code"] == "analysis_busy" and r.json()["params"] == {"jobs": 1}
    # the running one is unaffected
    assert until_done(hall, f"/api/rooms/{rid}/hands/1/analysis?seat=0", [], 120)["state"] == "done"


def spawned_children(pid: int) -> list[int]:
    """The server's worker processes started with ``spawn`` (not the resource tracker)."""
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            cmd = Path(f"/proc/{child}/cmdline").read_bytes()
            if b"spawn_main" in cmd:
                out.append(int(child))
    return out


@pytest.mark.slow
def test_a_killed_worker_fails_the_analysis_and_asking_again_works(
    make_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    server = make_server(db=tmp_path / "c.db", args=[*FAST, "--analysis-budget", "0.3"])
    hall = Hall(server)
    p = hall.login("unlucky")
    rid = play_shuangkou(hall, p)
    path = f"/api/rooms/{rid}/hands/1/analysis?seat=0"
    assert ask(hall, p, path, "POST").status_code == 202
    assert server.proc is not None
    end = time.monotonic() + 30
    while not (workers := spawned_children(server.proc.pid)) and time.monotonic() < end:
        time.sleep(0.05)
    assert workers, "no analysis worker was started"
    for w in workers:
        os.kill(w, signal.SIGKILL)
    body = until_done(hall, path, [])
    assert body["state"] == "failed" and body["error"]
    assert ask(hall, p, path, "POST").status_code == 202
    assert until_done(hall, path, [], 120)["state"] == "done"
    # the tables went on: a new hand plays
    assert paiju.replay(hall.record(rid, 1)).is_over
