"""升级 / 拖拉机 Shengji (Tractor, "80 points"): four players in two teams of partners,
one to three packs, trumps declared during the deal, tricks with pairs, tractors and
throws. The rules are in ``docs/rules/shengji.md``; this package implements them.

>>> import paiju
>>> g = paiju.new_game("shengji", seed=7)
>>> g.num_players, g.phase, len(g.hand(g.to_act))
(4, 'deal', 1)
"""

from paiju.shengji.actions import NO, Declare, Play
from paiju.shengji.game import Shengji, team_of
from paiju.shengji.helpers import is_legal_follow, resolve_throw, trick_winner
from paiju.shengji.options import describe_options, resolve_options
from paiju.shengji.policy import bury_hint, hint, hints, hosted_action
from paiju.shengji.scoring import kitty_multiplier, level_change
from paiju.shengji.sequences import Combos, LeadPlays
from paiju.shengji.tracker import tracker

__all__ = [
    "NO",
    "Combos",
    "Declare",
    "LeadPlays",
    "Play",
    "Shengji",
    "bury_hint",
    "describe_options",
    "hint",
    "hints",
    "hosted_action",
    "is_legal_follow",
    "kitty_multiplier",
    "level_change",
    "resolve_options",
    "resolve_throw",
    "team_of",
    "tracker",
    "trick_winner",
]
