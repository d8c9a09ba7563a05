"""``paiju demo-tournament``: a Swiss tournament 比赛 of computer players in a running hall
(``paiju serve``), made and started through its HTTP API (docs/protocol.md) — the quickest
way to watch the hall direct one: its tables appear in the lobby with the 比赛 badge.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Annotated, Any

import typer
from rich.markup import escape

from paiju.cli.common import _console, _fail


def _call(base: str, path: str, body: dict[str, Any] | None, token: str | None = None) -> tuple[dict[str, Any], str]:
    """A request to the hall as its own page would send it; its JSON answer and login cookie."""
    headers = {"Origin": base, "Content-Type": "application/json"}
    if token:
        headers["X-Paiju-Token"] = token
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, headers=headers, method="POST" if data else "GET")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:  # noqa: S310 - the hall's own address, given by the user
            cookie = r.headers.get("set-cookie") or ""
            return json.loads(r.read() or b"{}"), cookie.split("paiju_token=")[-1].split(";")[0] if cookie else ""
    except urllib.error.HTTPError as e:
        answer = json.loads(e.read() or b"{}")
        _fail(f"{path}: {answer.get('error', e.reason)} ({answer.get('code', e.code)})")
    except OSError as e:
        _fail(f"no hall answers at {base}: {e}")


def demo_tournament(
    game: Annotated[str, typer.Option("--game", "-g", help="The game: baohuang, shengji or shuangkou.")] = "baohuang",
    entrants: Annotated[int, typer.Option("--entrants", "-n", help="Computer entrants (pairs in a pair game).")] = 8,
    rounds: Annotated[int, typer.Option("--rounds", "-r", help="Swiss rounds.")] = 2,
    boards: Annotated[
        int | None, typer.Option("--boards", "-b", help="Boards a round (default 2, Baohuang 5).")
    ] = None,
    level: Annotated[str, typer.Option("--level", help="The computer players' level.")] = "normal",
    url: Annotated[str, typer.Option("--url", help="The running hall.")] = "http://127.0.0.1:8000",
) -> None:
    """Demo tournament: make a Swiss tournament of computer players in a running hall and
    start it; watch its tables from the lobby."""
    base = url.rstrip("/")
    _, token = _call(base, "/api/login", {"name": "demo"})
    body: dict[str, Any] = {"name": f"demo {game}", "game": game, "rounds": rounds}
    if boards is not None:
        body["boards"] = boards
    made, _ = _call(base, "/api/tournaments", body, token)
    started, _ = _call(base, f"/api/tournaments/{made['id']}/start", {"bots": entrants, "level": level}, token)
    console = _console()
    console.print(
        f"Tournament {started['id']} ({escape(game)}, {len(started['entrants'])} entrants, {rounds} rounds × "
        f"{started['boards']} boards) started: {escape(base)}/api/tournaments/{started['id']}"
    )
