"""One game under a room's options, for its rules page ``#/help/{game}`` (游戏规则): every
room option's value as the preset and the room set it, what the beans of one hand can come
to, and the game's title ladder 游戏等级.

The page could merge a preset's values itself, but the engine's resolution is the one that
counts (a preset may force another option, e.g. Qingdao's 让牌 makes every pass final), and
the most a hand can cost (``paiju.stakes``) is the engines' arithmetic: so the hall answers.
"""

from __future__ import annotations

import json
from typing import Any

from paiju.errors import IllegalAction
from paiju.server import reasons as _reasons  # noqa: F401 - registers bad_room_options, unknown_game
from paiju.specs import spec as game_spec
from paiju.stakes import max_hand_cost, max_hand_points
from paiju.titles import ladder

from .games_info import TOURNAMENT, check_hall_option, games_info, room_option_names, split_options

__all__ = ["game_rules", "parse_options"]


def parse_options(text: str | None) -> dict[str, Any]:
    """The ``options`` query parameter: a JSON object (absent: none)."""
    if not text:
        return {}
    try:
        options = json.loads(text)
    except ValueError:
        options = None
    if not isinstance(options, dict):
        raise IllegalAction("options must be a JSON object of option names and values", "bad_room_options", detail="")
    return options


def game_rules(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """``game`` under the room ``options`` (as ``POST /api/rooms`` takes them; checked the same
    way): ``options`` every room option's value (engine and hall), ``preset`` the preset
    played (or None), ``max_hand_points`` the most points the losing side of one hand can
    lose together, ``hand_cost`` that in beans (× room × table multiplier: the entry bound),
    ``titles`` the ladder [{level, zh, en, floor}] in the game's points.

    >>> r = game_rules("baohuang", {"variant": "qingdao", "bean_multiplier": 10})
    >>> r["preset"], r["options"]["pass_is_final"], r["max_hand_points"], r["hand_cost"]
    ('qingdao', True, 432, 4320)
    """
    info = games_info()["games"].get(game)
    if info is None:
        raise IllegalAction(f"there is no game {game}", "unknown_game", game=game)
    allowed = room_option_names(game)
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise IllegalAction(
            f"unknown {game} room option(s) {', '.join(unknown)}", "bad_room_options", detail=", ".join(unknown)
        )
    engine, hall = split_options(options)
    for key, value in hall.items():
        why = check_hall_option(key, value)
        if why is not None:
            raise IllegalAction(why, "bad_room_options", detail=key)
    try:
        resolved = game_spec(game).resolve_options(**engine)
    except IllegalAction:
        raise  # the engine's own reason (bad_option, with the option's name)
    except (TypeError, ValueError) as e:
        raise IllegalAction(str(e), "bad_room_options", detail="") from None
    preset_option = info.get("preset_option")
    shown = {k: v for k, v in resolved.items() if k in allowed and k != preset_option}
    return {
        "game": game,
        "preset": resolved.get(preset_option) if preset_option else None,
        "options": {**shown, **{k: v for k, v in hall.items() if k != TOURNAMENT}},  # not a room's choice
        "max_hand_points": max_hand_points(game, engine),
        "hand_cost": max_hand_cost(game, engine, hall),
        "titles": [{"level": t.level, "zh": t.name_zh, "en": t.name_en, "floor": t.floor} for t in ladder(game)],
    }
