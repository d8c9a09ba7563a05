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
- the burier's cards buried so far, unseen by the others, are drawn from his hand.

The world is the engine replaying that deal and those actions (its ``record()`` is a
whole, replayable hand), kept only if its view for the seat is the view, entirely; a deal
that fails (a ``cannot_declare_passes_deal`` void the real hand did not have …) is drawn
again, at most :data:`MAX_TRIES` times. Not sampled: a ``kitty_steal`` 抢底 hand after a
steal (which declarations were steals, and what each stealer picked up, is not kept in
the view) — that raises :class:`~paiju.shengji.worlds_base.CannotSample` once no deal replays.
Inferences from the seats' answers (who could have declared and did not) are not honoured.

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
        # the order of the deal: card t goes to seat order[t], as its slot[t]-th card
        self.order = [(first + k) % NUM_SEATS for _ in range(self.hand_size) for k in range(NUM_SEATS)]
        dealt = view["cards_dealt"]
        got = [sum(1 for s in self.order[:dealt] if s == seat) for seat in range(NUM_SEATS)]
        self.decls: list[tuple[int, tuple[int, ...]]] = [(d["seat"], _ids(d["cards"])) for d in view["declarations"]]
        pack = Counter({c: n for c, n in enumerate(_pack(decks, bool(o["two_colours"]))) if n})

        # what this seat was dealt, and the kitty if it picked it up
        mine = Counter(_ids(" ".join(view["hand"])))
        self.buried_mine = list(_ids(" ".join(view.get("buried", ()))))
        kitty_in = list(_ids(" ".join(view.get("kitty_received", ()))))
        mine.update(self.buried_mine)
        mine.subtract(kitty_in)
        if any(n < 0 for n in mine.values()):
            raise CannotSample("the view's kitty is not in the hand and the buried cards")
        mine = +mine
        if sum(mine.values()) != got[me]:
            raise CannotSample(f"the hand has {sum(mine.values())} cards dealt, not the {got[me]} the deal gives")
        self.kitty: list[int] | None = kitty_in if kitty_in and view.get("burier") == view.get("declarer") else None
        if self.kitty is not None and len(self.kitty) != self.kitty_size:
            raise CannotSample("the kitty picked up is not a whole kitty")

        # the cards each seat declared with are its first ones
        need: list[Counter[int]] = [Counter() for _ in range(NUM_SEATS)]
        first_cards: list[list[int]] = [[] for _ in range(NUM_SEATS)]
        for seat, ids in self.decls:
            for c, n in Counter(ids).items():
                extra = n - need[seat][c]
                if extra > 0:
                    need[seat][c] = n
                    first_cards[seat] += [c] * extra
        if any(need[me][c] > mine[c] for c in need[me]):
            raise CannotSample("the view's declarations of this seat are not in its hand")
        rest_mine = mine.copy()
        rest_mine.subtract(first_cards[me])
        self.start: list[list[int]] = [list(f) for f in first_cards]
        self.start[me] = first_cards[me] + sorted((+rest_mine).elements())
        for seat in range(NUM_SEATS):
            if len(self.start[seat]) > (got[seat] if seat != me else self.hand_size):
                raise CannotSample(f"seat {seat} declared more cards than it has been dealt")

        # the cards nobody is known to hold
        pool = pack.copy()
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
        self.known_mine = got[me] if view["phase"] == "deal" else self.hand_size

    # ------------------------------------------------------------------ one world
    def sample(self, rng: random.Random) -> Shengji:
        """A world: a deal drawn within the facts, replayed to the view's decision."""
        for _ in range(MAX_TRIES):
            try:
                world = self._replay(self._deal(rng), rng)
            except IllegalAction:  # a burial of this seat's the drawn deal does not allow
                continue
            if world is not None:
                return world
        raise CannotSample(f"no deal replayed to this view in {MAX_TRIES} tries")

    def _deal(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        pool = list(self.pool)
        rng.shuffle(pool)
        hands = []
        i = 0
        for seat in range(NUM_SEATS):
            h = list(self.start[seat])
            if seat == self.me:
                h = h[: self.known_mine]
            n = self.hand_size - len(h)
            mid = pool[i : i + n]
            i += n
            hands.append(h + mid)
        if self.kitty is not None:
            return hands, list(self.kitty)
        kitty = pool[i : i + self.kitty_size]
        if self.reveal_at >= 0:
            kitty.insert(self.reveal_at, _ids(str(self.revealed))[0])
        return hands, kitty

    def _replay(self, deal: tuple[list[list[int]], list[int]], rng: random.Random) -> Shengji | None:
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
        for _ in range(4 * (self.hand_size * NUM_SEATS + self.kitty_size + 8)):
            if g.is_over:
                return None
            seat = g.to_act
            assert seat is not None
            if g.phase in ("deal", "steal"):
                if j == len(decls) and (g.phase, g._dealt, seat) == target:
                    break
                if j < len(decls) and seats[j] == seat:
                    try:
                        g.apply(decls[j])
                        j += 1
                        continue
                    except IllegalAction:
                        pass
                g.apply("no")
            elif g.phase == "bury":
                left = self.kitty_size - len(g.buried)
                done = self.hand_size + self.kitty_size - view["hand_counts"][seat]
                if (g.phase, seat) == (view["phase"], view["to_act"]) and len(g.buried) == done:
                    break
                if seat == me and len(g.buried) < len(self.buried_mine):
                    g.apply(f"bury {ID_TEXT[self.buried_mine[len(g.buried)]]}")
                elif left:
                    g.apply(f"bury {rng.choice(g.hand(seat))}")
            else:
                return None
        else:
            return None
        return g if g.view(me) == view else None
