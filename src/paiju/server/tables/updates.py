"""What a table tells its connections: the room's public facts (``room_info``) and each
connection's update — the room, the seat's ``view`` of the hand (the only door to its
secrets), the public events new to it, the 记牌器 counts and the turn's deadline.

:class:`TableUpdates` is a part of :class:`~paiju.server.tables.table.Table`, which holds
the state declared here."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from paiju.game import Game
from paiju.server.tables.connection import Conn, encode, log
from paiju.server.tables.host import TableHost

HOSTED_LOCK_AFTER = 3  # auto-played more than 3 times in a hand: 托管 cannot be cancelled
BEAN_OPTIONS = ("bean_multiplier", "table_multiplier", "min_beans", "own_multiplier", "one_per_address")


class TableUpdates:
    """The table's broadcasting (a part of ``Table``)."""

    # the table's state these methods read (Table.__init__ sets it)
    hall: TableHost
    id: str
    name: str
    game_name: str
    options: dict[str, Any]
    room_options: dict[str, Any]
    created_by: int | None
    turn_timeout: float
    seats: list[dict[str, Any]]
    status: str
    damaged: str | None
    conns: set[Conn]
    paused: bool
    game: Game | None
    hand_id: int | None
    hands: list[dict[str, Any]]
    message: str | None
    message_seats: list[int]
    message_names: list[str | None]
    balances: dict[int, int]
    standing: dict[int, dict[str, Any]]
    hand_cost: int
    _broadcast_failed: bool
    _deadline: float | None
    _ready_at: float | None
    _tracker_failed: bool
    _count_unseen: Any
    _count_played: Any
    _played_memo: tuple[Any, int, dict[str, int]] | None

    if TYPE_CHECKING:  # Table's own methods these call

        @property
        def turn(self) -> int: ...

        def standings(self) -> list[int]: ...

        def seat_of(self, player_id: int) -> int | None: ...

        def ready_flags(self) -> list[bool]: ...

        def _watch_ready(self) -> None: ...

        def access_info(self) -> dict[str, Any]: ...

        @property
        def competition(self) -> bool: ...

        def send_to_spectator(self, conn: Conn, text: str) -> None: ...

        def is_referee(self, conn: Conn) -> bool: ...

        def referee_view(self) -> dict[str, Any] | None: ...

    def room_info(self) -> dict[str, Any]:
        names = self.hall.player_names([s["player"] for s in self.seats if s["player"] is not None])
        connected = {c.player["id"] for c in self.conns}
        seats = []
        for i, s in enumerate(self.seats):
            pid = s["player"]
            seats.append(
                {
                    "seat": i,
                    "player": names.get(pid) if pid is not None else None,
                    "bot": s["bot"],
                    "connected": pid in connected if pid is not None else s["bot"] is not None,
                    "hosted": s["hosted"],
                    "hosted_reason": s.get("hosted_reason") if s["hosted"] else None,  # rows before it: null
                    "hosted_times": s["hosted_times"],
                    "locked": s["hosted_times"] > HOSTED_LOCK_AFTER or s["left"],
                    "player_id": pid,
                    **self._standing_of(pid),
                    "own": int(s.get("own", 1)),
                }
            )
        seated = {s["player"] for s in self.seats}
        return {
            "id": self.id,
            "name": self.name,
            "game": self.game_name,
            "created_by": self.created_by,  # its creator may unseat a player between hands
            "options": self.options,
            "status": "damaged" if self.damaged else self.status,
            "damaged": self.damaged,
            "seats": seats,
            "spectators": len({c.player["id"] for c in self.conns} - seated),
            "hand_number": len(self.hands) + (1 if self.status == "playing" else 0),
            "standings": self.standings(),
            "hands": self._hands_named(),
            "turn_timeout": self.turn_timeout,
            "hosted_lock_after": HOSTED_LOCK_AFTER,
            "message": self.message,
            "message_seats": self.message_seats if self.message else [],
            "message_names": self.message_names if self.message else [],
            "ready": self.ready_flags(),
            "ready_deadline": None if self._ready_at is None else max(0.0, round(self._ready_at - time.monotonic(), 1)),
            "card_tracker": self.room_options["card_tracker"],
            "chat": self.room_options["chat"],
            "beans": {**{k: self.room_options[k] for k in BEAN_OPTIONS}, "hand_cost": self.hand_cost},
            **self.access_info(),  # private, password (a flag), code, reserved seats (access.py)
            "competition": self.competition,  # 比赛: seats by lot and kept, no hints, spectators late (competition.py)
            "paused": self.paused,  # by the competition's referee
        }

    def _hands_named(self) -> list[dict[str, Any]]:
        """The finished hands, each with ``names``: who played each seat (None: a computer
        player), so that a hand is shown with its own players, not the chairs' present ones."""
        ids = {p for h in self.hands for p in h.get("players") or () if p is not None}
        if not ids:
            return self.hands
        names = self.hall.player_names(sorted(ids))
        return [
            {**h, "names": [names.get(p) if p is not None else None for p in h["players"]]} if "players" in h else h
            for h in self.hands
        ]

    def _standing_of(self, pid: int | None) -> dict[str, Any]:
        """A seated person's guest flag, beans and title, as this table last read them."""
        if pid is None or pid not in self.standing:
            return {"guest": None, "beans": None, "title": None}
        return {**self.standing[pid], "beans": self.balances.get(pid)}

    def _broadcast(self) -> None:
        """Send every connection its update; a failure stays with this table (logged once)."""
        self.hall.touched(self)
        self._watch_ready()
        try:
            self._send_updates()
        except Exception:
            if not self._broadcast_failed:
                log.exception("table %s could not send its update", self.id)
            self._broadcast_failed = True
        else:
            self._broadcast_failed = False

    def _send_updates(self) -> None:
        """Send every connection its own update: the room and its seat's view only.

        The view's public event log is sent incrementally: ``events_from`` says where the
        events in this update start (0: the whole log, e.g. after connecting or a new hand).
        """
        if not self.conns:
            return
        game = self.game
        deadline = None
        if self._deadline is not None:
            deadline = max(0.0, round(self._deadline - asyncio.get_running_loop().time(), 1))
        room = self.room_info()
        views: dict[int | None, dict[str, Any] | None] = {}
        trackers: dict[int | None, Any] = {}
        played: list[Any] = []  # the cards played, counted once for every seat (they are public)
        texts: dict[Any, str] = {}
        for conn in list(self.conns):
            seat = self.seat_of(conn.player["id"])
            if seat is None and self.competition and self.is_referee(conn):  # face up, live (competition.py)
                if "referee" not in texts:
                    blank = {"type": "update", "room": room, "seat": None, "turn": self.turn, "deadline": deadline}
                    texts["referee"] = encode({**blank, "events_from": 0, "view": self.referee_view(), "referee": True})
                conn.send(texts["referee"])
                conn.hand_id, conn.events_sent = None, 0  # the whole log every time
                continue
            if seat not in views:
                views[seat] = game.view(seat) if game is not None else None
                trackers[seat] = self._tracker(seat, views[seat], played)
            view = views[seat]
            events = (view.get("events") or []) if view is not None else []  # a game may keep no event log
            start = conn.events_sent if conn.hand_id == self.hand_id and conn.events_sent <= len(events) else 0
            key = (seat, start)
            if key not in texts:
                part = view
                if view is not None and start:
                    part = dict(view)
                    part["events"] = events[start:]
                update = {
                    "type": "update",
                    "room": room,
                    "seat": seat,
                    "turn": self.turn,
                    "deadline": deadline,
                    "events_from": start,
                    "view": part,
                }
                if trackers[seat] is not None:
                    update["tracker"] = trackers[seat]
                texts[key] = encode(update)
            if seat is None and self.competition:  # a spectator of a competition: late (competition.py)
                if not conn.shown_room:  # at once the room and its seats, without the game
                    conn.shown_room = True
                    blank = {"type": "update", "room": room, "seat": None, "turn": self.turn, "deadline": None}
                    conn.send(encode({**blank, "events_from": 0, "view": None}))
                self.send_to_spectator(conn, texts[key])
            else:
                conn.send(texts[key])
            conn.hand_id, conn.events_sent = self.hand_id, len(events)

    def _played(self, events: list[dict[str, Any]]) -> dict[str, int]:
        """The cards played so far (public), counted on from the last update's count while
        the game is the same object and its log has only grown (a reload starts again)."""
        memo = self._played_memo
        if memo is None or memo[0] is not self.game or memo[1] > len(events):
            memo = (self.game, 0, {})
        assert self._count_played is not None
        counts = self._count_played(events, memo[1], memo[2]) if memo[1] < len(events) else memo[2]
        self._played_memo = (self.game, len(events), counts)
        return counts

    def _tracker(self, seat: int | None, view: dict[str, Any] | None, played: list[Any]) -> Any:
        """记牌器 for a seated person: unseen copies per rank from their own view only (the
        engine's ``tracker``); None for spectators, with the room option off, or no hand yet."""
        if seat is None or view is None or not self.room_options["card_tracker"]:
            return None
        count = self._count_unseen
        if count is None:
            return None
        try:
            if self._count_played is None:
                return count(view)
            if not played:  # the first seat of this update counts the public part for the others
                played.append(self._played(view["events"]))
            return count(view, played[0])
        except Exception:  # a tracker that fails must not stop the updates
            if not self._tracker_failed:
                log.exception("table %s: the card tracker failed", self.id)
            self._tracker_failed = True
            return None
