"""The hall: the store and its writer, every table (one actor per room) and the players' names.

When the database cannot be written the hall keeps every connection, answers moves with
a clear error, and probes the database with backoff; once it takes writes again every
table that waited reloads from the store and carries on by itself.

The lobby is served from a snapshot rebuilt at most every ``lobby_refresh`` seconds and
finished hands' records from a small cache, so that readers never cost the tables much;
a room nobody has used for ``room_idle`` seconds, or with no person for ``archive_after``
seconds (computer players alone do not keep it), is closed (kept in the store, no longer
listed or loaded; one with finished hands is archived and its hands stay readable), and a
player has at most ``rooms_per_player`` open rooms.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import orjson
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from paiju.errors import IllegalAction
from paiju.registry import GAMES, game_class
from paiju.server import metrics
from paiju.server import reasons as _reasons  # noqa: F401 - registers the hall's reason codes
from paiju.server.accounts import moderation
from paiju.server.accounts.settlement import BeanSettings
from paiju.server.store import db
from paiju.server.store.db import Store
from paiju.server.store.writer import Fenced, StoreUnavailable, Write, Writer
from paiju.server.tables.access import new_access, new_code
from paiju.server.tables.analysis_jobs import Analyses, AnalysisSettings
from paiju.server.tables.bot_pool import BotPool
from paiju.server.tables.deal import DEAL_FINAL_WINDOW, DEAL_STEP
from paiju.server.tables.frame_builder import FrameBuilder
from paiju.server.tables.games_info import TOURNAMENT, check_hall_option, room_option_names, split_options
from paiju.server.tables.hall_metrics import hall_samples
from paiju.server.tables.limits import check_value, hidden_char
from paiju.server.tables.moderation import refusable
from paiju.server.tables.revocation import Revocation
from paiju.server.tables.table import Table
from paiju.server.tables.throttle import Limits, Throttle
from paiju.server.tables.tournament_table import BOARD_PAUSE

if TYPE_CHECKING:
    from paiju.server.tables.cluster_rooms import Cluster, ClusterSettings

DEFAULT_TURN_TIMEOUT = 30.0
RETRY_FIRST, RETRY_MAX = 0.05, 2.0  # seconds between probes of an unavailable database
RECORDS_CACHED = 256  # finished hands' records kept encoded
FRAMES_CACHED = 32  # finished hands' replay frames kept gzipped (a few to tens of KB each)
SWEEP_EVERY = 30.0  # seconds between looks for idle rooms
PING_EVERY, PING_TIMEOUT = 1.0, 2.0  # /healthz: seconds between queries of the database, and how long one may take
CLOSED = ("closed", "archived")  # stored statuses of rooms no longer loaded (archived: its hands are read)
log = logging.getLogger("paiju.hall")


def _ping_tx(c: Any) -> None:
    c.execute(text("SELECT 1"))


class Hall:
    """Rooms and tables of one server process."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.6,
        limits: Limits | None = None,
        deal_step: float = DEAL_STEP,
        deal_final_window: float = DEAL_FINAL_WINDOW,
        bot_workers: int = 1,
        beans: BeanSettings | None = None,
        analysis: AnalysisSettings | None = None,
        cluster: ClusterSettings | None = None,
        board_pause: float = BOARD_PAUSE,
    ) -> None:
        self.store = store
        self.board_pause = board_pause  # seconds between a tournament table's boards (tournament_table.py)
        # the tournaments' director (paiju.server.tournaments.director) hears of each stored tournament hand
        self.on_tournament: Callable[[int], None] | None = None
        self.analyses = Analyses(self, analysis)  # 复盘 jobs in their own worker (analysis_jobs.py)
        self.frames = FrameBuilder()  # replay frames in a worker process (frame_builder.py)
        self.beans = beans or BeanSettings()
        self.bot_pool = BotPool(bot_workers)  # where 最强 bots search, off the event loop (bot_pool.py)
        self.writer = Writer(store.engine)
        self.bot_delay = bot_delay
        self.deal_step = deal_step  # seconds per decision while Shengji cards are dealt (deal.py)
        self.deal_final_window = deal_final_window  # a person's seconds after the last card
        self.limits = limits or Limits()
        self.throttle = Throttle(self.limits)
        self.tables: dict[str, Table] = {}
        self._names: dict[int, str] = {}
        self._recovery: asyncio.Task[None] | None = None
        self._pinged: tuple[float, bool] = (-PING_EVERY, True)  # when /healthz last asked the database, and its answer
        self._sweeper: asyncio.Task[None] | None = None
        self._lobby: tuple[float, list[dict[str, Any]]] = (-1e9, [])
        self._records: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._frames: OrderedDict[tuple[str, int, int], bytes] = OrderedDict()
        self.cluster: Cluster | None = None  # one worker of several (cluster_rooms.py); None: the whole hall
        if cluster is not None:
            from paiju.server.tables.cluster_rooms import Cluster

            self.cluster = Cluster(self, cluster)
            self.cluster.shared.on_bus = self._heard
        self.revocation = Revocation(self)  # ended sessions end their connections (revocation.py)
        metrics.watch(self)  # its gauges while it lives (hall_metrics.py)

    def metric_samples(self) -> list[metrics.Sample]:
        return hall_samples(self)

    @property
    def leave_grace(self) -> float:
        return self.limits.leave_grace

    async def open(self) -> None:
        """Load every room from the store and start its table (resuming unfinished hands).
        A room whose current hand does not replay is set aside; every other room starts.
        A worker of a cluster loads none: it claims rooms as players come (cluster_rooms.py)."""
        self.revocation.start()
        if self.cluster is not None:
            self.bot_pool.start()
            await self.cluster.start()
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_idle_rooms(), name="idle-rooms")
            return
        rows = [r for r in await asyncio.to_thread(self.store.all_rooms) if r["status"] not in CLOSED]
        ids = sorted({s["player"] for r in rows for s in r["seats"] if s["player"] is not None})
        self._names.update(await asyncio.to_thread(self.store.players_by_id, ids))
        self.bot_pool.start()
        for row in rows:
            table = Table(self, row)
            try:
                await asyncio.to_thread(table.load)
            except Exception as e:  # never keep the hall down for one room
                table.damaged = f"the room could not be loaded: {e}"
                log.exception("room %s is set aside: it could not be loaded", table.id)
            self.tables[table.id] = table
            table.start()
        damaged = [t.id for t in self.tables.values() if t.damaged]
        if damaged:
            log.warning("%d room(s) set aside as damaged: %s", len(damaged), ", ".join(damaged))
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_idle_rooms(), name="idle-rooms")

    async def close(self) -> None:
        metrics.unwatch(self)
        for task in (self._recovery, self._sweeper):
            if task is not None:
                task.cancel()
        await self.analyses.close()
        self.frames.close()
        await self.revocation.close()
        if self.cluster is not None:
            await self.cluster.close()  # gives every room up (the other workers claim them at once)
        for table in self.tables.values():
            await table.stop()
        await self.bot_pool.close()
        await asyncio.to_thread(self.writer.close)

    # ------------------------------------------------------------------ writing
    async def write(self, write: Write) -> Any:
        """Make ``write`` durable on the writer thread (raises StoreUnavailable/StoreError;
        Fenced when it is for a room this worker may no longer be sure it holds)."""
        if write.fence is not None and self.cluster is not None and not self.cluster.holding():
            raise Fenced("this worker's leases were not renewed in time")
        try:
            return await self.writer.submit(write)
        except StoreUnavailable:
            self.store_unavailable()
            raise

    async def decide(self, run: Any) -> Any:
        """``run(connection)`` made durable when it accepts, or its refusal raised (an
        IllegalAction raised by ``run`` before it writes anything: moderation, reports)."""
        got = await self.write(Write(run=refusable(run)))
        if isinstance(got, IllegalAction):
            raise got
        return got

    def database_ok(self) -> bool:
        """Does the database take writes (no failed write is being probed for)?"""
        return self._recovery is None or self._recovery.done()

    async def database_answers(self) -> bool:
        """Does the database answer a query now? Asked at most once a second (the proxy's
        health checks come often); a database that fails before any write does is seen."""
        now = time.monotonic()
        stamp, ok = self._pinged
        if now - stamp >= PING_EVERY:
            try:
                await asyncio.wait_for(asyncio.to_thread(self.store.read, _ping_tx), PING_TIMEOUT)
                ok = True
            except (SQLAlchemyError, OSError, TimeoutError):
                ok = False
            self._pinged = (time.monotonic(), ok)
        return ok

    def store_unavailable(self) -> None:
        """The database failed: probe it with backoff until it takes writes again."""
        if self._recovery is None or self._recovery.done():
            self._recovery = asyncio.get_running_loop().create_task(self._recover(), name="store-recovery")

    async def _recover(self) -> None:
        delay = RETRY_FIRST
        while True:
            await asyncio.sleep(delay)
            try:
                await self.writer.probe()
                break
            except Exception as e:
                log.debug("the database is still unavailable: %s", e)
                delay = min(delay * 2, RETRY_MAX)
        for table in self.tables.values():
            if table.stalled:
                table.post(("recover",))

    # ------------------------------------------------------------------ the cluster
    def fence(self, room: str) -> tuple[str, int] | None:
        """The lease a table's writes carry (None: a hall of one process, nothing to check)."""
        return self.cluster.fence(room) if self.cluster is not None else None

    def lost(self, table: Table) -> None:
        """Another worker plays this room now (its write was fenced)."""
        if self.cluster is not None:
            self.cluster.lost(table)

    def touched(self, table: Table) -> None:
        if self.cluster is not None:
            self.cluster.touched(table)

    def listing_changed(self, table: Table) -> None:
        """A room was made private or listed again: the lobby shows it so at once."""
        self._lobby = (-1e9, [])
        self.touched(table)

    async def table(self, room: str) -> Table | None:
        """The table a player connects to: this process's own, or on a worker of a cluster,
        the room claimed from whoever holds it (None: no such open room, or not now)."""
        if self.cluster is None:
            return self.tables.get(room)
        return await self.cluster.acquire(room)

    # ------------------------------------------------------------------ an administrator's orders
    async def order(self, room: str, what: str, **args: Any) -> Any:
        """Have room ``room``'s table carry out ``admin_<what>`` (tables/moderation.py), on
        this process or on the worker of the cluster that plays it; its result (IllegalAction:
        refused; RoomBusy: the room is moving — try again)."""
        table = self.tables.get(room)
        if table is not None and (self.cluster is None or self.cluster.fence(room) is not None):
            return await self._carry_out(table, what, args)
        if self.cluster is None:
            raise IllegalAction("there is no such room", "no_such_room")
        answer = await self.cluster.shared.request({"kind": "order", "room": room, "what": what, "args": args})
        if answer is None:  # no worker plays it (or Redis is away): play it here
            table = await self.cluster.acquire(room)
            if table is None:
                raise IllegalAction("there is no such room", "no_such_room")
            return await self._carry_out(table, what, args)
        if "error" in answer:
            raise IllegalAction(answer["error"], answer["code"], **answer["params"])
        return answer["result"]

    async def _carry_out(self, table: Table, what: str, args: dict[str, Any]) -> Any:
        result = await table.order(what, **args)
        if what == "close":
            await self.close_room(table, force=True, actor=args.get("actor"), reason=str(args.get("reason", "")))
        return result

    async def _heard(self, msg: dict[str, Any]) -> None:
        """A message on the cluster's bus: an order for a room this worker plays, a block, or sessions ended."""
        if msg.get("kind") == "where" and self.cluster is not None and isinstance(msg.get("reply"), str):
            wanted = {p for p in msg.get("players") or [] if isinstance(p, int)}
            found = {str(p): room for p, room in self._sitting_here(wanted).items()}
            await self.cluster.shared.answer(msg["reply"], {"found": found})
            return
        if msg.get("kind") == "block":
            a, b = msg.get("player"), msg.get("other")
            if isinstance(a, int) and isinstance(b, int):
                self._blocked_here(a, b, bool(msg.get("on")))
            return
        if msg.get("kind") != "order":
            await self.revocation.heard(msg)
            return
        room, cluster = msg.get("room"), self.cluster
        table = self.tables.get(room) if isinstance(room, str) else None
        if table is None or cluster is None or cluster.fence(table.id) is None or not isinstance(msg.get("reply"), str):
            return  # another worker's room: it answers
        try:
            answer: dict[str, Any] = {"result": await self._carry_out(table, str(msg["what"]), dict(msg["args"]))}
        except IllegalAction as e:
            answer = {"error": str(e), "code": getattr(e, "code", "illegal"), "params": getattr(e, "params", {})}
        await cluster.shared.answer(msg["reply"], answer)

    # ------------------------------------------------------------------ fair shares (throttle.py, shared.py)
    async def connect(self, pid: int, address: str) -> str | None:
        """Count a table connection, or say why it is refused (a worker counts the cluster's)."""
        too_many = self.throttle.connect(pid, address)
        if too_many is None and self.cluster is not None:
            try:
                too_many = await self.cluster.shared.connect(pid, address)
            except Exception as e:  # Redis does not answer: this worker's own count decides
                self.cluster.shared.trouble("counting a connection", e)
            if too_many is not None:
                self.throttle.disconnect(pid, address)
        return too_many

    async def disconnect(self, pid: int, address: str) -> None:
        self.throttle.disconnect(pid, address)
        if self.cluster is not None:
            await self.cluster.shared.disconnect(pid, address)

    def message_allowed(self, pid: int, address: str) -> bool:
        ok = self.throttle.message(pid, address)
        if self.cluster is not None:
            ok = self.cluster.shared.message(pid, address) and ok
        return ok

    async def online(self) -> tuple[int, bool]:
        """How many players have a table open (presence): this process's, or the whole cluster's;
        and whether the figure is stale (a worker whose Redis does not answer: as last known)."""
        if self.cluster is not None:
            try:
                return await self.cluster.shared.online()
            except Exception as e:
                self.cluster.shared.trouble("reading presence", e)
        return len(self.throttle.conns_of_player), self.cluster is not None

    async def is_online(self, pid: int) -> bool:
        """Has ``pid`` a table open (on a worker: on any worker of the cluster)?"""
        if pid in self.throttle.conns_of_player:
            return True
        if self.cluster is not None:
            try:
                return await self.cluster.shared.is_online(pid)
            except Exception as e:
                self.cluster.shared.trouble("reading presence", e)
        return False

    # ------------------------------------------------------------------ players
    async def blocks_changed(self, pid: int, other: int, on: bool) -> None:
        """``pid`` blocked ``other`` (or unblocked): the open connections of both hear the
        other no more (or again), on every worker of a cluster."""
        if self.cluster is not None and await self.cluster.shared.publish(
            {"kind": "block", "player": pid, "other": other, "on": on}
        ):
            return  # the bus tells this worker too
        self._blocked_here(pid, other, on)

    def _blocked_here(self, pid: int, other: int, on: bool) -> None:
        for table in self.tables.values():
            for conn in table.conns:
                mine, theirs = conn.player["id"] == pid, conn.player["id"] == other
                if mine or theirs:
                    who = other if mine else pid
                    conn.blocked.add(who) if on else conn.blocked.discard(who)

    async def where_is(self, pids: list[int]) -> dict[int, dict[str, Any]]:
        """The listed table each of ``pids`` sits at, ``{"id", "name", "game"}`` (a private
        room is never told): this process's tables, and on a worker every worker's (asked on
        the cluster's bus; a worker that does not answer within a second is left out)."""
        found = self._sitting_here(set(pids))
        if self.cluster is not None and set(pids) - set(found):
            answers = await self.cluster.shared.request_all(
                {"kind": "where", "players": sorted(set(pids) - set(found))}
            )
            for answer in answers or []:
                for pid, room in (answer.get("found") or {}).items():
                    found.setdefault(int(pid), room)
        return found

    def _sitting_here(self, wanted: set[int]) -> dict[int, dict[str, Any]]:
        found: dict[int, dict[str, Any]] = {}
        for t in self.tables.values():
            if not t.listed or t.damaged:
                continue
            for s in t.seats:
                if s["player"] in wanted and s["player"] not in found:
                    found[s["player"]] = {"id": t.id, "name": t.name, "game": t.game_name}
        return found

    def player_names(self, ids: list[int]) -> dict[int, str]:
        """Names of seated players (known from start-up, logins and connections)."""
        return {i: self._names[i] for i in ids if i in self._names}

    def remember(self, pid: int, name: str) -> None:
        self._names[pid] = name

    def tournament_progress(self, tid: int) -> None:
        """A tournament's hand was stored: its director looks at the round."""
        if self.on_tournament is not None:
            self.on_tournament(tid)

    def balance_changed(self, pid: int, beans: int) -> None:
        """An account's beans changed outside a hand (relief, a grant): the tables it sits at show it."""
        for table in self.tables.values():
            if pid in table.balances:
                table.balances[pid] = beans
                table.refresh()

    async def create_player(self, name: str, address: str | None = None) -> dict[str, Any]:
        player: dict[str, Any] = await self.write(Write(run=lambda c: db.create_player_tx(c, name, address)))
        self._names[player["id"]] = name
        return player

    async def rename(self, pid: int, name: str) -> None:
        await self.write(Write(run=lambda c: db.rename_player_tx(c, pid, name)))
        self._names[pid] = name

    # ------------------------------------------------------------------ the lobby
    def lobby(self) -> list[dict[str, Any]]:
        """Every open room as the lobby lists it, newest first: a snapshot at most
        ``lobby_refresh`` old (a new room shows at once)."""
        now = time.monotonic()
        stamp, rooms = self._lobby
        if now - stamp >= self.limits.lobby_refresh:
            rooms = [t.room_info() for t in reversed(self.tables.values()) if t.listed]  # private: by link or code
            self._lobby = (now, rooms)
        return rooms

    def record_bytes(self, key: tuple[str, int]) -> bytes | None:
        data = self._records.get(key)
        if data is not None:
            self._records.move_to_end(key)
        return data

    def keep_record(self, key: tuple[str, int], record: dict[str, Any]) -> bytes:
        data = orjson.dumps(record)
        self._records[key] = data
        while len(self._records) > RECORDS_CACHED:
            self._records.popitem(last=False)
        return data

    def frames_bytes(self, key: tuple[str, int, int]) -> bytes | None:
        data = self._frames.get(key)
        if data is not None:
            self._frames.move_to_end(key)
        return data

    def keep_frames(self, key: tuple[str, int, int], data: bytes) -> None:
        self._frames[key] = data
        while len(self._frames) > FRAMES_CACHED:
            self._frames.popitem(last=False)

    # ------------------------------------------------------------------ rooms
    async def open_rooms_of(self, pid: int) -> int:
        """The open rooms ``pid`` made: this process's, or on a worker the whole cluster's (from the store)."""
        if self.cluster is None:
            return sum(1 for t in self.tables.values() if t.created_by == pid)
        return int(await asyncio.to_thread(self.store.read, db.open_rooms_of_tx, pid))

    async def new_room_allowed(self, pid: int) -> bool:
        """One more new room this minute for ``pid`` (on a worker: counted across the cluster)?"""
        if not self.throttle.new_room(pid):
            return False
        if self.cluster is None:
            return True
        return await self.cluster.within("rooms", pid, self.limits.rooms_per_minute)

    async def _sweep_idle_rooms(self) -> None:
        while True:
            await asyncio.sleep(min(SWEEP_EVERY, self.limits.room_idle, self.limits.archive_after))
            now = time.monotonic()
            for table in list(self.tables.values()):
                if table.tournament_hands_left():
                    continue  # a tournament's table plays its boards, persons or not
                unmanned = not table.damaged and table.unmanned_since(now) >= self.limits.archive_after
                if unmanned or table.idle_since(now) >= self.limits.room_idle:
                    await self.close_room(table)

    async def close_room(
        self, table: Table, force: bool = False, actor: dict[str, Any] | None = None, reason: str = ""
    ) -> None:
        """Close a room nobody uses (``force``: an administrator closes it, and its audit row
        is written with it): stored as closed (archived when it has finished hands, which
        stay readable), no longer listed or loaded."""
        status = "archived" if table.hands else "closed"

        def run(c: Any) -> None:
            db.save_room_tx(c, table.id, status=status)
            if force:
                moderation.audit_tx(c, actor, "close", reason, room=table.id)

        try:
            await self.write(Write(run=run, fence=self.fence(table.id)))
        except Exception as e:  # the store is unavailable: try at the next sweep
            log.debug("room %s not closed yet: %s", table.id, e)
            if force:
                raise
            return
        self.tables.pop(table.id, None)
        if self.cluster is not None:
            await self.cluster.closed(table)
        self._lobby = (-1e9, [])
        await table.stop()

    async def quick_start(
        self, game: str, pid: int, name: str, address: str = "", room_name: str = ""
    ) -> tuple[Table, int]:
        """快速开始: the player's seat at a table of ``game`` (one they sit at already, else the
        first free seat of a room that has not started a match — status waiting, fresh rooms
        first — where someone sits and they may sit: table.py ``_check_entry``; never a match
        being played between its hands), else a new room named ``room_name`` (the page's
        language) with the game's default options (×1) and computer players on the other
        seats, whose first hand starts as soon as the person's page connects."""
        if game not in GAMES:
            raise IllegalAction(f"unknown game {game!r}; games are {', '.join(GAMES)}", "unknown_game", game=game)
        if not await self.new_room_allowed(pid):
            per = f"{self.limits.rooms_per_minute:g}"
            raise IllegalAction(f"too many new rooms: at most {per} a minute", "rooms_too_fast", count=per)
        mine = [t for t in self.tables.values() if t.game_name == game and t.seat_of(pid) is not None]
        open_ = [
            t
            for t in self.tables.values()
            if t.game_name == game
            and not t.damaged
            and t.open_to_all
            and t.status == "waiting"
            and any(s["player"] is None and s["bot"] is None for s in t.seats)
            and any(s["player"] is not None or s["bot"] is not None for s in t.seats)
        ]
        open_.sort(key=lambda t: len(t.hands) > 0)  # fresh rooms first, then dissolved ones
        for table in [*mine, *open_]:
            seat = await table.seat_quickly(pid, name, address=address)
            if seat is not None:
                return table, seat
        table = await self.create_room(room_name, game, {}, DEFAULT_TURN_TIMEOUT, pid, check_rate=False)
        seat = await table.seat_quickly(pid, name, bots=True, address=address)
        if seat is None:  # nobody else can know of the new room yet: a balance short of even a ×1 hand
            await self.close_room(table)
            need, beans = table.hand_cost, table.balances.get(pid, 0)
            raise IllegalAction(
                f"one hand here can cost {need} beans; you have {beans}", "beans_do_not_cover", need=need, beans=beans
            )
        return table, seat

    async def create_room(
        self,
        name: str,
        game: str,
        options: dict[str, Any],
        turn_timeout: float,
        created_by: int | None,
        *,
        check_rate: bool = True,
        password_hash: str | None = None,
        reserved: dict[int, int] | None = None,
        tournament: dict[str, Any] | None = None,
        seats: list[dict[str, Any]] | None = None,
    ) -> Table:
        """A new room; its access (tables/access.py): the ``private`` option, the password's
        hash, the seats ``reserved`` for players (seat → player id). A tournament's table
        (tournaments/director.py) has the hall option ``tournament`` and its first ``seats``."""
        if game not in GAMES:
            raise IllegalAction(f"unknown game {game!r}; games are {', '.join(GAMES)}", "unknown_game", game=game)
        cls: Any = game_class(game)
        if not isinstance(options, dict):
            raise IllegalAction("options must be an object of option names and values", "bad_room_options", detail="")
        allowed = room_option_names(game)
        unknown = sorted(set(options) - allowed)
        if unknown:  # also keeps deal=, seed= and the match's own options out of a room's hands
            raise IllegalAction(
                f"unknown {game} room option(s) {', '.join(unknown)}; options are {', '.join(sorted(allowed))}",
                "bad_room_options",
                detail=", ".join(unknown),
            )
        for key, value in options.items():
            check_value(value, f"option {key}")
        engine_options, hall_options = split_options(options)
        for key, value in hall_options.items():
            why = check_hall_option(key, value)
            if why is not None:
                raise IllegalAction(why, "bad_room_options", detail=key)
        if hall_options["competition"]:  # 不许查牌、不许提示: no tracker and no free chat (competition.py)
            options = {**options, "card_tracker": False, "chat": False}
            engine_options, hall_options = split_options(options)
        probe: Any = cls(seed=0, **engine_options)  # validates every option with the engine's own messages
        if not math.isfinite(turn_timeout) or not 1 <= turn_timeout <= 600:
            raise IllegalAction("turn_timeout must be between 1 and 600 seconds", "bad_turn_timeout")
        if created_by is not None:
            if await self.open_rooms_of(created_by) >= self.limits.rooms_per_player:
                raise IllegalAction(
                    f"you have {self.limits.rooms_per_player} open rooms already: play in one, or wait until an "
                    "empty one closes",
                    "too_many_rooms",
                    count=self.limits.rooms_per_player,
                )
            if check_rate and not await self.new_room_allowed(created_by):
                per = f"{self.limits.rooms_per_minute:g}"
                raise IllegalAction(f"too many new rooms: at most {per} a minute", "rooms_too_fast", count=per)
        name = " ".join((name or "").split())[:64] or f"{game} room"
        check_value(name, "the room's name")
        hidden = hidden_char(name)
        if hidden is not None:  # the same rule as players' names: no bidi overrides, no zero-width marks
            code = f"U+{ord(hidden):04X}"
            raise IllegalAction(
                f"a room's name may not contain invisible or control characters ({code})", "bad_room_name", char=code
            )
        bad = [seat for seat in reserved or {} if not 0 <= seat < probe.num_players]
        if bad:
            last = probe.num_players - 1
            raise IllegalAction(f"there is no seat {bad[0]}: seats are 0-{last}", "no_such_seat", seat=bad[0])
        access = new_access(bool(hall_options["private"]), password_hash, reserved or {})
        if tournament is not None:
            options = {**options, TOURNAMENT: tournament}
        row = db.room_row(name, game, options, turn_timeout, probe.num_players, created_by, new_code(), access)
        if seats is not None:
            row["seats"] = [{**s, **seat} for s, seat in zip(row["seats"], seats, strict=True)]
        owner = self.cluster.worker if self.cluster is not None else None
        await self.write(Write(run=lambda c: db.create_room_tx(c, row, owner)))
        table = Table(self, row)
        self.tables[table.id] = table
        if self.cluster is not None:
            self.cluster.created(table, 1)
        self._lobby = (-1e9, [])
        table.start()
        return table
