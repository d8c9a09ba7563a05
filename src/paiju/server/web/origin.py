"""Requests from the hall's own pages only: Origin checks, JSON-only writes, security headers.

A browser sends the player's cookie with every request to the hall, whichever page made
it. So every request that changes something (a ``POST``) and every table WebSocket must
come from a page of the hall itself: its ``Origin`` (or, lacking one, its ``Referer``)
names the host the request was sent to, or one of the origins the operator lists for a
proxy in front (``paiju serve --origin https://cards.example``). A request that carries
the player's token in the ``X-Paiju-Token`` header is exempt — only a program sets that
header; a page on another site cannot without a CORS preflight, which the hall never
grants. State-changing endpoints read only ``application/json`` (an HTML form cannot send
it), and every answer carries headers that keep the client out of frames and off inline
scripts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

TOKEN_HEADER = "x-paiju-token"

SECURITY_HEADERS: dict[str, str] = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"
    ),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
}


def _origin_of(url: str) -> str | None:
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


class OriginPolicy:
    """Which origins may act in the hall: its own host, plus ``allowed`` (scheme://host[:port])."""

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        self.allowed = {o.rstrip("/").lower() for o in allowed}

    def refuses(self, headers: Mapping[str, str]) -> str | None:
        """Why a request with these headers may not change anything (None: it may)."""
        if headers.get(TOKEN_HEADER):
            return None
        claimed = headers.get("origin") or ""
        origin = _origin_of(claimed) if claimed and claimed != "null" else None
        if origin is None and headers.get("referer"):
            origin = _origin_of(headers["referer"])
        if origin is None:
            return "this request does not say which page sent it (no Origin): the hall accepts its own pages only"
        host = (headers.get("host") or "").lower()
        if urlsplit(origin).netloc == host or origin in self.allowed:
            return None
        return f"requests from {origin} are not accepted: the hall accepts its own pages only"


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.headers]
            await send(message)

        await self.app(scope, receive, send_with_headers)
