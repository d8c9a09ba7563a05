"""Accounts under attack (issue 34): login limits that hold under concurrency, password
hashing that never keeps a session lookup waiting, a guest's cookie that ends when the
guest registers. On a hall served in the test process (fast; no timed asserts)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

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
