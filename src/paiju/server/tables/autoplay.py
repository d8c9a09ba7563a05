"""Who acts when nobody at the table does: the turn's timer, computer players (电脑), 托管
for a person whose time ran out, and the 最强 bots' searches in the bot pool.

:class:`TableAutoplay` is a part of :class:`~paiju.server.tables.table.Table`, which holds
the state declared here."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from paiju.bots import make_bot
from paiju.game import Game, new_seed
from paiju.server.tables.bot_pool import POOLED, PoolFailed, Question, searches
from paiju.server.tables.connection import log
from paiju.server.tables.deal import deal_stage
from paiju.server.tables.host import TableHost

# computer players behind the levels a room offers
# (最强 "strongest": the heuristic in-process, its searched decisions in the bot pool — POOLED, bot_pool.py)
BOT_LEVELS = ("hosted", "normal", "strong", "strongest")  # what a seat's computer player may be
BOT_FOR_LEVEL = {"hosted": None, "normal": "greedy", "strong": "heuristic", "strongest": "heuristic"}
THINKING = object()  # _auto_action's answer while the bot pool thinks: the pool's answer posts the move
FIRST_TURN_FACTOR = 2  # a person's first turn of their first hand in the room: twice the clock (docs/decisions.md)


def first_turn(
    pid: int | None, hands: list[dict[str, Any]], firsts: dict[int, tuple[int, int]], key: tuple[int, int]
) -> bool:
    """Whether the turn ``key`` (hands done, turn) is person ``pid``'s first turn in the room:
    no finished hand here was played by ``pid`` and ``firsts`` (pid → the key of its first
    turn, filled here) names no other turn. A hand from before the hall kept who played
    counts as not played by ``pid``."""
    if pid is None or any(pid in (h.get("players") or ()) for h in hands):
        return False
    return firsts.setdefault(pid, key) == key


class TableAutoplay:
    """The table's timers and computer players (a part of ``Table``)."""

    # the table's state these methods read (Table.__init__ sets it)
    hall: TableHost
    id: str
    game_name: str
    turn_timeout: float
    seats: list[dict[str, Any]]
    status: str
    damaged: str | None
    stalled: bool
    paused: bool
    game: Game | None
    hand_id: int | None
    hands: list[dict[str, Any]]
    hosted_policy: Callable[..., Any]
    _bots: dict[int, Any]
    _queued: dict[int, tuple[str, Any]]
    _timer: asyncio.TimerHandle | None
    _deadline: float | None
    _first_turns: dict[int, tuple[int, int]]  # person → (hands done, turn) of their first turn here
    _question: Question | None = None  # the last decision a 最强 seat was asked (one turn at a time)

    if TYPE_CHECKING:  # Table's own methods these call

        @property
        def turn(self) -> int: ...

        def post(self, item: tuple[Any, ...]) -> None: ...

        def _hosted(self, seat: int, reason: str) -> list[dict[str, Any]]: ...

        async def _apply(
            self, seat: int, action: Any, hosted: bool, seats: list[dict[str, Any]] | None = None
        ) -> None: ...

    def _schedule(self) -> None:
        """Arm the timer for whoever is to act: a bot or hosted seat soon, a person at the
        room's turn timeout (then 托管 takes over; ×FIRST_TURN_FACTOR on the person's first
        turn in the room: a newcomer reads 44 cards before he plays). Nothing while the table waits for the
        store or is set aside."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._deadline = None
        game = self.game
        if self.status != "playing" or game is None or game.to_act is None or self.stalled or self.damaged:
            return
        if self.paused:  # the referee paused the table (competition.py): no clock runs
            return
        seat = game.to_act
        s = self.seats[seat]
        loop = asyncio.get_running_loop()
        key = (len(self.hands), self.turn)
        machine = s["bot"] is not None or s["hosted"]
        stage = deal_stage(game)
        if stage is not None:  # the fast deal: windows told by the dealt count only (deal.py)
            if not machine and seat in self._queued:
                self._timer = loop.call_later(0, self.post, ("queued", *key))
                return
            wait = self.hall.deal_step
            if stage == "final" and not machine:
                wait = min(self.turn_timeout, self.hall.deal_final_window)
            if not machine:
                self._deadline = loop.time() + wait
            self._timer = loop.call_later(wait, self.post, ("auto" if machine else "deal", *key))
        elif machine:
            self._timer = loop.call_later(self.hall.bot_delay, self.post, ("auto", *key))
            self._think(seat, key)  # a 最强 seat searches during the bot's delay
        else:
            wait = self.turn_timeout
            if first_turn(s["player"], self.hands, self._first_turns, key):
                wait *= FIRST_TURN_FACTOR
            self._deadline = loop.time() + wait
            self._timer = loop.call_later(wait, self.post, ("timeout", *key))

    async def _tick(self, kind: str, hands_done: int, turn: int) -> None:
        game = self.game
        if (
            game is None
            or game.to_act is None
            or self.status != "playing"
            or self.stalled
            or hands_done != len(self.hands)
            or turn != self.turn
        ):
            return  # the table moved on since the timer was armed
        seat = game.to_act
        s = self.seats[seat]
        person = s["bot"] is None and not s["hosted"]
        if kind == "auto" and person:
            return  # 托管 was switched off after this move was queued
        if kind == "deal" and person:  # a person silent in the deal says no: never 托管, nothing counted
            await self._apply(seat, game.parse_action("no"), hosted=True)
            return
        seats = None
        if kind == "timeout" and person:
            seats = self._hosted(seat, "timeout")  # stored together with the move 托管 makes
        action = self._auto_action(seat)
        if action is THINKING:
            return  # the bot pool's answer posts this turn's move again
        await self._apply(seat, action, hosted=s["bot"] is None, seats=seats)

    def _auto_action(self, seat: int) -> Any:
        game = self.game
        assert game is not None
        level = self.seats[seat]["bot"]
        name = BOT_FOR_LEVEL.get(level) if level else None
        if name is None:
            return self.hosted_policy(game)
        q = self._question if self._think(seat, (len(self.hands), self.turn)) else None
        if q is not None and q.searched:
            if not q.done:
                return THINKING
            if q.answer is not None:
                return q.legal[q.answer]  # else the pool failed: the heuristic's choice
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = make_bot(name, game=self.game_name, seed=new_seed())
        if q is not None:
            return bot.act(q.view, q.legal)
        return bot.act(game.view(seat), game.legal_actions())

    def _think(self, seat: int, key: tuple[int, int]) -> bool:
        """For a 最强 seat to act at ``key``: its question (made once per turn, its view and
        legal actions kept), sent to the bot pool when the search bot would search it.
        False for any other seat."""
        name = POOLED.get(self.seats[seat]["bot"])
        game = self.game
        if name is None or game is None:
            return False
        if self._question is not None and self._question.key == key and self._question.hand == self.hand_id:
            return True
        view, legal = game.view(seat), list(game.legal_actions())
        loop = asyncio.get_running_loop()
        q = self._question = Question(key, view, legal, searches(name, view, legal), loop.time() + self.hall.bot_delay)
        q.hand = self.hand_id  # the stored hand's id: the key of another hand never matches
        if q.searched:  # the bot sees only its seat's view and the legal actions, never the game
            q.task = loop.create_task(self._ask_pool(q, name), name=f"think-{self.id}")
        return True

    async def _ask_pool(self, q: Question, name: str) -> None:
        with contextlib.suppress(PoolFailed):  # no answer: the heuristic's choice (the pool logs why)
            q.answer = await self.hall.bot_pool.decide(name, self.game_name, q.view, q.legal)
        q.done = True
        if self._question is not q or q.key != (len(self.hands), self.turn) or q.hand != self.hand_id:
            log.debug("table %s drops a stale bot answer for %s", self.id, q.key)
            return
        if asyncio.get_running_loop().time() >= q.due:  # else the bot's delay timer posts the move
            self.post(("auto", *q.key))
