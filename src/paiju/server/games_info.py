"""What the lobby's room form needs to know about each game: presets and options."""

from __future__ import annotations

from typing import Any

from paiju.registry import GAMES


def games_info() -> dict[str, Any]:
    import importlib

    games = {}
    for name in GAMES:
        module = importlib.import_module(f"paiju.{name}")
        describe = getattr(module, "describe_options", None)
        if describe is not None:
            games[name] = describe()
    return {"games": games}


def room_option_names(game: str) -> set[str]:
    """The options a room may set for ``game``: its preset option and every listed option."""
    info = games_info()["games"].get(game)
    if info is None:
        return set()
    names = {o["name"] for o in info["options"]}
    return names | {info["preset_option"]} if info.get("preset_option") else names
