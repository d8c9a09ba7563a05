"""Tools for the server tests: a real ``paiju.server.web.serve`` process on loopback, an HTTP
helper (httpx) and a WebSocket client (``websockets.sync``) that records every message.

Nothing here imports the server's code: the tests speak the protocol of docs/protocol.md
to a separate process, as a browser would. The engine (``paiju.replay``) is used only to
know the truth a view is checked against.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import paiju

START_TIMEOUT = 30.0  # seconds for a server to answer GET /api/me
WAIT = 15.0  # default seconds to wait for a message
# the suite's many clients share one address and one player: limits a hall serving the public would not lift
SUITE_LIMITS = {
    "conns_per_address": 10_000,
    "address_rate": 100_000,
    "rooms_per_player": 10_000,
    "rooms_per_minute": 1e6,
    "replays_per_minute": 1e6,
    "guests_per_minute": 1e6,
}
RATE, BURST = 18.0, 30  # what a client sends at most (the server allows 20 per second, bursts of 40)
CRASH = re.compile(r"Traceback|Exception in ASGI|failed on")  # a server log line of an unhandled error


# every account of the suite comes from loopback and most tests want its 1,000 beans at once:
# tests of these rules pass their own values after these (argparse keeps the last)
ECONOMY_FOR_TESTS = ("--start-after-hands", "0", "--registrations-per-hour", "100000")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Loopback:
    """The addresses of a server on a loopback ``port`` (what Hall needs of a server)."""

    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


class ServerProcess(Loopback):
    """``python -m paiju.server.web.serve`` on a free loopback port with its own SQLite file
    (``db``), or on the database at ``db_url`` when given (e.g. a PostgreSQL server; the
    process then still runs in ``db``'s folder)."""

    def __init__(
        self,
        db: Path,
        log: Path,
        bot_delay: float = 0.0,
        db_url: str | None = None,
        limits: dict[str, Any] | None = None,
        args: Sequence[str] = (),
    ) -> None:
        self.db = db
        self.log = log
        self.bot_delay = bot_delay
        self.db_url = db_url or f"sqlite:///{db}"
        # the whole suite comes from one address and makes many rooms: per-address and
        # per-player room limits are raised unless a test sets them
        self.limits = {**SUITE_LIMITS, **(limits or {})}
        self.args = list(args)  # more options of paiju.server.web.serve, e.g. ["--header-timeout", "1"]
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0
        self.keep_port = False
        self._log_file: Any = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self) -> ServerProcess:
        assert self.proc is None or self.proc.poll() is not None, "already running"
        if not (self.keep_port and self.port):  # a worker of a cluster comes back where the proxy looks for it
            self.port = free_port()
        self._log_file = open(self.log, "ab")  # noqa: SIM115 - closed in stop()/kill9()
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        cmd = [
            sys.executable,
            "-m",
            "paiju.server.web.serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            "--bot-delay",
            str(self.bot_delay),
            *[arg for name, value in self.limits.items() for arg in ("--" + name.replace("_", "-"), str(value))],
            *ECONOMY_FOR_TESTS,
            *self.args,
        ]
        self.proc = subprocess.Popen(cmd, stdout=self._log_file, stderr=subprocess.STDOUT, cwd=self.db.parent, env=env)
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}:\n{self.log_text()}")
            try:
                r = httpx.get(self.url + "/api/me", timeout=2)
                if r.status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the server did not answer within {START_TIMEOUT} s:\n{self.log_text()}")
            time.sleep(0.1)

    def stop(self) -> None:
        """Terminate (SIGTERM) and wait; kill if it does not stop."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._close_log()

    def kill9(self) -> None:
        """Crash the server: SIGKILL, no chance to clean up."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self._close_log()

    def _close_log(self) -> None:
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def log_text(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def rss_mb(self) -> float:
        """The server process's resident memory (VmRSS of /proc/PID/status), in MB."""
        with open(f"/proc/{self.pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        raise AssertionError(f"no VmRSS for process {self.pid}")


@dataclass
class Player:
    id: int
    name: str
    token: str


class Hall:
    """HTTP side of one running server, and a factory of WebSocket clients."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server

    @property
    def url(self) -> str:
        return self.server.url

    def http(self, token: str | None = None) -> httpx.Client:
        """A fresh client (a fresh connection pool: a 500 cannot spoil later requests), as a
        page of the hall: it sends the hall's own Origin."""
        cookies = {"paiju_token": token} if token else None
        return httpx.Client(base_url=self.url, cookies=cookies, timeout=10, headers={"Origin": self.url})

    def login(self, name: str) -> Player:
        with self.http() as c:
            r = c.post("/api/login", json={"name": name})
            assert r.status_code == 200, r.text
            token = r.cookies["paiju_token"]
            p = r.json()["player"]
        return Player(p["id"], p["name"], token)

    def create_room(
        self, player: Player, options: dict[str, Any] | None = None, turn_timeout: float = 600, **kw: Any
    ) -> str:
        body = {"name": kw.pop("name", "test room"), "game": "baohuang", "options": options or {}, **kw}
        body["turn_timeout"] = turn_timeout
        with self.http(player.token) as c:
            r = c.post("/api/rooms", json=body)
        assert r.status_code == 200, r.text
        return str(r.json()["id"])

    def room(self, rid: str) -> dict[str, Any]:
        with self.http() as c:
            r = c.get(f"/api/rooms/{rid}")
        assert r.status_code == 200, r.text
        return dict(r.json())

    def record(self, rid: str, number: int) -> dict[str, Any]:
        with self.http() as c:
            r = c.get(f"/api/rooms/{rid}/hands/{number}")
        assert r.status_code == 200, r.text
        return dict(r.json())

    def connect(self, rid: str, player: Player | None, **kw: Any) -> Client:
        """A table connection from a page of the hall (its Origin, unless ``headers`` say otherwise)."""
        kw["headers"] = {"Origin": self.url, **(kw.get("headers") or {})}
        url = f"{self.server.ws_url}/ws/{rid}"
        if player is not None:
            url += f"?token={player.token}"
        return Client(url, **kw)


def ws_connect(url: str, **kw: Any) -> Any:
    """``websockets.sync.client.connect`` returning the connection directly."""
    try:
        return connect(url, legacy=True, **kw)  # websockets >= 16: no "use a context manager" warning
    except TypeError:
        return connect(url, **kw)


Policy = Callable[["Client", dict[str, Any]], None]


class Client:
    """One WebSocket connection. A reader thread records every message the server sends
    (``raw``, and ``messages`` where each update's view has its whole event log);
    ``next``/``until`` consume ``messages`` in order from a cursor. An optional ``policy``
    runs in the reader thread on every message (e.g. to act on one's turn)."""

    def __init__(
        self,
        url: str,
        *,
        headers: dict[str, str] | None = None,
        policy: Policy | None = None,
        throttle: bool = True,
        open_timeout: float = 10.0,
    ) -> None:
        self.ws = ws_connect(url, additional_headers=headers, max_size=None, open_timeout=open_timeout, close_timeout=2)
        self.messages: list[dict[str, Any]] = []  # as received, but every view with its whole event log
        self.raw: list[dict[str, Any]] = []  # exactly as received
        self._log: list[Any] = []  # the public event log of the hand this connection was last shown
        self._log_hand = -1
        self.cursor = 0
        self.cond = threading.Condition()
        self.policy = policy
        self.closed = False
        self.failure: BaseException | None = None
        self.throttle = throttle
        self._send_lock = threading.Lock()
        self._tokens, self._stamp = float(BURST), time.monotonic()
        self.acted: set[tuple[int, int]] = set()  # (hand number, turn) this client acted at
        self.heard = time.monotonic()  # when a message last came (a policy may keep it)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    # ------------------------------------------------------------------ receiving
    def _read(self) -> None:
        try:
            for text in self.ws:
                raw = json.loads(text)
                msg = self._whole(raw)
                with self.cond:
                    self.raw.append(raw)
                    self.messages.append(msg)
                    self.cond.notify_all()
                if self.policy is not None:
                    self.policy(self, msg)
        except ConnectionClosed:
            pass
        except BaseException as e:  # surfaced by next()/until() in the test's thread
            self.failure = e
        finally:
            with self.cond:
                self.closed = True
                self.cond.notify_all()

    def _whole(self, msg: dict[str, Any]) -> dict[str, Any]:
        """An update with the view's whole public event log. The server may send only the
        events from ``events_from`` on (0 or absent: the whole log); the client appends."""
        if msg.get("type") != "update" or msg.get("view") is None or "events" not in msg["view"]:
            return msg  # (a game may keep no event log: Shengji's views carry their tricks instead)
        start = msg.get("events_from", 0)
        part = msg["view"]["events"]
        hand = msg["room"]["hand_number"]
        if start:
            if hand != self._log_hand or start != len(self._log):
                raise AssertionError(
                    f"events_from={start} does not continue this connection's log "
                    f"({len(self._log)} events of hand {self._log_hand}; this update is of hand {hand})"
                )
            whole = self._log + part
        else:
            whole = list(part)
        self._log, self._log_hand = whole, hand
        return {**msg, "view": {**msg["view"], "events": whole}}

    def next(self, timeout: float = WAIT) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        with self.cond:
            while self.cursor >= len(self.messages):
                self.check()
                if self.closed:
                    raise AssertionError("the connection is closed; no more messages")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no message within {timeout} s; last: {self._last_text()}")
                self.cond.wait(left)
            msg = self.messages[self.cursor]
            self.cursor += 1
            return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = WAIT) -> dict[str, Any]:
        """Consume messages until one satisfies ``pred``; return it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message within {timeout} s; last: {self._last_text()}")
            try:
                msg = self.next(left)
            except TimeoutError:
                raise TimeoutError(f"no matching message within {timeout} s; last: {self._last_text()}") from None
            if pred(msg):
                return msg

    def until_update(self, pred: Callable[[dict[str, Any]], bool], timeout: float = WAIT) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "update" and bool(pred(m)), timeout)

    def my_turn(self, timeout: float = WAIT) -> dict[str, Any]:
        """The next update in which this connection's seat is to act (and may act itself)."""
        return self.until_update(is_my_turn, timeout)

    def skip(self) -> None:
        """Forget what has been received so far."""
        with self.cond:
            self.cursor = len(self.messages)

    def latest_update(self) -> dict[str, Any] | None:
        with self.cond:
            for m in reversed(self.messages):
                if m["type"] == "update":
                    return m
        return None

    def _last_text(self) -> str:
        with self.cond:
            last = self.messages[-1] if self.messages else None
        text = json.dumps(last, ensure_ascii=False) if last else "nothing"
        return text[:600]

    def wait_closed(self, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        with self.cond:
            while not self.closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("the connection stayed open")
                self.cond.wait(left)

    # ------------------------------------------------------------------ sending
    def send(self, msg: dict[str, Any] | str | bytes) -> None:
        data = msg if isinstance(msg, str | bytes) else json.dumps(msg, ensure_ascii=False)
        with self._send_lock:
            if self.throttle:  # stay under the server's 20 messages per second, bursts of 40
                now = time.monotonic()
                self._tokens = min(BURST, self._tokens + (now - self._stamp) * RATE)
                self._stamp = now
                if self._tokens < 1:
                    time.sleep((1 - self._tokens) / RATE)
                    self._tokens, self._stamp = 1.0, time.monotonic()
                self._tokens -= 1
            self.ws.send(data)

    def act(self, action: str, turn: int | None = None) -> None:
        msg: dict[str, Any] = {"type": "act", "action": action}
        if turn is not None:
            msg["turn"] = turn
        self.send(msg)

    def error(self, timeout: float = WAIT) -> dict[str, Any]:
        """The next message, which must be an ``error`` and no ``update`` before it: the
        refused message changed nothing that anybody was shown."""
        seen = []
        while True:
            msg = self.next(timeout)
            if msg["type"] == "error":
                assert not [m for m in seen if m["type"] == "update"], f"an update came with a refusal: {seen}"
                return msg
            assert msg["type"] != "update", f"expected an error, got an update: {json.dumps(msg)[:400]}"
            seen.append(msg)

    def sync(self, timeout: float = WAIT) -> list[dict[str, Any]]:
        """Ping and wait for the pong; return what arrived before it."""
        tag = f"sync-{time.monotonic_ns()}"
        self.send({"type": "ping", "id": tag})
        out = []
        while True:
            msg = self.next(timeout)
            if msg["type"] == "pong" and msg.get("id") == tag:
                return out
            out.append(msg)

    def hint(self, timeout: float = WAIT) -> str:
        self.send({"type": "hint"})
        msg = self.until(lambda m: m["type"] in ("hint", "error"), timeout)
        assert msg["type"] == "hint", msg
        return str(msg["action"])

    def close(self) -> None:
        try:
            self.ws.close()
        finally:
            self.thread.join(5)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        self.close()
        if exc_type is None:
            self.check()

    def check(self) -> None:
        """Fail if the reader thread (the policy, or the event log) failed."""
        if self.failure is not None:
            raise AssertionError(f"the client's reader failed: {self.failure!r}") from self.failure


# ---------------------------------------------------------------------- updates and views
def hand_results(hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``room.hands`` without each hand's beans and ratings (they have tests of their own)."""
    return [{k: h[k] for k in ("number", "scores", "scored")} for h in hands]


def guest_me(body: dict[str, Any]) -> tuple[int, str]:
    """/api/me of a guest: its id and name (and that it is a guest)."""
    p = body["player"]
    assert p["guest"] is True and p["username"] is None
    return p["id"], p["name"]


def plays_on(m: dict[str, Any]) -> bool:
    """An update to a connection seated at a hand in play, not hosted: its turns come to it."""
    if m.get("type") != "update" or not m.get("view") or m["room"]["status"] != "playing" or m["seat"] is None:
        return False
    return not m["room"]["seats"][m["seat"]]["hosted"]


def is_my_turn(m: dict[str, Any]) -> bool:
    return plays_on(m) and m["view"]["to_act"] == m["seat"]


def act_policy(choose: Callable[[dict[str, Any]], str | None]) -> Policy:
    """A reader-thread policy: on every update where this seat is to act (and not on 托管),
    send ``choose(view)`` once per (hand, turn) with the turn number."""

    def policy(client: Client, msg: dict[str, Any]) -> None:
        if not is_my_turn(msg):
            return
        key = (msg["room"]["hand_number"], msg["turn"])
        if key in client.acted:
            return
        action = choose(msg["view"])
        if action is None:
            return
        client.acted.add(key)
        client.act(action, msg["turn"])

    return policy


def first_legal(view: dict[str, Any]) -> str:
    legal = view["legal_actions"]
    return "pass" if "pass" in legal else str(legal[0])


def biggest(view: dict[str, Any]) -> str:
    """The legal play with the longest text (a pass only when nothing else is legal): short hands."""
    legal = [str(a) for a in view["legal_actions"]]
    return max(legal, key=lambda a: (a not in ("pass", "yield"), len(a.replace(" ", ""))))


def walk(obj: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every (path, value) of a JSON value, depth first."""
    yield path, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from walk(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from walk(v, (*path, i))


def jsonish(value: Any) -> Any:
    """What a value looks like after a trip through JSON."""
    return json.loads(json.dumps(value, ensure_ascii=False))


def game_at(record: dict[str, Any], turn: int) -> Any:
    """The recorded hand after its first ``turn`` actions."""
    return paiju.replay({**record, "actions": record["actions"][:turn]})


def sit_with_bots(client: Client, seat: int = 0, level: str = "normal", humans: tuple[int, ...] = ()) -> None:
    """Sit at ``seat`` and put bots on every other seat except ``humans``."""
    client.send({"type": "sit", "seat": seat})
    client.until_update(lambda m: m["seat"] == seat)
    for s in range(5):
        if s != seat and s not in humans:
            client.send({"type": "bot", "seat": s, "level": level})
            client.until_update(lambda m, s=s: m["room"]["seats"][s]["bot"] == level)
