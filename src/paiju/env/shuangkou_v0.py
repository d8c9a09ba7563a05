"""双扣 Shuangkou as a PettingZoo AEC environment: ``paiju.env.shuangkou_v0.env(**options)``.

Agents ``player_0 … player_3`` are seats 0–3; seats 0 and 2 are one team, 1 and 3 the
other. One episode is one hand; the rewards at the end are the hand's scores
(``game.scores``), 0 before. ``reset(seed=s)`` deals the hand of ``new_game(seed=s)``.
Options are the game's room options (``min_triple_run``, ``four_joker_bomb``, points…).

Actions (``Discrete(N)``, N = 255 with the default options, 256 with ``four_joker_bomb``): the table is every play of
the room in the order of ``paiju.shuangkou.combos.valid_plays`` — singles 3…BJ, pairs
3…BJ, triples, bombs (4–8 cards of a rank), straights, pair runs, triple runs, then the
four jokers when ``four_joker_bomb`` — and last ``pass``. A play is its block
``(high rank, width, length)``; suits never matter. ``env.action_table[i]`` is the play
(``str`` gives its text). The mask marks exactly ``game.legal_actions()``.

Observation (float32, 163 numbers, every seat-indexed part is *relative*: index 0 is
the observing seat, 1 the next seat to act after it, 2 its partner, 3 the previous seat):

====== ===== ==========================================================
offset size  content
====== ===== ==========================================================
0      15    own hand: cards per strength 3 4 … A 2 SJ BJ
15     4     cards left per seat (relative)
19     4     seat to act, one-hot (relative; zeros when over)
23     4     leader of the current trick, one-hot (relative)
27     4     seat of the play to beat, one-hot (relative; zeros when leading)
31     8     type of the play to beat, one-hot (single, pair, triple, straight,
             pair_run, triple_run, bomb, four_jokers)
39     15    high rank of the play to beat, one-hot (strength)
54     2     width, length of the play to beat
56     60    cards played so far by each seat, per strength (4 × 15, relative)
116    4     finishing place of each seat (0 = still playing, 1 … 4; relative)
120    15    cards not seen by the observer: 8 per rank (2 per joker) minus own
             hand minus everything played
135    26    the current trick's plays, the 13 latest: (relative seat + 1, number of
             cards) each, zeros for unused slots
161    2     leading (1/0), hand over (1/0)
====== ===== ==========================================================

Everything comes from ``game.view(seat)``; another seat's cards never enter it.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from paiju.env._base import PaijuEnv, memo, one_hot
from paiju.game import PASS
from paiju.shuangkou.combos import NUM_STRENGTHS, valid_plays
from paiju.shuangkou.combos import strength as card_strength
from paiju.shuangkou.game import deck_cards

NUM_SEATS = 4
KINDS = ("single", "pair", "triple", "straight", "pair_run", "triple_run", "bomb", "four_jokers")
TRICK_SLOTS = 13
_TOTAL = np.array([8.0] * 13 + [2.0, 2.0], dtype=np.float32)
OBS_SIZE = 163


STRENGTH_OF_TEXT = {str(c): card_strength(c) for c in deck_cards()}
_COUNTS: dict[str, np.ndarray] = {}


def _count_cards(texts: list[str]) -> np.ndarray:
    got = np.zeros(NUM_STRENGTHS, dtype=np.float32)
    for t in texts:
        got[STRENGTH_OF_TEXT[t]] += 1
    return got


def _counts(text: str) -> np.ndarray:
    """Cards per strength of a card text as views write it (suited cards), memoised."""
    return memo(_COUNTS, text, lambda t: _count_cards(t.split()))


class ShuangkouEnv(PaijuEnv):
    """双扣 Shuangkou, one hand per episode (see the module doc for the encodings)."""

    game_name = "shuangkou"
    metadata = {"render_modes": ["human", "ansi"], "name": "shuangkou_v0", "is_parallelizable": False}

    def build_table(self, options: dict[str, Any]) -> list[Hashable]:
        return [*valid_plays(options["min_triple_run"], options["four_joker_bomb"]), PASS]

    def observation_size(self) -> int:
        return OBS_SIZE

    def encode(self, view: dict[str, Any], seat: int) -> np.ndarray:
        obs = np.zeros(OBS_SIZE, dtype=np.float32)
        rel = [(s - seat) % NUM_SEATS for s in range(NUM_SEATS)]  # seat -> relative index
        hand = _count_cards(view["hand"])
        obs[0:15] = hand
        for s, n in enumerate(view["hand_counts"]):
            obs[15 + rel[s]] = n
        to_act = view["to_act"]
        one_hot(obs, 19, None if to_act is None else rel[to_act])
        leader = view["leader"]
        one_hot(obs, 23, None if leader is None else rel[leader])
        last = view["last_play"]
        if last is not None:
            obs[27 + rel[last["seat"]]] = 1
            obs[31 + KINDS.index(last["type"])] = 1
            lc = _counts(last["cards"])
            held = np.nonzero(lc)[0]
            obs[39 + held[-1]] = 1
            obs[54] = lc[held[-1]]
            obs[55] = len(held)
        played = self.played_per_seat(view["events"], _counts, NUM_STRENGTHS)
        obs[56:116] = played[[(seat + k) % NUM_SEATS for k in range(NUM_SEATS)]].ravel()
        for place, s in enumerate(view["finished"], start=1):
            obs[116 + rel[s]] = place
        obs[120:135] = _TOTAL - hand - played.sum(axis=0)
        for k, e in enumerate(view["trick"][-TRICK_SLOTS:]):
            obs[135 + 2 * k] = rel[e["seat"]] + 1
            obs[136 + 2 * k] = len(e["cards"].split())
        obs[161] = 1.0 if to_act is not None and last is None else 0.0
        obs[162] = 1.0 if view["phase"] == "over" else 0.0
        return obs


def env(**options: Any) -> ShuangkouEnv:
    """A Shuangkou AEC environment; ``options`` are the game's room options plus
    ``render_mode`` ("human" or "ansi")."""
    return ShuangkouEnv(**options)


raw_env = ShuangkouEnv
