"""Closing the tab during a hand (docs/protocol.md, "Limits"): a player whose connections
all close and who is not back within ``leave_grace`` has left and pays the leave
penalty; a reload or one of two tabs closing costs nothing.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable

from .harness import Client, Hall, Player, ServerProcess, first_legal, is_my_turn, sit_with_bots

# ====================================================================== 6. closing the tab
GRACE = 1.5  # leave_grace of these halls, seconds


def started_hand(hall: Hall, name: str) -> tuple[Player, str, Client]:
    """A player at seat 0 with four bots, the hand started and waiting for the player."""
    p = hall.login(name)
    rid = hall.create_room(p, turn_timeout=600)
    c = hall.connect(rid, p)
    sit_with_bots(c)
    c.send({"type": "start"})
    c.my_turn()
    return p, rid, c


def test_closing_the_tab_during_a_hand_costs_the_leave_penalty(start_server: Callable[..., ServerProcess]) -> None:
    """Issue: closing the tab dodged the leave penalty. A seated player of a started hand
    whose connections all close, and who is not back within ``leave_grace``, has left: the
    penalty (Baohuang's 40) is stored with reason ``away`` and the seat is played to the end."""
    server = start_server(limits={"leave_grace": GRACE})
    hall = Hall(server)
    p, rid, c = started_hand(hall, "runaway")
    c.close()
    deadline = time.monotonic() + 15
    while (room := hall.room(rid))["standings"][0] == 0:
        assert time.monotonic() < deadline, f"no penalty after the grace period: {room['standings']}"
        time.sleep(0.2)
    assert room["standings"] == [-40, 0, 0, 0, 0]
    with sqlite3.connect(server.db, timeout=10) as db:
        rows = db.execute("SELECT seat, player_id, points, reason FROM penalties WHERE room_id = ?", (rid,)).fetchall()
    assert rows == [(0, p.id, 40, "away")]
    # the seat was auto-played to the end of the hand (every human on 托管: not scored, dissolved)
    while (room := hall.room(rid))["status"] == "playing":
        assert time.monotonic() < deadline, "the hand did not end"
        time.sleep(0.2)
    assert room["hands"][0]["scored"] is False and room["message"] == "dissolved_unscored"


def test_coming_back_within_the_grace_period_or_keeping_a_tab_open_costs_nothing(
    start_server: Callable[..., ServerProcess],
) -> None:
    """A reload (the only tab closes, a new one connects at once) and closing one of two
    tabs are no leaving: past the grace period the standings are untouched and the seat is
    still the player's, to act."""
    server = start_server(limits={"leave_grace": GRACE})
    hall = Hall(server)
    p, rid, c = started_hand(hall, "reloader")
    watcher = hall.connect(rid, hall.login("watcher"))
    second_tab = hall.connect(rid, p)
    second_tab.my_turn()
    c.close()  # one of two tabs
    time.sleep(GRACE + 1)
    assert hall.room(rid)["standings"] == [0] * 5
    second_tab.close()  # the last tab: the hall notices the player is away ...
    watcher.until_update(lambda m: m["room"]["seats"][0]["connected"] is False)
    with hall.connect(rid, p) as back:  # ... and the player is back at once
        watcher.until_update(lambda m: m["room"]["seats"][0]["connected"] is True)
        time.sleep(GRACE + 1)
        room = hall.room(rid)
        assert room["standings"] == [0] * 5 and room["status"] == "playing", room
        assert not room["seats"][0]["hosted"] and not room["seats"][0]["locked"]
        back.sync()
        update = back.latest_update()
        assert update is not None and is_my_turn(update)
        back.act(first_legal(update["view"]), update["turn"])
        assert back.until(lambda m: m["type"] in ("update", "error"))["type"] == "update"
    watcher.close()
