"""A tournament's rows 比赛: the tournament, its entrants and every planned hand with its
result — all the director (paiju.server.tournaments.director) needs to resume after a
restart. Functions named ``*_tx`` run inside a transaction they are given, as in db.py."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from paiju.server.store.db import now, tournament_entrants, tournament_hands, tournaments


def create_tournament_tx(c: Connection, values: dict[str, Any]) -> int:
    """A new tournament (status registering); its id."""
    got = c.execute(insert(tournaments).values(status="registering", created_at=now(), **values)).inserted_primary_key
    assert got is not None
    return int(got[0])


def tournament_tx(c: Connection, tid: int, lock: bool = False) -> dict[str, Any] | None:
    """One tournament (``lock``: its row locked FOR UPDATE where the database can, so that
    two hall workers never direct it at once)."""
    q = select(tournaments).where(tournaments.c.id == tid)
    if lock and c.dialect.name != "sqlite":
        q = q.with_for_update()
    row = c.execute(q).first()
    return dict(row._mapping) if row is not None else None


def tournaments_tx(c: Connection, status: str | None = None) -> list[dict[str, Any]]:
    """Every tournament (or those of ``status``), newest first."""
    q = select(tournaments).order_by(tournaments.c.id.desc())
    if status is not None:
        q = q.where(tournaments.c.status == status)
    return [dict(r._mapping) for r in c.execute(q)]


def save_tournament_tx(c: Connection, tid: int, **values: Any) -> None:
    c.execute(update(tournaments).where(tournaments.c.id == tid).values(**values))


def entrants_tx(c: Connection, tid: int) -> list[dict[str, Any]]:
    """A tournament's entrants in seed (registration) order."""
    q = select(tournament_entrants).where(tournament_entrants.c.tournament_id == tid)
    return [dict(r._mapping) for r in c.execute(q.order_by(tournament_entrants.c.seed))]


def add_entrant_tx(c: Connection, tid: int, entrant: str, players: list[int], bot: str | None = None) -> None:
    """Register an entrant, seeded after those registered before it."""
    last = c.execute(
        select(func.max(tournament_entrants.c.seed)).where(tournament_entrants.c.tournament_id == tid)
    ).scalar()
    c.execute(
        insert(tournament_entrants).values(
            tournament_id=tid, entrant=entrant, players=players, seed=(last or 0) + 1, bot=bot
        )
    )


def hands_tx(c: Connection, tid: int, round_no: int | None = None) -> list[dict[str, Any]]:
    """A tournament's planned hands (of one round), round, table and place in order."""
    q = select(tournament_hands).where(tournament_hands.c.tournament_id == tid)
    if round_no is not None:
        q = q.where(tournament_hands.c.round == round_no)
    q = q.order_by(tournament_hands.c.round, tournament_hands.c.table_no, tournament_hands.c.seq)
    return [dict(r._mapping) for r in c.execute(q)]


def plan_round_tx(c: Connection, tid: int, round_no: int, rows: list[dict[str, Any]]) -> None:
    """Store round ``round_no``'s planned hands and make it the current round (once: a
    round already planned is kept as it is)."""
    have = c.execute(
        select(func.count())
        .select_from(tournament_hands)
        .where(tournament_hands.c.tournament_id == tid, tournament_hands.c.round == round_no)
    ).scalar()
    if not have and rows:
        c.execute(insert(tournament_hands), [{"tournament_id": tid, "round": round_no, **r} for r in rows])
    save_tournament_tx(c, tid, current_round=round_no)


def set_room_tx(c: Connection, tid: int, round_no: int, table_no: int, room_id: str) -> None:
    """The room that plays table ``table_no`` of the round."""
    c.execute(
        update(tournament_hands)
        .where(
            tournament_hands.c.tournament_id == tid,
            tournament_hands.c.round == round_no,
            tournament_hands.c.table_no == table_no,
        )
        .values(room_id=room_id)
    )


def planned_hand_tx(c: Connection, tid: int, round_no: int, table_no: int, seq: int) -> dict[str, Any] | None:
    """The hand a tournament table plays ``seq``-th (None: it has played them all)."""
    q = select(tournament_hands).where(
        tournament_hands.c.tournament_id == tid,
        tournament_hands.c.round == round_no,
        tournament_hands.c.table_no == table_no,
        tournament_hands.c.seq == seq,
    )
    row = c.execute(q).first()
    return dict(row._mapping) if row is not None else None


def hand_done_tx(
    c: Connection, tid: int, round_no: int, table_no: int, seq: int, hand_id: int, scores: list[int]
) -> None:
    """A planned hand's result, in the transaction that finishes the hand (the first result
    stands: a room left over from a crash cannot overwrite it)."""
    c.execute(
        update(tournament_hands)
        .where(
            tournament_hands.c.tournament_id == tid,
            tournament_hands.c.round == round_no,
            tournament_hands.c.table_no == table_no,
            tournament_hands.c.seq == seq,
            tournament_hands.c.scores.is_(None),
        )
        .values(hand_id=hand_id, scores=scores)
    )
