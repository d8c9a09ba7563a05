"""Slow clients: a request's headers must arrive within HEADER_TIMEOUT seconds, and a
WebSocket the hall closes is gone within CLOSE_TIMEOUT seconds.

uvicorn closes idle keep-alive connections, but it waits for ever on a client that sends
a request's headers one byte at a time; a thousand such clients hold a thousand
connections (a "slowloris"). :class:`HeaderTimeoutProtocol` gives every request's headers
a deadline (from the connection, or from the request's first byte) and closes the
connection when it passes. Bodies have a deadline of their own (``paiju.server.web.app``).

After the hall closes a WebSocket (a flooder, a client that does not read) uvicorn keeps
reading — and discarding — what the client sends until it answers the close, for up to
ten seconds: a flooder that never answers costs the hall ten more seconds of flood.
:class:`QuickCloseWebSocketProtocol` waits one second.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

HEADER_TIMEOUT = 10.0
CLOSE_TIMEOUT = 1.0


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline on each request's headers."""

    header_timeout = HEADER_TIMEOUT
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
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


class QuickCloseWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, waiting CLOSE_TIMEOUT for a client to answer a close."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.close_timeout = CLOSE_TIMEOUT
