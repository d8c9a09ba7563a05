"""Reports 举报: a player's report of another — from the table (the room, the hand and the
chat lines around it are kept with it) or from a profile — for a moderator to look at.

The seeds' competitions give both sides 「互相监督检举权」, the right to report. The hall
keeps who reported whom, but tells the reported player nothing, and the reporter only
that the report was received. A player files at most ``PER_HOUR`` reports an hour (counted
in the store: the same on every worker of a cluster).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from paiju.errors import IllegalAction
from paiju.server import reasons as _reasons  # noqa: F401 - registers the codes raised here
from paiju.server.accounts.moderation import audit_tx, iso, names_tx, player_tx, who
from paiju.server.store import db
from paiju.server.store.db import reports, rooms

REASONS = ("cheating", "abuse", "stalling", "other")  # 作弊/串通, 辱骂, 拖延, 其他
TEXT_MAX = 200
PER_HOUR = 5
CHAT_KEPT = 20  # chat lines kept with a report from the table


def check_report(reason: object, text: object) -> tuple[str, str]:
    """The report's reason (one of REASONS) and its line of text (0-200 characters)."""
    if reason not in REASONS:
        raise IllegalAction(f"a report's reason is one of {', '.join(REASONS)}", "bad_report_reason")
    line = " ".join(text.split()) if isinstance(text, str) else None
    if line is None or len(line) > TEXT_MAX or "\x00" in line:
        raise IllegalAction(f"a report's text is at most {TEXT_MAX} characters", "bad_report_text", max=TEXT_MAX)
    return str(reason), line


def file_report_tx(
    c: Connection,
    reporter: int,
    reported: int,
    reason: str,
    text: str,
    *,
    room: str | None = None,
    hand: int | None = None,
    chat: list[dict[str, Any]] | None = None,
) -> int:
    """Store a report; its id. IllegalAction (nothing written) when it is one too many this
    hour, about oneself, or about nobody."""
    if reporter == reported:
        raise IllegalAction("you cannot report yourself", "report_self")
    player_tx(c, reported)
    since = db.now() - timedelta(hours=1)
    q = select(func.count()).where(reports.c.reporter_id == reporter, reports.c.created_at >= since)
    if int(c.execute(q).scalar_one()) >= PER_HOUR:
        raise IllegalAction(f"at most {PER_HOUR} reports an hour", "too_many_reports", count=PER_HOUR)
    got = c.execute(
        insert(reports).values(
            created_at=db.now(),
            reporter_id=reporter,
            reported_id=reported,
            room_id=room,
            hand_number=hand,
            reason=reason,
            text=text,
            chat=(chat or [])[-CHAT_KEPT:],
            status="open",
        )
    ).inserted_primary_key
    assert got is not None
    return int(got[0])


def reports_page_tx(c: Connection, status: str, offset: int, limit: int) -> dict[str, Any]:
    """Reports, oldest open first (``status`` open, closed or all; closed: newest first)."""
    if status not in ("open", "closed", "all"):
        raise IllegalAction("status is open, closed or all", "bad_value", where="status")
    where = [] if status == "all" else [reports.c.status == status]
    total = int(c.execute(select(func.count()).select_from(reports).where(*where)).scalar_one())
    order = reports.c.id.asc() if status == "open" else reports.c.id.desc()
    q = select(reports, rooms.c.name.label("room_name")).outerjoin(rooms, rooms.c.id == reports.c.room_id)
    rows = [dict(r) for r in c.execute(q.where(*where).order_by(order).offset(offset).limit(limit)).mappings()]
    names = names_tx(c, {r[k] for r in rows for k in ("reporter_id", "reported_id", "handled_by")})
    return {"reports": [_report(r, names) for r in rows], "total": total, "offset": offset, "limit": limit}


def _report(r: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    return {
        "id": r["id"],
        "created_at": iso(r["created_at"]),
        "reporter": who(names, r["reporter_id"]),
        "reported": who(names, r["reported_id"]),
        "room": r["room_id"],
        "room_name": r.get("room_name"),
        "hand": r["hand_number"],
        "reason": r["reason"],
        "text": r["text"],
        "chat": r["chat"],
        "status": r["status"],
        "handled_by": who(names, r["handled_by"]),
        "handled_at": iso(r["handled_at"]),
        "outcome": r["outcome"],
    }


def close_report_tx(c: Connection, actor: dict[str, Any], rid: int, outcome: str) -> dict[str, Any]:
    """A moderator closes report ``rid`` with what was done (also in the audit log)."""
    row = c.execute(select(reports).where(reports.c.id == rid)).mappings().first()
    if row is None:
        raise IllegalAction("there is no such report", "no_such_report")
    if row["status"] != "open":
        raise IllegalAction("this report is closed already", "report_closed")
    values = {"status": "closed", "handled_by": actor["id"], "handled_at": db.now(), "outcome": outcome}
    c.execute(update(reports).where(reports.c.id == rid).values(**values))
    audit_tx(c, actor, "report", outcome, target=row["reported_id"], room=row["room_id"], report=rid)
    merged = {**dict(row), **values}
    room = c.execute(select(rooms.c.name).where(rooms.c.id == row["room_id"])).scalar_one_or_none()
    return _report({**merged, "room_name": room}, names_tx(c, {row["reporter_id"], row["reported_id"], actor["id"]}))
