"""The ASGI application: the browser client, the lobby's HTTP API and the table WebSocket.

``paiju serve`` runs it with uvicorn; see docs/protocol.md for the protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from paiju.errors import IllegalAction
from paiju.server.games_info import games_info
from paiju.server.hall import DEFAULT_TURN_TIMEOUT, Hall
from paiju.server.protocol import ProtocolError, parse_client_message
from paiju.server.records import DamagedHand, stored_record
from paiju.server.store import Store
from paiju.server.table import Conn, TokenBucket
from paiju.server.writer import StoreError

log = logging.getLogger("paiju.app")

WEB = Path(__file__).resolve().parent.parent / "web"
COOKIE = "paiju_token"
MAX_NAME = 24
UNAVAILABLE = "the hall cannot reach its database right now; nothing was changed — try again in a moment"
START_WAIT = 60.0  # seconds the hall waits for its database at start-up


def _token(req: Request | WebSocket) -> str | None:
    return req.cookies.get(COOKIE) or req.headers.get("x-paiju-token") or req.query_params.get("token")


def _error(text: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": text}, status_code=status)


async def _json_body(req: Request) -> dict[str, Any]:
    raw = await req.body()
    if len(raw) > 64 * 1024:
        raise IllegalAction("request body too large (at most 64 KiB)")
    try:
        import json

        body = json.loads(raw or b"{}")
    except ValueError as e:
        raise IllegalAction(f"bad JSON: {e}") from None
    if not isinstance(body, dict):
        raise IllegalAction("the body must be a JSON object")
    return body


def create_app(db_url: str | None = None, *, bot_delay: float = 0.6, rate: float = 20.0) -> Starlette:
    """The hall as an ASGI app; ``db_url`` is a SQLAlchemy URL (default: ./paiju.db).
    ``rate`` is how many messages per second one connection may send (bursts of twice that)."""
    state: dict[str, Hall] = {}

    def hall() -> Hall:
        return state["hall"]

    async def me(req: Request | WebSocket) -> dict[str, Any] | None:
        token = _token(req)
        if not token:
            return None
        return await asyncio.to_thread(hall().store.player_by_token, token)

    async def index(req: Request) -> Response:
        return FileResponse(WEB / "index.html")

    async def api_me(req: Request) -> Response:
        p = await me(req)
        return JSONResponse({"player": {"id": p["id"], "name": p["name"]} if p else None})

    async def api_login(req: Request) -> Response:
        try:
            body = await _json_body(req)
        except IllegalAction as e:
            return _error(str(e))
        name = body.get("name")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
            return _error(f"a name is 1-{MAX_NAME} characters")
        name = name.strip()
        p = await me(req)
        if p:
            await hall().rename(p["id"], name)
            token = p["token"]
            pid = p["id"]
        else:
            created = await hall().create_player(name)
            token, pid = created["token"], created["id"]
        resp = JSONResponse({"player": {"id": pid, "name": name}})
        resp.set_cookie(COOKIE, token, max_age=10 * 365 * 86400, httponly=True, samesite="lax")
        return resp

    async def api_games(req: Request) -> Response:
        return JSONResponse(games_info())

    async def api_rooms(req: Request) -> Response:
        if req.method == "POST":
            p = await me(req)
            if not p:
                return _error("choose a name first (POST /api/login)", 401)
            try:
                body = await _json_body(req)
                timeout = body.get("turn_timeout", DEFAULT_TURN_TIMEOUT)
                if isinstance(timeout, bool) or not isinstance(timeout, int | float):
                    raise IllegalAction("turn_timeout must be a number of seconds")
                options = body.get("options") or {}
                if not isinstance(options, dict):
                    raise IllegalAction("options must be an object of option names and values")
                name, game = body.get("name") or "", body.get("game") or "baohuang"
                if not isinstance(name, str) or not isinstance(game, str):
                    raise IllegalAction("name and game must be text")
                table = await hall().create_room(name, game, dict(options), float(timeout), p["id"])
            except (IllegalAction, TypeError, ValueError) as e:
                return _error(str(e))
            return JSONResponse({"id": table.id})
        p = await me(req)
        rooms = [{**t.room_info(), "your_seat": t.seat_of(p["id"]) if p else None} for t in hall().tables.values()]
        return JSONResponse({"rooms": rooms})

    async def api_room(req: Request) -> Response:
        table = hall().tables.get(req.path_params["room"])
        if table is None:
            return _error("no such room", 404)
        return JSONResponse(table.room_info())

    async def api_hand(req: Request) -> Response:
        rid, n = req.path_params["room"], req.path_params["number"]
        table = hall().tables.get(rid)
        if table is None:
            return _error("no such room", 404)

        def record() -> dict[str, Any] | None:
            rows = [h for h in hall().store.room_hands(rid) if h["number"] == n]
            if not rows or rows[0]["finished_at"] is None:
                return None
            return stored_record(hall().store, table.game_name, rows[0])

        try:
            rec = await asyncio.to_thread(record)
        except DamagedHand as e:
            return _error(f"this hand's record is damaged: {e}", 409)
        if rec is None:
            return _error("no finished hand with that number", 404)
        return JSONResponse(rec)

    async def ws_table(ws: WebSocket) -> None:
        try:
            player = await me(ws)
        except SQLAlchemyError:
            await ws.accept()
            await ws.send_json({"type": "error", "error": UNAVAILABLE, "reply_to": None})
            await ws.close(code=1013)  # try again later
            return
        table = hall().tables.get(ws.path_params["room"])
        await ws.accept()
        if player is None or table is None or table.damaged:
            if player is None:
                text, code = "choose a name first", 4401
            elif table is None:
                text, code = "no such room", 4404
            else:
                text, code = f"this room is set aside as damaged: {table.damaged}", 4410
            await ws.send_json({"type": "error", "error": text, "reply_to": None})
            await ws.close(code=code)
            return
        hall().remember(player["id"], player["name"])
        conn = Conn(ws, {"id": player["id"], "name": player["name"]}, bucket=TokenBucket(rate, 2 * rate))
        writer = asyncio.create_task(conn.writer())
        table.post(("connect", conn))
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                if not conn.bucket.take():
                    conn.error(f"slow down: too many messages (at most {rate:g} per second)")
                    continue
                try:
                    msg = parse_client_message(raw)
                except ProtocolError as e:
                    conn.error(str(e))
                    continue
                if msg["type"] == "ping":
                    conn.send({"type": "pong", **({"id": msg["id"]} if "id" in msg else {})})
                    continue
                table.post(("msg", conn, msg))
        except WebSocketDisconnect:
            pass
        finally:
            conn.closed = True
            table.post(("disconnect", conn))
            writer.cancel()

    async def unavailable(req: Request, exc: Exception) -> Response:
        log.warning("%s %s: the database is unavailable: %s", req.method, req.url.path, exc)
        return _error(UNAVAILABLE, 503)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = await open_store(db_url)
        state["hall"] = h = Hall(store, bot_delay=bot_delay)
        await h.open()
        app.state.hall = h
        try:
            yield
        finally:
            await h.close()
            store.close()

    routes = [
        Route("/", index),
        Route("/api/me", api_me),
        Route("/api/login", api_login, methods=["POST"]),
        Route("/api/games", api_games),
        Route("/api/rooms", api_rooms, methods=["GET", "POST"]),
        Route("/api/rooms/{room}", api_room),
        Route("/api/rooms/{room}/hands/{number:int}", api_hand),
        WebSocketRoute("/ws/{room}", ws_table),
        Mount("/static", StaticFiles(directory=WEB, check_dir=False), name="static"),
    ]
    handlers: dict[Any, Any] = {StoreError: unavailable, SQLAlchemyError: unavailable}
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers)


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


def serve(
    host: str = "127.0.0.1", port: int = 8000, db: str | None = None, bot_delay: float = 0.6, rate: float = 20.0
) -> None:
    """Run the hall with uvicorn (blocking)."""
    import uvicorn

    print(f"paiju hall on http://{host}:{port}/", flush=True)
    app = create_app(db, bot_delay=bot_delay, rate=rate)
    # permessage-deflate costs more CPU than it saves on the small, frequent updates
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=1 << 20, ws_per_message_deflate=False)


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="Run the paiju hall")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--db", default=None)
    ap.add_argument("--bot-delay", type=float, default=0.6)
    ap.add_argument("--rate", type=float, default=20.0, help="messages per second per connection")
    a = ap.parse_args()
    serve(a.host, a.port, a.db, a.bot_delay, a.rate)
