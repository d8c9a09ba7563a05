"""Worlds: whole games consistent with what one seat knows (for determinized search).

During trick play a seat of 升级 knows its own hand, every card count, the declarations
shown, trump, every trick played (with the failed throws 甩牌失败) and, if it buried the
kitty 底牌, the kitty. :func:`sample_world` deals the cards it cannot see at random among
the other hands and the kitty, consistently with what the hand has shown:

- counts: every hand its size, the kitty ``kitty_size`` cards, the packs exactly;
- voids: a seat that did not follow a led play-suit (trumps are one suit: jokers, level
  cards, 2s with ``twos_trump``) holds none of it — the kitty is not bound by this;
- follow obligations: a seat that followed a pair or tractor without showing all the
  structure it had to holds no more than it showed (no pair, no tractor …);
- throws: a throw that stood proves no other seat could beat any of its units; a failed
  throw proves the same of the units the engine would have reduced it to first, that some
  seat could beat the unit it was reduced to, and that the leader held the whole attempt;
- declarations: a seat still holds the cards it declared with, unless it played them — the
  seat that buried the kitty may have buried them (they are then in the kitty); the kitty
  card revealed by ``no_bid: kitty_card:n`` was picked up by the declarer likewise.

The world is built directly in the play-phase state (like :meth:`Shengji.clone`): its
tricks, declarations and points are the view's, its hidden hands one guess, and
``world.view(seat) == view`` entirely. The facts become per-card bounds (seat ``s`` holds
at most ``k`` of card ``c``; this copy is in ``s``'s hand, or in ``s``'s hand or the
kitty); cards are dealt to the hidden places one by one, the most constrained first, each
to a place drawn with odds its free room, never to a place that would make the rest
impossible (Hall's condition over the ≤ 4 hidden places). The rarer whole-hand facts (no
higher tractor, follow obligations with some pairs shown, "some seat could beat it") are
checked on the result and the deal redrawn when one fails. :class:`WorldSampler` draws
the facts of one view once and deals many worlds of it.

Not exact: with ``kitty_steal`` 抢底 the declarations are not tied to hands (a card shown
may have been buried and picked up by a stealer); the last burier is the last declarer
when that declaration must have been a steal, else the declarer. A world's ``record()``
is not a replayable record (its action log starts at the sampled state). Before the play
(the deal with its declarations, the burial) :func:`world_sampler` gives the sampler of
:mod:`paiju.shengji.worlds_deal` instead. :class:`WorldSampler` raises
:class:`CannotSample` for a spectator, outside the play phase, for a view no deal matches
(more cards than the packs hold), and when no deal honours the facts above in
:data:`MAX_TRIES` draws.

>>> import random, paiju
>>> g = paiju.new_game("shengji", seed=4)
>>> while g.phase != "play":
...     g.apply(g.legal_actions()[0])
>>> for _ in range(5):
...     g.apply(g.legal_actions()[0])
>>> w = sample_world(g.view(g.to_act), random.Random(1))
>>> w.to_act == g.to_act and w.hand(g.to_act) == g.hand(g.to_act)
True
>>> w.view(g.to_act) == g.view(g.to_act)
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from paiju.cards import SUITS, Card
from paiju.errors import IllegalAction
from paiju.shengji.declare import Bid, strength
from paiju.shengji.game import NUM_SEATS, Shengji
from paiju.shengji.throw import can_beat
from paiju.shengji.trump import BJ_ID, COLOUR_ID, ID_SUIT, ID_TEXT, NUM_IDS, SJ_ID, card_id, rank_of_text, trump_order
from paiju.shengji.units import TRIPLE, counts_of, decompose, obligation, shape_of
from paiju.shengji.worlds_base import CannotSample, _ids, _pack
from paiju.shengji.worlds_deal import DealSampler

MAX_TRIES = 40
"""Deals drawn for one world before giving up (a deal is redrawn when a check fails)."""

CHECKED = (
    "to_act",
    "phase",
    "level",
    "team_levels",
    "declarer",
    "trump_suit",
    "hand_counts",
    "declarations",
    "revealed_kitty_card",
    "trick",
    "failed_throw",
    "tricks",
    "defender_points",
    "penalty_points",
    "leading",
    "legal_count",
    "legal_actions",
    "kitty_received",
    "buried",
)
"""View entries a world reproduces exactly (in fact the whole view is reproduced)."""

_NO_CAP = 9  # more copies than any pack set holds


# ---------------------------------------------------------------------- dealing under bounds
# Places (hidden hands, the kitty) are bits of a mask; a card copy may go to the places of
# its mask. _CHECK[k][mask][p]: the subsets S of the k places that hold p but not the whole
# mask — the Hall slacks a copy of that mask put at p uses up.
_CHECK: list[list[list[tuple[int, ...]]]] = [
    [[tuple(S for S in range(1, 1 << k) if S >> p & 1 and mask & ~S) for p in range(k)] for mask in range(1 << k)]
    for k in range(5)
]
_BITS = [tuple(p for p in range(4) if m >> p & 1) for m in range(16)]
_POP = [len(b) for b in _BITS]


def _deal(copies: list[tuple[int, int]], room: list[int], rng: random.Random) -> list[list[int]] | None:
    """Put every ``(card, mask)`` copy into a place of its mask, place ``p`` getting exactly
    ``room[p]`` cards; None when impossible. Constrained copies go first, each to a place
    drawn with odds its free room among the places that keep the rest possible."""
    k = len(room)
    full = (1 << k) - 1
    free: list[int] = []
    tight: list[tuple[int, int]] = []
    demand = [0] * (1 << k)
    for c, m in copies:
        if m == full:
            free.append(c)
        else:
            if not m:
                return None
            tight.append((c, m))
            demand[m] += 1
    slack = [0] * (1 << k)
    for S in range(1, 1 << k):
        slack[S] = sum(room[p] for p in _BITS[S]) - sum(demand[A] for A in range(1, 1 << k) if not A & ~S)
        if slack[S] < 0:
            return None
    if slack[full] != len(free):
        return None
    rng.shuffle(tight)
    tight.sort(key=lambda cm: _POP[cm[1]])
    rem = list(room)
    out: list[list[int]] = [[] for _ in range(k)]
    check = _CHECK[k]
    for c, m in tight:
        total = 0
        cands: list[int] = []
        for p in _BITS[m]:
            if rem[p] and all(slack[S] > 0 for S in check[m][p]):
                cands.append(p)
                total += rem[p]
        if not cands:  # pragma: no cover - Hall's condition holds after every placement
            return None
        x = rng.random() * total
        for p in cands:
            x -= rem[p]
            if x < 0:
                break
        for S in check[m][p]:
            slack[S] -= 1
        rem[p] -= 1
        out[p].append(c)
    rng.shuffle(free)
    i = 0
    for p in range(k):
        out[p] += free[i : i + rem[p]]
        i += rem[p]
    return out


def _follow_bounds(
    shown: dict[int, int], shape: tuple[int, ...], got: list[tuple[int, int]], kinds: tuple[int, ...]
) -> list[tuple[list[int], int]]:
    """Per-card bounds ``(cards, k)`` on a follower's cards of the led suit (before it
    played) implied by a follow that showed only ``got`` of the lead's structure: when a
    unit with pairs was answered with fewer pairs than it has, the follower had no pair
    but those it played; with triples, no triple when it showed none (§9 follow order)."""
    others = [c for c in kinds if shown.get(c, 0) < 2]
    if shape[0] < TRIPLE:
        if any(tm == 0 and pm < k for (tm, pm), k in zip(got, shape)):
            return [(others, 1)]
        return []
    if len(shape) != 1:
        return []
    level = got[0][1]
    if level == 0:  # three or six singles: no pair at all
        return [(list(kinds), 1)]
    if shape[0] == TRIPLE + 1 or level == 2:  # pair + single, or two pairs + singles: no triple
        return [(list(kinds), 2)]
    if level == 1:  # 泰坦尼克 led, a pair + singles shown: no triple, no second pair
        return [(list(kinds), 2), (others, 1)]
    if level == 3:  # a triple + singles: no other pair
        return [([c for c in kinds if shown.get(c, 0) < 3], 1)]
    return []


_BLANKS: dict[str, Shengji] = {}


def _blank(options: Mapping[str, Any]) -> Shengji:
    """A fresh game with these options (a clone of one kept per options: building a game
    shuffles and orders a deal)."""
    key = repr(sorted(options.items()))
    g = _BLANKS.get(key)
    if g is None:
        try:
            g = Shengji(seed=0, **options)
        except IllegalAction as e:
            raise CannotSample(f"the view's options are not a Shengji room: {e}") from None
        if len(_BLANKS) > 64:
            _BLANKS.clear()
        _BLANKS[key] = g
    return g.clone()


def _buriers(view: Mapping[str, Any], o: Mapping[str, Any], decls: list[tuple[int, tuple[int, ...]]]) -> list[int]:
    """The seats that may have buried the kitty last, the likelier first. Without
    ``kitty_steal`` 抢底 the declarer; with it, the seat of the last declaration when that
    was a steal — sure when the deal's last declarer became declarer (the defaults of a
    first hand), or when it is this seat (it buried then); else the declarer first."""
    declarer, me = view["declarer"], view["seat"]
    if not o["kitty_steal"] or not decls or decls[-1][0] == declarer:
        return [declarer]
    last = decls[-1][0]
    if o["declarer"] is None and o["overturn_changes_declarer"]:
        return [last]
    if last == me:
        return [me] if "kitty_received" in view else [declarer]
    return [declarer, last]


# ---------------------------------------------------------------------- the sampler
class WorldSampler:
    """What one view proves about the hidden cards, ready to deal many worlds.

    ``WorldSampler(view).sample(rng)`` is :func:`sample_world` without reading the view
    again (a search samples many worlds of one view)."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        me = view.get("seat")
        if me is None:
            raise CannotSample("a spectator has no seat to sample a world for")
        if view.get("phase") != "play":
            raise CannotSample(f"worlds are sampled during play, not in the {view.get('phase')} phase")
        self.me: int = me
        template = _blank(view["options"])
        o = template.options
        self.options = o
        level = rank_of_text(view["level"])
        t = trump_order(view["trump_suit"], level, o["twos_trump"], o["triples"])
        self.t = t
        declarer: int = view["declarer"]
        self.declarer = declarer
        decls = [(d["seat"], _ids(d["cards"])) for d in view["declarations"]]
        revealed = view.get("revealed_kitty_card")
        revealed_id = _ids(revealed)[0] if revealed else None

        # the tricks: (plays, attempt), the current trick last
        tricks: list[tuple[list[tuple[int, tuple[int, ...]]], tuple[int, ...] | None]] = []
        for tr in view["tricks"]:
            ft = tr.get("failed_throw")
            tricks.append(([(p["seat"], _ids(p["cards"])) for p in tr["plays"]], _ids(ft) if ft else None))
        current = [(p["seat"], _ids(p["cards"])) for p in view["trick"]]
        if current:
            ft = view.get("failed_throw")
            tricks.append((current, _ids(ft) if ft else None))
        # when each seat played each card: played_at[s][c] = trick indices
        played_at: list[dict[int, list[int]]] = [{} for _ in range(NUM_SEATS)]
        for i, (plays, _) in enumerate(tricks):
            for s, ids in plays:
                for c in ids:
                    played_at[s].setdefault(c, []).append(i)
        self._played_at = played_at

        mine = [0] * NUM_IDS
        for x in view["hand"]:
            mine[_ids(x)[0]] += 1
        self.mine = mine

        # who buried the kitty last (a guess among the possible seats when kitty_steal hides it)
        errors: list[CannotSample] = []
        for burier in _buriers(view, o, decls):
            try:
                self._prepare(view, template, burier, decls, tricks, revealed_id, level)
                return
            except CannotSample as e:
                errors.append(e)
        raise errors[0]

    def _prepare(
        self,
        view: Mapping[str, Any],
        template: Shengji,
        burier: int,
        decls: list[tuple[int, tuple[int, ...]]],
        tricks: list[tuple[list[tuple[int, tuple[int, ...]]], tuple[int, ...] | None]],
        revealed_id: int | None,
        level: int,
    ) -> None:
        me, o, t, mine, declarer, played_at = self.me, self.options, self.t, self.mine, self.declarer, self._played_at
        has_kitty = "kitty_received" in view
        self.burier = burier
        if burier == me and not has_kitty:
            raise CannotSample("the view of the seat that buried the kitty does not show it")
        received = [_ids(x)[0] for x in view.get("kitty_received", [])]
        buried_seen = [_ids(x)[0] for x in view.get("buried", [])]
        self._mine_burial = (me, tuple(received), tuple(buried_seen)) if has_kitty else None

        # the unseen cards
        pool = list(_pack(o["decks"], o["two_colours"]))
        for s in range(NUM_SEATS):
            for c, at in played_at[s].items():
                pool[c] -= len(at)
        for c in range(NUM_IDS):
            pool[c] -= mine[c]
        self.known_kitty: list[int] | None = None
        if burier == me:
            self.known_kitty = list(buried_seen)
            for c in buried_seen:
                pool[c] -= 1
        if any(n < 0 for n in pool):
            raise CannotSample("the view shows more copies of a card than the packs hold")

        # hidden places: the other seats, then the kitty unless this seat buried it
        self.seats = [s for s in range(NUM_SEATS) if s != me]
        place = {s: p for p, s in enumerate(self.seats)}
        self.room = [view["hand_counts"][s] for s in self.seats]
        kitty_size = template.kitty_size
        self.kitty_place: int | None = None
        if burier != me:
            self.kitty_place = len(self.room)
            self.room.append(kitty_size)
        full = (1 << len(self.room)) - 1
        if sum(pool) != sum(self.room):
            raise CannotSample(f"{sum(pool)} unseen cards for {sum(self.room)} hidden places")
        if view["hand_counts"][me] != sum(mine):
            raise CannotSample("the hand does not have the size hand_counts gives it")

        # bounds on the cards each hidden seat holds now: cap[s][c]
        cap = [[_NO_CAP] * NUM_IDS for _ in range(NUM_SEATS)]
        self.checks: list[tuple[Any, ...]] = []

        def from_trick(s: int, i: int, c: int) -> int:
            """Copies of ``c`` seat ``s`` played from trick ``i`` on."""
            at = played_at[s].get(c)
            return sum(1 for j in at if j >= i) if at else 0

        def bound(s: int, i: int, cards: Any, k: int) -> None:
            """Seat ``s`` held at most ``k`` of each of ``cards`` when trick ``i`` began."""
            row = cap[s]
            for c in cards:
                n = max(0, k - from_trick(s, i, c))
                if n < row[c]:
                    row[c] = n

        def extra(s: int, i: int, suit: int) -> dict[int, int]:
            return {c: n for c in t.kinds[suit] if (n := from_trick(s, i, c))}

        psuit, order = t.psuit, t.order
        hand_need = [[0] * NUM_IDS for _ in range(NUM_SEATS)]
        for i, (plays, attempt) in enumerate(tricks):
            leader, lead = plays[0]
            suit, n = psuit[lead[0]], len(lead)
            shape = shape_of(decompose(counts_of(lead), t))
            best = obligation(counts_of(lead), shape, t) if shape and shape[0] else None
            for s, ids in plays[1:]:
                if s == me:
                    continue
                in_suit = [c for c in ids if psuit[c] == suit]
                if len(in_suit) < n:  # short of the led suit: void in it since
                    bound(s, i, t.kinds[suit], 0)
                elif best is not None:
                    cs = counts_of(in_suit)
                    got = obligation(cs, shape, t)
                    if got < best:
                        for cards, k in _follow_bounds(cs, shape, got, t.kinds[suit]):
                            bound(s, i, cards, k)
                        if max(cs.values()) >= 2:
                            self.checks.append(("follow", s, suit, extra(s, i, suit), shape, got))
            # throws: what the others could not beat (and, when it failed, what one could)
            tried = attempt if attempt is not None else lead
            units = decompose(counts_of(tried), t)
            if len(units) < 2:
                continue
            if attempt is not None:
                for c, k in counts_of(attempt).items():
                    if leader != me:
                        need = k - from_trick(leader, i, c)
                        hand_need[leader][c] = max(hand_need[leader][c], need)
                lead_sorted = tuple(sorted(lead))
                fu = next((u for u in units if tuple(sorted(u.cards)) == lead_sorted), None)
                if fu is None:
                    raise CannotSample(f"trick {i + 1}: the failed throw was not reduced to one of its units")
                key = (-fu.size, fu.top, fu.cards)
                safe = [u for u in units if (-u.size, u.top, u.cards) < key]
                others = [s for s in range(NUM_SEATS) if s != leader]
                if me not in others or not can_beat(fu, self._held_seen(i, suit), t):
                    who = [s for s in others if s != me]
                    self.checks.append(("beaten", fu, [(s, extra(s, i, suit)) for s in who], suit))
            else:
                safe = units
            for s in range(NUM_SEATS):
                if s in (leader, me):
                    continue
                for u in safe:
                    higher = [c for c in t.kinds[suit] if order[c] > u.top]
                    if u.triples == 1:
                        bound(s, i, higher, 2)
                    elif u.triples == 0 and u.pairs <= 1:
                        bound(s, i, higher, u.pairs)
                    else:
                        self.checks.append(("unbeaten", u, s, suit, extra(s, i, suit)))

        # cards the declarations and the revealed kitty card put in a hand (or in the kitty)
        either_need = [0] * NUM_IDS  # for the burier: in its hand or in the kitty
        if not o["kitty_steal"] or not decls:
            for s, ids in decls:
                for c, k in counts_of(ids).items():
                    need = k - len(played_at[s].get(c, ()))
                    if s == me:
                        continue
                    if s == burier:
                        either_need[c] = max(either_need[c], need)
                    else:
                        hand_need[s][c] = max(hand_need[s][c], need)
            if revealed_id is not None and burier == declarer and burier != me:
                need = 1 - len(played_at[burier].get(revealed_id, ()))
                either_need[revealed_id] = max(either_need[revealed_id], need)
        self.revealed_id = revealed_id
        self._bounds = (cap, hand_need, either_need)

        # every unseen copy with the places it may go to: forced copies first
        self._fixed: list[tuple[int, int]] = []  # (card, mask) not subject to random bounds
        self._bounded: list[tuple[int, list[int], list[tuple[int, int]]]] = []  # card, masks, (place, cap)
        for c in range(NUM_IDS):
            m = pool[c]
            if not m:
                continue
            masks: list[int] = []
            for s in self.seats:
                for _ in range(max(0, hand_need[s][c])):
                    masks.append(1 << place[s])
            if burier != me:
                assert self.kitty_place is not None
                for _ in range(max(0, either_need[c] - hand_need[burier][c])):
                    masks.append(1 << place[burier] | 1 << self.kitty_place)
            if len(masks) > m:
                raise CannotSample(f"the view puts more {ID_TEXT[c]} in hands than are unseen")
            masks += [full] * (m - len(masks))
            caps: list[tuple[int, int]] = []
            for s in self.seats:
                k = cap[s][c]
                bit = 1 << place[s]
                if k == 0:
                    masks = [x & ~bit for x in masks]
                elif k < sum(1 for x in masks if x & bit):
                    caps.append((place[s], k))
            if any(not x for x in masks):
                raise CannotSample(f"{ID_TEXT[c]} is shown in a hand that cannot hold it")
            if caps:
                self._bounded.append((c, masks, caps))
            else:
                self._fixed += [(c, x) for x in masks]

        # the world without its hidden cards
        self._template = self._build_template(template, view, decls, tricks, level)

    def _held_seen(self, i: int, suit: int) -> dict[int, int]:
        """This seat's cards of ``suit`` when trick ``i`` began."""
        at = self._played_at[self.me]
        out = {}
        for c in self.t.kinds[suit]:
            n = self.mine[c] + sum(1 for j in at.get(c, ()) if j >= i)
            if n:
                out[c] = n
        return out

    def _build_template(
        self,
        w: Shengji,
        view: Mapping[str, Any],
        decls: list[tuple[int, tuple[int, ...]]],
        tricks: list[tuple[list[tuple[int, tuple[int, ...]]], tuple[int, ...] | None]],
        level: int,
    ) -> Shengji:
        t = self.t
        w.team_levels = [rank_of_text(x) for x in view["team_levels"]]
        w.level = level
        w._level_ids = [card_id(Card(level, s)) for s in SUITS]
        w._dealt = view["cards_dealt"]
        w._final_left = 0
        w.declarations = list(decls)
        w._bid = None
        w._first_bidder = decls[0][0] if decls else None
        if decls:
            seat, ids = decls[-1]
            shown = [c for c in ids if c not in (SJ_ID, BJ_ID)]
            c = shown[0] if shown else ids[0]
            joker = c in (SJ_ID, BJ_ID)
            suit = None if joker else SUITS[ID_SUIT[c]]
            w._bid = Bid(seat, suit, strength(len(shown) if shown else len(ids), joker, c == BJ_ID), ids)
        w.trump_suit = view["trump_suit"]
        w.declarer = view["declarer"]
        w._t = t
        w.revealed_kitty_card = self.revealed_id
        w._steal_left = 0
        w._step = "play"
        w._to_act = view["to_act"]
        w._trick = []
        w._attempt = None
        if view["trick"]:
            plays, attempt = tricks[-1]
            w._trick = list(plays)
            lead = plays[0][1]
            units = decompose(counts_of(lead), t)
            w._lead_suit = t.psuit[lead[0]]
            w._lead_shape = shape_of(units)
            w._lead_top = (units[0].triples or units[0].pairs, units[0].size)
            w._lead_n = len(lead)
            w._attempt = attempt
        w.tricks = list(view["tricks"])
        w.trick_points = view["defender_points"]
        w.penalty_points = view["penalty_points"]
        w._scores = None
        w.result = None
        w._deal_text = None
        w._log = []
        return w

    def admits(self, hands: Mapping[int, list[Card]], kitty: list[Card] | None = None) -> bool:
        """Could the hidden seats hold ``hands`` (seat → cards) and the kitty be ``kitty``
        (when this seat did not bury it)? The facts of the module doc, for tests: the
        true hidden cards of a game are always admitted."""
        colours = self.options["two_colours"]

        def ids(cards: list[Card]) -> list[int]:
            return [COLOUR_ID[card_id(x)] if colours else card_id(x) for x in cards]

        counts = [list(self.mine) for _ in range(NUM_SEATS)]
        for s in self.seats:
            counts[s] = [0] * NUM_IDS
            for c in ids(hands[s]):
                counts[s][c] += 1
        kit = [0] * NUM_IDS
        for c in ids(kitty) if kitty is not None and self.kitty_place is not None else []:
            kit[c] += 1
        cap, hand_need, either_need = self._bounds
        for s in self.seats:
            for c in range(NUM_IDS):
                if counts[s][c] > cap[s][c] or counts[s][c] < hand_need[s][c]:
                    return False
        b = self.burier
        if b != self.me and any(counts[b][c] + kit[c] < either_need[c] for c in range(NUM_IDS)):
            return False
        return self._checks_hold(counts)

    def sample(self, rng: random.Random) -> Shengji:
        """A world: the view's state, the hidden cards dealt at random within the bounds."""
        me, seats = self.me, self.seats
        for _ in range(MAX_TRIES):
            copies = list(self._fixed)
            for c, masks, caps in self._bounded:
                masks = list(masks)
                for p, k in caps:  # at most k copies at p: keep p in k random copies' masks
                    bit = 1 << p
                    holders = [j for j, x in enumerate(masks) if x & bit]
                    rng.shuffle(holders)
                    holders.sort(key=lambda j: masks[j] != bit)  # copies that must be at p keep it
                    for j in holders[k:]:
                        masks[j] &= ~bit
                copies += [(c, x) for x in masks]
            dealt = _deal(copies, self.room, rng)
            if dealt is None:
                if not self._bounded:
                    raise CannotSample("no deal of the unseen cards fits the voids and the cards shown")
                continue
            counts = [[0] * NUM_IDS for _ in range(NUM_SEATS)]
            counts[me] = list(self.mine)
            for p, s in enumerate(seats):
                row = counts[s]
                for c in dealt[p]:
                    row[c] += 1
            if self._checks_hold(counts):
                kitty = self.known_kitty if self.kitty_place is None else dealt[self.kitty_place]
                return self._world(counts, kitty)
        raise CannotSample(f"no deal honoured the follows and throws of the hand in {MAX_TRIES} tries")

    def _checks_hold(self, counts: list[list[int]]) -> bool:
        t = self.t
        kinds = t.kinds
        for chk in self.checks:
            if chk[0] == "follow":
                _, s, suit, extra, shape, got = chk
                row = counts[s]
                held = {c: n for c in kinds[suit] if (n := row[c] + extra.get(c, 0))}
                if obligation(held, shape, t) > got:
                    return False
            elif chk[0] == "unbeaten":
                _, u, s, suit, extra = chk
                row = counts[s]
                held = {c: n for c in kinds[suit] if (n := row[c] + extra.get(c, 0))}
                if can_beat(u, held, t):
                    return False
            else:
                _, u, who, suit = chk
                for s, extra in who:
                    row = counts[s]
                    held = {c: n for c in kinds[suit] if (n := row[c] + extra.get(c, 0))}
                    if can_beat(u, held, t):
                        break
                else:
                    return False
        return True

    def _world(self, counts: list[list[int]], kitty: list[int] | None) -> Shengji:
        assert kitty is not None
        w = self._template.clone()
        w._counts = counts
        w._sizes = [sum(row) for row in counts]
        w.buried = list(kitty)
        b = self.burier
        w._burier = b
        mine = self._mine_burial
        if b == self.me and mine is not None:
            kitty_in = mine[1]
            earlier: tuple[Any, ...] = ()
        else:
            kitty_in = self._picked_up(counts, kitty)
            earlier = (mine,) if mine is not None else ()
        w._kitty_in = kitty_in
        w.kitty = list(kitty_in)
        w._burials = earlier + ((b, kitty_in, tuple(kitty)),)
        return w

    def _picked_up(self, counts: list[list[int]], kitty: list[int]) -> tuple[int, ...]:
        """The kitty a hidden burier picked up: what it buried, with the revealed kitty card
        (``no_bid: kitty_card:n``) at its place when the burier buried, kept or played it."""
        out = list(kitty)
        r, b = self.revealed_id, self.burier
        if r is None or b != self.declarer:
            return tuple(out)
        at = int(self.options["no_bid"].split(":")[1]) - 1
        if r in out:
            j = out.index(r)
            out[j], out[at] = out[at], out[j]
        elif counts[b][r] or self._played_at[b].get(r):
            out[at] = r
        return tuple(out)


def world_sampler(view: Mapping[str, Any]) -> Any:
    """The sampler of the view's phase: :class:`WorldSampler` in the trick play, a
    :class:`~paiju.shengji.worlds_deal.DealSampler` in the deal and the burial."""
    if view.get("phase") in ("deal", "bury", "steal"):
        return DealSampler(view)
    return WorldSampler(view)


def sample_world(view: Mapping[str, Any], rng: random.Random) -> Shengji:
    """A game in the state ``view`` (a seat's view at any decision) describes, the cards it
    hides dealt at random consistently with the hand's public facts (module doc; before
    the play :mod:`paiju.shengji.worlds_deal`).

    To sample many worlds of one view, make one sampler (:func:`world_sampler`) and call
    its ``sample``: the inferences are drawn once. Raises :class:`CannotSample` (module doc)."""
    world: Shengji = world_sampler(view).sample(rng)
    return world
