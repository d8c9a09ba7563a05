"""Room ownership: which worker of a cluster plays a room, decided by the database.

Every room has one row in ``room_owners``: the worker playing it and a fencing token. A
worker's hold on all its rooms is one lease, its row in ``workers``, renewed a few times
per lease in one statement whatever the number of its rooms. A worker *claims* a room that
nobody plays, or whose worker's lease ended (it died, was paused or cut off), by raising
the room's token; every write of a table carries the token it was claimed with, checked
by the writer in the same transaction (writer.py). A worker whose room was claimed by
another — however late it learns it — stores nothing more for it.

Timing only decides *when* another worker may claim a room, never whether two can write:
two claims of one row are serialized by the database, and only the last token writes.

Each function runs in a transaction it is given (``*_tx``), on a thread, never on the loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, exists, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from paiju.server.store.db import db_clock, room_owners, rooms, workers

CLOSED = ("closed", "archived")


@dataclass(frozen=True)
class Lease:
    """A room this worker plays: the token its writes carry."""

    room: str
    token: int


def _ended(now: float, ended_for: float) -> ColumnElement[bool]:
    """The room's worker holds it no more: nobody's (released ``ended_for`` ago), or its
    worker's lease ended ``ended_for`` ago, or its worker is unknown."""
    live = exists().where(workers.c.id == room_owners.c.worker, workers.c.expires_at >= now - ended_for)
    return or_(
        (room_owners.c.worker.is_(None)) & (room_owners.c.released_at <= now - ended_for),
        (room_owners.c.worker.is_not(None)) & ~live,
    )


def renew_tx(c: Connection, worker: str, ttl: float) -> dict[str, tuple[int, str | None]]:
    """Extend ``worker``'s lease (made if new); the rooms it holds: room → (token, the worker
    that asks for it or None). A room missing, or with another token, was claimed by another."""
    until = db_clock(c) + ttl
    if c.execute(update(workers).where(workers.c.id == worker).values(expires_at=until)).rowcount == 0:
        c.execute(insert(workers).values(id=worker, expires_at=until))
    q = select(room_owners.c.room_id, room_owners.c.token, room_owners.c.wanted_by).where(
        room_owners.c.worker == worker
    )
    return {r: (int(t), w) for r, t, w in c.execute(q).all()}


def claim_tx(c: Connection, room: str, worker: str, ended_for: float = 0.0) -> Lease | None:
    """Take ``room`` for ``worker`` if nobody plays it, its worker's lease ended at least
    ``ended_for`` seconds ago, or ``worker`` played it (a worker restarted under the same
    name); None when a live worker plays it. The token is raised on every claim, so whoever
    played it before — even this worker's earlier life — can write nothing more."""
    now = db_clock(c)
    q = (
        update(room_owners)
        .where(room_owners.c.room_id == room, or_(_ended(now, ended_for), room_owners.c.worker == worker))
        .values(worker=worker, token=room_owners.c.token + 1, wanted_by=None)
        .returning(room_owners.c.token)
    )
    token = c.execute(q).scalar_one_or_none()
    return None if token is None else Lease(room, int(token))


def release_tx(c: Connection, lease: Lease) -> None:
    """Give a room up (it moves, closes, or the worker stops): claimable at once."""
    q = (
        update(room_owners)
        .where(room_owners.c.room_id == lease.room, room_owners.c.token == lease.token)
        .values(worker=None, released_at=db_clock(c), wanted_by=None)
    )
    c.execute(q)


def want_tx(c: Connection, room: str, worker: str) -> str | None:
    """Ask the worker playing ``room`` to give it to ``worker`` (the proxy sends the room's
    players there); the worker asked, or None when no live worker plays it."""
    q = (
        update(room_owners)
        .where(
            room_owners.c.room_id == room,
            room_owners.c.worker.is_not(None),
            room_owners.c.worker != worker,
            ~_ended(db_clock(c), 0.0),
        )
        .values(wanted_by=worker)
        .returning(room_owners.c.worker)
    )
    owner = c.execute(q).scalar_one_or_none()
    return None if owner is None else str(owner)


def owner_tx(c: Connection, room: str) -> tuple[str | None, bool] | None:
    """Who plays ``room`` and whether that worker's lease runs (None: no such room)."""
    row = c.execute(select(room_owners.c.worker).where(room_owners.c.room_id == room)).first()
    if row is None:
        return None
    if row[0] is None:
        return None, False
    live = c.execute(select(workers.c.expires_at).where(workers.c.id == row[0])).scalar_one_or_none()
    return row[0], live is not None and float(live) >= db_clock(c)


def orphans_tx(c: Connection, ended_for: float, limit: int) -> list[str]:
    """Open rooms nobody has played for ``ended_for`` seconds (their worker died or gave them
    up): every open room needs a worker, for its bots, its timers and its place in the lobby."""
    q = (
        select(room_owners.c.room_id)
        .join(rooms, rooms.c.id == room_owners.c.room_id)
        .where(rooms.c.status.not_in(CLOSED), rooms.c.damaged.is_(None), _ended(db_clock(c), ended_for))
        .limit(limit)
    )
    return [r for (r,) in c.execute(q).all()]


def release_all_tx(c: Connection, worker: str) -> int:
    """A worker stopping gives up every room it plays (the others claim them at once) and its lease."""
    q = (
        update(room_owners)
        .where(room_owners.c.worker == worker)
        .values(worker=None, released_at=db_clock(c), wanted_by=None)
    )
    n = int(c.execute(q).rowcount or 0)
    c.execute(delete(workers).where(workers.c.id == worker))
    return n
