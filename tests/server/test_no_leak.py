"""Nothing about another seat's cards or a hidden guard reaches a client.

Five WebSocket clients (five players) play whole hands with random legal actions taken
from their own views, in all four presets, two hands per room (Qingdao's second hand has a
tribute), while a spectator watches. Every message every client receives is recorded and
afterwards checked against the truth, rebuilt from the hand's record (``paiju.replay``):

- each ``update``'s ``view`` is exactly the game's ``view(seat)`` at that turn;
- ``view.hand`` is the receiver's own cards (None for the spectator), and no other field
  anywhere in a message holds another seat's hand;
- while the guard is hidden, nobody but the guard is shown who he is;
- every message matches its schema, and every seat saw every turn of every hand.
"""

from __future__ import annotations

import json
import random
import threading
from collections import Counter, defaultdict
from typing import Any

import jsonschema
import pytest

import paiju
from paiju.server.web.protocol import SERVER_MESSAGES

from .conftest import CRASH
from .harness import Client, Hall, Player, act_policy, jsonish, walk

VARIANTS = ("standard", "classic", "weihai", "qingdao")
HANDS_PER_ROOM = 2
SEATS = 5
VALIDATORS = {name: jsonschema.Draft202012Validator(s) for name, s in SERVER_MESSAGES.items()}
CARD_TEXT = frozenset(
    [f"{r}{s}" for r in "23456789TJQKA" for s in "shdc"] + ["SJ", "BJ", "SJ*", "BJ*"] + list("23456789TJQKA")
)


def random_policy(seed: int) -> Any:
    """Random legal actions from the seat's own view. Bigger plays are likelier (shorter
    hands), and declarations lean to the quiet answer ("no", "accept") so that the guard
    often stays hidden for a while — the interesting case for secrecy."""
    rng = random.Random(seed)

    def choose(view: dict[str, Any]) -> str:
        legal = [str(a) for a in view["legal_actions"]]
        if view["step"] == "play":
            weights = [1 if a in ("pass", "yield") else len(a.replace(" ", "")) for a in legal]
            return rng.choices(legal, weights)[0]
        quiet = [a for a in legal if a in ("no", "accept")]
        if quiet and rng.random() < 0.9:
            return quiet[0]
        return rng.choice(legal)

    return act_policy(choose)


def play_room(hall: Hall, variant: str, seed: int) -> dict[str, Any]:
    """Play HANDS_PER_ROOM hands with five random players and a spectator; return the
    room id, its records and every client's messages (seat None: the spectator)."""
    players: list[Player] = [hall.login(f"{variant[:7]}-{i}") for i in range(SEATS)]
    rid = hall.create_room(players[0], {"variant": variant}, turn_timeout=600, name=f"leak {variant}")
    clients: list[Client] = []
    try:
        for i, p in enumerate(players):
            c = hall.connect(rid, p, policy=random_policy(seed * 10 + i))
            clients.append(c)
            c.send({"type": "sit", "seat": i})
            c.until_update(lambda m, i=i: m["seat"] == i)
        watcher = hall.connect(rid, hall.login(f"{variant[:7]}-watch"))
        for number in range(1, HANDS_PER_ROOM + 1):
            for c in clients:  # every person is ready 准备 (start for the first hand, as a client may)
                c.send({"type": "start" if number == 1 else "ready"})
            for c in [*clients, watcher]:
                c.until_update(
                    lambda m, n=number: m["room"]["status"] == "between" and m["room"]["hand_number"] == n, 60
                )
    finally:
        for c in clients:
            c.close()
    watcher.close()
    for c in [*clients, watcher]:
        c.check()
    records = [hall.record(rid, n) for n in range(1, HANDS_PER_ROOM + 1)]
    messages: dict[int | None, list[dict[str, Any]]] = {i: c.messages for i, c in enumerate(clients)}
    messages[None] = watcher.messages
    raw: dict[int | None, list[dict[str, Any]]] = {i: c.raw for i, c in enumerate(clients)}
    raw[None] = watcher.raw
    return {"room": rid, "variant": variant, "records": records, "messages": messages, "raw": raw}


@pytest.fixture(scope="module")
def played(hall: Hall) -> list[dict[str, Any]]:
    log_start = len(hall.server.log_text())
    out: list[dict[str, Any]] = []
    errors: list[BaseException] = []

    def run(variant: str, seed: int) -> None:
        try:
            out.append(play_room(hall, variant, seed))
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=run, args=(v, k + 1)) for k, v in enumerate(VARIANTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(240)
    if errors:
        raise errors[0]
    assert len(out) == len(VARIANTS)
    new = hall.server.log_text()[log_start:]
    assert not CRASH.search(new), f"the server logged an exception:\n{new[-4000:]}"
    return out


@pytest.fixture(scope="module")
def hall(server: Any) -> Hall:  # module scope: the games are played once for every test here
    return Hall(server)


def card_lists(obj: Any) -> list[tuple[tuple[Any, ...], list[str]]]:
    """Every list of card texts in a JSON value, with its path."""
    return [
        (path, value)
        for path, value in walk(obj)
        if isinstance(value, list) and value and all(isinstance(x, str) and x in CARD_TEXT for x in value)
    ]


# what the public log of a hand may say: who did what, tricks, places, scores, roles shown
EVENT_KEYS = {"seat", "action", "step", "cards", "event", "number", "winner", "place", "places", "scores", "solo"}


def test_no_refusals_and_every_update_is_for_the_receivers_seat(played: list[dict[str, Any]]) -> None:
    kinds: Counter[str] = Counter()
    for run in played:
        for seat, msgs in run["messages"].items():
            assert msgs[0]["type"] == "hello" and msgs[1]["type"] == "update"
            seated = False
            for m in msgs:
                kinds[m["type"]] += 1
                assert m["type"] in ("hello", "update"), f"{run['variant']} seat {seat} got {m}"
                if m["type"] == "update":
                    seated = seated or m["seat"] == seat
                    assert m["seat"] == (seat if seated else None)
                    assert (m["view"] is None) == (m["room"]["hand_number"] == 0)
    assert kinds["update"] > 1000


def test_every_message_matches_its_documented_schema(played: list[dict[str, Any]]) -> None:
    rooms_checked: set[str] = set()
    for run in played:
        for seat, msgs in run["raw"].items():
            for m in msgs:
                shallow = {**m, "room": {}} if m["type"] == "update" else m  # the room: once per distinct value
                errs = list(VALIDATORS[m["type"]].iter_errors(shallow))
                if m["type"] == "update":
                    room_text = json.dumps(m["room"], sort_keys=True)
                    if room_text not in rooms_checked:
                        rooms_checked.add(room_text)
                        errs += VALIDATORS["update"].iter_errors({**m, "view": None})
                assert not errs, f"{run['variant']} seat {seat}: {m['type']} breaks its schema: {errs[0].message}"


def test_views_are_exact_and_leak_nothing(played: list[dict[str, Any]]) -> None:
    hidden_checks = 0  # messages to a non-guard while the guard was hidden
    for run in played:
        # (hand number, turn) -> [(seat, message)]
        by_turn: dict[tuple[int, int], list[tuple[int | None, dict[str, Any]]]] = defaultdict(list)
        for seat, msgs in run["messages"].items():
            for m in msgs:
                if m["type"] == "update" and m["view"] is not None:
                    by_turn[(m["room"]["hand_number"], m["turn"])].append((seat, m))
        for number, record in enumerate(run["records"], start=1):
            where = f"{run['variant']} hand {number}"
            game = paiju.replay({**record, "actions": []})
            final = paiju.replay(record)
            assert final.is_over
            for turn in range(len(record["actions"]) + 1):
                if turn:
                    game.apply(record["actions"][turn - 1])
                got = by_turn.pop((number, turn), [])
                # every connection was shown the state after every action
                seen = sorted({-1 if s is None else s for s, _ in got})
                assert seen == [-1, *range(SEATS)], f"{where} turn {turn}: only seats {seen} got an update"
                hidden = not game.is_over and not game.guard_revealed and game.guard is not None
                hands = {s: [str(c) for c in game.hand(s)] for s in range(SEATS)}
                for seat, m in got:
                    view = m["view"]
                    ctx = f"{where} turn {turn} to seat {seat}"
                    truth = game.view(seat)
                    if view != truth:
                        assert view == jsonish(truth), f"{ctx}: the view is not the game's view(seat)"
                    assert view["hand"] == (hands[seat] if seat is not None else None), ctx
                    # the rest of the message (the public log is checked once per hand below)
                    rest = {**m, "view": {k: v for k, v in view.items() if k != "events"}}
                    for path, _ in walk(rest):
                        if path and path[-1] in ("hand", "hands"):
                            assert path in (("view", "hand"), ("room", "hands")), f"{ctx}: a field {path}"
                    for path, cards in card_lists(rest):
                        if path == ("view", "hand") or len(cards) < 3:
                            continue
                        if game.is_over and path[:2] == ("view", "hands_left"):
                            continue  # the cards left are shown to everyone once the hand is over
                        for other in range(SEATS):
                            if other != seat and Counter(cards) == Counter(hands[other]):
                                raise AssertionError(f"{ctx}: {path} holds seat {other}'s hand")
                    if hidden and seat != game.guard:
                        hidden_checks += 1
                        assert view["guard"] is None, f"{ctx}: the hidden guard is named"
                        assert "guard" not in view["roles"], f"{ctx}: roles name the hidden guard"
                        if seat != game.emperor:
                            assert view["solo"] != "hidden", f"{ctx}: a hidden solo is shown"
                    if hidden and seat == game.guard and seat != game.emperor:
                        assert view["guard"] == seat and view["roles"][seat] == "guard", ctx
            assert not [k for k in by_turn if k[0] == number], f"{where}: updates for turns the record lacks"
            # the public log: only public facts, never a list of somebody's cards
            for event in final.view(None)["events"]:
                assert set(event) <= EVENT_KEYS, f"{where}: event {event}"
                if event.get("event") == "tribute":
                    assert all(isinstance(g, int) and c in CARD_TEXT for g, c in event["cards"]), event
                elif "cards" in event:
                    assert isinstance(event["cards"], str) and event.get("action"), event
            # the real guard, as the end of the hand shows it to everybody
            over = [
                m
                for ms in run["messages"].values()
                for m in ms
                if m["type"] == "update" and m["room"]["hand_number"] == number and m["view"]["phase"] == "over"
            ]
            assert len(over) >= SEATS + 1
            for m in over:
                assert m["view"]["roles"] == [final.role_of(s) for s in range(SEATS)]
                assert m["view"]["scores"] == list(final.scores)
    assert hidden_checks > 200, f"the guard was hidden in only {hidden_checks} messages: the check proves little"


def test_rooms_scored_every_hand(played: list[dict[str, Any]], hall: Hall) -> None:
    for run in played:
        room = hall.room(run["room"])
        assert room["status"] == "between"
        assert [h["number"] for h in room["hands"]] == list(range(1, HANDS_PER_ROOM + 1))
        totals = [0] * SEATS
        for h, record in zip(room["hands"], run["records"]):
            assert h["scored"] is True
            assert h["scores"] == list(paiju.replay(record).scores)
            totals = [a + b for a, b in zip(totals, h["scores"])]
        assert room["standings"] == totals
        # the next hand of the match is dealt from the first finisher; Qingdao tribute carries over
        previous = paiju.replay(run["records"][0])
        options = run["records"][1]["options"]
        assert options["first_seat"] == previous.finished[0]
        assert options["tribute_due"] == (jsonish(previous.next_tribute) if run["variant"] == "qingdao" else None)
