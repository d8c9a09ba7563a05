"""Fixtures of the server tests: one real hall process for the session (loopback, a free
port, a temporary SQLite file), plus a way to start private ones (restart tests), and
private halls each on a database of its own whose logs must stay clean (abuse tests)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from .abuse_helpers import assert_no_traceback
from .harness import CRASH, Hall, ServerProcess

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
