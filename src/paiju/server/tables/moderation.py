"""Order at the table: an administrator's kick 踢出 and closing of a room, the room owner's
unseat 请离座, mutes 禁言, and reports 举报 with the chat lines around them.

「在游戏开始后，强行退出或被管理员踢出游戏将被扣去40分」: a player kicked during a hand pays
the same leave penalty as one who leaves (the room's ``leave_penalty``), 托管 plays the
seat to the end, and the player's connections to the room are closed with the reason;
before a hand a kick only unseats. A kicked player may not sit in that room again. The
room's creator may unseat another person between hands, never during one and never with
a penalty (docs/decisions.md "What a room's owner may do").

:class:`TableModeration` is a part of :class:`~paiju.server.tables.table.Table`, which
holds the state declared here.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from paiju.errors import IllegalAction
from paiju.server.accounts import reports
from paiju.server.accounts.moderation import audit_tx, muted_until
from paiju.server.store import db
from paiju.server.store.writer import Write
from paiju.server.tables.connection import Conn
from paiju.server.tables.host import TableHost

CHAT_KEPT = reports.CHAT_KEPT  # the last lines said at the table, kept for a report
CLOSE_KICKED, CLOSE_ROOM_CLOSED = 4001, 4410


def refusable(run: Any) -> Any:
    """A write's ``run`` whose refusal (IllegalAction, raised before it writes anything) is
    its result rather than an error: the writer's other writes of the group are unharmed."""

    def checked(c: Any) -> Any:
        try:
            return run(c)
        except IllegalAction as e:
            return e

    return checked


class TableModeration:
    """Kicks, unseats, mutes and reports (a part of ``Table``)."""

    # the table's state these methods read (Table.__init__ sets it)
    hall: TableHost
    id: str
    seats: list[dict[str, Any]]
    status: str
    hands: list[dict[str, Any]]
    conns: set[Conn]
    created_by: int | None
    barred: set[int]
    chat_log: deque[dict[str, Any]]
    _ready: set[int]

    if TYPE_CHECKING:  # Table's own methods these call

        def _require_seat(self, conn: Conn) -> int: ...

        def _hand_going_on(self) -> bool: ...

        async def _leave_hand(
            self, seat: int, pid: int, reason: str, also: Callable[[Any], Any] | None = None
        ) -> int: ...

        def leave_points(self) -> int: ...

        async def _save(self, write: Write) -> Any: ...

        def _seats_with(self, seat: int, **values: Any) -> list[dict[str, Any]]: ...

        def changed(self) -> None: ...

        def _broadcast(self) -> None: ...

    # ------------------------------------------------------------------ who may speak (who may sit: seating.py)
    def check_not_muted(self, conn: Conn) -> None:
        until = muted_until(conn.player)
        if until is not None:
            minutes = max(1, round((until.timestamp() - time.time()) / 60))
            raise IllegalAction(
                f"you are muted for {minutes} more minute(s)", "muted", minutes=minutes, until=until.isoformat()
            )

    def keep_said(self, conn: Conn, seat: int | None, phrase: Any, text: Any) -> None:
        """Remember a line said at the table (a report takes the last ones with it)."""
        line = {"at": db.now().isoformat(), "player": conn.player["id"], "seat": seat, "name": conn.player["name"]}
        self.chat_log.append({**line, "phrase": phrase, "text": text})

    # ------------------------------------------------------------------ unseating
    def _persons_conns(self, pid: int) -> list[Conn]:
        return [c for c in self.conns if c.player["id"] == pid]

    async def _unseat(
        self, seat: int, by: str, reason: str, bar: bool = False, also: Callable[[Any], Any] | None = None
    ) -> int:
        """Take the person off ``seat`` between hands (no penalty); tell their connections.
        ``also`` writes more in the same transaction (a kick's audit row)."""
        pid = self.seats[seat]["player"]
        assert pid is not None
        seats = self._seats_with(seat, player=None, hosted=False, hosted_times=0, left=False, hosted_reason=None)
        barred = sorted(self.barred | {pid}) if bar else None
        values: dict[str, Any] = {"seats": seats, "status": self.status}
        if barred is not None:
            values["barred"] = barred
        rid = self.id

        def run(c: Any) -> None:
            db.save_room_tx(c, rid, **values)
            if also is not None:
                also(c)

        await self._save(Write(run=run))
        self.seats = seats
        if barred is not None:
            self.barred = set(barred)
        self._ready.discard(pid)
        for c in self._persons_conns(pid):
            c.send({"type": "notice", "code": "unseated", "params": {"by": by, "reason": reason}})
        self.changed()
        return pid

    async def _on_unseat(self, conn: Conn, msg: dict[str, Any]) -> None:
        """请离座: the room's creator asks another person to leave their seat, between hands."""
        seat = msg["seat"]
        if conn.player["id"] != self.created_by:
            raise IllegalAction("only the room's creator may unseat a player", "not_room_owner")
        if not 0 <= seat < len(self.seats):
            raise IllegalAction(f"there is no seat {seat}", "no_such_seat", seat=seat)
        pid = self.seats[seat]["player"]
        if pid is None or pid == conn.player["id"]:
            raise IllegalAction(f"there is no other person in seat {seat}", "nobody_to_unseat", seat=seat)
        if self.status == "playing":
            raise IllegalAction("a player can be unseated only between hands", "unseat_not_now")
        await self._unseat(seat, "owner", "")

    # ------------------------------------------------------------------ an administrator's orders
    async def admin_kick(self, seat: int, reason: str, actor: dict[str, Any] | None = None) -> dict[str, Any]:
        """踢出: during a hand the leave penalty, 托管 and the player's connections closed;
        before one, the seat emptied. Either way the player may not sit here again. The
        ``actor``'s audit row is written in the same transaction as the kick."""
        if not 0 <= seat < len(self.seats):
            raise IllegalAction(f"there is no seat {seat}", "no_such_seat", seat=seat)
        pid = self.seats[seat]["player"]
        if pid is None:
            raise IllegalAction(f"there is no person in seat {seat}", "nobody_to_kick", seat=seat)
        rid = self.id

        def audited(penalty: int | None) -> Callable[[Any], None]:
            def run(c: Any) -> None:
                paid = {"penalty": penalty} if penalty is not None else {}
                audit_tx(c, actor, "kick", reason, target=pid, room=rid, seat=seat, **paid)

            return run

        if not self._hand_going_on():
            await self._unseat(seat, "admin", reason, bar=True, also=audited(None))
            return {"player": pid, "penalty": None}
        barred = sorted(self.barred | {pid})

        def bar(penalty: int | None) -> Callable[[Any], None]:
            def run(c: Any) -> None:
                db.save_room_tx(c, rid, barred=barred)
                audited(penalty)(c)

            return run

        penalty = None
        if not self.seats[seat]["left"]:
            penalty = await self._leave_hand(seat, pid, "kicked", also=bar(self.leave_points()))
        else:  # he had left already: his penalty is paid
            await self._save(Write(run=bar(None)))
        self.barred = set(barred)
        for c in self._persons_conns(pid):
            c.end(
                "kicked",
                f"an administrator removed you from this game: {reason}",
                CLOSE_KICKED,
                reason=reason,
                penalty=penalty,
            )
        self.changed()
        return {"player": pid, "penalty": penalty}

    def admin_close(self, reason: str, actor: dict[str, Any] | None = None) -> None:
        """The room is being closed by an administrator: everyone connected is told why (the
        hall then stores it closed, with the ``actor``'s audit row: hall.py ``close_room``)."""
        for c in list(self.conns):
            c.end("room_closed", f"an administrator closed this room: {reason}", CLOSE_ROOM_CLOSED, reason=reason)

    # ------------------------------------------------------------------ reports
    async def _on_report(self, conn: Conn, msg: dict[str, Any]) -> None:
        """举报 the person in a seat: the room, the hand and the last chat lines go with it."""
        seat = msg["seat"]
        if not 0 <= seat < len(self.seats):
            raise IllegalAction(f"there is no seat {seat}", "no_such_seat", seat=seat)
        reported = self.seats[seat]["player"]
        if reported is None:
            raise IllegalAction(f"there is no person in seat {seat} to report", "nobody_to_report", seat=seat)
        reason, text = reports.check_report(msg.get("reason"), msg.get("text", ""))
        hand = len(self.hands) + (1 if self.status == "playing" else 0) or None
        chat = list(self.chat_log)
        reporter, rid = conn.player["id"], self.id
        got = await self.hall.write(
            Write(
                run=refusable(
                    lambda c: reports.file_report_tx(
                        c, reporter, reported, reason, text, room=rid, hand=hand, chat=chat
                    )
                )
            )
        )
        if isinstance(got, IllegalAction):
            raise got
        conn.send({"type": "reported", "report": got, **({"id": msg["id"]} if "id" in msg else {})})
