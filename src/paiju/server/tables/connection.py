"""A player's connection to a table, as the table sees it: what is sent to it, and how a
failure the hall did not expect is logged."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import orjson

from paiju.errors import IllegalAction

log = logging.getLogger("paiju.table")


def encode(msg: dict[str, Any]) -> str:
    """A message as JSON text (orjson: the hall encodes five views per action)."""
    return orjson.dumps(msg).decode()


@dataclass(eq=False)
class Conn:
    """One WebSocket connection of a player to a table.

    What the hall sends waits in ``outbox`` until the connection's writer task gets it
    out; a client that stops reading would let it grow without end, so past ``budget``
    bytes unread the connection is closed instead (``kicked``)."""

    ws: Any
    player: dict[str, Any]
    address: str = ""
    budget: int = 1 << 20
    outbox: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    unsent: int = 0  # bytes waiting in the outbox
    closed: bool = False
    close_reason: tuple[int, str] | None = None  # why the hall closes it
    kicked: asyncio.Event = field(default_factory=asyncio.Event)
    hand_id: int | None = None  # the hand whose events this connection has
    events_sent: int = 0  # how many of that hand's public events it has
    said: deque[float] = field(default_factory=deque)  # when it said something in the last minute
    session: str | None = None  # the stored id of the login session it was opened with (revocation.py)
    blocked: set[int] = field(default_factory=set)  # players it blocked or who blocked it: not heard (access.py)
    farewell: str | None = None  # the last message, sent as the hall closes it: why (kicked, logged out …)
    shown_room: bool = False  # a competition's spectator was shown the room at once (its game comes late)

    def send(self, msg: dict[str, Any] | str) -> None:
        if self.closed:
            return
        text = msg if isinstance(msg, str) else encode(msg)
        if self.unsent + len(text) > self.budget:
            self.kick(1008, f"too slow: more than {self.budget // 1024} KiB of messages unread")
            return
        self.unsent += len(text)
        self.outbox.put_nowait(text)

    def kick(self, code: int, reason: str, farewell: dict[str, Any] | None = None) -> None:
        """Close this connection for ``reason`` (its handler closes the socket, after sending
        ``farewell`` — the message that tells the page why, so that it does not reconnect)."""
        if not self.closed:
            self.closed, self.close_reason = True, (code, reason)
            self.farewell = encode(farewell) if farewell is not None else None
            self.kicked.set()

    def end(self, code: str, text: str, close_code: int, **params: Any) -> None:
        """The hall ends this connection: a ``closed`` message with the reason ``code``, its
        ``params`` (the page translates it) and ``text`` in English, then the socket closes
        with ``close_code``."""
        farewell = {"type": "closed", "code": code, "params": params, "error": text}
        self.kick(close_code, text.encode()[:120].decode(errors="ignore"), farewell)  # a close reason: ≤ 123 bytes

    def error(
        self,
        text: str,
        reply_to: str | None = None,
        ref: Any = None,
        code: str = "illegal",
        params: dict[str, Any] | None = None,
    ) -> None:
        msg: dict[str, Any] = {"type": "error", "error": text, "code": code, "params": params or {}}
        msg["reply_to"] = reply_to
        if ref is not None:
            msg["id"] = ref
        self.send(msg)

    def refuse(self, e: IllegalAction, reply_to: str | None = None, ref: Any = None) -> None:
        """Answer a refused message with the refusal's text, reason code and params."""
        self.error(str(e), reply_to, ref, getattr(e, "code", "illegal"), getattr(e, "params", None))

    async def writer(self) -> None:
        try:
            while True:
                text = await self.outbox.get()
                self.unsent -= len(text)
                await self.ws.send_text(text)
        except Exception:  # connection gone: the reader notices and unregisters
            self.closed = True


class RateLimitedLog:
    """Log unexpected failures at most once per ``every`` seconds (with how many were not)."""

    def __init__(self, logger: logging.Logger, every: float = 10.0) -> None:
        self.logger, self.every = logger, every
        self.last = -every
        self.skipped = 0

    def exception(self, text: str, *args: Any) -> None:
        now = time.monotonic()
        if now - self.last < self.every:
            self.skipped += 1
            return
        if self.skipped:
            text += f" (and {self.skipped} more since the last such line)"
        self.last, self.skipped = now, 0
        self.logger.exception(text, *args)


unexpected = RateLimitedLog(log)
UNEXPECTED = "the hall could not handle this message; nothing was changed"
