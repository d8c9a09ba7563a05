"""A person's first turn of their first hand in a room has twice the clock (issue 29 item 6:
a newcomer reading 44 Baohuang cards was put on 托管 at 30 s); every later turn has the
room's turn timeout (docs/decisions.md, "A newcomer's first turn")."""

from __future__ import annotations

from typing import Any

from paiju.server.tables.autoplay import FIRST_TURN_FACTOR, first_turn

from .harness import Hall, first_legal, is_my_turn, sit_with_bots


def test_first_turn_is_the_persons_first_in_the_room() -> None:
    firsts: dict[int, tuple[int, int]] = {}
    assert first_turn(7, [], firsts, (0, 3))
    assert first_turn(7, [], firsts, (0, 3)), "the same turn armed again keeps the longer clock"
    assert not first_turn(7, [], firsts, (0, 8)), "the second turn has the room's clock"
    assert first_turn(8, [], firsts, (0, 9)), "another newcomer has his own first turn"
    assert not first_turn(None, [], firsts, (0, 1)), "an empty or computer seat: no person"
    played = [{"players": [9, None, None]}]
    assert not first_turn(9, played, {}, (1, 0)), "a person who played a hand here is no newcomer"
    assert first_turn(9, [{"players": None}], {}, (1, 0)), "a hand kept without players counts as not his"


def test_the_first_turn_clock_is_longer_then_the_rooms(hall: Hall) -> None:
    p = hall.login("reader")
    rid = hall.create_room(p, {"variant": "standard"}, turn_timeout=20)
    with hall.connect(rid, p) as c:
        sit_with_bots(c)
        c.send({"type": "start"})
        m: dict[str, Any] = c.until_update(is_my_turn, 30)
        assert 20 < m["deadline"] <= 20 * FIRST_TURN_FACTOR
        c.act(first_legal(m["view"]), m["turn"])
        m = c.until_update(lambda x: is_my_turn(x) and x["turn"] > m["turn"], 60)
        assert m["deadline"] <= 20
