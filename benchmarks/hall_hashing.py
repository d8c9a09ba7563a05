"""Password hashing against identity lookups (issue 34 item 0c): a victim's ``GET /api/me``
while many registrations hash their passwords at once.

argon2 once ran on the thread pool every request's session lookup runs on: 50 concurrent
registrations made a victim's ``/api/me`` wait seconds. With hashing on a pool of its own
(``paiju.server.accounts.hashing``) the lookup never queues behind a hash. One row per
flood size: registrations made, and the victim's ``/api/me`` p50 / p99 / max in ms.

    python benchmarks/hall_hashing.py --markdown        # about 40 s
    PYTHONPATH=src python benchmarks/hall_hashing.py    # this checkout's hall
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import time
from collections.abc import Sequence

from hall_common import Server, http_client, loopback_limits, machine, percentile

SECONDS = 12.0  # of flood per row
EVERY = 0.1  # seconds between the victim's lookups


async def victim(url: str, token: str, end: float) -> list[float]:
    """The victim's ``/api/me`` latencies (ms) until ``end``."""
    out: list[float] = []
    async with http_client(url, connections=1) as c:
        while time.monotonic() < end:
            t = time.monotonic()
            r = await c.get("/api/me", headers={"X-Paiju-Token": token})
            assert r.status_code == 200, r.text
            out.append((time.monotonic() - t) * 1000)
            await asyncio.sleep(EVERY)
    return out


async def registrations(url: str, clients: int, end: float, names: itertools.count[int]) -> int:
    """``clients`` concurrent loops registering fresh accounts until ``end``: how many were made."""
    made = 0

    async def one(c: object) -> None:
        nonlocal made
        while time.monotonic() < end:
            body = {"username": f"flood{next(names)}", "password": "correct horse battery"}
            r = await c.post("/api/register", json=body)  # type: ignore[attr-defined]
            made += r.status_code == 200

    async with http_client(url, connections=clients) as c:
        await asyncio.gather(*(one(c) for _ in range(clients)))
    return made


async def row(url: str, token: str, clients: int, names: itertools.count[int]) -> dict[str, float]:
    end = time.monotonic() + SECONDS
    lat, made = await asyncio.gather(victim(url, token, end), registrations(url, clients, end, names))
    lat.sort()
    return {"clients": clients, "made": made, "p50": percentile(lat, 50), "p99": percentile(lat, 99), "max": lat[-1]}


async def run(sizes: Sequence[int]) -> list[dict[str, float]]:
    server = Server(None, options=[*loopback_limits(), "--registrations-per-hour", "1000000"], prefix="paiju-hash-")
    try:
        server.wait_ready()
        async with http_client(server.url) as c:
            token = (await c.post("/api/login", json={"name": "victim"})).cookies["paiju_token"]
        names = itertools.count()
        return [await row(server.url, token, n, names) for n in sizes]
    finally:
        server.stop()
        server.cleanup()


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, nargs="*", default=[0, 50], help="concurrent registering clients per row")
    ap.add_argument("--markdown", action="store_true", help="markdown rows for docs/benchmarks.md")
    opts = ap.parse_args(argv)
    rows = asyncio.run(run(opts.clients))
    m = machine()
    print(f"# {m['cpu']}, {m['cores']} cores, {m['python']}; {SECONDS:g} s a row")
    for r in rows:
        if opts.markdown:
            print(f"| {r['clients']} | {r['made']} | {r['p50']:.0f} | {r['p99']:.0f} | {r['max']:.0f} |")
        else:
            print(r)


if __name__ == "__main__":
    main()
