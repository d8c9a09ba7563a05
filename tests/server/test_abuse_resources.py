"""The hall against clients that would hold its memory or its connections: a client that
never reads what the hall sends, floods of large messages, request bodies past the
limit (announced or chunked) and request headers that never end (docs/protocol.md,
"Limits"). Raw sockets stand in for these clients.
"""

from __future__ import annotations

import contextlib
import json
import select
import time
from collections.abc import Callable

import pytest
from websockets.frames import Opcode

from .abuse_helpers import (
    MB,
    RSS_GROWTH_MB,
    NonReader,
    client_frame,
    close_of,
    closed_by_peer,
    http_socket,
    post_raw,
    read_response,
    server_frames,
)
from .harness import Hall, ServerProcess


# ====================================================================== 1. bounded memory
def test_a_client_that_never_reads_is_closed_once_its_unread_answers_pass_the_budget(
    start_server: Callable[..., ServerProcess],
) -> None:
    """Issue: outgoing queues were unbounded. A client sends and never reads; the hall owes
    it an answer per message. Past ``outbox_bytes`` unread it is closed, 1008 "too slow",
    and what it was owed is dropped, not kept."""
    # a high rate: one connection may owe the hall's 64 KiB budget within a fraction of a second
    server = start_server(
        limits={"outbox_bytes": 64 * 1024, "rate": 5000, "address_rate": 50_000, "flood_drops": 10**6}
    )
    hall = Hall(server)
    p = hall.login("deaf")
    rid = hall.create_room(p)
    deaf = NonReader.open(server, rid, p.token)
    owed = 4000  # answers of ~110 bytes each (not seated: every act is refused): 440 KB
    # one burst, then silence: the hall closes a connection with nothing left unread (no reset)
    deaf.sock.sendall(client_frame(json.dumps({"type": "act", "action": "pass"})) * owed)
    # meanwhile the hall serves everyone else
    q = hall.login("listener")
    with hall.connect(hall.create_room(q), q) as c:
        c.sync()
    frames = server_frames(deaf.read_to_end())
    deaf.close()
    close = close_of(frames)
    assert close is not None, f"no close frame after {len(frames)} frames"
    assert close[0] == 1008 and close[1].startswith("too slow"), close
    answered = sum(1 for op, _ in frames if op == Opcode.TEXT)
    assert answered < owed // 2, f"{answered} of {owed} answers were kept for a client that never read"


@pytest.mark.slow
def test_twenty_non_readers_flooding_60_kb_messages_leave_the_hall_memory_bounded(
    start_server: Callable[..., ServerProcess],
) -> None:
    """Issue: 20 connections that never read, each sending 19 unknown-type messages of
    60 KB a second, every one echoed back in an error: RSS 95 -> 431 MB in 20 s. Now the
    error does not copy the payload and the unread outbox is bounded: over 8 s the
    server's RSS grows by less than 60 MB (a few MB; with the echo and no bound, ~130 MB:
    the first 2 s or so fill the kernel's socket buffers, then ~23 MB a second)."""
    server = start_server()  # the default per-player rate: 19 a second each is all answered
    hall = Hall(server)
    owner = hall.login("host")
    rid = hall.create_room(owner)
    players = [hall.login(f"deaf{i}") for i in range(20)]
    deaf = [NonReader.open(server, rid, p.token) for p in players]
    huge = "x" * 60_000
    frame = client_frame(json.dumps({"type": huge}))
    before = peak = server.rss_mb()
    end = time.monotonic() + 8
    while time.monotonic() < end:
        for d in deaf:
            d.sock.sendall(frame)
        peak = max(peak, server.rss_mb())
        time.sleep(1 / 19)
    assert peak - before < RSS_GROWTH_MB, f"RSS {before:.0f} -> {peak:.0f} MB"
    # a client that reads gets the same message answered briefly: the payload is not copied back
    with hall.connect(rid, owner) as c:
        c.until_update(lambda m: True)
        c.send(json.dumps({"type": huge}))
        err = c.error()
        assert "unknown message type" in err["error"] and "xxxxxxxx" not in err["error"], err
        assert len(json.dumps(err)) < 400  # names the message types, never the payload
        c.sync()
    for d in deaf:
        d.close()


def test_errors_never_copy_back_the_offending_payload(hall: Hall) -> None:
    """Issue: an unknown type was echoed back in full. Whatever a message carries, its
    error names at most a short field or type name."""
    p = hall.login("echo")
    rid = hall.create_room(p)
    long_name = "evil" * 500
    with hall.connect(rid, p) as c:
        c.until_update(lambda m: True)
        for raw in (
            json.dumps({"type": long_name}),
            json.dumps({"type": "ping", long_name: 1}),
            json.dumps({"type": "sit", "seat": long_name}),
            json.dumps({"type": "act", "action": "pass", "turn": long_name}),
            '{"type": "' + long_name + '", }',  # bad JSON around a long string
            json.dumps([long_name]),
        ):
            c.send(raw)
            err = c.error()
            assert "evilevil" not in err["error"] and len(err["error"]) < 250, err
        c.send(json.dumps({"type": "fly"}))  # a short type name is named, as the docs say
        assert "'fly'" in c.error()["error"]


# ====================================================================== 4. bodies and timeouts
LOGIN_HEAD = "POST /api/login HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {url}\r\nContent-Type: application/json\r\n"


def test_a_body_announced_past_the_limit_is_413_without_being_read(hall: Hall) -> None:
    """Issue: bodies were read whole before the 64 KiB check. A Content-Length of 100 MB
    with only a few bytes sent is answered 413 at once (reading it would wait for the body
    and answer 408 after 10 s)."""
    sock = http_socket(hall.server)
    head = LOGIN_HEAD.format(port=hall.server.port, url=hall.url) + "Content-Length: 100000000\r\n\r\n"
    sock.sendall(head.encode() + b'{"name": "')
    status, _, body = read_response(sock)
    sock.close()
    assert status == 413 and "too large" in json.loads(body)["error"]
    # a body just past the limit is 413; one at the limit is read (and is no JSON: 400)
    assert post_raw(hall, "/api/login", b" " * (64 * 1024 + 1)).status_code == 413
    r = post_raw(hall, "/api/login", b"x" * (64 * 1024))
    assert r.status_code == 400 and "JSON" in r.json()["error"]


def test_a_chunked_body_past_the_limit_is_413_while_it_streams(hall: Hall) -> None:
    """A chunked body (no length announced) is counted as it streams: the hall answers 413
    once it passes 64 KiB, while the client is still sending (here: it would go on to
    64 MB)."""
    sock = http_socket(hall.server)
    head = LOGIN_HEAD.format(port=hall.server.port, url=hall.url) + "Transfer-Encoding: chunked\r\n\r\n"
    sock.sendall(head.encode())
    chunk = b"4000\r\n" + b" " * 0x4000 + b"\r\n"  # 16 KiB of JSON whitespace
    total, sent = 64 * MB, 0
    with contextlib.suppress(OSError):  # the hall may stop reading once it has answered
        while sent < total and not select.select([sock], [], [], 0)[0]:
            sock.sendall(chunk)
            sent += 0x4000
    status, _, body = read_response(sock)
    sock.close()
    assert status == 413 and "too large" in json.loads(body)["error"]
    assert sent < total, "the hall answered only once the whole body had been sent"


def test_request_headers_that_never_complete_are_closed_after_the_header_timeout(
    start_server: Callable[..., ServerProcess],
) -> None:
    """Issue: no header timeout (a slowloris holds a connection for ever). With
    ``--header-timeout 1`` a connection that says nothing, one whose headers stop half way,
    one trickling a byte every 0.2 s and one sending a whole header line every 0.3 s (the
    deadline is the request's, not renewed by each byte or header) are all closed, within a
    generous 8 s (the default timeout is 10 s); a WebSocket open longer keeps working."""
    server = start_server(args=("--header-timeout", "1"))
    hall = Hall(server)
    p = hall.login("patient")
    table = hall.connect(hall.create_room(p), p)
    start = b"GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    socks = {name: http_socket(server) for name in ("silent", "partial", "bytes", "lines")}
    socks["partial"].sendall(start)
    socks["lines"].sendall(start)
    trickles = {  # what each trickler sends next, and how often
        "bytes": (iter([start[i : i + 1] for i in range(len(start))] + [b"X"] * 1000), 0.2),
        "lines": (iter([f"X-{i}: {i}\r\n".encode() for i in range(1000)]), 0.3),
    }
    sent = dict.fromkeys(trickles, 0)
    open_ = dict(socks)
    began = time.monotonic()
    while open_ and time.monotonic() < began + 8:
        now = time.monotonic() - began
        for name, (chunks, every) in trickles.items():
            if name in open_ and now >= sent[name] * every:
                try:
                    open_[name].send(next(chunks))
                    sent[name] += 1
                except OSError:  # reset: closed by the hall
                    del open_[name]
        for name, sock in list(open_.items()):
            if closed_by_peer(sock):
                del open_[name]
        time.sleep(0.05)
    for sock in socks.values():
        sock.close()
    assert not open_, f"still open after 8 s: {sorted(open_)} (sent {sent})"
    with table:
        table.sync()  # a connection past its handshake has no header deadline
    with hall.http() as c:
        assert c.get("/api/me").status_code == 200
