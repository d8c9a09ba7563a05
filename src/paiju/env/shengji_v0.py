"""升级 Shengji as a PettingZoo AEC environment: ``paiju.env.shengji_v0.env(**options)``.

Agents ``player_0 … player_3`` are seats 0–3 (teams 0+2 and 1+3). One episode is one hand:
declarations during the deal, burying the kitty, the tricks. The rewards at the end are
the hand's scores (``game.scores``: the level change, + for the team that went up),
0 before. ``reset(seed=s)`` deals the hand of ``new_game("shengji", seed=s, **options)``.

Actions (``Discrete(N)``, N = 56 + declaration shapes: 66 for two packs, 60 for one): a play in Shengji is
any legal multiset, so plays are **picked one card at a time**:

====== ============================================================================
index  meaning
====== ============================================================================
0–53   a card id (``paiju.shengji.trump.ID_TEXT``: 0 BJ, 1 SJ, then ♠A … ♠2, ♥A …,
       ♦A …, ♣A … ♣2). In ``play``: add one copy of that card to the seat's pending
       selection. In ``bury``: bury that card (``bury Xy``).
54     ``done``: play the pending selection (the game's ``apply``).
55     ``no``: no declaration (deal and kitty-steal rounds).
56…    ``declare``: one entry per declaration *shape* — level cards of suit s/h/d/c
       × n (1 … packs; with ``two_colours`` only h/s, n up to 2 × packs), each also
       with a shown SJ or BJ when ``declare_with_joker``;
       then SJ × n and BJ × n (n = 2 … packs). ``env.action_table[i]`` is the key
       ``("declare", "h", 2, "")``; the level is the hand's, so the cards follow.
====== ============================================================================

The mask is exact: in ``play`` a card is masked in only if the pending selection plus
that card can still be completed to a legal play, and ``done`` only when the pending
selection is itself a legal play (a lead: any non-empty multiset of one play-suit; a
follow: the game's own follow rules — the exact set of legal plays the engine gives).
Picks never reach a dead end. A pick is an environment step that does not change the
game; the same agent acts again until ``done``. Outside ``play`` the mask marks exactly
``game.legal_actions()``.

Observation (float32, 833 numbers). Seat-indexed parts are relative (index 0 is the
observer, 1 the next seat, 2 the partner, 3 the previous seat); *per id* parts have 54
entries in card id order.

====== ===== ==========================================================
offset size  content
====== ===== ==========================================================
0      54    own hand, per id
54     54    the pending selection (this seat's picks of the play being built)
108    4     cards held per seat
112    5     phase, one-hot: deal bury steal play over
117    4     seat to act, one-hot (zeros when over)
121    4     declarer 庄家, one-hot (zeros while unknown)
125    6     trump suit one-hot (s h d c, no-trump), trump settled (1/0)
131    13    the level being played, one-hot 2 … A
144    26    level of the observer's team, then of the other team, one-hot 2 … A
170    58    standing declaration: seat (4), cards per id (54)
228    2     cards dealt so far, kitty size
230    54    the kitty card revealed to set trump, one-hot
284    54    kitty picked up by the observer (declarer / stealer only), per id
338    54    cards the observer buried, per id
392    216   the current trick: cards each seat played in it (4 × 54)
608    4     leader of the current trick, one-hot
612    216   cards played by each seat in the finished tricks (4 × 54)
828    5     defenders' points, throw penalty points (may be < 0), leading (1/0), observer's team
             declares (1/0, 0 while unknown), a failed throw stands in this trick
====== ===== ==========================================================

Everything comes from ``game.view(seat)`` (plus the agent's own pending picks); another
seat's cards never enter it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from paiju.cards import RANKS, SUITS
from paiju.env._base import PaijuEnv, memo, one_hot
from paiju.shengji.actions import NO, Declare, Play
from paiju.shengji.sequences import Combos, LeadPlays
from paiju.shengji.trump import ID_TEXT, NUM_IDS

NUM_SEATS = 4
DONE = NUM_IDS
NO_INDEX = NUM_IDS + 1
PHASES = ("deal", "bury", "steal", "play", "over")
OBS_SIZE = 833
ID_OF_TEXT = {t: i for i, t in enumerate(ID_TEXT)}
JOKERS = ("SJ", "BJ")


def _ids(texts: Sequence[str], out: np.ndarray) -> None:
    for t in texts:
        out[ID_OF_TEXT[t]] += 1


def _text_ids(text: str, out: np.ndarray) -> None:
    if text:
        _ids(text.split(), out)


_ID_COUNTS: dict[str, np.ndarray] = {}


def _make_id_counts(text: str) -> np.ndarray:
    got = np.zeros(NUM_IDS, dtype=np.float32)
    _text_ids(text, got)
    return got


def _id_counts(text: str) -> np.ndarray:
    """Cards per id of a card text, memoised."""
    return memo(_ID_COUNTS, text, _make_id_counts)


def declaration_key(arg: str) -> tuple[str, str, int, str]:
    """The table key of ``declare <arg>``: (``declare``, suit or joker, n, shown joker)."""
    tokens = arg.split()
    plain = [t for t in tokens if t not in JOKERS]
    if not plain:
        return ("declare", tokens[0], len(tokens), "")
    shown = [t for t in tokens if t in JOKERS]
    return ("declare", plain[0][-1], len(plain), shown[0] if shown else "")


def pickable(legal: Sequence[Play], pending: Counter[int]) -> list[int]:
    """The card ids that keep ``pending`` completable to a play of ``legal``: those some
    legal play holds more copies of than ``pending`` does, among the plays that contain
    ``pending``. (The engine's lazy sets are read by their structure, lists play by play.)"""
    if isinstance(legal, LeadPlays):  # any non-empty multiset of one play-suit
        out: set[int] = set()
        for group in legal._groups:
            held = dict(group)
            if all(held.get(c, 0) >= k for c, k in pending.items()):
                out.update(c for c, k in group if k > pending[c])
        return sorted(out)
    if isinstance(legal, Combos):  # all the fixed cards plus k from the pool (disjoint)
        fixed = Counter(legal.fixed)
        extra = pending - fixed
        picks = {c for c, k in fixed.items() if k > pending[c]}
        if sum(extra.values()) < legal.k:
            picks.update(c for c, k in legal.pool if k > extra[c])
        return sorted(picks)
    out = set()
    for p in legal:
        got = Counter(p.cards)
        if not pending - got:
            out.update(c for c, k in got.items() if k > pending[c])
    return sorted(out)


def completes(legal: Sequence[Play], pending: Counter[int]) -> bool:
    """Is ``pending`` itself a legal play of ``legal``?"""
    return bool(pending) and Play(tuple(sorted(pending.elements()))) in legal


class ShengjiEnv(PaijuEnv):
    """升级 Shengji, one hand per episode (see the module doc for the encodings)."""

    game_name = "shengji"
    metadata = {"render_modes": ["human", "ansi"], "name": "shengji_v0", "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, **options: Any) -> None:
        self._pending: Counter[int] = Counter()
        super().__init__(render_mode=render_mode, **options)

    def build_table(self, options: dict[str, Any]) -> list[Hashable]:
        packs = options["decks"]
        keys: list[Hashable] = [("card", c) for c in range(NUM_IDS)]
        keys += [("done",), ("no",)]
        shown = ["", "SJ", "BJ"] if options["declare_with_joker"] else [""]
        # two_colours: ♦ plays as ♥ and ♣ as ♠, so a colour has twice a suit's copies
        suits, copies = ("hs", 2 * packs) if options["two_colours"] else (SUITS, packs)
        for s in suits:
            for n in range(1, copies + 1):
                keys += [("declare", s, n, j) for j in shown]
        for j in JOKERS:
            keys += [("declare", j, n, "") for n in range(2, packs + 1)]
        return keys

    def action_key(self, action: Any) -> Hashable:
        if isinstance(action, Declare):
            if action.name == "no":
                return ("no",)
            if action.name == "bury":
                return ("card", ID_OF_TEXT[action.arg])
            return declaration_key(action.arg)
        raise TypeError(f"plays are picked card by card, they have no table entry: {action!r}")

    def attach(self, game: Any, pending: Any = None) -> None:
        super().attach(game)
        self._pending = Counter() if pending is None else pending

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._pending = Counter()
        super().reset(seed=seed, options=options)

    def legal_map(self) -> dict[int, Any]:
        if self._legal_at != self._steps:
            g = self.game
            if g.to_act is None:
                self._legal = {}
            elif g.phase == "play":
                legal = g.legal_actions()
                pend = self._pending
                out: dict[int, Any] = {c: c for c in pickable(legal, pend)}
                if completes(legal, pend):
                    out[DONE] = Play(tuple(sorted(pend.elements())))
                self._legal = out
            else:
                index, key = self.action_index, self.action_key
                self._legal = {index[key(a)]: a for a in g.legal_actions()}
            self._legal_at = self._steps
        return self._legal

    def _act(self, index: int) -> None:
        action = self.decode(index)
        if self.game.phase == "play" and index < NUM_IDS:
            self._pending[index] += 1
            return
        self.game.apply(action)
        self._pending = Counter()

    def action_text(self, index: int) -> str:
        key: Any = self.action_table[index]
        if key[0] == "card":
            return ID_TEXT[key[1]]
        if key[0] == "declare":
            return f"declare {key[2]} × {key[1]}" + (f" with {key[3]}" if key[3] else "")
        return str(key[0])

    def observation_size(self) -> int:
        return OBS_SIZE

    def cards_of_entry(self, entry: dict[str, Any]) -> list[tuple[int, str]]:
        return [(e["seat"], e["cards"]) for e in entry["plays"]]  # a finished trick

    def encode(self, view: dict[str, Any], seat: int) -> np.ndarray:
        obs = np.zeros(OBS_SIZE, dtype=np.float32)
        rel = [(s - seat) % NUM_SEATS for s in range(NUM_SEATS)]
        _ids(view["hand"], obs[0:54])
        if seat == view["to_act"] and view["phase"] == "play":
            for c, k in self._pending.items():
                obs[54 + c] = k
        for s, n in enumerate(view["hand_counts"]):
            obs[108 + rel[s]] = n
        obs[112 + PHASES.index(view["phase"])] = 1
        to_act = view["to_act"]
        one_hot(obs, 117, None if to_act is None else rel[to_act])
        declarer = view["declarer"]
        one_hot(obs, 121, None if declarer is None else rel[declarer])
        if view["trump_settled"]:
            trump = view["trump_suit"]
            obs[125 + (4 if trump is None else SUITS.index(trump))] = 1
            obs[130] = 1
        obs[131 + RANKS.index(view["level"])] = 1
        levels = view["team_levels"]
        obs[144 + RANKS.index(levels[seat % 2])] = 1
        obs[157 + RANKS.index(levels[1 - seat % 2])] = 1
        bid = view["declaration"]
        if bid is not None:
            obs[170 + rel[bid["seat"]]] = 1
            _text_ids(bid["cards"], obs[174:228])
        obs[228] = view["cards_dealt"]
        obs[229] = view["kitty_size"]
        if view["revealed_kitty_card"] is not None:
            obs[230 + ID_OF_TEXT[view["revealed_kitty_card"]]] = 1
        _ids(view.get("kitty_received", ()), obs[284:338])
        _ids(view.get("buried", ()), obs[338:392])
        trick = obs[392:608].reshape(NUM_SEATS, NUM_IDS)
        for e in view["trick"]:
            _text_ids(e["cards"], trick[rel[e["seat"]]])
        if view["trick"]:
            obs[608 + rel[view["trick"][0]["seat"]]] = 1
        played = self.played_per_seat(view["tricks"], _id_counts, NUM_IDS)
        obs[612:828] = played[[(seat + k) % NUM_SEATS for k in range(NUM_SEATS)]].ravel()
        obs[828] = view["defender_points"]
        obs[829] = view["penalty_points"]
        obs[830] = view["leading"]
        obs[831] = declarer is not None and declarer % 2 == seat % 2
        obs[832] = view["failed_throw"] is not None
        return obs


def env(**options: Any) -> ShengjiEnv:
    """A Shengji AEC environment; ``options`` are the game's room options plus
    ``render_mode`` ("human" or "ansi")."""
    return ShengjiEnv(**options)


raw_env = ShengjiEnv

__all__ = ["DONE", "NO", "NO_INDEX", "ShengjiEnv", "env", "raw_env"]
