"""A tournament's table 比赛桌 (the hall option ``tournament``, set by
paiju.server.tournaments.director): the room plays exactly the hands the director planned
for it — each hand's seed and seating from the plan, the room's engine options fresh on
every board (a board is one independent hand: nothing carries over), no 准备 (the next
board starts after a short pause), a person not at the table dealt in on 托管 with the
leave penalty. Each finished hand's scores are stored with the plan in the transaction that
finishes the hand; then the hall tells the director.

:class:`TableTournament` is a part of :class:`~paiju.server.tables.table.Table`.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from paiju.server.store import tournament_rows
from paiju.server.tables.host import TableHost

BOARD_PAUSE = 3.0
"""Seconds between two boards of a tournament's table (the hall's ``board_pause``)."""


class TableTournament:
    """The planned hands of a tournament's table (a part of ``Table``)."""

    hall: TableHost
    room_options: dict[str, Any]
    status: str
    hands: list[dict[str, Any]]
    stalled: bool
    damaged: str | None
    paused: bool  # by the referee (competition.py): no board starts either
    _board_timer: asyncio.TimerHandle | None = None

    @property
    def tournament(self) -> dict[str, Any] | None:
        """``{"id", "round", "table", "hands"}`` of a tournament's table (None: any other room)."""
        plan = self.room_options.get("tournament")
        return plan if isinstance(plan, dict) else None

    def tournament_hands_left(self) -> bool:
        """A tournament's table with planned hands still to play (or one being played)."""
        plan = self.tournament
        return plan is not None and (self.status == "playing" or len(self.hands) < int(plan["hands"]))

    async def planned_hand(self) -> dict[str, Any] | None:
        """The next planned hand's row (seed, seating), None when all are played."""
        plan = self.tournament
        assert plan is not None
        return await asyncio.to_thread(
            self.hall.store.read,
            tournament_rows.planned_hand_tx,
            plan["id"],
            plan["round"],
            plan["table"],
            len(self.hands),
        )

    def planned_seats(self, seats: list[dict[str, Any]], planned: dict[str, Any]) -> list[dict[str, Any]]:
        """The seats of a planned hand: its persons and computer players, every 托管 state fresh."""
        return [{**s, "player": p["player"], "bot": p["bot"]} for s, p in zip(seats, planned["seating"], strict=True)]

    def watch_board(self) -> None:
        """Between two boards: the next starts after ``board_pause`` seconds (no 准备)."""
        due = (
            self.status != "playing"
            and not (self.stalled or self.damaged or self.paused)
            and self.tournament_hands_left()
        )
        if not due:
            if self._board_timer is not None:
                self._board_timer.cancel()
            self._board_timer = None
            return
        if self._board_timer is None:
            pause = float(getattr(self.hall, "board_pause", BOARD_PAUSE))
            self._board_timer = asyncio.get_running_loop().call_later(pause, self.post, ("board_due", len(self.hands)))

    async def board_due(self, hands_done: int) -> None:
        self._board_timer = None
        if hands_done != len(self.hands) or self.status == "playing" or self.stalled or self.damaged or self.paused:
            return
        await self._deal_in_the_absent({c.player["id"] for c in self.conns})

    def hand_done_tx(self, c: Any, seq: int, hand_id: int, scores: list[int]) -> None:
        """In the hand's finishing transaction: its scores stored with the plan."""
        plan = self.tournament
        if plan is not None:
            tournament_rows.hand_done_tx(c, plan["id"], plan["round"], plan["table"], seq, hand_id, scores)

    def hand_done(self) -> None:
        """A planned hand was stored: the director looks whether the round is over."""
        plan = self.tournament
        if plan is not None:
            self.hall.tournament_progress(int(plan["id"]))

    if TYPE_CHECKING:
        conns: set[Any]

        def post(self, item: tuple[Any, ...]) -> None: ...

        async def _deal_in_the_absent(self, connected: set[int]) -> None: ...
