"""One table of the hall: an asyncio actor that owns a room's current hand.

Every message to a table — from a connection, a timer or a bot — goes through one queue
and is handled in order, so a table never sees two changes at once. Memory follows the
store: a change (an action, a seat, a new or finished hand, a penalty) is built aside,
made durable by the hall's writer thread while the table waits, and only then becomes the
table's state and is shown — every connection receives an ``update`` carrying only its
own seat's ``view``. If the write fails the table is exactly what was stored before, the
sender is told the move was not taken, and while the database is unavailable the table's
timers and 托管 wait; once it is back the table reloads from the store. The server never
decides a rule: it asks the game (``legal_actions``, ``apply``, ``view``) and the engine's
托管 policy.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from paiju.errors import IllegalAction
from paiju.game import Game, new_seed
from paiju.registry import new_game, replay
from paiju.server import log_context, metrics
from paiju.server import reasons as _reasons  # noqa: F401 - registers the hall's reason codes
from paiju.server.accounts import profile, settlement
from paiju.server.store import db
from paiju.server.store.records import DamagedHand, replay_stored
from paiju.server.store.writer import Fenced, StoreError, StoreUnavailable, Write
from paiju.server.tables.access import TableAccess, admitted_ids
from paiju.server.tables.autoplay import BOT_LEVELS, TableAutoplay
from paiju.server.tables.competition import TableCompetition, drawn_by_lot
from paiju.server.tables.connection import UNEXPECTED, Conn, encode, log, unexpected
from paiju.server.tables.deal import deal_stage, is_declaration
from paiju.server.tables.games_info import split_options
from paiju.server.tables.hints import Hints
from paiju.server.tables.host import TableHost
from paiju.server.tables.moderation import CHAT_KEPT, TableModeration
from paiju.server.tables.phrases import MAX_SAY
from paiju.server.tables.seating import EMPTY_SEAT, FRESH_SEAT, TableSeating
from paiju.server.tables.tournament_table import TableTournament
from paiju.server.tables.updates import HOSTED_LOCK_AFTER, TableUpdates
from paiju.specs import spec as game_spec
from paiju.stakes import max_hand_cost
from paiju.versions import RECORD_VERSION

# a seat without its player's 托管 state (hosted_reason: why 托管 came — timeout, button, left)
# points a player loses for leaving a started hand, when the room has no leave_penalty
# option: Baohuang's 40 (docs/rules/baohuang.md §5); elsewhere the most one hand can cost [decision]
# (Shuangkou's 双扣 3 points, Shengji's 3 levels)
LEAVE_PENALTY = {"baohuang": 40, "shuangkou": 3, "shengji": 3}
SAVE_FAILED = "the hall cannot save right now; your move was not taken — try again"
ROOM_MOVED = "this room moved to another server; your move was not taken — reconnecting"


def hand_entry(
    number: int, scores: list[int] | None, scored: bool | None, settled: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A finished hand as ``room.hands`` shows it: an unscored hand (every human on 托管)
    counts 0 for everyone and says why, its ``game_scores`` the game's own count. With
    ``settled``, each seat's ``beans`` and ``ratings`` after it, and ``players``: the person
    who played each seat (None: a computer player) — a seat's match belongs to the person
    (settlement.py)."""
    entry: dict[str, Any] = {"number": number, "scores": scores, "scored": scored}
    if scored is False:
        entry.update(scores=[0] * len(scores or []), unscored_reason="all_hosted", game_scores=scores)
    if settled is not None:
        entry["beans"], entry["ratings"] = settled["beans"], settled["ratings"]
        if "players" in settled:
            entry["players"] = settled["players"]
    return entry


def person_standings(
    seats: list[dict[str, Any]], hands: list[dict[str, Any]], penalties: list[dict[str, Any]]
) -> list[int]:
    """Each seat's match points as its present occupant earned them: only the hands that
    person (or, on a computer player's seat, a computer player) played at that seat, less
    their own leave penalties. A newcomer in another's old seat starts at 0; an empty seat
    keeps the chair's record (its last occupant's penalty stays shown) until somebody sits."""
    empty = object()
    who = [s["player"] if s["player"] is not None else (None if s["bot"] is not None else empty) for s in seats]
    out = [0] * len(seats)
    for h in hands:
        if not (h["scored"] and h["scores"]):
            continue
        played = h.get("players")  # a hand from before the hall kept who played: the chair's
        for i, points in enumerate(h["scores"][: len(seats)]):
            if played is None or who[i] is empty or played[i] == who[i]:
                out[i] += points
    for p in penalties:
        i = p["seat"]
        if i < len(seats) and (who[i] is empty or p.get("player_id", who[i]) == who[i]):
            out[i] -= p["points"]
    return out


def next_options(
    prev: Game | None, engine_options: dict[str, Any], hands: list[dict[str, Any]], penalties: list[dict[str, Any]]
) -> dict[str, Any]:
    """The engine options of the next hand: what the hand just played passes on (Shengji's
    levels and declarer, Shuangkou's first lead …), or the room's own for a new match after a
    won match. An unscored hand (every person on 托管) moves no beans and no rating, but the
    match goes on from it as played (docs/decisions.md)."""
    options = dict(engine_options)
    if prev is None or not prev.is_over or not hasattr(prev, "next_hand_options"):
        return options
    if getattr(prev, "match_over", False):
        return options
    left = any(p["hand_number"] == len(hands) and p["reason"] in ("leave", "away", "kicked") for p in penalties)
    if left and "abnormal" in inspect.signature(prev.next_hand_options).parameters:
        return dict(prev.next_hand_options(abnormal=True))  # Shuangkou: a random first lead
    return dict(prev.next_hand_options())


class Table(TableUpdates, TableAutoplay, TableModeration, TableAccess, TableSeating, TableCompetition, TableTournament):
    """A room: its seats, its match so far and the hand being played."""

    def __init__(self, hall: TableHost, row: dict[str, Any]) -> None:
        self.hall = hall
        self.store = hall.store
        self.id: str = row["id"]
        self.name: str = row["name"]
        self.game_name: str = row["game"]
        self.options: dict[str, Any] = dict(row["options"])  # as stored: the engine's and the hall's
        self.engine_options, self.room_options = split_options(self.options)
        try:  # the most one hand can cost here 入场限制 (paiju.stakes)
            self.hand_cost = max_hand_cost(self.game_name, self.engine_options, self.room_options)
        except Exception:  # a room the engine refuses is set aside when it loads
            self.hand_cost = 0
        self.turn_timeout: float = float(row["turn_timeout"])
        self.seats: list[dict[str, Any]] = [dict(s) for s in row["seats"]]
        self.status: str = row["status"]
        self.damaged: str | None = row.get("damaged")  # why the room is set aside
        self.created_by: int | None = row.get("created_by")
        self.barred: set[int] = set(row.get("barred") or [])  # kicked by an administrator: may not sit here again
        self.access: dict[str, Any] = dict(row.get("access") or {})  # private, password, invitation (access.py)
        self.code: str | None = row.get("code")
        self.admitted: set[int] = admitted_ids(self.access)  # let in by the password or an invitation (access.py)
        self.chat_log: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)  # the last lines said (reports keep them)
        self._delayed: deque[tuple[float, Conn, str]] = deque()  # spectators' updates sent late (competition.py)
        self._delay_timer: asyncio.TimerHandle | None = None
        self.paused = False  # by the competition's referee (competition.py); not stored: a restart resumes
        created = row.get("created_at")
        self.created: float = created.timestamp() if created is not None else time.time()  # the lobby's order
        self.last_active = time.monotonic()  # the last connection or message (idle rooms close)
        self._absent: dict[int, asyncio.TimerHandle] = {}  # players away from a started hand
        self.conns: set[Conn] = set()
        self.queue: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
        self.game: Game | None = None
        self.hand_id: int | None = None
        self.hands: list[dict[str, Any]] = []
        self.penalties: list[dict[str, Any]] = []
        self.message: str | None = None
        self.stalled = False  # a write failed: timers wait until the table is reloaded
        self._unfinished = False  # loaded a hand whose end was not stored yet
        self._broadcast_failed = False
        self._timer: asyncio.TimerHandle | None = None
        self._deadline: float | None = None
        self._first_turns: dict[int, tuple[int, int]] = {}  # a person's first turn here (autoplay.py)
        self._task: asyncio.Task[None] | None = None
        self._bots: dict[int, Any] = {}
        self.hosted_policy = game_spec(self.game_name).hosted_action
        self.hints = Hints(self.game_name)
        self._queued: dict[int, tuple[str, Any]] = {}  # seat -> a declaration sent ahead in the deal, its id
        self.message_seats: list[int] = []  # the seats on 托管 when the last hand ended (with message)
        self.message_names: list[str | None] = []
        self._ready: set[int] = set()  # persons who pressed 准备 (or start) for the next hand
        self._ready_timer: asyncio.TimerHandle | None = None
        self._ready_at: float | None = None  # when the countdown between hands ends (monotonic)
        self._board_timer: asyncio.TimerHandle | None = None  # a tournament's next board (tournament_table.py)
        self.person_seen = time.monotonic()  # a person was last connected or seated (rooms without are archived)
        self._tracker_failed = False
        self.balances: dict[int, int] = {}  # beans of the accounts seated here, as last stored
        self.standing: dict[int, dict[str, Any]] = {}  # seated persons: guest or not, title (read as they sit)
        self._count_unseen = game_spec(self.game_name).tracker
        # the public part of the tracker (cards played), where a game offers it: counted
        # once per update for every seat, and only over the events new since the last count
        self._count_played = game_spec(self.game_name).count_played
        self._played_memo: tuple[Any, int, dict[str, int]] | None = None  # (game, events counted, counts)

    # ------------------------------------------------------------------ loading
    def load(self) -> None:
        """Rebuild the match from the store: finished hands, and the last hand replayed.

        Synchronous (a thread of the loop's pool): everything is read and replayed first,
        then the table's fields are set together. A current hand that does not replay sets
        the room aside as damaged, with the reason; its records stay as they are."""
        room = self.store.room(self.id)
        if room is None:
            return
        if room["damaged"]:
            self.damaged = room["damaged"]
            return
        hands = self.store.room_hands(self.id)
        penalties = self.store.room_penalties(self.id)
        game, hand_id, status, unfinished = None, None, room["status"], False
        if hands:
            last = hands[-1]
            try:
                game = replay_stored(self.game_name, last, self.store.hand_actions(last["id"]))
            except DamagedHand as e:
                self.damaged = str(e)
                log.error("room %s is set aside as damaged: %s", self.id, e)
                return
            hand_id = last["id"]
            if last["finished_at"] is None:
                status = "playing"
                unfinished = game.is_over  # the last action was stored, the hand's end was not
        standing = {
            s["player"]: self.store.read(profile.standing_tx, s["player"], self.game_name)
            for s in room["seats"]
            if s["player"] is not None
        }
        self.standing = {p: {"guest": got["beans"] is None, "title": got["title"]} for p, got in standing.items()}
        self.balances = {p: got["beans"] for p, got in standing.items() if got["beans"] is not None}
        self.seats, self.status, self.penalties = [dict(s) for s in room["seats"]], status, penalties
        self.barred = set(room.get("barred") or [])
        self.access = dict(room.get("access") or {})
        self.admitted = admitted_ids(self.access)
        finished = [h for h in hands if h["finished_at"]]
        settled = self.store.read(settlement.settled_tx, [h["id"] for h in finished], len(room["seats"]))
        played = self.store.read(settlement.hand_players_tx, [h["id"] for h in finished], len(room["seats"]))
        self.hands = [
            hand_entry(h["number"], h["scores"], h["scored"], {**settled[h["id"]], "players": played[h["id"]]})
            for h in finished
        ]
        self.game, self.hand_id, self._unfinished = game, hand_id, unfinished

    async def reload(self) -> None:
        """Back to exactly what the store holds (after a failed write, once it answers)."""
        try:
            await asyncio.to_thread(self.load)
        except Exception as e:
            log.warning("room %s could not be reloaded yet: %s", self.id, e)
            self.hall.store_unavailable()
            return
        self.stalled = False
        self._bots = {}
        if self._unfinished:
            await self._finish_loaded()
        self.changed()

    # ------------------------------------------------------------------ the actor
    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")
        if self._unfinished:
            self.post(("finish",))
        self._schedule()
        if self.tournament is not None:
            self.watch_board()  # a tournament's table starts its next board by itself

    async def stop(self) -> None:
        if self._delay_timer:
            self._delay_timer.cancel()
        if self._timer:
            self._timer.cancel()
        if self._ready_timer:
            self._ready_timer.cancel()
        if self._board_timer:
            self._board_timer.cancel()
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def post(self, item: tuple[Any, ...]) -> None:
        self.queue.put_nowait(item)

    async def _run(self) -> None:
        log_context.room.set(self.id)  # this task's log lines are about this room
        log_context.player.set(None)  # (not the player whose connection opened it)
        while True:
            item = await self.queue.get()
            try:
                await self._handle(item)
            except Exception:  # one bad message must not stop the table
                unexpected.exception("table %s could not handle %r", self.id, item[0])
                if item[0] == "msg":
                    # nor its answer: when what failed was sending to this connection, the answer
                    # fails as well, and it must not end the table's actor (every seat would hang)
                    with contextlib.suppress(Exception):
                        item[1].error(UNEXPECTED, item[2].get("type"), item[2].get("id"), "unexpected")

    async def _handle(self, item: tuple[Any, ...]) -> None:
        kind = item[0]
        self.last_active = time.monotonic()
        if self.conns:
            self.person_seen = self.last_active
        if kind == "connect":
            conn: Conn = item[1]
            self.conns.add(conn)
            away = self._absent.pop(conn.player["id"], None)
            if away is not None:  # back in time: no penalty
                away.cancel()
            conn.send(
                {
                    "type": "hello",
                    "player": {"id": conn.player["id"], "name": conn.player["name"]},
                    "room": self.id,
                    "seat": self.seat_of(conn.player["id"]),
                }
            )
            if not await self._quick_started(conn.player["id"]):
                self._broadcast()
        elif kind == "disconnect":
            self.conns.discard(item[1])
            item[1].closed = True
            pid = item[1].player["id"]
            if self.status != "playing" and not any(c.player["id"] == pid for c in self.conns):
                self._ready.discard(pid)  # gone: not ready any more (the countdown stands them up)
            self._watch_absence(item[1].player["id"])
            self._broadcast()
        elif kind == "absent":
            await self._absent_too_long(item[1], item[2])
        elif kind == "msg":
            await self._message(item[1], item[2])
        elif kind in ("auto", "timeout", "deal"):
            with contextlib.suppress(IllegalAction):  # not saved: the table waits for the store
                await self._tick(kind, item[1], item[2])
        elif kind == "queued":
            await self._make_queued(item[1], item[2])
        elif kind == "recover":
            await self.reload()
        elif kind == "ready_due":
            await self._ready_due(item[1])
        elif kind == "board_due":
            await self.board_due(item[1])
        elif kind == "seat":
            await self._seat_quickly(*item[1:])
        elif kind == "finish":
            with contextlib.suppress(IllegalAction):
                await self._finish_loaded()
            self.changed()
        elif kind == "order":
            await self._order(*item[1:])

    async def order(self, what: str, **args: Any) -> Any:
        """Have the table's actor carry out an administrator's order ``admin_<what>``
        (moderation.py) in its turn; its result, or the IllegalAction that refused it."""
        return await self.in_turn(getattr(self, "admin_" + what), what == "close", **args)

    async def in_turn(self, method: Callable[..., Any], if_damaged: bool = False, **args: Any) -> Any:
        """Run ``method(**args)`` in the actor's turn (nothing else of the table runs meanwhile):
        its result, or the exception that refused it. A damaged room refuses it (unless ``if_damaged``)."""
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.post(("order", method, if_damaged, args, done))
        return await asyncio.wait_for(done, 10.0)

    async def _order(
        self, method: Callable[..., Any], if_damaged: bool, args: dict[str, Any], done: asyncio.Future[Any]
    ) -> None:
        try:
            if self.damaged and not if_damaged:
                raise IllegalAction(f"this room is set aside as damaged: {self.damaged}", "room_damaged")
            result = method(**args)
            if inspect.isawaitable(result):
                result = await result
        except Exception as e:
            if not done.done():
                done.set_exception(e)
        else:
            if not done.done():
                done.set_result(result)

    # ------------------------------------------------------------------ helpers
    def idle_since(self, now: float) -> float:
        """Seconds this room has been unused (0 while anybody is connected, seated or playing)."""
        if self.conns or self.damaged or self.status == "playing" or any(s["player"] is not None for s in self.seats):
            return 0.0
        return now - self.last_active

    def unmanned_since(self, now: float) -> float:
        """Seconds this room has had no person connected or seated (bots and 托管 do not count)."""
        if self.conns or any(s["player"] is not None for s in self.seats):
            self.person_seen = now
            return 0.0
        return now - self.person_seen

    def seat_of(self, player_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s["player"] == player_id:
                return i
        return None

    @property
    def turn(self) -> int:
        return len(self.game.history) if self.game is not None else 0

    def standings(self) -> list[int]:
        return person_standings(self.seats, self.hands, self.penalties)

    def _seats_with(self, seat: int, **values: Any) -> list[dict[str, Any]]:
        """A copy of the seats with ``seat`` changed (the table's own change only once stored)."""
        seats = [dict(s) for s in self.seats]
        seats[seat].update(values)
        return seats

    async def _save(self, write: Write) -> Any:
        """Make ``write`` durable; the result of its ``run``. If it cannot be stored the
        table stays as it was, waits (no timers) and raises the error the sender sees."""
        write.fence = self.hall.fence(self.id)
        try:
            return await self.hall.write(write)
        except Fenced:  # another worker of the cluster plays the room now: this one stops at once
            self.hall.lost(self)
            raise IllegalAction(ROOM_MOVED, "room_moved") from None
        except StoreUnavailable:
            self._stall()
        except StoreError as e:  # refused: memory and store may differ, rebuild from the store
            log.error("table %s: a write was refused (%s); reloading it", self.id, e)
            self._stall()
            self.post(("recover",))
        raise IllegalAction(SAVE_FAILED, "save_failed")

    def _stall(self) -> None:
        self.stalled = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._deadline = None

    async def _save_seats(self, seats: list[dict[str, Any]], status: str | None = None) -> None:
        status = status or self.status
        await self._save(Write(run=lambda c: db.save_room_tx(c, self.id, seats=seats, status=status)))
        self.seats, self.status = seats, status

    # ------------------------------------------------------------------ client messages
    async def _message(self, conn: Conn, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        try:
            if self.damaged:
                raise IllegalAction(f"this room is set aside as damaged: {self.damaged}", "room_damaged")
            handler = getattr(self, "_on_" + kind)
            await handler(conn, msg)
        except IllegalAction as e:
            conn.refuse(e, kind, msg.get("id"))

    def _require_seat(self, conn: Conn) -> int:
        seat = self.seat_of(conn.player["id"])
        if seat is None:
            raise IllegalAction("you are not seated at this table (spectators cannot act)", "not_seated")
        return seat

    async def _on_stand(self, conn: Conn, msg: dict[str, Any]) -> None:
        seat = self._require_seat(conn)
        if self.status == "playing":
            raise IllegalAction("a hand is being played: use leave (it costs the leave penalty)", "hand_going_on")
        self.check_may_stand()
        await self._save_seats(self._seats_with(seat, **EMPTY_SEAT))
        self._ready.discard(conn.player["id"])
        self._broadcast()

    async def _on_bot(self, conn: Conn, msg: dict[str, Any]) -> None:
        self._require_seat(conn)  # players at the table seat computer players, spectators do not
        seat, level = msg["seat"], msg["level"]
        if not 0 <= seat < len(self.seats):
            raise IllegalAction(f"there is no seat {seat}", "no_such_seat", seat=seat)
        s = self.seats[seat]
        if level is None:
            if s["bot"] is None:
                raise IllegalAction(f"seat {seat} has no computer player", "no_bot_there", seat=seat)
            if self.status == "playing":
                raise IllegalAction("a computer player cannot leave during a hand", "bot_stays")
        else:
            if level not in BOT_LEVELS:
                levels = ", ".join(BOT_LEVELS)
                raise IllegalAction(f"bot level must be one of {levels}", "bad_bot_level", levels=levels)
            if s["player"] is not None or (s["bot"] is not None and self.status == "playing"):
                raise IllegalAction(f"seat {seat} is taken", "seat_taken", seat=seat)
            if self.access.get("reserved", {}).get(str(seat)) is not None:
                raise IllegalAction(f"seat {seat} is reserved for another player", "seat_reserved", seat=seat)
        await self._save_seats(self._seats_with(seat, bot=level))
        self._bots.pop(seat, None)
        self._broadcast()

    async def _on_start(self, conn: Conn, msg: dict[str, Any]) -> None:
        await self._on_ready(conn, msg)  # start is 准备: the hand starts once every seat is ready

    async def _on_ready(self, conn: Conn, msg: dict[str, Any]) -> None:
        """准备: this person is ready for the next hand; the last one ready starts it."""
        self._require_seat(conn)
        if self.status == "playing":
            raise IllegalAction("the hand is already being played", "already_playing")
        empty = self._empty_seats()
        if empty:
            text = ", ".join(map(str, empty))
            raise IllegalAction(f"every seat must be taken first (empty: {text})", "not_all_seated", empty=text)
        self._ready.add(conn.player["id"])
        if all(self.ready_flags()):
            await self._start_hand()
        else:
            self._broadcast()

    async def _quick_started(self, pid: int) -> bool:
        """快速开始 made this room for ``pid`` and marked them ready: their page is here, so the
        first hand starts (every other seat a computer player); whether it did."""
        if self.status != "waiting" or pid not in self._ready or self.seat_of(pid) is None:
            return False
        if self._empty_seats() or not all(self.ready_flags()):
            return False
        with contextlib.suppress(IllegalAction):  # not saved: the person presses 开始 once the store is back
            await self._start_hand()
            return True
        return False

    def _empty_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s["player"] is None and s["bot"] is None]

    def ready_flags(self) -> list[bool]:
        """Per seat: ready for the next hand (a computer player always is)."""
        return [s["bot"] is not None or (s["player"] is not None and s["player"] in self._ready) for s in self.seats]

    def _watch_ready(self) -> None:
        """Between hands with every seat taken the countdown runs; otherwise there is none (a
        tournament's table has no 准备: its next board comes after a pause)."""
        if self.tournament is not None:
            self.watch_board()
            return
        due = self.status == "between" and not self.damaged and not self.stalled and not self._empty_seats()
        if not due:
            if self._ready_timer is not None:
                self._ready_timer.cancel()
            self._ready_timer, self._ready_at = None, None
            return
        if self._ready_timer is None:
            wait = self.hall.limits.ready_timeout
            self._ready_at = time.monotonic() + wait
            self._ready_timer = asyncio.get_running_loop().call_later(wait, self.post, ("ready_due", len(self.hands)))

    async def _ready_due(self, hands_done: int) -> None:
        """The countdown ended: each person not ready (or not connected) is stood up 请离座 —
        no penalty, no 托管, nothing counted — and the hand waits for the seat to be taken
        again (docs/decisions.md, "准备 between hands"); computer players are always ready."""
        if hands_done != len(self.hands) or self.status != "between" or self.stalled or self.damaged:
            return
        self._ready_timer, self._ready_at = None, None
        if self._empty_seats():
            self._broadcast()
            return
        connected = {c.player["id"] for c in self.conns}
        persons = [s["player"] for s in self.seats if s["player"] is not None]
        if persons and not connected.intersection(persons):
            # nobody seated is here, so nobody waits: the room stays as it is until a person
            # comes back (the countdown runs again), or is archived
            self._broadcast()
            return
        if self.seats_locked():  # a competition match: the hand starts, the absent on 托管 with the penalty
            await self._deal_in_the_absent(connected)
            return
        late = [
            i
            for i, s in enumerate(self.seats)
            if s["player"] is not None and (s["player"] not in self._ready or s["player"] not in connected)
        ]
        if not late:
            return
        seats = [dict(s) for s in self.seats]
        gone = [seats[i]["player"] for i in late]
        for i in late:
            seats[i].update(EMPTY_SEAT)
        try:
            await self._save_seats(seats)
        except IllegalAction:  # not saved: the countdown runs again once the store is back
            return
        notice = encode({"type": "notice", "code": "unseated", "params": {"by": "not_ready"}})
        for pid in gone:
            self._ready.discard(pid)
            for c in self.conns:
                if c.player["id"] == pid:
                    c.send(notice)
        self._broadcast()

    async def _deal_in_the_absent(self, connected: set[int]) -> None:
        """Competition: the next hand of the match starts when the countdown ends; a person
        not connected leaves it as at a leave — 托管 and the leave penalty."""
        try:
            await self._start_hand()
        except IllegalAction:  # not saved: the countdown runs again once the store is back
            return
        for i, s in enumerate(self.seats):
            if s["player"] is not None and s["player"] not in connected and not s["left"]:
                with contextlib.suppress(IllegalAction):
                    await self._leave_hand(i, s["player"], "away")
        self.changed()

    async def _on_say(self, conn: Conn, msg: dict[str, Any]) -> None:
        """快捷语 or a line of chat to everyone in the room (seated or watching); not stored."""
        phrase, text = msg.get("phrase"), msg.get("text")
        self.check_not_muted(conn)
        if (phrase is None) == (text is None):
            raise IllegalAction("say either a quick phrase or some text", "say_empty")
        if text is not None:
            if not self.room_options["chat"]:
                raise IllegalAction("free text chat is off in this room: choose a quick phrase", "chat_off")
            text = " ".join(text.split())
            if not text:
                raise IllegalAction("say either a quick phrase or some text", "say_empty")
            if len(text) > MAX_SAY:
                raise IllegalAction(f"a message is at most {MAX_SAY} characters", "say_too_long", max=MAX_SAY)
        now, limits, said = time.monotonic(), self.hall.limits, conn.said
        while said and now - said[0] >= 60:
            said.popleft()
        if (said and now - said[-1] < limits.say_gap) or len(said) >= limits.say_per_minute:
            raise IllegalAction(
                f"you are talking too fast: at most one message every {limits.say_gap:g} s and "
                f"{limits.say_per_minute} a minute",
                "say_too_fast",
                seconds=f"{limits.say_gap:g}",
                count=limits.say_per_minute,
            )
        said.append(now)
        self.keep_said(conn, self.seat_of(conn.player["id"]), phrase, text)
        out = encode(
            {
                "type": "said",
                "seat": self.seat_of(conn.player["id"]),
                "name": conn.player["name"],
                "phrase": phrase,
                "text": text,
            }
        )
        for c in list(self.conns):
            if self.hears(c, conn):  # blocked players never see one another's words (access.py)
                c.send(out)

    def _playing(self) -> Game:
        game = self.game
        if self.status != "playing" or game is None or game.is_over:
            raise IllegalAction("no hand is being played", "hand_not_started")
        return game

    def _require_turn(self, seat: int, msg: dict[str, Any]) -> Game:
        """The game, when ``seat`` may act in it now (``msg``'s turn, if given, is the current one)."""
        game = self._playing()
        self.check_not_paused()
        if game.to_act != seat:
            raise IllegalAction(f"it is not your turn: seat {game.to_act} is to act", "not_your_turn", seat=game.to_act)
        if "turn" in msg and msg["turn"] != self.turn:
            raise IllegalAction(
                f"stale action: the hand is at turn {self.turn}, you chose at turn {msg['turn']}",
                "stale_turn",
                turn=self.turn,
                chosen=msg["turn"],
            )
        if self.seats[seat]["hosted"]:
            raise IllegalAction("your seat is on 托管: switch it off to play yourself", "hosted_on")
        return game

    async def _on_act(self, conn: Conn, msg: dict[str, Any]) -> None:
        seat = self._require_seat(conn)
        game = self._playing()
        ahead = game.to_act != seat or ("turn" in msg and msg["turn"] != self.turn)
        if ahead and deal_stage(game) is not None and is_declaration(msg["action"]):
            self._queue_declaration(conn, seat, msg)
            return
        game = self._require_turn(seat, msg)
        taken = time.perf_counter()
        await self._apply(seat, game.parse_action(msg["action"]), hosted=False)
        metrics.action_latency(self.game_name, time.perf_counter() - taken)

    def _queue_declaration(self, conn: Conn, seat: int, msg: dict[str, Any]) -> None:
        """A declaration clicked while the cards arrive: made at the seat's next decision of
        the deal if it is still legal then (the fast deal's windows are too short to click in)."""
        game = self._playing()
        if self.seats[seat]["hosted"]:
            raise IllegalAction("your seat is on 托管: switch it off to play yourself", "hosted_on")
        text = str(game.parse_action(msg["action"]))
        self._queued[seat] = (text, msg.get("id"))
        conn.send({"type": "queued", "action": text, **({"id": msg["id"]} if "id" in msg else {})})
        if game.to_act == seat:  # its decision is now: make it at once
            self._schedule()

    async def _make_queued(self, hands_done: int, turn: int) -> None:
        game = self.game
        if game is None or hands_done != len(self.hands) or turn != self.turn or self.stalled:
            return
        seat = game.to_act
        if seat is None or seat not in self._queued:
            return
        text, ref = self._queued.pop(seat)
        try:
            await self._apply(seat, game.parse_action(text), hosted=False)
        except IllegalAction as e:  # no longer legal (or not saved): that seat is told, the deal goes on
            self._tell_seat(seat, e, ref)
            self._schedule()

    def _tell_seat(self, seat: int, e: IllegalAction, ref: Any) -> None:
        pid = self.seats[seat]["player"]
        for c in list(self.conns):
            if pid is not None and c.player["id"] == pid:
                c.refuse(e, "act", ref)

    def _late_declarations(self) -> None:
        """The deal is over: declarations still queued were too late."""
        if not self._queued or (self.game is not None and deal_stage(self.game) is not None):
            return
        queued, self._queued = self._queued, {}
        for seat, (text, ref) in queued.items():
            late = IllegalAction(
                f"the deal is over: your declaration {text} came too late", "declare_too_late", action=text
            )
            self._tell_seat(seat, late, ref)

    async def _on_check(self, conn: Conn, msg: dict[str, Any]) -> None:
        """Would this action be taken for the caller's seat now? Nothing changes."""
        answer: dict[str, Any] = {"type": "check", "action": msg["action"], "ok": True, "code": None, "params": {}}
        answer.update({"error": None, "warning": None, "warning_params": {}})
        try:
            seat = self._require_seat(conn)
            game = self._require_turn(seat, msg)
            action = game.parse_action(msg["action"])
            problem = game.check(action)  # the game is never touched
            if problem is not None:
                raise problem
        except IllegalAction as e:
            answer.update(ok=False, code=getattr(e, "code", "illegal"), params=getattr(e, "params", {}), error=str(e))
        else:
            if getattr(action, "name", None) == "call" and str(action) in (game.view(seat).get("solo_calls") or []):
                answer.update(warning="call_makes_solo", warning_params={"card": getattr(action, "arg", str(action))})
        if "id" in msg:
            answer["id"] = msg["id"]
        conn.send(answer)

    async def _on_hint(self, conn: Conn, msg: dict[str, Any]) -> None:
        seat = self._require_seat(conn)
        self.check_hint_allowed()
        game = self.game
        if game is None or game.to_act != seat:
            raise IllegalAction("a hint is given to the seat to act", "hint_not_yours")
        answer = self.hints.answer(game, seat, (len(self.hands), self.turn))
        # the player's setting 提示无则PASS (seed 000: 无则PASS): nothing beats, so pass for him
        passed = bool(msg.get("auto_pass")) and answer["pass"] and game.phase == "play"
        if passed:
            await self._apply(seat, game.parse_action(answer["action"]), hosted=False)
        conn.send({**answer, "passed": passed, **({"id": msg["id"]} if "id" in msg else {})})

    async def _on_hosted(self, conn: Conn, msg: dict[str, Any]) -> None:
        seat = self._require_seat(conn)
        s = self.seats[seat]
        if msg["on"]:
            if self.status != "playing":
                raise IllegalAction("托管 is for a hand being played", "hosted_not_now")
            await self._save_seats(self._hosted(seat, "button"))
        else:
            if s["hosted_times"] > HOSTED_LOCK_AFTER or s["left"]:
                raise IllegalAction(
                    "托管 is locked: auto-played more than 3 times in this hand",
                    "hosted_locked",
                    times=HOSTED_LOCK_AFTER,
                )
            await self._save_seats(self._seats_with(seat, hosted=False, hosted_reason=None))
        self.changed()

    async def _on_leave(self, conn: Conn, msg: dict[str, Any]) -> None:
        seat = self._require_seat(conn)
        s = self.seats[seat]
        if self._hand_going_on():
            if s["left"]:
                raise IllegalAction("you have already left this hand", "already_left")
            await self._leave_hand(seat, conn.player["id"], "leave")
        else:
            await self._save_seats(self._seats_with(seat, player=None, **FRESH_SEAT))
            self._ready.discard(conn.player["id"])
        self.changed()

    def _hand_going_on(self) -> bool:
        return self.status == "playing" and self.game is not None and not self.game.is_over

    def leave_points(self) -> int:
        """The room's leave penalty 逃跑扣分 (its option, or the game's own)."""
        return int(self.options.get("leave_penalty", LEAVE_PENALTY.get(self.game_name, 0)))

    async def _leave_hand(self, seat: int, pid: int, reason: str, also: Callable[[Any], Any] | None = None) -> int:
        """``seat`` leaves the hand being played (``reason``: leave, away, kicked): the leave
        penalty (once), then 托管 to the end; the penalty's points. ``also`` writes more in the
        same transaction (a kick's bar and audit row)."""
        points = self.leave_points()
        seats = self._hosted(seat, "left")
        seats[seat].update(left=True, hosted_reason="left")
        number, status = len(self.hands) + 1, self.status

        others = [s["player"] for i, s in enumerate(seats) if i != seat and s["player"] is not None]
        hand_id = self.hand_id

        def run(c: Any) -> dict[str, Any]:
            db.save_room_tx(c, self.id, seats=seats, status=status)
            settlement.penalty_beans_tx(
                c, hand_id=hand_id, leaver=pid, points=points, others=others, room_options=self.room_options
            )
            if also is not None:
                also(c)
            return db.add_penalty_tx(c, self.id, number, seat, pid, points, reason)

        penalty = await self._save(Write(run=run))
        self.penalties = [*self.penalties, penalty]
        self.seats = seats
        return points

    # ------------------------------------------------------------------ away from the table
    def _watch_absence(self, pid: int) -> None:
        """A seated player's last connection closed during a hand: if they are not back
        within the grace period they have left it (closing the tab is leaving: docs/rules/baohuang.md §5)."""
        seat = self.seat_of(pid)
        if seat is None or not self._hand_going_on() or self.seats[seat]["left"] or pid in self._absent:
            return
        if any(c.player["id"] == pid for c in self.conns):
            return
        key = (pid, len(self.hands))
        self._absent[pid] = asyncio.get_running_loop().call_later(self.hall.leave_grace, self.post, ("absent", *key))

    async def _absent_too_long(self, pid: int, hands_done: int) -> None:
        self._absent.pop(pid, None)
        seat = self.seat_of(pid)
        if seat is None or hands_done != len(self.hands) or not self._hand_going_on() or self.seats[seat]["left"]:
            return
        if any(c.player["id"] == pid for c in self.conns):
            return
        try:
            await self._leave_hand(seat, pid, "away")
        except IllegalAction:  # not saved: try again after another grace period
            self._watch_absence(pid)
            return
        self.changed()

    # ------------------------------------------------------------------ the hand
    async def _start_hand(self) -> None:
        """Deal the next hand (every seat ready). An account that can no longer cover a hand
        here is unseated first (no hand then)."""
        planned = None
        if self.tournament is not None:  # a planned board: its seed and seating, fresh options
            planned = await self.planned_hand()
            if planned is None:
                return
        elif await self._unseat_short():
            return
        if planned is not None:
            options, seed = dict(self.engine_options), int(planned["seed"])
        else:
            options, seed = next_options(self.game, self.engine_options, self.hands, self.penalties), new_seed()
        game = new_game(self.game_name, seed=seed, **options)
        seats = [{**s, **FRESH_SEAT} for s in self.seats]
        if planned is not None:
            seats = self.planned_seats(seats, planned)
        elif self.competition and self.match_starts():  # 座位选择由…抽签而定 (competition.py)
            seats = drawn_by_lot(seats)
        number, resolved = len(self.hands) + 1, game.record()["options"]  # every option value, not only the room's
        self.hand_id = await self._save(
            Write(run=lambda c: db.start_hand_tx(c, self.id, number, seed, resolved, seats, RECORD_VERSION))
        )
        self.game, self.seats, self.status, self.message, self._bots = game, seats, "playing", None, {}
        self.message_seats, self.message_names, self._queued = [], [], {}
        self._ready = set()
        self.changed()

    def _hosted(self, seat: int, reason: str) -> list[dict[str, Any]]:
        """The seats with ``seat`` put on 托管 for ``reason`` (timeout, button, left; counted
        once each time it is switched on)."""
        s = self.seats[seat]
        if s["hosted"]:
            return [dict(x) for x in self.seats]
        return self._seats_with(seat, hosted=True, hosted_times=s["hosted_times"] + 1, hosted_reason=reason)

    async def _apply(self, seat: int, action: Any, hosted: bool, seats: list[dict[str, Any]] | None = None) -> None:
        """Take ``action`` for ``seat``: stored (with ``seats`` if they change, and the end
        of the hand if it ends), then shown. If it cannot be stored the game is put back."""
        game = self.game
        assert game is not None and self.hand_id is not None
        before = len(game.history)
        by = "bot" if self.seats[seat]["bot"] is not None else "hosted" if hosted else "person"
        game.apply(action)  # raises IllegalAction and changes nothing when illegal
        seats = seats if seats is not None else self.seats
        at_end = seats  # who sat at the end of the hand, if it ends (dissolving empties the seats)
        status, message = self.status, self.message
        hand_id, rid, seq = self.hand_id, self.id, len(self.hands)
        finish = None
        if game.is_over:
            finish = self._end_of_hand(seats)
            seats, status, message = finish["seats"], finish["status"], finish["message"]

        def run(c: Any) -> None:
            if finish is not None:
                db.finish_hand_tx(c, hand_id, finish["scores"], finish["scored"], rid, seats, status)
                finish["settled"] = self._settle_tx(c, hand_id, game, at_end, finish["scored"])
                self.hand_done_tx(c, seq, hand_id, finish["scores"])
            elif seats is not self.seats:
                db.save_room_tx(c, rid, seats=seats, status=status)

        row = db.action_row(hand_id, before + 1, seat, str(action), hosted)
        try:
            await self._save(Write(actions=[row], run=run))
        except IllegalAction:
            self.game = self._replayed(game, before)
            raise
        self.seats, self.status, self.message = seats, status, message
        if finish is not None:
            self._finished(finish)
            self.hand_done()
        self.changed()
        metrics.action(self.game_name, by)

    def _replayed(self, game: Game, turns: int) -> Game:
        """``game`` as it was after its first ``turns`` actions (what the store holds)."""
        record = game.record()
        return replay({**record, "actions": record["actions"][:turns]})

    def _end_of_hand(self, seats: list[dict[str, Any]]) -> dict[str, Any]:
        """The end of the hand just played: its scores, and the seats and status after it."""
        game = self.game
        assert game is not None
        seats = [dict(s) for s in seats]
        played = [s["player"] for s in seats]  # who played each seat (before dissolving empties them)
        humans = [i for i, s in enumerate(seats) if s["player"] is not None]
        hosted = [i for i in humans if seats[i]["hosted"]]
        scored = not (humans and len(hosted) == len(humans))  # all on 托管: not scored
        status, message = "between", self.message
        pids = [seats[i]["player"] for i in hosted]  # named now: dissolving takes them off the seats
        names = self.hall.player_names(pids)
        if hosted:  # a hosted player at the end dissolves the table
            for i in humans:
                seats[i].update(player=None, **FRESH_SEAT)
            status = "waiting"
            message = "dissolved" if scored else "dissolved_unscored"
        return {
            "scores": list(game.scores),  # stored as the game counted them; ``scored`` says if they count
            "scored": scored,
            "seats": seats,
            "status": status,
            "message": message,
            "message_seats": hosted,
            "message_names": [names.get(p) for p in pids],
            "players": played,
        }

    async def _finish_loaded(self) -> None:
        """Store the end of a loaded hand whose last action was stored but its end was not."""
        if not self._unfinished or self.hand_id is None:
            return
        finish, hand_id, rid, game, at_end = self._end_of_hand(self.seats), self.hand_id, self.id, self.game, self.seats
        seq = len(self.hands)

        def run(c: Any) -> None:
            db.finish_hand_tx(c, hand_id, finish["scores"], finish["scored"], rid, finish["seats"], finish["status"])
            finish["settled"] = self._settle_tx(c, hand_id, game, at_end, finish["scored"])
            self.hand_done_tx(c, seq, hand_id, finish["scores"])

        await self._save(Write(run=run))
        self._unfinished = False
        self.seats, self.status, self.message = finish["seats"], finish["status"], finish["message"]
        self._finished(finish)
        self.hand_done()

    def _settle_tx(self, c: Any, hand_id: int, game: Any, at_end: list[dict[str, Any]], scored: bool) -> Any:
        """In the hand's finishing transaction: its beans, results and ratings (settlement.py)."""
        return settlement.finish_tx(
            c,
            hand_id=hand_id,
            game_name=self.game_name,
            game=game,
            seat_players=[s["player"] for s in at_end],
            scored=scored,
            room_options=self.room_options,
            own=[int(s.get("own", 1)) for s in at_end],
            settings=getattr(self.hall, "beans", None),
        )

    def _finished(self, finish: dict[str, Any]) -> None:
        """The hand just stored as finished joins the room's hands; who was on 托管 is told."""
        settled = finish.get("settled")
        if settled is not None:
            settled = {**settled, "players": finish["players"]}
        entry = hand_entry(len(self.hands) + 1, finish["scores"], finish["scored"], settled)
        if settled is not None:
            self.balances.update(settled["balances"])
            for pid, title in settled["titles"].items():
                self.standing.setdefault(pid, {"guest": pid not in settled["balances"]})["title"] = title
        self.hands = [*self.hands, entry]
        log.info("room %s: hand %d ended", self.id, len(self.hands))  # its room: the table task's
        if finish["message_seats"]:
            self.message_seats, self.message_names = finish["message_seats"], finish["message_names"]

    def changed(self) -> None:
        """Re-arm the timers and send everyone the new state."""
        self._schedule()
        self._broadcast()
        self._late_declarations()

    _changed = changed

    def refresh(self) -> None:
        """Send everyone the state again (something shown beside the game changed; no timer moves)."""
        self._broadcast()

    async def _on_own(self, conn: Conn, msg: dict[str, Any]) -> None:
        """Set the seat's own multiplier (1-4) for the hands to come (room option own_multiplier)."""
        seat = self._require_seat(conn)
        value = msg["value"]
        if not self.room_options["own_multiplier"] or self.status == "playing" or not 1 <= value <= 4:
            raise IllegalAction(
                "your own multiplier is 1 to 4, set between hands in a room that allows it", "bad_own_multiplier"
            )
        await self._save_seats(self._seats_with(seat, own=value))
        self._broadcast()
