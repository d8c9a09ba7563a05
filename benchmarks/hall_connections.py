"""Half-open HTTP connections from one address against everybody else (issue 34 item 0b).

One address (127.0.0.1) opens more connections than the hall's whole concurrency cap
(``--max-connections``, scaled down here to 600 so that a laptop's open-files limit
suffices) and sends nothing on them; another address (127.0.0.2, a victim) asks
``/api/me`` 20 times meanwhile. Before the per-address cap, the victim got 503s; with it
(``--http-conns-per-address``, 256 by default) the flooder holds at most that many.
Loopback is made an ordinary client (``FORWARDED_ALLOW_IPS`` names another proxy).

    python benchmarks/hall_connections.py --markdown     # about 20 s
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import time
from collections.abc import Sequence

import httpx

from hall_common import Server, loopback_limits, machine, percentile, raise_fd_limit

MAX_CONNECTIONS = 600
HELD = 700  # half-open connections the flooder opens
ASKS = 20


async def victim(url: str) -> tuple[int, list[float]]:
    """The victim's answers: how many were 200, and their times in ms."""
    ok, times = 0, []
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with httpx.AsyncClient(transport=transport, timeout=5) as c:
        for _ in range(ASKS):
            t = time.monotonic()
            try:
                r = await c.get(url + "/api/me")
                ok += r.status_code == 200
            except httpx.TransportError:
                pass
            times.append((time.monotonic() - t) * 1000)
            await asyncio.sleep(0.2)
    return ok, sorted(times)


def flood(port: int) -> list[socket.socket]:
    held = []
    for _ in range(HELD):
        try:
            held.append(socket.create_connection(("127.0.0.1", port), timeout=2))
        except OSError:
            break
    return held


def row(cap: int | None) -> dict[str, object]:
    options = [o for o in loopback_limits() if o not in ("--max-connections", "100000")]
    options += ["--max-connections", str(MAX_CONNECTIONS)]
    if cap is not None:
        options += ["--http-conns-per-address", str(cap)]
    os.environ["FORWARDED_ALLOW_IPS"] = "10.9.9.9"  # loopback is no trusted proxy (the server inherits it)
    server = Server(None, options=options, prefix="paiju-conns-")
    try:
        server.wait_ready()
        held = flood(server.port)
        time.sleep(0.5)
        ok, times = asyncio.run(victim(server.url))
        for s in held:
            s.close()
        return {"cap": cap, "held": len(held), "ok": ok, "p50": percentile(times, 50), "max": times[-1]}
    finally:
        server.stop()
        server.cleanup()


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--caps", type=int, nargs="*", default=[256], help="--http-conns-per-address per row")
    ap.add_argument("--no-cap-row", action="store_true", help="a row without the flag (a hall before the cap)")
    ap.add_argument("--markdown", action="store_true")
    opts = ap.parse_args(argv)
    print(f"# open files: {raise_fd_limit(4 * HELD)}")
    rows = [row(None)] if opts.no_cap_row else []
    rows += [row(c) for c in opts.caps]
    m = machine()
    print(f"# {m['cpu']}, {m['cores']} cores; max-connections {MAX_CONNECTIONS}, {HELD} half-open from one address")
    for r in rows:
        if opts.markdown:
            print(f"| {r['cap'] or 'none'} | {r['held']} | {r['ok']}/{ASKS} | {r['p50']:.0f} | {r['max']:.0f} |")
        else:
            print(r)


if __name__ == "__main__":
    main()
