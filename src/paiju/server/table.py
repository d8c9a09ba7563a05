"""One table of the hall: an asyncio actor that owns a room's current hand.

Every message to a table — from a connection, a timer or a bot — goes through one queue
and is handled in order, so a table never sees two changes at once. An accepted action is
appended to the store before anybody is shown it; every connection then receives an
``update`` carrying only its own seat's ``view``. The server never decides a rule: it asks
the game (``legal_actions``, ``apply``, ``view``) and the engine's 托管 policy.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from paiju.bots import make_bot
from paiju.errors import IllegalAction
from paiju.game import Game, new_seed
from paiju.registry import new_game
from paiju.server.protocol import BOT_LEVELS

if TYPE_CHECKING:
    from paiju.server.hall import Hall

log = logging.getLogger("paiju.table")

# computer players behind the levels a room offers
BOT_FOR_LEVEL = {"hosted": None, "normal": "greedy", "strong": "heuristic"}
HOSTED_LOCK_AFTER = 3  # auto-played more than 3 times in a hand: 托管 cannot be cancelled
# points a player loses for leaving a started hand, when the room has no leave_penalty
# option: Baohuang's 40 (its spec §5); elsewhere the most one hand can cost [decision]
# (Shuangkou's 双扣 3 points, Shengji's 3 levels)
LEAVE_PENALTY = {"baohuang": 40, "shuangkou": 3, "shengji": 3}


def encode(msg: dict[str, Any]) -> str:
    """A message as JSON text (orjson: the hall encodes five views per action)."""
    return orjson.dumps(msg).decode()


class TokenBucket:
    """Throttle for one connection: ``rate`` messages per second, bursts of ``burst``."""

    def __init__(self, rate: float = 20.0, burst: float = 40.0) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


@dataclass(eq=False)
class Conn:
    """One WebSocket connection of a player to a table."""

    ws: Any
    player: dict[str, Any]
    outbox: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    bucket: TokenBucket = field(default_factory=TokenBucket)
    closed: bool = False
    hand_id: int | None = None  # the hand whose events this connection has
    events_sent: int = 0  # how many of that hand's public events it has

    def send(self, msg: dict[str, Any] | str) -> None:
        if self.closed:
            return
        self.outbox.put_nowait(msg if isinstance(msg, str) else encode(msg))

    def error(self, text: str, reply_to: str | None = None, ref: Any = None) -> None:
        msg: dict[str, Any] = {"type": "error", "error": text, "reply_to": reply_to}
        if ref is not None:
            msg["id"] = ref
        self.send(msg)

    async def writer(self) -> None:
        try:
            while True:
                text = await self.outbox.get()
                await self.ws.send_text(text)
        except Exception:  # connection gone: the reader notices and unregisters
            self.closed = True


class Table:
    """A room: its seats, its match so far and the hand being played."""

    def __init__(self, hall: Hall, row: dict[str, Any]) -> None:
        self.hall = hall
        self.store = hall.store
        self.id: str = row["id"]
        self.name: str = row["name"]
        self.game_name: str = row["game"]
        self.options: dict[str, Any] = dict(row["options"])
        self.turn_timeout: float = float(row["turn_timeout"])
        self.seats: list[dict[str, Any]] = [dict(s) for s in row["seats"]]
        self.status: str = row["status"]
        self.conns: set[Conn] = set()
        self.queue: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
        self.game: Game | None = None
        self.hand_id: int | None = None
        self.hands: list[dict[str, Any]] = []
        self.penalties: list[dict[str, Any]] = []
        self.message: str | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._deadline: float | None = None
        self._task: asyncio.Task[None] | None = None
        self._bots: dict[int, Any] = {}
        self.hosted_policy = importlib.import_module(f"paiju.{self.game_name}").hosted_action
        self.hint_policy = importlib.import_module(f"paiju.{self.game_name}").hint
        self._load()

    # ------------------------------------------------------------------ loading
    def _load(self) -> None:
        """Rebuild the match from the store: finished hands, and the last hand replayed."""
        hands = self.store.room_hands(self.id)
        self.penalties = self.store.room_penalties(self.id)
        self.hands = [
            {"number": h["number"], "scores": h["scores"], "scored": h["scored"]} for h in hands if h["finished_at"]
        ]
        if not hands:
            return
        last = hands[-1]
        game = new_game(self.game_name, seed=last["seed"], **last["options"])
        for a in self.store.hand_actions(last["id"]):
            game.apply(a["text"])
        self.game, self.hand_id = game, last["id"]
        if last["finished_at"] is None:
            if game.is_over:  # the last action was stored, the hand's end was not
                self._finish_hand()
            else:
                self.status = "playing"

    # ------------------------------------------------------------------ the actor
    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")
        self._schedule()

    async def stop(self) -> None:
        if self._timer:
            self._timer.cancel()
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def post(self, item: tuple[Any, ...]) -> None:
        self.queue.put_nowait(item)

    async def _run(self) -> None:
        while True:
            item = await self.queue.get()
            try:
                self._handle(item)
            except Exception:  # one bad message must not stop the table
                log.exception("table %s failed on %r", self.id, item[0])

    def _handle(self, item: tuple[Any, ...]) -> None:
        kind = item[0]
        if kind == "connect":
            conn: Conn = item[1]
            self.conns.add(conn)
            conn.send(
                {
                    "type": "hello",
                    "player": {"id": conn.player["id"], "name": conn.player["name"]},
                    "room": self.id,
                    "seat": self.seat_of(conn.player["id"]),
                }
            )
            self._broadcast()
        elif kind == "disconnect":
            self.conns.discard(item[1])
            item[1].closed = True
            self._broadcast()
        elif kind == "msg":
            self._message(item[1], item[2])
        elif kind in ("auto", "timeout"):
            self._tick(kind, item[1], item[2])

    # ------------------------------------------------------------------ helpers
    def seat_of(self, player_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s["player"] == player_id:
                return i
        return None

    @property
    def turn(self) -> int:
        return len(self.game.history) if self.game is not None else 0

    def standings(self) -> list[int]:
        out = [0] * len(self.seats)
        for h in self.hands:
            if h["scored"] and h["scores"]:
                out = [a + b for a, b in zip(out, h["scores"])]
        for p in self.penalties:
            out[p["seat"]] -= p["points"]
        return out

    def _save_seats(self) -> None:
        self.store.save_room(self.id, seats=self.seats, status=self.status)

    # ------------------------------------------------------------------ client messages
    def _message(self, conn: Conn, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        try:
            handler = getattr(self, "_on_" + kind)
            handler(conn, msg)
        except IllegalAction as e:
            conn.error(str(e), kind, msg.get("id"))

    def _require_seat(self, conn: Conn) -> int:
        seat = self.seat_of(conn.player["id"])
        if seat is None:
            raise IllegalAction("you are not seated at this table (spectators cannot act)")
        return seat

    def _on_sit(self, conn: Conn, msg: dict[str, Any]) -> None:
        seat = msg["seat"]
        if not 0 <= seat < len(self.seats):
            raise IllegalAction(f"there is no seat {seat}: seats are 0-{len(self.seats) - 1}")
        if self.seat_of(conn.player["id"]) is not None:
            raise IllegalAction("you already have a seat at this table")
        s = self.seats[seat]
        if s["player"] is not None or s["bot"] is not None:
            raise IllegalAction(f"seat {seat} is taken")
        s.update(player=conn.player["id"], hosted=False, hosted_times=0, left=False)
        self.message = None
        self._save_seats()
        self._broadcast()

    def _on_stand(self, conn: Conn, msg: dict[str, Any]) -> None:
        seat = self._require_seat(conn)
        if self.status == "playing":
            raise IllegalAction("a hand is being played: use leave (it costs the leave penalty)")
        self.seats[seat].update(player=None, hosted=False, hosted_times=0, left=False)
        self._save_seats()
        self._broadcast()

    def _on_bot(self, conn: Conn, msg: dict[str, Any]) -> None:
        self._require_seat(conn)  # players at the table seat computer players, spectators do not
        seat, level = msg["seat"], msg["level"]
        if not 0 <= seat < len(self.seats):
            raise IllegalAction(f"there is no seat {seat}")
        s = self.seats[seat]
        if level is None:
            if s["bot"] is None:
                raise IllegalAction(f"seat {seat} has no computer player")
            if self.status == "playing":
                raise IllegalAction("a computer player cannot leave during a hand")
            s["bot"] = None
        else:
            if level not in BOT_LEVELS:
                raise IllegalAction(f"bot level must be one of {', '.join(BOT_LEVELS)}")
            if s["player"] is not None or (s["bot"] is not None and self.status == "playing"):
                raise IllegalAction(f"seat {seat} is taken")
            s["bot"] = level
        self._bots.pop(seat, None)
        self._save_seats()
        self._broadcast()

    def _on_start(self, conn: Conn, msg: dict[str, Any]) -> None:
        self._require_seat(conn)
        if self.status == "playing":
            raise IllegalAction("the hand is already being played")
        empty = [i for i, s in enumerate(self.seats) if s["player"] is None and s["bot"] is None]
        if empty:
            raise IllegalAction(f"every seat must be taken first (empty: {', '.join(map(str, empty))})")
        self._start_hand()

    def _on_act(self, conn: Conn, msg: dict[str, Any]) -> None:
        seat = self._require_seat(conn)
        game = self.game
        if self.status != "playing" or game is None or game.is_over:
            raise IllegalAction("no hand is being played")
        if game.to_act != seat:
            raise IllegalAction(f"it is not your turn: seat {game.to_act} is to act")
        if "turn" in msg and msg["turn"] != self.turn:
            raise IllegalAction(f"stale action: the hand is at turn {self.turn}, you chose at turn {msg['turn']}")
        if self.seats[seat]["hosted"]:
            raise IllegalAction("your seat is on 托管: switch it off to play yourself")
        self._apply(seat, game.parse_action(msg["action"]), hosted=False)

    def _on_hint(self, conn: Conn, msg: dict[str, Any]) -> None:
        seat = self._require_seat(conn)
        game = self.game
        if game is None or game.to_act != seat:
            raise IllegalAction("a hint is given to the seat to act")
        if game.phase != "play":
            action = self.hosted_policy(game)
        else:
            action = self.hint_policy(game)
        conn.send({"type": "hint", "action": str(action), **({"id": msg["id"]} if "id" in msg else {})})

    def _on_hosted(self, conn: Conn, msg: dict[str, Any]) -> None:
        seat = self._require_seat(conn)
        s = self.seats[seat]
        if msg["on"]:
            if self.status != "playing":
                raise IllegalAction("托管 is for a hand being played")
            self._host(seat, "button")
        else:
            if s["hosted_times"] > HOSTED_LOCK_AFTER or s["left"]:
                raise IllegalAction("托管 is locked: auto-played more than 3 times in this hand")
            s["hosted"] = False
            self._save_seats()
        self._changed()

    def _on_leave(self, conn: Conn, msg: dict[str, Any]) -> None:
        seat = self._require_seat(conn)
        s = self.seats[seat]
        if self.status == "playing" and self.game is not None and not self.game.is_over:
            if s["left"]:
                raise IllegalAction("you have already left this hand")
            points = int(self.options.get("leave_penalty", LEAVE_PENALTY.get(self.game_name, 0)))
            self.store.add_penalty(self.id, len(self.hands) + 1, seat, conn.player["id"], points, "leave")
            self.penalties = self.store.room_penalties(self.id)
            s["left"] = True
            self._host(seat, "leave")
            self._save_seats()
        else:
            s.update(player=None, hosted=False, hosted_times=0, left=False)
            self._save_seats()
        self._changed()

    # ------------------------------------------------------------------ the hand
    def _start_hand(self) -> None:
        prev = self.game
        options = dict(self.options)
        if prev is not None and prev.is_over and hasattr(prev, "next_hand_options"):
            if not getattr(prev, "match_over", False):  # a won match (Shengji) starts a new one
                left = any(p["hand_number"] == len(self.hands) and p["reason"] == "leave" for p in self.penalties)
                if left and "abnormal" in inspect.signature(prev.next_hand_options).parameters:
                    options = prev.next_hand_options(abnormal=True)  # Shuangkou: a random first lead
                else:
                    options = prev.next_hand_options()
        seed = new_seed()
        game = new_game(self.game_name, seed=seed, **options)
        for s in self.seats:
            s.update(hosted=False, hosted_times=0, left=False)
        self.status = "playing"
        self.message = None
        self.hand_id = self.store.start_hand(self.id, len(self.hands) + 1, seed, game.record()["options"], self.seats)
        self.game = game
        self._bots = {}
        self._changed()

    def _host(self, seat: int, reason: str) -> None:
        s = self.seats[seat]
        if not s["hosted"]:
            s["hosted"] = True
            s["hosted_times"] += 1
            self._save_seats()

    def _apply(self, seat: int, action: Any, hosted: bool) -> None:
        game = self.game
        assert game is not None and self.hand_id is not None
        game.apply(action)  # raises IllegalAction and changes nothing when illegal
        # stored with the other actions of this loop turn; shown only after that commit
        self.store.stage_action(self.hand_id, self.turn, seat, str(action), hosted)
        if game.is_over:
            self._finish_hand()
        self.hall.after_commit(self)

    def store_failed(self) -> None:
        """The last commit failed: go back to what the store holds and tell everyone."""
        log.error("could not store the actions of table %s; reloading it", self.id)
        self._load()
        for conn in self.conns:
            conn.error("the last action could not be saved; the table is back to its last saved state")
        self._changed()

    def _finish_hand(self) -> None:
        game = self.game
        assert game is not None and self.hand_id is not None
        humans = [i for i, s in enumerate(self.seats) if s["player"] is not None]
        hosted = [i for i in humans if self.seats[i]["hosted"]]
        scored = not (humans and len(hosted) == len(humans))  # all on 托管: not scored
        scores = list(game.scores)
        self.status = "between"
        if hosted:  # a hosted player at the end dissolves the table
            for i in humans:
                self.seats[i].update(player=None, hosted=False, hosted_times=0, left=False)
            self.status = "waiting"
            self.message = "dissolved" if scored else "dissolved_unscored"
        self.store.finish_hand(self.hand_id, scores, scored, self.id, self.seats, self.status)
        self.hands.append({"number": len(self.hands) + 1, "scores": scores, "scored": scored})

    def changed(self) -> None:
        """Re-arm the timers and send everyone the new state."""
        self._schedule()
        self._broadcast()

    _changed = changed

    def _schedule(self) -> None:
        """Arm the timer for whoever is to act: a bot or hosted seat soon, a person at the
        room's turn timeout (then 托管 takes over)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._deadline = None
        game = self.game
        if self.status != "playing" or game is None or game.to_act is None:
            return
        seat = game.to_act
        s = self.seats[seat]
        loop = asyncio.get_running_loop()
        key = (len(self.hands), self.turn)
        if s["bot"] is not None or s["hosted"]:
            self._timer = loop.call_later(self.hall.bot_delay, self.post, ("auto", *key))
        else:
            self._deadline = loop.time() + self.turn_timeout
            self._timer = loop.call_later(self.turn_timeout, self.post, ("timeout", *key))

    def _tick(self, kind: str, hands_done: int, turn: int) -> None:
        game = self.game
        if (
            game is None
            or game.to_act is None
            or self.status != "playing"
            or hands_done != len(self.hands)
            or turn != self.turn
        ):
            return  # the table moved on since the timer was armed
        seat = game.to_act
        s = self.seats[seat]
        if kind == "auto" and s["bot"] is None and not s["hosted"]:
            return  # 托管 was switched off after this move was queued
        if kind == "timeout" and s["bot"] is None and not s["hosted"]:
            self._host(seat, "timeout")
        self._apply(seat, self._auto_action(seat), hosted=s["bot"] is None)

    def _auto_action(self, seat: int) -> Any:
        game = self.game
        assert game is not None
        level = self.seats[seat]["bot"]
        name = BOT_FOR_LEVEL.get(level) if level else None
        if name is None:
            return self.hosted_policy(game)
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = make_bot(name, game=self.game_name, seed=new_seed())
        return bot.act(game.view(seat), game.legal_actions())

    # ------------------------------------------------------------------ broadcasting
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
                    "hosted_times": s["hosted_times"],
                    "locked": s["hosted_times"] > HOSTED_LOCK_AFTER or s["left"],
                }
            )
        seated = {s["player"] for s in self.seats}
        return {
            "id": self.id,
            "name": self.name,
            "game": self.game_name,
            "options": self.options,
            "status": self.status,
            "seats": seats,
            "spectators": len({c.player["id"] for c in self.conns} - seated),
            "hand_number": len(self.hands) + (1 if self.status == "playing" else 0),
            "standings": self.standings(),
            "hands": self.hands,
            "turn_timeout": self.turn_timeout,
            "message": self.message,
        }

    def _broadcast(self) -> None:
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
        texts: dict[tuple[int | None, int], str] = {}
        for conn in list(self.conns):
            seat = self.seat_of(conn.player["id"])
            if seat not in views:
                views[seat] = game.view(seat) if game is not None else None
            view = views[seat]
            events = (view.get("events") or []) if view is not None else []  # a game may keep no event log
            start = conn.events_sent if conn.hand_id == self.hand_id and conn.events_sent <= len(events) else 0
            key = (seat, start)
            if key not in texts:
                part = view
                if view is not None and start:
                    part = dict(view)
                    part["events"] = events[start:]
                texts[key] = encode(
                    {
                        "type": "update",
                        "room": room,
                        "seat": seat,
                        "turn": self.turn,
                        "deadline": deadline,
                        "events_from": start,
                        "view": part,
                    }
                )
            conn.send(texts[key])
            conn.hand_id, conn.events_sent = self.hand_id, len(events)
