"""Fuzzed table messages against a real hall: messages generated from the protocol's JSON
schemas (src/paiju/server/web/protocol.py), valid or broken in one way, each answered
once within its schema, with nothing logged and the hall's memory bounded.
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jsonschema
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from paiju.server.web.protocol import CLIENT_MESSAGES, SERVER_MESSAGES

from .abuse_helpers import RSS_GROWTH_MB, assert_no_traceback
from .harness import Client, Hall, ServerProcess, first_legal, is_my_turn, plays_on, sit_with_bots


# ====================================================================== 7. fuzz
def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values valid under one property schema of protocol.py (const, enum, typed scalars)."""
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    options: list[st.SearchStrategy[Any]] = []
    for kind in kinds:
        if kind == "string":
            options.append(st.text(min_size=schema.get("minLength", 0), max_size=schema.get("maxLength", 64)))
        elif kind == "integer":
            options.append(st.integers(schema.get("minimum"), schema.get("maximum")))
        elif kind == "boolean":
            options.append(st.booleans())
        else:
            raise AssertionError(f"no strategy for {kind}")
    return st.one_of(options)


def message_of(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    props, required = schema["properties"], schema["required"]
    return st.fixed_dictionaries(
        {k: from_schema(props[k]) for k in required},
        optional={k: from_schema(v) for k, v in props.items() if k not in required},
    )


VALID = st.one_of([message_of(s) for s in CLIENT_MESSAGES.values()])
ACTION_WORDS = st.sampled_from(["pass", "accept", "no", "yes", "yield", "3", "SJ BJ", "call Ah", "kao", "4 4"])
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=10,
)
ODD_NUMBERS = st.sampled_from(
    [1.0, 2.5, -1, 8, 2**53 + 1, -(2**53) - 1, 2**64, float("nan"), float("inf"), 1e300, True, "1", None]
)
ODD_TEXT = st.sampled_from(["\ud800", "a\udfffb", "\x00", "x\x00y", "\u202e", "x" * 300, "", " "])


@dataclass
class Fuzz:
    """One message to send: its text or bytes, and whether it must be refused."""

    raw: str | bytes
    must_fail: bool
    kind: str  # the type it claims, for the check of its answer ("" when none)
    legal: bool = False  # a legal action of the seat to act, filled in at sending time


def dumps(msg: Any) -> str:
    return json.dumps(msg, ensure_ascii=True)  # a lone surrogate travels as a \\ud800 escape


def schema_integer(field: str, value: Any) -> bool:
    """Is ``value`` what the schemas take for ``field``: a whole number (never 1.0 or true) in
    range — or, for an ``id``, short text too (ids are text or integers)?"""
    if field == "id" and isinstance(value, str):
        return len(value) <= 64
    if type(value) is not int:
        return False
    low, high = {"seat": (0, 7), "turn": (0, 2**53), "id": (-(2**53), 2**53)}[field]
    return low <= value <= high


@st.composite
def fuzz_message(draw: st.DrawFn) -> Fuzz:
    """A message of a schema, or one of it made wrong in one way, or no message at all."""
    way = draw(
        st.sampled_from(
            ["valid", "valid", "valid", "legal act", "act words", "drop", "extra", "retype", "odd number",
             "odd text", "unknown type", "deep", "huge number", "not an object", "not JSON", "bytes", "oversize"]
        )
    )  # fmt: skip
    msg = draw(VALID)
    kind = msg["type"]
    schema = CLIENT_MESSAGES[kind]
    fields = [k for k in msg if k != "type"]
    if way == "valid":
        return Fuzz(dumps(msg), False, kind)
    if way == "legal act":
        return Fuzz("", False, "act", legal=True)
    if way == "act words":
        return Fuzz(dumps({"type": "act", "action": draw(ACTION_WORDS)}), False, "act")
    if way == "drop":
        required = [k for k in schema["required"] if k != "type"] or ["type"]
        dropped = draw(st.sampled_from(required))
        return Fuzz(dumps({k: v for k, v in msg.items() if k != dropped}), True, kind if dropped != "type" else "")
    if way == "extra":
        key = draw(st.text(max_size=30).filter(lambda k: k not in schema["properties"]))
        return Fuzz(dumps({**msg, key: draw(JSON_VALUES)}), True, kind)
    if way == "retype" and fields:
        return Fuzz(dumps({**msg, draw(st.sampled_from(fields)): draw(JSON_VALUES)}), False, kind)
    if way == "odd number":
        field = draw(st.sampled_from(["seat", "turn", "id"]))
        bad = draw(ODD_NUMBERS)
        base = {"seat": {"type": "sit"}, "turn": {"type": "act", "action": "pass"}, "id": msg}[field]
        return Fuzz(dumps({**base, field: bad}), not schema_integer(field, bad), base["type"])
    if way == "odd text":  # in the id of any message, or in an act (whose plain form skips the schema walk)
        if draw(st.booleans()):
            msg, kind = {"type": "act", "action": draw(ACTION_WORDS)}, "act"
        field = draw(st.sampled_from(["id", "action"] if kind == "act" else ["id"]))
        bad = draw(ODD_TEXT)
        clean = "\x00" not in bad and not any("\ud800" <= ch <= "\udfff" for ch in bad)
        fits = len(bad) <= 64 if field == "id" else 1 <= len(bad) <= 200
        return Fuzz(dumps({**msg, field: bad}), not (clean and fits), kind)
    if way == "unknown type":
        name = draw(st.text(max_size=40).filter(lambda t: t not in CLIENT_MESSAGES) | st.just("x" * 60_000))
        return Fuzz(dumps({**msg, "type": name}), True, "")
    if way == "deep":
        depth = draw(st.sampled_from([5, 100, 1000, 3000, 20_000]))
        nested = "[" * depth + "]" * depth
        return Fuzz(draw(st.sampled_from([nested, '{"type": "ping", "id": ' + nested + "}"])), True, "")
    if way == "huge number":
        digits = draw(st.sampled_from([17, 400, 5000]))
        field = "turn" if kind == "act" else "id"
        return Fuzz(dumps({**msg, field: 0})[:-1] + f', "{field}": 1{"0" * digits}}}', True, kind)
    if way == "not an object":
        return Fuzz(dumps(draw(JSON_VALUES.filter(lambda v: not isinstance(v, dict)))), True, "")
    if way == "not JSON":
        text = draw(st.text(max_size=80) | st.just(dumps(msg)[:-1]))
        with contextlib.suppress(ValueError):
            if isinstance(json.loads(text), dict):
                return Fuzz(text, False, "")
        return Fuzz(text, True, "")
    if way == "bytes":
        data = draw(st.binary(max_size=80) | st.just(dumps(msg).encode()))  # JSON in a binary frame is read too
        return Fuzz(data, False, "")
    if way == "oversize":
        return Fuzz(dumps({**msg, "id": "y" * 70_000}), True, kind)
    return Fuzz(dumps(msg), False, kind)


SERVER_VALIDATORS = {name: jsonschema.Draft202012Validator(s) for name, s in SERVER_MESSAGES.items()}


def long_strings(raw: str | bytes) -> list[str]:
    """Strings of a message too long to be quoted back as a field or type name."""
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return []
    out: list[str] = []

    def walk(v: Any) -> None:
        if isinstance(v, str) and len(v) > 24:
            out.append(v)
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(k)
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(value)
    return out


def test_fuzzed_messages_all_get_an_answer_and_the_hall_stays_well(start_server: Callable[..., ServerProcess]) -> None:
    """Messages generated from the protocol's JSON schemas, and each of them broken in one
    way (a field dropped, added or retyped, 1.0 for a seat, lone surrogates, NUL, deep
    nesting, numbers of 400 digits, no JSON at all …), sent by a seated player and a
    spectator of one table. Every message gets one answer: an ``error``, or what it asked
    for (a ``pong``, a ``hint``, an ``update`` showing the change), and every answer matches
    its schema; no error quotes a long string of the message (an illegal action's text
    aside), nothing is logged, the server's memory stays bounded, and another table plays."""
    limits = {"rate": 100_000, "address_rate": 100_000, "flood_drops": 10**6}  # the fuzz is no flood
    server = start_server(limits=limits)
    hall = Hall(server)
    player, spectator = hall.login("fuzzer"), hall.login("onlooker")
    rid = hall.create_room(player, turn_timeout=600)
    seated, watching = hall.connect(rid, player, throttle=False), hall.connect(rid, spectator, throttle=False)
    sit_with_bots(seated)
    seated.send({"type": "start"})
    seated.my_turn()
    watching.until_update(lambda m: m["room"]["status"] == "playing")
    before = server.rss_mb()
    sent: list[str | bytes] = []
    outcomes: Counter[str] = Counter()  # how each message was answered
    names = {seated: player.name, watching: spectator.name}

    def send_and_check(client: Client, fuzz: Fuzz) -> None:
        raw = fuzz.raw
        if fuzz.legal:  # a legal action when this connection's seat is to act (the hand moves on)
            client.sync()
            last = client.latest_update()
            if client is seated and last is not None and plays_on(last) and not is_my_turn(last):
                with contextlib.suppress(TimeoutError):  # wait for slow bots, so a loaded machine acts too
                    last = client.my_turn(3)
            if last is not None and is_my_turn(last):
                raw = dumps({"type": "act", "action": first_legal(last["view"]), "turn": last["turn"]})
            else:
                raw = dumps({"type": "act", "action": "pass"})
        tag = f"sync-{len(sent)}"
        client.skip()
        client.send(raw)
        # the table handles a connection's messages in order: every answer to `raw` comes before the hint's
        client.send({"type": "hint", "id": tag})
        got = []
        while (m := client.next(30)).get("id") != tag or m["type"] not in ("hint", "error"):
            got.append(m)
        shown = raw if isinstance(raw, bytes) else raw[:300]
        sent.append(shown)
        for answer in [*got, m]:
            errs = list(SERVER_VALIDATORS[answer["type"]].iter_errors(answer))
            assert not errs, f"{answer['type']} breaks its schema ({errs[0].message}), answering {shown!r}"
        # the other connection's chat reaches this one too, perhaps after the skip: not an answer
        got = [a for a in got if a["type"] != "said" or a["name"] == names[client]]
        answers = [a for a in got if a["type"] in ("error", "pong", "hint", "hello", "check", "said")]
        kinds = [a["type"] for a in answers]
        if fuzz.must_fail:
            assert kinds == ["error"], f"{shown!r} was answered {kinds}"
        elif fuzz.kind in ("ping", "hint", "check"):
            asked = {"ping": "pong"}.get(fuzz.kind, fuzz.kind)
            assert kinds in (["error"], [asked]), f"{shown!r} was answered {kinds}"
        else:  # refused with one error, or taken: an update shows it (a ping or hint in bytes: its answer)
            updated = any(a["type"] == "update" for a in got)
            assert kinds in (["error"], ["pong"], ["hint"], ["check"], ["said"]) or (not kinds and updated), (
                f"{shown!r} was answered {kinds} and {len(got) - len(kinds)} updates"
            )
        outcomes[kinds[0] if kinds else "taken"] += 1
        for a in answers:
            if a["type"] == "error":
                quoted = [text for text in long_strings(raw) if text in a["error"]]
                assert not quoted or fuzz.kind == "act", f"the error quotes the message: {a['error'][:200]}"
                assert len(a["error"]) <= 600

    @settings(
        max_examples=200,
        deadline=None,
        database=None,
        phases=[Phase.generate],  # no shrinking against a live hall: the failing message is in the assertion
        suppress_health_check=list(HealthCheck),
    )
    @given(st.lists(st.tuples(st.booleans(), fuzz_message()), min_size=5, max_size=25))
    def run(batch: list[tuple[bool, Fuzz]]) -> None:
        for by_spectator, fuzz in batch:
            send_and_check(watching if by_spectator else seated, fuzz)

    run()
    assert not seated.closed and not watching.closed
    seated.close()
    watching.close()
    assert_no_traceback(server)
    assert server.rss_mb() - before < RSS_GROWTH_MB
    # the fuzz really ran (200 batches of 5 to 25 messages), and reached the table's handlers
    assert len(sent) >= 1000 and outcomes["taken"] >= 20 and outcomes["error"] >= 300, outcomes
    # another table still plays
    other = hall.login("afterwards")
    with hall.connect(hall.create_room(other), other) as c:
        c.sync()
        c.send({"type": "sit", "seat": 0})
        assert c.until(lambda m: m["type"] in ("update", "error"))["seat"] == 0
