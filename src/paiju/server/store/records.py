"""Stored hands as records: replaying them, checking them, exporting and importing a hall.

A stored hand is a record (docs/api.md) spread over two tables: the ``hands`` row (resolved
options, record version, seed) and its ``actions`` rows, numbered 1, 2, 3 … The hall
replays the current hand of each room at start-up; :func:`check_store` replays every
hand (``paiju admin check``); :func:`export_store` and :func:`import_store` move a whole
hall to a JSON-lines file and back (a backup, or the way from SQLite to PostgreSQL).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import IO, Any

from sqlalchemy import func, insert, select, text, update

from paiju.errors import IllegalAction
from paiju.game import Game
from paiju.registry import new_game
from paiju.server.store.db import (
    Store,
    actions,
    blocks,
    follows,
    hands,
    ledger,
    penalties,
    players,
    ratings,
    results,
    room_owners,
    rooms,
    session_id,
    sessions,
)
from paiju.versions import upgrade_options

EXPORT_FORMAT = 2  # 2: accounts, sessions (hashed), the bean ledger, results and ratings


class DamagedHand(Exception):
    """A stored hand that does not replay: a hole in its actions, an illegal action, or
    options the engine refuses. The message says which and where."""


def replay_stored(game_name: str, hand: dict[str, Any], rows: list[dict[str, Any]]) -> Game:
    """The stored hand ``hand`` with its action ``rows`` replayed (raises DamagedHand)."""
    where = f"hand {hand['number']}"
    seqs = [a["seq"] for a in rows]
    if seqs != list(range(1, len(rows) + 1)):
        missing = sorted(set(range(1, max(seqs, default=0) + 1)) - set(seqs))
        raise DamagedHand(f"{where}: its actions are not numbered 1 to {len(rows)} (missing {missing[:5]})")
    try:
        options = upgrade_options(game_name, hand["options"] or {}, hand.get("record_version") or 1)
        game = new_game(game_name, seed=hand["seed"], **options)
    except (IllegalAction, TypeError, ValueError, KeyError) as e:
        raise DamagedHand(f"{where}: its options do not make a {game_name} game: {e}") from None
    for a in rows:
        try:
            game.apply(a["text"])
        except IllegalAction as e:
            raise DamagedHand(f"{where}: action {a['seq']} ({a['text']!r}) is illegal: {e}") from None
    if hand.get("finished_at") is not None and not game.is_over:
        raise DamagedHand(f"{where}: stored as finished but its {len(rows)} actions do not end it")
    return game


def stored_record(store: Store, game_name: str, hand: dict[str, Any]) -> dict[str, Any]:
    """The record (docs/api.md) of a stored hand (raises DamagedHand)."""
    game = replay_stored(game_name, hand, store.hand_actions(hand["id"]))
    return game.record()


# ---------------------------------------------------------------------- checking
@dataclass
class Problem:
    room: str
    hand: int
    reason: str


def check_store(store: Store, *, quarantine: bool = False) -> tuple[int, list[Problem]]:
    """Replay every stored hand; the number checked and the problems found. With
    ``quarantine`` every room with a damaged hand is set aside (``rooms.damaged``)."""
    problems: list[Problem] = []
    checked = 0
    for room in store.all_rooms():
        bad: list[Problem] = []
        for hand in store.room_hands(room["id"]):
            checked += 1
            try:
                replay_stored(room["game"], hand, store.hand_actions(hand["id"]))
            except DamagedHand as e:
                bad.append(Problem(room["id"], hand["number"], str(e)))
        problems += bad
        if quarantine and bad and not room["damaged"]:
            store.save_room(room["id"], damaged=bad[0].reason)
    return checked, problems


# ---------------------------------------------------------------------- export and import
def _jsonable(row: dict[str, Any]) -> dict[str, Any]:
    return {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in row.items()}


def _rows(store: Store, table: Any) -> list[dict[str, Any]]:
    with store.engine.connect() as c:
        return [dict(r) for r in c.execute(select(table).order_by(*table.primary_key.columns)).mappings()]


def export_lines(store: Store) -> Iterator[dict[str, Any]]:
    """Every player, room, hand (with its actions and its record) and penalty."""
    yield {"type": "paiju-export", "format": EXPORT_FORMAT}
    for p in _rows(store, players):
        yield {"type": "player", **_jsonable(p)}
    games: dict[str, str] = {}
    for r in _rows(store, rooms):
        games[r["id"]] = r["game"]
        yield {"type": "room", **_jsonable(r)}
    for h in _rows(store, hands):
        rows = store.hand_actions(h["id"])
        line: dict[str, Any] = {"type": "hand", **_jsonable(h)}
        line["actions"] = [_jsonable({k: v for k, v in a.items() if k not in ("id", "hand_id")}) for a in rows]
        try:
            line["record"] = replay_stored(games[h["room_id"]], h, rows).record()
        except DamagedHand as e:
            line["record"], line["damaged"] = None, str(e)
        yield line
    for p in _rows(store, penalties):
        yield {"type": "penalty", **_jsonable(p)}
    for kind, table in LATER_TABLES.items():
        for row in _rows(store, table):
            yield {"type": kind, **_jsonable(row)}


LATER_TABLES = {
    "session": sessions,
    "ledger": ledger,
    "result": results,
    "rating": ratings,
    "follow": follows,
    "block": blocks,
}
"""Tables exported after the hands (format 2), each row as it is stored."""
TIMES = ("created_at", "revoked_at", "updated_at")
PLAYER_TIMES = ("created_at", "registered_at", "muted_until", "banned_until")


def export_store(store: Store, out: IO[str]) -> int:
    """Write the hall as JSON lines; the number of lines."""
    n = 0
    for line in export_lines(store):
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
        n += 1
    return n


def _time(value: Any) -> Any:
    return datetime.fromisoformat(value) if isinstance(value, str) else value


def import_store(store: Store, src: IO[str]) -> dict[str, int]:
    """Read an export into an empty database, in one transaction; counts per kind."""
    counts = {"player": 0, "room": 0, "hand": 0, "action": 0, "penalty": 0, **dict.fromkeys(LATER_TABLES, 0)}
    with store.engine.begin() as c:
        for table in (players, rooms, hands, actions, penalties, *LATER_TABLES.values()):
            if c.execute(select(func.count()).select_from(table)).scalar_one():
                raise ValueError(f"the database is not empty (table {table.name} has rows): import needs an empty one")
        first, old_format = True, False
        for number, raw in enumerate(src, 1):
            if not raw.strip():
                continue
            line = json.loads(raw)
            kind = line.pop("type", None)
            if first:
                if kind != "paiju-export" or line.get("format") not in (1, EXPORT_FORMAT):
                    raise ValueError("not a paiju export (the first line must name its format)")
                old_format = line["format"] == 1  # players carried their login token
                first = False
                continue
            if kind == "player":
                token = line.pop("token", None)
                when = {k: _time(line[k]) for k in PLAYER_TIMES if k in line}
                c.execute(insert(players).values(**{**line, **when}))
                if old_format and token:  # a format-1 export: its cookie becomes the guest's session
                    c.execute(
                        insert(sessions).values(
                            id=session_id(token), player_id=line["id"], created_at=_time(line["created_at"])
                        )
                    )
            elif kind == "room":
                c.execute(insert(rooms).values(**{**line, "created_at": _time(line["created_at"])}))
                c.execute(insert(room_owners).values(room_id=line["id"], worker=None, token=0, released_at=0.0))
            elif kind == "hand":
                rows = line.pop("actions")
                line.pop("record", None)
                line.pop("damaged", None)
                for k in ("started_at", "finished_at"):
                    line[k] = _time(line[k])
                c.execute(insert(hands).values(**line))
                if rows:
                    c.execute(
                        insert(actions),
                        [{**a, "hand_id": line["id"], "created_at": _time(a["created_at"])} for a in rows],
                    )
                counts["action"] += len(rows)
            elif kind == "penalty":
                c.execute(insert(penalties).values(**{**line, "created_at": _time(line["created_at"])}))
            elif kind in LATER_TABLES:
                c.execute(
                    insert(LATER_TABLES[kind]).values(**{k: _time(v) if k in TIMES else v for k, v in line.items()})
                )
            else:
                raise ValueError(f"line {number}: unknown kind {kind!r}")
            counts[kind] += 1
        if first:
            raise ValueError("the file is empty")
        if c.dialect.name == "postgresql":  # the ids came from the file: move the sequences past them
            for table in (players, hands, actions, penalties, ledger, results):
                c.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                        f"COALESCE((SELECT MAX(id) FROM {table.name}), 0) + 1, false)"
                    )
                )
    return counts


def set_aside(store: Store, room_id: str, reason: str | None) -> None:
    """Mark a room damaged (``reason``) or put it back into play (``None``)."""
    with store.engine.begin() as c:
        c.execute(update(rooms).where(rooms.c.id == room_id).values(damaged=reason))
