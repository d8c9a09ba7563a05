"""What a newcomer needs from the hall (issue 13, docs/protocol.md): refusals with a reason
code, a ``check`` that says whether a selection can be played, a hint that cycles and never
acts, 托管 that says why it came and who was on it, unscored hands that count 0, and a fast
Shengji deal in which a person can still declare.

Most tests speak to a real hall process; the few that need a chosen deal run a hall in this
process whose seeds the test picks with the engine (``new_seed`` of ``paiju.server.tables.table`` and ``autoplay``)."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

import paiju
from paiju.baohuang import hosted_action
from paiju.errors import REASONS

from .harness import Client, Hall, ServerProcess, free_port, is_my_turn, sit_with_bots
from .test_in_process import InProcess


def seat0(m: dict[str, Any]) -> dict[str, Any]:
    return dict(m["room"]["seats"][0])


def ended(m: dict[str, Any]) -> bool:
    return m["room"]["status"] != "playing" and m["view"] is not None and m["view"]["phase"] == "over"


def sit_with(client: Client, seats: int, level: str) -> None:
    """Sit at seat 0 and put computer players of ``level`` on the other ``seats - 1``."""
    client.send({"type": "sit", "seat": 0})
    client.until_update(lambda m: m["seat"] == 0)
    for s in range(1, seats):
        client.send({"type": "bot", "seat": s, "level": level})
        client.until_update(lambda m, s=s: m["room"]["seats"][s]["bot"] == level)


def answer(client: Client, msg: dict[str, Any], kind: str) -> dict[str, Any]:
    """Send ``msg`` and return its answer, of type ``kind`` or an error."""
    client.send(msg)
    return client.until(lambda m: m["type"] in (kind, "error"))


def no_update_since(client: Client) -> None:
    """Nothing changed since the last message consumed: the ping's pong comes with no update."""
    assert [m for m in client.sync() if m["type"] == "update"] == []


@pytest.fixture
def seeded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Hall]]:
    """A hall in this process (uvicorn in a thread) whose hands are dealt from a chosen seed."""
    from paiju.server.tables import autoplay, table
    from paiju.server.web.app import create_app

    servers: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start(seed: int, bot_delay: float = 0.0) -> Hall:
        monkeypatch.setattr(table, "new_seed", lambda: seed)  # the deals
        monkeypatch.setattr(autoplay, "new_seed", lambda: seed)  # and the computer players' choices
        app = create_app(f"sqlite:///{tmp_path / f'hall{len(servers)}.db'}", bot_delay=bot_delay, rate=1000)
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        servers.append((server, thread))
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive(), "the in-process hall did not start"
            time.sleep(0.05)
        return Hall(InProcess(port, app))  # type: ignore[arg-type]

    yield start
    for server, thread in servers:
        server.should_exit = True
        thread.join(10)


# ---------------------------------------------------------------------- reason codes
def test_refusals_carry_a_registered_reason_code_and_params(hall: Hall) -> None:
    p, q = hall.login("coded"), hall.login("coded-watcher")
    rid = hall.create_room(p, {"variant": "standard"})
    with hall.connect(rid, p) as c, hall.connect(rid, q) as w:
        c.sync()
        c.send({"type": "nonsense"})
        e = c.error()
        assert e["code"] == "bad_message" and e["params"]["detail"] and e["reply_to"] is None
        c.send({"type": "start"})
        e = c.error()
        assert e["code"] == "not_seated" and e["reply_to"] == "start"
        c.send({"type": "sit", "seat": 6})
        e = c.error()
        assert (e["code"], e["params"]) == ("no_such_seat", {"seat": 6})
        c.send({"type": "sit", "seat": 0})
        c.until_update(lambda m: m["seat"] == 0)
        c.send({"type": "start"})
        e = c.error()
        assert (e["code"], e["params"]) == ("not_all_seated", {"empty": "1, 2, 3, 4"})
        w.sync()
        w.send({"type": "sit", "seat": 0})
        assert (w.error()["code"], w.messages[-1]["params"]) == ("seat_taken", {"seat": 0})
        c.skip()
        for s in range(1, 5):
            c.send({"type": "bot", "seat": s, "level": "normal"})
        c.send({"type": "start"})
        m = c.my_turn()
        c.send({"type": "stand"})
        assert c.error()["code"] == "hand_going_on"
        c.act(m["view"]["legal_actions"][0], m["turn"] + 5)
        e = c.error()
        assert (e["code"], e["params"]) == ("stale_turn", {"turn": m["turn"], "chosen": m["turn"] + 5})
        c.act("QQQQQQQQQQQQQQQQQQQQQQQ", m["turn"])  # the engine's own reason
        e = c.error()
        assert e["code"] != "illegal" and e["code"] in REASONS and e["reply_to"] == "act"
        w.act("pass")
        assert w.until(lambda x: x["type"] == "error")["code"] == "not_seated"  # (updates come to a watcher)
        for err in [x for x in c.messages + w.messages if x["type"] == "error"]:
            assert err["code"] in REASONS and isinstance(err["params"], dict)
    with hall.http(p.token) as h:
        r = h.post("/api/rooms", json={"name": "x", "game": "baohuang", "turn_timeout": 0.5})
        assert r.status_code == 400 and r.json()["code"] == "bad_turn_timeout"


# ---------------------------------------------------------------------- check
def test_check_says_whether_an_action_is_taken_and_changes_nothing(hall: Hall) -> None:
    p, q = hall.login("checker"), hall.login("check-watcher")
    rid = hall.create_room(p, {"variant": "standard"})
    with hall.connect(rid, p) as c, hall.connect(rid, q) as w:
        c.sync()
        c.send({"type": "sit", "seat": 0})
        c.until_update(lambda m: m["seat"] == 0)
        got = answer(c, {"type": "check", "action": "pass", "id": 1}, "check")
        assert got == {**got, "ok": False, "code": "hand_not_started", "id": 1}
        for s in range(1, 5):
            c.send({"type": "bot", "seat": s, "level": "normal"})
        c.send({"type": "start"})
        m = c.my_turn()
        turn, legal = m["turn"], m["view"]["legal_actions"]
        for action in legal:
            got = answer(c, {"type": "check", "action": action, "turn": turn}, "check")
            assert got == {
                "type": "check",
                "action": action,
                "ok": True,
                "code": None,
                "params": {},
                "error": None,
                "warning": None,
                "warning_params": {},
            }
        bad = answer(c, {"type": "check", "action": "QQQQQQQQQQQQQQQQQQQQQQQ"}, "check")
        assert bad["ok"] is False and bad["code"] in REASONS and bad["code"] != "illegal" and bad["error"]
        stale = answer(c, {"type": "check", "action": legal[0], "turn": turn + 1}, "check")
        assert (stale["ok"], stale["code"]) == (False, "stale_turn")
        no_update_since(c)
        watcher = answer(w, {"type": "check", "action": legal[0]}, "check")
        assert (watcher["ok"], watcher["code"]) == (False, "not_seated")
        assert hall.room(rid)["status"] == "playing"
        # after all these checks the seat is still to act at the same turn: the action is still taken
        c.act(legal[0], turn)
        c.until_update(lambda x: x["turn"] > turn)


def solo_call_seed() -> tuple[int, str]:
    """A classic seed in which seat 0 becomes emperor and may call a card it holds every
    copy of (the 托管 answers before it), and that call."""
    for seed in range(1000):
        g = paiju.new_game("baohuang", seed=seed, variant="classic")
        while g.to_act is not None and g.phase != "play":
            solo = g.view(g.to_act).get("solo_calls")
            if solo:
                if g.to_act == 0:
                    return seed, solo[0]
                break
            g.apply(hosted_action(g))
    raise AssertionError("no seed gives seat 0 a call that makes it play alone")


def test_check_warns_before_a_call_that_makes_the_emperor_play_alone(seeded: Callable[..., Hall]) -> None:
    seed, solo = solo_call_seed()
    hall = seeded(seed)
    p = hall.login("emperor")
    rid = hall.create_room(p, {"variant": "classic"})
    with hall.connect(rid, p) as c:
        sit_with_bots(c, level="hosted")  # every seat answers as 托管 does: the seed's path
        c.send({"type": "start"})
        while True:
            m = c.my_turn(30)
            if m["view"].get("solo_calls"):
                break
            c.act(c.hint(), m["turn"])
        assert solo in m["view"]["solo_calls"]
        got = answer(c, {"type": "check", "action": solo, "turn": m["turn"]}, "check")
        assert got == {**got, "ok": True, "warning": "call_makes_solo", "warning_params": {"card": solo.split()[1]}}
        for other in m["view"]["legal_actions"]:
            if other not in m["view"]["solo_calls"]:
                got = answer(c, {"type": "check", "action": other}, "check")
                assert got["ok"] is True and got["warning"] is None, got
        no_update_since(c)
    assert rid


# ---------------------------------------------------------------------- hint
@pytest.mark.slow  # a Baohuang hand played until nothing beats: ~24 s (make test-slow)
def test_the_hint_cycles_never_acts_and_says_when_nothing_beats(hall: Hall) -> None:
    """Baohuang with four bots: at each of seat 0's turns in play the hint is pressed until it
    wraps; every suggestion is a distinct legal action, in the order of the engine's
    ``hints``; when nothing beats the one suggestion is pass with ``pass`` true."""
    p = hall.login("hinted")
    rid = hall.create_room(p, {"variant": "standard"})
    cycled = follows_without = 0
    with hall.connect(rid, p) as c:
        sit_with_bots(c)
        for _ in range(4):  # hands until both were seen
            c.send({"type": "start"})
            acted = -1
            while True:
                m = c.until_update(lambda x, a=acted: ended(x) or (is_my_turn(x) and x["turn"] > a), 60)
                if ended(m):
                    break
                view, turn = m["view"], m["turn"]
                acted = turn
                if view["phase"] != "play":
                    c.act(c.hint(), turn)
                    continue
                seen = []
                first = answer(c, {"type": "hint"}, "hint")
                for i in range(first["count"] + 1):
                    got = first if i == 0 else answer(c, {"type": "hint"}, "hint")
                    assert got["index"] == i % first["count"] and got["count"] == first["count"], got
                    seen.append(got)
                assert seen[-1]["action"] == seen[0]["action"], "the hint did not wrap"
                actions = [h["action"] for h in seen[:-1]]
                assert len(set(actions)) == len(actions), f"repeated suggestions {actions}"
                assert set(actions) <= set(view["legal_actions"]), actions
                nothing = [a for a in view["legal_actions"] if a not in ("pass", "yield")] == []
                assert first["pass"] is nothing and (actions == ["pass"]) is nothing
                if nothing:
                    follows_without += 1
                    assert first["cards"] == []
                else:
                    for h in seen:
                        cards = [str(x) for x in paiju.cards.parse_cards(h["action"])]
                        assert h["cards"] == cards, h
                cycled += first["count"] > 1
                no_update_since(c)  # the hint never acts
                c.act(seen[0]["action"], turn)
            if follows_without and cycled:
                break
    assert follows_without >= 1, "no turn where nothing beats was met"
    assert cycled >= 1, "no turn with more than one suggestion was met"


# ---------------------------------------------------------------------- 托管 told in time
def test_a_timeout_is_told_and_the_unscored_hand_counts_zero(hall: Hall) -> None:
    """托管 after a timeout says so; a hand ended with the only human on 托管 names the
    seat and its player, counts 0 for everyone and keeps the game's own count."""
    p = hall.login("told")
    rid = hall.create_room(p, {"variant": "standard"}, turn_timeout=1)
    with hall.connect(rid, p) as c:
        sit_with_bots(c)
        c.send({"type": "start"})
        m = c.until_update(lambda x: seat0(x)["hosted"], 20)
        assert seat0(m) == {**seat0(m), "hosted_reason": "timeout", "hosted_times": 1, "locked": False}
        assert m["room"]["hosted_lock_after"] == 3 and m["room"]["message_seats"] == []
        last = c.until_update(ended, 60)
    room = last["room"]
    assert room["message"] == "dissolved_unscored"
    assert room["message_seats"] == [0] and room["message_names"] == ["told"]
    (h,) = room["hands"]
    assert h["scored"] is False and h["scores"] == [0] * 5 and h["unscored_reason"] == "all_hosted"
    assert h["game_scores"] == last["view"]["scores"] and room["standings"] == [0] * 5
    assert hall.room(rid)["hands"] == room["hands"]


def test_the_button_and_leaving_are_told(hall: Hall) -> None:
    """托管 by the button says so (and switched off, no reason is left); leaving says left;
    the end of the hand names both seats that were on 托管."""
    p, q = hall.login("goer"), hall.login("stayer")
    rid = hall.create_room(p, {"variant": "standard"})
    with hall.connect(rid, p) as ca, hall.connect(rid, q) as cb:
        sit_with_bots(ca, 0, humans=(1,))
        cb.send({"type": "sit", "seat": 1})
        cb.until_update(lambda m: m["seat"] == 1)
        ca.send({"type": "start"})
        cb.send({"type": "start"})  # every person is ready 准备: the hand starts
        ca.until_update(lambda m: m["room"]["status"] == "playing")
        ca.send({"type": "hosted", "on": True})
        m = ca.until_update(lambda x: seat0(x)["hosted"])
        assert seat0(m) == {**seat0(m), "hosted_reason": "button", "hosted_times": 1}
        ca.send({"type": "hosted", "on": False})
        m = ca.until_update(lambda x: not seat0(x)["hosted"])
        assert seat0(m) == {**seat0(m), "hosted_reason": None, "hosted_times": 1}
        ca.send({"type": "leave"})
        m = ca.until_update(lambda x: seat0(x)["hosted"])
        assert seat0(m) == {**seat0(m), "hosted_reason": "left", "hosted_times": 2, "locked": True}
        assert m["room"]["seats"][1]["hosted_reason"] is None
        cb.send({"type": "hosted", "on": True})
        last = cb.until_update(ended, 60)
    room = last["room"]
    assert room["message"] == "dissolved_unscored" and room["message_seats"] == [0, 1]
    assert room["message_names"] == ["goer", "stayer"]


# ---------------------------------------------------------------------- the Shengji deal
def first_level_card_seed(within: int = 3) -> int:
    """A seed whose first hand gives seat 0 a level card among its first ``within`` cards."""
    for seed in range(1000):
        g = paiju.new_game("shengji", seed=seed)
        level = g.view(0)["level"]
        for _ in range(4 * within):
            if g.to_act == 0 and any(c[:-1] == level for c in g.view(0)["hand"]):
                return seed
            g.apply("no")
    raise AssertionError("no seed found")


def level_cards(view: dict[str, Any]) -> list[str]:
    return [c for c in view["hand"] if c[:-1] == view["level"]]


def test_a_queued_declaration_is_made_and_the_declarer_gets_a_whole_kitty_hint(seeded: Callable[..., Hall]) -> None:
    hall = seeded(first_level_card_seed())
    p = hall.login("declarer")
    rid = hall.create_room(p, {}, game="shengji")
    with hall.connect(rid, p) as c:
        sit_with(c, 4, "hosted")  # 托管 never declares: the declaration stands
        c.send({"type": "start"})
        m = c.until_update(lambda x: x["view"] is not None and x["turn"] >= 1 and level_cards(x["view"]) != [])
        card = level_cards(m["view"])[0]
        c.send({"type": "act", "action": f"declare {card}", "turn": 0, "id": "d"})  # stale: always queued
        q = c.until(lambda x: x["type"] in ("queued", "error"))
        assert q == {"type": "queued", "action": f"declare {card}", "id": "d"}
        made = c.until_update(lambda x: x["view"]["declarations"] != [])
        assert made["view"]["declarations"] == [{"seat": 0, "cards": card}]
        # a declaration of a card not held is queued too, and refused at the seat's next decision
        level = made["view"]["level"]
        missing = next(f"{level}{s}" for s in "shdc" if f"{level}{s}" not in made["view"]["hand"])
        c.send({"type": "act", "action": f"declare {missing} {missing}", "turn": 0, "id": "x"})
        assert c.until(lambda x: x["type"] in ("queued", "error"))["type"] == "queued"
        err = c.until(lambda x: x["type"] == "error", 30)
        assert err["id"] == "x" and err["reply_to"] == "act" and err["code"] in REASONS and err["code"] != "illegal"
        bury = c.until_update(lambda x: x["view"]["phase"] == "bury", 30)
        assert bury["view"]["to_act"] == 0 and not seat0(bury)["hosted"] and seat0(bury)["hosted_times"] == 0
        c.sync()
        hint = answer(c, {"type": "hint"}, "hint")
        size = bury["view"]["kitty_size"]
        assert len(hint["cards"]) == size == 8 and hint["action"] == f"bury {hint['cards'][0]}"
        assert not Counter(hint["cards"]) - Counter(bury["view"]["hand"]) and hint["pass"] is False
        assert answer(c, {"type": "hint"}, "hint")["cards"] == hint["cards"]
        ok = answer(c, {"type": "check", "action": hint["action"]}, "check")
        assert ok["ok"] is True
        no_update_since(c)


@pytest.mark.parametrize(("decks", "limit"), [(2, 10.0), pytest.param(3, 15.0, marks=pytest.mark.slow)])
def test_the_shengji_deal_is_fast_and_a_silent_person_is_not_hosted(
    make_server: Callable[..., ServerProcess], tmp_path: Path, decks: int, limit: float
) -> None:
    """One person and three computer players at the play's pace (0.6 s), the hall's default
    deal timing: the deal is over within ``limit`` seconds of the hand's start and the
    person, who never acts, is not put on 托管."""
    hall = Hall(make_server(db=tmp_path / f"deal{decks}.db", bot_delay=0.6))
    p = hall.login("watcher")
    rid = hall.create_room(p, {"decks": decks}, game="shengji", turn_timeout=30)
    with hall.connect(rid, p) as c:
        sit_with(c, 4, "normal")
        c.send({"type": "start"})
        c.until_update(lambda x: x["room"]["status"] == "playing")
        started = time.monotonic()
        done = c.until_update(lambda x: x["view"]["phase"] != "deal", limit + 5)
        took = time.monotonic() - started
        deal = [m for m in c.messages if m["type"] == "update" and (m["view"] or {}).get("phase") == "deal"]
    assert took <= limit, f"the {decks}-pack deal took {took:.1f} s"
    assert done["view"]["cards_dealt"] == 4 * {2: 25, 3: 39}[decks]
    assert not any(seat0(m)["hosted"] for m in deal) and seat0(done)["hosted_times"] == 0
    asked = [m for m in deal if m["view"]["to_act"] == 0]
    assert asked and all(m["deadline"] is not None and m["deadline"] <= 1.5 for m in asked)
