"""``paiju cluster``: ``config`` writes a configuration HAProxy accepts; ``up`` refuses what
a cluster cannot share, and really runs one — workers on PostgreSQL (PAIJU_TEST_POSTGRES)
and Redis (PAIJU_TEST_REDIS), HAProxy in front — until SIGINT stops every process of it."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
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


@pytest.fixture
def cluster_args(tmp_path: Path) -> Iterator[list[str]]:
    pg, redis, _ = _needs_cluster()
    first = _free_ports(3)
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
        "--worker-prefix",
        f"t{os.getpid()}-w",
        "--bot-delay",
        "0.1",
    ]


def test_up_runs_a_cluster_until_sigint(cluster_args: list[str], tmp_path: Path) -> None:
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
        processes = _children(cluster.proc.pid)
        assert len(processes) >= 3, processes  # two workers and haproxy (and the workers' helpers)
        for name in (f"{prefix}1.log", f"{prefix}2.log", "haproxy.cfg"):
            assert (tmp_path / name).exists(), name

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
