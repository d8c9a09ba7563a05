"""``paiju cluster``: ``config`` writes a configuration HAProxy accepts; ``up`` refuses what
a cluster cannot share, and really runs one — workers on PostgreSQL (PAIJU_TEST_POSTGRES)
and Redis (PAIJU_TEST_REDIS), HAProxy in front — starts again a worker or HAProxy killed
with SIGKILL while a table plays on, until SIGINT stops every process of it."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from typer.testing import CliRunner

from paiju.cli import app, find_haproxy

runner = CliRunner()
PG_URL = os.environ.get("PAIJU_TEST_POSTGRES")
REDIS_URL = os.environ.get("PAIJU_TEST_REDIS")


def _flat(text: str) -> str:
    return " ".join(text.split())  # the error messages are wrapped to the terminal's width


# ---------------------------------------------------------------------------- config
def test_config_is_accepted_by_haproxy(tmp_path: Path) -> None:
    argv = ["cluster", "config", "--worker", "a=127.0.0.1:9001", "-w", "b=127.0.0.1:9002"]
    r = runner.invoke(app, [*argv, "--bind", "127.0.0.1:9000", "--stats", "127.0.0.1:9009"])
    assert r.exit_code == 0, r.output
    assert "server a 127.0.0.1:9001 check" in r.stdout and "server b 127.0.0.1:9002 track rooms/b" in r.stdout
    assert "bind 127.0.0.1:9000" in r.stdout and "listen stats" in r.stdout
    haproxy = find_haproxy()
    if haproxy is None:
        pytest.skip("no haproxy program (Debian's haproxy package): HAProxy's own check not run")
    config = tmp_path / "haproxy.cfg"
    config.write_text(r.stdout)
    check = subprocess.run([haproxy, "-c", "-f", str(config)], capture_output=True, text=True, timeout=30)
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--worker", "w1"], "is not NAME=HOST:PORT"),
        (["--worker", "w1=10.0.0.1"], "is not HOST:PORT"),
        (["--worker", "w 1=10.0.0.1:80"], "worker name 'w 1'"),
        (["--worker", "w1=10.0.0.1:80", "--worker", "w1=10.0.0.2:80"], "the same name"),
        (["--worker", "w1=10.0.0.1:80", "--bind", "80"], "--bind '80' is not HOST:PORT"),
    ],
)
def test_config_refuses_what_is_not_a_worker(args: list[str], message: str) -> None:
    r = runner.invoke(app, ["cluster", "config", *args])
    assert r.exit_code == 2
    assert message in _flat(r.output)


# ---------------------------------------------------------------------------- up
def test_up_refuses_sqlite() -> None:
    r = runner.invoke(
        app, ["cluster", "up", "--workers", "2", "--db", "sqlite:///hall.db", "--redis", "redis://127.0.0.1:6379/0"]
    )
    assert r.exit_code == 2
    assert "the workers of a cluster share one PostgreSQL database; SQLite cannot be shared" in _flat(r.output)


def _needs_cluster() -> tuple[str, str, str]:
    """The PostgreSQL and Redis URLs and the haproxy program (or a skip saying what is missing)."""
    if not PG_URL or not REDIS_URL:
        pytest.skip("needs PAIJU_TEST_POSTGRES (PostgreSQL URL) and PAIJU_TEST_REDIS (Redis URL); .ci/run sets both")
    haproxy = find_haproxy()
    if haproxy is None:
        pytest.skip("no haproxy program (Debian's haproxy package)")
    where = urlsplit(REDIS_URL)
    try:
        with socket.create_connection((where.hostname or "127.0.0.1", where.port or 6379), timeout=2) as s:
            s.sendall(b"PING\r\n")
            answer = s.recv(64)
    except OSError as e:
        pytest.skip(f"no Redis server answers at {REDIS_URL}: {e}")
    if not answer.startswith((b"+PONG", b"-NOAUTH")):
        pytest.skip(f"no Redis server answers at {REDIS_URL}: {answer!r}")
    return PG_URL, REDIS_URL, haproxy


def _free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _free_ports(n: int) -> int:
    """The first of ``n`` free ports in a row (below Linux's ephemeral range)."""
    rng = random.Random()
    for _ in range(200):
        first = rng.randrange(20000, 32000)
        if all(_free(first + i) for i in range(n)):
            return first
    raise AssertionError("no free ports")


def _children(pid: int) -> set[int]:
    """Every process below ``pid`` (from /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rpartition(")")[2].split()[1])
            parents.setdefault(ppid, []).append(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"  # a zombie has ended


def _get_json(url: str) -> dict[str, object] | None:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=2) as r:
            answer = json.loads(r.read())
            return answer if isinstance(answer, dict) else None
    except (OSError, ValueError):
        return None


class _Cluster:
    """``paiju cluster up`` in a subprocess, its output read line by line."""

    def __init__(self, args: list[str], tmp_path: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "paiju.cli", "cluster", "up", *args, "--dir", str(tmp_path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=dict(os.environ, COLUMNS="200"),
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def wait_for(self, pattern: str, seconds: float) -> re.Match[str]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                if self.proc.poll() is not None and self.lines.empty():
                    break
                continue
            self.output.append(line)
            m = re.search(pattern, line)
            if m:
                return m
        raise AssertionError(f"no line matching {pattern!r}; the output:\n{self.text()}")

    def text(self) -> str:
        while not self.lines.empty():
            self.output.append(self.lines.get())
        return "".join(self.output)

    def kill(self) -> None:
        """What is left after a failed test: everything, at once."""
        left = _children(self.proc.pid) if self.proc.poll() is None else set()
        self.proc.kill()
        self.proc.wait()
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _pid(cluster: _Cluster, name: str) -> int:
    """The pid ``paiju cluster up`` printed for ``name`` ("worker w1" or "haproxy") last."""
    pids = re.findall(rf"^(?:\S+ )?{re.escape(name)}(?::.*? pid| started again: pid) (\d+)", cluster.text(), re.M)
    assert pids, f"no pid of {name}:\n{cluster.text()}"
    return int(pids[-1])


def _until(cond: Callable[[], object], seconds: float, what: str, cluster: _Cluster) -> float:
    """Seconds until ``cond()`` is true (or an error saying ``what`` did not happen)."""
    start = time.monotonic()
    while not cond():
        if time.monotonic() - start > seconds:
            raise AssertionError(f"{what}: not within {seconds} s; the output:\n{cluster.text()}")
        time.sleep(0.05)
    return time.monotonic() - start


@contextlib.contextmanager
def _schema_of_its_own(pg: str) -> Iterator[str]:
    """``pg`` with its tables in a new schema, dropped afterwards: a room of bots a test made
    does not play on in the next cluster on this database."""
    from sqlalchemy import create_engine, text

    schema = f"cluster_cli_{secrets.token_hex(4)}"
    admin = create_engine(pg)
    with admin.begin() as c:
        c.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield f"{pg}{'&' if '?' in pg else '?'}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as c:
            c.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


@pytest.fixture
def cluster_args(tmp_path: Path) -> Iterator[list[str]]:
    pg, redis, _ = _needs_cluster()
    first = _free_ports(5)  # the proxy, two workers, their two metrics ports
    # ids of its own: another cluster may share this database and Redis
    yield [
        "--db",
        pg,
        "--redis",
        redis,
        "--port",
        str(first),
        "--first-port",
        str(first + 1),
        "--first-metrics-port",
        str(first + 3),
        "--worker-prefix",
        f"t{os.getpid()}-w",
        "--bot-delay",
        "0.1",
    ]


def test_up_runs_a_cluster_restarts_haproxy_and_stops_at_sigint(cluster_args: list[str], tmp_path: Path) -> None:
    start = time.monotonic()
    cluster = _Cluster(["--workers", "2", *cluster_args], tmp_path)
    try:
        hall = cluster.wait_for(r"the hall: (http://\S+?)/?\s", 45)[1]
        workers = set()
        for _ in range(40):  # leastconn: one request after another go to one worker after the other
            answer = _get_json(f"{hall}/healthz")
            if answer is not None and answer.get("ok"):
                workers.add(answer["worker"])
            if len(workers) == 2:
                break
            time.sleep(0.05)
        prefix = f"t{os.getpid()}-w"
        assert workers == {f"{prefix}1", f"{prefix}2"}, cluster.text()
        for i in (1, 2):  # each worker's Prometheus metrics, at the address printed
            printed = re.search(rf"^worker {prefix}{i}: .* metrics (http://\S+/metrics)$", cluster.text(), re.M)
            assert printed is not None, cluster.text()
            no_proxy = urllib.request.build_opener(urllib.request.ProxyHandler({}))
            with no_proxy.open(printed[1], timeout=5) as answer:
                assert f'paiju_worker_info{{worker="{prefix}{i}"}} 1.0' in answer.read().decode()
        processes = _children(cluster.proc.pid)
        assert len(processes) >= 3, processes  # two workers and haproxy (and the workers' helpers)
        for name in (f"{prefix}1.log", f"{prefix}2.log", "haproxy.cfg"):
            assert (tmp_path / name).exists(), name
        # HAProxy killed: started again at once (test_up_starts_a_killed_worker_… does more)
        proxy = _pid(cluster, "haproxy")
        os.kill(proxy, signal.SIGKILL)
        cluster.wait_for(rf"haproxy \(pid {proxy}\) was killed by SIGKILL; starting it again in 0.5 s$", 5)
        cluster.wait_for(r"haproxy answers \S+ again, [\d.]+ s after it died", 10)
        assert _get_json(f"{hall}/healthz") is not None
        processes = _children(cluster.proc.pid) | {proxy}

        cluster.proc.send_signal(signal.SIGINT)
        stopped = time.monotonic()
        assert cluster.proc.wait(timeout=15) == 0, cluster.text()
        while any(_alive(pid) for pid in processes) and time.monotonic() < stopped + 15:
            time.sleep(0.1)
        left = sorted(pid for pid in processes if _alive(pid))
        assert not left, f"still running 15 s after SIGINT: {left}"
        assert "the cluster stopped" in cluster.text()
        assert _get_json(f"{hall}/healthz") is None
        assert time.monotonic() - start < 60
    finally:
        cluster.kill()


def test_up_stops_all_when_a_worker_fails_to_start(cluster_args: list[str], tmp_path: Path) -> None:
    args = list(cluster_args)
    args[args.index("--redis") + 1] = f"redis://127.0.0.1:{_free_ports(1)}/0"  # nobody answers there
    cluster = _Cluster(["--workers", "2", *args], tmp_path)
    try:
        assert cluster.proc.wait(timeout=60) == 1
        text = _flat(cluster.text())
        assert f"t{os.getpid()}-w1 exited with code" in text, text
        assert "the last lines of" in text and "Connection refused" in text, text
        assert "the cluster stopped" in text
    finally:
        cluster.kill()


@pytest.mark.slow
def test_up_starts_a_killed_worker_and_a_killed_haproxy_again(cluster_args: list[str], tmp_path: Path) -> None:
    """kill -9 of the worker playing a table: it is started again, answers directly and
    through the proxy, and gets its room back; kill -9 of HAProxy: it is started again and
    the hall answers; the table plays on throughout; then SIGINT stops every process."""
    with contextlib.ExitStack() as cleanup:
        args = list(cluster_args)
        args[args.index("--db") + 1] = cleanup.enter_context(_schema_of_its_own(args[args.index("--db") + 1]))
        cluster = _Cluster(["--workers", "2", *args], tmp_path)
        cleanup.callback(cluster.kill)
        _kill_9_and_back(cluster, tmp_path)


def _kill_9_and_back(cluster: _Cluster, tmp_path: Path) -> None:
    from server.cluster_harness import Front, Seat
    from server.harness import Hall, sit_with_bots
    from server.test_cluster import moves
    from server.test_durability import keeps_playing

    seat: Seat | None = None
    try:
        hall_url = cluster.wait_for(r"the hall: (http://\S+?)/?\s", 45)[1]
        text = cluster.text()
        direct = dict(re.findall(r"^worker (\S+): (http://\S+?)/ pid", text, re.M))
        assert len(direct) == 2, text
        hall = Hall(Front(int(hall_url.rpartition(":")[2])))  # type: ignore[arg-type]
        player = hall.login(f"sup{os.getpid()}")
        rid = hall.create_room(player, {"variant": "classic"}, turn_timeout=600, name="supervised")
        first = hall.connect(rid, player)
        sit_with_bots(first)
        first.send({"type": "start"})
        first.until_update(lambda m: m["room"]["status"] == "playing")
        first.close()
        seat = Seat(hall, rid, player, keeps_playing)
        assert seat.ready.wait(10)
        moves(seat, 3)

        def holder() -> str | None:
            for name, url in direct.items():
                answer = _get_json(f"{url}/healthz")
                if answer is not None and rid in answer.get("room_ids", []):  # type: ignore[operator]
                    return name
            return None

        victim = holder()
        assert victim is not None, f"no worker holds room {rid}"
        killed = _pid(cluster, f"worker {victim}")
        os.kill(killed, signal.SIGKILL)
        died = time.monotonic()
        cluster.wait_for(
            rf"worker {re.escape(victim)} \(pid {killed}\) was killed by SIGKILL; starting it again in 0.5 s$", 5
        )
        again = int(cluster.wait_for(rf"worker {re.escape(victim)} started again: pid (\d+)$", 5)[1])
        _until(lambda: _get_json(f"{direct[victim]}/healthz"), 30, f"{victim} answers", cluster)
        answers = time.monotonic() - died
        _until(
            lambda: (_get_json(f"{hall_url}/healthz") or {}).get("worker") == victim,
            15,
            f"{victim} answers through the proxy",
            cluster,
        )
        through = time.monotonic() - died
        cluster.wait_for(rf"worker {re.escape(victim)} answers \S+ again, [\d.]+ s after it died", 10)
        print(f"worker {victim} killed: answers {answers:.1f} s after, through the proxy {through:.1f} s after")
        moves(seat, 3, 20, "the table plays on after its worker was killed")
        # a new connection is sent to the worker back by the hash: it takes the room back
        watcher = [hall.connect(rid, player)]

        def home() -> bool:
            if holder() == victim:
                return True
            if watcher[-1].closed:  # 1013: the room's holder was slow to give it up; the page tries again
                watcher.append(hall.connect(rid, player))
            return False

        try:
            _until(home, 15, f"{victim} plays room {rid} again", cluster)
            moves(seat, 3, 20, "the table plays on its worker started again")
        finally:
            for c in watcher:
                c.close()

        proxy = _pid(cluster, "haproxy")
        os.kill(proxy, signal.SIGKILL)
        died = time.monotonic()
        cluster.wait_for(rf"haproxy \(pid {proxy}\) was killed by SIGKILL; starting it again in 0.5 s$", 5)
        proxy_again = int(cluster.wait_for(r"haproxy started again: pid (\d+)$", 5)[1])
        _until(lambda: _get_json(f"{hall_url}/healthz"), 15, "the hall answers again", cluster)
        print(f"haproxy killed: the hall answers {time.monotonic() - died:.1f} s after")
        cluster.wait_for(r"haproxy answers \S+ again, [\d.]+ s after it died", 10)
        moves(seat, 3, 20, "the table plays on after HAProxy was killed")
        seat.close()
        seat = None

        processes = _children(cluster.proc.pid)
        assert {again, proxy_again} <= processes
        cluster.proc.send_signal(signal.SIGINT)
        stopped = time.monotonic()
        assert cluster.proc.wait(timeout=15) == 0, cluster.text()
        while any(_alive(pid) for pid in processes) and time.monotonic() < stopped + 15:
            time.sleep(0.1)
        left = sorted(pid for pid in processes | {killed, proxy} if _alive(pid))
        assert not left, f"still running 15 s after SIGINT: {left}"
        text = cluster.text()
        assert "the cluster stopped" in text
        assert "started again" not in text.partition("stopping the cluster")[2], text
        print(f"stopped {time.monotonic() - stopped:.1f} s after SIGINT")
    finally:
        if seat is not None:
            seat.close()
