"""Tournaments 比赛 over HTTP: create (``POST /api/tournaments``), list, one tournament with
its entrants, rounds, tables (their rooms) and standings (``GET /api/tournaments/{id}``),
register (``POST /api/tournaments/{id}/register``, with ``{"partner": user name}`` in a
pair game) and start (``POST /api/tournaments/{id}/start``, its creator or an admin; computer
players may fill the field: ``{"bots": n, "level": "normal"}``).

The checks are the formats' own (tournaments/entrants.py), run inside the transaction that
writes, so two registrations at once cannot both pass; the director
(tournaments/director.py) plays the rounds. docs/protocol.md lists the requests.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from paiju.errors import IllegalAction
from paiju.registry import GAMES, game_class
from paiju.server.accounts import social
from paiju.server.store import tournament_rows
from paiju.server.tables.autoplay import BOT_LEVELS
from paiju.server.tables.games_info import HALL_DEFAULTS, room_option_names
from paiju.server.tables.hall import Hall
from paiju.server.tables.limits import check_value
from paiju.server.tournaments.director import Director, summary
from paiju.server.tournaments.entrants import Entrant, check_entrants, check_format, entrant_size
from paiju.server.web.answers import error, json_body, whole

STATUS = {  # the HTTP status of a refusal, by its reason code (others: 400)
    "no_name": 401,
    "no_such_player": 404,
    "no_such_tournament": 404,
    "not_tournament_director": 403,
    "tournament_closed": 409,
    "save_failed": 503,
    "unavailable": 503,
}
MAX_BOTS = 64
MAX_ENTRANTS = 256
Me = Callable[[Request], Awaitable[dict[str, Any] | None]]


def entrant_of(row: dict[str, Any]) -> Entrant:
    """A stored entrant as the format's checks see it (a computer entrant's seats stand for players)."""
    members = tuple(str(p) for p in row["players"]) or tuple(f"{row['entrant']}:{i}" for i in range(row["size"]))
    return Entrant(row["entrant"], members)


def check_field(game: str, rows: list[dict[str, Any]], complete: bool) -> None:
    """The format's checks of the entrants (``complete``: the whole field, at the start)."""
    size = entrant_size(game)
    try:
        check_entrants(game, [entrant_of({**r, "size": size}) for r in rows])
    except IllegalAction as e:
        if complete or getattr(e, "code", "") != "too_few_entrants":
            raise
    if len(rows) > MAX_ENTRANTS:
        raise IllegalAction(f"{len(rows)} is not a value the hall takes", "bad_value", where="entrants")


def _tournament(c: Any, tid: int) -> dict[str, Any]:
    t = tournament_rows.tournament_tx(c, tid, lock=True)
    if t is None:
        raise IllegalAction("there is no such tournament", "no_such_tournament")
    return t


def _open(c: Any, tid: int) -> dict[str, Any]:
    t = _tournament(c, tid)
    if t["status"] != "registering":
        raise IllegalAction("registration is closed: the tournament has started", "tournament_closed")
    return t


def _key(name: str, rows: list[dict[str, Any]], pid: int) -> str:
    """An entrant's name, made unique in the field by the player's id when taken."""
    taken = {r["entrant"] for r in rows}
    return name if name not in taken else f"{name} #{pid}"


class TournamentsApi:
    """The handlers; ``hall`` gives the running hall, ``director`` its director (None on a
    worker of a cluster), ``me`` the request's player, ``same_origin`` refuses a POST from
    another site's page."""

    def __init__(
        self,
        hall: Callable[[], Hall],
        director: Callable[[], Director | None],
        me: Me,
        same_origin: Callable[[Request], None],
        body_bytes: int,
    ) -> None:
        self.hall, self.director, self.me, self.same_origin, self.body_bytes = (
            hall,
            director,
            me,
            same_origin,
            body_bytes,
        )

    def routes(self) -> list[Route]:
        return [
            Route("/api/tournaments", self.list_, methods=["GET"]),
            Route("/api/tournaments", self.create, methods=["POST"]),
            Route("/api/tournaments/{id:int}", self.one),
            Route("/api/tournaments/{id:int}/register", self.register, methods=["POST"]),
            Route("/api/tournaments/{id:int}/start", self.start, methods=["POST"]),
        ]

    @staticmethod
    def _refused(e: IllegalAction) -> Response:
        return error(str(e), STATUS.get(getattr(e, "code", ""), 400), e)

    async def _player(self, req: Request) -> dict[str, Any]:
        self.same_origin(req)
        p = await self.me(req)
        if p is None:
            raise IllegalAction("choose a name first", "no_name")
        return p

    async def _summary(self, tid: int) -> dict[str, Any] | None:
        def read(c: Any) -> dict[str, Any] | None:
            t = tournament_rows.tournament_tx(c, tid)
            if t is None:
                return None
            return summary(t, tournament_rows.entrants_tx(c, tid), tournament_rows.hands_tx(c, tid))

        got: dict[str, Any] | None = await asyncio.to_thread(self.hall().store.read, read)
        return got

    async def list_(self, req: Request) -> Response:
        """Every tournament, newest first, with its number of entrants."""

        def read(c: Any) -> list[dict[str, Any]]:
            out = []
            for t in tournament_rows.tournaments_tx(c):
                keys = ("id", "name", "game", "format", "rounds", "boards", "status", "current_round")
                out.append({**{k: t[k] for k in keys}, "entrants": len(tournament_rows.entrants_tx(c, t["id"]))})
            return out

        return JSONResponse({"tournaments": await asyncio.to_thread(self.hall().store.read, read)})

    async def one(self, req: Request) -> Response:
        """One tournament: entrants, rounds (tables with their rooms, byes, round scores), standings."""
        got = await self._summary(whole(req.path_params, "id", None, 1))
        if got is None:
            return self._refused(IllegalAction("there is no such tournament", "no_such_tournament"))
        return JSONResponse(got)

    async def create(self, req: Request) -> Response:
        """``{"name", "game", "format": "swiss", "rounds", "boards", "options"?}``: a new
        tournament, open for registration; its summary."""
        try:
            p = await self._player(req)
            body = await json_body(req, self.body_bytes)
            game, fmt = body.get("game"), body.get("format", "swiss")
            rounds, boards, options = body.get("rounds", 3), body.get("boards"), body.get("options") or {}
            if game not in GAMES:
                raise IllegalAction(f"unknown game {game!r}; games are {', '.join(GAMES)}", "unknown_game", game=game)
            if boards is None:
                boards = 2 if entrant_size(game) == 2 else 5
            check_format(game, fmt, rounds, boards)
            if fmt != "swiss":
                raise IllegalAction("the hall plays Swiss tournaments only, so far", "knockout_not_played")
            engine = sorted(room_option_names(game) - set(HALL_DEFAULTS))
            if not isinstance(options, dict) or set(options) - set(engine):
                raise IllegalAction("options must be the game's own options", "bad_room_options", detail="options")
            check_value(options, "options")
            try:
                cls: Any = game_class(game)
                cls(seed=0, **options)  # the engine's own checks of every option
            except (IllegalAction, TypeError, ValueError) as e:
                raise IllegalAction(str(e), "bad_room_options", detail="options") from None
            name = " ".join(str(body.get("name") or "").split())[:64] or f"{game} tournament"
            check_value(name, "the tournament's name")
            values = {
                "name": name,
                "game": game,
                "format": fmt,
                "rounds": rounds,
                "boards": boards,
                "seed": random.SystemRandom().randrange(2**31),
                "created_by": p["id"],
                "options": options,
            }
            tid = await self.hall().decide(lambda c: tournament_rows.create_tournament_tx(c, values))
        except IllegalAction as e:
            return self._refused(e)
        return JSONResponse(await self._summary(tid))

    async def register(self, req: Request) -> Response:
        """Enter the caller (with ``{"partner": user name}`` in a pair game, the pair)."""
        try:
            p = await self._player(req)
            body = await json_body(req, self.body_bytes)
            tid, partner = whole(req.path_params, "id", None, 1), body.get("partner")

            def run(c: Any) -> None:
                t = _open(c, tid)
                rows = tournament_rows.entrants_tx(c, tid)
                players, name = [p["id"]], p["name"]
                if entrant_size(t["game"]) == 2:
                    other = social.player_by_name_or_id_tx(c, partner) if partner is not None else None
                    if partner is not None and other is None:
                        raise IllegalAction("no such player", "no_such_player")
                    if other is not None:
                        players.append(other)
                        name = f"{p['name']} & {partner}"
                key = _key(name, rows, p["id"])
                check_field(t["game"], [*rows, {"entrant": key, "players": players, "bot": None}], complete=False)
                tournament_rows.add_entrant_tx(c, tid, key, players)

            await self.hall().decide(run)
        except IllegalAction as e:
            return self._refused(e)
        return JSONResponse(await self._summary(tid))

    async def start(self, req: Request) -> Response:
        """Close registration and play round 1; ``{"bots": n, "level": …}`` adds ``n``
        computer entrants first."""
        try:
            p = await self._player(req)
            body = await json_body(req, self.body_bytes)
            tid, bots, level = whole(req.path_params, "id", None, 1), body.get("bots", 0), body.get("level", "normal")
            if not isinstance(bots, int) or isinstance(bots, bool) or not 0 <= bots <= MAX_BOTS:
                raise IllegalAction(f"{bots!r} is not a value the hall takes", "bad_value", where="bots")
            if level not in BOT_LEVELS or level == "hosted":
                levels = ", ".join(x for x in BOT_LEVELS if x != "hosted")
                raise IllegalAction(f"bot level must be one of {levels}", "bad_bot_level", levels=levels)
            director = self.director()
            if director is None:
                raise IllegalAction("this server does not direct tournaments", "unavailable")

            def run(c: Any) -> None:
                t = _open(c, tid)
                if t["created_by"] != p["id"] and p.get("role") != "admin":
                    raise IllegalAction(
                        "only the tournament's creator or an administrator may start it", "not_tournament_director"
                    )
                rows = tournament_rows.entrants_tx(c, tid)
                taken = {r["entrant"] for r in rows}
                names = (f"bot {i}" for i in range(1, MAX_BOTS + MAX_ENTRANTS + 2) if f"bot {i}" not in taken)
                added = [{"entrant": next(names), "players": [], "bot": level} for _ in range(bots)]
                check_field(t["game"], [*rows, *added], complete=True)
                for a in added:
                    tournament_rows.add_entrant_tx(c, tid, a["entrant"], [], level)
                tournament_rows.save_tournament_tx(c, tid, status="running")

            await self.hall().decide(run)
        except IllegalAction as e:
            return self._refused(e)
        director.progress(tid)
        return JSONResponse(await self._summary(tid))
