"""The hall server: the web hall's transport, its tables, accounts, cluster and store.

The server is in layers, and an import only ever goes down (``lint-imports`` checks it in
``make test``; imports inside functions and under ``TYPE_CHECKING`` count)::

    web/        the ASGI app, its routes and the table WebSocket, Origin checks, the
                protocol's schemas, running uvicorn           (paiju serve)
     |
    tables/     the hall and its tables (one asyncio actor per room): seats, the hand,
                computer players and 托管, hints, the Shengji deal's pace, replays,
                复盘 jobs, the bot pool, fair shares, a worker's rooms in a cluster
     |
    accounts/   users and passwords, the end of a hand (beans, results, ratings),
    cluster/    profiles and leaderboards  |  leases, what workers share in Redis,
     |          the proxy's configuration   (the two never import each other)
    store/      the schema and its transactions, the writer thread, stored records,
     |          the Alembic migrations
    reasons.py  the hall's reason codes, which every layer may raise

A lower layer that needs something of a higher one declares it as a small ``Protocol``
(``tables.host.TableHost``: what a table needs of its hall; ``tables.cluster_rooms.
RoomsHost``; ``cluster.shared.FairShares``). docs/architecture.md walks an action from the
browser to the store and back, and says where to add a game, an option, a bot or an
endpoint.
"""
