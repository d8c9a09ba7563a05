"""The ``heuristic`` bot for 双扣 Shuangkou: a club player's rules of thumb.

It decides from its seat's view and the legal actions only (never the game):

- **Plan the hand** — :func:`plan` splits the cards into the fewest plays (straights 顺子,
  pair runs 连对, triple runs 连三张, triples, pairs, singles; no run holds a 2 or a joker)
  and never breaks a bomb 炸弹; a high set (A, 2, jokers) counts as a part-won trick.
- **Lead** — go out when the whole hand is one play; when every piece but one wins its
  trick (card counting from the public events), cash those first; otherwise lead the
  lowest, most awkward piece and keep the control cards (A and up) for later. An opponent
  with one or two cards is not led a play he could answer. When the partner 对家 is about
  to go out, lead him a low single (and going out ourselves, 接风 hands him the lead).
- **Follow** — never beat the partner's play unless it takes us out; beat an opponent
  with the play that hurts the plan least, even a split pair or run (keeping the tempo
  pays in this game), but pass when it would cost more than a whole extra play, and never
  take a bomb apart for it.
- **Bombs** — only when it matters and nothing else beats: the opponent who would lead
  next holds few cards (about to go out, or into the end game), or the bomb leaves a hand
  we run out with. Never on the partner's play, whole bombs first, the smallest that beats.

Scoring (spec §5) goes to the team of the *first* finisher, more when the partner is next
(双扣 3, 单扣 2, 平扣 1): so the bot blocks opponents near the end and helps a partner out.

>>> import paiju
>>> g = paiju.new_game("shuangkou", seed=4)
>>> bots = [ShuangkouHeuristic() for _ in range(4)]
>>> while not g.is_over:
...     g.apply(bots[g.to_act].act(g.view(g.to_act), g.legal_actions()))
>>> sum(g.scores)
0
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from paiju.game import Pass
from paiju.shuangkou.combos import BJ, FOUR_JOKERS_PLAY, NUM_STRENGTHS, ROW, RUN_RANKS, SJ, TWO, Play

_STRENGTH_OF_CHAR = {t: i for i, t in enumerate("3456789TJQKA2")}
_COPIES = [8] * 13 + [2, 2]
"""Cards of each strength in the two packs."""

# control value of a piece by its top strength: J … BJ often win their trick
_CONTROL = [0.0] * 8 + [0.05, 0.1, 0.2, 0.3, 0.45, 0.55, 0.65]
_RUN_CONTROL = [0.0] * 8 + [0.05, 0.1, 0.2, 0.3]

DANGER = 7
"""An opponent holding at most this many cards is about to go out: block him at any cost
(even with a bomb that must be broken)."""
FOLLOW_GAIN = -1.0
"""Follow an opponent when it changes the plan's cost by at least this much (1 = one low
play fewer; -1 = one more play). Tuned in self-play: eager following keeps the tempo."""
PARTNER_FEED = 3
"""When leading with a partner holding at most this many cards, lead him a low single."""
BOMB_DANGER = 10
"""Bomb (a whole bomb) when the opponent who would lead next holds at most this many."""
LEAD_GUARD = 2
"""Do not lead a play of at most k cards to an opponent holding k ≤ this many."""


def counts_of(hand: Sequence[str]) -> list[int]:
    """Cards held of each strength (3 … A, 2, SJ, BJ) for a hand written as in a view."""
    c = [0] * NUM_STRENGTHS
    for card in hand:
        if card[0] == "B":
            c[BJ] += 1
        elif card[0] == "S":
            c[SJ] += 1
        else:
            c[_STRENGTH_OF_CHAR[card[0]]] += 1
    return c


def piece_cost(p: Play) -> float:
    """What a plan piece costs: one trick to win or shed, less for high (control) cards;
    a bomb costs nothing (it wins its trick and the lead)."""
    if p.is_bomb:
        return 0.0
    if p.length == 1:
        return 1.0 - _CONTROL[p.high]
    return 1.0 - _RUN_CONTROL[p.high]


_Plan = tuple[float, tuple[Play, ...]]
_CACHE: dict[tuple[int, ...], _Plan] = {}
_CACHE_MAX = 50_000


def _plan_runs(c: list[int], mtr: int) -> _Plan:
    """Best split of the strengths 3 … A (``c``, 12 counts; changed and restored)."""
    key = (*c, mtr)
    got = _CACHE.get(key)
    if got is not None:
        return got
    r = 0
    while r < RUN_RANKS and not c[r]:
        r += 1
    if r == RUN_RANKS:
        best: _Plan = (0.0, ())
    else:
        n = c[r]
        # the lowest rank as one set (or bomb) of its own ...
        c[r] = 0
        piece = ROW[n][1][r]
        sub = _plan_runs(c, mtr)
        c[r] = n
        best = (sub[0] + piece_cost(piece), (piece, *sub[1]))
        # ... or the start of a straight / pair run / triple run (never out of a bomb)
        for w, shortest in ((1, 5), (2, 3), (3, mtr)):
            end = r
            while end < RUN_RANKS and c[end] >= w and (c[end] < 4 or c[end] - w >= 4):
                end += 1
            for top in range(r + shortest - 1, end):
                for k in range(r, top + 1):
                    c[k] -= w
                sub = _plan_runs(c, mtr)
                for k in range(r, top + 1):
                    c[k] += w
                piece = ROW[w][top - r + 1][top]
                cost = sub[0] + piece_cost(piece)
                if cost < best[0] - 1e-9:
                    best = (cost, (piece, *sub[1]))
    if len(_CACHE) >= _CACHE_MAX:
        _CACHE.clear()
    _CACHE[key] = best
    return best


def plan(counts: Sequence[int], min_triple_run: int = 3, four_joker_bomb: bool = False) -> _Plan:
    """The cheapest split of a hand (per-strength ``counts``) into plays: ``(cost, pieces)``.
    Bombs stay whole; 2s and jokers are sets of their own (no run holds them).

    >>> [str(p) for p in plan(counts_of("3s 4s 5s 6s 7s 7h 7d 9s 9h 9d 9c BJ".split()))[1]]
    ['34567', '77', '9999', 'BJ']
    """
    cost, pieces = _plan_runs(list(counts[:RUN_RANKS]), min_triple_run)
    extra: list[Play] = []
    if counts[TWO]:
        extra.append(ROW[counts[TWO]][1][TWO])
    if four_joker_bomb and counts[SJ] == 2 and counts[BJ] == 2:
        extra.append(FOUR_JOKERS_PLAY)
    else:
        extra += [ROW[counts[r]][1][r] for r in (SJ, BJ) if counts[r]]
    return cost + sum(piece_cost(p) for p in extra), pieces + tuple(extra)


def _without(c: Sequence[int], p: Play) -> list[int]:
    out = list(c)
    for r in range(p.low, p.high + 1):
        out[r] -= p.width
    return out


def _beatable(p: Play, unseen: Sequence[int]) -> bool:
    """Could the unseen cards answer ``p`` with a non-bomb of its shape?"""
    w, n = p.width, p.length
    if n == 1:
        return any(unseen[r] >= w for r in range(p.high + 1, NUM_STRENGTHS if w <= 2 else SJ))
    run = 0
    for r in range(RUN_RANKS):
        run = run + 1 if unseen[r] >= w else 0
        if run >= n and r > p.high:
            return True
    return False


class ShuangkouHeuristic:
    """A club player's rules of thumb for Shuangkou (see the module doc); the registered
    ``heuristic`` bot (:mod:`paiju.bots.heuristic`) plays Shuangkou with it."""

    name = "heuristic"
    danger = DANGER
    follow_gain = FOLLOW_GAIN
    partner_feed = PARTNER_FEED
    lead_guard = LEAD_GUARD
    bomb_danger = BOMB_DANGER

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)  # the rules are deterministic; kept for the interface

    # ------------------------------------------------------------------ reading the view
    @staticmethod
    def _unseen(view: Mapping[str, Any], mine: Sequence[int]) -> list[int]:
        """Cards of each strength neither in our hand nor played yet (card counting)."""
        left = [_COPIES[r] - mine[r] for r in range(NUM_STRENGTHS)]
        for e in view["events"]:
            cards = e.get("cards")
            if cards:
                for card in cards.split():
                    if card[0] == "B":
                        left[BJ] -= 1
                    elif card[0] == "S":
                        left[SJ] -= 1
                    else:
                        left[_STRENGTH_OF_CHAR[card[0]]] -= 1
        return left

    # ------------------------------------------------------------------ entry
    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        c = counts_of(view["hand"])
        opts = view["options"]
        mtr, fj = opts.get("min_triple_run", 3), bool(opts.get("four_joker_bomb", False))
        if view["last_play"] is None:
            return self._lead(view, legal, c, mtr, fj)
        return self._follow(view, legal, c, mtr, fj)

    # ------------------------------------------------------------------ lead
    def _lead(self, view: Mapping[str, Any], legal: Sequence[Any], c: list[int], mtr: int, fj: bool) -> Any:
        _, pieces = plan(c, mtr, fj)
        if len(pieces) == 1 and pieces[0] in legal:
            return pieces[0]  # the whole hand: out
        me, mate = view["seat"], view["partner"]
        counts = view["hand_counts"]
        normal = [p for p in pieces if not p.is_bomb]
        bombs = [p for p in pieces if p.is_bomb]
        if not normal:
            return min(bombs, key=_bomb_key)
        # opponents who could go out over a lead, or take it with a small piece
        near = [counts[s] for s in range(4) if s % 2 != me % 2 and 0 < counts[s] <= self.lead_guard]
        unseen = self._unseen(view, c)
        tops = [p for p in normal if not _beatable(p, unseen)]
        if len(normal) - len(tops) <= 1 and tops:
            # every piece but one wins its trick: take the tricks, the last piece goes out
            return max(tops, key=lambda p: p.size)
        if len(normal) == 1:
            return normal[0]  # the bombs win it back if it is beaten
        if counts[mate] and counts[mate] <= self.partner_feed and len(normal) > 2 and not near:
            # feed the partner: a low single he can beat to go out
            low = min(r for r in range(NUM_STRENGTHS) if c[r])
            if c[low] != 4:
                return ROW[1][1][low]
        safe = [p for p in normal if not near or p.size > max(near)]
        if not safe:
            # every piece can be answered: lead the one least likely to be
            return max(normal, key=lambda p: (p in tops, p.high, p.size))
        return min(safe, key=self.lead_key)

    @staticmethod
    def lead_key(p: Play) -> tuple[int, float]:
        """Lead order: low, awkward pieces first, control cards (A and up) last."""
        return (int(p.length == 1 and p.high >= 11), p.high - 0.1 * p.size)

    # ------------------------------------------------------------------ follow
    def _follow(self, view: Mapping[str, Any], legal: Sequence[Any], c: list[int], mtr: int, fj: bool) -> Any:
        pass_ = next((a for a in legal if isinstance(a, Pass)), None)
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return pass_ if pass_ is not None else legal[0]
        size = sum(c)
        for p in plays:
            if p.size == size:
                return p  # out
        me, mate = view["seat"], view["partner"]
        counts = view["hand_counts"]
        owner = view["last_play"]["seat"]
        if owner == mate:
            return pass_ if pass_ is not None else plays[0]
        now, _ = plan(c, mtr, fj)
        opponents = [s for s in range(4) if s % 2 != me % 2]
        opp_min = min((counts[s] for s in opponents if counts[s]), default=99)
        # who gets the lead if the trick stands: the owner, or his partner 接风 if he is out
        taker = owner if counts[owner] else (owner + 2) % 4
        danger = counts[taker] <= self.danger or opp_min <= 2

        # never take a bomb apart to follow: a bomb wins a trick of its own later
        normal = [
            p
            for p in plays
            if not p.is_bomb and not any(0 < c[r] - p.width < 4 for r in range(p.low, p.high + 1) if c[r] >= 4)
        ]
        best: Play | None = None
        best_gain = -99.0
        for p in normal:
            after, pieces = plan(_without(c, p), mtr, fj)
            gain = now - after
            if sum(1 for q in pieces if not q.is_bomb) <= 1:
                gain += 2.0  # it leaves a hand that goes out in one more lead
            if gain > best_gain + 1e-9:
                best, best_gain = p, gain
        if best is not None:
            if danger or best_gain >= self.follow_gain:
                return best
        bombs = [p for p in plays if p.is_bomb]
        if bombs:
            bomb = min(bombs, key=lambda p: _bomb_cost(c, p))
            after, pieces = plan(_without(c, bomb), mtr, fj)
            left = sum(1 for q in pieces if not q.is_bomb)
            broken = bool(_bomb_cost(c, bomb)[0])
            if self.should_bomb(counts[taker], opp_min, left, len(pieces) - left, broken):
                return bomb
        return pass_ if pass_ is not None else plays[0]

    def should_bomb(self, taker: int, opp_min: int, left: int, spare: int, broken: bool) -> bool:
        """Bomb an opponent's play that nothing else beats? ``taker``: cards of the opponent
        who leads if it stands, ``opp_min``: the fewest cards an opponent holds, ``left`` /
        ``spare``: non-bomb pieces / bombs we keep after it, ``broken``: it breaks a bomb."""
        if taker <= self.danger or opp_min <= 2:
            return True  # he is about to go out: even a broken bomb is worth it
        if broken:
            return False
        if left <= 1 or (left <= 2 and spare >= 1):
            return True  # the lead is ours and we run out
        return taker <= self.bomb_danger  # he would lead into the end game


def _bomb_key(p: Play) -> tuple[int, int]:
    return (p.size if p != FOUR_JOKERS_PLAY else 99, p.high)


def _bomb_cost(c: Sequence[int], p: Play) -> tuple[int, int, int]:
    """Smaller is cheaper: whole bombs before broken ones, then the weakest."""
    broken = int(p != FOUR_JOKERS_PLAY and 0 < c[p.high] - p.width < 4)
    return (broken, *_bomb_key(p))
