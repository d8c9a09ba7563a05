"""The people in charge over HTTP: ``/api/admin/…`` for the admin console ``#/admin``, and
``/api/reports`` for a player's report 举报 from a profile.

Every admin request needs an account with the role for it (accounts/moderation.py
``allowed``: 401 ``not_account`` without one, 403 ``not_admin`` without the role); every
action is written to the audit log in the same transaction; bad input is a 400 with a
reason code and changes nothing. docs/protocol.md lists the requests.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from paiju.errors import IllegalAction
from paiju.server.accounts import moderation, reports
from paiju.server.cluster.shared import PRIVATE
from paiju.server.tables.cluster_rooms import RoomBusy
from paiju.server.tables.hall import Hall
from paiju.server.web.answers import HttpError, error, json_body, whole

MAX_PAGE = 200
STATUS = {  # the HTTP status of a refusal, by its reason code (others: 400)
    "no_name": 401,
    "not_account": 401,
    "not_admin": 403,
    "no_such_player": 404,
    "no_such_report": 404,
    "no_such_room": 404,
    "save_failed": 503,  # the table could not store it: nothing was done, try again
    "room_moved": 503,
    "unavailable": 503,
}

Me = Callable[[Request], Awaitable[dict[str, Any] | None]]


class AdminApi:
    """The handlers; ``hall`` gives the running hall, ``me`` the request's player,
    ``same_origin`` refuses a POST from another site's page."""

    def __init__(
        self, hall: Callable[[], Hall], me: Me, same_origin: Callable[[Request], None], body_bytes: int
    ) -> None:
        self.hall, self.me, self.same_origin, self.body_bytes = hall, me, same_origin, body_bytes

    def routes(self) -> list[Route]:
        return [
            Route("/api/reports", self.report, methods=["POST"]),
            Route("/api/admin/reports", self.reports),
            Route("/api/admin/reports/{report:int}", self.close_report, methods=["POST"]),
            Route("/api/admin/users", self.users),
            Route("/api/admin/users/{player:int}", self.user),
            Route("/api/admin/users/{player:int}/{action}", self.user_action, methods=["POST"]),
            Route("/api/admin/rooms", self.rooms),
            Route("/api/admin/kick", self.kick, methods=["POST"]),
            Route("/api/admin/close", self.close, methods=["POST"]),
            Route("/api/admin/audit", self.audit),
        ]

    # ------------------------------------------------------------------ helpers
    async def _actor(self, req: Request, action: str) -> dict[str, Any]:
        """The request's account, if its role allows ``action`` (HttpError otherwise)."""
        if req.method == "POST":
            self.same_origin(req)
        p = await self.me(req)
        try:
            moderation.require(p, action)
        except IllegalAction as e:
            raise HttpError(STATUS[e.code], str(e), e) from None
        assert p is not None
        return p

    async def _body(self, req: Request) -> dict[str, Any]:
        return await json_body(req, self.body_bytes)

    @staticmethod
    def _page(req: Request) -> tuple[int, int]:
        return whole(req.query_params, "offset", 0, 0), whole(req.query_params, "limit", 50, 1, MAX_PAGE)

    def _read(self, fn: Callable[..., Any], *args: Any) -> Awaitable[Any]:
        return asyncio.to_thread(self.hall().store.read, fn, *args)

    @staticmethod
    def _refused(e: IllegalAction) -> Response:
        return error(str(e), STATUS.get(getattr(e, "code", ""), 400), e)

    # ------------------------------------------------------------------ reports
    async def report(self, req: Request) -> Response:
        """举报 from a profile: ``{"player", "reason", "text", "room"?, "hand"?}``."""
        self.same_origin(req)
        p = await self.me(req)
        if p is None:
            return self._refused(IllegalAction("choose a name first", "no_name"))
        body = await self._body(req)
        try:
            reason, text = reports.check_report(body.get("reason"), body.get("text", ""))
            reported, room, hand = body.get("player"), body.get("room"), body.get("hand")
            if isinstance(reported, bool) or not isinstance(reported, int):
                raise IllegalAction("player is a player's id", "bad_value", where="player")
            if room is not None and (not isinstance(room, str) or len(room) > 16):
                raise IllegalAction("room is a room's id", "bad_value", where="room")
            if hand is not None and (isinstance(hand, bool) or not isinstance(hand, int) or not 1 <= hand <= 10**6):
                raise IllegalAction("hand is a hand's number", "bad_value", where="hand")
            pid = p["id"]
            got = await self.hall().decide(
                lambda c: reports.file_report_tx(c, pid, reported, reason, text, room=room, hand=hand)
            )
        except IllegalAction as e:
            return self._refused(e) if e.code != "too_many_reports" else error(str(e), 429, e)
        return JSONResponse({"report": got})

    async def reports(self, req: Request) -> Response:
        await self._actor(req, "reports")
        offset, limit = self._page(req)
        try:
            got = await self._read(reports.reports_page_tx, req.query_params.get("status", "open"), offset, limit)
        except IllegalAction as e:
            return self._refused(e)
        return JSONResponse(got)

    async def close_report(self, req: Request) -> Response:
        actor = await self._actor(req, "reports")
        body = await self._body(req)
        rid = whole(req.path_params, "report", None, 1)
        try:
            outcome = moderation.check_reason(body.get("outcome"))
            got = await self.hall().decide(lambda c: reports.close_report_tx(c, actor, rid, outcome))
        except IllegalAction as e:
            return self._refused(e)
        return JSONResponse({"report": got})

    # ------------------------------------------------------------------ users
    async def users(self, req: Request) -> Response:
        await self._actor(req, "users")
        offset, limit = self._page(req)
        q = req.query_params.get("q", "")[:64]
        return JSONResponse(await self._read(moderation.users_tx, q, offset, limit))

    async def user(self, req: Request) -> Response:
        await self._actor(req, "users")
        try:
            pid = whole(req.path_params, "player", None, 1)
            return JSONResponse(await self._read(moderation.user_detail_tx, pid))
        except IllegalAction as e:
            return self._refused(e)

    async def user_action(self, req: Request) -> Response:
        """role, ban, unban, mute, grant — each with its reason."""
        action = req.path_params["action"]
        needs = {"role": "role", "ban": "ban", "unban": "ban", "mute": "mute", "grant": "grant"}.get(action)
        if needs is None:
            return error(f"no such action {action[:32]!r}: role, ban, unban, mute or grant", 404)
        actor = await self._actor(req, needs)
        body = await self._body(req)
        pid, h = whole(req.path_params, "player", None, 1), self.hall()
        try:
            reason = moderation.check_reason(body.get("reason"))
            if action == "role":
                role = moderation.check_role(body.get("role"))
                await h.decide(lambda c: moderation.set_role_tx(c, actor, pid, role, reason))
                answer: dict[str, Any] = {"role": role}
            elif action == "ban":
                minutes = moderation.check_minutes(body.get("minutes"), allow_none=True)
                if pid == actor["id"]:
                    raise IllegalAction("you cannot ban yourself", "bad_value", where="player")
                row = await h.decide(lambda c: moderation.ban_tx(c, actor, pid, minutes, reason))
                await h.revocation.end(pid, "banned")
                answer = {"banned_until": moderation.iso(row["banned_until"])}
            elif action == "unban":
                await h.decide(lambda c: moderation.unban_tx(c, actor, pid, reason))
                answer = {"banned_until": None}
            elif action == "mute":
                minutes = moderation.check_minutes(body.get("minutes"), allow_zero=True)
                assert minutes is not None
                until = await h.decide(lambda c: moderation.mute_tx(c, actor, pid, minutes, reason))
                await h.revocation.muted(pid, until)
                answer = {"muted_until": moderation.iso(until)}
            else:
                beans = body.get("beans")
                balance = await h.decide(lambda c: moderation.grant_tx(c, actor, pid, beans, reason))
                h.balance_changed(pid, balance)
                answer = {"beans": balance}
        except IllegalAction as e:
            return self._refused(e)
        return JSONResponse(answer)

    # ------------------------------------------------------------------ rooms
    async def rooms(self, req: Request) -> Response:
        """Every open table and who sits at it (on a worker: the whole cluster's lobby)."""
        await self._actor(req, "rooms")
        h = self.hall()
        if h.cluster is not None:
            rooms, total, stale = await h.cluster.lobby_page(0, MAX_PAGE, None)
            hidden, more, stale_too = await h.cluster.lobby_page(0, MAX_PAGE, PRIVATE)  # private rooms too
            rooms, total, stale = rooms + hidden, total + more, stale or stale_too
        else:
            rooms, stale = [t.room_info() for t in reversed(h.tables.values())], False  # private rooms too
            total = len(rooms)
        return JSONResponse({"rooms": rooms, "total": total, "stale": stale})

    async def _room_order(self, req: Request, action: str, what: str) -> Response:
        actor = await self._actor(req, action)
        body = await self._body(req)
        room, h = body.get("room"), self.hall()
        try:
            reason = moderation.check_reason(body.get("reason"))
            if not isinstance(room, str) or not 1 <= len(room) <= 16:
                raise IllegalAction("room is a room's id", "bad_value", where="room")
            who = {"id": actor["id"], "name": actor["name"], "username": actor.get("username")}
            args: dict[str, Any] = {"reason": reason, "actor": who}  # the table writes the audit row with the act
            if what == "kick":
                seat = body.get("seat")
                if isinstance(seat, bool) or not isinstance(seat, int):
                    raise IllegalAction("seat is a seat's number", "bad_value", where="seat")
                args["seat"] = seat
            result = await h.order(room, what, **args)
        except IllegalAction as e:
            return self._refused(e)
        except RoomBusy as e:
            text = "the room is moving to another server: try again in a moment"
            return error(text, 503, IllegalAction(text, e.code))
        return JSONResponse({"ok": True, **({"penalty": result.get("penalty")} if what == "kick" else {})})

    async def kick(self, req: Request) -> Response:
        """踢出 ``{"room", "seat", "reason"}``: the leave penalty mid-hand; before a hand, unseated."""
        return await self._room_order(req, "kick", "kick")

    async def close(self, req: Request) -> Response:
        """Close a room ``{"room", "reason"}``: everyone connected is told; a hand being played is not finished."""
        return await self._room_order(req, "close", "close")

    # ------------------------------------------------------------------ the audit log
    async def audit(self, req: Request) -> Response:
        await self._actor(req, "audit")
        offset, limit = self._page(req)
        player = whole(req.query_params, "player", None, 1) if req.query_params.get("player") else None
        return JSONResponse(await self._read(moderation.audit_page_tx, offset, limit, player))
