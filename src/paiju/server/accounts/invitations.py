"""Invitations sent to a friend 邀请好友, stored until his page reads them.

A player seated at a room (or its creator) invites a player he follows (关注, the friends
list): the invitation carries the room's invitation token, so "join" seats the friend at
a free seat exactly as the copied link does (tables/access.py). The friend's open page —
the lobby or a table, on any worker of a cluster — asks for its invitations every few
seconds and shows each with "join" and "dismiss"; it lasts ``LASTS`` seconds. Nobody is
invited by a stranger (only by those who follow him), nor across a block, nor more than
``PER_WINDOW`` times in ``WINDOW`` by one sender.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select
from sqlalchemy.engine import Connection

from paiju.errors import IllegalAction
from paiju.server import reasons as _reasons  # noqa: F401 - registers the codes raised here
from paiju.server.store import db
from paiju.server.store.db import blocks, follows, invitations, players

LASTS = 600  # seconds an invitation waits for the friend
PER_WINDOW = 20  # invitations one player sends at most in WINDOW seconds
WINDOW = 600
SHOWN = 10  # invitations a page shows at once (the newest)


def invite_tx(c: Connection, sender: int, player: object, room: dict[str, str]) -> int:
    """``sender`` invites ``player`` (whom he follows) to ``room`` (``{"id", "name", "game",
    "invite"}``: the invitation token then); the invitation's id.
    The same invitation again replaces the earlier one (its time starts anew)."""
    if isinstance(player, bool) or not isinstance(player, int):
        raise IllegalAction("player is a player's id", "bad_value", where="player")
    if player == sender:
        raise IllegalAction("you cannot invite yourself", "invite_self")
    if c.execute(select(players.c.id).where(players.c.id == player)).first() is None:
        raise IllegalAction("there is no such player", "no_such_player")
    followed = select(follows.c.followed_id).where(follows.c.follower_id == sender, follows.c.followed_id == player)
    if c.execute(followed).first() is None:
        raise IllegalAction("you invite the players you follow", "invite_not_friend")
    blocked = select(blocks.c.blocker_id).where(
        or_(
            and_(blocks.c.blocker_id == sender, blocks.c.blocked_id == player),
            and_(blocks.c.blocker_id == player, blocks.c.blocked_id == sender),
        )
    )
    if c.execute(blocked).first() is not None:
        raise IllegalAction("you cannot invite this player", "invite_blocked")
    now = db.now()
    c.execute(
        delete(invitations).where(
            invitations.c.sender_id == sender, invitations.c.player_id == player, invitations.c.room_id == room["id"]
        )
    )
    sent = select(func.count()).where(
        invitations.c.sender_id == sender, invitations.c.created_at > now - timedelta(seconds=WINDOW)
    )
    if int(c.execute(sent).scalar_one()) >= PER_WINDOW:
        raise IllegalAction(f"at most {PER_WINDOW} invitations in {WINDOW // 60} minutes", "invites_too_fast")
    c.execute(delete(invitations).where(invitations.c.created_at < now - timedelta(seconds=max(LASTS, WINDOW))))
    got = c.execute(
        insert(invitations).values(
            sender_id=sender,
            player_id=player,
            room_id=room["id"],
            room_name=room["name"][:64],
            game=room["game"],
            token=room["invite"],
            created_at=now,
        )
    ).inserted_primary_key
    assert got is not None
    return int(got[0])


def pending_tx(c: Connection, player: int) -> list[dict[str, Any]]:
    """The invitations waiting for ``player``, newest first: ``{"id", "room", "name", "game",
    "invite", "from": {"id", "name"}, "sent"}`` (a blocked sender's are not shown)."""
    since = db.now() - timedelta(seconds=LASTS)
    blocked = select(blocks.c.blocked_id).where(blocks.c.blocker_id == player)
    q = (
        select(invitations, players.c.name.label("sender_name"))
        .join(players, players.c.id == invitations.c.sender_id)
        .where(
            invitations.c.player_id == player,
            invitations.c.created_at > since,
            invitations.c.sender_id.not_in(blocked),
        )
        .order_by(invitations.c.created_at.desc(), invitations.c.id.desc())
        .limit(SHOWN)
    )
    return [
        {
            "id": r.id,
            "room": r.room_id,
            "name": r.room_name,
            "game": r.game,
            "invite": r.token,
            "from": {"id": r.sender_id, "name": r.sender_name},
            "sent": r.created_at.isoformat(),
        }
        for r in c.execute(q)
    ]


def dismiss_tx(c: Connection, player: int, invitation: object) -> bool:
    """``player`` answered an invitation (joined or dismissed it): it is gone. False when it was not his."""
    if isinstance(invitation, bool) or not isinstance(invitation, int) or not 0 < invitation < 2**63:
        return False
    gone = c.execute(delete(invitations).where(invitations.c.id == invitation, invitations.c.player_id == player))
    return bool(gone.rowcount)
