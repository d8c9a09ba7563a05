"""A cluster comes back by itself (cluster_rooms.py, lease.py, the page's socket): three
workers, HAProxy, PostgreSQL and Redis on loopback, players who behave as the table page
does (cluster_harness.Seat: the page's pings, backoff and open timeout).

- Rooms moved by a kill -9 (their recorded owner is no longer the worker the proxy sends
  their players to), then a real PostgreSQL outage (``pg_ctl stop``, ``start``) of 2, 6
  and 30 s: every table plays again within 5 s of the database's return, nothing shown is
  lost, and while the database was away the workers said so on /healthz and to players.
- A paused worker (SIGSTOP): its players are moved within 5 s of another worker taking
  their rooms.
- A room whose holder does not hand it over in time is refused as *moving*, not as a
  database failure.

Marked slow (about three minutes). Needs PAIJU_TEST_POSTGRES, and PAIJU_TEST_PG_STOP and
PAIJU_TEST_PG_START: shell commands that stop and start that PostgreSQL server (.ci/run
sets them); skipped with the reason without them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .cluster_harness import Cluster, Seat, missing
from .harness import Hall
from .test_cluster import busy_table, moves, nothing_lost
from .test_durability import wait_until

PG_STOP = os.environ.get("PAIJU_TEST_PG_STOP")
PG_START = os.environ.get("PAIJU_TEST_PG_START")
BACK_WITHIN = 5.0  # seconds after the database's return every table plays again
MOVED_WITHIN = 5.0  # seconds after another worker took a paused worker's room its players play there

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(missing() is not None, reason=missing() or ""),
    pytest.mark.skipif(
        not (PG_STOP and PG_START), reason="needs PAIJU_TEST_PG_STOP and PAIJU_TEST_PG_START (.ci/run sets them)"
    ),
]


def pg(command: str | None, log: Path) -> None:
    """Stop or start the test PostgreSQL server (its output to a file: a server started
    from a pipe would keep the pipe open)."""
    assert command is not None
    with open(log, "ab") as out:
        done = subprocess.run(command, shell=True, stdout=out, stderr=subprocess.STDOUT, timeout=120)
    assert done.returncode == 0, f"{command} failed ({done.returncode}):\n{log.read_text()[-2000:]}"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("recovery"), n=3).start()
    try:
        yield c
    finally:
        c.stop()
        c.assert_no_crash()


@pytest.fixture(scope="module")
def moved(cluster: Cluster) -> Iterator[list[Seat]]:
    """Twelve playing tables, then kill -9 of a worker that plays some of them and its
    restart once they play elsewhere: those rooms are now recorded under a worker the
    proxy does not send their players to."""
    seats = [busy_table(cluster, f"rec{i}") for i in range(12)]
    try:
        for s in seats:
            moves(s, 3)
        owners = {s.rid: cluster.owner(s.rid)[0] for s in seats}
        counts = {name: list(owners.values()).count(name) for name in ("w1", "w2", "w3")}
        name = max(counts, key=lambda n: counts[n])
        victim = cluster.worker(name)
        its = [s for s in seats if owners[s.rid] == name]
        victim.kill9()
        for s in its:
            wait_until(lambda s=s: cluster.owner(s.rid)[0] not in (None, name), 10, f"room {s.rid} leaves {name}")
            moves(s, 1, 10, "the table plays on another worker")
        victim.start()
        cluster.wait_all_up()
        for s in seats:
            moves(s, 2, 20, "play goes on with the worker back")
        yield seats
    finally:
        for s in seats:
            s.close()


@pytest.mark.parametrize("outage", [2.0, 6.0, 30.0])
def test_every_table_plays_again_within_5_s_of_the_databases_return(
    cluster: Cluster, moved: list[Seat], outage: float, tmp_path: Path
) -> None:
    for s in moved:
        moves(s, 2, 20, "the table plays before the outage")
    pg(PG_STOP, tmp_path / "pg.log")
    down_at = time.monotonic()
    before = {s.rid: s.progress() for s in moved}  # nothing more can be stored from now on
    refused_from = {s.rid: len(s.refusals) for s in moved}
    if outage > 4:  # longer than a lease: every worker says so, to the proxy and the operator
        time.sleep(4.0)
        for w in cluster.workers:
            r = httpx.get(w.url + "/healthz", timeout=5)
            assert r.status_code == 503, r.text
            assert "database" in r.json()["why"] and r.json()["database"] == "unreachable", r.text
    time.sleep(max(0.0, down_at + outage - time.monotonic()))
    pg(PG_START, tmp_path / "pg.log")
    back_at = time.monotonic()
    for s in moved:
        for _, code in s.refusals[refused_from[s.rid] :]:
            # refused while the database was away, or its rooms moving back: never a crash
            assert code in ("unavailable", "room_moving"), f"room {s.rid} refused with {code}"
    took: dict[str, float] = {}
    for s in moved:

        def plays(s: Seat = s) -> bool:
            return s.progress() > before[s.rid]

        wait_until(plays, BACK_WITHIN + 25, f"room {s.rid} plays again after a {outage:.0f} s outage")
        first = next(u for u in s.updates if (u["room"]["hand_number"], u["turn"]) > before[s.rid])
        took[s.rid] = first["at"] - back_at
    worst = max(took.values())
    first_back = min(took.values())
    print(f"outage {outage:.0f} s: tables played again {first_back:.2f}–{worst:.2f} s after the database's return")
    assert worst < BACK_WITHIN, f"after a {outage:.0f} s outage a table stood still {worst:.1f} s: {took}"
    for s in moved:
        moves(s, 3, 20, "play goes on after the outage")
        nothing_lost(cluster, s)
    for w in cluster.workers:  # no room is left recorded under a worker that does not play it
        h = cluster.health(f"w{cluster.workers.index(w) + 1}")
        assert h["ok"] and not h["unplayed"], h
    cluster.assert_no_crash()


def test_players_of_a_paused_worker_play_elsewhere_within_5_s_of_the_take_over(
    cluster: Cluster, moved: list[Seat]
) -> None:
    owners = {s.rid: cluster.owner(s.rid)[0] for s in moved}
    name = max(set(owners.values()) - {None}, key=lambda n: list(owners.values()).count(n))
    assert name is not None
    its = [s for s in moved if owners[s.rid] == name]
    for s in its:
        moves(s, 2, 20, "the table plays before the pause")
    paused = cluster.worker(name)
    before = {s.rid: (s.progress(), s.connections) for s in its}
    os.kill(paused.pid, signal.SIGSTOP)
    stopped_at = time.monotonic()
    try:
        claimed: dict[str, float] = {}

        def all_claimed() -> bool:
            for s in its:
                if s.rid not in claimed and cluster.owner(s.rid)[0] not in (None, name):
                    claimed[s.rid] = time.monotonic()
            return len(claimed) == len(its)

        wait_until(all_claimed, 10, "other workers take the paused worker's rooms")
        moved_at: dict[str, float] = {}
        for s in its:

            def shown_elsewhere(s: Seat = s) -> dict[str, Any] | None:
                """The first update a later connection (the paused worker answers none) showed
                past where the table stood."""
                progress, connections = before[s.rid]
                later = (u for u in list(s.updates) if u["connection"] > connections)
                return next((u for u in later if (u["room"]["hand_number"], u["turn"]) > progress), None)

            wait_until(lambda s=s: shown_elsewhere(s) is not None, 15, f"room {s.rid} plays on another worker")
            first = shown_elsewhere(s)
            assert first is not None
            moved_at[s.rid] = first["at"]
        lags = {rid: moved_at[rid] - claimed[rid] for rid in moved_at}
        taken = [t - stopped_at for t in claimed.values()]
        print(
            f"paused worker: rooms taken {min(taken):.2f}–{max(taken):.2f} s into the pause; "
            f"players shown the table there {min(lags.values()):.2f}–{max(lags.values()):.2f} s later"
        )
        assert max(lags.values()) < MOVED_WITHIN, lags
        time.sleep(max(0.0, stopped_at + 10 - time.monotonic()))
    finally:
        os.kill(paused.pid, signal.SIGCONT)
    for s in its:
        moves(s, 3, 20, "play goes on after the pause")
        nothing_lost(cluster, s)


def test_a_room_whose_holder_does_not_hand_it_over_is_refused_as_moving(tmp_path: Path) -> None:
    """With a lease longer than a player's connection waits for a hand-over, a paused holder
    keeps the room: the player is told the room is moving (and tries again), not that the
    database failed."""
    c = Cluster(tmp_path, n=2, lease_ttl=12.0).start()
    try:
        first, second = Hall(c.workers[0]), Hall(c.workers[1])  # straight to each worker
        p = first.login("mover")
        rid = first.create_room(p, name="moving")
        assert c.owner(rid)[0] == "w1"
        os.kill(c.workers[0].pid, signal.SIGSTOP)
        try:
            asked = time.monotonic()
            client = second.connect(rid, p)
            refusal = client.next(timeout=15)
            waited = time.monotonic() - asked
            client.close()
        finally:
            os.kill(c.workers[0].pid, signal.SIGCONT)
        assert refusal["type"] == "error" and refusal["code"] == "room_moving", refusal
        assert "moving" in refusal["error"] and "database" not in refusal["error"]
        assert 2.5 < waited < 6, f"refused after {waited:.1f} s (a connection waits 3 s for a hand-over)"
        again = second.connect(rid, p)  # the holder, awake, gives the room up when asked
        assert again.next(timeout=15)["type"] == "hello"
        again.close()
        assert c.owner(rid)[0] == "w2"
    finally:
        c.stop()
        c.assert_no_crash()
