"""The ``heuristic`` bot: one rule-based player per game.

- Baohuang 保皇: :class:`paiju.bots.heuristic_baohuang.HeuristicBot`;
- Shengji 升级: :class:`paiju.bots.heuristic_shengji.ShengjiHeuristic`;
- Shuangkou 双扣: :class:`paiju.bots.heuristic_shuangkou.ShuangkouHeuristic`.

Each decides from the seat's view and the legal actions only.

>>> from paiju.bots import make_bot
>>> type(make_bot("heuristic", game="shuangkou")).__name__
'ShuangkouHeuristic'
"""

from __future__ import annotations

from typing import Any

from paiju.bots.base import Bot, register
from paiju.errors import IllegalAction


@register(
    "heuristic",
    "rule-based play for each game: Baohuang weighs its hand, saves jokers, never beats a partner and infers "
    "the hidden guard; Shengji counts cards and voids and leads to its partner; Shuangkou keeps bombs and "
    "plays to its partner",
)
def heuristic(game: str = "baohuang", seed: int | None = None, **_: Any) -> Bot:
    """The heuristic player of ``game``."""
    if game == "baohuang":
        from paiju.bots.heuristic_baohuang import HeuristicBot

        return HeuristicBot(game=game, seed=seed)
    if game == "shengji":
        from paiju.bots.heuristic_shengji import ShengjiHeuristic

        return ShengjiHeuristic(seed=seed)
    if game == "shuangkou":
        from paiju.bots.heuristic_shuangkou import ShuangkouHeuristic

        return ShuangkouHeuristic(seed=seed)
    raise IllegalAction(f"the heuristic bot does not know {game}")
