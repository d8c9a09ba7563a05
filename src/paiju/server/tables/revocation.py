"""Ended sessions end their connections: a logout, a changed password, a disabled or banned
account closes that account's open table sockets at once, everywhere.

A request of the hall that ends sessions calls :meth:`Revocation.end` (or :meth:`muted`):
this process closes its matching connections at once and, on a worker of a cluster, tells
the others on the cluster's Redis (``Shared.publish``), who do the same. Sessions ended
behind the hall's back — ``paiju admin user disable`` or ``reset-password`` run against its
database, or a message lost while Redis was away — are found by :meth:`_watch`: every
``WATCH_EVERY`` seconds it asks the store which of the sessions its open connections were
opened with are revoked, or belong to a disabled account, and closes those.

Each closed connection is first sent ``{"type": "closed", "code": "session_ended",
"params": {"why": …}}`` so that the page says why and does not reconnect.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import or_, select
from sqlalchemy.engine import Connection

from paiju.server.accounts.moderation import aware, is_barred_now
from paiju.server.store.db import Store, players, sessions
from paiju.server.tables.connection import Conn


class Holder(Protocol):
    """What revocation needs of the hall (hall.py's ``Hall``, which is above it)."""

    store: Store
    tables: dict[str, Any]  # room → its table (table.py), whose ``conns`` are its connections
    cluster: Any  # cluster_rooms.Cluster (its ``shared`` tells the other workers), or None


WATCH_EVERY = 5.0  # seconds between looks at the store for sessions ended behind the hall's back
CLOSE_SESSION_ENDED = 4401  # the page's "log in again" close code
WHY = {
    "logout": "you logged out of this session",
    "password": "the account's password was changed: log in again",
    "disabled": "this account is disabled",
    "banned": "this account is banned",
    "revoked": "this session was ended: log in again",
}
log = logging.getLogger("paiju.revocation")


def ended_tx(c: Connection, sids: list[str]) -> dict[str, str]:
    """Of the sessions ``sids``, those ended (revoked, or their account disabled) and why."""
    out: dict[str, str] = {}
    for i in range(0, len(sids), 500):
        chunk = sids[i : i + 500]
        q = (
            select(sessions.c.id, sessions.c.revoked_at, players.c.disabled, players.c.banned_until)
            .join(players, players.c.id == sessions.c.player_id)
            .where(sessions.c.id.in_(chunk), or_(sessions.c.revoked_at.is_not(None), players.c.disabled.is_(True)))
        )
        for r in c.execute(q).mappings():
            if is_barred_now(dict(r)):
                out[r["id"]] = "banned" if r["banned_until"] is not None else "disabled"
            elif r["revoked_at"] is not None:
                out[r["id"]] = "revoked"
    return out


class Revocation:
    """One process's side: its connections closed when their sessions end."""

    def __init__(self, hall: Holder) -> None:
        self.hall = hall
        self._task: asyncio.Task[None] | None = None
        self.closed = 0  # connections closed because their session ended (a figure for tests and metrics)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._watch(), name="revocation")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def _conns(self) -> Iterator[Conn]:
        for table in list(self.hall.tables.values()):
            yield from list(table.conns)

    # ------------------------------------------------------------------ told by this process or another
    async def end(self, pid: int, why: str, *, session: str | None = None, keep: str | None = None) -> None:
        """Sessions of ``pid`` ended (``session``: that one only; ``keep``: all but that one):
        close their connections here, and tell the cluster's other workers."""
        self.close_local(pid, why, session=session, keep=keep)
        cluster = self.hall.cluster
        if cluster is not None:
            await cluster.shared.publish({"kind": "end", "player": pid, "why": why, "session": session, "keep": keep})

    def close_local(self, pid: int, why: str, *, session: str | None = None, keep: str | None = None) -> int:
        n = 0
        for conn in self._conns():
            if conn.player["id"] != pid or conn.closed:
                continue
            if (session is not None and conn.session != session) or (keep is not None and conn.session == keep):
                continue
            conn.end("session_ended", WHY.get(why, WHY["revoked"]), CLOSE_SESSION_ENDED, why=why)
            n += 1
        self.closed += n
        return n

    async def muted(self, pid: int, until: datetime | None) -> None:
        """Account ``pid`` was muted until ``until`` (None: no longer): its open connections know."""
        self.mute_local(pid, until)
        cluster = self.hall.cluster
        if cluster is not None:
            await cluster.shared.publish({"kind": "mute", "player": pid, "until": until.isoformat() if until else None})

    def mute_local(self, pid: int, until: datetime | None) -> None:
        for conn in self._conns():
            if conn.player["id"] == pid:
                conn.player["muted_until"] = until

    async def heard(self, msg: dict[str, Any]) -> None:
        """A message of another worker (Shared's bus)."""
        kind, pid = msg.get("kind"), msg.get("player")
        if not isinstance(pid, int):
            return
        if kind == "end":
            self.close_local(pid, str(msg.get("why")), session=msg.get("session"), keep=msg.get("keep"))
        elif kind == "mute":
            until = msg.get("until")
            self.mute_local(pid, aware(datetime.fromisoformat(until)) if isinstance(until, str) else None)

    # ------------------------------------------------------------------ behind the hall's back
    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(WATCH_EVERY)
            try:
                await self.check()
            except Exception as e:  # the store does not answer: look again next time
                log.debug("could not look for ended sessions: %s", e)

    async def check(self) -> int:
        """Close the connections whose sessions the store says are ended; how many."""
        by_session: dict[str, list[Conn]] = {}
        for conn in self._conns():
            if conn.session is not None and not conn.closed:
                by_session.setdefault(conn.session, []).append(conn)
        if not by_session:
            return 0
        ended = await asyncio.to_thread(self.hall.store.read, ended_tx, sorted(by_session))
        n = 0
        for sid, why in ended.items():
            for conn in by_session.get(sid, []):
                conn.end("session_ended", WHY[why], CLOSE_SESSION_ENDED, why=why)
                n += 1
        self.closed += n
        return n
