"""Nothing about another seat's cards or a hidden guard reaches a client.

Five WebSocket clients (five players) play whole hands with random legal actions taken
from their own views, in all four presets, two hands per room (Qingdao's second hand has a
tribute), while a spectator watches. Every message every client receives is recorded and
afterwards checked against the truth: each hand as the hall's database holds it (its seed,
options and actions, read directly), replayed with the engine. What a seat received is
checked even when play stopped early — a seat shown another's view cannot play on, and
what it was shown, not the wait that follows, is what the test reports:

- each ``update``'s ``view`` is exactly the game's ``view(seat)`` at that turn, for the
  seat that received it;
- ``view.hand`` is the receiver's own cards (None for the spectator), and no other field
  anywhere in a message holds another seat's hand;
- while the guard is hidden, nobody but the guard is shown who he is;
- every message matches its schema, and every seat saw every turn of every hand.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import Counter, defaultdict
from typing import Any

import jsonschema
import pytest
from sqlalchemy import create_engine, text

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
    room id, its records, every client's messages (seat None: the spectator) and why play
    stopped early (``failure``, None when every hand was played): a refusal, a client's
    reader failing, or a hand not over in time."""
    players: list[Player] = [hall.login(f"{variant[:7]}-{i}") for i in range(SEATS)]
    rid = hall.create_room(players[0], {"variant": variant}, turn_timeout=600, name=f"leak {variant}")
    clients: list[Client] = []
    failure: str | None = None
    watcher = hall.connect(rid, hall.login(f"{variant[:7]}-watch"))
    try:
        for i, p in enumerate(players):
            c = hall.connect(rid, p, policy=random_policy(seed * 10 + i))
            clients.append(c)
            c.send({"type": "sit", "seat": i})
            try:
                c.until_update(lambda m, i=i: m["seat"] == i)
            except TimeoutError as e:
                failure = f"seat {i} was not shown its seat: {e}"
                break
        for number in range(1, HANDS_PER_ROOM + 1):
            if failure is not None:
                break
            for c in clients:  # every person is ready 准备 (start for the first hand, as a client may)
                c.send({"type": "start" if number == 1 else "ready"})
            failure = hand_played([*clients, watcher], number, 60)
    finally:
        for c in clients:
            c.close()
        watcher.close()
    messages: dict[int | None, list[dict[str, Any]]] = {i: c.messages for i, c in enumerate(clients)}
    messages[None] = watcher.messages
    raw: dict[int | None, list[dict[str, Any]]] = {i: c.raw for i, c in enumerate(clients)}
    raw[None] = watcher.raw
    stored = stored_hands(hall, rid)
    records = [hall.record(rid, n) for n in sorted(stored) if stored[n]["finished"]]
    run = {"room": rid, "variant": variant, "records": records, "messages": messages, "raw": raw}
    return {**run, "stored": stored, "failure": failure}


def hand_played(clients: list[Client], number: int, timeout: float) -> str | None:
    """Wait until every client was shown hand ``number`` over; None, or why play stopped:
    a message refused (the players act only on their own legal actions: nothing is refused
    unless a view was wrong), a client's reader failing, or the time running out."""
    deadline = time.monotonic() + timeout
    while True:
        over = 0
        for seat, c in enumerate(clients):
            if c.failure is not None:
                return f"hand {number}: the reader of client {seat} failed: {c.failure!r}"
            with c.cond:
                refused = [m for m in c.messages if m["type"] == "error"]
                over += any(
                    m["type"] == "update" and m["room"]["status"] == "between" and m["room"]["hand_number"] == number
                    for m in c.messages
                )
            if refused:
                return f"hand {number}: client {seat} was refused: {refused[0]}"
        if over == len(clients):
            return None
        if time.monotonic() > deadline:
            return f"hand {number} was not over for every client within {timeout} s"
        time.sleep(0.1)


def stored_hands(hall: Hall, rid: str) -> dict[int, dict[str, Any]]:
    """The room's hands as its database holds them (read directly, not through the hall):
    number → seed, options, action texts, finished."""
    engine = create_engine(hall.server.db_url)
    try:
        with engine.connect() as c:
            rows = c.execute(
                text("SELECT id, number, seed, options, finished_at FROM hands WHERE room_id = :rid"), {"rid": rid}
            ).all()
            out = {}
            for hid, number, seed, options, finished in rows:
                q = text("SELECT text FROM actions WHERE hand_id = :hid ORDER BY seq")
                texts = [t for (t,) in c.execute(q, {"hid": hid})]
                opts = json.loads(options) if isinstance(options, str) else options
                out[number] = {"seed": seed, "options": opts, "actions": texts, "finished": finished is not None}
    finally:
        engine.dispose()
    return out


@pytest.fixture(scope="module")
def log_start(hall: Hall) -> int:
    """Where the server's log was when this module's games began."""
    return len(hall.server.log_text())


@pytest.fixture(scope="module")
def played(hall: Hall, log_start: int) -> list[dict[str, Any]]:
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
                    assert m["seat"] == (seat if seated else None), (
                        f"{run['variant']}: seat {seat} was sent seat {m['seat']}'s update"
                    )
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


def test_every_room_played_its_hands(played: list[dict[str, Any]], hall: Hall, log_start: int) -> None:
    for run in played:
        assert run["failure"] is None, f"{run['variant']}: play stopped: {run['failure']}"
        assert len(run["records"]) == HANDS_PER_ROOM
    new = hall.server.log_text()[log_start:]
    assert not CRASH.search(new), f"the server logged an exception:\n{new[-4000:]}"


def assert_seat_shown_only_its_own(ctx: str, seat: int | None, m: dict[str, Any], game: Any) -> int:
    """What ``seat`` must not see, checked on the message it received at ``game``'s turn:
    another seat's cards anywhere, and a hidden guard's identity (1 when that was checked)."""
    hands = {s: [str(c) for c in game.hand(s)] for s in range(SEATS)}
    view = m["view"]
    if view["hand"] != (hands[seat] if seat is not None else None):
        for other in range(SEATS):
            if other != seat and view["hand"] is not None and Counter(view["hand"]) == Counter(hands[other]):
                raise AssertionError(f"{ctx}: view.hand is seat {other}'s hand")
        raise AssertionError(f"{ctx}: view.hand is not its own hand")
    # the rest of the message (the public log is checked once per hand)
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
    hidden = not game.is_over and not game.guard_revealed and game.guard is not None
    if not hidden:
        return 0
    if seat == game.guard and seat != game.emperor:
        assert view["guard"] == seat and view["roles"][seat] == "guard", f"{ctx}: the guard is not told he is"
        return 0
    assert view["guard"] is None, f"{ctx}: the hidden guard is named"
    assert "guard" not in view["roles"], f"{ctx}: roles name the hidden guard"
    for path, value in walk(rest):  # no field "guard" holds a seat (options.guard is how he is chosen)
        if path and path[-1] == "guard":
            assert not isinstance(value, int), f"{ctx}: {path} names the hidden guard"
    if seat != game.emperor:
        assert view["solo"] != "hidden", f"{ctx}: a hidden solo is shown"
    return 1


def test_views_are_exact_and_leak_nothing(played: list[dict[str, Any]]) -> None:
    """Every update a connection received, checked for the seat that received it against
    the hand as stored at that turn — also when play stopped early."""
    hidden_checks = 0  # messages to a non-guard while the guard was hidden
    for run in played:
        # (hand number, turn) -> [(seat, message)]
        by_turn: dict[tuple[int, int], list[tuple[int | None, dict[str, Any]]]] = defaultdict(list)
        for seat, msgs in run["messages"].items():
            for m in msgs:
                if m["type"] == "update" and m["view"] is not None:
                    by_turn[(m["room"]["hand_number"], m["turn"])].append((seat, m))
        complete = run["failure"] is None
        for number, hand in sorted(run["stored"].items()):
            where = f"{run['variant']} hand {number}"
            game = paiju.new_game("baohuang", seed=hand["seed"], **hand["options"])
            for turn in range(len(hand["actions"]) + 1):
                if turn:
                    game.apply(hand["actions"][turn - 1])
                got = by_turn.pop((number, turn), [])
                for seat, m in got:
                    ctx = f"{where} turn {turn} to seat {seat}"
                    hidden_checks += assert_seat_shown_only_its_own(ctx, seat, m, game)
                    view, truth = m["view"], game.view(seat)
                    if view != truth:
                        assert view == jsonish(truth), f"{ctx}: the view is not the game's view(seat)"
                # every connection was shown the state after every action
                seen = sorted({-1 if s is None else s for s, _ in got})
                if complete:
                    assert seen == [-1, *range(SEATS)], f"{where} turn {turn}: only seats {seen} got an update"
            assert not [k for k in by_turn if k[0] == number], f"{where}: updates for turns not stored"
            if not hand["finished"]:
                continue
            final = game
            assert final.is_over
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
        assert not by_turn, f"{run['variant']}: updates of hands not stored: {sorted(by_turn)[:5]}"
    if all(run["failure"] is None for run in played):
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
