"""What the hall's table promises around a hand, played on an in-process hall.

- a computer player's level may be changed before or between hands, not during one
  (docs/protocol.md, "A hand's life": a seated player puts a ``bot`` on an empty seat; a
  computer player stays for the whole hand);
- a hand whose last action is stored but not its end is finished once the table reloads
  after a failed write (table.py: "a change is shown only once stored"; the table reloads
  from the store once it answers);
- the next hand of a match: "Shengji: the team levels and the next declarer carry over, and
  after a team won the match a new match starts" (docs/protocol.md); Shuangkou: "after a hand
  that ended in 双扣 or ended abnormally (a player left): a seat chosen at random (from the
  game's seed)" leads first (rules/shuangkou.md §2).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import paiju
from paiju.server.tables.table import SAVE_FAILED
from paiju.server.web.app import create_app

from .conftest import InProcess, served
from .harness import Client, Hall, first_legal
from .test_failed_writes import Outage

WAIT = 20.0


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[InProcess]:
    """An in-process hall with a quick Shengji deal (as the suite's shared hall)."""
    app = create_app(
        f"sqlite:///{tmp_path / 'hall.db'}", bot_delay=0.0, rate=1000, deal_step=0.005, deal_final_window=0.2
    )
    with served(app) as hall:
        yield hall


def seated_with_bots(hall: Hall, name: str, game: str, options: dict[str, Any], seats: int) -> tuple[str, Client]:
    person = hall.login(name)
    rid = hall.create_room(person, options, turn_timeout=600, game=game)
    me = hall.connect(rid, person)
    me.send({"type": "sit", "seat": 0})
    me.until_update(lambda m: m["seat"] == 0)
    for s in range(1, seats):
        me.send({"type": "bot", "seat": s, "level": "normal"})
        me.until_update(lambda m, s=s: m["room"]["seats"][s]["bot"] == "normal")
    return rid, me


def stored_room(quick: InProcess, rid: str) -> dict[str, Any]:
    room = quick.app.state.hall.store.room(rid)
    assert room is not None
    return room


def next_hand(me: Client, number: int) -> dict[str, Any]:
    """Sit again at seat 0 if the last hand dissolved the table, press start: hand ``number``."""
    m = me.latest_update()
    if m is None or m["seat"] != 0:
        me.send({"type": "sit", "seat": 0})
        me.until_update(lambda m: m["seat"] == 0)
    me.send({"type": "start"})
    return me.until_update(lambda m: m["room"]["status"] == "playing" and m["room"]["hand_number"] == number, WAIT)


def test_a_computer_players_level_changes_between_hands_but_not_during_one(quick: InProcess) -> None:
    """Before the hand a seated player may change a computer player's level (the seat holds no
    person); during the hand the seat is taken (``seat_taken``) and the level stays as
    stored — as a computer player cannot leave during a hand (``bot_stays``)."""
    hall = Hall(quick)  # type: ignore[arg-type]
    rid, me = seated_with_bots(hall, "levels", "baohuang", {"variant": "classic"}, 5)
    with me:
        me.send({"type": "bot", "seat": 2, "level": "strong"})
        me.until_update(lambda m: m["room"]["seats"][2]["bot"] == "strong")
        assert stored_room(quick, rid)["seats"][2]["bot"] == "strong"
        me.send({"type": "start"})
        me.until_update(lambda m: m["room"]["status"] == "playing")
        me.skip()
        me.send({"type": "bot", "seat": 2, "level": "hosted", "id": "level"})
        refusal = me.until(lambda m: m.get("id") == "level", WAIT)
        assert refusal["type"] == "error" and refusal["code"] == "seat_taken", refusal
        me.send({"type": "bot", "seat": 2, "level": None, "id": "away"})
        refusal = me.until(lambda m: m.get("id") == "away", WAIT)
        assert refusal["type"] == "error" and refusal["code"] == "bot_stays", refusal
        me.sync()
        assert stored_room(quick, rid)["seats"][2]["bot"] == "strong"
        shown = [m["room"]["seats"][2]["bot"] for m in me.messages[me.cursor :] if m["type"] == "update"]
        assert set(shown) <= {"strong"}, shown


def test_a_hand_whose_end_was_not_stored_is_finished_when_the_table_reloads(quick: InProcess) -> None:
    """The person's move fails (the database is unavailable); meanwhile the hand's remaining
    actions are in the store but not its end (written by another hand on the store, as an
    interrupted write would leave them). Once the store answers the table reloads what is
    stored, finds the hand over but not finished, and stores its end: the room is
    ``between``, the hand finished with its scores, and everyone is shown that."""
    hall = Hall(quick)  # type: ignore[arg-type]
    rid, me = seated_with_bots(hall, "unfinished", "baohuang", {"variant": "classic"}, 5)
    outage = Outage(quick.app)
    store = quick.app.state.hall.store
    try:
        with me:
            me.send({"type": "start"})
            m = me.my_turn(WAIT)
            outage.start()
            me.act(first_legal(m["view"]), m["turn"])
            assert me.error(WAIT)["error"] == SAVE_FAILED
            hand = store.room_hands(rid)[-1]
            game = paiju.new_game("baohuang", seed=hand["seed"], **hand["options"])
            stored = store.hand_actions(hand["id"])
            for a in stored:
                game.apply(a["text"])
            seq = len(stored)
            while not game.is_over:  # the rest of the hand, stored action by action, not its end
                seat, action = game.to_act, game.legal_actions()[0]
                game.apply(action)
                seq += 1
                store.append_action(hand["id"], seq, seat, str(action), False)
            assert store.room_hands(rid)[-1]["finished_at"] is None
            outage.end()
            shown = me.until_update(lambda m: m["room"]["status"] != "playing", WAIT)
            assert shown["turn"] == seq and shown["view"]["phase"] == "over"
            finished = store.room_hands(rid)[-1]
            assert finished["finished_at"] is not None and finished["scores"] == list(game.scores)
            assert stored_room(quick, rid)["status"] == shown["room"]["status"]
    finally:
        outage.close()


def test_after_a_won_shengji_match_a_new_match_starts(quick: InProcess) -> None:
    """Both teams start at K; the declarers who win a hand at A (``win_at``) win the match
    (rules/shengji.md: "Winning the match: a team that wins a hand as declarer while at level
    A"). The next hand of the match carries the team levels and the declarer; after a won
    match a new match starts at the room's start level (docs/protocol.md, "A hand's life")."""
    hall = Hall(quick)  # type: ignore[arg-type]
    rid, me = seated_with_bots(hall, "match", "shengji", {"start_level": "K", "win_at": "A"}, 4)
    store = quick.app.state.hall.store
    won = carried = 0
    with me:
        number = 1
        next_hand(me, number)
        while not won or not carried:
            assert number <= 12, f"no won match, or no hand of a match carried on, in {number} hands"
            me.send({"type": "hosted", "on": True})
            me.until_update(lambda m: m["room"]["status"] != "playing", WAIT)
            hand = store.room_hands(rid)[-1]
            prev = paiju.new_game("shengji", seed=hand["seed"], **hand["options"])
            for a in store.hand_actions(hand["id"]):
                prev.apply(a["text"])
            assert prev.result is not None
            number += 1
            view = next_hand(me, number)["view"]
            options = store.room_hands(rid)[-1]["options"]
            if prev.match_over:
                won += 1
                assert options["team_levels"] == ["K", "K"] and view["team_levels"] == ["K", "K"]
            else:
                carried += 1
                assert options["team_levels"] == prev.result["team_levels"] == view["team_levels"]
                assert view["declarer"] == prev.result["next_declarer"]
        me.send({"type": "hosted", "on": True})
        me.until_update(lambda m: m["room"]["status"] != "playing", WAIT)


def test_after_a_player_left_shuangkou_draws_the_first_lead(quick: InProcess) -> None:
    """The person leaves each hand (the leave penalty, then 托管 to the end). Whatever the hand
    ended in, the next hand's first lead is drawn from its seed (``first_lead`` null), not the
    first finisher's: "ended abnormally (a player left): a seat chosen at random" (rules/
    shuangkou.md §2). At least one of those hands ended in 单扣 or 平扣, where the first
    finisher would lead after a hand nobody left."""
    hall = Hall(quick)  # type: ignore[arg-type]
    rid, me = seated_with_bots(hall, "leaver", "shuangkou", {}, 4)
    store = quick.app.state.hall.store
    not_double = 0
    with me:
        number = 1
        next_hand(me, number)
        while not not_double:
            assert number <= 8, f"every one of {number} hands ended in 双扣"
            me.send({"type": "leave"})
            me.until_update(lambda m: m["room"]["status"] != "playing", WAIT)
            assert [p["reason"] for p in store.room_penalties(rid)][-1:] == ["leave"]
            hand = store.room_hands(rid)[-1]
            prev = paiju.new_game("shuangkou", seed=hand["seed"], **hand["options"])
            for a in store.hand_actions(hand["id"]):
                prev.apply(a["text"])
            assert prev.is_over
            not_double += prev.result != "double"
            number += 1
            view = next_hand(me, number)["view"]
            assert store.room_hands(rid)[-1]["options"]["first_lead"] is None
            assert view["options"]["first_lead"] is None
        # the hands after, which nobody left: the first lead follows the last hand again
        # ("the first finisher leads"), a leave in an earlier hand counts no more
        for _ in range(8):
            me.send({"type": "hosted", "on": True})  # 托管 to the end of the hand
            me.until_update(lambda m: m["room"]["status"] != "playing", WAIT)
            hand = store.room_hands(rid)[-1]
            prev = paiju.new_game("shuangkou", seed=hand["seed"], **hand["options"])
            for a in store.hand_actions(hand["id"]):
                prev.apply(a["text"])
            expected = prev.next_hand_options()
            number += 1
            next_hand(me, number)
            assert store.room_hands(rid)[-1]["options"]["first_lead"] == expected["first_lead"]
            if expected["first_lead"] is not None:
                break
        else:
            raise AssertionError("eight hands in a row ended with no first finisher to lead")
