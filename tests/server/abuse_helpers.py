"""Helpers of the hall's tests against hostile clients (``test_abuse_*.py``): raw
clients no library would write (a table connection that never reads, raw HTTP
requests), the log check of a private hall, and small requests of the lobby API.

Most of those tests start a private hall (``start_server`` in conftest.py) with the limits
they need set low (``paiju serve --limit`` names, passed as ``--rate 5`` and the like); a
few use the suite's shared hall.
"""

from __future__ import annotations

import base64
import contextlib
import os
import select
import socket
import time
from dataclasses import dataclass
from typing import Any

import httpx
from websockets.frames import Frame, Opcode

from .harness import CRASH, Client, Hall, Player, ServerProcess

MB = 1 << 20
RSS_GROWTH_MB = 60  # the bound on the server's memory under clients that never read


def assert_no_traceback(server: ServerProcess) -> None:
    text = server.log_text()
    assert not CRASH.search(text), f"the server logged an exception:\n{text[-4000:]}"


# ---------------------------------------------------------------------- raw clients
def client_frame(text: str) -> bytes:
    """One masked text frame, as a client writes it."""
    return bytes(Frame(Opcode.TEXT, text.encode()).serialize(mask=True))


def server_frames(data: bytes) -> list[tuple[int, bytes]]:
    """The (opcode, payload) of each whole frame in what the hall sent (unmasked)."""
    out, i = [], 0
    while i + 2 <= len(data):
        opcode, n, j = data[i] & 0x0F, data[i + 1] & 0x7F, i + 2
        if n >= 126:
            width = 2 if n == 126 else 8
            n, j = int.from_bytes(data[j : j + width], "big"), j + width
        if j + n > len(data):
            break
        out.append((opcode, data[j : j + n]))
        i = j + n
    return out


def close_of(frames: list[tuple[int, bytes]]) -> tuple[int, str] | None:
    for opcode, payload in frames:
        if opcode == Opcode.CLOSE:
            return int.from_bytes(payload[:2], "big"), payload[2:].decode()
    return None


@dataclass
class NonReader:
    """A table connection that writes frames and reads nothing: a raw socket with a small
    receive buffer, so that what the hall sends piles up on the hall's side."""

    sock: socket.socket

    @classmethod
    def open(cls, server: ServerProcess, room: str, token: str) -> NonReader:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connect: a small window
        sock.settimeout(15)
        sock.connect(("127.0.0.1", server.port))
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall(
            (
                f"GET /ws/{room}?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: {server.url}\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(1)  # byte by byte: leave every frame after the answer unread
            assert chunk, "the hall closed the handshake"
            head += chunk
        assert head.startswith(b"HTTP/1.1 101"), head
        return cls(sock)

    def read_to_end(self, timeout: float = 15.0) -> bytes:
        """Everything the hall sent, up to its closing the TCP connection."""
        buf = bytearray()
        deadline = time.monotonic() + timeout
        with contextlib.suppress(OSError):
            while time.monotonic() < deadline:
                self.sock.settimeout(max(0.1, deadline - time.monotonic()))
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                buf += chunk
        return bytes(buf)

    def close(self) -> None:
        self.sock.close()


def http_socket(server: ServerProcess) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=15)


def read_response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of one HTTP answer (the body by its Content-Length)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"the connection closed without an answer: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    while len(body) < int(headers.get("content-length", 0)):
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(lines[0].split()[1]), headers, body


def closed_by_peer(sock: socket.socket) -> bool:
    """Has the other side closed this connection (readable and at its end, or reset)?"""
    if not select.select([sock], [], [], 0)[0]:
        return False
    try:
        return sock.recv(65536) == b""
    except OSError:
        return True


def post_raw(hall: Hall, path: str, body: str | bytes, token: str | None = None, **headers: str) -> httpx.Response:
    """A POST from a page of the hall with ``body`` sent as it is (JSON unless headers say otherwise)."""
    with hall.http(token) as c:
        return c.post(path, content=body, headers={"Content-Type": "application/json", **headers})


def pongs_and_errors(clients: list[Client]) -> tuple[int, int]:
    msgs = [m for c in clients for m in c.messages]
    return sum(m["type"] == "pong" for m in msgs), sum(m["type"] == "error" for m in msgs)


def refused_connection(c: Client, code: int, named: str) -> None:
    msg = c.next()
    assert msg["type"] == "error" and named in msg["error"], msg
    c.wait_closed()
    assert c.ws.close_code == code
    c.close()


def create(hall: Hall, player: Player, name: str = "room") -> httpx.Response:
    with hall.http(player.token) as c:
        return c.post("/api/rooms", json={"name": name, "game": "baohuang", "options": {}})


def lobby(hall: Hall, query: str = "") -> dict[str, Any]:
    with hall.http() as c:
        r = c.get("/api/rooms" + query)
    assert r.status_code == 200, r.text
    return dict(r.json())
