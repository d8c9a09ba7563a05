"""paiju 牌局: rules engines for 保皇 Baohuang, 升级 Shengji and 双扣 Shuangkou behind one
game interface (see ``docs/api.md``).

>>> import paiju
>>> g = paiju.new_game("baohuang", seed=7)
>>> g.to_act in range(5), len(g.legal_actions()) > 0
(True, True)
"""

from paiju import baohuang, beans, shengji, shuangkou, titles
from paiju.cards import Card, format_cards, packs, parse_cards
from paiju.errors import IllegalAction
from paiju.game import Game
from paiju.match import Match
from paiju.registry import GAMES, new_game, new_match, replay

__version__ = "0.2.0"

__all__ = [
    "GAMES",
    "Card",
    "Game",
    "IllegalAction",
    "Match",
    "baohuang",
    "beans",
    "shengji",
    "shuangkou",
    "titles",
    "format_cards",
    "new_game",
    "new_match",
    "packs",
    "parse_cards",
    "replay",
]
