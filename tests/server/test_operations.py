"""What an operator sees of a running hall: Prometheus metrics on the metrics port (and not
on the players' port), and ``--log-format json`` lines that name the room and the player and
carry no secret — no password, no session token — through logins and a played hand."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable

import httpx
from prometheus_client.parser import text_string_to_metric_families

from .harness import Hall, Player, ServerProcess, first_legal, free_port, sit_with_bots


def samples(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The metrics page at ``url``: (series name, sorted labels) → value."""
    text = httpx.get(url, timeout=5).text
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def test_metrics_move_with_a_played_hand_and_json_logs_keep_no_secret(
    start_server: Callable[..., ServerProcess],
) -> None:
    port = free_port()
    args = ("--metrics-port", str(port), "--log-format", "json", "--registrations-per-hour", "1")
    server = start_server(args=args)
    hall, metrics = Hall(server), f"http://127.0.0.1:{port}/metrics"
    before = samples(metrics)
    assert before[("paiju_worker_info", (("worker", "hall"),))] == 1
    assert httpx.get(server.url + "/metrics", timeout=5).status_code == 404, "metrics are off the players' port"

    password = "horse battery " + secrets.token_hex(6)
    with hall.http() as c:
        r = c.post("/api/register", json={"username": "watcher", "password": password})
        assert r.status_code == 200, r.text
        tokens = [r.cookies["paiju_token"]]
    with hall.http() as c:  # one registration an hour from an address: a 429, counted
        assert c.post("/api/register", json={"username": "other", "password": password}).status_code == 429
    with hall.http() as c:
        r = c.post("/api/login", json={"username": "watcher", "password": password})
        assert r.status_code == 200, r.text
        tokens.append(r.cookies["paiju_token"])
    player = Player(r.json()["player"]["id"], "watcher", tokens[-1])
    rid = hall.create_room(player)
    with hall.connect(rid, player) as c:
        sit_with_bots(c, level="hosted")
        c.send({"type": "start"})
        m = c.my_turn()
        c.act(first_legal(m["view"]), m["turn"])  # one action of a person: the latency histogram
        c.until_update(lambda m: m["turn"] > 0)
        c.send({"type": "hosted", "on": True})
        c.until_update(lambda m: m["room"]["hand_number"] == 1 and m["room"]["status"] != "playing", 60)
        during = samples(metrics)
    assert during[("paiju_connections", ())] >= 1 and during[("paiju_players_connected", ())] >= 1
    after = samples(metrics)
    person = ("game", "baohuang"), ("by", "person")
    assert after[("paiju_actions_total", tuple(sorted(person)))] >= 1
    assert after[("paiju_actions_total", (("by", "hosted"), ("game", "baohuang")))] >= 10
    assert after[("paiju_action_latency_seconds_count", (("game", "baohuang"),))] >= 1
    assert after[("paiju_store_commit_seconds_count", ())] > before[("paiju_store_commit_seconds_count", ())]
    assert after[("paiju_ws_closes_total", (("code", "client"),))] >= 1
    assert after[("paiju_rate_limited_requests_total", (("code", "too_many_registrations"),))] == 1
    assert after[("process_resident_memory_bytes", ())] > 0

    log = server.log_text()
    for secret in (password, *tokens):
        assert secret not in log, "a secret in the hall's log"
    printed = ("paiju hall on ", "metrics on ")  # the start-up's two lines for a person, on stdout
    lines = [json.loads(line) for line in log.splitlines() if not line.startswith(printed)]
    assert all({"time", "level", "worker", "event"} <= set(line) for line in lines)
    assert any(line.get("player") == player.id and "logged in" in line["event"] for line in lines), lines
    assert any(line.get("room") == rid and "hand 1 ended" in line["event"] for line in lines), lines
