"""Real faults against a real hall: PostgreSQL restarted under play, a SQLite file locked
by another process, a stored hand edited behind the hall's back.

What the hall promises (src/paiju/server/store/writer.py, table.py, hall.py): a change is shown
only once it is durable; a write the database cannot take now is refused with SAVE_FAILED
(the move was not taken), the table waits and reloads from the store once the database is
back; the event loop never waits on the database; a room whose current hand does not
replay is set aside as damaged while every other room plays.

The truth every view is checked against is read from the database itself (not through
the hall) and replayed with the engine.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

import paiju
from paiju.errors import IllegalAction
from paiju.server.tables.table import SAVE_FAILED

from .harness import (
    CRASH,
    Client,
    Hall,
    Player,
    Policy,
    ServerProcess,
    first_legal,
    is_my_turn,
    jsonish,
    sit_with_bots,
)

PG_URL = os.environ.get("PAIJU_TEST_POSTGRES")
PG_RESTART = os.environ.get("PAIJU_TEST_PG_RESTART")  # a shell command: pg_ctl ... -m fast -w restart
BOT_DELAY = 0.03  # seconds a bot waits before its move: fast play, many writes


# ---------------------------------------------------------------------- players and tables
def keeps_playing(choose: Callable[[dict[str, Any]], str] = first_legal) -> Policy:
    """A reader-thread policy of a human who keeps his table going: he acts on each of his
    turns, starts the next hand when one is over, and sends again what the hall refused
    with SAVE_FAILED once the table shows itself again."""
    done: set[tuple[Any, ...]] = set()
    pending: dict[str, tuple[Any, ...]] = {}  # reply_to → the key of the message sent

    def policy(client: Client, msg: dict[str, Any]) -> None:
        if msg["type"] == "error":
            if msg["error"] == SAVE_FAILED and msg.get("reply_to") in pending:
                done.discard(pending.pop(msg["reply_to"]))  # not taken: again on the next update
            return
        if msg["type"] != "update" or msg["seat"] is None:
            return
        room = msg["room"]
        if is_my_turn(msg):
            key: tuple[Any, ...] = ("act", room["hand_number"], msg["turn"])
            if key not in done:
                done.add(key)
                pending["act"] = key
                client.act(choose(msg["view"]), msg["turn"])
        elif room["status"] == "between":
            key = ("start", room["hand_number"])
            if key not in done:
                done.add(key)
                pending["start"] = key
                client.send({"type": "start"})

    return policy


@dataclass
class Table:
    """A room with one human (seat 0, ``client``) and four bots."""

    player: Player
    rid: str
    client: Client


def human_with_bots(hall: Hall, name: str, policy: Policy | None = None) -> Table:
    """A classic Baohuang room: ``name`` sits at seat 0, four bots join, the hand starts."""
    p = hall.login(name)
    rid = hall.create_room(p, {"variant": "classic"}, turn_timeout=600, name=name)
    c = hall.connect(rid, p, policy=policy)
    sit_with_bots(c)
    c.send({"type": "start"})
    return Table(p, rid, c)


def progress(c: Client) -> tuple[int, int]:
    """(hand number, turn) of the latest update a client was shown."""
    m = c.latest_update()
    return (m["room"]["hand_number"], m["turn"]) if m is not None else (0, 0)


def moved(c: Client, since: tuple[int, int], turns: int) -> bool:
    """The client was shown ``turns`` more actions than at ``since`` (or a later hand)."""
    hand, turn = progress(c)
    return hand > since[0] or turn >= since[1] + turns


def wait_until(cond: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} (waited {timeout} s)")
        time.sleep(0.05)


def all_move(tables: list[Table], turns: int, timeout: float, what: str) -> None:
    """Wait until every table shows ``turns`` more actions than now."""
    since = {t.rid: progress(t.client) for t in tables}

    def done() -> bool:
        for t in tables:
            t.client.check()
            if not moved(t.client, since[t.rid], turns):
                return False
        return True

    try:
        wait_until(done, timeout, what)
    except AssertionError as e:
        late = {t.rid: (since[t.rid], progress(t.client)) for t in tables if not moved(t.client, since[t.rid], turns)}
        raise AssertionError(f"{e}; (hand, turn) then and now of the tables that did not move: {late}") from None


def updates(c: Client) -> list[dict[str, Any]]:
    """Every update with a view the client was shown (views with their whole event log)."""
    with c.cond:
        return [m for m in c.messages if m["type"] == "update" and m["view"] is not None]


def resting(m: dict[str, Any]) -> bool:
    """Nothing happens at this table until its human acts (or starts the next hand)."""
    return is_my_turn(m) or m["room"]["status"] != "playing"


def errors(c: Client) -> list[str]:
    with c.cond:
        return [m["error"] for m in c.messages if m["type"] == "error"]


# ---------------------------------------------------------------------- the store, read directly
@dataclass
class StoredHand:
    id: int
    room: str
    number: int
    seed: int
    options: dict[str, Any]
    finished: bool
    seqs: list[int]
    texts: list[str]

    def game(self, turns: int = 0) -> Any:
        """The hand after its first ``turns`` stored actions (engine replay)."""
        game = paiju.new_game("baohuang", seed=self.seed, **self.options)
        for a in self.texts[:turns]:
            game.apply(a)
        return game


@dataclass
class Stored:
    rooms: dict[str, dict[str, Any]]  # id → row (seats, status, damaged)
    hands: dict[tuple[str, int], StoredHand]  # (room, number) → hand
    names: dict[int, str]  # player id → name

    def current(self, rid: str) -> StoredHand:
        return self.hands[(rid, max(n for r, n in self.hands if r == rid))]


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value  # SQLite gives text, psycopg objects


def sqlalchemy_url(url: str) -> str:
    return "postgresql+psycopg://" + url[len("postgresql://") :] if url.startswith("postgresql://") else url


def read_store(url: str) -> Stored:
    """Rooms, hands and actions as the database holds them (SQL, not the hall)."""
    engine = create_engine(sqlalchemy_url(url))
    try:
        with engine.connect() as c:
            rooms = {
                r["id"]: {"seats": _json(r["seats"]), "status": r["status"], "damaged": r["damaged"]}
                for r in c.execute(text("SELECT id, seats, status, damaged FROM rooms")).mappings()
            }
            names = {r[0]: r[1] for r in c.execute(text("SELECT id, name FROM players"))}
            rows = c.execute(text("SELECT id, room_id, number, seed, options, finished_at FROM hands")).mappings()
            by_id: dict[int, StoredHand] = {}
            for h in rows:
                finished = h["finished_at"] is not None
                hand = StoredHand(h["id"], h["room_id"], h["number"], h["seed"], _json(h["options"]), finished, [], [])
                by_id[hand.id] = hand
            for hand_id, seq, action in c.execute(text("SELECT hand_id, seq, text FROM actions ORDER BY hand_id, seq")):
                by_id[hand_id].seqs.append(seq)
                by_id[hand_id].texts.append(action)
    finally:
        engine.dispose()
    return Stored(rooms, {(h.room, h.number): h for h in by_id.values()}, names)


def assert_no_hole(stored: Stored) -> None:
    """Every stored hand's actions are numbered 1 … n."""
    for h in stored.hands.values():
        assert h.seqs == list(range(1, len(h.seqs) + 1)), f"room {h.room} hand {h.number}: seqs {h.seqs}"


def assert_shown_was_stored(rid: str, shown: list[dict[str, Any]], stored: Stored) -> None:
    """Every update shown at room ``rid`` is rebuilt by the stored record: its hand is
    stored, with at least as many actions as the update's turn, and replaying them gives
    exactly the view that was shown."""
    game, number = None, None
    for m in shown:
        n, turn = m["room"]["hand_number"], m["turn"]
        hand = stored.hands.get((rid, n))
        assert hand is not None, f"room {rid}: hand {n} was shown but is not stored"
        assert turn <= len(hand.texts), f"room {rid} hand {n}: turn {turn} was shown, {len(hand.texts)} stored"
        if game is None or number != n or len(game.history) > turn:
            game, number = hand.game(), n
        while len(game.history) < turn:
            game.apply(hand.texts[len(game.history)])
        assert jsonish(game.view(m["seat"])) == m["view"], f"room {rid} hand {n} turn {turn}: shown, stored otherwise"


def log_since(server: ServerProcess, start: int) -> str:
    return server.log_text()[start:]


def assert_no_crash(log: str) -> None:
    assert not CRASH.search(log), f"the server logged an unhandled error:\n{log[-4000:]}"


# ---------------------------------------------------------------------- 1. PostgreSQL restarted
@pytest.fixture
def pg_url() -> str:
    """A clean PostgreSQL database and the command that restarts its server (CI sets both)."""
    if not PG_URL or not PG_RESTART:
        pytest.skip("needs PAIJU_TEST_POSTGRES (a URL) and PAIJU_TEST_PG_RESTART (a command restarting that server)")
    engine = create_engine(sqlalchemy_url(PG_URL))
    with engine.begin() as c:
        c.execute(text("DROP SCHEMA public CASCADE"))
        c.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return PG_URL


def restart_postgres(log: Path) -> None:
    """Run PAIJU_TEST_PG_RESTART. Its output goes to a file, never a pipe: a server that
    pg_ctl restarts without -l keeps writing to the output it inherited."""
    assert PG_RESTART is not None
    with open(log, "ab") as out:
        done = subprocess.run(PG_RESTART, shell=True, stdout=out, stderr=subprocess.STDOUT, timeout=120)
    assert done.returncode == 0, f"restarting PostgreSQL failed ({done.returncode}):\n{log.read_text()[-2000:]}"


def test_postgres_restart_then_crash_loses_no_acknowledged_action(
    pg_url: str, make_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    """Six tables play (one human each, acting on his turn; four bots) on PostgreSQL. The
    database server is restarted under them: every table resumes by itself. Then the hall
    is killed (SIGKILL) and started again: no room is damaged, no hand has a hole in its
    seq, every update any client saw is rebuilt by the stored record, and play goes on."""
    server = make_server(bot_delay=BOT_DELAY, db_url=pg_url)
    hall = Hall(server)
    with contextlib.ExitStack() as stack:
        tables = [human_with_bots(hall, f"pg-player-{i}", keeps_playing()) for i in range(6)]
        for t in tables:
            stack.enter_context(t.client)
        all_move(tables, 20, 30, "the tables did not play")

        restart_postgres(tmp_path / "postgres-restart.log")
        all_move(tables, 10, 30, "play did not resume by itself after PostgreSQL restarted")
        assert "the database is unavailable" in server.log_text(), "no write failed: the restart was not felt"

        server.kill9()  # in the middle of play
        for t in tables:
            t.client.wait_closed()
        first_log = server.log_text()
        shown = {t.rid: updates(t.client) for t in tables}
        refused = [e for t in tables for e in errors(t.client)]
    assert_no_crash(first_log)
    assert set(refused) <= {SAVE_FAILED}, f"unexpected errors: {set(refused)}"

    stored = read_store(pg_url)  # as the crash left it
    assert_no_hole(stored)
    for rid, seen in shown.items():
        assert_shown_was_stored(rid, seen, stored)

    start = len(server.log_text())
    server.start()  # the same PostgreSQL database, a new process
    with hall.http() as h:
        rooms = {r["id"]: r for r in h.get("/api/rooms").json()["rooms"]}
    for t in tables:
        assert rooms[t.rid]["status"] != "damaged" and rooms[t.rid]["damaged"] is None, rooms[t.rid]
    with contextlib.ExitStack() as stack:
        again = [Table(t.player, t.rid, hall.connect(t.rid, t.player, policy=keeps_playing())) for t in tables]
        for t in again:
            stack.enter_context(t.client)
            t.client.until_update(lambda m: True, 30)
        all_move(again, 5, 30, "play did not go on after the hall was restarted")
    assert_no_hole(read_store(pg_url))
    assert_no_crash(log_since(server, start))


# ---------------------------------------------------------------------- 2. SQLite locked
LOCKER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
db.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("COMMIT")
print("released", flush=True)
"""
LOCK_SECONDS = 8.0
PING_BOUND = 0.1  # seconds: the hall answers a ping at once, whatever its database does


class Pinger(threading.Thread):
    """Pings through ``client`` every 0.1 s until stopped; records every round trip."""

    def __init__(self, client: Client) -> None:
        super().__init__(daemon=True)
        self.client = client
        self.rtts: list[float] = []
        self.halt = threading.Event()
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            i = 0
            while not self.halt.is_set():
                tag = f"rtt-{i}"
                t0 = time.monotonic()
                self.client.send({"type": "ping", "id": tag})
                self.client.until(lambda m, tag=tag: m["type"] == "pong" and m.get("id") == tag, 5)
                self.rtts.append(time.monotonic() - t0)
                i += 1
                self.halt.wait(0.1)
        except BaseException as e:
            self.failure = e

    def stop(self) -> list[float]:
        self.halt.set()
        self.join(10)
        if self.failure is not None:
            raise AssertionError(f"a ping failed: {self.failure!r}") from self.failure
        return self.rtts


@contextlib.contextmanager
def locked(db: Path, seconds: float) -> Iterator[subprocess.Popen[str]]:
    """Another process holds the SQLite file's write lock (BEGIN EXCLUSIVE) for ``seconds``;
    entered once the lock is taken."""
    proc = subprocess.Popen([sys.executable, "-c", LOCKER, str(db), str(seconds)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
        yield proc
    finally:
        if proc.poll() is None and proc.stdout is not None:
            proc.stdout.readline()  # "released": the lock is given back
        proc.wait(LOCK_SECONDS + 10)


@pytest.mark.slow
def test_a_sqlite_lock_held_by_another_process_refuses_moves_but_never_stalls_the_hall(
    make_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    """Four tables play (bots, fast) and at a fifth a human is to act when another process
    locks the SQLite file for 8 s. Meanwhile a client at another table pings: every round
    trip is under 100 ms; the human's move is refused with SAVE_FAILED and no update shows
    it. Once the lock is gone every table moves again by itself, the human's retry is
    taken, and that table's state equals what its database holds."""
    db = tmp_path / "locked.db"
    server = make_server(db=db, bot_delay=BOT_DELAY)
    hall = Hall(server)
    with contextlib.ExitStack() as stack:
        busy = [human_with_bots(hall, f"busy-{i}", keeps_playing()) for i in range(4)]
        mine = human_with_bots(hall, "waiting-human")
        pinger = hall.connect(busy[0].rid, hall.login("pinger"))
        for c in [*(t.client for t in busy), mine.client, pinger]:
            stack.enter_context(c)
        c = mine.client
        turn = c.my_turn(30)  # the table waits for its human (turn timeout 600 s)
        t = turn["turn"]
        all_move(busy, 10, 30, "the busy tables did not play")

        with locked(db, LOCK_SECONDS) as locker:
            since = time.monotonic()
            pings = Pinger(pinger)
            pings.start()
            c.skip()
            before = len(c.messages)
            c.act(first_legal(turn["view"]), t)
            refusal = c.error(15)  # no update before the refusal
            assert refusal["error"] == SAVE_FAILED and refusal["reply_to"] == "act", refusal
            health = httpx.get(server.url + "/healthz", timeout=5)  # an operator is told why
            assert health.status_code == 503 and health.json()["why"] == ["database"], health.text
            time.sleep(max(0.0, since + LOCK_SECONDS - 0.5 - time.monotonic()))
            rtts = pings.stop()
            assert locker.poll() is None, "the lock was released too early: the checks above were not made under it"
        during = len(c.messages)  # the lock is released: what came before came during it
        assert len(rtts) >= 30, f"only {len(rtts)} pings in {LOCK_SECONDS} s"
        slow = [round(x, 3) for x in rtts if x >= PING_BOUND]
        assert not slow, f"round trips of {slow} s while the database was locked ({len(rtts)} pings)"
        shown = [m for m in c.messages[before:during] if m["type"] == "update"]
        assert all(m["turn"] == t for m in shown), "an update showed the refused move"

        all_move(busy, 3, 15, "the busy tables did not move again after the lock was released")
        health = httpx.get(server.url + "/healthz", timeout=5)
        assert health.status_code == 200 and health.json()["database"] == "ok", health.text
        back = c.until_update(lambda m: True, 15)  # the table reloaded from the store
        assert back["turn"] == t and is_my_turn(back), "the table is not as the refusal left it"
        c.act(first_legal(back["view"]), t)
        taken = c.until(lambda m: m["type"] == "error" or (m["type"] == "update" and m["turn"] > t), 15)
        assert taken["type"] == "update" and taken["turn"] == t + 1, f"the retry was not taken: {taken}"
        assert taken["view"]["events"][len(back["view"]["events"])]["seat"] == 0

        # the table rests (its human to act, or the hand over): its memory against its database
        if not resting(taken):
            c.until_update(resting, 30)
        c.sync()
        latest = c.latest_update()
        stored = read_store(server.db_url)
    assert latest is not None
    assert_no_hole(stored)
    hand = stored.current(mine.rid)
    assert hand.number == latest["room"]["hand_number"] and len(hand.texts) == latest["turn"]
    assert jsonish(hand.game(len(hand.texts)).view(0)) == latest["view"], "the table shows what is not stored"
    room = stored.rooms[mine.rid]
    assert room["status"] == latest["room"]["status"]
    assert [
        (stored.names[s["player"]] if s["player"] is not None else None, s["bot"], s["hosted"], s["hosted_times"])
        for s in room["seats"]
    ] == [(s["player"], s["bot"], s["hosted"], s["hosted_times"]) for s in latest["room"]["seats"]]
    assert_no_crash(server.log_text())


# ---------------------------------------------------------------------- 3. a damaged hand
def play_until_turn(c: Client, turn: int) -> dict[str, Any]:
    """Act (first legal) on this seat's turns until the hand is past ``turn`` and waits
    for this seat again; that update."""
    m = c.my_turn(30)
    while m["turn"] < turn:
        c.act(first_legal(m["view"]), m["turn"])
        m = c.until_update(lambda x, t=m["turn"]: x["turn"] > t and is_my_turn(x), 30)
    return m


def illegal_instead(hand: StoredHand, seq: int) -> str:
    """An action that the engine refuses as action ``seq`` of ``hand``."""
    for candidate in ("pass", "BJ BJ BJ BJ", "3 3 3 3 3 3 3 3 3"):
        game = hand.game(seq - 1)
        try:
            game.apply(candidate)
        except IllegalAction:
            return candidate
    raise AssertionError(f"no illegal action found for action {seq}")


def action_rows(url: str, rid: str) -> list[tuple[int, int, str]]:
    engine = create_engine(sqlalchemy_url(url))
    try:
        with engine.connect() as c:
            q = text(
                "SELECT a.hand_id, a.seq, a.text FROM actions a JOIN hands h ON h.id = a.hand_id "
                "WHERE h.room_id = :rid ORDER BY a.hand_id, a.seq"
            )
            return [(r[0], r[1], r[2]) for r in c.execute(q, {"rid": rid})]
    finally:
        engine.dispose()


def damage(url: str, hand: StoredHand, how: str) -> tuple[int, str]:
    """Edit or delete a middle action of ``hand`` in the database; (seq, what was done)."""
    seq = len(hand.texts) // 2
    engine = create_engine(sqlalchemy_url(url))
    try:
        with engine.begin() as c:
            where = {"hid": hand.id, "seq": seq}
            if how == "an illegal action":
                bad = illegal_instead(hand, seq)
                c.execute(
                    text("UPDATE actions SET text = :bad WHERE hand_id = :hid AND seq = :seq"), {**where, "bad": bad}
                )
                return seq, f"set to {bad!r}"
            c.execute(text("DELETE FROM actions WHERE hand_id = :hid AND seq = :seq"), where)
            return seq, "deleted"
    finally:
        engine.dispose()


@pytest.mark.parametrize("how", ["an illegal action", "a missing action"])
def test_a_room_whose_hand_does_not_replay_is_set_aside_and_the_others_play(
    make_server: Callable[..., ServerProcess], how: str
) -> None:
    """Two rooms play; the hall stops; one action of room A's current hand is edited into
    an illegal one (or deleted: a hole). The hall starts again: A alone is damaged, with a
    reason naming the hand and the action; a WebSocket to A gets an error and close code
    4410; room B plays on; A's rows are kept as they were."""
    server = make_server()
    hall = Hall(server)
    a, b = human_with_bots(hall, "room-A"), human_with_bots(hall, "room-B")
    with a.client, b.client:
        play_until_turn(a.client, 8)
        play_until_turn(b.client, 8)
    server.stop()

    hand = read_store(server.db_url).current(a.rid)
    seq, done = damage(server.db_url, hand, how)
    rows = action_rows(server.db_url, a.rid)

    start = len(server.log_text())
    server.start()
    with hall.http() as h:
        rooms = {r["id"]: r for r in h.get("/api/rooms").json()["rooms"]}
        room_a = h.get(f"/api/rooms/{a.rid}").json()
    assert [r for r in rooms if rooms[r]["status"] == "damaged"] == [a.rid], rooms
    for info in (rooms[a.rid], room_a):
        reason = info["damaged"]
        assert info["status"] == "damaged" and isinstance(reason, str), info
        assert re.search(rf"\bhand {hand.number}\b", reason) and re.search(rf"\b{seq}\b", reason), (
            f"action {seq} was {done}, the reason does not say where: {reason!r}"
        )
    assert rooms[b.rid]["status"] == "playing" and rooms[b.rid]["damaged"] is None

    refused = hall.connect(a.rid, a.player)
    try:
        msg = refused.next()
        assert msg["type"] == "error" and "damaged" in msg["error"], msg
        refused.wait_closed()
        assert refused.ws.close_code == 4410
    finally:
        refused.close()

    with hall.connect(b.rid, b.player) as c:
        m = c.my_turn(30)
        c.act(first_legal(m["view"]), m["turn"])
        after = c.until(lambda x: x["type"] == "error" or (x["type"] == "update" and x["turn"] > m["turn"]), 30)
        assert after["type"] == "update", after

    assert action_rows(server.db_url, a.rid) == rows, "the damaged room's rows were changed"
    assert_no_crash(log_since(server, start))
