"""What the lobby's room form needs to know about each game: presets and options."""

from __future__ import annotations

from typing import Any


def games_info() -> dict[str, Any]:
    from paiju.baohuang.options import describe_options as baohuang_options

    return {"games": {"baohuang": baohuang_options()}}


def room_option_names(game: str) -> set[str]:
    """The options a room may set for ``game``: its preset option and every listed option."""
    info = games_info()["games"].get(game)
    if info is None:
        return set()
    return {info["preset_option"], *(o["name"] for o in info["options"])}
