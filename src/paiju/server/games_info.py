"""What the lobby's room form needs to know about each game: presets and options."""

from __future__ import annotations

from typing import Any

from paiju.registry import GAMES

# options of every room the hall keeps itself (the engines never see them), as the lobby form shows them
HALL_OPTIONS: list[dict[str, Any]] = [
    {
        "name": "card_tracker",
        "type": "bool",
        "default": True,
        "help": "记牌器: each seated player sees how many cards of each rank are still unseen by them",
    },
    {"name": "chat", "type": "bool", "default": False, "help": "free text chat at the table (quick phrases always)"},
]
HALL_DEFAULTS: dict[str, Any] = {o["name"]: o["default"] for o in HALL_OPTIONS}


def split_options(options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A room's options as the engine's and the hall's (every hall option, defaults filled in)."""
    engine = {k: v for k, v in options.items() if k not in HALL_DEFAULTS}
    return engine, {k: options.get(k, d) for k, d in HALL_DEFAULTS.items()}


def games_info() -> dict[str, Any]:
    import importlib

    games = {}
    for name in GAMES:
        module = importlib.import_module(f"paiju.{name}")
        describe = getattr(module, "describe_options", None)
        if describe is not None:
            games[name] = describe()
    return {"games": games, "hall_options": HALL_OPTIONS}


def room_option_names(game: str) -> set[str]:
    """The options a room may set for ``game``: its preset option and every listed option."""
    info = games_info()["games"].get(game)
    if info is None:
        return set()
    names = {o["name"] for o in info["options"]} | set(HALL_DEFAULTS)
    return names | {info["preset_option"]} if info.get("preset_option") else names
