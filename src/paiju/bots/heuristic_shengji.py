"""The ``heuristic`` bot for Shengji 升级 / 拖拉机: a club player's rules of thumb.

It decides from its seat's view and the legal actions only (never the game), and reuses
the engine's pure rule functions (card order, units, the throw test, the trick winner):

- **Memory** — every card played is counted (``tricks`` and the current ``trick``), so the
  bot knows the *unseen* cards (not in its hand, not played, not buried by itself), which
  of its cards are the highest left in their suit ("boss" cards), which seats showed a
  void (did not follow suit) and which showed they hold no more pairs in a suit.
- **Declaring** 亮主 — a suit is declared when the cards so far make it a good trump suit
  (trumps, trump pairs and jokers; the cards still to come counted at the average rate, so
  a lone early level card is not enough), never blindly; an opponent's declaration is
  overturned only with a suit (or no-trump, with a joker pair) that is good for us and
  better for us than theirs; the partner's never; our own is reinforced 自保.
- **Burying** 扣底 — one card at a time from a plan: void short side suits, keep trumps,
  pairs, tractors and high cards; point cards (5, 10, K) only when voiding a suit pays.
- **Leading** — every unit of the hand (and every throw 甩牌 whose units all stand, i.e.
  no unseen card could beat them — a throw that could fail is never tried) is valued by
  its chance to win: boss units win unless an opponent ruffs, low cards to a suit where the
  partner is void let him ruff, leads into an opponent's known void are avoided.
- **Following** — a few candidate answers (every legal one when there are few; else the
  cheapest discard — the richest in points when the partner wins —, the same without
  trumps, the cheapest ruff and the highest ruff) are
  valued by the chance the team wins the trick, the points in it (and the kitty bonus on
  the last trick) and the worth of the cards spent: points go to a winning partner, the
  cheapest winner takes a trick with points from an opponent, low non-point cards go when
  the trick is lost.
- **Points** — the defenders' points are counted against the level thresholds: a trick
  that moves them across one weighs more.

>>> import paiju
>>> g = paiju.new_game("shengji", seed=4, decks=1)
>>> bots = [ShengjiHeuristic(seed=s) for s in range(4)]
>>> while not g.is_over:
...     g.apply(bots[g.to_act].act(g.view(g.to_act), g.legal_actions()))
>>> sum(g.scores)
0
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from paiju.shengji.actions import NO, Declare, Play
from paiju.shengji.options import PACK_SIZES
from paiju.shengji.scoring import kitty_multiplier, step_points
from paiju.shengji.sequences import Combos
from paiju.shengji.throw import can_beat
from paiju.shengji.trick import play_rank, ranks_above
from paiju.shengji.trump import (
    BJ_ID,
    COLOUR_ID,
    ID_RANK,
    ID_SUIT,
    ID_TEXT,
    NUM_IDS,
    POINTS,
    SJ_ID,
    TRUMP,
    TrumpOrder,
    rank_of_text,
    trump_order,
)
from paiju.shengji.units import TRIPLE, Unit, counts_of, decompose, match_tops, pair_orders, runs, shape_of

TEXT_ID = {t: i for i, t in enumerate(ID_TEXT)}

# ---- declaring: trump quality per card of the hand (see _quality)
AVERAGE_QUALITY = 0.38
"""The trump quality a random card brings on average (a suit, jokers and level cards);
the cards still to come are counted at this rate, so a lone early level card says little."""
DECLARE_AT = 0.47
"""Declare while dealing when the estimated trump quality per card reaches this …"""
DECLARE_LATE = 0.36
"""… or this once the deal is over (the last round of decisions)."""
OVERTURN_AT = 0.40
"""Overturn an opponent's declaration with a pair when the quality reaches this."""
STEAL_MARGIN = 0.08
"""``kitty_steal`` 抢底: steal when our suit beats the standing trump by this much."""

# ---- playing: values in points
LEAD_VALUE = 2.0
"""What winning a trick is worth beyond its points (the next lead)."""
EXPECTED_FOLLOW = 3.0
"""Points the other three are expected to add to a lead, per pack."""
VOID_BONUS = 7.0
"""Burying: the worth of a void in a side suit (the declarer can ruff it)."""
TRUMP_COST = 3.0
"""What spending the lowest trump costs, in points (each step up the trumps adds 0.3)."""
THROW_BONUS = 1.5
"""Per card of a standing throw: it cashes winners before the opponents can ruff them."""
UNIT_BONUS = 1.0
"""Per card of a standing pair or tractor led: it draws the opponents' pairs."""


def ids_of(text: str) -> list[int]:
    """Card ids of card text as written in a view (``"Th Th 9s"``)."""
    return [TEXT_ID[x] for x in text.split()]


def pack_counts(decks: int, colours: bool) -> list[int]:
    """How many copies of each card id the packs hold (``two_colours``: colour cards)."""
    out = [0] * NUM_IDS
    for c in range(NUM_IDS):
        out[COLOUR_ID[c] if colours else c] += decks
    return out


class _Memory:
    """Played cards and what the seats showed, counted trick by trick (kept between the
    decisions of one hand; rebuilt when the view's tricks are not the ones counted)."""

    __slots__ = ("first", "done", "played", "void", "nopair", "order")

    def __init__(self, t: TrumpOrder) -> None:
        self.first: Any = None
        self.done = 0
        self.played = [0] * NUM_IDS
        self.void = [[False] * 5 for _ in range(4)]
        self.nopair = [[False] * 5 for _ in range(4)]
        self.order = t

    def add_trick(self, plays: list[tuple[int, list[int]]]) -> None:
        """Count one trick (or the current one so far): cards, voids, pairs run out."""
        t = self.order
        psuit = t.psuit
        lead = plays[0][1]
        suit = psuit[lead[0]]
        shape = shape_of(decompose(counts_of(lead), t))
        need_pairs = sum(shape) if shape and shape[0] < TRIPLE else 0
        for c in lead:
            self.played[c] += 1
        for seat, cards in plays[1:]:
            for c in cards:
                self.played[c] += 1
            in_suit = [c for c in cards if psuit[c] == suit]
            if len(in_suit) < len(cards):
                self.void[seat][suit] = True
            elif need_pairs:
                shown = sum(k // 2 for k in counts_of(in_suit).values())
                if shown < need_pairs:  # pairs must be shown while held: none are left
                    self.nopair[seat][suit] = True


class ShengjiHeuristic:
    """Rule-based Shengji player (see the module doc): the registered ``heuristic`` bot
    for ``game="shengji"``."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self._memory: _Memory | None = None

    # ------------------------------------------------------------------ entry
    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        phase = view["phase"]
        if phase == "play":
            return _Decision(view, self._remember(view)).play(legal)
        if phase == "bury":
            return _bury(view, legal)
        return _declare(view, legal)

    def ranked(self, view: Mapping[str, Any], legal: Sequence[Any], k: int) -> list[Any]:
        """Up to ``k`` distinct plays in this player's order of preference, its choice
        first: the candidates the ``search`` bot compares."""
        out: list[Any] = []
        for p in _Decision(view, self._remember(view)).ranked(legal):
            if p not in out:
                out.append(p)
                if len(out) >= k:
                    break
        return out

    def _remember(self, view: Mapping[str, Any]) -> _Memory:
        t = _order_of(view)
        tricks = view["tricks"]
        m = self._memory
        if m is None or m.order is not t or not tricks or tricks[0] is not m.first or len(tricks) < m.done:
            m = self._memory = _Memory(t)
            m.first = tricks[0] if tricks else None
        for tr in tricks[m.done :]:
            m.add_trick([(p["seat"], ids_of(p["cards"])) for p in tr["plays"]])
        m.done = len(tricks)
        return m


def _order_of(view: Mapping[str, Any]) -> TrumpOrder:
    o = view["options"]
    return trump_order(view["trump_suit"], rank_of_text(view["level"]), bool(o["twos_trump"]), bool(o["triples"]))


def _hand_counts(view: Mapping[str, Any]) -> list[int]:
    cnt = [0] * NUM_IDS
    for x in view["hand"]:
        cnt[TEXT_ID[x]] += 1
    return cnt


# ---------------------------------------------------------------------- declaring
def _quality(cnt: list[int], suit: int | None, level: int, twos: bool) -> float:
    """Trump quality of a hand (count vector) if ``suit`` (0–3, None: no-trump) were trump:
    trumps, plus half a card per trump pair and per joker, plus a little for high trumps."""
    q = 0.0
    for c in range(NUM_IDS):
        k = cnt[c]
        if not k:
            continue
        r = ID_RANK[c]
        if c in (BJ_ID, SJ_ID):
            q += 1.5 * k
        elif r == level or (twos and r == 2 and level != 2):
            q += 1.25 * k
        elif ID_SUIT[c] == suit:
            q += k + (0.25 if r >= 13 else 0.0)
        else:
            continue
        if k >= 2:
            q += 0.5 * (k // 2)
    return q


def _declare(view: Mapping[str, Any], legal: Sequence[Any]) -> Any:
    """Deal (and ``kitty_steal``) decisions: declare a good suit, overturn an opponent with a
    clearly good one, reinforce our own, never overturn the partner."""
    options = [a for a in legal if isinstance(a, Declare) and a.name == "declare"]
    if not options:
        return NO if NO in legal else legal[0]
    me = view["seat"]
    cnt = _hand_counts(view)
    n = len(view["hand"])
    level = rank_of_text(view["level"])
    twos = bool(view["options"]["twos_trump"])
    decks = view["options"]["decks"]
    hand_size = PACK_SIZES[decks][0]
    standing = view.get("declaration")
    steal = view["phase"] == "steal"
    done = steal or view.get("cards_dealt", 0) >= 4 * hand_size

    def estimate(suit: int | None) -> float:
        q = _quality(cnt, suit, level, twos)
        if suit is None:  # no-trump: few trumps, judged by jokers, level cards and aces
            q = q * 2.2 + 0.4 * sum(cnt[c] for c in range(2, NUM_IDS) if ID_RANK[c] == 14)
        return (q + max(0, hand_size - n) * AVERAGE_QUALITY) / max(n, hand_size)

    def suit_of(a: Declare) -> int | None:
        cards = [c for c in ids_of(a.arg) if c not in (BJ_ID, SJ_ID)]
        return ID_SUIT[cards[0]] if cards else None

    scored = [(estimate(suit_of(a)), len(a.arg.split()), a) for a in options]
    best_q, _, best = max(scored, key=lambda x: (x[0], x[1]))
    if standing is None:
        return best if best_q >= (DECLARE_LATE if done else DECLARE_AT) else NO
    owner = standing["seat"]
    cur = [c for c in ids_of(standing["cards"]) if c not in (BJ_ID, SJ_ID)]
    cur_suit = ID_SUIT[cur[0]] if cur else None
    cur_q = estimate(cur_suit)
    if owner == me:  # reinforce 自保 while dealing (not to pick up our own kitty again) …
        if steal:
            return NO
        if suit_of(best) != cur_suit and best_q <= cur_q:  # … or 自反 only to a better suit
            same = [a for a in options if suit_of(a) == cur_suit]
            return same[0] if same else NO
        return best
    if owner % 2 == me % 2:
        return NO  # never overturn the partner
    if steal:
        return best if best_q >= max(DECLARE_LATE, cur_q + STEAL_MARGIN) else NO
    return best if best_q >= OVERTURN_AT and best_q > cur_q else NO


# ---------------------------------------------------------------------- burying
def _bury(view: Mapping[str, Any], legal: Sequence[Any]) -> Any:
    """One card of the burial plan: void short side suits, keep trumps, pairs and high cards."""
    t = _order_of(view)
    cnt = _hand_counts(view)
    slots = view["kitty_size"] - len(view.get("buried") or ())
    plan = bury_plan(cnt, slots, t)
    card = min(plan, key=lambda c: (_keep_value(c, cnt, t), c))
    text = ID_TEXT[card]
    for a in legal:
        if a.arg == text:
            return a
    return legal[0]  # pragma: no cover - the plan only holds cards of the hand


def _keep_value(c: int, cnt: list[int], t: TrumpOrder) -> float:
    """How much a card is worth keeping (burying)."""
    if t.psuit[c] == TRUMP:
        return 100.0 + t.order[c]
    v = float(t.order[c])
    v += {5: 3.0, 10: 6.0}.get(POINTS[c], 0.0)
    if cnt[c] >= 2:
        v += 8.0
    return v


def bury_plan(cnt: list[int], slots: int, t: TrumpOrder) -> list[int]:
    """The ``slots`` cards to bury from a hand (count vector): the cheapest set by
    :func:`_keep_value` after crediting :data:`VOID_BONUS` for each side suit emptied."""
    plain = [[c for c in t.kinds[s] for _ in range(cnt[c])] for s in range(4)]
    lengths = [len(p) for p in plain]
    best: tuple[float, list[int]] | None = None
    for mask in range(16):
        chosen: list[int] = []
        cost = 0.0
        ok = True
        for s in range(4):
            if mask >> s & 1:
                if not lengths[s]:
                    ok = False
                    break
                chosen += plain[s]
                cost += sum(_keep_value(c, cnt, t) for c in plain[s]) - VOID_BONUS
        if not ok or len(chosen) > slots:
            continue
        rest = sorted(
            (c for s in range(4) if not mask >> s & 1 for c in plain[s]),
            key=lambda c: (_keep_value(c, cnt, t), c),
        )
        fill = rest[: slots - len(chosen)]
        cost += sum(_keep_value(c, cnt, t) for c in fill)
        chosen += fill
        if len(chosen) < slots:  # too few side cards: the lowest trumps too
            trumps = [c for c in t.kinds[TRUMP] for _ in range(cnt[c])]
            trumps.sort(key=lambda c: (_keep_value(c, cnt, t), c))
            extra = trumps[: slots - len(chosen)]
            cost += sum(_keep_value(c, cnt, t) for c in extra)
            chosen += extra
        if best is None or cost < best[0]:
            best = (cost, chosen)
    assert best is not None
    return best[1]


# ---------------------------------------------------------------------- playing
class _Decision:
    """One play decision: the view read into card counts, voids and the trick so far."""

    def __init__(self, view: Mapping[str, Any], memory: _Memory) -> None:
        self.t = t = memory.order
        self.me: int = view["seat"]
        self.partner = (self.me + 2) % 4
        o = view["options"]
        self.decks: int = o["decks"]
        self.step = step_points(self.decks, o.get("level_step", 0))
        self.how: str = o["throw_evaluation"]
        self.declarer: int = view["declarer"]
        self.defending = self.me % 2 != self.declarer % 2
        self.cnt = cnt = _hand_counts(view)
        self.hand_n = len(view["hand"])
        self.trick = [(p["seat"], ids_of(p["cards"])) for p in view["trick"]]
        self.void = [list(v) for v in memory.void]
        self.nopair = [list(v) for v in memory.nopair]
        played = list(memory.played)
        if self.trick:
            cur = _Memory(t)
            cur.void, cur.nopair = self.void, self.nopair
            cur.add_trick(self.trick)
            for c in range(NUM_IDS):
                played[c] += cur.played[c]
        unseen = pack_counts(self.decks, bool(o["two_colours"]))
        if not o["kitty_steal"]:  # (with steals the cards buried may have been picked up)
            for x in view.get("buried") or ():
                unseen[TEXT_ID[x]] -= 1
        for c in range(NUM_IDS):
            unseen[c] -= played[c] + cnt[c]
        self.unseen = unseen
        self.unseen_in = [sum(unseen[c] for c in t.kinds[s]) for s in range(5)]
        self.defender_points: int = view["defender_points"] + view.get("penalty_points", 0)
        self.kitty_size: int = view["kitty_size"]
        self.multiplier: str = o["kitty_multiplier"]
        # cards held in pairs / tractors (spending them breaks a unit)
        self.paired = [False] * NUM_IDS
        self.tractor = [False] * NUM_IDS
        for s in range(5):
            mine = {c: cnt[c] for c in t.kinds[s] if cnt[c]}
            if not mine:
                continue
            for u in decompose(mine, t):
                if u.pairs or u.triples:
                    for c in u.cards:
                        self.paired[c] = True
                        if u.pairs >= 2 or u.triples >= 2:
                            self.tractor[c] = True

    # -------------------------------------------------------------- knowledge
    def others(self) -> list[int]:
        return [(self.me + k) % 4 for k in (1, 2, 3)]

    def higher_unseen(self, suit: int, code: int, top: int) -> int:
        """Unseen units of the kind ``code`` (0 single, 1 pair, k tractor) above ``top`` in
        ``suit``, counted loosely (kinds for singles and pairs, runs for tractors)."""
        t = self.t
        unseen = self.unseen
        order = t.order
        if code == 0:
            return sum(unseen[c] for c in t.kinds[suit] if order[c] > top)
        pool = {c: unseen[c] for c in t.kinds[suit] if unseen[c]}
        if code >= TRIPLE:
            return sum(1 for c, k in pool.items() if k >= 3 and order[c] > top)
        if code == 1:
            return sum(1 for c, k in pool.items() if k >= 2 and order[c] > top)
        return sum(1 for rt, ln in runs(pair_orders(pool, t)) if ln >= code and rt > top)

    def p_void(self, seat: int, suit: int) -> float:
        """Chance that ``seat`` holds none of ``suit`` (known from its plays, else guessed)."""
        if self.void[seat][suit]:
            return 1.0
        u = self.unseen_in[suit]
        if u == 0:
            return 1.0
        return 0.7**u * 0.8

    def risk(self, seat: int, lead_suit: int, code: int, play_suit: int, top: int) -> float:
        """Chance that ``seat`` (still to play) beats a winning play whose leading unit is
        ``code`` with top order ``top`` in ``play_suit`` (a ruff when it is not the lead's)."""
        shape_f = 1.0 if code == 0 else 0.5 if code == 1 else 0.25
        if play_suit == lead_suit:
            in_risk = 0.0
            if not self.void[seat][lead_suit] and not (code and code < TRIPLE and self.nopair[seat][lead_suit]):
                h = self.higher_unseen(lead_suit, code, top)
                if h:
                    in_risk = 1 - (0.62 if code == 0 else 0.85 if code == 1 else 0.93) ** h
            ruff = 0.0
            if lead_suit != TRUMP and not self.void[seat][TRUMP] and self.unseen_in[TRUMP]:
                ruff = self.p_void(seat, lead_suit) * 0.85 * shape_f
            return 1 - (1 - in_risk) * (1 - ruff)
        # a ruff: over-ruffed only by a seat void in the led suit with a higher trump unit
        if self.void[seat][TRUMP]:
            return 0.0
        h = self.higher_unseen(TRUMP, code, top)
        if not h:
            return 0.0
        return self.p_void(seat, lead_suit) * (1 - (0.6 if code == 0 else 0.85) ** h)

    def boss(self, c: int) -> bool:
        """No unseen card of its play-suit is higher."""
        t = self.t
        o = t.order[c]
        return not any(self.unseen[x] for x in t.kinds[t.psuit[c]] if t.order[x] > o)

    def cost(self, c: int) -> float:
        """What spending a card costs, in points (trumps and high cards are worth more)."""
        t = self.t
        if t.psuit[c] == TRUMP:
            v = TRUMP_COST + 0.3 * t.order[c]
        else:
            v = 0.3 + 0.22 * t.order[c]
            if self.boss(c):
                v += 1.5
        if self.tractor[c]:
            v += 2.5
        elif self.paired[c]:
            v += 1.5
        return v

    def point_weight(self, pts: float) -> float:
        """Points of a trick, weighted up when they move the defenders across a threshold."""
        if not pts:
            return 0.0
        step = self.step
        d = self.defender_points
        crosses = (d // step) != ((d + int(pts)) // step) or d == 0
        return pts + (0.25 * step if crosses else 0.0)

    def kitty_bonus(self, code: int, cards: int, trump: bool) -> float:
        """Half the kitty bonus 抠底 when a play of ``cards`` cards, won by a ``trump`` play or
        not, is the last trick (it swings the bonus between the teams): the room's
        ``kitty_multiplier`` on a unit of shape ``code``."""
        if cards < self.hand_n:
            return 0.0
        unseen_pts = sum(POINTS[c] * self.unseen[c] for c in range(NUM_IDS))
        unseen_n = max(1, sum(self.unseen))
        est = unseen_pts * self.kitty_size / unseen_n
        pairs = min(code, 3) if code < TRIPLE else 1
        mult = kitty_multiplier(pairs, self.multiplier, throw=cards > max(1, 2 * pairs), trump=trump)
        return 0.5 * est * mult

    # -------------------------------------------------------------- play
    def play(self, legal: Sequence[Any]) -> Any:
        return self.ranked(legal)[0]

    def ranked(self, legal: Sequence[Any]) -> list[Any]:
        """The plays this player considers, its choice first."""
        if not self.trick:
            return [p for _, p in self.lead_options()]
        return self.follow(legal)

    # ............................................................ leading
    def lead(self, legal: Sequence[Any]) -> Any:
        return self.lead_options()[0][1]

    def lead_options(self) -> list[tuple[float, Play]]:
        """Every unit of the hand (and each throw that stands) with its value, best first."""
        t = self.t
        cnt = self.cnt
        options: list[tuple[float, tuple[int, ...]]] = []
        for s in range(5):
            mine = {c: cnt[c] for c in t.kinds[s] if cnt[c]}
            if not mine:
                continue
            units = decompose(mine, t)
            standing: list[Unit] = []
            for u in units:
                v, stands = self.lead_value(s, u)
                if stands:
                    standing.append(u)
                options.append((v, u.cards))
            if len(standing) >= 2 and self.throw_stands(standing):
                v = self.throw_value(s, standing)
                options.append((v, tuple(c for u in standing for c in u.cards)))
        assert options
        # stable on ties: the first option found wins, as a plain max would pick it
        order = sorted(range(len(options)), key=lambda i: -options[i][0])
        return [(options[i][0], Play(tuple(sorted(options[i][1])))) for i in order]

    def unit_stands(self, s: int, u: Unit) -> bool:
        """No other hand could beat this unit in its suit (the throw test, on every unseen
        card as one hand; seats shown void, or without pairs, cannot)."""
        live = [o for o in self.others() if not self.void[o][s]]
        if not live:
            return True
        if (u.pairs or u.triples == 1) and all(self.nopair[o][s] for o in live):
            return True
        pool = {c: self.unseen[c] for c in self.t.kinds[s] if self.unseen[c]}
        return not can_beat(u, pool, self.t)

    def throw_stands(self, units: list[Unit]) -> bool:
        """The units put together split as the engine will split them, each standing."""
        cards = [c for u in units for c in u.cards]
        t = self.t
        return all(self.unit_stands(t.psuit[cards[0]], u) for u in decompose(counts_of(cards), t))

    def lead_value(self, s: int, u: Unit) -> tuple[float, bool]:
        """Value of leading one unit, and whether it stands in its suit."""
        stands = self.unit_stands(s, u)
        code = u.code
        opps = [(self.me + 1) % 4, (self.me + 3) % 4]
        hold = 1.0
        for o in opps:
            hold *= 1 - (self.risk(o, s, code, s, u.top) if not stands else self._ruff_only(o, s, code))
        rescue = 0.0
        if hold < 1:
            p = self.partner
            if s != TRUMP and self.void[p][s] and not self.void[p][TRUMP]:
                rescue = 0.6 * (1 - max(self.p_void(o, s) for o in opps))
            elif not self.void[p][s]:
                rescue = 0.25 * (1 - self.p_void(p, s))
        pw = hold + (1 - hold) * rescue
        pts = sum(POINTS[c] for c in u.cards)
        bonus = self.kitty_bonus(code, u.size, trump=s == TRUMP)
        gain = self.point_weight(pts + EXPECTED_FOLLOW * self.decks) + LEAD_VALUE + bonus
        spent = sum(self.cost(c) for c in u.cards)
        v = (2 * pw - 1) * gain - (1 - pw) * spent
        if stands and u.size > 1:
            v += UNIT_BONUS * u.size  # a standing pair or tractor draws the opponents' pairs
        if s == TRUMP:
            v += self.trump_lead_bonus(u, stands)
        return v, stands

    def _ruff_only(self, o: int, s: int, code: int) -> float:
        if s == TRUMP or self.void[o][TRUMP] or not self.unseen_in[TRUMP]:
            return 0.0
        shape_f = 1.0 if code == 0 else 0.5 if code == 1 else 0.25
        return self.p_void(o, s) * 0.85 * shape_f

    def trump_lead_bonus(self, u: Unit, stands: bool) -> float:
        """Drawing trumps 调主 pays for the side with more of them, with its big ones."""
        mine = sum(self.cnt[c] for c in self.t.kinds[TRUMP])
        opps = [(self.me + 1) % 4, (self.me + 3) % 4]
        live = [o for o in opps if not self.void[o][TRUMP]]
        if not live:
            return -3.0  # nothing to draw
        share = self.unseen_in[TRUMP] / 3
        if mine >= 1.5 * share and stands:
            return 2.0
        if mine >= 2 * share:
            return 1.0
        return -1.0

    def throw_value(self, s: int, units: list[Unit]) -> float:
        """Value of throwing 甩牌 every standing unit of a suit: it wins unless ruffed."""
        code = units[0].code
        hold = 1.0
        for o in ((self.me + 1) % 4, (self.me + 3) % 4):
            hold *= 1 - self._ruff_only(o, s, code) * (0.8 if len(units) > 2 else 1.0)
        cards = [c for u in units for c in u.cards]
        pts = sum(POINTS[c] for c in cards)
        bonus = self.kitty_bonus(code, len(cards), trump=s == TRUMP)
        gain = self.point_weight(pts + EXPECTED_FOLLOW * self.decks) + LEAD_VALUE + bonus
        spent = sum(self.cost(c) for c in cards)
        return (2 * hold - 1) * gain - (1 - hold) * spent + THROW_BONUS * len(cards)

    # ............................................................ following
    def follow(self, legal: Sequence[Any]) -> list[Any]:
        t = self.t
        lead = self.trick[0][1]
        suit = t.psuit[lead[0]]
        shape = shape_of(decompose(counts_of(lead), t))
        ranks = [play_rank(tuple(p), suit, shape, t) for _, p in self.trick]
        wi = 0
        for i in range(1, len(ranks)):
            r = ranks[i]
            if r is not None and ranks_above(r, ranks[wi], self.how):  # type: ignore[arg-type]
                wi = i
        best_rank = ranks[wi]
        assert best_rank is not None
        winner = self.trick[wi][0]
        later = [(self.me + k) % 4 for k in range(1, 4 - len(self.trick))]
        later_opps = [o for o in later if o % 2 != self.me % 2]
        n = len(lead)
        trick_pts = sum(POINTS[c] for _, p in self.trick for c in p)
        code = shape[0]
        bonus = {trump: self.kitty_bonus(code, n, trump) for trump in (False, True)}  # by the winning play

        def hold_prob(play_suit: int, top: int) -> float:
            p = 1.0
            for o in later_opps:
                p *= 1 - self.risk(o, suit, code, play_suit, top)
            return p

        win_suit = TRUMP if best_rank[0] else suit
        if winner == self.partner:
            p_lose_play = hold_prob(win_suit, best_rank[1][0])
        elif self.partner in later:
            p_lose_play = self.risk(self.partner, suit, code, win_suit, best_rank[1][0]) * 0.8
        else:
            p_lose_play = 0.0

        def value(play: tuple[int, ...]) -> float:
            r = play_rank(play, suit, shape, t)
            if r is not None and ranks_above(r, best_rank, self.how):
                p = hold_prob(TRUMP if r[0] else suit, r[1][0])
                trump = bool(r[0]) or suit == TRUMP
            else:
                p = p_lose_play
                trump = win_suit == TRUMP
            pts = trick_pts + sum(POINTS[c] for c in play)
            gain = self.point_weight(pts) + LEAD_VALUE + bonus[trump]
            return (2 * p - 1) * gain - sum(self.cost(c) for c in play)

        cands = self.candidates(legal, suit, shape, n, best_rank, p_lose_play)
        return sorted(cands, key=lambda p: (value(p.cards), -sum(p.cards)), reverse=True)

    def candidates(
        self,
        legal: Sequence[Any],
        suit: int,
        shape: tuple[int, ...],
        n: int,
        best_rank: tuple[int, list[int]],
        p_lose_play: float,
    ) -> list[Play]:
        """A few answers worth comparing (every legal one when there are few)."""
        if len(legal) <= 24:
            return list(legal)
        t = self.t
        out: list[Play] = []
        lean = 2 * p_lose_play - 1  # > 0: points help us (partner winning)

        def score(c: int) -> float:
            return self.cost(c) - lean * POINTS[c]

        if isinstance(legal, Combos):
            fixed, pool, k = legal.fixed, legal.pool, legal.k
            cards = sorted((c for c, m in pool for _ in range(m)), key=lambda c: (score(c), c))
            out.append(Play(tuple(sorted(fixed + tuple(cards[:k])))))
            plain_first = sorted(cards, key=lambda c: (t.psuit[c] == TRUMP, score(c), c))
            out.append(Play(tuple(sorted(fixed + tuple(plain_first[:k])))))
            void = not fixed and all(t.psuit[c] != suit for c, _ in pool)
            if void and suit != TRUMP:  # void in the led suit: ruff
                trumps = {c: self.cnt[c] for c in t.kinds[TRUMP] if self.cnt[c]}
                if sum(trumps.values()) >= n:
                    thr = best_rank[1][0] if best_rank[0] else -1
                    for high in (False, True):
                        r = self.build_ruff(trumps, shape, thr, high)
                        if r is not None:
                            out.append(Play(tuple(sorted(r))))
            return out
        plays = list(legal)
        plays.sort(key=lambda p: sum(score(c) for c in p.cards))
        out = plays[:12]
        plays.sort(key=lambda p: -max(t.order[c] for c in p.cards))
        out += plays[:12]
        return out

    def build_ruff(self, trumps: dict[int, int], shape: tuple[int, ...], thr: int, high: bool) -> list[int] | None:
        """A trump play with the lead's structure whose leading unit tops ``thr``: the lowest
        such (or, ``high``, with the highest leading unit), the other units the cheapest."""
        t = self.t
        if shape and shape[0] >= TRIPLE:
            return None
        order = t.order
        left = dict(trumps)
        out: list[int] = []
        for i, k in enumerate(shape):
            if k == 0:
                break
            floor = thr if i == 0 else -1
            got = self._take_pairs_above(left, k, floor, high and i == 0)
            if got is None:
                return None
            out += got
        singles = shape.count(0)
        if singles:
            rest = sorted((c for c, m in left.items() for _ in range(m)), key=lambda c: (self.cost(c), order[c]))
            if len(rest) < singles:
                return None
            if shape[0] == 0:
                above = [c for c in rest if order[c] > thr]
                if not above:
                    return None
                first = max(above, key=lambda c: order[c]) if high else min(above, key=lambda c: (order[c], c))
                rest.remove(first)
                out += [first] + rest[: singles - 1]
            else:
                out += rest[:singles]
        tops = match_tops(counts_of(out), shape, t)
        if tops is None or tops[0] <= thr:
            return None
        return out

    def _take_pairs_above(self, left: dict[int, int], k: int, floor: int, high: bool) -> list[int] | None:
        """Take a pair (k = 1) or a tractor of k pairs with top above ``floor`` from ``left``:
        the lowest (or the highest, ``high``); its cards, or None."""
        t = self.t
        order = t.order
        by_order: dict[int, list[int]] = {}
        for c, m in left.items():
            if m >= 2:
                by_order.setdefault(order[c], []).append(c)
        tops = sorted((o for o in by_order if o > floor), reverse=high)
        for top in tops:
            if all(top - j in by_order for j in range(k)):
                cards: list[int] = []
                for j in range(k):
                    c = min(by_order[top - j], key=lambda x: (self.paired[x] and self.tractor[x], x))
                    left[c] -= 2
                    cards += [c, c]
                return cards
        return None


__all__ = ["ShengjiHeuristic", "bury_plan", "ids_of", "pack_counts"]
