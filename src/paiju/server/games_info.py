"""What the lobby's room form needs to know about each game: presets and options."""

from __future__ import annotations

from typing import Any


def games_info() -> dict[str, Any]:
    from paiju.baohuang.options import describe_options as baohuang_options

    return {"games": {"baohuang": baohuang_options()}}
