"""The tournament director 裁判长: plays a Swiss tournament's rounds through the hall.

The one module of the package that knows the hall and the store (the formats stay pure).
Everything it decides is read again from the store each time, so a restarted hall resumes
where it was: the tournament's row (its current round), its entrants and every planned hand
with its scores (store/tournament_rows.py). A round's pairing and plan are not stored as
such: :func:`~paiju.server.tournaments.rounds.start_round` is deterministic, so they are
worked out again from the finished rounds.

A round starts with its planned hands stored, then one room per table with the hall options
``competition`` and ``tournament`` (tables/tournament_table.py): the table plays exactly its
planned hands and stores each one's scores in the hand's finishing transaction. When every
planned hand of the round has its scores the round is scored
(:func:`~paiju.server.tournaments.rounds.finish_round`) and the next one starts; after the
last, the tournament is finished with its standings.

One hall process directs (docs/decisions.md "Tournaments 比赛"): a worker of a cluster does
not direct (its rooms are claimed by players, not loaded at start).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

from paiju.server.store import tournament_rows
from paiju.server.store.writer import Write
from paiju.server.tables.hall import DEFAULT_TURN_TIMEOUT, Hall
from paiju.server.tournaments.boards import Hand
from paiju.server.tournaments.rounds import finish_round, start_round
from paiju.server.tournaments.standings import RoundResult, standings
from paiju.server.tournaments.swiss import Pairing

log = logging.getLogger("paiju.tournaments")
COMPUTER = "normal"
"""The level of the computer players in a table's empty seats (a Baohuang table of fewer than five)."""


def seating(hand: Hand, entrants: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Each seat of a planned hand: its entrant and the person (a pair's first member at its
    first seat) or computer player who plays it."""
    out: list[dict[str, Any]] = []
    held: dict[str, int] = {}
    for who in hand.lineup:
        if who is None:
            out.append({"entrant": None, "player": None, "bot": COMPUTER})
            continue
        e = entrants[who]
        k = held.get(who, 0)
        held[who] = k + 1
        if e["bot"] is not None or not e["players"]:
            out.append({"entrant": who, "player": None, "bot": e["bot"] or COMPUTER})
        else:
            out.append({"entrant": who, "player": e["players"][k % len(e["players"])], "bot": None})
    return out


def plan_rows(plan: Sequence[Hand], entrants: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """A round's planned hands as tournament_hands rows (``seq``: the place at its table)."""
    rows: list[dict[str, Any]] = []
    seq: dict[int, int] = {}
    for h in plan:
        n = seq.get(h.table, 0)
        seq[h.table] = n + 1
        rows.append(
            {
                "table_no": h.table,
                "seq": n,
                "board": h.board,
                "rotation": h.rotation,
                "seed": h.seed,
                "seating": seating(h, entrants),
            }
        )
    return rows


def played(plan: Sequence[Hand], rows: Sequence[dict[str, Any]]) -> list[Hand]:
    """The plan's hands whose stored rows have scores, with them."""
    by_place = {(r["table_no"], r["seq"]): r for r in rows}
    out: list[Hand] = []
    seq: dict[int, int] = {}
    for h in plan:
        n = seq.get(h.table, 0)
        seq[h.table] = n + 1
        row = by_place.get((h.table, n))
        if row is not None and row["scores"] is not None:
            out.append(h.played(row["scores"]))
    return out


def replay_rounds(
    t: dict[str, Any], seeded: Sequence[str], hands: Sequence[dict[str, Any]]
) -> tuple[list[RoundResult], tuple[Pairing, list[Hand]] | None]:
    """The finished rounds' results and the current round's pairing and plan (None before
    the first), worked out again from the stored hands."""
    done: list[RoundResult] = []
    current = None
    for r in range(1, t["current_round"] + 1):
        pairing, plan = start_round(t["game"], seeded, done, t["seed"], r, t["boards"])
        rows = [h for h in hands if h["round"] == r]
        if r == t["current_round"]:
            current = (pairing, plan)
            if not rows or any(h["scores"] is None for h in rows):
                break
        done.append(finish_round(pairing, plan, played(plan, rows)))
    return done, current


def summary(t: dict[str, Any], entrants: Sequence[dict[str, Any]], hands: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A tournament as GET /api/tournaments/{id} shows it: its entrants, rounds (tables with
    their rooms, byes, round scores) and standings."""
    seeded = [e["entrant"] for e in entrants]
    done, current = replay_rounds(t, seeded, hands) if t["current_round"] else ([], None)
    rounds = []
    for r in range(1, t["current_round"] + 1):
        rows = [h for h in hands if h["round"] == r]
        tables: dict[int, dict[str, Any]] = {}
        for h in rows:
            tab = tables.setdefault(h["table_no"], {"table": h["table_no"], "room": h["room_id"], "hands": []})
            tab["hands"].append(
                {"board": h["board"], "rotation": h["rotation"], "seating": h["seating"], "scores": h["scores"]}
            )
        result = done[r - 1] if r <= len(done) else None
        byes = list(result.byes) if result else (list(current[0].byes) if current else [])
        rounds.append(
            {
                "round": r,
                "tables": list(tables.values()),
                "byes": byes,
                "scores": dict(result.scores) if result else None,
            }
        )
    return {
        **{k: t[k] for k in ("id", "name", "game", "format", "rounds", "boards", "status", "current_round")},
        "created_by": t["created_by"],
        "options": t["options"],
        "entrants": [
            {"entrant": e["entrant"], "players": e["players"], "seed": e["seed"], "bot": e["bot"]} for e in entrants
        ],
        "results": rounds,
        "standings": t["standings"] or [asdict(row) for row in standings(seeded, done)],
    }


def _state_tx(c: Any, tid: int) -> dict[str, Any] | None:
    t = tournament_rows.tournament_tx(c, tid)
    if t is None:
        return None
    return {"t": t, "entrants": tournament_rows.entrants_tx(c, tid), "hands": tournament_rows.hands_tx(c, tid)}


def _set_room(tid: int, round_no: int, table_no: int, room: str) -> Callable[[Any], None]:
    return lambda c: tournament_rows.set_room_tx(c, tid, round_no, table_no, room)


class Director:
    """Directs the hall's running tournaments (one per hall process)."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        hall.on_tournament = self.progress

    async def resume(self) -> None:
        """After a (re)start: every running tournament carries on from the store."""
        running = await asyncio.to_thread(self.hall.store.read, tournament_rows.tournaments_tx, "running")
        for t in running:
            await self.advance(t["id"])

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def progress(self, tid: int) -> None:
        """A hand of ``tid`` was stored: look at its round (in a task of its own)."""
        task = asyncio.get_running_loop().create_task(self.advance(tid), name=f"tournament-{tid}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def advance(self, tid: int) -> None:
        """Do what the stored state asks: plan the next round, make its rooms, or finish."""
        async with self._lock:
            try:
                while await self._step(tid):
                    pass
            except Exception:  # the hall stays up; the next stored hand (or a restart) tries again
                log.exception("tournament %s could not advance", tid)

    async def _step(self, tid: int) -> bool:
        """One step; whether there is another to take at once."""
        state = await asyncio.to_thread(self.hall.store.read, _state_tx, tid)
        if state is None or state["t"]["status"] != "running":
            return False
        t, entrants, hands = state["t"], state["entrants"], state["hands"]
        seeded = [e["entrant"] for e in entrants]
        r = t["current_round"]
        rows = [h for h in hands if h["round"] == r]
        done, _ = replay_rounds(t, seeded, hands) if r else ([], None)
        if r == 0 or (rows and all(h["scores"] is not None for h in rows)):
            if r >= t["rounds"]:
                table = [asdict(row) for row in standings(seeded, done)]
                await self.hall.write(
                    Write(run=lambda c: tournament_rows.save_tournament_tx(c, tid, status="finished", standings=table))
                )
                log.info("tournament %s finished", tid)
                return False
            by_key = {e["entrant"]: e for e in entrants}
            _, plan = start_round(t["game"], seeded, done, t["seed"], r + 1, t["boards"])
            new = plan_rows(plan, by_key)
            await self.hall.write(Write(run=lambda c: tournament_rows.plan_round_tx(c, tid, r + 1, new)))
            log.info("tournament %s: round %d starts", tid, r + 1)
            return True
        await self._open_tables(t, rows)
        return False

    async def _open_tables(self, t: dict[str, Any], rows: list[dict[str, Any]]) -> None:
        """A room for each table of the current round that has none (a new round, or a
        crash between planning it and making its rooms)."""
        tables: dict[int, list[dict[str, Any]]] = {}
        for h in rows:
            tables.setdefault(h["table_no"], []).append(h)
        pids = sorted({s["player"] for h in rows for s in h["seating"] if s["player"] is not None})
        for pid, name in (await asyncio.to_thread(self.hall.store.players_by_id, pids)).items():
            self.hall.remember(pid, name)
        for table_no, hands in sorted(tables.items()):
            if hands[0]["room_id"] is not None:
                continue
            plan = {"id": t["id"], "round": t["current_round"], "table": table_no, "hands": len(hands)}
            first = [{"player": s["player"], "bot": s["bot"]} for s in hands[0]["seating"]]
            options = {**t["options"], "competition": True}
            name = f"{t['name']} · R{t['current_round']} · {table_no + 1}"
            room = await self.hall.create_room(
                name, t["game"], options, DEFAULT_TURN_TIMEOUT, None, tournament=plan, seats=first
            )
            await self.hall.write(Write(run=_set_room(t["id"], t["current_round"], table_no, room.id)))
