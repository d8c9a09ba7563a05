"""Titles 游戏等级: the rank a player's cumulative points in one game give him.

Each game has its ladder (``LADDERS``; docs/titles.md says what is sourced and what chosen):

- Baohuang and Shuangkou: the peasant-to-emperor ladder of the QQ game halls (``PEASANTS``),
  from 包身工 (indentured hand) to 帝王 (emperor), 23 titles. **[decision]**: the seeds
  name a 游戏等级 page but give no ladder; a game about protecting the emperor 保皇 climbs
  best to the throne, and Shuangkou keeps the ladder its players have had so far.
- Shengji: a vehicle ladder (``VEHICLES``), from 滑板 (skateboard) to 火箭 (rocket), 23
  titles. Sourced: a Shengji player of the QQ hall writes 「大号是飞机了，小号都也是轿车了」
  (his main account is an aeroplane after two years, his second a saloon car); every other
  vehicle and the order are a **[decision]**.

The two ladders share their thresholds in *ladder points*, rising roughly geometrically, so
the first titles come within an evening and the top takes years (飞机, the seed's player's
title after two years, is level 20; 轿车 level 10).

The games' points per hand differ in size, so each game's points are multiplied by a scale
factor before they are put on the ladder (``SCALE``). The factors come from 800 hands of
each game between the heuristic bots with the default rules: the mean |points| per seat and
hand were Baohuang 2.66, Shuangkou 2.16 and Shengji 0.66 (levels; 45 % of hands move no
level). Baohuang is the ladder's unit (×1); Shuangkou is close enough to stay at ×1; Shengji
counts ×4. So a regular player climbs at about the same pace per hand in every game.
Negative cumulative points stay at the lowest title.

Nothing stores a title: the hall computes it from the points of the stored results whenever
it shows one (paiju.server.accounts.profile), so a changed ladder needs no migration.

>>> title("baohuang", 120).name_zh, title("shengji", 120).name_zh
('佃户', '拖拉机')
>>> title("shengji", 120)
Title(level=6, name_zh='拖拉机', name_en='Tractor', floor=100, next_at=175)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LADDERS", "PEASANTS", "SCALE", "THRESHOLDS", "VEHICLES", "Title", "ladder", "title"]

THRESHOLDS: tuple[int, ...] = (
    0, 20, 60, 100, 200, 400, 700, 1100, 1600, 2200, 3000, 4000,
    5500, 7500, 10000, 14000, 19000, 25000, 32000, 40000, 50000, 65000, 80000,
)  # fmt: skip
"""Ladder points from which each title holds, lowest first (both ladders)."""

PEASANTS: tuple[tuple[int, str, str], ...] = tuple(
    zip(
        THRESHOLDS,
        ("包身工", "短工", "长工", "佃户", "贫农", "渔夫", "猎人", "中农", "富农", "掌柜", "商人", "衙役",
         "小财主", "大财主", "小地主", "大地主", "知县", "通判", "知府", "总督", "巡抚", "丞相", "帝王"),
        ("Indentured hand", "Day labourer", "Farmhand", "Tenant", "Poor peasant", "Fisherman", "Hunter",
         "Middle peasant", "Rich peasant", "Shopkeeper", "Merchant", "Constable", "Small squire",
         "Great squire", "Small landlord", "Great landlord", "County magistrate", "Prefect's deputy",
         "Prefect", "Governor-general", "Provincial governor", "Chancellor", "Emperor"),
        strict=True,
    )
)  # fmt: skip
"""The peasant-to-emperor ladder, lowest first: (ladder points, 中文, English)."""

VEHICLES: tuple[tuple[int, str, str], ...] = tuple(
    zip(
        THRESHOLDS,
        ("滑板", "滑板车", "自行车", "三轮车", "电动车", "拖拉机", "摩托车", "面包车", "吉普车", "轿车", "越野车",
         "跑车", "房车", "大客车", "火车", "动车", "游艇", "邮轮", "直升机", "飞机", "战斗机", "航天飞机", "火箭"),
        ("Skateboard", "Kick scooter", "Bicycle", "Tricycle", "E-bike", "Tractor", "Motorbike", "Minivan",
         "Jeep", "Saloon car", "Off-roader", "Sports car", "Motorhome", "Coach", "Train", "Bullet train",
         "Yacht", "Cruise ship", "Helicopter", "Aeroplane", "Fighter jet", "Space shuttle", "Rocket"),
        strict=True,
    )
)  # fmt: skip
"""Shengji's vehicle ladder (QQ 升级), lowest first: (ladder points, 中文, English)."""

LADDERS: dict[str, tuple[tuple[int, str, str], ...]] = {
    "baohuang": PEASANTS,
    "shuangkou": PEASANTS,
    "shengji": VEHICLES,
}
"""Each game's ladder."""

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
    """The titles of ``game``, lowest first, their floors in the game's own points
    (a ladder threshold ÷ the game's scale, rounded up: the points where it is reached).

    >>> [t.name_en for t in ladder("shengji")][9], ladder("shengji")[19]
    ('Saloon car', Title(level=20, name_zh='飞机', name_en='Aeroplane', floor=10000, next_at=12500))
    """
    if game not in LADDERS:
        raise ValueError(f"unknown game {game!r}; games are {', '.join(sorted(LADDERS))}")
    steps = LADDERS[game]
    floors = [-(-threshold // SCALE[game]) for threshold, _, _ in steps]
    nexts: list[int | None] = [*floors[1:], None]
    return [
        Title(level, zh, en, floor, next_at)
        for level, ((_, zh, en), floor, next_at) in enumerate(zip(steps, floors, nexts), start=1)
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
