"""Every HTTP route against hostile path and query parameters (issue 34 item 2): the
routes are enumerated from the app itself, so a new route is fuzzed as soon as it exists.
An id past 64 bits, a NUL, digits of another script: a 4xx with a reason, never a 500.
A small fuzz in make test (SQLite, and PostgreSQL when PAIJU_TEST_POSTGRES names one); the
whole cross product in make test-slow."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator

import httpx
import pytest
from starlette.routing import Route
from typer.testing import CliRunner

from paiju.cli import app as cli
from paiju.server.web.app import create_app

from .conftest import module_hall
from .harness import Hall

QUERY_NAMES = ("offset", "limit", "seat", "game", "by", "options", "player", "q", "status")
WORST = [str(2**64), "-1", "%00", "٣"]  # past 64 bits, negative, NUL, Arabic-Indic 3
MORE = ["1_0", "0", str(2**63), "9" * 40, "1e3", "x" * 300, "%F0%9F%80%84", "%ED%A0%80", "..%2F..", ""]
PARAM = re.compile(r"{(\w+)(?::\w+)?}")


def routes() -> list[tuple[str, str]]:
    """(method, path template) of every HTTP route of the app."""
    app = create_app("sqlite:///:memory:")
    out = []
    for r in app.routes:
        if isinstance(r, Route):
            out += [(m, r.path) for m in sorted(r.methods or ()) if m != "HEAD"]
    return out


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def fuzzed(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Hall, str]]:
    """A hall, and an administrator's token (so the admin routes read their parameters)."""
    with module_hall(request, tmp_path_factory, "fuzzed") as hall:
        name = f"fuzz_admin_{secrets.token_hex(3)}"
        with hall.http() as c:
            r = c.post("/api/register", json={"username": name, "password": "correct horse"})
        assert r.status_code == 200, r.text
        got = CliRunner().invoke(cli, ["admin", "user", "role", name, "admin", "--db", hall.server.db_url])
        assert got.exit_code == 0, got.output
        yield hall, r.cookies["paiju_token"]


def sensible(name: str, room: str) -> str:
    return room if name == "room" else "baohuang" if name == "game" else "1"


def fill(template: str, value: str, room: str) -> Iterator[str]:
    """The path with each parameter in turn set to ``value`` (the others sensible)."""
    for name in PARAM.findall(template):
        yield PARAM.sub(lambda m, name=name: value if m[1] == name else sensible(m[1], room), template)


def requests(values: list[str], room: str, cross: bool) -> Iterator[tuple[str, str]]:
    for method, template in routes():
        if template == "/api/logout":  # it reads no parameter, and would end the fuzzer's session
            continue
        for value in values:
            yield from ((method, p) for p in fill(template, value, room))
            base = PARAM.sub(lambda m: sensible(m[1], room), template)
            yield method, base + "?" + "&".join(f"{n}={value}" for n in QUERY_NAMES)  # all at once
            names = QUERY_NAMES if cross else ("limit", "seat")  # offset: checked first in the all-at-once
            yield from ((method, f"{base}?{n}={value}") for n in names)  # one by one


def fuzz(hall: Hall, token: str, values: list[str], cross: bool) -> None:
    with hall.http(token) as c:
        r = c.post("/api/rooms", json={"game": "baohuang"})
        assert r.status_code == 200, r.text
        room = r.json()["id"]
    failures = []
    c = hall.http(token)
    try:
        for method, path in requests(values, room, cross):
            try:
                got = c.request(method, path, json={})
            except httpx.InvalidURL:
                continue  # not a URL at all: no client sends it
            except httpx.TransportError as e:  # the hall dropped the connection (after a 500)
                failures.append(f"{method} {path}: {e!r}")
                c.close()
                c = hall.http(token)
                continue
            if got.status_code >= 500:
                failures.append(f"{method} {path}: {got.status_code} {got.text[:200]}")
    finally:
        c.close()
    assert not failures, "\n".join(failures[:20])


def test_no_route_answers_500_to_hostile_parameters(fuzzed: tuple[Hall, str]) -> None:
    """Issue 34 item 2: GET /api/players/{id} past 64 bits answered 500 (SQLite's
    OverflowError). Every id, offset and limit is range-checked: 400 ``bad_param``."""
    hall, token = fuzzed
    fuzz(hall, token, WORST, cross=False)
    with hall.http(token) as c:
        for path in (f"/api/players/{2**64}", f"/api/players/1?offset={2**64}", "/api/rooms?limit=٣"):
            r = c.get(path)
            assert r.status_code == 400 and r.json()["code"] == "bad_param", (path, r.text)


@pytest.mark.slow
def test_every_route_with_every_hostile_value(fuzzed: tuple[Hall, str]) -> None:
    hall, token = fuzzed
    fuzz(hall, token, WORST + MORE, cross=True)


def test_routes_are_enumerated() -> None:
    """The fuzz reaches the routes that take ids (a change to the app's routing that hid
    them would make it pass for nothing)."""
    paths = {p for _, p in routes()}
    assert {"/api/players/{player}", "/api/rooms/{room}/hands/{number:int}/replay"} <= paths
    assert "/api/admin/users/{player:int}" in paths and len(paths) > 25


FORMS: list[tuple[dict[str, str], str | bytes]] = [
    ({"Content-Type": "text/plain"}, '{"name": "attacker"}'),
    ({"Content-Type": "application/x-www-form-urlencoded"}, "name=attacker"),
    (
        {"Content-Type": "multipart/form-data; boundary=b"},
        b"--b\r\nContent-Disposition: form-data; name=x\r\n\r\n{}\r\n--b--\r\n",
    ),
    ({}, b""),  # no type at all
]


def test_every_state_changing_route_takes_json_only(fuzzed: tuple[Hall, str]) -> None:
    """Issue 34 item 3: POST /api/logout and /api/relief took text/plain, form and multipart
    bodies (what an HTML form of another site sends) where every other write answered 415.
    One rule, for every route but GET's (enumerated: a new route cannot forget it)."""
    hall, token = fuzzed
    writes = [(m, p) for m, p in routes() if m not in ("GET", "HEAD", "OPTIONS")]
    assert ("POST", "/api/logout") in writes and ("POST", "/api/relief") in writes
    with hall.http(token) as c:
        for method, template in writes:
            path = PARAM.sub(lambda m: "baohuang" if m[1] == "game" else "1", template)
            for headers, content in FORMS:
                r = c.request(method, path, content=content, headers=headers)
                assert r.status_code == 415 and r.json()["code"] == "json_only", (method, path, headers, r.text)
        assert c.get("/api/me").json()["player"] is not None  # the session was never ended
