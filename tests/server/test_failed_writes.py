"""A change the store did not take is shown to nobody.

The hall's promise (src/paiju/server/tables/table.py): "a change (an action, a seat, a new
or finished hand, a penalty) is built aside, made durable by the hall's writer thread while
the table waits, and only then becomes the table's state and is shown"; "if the write fails
the table is exactly what was stored before, the sender is told the move was not taken";
"once it is back the table reloads from the store".

Each test sends one change — sit, stand, bot, act, ready (the last ready starts the hand),
own — while the database refuses the hall writer's statements (an outage: each fails inside
the write's transaction as a locked SQLite file fails it, so the writer raises
StoreUnavailable and probes until the outage ends). Then:

- the sender gets SAVE_FAILED and no update before it; the others get no update at all;
- a client joining during the outage, and every connection already there (the sender,
  another seated player, a watcher), is shown exactly what the store holds: each seat's
  player, bot, 托管 and own multiplier, the room's status, the hand and its turn, and the
  seat's view of the stored actions replayed with the engine;
- once the database answers again every connection is shown the store again, and the same
  change, sent again, is taken, stored and shown.

The truth is read from the database (the hall's store, read on the test's thread) and
replayed with the engine, never asked of the table.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import event

import paiju
from paiju.server.store.db import Store
from paiju.server.tables.table import SAVE_FAILED

from .conftest import InProcess
from .harness import Client, Hall, Player, act_policy, first_legal, is_my_turn, jsonish

WAIT = 15.0


class Outage:
    """The database failing the hall writer's statements, inside the write's transaction;
    reads on other threads go on. ``start()``: an outage, every statement fails as on a SQLite
    file whose write lock another process holds (``database is locked``: the writer goes down
    and probes) until ``end()``. ``refuse_once()``: the next statement alone is refused as a
    constraint refuses it (``UNIQUE constraint failed``: that write fails, the others go on)."""

    def __init__(self, app: Any) -> None:
        self.hall = app.state.hall
        self.engine = self.hall.store.engine
        self.error: type[sqlite3.Error] | None = None
        self.once = False
        self.refused = 0
        event.listen(self.engine, "before_cursor_execute", self._statement)

    def _statement(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        error = self.error
        if error is not None and threading.current_thread().name == "paiju-writer":
            self.refused += 1
            if self.once:
                self.error = None
            raise error("database is locked" if error is sqlite3.OperationalError else "UNIQUE constraint failed")

    def start(self) -> None:
        self.refused, self.once, self.error = 0, False, sqlite3.OperationalError

    def refuse_once(self) -> None:
        self.refused, self.once, self.error = 0, True, sqlite3.IntegrityError

    def end(self) -> None:
        """The database takes writes again: the hall's next probe finds it (within 2 s)."""
        self.error = None
        deadline = time.monotonic() + WAIT
        while self.hall.writer.down:
            assert time.monotonic() < deadline, "the hall did not find its database writable again"
            time.sleep(0.02)

    def close(self) -> None:
        self.error = None
        event.remove(self.engine, "before_cursor_execute", self._statement)


@dataclass
class Scene:
    """A room of the in-process hall: ``actor`` sends the change, ``other`` is another seated
    player, ``watcher`` watches; ``newcomer`` is logged in, to join during the outage."""

    hall: Hall
    store: Store
    outage: Outage
    rid: str
    actor: Client
    other: Client
    watcher: Client
    newcomer: Player
    players: dict[str, Player]

    @property
    def clients(self) -> list[Client]:
        return [self.actor, self.other, self.watcher]

    def player_of(self, client: Client) -> Player:
        names = {id(self.actor): "actor", id(self.other): "other", id(self.watcher): "watcher"}
        return self.players[names.get(id(client), "newcomer")]


@pytest.fixture
def scene_of(in_process: InProcess) -> Iterator[Callable[..., Scene]]:
    """Make the scene: a room (``options``), the actor (seated at 0 unless ``actor_sits`` is
    False), the other player at seat 1 (with ``other_policy``, if any), a watcher."""
    hall = Hall(in_process)  # type: ignore[arg-type]
    outage = Outage(in_process.app)
    opened: list[Client] = []

    def make(options: dict[str, Any] | None = None, actor_sits: bool = True, other_policy: Any = None) -> Scene:
        players = {name: hall.login(name) for name in ("actor", "other", "watcher", "newcomer")}
        rid = hall.create_room(players["actor"], {"variant": "classic", **(options or {})}, turn_timeout=600)
        actor = hall.connect(rid, players["actor"])
        other = hall.connect(rid, players["other"], policy=other_policy)
        watcher = hall.connect(rid, players["watcher"])
        opened.extend([actor, other, watcher])
        other.send({"type": "sit", "seat": 1})
        other.until_update(lambda m: m["seat"] == 1)
        if actor_sits:
            actor.send({"type": "sit", "seat": 0})
            actor.until_update(lambda m: m["seat"] == 0)
        store = in_process.app.state.hall.store
        return Scene(hall, store, outage, rid, actor, other, watcher, players["newcomer"], players)

    yield make
    for c in opened:
        c.close()
    outage.close()


# ---------------------------------------------------------------------- the store, and what is shown
def stored_state(store: Store, rid: str) -> dict[str, Any]:
    """The room as the database holds it: its seats, status, hands, and the last hand
    replayed with the engine from its stored actions."""
    room = store.room(rid)
    assert room is not None
    hands = store.room_hands(rid)
    game, turn = None, 0
    if hands:
        last = hands[-1]
        game = paiju.new_game(room["game"], seed=last["seed"], **last["options"])
        texts = [a["text"] for a in store.hand_actions(last["id"])]
        for text in texts:
            game.apply(text)
        turn = len(texts)
    return {"seats": room["seats"], "status": room["status"], "hands": len(hands), "game": game, "turn": turn}


def seat_facts(seats: list[dict[str, Any]], shown: bool) -> list[tuple[Any, ...]]:
    """Per seat: (player id, bot, 托管, times on 托管, own multiplier), stored or shown."""
    key = "player_id" if shown else "player"
    return [(s[key], s["bot"], s["hosted"], s["hosted_times"], int(s.get("own", 1))) for s in seats]


def assert_shows_the_store(scene: Scene, clients: list[Client], when: str, since: int = -1) -> dict[str, Any]:
    """Each client's updates from its message ``since`` on (-1: its latest update) are
    exactly the stored room: seats, status, hand, turn, and its seat's view of the stored
    actions. The stored state."""
    truth = stored_state(scene.store, scene.rid)
    stored_seats = [s["player"] for s in truth["seats"]]
    for c in clients:
        c.sync()
        with c.cond:
            shown = [m for m in c.messages[max(since, 0) :] if m["type"] == "update"]
        if since < 0:
            shown = shown[-1:]
        assert shown, f"{when}: no update"
        pid = scene.player_of(c).id
        for m in shown:
            who = f"{when}, to {m['seat'] if m['seat'] is not None else 'a watcher'}"
            room = m["room"]
            assert seat_facts(room["seats"], shown=True) == seat_facts(truth["seats"], shown=False), (
                f"{who}: the seats shown are not the stored seats"
            )
            assert m["seat"] == (stored_seats.index(pid) if pid in stored_seats else None), who
            assert room["status"] == truth["status"], f"{who}: status {room['status']}, stored {truth['status']}"
            assert room["hand_number"] == truth["hands"], f"{who}: hand {room['hand_number']}, {truth['hands']} stored"
            assert m["turn"] == truth["turn"], f"{who}: turn {m['turn']} shown, {truth['turn']} actions stored"
            game = truth["game"]
            assert m["view"] == (None if game is None else jsonish(game.view(m["seat"]))), (
                f"{who}: the view is not the stored hand's"
            )
    return truth


def fails_shown_as_stored_then_taken(
    scene: Scene, change: dict[str, Any], taken: Callable[[dict[str, Any]], bool], refused: bool = False
) -> dict[str, Any]:
    """The actor sends ``change`` during an outage (``refused``: the database refuses that
    one write): the actor is told SAVE_FAILED; every update anybody is shown from then on —
    a newcomer joining before the database answers again too — is the store; after the
    outage everyone is shown the store again, and ``change`` sent again is taken (an update
    to the actor shows it: ``taken``). The stored state then."""
    for c in scene.clients:
        c.sync()
    marks = {id(c): len(c.messages) for c in scene.clients}
    scene.actor.skip()
    before = stored_state(scene.store, scene.rid)
    scene.outage.refuse_once() if refused else scene.outage.start()
    try:
        scene.actor.send({**change, "id": "change"})
        refusal = scene.actor.error(WAIT)  # and no update before it
        assert refusal["error"] == SAVE_FAILED and refusal["reply_to"] == change["type"], refusal
        assert refusal.get("id") == "change"
        assert scene.outage.refused >= 1, "no statement was refused: the failure was not felt"
        if not refused:  # nothing changed: nobody else is sent anything
            for c in (scene.other, scene.watcher):
                assert [m for m in c.sync() if m["type"] == "update"] == [], "an update came for a change not stored"
        after = stored_state(scene.store, scene.rid)
        assert seat_facts(after["seats"], False) == seat_facts(before["seats"], False)
        assert (after["status"], after["hands"], after["turn"]) == (before["status"], before["hands"], before["turn"])
        with scene.hall.connect(scene.rid, scene.newcomer) as newcomer:  # joins before the store answers again
            newcomer.until_update(lambda m: True, WAIT)
            marks[id(newcomer)] = 0
            for c in [*scene.clients, newcomer]:
                assert_shows_the_store(scene, [c], "after the failed write", marks[id(c)])
            for c in [*scene.clients, newcomer]:
                c.skip()
            if not refused:
                scene.outage.end()
                for c in [*scene.clients, newcomer]:  # the table reloaded from the store and shows it
                    c.until_update(lambda m: True, WAIT)
            assert_shows_the_store(scene, [*scene.clients, newcomer], "once the store answers again")
    finally:
        scene.outage.error = None
    scene.actor.send({**change, "id": "again"})
    got = scene.actor.until(lambda m: m.get("id") == "again" or (m["type"] == "update" and taken(m)), WAIT)
    assert got["type"] == "update", f"the change sent again was refused: {got}"
    return stored_state(scene.store, scene.rid)


def with_bots(scene: Scene, seats: tuple[int, ...] = (2, 3, 4)) -> None:
    for s in seats:
        scene.actor.send({"type": "bot", "seat": s, "level": "normal"})
        scene.actor.until_update(lambda m, s=s: m["room"]["seats"][s]["bot"] == "normal")


# ---------------------------------------------------------------------- the changes
def test_a_sit_not_stored_seats_nobody(scene_of: Callable[..., Scene]) -> None:
    scene = scene_of(actor_sits=False)
    after = fails_shown_as_stored_then_taken(scene, {"type": "sit", "seat": 0}, lambda m: m["seat"] == 0)
    assert after["seats"][0]["player"] == scene.players["actor"].id
    assert_shows_the_store(scene, scene.clients, "after the sit")


def test_a_stand_not_stored_leaves_the_player_seated(scene_of: Callable[..., Scene]) -> None:
    scene = scene_of()
    after = fails_shown_as_stored_then_taken(scene, {"type": "stand"}, lambda m: m["seat"] is None)
    assert after["seats"][0]["player"] is None
    assert_shows_the_store(scene, scene.clients, "after the stand")


def test_a_bot_not_stored_is_not_seated(scene_of: Callable[..., Scene]) -> None:
    scene = scene_of()
    bot = {"type": "bot", "seat": 2, "level": "normal"}
    after = fails_shown_as_stored_then_taken(scene, bot, lambda m: m["room"]["seats"][2]["bot"] == "normal")
    assert after["seats"][2]["bot"] == "normal"
    assert_shows_the_store(scene, scene.clients, "after the bot")


def test_an_own_multiplier_not_stored_is_not_shown(scene_of: Callable[..., Scene]) -> None:
    scene = scene_of(options={"own_multiplier": True})
    after = fails_shown_as_stored_then_taken(
        scene, {"type": "own", "value": 3}, lambda m: m["room"]["seats"][0]["own"] == 3
    )
    assert after["seats"][0]["own"] == 3
    assert_shows_the_store(scene, scene.clients, "after the multiplier")


def test_a_hand_whose_start_was_not_stored_is_not_dealt(scene_of: Callable[..., Scene]) -> None:
    """The actor is the last to press 准备: the hand's start is the write that fails."""
    scene = scene_of()
    with_bots(scene)
    scene.other.send({"type": "ready"})
    scene.other.until_update(lambda m: m["room"]["ready"][1])
    after = fails_shown_as_stored_then_taken(scene, {"type": "ready"}, lambda m: m["room"]["status"] == "playing")
    assert after["status"] == "playing" and after["hands"] == 1
    assert [h["number"] for h in scene.store.room_hands(scene.rid)] == [1]


@pytest.mark.parametrize("refused", [False, True], ids=["unavailable", "refused"])
def test_a_move_not_stored_is_taken_back(scene_of: Callable[..., Scene], refused: bool) -> None:
    """The actor's move is not stored (the database is unavailable, or refuses that write):
    the hand is at the stored turn for everyone, a joining client too; once the store
    answers the same move is taken, and the hand goes on (the computer players move again)."""
    scene = scene_of(other_policy=act_policy(first_legal))  # the other seat plays its turns
    with_bots(scene)
    scene.other.send({"type": "ready"})
    scene.actor.send({"type": "ready"})
    m = scene.actor.my_turn(WAIT)
    while m["turn"] < 3:  # a few actions stored first
        scene.actor.act(first_legal(m["view"]), m["turn"])
        m = scene.actor.until_update(lambda x, t=m["turn"]: x["turn"] > t and is_my_turn(x), WAIT)
    scene.other.policy = None  # the hand rests until the actor moves: nothing else is written
    turn = m["turn"]
    move = first_legal(m["view"])
    act = {"type": "act", "action": move, "turn": turn}
    after = fails_shown_as_stored_then_taken(scene, act, lambda m: m["turn"] > turn, refused)
    assert after["turn"] > turn
    actions = scene.store.hand_actions(scene.store.room_hands(scene.rid)[-1]["id"])
    assert (actions[turn]["seq"], actions[turn]["seat"], actions[turn]["text"]) == (turn + 1, 0, move)
    # the hand goes on: both persons play their turns until a computer player has moved again
    scene.other.policy = act_policy(first_legal)
    deadline = time.monotonic() + WAIT
    while True:
        hand = scene.store.room_hands(scene.rid)[-1]
        acted = [a["seat"] for a in scene.store.hand_actions(hand["id"])[turn + 1 :]]
        if set(acted) & {2, 3, 4} or hand["finished_at"] is not None:
            break
        assert time.monotonic() < deadline, f"the computer players did not move again: seats {acted} acted"
        for c in (scene.actor, scene.other):
            c.sync()
            m = c.latest_update()
            if m is not None and is_my_turn(m) and (m["room"]["hand_number"], m["turn"]) not in c.acted:
                c.acted.add((m["room"]["hand_number"], m["turn"]))
                c.act(first_legal(m["view"]), m["turn"])
        time.sleep(0.05)
