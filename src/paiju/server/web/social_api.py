"""Playing together over HTTP: following 关注 and blocking 拉黑 (``/api/friends``,
``/api/follow``, ``/api/block``), a room's short code (``/api/codes/{code}``), entering a
private or password room by its password or invitation (``/api/rooms/{id}/join``), the
invitation link of a room one sits at and invitations sent to a friend
(``/api/rooms/{id}/invite``, ``/api/invitations``), and the creator's changes to who may
come (``/api/rooms/{id}/access``).

A room code is looked up under ``/api/codes/``, not ``/api/rooms/``: the cluster's proxy
sends ``/api/rooms/ROOM/…`` to the worker of room ROOM by its hash (proxy_config.py), and
``join`` and ``invite`` are sent there on purpose — that worker plays the room. The store
functions are accounts/social.py's, the table's checks tables/access.py's. docs/protocol.md
lists the requests.
"""

from __future__ import annotations

import asyncio
import hmac
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from paiju.errors import IllegalAction
from paiju.server.accounts import invitations, social
from paiju.server.accounts.hashing import hashing
from paiju.server.store import db
from paiju.server.tables import access
from paiju.server.tables.cluster_rooms import RoomBusy
from paiju.server.tables.hall import Hall
from paiju.server.web.answers import address, error, json_body, room_id

STATUS = {  # the HTTP status of a refusal, by its reason code (others: 400)
    "no_name": 401,
    "register_to_follow": 403,
    "register_to_block": 403,
    "room_password": 403,
    "password_too_fast": 429,
    "bad_invite": 403,
    "not_seated": 403,
    "no_such_player": 404,
    "no_such_room": 404,
    "no_such_invitation": 404,
    "not_room_creator": 403,
    "invite_not_friend": 403,
    "invite_blocked": 403,
    "invites_too_fast": 429,
    "save_failed": 503,
    "room_moving": 503,
    "worker_busy": 503,
    "unavailable": 503,
}
RESERVED_MAX = 8  # seats one room reserves at most (more than any game has)
WRONG_PASSWORDS = 5  # wrong room passwords a player may try in WRONG_WINDOW seconds, per room
WRONG_WINDOW = 300.0

Me = Callable[[Request], Awaitable[dict[str, Any] | None]]


class SocialApi:
    """The handlers; ``hall`` gives the running hall, ``me`` the request's player,
    ``same_origin`` refuses a POST from another site's page."""

    def __init__(
        self, hall: Callable[[], Hall], me: Me, same_origin: Callable[[Request], None], body_bytes: int
    ) -> None:
        self.hall, self.me, self.same_origin, self.body_bytes = hall, me, same_origin, body_bytes
        # (player, room) → times of wrong passwords: guessing is slow (the room's requests reach one worker)
        self._wrong: dict[tuple[int, str], list[float]] = {}

    def routes(self) -> list[Route]:
        return [
            Route("/api/friends", self.friends),
            Route("/api/follow", self.follow, methods=["POST"]),
            Route("/api/block", self.block, methods=["POST"]),
            Route("/api/codes/{code}", self.code),
            Route("/api/rooms/{room}/join", self.join, methods=["POST"]),
            Route("/api/rooms/{room}/invite", self.invite),
            Route("/api/rooms/{room}/invite", self.invite_friend, methods=["POST"]),
            Route("/api/rooms/{room}/access", self.change_access, methods=["POST"]),
            Route("/api/invitations", self.invitations),
            Route("/api/invitations/{id}/dismiss", self.dismiss, methods=["POST"]),
        ]

    @staticmethod
    def _refused(e: IllegalAction) -> Response:
        return error(str(e), STATUS.get(getattr(e, "code", ""), 400), e)

    async def _player(self, req: Request) -> dict[str, Any]:
        if req.method == "POST":
            self.same_origin(req)
        p = await self.me(req)
        if p is None:
            raise IllegalAction("choose a name first", "no_name")
        return p

    async def _table(self, rid: str) -> Any:
        try:
            table = await self.hall().table(rid) if len(rid) <= 16 else None
        except RoomBusy as e:
            raise IllegalAction("the room is moving to another server: try again in a moment", e.code) from None
        if table is None or table.damaged:
            raise IllegalAction("there is no such room", "no_such_room")
        return table

    # ------------------------------------------------------------------ follows and blocks
    async def friends(self, req: Request) -> Response:
        """Whom the player follows — online or not, and at which listed table — and whom he blocked."""
        try:
            p = await self._player(req)
        except IllegalAction as e:
            return self._refused(e)
        got = await asyncio.to_thread(self.hall().store.read, social.relations_tx, p["id"])
        h = self.hall()
        ids = [f["id"] for f in got["following"]]
        online = await asyncio.gather(*(h.is_online(i) for i in ids))
        where = await h.where_is(ids)
        following = [{**f, "online": on, "room": where.get(f["id"])} for f, on in zip(got["following"], online)]
        return JSONResponse({"following": following, "blocked": got["blocked"], "guest": p["username"] is None})

    async def _relation(self, req: Request, what: str) -> Response:
        try:
            p = await self._player(req)
            body = await json_body(req, self.body_bytes)
            other, on = body.get("player"), body.get("on", True)
            if not isinstance(on, bool):
                raise IllegalAction("on is true or false", "bad_value", where="on")
            pid = p["id"]
            run = social.set_follow_tx if what == "follow" else social.set_block_tx
            await self.hall().decide(lambda c: run(c, pid, other, on))
        except IllegalAction as e:
            return self._refused(e)
        if what == "block":
            assert isinstance(other, int)
            await self.hall().blocks_changed(pid, other, on)
            return JSONResponse({"blocked": on})
        return JSONResponse({"following": on})

    async def follow(self, req: Request) -> Response:
        """关注 ``{"player": id, "on": true}`` (false: no longer)."""
        return await self._relation(req, "follow")

    async def block(self, req: Request) -> Response:
        """拉黑 ``{"player": id, "on": true}`` (false: unblock)."""
        return await self._relation(req, "block")

    # ------------------------------------------------------------------ rooms
    async def code(self, req: Request) -> Response:
        """The room a short code names: ``{"room": id}`` (open rooms only)."""
        code = access.normalize_code(req.path_params["code"])
        rid = await asyncio.to_thread(self.hall().store.read, db.room_by_code_tx, code) if code else None
        if rid is None:
            return self._refused(IllegalAction("there is no open room with that code", "no_such_room"))
        return JSONResponse({"room": rid})

    async def join(self, req: Request) -> Response:
        """Enter a room ``{"password"?, "invite"?, "sit"?: false}``: admitted by the password or
        the invitation token (or already), and with ``sit`` (an invitation's link) seated at a
        free seat — his reserved one first — if there is one he may take: ``{"room", "seat"}``."""
        try:
            p = await self._player(req)
            body = await json_body(req, self.body_bytes)
            table = await self._table(room_id(req.path_params))
            pid, invite, password = p["id"], body.get("invite"), body.get("password")
            if invite is not None:
                token = str(table.access.get("invite") or "")
                if not isinstance(invite, str) or not token or not hmac.compare_digest(invite, token):
                    raise IllegalAction("this invitation is not the room's", "bad_invite")
                await table.in_turn(table.admit, pid=pid)
            elif password is not None and table.access.get("password"):
                self._guessing((pid, table.id), False)
                if not await hashing(access.password_matches, table.access["password"], password):
                    self._guessing((pid, table.id), True)
                    raise IllegalAction("wrong password for this room", "room_password")
                await table.in_turn(table.admit, pid=pid)
            if not table.may_enter(pid):
                raise IllegalAction("this room has a password", "room_password")
            seat = table.seat_of(pid)
            if body.get("sit") is True and seat is None:
                seat = await table.seat_quickly(pid, p["name"], address=address(req))
        except IllegalAction as e:
            return self._refused(e)
        return JSONResponse({"room": table.id, "seat": seat})

    def _guessing(self, key: tuple[int, str], wrong: bool) -> None:
        """Count a wrong password (``wrong``), or refuse a try past WRONG_PASSWORDS in the window."""
        now = time.monotonic()
        if len(self._wrong) > 10_000:  # forget the oldest tries rather than grow
            self._wrong = {k: v for k, v in self._wrong.items() if v and now - v[-1] < WRONG_WINDOW}
        times = [x for x in self._wrong.get(key, []) if now - x < WRONG_WINDOW]
        if wrong:
            times.append(now)
        elif len(times) >= WRONG_PASSWORDS:
            wait = int(WRONG_WINDOW - (now - times[0])) + 1
            raise IllegalAction(f"too many wrong passwords: try again in {wait} s", "password_too_fast", seconds=wait)
        self._wrong[key] = times

    async def invite(self, req: Request) -> Response:
        """The invitation of a room one sits at (or made): ``{"invite": token, "code"}``;
        the page's link is ``#/room/{id}?invite={token}``."""
        try:
            p = await self._player(req)
            table = await self._table(room_id(req.path_params))
            if table.seat_of(p["id"]) is None and table.created_by != p["id"]:
                raise IllegalAction("only a player seated here may invite", "not_seated")
        except IllegalAction as e:
            return self._refused(e)
        return JSONResponse({"invite": table.access.get("invite"), "code": table.code})

    async def invite_friend(self, req: Request) -> Response:
        """邀请好友 ``{"player": id}``: a player seated here (or the room's creator) invites a
        player he follows; the friend's open page shows it (``/api/invitations``): ``{"id"}``."""
        try:
            p = await self._player(req)
            body = await json_body(req, self.body_bytes)
            table = await self._table(room_id(req.path_params))
            if table.seat_of(p["id"]) is None and table.created_by != p["id"]:
                raise IllegalAction("only a player seated here may invite", "not_seated")
            room = {"id": table.id, "name": table.name, "game": table.game_name, "invite": table.access.get("invite")}
            sender, player = p["id"], body.get("player")
            got = await self.hall().decide(lambda c: invitations.invite_tx(c, sender, player, room))
        except IllegalAction as e:
            return self._refused(e)
        return JSONResponse({"id": got})

    async def invitations(self, req: Request) -> Response:
        """The invitations waiting for the player, newest first (guests have none)."""
        try:
            p = await self._player(req)
        except IllegalAction as e:
            return self._refused(e)
        got = await asyncio.to_thread(self.hall().store.read, invitations.pending_tx, p["id"])
        return JSONResponse({"invitations": got})

    async def dismiss(self, req: Request) -> Response:
        """The player joined or dismissed an invitation: it is shown no more."""
        try:
            p = await self._player(req)
            raw = req.path_params["id"]
            iid = int(raw) if raw.isdigit() and len(raw) <= 18 else -1
            pid = p["id"]
            if not await self.hall().decide(lambda c: invitations.dismiss_tx(c, pid, iid)):
                raise IllegalAction("there is no such invitation", "no_such_invitation")
        except IllegalAction as e:
            return self._refused(e)
        return JSONResponse({"dismissed": iid})

    async def change_access(self, req: Request) -> Response:
        """The creator changes who may come ``{"private"?, "password"?, "reserved"?,
        "new_invite"?}``: ``password`` "" or null removes it; ``reserved`` lists every seat
        kept as it should be now ({seat: user name or player id}). The room's access as the
        lobby says it, and the invitation token (new with ``new_invite``)."""
        try:
            p = await self._player(req)
            body = await json_body(req, self.body_bytes)
            table = await self._table(room_id(req.path_params))
            if table.created_by != p["id"]:  # before any slow hashing
                raise IllegalAction("only the room's creator may change who may come", "not_room_creator")
            private, new_invite = body.get("private"), body.get("new_invite", False)
            for key, value in (("private", private), ("new_invite", new_invite)):
                if value is not None and not isinstance(value, bool):
                    raise IllegalAction(f"{key} is true or false", "bad_value", where=key)
            args: dict[str, Any] = {"pid": p["id"], "private": private, "new_invite": bool(new_invite)}
            if "password" in body:
                password = access.check_room_password(body["password"])
                if password is None:
                    args["password_off"] = True
                else:
                    args["password_hash"] = await hashing(access.hash_room_password, password)
            if "reserved" in body:
                args["reserved"] = await self._reserved(body.get("reserved"))
            info = await table.in_turn(table.change_access, **args)
        except IllegalAction as e:
            return self._refused(e)
        return JSONResponse({**info, "invite": table.access.get("invite")})

    async def room_access(self, body: dict[str, Any]) -> tuple[str | None, dict[int, int]]:
        """A new room's password hash and reserved seats from ``POST /api/rooms``'s
        ``password`` and ``reserved`` ({seat: user name or player id}); IllegalAction."""
        password = access.check_room_password(body.get("password"))
        reserved = await self._reserved(body.get("reserved"))
        hashed = await hashing(access.hash_room_password, password) if password else None
        return hashed, reserved

    async def _reserved(self, raw: Any) -> dict[int, int]:
        """Reserved seats {seat: user name or player id} as {seat: player id}; IllegalAction."""
        raw = raw or {}
        if not isinstance(raw, dict) or len(raw) > RESERVED_MAX:
            raise IllegalAction("reserved is an object of seats and players", "bad_value", where="reserved")
        reserved: dict[int, int] = {}
        for seat, who in raw.items():
            if not str(seat).isdigit():
                raise IllegalAction("reserved is an object of seats and players", "bad_value", where="reserved")
            if who is None or who == "":
                continue
            pid = await asyncio.to_thread(self.hall().store.read, social.player_by_name_or_id_tx, who)
            if pid is None:
                raise IllegalAction(f"there is no player {str(who)[:32]!r}", "no_such_player")
            reserved[int(seat)] = pid
        return reserved
