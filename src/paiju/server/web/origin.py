"""Requests from the hall's own pages only: Origin checks, JSON-only writes, security headers.

A browser sends the player's cookie with every request to the hall, whichever page made
it. So every request that changes something (a ``POST``) and every table WebSocket must
come from a page of the hall itself: its ``Origin`` (or, lacking one, its ``Referer``)
names the host the request was sent to, or one of the origins the operator lists for a
proxy in front (``paiju serve --origin https://cards.example``). Scheme and host are
compared both. The hall's own origin counts only under a ``Host`` the hall answers to — an
IP address, ``localhost``, or the host of an ``--origin`` — so that a name of the
attacker's made to point at the hall (DNS rebinding) does not make the attacker's page
"its own". A request whose identity is the token in the ``X-Paiju-Token`` header is
exempt — only a program sets that header; a page on another site cannot without a CORS
preflight, which the hall never grants; a cookie beside a different header token is
the identity used, and is not exempt. State-changing endpoints read only ``application/json`` (an HTML form cannot send
it), and every answer carries headers that keep the client out of frames and off inline
scripts.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

TOKEN_HEADER = "x-paiju-token"
COOKIE = "paiju_token"  # the session cookie (answers.COOKIE)

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


def _literal_host(netloc: str) -> bool:
    """An IP address or localhost: a name no other site can make point at the hall."""
    host = urlsplit(f"//{netloc}").hostname or ""
    if host == "localhost":
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def token_is_identity(headers: Mapping[str, str]) -> bool:
    """Is the ``X-Paiju-Token`` header the identity the request acts as (no other cookie)?"""
    token = headers.get(TOKEN_HEADER)
    if not token:
        return False
    cookie = cookie_parser(headers.get("cookie", "")).get(COOKIE)
    return cookie is None or cookie == token


class OriginPolicy:
    """Which origins may act in the hall: its own (scheme and host, under a host it answers
    to), plus ``allowed`` (scheme://host[:port])."""

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        self.allowed = {o.rstrip("/").lower() for o in allowed}
        self.hosts = {urlsplit(o).netloc for o in self.allowed}

    def refuses(self, headers: Mapping[str, str], scheme: str = "http") -> str | None:
        """Why a request with these headers, sent over ``scheme``, may not change anything
        (None: it may)."""
        if token_is_identity(headers):
            return None
        claimed = headers.get("origin") or ""
        origin = _origin_of(claimed) if claimed and claimed != "null" else None
        if origin is None and headers.get("referer"):
            origin = _origin_of(headers["referer"])
        if origin is None:
            return "this request does not say which page sent it (no Origin): the hall accepts its own pages only"
        if origin in self.allowed:
            return None
        host = (headers.get("host") or "").lower()
        own = f"{'https' if scheme in ('https', 'wss') else 'http'}://{host}"
        if origin == own and (host in self.hosts or _literal_host(host)):
            return None
        if origin == own:  # a name the hall was not told it has: perhaps another site's (DNS rebinding)
            return f"the hall does not answer to {host} (its operator lists its names with --origin)"
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
