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
from paiju.errors import IllegalAction
from paiju.shuangkou.game import NUM_SEATS, Shuangkou

CHECKED = ("to_act", "phase", "hand_counts", "leader", "finished", "legal_actions")
"""View entries a world must reproduce exactly."""


class CannotSample(IllegalAction):
    """The view describes a state this module cannot reconstruct."""


def sample_world(view: Mapping[str, Any], rng: random.Random) -> Shuangkou:
    """A game in the state ``view`` describes, the unseen cards dealt at random."""
    me = view["seat"]
    if me is None:
        raise CannotSample("a spectator has no seat to sample a world for")
    played: list[list[Card]] = [[] for _ in range(NUM_SEATS)]
    actions: list[str] = []
    for e in view["events"]:
        if "action" in e:
            actions.append(e["action"])
            if "cards" in e:
                played[e["seat"]] += parse_cards(e["cards"])
    mine = parse_cards(view["hand"])
    unseen = Counter(packs(2))
    for c in mine + [c for p in played for c in p]:
        unseen[c] -= 1
    if any(n < 0 for n in unseen.values()):
        raise CannotSample("the view shows more copies of a card than the deck has")
    pool = list(unseen.elements())
    rng.shuffle(pool)
    hands: list[list[Card]] = []
    i = 0
    for s in range(NUM_SEATS):
        if s == me:
            hands.append(list(mine))
            continue
        n = view["hand_counts"][s]
        hands.append(pool[i : i + n])
        i += n
    if i != len(pool):
        raise CannotSample(f"{len(pool)} unseen cards for {i} hidden places")
    options = dict(view["options"], first_lead=view["first_lead"])
    world = Shuangkou(seed=0, deal=[format_cards(hands[s] + played[s]) for s in range(NUM_SEATS)], **options)
    for a in actions:
        world.apply(a)
    mine_now = world.view(me)
    if any(mine_now.get(k) != view.get(k) for k in CHECKED):
        raise CannotSample("the replayed hand does not match the view")
    return world
