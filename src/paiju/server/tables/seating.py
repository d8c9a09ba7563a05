"""Taking a seat 入座: who may sit where, and sitting — by choice, or 快速开始 at the first
free seat a person may take — and the seated persons' beans and titles as they sit.

Every rule that keeps a person from a seat is in :meth:`TableSeating.refusal`, in the
order he is told: removed by an administrator 踢出 (moderation.py), a seat reserved for
another 预留座位 and a password 房间密码 (access.py), a blocked player at the table 拉黑
(access.py), then his beans against the room's stakes 入场限制 and a second seat from one
address 同IP (entry.py). Choosing a seat and quick start ask the same question.

:class:`TableSeating` is a part of :class:`~paiju.server.tables.table.Table`.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from paiju.errors import IllegalAction
from paiju.server.accounts import profile, settlement
from paiju.server.store.db import Store
from paiju.server.tables.access import blocked_refusal, seat_refusal
from paiju.server.tables.connection import Conn
from paiju.server.tables.entry import address_mark, check_entry
from paiju.server.tables.host import TableHost

FRESH_SEAT: dict[str, Any] = {"hosted": False, "hosted_times": 0, "left": False, "hosted_reason": None}
# a seat nobody holds (its computer player, if any, is kept)
EMPTY_SEAT: dict[str, Any] = {"player": None, "addr": None, **FRESH_SEAT}


class TableSeating:
    """Sitting down and quick start (a part of ``Table``)."""

    # the table's state these methods read (Table.__init__ sets it)
    hall: TableHost
    store: Store
    game_name: str
    seats: list[dict[str, Any]]
    status: str
    damaged: str | None
    access: dict[str, Any]
    barred: set[int]
    room_options: dict[str, Any]
    hand_cost: int
    standing: dict[int, dict[str, Any]]
    balances: dict[int, int]
    conns: set[Conn]
    message: str | None
    message_seats: list[int]
    message_names: list[str | None]
    _ready: set[int]

    if TYPE_CHECKING:  # Table's own methods these call

        def seat_of(self, player_id: int) -> int | None: ...

        def _empty_seats(self) -> list[int]: ...

        def _seats_with(self, seat: int, **values: Any) -> list[dict[str, Any]]: ...

        async def _save_seats(self, seats: list[dict[str, Any]], status: str | None = None) -> None: ...

        def _broadcast(self) -> None: ...

        def post(self, item: tuple[Any, ...]) -> None: ...

        def may_enter(self, pid: int) -> bool: ...

        async def blocked_here(self, pid: int) -> bool: ...

    async def refusal(self, pid: int, seat: int, address: str) -> IllegalAction | None:
        """Why ``pid`` may not take the free ``seat`` now, coming from ``address`` (None: he may).
        Reads his beans and title (IllegalAction ``unavailable`` when the store does not answer)."""
        if pid in self.barred:
            return IllegalAction("an administrator removed you from this room: you cannot sit here again", "barred")
        refused = seat_refusal(self.access, seat, pid)
        if refused is not None:
            return refused
        if not self.may_enter(pid):
            return IllegalAction("this room has a password", "room_password")
        if await self.blocked_here(pid):
            return blocked_refusal()
        beans = await self._read_standing({"id": pid})
        try:
            self._check_entry(beans, address)
        except IllegalAction as e:
            return e
        return None

    async def _on_sit(self, conn: Conn, msg: dict[str, Any]) -> None:
        seat, pid = msg["seat"], conn.player["id"]
        if not 0 <= seat < len(self.seats):
            raise IllegalAction(
                f"there is no seat {seat}: seats are 0-{len(self.seats) - 1}", "no_such_seat", seat=seat
            )
        if self.seat_of(pid) is not None:
            raise IllegalAction("you already have a seat at this table", "already_seated")
        if self.seats[seat]["player"] is not None or self.seats[seat]["bot"] is not None:
            raise IllegalAction(f"seat {seat} is taken", "seat_taken", seat=seat)
        refused = await self.refusal(pid, seat, conn.address)
        if refused is not None:
            raise refused
        if self.seats[seat]["player"] is not None or self.seats[seat]["bot"] is not None:  # taken while we read
            raise IllegalAction(f"seat {seat} is taken", "seat_taken", seat=seat)
        if self.seat_of(pid) is not None:  # seated elsewhere here while we read
            raise IllegalAction("you already have a seat at this table", "already_seated")
        self._check_entry(self.balances.get(pid) if self._at_stake(pid) else None, conn.address)
        mark = address_mark(conn.address)
        await self._save_seats(self._seats_with(seat, player=pid, own=1, addr=mark, **FRESH_SEAT))
        self.hall.remember(pid, conn.player["name"])
        self.message, self.message_seats, self.message_names = None, [], []
        self._broadcast()

    async def _seat_quickly(
        self, pid: int, name: str, bots: bool, done: asyncio.Future[int | None], address: str = ""
    ) -> None:
        """快速开始: seat ``pid`` at the first free seat he may take, his reserved one first
        (``bots``: computer players on the others); ``done`` gets the seat, or None when this
        room has none for him now (quick start looks further)."""
        try:
            seat = self.seat_of(pid)
            if seat is None and self.status in ("waiting", "between") and not self.damaged:
                free = sorted(self._empty_seats(), key=lambda i: (self.access.get("reserved") or {}).get(str(i)) != pid)
                for i in free:
                    refused = await self.refusal(pid, i, address)
                    if refused is None:
                        seat = i
                        break
                    if refused.code != "seat_reserved":  # the same for every seat
                        break
                if seat is None or self.seat_of(pid) is not None:
                    done.set_result(self.seat_of(pid))
                    return
                seats = self._seats_with(seat, player=pid, own=1, addr=address_mark(address), **FRESH_SEAT)
                for i in [i for i in free if i != seat] if bots else ():
                    if seat_refusal(self.access, i, -1) is None:  # a seat kept for a friend stays empty
                        seats[i]["bot"] = "strong"
                await self._save_seats(seats)
                if bots:  # a room of its own: ready, the hand starts once the page connects
                    self._ready.add(pid)
                self.hall.remember(pid, name)
                self.message, self.message_seats, self.message_names = None, [], []
                self._broadcast()
            if not done.done():
                done.set_result(seat)
        except Exception as e:
            if not done.done():
                done.set_exception(e)

    async def seat_quickly(self, pid: int, name: str, bots: bool = False, address: str = "") -> int | None:
        done: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self.post(("seat", pid, name, bots, done, address))
        return await asyncio.wait_for(done, 10.0)

    # ------------------------------------------------------------------ the seated persons' standing
    async def _read_standing(self, player: dict[str, Any]) -> int | None:
        """Read a person's beans (an account) and title as they sit; their beans (None: a guest)."""
        pid = player["id"]
        try:
            got = await asyncio.to_thread(self.hall.store.read, profile.standing_tx, pid, self.game_name)
        except Exception:
            raise IllegalAction(
                "the hall cannot reach its database right now; try again in a moment", "unavailable"
            ) from None
        self.standing[pid] = {"guest": got["beans"] is None, "title": got["title"]}
        if got["beans"] is not None:
            self.balances[pid] = got["beans"]
        return got["beans"]

    def _at_stake(self, pid: int) -> bool:
        """Whether a seated (or sitting) person plays for beans, as this table last read it."""
        return pid in self.standing and not self.standing[pid]["guest"]

    def _check_entry(self, beans: int | None, address: str) -> None:
        """May a person with ``beans`` (None: none at stake) sit here from ``address`` (entry.py)?"""
        others = [s.get("addr") for s in self.seats if s["player"] is not None and self._at_stake(s["player"])]
        check_entry(
            beans,
            min_beans=int(self.room_options["min_beans"]),
            cost=self.hand_cost,
            address=address,
            others=others if beans is not None else [],
            one_per_address=bool(self.room_options["one_per_address"]),
        )

    async def _unseat_short(self) -> bool:
        """Between hands: unseat each account whose balance no longer covers a hand here (it
        lost), telling its connections why; True when somebody was unseated."""
        need = max(int(self.room_options["min_beans"]), self.hand_cost)
        pids = [s["player"] for s in self.seats if s["player"] is not None]
        if not need or not pids:
            return False
        try:
            held = await asyncio.to_thread(self.store.read, settlement.stake_balances_tx, pids)
        except Exception:
            raise IllegalAction(
                "the hall cannot reach its database right now; try again in a moment", "unavailable"
            ) from None
        self.balances.update(held)
        short = [i for i, s in enumerate(self.seats) if s["player"] in held and held[s["player"]] < need]
        if not short:
            return False
        seats = [dict(s) for s in self.seats]
        gone = {seats[i]["player"]: held[seats[i]["player"]] for i in short}
        for i in short:
            seats[i].update(EMPTY_SEAT)
        await self._save_seats(seats)
        for pid, beans in gone.items():
            self._ready.discard(pid)
            notice = {"type": "notice", "code": "unseated", "params": {"by": "beans", "need": need, "beans": beans}}
            for c in self.conns:
                if c.player["id"] == pid:
                    c.send(notice)
        self._broadcast()
        return True
