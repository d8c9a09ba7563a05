"""A real Prometheus (Debian's ``prometheus``) scrapes a hall, then a cluster of two workers,
every second, while a few hands are played; its HTTP query API must show the action
counters and the latency histograms moving, every target up, and the alert rules of
deploy/monitoring evaluating without error against the real series.

Marked slow (Prometheus's start-up, a hall or a cluster, hands: ~10 s and ~20 s). Skipped without
``prometheus`` on PATH (.ci/run installs it); the cluster half also needs PostgreSQL, Redis
and HAProxy (cluster_harness.missing)."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .cluster_harness import Cluster, missing
from .harness import Client, Hall, Player, ServerProcess, first_legal, free_port, sit_with_bots

PROMETHEUS = shutil.which("prometheus")
ALERTS = Path(__file__).resolve().parents[2] / "deploy" / "monitoring" / "paiju-alerts.yml"
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(PROMETHEUS is None, reason="needs Debian's prometheus (.ci/run installs it)"),
]


class Prometheus:
    """``prometheus`` on a free loopback port with its own data directory, scraping ``targets``
    (worker name → HOST:PORT of its metrics) every second, with paiju's alert rules loaded."""

    def __init__(self, tmp: Path, targets: dict[str, str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        statics = "".join(
            f'      - targets: ["{address}"]\n        labels: {{worker: {name}}}\n' for name, address in targets.items()
        )
        config = tmp / "prometheus.yml"
        config.write_text(
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
            f"rule_files:\n  - {ALERTS}\n"
            "scrape_configs:\n  - job_name: paiju\n    static_configs:\n" + statics
        )
        self.log = open(tmp / "prometheus.log", "ab")  # noqa: SIM115 - closed in stop()
        assert PROMETHEUS is not None
        self.proc = subprocess.Popen(
            [
                PROMETHEUS,
                f"--config.file={config}",
                f"--storage.tsdb.path={tmp / 'prometheus-data'}",
                f"--web.listen-address=127.0.0.1:{self.port}",
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.wait(lambda: httpx.get(self.url + "/-/ready", timeout=2).status_code == 200, 30, "ready")

    def wait(self, ok: Callable[[], bool], seconds: float, what: str) -> None:
        deadline = time.monotonic() + seconds
        while True:
            with contextlib.suppress(httpx.TransportError, KeyError, IndexError, ValueError):
                if ok():
                    return
            if time.monotonic() > deadline:
                raise AssertionError(f"Prometheus: not {what} in {seconds:g} s")
            time.sleep(0.5)

    def query(self, expr: str) -> list[dict[str, Any]]:
        r = httpx.get(self.url + "/api/v1/query", params={"query": expr}, timeout=5)
        body = r.json()
        assert body["status"] == "success", body
        return list(body["data"]["result"])

    def value(self, expr: str) -> float:
        """The single value of ``expr`` (raises IndexError when it has none yet)."""
        return float(self.query(expr)[0]["value"][1])

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        self.log.close()


@contextlib.contextmanager
def prometheus(tmp: Path, targets: dict[str, str]) -> Iterator[Prometheus]:
    p = Prometheus(tmp, targets)
    try:
        yield p
    finally:
        p.stop()


def play_a_hand(hall: Hall, name: str) -> None:
    """A guest sits with four 托管 bots, acts once, then lets the hall play the hand out."""
    player: Player = hall.login(name)
    rid = hall.create_room(player)
    c: Client
    with hall.connect(rid, player) as c:
        sit_with_bots(c, level="hosted")
        c.send({"type": "start"})
        m = c.my_turn(30)
        c.act(first_legal(m["view"]), m["turn"])
        c.until_update(lambda m: m["turn"] > 0)
        c.send({"type": "hosted", "on": True})
        c.until_update(lambda m: m["room"]["hand_number"] == 1 and m["room"]["status"] != "playing", 60)


def check_moved(prom: Prometheus, workers: int) -> None:
    """What Prometheus holds after the hands: every target up, actions counted (by persons and
    by the hall), latencies observed, a p99 computable, and every alert rule healthy."""
    prom.wait(lambda: prom.value('count(up{job="paiju"} == 1)') == workers, 20, f"scraping {workers} target(s)")
    prom.wait(lambda: prom.value('sum(paiju_actions_total{by="person"})') >= 1, 20, "counting persons' actions")
    prom.wait(lambda: prom.value('sum(paiju_actions_total{by="hosted"})') >= 10, 20, "counting hosted actions")
    prom.wait(lambda: prom.value("sum(paiju_action_latency_seconds_count)") >= 1, 20, "observing latencies")
    prom.wait(lambda: prom.value("sum(paiju_store_commit_seconds_count)") >= 1, 20, "observing commits")
    prom.wait(
        lambda: prom.value("histogram_quantile(0.99, sum by (le) (paiju_action_latency_seconds_bucket))") > 0,
        20,
        "giving a p99",
    )
    assert {r["metric"]["worker"] for r in prom.query("paiju_worker_info")} == set(
        r["metric"]["worker"] for r in prom.query('up{job="paiju"}')
    )

    def rules_evaluated() -> bool:
        groups = httpx.get(prom.url + "/api/v1/rules", timeout=5).json()["data"]["groups"]
        rules = [r for g in groups for r in g["rules"]]
        assert len(rules) >= 5
        bad = [(r["name"], r.get("lastError")) for r in rules if r["health"] != "ok"]
        assert not [b for b in bad if b[1]], f"alert rules failed: {bad}"
        return not bad

    prom.wait(rules_evaluated, 20, "evaluating every alert rule")


def test_prometheus_scrapes_a_hall(start_server: Callable[..., ServerProcess], tmp_path: Path) -> None:
    port = free_port()
    server = start_server(args=("--metrics-port", str(port)))
    with prometheus(tmp_path, {"hall": f"127.0.0.1:{port}"}) as prom:
        play_a_hand(Hall(server), "scraped")
        check_moved(prom, 1)


@pytest.mark.skipif(missing() is not None, reason=missing() or "")
def test_prometheus_scrapes_every_worker_of_a_cluster(tmp_path: Path) -> None:
    cluster = Cluster(tmp_path, n=2, bot_delay=0.0)
    ports = {}
    for i, w in enumerate(cluster.workers, 1):
        ports[f"w{i}"] = free_port()
        w.args += ["--metrics-port", str(ports[f"w{i}"])]
    cluster.start()
    try:
        with prometheus(tmp_path, {name: f"127.0.0.1:{p}" for name, p in ports.items()}) as prom:
            for i in range(2):
                play_a_hand(cluster.hall, f"scraped{i}")
            check_moved(prom, 2)
            held = {r["metric"]["worker"]: float(r["value"][1]) for r in prom.query("paiju_leases_held")}
            assert set(held) == {"w1", "w2"}
            assert prom.value('sum(paiju_lease_renewals_total{result="ok"})') > 0
    finally:
        cluster.stop()
        cluster.assert_no_crash()
