"""Worlds before the trick play: the deal with its declarations 亮主/反主, and the burial 扣底.

Before the play a seat of 升级 knows the cards it has been dealt so far, how many cards
every seat holds, the declarations shown (who, with which cards, in order) and — if it
buried — the kitty 底牌 it picked up and what it buried. Nobody knows the cards not dealt
yet, its own next cards included. :class:`DealSampler` deals a whole hand consistent
with that and replays it to the view's decision:

- the seat's own cards are the ones it was dealt (its hand, plus what it buried, less the
  kitty it picked up); the cards still to come, everyone's, are drawn at random;
- every seat holds the cards it declared with from the start of its hand (the earliest
  they can have come), and each declaration is replayed at the first decision of its
  seat, after the one before, where the engine allows it: the view does not say when a
  declaration was made, only that it was, in that order;
- the kitty card revealed with ``no_bid: kitty_card:n`` is that kitty card;
- the burier's cards buried so far, unseen by the others, are drawn from his hand;
- ``kitty_steal`` 抢底: the view does not say which of the last declarations were steals,
  so each reading is tried (none, the last one, the last two …) where it fits the view's
  burier; this seat's last burial is in its view (what it picked up is what the burier
  before it buried, and that burier held those cards from the start of the deal).

The world is the engine replaying that deal and those actions (its ``record()`` is a
whole, replayable hand), kept only if its view for the seat is the view, entirely; a deal
that fails (a ``cannot_declare_passes_deal`` void the real hand did not have …) is drawn
again, at most :data:`MAX_TRIES` times per reading, then
:class:`~paiju.shengji.worlds_base.CannotSample`. Not sampled: the view of a seat that
buried twice in a 抢底 hand (its first burial is not in its view). Inferences from the
seats' answers (who could have declared and did not) are not honoured.

>>> import random, paiju
>>> g = paiju.new_game("shengji", seed=4)
>>> for _ in range(40):
...     g.apply(g.legal_actions()[-1])
>>> view = g.view(g.to_act)
>>> w = DealSampler(view).sample(random.Random(1))
>>> w.view(g.to_act) == view
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from paiju.errors import IllegalAction
from paiju.shengji.game import NUM_SEATS, Shengji
from paiju.shengji.options import PACK_SIZES
from paiju.shengji.trump import ID_TEXT
from paiju.shengji.worlds_base import CannotSample, _ids, _pack

MAX_TRIES = 60
"""Deals drawn for one world before giving up (a deal is drawn again when its replay does
not give the view)."""

PHASES = ("deal", "bury", "steal")


class _Plan:
    """One reading of the view: the last ``steals`` declarations were kitty steals 抢底 (0
    without ``kitty_steal``). What each seat holds first, the kitty if known, the cards
    nobody is known to hold, and the burials whose cards are known."""

    def __init__(self, sampler: DealSampler, steals: int) -> None:
        view, me, o = sampler.view, sampler.me, sampler.options
        decls = sampler.decls
        self.steals = steals
        self.in_deal = len(decls) - steals  # declarations made during the deal
        declarer = view["declarer"] if view["phase"] != "deal" else None
        buriers = ([declarer] if declarer is not None else []) + [s for s, _ in decls[self.in_deal :]]
        if view["phase"] != "deal" and view.get("burier") is not None and buriers[-1] != view["burier"]:
            raise CannotSample("these steals do not end with the view's burier")
        mine_at = [i for i, s in enumerate(buriers) if s == me]
        if len(mine_at) > 1:
            raise CannotSample("this seat buried more than once: its first burials are not in its view")
        # burial index → its cards in order, where known: this seat's, and the one it picked up
        self.known_burials: dict[int, list[int]] = {}
        kitty_in = list(_ids(" ".join(view.get("kitty_received", ()))))
        mine = Counter(_ids(" ".join(view["hand"])))
        self.kitty: list[int] | None = None
        before: list[int] = []  # cards the burier before this seat buried: his to hold
        if mine_at:
            k = mine_at[0]
            self.known_burials[k] = list(_ids(" ".join(view.get("buried", ()))))
            mine.update(self.known_burials[k])
            mine.subtract(kitty_in)
            if k == 0:
                self.kitty = kitty_in
            else:
                self.known_burials[k - 1] = kitty_in
                before = kitty_in
        elif kitty_in:
            raise CannotSample("the view shows a burial of this seat these steals do not have")
        if any(n < 0 for n in mine.values()):
            raise CannotSample("the view's kitty is not in the hand and the buried cards")
        mine = +mine
        if sum(mine.values()) != sampler.got[me]:
            raise CannotSample(f"the hand has {sum(mine.values())} cards dealt, not the {sampler.got[me]} dealt")
        if self.kitty is not None and len(self.kitty) != sampler.kitty_size:
            raise CannotSample("the kitty picked up is not a whole kitty")
        self.buriers = buriers

        # the cards each seat declared with are its first ones (and the burial before this
        # seat's: that burier's to hold)
        need: list[Counter[int]] = [Counter() for _ in range(NUM_SEATS)]
        first_cards: list[list[int]] = [[] for _ in range(NUM_SEATS)]
        for idx, (seat, ids) in enumerate(decls):
            # a steal may show cards of the kitty it picked up: those of a known burial are not required
            picked = Counter(self.known_burials.get(idx - self.in_deal, ())) if idx >= self.in_deal else Counter()
            for c, n in Counter(ids).items():
                extra = n - picked[c] - need[seat][c]
                if extra > 0:
                    need[seat][c] += extra
                    first_cards[seat] += [c] * extra
        if before:
            x = buriers[mine_at[0] - 1]
            held = Counter(before)
            shown = view.get("revealed_kitty_card")
            if shown is not None and mine_at[0] == 1:  # the declarer may have buried the kitty card shown
                held.subtract(_ids(shown))
            for c, n in (+held).items():
                extra = n - need[x][c]
                if extra > 0:
                    need[x][c] = n
                    first_cards[x] += [c] * extra
        if any(need[me][c] > mine[c] for c in need[me]):
            raise CannotSample("the view's declarations of this seat are not in its hand")
        rest_mine = mine.copy()
        rest_mine.subtract(first_cards[me])
        self.start: list[list[int]] = [list(f) for f in first_cards]
        self.start[me] = first_cards[me] + sorted((+rest_mine).elements())
        for seat in range(NUM_SEATS):
            if len(self.start[seat]) > (sampler.got[seat] if seat != me else sampler.hand_size):
                raise CannotSample(f"seat {seat} declared more cards than it has been dealt")

        # the cards nobody is known to hold
        pool = sampler.pack.copy()
        for s in range(NUM_SEATS):
            pool.subtract(self.start[s])
        if self.kitty is not None:
            pool.subtract(self.kitty)
        self.revealed = view.get("revealed_kitty_card")
        self.reveal_at = -1
        if self.revealed is not None and self.kitty is None:
            self.reveal_at = int(str(o["no_bid"]).split(":")[1]) - 1
            pool.subtract(_ids(self.revealed))
        if any(n < 0 for n in pool.values()):
            raise CannotSample("the view shows more copies of a card than the packs hold")
        self.pool = sorted((+pool).elements())
        self.known_mine = sampler.got[me] if view["phase"] == "deal" else sampler.hand_size


class DealSampler:
    """One view of the deal or the burial read once, ready to deal many worlds of it."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        me = view.get("seat")
        if me is None:
            raise CannotSample("a spectator has no seat to sample a world for")
        if view.get("phase") not in PHASES:
            raise CannotSample(f"the deal sampler samples the deal and the burial, not the {view.get('phase')} phase")
        self.view, self.me = view, me
        o = self.options = dict(view["options"])
        decks = o.get("decks")
        if decks not in PACK_SIZES:
            raise CannotSample(f"the view's options are not a Shengji room: {decks!r} packs")
        self.hand_size, self.kitty_size = PACK_SIZES[decks]
        first = o["declarer"] if o.get("declarer") is not None else 0
        # the order of the deal: card t goes to seat order[t]
        order = [(first + k) % NUM_SEATS for _ in range(self.hand_size) for k in range(NUM_SEATS)]
        dealt = view["cards_dealt"]
        self.got = [sum(1 for s in order[:dealt] if s == seat) for seat in range(NUM_SEATS)]
        self.decls: list[tuple[int, tuple[int, ...]]] = [(d["seat"], _ids(d["cards"])) for d in view["declarations"]]
        self.pack = Counter({c: n for c, n in enumerate(_pack(decks, bool(o["two_colours"]))) if n})
        # with kitty_steal 抢底, after the deal any of the last declarations may be steals
        most = len(self.decls) if o.get("kitty_steal") and view["phase"] != "deal" else 0
        self.plans: list[_Plan] = []
        refusal: CannotSample | None = None
        for steals in range(most + 1):
            try:
                self.plans.append(_Plan(self, steals))
            except CannotSample as e:
                refusal = refusal or e
        if not self.plans:
            assert refusal is not None
            raise refusal

    # ------------------------------------------------------------------ one world
    def sample(self, rng: random.Random) -> Shengji:
        """A world: a deal drawn within the facts, replayed to the view's decision."""
        for _ in range(MAX_TRIES):
            for plan in self.plans:
                try:
                    world = self._replay(plan, self._deal(plan, rng), rng)
                except IllegalAction:  # a burial the drawn deal does not allow
                    continue
                if world is not None:
                    return world
        raise CannotSample(f"no deal replayed to this view in {MAX_TRIES} tries")

    def _deal(self, plan: _Plan, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        pool = list(plan.pool)
        rng.shuffle(pool)
        hands = []
        i = 0
        for seat in range(NUM_SEATS):
            h = list(plan.start[seat])
            if seat == self.me:
                h = h[: plan.known_mine]
            n = self.hand_size - len(h)
            mid = pool[i : i + n]
            i += n
            hands.append(h + mid)
        if plan.kitty is not None:
            return hands, list(plan.kitty)
        kitty = pool[i : i + self.kitty_size]
        if plan.reveal_at >= 0:
            kitty.insert(plan.reveal_at, _ids(str(plan.revealed))[0])
        return hands, kitty

    def _replay(self, plan: _Plan, deal: tuple[list[list[int]], list[int]], rng: random.Random) -> Shengji | None:
        hands, kitty = deal
        text = [" ".join(ID_TEXT[c] for c in h) for h in hands]
        try:
            g = Shengji(seed=0, deal=text, kitty=" ".join(ID_TEXT[c] for c in kitty), **self.options)
        except IllegalAction as e:
            raise CannotSample(f"the view's options are not a Shengji room: {e}") from None
        view, me = self.view, self.me
        target = (view["phase"], view["cards_dealt"], view["to_act"])
        decls = [f"declare {' '.join(ID_TEXT[c] for c in ids)}" for _, ids in self.decls]
        seats = [s for s, _ in self.decls]
        j = 0
        for _ in range(4 * (self.hand_size * NUM_SEATS + self.kitty_size * (len(decls) + 1) + 8)):
            if g.is_over:
                return None
            seat = g.to_act
            assert seat is not None
            if g.phase in ("deal", "steal"):
                if j == len(decls) and (g.phase, g._dealt, seat) == target:
                    break
                if g.phase == "deal" and j == plan.in_deal and j < len(decls):
                    pass  # the rest are steals
                elif j < len(decls) and seats[j] == seat:
                    try:
                        g.apply(decls[j])
                        j += 1
                        continue
                    except IllegalAction:
                        pass
                g.apply("no")
            elif g.phase == "bury":
                burial = len(g._burials)  # the burials finished before this one
                done = self.hand_size + self.kitty_size - view["hand_counts"][seat]
                if j == len(decls) and (g.phase, seat) == (view["phase"], view["to_act"]) and len(g.buried) == done:
                    break
                known = plan.known_burials.get(burial)
                if known is not None and len(g.buried) < len(known):
                    g.apply(f"bury {ID_TEXT[known[len(g.buried)]]}")
                elif known is not None and burial == len(plan.buriers) - 1:
                    return None  # this seat's burial under way is all the view shows
                else:
                    g.apply(f"bury {rng.choice(g.hand(seat))}")
            else:
                return None
        else:
            return None
        return g if g.view(me) == view else None
