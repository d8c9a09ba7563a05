"""Accounts under attack (issue 34): login limits that hold under concurrency, password
hashing that never keeps a session lookup waiting, a guest's cookie that ends when the
guest registers. On a hall served in the test process (fast; no timed asserts)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx
import pytest

from paiju.server.accounts import hashing, users

from .conftest import InProcess

PASSWORD = "correct horse"


def _client(hall: InProcess, token: str | None = None) -> httpx.AsyncClient:
    cookies = {"paiju_token": token} if token else None
    return httpx.AsyncClient(base_url=hall.url, cookies=cookies, timeout=30, headers={"Origin": hall.url})


async def _login(hall: InProcess, password: str) -> httpx.Response:
    async with _client(hall) as c:
        return await c.post("/api/login", json={"username": "target", "password": password})


def _register(hall: InProcess, username: str, token: str | None = None) -> dict[str, Any]:
    cookies = {"paiju_token": token} if token else None
    with httpx.Client(base_url=hall.url, cookies=cookies, timeout=30, headers={"Origin": hall.url}) as c:
        r = c.post("/api/register", json={"username": username, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return {"token": r.cookies["paiju_token"], **r.json()["player"]}


def test_concurrent_wrong_logins_cannot_pass_the_limit(in_process: InProcess) -> None:
    """Issue 34 item 0: the limit counted finished attempts only, so 199 concurrent guesses
    were all checked and the right one got in. Now an attempt counts before its hash: of 50
    concurrent wrong guesses at most 5 (the per-name limit) are checked, and the right
    password, sent amid them, is refused too."""
    _register(in_process, "target")

    async def flood() -> list[httpx.Response]:
        wrong = [_login(in_process, f"wrong guess {i}") for i in range(50)]
        return await asyncio.gather(*wrong[:25], _login(in_process, PASSWORD), *wrong[25:])

    answers = asyncio.run(flood())
    codes = [r.status_code for r in answers]
    right = codes.pop(25)
    assert codes.count(401) <= 5 and set(codes) <= {401, 429}, codes
    assert right == 429 and answers[25].json()["code"] == "login_too_fast", answers[25].text


class HeldHasher:
    """argon2 that holds every hash until ``gate`` opens (a flood of hashes in progress)."""

    def __init__(self, real: Any) -> None:
        self.real, self.gate, self.entered = real, threading.Event(), 0

    def hash(self, password: str) -> str:
        self.entered += 1
        assert self.gate.wait(60), "the test never opened the gate"
        return "$argon2id$held"  # no real hash: the accounts are never logged in to (and 40 cost seconds)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def test_a_session_lookup_never_waits_behind_password_hashes(
    in_process: InProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34 item 0c: argon2 ran on the default thread pool, where every session lookup
    runs too: 50 concurrent registrations made a victim's /api/me wait seconds. Now hashes
    have a pool of their own: with 40 registrations held mid-hash (more than the default
    pool's threads), the victim's /api/me is answered before any of them finishes."""
    with httpx.Client(base_url=in_process.url, timeout=30, headers={"Origin": in_process.url}) as c:
        victim = c.post("/api/login", json={"name": "victim"}).cookies["paiju_token"]
    held = HeldHasher(users._hasher)
    monkeypatch.setattr(users, "_hasher", held)

    async def flood() -> None:
        async with _client(in_process) as c:
            signups = [
                asyncio.create_task(c.post("/api/register", json={"username": f"flood{i}", "password": PASSWORD}))
                for i in range(40)
            ]
            while held.entered < hashing.WORKERS:  # the hashing has begun
                await asyncio.sleep(0.01)
            try:
                async with _client(in_process, victim) as v:
                    # a guard against a hang, not a timing assert: without the fix it never comes
                    r = await asyncio.wait_for(v.get("/api/me"), 10)
                assert r.status_code == 200 and r.json()["player"]["name"] == "victim"
                assert not any(s.done() for s in signups), "a registration finished while every hash was held"
            finally:
                held.gate.set()
            assert {s.status_code for s in await asyncio.gather(*signups)} == {200}

    asyncio.run(flood())


def test_registering_ends_the_guest_session(in_process: InProcess) -> None:
    """Issue 34 item 0d: a guest's cookie still logged in as the account it registered,
    through the account's logout and later logins. Registration replaces the guest session:
    the old cookie is no one, before and after the account logs out."""
    with httpx.Client(base_url=in_process.url, timeout=30, headers={"Origin": in_process.url}) as c:
        guest = c.post("/api/login", json={"name": "visitor"}).cookies["paiju_token"]
    account = _register(in_process, "visitor_acct", token=guest)
    assert account["token"] != guest and not account["guest"]

    def me(token: str) -> Any:
        with _client_sync(in_process, token) as c:
            return c.get("/api/me").json()["player"]

    assert me(account["token"])["id"] == account["id"]
    assert me(guest) is None
    with _client_sync(in_process, account["token"]) as c:
        assert c.post("/api/logout", json={}).status_code == 200
    assert me(guest) is None and me(account["token"]) is None


def _client_sync(hall: InProcess, token: str) -> httpx.Client:
    return httpx.Client(base_url=hall.url, cookies={"paiju_token": token}, timeout=30, headers={"Origin": hall.url})
