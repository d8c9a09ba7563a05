"""Worlds: whole games consistent with what one seat knows (for determinized search).

In 双扣 every play is public, so a seat knows its own hand, every card count and every
card played; the cards it cannot see are somewhere in the other three hands.
:func:`sample_world` deals those at random in the right numbers and replays the hand's
public actions on them: the result is a :class:`Shuangkou` in the state the view
describes, whose hidden hands are one guess.

>>> import random, paiju
>>> g = paiju.new_game("shuangkou", seed=2)
>>> for _ in range(9):
...     g.apply(g.legal_actions()[-1])
>>> w = sample_world(g.view(g.to_act), random.Random(1))
>>> w.to_act == g.to_act and w.hand(g.to_act) == g.hand(g.to_act)
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from paiju.cards import Card, format_cards, packs, parse_cards
from paiju.errors import IllegalAction, reasons
from paiju.shuangkou.game import NUM_SEATS, Shuangkou

CHECKED = ("to_act", "phase", "hand_counts", "leader", "finished", "legal_actions")
"""View entries a world must reproduce exactly."""


reasons(cannot_sample="no world can be sampled from this view")


class CannotSample(IllegalAction):
    """The view describes a state this module cannot reconstruct."""

    def __init__(self, message: str = "", code: str = "cannot_sample", **params: Any) -> None:
        super().__init__(message, code, **params)


class WorldSampler:
    """One view read once, ready to deal many worlds of it (:func:`sample_world`)."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        me = view["seat"]
        if me is None:
            raise CannotSample("a spectator has no seat to sample a world for")
        self.view = view
        self.me: int = me
        self.played: list[list[Card]] = [[] for _ in range(NUM_SEATS)]
        self.actions: list[str] = []
        for e in view["events"]:
            if "action" in e:
                self.actions.append(e["action"])
                if "cards" in e:
                    self.played[e["seat"]] += parse_cards(e["cards"])
        self.mine = parse_cards(view["hand"])
        unseen = Counter(packs(2))
        for c in self.mine + [c for p in self.played for c in p]:
            unseen[c] -= 1
        if any(n < 0 for n in unseen.values()):
            raise CannotSample("the view shows more copies of a card than the deck has")
        self.unseen = list(unseen.elements())
        hidden = sum(view["hand_counts"][s] for s in range(NUM_SEATS) if s != me)
        if hidden != len(self.unseen):
            raise CannotSample(f"{len(self.unseen)} unseen cards for {hidden} hidden places")
        self.options = dict(view["options"], first_lead=view["first_lead"])

    def sample(self, rng: random.Random) -> Shuangkou:
        """A world: the unseen cards dealt at random, the hand's actions replayed."""
        view, me = self.view, self.me
        pool = list(self.unseen)
        rng.shuffle(pool)
        hands: list[list[Card]] = []
        i = 0
        for s in range(NUM_SEATS):
            if s == me:
                hands.append(list(self.mine))
                continue
            n = view["hand_counts"][s]
            hands.append(pool[i : i + n])
            i += n
        deal = [format_cards(hands[s] + self.played[s]) for s in range(NUM_SEATS)]
        world = Shuangkou(seed=0, deal=deal, **self.options)
        for a in self.actions:
            world.apply(a)
        mine_now = world.view(me)
        if any(mine_now.get(k) != view.get(k) for k in CHECKED):
            raise CannotSample("the replayed hand does not match the view")
        return world


def sample_world(view: Mapping[str, Any], rng: random.Random) -> Shuangkou:
    """A game in the state ``view`` describes, the unseen cards dealt at random. To sample
    many worlds of one view, make one :class:`WorldSampler` and call its ``sample``."""
    return WorldSampler(view).sample(rng)
