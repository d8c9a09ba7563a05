"""The people in charge, against a real hall on loopback (SQLite, and PostgreSQL when
PAIJU_TEST_POSTGRES names a server): roles and their refusals, the administrator's kick
踢出 with the seeds' leave penalty (「在游戏开始后，强行退出或被管理员踢出游戏将被扣去40分」),
the room owner's unseat, mute 禁言, ban 封号, closing a room, reports 举报 with their chat
lines, the audit log — and ended sessions closing their open table sockets at once: a
logout, a password change, a ban, and ``paiju admin user disable`` run on the live hall's
database (within the 10 s the hall promises). The cluster's side is test_cluster.py's.
The PostgreSQL run is in ``make test-slow`` (it takes a minute).
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from paiju.cli import app as cli

from .conftest import SQLITE_AND_POSTGRESQL, module_hall
from .harness import Client, Hall, Player, sit_with_bots

PASSWORD = "correct horse"
runner = CliRunner()


@pytest.fixture(scope="module", params=SQLITE_AND_POSTGRESQL)
def hall(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with module_hall(request, tmp_path_factory, "moderated") as h:
        yield h


def unique(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(3)}"  # PostgreSQL's database is shared by the whole suite


def register(hall: Hall, username: str) -> Player:
    with hall.http() as c:
        r = c.post("/api/register", json={"username": username, "password": PASSWORD})
    assert r.status_code == 200, r.text
    p = r.json()["player"]
    return Player(p["id"], p["name"], r.cookies["paiju_token"])


def log_in(hall: Hall, username: str) -> Player:
    with hall.http() as c:
        r = c.post("/api/login", json={"username": username, "password": PASSWORD})
    assert r.status_code == 200, r.text
    p = r.json()["player"]
    return Player(p["id"], p["name"], r.cookies["paiju_token"])


def make_role(hall: Hall, username: str, role: str) -> None:
    """``paiju admin user role`` on the running hall's database."""
    r = runner.invoke(cli, ["admin", "user", "role", username, role, "--db", hall.server.db_url])
    assert r.exit_code == 0, r.output


def staff(hall: Hall, role: str = "admin") -> Player:
    name = unique(role)
    p = register(hall, name)
    make_role(hall, name, role)
    return p


def get(hall: Hall, who: Player | None, path: str) -> httpx.Response:
    with hall.http(who.token if who else None) as c:
        return c.get(path)


def post(hall: Hall, who: Player | None, path: str, body: dict[str, Any]) -> httpx.Response:
    with hall.http(who.token if who else None) as c:
        return c.post(path, json=body)


def closed(client: Client, timeout: float = 5.0) -> dict[str, Any]:
    """The ``closed`` message the hall sent before it closed the connection (which it did)."""
    msg = client.until(lambda m: m["type"] == "closed", timeout)
    client.wait_closed(timeout)
    return msg


def audit(hall: Hall, admin: Player, target: int) -> list[dict[str, Any]]:
    r = get(hall, admin, f"/api/admin/audit?player={target}")
    assert r.status_code == 200, r.text
    return list(r.json()["entries"])


def playing(client: Client) -> dict[str, Any]:
    """Sit at seat 0 with computer players on the others and start: the first update of the hand."""
    sit_with_bots(client)
    client.send({"type": "start"})
    return client.until_update(lambda m: m["room"]["status"] == "playing")


# ---------------------------------------------------------------------------- roles
ADMIN_GETS = ["/api/admin/reports", "/api/admin/users", "/api/admin/rooms", "/api/admin/audit", "/api/admin/users/1"]


def test_admin_requests_need_an_account_with_the_role(hall: Hall) -> None:
    guest = hall.login("nobody special")
    player = register(hall, unique("plain"))
    moderator = staff(hall, "moderator")
    for path in ADMIN_GETS:
        r = get(hall, None, path)
        assert r.status_code == 401 and r.json()["code"] == "not_account", path
        assert get(hall, guest, path).json()["code"] == "not_account", path
        r = get(hall, player, path)
        assert r.status_code == 403 and r.json()["code"] == "not_admin", path
        assert get(hall, moderator, path).status_code in (200, 404), path  # a moderator reads them all
    body = {"reason": "testing", "minutes": 5, "beans": 5, "role": "admin", "room": "x", "seat": 0}
    for path in ("/api/admin/kick", f"/api/admin/users/{player.id}/mute", f"/api/admin/users/{player.id}/ban"):
        assert post(hall, player, path, body).json()["code"] == "not_admin", path
    # a moderator kicks and mutes, but neither bans, grants, gives roles nor closes rooms
    for action in ("ban", "grant", "role"):
        r = post(hall, moderator, f"/api/admin/users/{player.id}/{action}", body)
        assert r.status_code == 403 and r.json()["code"] == "not_admin", action
    assert post(hall, moderator, "/api/admin/close", body).json()["code"] == "not_admin"
    assert audit(hall, staff(hall), player.id) == []  # nothing refused was done, nor written down
    assert get(hall, player, "/api/me").json()["player"]["role"] == "player"
    assert get(hall, moderator, "/api/me").json()["player"]["role"] == "moderator"


def test_bad_input_to_every_admin_request_is_refused_and_changes_nothing(hall: Hall) -> None:
    admin, target = staff(hall), register(hall, unique("target"))
    path = f"/api/admin/users/{target.id}"
    cases = [
        (f"{path}/mute", {"minutes": 5}, "bad_reason"),
        (f"{path}/mute", {"minutes": 5, "reason": " "}, "bad_reason"),
        (f"{path}/mute", {"minutes": 5, "reason": "x" * 201}, "bad_value"),  # past the hall's limit on text
        (f"{path}/mute", {"minutes": -1, "reason": "r"}, "bad_minutes"),
        (f"{path}/mute", {"minutes": "5", "reason": "r"}, "bad_minutes"),
        (f"{path}/ban", {"minutes": 0, "reason": "r"}, "bad_minutes"),
        (f"{path}/ban", {"minutes": True, "reason": "r"}, "bad_minutes"),
        (f"{path}/role", {"role": "emperor", "reason": "r"}, "bad_role"),
        (f"{path}/grant", {"beans": 0, "reason": "r"}, "bad_grant"),
        (f"{path}/grant", {"beans": "9", "reason": "r"}, "bad_grant"),
        (f"{path}/grant", {"beans": -(10**6), "reason": "r"}, "bad_grant"),  # below 0
        ("/api/admin/users/999999999/mute", {"minutes": 5, "reason": "r"}, "no_such_player"),
        ("/api/admin/kick", {"room": "nosuchroom", "seat": 0, "reason": "r"}, "no_such_room"),
        ("/api/admin/kick", {"room": 5, "seat": 0, "reason": "r"}, "bad_value"),
        ("/api/admin/kick", {"room": "x", "seat": "0", "reason": "r"}, "bad_value"),
        ("/api/admin/reports/999999999", {"outcome": "done"}, "no_such_report"),
    ]
    for url, body, code in cases:
        r = post(hall, admin, url, body)
        assert r.status_code in (400, 404), (url, body, r.text)
        assert r.json()["code"] == code, (url, body, r.json())
    r = post(hall, admin, f"{path}/promote", {"reason": "r"})
    assert r.status_code == 404
    with hall.http(admin.token) as c:
        assert c.post(f"{path}/mute", content=b"{nope", headers={"content-type": "application/json"}).status_code == 400
    assert get(hall, admin, "/api/admin/reports?status=maybe").json()["code"] == "bad_value"
    assert get(hall, admin, "/api/admin/users?limit=0").status_code == 400
    assert audit(hall, admin, target.id) == []
    detail = get(hall, admin, path).json()
    assert detail["user"]["muted_until"] is None and detail["user"]["role"] == "player"
    assert not detail["user"]["disabled"]


def test_roles_grants_and_the_audit_log(hall: Hall) -> None:
    admin, target = staff(hall), register(hall, unique("helper"))
    before = get(hall, target, "/api/me").json()["player"]["beans"]
    r = post(hall, admin, f"/api/admin/users/{target.id}/grant", {"beans": 250, "reason": "a tournament prize"})
    assert r.status_code == 200 and r.json() == {"beans": before + 250}
    assert get(hall, target, "/api/me").json()["player"]["beans"] == before + 250
    r = post(hall, admin, f"/api/admin/users/{target.id}/role", {"role": "moderator", "reason": "a trusted player"})
    assert r.status_code == 200
    assert get(hall, target, "/api/admin/reports").status_code == 200  # the role works at once
    entries = audit(hall, admin, target.id)
    assert [e["action"] for e in entries] == ["role", "grant"]  # newest first
    role, grant = entries
    assert role["actor"]["id"] == admin.id and role["reason"] == "a trusted player"
    assert role["detail"] == {"role": "moderator", "was": "player"} and role["target"]["id"] == target.id
    assert grant["detail"]["beans"] == 250 and grant["reason"] == "a tournament prize"
    found = get(hall, admin, f"/api/admin/users?q={target.name[:-2]}").json()["users"]
    assert [u["id"] for u in found] == [target.id] and found[0]["role"] == "moderator"
    detail = get(hall, admin, f"/api/admin/users/{target.id}").json()
    assert detail["ledger"][0] == {**detail["ledger"][0], "amount": 250, "kind": "grant"}
    assert detail["sessions"][0]["address"] == "127.0.0.1" and detail["sessions"][0]["revoked_at"] is None


# ---------------------------------------------------------------------------- kick, unseat, close
def test_an_admin_kicks_a_player_mid_hand_with_the_leave_penalty(hall: Hall) -> None:
    """Mid-hand: the room's leave penalty (40 by default: seeds 000 and 001) as a penalty row
    settled like a leave, 托管 takes the seat, the player's sockets close with the reason, and
    the player may not sit in that room again."""
    admin, victim = staff(hall), register(hall, unique("griefer"))
    rid = hall.create_room(victim)
    watcher = hall.login("watcher")
    with hall.connect(rid, victim) as c, hall.connect(rid, watcher) as w:
        playing(c)
        r = post(hall, admin, "/api/admin/kick", {"room": rid, "seat": 0, "reason": "collusion in hand 1"})
        assert r.status_code == 200 and r.json() == {"ok": True, "penalty": 40}
        msg = closed(c)
        assert msg["code"] == "kicked" and msg["params"] == {"reason": "collusion in hand 1", "penalty": 40}
        assert c.ws.close_code == 4001
        seat = w.until_update(lambda m: m["room"]["seats"][0]["hosted"])["room"]["seats"][0]
        assert seat["hosted_reason"] == "left" and seat["locked"] and seat["player_id"] == victim.id
        assert w.latest_update()["room"]["standings"][0] == -40  # type: ignore[index]
    with hall.connect(rid, victim) as again:  # back as a spectator: the seat stays on 托管, no other seat
        again.until_update(lambda m: True)
        again.send({"type": "hosted", "on": False})  # the bots play on meanwhile: updates come too
        assert again.until(lambda m: m["type"] == "error")["code"] == "hosted_locked"
    kicks = [e for e in audit(hall, admin, victim.id) if e["action"] == "kick"]
    assert kicks and kicks[0]["room"] == rid and kicks[0]["detail"] == {"seat": 0, "penalty": 40}
    assert post(hall, admin, "/api/admin/kick", {"room": rid, "seat": 1, "reason": "r"}).json()["code"] == (
        "nobody_to_kick"  # a computer player's seat
    )


def test_a_kick_before_a_hand_unseats_and_the_player_may_not_sit_again(hall: Hall) -> None:
    admin, owner, victim = staff(hall), hall.login("owner"), hall.login("unwanted")
    rid = hall.create_room(owner)
    with hall.connect(rid, victim) as c:
        c.send({"type": "sit", "seat": 2})
        c.until_update(lambda m: m["seat"] == 2)
        r = post(hall, admin, "/api/admin/kick", {"room": rid, "seat": 2, "reason": "rude name"})
        assert r.status_code == 200 and r.json()["penalty"] is None
        notice = c.until(lambda m: m["type"] == "notice")
        assert notice["params"] == {"by": "admin", "reason": "rude name"} and notice["code"] == "unseated"
        c.until_update(lambda m: m["seat"] is None)
        c.send({"type": "sit", "seat": 3})
        assert c.error()["code"] == "barred"
        c.sync()  # the connection stays open: the player watches
    assert hall.room(rid)["seats"][2]["player_id"] is None


def test_the_room_owner_unseats_between_hands_only(hall: Hall) -> None:
    owner, other = hall.login("owner"), hall.login("slow one")
    rid = hall.create_room(owner)
    with hall.connect(rid, owner) as o, hall.connect(rid, other) as c:
        o.send({"type": "sit", "seat": 0})
        o.until_update(lambda m: m["seat"] == 0)
        c.send({"type": "sit", "seat": 1})
        c.until_update(lambda m: m["seat"] == 1)
        o.until_update(lambda m: m["room"]["seats"][1]["player_id"] == other.id)
        c.send({"type": "unseat", "seat": 0})
        assert c.error()["code"] == "not_room_owner"
        o.send({"type": "unseat", "seat": 2})
        assert o.error()["code"] == "nobody_to_unseat"
        o.send({"type": "unseat", "seat": 0})
        assert o.error()["code"] == "nobody_to_unseat"  # oneself: stand up instead
        o.send({"type": "unseat", "seat": 1})
        notice = c.until(lambda m: m["type"] == "notice")
        assert notice["params"] == {"by": "owner", "reason": ""}
        c.until_update(lambda m: m["seat"] is None)
        c.send({"type": "sit", "seat": 1})  # not barred: the owner only asked for the seat
        c.until_update(lambda m: m["seat"] == 1)
        for s in (2, 3, 4):
            o.send({"type": "bot", "seat": s, "level": "normal"})
        o.send({"type": "ready"})
        c.send({"type": "ready"})
        o.until_update(lambda m: m["room"]["status"] == "playing")
        o.send({"type": "unseat", "seat": 1})
        assert o.until(lambda m: m["type"] == "error")["code"] == "unseat_not_now"


def test_an_admin_closes_a_room(hall: Hall) -> None:
    admin, owner = staff(hall), hall.login("closed down")
    rid = hall.create_room(owner)
    with hall.connect(rid, owner) as c:
        c.until_update(lambda m: True)
        r = post(hall, admin, "/api/admin/close", {"room": rid, "reason": "spam room names"})
        assert r.status_code == 200, r.text
        msg = closed(c)
        assert msg["code"] == "room_closed" and msg["params"] == {"reason": "spam room names"}
        assert c.ws.close_code == 4410
    assert get(hall, owner, f"/api/rooms/{rid}").status_code == 404
    assert rid not in [r["id"] for r in get(hall, admin, "/api/admin/rooms").json()["rooms"]]
    entries = get(hall, admin, "/api/admin/audit?limit=50").json()["entries"]  # written with the closing
    (row,) = [e for e in entries if e["action"] == "close" and e["room"] == rid]
    assert row["reason"] == "spam room names" and row["actor"]["id"] == admin.id


# ---------------------------------------------------------------------------- mute and ban
def test_a_muted_player_cannot_say_anything_until_unmuted(hall: Hall) -> None:
    admin, talker = staff(hall), register(hall, unique("talker"))
    rid = hall.create_room(talker)
    with hall.connect(rid, talker) as c:
        c.until_update(lambda m: True)
        r = post(hall, admin, f"/api/admin/users/{talker.id}/mute", {"minutes": 30, "reason": "insults"})
        assert r.status_code == 200 and r.json()["muted_until"]
        time.sleep(0.3)  # the hall tells the open connection at once; this only waits for the answer to land
        c.send({"type": "say", "phrase": "hurry"})
        e = c.error()
        assert e["code"] == "muted" and e["params"]["minutes"] == 30
        assert get(hall, talker, "/api/me").json()["player"]["muted_until"] is not None
        post(hall, admin, f"/api/admin/users/{talker.id}/mute", {"minutes": 0, "reason": "served"})
        time.sleep(0.3)
        c.send({"type": "say", "phrase": "hurry"})
        assert c.until(lambda m: m["type"] in ("said", "error"))["type"] == "said"
    with hall.connect(rid, talker) as c2:  # a new connection reads the mute from the store
        post(hall, admin, f"/api/admin/users/{talker.id}/mute", {"minutes": 5, "reason": "again"})
        c2.until_update(lambda m: True)
    with hall.connect(rid, talker) as c3:
        c3.until_update(lambda m: True)
        c3.send({"type": "say", "phrase": "hurry"})
        assert c3.error()["code"] == "muted"
    assert [e["action"] for e in audit(hall, admin, talker.id)] == ["mute", "unmute", "mute"]


def test_a_ban_ends_the_sessions_and_their_sockets_until_unbanned(hall: Hall) -> None:
    admin, name = staff(hall), unique("banned")
    banned = register(hall, name)
    rid = hall.create_room(banned)
    with hall.connect(rid, banned) as c:
        c.until_update(lambda m: True)
        t0 = time.monotonic()
        r = post(hall, admin, f"/api/admin/users/{banned.id}/ban", {"minutes": 60, "reason": "cheating"})
        assert r.status_code == 200 and r.json()["banned_until"]
        msg = closed(c, 1.0)  # at once, on this process
        assert time.monotonic() - t0 < 1.5
        assert msg["code"] == "session_ended" and msg["params"] == {"why": "banned"} and c.ws.close_code == 4401
    assert get(hall, banned, "/api/me").json()["player"] is None
    with hall.http() as h:
        r = h.post("/api/login", json={"username": name, "password": PASSWORD})
    assert r.status_code == 403 and r.json()["code"] == "account_disabled"
    assert post(hall, admin, f"/api/admin/users/{admin.id}/ban", {"minutes": 5, "reason": "r"}).status_code == 400
    assert post(hall, admin, f"/api/admin/users/{banned.id}/unban", {"reason": "appeal"}).status_code == 200
    log_in(hall, name)


# ---------------------------------------------------------------------------- sessions that end
@contextlib.contextmanager
def two_sessions_at_a_table(hall: Hall) -> Iterator[tuple[Player, Client, Client]]:
    """One account logged in twice, each session with a socket open at the same table."""
    name = unique("two_tabs")
    first = register(hall, name)
    second = log_in(hall, name)
    rid = hall.create_room(first)
    with hall.connect(rid, first) as a, hall.connect(rid, second) as b:
        a.until_update(lambda m: True)
        b.until_update(lambda m: True)
        yield first, a, b


def test_a_logout_closes_that_sessions_sockets_only(hall: Hall) -> None:
    with two_sessions_at_a_table(hall) as (first, a, b):
        t0 = time.monotonic()
        assert post(hall, first, "/api/logout", {}).status_code == 200
        msg = closed(a, 1.0)
        assert time.monotonic() - t0 < 1.5 and msg["params"] == {"why": "logout"}
        b.sync()  # the other session plays on


def test_a_password_change_closes_every_other_sessions_sockets(hall: Hall) -> None:
    with two_sessions_at_a_table(hall) as (first, a, b):
        r = post(hall, first, "/api/password", {"old": PASSWORD, "new": "a new secret"})
        assert r.status_code == 200
        assert closed(b, 1.0)["params"] == {"why": "password"}
        a.sync()  # the session that changed it stays


def test_disabling_on_the_command_line_ends_the_live_halls_sockets(hall: Hall) -> None:
    """``paiju admin user disable`` writes the database only; the hall notices within 10 s."""
    name = unique("disabled")
    p = register(hall, name)
    rid = hall.create_room(p)
    with hall.connect(rid, p) as c:
        c.until_update(lambda m: True)
        t0 = time.monotonic()
        r = runner.invoke(cli, ["admin", "user", "disable", name, "--db", hall.server.db_url])
        assert r.exit_code == 0, r.output
        msg = closed(c, 10.0)
        assert msg["params"] == {"why": "disabled"} and time.monotonic() - t0 < 10.0


# ---------------------------------------------------------------------------- reports
def test_a_report_from_the_table_keeps_the_room_the_hand_and_the_chat(hall: Hall) -> None:
    admin, reporter, rude = staff(hall), hall.login("reporter"), hall.login("rude one")
    rid = hall.create_room(reporter, {"chat": True})
    with hall.connect(rid, reporter) as a, hall.connect(rid, rude) as b:
        a.send({"type": "sit", "seat": 0})
        a.until_update(lambda m: m["seat"] == 0)
        b.send({"type": "sit", "seat": 1})
        b.until_update(lambda m: m["seat"] == 1)
        b.send({"type": "say", "text": "you play like a potato"})
        a.until(lambda m: m["type"] == "said")
        for bad, code in (({"seat": 0}, "report_self"), ({"seat": 3}, "nobody_to_report")):
            a.send({"type": "report", "reason": "abuse", "text": "", **bad})
            assert a.error()["code"] == code
        a.send({"type": "report", "seat": 1, "reason": "abuse", "text": "insults in chat", "id": "r1"})
        got = a.until(lambda m: m["type"] == "reported")
        assert got["id"] == "r1" and isinstance(got["report"], int)
        assert not [m for m in b.sync() if "report" in m["type"]]  # the reported is not told
    reports = get(hall, admin, "/api/admin/reports").json()["reports"]
    mine = next(r for r in reports if r["id"] == got["report"])
    assert mine["reporter"]["id"] == reporter.id and mine["reported"]["id"] == rude.id
    assert mine["room"] == rid and mine["hand"] is None and mine["reason"] == "abuse" and mine["status"] == "open"
    assert [line["text"] for line in mine["chat"]] == ["you play like a potato"] and mine["chat"][0]["seat"] == 1
    r = post(hall, admin, f"/api/admin/reports/{got['report']}", {"outcome": "muted for a day"})
    assert r.status_code == 200 and r.json()["report"]["status"] == "closed"
    assert r.json()["report"]["handled_by"]["id"] == admin.id
    assert post(hall, admin, f"/api/admin/reports/{got['report']}", {"outcome": "again"}).json()["code"] == (
        "report_closed"
    )
    assert got["report"] not in [r["id"] for r in get(hall, admin, "/api/admin/reports").json()["reports"]]
    assert any(e["action"] == "report" for e in audit(hall, admin, rude.id))


def test_reports_from_a_profile_are_limited_per_hour(hall: Hall) -> None:
    reporter, other = hall.login("eager reporter"), hall.login("reported")
    for i in range(5):
        r = post(hall, reporter, "/api/reports", {"player": other.id, "reason": "stalling", "text": f"#{i}"})
        assert r.status_code == 200, r.text
    r = post(hall, reporter, "/api/reports", {"player": other.id, "reason": "stalling", "text": "six"})
    assert r.status_code == 429 and r.json()["code"] == "too_many_reports"
    for body, code in (
        ({"player": other.id, "reason": "ugly", "text": ""}, "bad_report_reason"),
        ({"player": other.id, "reason": "other", "text": "x" * 201}, "bad_value"),  # the hall's limit on text
        ({"player": other.id, "reason": "other", "text": 5}, "bad_report_text"),
        ({"player": "1", "reason": "other"}, "bad_value"),
        ({"player": 999999999, "reason": "other"}, "no_such_player"),
    ):
        assert post(hall, hall.login("another"), "/api/reports", body).json()["code"] == code, body
    assert post(hall, None, "/api/reports", {"player": other.id, "reason": "other"}).status_code == 401
