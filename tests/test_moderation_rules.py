"""Who may do what, and how a mute or a ban is read (paiju.server.accounts.moderation), on a
real store (SQLite, and PostgreSQL when PAIJU_TEST_POSTGRES names a server): the roles'
table, a ban that ends lets the account's new sessions in, the command line's role and
its audit row, and refusals that write nothing."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select, update
from typer.testing import CliRunner

from paiju.cli import app
from paiju.errors import IllegalAction
from paiju.server.accounts import moderation, reports
from paiju.server.accounts import users as accounts
from paiju.server.store import db
from paiju.server.store.db import Store
from test_store import db_url  # noqa: F401 - the fixture: SQLite and PostgreSQL

runner = CliRunner()


def test_the_roles_table() -> None:
    for action in moderation.ADMIN_ACTIONS:
        assert moderation.allowed("admin", action)
        assert not moderation.allowed("player", action) and not moderation.allowed(None, action)
    assert {a for a in moderation.ADMIN_ACTIONS if moderation.allowed("moderator", a)} == {
        "reports",
        "kick",
        "unseat",
        "mute",
        "users",
        "rooms",
        "audit",
    }
    assert not moderation.allowed("admin", "no such action")
    with pytest.raises(IllegalAction) as e:
        moderation.require({"id": 1, "username": None, "role": "admin"}, "kick")  # a guest is never staff
    assert e.value.code == "not_account"
    with pytest.raises(IllegalAction) as e:
        moderation.require({"id": 1, "username": "m", "role": "moderator"}, "ban")
    assert e.value.code == "not_admin"


def test_durations_and_reasons_are_checked() -> None:
    assert moderation.check_minutes(None, allow_none=True) is None
    assert moderation.check_minutes(0, allow_zero=True) == 0
    for bad in (0, -1, 1.5, "3", True, moderation.MAX_MINUTES + 1):
        with pytest.raises(IllegalAction):
            moderation.check_minutes(bad)
    assert moderation.check_reason("  two   words ") == "two words"
    for bad in ("", "   ", None, 5, "x" * 201):
        with pytest.raises(IllegalAction):
            moderation.check_reason(bad)


def account(store: Store, name: str) -> dict[str, Any]:
    with store.engine.begin() as c:
        made = accounts.register_tx(c, name, accounts.hash_password("a password"), name, None, 1000)
    assert made is not None
    return made


def test_a_ban_that_ended_lets_new_sessions_in(db_url: str) -> None:  # noqa: F811
    store = Store(db_url, checkpoints=False)
    try:
        name = f"b{secrets.token_hex(4)}"
        made = account(store, name)
        with store.engine.begin() as c:
            moderation.ban_tx(c, None, made["id"], 60, "cheating")
            assert c.execute(select(db.sessions.c.revoked_at).where(db.sessions.c.player_id == made["id"])).scalar()
            token = db.new_session_tx(c, made["id"])  # as a login would, were it let in
        row = store.read(accounts.account_tx, name)
        assert moderation.is_barred_now(row) and store.player_by_token(token) is None
        with store.engine.begin() as c:  # the hour has passed
            past = db.now() - timedelta(minutes=1)
            c.execute(update(db.players).where(db.players.c.id == made["id"]).values(banned_until=past))
        row = store.read(accounts.account_tx, name)
        assert not moderation.is_barred_now(row) and store.player_by_token(token) is not None
        with store.engine.begin() as c:
            moderation.ban_tx(c, None, made["id"], None, "for good")
        assert moderation.is_barred_now(store.read(accounts.account_tx, name))
        assert store.player_by_token(token) is None
    finally:
        store.close()


def test_a_mute_is_read_with_its_end(db_url: str) -> None:  # noqa: F811
    store = Store(db_url, checkpoints=False)
    try:
        made = account(store, f"m{secrets.token_hex(4)}")
        with store.engine.begin() as c:
            until = moderation.mute_tx(c, None, made["id"], 10, "spam")
        assert until is not None
        row = store.read(moderation.player_tx, made["id"])
        assert moderation.muted_until(row) == until.replace(microsecond=until.microsecond)
        assert moderation.muted_until(row, now=until + timedelta(seconds=1)) is None
        with store.engine.begin() as c:
            assert moderation.mute_tx(c, None, made["id"], 0, "served") is None
        assert moderation.muted_until(store.read(moderation.player_tx, made["id"])) is None
    finally:
        store.close()


def test_refused_writes_write_nothing(db_url: str) -> None:  # noqa: F811
    store = Store(db_url, checkpoints=False)
    try:
        a, b = account(store, f"r{secrets.token_hex(4)}"), account(store, f"r{secrets.token_hex(4)}")
        before = store.read(moderation.audit_page_tx, 0, 1, b["id"])["total"]
        with store.engine.begin() as c:
            for call in (
                lambda: moderation.grant_tx(c, None, b["id"], -5000, "too much"),
                lambda: moderation.grant_tx(c, None, b["id"], 0, "nothing"),
                lambda: moderation.set_role_tx(c, None, 10**9, "admin", "nobody"),
                lambda: reports.file_report_tx(c, a["id"], a["id"], "other", ""),
            ):
                with pytest.raises(IllegalAction):
                    call()
            for i in range(reports.PER_HOUR):
                reports.file_report_tx(c, a["id"], b["id"], "other", f"#{i}")
            with pytest.raises(IllegalAction) as e:
                reports.file_report_tx(c, a["id"], b["id"], "other", "one too many")
            assert e.value.code == "too_many_reports"
        assert store.read(moderation.audit_page_tx, 0, 1, b["id"])["total"] == before
        assert store.read(reports.reports_page_tx, "open", 0, 200)["total"] >= reports.PER_HOUR
    finally:
        store.close()


def test_the_command_line_gives_a_role_and_says_so_in_the_audit_log(db_url: str) -> None:  # noqa: F811
    store = Store(db_url, checkpoints=False)
    name = f"c{secrets.token_hex(4)}"
    made = account(store, name)
    store.close()
    r = runner.invoke(app, ["admin", "user", "role", name.upper(), "moderator", "--reason", "helps", "--db", db_url])
    assert r.exit_code == 0 and "is now moderator" in r.output, r.output
    assert runner.invoke(app, ["admin", "user", "role", name, "emperor", "--db", db_url]).exit_code == 2
    assert runner.invoke(app, ["admin", "user", "role", "nobody_at_all", "admin", "--db", db_url]).exit_code == 2
    store = Store(db_url, checkpoints=False)
    try:
        assert store.read(moderation.player_tx, made["id"])["role"] == "moderator"
        (entry,) = store.read(moderation.audit_page_tx, 0, 10, made["id"])["entries"]
        assert entry["actor"] is None and entry["action"] == "role" and entry["reason"] == "helps"
        assert entry["detail"] == {"role": "moderator", "was": "player"}
    finally:
        store.close()
