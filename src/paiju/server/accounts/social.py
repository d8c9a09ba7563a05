"""Friends and blocking 关注 / 拉黑, stored per account.

Following is one-sided (no request to accept): a follower sees whether the players he
follows are online and at which table. Blocking is one-sided to make and two-sided in
effect: the two never share a table (the table checks both directions at sit and quick
start) and neither sees the other's chat or phrases. Guests do neither: their reason
codes (``register_to_follow``, ``register_to_block``) ask them to register. Blocking a
player also stops following him.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, insert, or_, select
from sqlalchemy.engine import Connection

from paiju.errors import IllegalAction
from paiju.server import reasons as _reasons  # noqa: F401 - registers the codes raised here
from paiju.server.accounts.users import normalize_username
from paiju.server.store import db
from paiju.server.store.db import blocks, follows, players

MAX_FOLLOWS = 500  # one account follows at most so many (the friends list is read whole)
MAX_BLOCKS = 500


def _account_tx(c: Connection, pid: int, what: str) -> None:
    row = c.execute(select(players.c.username).where(players.c.id == pid)).first()
    if row is None or row.username is None:
        raise IllegalAction(f"register an account to {what} players", f"register_to_{what}")


def _target_tx(c: Connection, pid: int, other: object, what: str) -> int:
    if isinstance(other, bool) or not isinstance(other, int):
        raise IllegalAction("player is a player's id", "bad_value", where="player")
    if other == pid:
        raise IllegalAction(f"you cannot {what} yourself", f"{what}_self")
    if c.execute(select(players.c.id).where(players.c.id == other)).first() is None:
        raise IllegalAction("there is no such player", "no_such_player")
    return other


def set_follow_tx(c: Connection, pid: int, other: object, on: bool) -> None:
    """``pid`` follows ``other`` (``on``) or no longer does."""
    _account_tx(c, pid, "follow")
    whom = _target_tx(c, pid, other, "follow")
    c.execute(delete(follows).where(follows.c.follower_id == pid, follows.c.followed_id == whom))
    if on:
        count = int(c.execute(select(func.count()).where(follows.c.follower_id == pid)).scalar_one())
        if count >= MAX_FOLLOWS:
            raise IllegalAction(f"you follow {MAX_FOLLOWS} players already", "too_many_follows", count=MAX_FOLLOWS)
        c.execute(insert(follows).values(follower_id=pid, followed_id=whom, created_at=db.now()))


def set_block_tx(c: Connection, pid: int, other: object, on: bool) -> None:
    """``pid`` blocks ``other`` (``on``: and stops following him) or unblocks him."""
    _account_tx(c, pid, "block")
    whom = _target_tx(c, pid, other, "block")
    c.execute(delete(blocks).where(blocks.c.blocker_id == pid, blocks.c.blocked_id == whom))
    if on:
        count = int(c.execute(select(func.count()).where(blocks.c.blocker_id == pid)).scalar_one())
        if count >= MAX_BLOCKS:
            raise IllegalAction(f"you block {MAX_BLOCKS} players already", "too_many_blocks", count=MAX_BLOCKS)
        c.execute(insert(blocks).values(blocker_id=pid, blocked_id=whom, created_at=db.now()))
        c.execute(delete(follows).where(follows.c.follower_id == pid, follows.c.followed_id == whom))


def relations_tx(c: Connection, pid: int) -> dict[str, list[dict[str, Any]]]:
    """Whom ``pid`` follows and whom he blocked, each ``{"id", "name"}``, by name."""
    out: dict[str, list[dict[str, Any]]] = {}
    for key, table, who, whom in (
        ("following", follows, follows.c.follower_id, follows.c.followed_id),
        ("blocked", blocks, blocks.c.blocker_id, blocks.c.blocked_id),
    ):
        q = select(players.c.id, players.c.name).join(table, players.c.id == whom).where(who == pid)
        out[key] = [{"id": r.id, "name": r.name} for r in c.execute(q.order_by(players.c.name, players.c.id))]
    return out


def blocked_ids_tx(c: Connection, pid: int) -> set[int]:
    """Everyone ``pid`` blocked or who blocked ``pid`` (neither sees the other's chat)."""
    q = select(blocks.c.blocker_id, blocks.c.blocked_id).where(
        or_(blocks.c.blocker_id == pid, blocks.c.blocked_id == pid)
    )
    return {r.blocked_id if r.blocker_id == pid else r.blocker_id for r in c.execute(q)}


def player_by_name_or_id_tx(c: Connection, who: object) -> int | None:
    """A reserved seat's player: an id, or an account's user name (normalized as at login)."""
    if isinstance(who, int) and not isinstance(who, bool):
        q = select(players.c.id).where(players.c.id == who)
    elif isinstance(who, str) and who.strip():
        try:
            name = normalize_username(who.strip())
        except IllegalAction:
            return None
        q = select(players.c.id).where(players.c.username == name)
    else:
        return None
    row = c.execute(q).first()
    return int(row.id) if row is not None else None
