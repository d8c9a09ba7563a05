"""What the lobby's room form needs to know about each game: presets and options."""

from __future__ import annotations

from typing import Any

from paiju.registry import GAMES
from paiju.specs import spec as game_spec

# options of every room the hall keeps itself (the engines never see them), as the lobby form shows them
HALL_OPTIONS: list[dict[str, Any]] = [
    {
        "name": "card_tracker",
        "type": "bool",
        "default": True,
        "help": "记牌器: each seated player sees how many cards of each rank are still unseen by them",
    },
    {"name": "chat", "type": "bool", "default": False, "help": "free text chat at the table (quick phrases always)"},
    {
        "name": "private",
        "type": "bool",
        "default": False,
        "help": "私人房间: not in the lobby; friends come by its link or its room code",
    },
    # beans 游戏豆 (settlement.py): they move between accounts only
    {
        "name": "bean_multiplier",
        "type": "int",
        "default": 1,
        "choices": [1, 2, 5, 10, 20, 50, 100],
        "help": "房间倍数: the room's bean multiplier",
    },
    {
        "name": "table_multiplier",
        "type": "int",
        "default": 1,
        "choices": [1, 2, 3, 4],
        "help": "玩家自定义倍数: the multiplier the table's players agree on by sitting down",
    },
    {
        "name": "min_beans",
        "type": "int",
        "default": 0,
        "choices": [0, 100, 500, 1000, 5000, 10000],
        "help": "入场限制: the beans a player needs to sit (guests sit only where it is 0)",
    },
    {
        "name": "one_per_address",
        "type": "bool",
        "default": True,
        "help": "同IP不能同桌: two accounts playing for beans from one address may not sit together",
    },
    {
        "name": "competition",
        "type": "bool",
        "default": False,
        "help": "比赛: seats drawn by lot and kept for the match, no hints, no card tracker, no chat, spectators late",
    },
    {
        "name": "spectator_delay",
        "type": "int",
        "default": 30,
        "choices": [5, 10, 30, 60, 120],
        "help": "a competition's spectators see the table this many seconds late",
    },
    {
        "name": "own_multiplier",
        "type": "bool",
        "default": False,
        "help": "each player may raise an own multiplier (1-4) before a hand",
    },
]
HALL_DEFAULTS: dict[str, Any] = {o["name"]: o["default"] for o in HALL_OPTIONS}


TOURNAMENT = "tournament"
"""The hall's own option of a tournament's table (never the room form's): ``{"id", "round",
"table", "hands"}`` — the table plays its planned hands (tournaments/director.py)."""


def split_options(options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A room's options as the engine's and the hall's (every hall option, defaults filled in)."""
    engine = {k: v for k, v in options.items() if k not in HALL_DEFAULTS and k != TOURNAMENT}
    return engine, {**{k: options.get(k, d) for k, d in HALL_DEFAULTS.items()}, TOURNAMENT: options.get(TOURNAMENT)}


def check_hall_option(name: str, value: Any) -> str | None:
    """Why ``value`` is not one of hall option ``name``'s values (None: it is)."""
    if name == TOURNAMENT:  # set by the hall itself, never by a room's creator (room_option_names)
        return None
    spec = next(o for o in HALL_OPTIONS if o["name"] == name)
    if spec["type"] == "bool":
        return None if isinstance(value, bool) else f"option {name} is true or false"
    if "choices" in spec and (isinstance(value, bool) or value not in spec["choices"]):
        return f"option {name} is one of {', '.join(map(str, spec['choices']))}"
    return None


def games_info() -> dict[str, Any]:
    games = {name: game_spec(name).describe_options() for name in GAMES}
    return {"games": games, "hall_options": HALL_OPTIONS}


def room_option_names(game: str) -> set[str]:
    """The options a room may set for ``game``: its preset option and every listed option."""
    info = games_info()["games"].get(game)
    if info is None:
        return set()
    names = {o["name"] for o in info["options"]} | set(HALL_DEFAULTS)
    return names | {info["preset_option"]} if info.get("preset_option") else names
