"""The table protocol: one JSON schema per message, and the validation of what clients send.

Clients send small JSON objects over the WebSocket ``/ws/{room}``; every one has a
``type``. The server answers with typed messages; an invalid message gets an ``error``
naming the problem and changes nothing. ``docs/protocol.md`` shows these schemas.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema

from paiju.server.tables.autoplay import BOT_LEVELS
from paiju.server.tables.phrases import PHRASES

MAX_MESSAGE_BYTES = 64 * 1024


_seat = {"type": "integer", "minimum": 0, "maximum": 7}
MAX_INT = 2**53  # integers a browser's JavaScript number holds exactly
# a client's tag for a message, echoed in the answer
_id = {"type": ["string", "integer"], "maxLength": 64, "minimum": -MAX_INT, "maximum": MAX_INT}


def _msg(
    type_: str, description: str, props: dict[str, Any] | None = None, required: tuple[str, ...] = ()
) -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": type_,
        "description": description,
        "type": "object",
        "properties": {"type": {"const": type_}, "id": _id, **(props or {})},
        "required": ["type", *required],
        "additionalProperties": False,
    }


CLIENT_MESSAGES: dict[str, dict[str, Any]] = {
    "sit": _msg("sit", "Take an empty seat (before a hand starts, or a seat left free).", {"seat": _seat}, ("seat",)),
    "stand": _msg("stand", "Leave your seat while no hand is being played."),
    "pause": _msg("pause", "The referee of a competition room (its creator watching, or staff) pauses the table."),
    "resume": _msg("resume", "The referee resumes a paused table: the seat to act has its whole turn again."),
    "bot": _msg(
        "bot",
        "Put a computer player on an empty seat (level) or take it away (level null).",
        {"seat": _seat, "level": {"enum": [*BOT_LEVELS, None]}},
        ("seat", "level"),
    ),
    "start": _msg(
        "start",
        "Start the hand once every seat is taken: the same as `ready` (the hand starts when every seat is ready).",
    ),
    "ready": _msg(
        "ready",
        "准备: you are ready for the next hand (status waiting with every seat taken, or between). The hand "
        "starts when every seat is ready (computer players always are). When `room.ready_deadline` runs out "
        "between hands, each person not ready or not connected is stood up (a `notice` unseated, by not_ready; "
        "no penalty) and the hand waits for the seat to be taken again.",
    ),
    "say": _msg(
        "say",
        "Say something to everyone in the room (seated or watching): a quick phrase 快捷语 or emote by its key, "
        "or free `text` (at most 60 characters once trimmed) when the room's `chat` option is on. At most one "
        "every 2 s and 10 a minute per connection (else refused: say_too_fast). Everyone gets a `said`.",
        {
            "phrase": {"enum": list(PHRASES)},
            "text": {"type": "string", "maxLength": 200},
        },
    ),
    "own": _msg(
        "own",
        "Your own multiplier (1-4) for the beans of the hands to come, set while no hand is being played, in "
        "a room whose `own_multiplier` option is on; shown as `room.seats[].own`.",
        {"value": {"type": "integer", "minimum": 1, "maximum": 4}},
        ("value",),
    ),
    "act": _msg(
        "act",
        "Take an action for your own seat: the action's text as the game writes it "
        "('SJ 777', 'pass', 'accept', 'call Ah' …). `turn` is the number of actions the "
        "hand had when you chose; a stale turn is refused.",
        {
            "action": {"type": "string", "minLength": 1, "maxLength": 200},
            "turn": {"type": "integer", "minimum": 0, "maximum": MAX_INT},
        },
        ("action",),
    ),
    "check": _msg(
        "check",
        "Ask whether an action would be taken for your seat now (as `act` would take it, `turn` "
        "likewise); answered with a `check` message. Nothing changes: a client enables its play "
        "button with it and never re-implements the rules.",
        {
            "action": {"type": "string", "minLength": 1, "maxLength": 200},
            "turn": {"type": "integer", "minimum": 0, "maximum": MAX_INT},
        },
        ("action",),
    ),
    "hint": _msg(
        "hint",
        "Ask for the hint 提示 for your seat: the server answers with a `hint` message. "
        "Asking again at the same turn gives the next suggestion (round again after the last). "
        "`auto_pass` (the player's setting 提示无则PASS, off by default): when nothing beats, the "
        "server passes for you at once (the answer's `passed` is true).",
        {"auto_pass": {"type": "boolean"}},
    ),
    "hosted": _msg("hosted", "Switch auto-play 托管 on or off for your seat.", {"on": {"type": "boolean"}}, ("on",)),
    "leave": _msg(
        "leave",
        "Leave the table. During a hand this costs the room's leave_penalty and "
        "your seat is auto-played to the end of the hand.",
    ),
    "unseat": _msg(
        "unseat",
        "请离座: the room's creator asks the person in `seat` to leave it, between hands only (never during "
        "one, never with a penalty). That person's connections get a `notice` (code unseated, by owner).",
        {"seat": _seat},
        ("seat",),
    ),
    "report": _msg(
        "report",
        "举报 the person in `seat` (during or after a hand, seated or watching): `reason` and a line of `text`; "
        "the room, the hand and the last chat lines are kept with it. Answered with `reported`; at most 5 an "
        "hour (too_many_reports). The reported player is not told.",
        {
            "seat": _seat,
            "reason": {"enum": ["cheating", "abuse", "stalling", "other"]},
            "text": {"type": "string", "maxLength": 200},
        },
        ("seat", "reason"),
    ),
    "ping": _msg("ping", "Keep-alive; answered with `pong`."),
}

_seat_info = {
    "type": "object",
    "properties": {
        "seat": {"type": "integer"},
        "player": {"type": ["string", "null"], "description": "player name, null when empty or a bot"},
        "bot": {"enum": [*BOT_LEVELS, None]},
        "connected": {"type": "boolean"},
        "hosted": {"type": "boolean", "description": "托管 is on"},
        "hosted_reason": {
            "enum": ["timeout", "button", "left", "not_ready", None],
            "description": "why 托管 is on: the turn timed out, the player switched it on, or left the hand "
            "(not_ready: only in hands stored by older halls, which dealt the unready in on 托管)",
        },
        "hosted_times": {"type": "integer", "description": "times 托管 came in this hand"},
        "locked": {"type": "boolean", "description": "auto-played more than 3 times (or left): cannot cancel"},
        "player_id": {"type": ["integer", "null"], "description": "the seated person's id (their profile)"},
        "guest": {"type": ["boolean", "null"], "description": "a guest plays for no beans (null: no person)"},
        "beans": {"type": ["integer", "null"], "description": "an account's beans 游戏豆 as last stored"},
        "title": {
            "type": ["object", "null"],
            "description": "the person's title 游戏等级 in this game: level, zh, en, next_at (paiju.titles)",
        },
        "own": {"type": "integer", "description": "the seat's own multiplier for beans (1-4)"},
    },
}

SERVER_MESSAGES: dict[str, dict[str, Any]] = {
    "hello": _msg(
        "hello",
        "First message on a connection: who you are and where you sit.",
        {
            "player": {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}},
            "room": {"type": "string"},
            "seat": {"type": ["integer", "null"]},
        },
        ("player", "room", "seat"),
    ),
    "update": _msg(
        "update",
        "The room and your view of the hand, sent after every change. `view` is the game's "
        "view(seat) for your seat (spectators: the public view), null before the first hand; its "
        "`events` start at `events_from`.",
        {
            "room": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "name": {"type": "string"},
                    "game": {"type": "string"},
                    "options": {"type": "object"},
                    "status": {"enum": ["waiting", "playing", "between"]},
                    "seats": {"type": "array", "items": _seat_info},
                    "spectators": {"type": "integer"},
                    "hand_number": {"type": "integer"},
                    "standings": {
                        "type": "array",
                        "items": {"type": "integer"},
                        "description": "match points per seat, of the person seated there now: only the hands "
                        "they played there (a newcomer starts at 0), less their leave penalties",
                    },
                    "hands": {
                        "type": "array",
                        "description": "per finished hand",
                        "items": {
                            "type": "object",
                            "properties": {
                                "number": {"type": "integer"},
                                "scores": {
                                    "type": "array",
                                    "items": {"type": "integer"},
                                    "description": "what the hand counts in the room: all 0 when not scored",
                                },
                                "scored": {"type": "boolean", "description": "false when every human was on 托管"},
                                "unscored_reason": {
                                    "enum": ["all_hosted"],
                                    "description": "only when not scored: why (every human was on 托管)",
                                },
                                "game_scores": {
                                    "type": "array",
                                    "items": {"type": "integer"},
                                    "description": "only when not scored: the game's own count, which did not count",
                                },
                                "players": {
                                    "type": "array",
                                    "items": {"type": ["integer", "null"]},
                                    "description": "who played each seat (a person's id; null: a computer player)",
                                },
                                "names": {
                                    "type": "array",
                                    "items": {"type": ["string", "null"]},
                                    "description": "their names (a seat's match belongs to the person: `standings` "
                                    "count only the hands of the person seated there now)",
                                },
                            },
                        },
                    },
                    "turn_timeout": {"type": "number"},
                    "hosted_lock_after": {
                        "type": "integer",
                        "description": "托管 coming more times than this in a hand locks it on (no cancelling)",
                    },
                    "message": {
                        "enum": [None, "dissolved", "dissolved_unscored"],
                        "description": "why the table was reset: a hosted player at the end of a hand dissolved "
                        "it (dissolved_unscored: every human was hosted, the hand was not scored)",
                    },
                    "message_seats": {
                        "type": "array",
                        "items": {"type": "integer"},
                        "description": "with a message: the seats on 托管 when the hand ended",
                    },
                    "message_names": {
                        "type": "array",
                        "items": {"type": ["string", "null"]},
                        "description": "their players' names, one per message_seats entry (the seats are empty now)",
                    },
                    "ready": {
                        "type": "array",
                        "items": {"type": "boolean"},
                        "description": "per seat: ready 准备 for the next hand (computer players always are)",
                    },
                    "ready_deadline": {
                        "type": ["number", "null"],
                        "description": "between hands with every seat taken: seconds until the persons not ready "
                        "are stood up",
                    },
                    "card_tracker": {"type": "boolean", "description": "room option: the 记牌器 is shown"},
                    "chat": {"type": "boolean", "description": "room option: free text chat is on"},
                    "private": {
                        "type": "boolean",
                        "description": "room option 私人房间: in no lobby page, reached by its link or code",
                    },
                    "password": {
                        "type": "boolean",
                        "description": "the room has a password (never the password nor its hash)",
                    },
                    "code": {
                        "type": ["string", "null"],
                        "description": "the short room code 房间号 (GET /api/codes/{code}); null: made before codes",
                    },
                    "reserved": {
                        "type": "array",
                        "items": {"type": ["integer", "null"]},
                        "description": "per seat: the player id it is reserved for (null: anybody's)",
                    },
                    "competition": {
                        "type": "boolean",
                        "description": "room option competition 比赛: seats by lot and kept, no hints, spectators late",
                    },
                    "beans": {
                        "type": "object",
                        "description": "the room's bean options: bean_multiplier 房间倍数, table_multiplier, "
                        "min_beans 入场限制, own_multiplier (whether each player may raise an own multiplier)",
                    },
                },
            },
            "seat": {"type": ["integer", "null"]},
            "turn": {"type": "integer", "description": "actions applied in this hand so far"},
            "deadline": {
                "type": ["number", "null"],
                "description": "seconds left for the seat to act before 托管 (in the Shengji deal: before it says no)",
            },
            "events_from": {
                "type": "integer",
                "description": "view.events holds the hand's public events from this index on; "
                "the ones before it came in earlier updates (0: the whole log)",
            },
            "view": {"type": ["object", "null"]},
            "tracker": {
                "type": "object",
                "additionalProperties": {"type": "integer"},
                "description": "记牌器, seated players only and with the room option card_tracker on: per rank, "
                "the copies still unseen by you (paiju.<game>.tracker of your view)",
            },
        },
        ("room", "seat", "turn", "view"),
    ),
    "hint": _msg(
        "hint",
        "The hint for your seat. It never acts: `action` is the suggestion's text and `cards` the "
        "cards to raise (the whole kitty to bury while the Shengji declarer buries, `action` its first "
        "`bury`; [] for a decision such as a declaration); suggestion `index` of `count`. `pass` is true "
        "when nothing beats: the suggestion is to pass 不出, which the client does not send by itself; "
        "`passed` is true when the server passed for you (asked with `auto_pass` while nothing beats).",
        {
            "action": {"type": "string"},
            "cards": {"type": "array", "items": {"type": "string"}},
            "index": {"type": "integer"},
            "count": {"type": "integer"},
            "pass": {"type": "boolean"},
            "passed": {"type": "boolean"},
        },
        ("action", "cards", "index", "count", "pass", "passed"),
    ),
    "check": _msg(
        "check",
        "The answer to `check`: would `action` be taken for your seat now? When not, `code`, `params` "
        "and `error` say why as an `error` would. A `warning` is a legal action with a consequence to "
        "confirm first: `call_makes_solo` (Baohuang: the emperor calls a card he holds every copy of, "
        "and plays 暗独 alone; `warning_params.card`).",
        {
            "action": {"type": "string"},
            "ok": {"type": "boolean"},
            "code": {"type": ["string", "null"]},
            "params": {"type": "object"},
            "error": {"type": ["string", "null"]},
            "warning": {"enum": ["call_makes_solo", None]},
            "warning_params": {"type": "object"},
        },
        ("action", "ok", "code", "params", "error", "warning", "warning_params"),
    ),
    "queued": _msg(
        "queued",
        "Your declaration sent while Shengji cards are dealt (not your decision yet, or a stale turn) is "
        "kept: it is made at your seat's next decision of the deal if still legal, else you get an `error` "
        "(`reply_to` act; code `declare_too_late` when the deal ended, or the game's reason).",
        {"action": {"type": "string"}},
        ("action",),
    ),
    "error": _msg(
        "error",
        "Your message was refused; nothing changed. `error` is the English sentence; `code` the "
        "stable reason a client translates (paiju.errors.REASONS; `bad_message` for a message the "
        "hall cannot read) filled with `params` (cards as card text).",
        {
            "error": {"type": "string"},
            "code": {"type": "string"},
            "params": {"type": "object"},
            "reply_to": {"type": ["string", "null"]},
        },
        ("error", "code", "params"),
    ),
    "said": _msg(
        "said",
        "Someone in the room said something: `phrase` a quick phrase key (the client words it in its language) "
        "or `text` free chat; `seat` null for a spectator. Not stored.",
        {
            "seat": {"type": ["integer", "null"]},
            "name": {"type": "string"},
            "phrase": {"enum": [*PHRASES, None]},
            "text": {"type": ["string", "null"]},
        },
        ("seat", "name", "phrase", "text"),
    ),
    "reported": _msg("reported", "Your report was received (`report`: its number).", {"report": {"type": "integer"}}),
    "notice": _msg(
        "notice",
        "Something happened to you at this table: `code` unseated (`params.by`: owner — the room's creator, "
        "admin — an administrator, with `params.reason`; beans — your balance no longer covers a hand here; "
        "not_ready — the countdown between hands ended before you pressed 准备, no penalty). "
        "The connection stays open: you watch.",
        {"code": {"type": "string"}, "params": {"type": "object"}},
        ("code", "params"),
    ),
    "closed": _msg(
        "closed",
        "The hall is closing this connection, and why — sent just before the close; a client must not "
        "reconnect. `code` kicked (close code 4001; `params.reason` the administrator's, `params.penalty` the "
        "leave penalty's points or null), session_ended (4401; `params.why` logout, password, disabled, "
        "banned or revoked) or room_closed (4410; `params.reason`).",
        {"code": {"type": "string"}, "params": {"type": "object"}, "error": {"type": "string"}},
        ("code", "params", "error"),
    ),
    "pong": _msg("pong", "Answer to ping."),
}


def _is_integer(checker: Any, instance: Any) -> bool:
    """JSON Schema counts 1.0 as an integer; the hall does not (a seat is an index)."""
    return isinstance(instance, int) and not isinstance(instance, bool)


_Strict = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)
_validators = {name: _Strict(s) for name, s in CLIENT_MESSAGES.items()}


class ProtocolError(ValueError):
    """A client message that cannot be accepted; the text names the problem."""


def _plain_act(msg: dict[str, Any]) -> bool:
    """Is ``msg`` an ``act`` message that certainly satisfies its schema?"""
    action, turn = msg.get("action"), msg.get("turn", 0)
    return (
        msg.keys() <= {"type", "action", "turn", "id"}
        and isinstance(action, str)
        and 1 <= len(action) <= 200
        and _clean(action)
        and type(turn) is int
        and 0 <= turn <= MAX_INT
        and _plain_id(msg.get("id", ""))
    )


def _plain_id(ref: Any) -> bool:
    if isinstance(ref, bool):
        return False
    if isinstance(ref, int):
        return -MAX_INT <= ref <= MAX_INT
    # the id is echoed in the answer: a NUL or lone surrogate in it is refused here as in the
    # schema path (orjson cannot encode a lone surrogate: the answer would fail in the table)
    return isinstance(ref, str) and len(ref) <= 64 and _clean(ref)


def parse_client_message(raw: str | bytes) -> dict[str, Any]:
    """Decode and validate one client message; raise ProtocolError naming the problem."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message too large: {size} bytes (at most {MAX_MESSAGE_BYTES})")
    try:
        msg = json.loads(raw)
    except RecursionError:
        raise ProtocolError("bad JSON: it nests too deeply") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise ProtocolError(f"bad JSON: {e}") from None
    if not isinstance(msg, dict):
        raise ProtocolError("a message is a JSON object with a 'type'")
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in _validators:
        named = f" {kind!r}" if _short_name(kind) else ""  # echoed only when short: it may be anything
        raise ProtocolError(f"unknown message type{named}; types are {', '.join(CLIENT_MESSAGES)}")
    if kind == "act" and _plain_act(msg):
        return msg  # the hot path: a well-formed act needs no schema walk
    err = jsonschema.exceptions.best_match(_validators[kind].iter_errors(msg))
    if err is not None:
        where = ".".join(str(p) for p in err.absolute_path) or "message"
        raise ProtocolError(f"invalid {kind} message: {where}: {_describe(err)}")
    for key, value in msg.items():
        if isinstance(value, str) and not _clean(value):
            raise ProtocolError(f"invalid {kind} message: {key}: contains NUL or a lone surrogate")
    return msg


def _short_name(name: Any) -> bool:
    """A name short and plain enough to quote back in an error."""
    return isinstance(name, str) and len(name) <= 24 and name.isascii() and name.isprintable()


def _clean(text: str) -> bool:
    """No NUL, no lone surrogate: text every store and encoder takes."""
    return "\x00" not in text and not any("\ud800" <= ch <= "\udfff" for ch in text)


def _describe(err: Any) -> str:
    """What is wrong, in words of the schema — never a copy of what the client sent."""
    rule, value = err.validator, err.validator_value
    if rule == "type":
        kinds = [value] if isinstance(value, str) else list(value)
        return "must be " + " or ".join("a whole number" if k == "integer" else k for k in kinds)
    if rule in ("minimum", "maximum"):
        return f"must be {'at least' if rule == 'minimum' else 'at most'} {value}"
    if rule in ("minLength", "maxLength"):
        return f"must be {'at least' if rule == 'minLength' else 'at most'} {value} characters"
    if rule == "enum":
        return "must be one of " + ", ".join(json.dumps(v) for v in value)
    if rule == "const":
        return f"must be {json.dumps(value)}"
    if rule == "required":
        return err.message  # names a property of the schema
    if rule == "additionalProperties":
        allowed = err.schema.get("properties", {})
        extra = [k for k in err.instance if k not in allowed]
        named = ", ".join(repr(k) for k in extra[:3] if _short_name(k))
        return f"has fields it does not take ({named or 'unnamed'}); its fields are {', '.join(allowed)}"
    return f"does not satisfy {rule}"


def schemas_markdown() -> str:
    """The schema section of docs/protocol.md (a test keeps the two in step)."""
    out = ["## Client → server messages", ""]
    for name, schema in CLIENT_MESSAGES.items():
        out += [f"### `{name}`", "", schema["description"], "", "```json", json.dumps(schema, indent=2), "```", ""]
    out += ["## Server → client messages", ""]
    for name, schema in SERVER_MESSAGES.items():
        out += [f"### `{name}`", "", schema["description"], "", "```json", json.dumps(schema, indent=2), "```", ""]
    return "\n".join(out)


if __name__ == "__main__":
    print(schemas_markdown())
