"""Requests from the hall's own pages only (docs/protocol.md): table connections from
another site are refused, cross-site forms neither log in nor rename, and every answer
carries the security headers.
"""

from __future__ import annotations

import contextlib

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from .harness import Client, Hall, guest_me

# ====================================================================== 3. origin and CSRF
FOREIGN = "http://127.0.0.1:1"  # another port of the same host: another site


def ws_as(hall: Hall, rid: str, headers: dict[str, str]) -> Client:
    """A table connection with exactly these headers (no Origin unless they have one)."""
    return Client(f"{hall.server.ws_url}/ws/{rid}", headers=headers)


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": FOREIGN},
        {"Origin": "http://evil.example"},
        {"Origin": "null"},  # a sandboxed frame or a file
        {},  # no Origin and no Referer: the hall cannot tell which page sent it
        {"Referer": FOREIGN + "/attack.html"},
    ],
    ids=["other-port", "other-host", "null", "none", "foreign-referer"],
)
def test_a_websocket_from_another_page_with_the_victims_cookie_is_refused_and_seats_nobody(
    hall: Hall, headers: dict[str, str]
) -> None:
    """Issue: cross-site WebSocket hijacking — the table endpoint never checked Origin. A
    page of another site opens the table with the visitor's cookie: an error, close code
    4403, and the victim is neither seated nor watching."""
    victim = hall.login("victim")
    rid = hall.create_room(victim)
    before = hall.room(rid)
    attack = ws_as(hall, rid, {"Cookie": f"paiju_token={victim.token}", **headers})
    with contextlib.suppress(ConnectionClosed):
        attack.send({"type": "sit", "seat": 0})  # what the attacker's page would send at once
    msg = attack.next()
    assert msg["type"] == "error" and "own pages" in msg["error"], msg
    attack.wait_closed()
    assert attack.ws.close_code == 4403
    assert [m["type"] for m in attack.messages] == ["error"]  # no hello: it never was at the table
    attack.close()
    assert hall.room(rid) == before


@pytest.mark.parametrize(
    "headers",
    [{"Origin": "SELF"}, {"Referer": "SELF/#/room"}, {"X-Paiju-Token": "TOKEN"}],
    ids=["own-origin", "own-referer-no-origin", "token-header-no-origin"],
)
def test_a_websocket_from_the_halls_own_page_or_a_program_is_accepted(hall: Hall, headers: dict[str, str]) -> None:
    """The decisions of origin.py besides: the hall's own Origin, or lacking one its own
    Referer, is accepted; so is a client sending its token in X-Paiju-Token (a program: a
    page of another site cannot set that header without a preflight the hall never grants)."""
    p = hall.login("member")
    rid = hall.create_room(p)
    sent = {k: v.replace("SELF", hall.url).replace("TOKEN", p.token) for k, v in headers.items()}
    with ws_as(hall, rid, {"Cookie": f"paiju_token={p.token}", **sent}) as c:
        hello = c.next()
        assert hello["type"] == "hello" and hello["player"]["id"] == p.id


def test_login_csrf_a_cross_site_form_neither_logs_in_nor_renames(hall: Hall) -> None:
    """Issue: /api/login accepted any Content-Type. An HTML form of another site can post
    text/plain (``{"name": "attacker"}`` as its one field), urlencoded or multipart bodies
    with the visitor's cookie: every one is refused (415, or 403 for a foreign Origin), no
    cookie is set or replaced, and the visitor keeps their name."""
    victim = hall.login("victim")
    body = '{"name": "attacker"}'
    cases: list[tuple[dict[str, str], str | bytes, int]] = [
        ({"Content-Type": "text/plain"}, body, 415),
        ({"Content-Type": "application/x-www-form-urlencoded"}, "name=attacker", 415),
        (
            {"Content-Type": "multipart/form-data; boundary=b"},
            b"--b\r\nContent-Disposition: form-data; name=x\r\n\r\n{}\r\n--b--\r\n",
            415,
        ),
        ({"Content-Type": "application/json", "Origin": FOREIGN}, body, 403),
        ({"Content-Type": "text/plain", "Origin": FOREIGN}, body, 403),
    ]
    for token in (victim.token, None):  # rename the victim / log the visitor in as somebody else
        for headers, content, status in cases:
            with hall.http(token) as c:
                r = c.post("/api/login", content=content, headers=headers)
            assert r.status_code == status and r.json()["error"], (headers, r.status_code, r.text)
            assert "set-cookie" not in r.headers, headers
    with httpx.Client(base_url=hall.url, cookies={"paiju_token": victim.token}) as c:  # no Origin nor Referer
        r = c.post("/api/login", json={"name": "attacker"})
        assert r.status_code == 403 and "set-cookie" not in r.headers
    with hall.http(victim.token) as c:
        assert guest_me(c.get("/api/me").json()) == (victim.id, "victim")
        # the same requests that create rooms are refused alike
        before = c.get("/api/rooms?limit=200").json()["total"]
        for headers, status in (({"Content-Type": "text/plain"}, 415), ({"Origin": FOREIGN}, 403)):
            r = c.post(
                "/api/rooms", content='{"name": "spam"}', headers={"Content-Type": "application/json", **headers}
            )
            assert r.status_code == status, r.text
        assert c.get("/api/rooms?limit=200").json()["total"] == before
    # a program sending its token in the header needs no Origin
    with httpx.Client(base_url=hall.url) as c:
        r = c.post("/api/login", json={"name": "victim2"}, headers={"X-Paiju-Token": victim.token})
        assert r.status_code == 200 and r.json()["player"]["id"] == victim.id


def test_every_answer_carries_the_security_headers(hall: Hall) -> None:
    """Issue: no CSP, X-Frame-Options or nosniff. Pages, scripts and API answers (errors
    too) carry a CSP without inline script and with frame-ancestors 'none', X-Frame-Options
    DENY, nosniff and a Referrer-Policy; the page itself has no inline script."""
    p = hall.login("headers")
    with hall.http(p.token) as c:
        answers = [
            c.get("/"),
            c.get("/static/app.js"),
            c.get("/api/me"),
            c.get("/api/games"),
            c.get("/api/rooms"),
            c.get("/api/rooms/no-such-room"),
            c.post("/api/login", json={"name": "x"}, headers={"Origin": FOREIGN}),
            c.post("/api/login", content="x", headers={"Content-Type": "text/plain"}),
        ]
    assert [r.status_code for r in answers] == [200, 200, 200, 200, 200, 404, 403, 415]
    for r in answers:
        where = f"{r.request.method} {r.request.url.path}"
        policy = {
            d.split()[0]: d.split()[1:] for d in r.headers.get("content-security-policy", "").split(";") if d.strip()
        }
        scripts = policy.get("script-src", policy.get("default-src"))
        assert scripts and "'self'" in scripts and "'unsafe-inline'" not in scripts, (where, policy)
        assert policy.get("frame-ancestors") == ["'none'"], where
        assert r.headers.get("x-frame-options") == "DENY", where
        assert r.headers.get("x-content-type-options") == "nosniff", where
        assert r.headers.get("referrer-policy") == "same-origin", where
    page = answers[0].text
    assert "<script" in page
    for tag in page.split("<script")[1:]:
        assert " src=" in tag.split(">")[0] and tag.split(">", 1)[1].lstrip().startswith("</script"), tag[:200]
    assert " onload=" not in page and " onclick=" not in page and "javascript:" not in page
