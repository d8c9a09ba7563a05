"""保皇 Baohuang as a PettingZoo AEC environment: ``paiju.env.baohuang_v0.env(**options)``.

Agents ``player_0 … player_4`` are seats 0–4. One episode is one hand, the pre-play
decisions (tribute picks, emperor, call, grab, reveal, rebel, kick) included; the rewards
at the end are the hand's scores (``game.scores``), 0 before. ``reset(seed=s)`` deals the
hand of ``new_game("baohuang", seed=s, **options)``. Options are the game's room options
(``variant``, ``kao``, ``hold_sixes``, …).

Actions (``Discrete(N)``; N = 9,413 ``standard``, 10,081 ``classic``, 7,118 ``weihai``,
10,136 ``qingdao``): the table is enumerated once from the options, in this order —

* ``pass``, then ``yield`` (only when ``yield_turn``);
* the declarations ``accept abdicate open_solo grab reveal rebel kick no``;
* ``call X`` for every suit+rank X the deck holds, 2s excepted (``guard="call"`` only);
* ``take X`` for every unmarked card kind X of the deck (``tribute`` only);
* the plays, as rank compositions ``(rank, n, small, big)``: ``n`` cards of one ordinary
  rank (strength 0 = 3 … 12 = 2; n from 1 to the deck's copies) plus ``small`` small and
  ``big`` big jokers (0–4 each), and the joker-only plays (rank −1, n = 0). Each play has
  a *role-card twin* ``(…, reveal=True)``: the same play made with the holder's hidden
  role card (the guard card ``SJ*`` with ``guard="card"``, the called card otherwise),
  which reveals the guard. Twins exist only for plays that can hold the role card.

``env.action_table[i]`` is the key (``("pass",)``, ``("yield",)``, ``("declare", name,
arg)``, ``("play", rank, n, small, big, reveal)``); ``env.action_text(i)`` a readable
text. The mask marks exactly the keys of ``game.legal_actions()`` (one engine action per
key; suits of plays are chosen by the engine, never mattering in Baohuang).

Observation (float32, 400 numbers). Seat-indexed parts are *relative*: index 0 is the
observing seat, 1 its next seat (下家), … 4 its previous seat (上家). A *card kind*
vector has 56 entries: suited cards ``strength × 4 + suit`` (strength 0 = 3 … 12 = 2;
suits s h d c), then SJ, BJ, SJ*, BJ*.

====== ===== ==========================================================
offset size  content
====== ===== ==========================================================
0      56    own hand, per card kind
56     5     cards left per seat
61     9     step, one-hot: tribute emperor call grab reveal rebel kick play over
70     5     seat to act, one-hot (zeros when over)
75     5     emperor, or holder of the emperor card before one is crowned
80     20    public role of each seat, 4 one-hot each: unknown emperor guard rebel
             (a seat sees its own role; the guard is public once revealed)
100    3     solo as known to the observer, one-hot: none, open, hidden
103    56    the called card (guard="call"), one-hot card kind
159    7     open guard 明保, rebellion, kicks, stake multiplier, attached cards
             count, number of deals, leading (1 when the seat to act leads)
166    56    cards attached to the emperor card (its holder only), per card kind
222    56    the tribute pool, per card kind
278    5     seat of the play to beat, one-hot (zeros when leading)
283    16    the play to beat: rank one-hot (13; zeros for jokers only), n, small, big
299    75    cards played so far by each seat, per strength 3 … 2 SJ BJ (5 × 15)
374    5     finishing place of each seat (0 = still playing)
379    15    cards not seen by the observer, per strength: the deck minus own hand
             minus all played cards
394    5     seats that declared rebellion 锄头 (1/0)
399    1     the hand is over
====== ===== ==========================================================

Everything comes from ``game.view(seat)``; another seat's cards and a hidden guard never
enter it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from typing import Any

import numpy as np

from paiju.baohuang.game import deck_cards
from paiju.baohuang.plays import STRENGTH_TEXT, Declare, Play, Yield, strength
from paiju.cards import BIG_JOKER, SMALL_JOKER, SUITS, Card
from paiju.env._base import PaijuEnv, cards_of, memo, one_hot
from paiju.game import Pass

NUM_SEATS = 5
NUM_KINDS = 56
STEPS = ("tribute", "emperor", "call", "grab", "reveal", "rebel", "kick", "play", "over")
ROLES = (None, "emperor", "guard", "rebel")
DECLARATIONS = ("accept", "abdicate", "open_solo", "grab", "reveal", "rebel", "kick", "no")
OBS_SIZE = 400
MAX_JOKERS = 4


def kind_of(card: Card) -> int:
    """Card kind index 0–55 (see the module doc)."""
    if card.rank == SMALL_JOKER:
        return 54 if card.marked else 52
    if card.rank == BIG_JOKER:
        return 55 if card.marked else 53
    assert card.suit is not None
    return strength(card) * 4 + SUITS.index(card.suit)


KIND_OF_TEXT: dict[str, int] = {}
for _r in range(2, 15):
    for _s in SUITS:
        KIND_OF_TEXT[str(Card(_r, _s))] = kind_of(Card(_r, _s))
for _c in (Card(SMALL_JOKER), Card(BIG_JOKER), Card(SMALL_JOKER, None, True), Card(BIG_JOKER, None, True)):
    KIND_OF_TEXT[str(_c)] = kind_of(_c)


def _kinds(texts: list[str]) -> np.ndarray:
    out = np.zeros(NUM_KINDS, dtype=np.float32)
    for t in texts:
        out[KIND_OF_TEXT[t]] += 1
    return out


KIND_STRENGTH = np.zeros((NUM_KINDS, 15), dtype=np.float32)
"""Card kind → strength: ``kinds @ KIND_STRENGTH`` counts cards per strength."""
for _k in range(52):
    KIND_STRENGTH[_k, _k // 4] = 1
KIND_STRENGTH[[52, 54], 13] = 1
KIND_STRENGTH[[53, 55], 14] = 1
_STRENGTHS: dict[str, np.ndarray] = {}


def _make_strengths(text: str) -> np.ndarray:
    got = np.zeros(15, dtype=np.float32)
    for c in cards_of(text):
        got[strength(c)] += 1
    return got


def _strengths(text: str) -> np.ndarray:
    """Cards per strength of a card text (plays: bare ranks allowed), memoised."""
    return memo(_STRENGTHS, text, _make_strengths)


class BaohuangEnv(PaijuEnv):
    """保皇 Baohuang, one hand per episode (see the module doc for the encodings)."""

    game_name = "baohuang"
    metadata = {"render_modes": ["human", "ansi"], "name": "baohuang_v0", "is_parallelizable": False}

    def build_table(self, options: dict[str, Any]) -> list[Hashable]:
        deck = deck_cards(options["deck"])
        copies = Counter(strength(c) for c in deck)
        suited = sorted({c for c in deck if not c.is_joker}, key=kind_of)
        keys: list[Hashable] = [("pass",)]
        if options["yield_turn"]:
            keys.append(("yield",))
        keys += [("declare", d, "") for d in DECLARATIONS]
        call = options["guard"] == "call"
        if call:
            keys += [("declare", "call", str(c)) for c in suited if c.rank != 2]
        if options["tribute"]:
            keys += [("declare", "take", str(c)) for c in [*suited, Card(SMALL_JOKER), Card(BIG_JOKER)]]

        def twin(rank: int, n: int, small: int) -> bool:
            return (n >= 1 and rank <= 11) if call else small >= 1

        for rank in range(-1, 13):
            ns = [0] if rank < 0 else range(1, copies[rank] + 1)
            for n in ns:
                for big in range(MAX_JOKERS + 1):
                    for small in range(MAX_JOKERS + 1):
                        if n + small + big == 0:
                            continue
                        keys.append(("play", rank, n, small, big, False))
                        if twin(rank, n, small):
                            keys.append(("play", rank, n, small, big, True))
        return keys

    def action_key(self, action: Any) -> Hashable:
        if isinstance(action, Play):
            rank = action.rank if action.n else -1
            return ("play", rank, action.n, action.small, action.big, action.reveal is not None)
        if isinstance(action, Declare):
            return ("declare", action.name, action.arg)
        if isinstance(action, Yield):
            return ("yield",)
        if isinstance(action, Pass):
            return ("pass",)
        raise TypeError(f"not a Baohuang action: {action!r}")

    def action_text(self, index: int) -> str:
        """A readable text of a table entry (``SJ 777``, ``SJ* 777``, ``call Ah``)."""
        key: Any = self.action_table[index]
        if key[0] == "play":
            _, rank, n, small, big, reveal = key
            text = str(Play(rank, n, small, big))
            return text + (" +role card" if reveal else "")
        if key[0] == "declare":
            return f"{key[1]} {key[2]}".strip()
        return str(key[0])

    def observation_size(self) -> int:
        return OBS_SIZE

    def encode(self, view: dict[str, Any], seat: int) -> np.ndarray:
        obs = np.zeros(OBS_SIZE, dtype=np.float32)
        rel = [(s - seat) % NUM_SEATS for s in range(NUM_SEATS)]
        hand = obs[0:56] = _kinds(view["hand"])
        for s, n in enumerate(view["hand_counts"]):
            obs[56 + rel[s]] = n
        obs[61 + STEPS.index(view["step"])] = 1
        to_act = view["to_act"]
        one_hot(obs, 70, None if to_act is None else rel[to_act])
        holder = view["emperor_card_holder"]
        one_hot(obs, 75, None if holder is None else rel[holder])
        for s, role in enumerate(view["roles"]):
            obs[80 + 4 * rel[s] + ROLES.index(role)] = 1
        obs[100 + (None, "open", "hidden").index(view["solo"])] = 1
        if view["called"] is not None:
            obs[103 + KIND_OF_TEXT[view["called"]]] = 1
        obs[159] = view["open_guard"]
        obs[160] = view["rebellion"]
        obs[161] = view["kicks"]
        obs[162] = view["multiplier"]
        obs[163] = view["attached"]
        obs[164] = view["deals"]
        obs[165] = view["leading"]
        if "attached_cards" in view:
            obs[166:222] = _kinds(view["attached_cards"])
        obs[222:278] = _kinds(view["tribute_pool"])
        last = view["last_play"]
        if last is not None:
            obs[278 + rel[last["seat"]]] = 1
            comp = _strengths(last["play"])
            ordinary = np.nonzero(comp[:13])[0]
            if len(ordinary):
                obs[283 + ordinary[0]] = 1
                obs[296] = comp[ordinary[0]]
            obs[297] = comp[13]
            obs[298] = comp[14]
        played = self.played_per_seat(view["events"], _strengths, 15)
        obs[299:374] = played[[(seat + k) % NUM_SEATS for k in range(NUM_SEATS)]].ravel()
        for place, s in enumerate(view["finished"], start=1):
            obs[374 + rel[s]] = place
        obs[379:394] = self._deck_strengths - hand @ KIND_STRENGTH - played.sum(axis=0)
        for s in view["rebels_declared"]:
            obs[394 + rel[s]] = 1
        obs[399] = view["phase"] == "over"
        return obs

    @property
    def _deck_strengths(self) -> np.ndarray:
        got = getattr(self, "_deck_s", None)
        if got is None:
            got = np.zeros(15, dtype=np.float32)
            for c in deck_cards(self.game.options["deck"]):
                got[strength(c)] += 1
            self._deck_s = got
        return got


def env(**options: Any) -> BaohuangEnv:
    """A Baohuang AEC environment; ``options`` are the game's room options plus
    ``render_mode`` ("human" or "ansi")."""
    return BaohuangEnv(**options)


raw_env = BaohuangEnv

__all__ = ["BaohuangEnv", "STRENGTH_TEXT", "env", "raw_env"]
