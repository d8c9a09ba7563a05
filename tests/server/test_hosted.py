"""Auto-play 托管 (rules spec §7, docs/protocol.md): timeouts, the button, the lock after
more than three switches, leaving, and what the end of a hand does with hosted seats."""

from __future__ import annotations

import time
from typing import Any

import paiju
from paiju.baohuang import hosted_action

from .harness import Client, Hall, act_policy, biggest, first_legal, hand_results, sit_with_bots


def switchable_policy(state: dict[str, bool]) -> Any:
    """Play the biggest legal action while ``state["on"]``; do nothing otherwise."""
    return act_policy(lambda view: biggest(view) if state["on"] else None)


def seat0(m: dict[str, Any]) -> dict[str, Any]:
    return dict(m["room"]["seats"][0])


def ended(m: dict[str, Any]) -> bool:
    return m["room"]["status"] != "playing" and m["view"] is not None and m["view"]["phase"] == "over"


def two_humans(hall: Hall, name: str, turn_timeout: float, b_policy: Any = None) -> tuple[str, Client, Client]:
    """Humans at seats 0 (A) and 1 (B), bots on 2-4."""
    a, b = hall.login(f"{name}-A"), hall.login(f"{name}-B")
    rid = hall.create_room(a, {"variant": "standard"}, turn_timeout=turn_timeout)
    ca = hall.connect(rid, a)
    cb = hall.connect(rid, b, policy=b_policy)
    sit_with_bots(ca, 0, humans=(1,))
    cb.send({"type": "sit", "seat": 1})
    cb.until_update(lambda m: m["seat"] == 1)
    return rid, ca, cb


def wait_for_b(ca: Client, cb: Client) -> dict[str, Any]:
    """Let A play (the first legal action) until the hand waits for B; B's update of that moment."""
    acted = -1
    while True:
        m = ca.until_update(
            lambda m, acted=acted: m["view"] is not None and m["view"]["to_act"] in (0, 1) and m["turn"] > acted
        )
        turn = m["turn"]
        if m["view"]["to_act"] == 1:
            return cb.until_update(
                lambda x, turn=turn: x["view"] is not None and x["turn"] == turn and x["view"]["to_act"] == 1
            )
        ca.act(first_legal(m["view"]), turn)
        acted = turn


def check_hosted_play(record: dict[str, Any], seat: int, since: int) -> int:
    """Every action of ``seat`` from turn ``since`` on is the engine's hosted policy; how many."""
    game = paiju.replay({**record, "actions": record["actions"][:since]})
    n = 0
    for text in record["actions"][since:]:
        if game.to_act == seat:
            assert text == str(hosted_action(game)), f"seat {seat} played {text!r} on 托管"
            n += 1
        game.apply(text)
    return n


def test_timeout_hosts_the_seat_the_hand_goes_on_and_is_not_scored(hall: Hall) -> None:
    """One human and four bots. Hand 1 is played and scored; in hand 2 the human does not
    act: after the turn timeout (2 s) his seat is on 托管 (once), plays the hosted policy to
    the end, and since every human was hosted the hand is not scored; the table dissolves."""
    p = hall.login("sleeper")
    rid = hall.create_room(p, {"variant": "standard"}, turn_timeout=2)
    state = {"on": True}
    with hall.connect(rid, p, policy=switchable_policy(state)) as c:
        sit_with_bots(c)
        c.send({"type": "start"})
        first = c.until_update(ended, 30)
        assert first["room"]["status"] == "between" and first["room"]["hands"][0]["scored"] is True
        standings = first["room"]["standings"]
        assert standings == first["view"]["scores"]
        assert seat0(first)["hosted_times"] == 0

        state["on"] = False
        c.send({"type": "start"})
        mine = c.until_update(lambda m: m["room"]["hand_number"] == 2 and m["view"]["to_act"] == 0)
        seen_at = time.monotonic()
        assert mine["deadline"] is not None and 1 < mine["deadline"] <= 2
        assert not seat0(mine)["hosted"]
        hosted = c.until_update(lambda m: seat0(m)["hosted"], 10)
        assert time.monotonic() - seen_at > 1, "托管 came before the turn timeout"
        assert seat0(hosted) == {**seat0(hosted), "hosted": True, "hosted_times": 1, "locked": False}
        last = c.until_update(ended, 30)
        assert last["turn"] > mine["turn"]
    room = last["room"]
    assert room["hand_number"] == 2 and len(room["hands"]) == 2
    assert room["hands"][1]["scored"] is False and sum(room["hands"][1]["scores"]) == 0
    assert room["standings"] == standings, "an unscored hand changed the standings"
    # any hosted human at the end dissolves the table: humans stand up, bots stay
    assert room["status"] == "waiting" and room["message"] and room["message"].startswith("dissolved")
    assert room["seats"][0]["player"] is None and [s["bot"] for s in room["seats"][1:]] == ["normal"] * 4
    assert last["seat"] is None and last["view"]["hand"] is None  # now a spectator
    assert hall.room(rid)["standings"] == standings
    record = hall.record(rid, 2)
    assert check_hosted_play(record, 0, mine["turn"]) >= 2


def test_a_hosted_human_at_the_end_dissolves_the_table(hall: Hall) -> None:
    """A does not act and is hosted on timeout; B plays. The hand is scored (not every
    human was hosted) and the table is dissolved."""
    state = {"on": True}
    rid, ca, cb = two_humans(hall, "dissolve", 2, switchable_policy(state))
    with ca, cb:
        ca.send({"type": "start"})
        cb.send({"type": "start"})  # every person is ready 准备: the hand starts
        hosted = ca.until_update(lambda m: seat0(m)["hosted"], 30)
        assert seat0(hosted)["hosted_times"] == 1
        assert not hosted["room"]["seats"][1]["hosted"]
        last = ca.until_update(ended, 30)
    room = last["room"]
    assert room["status"] == "waiting" and room["message"] == "dissolved"
    assert [s["player"] for s in room["seats"]] == [None] * 5
    assert [s["bot"] for s in room["seats"]] == [None, None, "normal", "normal", "normal"]
    assert all(not s["hosted"] and s["hosted_times"] == 0 for s in room["seats"])
    assert hand_results(room["hands"]) == [{"number": 1, "scores": last["view"]["scores"], "scored": True}]
    assert room["standings"] == last["view"]["scores"]
    # the room stays, with its standings; new players can sit down again
    again = hall.room(rid)
    assert again["standings"] == room["standings"] and again["status"] == "waiting"


def test_hosted_switch_on_and_off_and_the_lock(hall: Hall) -> None:
    """While B is to act, A switches 托管 on and off. Each switch on counts; after more
    than three (hosted_times 4) the seat is locked and switching off is refused."""
    state = {"on": False}
    rid, ca, cb = two_humans(hall, "toggler", 600, switchable_policy(state))
    with ca, cb:
        ca.sync()
        ca.send({"type": "hosted", "on": True})
        assert "托管" in ca.error()["error"]  # no hand yet
        ca.send({"type": "start"})
        cb.send({"type": "start"})  # every person is ready 准备: the hand starts
        at_b = wait_for_b(ca, cb)
        turn = at_b["turn"]
        ca.sync()
        for times in (1, 2, 3, 4):
            ca.send({"type": "hosted", "on": True})
            m = ca.until_update(lambda m: seat0(m)["hosted"])
            assert seat0(m) == {**seat0(m), "hosted_times": times, "locked": times > 3}
            assert m["turn"] == turn  # A is not to act: nothing moves
            if times < 4:
                ca.send({"type": "hosted", "on": False})
                m = ca.until_update(lambda m: not seat0(m)["hosted"])
                assert seat0(m) == {**seat0(m), "hosted_times": times, "locked": False}
        ca.send({"type": "hosted", "on": False})
        err = ca.error()
        assert "locked" in err["error"]
        ca.send({"type": "hosted", "on": True})  # already on: not another switch
        ca.sync()
        seat = hall.room(rid)["seats"][0]
        assert seat == {**seat, "hosted": True, "hosted_times": 4, "locked": True}
        # B plays on; A's turns are auto-played with the hosted policy
        state["on"] = True
        cb.act(biggest(at_b["view"]), turn)
        last = ca.until_update(ended, 30)
    assert last["room"]["message"] == "dissolved" and last["room"]["hands"][-1]["scored"] is True
    assert check_hosted_play(hall.record(rid, 1), 0, turn) >= 1


def test_leave_during_a_hand_costs_the_penalty_and_hosts_the_seat(hall: Hall) -> None:
    state = {"on": False}
    rid, ca, cb = two_humans(hall, "leaver", 600, switchable_policy(state))
    with ca, cb:
        ca.send({"type": "start"})
        cb.send({"type": "start"})  # every person is ready 准备: the hand starts
        at_b = wait_for_b(ca, cb)
        ca.sync()
        ca.send({"type": "leave"})
        m = ca.until_update(lambda m: seat0(m)["hosted"])
        assert seat0(m) == {**seat0(m), "hosted": True, "hosted_times": 1, "locked": True, "player": "leaver-A"}
        assert m["room"]["standings"] == [-40, 0, 0, 0, 0]
        ca.send({"type": "hosted", "on": False})
        assert "locked" in ca.error()["error"]
        state["on"] = True
        cb.act(biggest(at_b["view"]), at_b["turn"])
        last = cb.until_update(ended, 30)
    room = last["room"]
    scores = last["view"]["scores"]
    assert hand_results(room["hands"]) == [{"number": 1, "scores": scores, "scored": True}]
    assert room["standings"] == [scores[0] - 40, *scores[1:]]
    assert room["status"] == "waiting" and room["message"] == "dissolved"
    assert hall.room(rid)["standings"] == room["standings"]
    assert check_hosted_play(hall.record(rid, 1), 0, at_b["turn"]) >= 1


def test_the_leave_penalty_is_the_rooms_option(hall: Hall) -> None:
    a = hall.login("cheap-leaver")
    rid = hall.create_room(a, {"variant": "standard", "leave_penalty": 7})
    with hall.connect(rid, a) as c:
        sit_with_bots(c)
        c.send({"type": "start"})
        c.my_turn()
        c.send({"type": "leave"})
        last = c.until_update(ended, 30)
    assert last["room"]["standings"] == [-7, 0, 0, 0, 0]  # every human hosted: the hand itself is not scored
    assert last["room"]["hands"][0]["scored"] is False


def test_leaving_twice_costs_the_penalty_once(hall: Hall) -> None:
    state = {"on": False}
    rid, ca, cb = two_humans(hall, "twice", 600, switchable_policy(state))
    with ca, cb:
        ca.send({"type": "start"})
        cb.send({"type": "start"})  # every person is ready 准备: the hand starts
        wait_for_b(ca, cb)
        ca.send({"type": "leave"})
        ca.until_update(lambda m: seat0(m)["hosted"])
        ca.send({"type": "leave"})  # a second tab, a double click
        ca.sync()
        assert hall.room(rid)["standings"][0] == -40
