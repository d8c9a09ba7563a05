"""What lets several hall workers serve one hall: leases, shared state, the proxy.

- ``lease`` — which worker plays a room, decided by the database (fencing tokens);
- ``shared.Shared`` — the lobby, presence and fair shares summed over workers in Redis;
- ``proxy_config.haproxy_config`` — HAProxy's configuration (rooms hashed to workers).

The tables side of a worker (claiming, handing over, losing rooms) is
``paiju.server.tables.cluster_rooms``, above this package.
"""
