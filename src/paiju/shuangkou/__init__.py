"""双扣 Shuangkou: four players in two teams of partners 对家, two packs, climbing plays
(singles, pairs, triples, straights, pair runs, triple runs, bombs). The rules are in
``docs/rules/shuangkou.md``; this package is their reference implementation.

>>> import paiju
>>> g = paiju.new_game("shuangkou", seed=7)
>>> g.num_players, g.phase, [len(g.hand(s)) for s in range(4)]
(4, 'play', [27, 27, 27, 27])
>>> beats("TJQKA", "34567"), combination("555666777")
(True, 'triple_run')

Modules: ``options`` (room options), ``combos`` (combinations 牌型, comparing, the plays of
a hand), ``scoring`` (双扣 / 单扣 / 平扣), ``policy`` (托管 and 提示), ``game`` (the state
machine). Each module's docstring lists the [decision]s taken where the spec is silent.
"""

from paiju.shuangkou.combos import (
    KIND_NAMES,
    PASS,
    LeadPlays,
    Pass,
    Play,
    beats,
    combination,
    follow_plays,
    parse_play,
    play_beats,
    valid_plays,
)
from paiju.shuangkou.game import Shuangkou, deck_cards, next_leader
from paiju.shuangkou.options import describe_options, resolve_options
from paiju.shuangkou.policy import hint, hints, hosted_action
from paiju.shuangkou.scoring import RESULT_NAMES, hand_result, hand_scores
from paiju.shuangkou.tracker import tracker

__all__ = [
    "KIND_NAMES",
    "PASS",
    "RESULT_NAMES",
    "LeadPlays",
    "Pass",
    "Play",
    "Shuangkou",
    "beats",
    "combination",
    "deck_cards",
    "describe_options",
    "follow_plays",
    "hand_result",
    "hand_scores",
    "hint",
    "hints",
    "hosted_action",
    "next_leader",
    "parse_play",
    "play_beats",
    "resolve_options",
    "tracker",
    "valid_plays",
]
