"""The hall's HTTP answers: errors with their reason codes, and the request's parts the
handlers read (its JSON body within limits, its session token, its address)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.websockets import WebSocket

from paiju.errors import IllegalAction
from paiju.server import metrics
from paiju.server.tables.limits import MAX_INT, check_value
from paiju.server.web.origin import SECURITY_HEADERS

COOKIE = "paiju_token"
TOKEN_TEXT = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what a login token can be (the store makes hex)
BODY_TIMEOUT = 10.0  # seconds to send a request body
ROOM_TEXT = TOKEN_TEXT  # what a room id can be (the store makes 8 URL-safe characters)
DIGITS = re.compile(r"-?[0-9]{1,20}")  # ASCII only: int() also reads "٣", "1_0" and " 7"


class HttpError(Exception):
    """An answer other than 200, with a sentence for the client."""

    def __init__(self, status: int, text: str, refusal: IllegalAction | None = None) -> None:
        super().__init__(text)
        self.status = status
        self.refusal = refusal  # its reason code and params, for the page to translate


def request_token(req: Request | WebSocket) -> str | None:
    """The session token: the cookie, else the ``X-Paiju-Token`` header, else — on the
    WebSocket URL only, where a program cannot always set a header — ``?token=`` (in an
    HTTP URL it would end up in logs and Referers)."""
    token = req.cookies.get(COOKIE) or req.headers.get("x-paiju-token")
    if token is None and isinstance(req, WebSocket):
        token = req.query_params.get("token")
    return token


def whole(params: Mapping[str, Any], name: str, default: int | None, lo: int, hi: int = MAX_INT) -> int:
    """``params[name]`` (a path or query parameter) as a whole number from ``lo`` to ``hi``
    (the WebSocket messages' range at most); else a 400 ``bad_param`` — nothing larger than
    the database's integers ever reaches it."""
    raw = params.get(name)
    if raw is None and default is not None:
        return default
    value = raw if isinstance(raw, int) else int(raw) if isinstance(raw, str) and DIGITS.fullmatch(raw) else None
    if value is None or not lo <= value <= hi:
        why = IllegalAction(f"{name} is a whole number from {lo} to {hi}", "bad_param", name=name, min=lo, max=hi)
        raise HttpError(400, str(why), why)
    return value


def room_id(params: Mapping[str, Any]) -> str:
    """The ``room`` path parameter; one that no room id can be is a 404 (no NUL or odd text
    reaches the database)."""
    rid = params.get("room")
    if not isinstance(rid, str) or not ROOM_TEXT.fullmatch(rid):
        why = IllegalAction("there is no such room", "no_such_room")
        raise HttpError(404, str(why), why)
    return rid


def error(text: str, status: int = 400, e: IllegalAction | None = None) -> JSONResponse:
    """An error answer; a refusal ``e`` adds its reason ``code`` and ``params``."""
    body: dict[str, Any] = {"error": text}
    if e is not None:
        body.update(code=getattr(e, "code", "illegal"), params=getattr(e, "params", {}))
    if status == 429:  # a limit said no: counted by its reason code (docs/operations.md)
        metrics.RATE_LIMITED_REQUESTS.labels(body.get("code", "illegal")).inc()
    return JSONResponse(body, status_code=status)


async def server_error(req: Request, exc: Exception) -> JSONResponse:
    """A 500, with the security headers every answer has (Starlette sends it from outside
    the app's middleware, so SecurityHeaders never sees it); the traceback is logged."""
    return JSONResponse(
        {"error": "the hall could not handle this request; nothing was changed"}, 500, headers=SECURITY_HEADERS
    )


def refuse(status: int, text: str, code: str, **params: Any) -> JSONResponse:
    """An error answer for a refusal of the hall's own (reason ``code``)."""
    return error(text, status, IllegalAction(text, code, **params))


def address(req: Request | WebSocket) -> str:
    return req.client.host if req.client else "unknown"


async def json_body(req: Request, limit: int, checked: bool = True) -> dict[str, Any]:
    """The request's JSON object, read as it streams in: over ``limit`` bytes is a 413 at
    once, a body that takes longer than BODY_TIMEOUT a 408, anything but JSON a 415.
    ``checked``: within the hall's limits on values (a game record, longer, is checked by
    its replay instead)."""
    kind = req.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        why = IllegalAction("send the body as application/json", "json_only")  # gate.py refuses it first
        raise HttpError(415, str(why), why)
    declared = req.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise HttpError(413, f"request body too large (at most {limit // 1024} KiB)")
    chunks, size = [], 0
    try:
        async with asyncio.timeout(BODY_TIMEOUT):
            async for chunk in req.stream():
                size += len(chunk)
                if size > limit:
                    raise HttpError(413, f"request body too large (at most {limit // 1024} KiB)")
                chunks.append(chunk)
    except TimeoutError:
        raise HttpError(408, "the request body came too slowly") from None
    try:
        body = json.loads(b"".join(chunks) or b"{}")
    except RecursionError:
        raise HttpError(400, "bad JSON: it nests too deeply") from None
    except ValueError as e:
        raise HttpError(400, f"bad JSON: {e}") from None
    if not isinstance(body, dict):
        raise HttpError(400, "the body must be a JSON object")
    try:
        if checked:
            check_value(body, "the body", depth=-1)
    except IllegalAction as e:
        raise HttpError(400, str(e), e) from None
    return body
