"""Fixtures of the server tests: one real hall process for the session (loopback, a free
port, a temporary SQLite file), plus a way to start private ones (restart tests), and
private halls each on a database of its own whose logs must stay clean (abuse tests), and a
hall served in this process for the tests that reach into it."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from paiju.server.accounts.settlement import BeanSettings
from paiju.server.web.app import create_app

from .abuse_helpers import assert_no_traceback
from .harness import CRASH, Hall, Loopback, ServerProcess, free_port

SUITE_DEAL = ["--deal-step", "0.01", "--deal-final-window", "0.3"]


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    d = tmp_path_factory.mktemp("hall")
    # a quick Shengji deal for the suite (the hall's own timing is test_newcomer's, on private halls)
    proc = ServerProcess(d / "hall.db", d / "server.log", args=SUITE_DEAL).start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture
def hall(server: ServerProcess, request: pytest.FixtureRequest) -> Iterator[Hall]:
    """The shared hall. After the test its log must show no server-side exception (a
    test expected to fail for a known server bug is excused)."""
    start = len(server.log_text())
    yield Hall(server)
    if request.node.get_closest_marker("xfail") is None:
        new = server.log_text()[start:]
        assert not CRASH.search(new), f"the server logged an exception during the test:\n{new[-4000:]}"


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    """Start private servers (same DB file on every call unless ``db`` is given; on the
    database at ``db_url`` instead when it is given; ``limits``: Limits fields; ``args``: more
    options of the app)."""
    started: list[ServerProcess] = []

    def make(
        db: Path | None = None,
        bot_delay: float = 0.0,
        db_url: str | None = None,
        limits: dict[str, Any] | None = None,
        args: Sequence[str] = (),
    ) -> ServerProcess:
        log = tmp_path / f"server{len(started)}.log"
        proc = ServerProcess(db or tmp_path / "private.db", log, bot_delay, db_url, limits=limits, args=args)
        started.append(proc)
        return proc.start()

    yield make
    for proc in started:
        proc.stop()


@pytest.fixture
def start_server(tmp_path: Path, make_server: Callable[..., ServerProcess]) -> Iterator[Callable[..., ServerProcess]]:
    """Start private halls, each on a database of its own (``limits``: Limits fields;
    ``args``: more options of the app). None of them may log a traceback."""
    started: list[ServerProcess] = []

    def start(
        limits: dict[str, Any] | None = None, args: tuple[str, ...] = (), db_url: str | None = None
    ) -> ServerProcess:
        proc = make_server(db=tmp_path / f"hall{len(started)}.db", db_url=db_url, limits=limits, args=args)
        started.append(proc)
        return proc

    yield start
    for proc in started:  # make_server stops them after this
        proc.stop()
        assert_no_traceback(proc)


@dataclass
class InProcess(Loopback):
    """A hall served by uvicorn in a thread of the test process (what Hall needs of a server)."""

    port: int
    app: Any


@contextlib.contextmanager
def served(app: Any) -> Iterator[InProcess]:
    """``app`` served by uvicorn in a thread of the test process, until the block ends."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the in-process hall did not start"
        time.sleep(0.05)
    try:
        yield InProcess(port, app)
    finally:
        server.should_exit = True
        thread.join(10)


# every account of the suite comes from loopback, and most tests want its start beans at once
TEST_BEANS = BeanSettings(start_after_hands=0, registrations_per_hour=100_000)


@pytest.fixture
def in_process(tmp_path: Path) -> Iterator[InProcess]:
    app = create_app(f"sqlite:///{tmp_path / 'hall.db'}", bot_delay=0.0, rate=1000, beans=TEST_BEANS)
    with served(app) as hall:
        yield hall


SQLITE_AND_POSTGRESQL = ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)]
"""The params of a module's own hall: SQLite in make test, PostgreSQL in make test-slow."""


@contextlib.contextmanager
def module_hall(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[Hall]:
    """A real hall process of the module's own on SQLite, or on PAIJU_TEST_POSTGRES for the
    ``postgresql`` param (skipped without it)."""
    pg = os.environ.get("PAIJU_TEST_POSTGRES")
    if request.param == "postgresql" and not pg:
        pytest.skip("needs PAIJU_TEST_POSTGRES (a PostgreSQL URL; .ci/run starts one)")
    d = tmp_path_factory.mktemp(name)
    proc = ServerProcess(d / "hall.db", d / "server.log", db_url=pg if request.param == "postgresql" else None)
    proc.start()
    try:
        yield Hall(proc)
    finally:
        proc.stop()
