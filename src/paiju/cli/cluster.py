"""``paiju cluster``: hall workers behind HAProxy — ``up`` runs a cluster on this machine
and starts again any of its processes that dies (the delays: supervisor.py), ``config``
writes the proxy's configuration for real machines (docs/deploy.md).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import typer
from rich.markup import escape

from paiju.cli.common import _console, _fail
from paiju.cli.supervisor import Supervisor

cluster = typer.Typer(
    help="A cluster of hall workers behind HAProxy: try one on this machine (up), or write the "
    "proxy's configuration for real machines (config). docs/deploy.md explains the design.",
    no_args_is_help=True,
)

STOP_WAIT = 10.0  # seconds the cluster's processes have to stop after SIGTERM before SIGKILL
WORKER_START = 60.0  # seconds a worker may take to answer /healthz (the first one migrates the database)
SBIN = ("/usr/local/sbin", "/usr/sbin", "/sbin")  # where Debian puts haproxy (not on every user's PATH)


def find_haproxy() -> str | None:
    """The ``haproxy`` program: on PATH, or where Debian installs it."""
    path = os.pathsep.join([os.environ.get("PATH", ""), *SBIN])
    return shutil.which("haproxy", path=path)


def _host_port(text: str, what: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        _fail(f"{what} {text!r} is not HOST:PORT (e.g. 10.0.0.11:8000)")
    return host, int(port)


def _worker_name(name: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", name):
        _fail(f"worker name {name!r}: 1-64 letters, digits, '.', '_' or '-'")
    return name


@cluster.command("config")
def cluster_config(
    worker: Annotated[
        list[str],
        typer.Option("--worker", "-w", help="A worker as NAME=HOST:PORT (repeatable), e.g. w1=10.0.0.11:8000."),
    ],
    bind: Annotated[str, typer.Option("--bind", help="HOST:PORT the proxy listens on.")] = "0.0.0.0:8000",
    stats: Annotated[
        str | None, typer.Option("--stats", help="HOST:PORT of HAProxy's statistics page (none by default).")
    ] = None,
    log: Annotated[
        bool,
        typer.Option(
            "--log",
            help="Log each request to the global section's log address (Debian's haproxy.cfg has one; "
            "see docs/deploy.md).",
        ),
    ] = False,
) -> None:
    """Print HAProxy's configuration for a cluster's workers (deploy/haproxy.cfg is one)."""
    from paiju.server.cluster.proxy_config import haproxy_config

    workers: list[tuple[str, str, int]] = []
    for item in worker:
        name, sep, address = item.partition("=")
        if not sep:
            _fail(f"--worker {item!r} is not NAME=HOST:PORT (e.g. w1=10.0.0.11:8000)")
        host, port = _host_port(address, f"--worker {name}:")
        workers.append((_worker_name(name), host, port))
    names = [name for name, _, _ in workers]
    if len(set(names)) < len(names):
        _fail("two --worker options have the same name")
    bind_at = _host_port(bind, "--bind")
    stats_at = _host_port(stats, "--stats") if stats is not None else None
    args = " ".join(f"--worker {name}={host}:{port}" for name, host, port in workers) + f" --bind {bind}"
    if stats is not None:
        args += f" --stats {stats}"
    if log:
        args += " --log"
    header = (
        "# Made by `paiju cluster config`; to make it again (after a change of the workers):\n"
        f"#   paiju cluster config {args} > haproxy.cfg\n\n"
    )
    typer.echo(header + haproxy_config(workers, bind=bind_at, stats=stats_at, log=log), nl=False)


def _health(url: str, timeout: float = 1.0) -> dict[str, Any] | None:
    """``url``'s JSON answer when it answers 200 (None otherwise); never through an HTTP proxy."""
    import urllib.request

    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=timeout) as answer:
            if answer.status != 200:
                return None
            body = json.loads(answer.read())
            return body if isinstance(body, dict) else None
    except (OSError, ValueError):
        return None


def _port_free(host: str, port: int) -> bool:
    import socket

    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the servers do: a closed connection's port is free
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def _tail(path: Path, lines: int = 20) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:]) or "(the log is empty)"


def _with_parent() -> Callable[[], None] | None:
    """What makes a child of ``paiju cluster up`` get SIGTERM when ``paiju cluster up`` dies,
    however it dies (Linux's PR_SET_PDEATHSIG; None elsewhere)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)  # loaded here, not in the child between fork and exec

    def die_with_parent() -> None:  # pragma: no cover - runs in the child
        libc.prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG

    return die_with_parent


class _Stop(Exception):
    """SIGINT (Ctrl-C) or SIGTERM: stop the cluster."""


class _StopSignal:
    """The handler of SIGINT and SIGTERM while the cluster runs: it notes the signal, which
    ``check`` turns into ``_Stop`` between two steps — never in the middle of starting a
    process, which would leave one running that nobody stops."""

    def __init__(self) -> None:
        self.received: int | None = None

    def __call__(self, signum: int, frame: Any) -> None:
        self.received = signum

    def check(self) -> None:
        if self.received is not None:
            raise _Stop


class _Failed(Exception):
    """A process of the cluster did not start: why, and its log."""

    def __init__(self, message: str, log: Path) -> None:
        super().__init__(message)
        self.log = log


class _Exit(NamedTuple):
    name: str
    pid: int
    code: int  # its exit code, or minus the signal that killed it (subprocess's returncode)
    log: Path


def _how(code: int) -> str:
    """How a process ended, from its returncode: "exited with code 1", "was killed by SIGKILL"."""
    if code >= 0:
        return f"exited with code {code}"
    try:
        return f"was killed by {signal.Signals(-code).name}"
    except ValueError:
        return f"was killed by signal {-code}"


class _Processes:
    """The processes of ``paiju cluster up``, each in a process group of its own (so a Ctrl-C
    in the terminal reaches ``paiju cluster up`` alone, which stops them in order)."""

    def __init__(self) -> None:
        self.running: list[tuple[str, subprocess.Popen[bytes], Path]] = []
        self.how_to_start: dict[str, tuple[list[str], Path, Mapping[str, str] | None]] = {}
        self.hurry = False
        self.before_exec = _with_parent()

    def start(self, name: str, argv: Sequence[str], log: Path, env: Mapping[str, str] | None = None) -> int:
        self.how_to_start[name] = (list(argv), log, env)
        with log.open("ab") as out:
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
                preexec_fn=self.before_exec,
            )
        self.running.append((name, proc, log))
        return proc.pid

    def restart(self, name: str) -> int:
        """Start ``name`` again as it was started last (the same command, log and environment)."""
        return self.start(name, *self.how_to_start[name])

    def exited(self) -> list[_Exit]:
        """The processes that exited since the last call. What one of them left behind (a dead
        worker's helper processes) is killed."""
        gone = [(name, proc, log) for name, proc, log in self.running if proc.poll() is not None]
        self.running = [x for x in self.running if x[1].returncode is None]
        for _, proc, _ in gone:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        return [_Exit(name, proc.pid, proc.returncode, log) for name, proc, log in gone]

    def stop(self) -> None:
        """SIGTERM to each process — HAProxy first, so that no new player arrives — then SIGKILL
        to whatever is left after STOP_WAIT seconds, and to what each one left behind. Another
        Ctrl-C meanwhile kills them at once."""

        def hurry(signum: int, frame: Any) -> None:
            self.hurry = True

        signal.signal(signal.SIGINT, hurry)
        signal.signal(signal.SIGTERM, hurry)
        for _, proc, _ in sorted(self.running, key=lambda x: x[0] != "haproxy"):
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_WAIT
        while any(proc.poll() is None for _, proc, _ in self.running):
            if self.hurry or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        for _, proc, _ in self.running:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)  # the process if it is still there, and its children
            proc.wait()
        self.running = []


def _log(text: str) -> None:
    """A line of the cluster's supervision (a death, a restart), with the time, on stderr."""
    typer.echo(f"{time.strftime('%H:%M:%S')} {text}", err=True)


def _supervise(procs: _Processes, stop: _StopSignal, health: Mapping[str, str]) -> None:
    """Keep the cluster's processes running until a stop signal: a process that dies is
    started again after the backoff of supervisor.py (never given up), each death, restart
    and return logged. ``health``: the URL that answers when each process is back."""
    supervisor = Supervisor()
    now = time.monotonic()
    for name in health:
        supervisor.started(name, now)
    down: dict[str, float] = {}  # died and not answering since: when it first died
    waiting: set[str] = set()  # started again, not answering yet

    def label(name: str) -> str:
        return name if name == "haproxy" else f"worker {name}"

    while True:
        stop.check()
        now = time.monotonic()
        for gone in procs.exited():
            delay = supervisor.died(gone.name, now)
            deaths = supervisor.deaths(gone.name)
            again = f"; starting it again in {delay:g} s" + (f" ({deaths} deaths in a row)" if deaths > 1 else "")
            _log(f"{label(gone.name)} (pid {gone.pid}) {_how(gone.code)}{again}")
            if gone.code > 0:  # it said why, perhaps
                typer.echo(f"the last lines of {gone.log}:\n{_tail(gone.log, 10)}", err=True)
            down.setdefault(gone.name, now)
            waiting.discard(gone.name)
        for name in supervisor.due(now):
            stop.check()  # no restart once the cluster is asked to stop
            pid = procs.restart(name)
            supervisor.started(name, time.monotonic())
            waiting.add(name)
            _log(f"{label(name)} started again: pid {pid}")
        for name in sorted(waiting):
            if _health(health[name], timeout=0.5) is not None:
                waiting.discard(name)
                took = time.monotonic() - down.pop(name)
                _log(f"{label(name)} answers {health[name]} again, {took:.1f} s after it died")
        time.sleep(0.1)


@cluster.command("up")
def cluster_up(
    workers: Annotated[int, typer.Option("--workers", "-n", help="How many workers.", min=1, max=64)],
    db: Annotated[str, typer.Option("--db", help="The workers' PostgreSQL database: postgresql://user:pass@host/db.")],
    redis: Annotated[str, typer.Option("--redis", help="The workers' Redis: redis://host:port/0.")],
    port: Annotated[int, typer.Option("--port", help="Port of the hall (HAProxy).")] = 8000,
    first_port: Annotated[
        int, typer.Option("--first-port", help="Port of the first worker; the next ones follow.")
    ] = 8101,
    first_metrics_port: Annotated[
        int,
        typer.Option(
            "--first-metrics-port",
            help="Port of the first worker's Prometheus metrics (GET /metrics, on loopback); the next ones follow.",
        ),
    ] = 9101,
    host: Annotated[str, typer.Option("--host", help="Address the proxy and the workers listen on.")] = "127.0.0.1",
    bot_delay: Annotated[float, typer.Option("--bot-delay", help="Seconds a computer player waits to act.")] = 0.6,
    directory: Annotated[
        Path | None, typer.Option("--dir", help="Where the logs and haproxy.cfg go (default: a new temporary one).")
    ] = None,
    worker_prefix: Annotated[
        str, typer.Option("--worker-prefix", help="The workers' ids are this and a number: w1, w2, …")
    ] = "w",
) -> None:
    """Run a cluster on this machine: N workers and HAProxy in front; Ctrl-C stops it.

    The workers share one PostgreSQL database and one Redis server; the proxy is Debian's
    haproxy. The workers' logs and haproxy.cfg are kept in --dir."""
    import tempfile

    from paiju.server.cluster.proxy_config import haproxy_config

    scheme = db.partition(":")[0].lower()
    if scheme.startswith("sqlite"):
        _fail(
            f"--db {db}: the workers of a cluster share one PostgreSQL database; SQLite cannot be "
            "shared by several servers (give --db postgresql://user:pass@host/db)"
        )
    if not scheme.startswith("postgresql"):
        _fail(f"--db {db}: the workers of a cluster need PostgreSQL (postgresql://user:pass@host/db)")
    if redis.partition(":")[0].lower() not in ("redis", "rediss", "unix"):
        _fail(f"--redis {redis}: give the Redis server as redis://host:port/0")
    haproxy = find_haproxy()
    if haproxy is None:
        _fail("haproxy is not installed: install Debian's haproxy (apt-get install haproxy)")
    names = [_worker_name(f"{worker_prefix}{i + 1}") for i in range(workers)]
    ports = [first_port + i for i in range(workers)]
    if port in ports or ports[-1] > 65535:
        _fail(f"--first-port {first_port}: the workers' ports {ports[0]}-{ports[-1]} overlap --port or pass 65535")
    metrics_ports = [first_metrics_port + i for i in range(workers)]
    if set(metrics_ports) & {port, *ports} or not 0 < metrics_ports[0] <= metrics_ports[-1] <= 65535:
        _fail(f"--first-metrics-port {first_metrics_port}: the metrics ports overlap the hall's or pass 65535")
    busy = [p for p in [port, *ports] if not _port_free(host, p)]
    busy += [p for p in metrics_ports if not _port_free("127.0.0.1", p)]
    if busy:
        _fail(f"port {', '.join(map(str, busy))} is in use (choose --port, --first-port and --first-metrics-port)")
    if directory is None:
        directory = Path(tempfile.mkdtemp(prefix="paiju-cluster-"))
    directory.mkdir(parents=True, exist_ok=True)
    directory = directory.resolve()
    hall = f"http://{host}:{port}"
    logs = [directory / f"{name}.log" for name in names]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    # the workers believe the proxy's X-Forwarded-For (the players' addresses) from this machine
    env.setdefault("FORWARDED_ALLOW_IPS", ",".join(dict.fromkeys(["127.0.0.1", "::1", host])))
    typer.echo(f"cluster directory: {directory} (logs, haproxy.cfg)")

    procs = _Processes()
    stop = _StopSignal()
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    code = 0
    try:

        def start_worker(i: int) -> None:
            argv = [sys.executable, "-m", "paiju.server.web.serve", "--host", host, "--port", str(ports[i])]
            argv += ["--db", db, "--redis", redis, "--worker-id", names[i], "--bot-delay", str(bot_delay)]
            argv += ["--origin", hall, "--metrics-port", str(metrics_ports[i])]
            pid = procs.start(names[i], argv, logs[i], env)
            typer.echo(
                f"worker {names[i]}: http://{host}:{ports[i]}/ pid {pid}, log {logs[i]}, "
                f"metrics http://127.0.0.1:{metrics_ports[i]}/metrics"
            )

        def wait_until(url: str, seconds: float, what: str, log: Path) -> None:
            # while the cluster starts, a process that exits stops it all: a mistake (a wrong
            # URL, a port taken) is shown at once rather than retried
            deadline = time.monotonic() + seconds
            while _health(url) is None:
                stop.check()
                for gone in procs.exited():
                    raise _Failed(f"{gone.name} {_how(gone.code)} while the cluster started", gone.log)
                if time.monotonic() > deadline:
                    raise _Failed(f"{what} did not answer {url} in {seconds:g} s", log)
                time.sleep(0.2)

        # the first worker alone brings the database's schema up to date; then the others
        start_worker(0)
        wait_until(f"http://{host}:{ports[0]}/healthz", WORKER_START, f"worker {names[0]}", logs[0])
        for i in range(1, workers):
            start_worker(i)
        for i in range(1, workers):
            wait_until(f"http://{host}:{ports[i]}/healthz", WORKER_START, f"worker {names[i]}", logs[i])
        config = directory / "haproxy.cfg"
        config.write_text(haproxy_config(list(zip(names, [host] * workers, ports)), bind=(host, port)))
        pid = procs.start("haproxy", [haproxy, "-f", str(config)], directory / "haproxy.log")
        typer.echo(f"haproxy: pid {pid}, config {config}, log {directory / 'haproxy.log'}")
        wait_until(f"{hall}/healthz", 15.0, "haproxy", directory / "haproxy.log")
        count = f"{workers} worker" + ("s" if workers > 1 else "")
        typer.echo(f"the hall: {hall}/  ({count}; a process that dies is started again; Ctrl-C stops the cluster)")
        health = {name: f"http://{host}:{p}/healthz" for name, p in zip(names, ports)}
        _supervise(procs, stop, {**health, "haproxy": f"{hall}/healthz"})
    except _Failed as e:
        _console(stderr=True).print(f"[bold red]error:[/bold red] {escape(e.args[0])}")
        typer.echo(f"the last lines of {e.log}:\n{_tail(e.log)}", err=True)
        code = 1
    except _Stop:
        pass
    finally:
        typer.echo("stopping the cluster …")
        procs.stop()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
    typer.echo("the cluster stopped")
    if code:
        raise typer.Exit(code)
