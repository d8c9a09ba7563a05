"""Slow clients: a request's headers must arrive within HEADER_TIMEOUT seconds, and a
WebSocket the hall closes is gone within CLOSE_TIMEOUT seconds.

uvicorn closes idle keep-alive connections, but it waits for ever on a client that sends
a request's headers one byte at a time; a thousand such clients hold a thousand
connections (a "slowloris"). :class:`HeaderTimeoutProtocol` gives every request's headers
a deadline (from the connection, or from the request's first byte) and closes the
connection when it passes. Bodies have a deadline of their own (``paiju.server.web.app``).

Half-open connections from one address (opened again as each header deadline closes them)
once filled uvicorn's whole concurrency cap, and every other visitor got 503. So one
address may hold at most ``per_address`` HTTP connections (:func:`capped`, the
``http_conns_per_address`` limit); a connection past it is closed before it is read. The
addresses uvicorn trusts to forward others' (``FORWARDED_ALLOW_IPS``: a proxy in front)
are not capped here — the proxy caps each client (deploy/haproxy.cfg).

After the hall closes a WebSocket (a flooder, a client that does not read) uvicorn keeps
reading — and discarding — what the client sends until it answers the close, for up to
ten seconds: a flooder that never answers costs the hall ten more seconds of flood.
:class:`QuickCloseWebSocketProtocol` waits one second.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections import Counter
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

HEADER_TIMEOUT = 10.0
CLOSE_TIMEOUT = 1.0


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline on each request's headers."""

    header_timeout = HEADER_TIMEOUT
    per_address: int | None = None  # HTTP connections one address may hold open (None: any number)
    _open: ClassVar[Counter[str]] = Counter()
    _counted: str | None = None
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        if self.per_address is not None and host is not None and not _forwarder(host, self.config.forwarded_allow_ips):
            if self._open[host] >= self.per_address:
                transport.close()  # the address holds enough: this one is closed before it is read
                return
            self._open[host] += 1
            self._counted = host
        self._arm()

    def handle_websocket_upgrade(self) -> None:
        self._release()  # a table connection now: the hall's own per-address cap counts it
        super().handle_websocket_upgrade()

    def _release(self) -> None:
        if self._counted is not None:
            self._open[self._counted] -= 1
            if self._open[self._counted] <= 0:
                del self._open[self._counted]
            self._counted = None

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._release()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()


def capped(per_address: int | None) -> type[HeaderTimeoutProtocol]:
    """The protocol with its own count of connections per address, at most ``per_address``."""
    return type("CappedProtocol", (HeaderTimeoutProtocol,), {"per_address": per_address, "_open": Counter()})


def _forwarder(host: str, allowed: list[str] | str) -> bool:
    """Is ``host`` an address uvicorn trusts to forward others' (a proxy)?"""
    items = [a.strip() for a in (allowed.split(",") if isinstance(allowed, str) else allowed)]
    if "*" in items or host in items:
        return True
    try:
        ip = ipaddress.ip_address(host)
        return any(ip in ipaddress.ip_network(a, strict=False) for a in items if "/" in a)
    except ValueError:
        return False


class QuickCloseWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, waiting CLOSE_TIMEOUT for a client to answer a close."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.close_timeout = CLOSE_TIMEOUT
