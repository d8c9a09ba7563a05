"""``paiju admin``: check replays every stored hand (and sets damaged rooms aside), export
and import move a whole hall — SQLite to SQLite, and SQLite to PostgreSQL when
PAIJU_TEST_POSTGRES names a server — with identical replays; and migration 0002 gives the
hands stored before it their resolved options."""

from __future__ import annotations

import importlib.util
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import DateTime, select, text
from typer.testing import CliRunner

import paiju
from paiju.cli import app
from paiju.server.accounts import settlement
from paiju.server.accounts import users as accounts
from paiju.server.store import db
from paiju.server.store.db import Store, migrate, session_id
from paiju.server.store.records import check_store, stored_record
from paiju.specs import spec as game_spec
from paiju.versions import upgrade_options
from test_store import db_url  # noqa: F401 - the fixture: SQLite and PostgreSQL

runner = CliRunner()


def fill(url: str, rooms: int = 3, seed: int = 5) -> dict[tuple[str, int], dict[str, Any]]:
    """A hall's database with finished and unfinished hands of every game, played at random
    through the store (the way the hall stores them); the record of every hand."""
    rng = random.Random(seed)
    store = Store(url, checkpoints=False)
    records = {}
    ann = store.create_player("ann")
    with store.engine.begin() as c:  # ann is an account: sessions, beans, results and ratings are exported too
        accounts.register_tx(c, "ann", accounts.hash_password("ann's secret"), "ann", ann["id"], 1000)
    for i in range(rooms):
        for game, options in (("baohuang", {"variant": "qingdao"}), ("shengji", {}), ("shuangkou", {})):
            g = paiju.new_game(game, seed=rng.randrange(2**40), **options)
            room = store.create_room(f"{game} {i}", game, options, 30.0, g.num_players, ann["id"])
            for number in (1, 2):
                g = paiju.new_game(game, seed=rng.randrange(2**40), **options)
                hid = store.start_hand(room["id"], number, g.seed, g.record()["options"], room["seats"])
                stop = None if number == 1 else rng.randrange(1, 40)  # the second hand is left unfinished
                while not g.is_over and (stop is None or len(g.history) < stop):
                    action = rng.choice(list(g.legal_actions()))
                    g.apply(action)
                    store.append_action(hid, len(g.history), 0, str(action), hosted=False)
                if g.is_over:
                    store.finish_hand(hid, list(g.scores), True, room["id"], room["seats"], "between")
                    with store.engine.begin() as c:
                        seated = [ann["id"], *[None] * (g.num_players - 1)]
                        settlement.finish_tx(
                            c, hand_id=hid, game_name=game, game=g, seat_players=seated, scored=True,
                            room_options={}, own=[1] * g.num_players,
                        )  # fmt: skip
                records[(room["id"], number)] = g.record()
            store.add_penalty(room["id"], 2, 1, ann["id"], 3, "leave")
    store.close()
    return records


def all_records(url: str) -> dict[tuple[str, int], dict[str, Any]]:
    store = Store(url, checkpoints=False)
    out = {}
    for room in store.all_rooms():
        for h in store.room_hands(room["id"]):
            out[(room["id"], h["number"])] = stored_record(store, room["game"], h)
    store.close()
    return out


def test_export_then_import_gives_identical_replays(tmp_path: Path, db_url: str) -> None:  # noqa: F811
    source = f"sqlite:///{tmp_path / 'source.db'}"
    records = fill(source)
    assert all_records(source) == records
    store = Store(source, checkpoints=False)  # a follow and a block (accounts/social.py) come along too
    with store.engine.begin() as c:
        ann = accounts.account_tx(c, "ann")["id"]
        other = db.create_player_tx(c, "bob", None)["id"]
        c.execute(db.follows.insert().values(follower_id=ann, followed_id=other, created_at=db.now()))
        c.execute(db.blocks.insert().values(blocker_id=other, blocked_id=ann, created_at=db.now()))
    store.close()
    dump = tmp_path / "hall.jsonl"
    r = runner.invoke(app, ["admin", "export", str(dump), "--db", source])
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in dump.read_text().splitlines()]
    assert lines[0] == {"type": "paiju-export", "format": 2}
    assert {x["type"] for x in lines} >= {"session", "ledger", "result", "rating"}
    hands = [x for x in lines if x["type"] == "hand"]
    assert len(hands) == len(records)
    for h in hands:  # each hand carries its record (docs/api.md), which replays
        assert paiju.replay(h["record"]).record() == records[(h["room_id"], h["number"])]

    r = runner.invoke(app, ["admin", "import", str(dump), "--db", db_url])
    assert r.exit_code == 0, r.output
    assert "18 hands" in r.stdout
    assert all_records(db_url) == records
    a, b = Store(source, checkpoints=False), Store(db_url, checkpoints=False)
    assert [(x["id"], x["name"], x["seats"], x["status"]) for x in a.all_rooms()] == [
        (x["id"], x["name"], x["seats"], x["status"]) for x in b.all_rooms()
    ]
    token = a.all_rooms()[0]["created_by"]
    assert b.players_by_id([token]) == a.players_by_id([token])
    rid = a.all_rooms()[0]["id"]
    assert [p["points"] for p in b.room_penalties(rid)] == [3]
    # the account, its session, beans, results and ratings came along
    for table in (db.sessions, db.ledger, db.results, db.ratings, db.follows, db.blocks):
        kept = [col for col in table.c if not isinstance(col.type, DateTime)]  # times differ in kind, not value
        q = select(*kept).order_by(*table.primary_key.columns)
        rows = [s.read(lambda c, q=q: c.execute(q).all()) for s in (a, b)]
        assert len(rows[0]) > 0 and rows[0] == rows[1], table.name
    assert a.read(accounts.account_tx, "ann")["password_hash"] == b.read(accounts.account_tx, "ann")["password_hash"]
    assert settlement_balance(a, token) == settlement_balance(b, token)
    # the imported database takes new rows (its id sequences moved past the imported ids)
    assert b.create_player("bob")["id"] > token
    a.close()
    b.close()
    r = runner.invoke(app, ["admin", "import", str(dump), "--db", db_url])
    assert r.exit_code == 2 and "not empty" in r.output


def settlement_balance(store: Store, pid: int) -> int:
    return int(store.read(settlement.balance_tx, pid))


def test_check_finds_hands_that_do_not_replay_and_quarantine_sets_them_aside(tmp_path: Path) -> None:
    path = tmp_path / "hall.db"
    url = f"sqlite:///{path}"
    fill(url, rooms=1)
    r = runner.invoke(app, ["admin", "check", "--db", url])
    assert r.exit_code == 0 and "6 hands checked, 0 damaged" in r.stdout
    with sqlite3.connect(path) as c:  # a hole in one hand, an edited action in another
        h1, h2 = (row[0] for row in c.execute("SELECT id FROM hands WHERE number = 1 ORDER BY id LIMIT 2"))
        c.execute("DELETE FROM actions WHERE hand_id = ? AND seq = 5", (h1,))
        c.execute("UPDATE actions SET text = 'BJ BJ BJ BJ BJ' WHERE hand_id = ? AND seq = 3", (h2,))
    r = runner.invoke(app, ["admin", "check", "--db", url])
    assert r.exit_code == 1, r.output
    assert "missing [5]" in r.stdout and "action 3 ('BJ BJ BJ BJ BJ') is illegal" in r.stdout
    assert "6 hands checked, 2 damaged in 2 room(s)" in r.stdout
    store = Store(url, checkpoints=False)
    assert all(room["damaged"] is None for room in store.all_rooms())  # only looked
    store.close()
    r = runner.invoke(app, ["admin", "check", "--db", url, "--quarantine"])
    assert r.exit_code == 1 and "set aside" in r.stdout
    store = Store(url, checkpoints=False)
    damaged = {room["id"]: room["damaged"] for room in store.all_rooms() if room["damaged"]}
    assert len(damaged) == 2 and any("missing [5]" in why for why in damaged.values())
    checked, problems = check_store(store)
    assert checked == 6 and len(problems) == 2  # the records are kept as they were
    store.close()


def test_migration_0002_resolves_the_options_of_hands_stored_before_it(tmp_path: Path) -> None:
    """A database at revision 0001 with hands stored with the room's overrides only: the
    upgrade gives each every option value, record version 1, and the same replay."""
    from alembic import command
    from alembic.config import Config

    url = f"sqlite:///{tmp_path / 'old.db'}"
    store = Store(url, run_migrations=False, checkpoints=False)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(migrate.__code__.co_filename).with_name("migrations")))
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
    path = Path(migrate.__code__.co_filename).with_name("migrations") / "versions" / "0002_resolved_options.py"
    spec = importlib.util.spec_from_file_location("migration_0002", path)
    assert spec is not None and spec.loader is not None
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    played, played_options = {}, {}
    with store.engine.begin() as c:
        c.execute(text("INSERT INTO players (id, token, name, created_at) VALUES (1, 't', 'ann', '2026-01-01')"))
        for i, (game, options) in enumerate(
            [("baohuang", {"variant": "qingdao"}), ("shengji", {"decks": 3}), ("shuangkou", {})]
        ):
            # a hand as an engine of record version 1 played it: version 1's defaults, meant as then
            g = paiju.new_game(game, seed=i + 1, **upgrade_options(game, migration.resolved_v1(game, options), 1))
            rng = random.Random(i)
            for _ in range(30):
                g.apply(rng.choice(list(g.legal_actions())))
            played[game], played_options[game] = g, options
            c.execute(
                text(
                    "INSERT INTO rooms (id, name, game, options, turn_timeout, seats, status, created_at) "
                    "VALUES (:id, 'r', :game, :options, 30, '[]', 'playing', '2026-01-01')"
                ),
                {"id": f"room{i}", "game": game, "options": json.dumps(options)},
            )
            c.execute(
                text(
                    "INSERT INTO hands (id, room_id, number, seed, options, started_at) "
                    "VALUES (:id, :room, 1, :seed, :options, '2026-01-01')"
                ),
                {"id": i + 1, "room": f"room{i}", "seed": g.seed, "options": json.dumps(options)},
            )
            for seq, action in enumerate(g.record()["actions"], 1):
                c.execute(
                    text(
                        "INSERT INTO actions (hand_id, seq, seat, text, hosted, created_at) "
                        "VALUES (:h, :seq, 0, :t, 0, '2026-01-01')"
                    ),
                    {"h": i + 1, "seq": seq, "t": action},
                )
    store.close()
    store = Store(url, checkpoints=False)  # runs migrations 0002 and 0003
    # 0003: the player's old cookie is a guest's session now (the token itself is not stored)
    guest = store.player_by_token("t")
    assert guest is not None and guest["id"] == 1 and guest["username"] is None and guest["name"] == "ann"
    with store.engine.connect() as c:
        assert c.execute(text("SELECT id FROM sessions")).scalars().all() == [session_id("t")]
    for i, game in enumerate(("baohuang", "shengji", "shuangkou")):
        (h,) = store.room_hands(f"room{i}")
        assert h["record_version"] == 1
        assert h["options"] == migration.resolved_v1(game, played_options[game])  # every option value, as played
        upgraded, recorded = upgrade_options(game, h["options"], 1), played[game].record()["options"]
        assert {k: recorded[k] for k in upgraded} == upgraded
        added = recorded.keys() - upgraded.keys()  # options added since: their defaults are the old rules
        assert all(recorded[k] == game_spec(game).resolve_options()[k] for k in added), added
        assert stored_record(store, game, h) == played[game].record()
    store.close()


def test_admin_user_resets_a_password_grants_beans_and_disables(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'users.db'}"
    store = Store(url, checkpoints=False)
    with store.engine.begin() as c:
        made = accounts.register_tx(c, "mei", accounts.hash_password("first password"), "Mei", None, 1000)
    assert made is not None
    store.close()
    r = runner.invoke(app, ["admin", "user", "reset-password", "MEI", "--password", "second password", "--db", url])
    assert r.exit_code == 0, r.output
    store = Store(url, checkpoints=False)
    found = store.read(accounts.account_tx, "mei")
    assert accounts.verify_password(found["password_hash"], "second password")
    assert store.player_by_token(made["token"]) is None  # the sessions ended
    store.close()
    r = runner.invoke(app, ["admin", "user", "reset-password", "mei", "--db", url])  # a random one, printed
    new = r.stdout.split("new password: ")[1].strip()
    store = Store(url, checkpoints=False)
    assert accounts.verify_password(store.read(accounts.account_tx, "mei")["password_hash"], new)
    store.close()
    r = runner.invoke(app, ["admin", "user", "grant", "mei", "250", "--db", url])
    assert r.exit_code == 0 and "1250 beans" in r.stdout
    r = runner.invoke(app, ["admin", "user", "grant", "--db", url, "mei", "--", "-5000"])  # -- before a negative
    assert r.exit_code == 2 and "below 0" in r.output
    r = runner.invoke(app, ["admin", "user", "disable", "mei", "--db", url])
    assert r.exit_code == 0 and "disabled" in r.stdout
    store = Store(url, checkpoints=False)
    assert store.read(accounts.account_tx, "mei")["disabled"] is True
    store.close()
    r = runner.invoke(app, ["admin", "user", "disable", "mei", "--enable", "--db", url])
    assert r.exit_code == 0 and "enabled" in r.stdout
    r = runner.invoke(app, ["admin", "user", "grant", "nobody", "5", "--db", url])
    assert r.exit_code == 2 and "no account" in r.output
