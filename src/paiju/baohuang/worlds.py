"""Worlds: whole games consistent with what one seat knows (for determinized search).

A seat's view shows its own hand, every card count, every public action and play, and the
roles the rules have revealed. :func:`sample_world` deals the cards the seat cannot see at
random among the other hands — respecting the counts, the cards already played, and the
role cards: the emperor card 皇牌 ``BJ*`` is the emperor's, a revealed guard holds the
guard card ``SJ*`` (or the called card), and a hidden guard card goes to a seat drawn with
a weight the caller may give (the public behaviour of each seat) — then replays the
public actions of the hand on those cards. The result is a :class:`Baohuang` in the state
the view describes, whose hidden parts are one guess.

Not sampled (:class:`CannotSample`): hands where cards changed hands before play —
Qingdao tribute 进贡 and abdication attachments 贴牌 — whose hidden transfers this module
does not reconstruct.

>>> import random, paiju
>>> g = paiju.new_game("baohuang", seed=4)
>>> while g.phase != "play":
...     g.apply(g.legal_actions()[0])
>>> w = sample_world(g.view(g.to_act), random.Random(1))
>>> w.to_act == g.to_act and w.hand(g.to_act) == g.hand(g.to_act)
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from paiju.baohuang.game import EMPEROR_CARD, GUARD_CARD, NUM_SEATS, Baohuang, deck_cards
from paiju.cards import Card, format_cards, parse_cards
from paiju.errors import IllegalAction


class CannotSample(IllegalAction):
    """The view describes a state this module cannot reconstruct."""


GuardWeights = Callable[[Mapping[str, Any]], Mapping[int, float]]

CHECKED = ("to_act", "phase", "hand_counts", "emperor", "guard", "solo", "roles", "finished", "legal_actions")
"""View entries a world must reproduce exactly (the hand is checked as a multiset)."""


def sample_world(
    view: Mapping[str, Any], rng: random.Random, guard_weights: Mapping[int, float] | None = None
) -> Baohuang:
    """A game in the state ``view`` describes, the cards it hides dealt at random.

    ``guard_weights``: relative odds per seat of holding a hidden guard card (seats not
    named count 1; the odds are multiplied by the number of hidden cards the seat holds,
    which is the chance of a random deal). Raises :class:`CannotSample` when the view's
    hand had tribute or attachments, and when no deal reproduces it after a few tries."""
    me = view["seat"]
    if me is None:
        raise CannotSample("a spectator has no seat to sample a world for")
    opts = dict(view["options"])
    events = view["events"]
    start = max(i for i, e in enumerate(events) if e.get("event") == "deal")
    played: list[list[Card]] = [[] for _ in range(NUM_SEATS)]
    actions: list[str] = []
    holders: list[int] = []  # who answered the emperor card, in order
    for e in events[start + 1 :]:
        if "action" not in e:
            continue
        if e.get("step") == "tribute":
            raise CannotSample("hands with a Qingdao tribute are not sampled")
        actions.append(e["action"])
        if e.get("step") == "emperor":
            holders.append(e["seat"])
        if "cards" in e:
            played[e["seat"]] += parse_cards(e["cards"])
    if _attachments(opts["abdication"], holders):
        raise CannotSample("hands with abdication attachments 贴牌 are not sampled")
    mine = parse_cards(view["hand"])
    unseen = Counter(deck_cards(opts["deck"]))
    unseen[EMPEROR_CARD] = 1
    unseen[Card(EMPEROR_CARD.rank)] -= 1
    called = view.get("called") is not None or opts["guard"] != "card"
    if not called:
        unseen[GUARD_CARD] = 1
        unseen[Card(GUARD_CARD.rank)] -= 1
    for c in mine + [c for p in played for c in p]:
        unseen[c] -= 1
    if any(n < 0 for n in unseen.values()):
        raise CannotSample("the view shows more copies of a card than the deck has")
    counts = list(view["hand_counts"])
    emperor = view["emperor"]
    for _ in range(20):
        pool = list(unseen.elements())
        hands: list[list[Card]] = [[] for _ in range(NUM_SEATS)]
        need = [0 if s == me else counts[s] for s in range(NUM_SEATS)]
        # the role cards first: they are where the public roles say
        if unseen[EMPEROR_CARD]:
            _give(EMPEROR_CARD, emperor, pool, hands, need)
        if not called and unseen[GUARD_CARD]:
            _give(GUARD_CARD, _guard_seat(view, need, guard_weights, rng), pool, hands, need)
        rng.shuffle(pool)
        i = 0
        for s in range(NUM_SEATS):
            hands[s] += pool[i : i + need[s]]
            i += need[s]
        hands[me] = list(mine)
        deal = [hands[s] + played[s] for s in range(NUM_SEATS)]
        if holders and holders[0] != emperor:  # the emperor card started with the first holder
            for s in range(NUM_SEATS):
                if EMPEROR_CARD in deal[s]:
                    deal[s].remove(EMPEROR_CARD)
            deal[holders[0]].append(EMPEROR_CARD)
        try:
            world = Baohuang(seed=0, deal=[format_cards(h) for h in deal], **opts)
            for a in actions:
                world.apply(a)
        except IllegalAction:  # a setup answer these cards do not allow (classic's suited triple …)
            continue
        if _same(world.view(me), view):
            return world
    raise CannotSample("no deal reproduced the view in 20 tries")


def _attachments(abdication: str, holders: list[int]) -> bool:
    """Did an abdication attach a card 贴牌 in this hand? ``standard``: from the second
    abdication on; ``qingdao``: every abdication; ``weihai``: never."""
    abdications = len(holders) - 1 if holders else 0
    if abdication == "standard":
        return abdications >= 2
    if abdication == "qingdao":
        return abdications >= 1
    return False


def _give(card: Card, seat: int | None, pool: list[Card], hands: list[list[Card]], need: list[int]) -> None:
    if seat is None or need[seat] <= 0:
        raise CannotSample(f"no seat can hold {card}")
    pool.remove(card)
    hands[seat].append(card)
    need[seat] -= 1


def _guard_seat(
    view: Mapping[str, Any], need: list[int], weights: Mapping[int, float] | None, rng: random.Random
) -> int | None:
    """The seat that gets an unseen guard card: the revealed guard, else a draw over the
    seats that may hold it (the emperor too: 暗独), weighted by hidden cards × odds."""
    if view.get("guard") is not None:
        return view["guard"]
    rebels = set(view.get("rebels_declared") or ())  # a guard cannot rebel
    seats = [s for s in range(NUM_SEATS) if need[s] > 0 and s not in rebels]
    if not seats:
        return None
    odds = [need[s] * (1.0 if weights is None else weights.get(s, 1.0)) for s in seats]
    return rng.choices(seats, odds)[0]


def _same(mine: Mapping[str, Any], view: Mapping[str, Any]) -> bool:
    if any(mine.get(k) != view.get(k) for k in CHECKED):
        return False
    return Counter(map(_kind, mine["hand"])) == Counter(map(_kind, view["hand"]))


def _kind(card: str) -> str:
    """What a card is in play: its rank (suits do not matter) or the joker with its mark."""
    return card if card[1] == "J" else card[0]
