"""The most one hand can cost 入场限制: what the hall asks a person's balance to cover before
he sits where beans are at stake (docs/decisions.md "The most one hand can cost").

:func:`max_hand_points` is the most points one side — all the payers of a hand together —
can lose in one hand of a game under its engine options, worked out from the engines'
scoring (``paiju.<game>.scoring``). :func:`paiju.beans.settle` moves room × table × the sum
of the positive scores (the own multipliers only split it), and as every game's scores sum
to 0, that sum is what the payers lose together; so :func:`max_hand_cost` is room × table ×
:func:`max_hand_points`. :func:`bean_scores` is the one place where the hall counts less than
the engine for beans: a Shengji hand counts at most :data:`SHENGJI_MAX_LEVELS` levels.

>>> max_hand_points("baohuang", {}), max_hand_points("baohuang", {"variant": "qingdao"})
(24, 432)
>>> max_hand_points("shengji", {}), max_hand_points("shengji", {"level_table": "competition"})
(24, 6)
>>> max_hand_cost("shuangkou", {}, {"bean_multiplier": 10, "table_multiplier": 4})
240
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["SHENGJI_MAX_LEVELS", "bean_scores", "max_hand_cost", "max_hand_points"]

SHENGJI_MAX_LEVELS = 12
"""The most levels 升级 one Shengji hand counts for beans: the whole ladder, 2 to A (the
engine's level change has no ceiling: a large kitty bonus 抠底 can count dozens)."""


def _resolved(game_name: str, engine_options: Mapping[str, Any]) -> dict[str, Any]:
    from paiju.specs import spec  # the registry imports every game: only when asked

    return spec(game_name).resolve_options(**dict(engine_options))


def _baohuang(o: Mapping[str, Any]) -> int:
    """Baohuang 保皇 (scoring.hand_scores): with a guard the base is g = 6 − (places of the
    emperor and guard), |g| ≤ 3, and the side's total is 3|g|; 暗独 moves 12, 明独 24. The
    multipliers: 明保 or a standing rebellion ×2 (never both: no rebellion after 明保), one
    kick ×2 (``kick``: after 明保 or a rebellion only), the Qingdao tribute ×2 per tribute
    card of this hand's result (``tribute``: at most 6 cards, at (4, 5) where g = −3; a
    (1, 2) has 3 cards; a solo 4). 明独 starts play at once (no 明保, rebellion or kick)."""
    kick = 2 if o["kick"] else 1
    rebellion = 2 if o["rebellion"] else 1
    tribute = bool(o["tribute"])
    pair = 9 * 2 * kick * (12 if tribute else 1)  # 3 × |g| 3, 明保 or rebellion, kick, 6 tribute cards
    hidden_solo = 12 * rebellion * (kick if o["rebellion"] else 1) * (8 if tribute else 1)
    open_solo = 24 * (8 if tribute else 1)
    return max(pair, hidden_solo, open_solo)


def _shengji(o: Mapping[str, Any]) -> int:
    """Shengji 升级 (scoring.level_change): each seat scores ± the levels n, so a side loses
    2n. The declarers go up at most 3 (more with a smaller ``level_step``); the defenders,
    under the ``competition`` table, at most 3, else 1 + (points − take-over − step) // step
    with points ≤ the pack's 100 per pack, plus
    the kitty's points (10 per card: a kitty never holds more 10s and Ks than a pack has)
    times the kitty multiplier less 1, plus a failed throw's penalty per declarer card; the
    hall counts at most :data:`SHENGJI_MAX_LEVELS` (:func:`bean_scores`)."""
    from paiju.shengji.options import PACK_SIZES
    from paiju.shengji.scoring import level_change, step_points, take_over_points

    decks = int(o["decks"])
    hand, kitty = PACK_SIZES[decks]
    if o["level_table"] == "competition":
        return 2 * 3
    pairs = hand // 2 if decks > 1 or o["two_colours"] else 0  # the longest unit a play can hold
    how = o["kitty_multiplier"]
    mult = {"unit_size": 2 * hand, "competition": 8}.get(how, 2 ** (pairs + 1))
    points = 100 * decks + 10 * kitty * (mult - 1) + int(o["throw_penalty"]) * 2 * hand
    u = step_points(decks, int(o.get("level_step") or 0))
    top = take_over_points(decks)
    defenders = 1 + (points - top - u) // u
    declarers = level_change(0, decks, "default", int(o.get("level_step") or 0))[1]
    return 2 * min(SHENGJI_MAX_LEVELS, max(declarers, defenders))


def _shuangkou(o: Mapping[str, Any]) -> int:
    """Shuangkou 双扣 (scoring.hand_scores): the two losers each lose the result's points."""
    return 2 * max(int(o["points_double"]), int(o["points_single"]), int(o["points_level"]))


_BOUNDS = {"baohuang": _baohuang, "shengji": _shengji, "shuangkou": _shuangkou}


def max_hand_points(game_name: str, engine_options: Mapping[str, Any]) -> int:
    """The most points the payers of one hand lose together (the sum of the positive
    scores, as the hall counts them: :func:`bean_scores`). Raises the engine's
    IllegalAction on options it refuses, ValueError on an unknown game."""
    bound = _BOUNDS.get(game_name)
    if bound is None:
        raise ValueError(f"no bean bound for game {game_name!r}")
    return bound(_resolved(game_name, engine_options))


def max_hand_cost(game_name: str, engine_options: Mapping[str, Any], room_options: Mapping[str, Any]) -> int:
    """The most beans one hand can cost there 入场限制: room multiplier 房间倍数 × table
    multiplier × :func:`max_hand_points` (the own multipliers only split the total)."""
    room = int(room_options.get("bean_multiplier", 1))
    table = int(room_options.get("table_multiplier", 1))
    if room < 1 or table < 1:
        raise ValueError(f"multipliers must be positive, not {room} and {table}")
    return room * table * max_hand_points(game_name, engine_options)


def bean_scores(game_name: str, scores: Sequence[int]) -> list[int]:
    """The scores the hall settles in beans: the game's own, but a Shengji hand counts at
    most :data:`SHENGJI_MAX_LEVELS` levels a seat (they still sum to 0).

    >>> bean_scores("shengji", [15, -15, 15, -15]), bean_scores("baohuang", [6, -3, -3, 3, -3])
    ([12, -12, 12, -12], [6, -3, -3, 3, -3])
    """
    if game_name != "shengji":
        return list(scores)
    cap = SHENGJI_MAX_LEVELS
    return [max(-cap, min(cap, s)) for s in scores]
