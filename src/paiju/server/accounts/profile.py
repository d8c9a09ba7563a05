"""A player's page and the leaderboards 排行榜: reads of the store, nothing written.

The profile counts a player's hands per game and per role (a hand is *won* when its
score is above 0), the title 游戏等级 of each game from the points of its scored hands
(``paiju.titles``), the rating (openskill's ordinal, settlement.py), the bean balance
over time (the ledger summed row by row) and the rating over time (each result keeps
the rating after its hand), and the player's hands, newest first, each with the address
of its record.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.engine import Connection

from paiju.registry import GAMES
from paiju.server.store.db import balance_tx, hands, ledger, players, ratings, results
from paiju.titles import title

BOARDS = ("rating", "beans", "points")
"""What a leaderboard orders by: the rating, the beans won in the game, or the points (the title)."""
HISTORY = 200
"""At most this many points of a chart (the latest)."""


def _title(game: str, points: int) -> dict[str, Any]:
    t = title(game, points)
    return {"level": t.level, "zh": t.name_zh, "en": t.name_en, "next_at": t.next_at}


def _ordinal(mu: float, sigma: float) -> float:
    return round(mu - 3 * sigma, 2)


def profile_tx(c: Connection, pid: int, offset: int = 0, limit: int = 20) -> dict[str, Any] | None:
    """Everything a player's page shows (None: no such player)."""
    p = c.execute(select(players).where(players.c.id == pid)).mappings().first()
    if p is None:
        return None
    guest = p["username"] is None
    won = func.sum(case((results.c.score > 0, 1), else_=0))
    per_role = c.execute(
        select(results.c.game, results.c.role, func.count(), won, func.sum(results.c.score), func.sum(results.c.beans))
        .where(results.c.player_id == pid, results.c.scored.is_(True))
        .group_by(results.c.game, results.c.role)
    ).all()
    played: dict[str, int] = dict(
        c.execute(select(results.c.game, func.count()).where(results.c.player_id == pid).group_by(results.c.game)).all()
    )
    rated = {r.game: r for r in c.execute(select(ratings).where(ratings.c.player_id == pid))}
    games: dict[str, Any] = {}
    for game in GAMES:
        rows = [r for r in per_role if r[0] == game]
        points = sum(int(r[4] or 0) for r in rows)
        scored = sum(int(r[2]) for r in rows)
        r = rated.get(game)
        games[game] = {
            "hands": int(played.get(game, 0)),
            "scored": scored,
            "won": sum(int(r[3] or 0) for r in rows),
            "points": points,
            "beans": sum(int(r[5] or 0) for r in rows),
            "title": _title(game, points),
            "rating": _ordinal(r.mu, r.sigma) if r else None,
            "roles": {row[1]: {"played": int(row[2]), "won": int(row[3] or 0)} for row in rows},
        }
    balance = None
    beans_history: list[list[Any]] = []
    if not guest:
        moves = c.execute(
            select(ledger.c.created_at, ledger.c.amount).where(ledger.c.player_id == pid).order_by(ledger.c.id)
        ).all()
        total = 0
        for at, amount in moves:
            total += int(amount)
            beans_history.append([at.isoformat(), total])
        balance = total
        beans_history = beans_history[-HISTORY:]
    rating_history: dict[str, list[list[Any]]] = {}
    for game in GAMES:
        q = (
            select(results.c.created_at, results.c.rating)
            .where(results.c.player_id == pid, results.c.game == game, results.c.rating.is_not(None))
            .order_by(results.c.id.desc())
            .limit(HISTORY)
        )
        points_ = [[at.isoformat(), float(v)] for at, v in c.execute(q).all()][::-1]
        if points_:
            rating_history[game] = points_
    total_hands = int(c.execute(select(func.count()).where(results.c.player_id == pid)).scalar_one())
    q = (
        select(results, hands.c.room_id, hands.c.number, hands.c.finished_at)
        .join(hands, hands.c.id == results.c.hand_id)
        .where(results.c.player_id == pid)
        .order_by(results.c.id.desc())
        .offset(offset)
        .limit(limit)
    )
    items = [
        {
            "hand_id": r.hand_id,
            "room_id": r.room_id,
            "number": r.number,
            "game": r.game,
            "seat": r.seat,
            "role": r.role,
            "score": r.score,
            "scored": r.scored,
            "beans": r.beans,
            "rating": r.rating,
            "finished_at": r.finished_at.isoformat() if r.finished_at else None,
            "record": f"/api/rooms/{r.room_id}/hands/{r.number}",
        }
        for r in c.execute(q).all()
    ]
    return {
        "player": {
            "id": pid,
            "name": p["name"],
            "guest": guest,
            "created_at": p["created_at"].isoformat(),
            "beans": balance,
        },
        "games": games,
        "beans_history": beans_history,
        "rating_history": rating_history,
        "hands": {"total": total_hands, "offset": offset, "limit": limit, "items": items},
    }


def leaderboard_tx(c: Connection, game: str, by: str, offset: int = 0, limit: int = 20) -> dict[str, Any]:
    """One game's board, best first: every player with a scored hand of it (beans: accounts only)."""
    mine = results.c.game == game
    per_player = (
        select(
            results.c.player_id.label("pid"),
            func.count().label("hands"),
            func.sum(results.c.score).label("points"),
            func.sum(results.c.beans).label("beans"),
        )
        .where(mine, results.c.scored.is_(True))
        .group_by(results.c.player_id)
        .subquery()
    )
    ordinal = (ratings.c.mu - 3 * ratings.c.sigma).label("ordinal")
    q = (
        select(players.c.id, players.c.name, players.c.username, per_player, ordinal)
        .join(per_player, per_player.c.pid == players.c.id)
        .outerjoin(ratings, (ratings.c.player_id == players.c.id) & (ratings.c.game == game))
    )
    if by == "beans":
        q = q.where(players.c.username.is_not(None))
    order = {"rating": ordinal, "beans": per_player.c.beans, "points": per_player.c.points}[by]
    total = int(c.execute(select(func.count()).select_from(q.subquery())).scalar_one())
    rows = c.execute(q.order_by(order.desc().nulls_last(), players.c.id).offset(offset).limit(limit)).all()
    return {
        "game": game,
        "by": by,
        "total": total,
        "offset": offset,
        "limit": limit,
        "rows": [
            {
                "rank": offset + i + 1,
                "id": r.id,
                "name": r.name,
                "guest": r.username is None,
                "hands": int(r.hands),
                "points": int(r.points or 0),
                "beans": int(r.beans or 0),
                "rating": round(float(r.ordinal), 2) if r.ordinal is not None else None,
                "title": _title(game, int(r.points or 0)),
            }
            for i, r in enumerate(rows)
        ],
    }


def standing_tx(c: Connection, pid: int, game: str) -> dict[str, Any]:
    """What a table shows beside a seated person: beans (None: none at stake — a guest, or
    an account before its start beans) and the title in ``game``."""
    granted = c.execute(select(ledger.c.id).where(ledger.c.player_id == pid, ledger.c.kind == "start").limit(1))
    beans = None if granted.first() is None else balance_tx(c, pid)
    points = c.execute(
        select(func.coalesce(func.sum(results.c.score), 0)).where(
            results.c.player_id == pid, results.c.game == game, results.c.scored.is_(True)
        )
    ).scalar_one()
    return {"beans": beans, "title": _title(game, int(points))}
