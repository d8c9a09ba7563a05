"""The people in charge 管理员: roles, and what an administrator or a moderator may do to an
account — mute 禁言, ban 封号, grant beans — each written to the append-only audit log.

Roles, lowest first: ``player`` (everyone), ``moderator`` (reports, kick, unseat, mute,
and reading users, rooms and the audit log) and ``admin`` (all of that, and roles, bans,
beans and closing a room). :func:`allowed` is the one place that says who may do what.

The ``*_tx`` functions run inside the transaction they are given (the hall's writer
thread, or a command of ``paiju admin``); each writes its audit row in the same
transaction, so an action and its record are stored together or not at all.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.engine import Connection

from paiju.errors import IllegalAction
from paiju.server import reasons as _reasons  # noqa: F401 - registers the codes raised here
from paiju.server.accounts.settlement import add_beans_tx
from paiju.server.store import db
from paiju.server.store.db import audit, ledger, players, reports, sessions

ROLES = ("player", "moderator", "admin")
MODERATOR_ACTIONS = frozenset({"reports", "kick", "unseat", "mute", "users", "rooms", "audit"})
ADMIN_ACTIONS = MODERATOR_ACTIONS | {"role", "ban", "grant", "close"}
REASON_MAX = 200
MAX_MINUTES = 366 * 24 * 60  # a mute or a ban lasts at most a year (for good: a ban without an end)
MAX_GRANT = 10_000_000
CLI_ACTOR = "paiju admin"  # the audit log's actor of a command run on the database


def allowed(role: str | None, action: str) -> bool:
    """May an account of ``role`` take ``action`` (one of ADMIN_ACTIONS)?"""
    if role == "admin":
        return action in ADMIN_ACTIONS
    if role == "moderator":
        return action in MODERATOR_ACTIONS
    return False


def require(player: dict[str, Any] | None, action: str) -> None:
    """Raise unless ``player`` (as ``/api/me`` reads it) may take ``action``."""
    if player is None or player.get("username") is None:
        raise IllegalAction("log in to an account first", "not_account")
    if not allowed(player.get("role"), action):
        raise IllegalAction("only an administrator may do this", "not_admin")


def check_reason(raw: object) -> str:
    """Why an administrator acts: 1-200 characters of text, spaces tidied."""
    text = " ".join(raw.split()) if isinstance(raw, str) else ""
    if not text or len(text) > REASON_MAX or "\x00" in text:
        raise IllegalAction(f"give a reason of 1-{REASON_MAX} characters", "bad_reason", max=REASON_MAX)
    return text


def check_minutes(raw: object, *, allow_none: bool = False, allow_zero: bool = False) -> int | None:
    """A duration in whole minutes (None: for good, where allowed; 0: end it, where allowed)."""
    if raw is None and allow_none:
        return None
    low = 0 if allow_zero else 1
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= MAX_MINUTES:
        raise IllegalAction(f"minutes is a whole number from {low} to {MAX_MINUTES}", "bad_minutes", max=MAX_MINUTES)
    return raw


def check_role(raw: object) -> str:
    if raw not in ROLES:
        raise IllegalAction(f"a role is one of {', '.join(ROLES)}", "bad_role", roles=", ".join(ROLES))
    return str(raw)


def is_barred_now(row: dict[str, Any], now: datetime | None = None) -> bool:
    """Is the account disabled now (disabled for good, or banned until a time not yet come)?"""
    if not row.get("disabled"):
        return False
    until = row.get("banned_until")
    return until is None or aware(until) > (now or db.now())


def muted_until(row: dict[str, Any], now: datetime | None = None) -> datetime | None:
    """The end of the account's mute, if it is muted now."""
    until = row.get("muted_until")
    if until is None:
        return None
    until = aware(until)
    return until if until > (now or db.now()) else None


def aware(t: datetime) -> datetime:
    """SQLite gives back times without their zone: they are stored in UTC."""
    return t if t.tzinfo is not None else t.replace(tzinfo=db.now().tzinfo)


# ---------------------------------------------------------------------- the audit log
def audit_tx(
    c: Connection,
    actor: dict[str, Any] | None,
    action: str,
    reason: str,
    *,
    target: int | None = None,
    room: str | None = None,
    **detail: Any,
) -> None:
    """One row of the audit log (``actor`` None: ``paiju admin`` on the command line)."""
    c.execute(
        insert(audit).values(
            created_at=db.now(),
            actor_id=actor["id"] if actor else None,
            actor=(actor.get("username") or actor["name"]) if actor else CLI_ACTOR,
            action=action,
            target_id=target,
            room_id=room,
            detail=detail,
            reason=reason,
        )
    )


def audit_page_tx(c: Connection, offset: int, limit: int, player: int | None = None) -> dict[str, Any]:
    """The audit log, newest first (``player``: the actions about one account, or by it)."""
    where = [] if player is None else [or_(audit.c.target_id == player, audit.c.actor_id == player)]
    total = int(c.execute(select(func.count()).select_from(audit).where(*where)).scalar_one())
    q = select(audit).where(*where).order_by(audit.c.id.desc()).offset(offset).limit(limit)
    rows = [dict(r) for r in c.execute(q).mappings()]
    names = names_tx(c, {r["target_id"] for r in rows} | {r["actor_id"] for r in rows})
    entries = [
        {
            "id": r["id"],
            "created_at": iso(r["created_at"]),
            "actor": {"id": r["actor_id"], "name": r["actor"]} if r["actor_id"] else None,
            "action": r["action"],
            "target": who(names, r["target_id"]),
            "room": r["room_id"],
            "detail": r["detail"],
            "reason": r["reason"],
        }
        for r in rows
    ]
    return {"entries": entries, "total": total, "offset": offset, "limit": limit}


def names_tx(c: Connection, ids: set[int | None]) -> dict[int, str]:
    wanted = [i for i in ids if i is not None]
    if not wanted:
        return {}
    return {r.id: r.name for r in c.execute(select(players.c.id, players.c.name).where(players.c.id.in_(wanted)))}


def who(names: dict[int, str], pid: int | None) -> dict[str, Any] | None:
    return {"id": pid, "name": names.get(pid, "")} if pid is not None else None


def iso(t: datetime | None) -> str | None:
    return aware(t).isoformat() if t is not None else None


# ---------------------------------------------------------------------- actions on an account
def player_tx(c: Connection, pid: int) -> dict[str, Any]:
    """The player ``pid`` (IllegalAction ``no_such_player``)."""
    row = c.execute(select(players).where(players.c.id == pid)).mappings().first()
    if row is None:
        raise IllegalAction("there is no such player", "no_such_player")
    return dict(row)


def set_role_tx(c: Connection, actor: dict[str, Any] | None, pid: int, role: str, reason: str) -> dict[str, Any]:
    """Make account ``pid`` a player, a moderator or an admin (guests have no role)."""
    target = player_tx(c, pid)
    if target["username"] is None:
        raise IllegalAction("a guest has no role: only an account may be given one", "bad_role", roles="")
    c.execute(update(players).where(players.c.id == pid).values(role=role))
    audit_tx(c, actor, "role", reason, target=pid, role=role, was=target["role"])
    return {**target, "role": role}


def ban_tx(c: Connection, actor: dict[str, Any] | None, pid: int, minutes: int | None, reason: str) -> dict[str, Any]:
    """封号: disable ``pid`` for ``minutes`` (None: for good) and end every session of it."""
    target = player_tx(c, pid)
    until = db.now() + timedelta(minutes=minutes) if minutes is not None else None
    c.execute(update(players).where(players.c.id == pid).values(disabled=True, banned_until=until))
    db.revoke_sessions_tx(c, pid)
    audit_tx(c, actor, "ban", reason, target=pid, minutes=minutes, until=iso(until))
    return {**target, "disabled": True, "banned_until": until}


def unban_tx(c: Connection, actor: dict[str, Any] | None, pid: int, reason: str) -> dict[str, Any]:
    target = player_tx(c, pid)
    c.execute(update(players).where(players.c.id == pid).values(disabled=False, banned_until=None))
    audit_tx(c, actor, "unban", reason, target=pid)
    return {**target, "disabled": False, "banned_until": None}


def mute_tx(c: Connection, actor: dict[str, Any] | None, pid: int, minutes: int, reason: str) -> datetime | None:
    """禁言: no ``say`` at any table for ``minutes`` (0: the mute ends now); its end."""
    player_tx(c, pid)
    until = db.now() + timedelta(minutes=minutes) if minutes else None
    c.execute(update(players).where(players.c.id == pid).values(muted_until=until))
    audit_tx(c, actor, "mute" if minutes else "unmute", reason, target=pid, minutes=minutes, until=iso(until))
    return until


def grant_tx(c: Connection, actor: dict[str, Any] | None, pid: int, beans: Any, reason: str) -> int:
    """Add (or take away, never below 0) beans of account ``pid``: a ledger row of kind
    grant (beans made or unmade, like the start beans and relief); the new balance."""
    if isinstance(beans, bool) or not isinstance(beans, int) or beans == 0 or abs(beans) > MAX_GRANT:
        raise IllegalAction(f"beans is a whole number, not 0, at most {MAX_GRANT} either way", "bad_grant")
    target = player_tx(c, pid)
    if target["username"] is None:
        raise IllegalAction("only an account holds beans", "not_account")
    balance = db.balance_tx(c, pid)
    if balance + beans < 0:
        raise IllegalAction(f"the balance is {balance}: it cannot go below 0", "bad_grant")
    add_beans_tx(c, pid, beans, "grant")
    audit_tx(c, actor, "grant", reason, target=pid, beans=beans, balance=balance + beans)
    return balance + beans


# ---------------------------------------------------------------------- reading accounts
def user_row(r: dict[str, Any], beans: int | None) -> dict[str, Any]:
    return {
        "id": r["id"],
        "name": r["name"],
        "username": r["username"],
        "role": r["role"],
        "beans": beans,
        "disabled": is_barred_now(r),
        "banned_until": iso(r["banned_until"]) if r["disabled"] else None,
        "muted_until": iso(muted_until(r)),
        "created_at": iso(r["created_at"]),
        "registered_from": r["registered_from"],
    }


def users_tx(c: Connection, q: str, offset: int, limit: int) -> dict[str, Any]:
    """Accounts and guests whose name or user name holds ``q`` (or the id ``q``), newest first."""
    where: list[Any] = []
    q = q.strip()
    if q:
        pattern = "%" + q.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        conds: list[Any] = [players.c.name.ilike(pattern, escape="\\"), players.c.username.ilike(pattern, escape="\\")]
        if q.isascii() and q.isdigit() and len(q) <= 15:  # an id the database's integers hold
            conds.append(players.c.id == int(q))
        where.append(or_(*conds))
    total = int(c.execute(select(func.count()).select_from(players).where(*where)).scalar_one())
    rows = [
        dict(r)
        for r in c.execute(
            select(players).where(*where).order_by(players.c.id.desc()).offset(offset).limit(limit)
        ).mappings()
    ]
    accounts = [r["id"] for r in rows if r["username"] is not None]
    beans: dict[int, int] = {}
    if accounts:
        sums = select(ledger.c.player_id, func.sum(ledger.c.amount)).where(ledger.c.player_id.in_(accounts))
        beans = {int(p): int(a) for p, a in c.execute(sums.group_by(ledger.c.player_id))}
    users = [user_row(r, beans.get(r["id"], 0) if r["username"] is not None else None) for r in rows]
    return {"users": users, "total": total, "offset": offset, "limit": limit}


def user_detail_tx(c: Connection, pid: int) -> dict[str, Any]:
    """One account as the console shows it: its sessions, the reports against it, its last beans."""
    r = player_tx(c, pid)
    beans = db.balance_tx(c, pid) if r["username"] is not None else None
    q = select(sessions).where(sessions.c.player_id == pid).order_by(sessions.c.created_at.desc()).limit(20)
    got = [
        {"created_at": iso(s.created_at), "revoked_at": iso(s.revoked_at), "address": s.address} for s in c.execute(q)
    ]
    against = int(c.execute(select(func.count()).where(reports.c.reported_id == pid)).scalar_one())
    q2 = select(ledger).where(ledger.c.player_id == pid).order_by(ledger.c.id.desc()).limit(20)
    rows = [
        {"amount": int(x.amount), "kind": x.kind, "hand_id": x.hand_id, "created_at": iso(x.created_at)}
        for x in c.execute(q2)
    ]
    return {"user": user_row(r, beans), "sessions": got, "reports_against": against, "ledger": rows}
