"""Competition mode 比赛 (the room option ``competition``; docs/decisions.md "Competition
mode"), after seed 003's competition rulebook:

- 「座位选择由现场裁判主持抽签而定，比赛过程中不许换座位」: when a match starts the seats
  are drawn by lot — the persons and computer players seated are shuffled among the
  seats — and nobody stands up until the match ends (a Shengji match ends when a team
  wins it; the other games' matches when the table dissolves);
- 「在比赛过程中任何一方不许查牌、不许提示」: no 提示 (``hint`` is refused), and the room has
  no 记牌器 and no free chat (quick phrases only); the page shows neither 上一轮 nor the
  hand log during a hand;
- a player who leaves during the match is played by 托管 and pays the leave penalty — also
  between hands: the countdown deals him in on 托管 rather than standing him up;
- spectators see the table ``spectator_delay`` seconds late, so that none can relay the
  cards to a player;
- the referee 裁判 — the room's creator when he does not play in it, or a moderator or an
  administrator watching — sees every hand face up, live (never a player), and may pause
  the table and resume it (``pause``, ``resume``): while paused nobody acts and no clock
  runs; on resume the seat to act has its whole turn again.

:class:`TableCompetition` is a part of :class:`~paiju.server.tables.table.Table`.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import deque
from typing import TYPE_CHECKING, Any

from paiju.errors import IllegalAction
from paiju.game import Game
from paiju.server.tables.connection import Conn


def drawn_by_lot(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The seats with their occupants (persons and computer players) shuffled 抽签."""
    shuffled = [dict(s) for s in seats]
    secrets.SystemRandom().shuffle(shuffled)
    return shuffled


class TableCompetition:
    """Competition mode's rules at a table (a part of ``Table``)."""

    # the table's state these methods read (Table.__init__ sets it)
    room_options: dict[str, Any]
    status: str
    game: Game | None
    conns: set[Conn]
    created_by: int | None
    _delayed: deque[tuple[float, Conn, str]]
    _delay_timer: asyncio.TimerHandle | None
    paused: bool

    @property
    def competition(self) -> bool:
        return bool(self.room_options.get("competition"))

    def match_starts(self) -> bool:
        """Does the next hand start a match (nothing played yet, or the last hand won one)?"""
        return self.status == "waiting" or bool(getattr(self.game, "match_over", False))

    def seats_locked(self) -> bool:
        """Between two hands of a competition match, or at a tournament's table: nobody stands up."""
        if self.room_options.get("tournament") is not None:
            return True
        return self.competition and self.status == "between" and not getattr(self.game, "match_over", False)

    def check_hint_allowed(self) -> None:
        if self.competition:
            raise IllegalAction("no hints in a competition room (不许提示)", "no_hint_in_competition")

    def check_may_stand(self) -> None:
        if self.seats_locked():
            raise IllegalAction("the seats are kept until the match ends (比赛过程中不许换座位)", "seat_locked")

    # ------------------------------------------------------------------ the referee 裁判
    def is_referee(self, conn: Conn) -> bool:
        """Does ``conn`` watch a competition as its referee (the creator, not seated; or staff)?"""
        if not self.competition or self.seat_of(conn.player["id"]) is not None:
            return False
        return conn.player["id"] == self.created_by or conn.player.get("role") in ("moderator", "admin")

    def referee_view(self) -> dict[str, Any] | None:
        """What the referee is shown: the public view and every seat's hand, face up."""
        game = self.game
        if game is None:
            return None
        return {**game.view(None), "hands": [game.view(s)["hand"] for s in range(game.num_players)]}

    async def _on_pause(self, conn: Conn, msg: dict[str, Any]) -> None:
        await self._set_paused(conn, True)

    async def _on_resume(self, conn: Conn, msg: dict[str, Any]) -> None:
        await self._set_paused(conn, False)

    async def _set_paused(self, conn: Conn, paused: bool) -> None:
        if not self.is_referee(conn):
            raise IllegalAction("only the competition's referee pauses and resumes the table", "not_referee")
        if self.paused == paused:
            return
        self.paused = paused
        self.changed()  # paused: no timer is armed (autoplay.py); resumed: the seat to act's whole turn

    def check_not_paused(self) -> None:
        if self.paused:
            raise IllegalAction("the referee paused the table: wait until it resumes", "table_paused")

    # ------------------------------------------------------------------ spectators, late
    def send_to_spectator(self, conn: Conn, text: str) -> None:
        """A spectator's update: at once, or in a competition room ``spectator_delay`` seconds late."""
        delay = float(self.room_options.get("spectator_delay", 0)) if self.competition else 0.0
        if delay <= 0:
            conn.send(text)
            return
        loop = asyncio.get_running_loop()
        self._delayed.append((loop.time() + delay, conn, text))
        if self._delay_timer is None:
            self._delay_timer = loop.call_at(self._delayed[0][0], self._send_delayed)

    def _send_delayed(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        while self._delayed and self._delayed[0][0] <= now:
            _, conn, text = self._delayed.popleft()
            if conn in self.conns:
                conn.send(text)
        self._delay_timer = loop.call_at(self._delayed[0][0], self._send_delayed) if self._delayed else None

    if TYPE_CHECKING:

        def _broadcast(self) -> None: ...

        def changed(self) -> None: ...

        def seat_of(self, player_id: int) -> int | None: ...
