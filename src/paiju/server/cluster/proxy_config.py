"""The front proxy's configuration for a cluster of hall workers (HAProxy, from Debian).

Every request about one room — its WebSocket ``/ws/ROOM`` and its ``/api/rooms/ROOM/…``
requests — is sent by a consistent hash of the room's id to one worker, which then plays
the room (tables/cluster_rooms.py); everything else (the lobby, accounts, the pages) goes to the least
busy worker. HAProxy asks each worker's ``/healthz`` twice a second: a worker that died, is
paused or lost its database stops getting players after about a second, and the hash then
sends its rooms to the others (only its rooms move: the hash is consistent). A WebSocket
that cannot reach its worker is tried on another one (``option redispatch``).

The proxy tells the workers each player's address (``X-Forwarded-For``, set by the proxy
alone: a client's own is dropped), which their per-address limits count; a worker believes
it only from an address in ``FORWARDED_ALLOW_IPS`` (uvicorn's setting; default 127.0.0.1, a
proxy on the same machine), so workers on other machines are given the proxy's address.
Both backends follow one health check per worker (``track``), so a worker is up or down for
all requests at once. When a worker is marked down (``on-marked-down shutdown-sessions``)
the proxy closes every connection it had to it: the players of a paused or cut-off worker
see their table's socket close within seconds, reconnect, and are sent to the worker that
takes their room over — they do not wait for their page to notice a silent socket.

``deploy/haproxy.cfg`` is this function's output for three workers.
"""

from __future__ import annotations

from collections.abc import Sequence

CONNS_PER_ADDRESS = 256  # as a worker's own http_conns_per_address (throttle.Limits)


def haproxy_config(
    workers: Sequence[tuple[str, str, int]],
    bind: tuple[str, int] = ("0.0.0.0", 8000),
    check_every_ms: int = 500,
    stats: tuple[str, int] | None = None,
    log: bool = False,
    conns_per_address: int | None = CONNS_PER_ADDRESS,
) -> str:
    """HAProxy's configuration for ``workers`` (name, host, port), listening on ``bind``.
    ``log``: each request logged to the log address of the ``global`` section — Debian's
    haproxy.cfg, read before this file, has one; this file's own ``defaults`` section would
    otherwise drop Debian's ``log global`` and ``option httplog`` (docs/deploy.md).
    ``conns_per_address``: connections one client address may hold open, half-open ones
    too (the workers trust the proxy's address and cap nobody behind it; None: no cap)."""
    capped = (
        "    # one address holds at most this many connections (half-open ones too): the workers cap nobody behind us\n"
        "    stick-table type ip size 1m expire 60s store conn_cur\n"
        "    tcp-request connection track-sc0 src\n"
        f"    tcp-request connection reject if {{ sc0_conn_cur gt {conns_per_address} }}\n"
        if conns_per_address is not None
        else ""
    )
    logging = "    log global\n    option httplog\n    option dontlognull\n" if log else ""
    checked = "\n".join(
        f"    server {name} {host}:{port} check inter {check_every_ms}ms fall 2 rise 2 on-marked-down shutdown-sessions"
        for name, host, port in workers
    )
    tracking = "\n".join(
        f"    server {name} {host}:{port} track rooms/{name} on-marked-down shutdown-sessions"
        for name, host, port in workers
    )
    stats_section = ""
    if stats is not None:
        stats_section = f"""
listen stats
    bind {stats[0]}:{stats[1]}
    stats enable
    stats uri /
"""
    return f"""# paiju: the front proxy of a cluster of hall workers (docs/deploy.md)
global
    # maxconn: as the open-files limit allows (raise LimitNOFILE, ulimit -n, for more players)

defaults
{logging}    mode http
    option http-server-close
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h       # an open table: a WebSocket lives as long as the player stays
    timeout client-fin 5s
    timeout http-request 10s
    timeout check 1500ms    # a health check a loaded worker answers late is not yet a failure
    retries 2
    option redispatch 1     # a worker that refuses the connection: the next one on the ring
    option forwardfor       # the player's address, for the workers' per-address limits

frontend hall
    bind {bind[0]}:{bind[1]}
{capped}    http-request del-header X-Forwarded-For     # only the proxy says where a player is
    # the room a request is about: /ws/ROOM and /api/rooms/ROOM/...
    http-request set-var(txn.room) path,field(3,/) if {{ path_beg /ws/ }}
    http-request set-var(txn.room) path,field(4,/) if {{ path_beg /api/rooms/ }} {{ path,field(4,/) -m found }}
    use_backend rooms if {{ var(txn.room) -m len gt 0 }}
    default_backend any

backend rooms
    balance hash var(txn.room)
    hash-type consistent
    option httpchk GET /healthz
{checked}

backend any
    balance leastconn
{tracking}
{stats_section}"""
