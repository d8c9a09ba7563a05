"""保皇 Baohuang ("Protect the Emperor"): five players, four packs, an emperor and his
hidden guard against the rebels. The rules are in ``docs/rules/baohuang.md``; this
package is their reference implementation.

>>> import paiju
>>> g = paiju.new_game("baohuang", seed=7)
>>> g.num_players, g.phase
(5, 'setup')
"""

from paiju.baohuang.game import PLACE_NAMES, Baohuang, LeadPlays, deck_cards
from paiju.baohuang.options import PRESETS, describe_options, resolve_options
from paiju.baohuang.plays import YIELD, Declare, Play, Yield, beats, parse_play
from paiju.baohuang.policy import hint, hints, hosted_action
from paiju.baohuang.scoring import hand_scores, tribute_plan
from paiju.baohuang.tracker import tracker
from paiju.game import PASS, Pass

__all__ = [
    "PASS",
    "PLACE_NAMES",
    "PRESETS",
    "YIELD",
    "Baohuang",
    "Declare",
    "LeadPlays",
    "Pass",
    "Play",
    "Yield",
    "beats",
    "deck_cards",
    "describe_options",
    "hand_scores",
    "hint",
    "hints",
    "hosted_action",
    "parse_play",
    "resolve_options",
    "tracker",
    "tribute_plan",
]
