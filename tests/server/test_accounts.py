"""Accounts, sessions, beans, results and ratings against a real hall on loopback.

Register, log in and out, change the password (other sessions end), failed logins
limited per name and per address, user names unique after normalization, a guest who
registers keeps its player and its hands, cross-site forms refused; a hand played by two
accounts and three bots settles its beans in the hand's own transaction (the ledger sums
to the balances, the hand's beans to 0, bots and guests move none), changes the ratings
and shows on the profiles and the leaderboard; the room's minimum beans keep guests and
poor accounts off its seats; relief once a day; the own multiplier between hands. The
whole flow runs on PostgreSQL too when PAIJU_TEST_POSTGRES names a server.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from paiju.server.accounts.settlement import hand_beans

from .harness import Hall, Player, ServerProcess, act_policy, first_legal, sit_with_bots

PG = os.environ.get("PAIJU_TEST_POSTGRES")
PASSWORD = "correct horse"


def register(hall: Hall, username: str, password: str = PASSWORD, token: str | None = None, **kw: Any) -> Player:
    with hall.http(token) as c:
        r = c.post("/api/register", json={"username": username, "password": password, **kw})
    assert r.status_code == 200, r.text
    p = r.json()["player"]
    return Player(p["id"], p["name"], r.cookies.get("paiju_token") or token or "")


def login(hall: Hall, username: str, password: str = PASSWORD) -> httpx.Response:
    with hall.http() as c:
        return c.post("/api/login", json={"username": username, "password": password})


def me(hall: Hall, token: str) -> dict[str, Any] | None:
    with hall.http(token) as c:
        r = c.get("/api/me")
    assert r.status_code == 200
    return r.json()["player"]  # type: ignore[no-any-return]


def post(hall: Hall, token: str | None, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
    with hall.http(token) as c:
        return c.post(path, json=body or {})


# ---------------------------------------------------------------------------- accounts
def test_register_log_in_and_out(hall: Hall) -> None:
    with hall.http() as c:
        r = c.post("/api/register", json={"username": "Mei_Lin", "password": PASSWORD, "name": "美琳"})
    assert r.status_code == 200, r.text
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie  # plain http here
    token = r.cookies["paiju_token"]
    got = me(hall, token)
    assert got is not None
    assert got["username"] == "mei_lin" and got["name"] == "美琳" and not got["guest"] and got["beans"] == 1000
    r = login(hall, "MEI_lin")  # the name is normalized: case does not matter
    assert r.status_code == 200, r.text
    second = r.cookies["paiju_token"]
    assert second != token and me(hall, second)["id"] == got["id"]  # type: ignore[index]
    r = post(hall, token, "/api/logout")
    assert r.status_code == 200 and me(hall, token) is None  # that session is over for good
    assert me(hall, second) is not None  # the other one is not


def test_behind_https_the_cookie_is_secure(hall: Hall) -> None:
    """A proxy on loopback that says the page came over https (X-Forwarded-Proto, which
    uvicorn trusts from 127.0.0.1): the session cookie is Secure, never sent in clear."""
    with hall.http() as c:
        r = c.post(
            "/api/register",
            json={"username": "behind_tls", "password": PASSWORD},
            headers={"X-Forwarded-Proto": "https", "Origin": hall.url.replace("http://", "https://")},  # its page's
        )
    assert r.status_code == 200, r.text
    cookie = r.headers["set-cookie"].lower()
    assert "secure" in cookie and "httponly" in cookie and "samesite=lax" in cookie


def test_user_names_are_unique_after_normalization(hall: Hall) -> None:
    register(hall, "Wang_Fang")
    for same in ("wang_fang", "ＷＡＮＧ_ｆａｎｇ"):  # case and full-width forms are the same name
        with hall.http() as c:
            r = c.post("/api/register", json={"username": same, "password": PASSWORD})
        assert r.status_code == 409 and r.json()["code"] == "username_taken", r.text
    for bad, code in (("a", "bad_username"), ("has space", "bad_username"), ("x" * 21, "bad_username")):
        with hall.http() as c:
            r = c.post("/api/register", json={"username": bad, "password": PASSWORD})
        assert r.status_code == 400 and r.json()["code"] == code
    with hall.http() as c:
        r = c.post("/api/register", json={"username": "shortpw", "password": "1234567"})
    assert r.status_code == 400 and r.json()["code"] == "bad_password" and r.json()["params"]["min"] == 8


def test_wrong_passwords_are_limited_per_name_and_the_right_one_waits_too(hall: Hall) -> None:
    register(hall, "limited")
    for _ in range(5):
        r = login(hall, "limited", "wrong password")
        assert r.status_code == 401 and r.json()["code"] == "wrong_login"
    r = login(hall, "limited")  # the right password, too late: the name is locked for a while
    assert r.status_code == 429 and r.json()["code"] == "login_too_fast" and r.json()["params"]["seconds"] > 0
    r = login(hall, "nobody-here", "whatever1")  # an unknown name answers like a wrong password
    assert r.status_code == 401 and r.json()["code"] == "wrong_login"


def test_failed_logins_are_limited_per_address(make_server: Callable[..., ServerProcess]) -> None:
    hall = Hall(make_server())
    names = [f"addr{i}" for i in range(25)]
    register(hall, names[0])
    codes = [login(hall, n, "wrong password").status_code for n in names]  # a different name each time
    assert codes[:20] == [401] * 20 and set(codes[20:]) == {429}


def test_a_new_password_ends_the_other_sessions(hall: Hall) -> None:
    p = register(hall, "changer")
    other = login(hall, "changer").cookies["paiju_token"]
    r = post(hall, p.token, "/api/password", {"old": "not it at all", "new": "a new secret"})
    assert r.status_code == 401 and r.json()["code"] == "wrong_login"
    r = post(hall, p.token, "/api/password", {"old": PASSWORD, "new": "a new secret"})
    assert r.status_code == 200, r.text
    assert me(hall, p.token) is not None and me(hall, other) is None
    assert login(hall, "changer").status_code == 401
    assert login(hall, "changer", "a new secret").status_code == 200


def test_cross_site_forms_are_refused(hall: Hall) -> None:
    register(hall, "csrf_target")
    for path, body in (
        ("/api/login", {"username": "csrf_target", "password": PASSWORD}),
        ("/api/register", {"username": "csrf_new", "password": PASSWORD}),
        ("/api/logout", {}),
        ("/api/password", {"old": PASSWORD, "new": "x" * 10}),
    ):
        r = httpx.post(hall.url + path, json=body, headers={"Origin": "https://evil.example"})
        assert r.status_code == 403, (path, r.text)
    r = httpx.post(hall.url + "/api/login", data={"username": "csrf_target", "password": PASSWORD},
                   headers={"Origin": hall.url})  # fmt: skip
    assert r.status_code == 415  # a form post is never taken: JSON only


# ---------------------------------------------------------------------------- a hand for beans
def play_a_hand(hall: Hall, players: list[Player], options: dict[str, Any] | None = None) -> dict[str, Any]:
    """``players`` at seats 0.., computer players on the other seats; one whole Baohuang hand."""
    rid = hall.create_room(players[0], options or {})
    clients = [hall.connect(rid, p, policy=act_policy(first_legal)) for p in players]
    try:
        humans = tuple(range(1, len(players)))
        sit_with_bots(clients[0], humans=humans)
        for seat, c in enumerate(clients[1:], 1):
            c.send({"type": "sit", "seat": seat})
            c.until_update(lambda m, seat=seat: m["seat"] == seat)
        for c in clients:
            c.send({"type": "ready"})
        over = clients[0].until_update(lambda m: bool(m["room"]["hands"]), 120)
        return {"rid": rid, "room": over["room"]}
    finally:
        for c in clients:
            c.close()


def profile(hall: Hall, pid: int, **params: Any) -> dict[str, Any]:
    with hall.http() as c:
        r = c.get(f"/api/players/{pid}", params=params)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def check_a_hand_for_beans(hall: Hall) -> None:
    a, b = register(hall, f"bean_a{os.getpid()}"), register(hall, f"bean_b{os.getpid()}")
    guest = hall.login("bean guest")
    options = {"bean_multiplier": 10, "table_multiplier": 2, "one_per_address": False}  # a and b: loopback both
    got = play_a_hand(hall, [a, b, guest], options)
    entry = got["room"]["hands"][0]
    scores = entry["scores"]
    expected = hand_beans(
        scores, [True, True, False, False, False], [1000, 1000, 0, 0, 0], room_multiplier=10, table_multiplier=2,
        own=[1] * 5,
    )  # fmt: skip
    assert sum(expected) == 0 and entry["beans"] == [*expected[:2], 0, 0, 0]  # the guest and bots hold none
    assert ledger_balances(hall)  # every hand's rows, with the house's, sum to 0
    for pid, seat in ((a.id, 0), (b.id, 1)):
        prof = profile(hall, pid)
        assert prof["player"]["beans"] == 1000 + expected[seat]
        assert prof["beans_history"][-1][1] == prof["player"]["beans"]  # the ledger sums to the balance
        item = prof["hands"]["items"][0]
        assert item["beans"] == expected[seat] and item["score"] == scores[seat] and item["seat"] == seat
        assert item["record"] == f"/api/rooms/{got['rid']}/hands/1"
        baohuang = prof["games"]["baohuang"]
        assert baohuang["hands"] == 1 and baohuang["points"] == scores[seat] and baohuang["rating"] is not None
        assert sum(r["played"] for r in baohuang["roles"].values()) == 1
    g = profile(hall, guest.id)
    assert g["player"]["guest"] and g["player"]["beans"] is None and g["hands"]["items"][0]["beans"] == 0
    ratings = [profile(hall, p.id)["games"]["baohuang"]["rating"] for p in (a, b, guest)]
    assert all(r is not None and r != 0 for r in ratings)  # everyone's rating moved off the start
    with hall.http() as c:
        board = c.get("/api/leaderboard", params={"game": "baohuang", "by": "beans", "limit": 200}).json()
    ids = [row["id"] for row in board["rows"]]
    assert a.id in ids and b.id in ids and guest.id not in ids  # beans: accounts only
    assert [row["beans"] for row in board["rows"]] == sorted((row["beans"] for row in board["rows"]), reverse=True)


def ledger_balances(hall: Hall) -> bool:
    """The store's ledger: the rows of hands, penalties and the house sum to 0 (only the
    starting beans, relief and grants make beans), and no balance is below 0."""
    from sqlalchemy import func, select

    from paiju.server.store.db import Store, ledger

    store = Store(hall.server.db_url, run_migrations=False, checkpoints=False)
    try:
        with store.engine.connect() as c:
            moved = c.execute(
                select(func.coalesce(func.sum(ledger.c.amount), 0)).where(
                    ledger.c.kind.in_(("hand", "house", "penalty"))
                )
            ).scalar_one()
            lowest = c.execute(
                select(func.min(select(func.sum(ledger.c.amount)).where(ledger.c.player_id.is_not(None))
                                .group_by(ledger.c.player_id).subquery().c[0]))
            ).scalar_one()  # fmt: skip
    finally:
        store.close()
    assert moved == 0, f"hands and penalties made or lost {moved} beans"
    assert lowest is None or lowest >= 0, f"a balance is {lowest}"
    return True


def test_a_hand_settles_beans_of_accounts_the_house_standing_in_for_guests_and_bots(hall: Hall) -> None:
    check_a_hand_for_beans(hall)


@pytest.mark.skipif(not PG, reason="needs PAIJU_TEST_POSTGRES (a PostgreSQL URL; .ci/run starts one)")
@pytest.mark.slow  # the PostgreSQL run of the accounts: ~11 s (make test-slow)
def test_accounts_and_beans_on_postgresql(make_server: Callable[..., ServerProcess]) -> None:
    assert PG is not None
    hall = Hall(make_server(db_url=PG))
    check_a_hand_for_beans(hall)
    p = register(hall, f"pg_pw{os.getpid()}")
    assert post(hall, p.token, "/api/password", {"old": PASSWORD, "new": "another one"}).status_code == 200
    assert login(hall, f"pg_pw{os.getpid()}", "another one").status_code == 200


def test_a_guest_who_registers_keeps_its_player_and_its_hands(hall: Hall) -> None:
    guest = hall.login("soon an account")
    play_a_hand(hall, [guest])
    before = profile(hall, guest.id)
    assert before["hands"]["total"] == 1 and before["player"]["guest"]
    p = register(hall, "was_a_guest", token=guest.token)
    assert p.id == guest.id
    after = profile(hall, guest.id)
    assert not after["player"]["guest"] and after["player"]["beans"] == 1000
    assert after["hands"]["items"] == before["hands"]["items"]
    assert me(hall, p.token)["username"] == "was_a_guest"  # type: ignore[index]
    assert me(hall, guest.token) is None  # registering ends the guest's session (issue 34)
    r = post(hall, p.token, "/api/register", {"username": "twice_over", "password": PASSWORD})
    assert r.status_code == 400 and r.json()["code"] == "already_account"


def test_minimum_beans_keep_guests_and_poor_accounts_off_the_seats(hall: Hall) -> None:
    rich = register(hall, "rich_one")
    rid = hall.create_room(rich, {"min_beans": 1000})
    guest = hall.login("poor guest")
    with hall.connect(rid, guest) as c:
        c.until_update(lambda m: True)  # the room as it is on connecting
        c.send({"type": "sit", "seat": 0})
        e = c.error()
        assert e["code"] == "too_few_beans" and e["params"] == {"min": 1000, "beans": 0}
    with hall.connect(rid, rich) as c:
        c.send({"type": "sit", "seat": 0})
        m = c.until_update(lambda m: m["seat"] == 0)
        s = m["room"]["seats"][0]
        assert s["beans"] == 1000 and s["guest"] is False and s["title"]["level"] == 1 and s["player_id"] == rich.id
        assert m["room"]["beans"]["min_beans"] == 1000


def test_relief_once_a_day_under_the_threshold(make_server: Callable[..., ServerProcess]) -> None:
    hall = Hall(make_server(args=["--start-beans", "50", "--relief-below", "200", "--relief", "300"]))
    p = register(hall, "poor_one")
    assert me(hall, p.token)["relief_due"] is True  # type: ignore[index]
    r = post(hall, p.token, "/api/relief")
    assert r.status_code == 200 and r.json() == {"beans": 350}
    r = post(hall, p.token, "/api/relief")
    assert r.status_code == 400 and r.json()["code"] == "no_relief"
    assert me(hall, p.token)["beans"] == 350 and me(hall, p.token)["relief_due"] is False  # type: ignore[index]
    guest = hall.login("no relief for guests")
    assert post(hall, guest.token, "/api/relief").json()["code"] == "not_account"


def test_the_own_multiplier_is_set_between_hands_where_the_room_allows_it(hall: Hall) -> None:
    p = register(hall, "own_mult")
    rid = hall.create_room(p, {"own_multiplier": True})
    with hall.connect(rid, p) as c:
        sit_with_bots(c)
        c.send({"type": "own", "value": 3})
        m = c.until_update(lambda m: m["room"]["seats"][0]["own"] == 3)
        assert m["room"]["beans"]["own_multiplier"] is True
        c.send({"type": "own", "value": 5})
        assert c.error()["code"] == "bad_message"  # the schema allows 1-4
    plain = hall.create_room(p)
    with hall.connect(plain, p) as c:
        sit_with_bots(c)
        c.send({"type": "own", "value": 2})
        assert c.error()["code"] == "bad_own_multiplier"


def test_leaderboard_pages_and_refuses_bad_queries(hall: Hall) -> None:
    with hall.http() as c:
        assert c.get("/api/leaderboard", params={"game": "chess"}).status_code == 400
        assert c.get("/api/leaderboard", params={"game": "baohuang", "by": "luck"}).status_code == 400
        assert c.get("/api/leaderboard", params={"game": "baohuang", "limit": 0}).status_code == 400
        first = c.get("/api/leaderboard", params={"game": "baohuang", "limit": 1}).json()
        assert first["limit"] == 1 and len(first["rows"]) <= 1 and first["rows"][0]["rank"] == 1
        if first["total"] > 1:
            second = c.get("/api/leaderboard", params={"game": "baohuang", "limit": 1, "offset": 1}).json()
            assert second["rows"][0]["rank"] == 2 and second["rows"][0]["id"] != first["rows"][0]["id"]
        assert c.get("/api/players/999999").status_code == 404


def test_a_disabled_account_cannot_log_in_and_its_sessions_end(make_server: Callable[..., ServerProcess]) -> None:
    server = make_server()
    hall = Hall(server)
    p = register(hall, "to_disable")
    from paiju.server.accounts import users as accounts
    from paiju.server.store.db import Store

    store = Store(server.db_url, checkpoints=False)
    try:
        with store.engine.begin() as c:
            accounts.set_disabled_tx(c, p.id, True)
    finally:
        store.close()
    assert me(hall, p.token) is None
    r = login(hall, "to_disable")
    assert r.status_code == 403 and r.json()["code"] == "account_disabled"
