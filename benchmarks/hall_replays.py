"""Replays built while tables play (issue 34 item 1): a table's ping while many addresses
ask for replays the hall must build.

A player at a table pings it every 0.1 s (WebSocket ``ping`` → ``pong``); meanwhile
``--clients`` concurrent clients post a finished Baohuang hand to ``POST /api/replay`` (a
record from a file: never cached, so every request is a build), each request from another
of 1,000 addresses (``X-Forwarded-For``, which the hall takes from loopback, its trusted
proxy): the per-address replay limit (30 a minute) never stops them. One row per flood
size: replays built, refused (by status), and the table's ping p50 / p99 / max in ms.

    python benchmarks/hall_replays.py --markdown           # about 40 s
    PYTHONPATH=src python benchmarks/hall_replays.py       # this checkout's hall
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from websockets.asyncio.client import connect

import paiju
from hall_common import Server, http_client, loopback_limits, machine, percentile

SECONDS = 12.0
ADDRESSES = 1000


def finished_record(seed: int = 3) -> dict[str, Any]:
    g = paiju.new_game("baohuang", seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    return g.record()  # type: ignore[no-any-return]


async def pinger(url: str, end: float) -> list[float]:
    """A player's table pings until ``end``: round trips in ms."""
    async with http_client(url) as c:
        token = (await c.post("/api/login", json={"name": "pinger"})).cookies["paiju_token"]
        room = (await c.post("/api/rooms", json={"game": "baohuang"}, headers={"X-Paiju-Token": token})).json()["id"]
    ws_url = url.replace("http://", "ws://") + f"/ws/{room}"
    out: list[float] = []
    async with connect(ws_url, additional_headers={"Origin": url, "X-Paiju-Token": token}) as ws:
        n = 0
        while time.monotonic() < end:
            n += 1
            t = time.monotonic()
            await ws.send(json.dumps({"type": "ping", "id": n}))
            while True:
                msg = json.loads(await ws.recv())
                if msg.get("type") == "pong" and msg.get("id") == n:
                    break
            out.append((time.monotonic() - t) * 1000)
            await asyncio.sleep(0.1)
    return out


async def flood(url: str, clients: int, end: float, record: dict[str, Any]) -> Counter[int]:
    answers: Counter[int] = Counter()
    seq = iter(range(10**9))

    async def one(c: Any) -> None:
        while time.monotonic() < end:
            i = next(seq) % ADDRESSES
            headers = {"X-Forwarded-For": f"10.1.{i // 256}.{i % 256}", "Accept-Encoding": "gzip"}
            r = await c.post("/api/replay?seat=0", json=record, headers=headers)
            answers[r.status_code] += 1

    async with http_client(url, connections=max(1, clients)) as c:
        await asyncio.gather(*(one(c) for _ in range(clients)))
    return answers


async def row(url: str, clients: int, record: dict[str, Any]) -> dict[str, Any]:
    end = time.monotonic() + SECONDS
    pings, answers = await asyncio.gather(pinger(url, end), flood(url, clients, end, record))
    pings.sort()
    return {
        "clients": clients,
        "answers": dict(answers),
        **{k: percentile(pings, q) for k, q in (("p50", 50), ("p99", 99))},
        "max": pings[-1],
    }


async def run(sizes: Sequence[int]) -> list[dict[str, Any]]:
    record = finished_record()
    server = Server(None, options=loopback_limits(), prefix="paiju-replays-")
    try:
        server.wait_ready()
        return [await row(server.url, n, record) for n in sizes]
    finally:
        server.stop()
        server.cleanup()


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, nargs="*", default=[0, 50], help="concurrent replay clients per row")
    ap.add_argument("--markdown", action="store_true")
    opts = ap.parse_args(argv)
    rows = asyncio.run(run(opts.clients))
    m = machine()
    print(f"# {m['cpu']}, {m['cores']} cores, {m['python']}; {SECONDS:g} s a row, {ADDRESSES} addresses")
    for r in rows:
        built = r["answers"].get(200, 0)
        refused = ", ".join(f"{n}×{s}" for s, n in sorted(r["answers"].items()) if s != 200) or "none"
        if opts.markdown:
            print(f"| {r['clients']} | {built} | {refused} | {r['p50']:.0f} | {r['p99']:.0f} | {r['max']:.0f} |")
        else:
            print(r)


if __name__ == "__main__":
    main()
