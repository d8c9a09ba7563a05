"""The ASGI application: the browser client, the lobby's HTTP API and the table WebSocket.

``paiju serve`` runs it with uvicorn; see docs/protocol.md for the protocol and its limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gzip
import logging
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import update
from sqlalchemy.exc import SQLAlchemyError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from paiju.errors import REASONS, IllegalAction
from paiju.registry import GAMES
from paiju.server import log_context, metrics
from paiju.server import reasons as _reasons  # noqa: F401 - registers the hall's reason codes
from paiju.server.accounts import moderation, profile, settlement, social
from paiju.server.accounts import users as accounts
from paiju.server.accounts.hashing import hashing
from paiju.server.accounts.settlement import BeanSettings
from paiju.server.cluster.shared import RedisUnavailable
from paiju.server.store import db
from paiju.server.store.db import Store
from paiju.server.store.records import DamagedHand, stored_record
from paiju.server.store.writer import StoreError, Write
from paiju.server.tables.analysis_jobs import AnalysisSettings
from paiju.server.tables.cluster_rooms import ClusterSettings, RoomBusy
from paiju.server.tables.connection import UNEXPECTED, Conn, unexpected
from paiju.server.tables.deal import DEAL_FINAL_WINDOW, DEAL_STEP
from paiju.server.tables.game_rules import game_rules, parse_options
from paiju.server.tables.games_info import games_info
from paiju.server.tables.hall import DEFAULT_TURN_TIMEOUT, Hall
from paiju.server.tables.limits import normalize_name
from paiju.server.tables.throttle import FloodWatch, Limits
from paiju.server.tables.tournament_table import BOARD_PAUSE
from paiju.server.tournaments.director import Director
from paiju.server.web import collector
from paiju.server.web.admin_api import AdminApi
from paiju.server.web.answers import COOKIE, TOKEN_TEXT, HttpError, server_error
from paiju.server.web.answers import address as _address
from paiju.server.web.answers import error as _error
from paiju.server.web.answers import json_body as _json_body
from paiju.server.web.answers import refuse as _refuse
from paiju.server.web.answers import request_token as _token
from paiju.server.web.answers import room_id as _room_id
from paiju.server.web.answers import whole as _whole
from paiju.server.web.gate import Gate
from paiju.server.web.origin import OriginPolicy, SecurityHeaders
from paiju.server.web.protocol import ProtocolError, parse_client_message
from paiju.server.web.social_api import SocialApi
from paiju.server.web.tournaments_api import TournamentsApi

log = logging.getLogger("paiju.app")

WEB = Path(__file__).resolve().parents[2] / "web"  # src/paiju/web: the page
UNAVAILABLE = "the hall cannot reach its database right now; nothing was changed — try again in a moment"
OTHERS_UNAVAILABLE = "the hall cannot reach its other servers right now — try again in a moment"
START_WAIT = 60.0  # seconds the hall waits for its database at start-up
MAX_PAGE = 200
MAX_SEAT = 15  # seats are numbered from 0; no game has more than a few


def _page(req: Request, limit: int) -> tuple[int, int]:
    """``?offset=`` (0 or more) and ``?limit=`` (1 to MAX_PAGE) of a paged list."""
    return _whole(req.query_params, "offset", 0, 0), _whole(req.query_params, "limit", limit, 1, MAX_PAGE)


def _hand_number(req: Request) -> int:
    return _whole(req.path_params, "number", None, 1)


def _too_many_registrations(count: int) -> JSONResponse:
    return _refuse(
        429, f"{count} accounts were registered from your address in the last hour: try later",
        "too_many_registrations", count=count,
    )  # fmt: skip


def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float = 0.6,
    rate: float | None = None,
    limits: Limits | None = None,
    origins: Sequence[str] = (),
    deal_step: float = DEAL_STEP,
    deal_final_window: float = DEAL_FINAL_WINDOW,
    bot_workers: int = 1,
    beans: BeanSettings | None = None,
    analysis: AnalysisSettings | None = None,
    cluster: ClusterSettings | None = None,
    board_pause: float = BOARD_PAUSE,
) -> Starlette:
    """The hall as an ASGI app; ``db_url`` is a SQLAlchemy URL (default: ./paiju.db).
    ``limits`` are what one visitor may use (``rate``: table messages per second of one
    player, a shortcut); ``origins`` are the origins besides the hall's own whose pages may
    act in it (a proxy's public address); ``deal_step`` and ``deal_final_window`` time the
    Shengji deal (``paiju.server.tables.deal``); ``bot_workers`` processes run the 最强 bots'
    searches (``paiju.server.tables.bot_pool``); ``analysis`` sets the 复盘 analyses'
    budget and limits (``paiju.server.tables.analysis_jobs``); ``cluster`` makes this process one
    worker of several sharing the database and Redis (``paiju.server.tables.cluster_rooms``)."""
    limits = limits or Limits()
    if rate is not None:
        limits = dataclasses.replace(limits, rate=rate)
    policy = OriginPolicy(origins)
    login_limiter = accounts.LoginLimiter()
    state: dict[str, Hall] = {}
    directors: dict[str, Director | None] = {}

    def hall() -> Hall:
        return state["hall"]

    async def me(req: Request | WebSocket) -> dict[str, Any] | None:
        token = _token(req)
        if not token or not TOKEN_TEXT.fullmatch(token):  # no NUL or odd text reaches the database
            return None
        return await asyncio.to_thread(hall().store.player_by_token, token)

    def same_origin(req: Request) -> None:
        why = policy.refuses(req.headers, req.url.scheme)
        if why:
            raise HttpError(403, why)

    social_api = SocialApi(hall, me, same_origin, limits.body_bytes)  # friends, blocks, private rooms

    async def index(req: Request) -> Response:
        return FileResponse(WEB / "index.html")

    async def describe(p: dict[str, Any]) -> dict[str, Any]:
        """A player as ``/api/me`` tells it: an account's beans and whether relief is due."""
        out = {"id": p["id"], "name": p["name"], "username": p["username"], "guest": p["username"] is None}
        out.update(role=p.get("role", "player"), muted_until=moderation.iso(moderation.muted_until(p)))
        if p["username"] is not None:
            out.update(await asyncio.to_thread(hall().store.read, settlement.purse_tx, p["id"], hall().beans))
        return out

    def session_cookie(resp: Response, req: Request, token: str) -> None:
        secure = req.url.scheme == "https"  # behind https (uvicorn --proxy-headers): never sent in clear
        resp.set_cookie(COOKIE, token, max_age=10 * 365 * 86400, httponly=True, samesite="lax", secure=secure)

    async def api_me(req: Request) -> Response:
        p = await me(req)
        return JSONResponse({"player": await describe(p) if p else None})

    async def api_register(req: Request) -> Response:
        """An account from a user name and a password; a guest who registers keeps its player."""
        same_origin(req)
        body = await _json_body(req, limits.body_bytes)
        p = await me(req)
        try:
            if p is not None and p["username"] is not None:
                raise IllegalAction("you are logged in to an account: log out first", "already_account")
            username = accounts.normalize_username(body.get("username"))
            accounts.check_password(body.get("password"))
            name = normalize_name(body.get("name") or (p["name"] if p else body.get("username")))
        except IllegalAction as e:
            return _error(str(e), e=e)
        beans, address = hall().beans, _address(req)
        count = await asyncio.to_thread(hall().store.read, accounts.registrations_tx, address)
        if count >= beans.registrations_per_hour:  # before the costly hash; the write checks again
            return _too_many_registrations(count)
        hashed = await hashing(accounts.hash_password, body["password"])
        guest = p["id"] if p else None

        def run(c: Any) -> dict[str, Any] | None:
            return accounts.register_tx(
                c, username, hashed, name, guest, beans.start, address=address,
                per_hour=beans.registrations_per_hour, start_after_hands=beans.start_after_hands,
            )  # fmt: skip

        try:
            made = await hall().write(Write(run=run))
        except StoreError as e:
            if "unique" not in str(e).lower() and "duplicate" not in str(e).lower():
                raise
            made = None  # two registered the same name at once: the unique index said no
        if made is None:
            return _refuse(409, "that user name is taken", "username_taken")
        if "too_many" in made:
            return _too_many_registrations(made["too_many"])
        hall().remember(made["id"], name)
        player = await asyncio.to_thread(hall().store.player_by_token, made["token"])
        assert player is not None
        resp = JSONResponse({"player": await describe(player)})
        session_cookie(resp, req, made["token"])
        return resp

    async def account_login(req: Request, body: dict[str, Any]) -> Response:
        address = _address(req)
        try:
            username = accounts.normalize_username(body.get("username"))
            password = body.get("password")
            if not isinstance(password, str) or len(password) > accounts.PASSWORD_MAX:
                raise IllegalAction("wrong user name or password", "wrong_login")
            stamp = login_limiter.attempt(username, address)  # counted now: concurrent guesses see it
        except IllegalAction as e:
            return _error(str(e), 429 if e.code == "login_too_fast" else 400, e=e)
        found = await asyncio.to_thread(hall().store.read, accounts.account_tx, username)
        ok = await hashing(accounts.verify_password, found["password_hash"] if found else None, password)
        if not ok or found is None:
            return _refuse(401, "wrong user name or password", "wrong_login")
        if moderation.is_barred_now(found):
            return _refuse(403, "this account is disabled", "account_disabled")
        login_limiter.succeeded(username, address, stamp)
        pid = found["id"]
        rehash = (
            await hashing(accounts.hash_password, password) if accounts.needs_rehash(found["password_hash"]) else None
        )

        def run(c: Any) -> str:
            if rehash is not None:
                c.execute(update(db.players).where(db.players.c.id == pid).values(password_hash=rehash))
            return db.new_session_tx(c, pid, address)

        token = await hall().write(Write(run=run))
        hall().remember(pid, found["name"])
        player = await asyncio.to_thread(hall().store.player_by_token, token)
        assert player is not None
        resp = JSONResponse({"player": await describe(player)})
        session_cookie(resp, req, token)
        log.info("player %d logged in to account %s", pid, username, extra={"player": pid})
        return resp

    async def api_logout(req: Request) -> Response:
        """End this session (the cookie is forgotten; the session can never be used again)."""
        same_origin(req)
        p = await me(req)
        if p is not None:
            sid = db.session_id(p["token"])
            await hall().write(
                Write(
                    run=lambda c: c.execute(
                        update(db.sessions).where(db.sessions.c.id == sid).values(revoked_at=db.now())
                    )
                )
            )
            await hall().revocation.end(p["id"], "logout", session=sid)  # its open tables close too
        resp = JSONResponse({"player": None})
        resp.delete_cookie(COOKIE)
        return resp

    async def api_password(req: Request) -> Response:
        """Change an account's password: the old one first; every other session ends."""
        same_origin(req)
        body = await _json_body(req, limits.body_bytes)
        p = await me(req)
        try:
            if p is None or p["username"] is None:
                raise IllegalAction("log in to an account first", "not_account")
            accounts.check_password(body.get("new"))
            stamp = login_limiter.attempt(p["username"], _address(req))  # counted before the hash
        except IllegalAction as e:
            return _error(str(e), 429 if e.code == "login_too_fast" else 400, e=e)
        old = body.get("old")
        if not isinstance(old, str) or not await hashing(accounts.verify_password, p["password_hash"], old):
            return _refuse(401, "wrong user name or password", "wrong_login")
        login_limiter.succeeded(p["username"], _address(req), stamp)
        hashed = await hashing(accounts.hash_password, body["new"])
        pid, keep = p["id"], p["token"]
        await hall().write(Write(run=lambda c: accounts.set_password_tx(c, pid, hashed, keep=keep)))
        await hall().revocation.end(pid, "password", keep=db.session_id(keep))  # every other session's tables close
        return JSONResponse({"ok": True})

    async def api_relief(req: Request) -> Response:
        """救济: beans for an account under the threshold, once a day."""
        same_origin(req)
        p = await me(req)
        if p is None or p["username"] is None:
            return _refuse(400, "log in to an account first", "not_account")
        pid, settings = p["id"], hall().beans
        balance = await hall().write(Write(run=lambda c: settlement.claim_relief_tx(c, pid, settings)))
        if balance is None:
            return _error(str(settlement.no_relief(settings)), 400, settlement.no_relief(settings))
        hall().balance_changed(pid, balance)
        return JSONResponse({"beans": balance})

    async def api_player(req: Request) -> Response:
        """A player's profile: record, titles, ratings, beans and rating over time, hands (paged)."""
        pid = _whole(req.path_params, "player", None, 1)
        offset, limit = _page(req, 20)
        data = await asyncio.to_thread(hall().store.read, profile.profile_tx, pid, offset, limit)
        if data is None:
            return _error("there is no such player", 404)
        data["player"]["online"] = await hall().is_online(pid)  # presence: a table open now
        return JSONResponse(data)

    async def api_leaderboard(req: Request) -> Response:
        """排行榜 of one game, by rating, beans or points (title), paged."""
        game = req.query_params.get("game", "")
        by = req.query_params.get("by", "rating")
        offset, limit = _page(req, 20)
        if game not in GAMES or by not in profile.BOARDS:
            return _error(f"game is one of {', '.join(GAMES)} and by one of {', '.join(profile.BOARDS)}")
        data = await asyncio.to_thread(hall().store.read, profile.leaderboard_tx, game, by, offset, limit)
        return JSONResponse(data)

    async def api_login(req: Request) -> Response:
        """A guest's name (made or renamed), or an account's user name and password."""
        same_origin(req)
        body = await _json_body(req, limits.body_bytes)
        if "username" in body or "password" in body:
            return await account_login(req, body)
        try:
            name = normalize_name(body.get("name"))
        except IllegalAction as e:
            return _error(str(e), e=e)
        p = await me(req)
        if p:
            await hall().rename(p["id"], name)
            token = p["token"]
            pid = p["id"]
        else:
            await guest_allowed(req)
            created = await hall().create_player(name, _address(req))
            token, pid = created["token"], created["id"]
        player = await asyncio.to_thread(hall().store.player_by_token, token)
        resp = JSONResponse({"player": await describe(player) if player else {"id": pid, "name": name}})
        session_cookie(resp, req, token)
        return resp

    async def api_games(req: Request) -> Response:
        return JSONResponse(games_info())

    async def api_game(req: Request) -> Response:
        """One game under a room's options (``?options=`` JSON), for its rules page #/help/{game}."""
        try:
            options = parse_options(req.query_params.get("options"))
            return JSONResponse(game_rules(req.path_params["game"], options))
        except IllegalAction as e:
            return _error(str(e), 404 if e.code == "unknown_game" else 400, e=e)

    async def api_rooms(req: Request) -> Response:
        if req.method == "POST":
            return await create_room(req)
        offset, limit = _page(req, limits.lobby_page)
        p = await me(req)
        game = req.query_params.get("game")
        cluster = hall().cluster
        stale = False  # on a worker whose Redis does not answer: other workers' rooms as last read
        if cluster is not None:  # the whole cluster's lobby, a page of it read from Redis
            page, total, stale = await cluster.lobby_page(offset, limit, game or None)
        else:
            rooms = hall().lobby()
            if game:
                rooms = [r for r in rooms if r["game"] == game]
            page, total = rooms[offset : offset + limit], len(rooms)
        if p:
            page = [{**r, "your_seat": _seat_of(r, hall(), p["id"])} for r in page]
        else:
            page = [{**r, "your_seat": None} for r in page]
        return JSONResponse({"rooms": page, "total": total, "offset": offset, "limit": limit, "stale": stale})

    async def create_room(req: Request) -> Response:
        same_origin(req)
        p = await me(req)
        if not p:
            return _error("choose a name first (POST /api/login)", 401)
        body = await _json_body(req, limits.body_bytes)
        try:
            timeout = body.get("turn_timeout", DEFAULT_TURN_TIMEOUT)
            if isinstance(timeout, bool) or not isinstance(timeout, int | float):
                raise IllegalAction("turn_timeout must be a number of seconds", "bad_turn_timeout")
            options = body.get("options") or {}
            if not isinstance(options, dict):
                raise IllegalAction(
                    "options must be an object of option names and values", "bad_room_options", detail=""
                )
            name, game = body.get("name") or "", body.get("game") or "baohuang"
            if not isinstance(name, str) or not isinstance(game, str):
                raise IllegalAction("name and game must be text", "bad_value", where="name and game")
            password_hash, reserved = await social_api.room_access(body)
            table = await hall().create_room(
                name, game, dict(options), float(timeout), p["id"], password_hash=password_hash, reserved=reserved
            )
        except IllegalAction as e:
            return _error(str(e), e=e)
        except (TypeError, ValueError, OverflowError) as e:
            return _error(str(e))
        return JSONResponse({"id": table.id})

    async def api_quick_start(req: Request) -> Response:
        """快速开始: a seat at the first table of the game with a free seat, or a new room with bots."""
        same_origin(req)
        p = await me(req)
        if not p:
            return _error("choose a name first (POST /api/login)", 401)
        body = await _json_body(req, limits.body_bytes)
        game, name = body.get("game"), body.get("name") or ""
        try:
            if not isinstance(game, str):
                raise IllegalAction("game must be text", "bad_value", where="game")
            if not isinstance(name, str):
                raise IllegalAction("name must be text", "bad_value", where="name")
            table, seat = await hall().quick_start(game, p["id"], p["name"], _address(req), name)
        except IllegalAction as e:
            return _error(str(e), e=e)
        return JSONResponse({"room": table.id, "seat": seat})

    async def api_room(req: Request) -> Response:
        rid = _room_id(req.path_params)
        table = hall().tables.get(rid)
        if table is not None:
            return JSONResponse(table.room_info())
        cluster = hall().cluster
        try:
            info = await cluster.shared.room(rid) if cluster is not None and len(rid) <= 64 else None
        except RedisUnavailable:  # another worker's room, never seen in a lobby page
            return _error(OTHERS_UNAVAILABLE, 503)
        if info is None:  # on a worker: the lobby entry of the worker that plays it
            return _error("no such room", 404)
        info.pop("created", None)
        return JSONResponse(info)

    async def healthz(req: Request) -> Response:
        """For the proxy's health checks and an operator: 200 while this process can serve,
        else 503 and why — the proxy then sends its rooms' players elsewhere. A worker is
        unhealthy while its lease is not renewed (the database does not answer it in time),
        while it stops, and while the database records rooms as its own that it cannot play
        nor give up (``unplayed``). A whole hall (no cluster): while its database does not
        take writes."""
        h = state.get("hall")
        if h is None:
            return JSONResponse({"ok": False, "why": ["starting"]}, status_code=503)
        database = "ok" if h.database_ok() and await h.database_answers() else "unreachable"
        if h.cluster is None:
            why = [] if database == "ok" else ["database"]
            answer: dict[str, Any] = {"ok": not why, "why": why, "worker": None, "rooms": len(h.tables)}
            return JSONResponse({**answer, "database": database}, status_code=200 if not why else 503)
        c = h.cluster
        mine = sorted(c.leases)
        if not c.holding():
            database = "unreachable"
        why = [w for w, bad in (("database", not c.holding()), ("stopping", c.leaving), ("unplayed", c.stuck())) if bad]
        answer = {
            "ok": not why,
            "why": why,  # database: the lease is not renewed; stopping; unplayed: rooms it cannot play nor give up
            "worker": c.worker,
            "database": database,
            "renewed_ago": round(time.monotonic() - c.renewed_at, 3) if c.renewed_at else None,
            "rooms": len(mine),
            "room_ids": mine,
            "unplayed": sorted(c.unplayed),
            "dropped": c.dropped,
        }
        return JSONResponse(answer, status_code=200 if not why else 503)

    async def api_online(req: Request) -> Response:
        """Presence: how many players have a table open (on a worker: across the cluster)."""
        players, stale = await hall().online()
        return JSONResponse({"players": players, "stale": stale})

    async def hand_record(rid: str, n: int) -> bytes:
        """The stored record of room ``rid``'s finished hand ``n``, encoded (HttpError if none)."""
        table = hall().tables.get(rid)  # open rooms, and archived ones (read from the store)
        if table is not None:
            game_name = table.game_name
            if n == len(table.hands) + 1 and table.status == "playing":
                why = IllegalAction("this hand is still being played", code="hand_not_over")
                raise HttpError(404, str(why), why)
            if not 1 <= n <= len(table.hands):
                raise HttpError(404, "no finished hand with that number")
        else:  # archived rooms; on a worker, also rooms another worker plays (their finished hands)
            room = await asyncio.to_thread(hall().store.room, rid) if len(rid) <= 64 else None
            if room is None or (room["status"] != "archived" and hall().cluster is None):
                raise HttpError(404, "no such room")
            game_name = room["game"]
        data = hall().record_bytes((rid, n))
        if data is None:

            def record() -> dict[str, Any] | None:
                rows = [h for h in hall().store.room_hands(rid) if h["number"] == n]
                if not rows or rows[0]["finished_at"] is None:
                    return None
                return stored_record(hall().store, game_name, rows[0])

            try:
                rec = await asyncio.to_thread(record)
            except DamagedHand as e:
                raise HttpError(409, f"this hand's record is damaged: {e}") from None
            if rec is None:
                raise HttpError(404, "no finished hand with that number")
            data = hall().keep_record((rid, n), rec)
        return data

    def _room_name(rid: str) -> str:
        row = hall().store.room(rid)
        return str(row["name"]) if row else ""

    async def api_hand(req: Request) -> Response:
        data = await hand_record(_room_id(req.path_params), _hand_number(req))
        return Response(data, media_type="application/json")

    async def guest_allowed(req: Request) -> None:
        """A new guest costs nothing to ask for: so many a minute per address (each one is a
        player the hall keeps, and one more 复盘 or table slot)."""
        h, address = hall(), _address(req)
        allowed = h.throttle.guest(address)
        if allowed and h.cluster is not None:
            allowed = await h.cluster.within("guests", address, limits.guests_per_minute)
        if not allowed:
            why = IllegalAction("too many new guests from your address: try again in a minute", "too_many_guests")
            raise HttpError(429, str(why), why)

    async def replay_allowed(req: Request) -> None:
        """A replay made anew costs the hall tens of milliseconds of CPU: so many a minute per address."""
        h, address = hall(), _address(req)
        allowed = h.throttle.replay(address)
        if allowed and h.cluster is not None:
            allowed = await h.cluster.within("replays", address, limits.replays_per_minute)
        if not allowed:
            why = IllegalAction("too many replays: try again in a minute", code="too_many_replays")
            raise HttpError(429, str(why), why)

    def _seat_param(req: Request) -> int:
        return _whole(req.query_params, "seat", 0, 0, MAX_SEAT)

    def _frames_answer(req: Request, data: bytes) -> Response:
        """Frames are large and repetitive: sent gzipped to a client that takes it (~30×)."""
        if "gzip" in req.headers.get("accept-encoding", ""):
            return Response(data, media_type="application/json", headers={"content-encoding": "gzip"})
        return Response(gzip.decompress(data), media_type="application/json")

    async def api_hand_replay(req: Request) -> Response:
        """A finished hand's replay frames 牌谱回放 from ``?seat=`` (every hand face up)."""
        rid, n, seat = _room_id(req.path_params), _hand_number(req), _seat_param(req)
        key = (rid, n, seat)
        data = hall().frames_bytes(key)
        if data is None:
            record = orjson.loads(await hand_record(rid, n))
            await replay_allowed(req)
            names = await asyncio.to_thread(hall().store.hand_seats, rid, n)
            table = hall().tables.get(rid)
            room = {"id": rid, "name": table.name if table else await asyncio.to_thread(_room_name, rid)}
            try:
                data = await hall().frames.build(record, seat, names, room)  # in a worker process
            except IllegalAction as e:
                return _error(str(e), 503 if e.code == "replays_busy" else 400, e=e)
            hall().keep_frames(key, data)
        return _frames_answer(req, data)

    async def api_replay(req: Request) -> Response:
        """The frames of a record sent by the page (a record file dropped on it)."""
        same_origin(req)
        try:
            hall().frames.check_room()  # full: refused before the body is read (reading it costs too)
        except IllegalAction as e:
            return _error(str(e), 503, e=e)
        body = await _json_body(req, limits.body_bytes, checked=False)
        await replay_allowed(req)
        try:
            data = await hall().frames.build(body, _seat_param(req), None)
        except IllegalAction as e:
            return _error(str(e), 503 if e.code == "replays_busy" else 400, e=e)
        return _frames_answer(req, data)

    async def api_analysis(req: Request) -> Response:
        """复盘 of one seat of a finished hand: GET its state (progress, or the analysis once
        made); POST starts it (a player's own request; the hall's budget)."""
        rid, n, seat = key = (_room_id(req.path_params), _hand_number(req), _seat_param(req))
        record = orjson.loads(await hand_record(rid, n))  # finished hands only (404 otherwise)
        if req.method == "GET":
            return JSONResponse(await hall().analyses.state(key))
        same_origin(req)
        p = await me(req)
        if not p:
            return _error("choose a name first (POST /api/login)", 401)
        try:
            answer = await hall().analyses.start(key, p["id"], record, _address(req))
        except IllegalAction as e:
            status = 429 if e.code in ("analysis_busy", "analysis_yours", "analysis_address") else 400
            return _error(str(e), status, e=e)
        return JSONResponse(answer, status_code=202 if answer["state"] != "done" else 200)

    async def refuse(ws: WebSocket, text: str, code: int, reason: str) -> None:
        await ws.accept()
        await ws.send_json({"type": "error", "error": text, "code": reason, "params": {}, "reply_to": None})
        await ws.close(code=code)
        metrics.CLOSES.labels(str(code)).inc()

    async def ws_table(ws: WebSocket) -> None:
        why = policy.refuses(ws.headers, ws.url.scheme)
        if why:
            await refuse(ws, why, 4403, "refused_origin")
            return
        try:
            player = await me(ws)
        except SQLAlchemyError:
            await refuse(ws, UNAVAILABLE, 1013, "unavailable")  # try again later
            return
        if player is None:
            await refuse(ws, "choose a name first", 4401, "no_name")
            return
        try:
            rid = _room_id(ws.path_params)  # no NUL or odd text reaches the database
        except HttpError:
            await refuse(ws, "no such room", 4404, "no_such_room")
            return
        try:
            table = await hall().table(rid)
        except RoomBusy as e:  # the room is moving here, or this worker is stopping: try again soon
            await refuse(ws, REASONS[e.code], 1013, e.code)
            return
        except SQLAlchemyError:
            await refuse(ws, UNAVAILABLE, 1013, "unavailable")
            return
        if table is None:
            await refuse(ws, "no such room", 4404, "no_such_room")
            return
        if table.damaged:
            await refuse(ws, f"this room is set aside as damaged: {table.damaged}", 4410, "room_damaged")
            return
        if not table.may_enter(player["id"]):  # a password room: POST /api/rooms/{id}/join first
            await refuse(ws, "this room has a password", 4423, "room_password")
            return
        try:
            blocked = await asyncio.to_thread(hall().store.read, social.blocked_ids_tx, player["id"])
        except SQLAlchemyError:
            await refuse(ws, UNAVAILABLE, 1013, "unavailable")
            return
        address = _address(ws)
        too_many = await hall().connect(player["id"], address)
        if too_many:
            await refuse(ws, too_many, 4429, "too_many_connections")
            return
        await ws.accept()
        log_context.room.set(table.id)  # this connection's log lines (its task's)
        log_context.player.set(player["id"])
        hall().remember(player["id"], player["name"])
        who = {"id": player["id"], "name": player["name"], "muted_until": player.get("muted_until")}
        conn = Conn(ws, who, address=address, budget=limits.outbox_bytes, session=db.session_id(player["token"]))
        conn.blocked = blocked
        writer = asyncio.create_task(conn.writer())
        reader = asyncio.create_task(read_messages(ws, conn, table))
        kicked = asyncio.create_task(conn.kicked.wait())
        table.post(("connect", conn))
        try:
            await asyncio.wait({reader, kicked}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (reader, kicked, writer):
                task.cancel()
            conn.closed = True
            table.post(("disconnect", conn))
            metrics.CLOSES.labels(str(conn.close_reason[0]) if conn.close_reason else "client").inc()
            await hall().disconnect(player["id"], address)
        if conn.close_reason is not None:  # the hall closes it: say why, but never wait on a client that does not read
            with contextlib.suppress(Exception):
                if conn.farewell is not None:
                    await asyncio.wait_for(ws.send_text(conn.farewell), 1.0)
                await asyncio.wait_for(ws.close(*conn.close_reason), 1.0)

    async def read_messages(ws: WebSocket, conn: Conn, table: Any) -> None:
        pid, flood = conn.player["id"], FloodWatch(limits.flood_drops, limits.flood_window)
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                if not hall().message_allowed(pid, conn.address):
                    metrics.RATE_LIMITED.inc()
                    if flood.dropped():  # dropped without an answer; a persistent flood ends the connection
                        conn.kick(1008, "too many messages")
                        return
                    continue
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                try:
                    msg = parse_client_message(raw)
                except ProtocolError as e:
                    conn.error(str(e), code="bad_message", params={"detail": str(e)})
                    continue
                except Exception:
                    unexpected.exception("could not read a message of player %s", pid)
                    conn.error(UNEXPECTED, code="unexpected")
                    continue
                if msg["type"] == "ping":
                    conn.send({"type": "pong", **({"id": msg["id"]} if "id" in msg else {})})
                    continue
                table.post(("msg", conn, msg))
        except WebSocketDisconnect:
            return

    async def unavailable(req: Request, exc: Exception) -> Response:
        log.warning("%s %s: the database is unavailable: %s", req.method, req.url.path, exc)
        return _error(UNAVAILABLE, 503)

    async def http_error(req: Request, exc: Exception) -> Response:
        assert isinstance(exc, HttpError)
        return _error(str(exc), exc.status, e=exc.refusal)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = await open_store(db_url)
        state["hall"] = h = Hall(
            store,
            bot_delay=bot_delay,
            limits=limits,
            deal_step=deal_step,
            deal_final_window=deal_final_window,
            bot_workers=bot_workers,
            beans=beans,
            analysis=analysis,
            cluster=cluster,
            board_pause=board_pause,
        )
        await h.open()
        director = Director(h) if cluster is None else None  # one process directs (docs/decisions.md)
        directors["director"] = director
        if director is not None:
            await director.resume()
        collector.freeze_loaded()
        app.state.hall = h
        try:
            yield
        finally:
            if director is not None:
                await director.close()
            await h.close()
            store.close()

    routes = [
        Route("/", index),
        Route("/api/me", api_me),
        Route("/api/login", api_login, methods=["POST"]),
        Route("/api/register", api_register, methods=["POST"]),
        Route("/api/logout", api_logout, methods=["POST"]),
        Route("/api/password", api_password, methods=["POST"]),
        Route("/api/relief", api_relief, methods=["POST"]),
        Route("/api/players/{player}", api_player),
        Route("/api/leaderboard", api_leaderboard),
        Route("/api/games", api_games),
        Route("/api/games/{game}", api_game),
        Route("/api/online", api_online),
        Route("/healthz", healthz),
        Route("/api/rooms", api_rooms, methods=["GET", "POST"]),
        Route("/api/quick_start", api_quick_start, methods=["POST"]),
        Route("/api/rooms/{room}", api_room),
        Route("/api/rooms/{room}/hands/{number:int}", api_hand),
        Route("/api/rooms/{room}/hands/{number:int}/replay", api_hand_replay),
        Route("/api/rooms/{room}/hands/{number:int}/analysis", api_analysis, methods=["GET", "POST"]),
        Route("/api/replay", api_replay, methods=["POST"]),
        *AdminApi(hall, me, same_origin, limits.body_bytes).routes(),
        *social_api.routes(),
        *TournamentsApi(hall, lambda: directors.get("director"), me, same_origin, limits.body_bytes).routes(),
        WebSocketRoute("/ws/{room}", ws_table),
        Mount("/static", StaticFiles(directory=WEB, check_dir=False), name="static"),
    ]
    handlers: dict[Any, Any] = {StoreError: unavailable, SQLAlchemyError: unavailable, HttpError: http_error}
    handlers[Exception] = server_error  # answers.py: a 500 with the security headers
    return Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers=handlers,
        middleware=[Middleware(SecurityHeaders), Middleware(Gate, policy=policy)],  # gate.py: every route's rule
    )


def _seat_of(room: dict[str, Any], hall: Hall, pid: int) -> int | None:
    """The player's seat in a lobby entry (a room of this process or of another worker)."""
    for s in room["seats"]:
        if s["player_id"] == pid:
            return int(s["seat"])
    return None


async def open_store(db_url: str | None, wait: float = START_WAIT) -> Store:
    """The store, migrated; while the database does not answer, retry with backoff for
    ``wait`` seconds (a database restarting must not keep the hall from starting)."""
    deadline = time.monotonic() + wait
    delay = 0.1
    while True:
        try:
            return await asyncio.to_thread(Store, db_url)
        except SQLAlchemyError as e:
            if time.monotonic() + delay > deadline:
                raise
            log.warning("waiting for the database: %s", e)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)
