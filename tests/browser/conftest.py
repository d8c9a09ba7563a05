"""Fixtures of the browser tests: a real hall process (loopback, a free port, a temporary
SQLite file) and Debian's Chromium driven by Playwright's sync API.

Playwright never downloads a browser here: it always launches /usr/bin/chromium. Without
that executable (or without the playwright package) test_browser.py skips itself.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
CRASH = re.compile(r"Traceback|Exception in ASGI|failed on")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class HallServer:
    """``python -m paiju.server.web.serve`` as a subprocess; can be SIGKILLed and started again
    on the same port and database. ``args``: more options of the hall (e.g. the 复盘 budget)."""

    def __init__(self, directory: Path, bot_delay: float = 0.05, args: Sequence[str] = ()) -> None:
        self.dir = directory
        self.db = directory / "hall.db"
        self.log = directory / "server.log"
        self.port = free_port()
        self.bot_delay = bot_delay
        self.args = list(args)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self, timeout: float = 30.0) -> HallServer:
        assert self.proc is None or self.proc.poll() is not None, "already running"
        cmd = [
            sys.executable, "-m", "paiju.server.web.serve",
            "--host", "127.0.0.1", "--port", str(self.port),
            "--db", f"sqlite:///{self.db}",
            "--bot-delay", str(self.bot_delay),
            "--rate", "1000",
            "--replays-per-minute", "100000",  # every page of the suite comes from one address
            "--start-after-hands", "0",  # the 1,000 start beans at once (tests of the rule set their own)
            "--registrations-per-hour", "100000",
            *self.args,
        ]  # fmt: skip
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the hall exited with {self.proc.returncode}:\n{self.log_text()[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + "api/games", timeout=2) as r:
                    if r.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the hall did not answer within {timeout} s:\n{self.log_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush: a crash."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()

    def log_text(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except FileNotFoundError:
            return ""


def _check_log(server: HallServer, start: int) -> None:
    new = server.log_text()[start:]
    assert not CRASH.search(new), f"the server logged an exception during the test:\n{new[-4000:]}"


@pytest.fixture(scope="session")
def hall_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallServer]:
    """One hall for the session (tests that do not crash it share it)."""
    server = HallServer(tmp_path_factory.mktemp("browser-hall")).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def server(hall_server: HallServer) -> Iterator[HallServer]:
    """The shared hall; after the test its log must show no server-side exception."""
    start = len(hall_server.log_text())
    yield hall_server
    _check_log(hall_server, start)


@pytest.fixture
def private_server(tmp_path: Path) -> Iterator[HallServer]:
    """A hall of this test alone (it may be killed and restarted)."""
    server = HallServer(tmp_path).start()
    try:
        yield server
        _check_log(server, 0)
    finally:
        server.stop()


@pytest.fixture(scope="package")  # Playwright (and its event loop) stops after the browser tests
def browser() -> Iterator[Browser]:
    from playwright.sync_api import expect, sync_playwright

    # Playwright's auto-waiting assertions: generous for a loaded 2-core machine
    expect.set_options(timeout=15_000)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    setattr(item, "rep_" + report.when, report)
    return report


@pytest.fixture
def new_page(
    browser: Browser, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[..., Page]]:
    """Make pages, each in its own context (its own cookie, so its own player). Uncaught
    page errors are collected in ``page.errors``; on failure every page is screenshotted."""
    contexts: list[Any] = []
    pages: list[Page] = []

    def make(viewport: dict[str, int] | None = None, locale: str = "en-US") -> Page:
        ctx = browser.new_context(viewport=viewport or {"width": 1280, "height": 800}, locale=locale)
        ctx.set_default_timeout(15_000)
        contexts.append(ctx)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors = errors  # type: ignore[attr-defined]
        pages.append(page)
        return page

    yield make
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed:
        shots = tmp_path_factory.getbasetemp() / "browser-screenshots"
        shots.mkdir(exist_ok=True)
        for i, page in enumerate(pages):
            path = shots / f"{request.node.name}-{i}.png"
            try:
                page.screenshot(path=str(path), full_page=True)
                print(f"screenshot: {path}")
            except Exception as e:  # the page may be gone
                print(f"no screenshot of page {i}: {e}")
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def page(new_page: Callable[..., Page]) -> Page:
    return new_page()
