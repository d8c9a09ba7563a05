"""Titles 游戏等级: the rank a player's cumulative points in one game give him.

The seeds name a 游戏等级 page but give no ladder, so this ladder is a **[decision]**: the
peasant-to-emperor ladder of the QQ game halls' 斗地主 / 升级, from 包身工 (indentured hand)
to 帝王 (emperor), 23 titles. Its thresholds are *ladder points* rising roughly
geometrically, so the first titles come within an evening and the top takes years.

The games' points per hand differ in size, so each game's points are multiplied by a scale
factor before they are put on the ladder (``SCALE``). The factors come from 800 hands of
each game between the heuristic bots with the default rules: the mean |points| per seat and
hand were Baohuang 2.66, Shuangkou 2.16 and Shengji 0.66 (levels; 45 % of hands move no
level). Baohuang is the ladder's unit (×1); Shuangkou is close enough to stay at ×1; Shengji
counts ×4. So a regular player climbs at about the same pace per hand in every game.
Negative cumulative points stay at the lowest title.

>>> title("baohuang", 120).name_zh, title("shengji", 120).name_zh
('佃户', '渔夫')
>>> title("shengji", 120)
Title(level=6, name_zh='渔夫', name_en='Fisherman', floor=100, next_at=175)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LADDER", "SCALE", "Title", "ladder", "title"]

LADDER: tuple[tuple[int, str, str], ...] = (
    (0, "包身工", "Indentured hand"),
    (20, "短工", "Day labourer"),
    (60, "长工", "Farmhand"),
    (100, "佃户", "Tenant"),
    (200, "贫农", "Poor peasant"),
    (400, "渔夫", "Fisherman"),
    (700, "猎人", "Hunter"),
    (1100, "中农", "Middle peasant"),
    (1600, "富农", "Rich peasant"),
    (2200, "掌柜", "Shopkeeper"),
    (3000, "商人", "Merchant"),
    (4000, "衙役", "Constable"),
    (5500, "小财主", "Small squire"),
    (7500, "大财主", "Great squire"),
    (10000, "小地主", "Small landlord"),
    (14000, "大地主", "Great landlord"),
    (19000, "知县", "County magistrate"),
    (25000, "通判", "Prefect's deputy"),
    (32000, "知府", "Prefect"),
    (40000, "总督", "Governor-general"),
    (50000, "巡抚", "Provincial governor"),
    (65000, "丞相", "Chancellor"),
    (80000, "帝王", "Emperor"),
)
"""The ladder, lowest first: (ladder points from which the title holds, 中文, English)."""

SCALE: dict[str, int] = {"baohuang": 1, "shuangkou": 1, "shengji": 4}
"""Ladder points per game point (see the module docstring for why)."""


@dataclass(frozen=True)
class Title:
    """One title of a game's ladder: ``floor`` and ``next_at`` are in that game's points
    (``next_at`` is where the next title begins; None at the top)."""

    level: int
    name_zh: str
    name_en: str
    floor: int
    next_at: int | None


def ladder(game: str) -> list[Title]:
    """The 23 titles of ``game``, lowest first, their floors in the game's own points
    (a ladder threshold ÷ the game's scale, rounded up: the points where it is reached)."""
    if game not in SCALE:
        raise ValueError(f"unknown game {game!r}; games are {', '.join(sorted(SCALE))}")
    floors = [-(-threshold // SCALE[game]) for threshold, _, _ in LADDER]
    nexts: list[int | None] = [*floors[1:], None]
    return [
        Title(level, zh, en, floor, next_at)
        for level, ((_, zh, en), floor, next_at) in enumerate(zip(LADDER, floors, nexts), start=1)
    ]


def title(game: str, points: int) -> Title:
    """The title of a player with ``points`` cumulative points in ``game``.

    >>> [title("baohuang", p).level for p in (-50, 0, 19, 20, 80000, 10**9)]
    [1, 1, 1, 2, 23, 23]
    """
    if not isinstance(points, int) or isinstance(points, bool):
        raise ValueError(f"points must be an int, not {points!r}")
    titles = ladder(game)
    reached = [t for t in titles if points >= t.floor]
    return reached[-1] if reached else titles[0]  # below 0: still the lowest title
