"""Room leases: which worker of a cluster plays a room, decided by the database.

Every room has one row in ``room_owners``: the worker holding it, a fencing token and the
lease's end by the database's clock. A worker *claims* a room whose lease has ended (its
owner died, was paused or cut off, or gave it up) by raising the token; it *renews* all its
leases in one statement a few times per lease; and every write of a table carries the token
it was claimed with, checked by the writer in the same transaction (writer.py). A worker
whose lease was claimed by another — however late it learns it — stores nothing more.

Timing only decides *when* another worker may claim a room, never whether two can write:
two claims of one row are serialized by the database, and only the last token writes.

Each function runs in a transaction it is given (``*_tx``), on a thread, never on the loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import or_, select, update
from sqlalchemy.engine import Connection

from paiju.server.store import db_clock, room_owners, rooms

CLOSED = ("closed", "archived")


@dataclass(frozen=True)
class Lease:
    """A room this worker holds: the token its writes carry."""

    room: str
    token: int


def claim_tx(c: Connection, room: str, worker: str, ttl: float, ended_for: float = 0.0) -> Lease | None:
    """Take ``room`` for ``worker`` if nobody holds it, its lease ended at least ``ended_for``
    seconds ago, or ``worker`` held it (a worker restarted under the same name); None when
    another worker holds it. The token is raised on every claim, so whoever held it before
    — even this worker's earlier life — can write nothing more."""
    now = db_clock(c)
    free = or_(
        room_owners.c.worker.is_(None),
        room_owners.c.expires_at < now - ended_for,
        room_owners.c.worker == worker,
    )
    q = (
        update(room_owners)
        .where(room_owners.c.room_id == room, free)
        .values(worker=worker, token=room_owners.c.token + 1, expires_at=now + ttl, wanted_by=None)
        .returning(room_owners.c.token)
    )
    token = c.execute(q).scalar_one_or_none()
    return None if token is None else Lease(room, int(token))


def renew_tx(c: Connection, worker: str, ttl: float) -> dict[str, tuple[int, str | None]]:
    """Extend every lease ``worker`` holds: room → (token, the worker that wants it or None)."""
    q = (
        update(room_owners)
        .where(room_owners.c.worker == worker)
        .values(expires_at=db_clock(c) + ttl)
        .returning(room_owners.c.room_id, room_owners.c.token, room_owners.c.wanted_by)
    )
    return {r: (int(t), w) for r, t, w in c.execute(q).all()}


def release_tx(c: Connection, lease: Lease) -> None:
    """Give a room up (it moves, or the worker stops): claimable at once."""
    q = (
        update(room_owners)
        .where(room_owners.c.room_id == lease.room, room_owners.c.token == lease.token)
        .values(worker=None, expires_at=db_clock(c), wanted_by=None)
    )
    c.execute(q)


def want_tx(c: Connection, room: str, worker: str) -> str | None:
    """Ask the holder of ``room`` to give it to ``worker`` (the proxy sends the room's players
    there); the holder it was asked of, or None when nobody holds it."""
    q = (
        update(room_owners)
        .where(
            room_owners.c.room_id == room,
            room_owners.c.worker.is_not(None),
            room_owners.c.worker != worker,
            room_owners.c.expires_at >= db_clock(c),
        )
        .values(wanted_by=worker)
        .returning(room_owners.c.worker)
    )
    owner = c.execute(q).scalar_one_or_none()
    return None if owner is None else str(owner)


def owner_tx(c: Connection, room: str) -> tuple[str | None, float] | None:
    """Who holds ``room`` and for how many more seconds (None: no such room)."""
    row = c.execute(select(room_owners.c.worker, room_owners.c.expires_at).where(room_owners.c.room_id == room)).first()
    if row is None:
        return None
    return row[0], float(row[1]) - db_clock(c)


def orphans_tx(c: Connection, ended_for: float, limit: int) -> list[str]:
    """Open rooms nobody has held for ``ended_for`` seconds (their owner died or gave them up):
    every open room needs an owner, for its bots, its timers and its place in the lobby."""
    now = db_clock(c)
    q = (
        select(room_owners.c.room_id)
        .join(rooms, rooms.c.id == room_owners.c.room_id)
        .where(
            rooms.c.status.not_in(CLOSED),
            rooms.c.damaged.is_(None),
            room_owners.c.expires_at < now - ended_for,  # released rooms too: their end is when they were released
        )
        .order_by(room_owners.c.expires_at)
        .limit(limit)
    )
    return [r for (r,) in c.execute(q).all()]


def release_all_tx(c: Connection, worker: str) -> int:
    """A worker stopping gives up every room it holds (the others claim them at once)."""
    q = (
        update(room_owners)
        .where(room_owners.c.worker == worker)
        .values(worker=None, expires_at=db_clock(c), wanted_by=None)
    )
    return int(c.execute(q).rowcount or 0)
