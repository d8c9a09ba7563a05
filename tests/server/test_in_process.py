"""Tests that reach into a hall running in this process (uvicorn in a thread).

Nothing is shown before it is stored, checked so that it cannot be missed: the test holds
the writer's commits; while a commit is held nobody sees the move, the update arrives only
after the commit, and when it arrives the database already has the action. Also: a hand
started by the hall stores every option value and the record version; one table whose
update cannot be built never keeps the others from theirs."""

from __future__ import annotations

import time
from typing import Any

import pytest

import paiju
from paiju.errors import REASONS
from paiju.server.store.db import Store
from paiju.server.tables.cluster_rooms import RoomBusy
from paiju.versions import RECORD_VERSION

from .conftest import InProcess
from .harness import Hall, biggest, is_my_turn, sit_with_bots


def stored_actions(store: Store, rid: str) -> int:
    hands = store.room_hands(rid)
    return len(store.hand_actions(hands[-1]["id"])) if hands else 0


def test_a_move_is_shown_only_after_its_commit(in_process: InProcess) -> None:
    hall = Hall(in_process)  # type: ignore[arg-type]
    writer = in_process.app.state.hall.writer
    store: Store = in_process.app.state.hall.store
    p = hall.login("patient")
    rid = hall.create_room(p, {"variant": "classic"}, turn_timeout=600)
    with hall.connect(rid, p) as c:
        sit_with_bots(c)
        c.send({"type": "start"})
        m = c.my_turn(30)
        for _ in range(3):  # three moves of seat 0 (the bots' moves between them, held or not)
            c.sync()
            turn = m["turn"]
            assert stored_actions(store, rid) == turn
            writer.hold_commits()
            try:
                c.act(biggest(m["view"]), turn)
                time.sleep(0.5)  # the table has the move and the writer has the write
                seen = [x for x in c.sync() if x["type"] == "update" and x["turn"] > turn]
                assert seen == [], "a move was shown before it was stored"
                assert stored_actions(store, rid) == turn
            finally:
                writer.release_commits()
            shown = c.until_update(lambda x, t=turn: x["turn"] > t)
            assert stored_actions(store, rid) >= shown["turn"], "the update came before the commit"
            m = shown if is_my_turn(shown) else c.my_turn(30)


def test_a_seat_put_on_hosting_by_its_timeout_is_stored_with_the_move(in_process: InProcess) -> None:
    """The turn runs out: 托管 plays for the seat, and the seat's 托管, shown to everyone, is
    stored in the same write as the move — read as soon as it is shown, before any later
    write (five persons, none acting: the next write is the next seat's timeout, 1 s on)."""
    hall = Hall(in_process)  # type: ignore[arg-type]
    store: Store = in_process.app.state.hall.store
    players = [hall.login(f"slow-{i}") for i in range(5)]
    rid = hall.create_room(players[0], {"variant": "classic"}, turn_timeout=1)
    clients = [hall.connect(rid, p) for p in players]
    try:
        for i, c in enumerate(clients):
            c.send({"type": "sit", "seat": i})
            c.until_update(lambda m, i=i: m["seat"] == i)
        for c in clients:
            c.send({"type": "ready"})
        shown = clients[0].until_update(lambda m: any(s["hosted"] for s in m["room"]["seats"]), 30)
        stored = store.room(rid)["seats"]
        turn = stored_actions(store, rid)
        assert [(s["hosted"], s["hosted_times"], s["hosted_reason"]) for s in stored] == [
            (s["hosted"], s["hosted_times"], s["hosted_reason"]) for s in shown["room"]["seats"]
        ], "a seat was shown on 托管 that is not stored so"
        assert turn >= shown["turn"]
    finally:
        for c in clients:
            c.close()


def test_a_hand_stores_every_option_value_and_its_record_version(in_process: InProcess) -> None:
    hall = Hall(in_process)  # type: ignore[arg-type]
    store: Store = in_process.app.state.hall.store
    p = hall.login("options")
    rid = hall.create_room(p, {"variant": "qingdao", "kao": True}, turn_timeout=600)
    with hall.connect(rid, p) as c:
        sit_with_bots(c)
        c.send({"type": "start"})
        c.my_turn(30)
    (h,) = store.room_hands(rid)
    assert h["record_version"] == RECORD_VERSION
    assert h["options"] == paiju.new_game("baohuang", seed=1, variant="qingdao", kao=True).record()["options"]
    assert h["options"]["pass_is_final"] is True and "deck" in h["options"]  # resolved, not the room's two


def test_a_table_whose_update_fails_does_not_stop_the_others(
    in_process: InProcess, caplog: pytest.LogCaptureFixture
) -> None:
    hall = Hall(in_process)  # type: ignore[arg-type]
    tables = in_process.app.state.hall.tables
    p, q = hall.login("broken"), hall.login("fine")
    bad, good = hall.create_room(p, turn_timeout=600), hall.create_room(q, turn_timeout=600)
    with hall.connect(bad, p) as cb, hall.connect(good, q) as cg:
        cb.until_update(lambda m: True)
        cg.until_update(lambda m: True)

        def fails() -> dict[str, Any]:
            raise TypeError("an update that cannot be built")

        tables[bad].room_info = fails  # this table can no longer build its update
        for i in range(3):  # three changes at each table, each followed by a broadcast
            change = {"type": "sit", "seat": i} if i == 0 else {"type": "bot", "seat": i, "level": "normal"}
            cb.send(change)
            cg.send(change)
            cg.until_update(lambda m, i=i: m["seat"] == 0 and (i == 0 or m["room"]["seats"][i]["bot"] == "normal"))
        cb.sync()
        assert [m for m in cb.messages if m["type"] == "update"][1:] == []
        assert [s["bot"] for s in tables[bad].seats[:3]] == [None, "normal", "normal"]  # changed, not shown
    failures = [r for r in caplog.records if "could not send its update" in r.getMessage()]
    assert len(failures) == 1  # logged once, not at every change


@pytest.mark.parametrize("code", ["room_moving", "worker_busy"])
def test_a_room_that_cannot_be_played_here_right_now_says_why(
    in_process: InProcess, code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker of a cluster that cannot play a room right now (its holder has not handed it
    over, or this worker is stopping) tells the player which, not that the database failed;
    the page reconnects (close 1013, try again later)."""
    hall = Hall(in_process)  # type: ignore[arg-type]
    p = hall.login("mover")
    rid = hall.create_room(p)

    async def busy(room: str) -> None:
        raise RoomBusy(room, code)

    monkeypatch.setattr(in_process.app.state.hall, "table", busy)
    c = hall.connect(rid, p)
    refusal = c.next()
    c.wait_closed()
    assert refusal["type"] == "error" and refusal["code"] == code, refusal
    assert refusal["error"] == REASONS[code] and "database" not in refusal["error"]
    assert c.ws.close_code == 1013
