"""Rooms, random players and small helpers of the Baohuang property tests
(``test_baohuang_properties_*.py``; the checks themselves are in
``baohuang_property_checks.py``): random rooms (every preset, random toggles and owed
tribute), a random ``Chooser`` that reaches every phase, views and hands as text, the
brute-force enumeration of the legal plays, the sizes of the deal.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from typing import Any

from hypothesis import strategies as st

import paiju
from paiju.baohuang import PASS, PRESETS, Play, beats, hosted_action, tribute_plan
from paiju.baohuang.plays import BJ, SJ, parse_play, strength, strength_of_text
from paiju.cards import BIG_JOKER, SMALL_JOKER, Card, parse_cards

SEATS = range(5)
EMPEROR_CARD = Card(BIG_JOKER, None, True)
GUARD_CARD = Card(SMALL_JOKER, None, True)
# The fields of a view that belong to its seat alone; every other field must be the
# same in every seat's view as in the spectator's (check 5).
PERSONAL = ("seat", "hand", "legal_actions", "attached_cards", "guard", "solo", "roles", "solo_calls")


# -------------------------------------------------------------------------- rooms


@st.composite
def rooms(draw: st.DrawFn, tribute_due: bool = True) -> dict[str, Any]:
    """A valid room: a preset, then random overrides of its toggles."""
    variant = draw(st.sampled_from(sorted(PRESETS)))
    opts: dict[str, Any] = {"variant": variant}
    for name in ("kao", "hold_sixes", "pass_is_final", "yield_turn", "solo_grab", "rebellion", "kick"):
        if draw(st.booleans()):
            opts[name] = draw(st.booleans())
    if draw(st.booleans()):
        opts["deck"] = draw(st.sampled_from(["full", "no345", "weihai"]))
    if draw(st.integers(0, 3)) == 0:  # the guard and abdication options go in pairs
        opts["guard"], opts["abdication"] = draw(
            st.sampled_from([("card", "standard"), ("card", "weihai"), ("call", "classic"), ("call", "qingdao")])
        )
    if draw(st.integers(0, 3)) == 0:
        opts["guard_choice"] = draw(st.sampled_from(["auto", "choose"]))
        opts["grab_needs_four"] = draw(st.booleans())
    if opts.get("hold_sixes"):
        opts["hold_rank"] = draw(st.sampled_from(["6", "3", "7", "A", "2"]))
    opts["first_seat"] = draw(st.integers(0, 4))
    if draw(st.booleans()):
        opts["tribute"] = draw(st.booleans())
    tribute = opts.get("tribute", PRESETS[variant]["tribute"])
    if tribute_due and tribute and draw(st.booleans()):
        # tribute owed from a previous hand: any result of the spec's table
        places = draw(st.permutations(list(SEATS)))
        emperor = draw(st.sampled_from(list(SEATS)))
        guard = draw(st.sampled_from([None, *(s for s in SEATS if s != emperor)]))
        opts["tribute_due"] = tribute_plan(emperor, guard, list(places))
    return opts


class Chooser:
    """A random player: uniform choices mixed with sensible ones so that hands reach
    every phase (declarations, long tricks, passes) instead of ending in a quick solo."""

    def __init__(self, rng: random.Random, setup_random: float, pass_rate: float, lead_random: float) -> None:
        self.rng = rng
        self.setup_random = setup_random
        self.pass_rate = pass_rate
        self.lead_random = lead_random

    def index(self, g: Any, legal: Any) -> int:
        rng = self.rng
        n = len(legal)
        if g.phase != "play":
            if self.setup_random < 0:  # contrary: abdicate, rebel, kick, show the guard
                names = [a.name for a in legal]
                for name in ("abdicate", "rebel", "kick", "reveal"):
                    if name in names and rng.random() < 0.9:
                        return names.index(name)
                return _index_of(legal, hosted_action(g))
            if rng.random() < self.setup_random:
                return rng.randrange(n)
            return _index_of(legal, hosted_action(g))
        if g.is_leading():
            if rng.random() < self.lead_random:
                return rng.randrange(n)
            # rather a single, a pair …: a lead of one rank without jokers
            for _ in range(12):
                i = rng.randrange(n)
                if legal[i].small == legal[i].big == 0:
                    break
            return i
        if rng.random() < self.pass_rate:
            return _index_of(legal, PASS)
        return rng.randrange(n)


def _index_of(legal: Any, action: Any) -> int:
    for i, a in enumerate(legal):
        if a == action:
            return i
    raise AssertionError(f"{action} is not in the legal actions {list(map(str, legal))}")


choosers = st.builds(
    Chooser,
    st.integers(0, 2**32).map(random.Random),
    st.sampled_from([0.0, 0.2, 1.0, -1.0]),  # share of uniform setup answers; -1: contrary
    st.sampled_from([0.3, 0.6, 0.9]),
    st.sampled_from([0.1, 0.5, 1.0]),
)


# -------------------------------------------------------------------------- helpers


def new(seed: int, opts: dict[str, Any], deal: Any = None) -> Any:
    return paiju.new_game("baohuang", seed=seed, deal=deal, **opts)


def hand_text(g: Any, seat: int) -> list[str]:
    return [str(c) for c in g.hand(seat)]


def legal_texts(g: Any) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def snapshot(g: Any) -> dict[str, Any]:
    """Everything observable through the interface."""
    snap: dict[str, Any] = {
        "to_act": g.to_act,
        "is_over": g.is_over,
        "phase": g.phase,
        "views": [g.view(s) for s in (*SEATS, None)],
        "hands": [hand_text(g, s) for s in SEATS],
        "legal": legal_texts(g),
        "history": [str(a) for a in g.history],
        "record": g.record(),
    }
    if g.is_over:
        snap["scores"] = g.scores
    return snap


@functools.cache
def cards_of(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def play_events(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The plays in a view's event list (events of an action that carry its cards)."""
    return [e for e in view["events"] if "action" in e and isinstance(e.get("cards"), str)]


def role_card_holder(g: Any) -> int | None:
    """The seat that holds or played the guard card / the copy of the called card that
    the emperor does not hold, derived from hands and the public plays."""
    pub = g.view(None)
    emp = pub["emperor"]
    if g.options["guard"] == "card":
        target, skip = GUARD_CARD, None
    else:
        if pub["called"] is None:
            return None
        target, skip = Card.parse(pub["called"]), emp
    for s in SEATS:
        if s != skip and target in g.hand(s):
            return s
    for e in play_events(pub):
        if e["seat"] != skip and target in parse_cards(e["cards"]):
            return e["seat"]
    return emp  # every copy is the emperor's: hidden solo 暗独


def hidden_role_card(g: Any, seat: int) -> Card | None:
    """The role-revealing card ``seat`` holds while it is hidden (its plays with it and
    without it are two actions, spec §4)."""
    if g.guard_revealed or g.solo == "open" or g.phase != "play":
        return None
    hand = g.hand(seat)
    if g.options["guard"] == "card":
        return GUARD_CARD if GUARD_CARD in hand else None
    called = Card.parse(g.view(None)["called"])
    if seat != g.emperor and called in hand:
        return called
    return None


def expected_plays(g: Any) -> Counter[Any]:
    """The legal plays of the seat to act by brute force: every rank composition its hand
    can make, kept when it beats the play on the table (public ``beats``), respecting
    憋6, with the twin that shows a hidden role card."""
    seat = g.to_act
    pub = g.view(None)
    hand = g.hand(seat)
    c = [0] * 15
    for card in hand:
        c[strength(card)] += 1
    o = g.options
    held = strength_of_text(o["hold_rank"]) if o["hold_sixes"] else -1
    last = pub["last_play"]
    old = parse_play(last["play"]) if last else None
    comps = []
    for b in range(c[BJ] + 1):
        for s in range(c[SJ] + 1):
            if b + s:
                comps.append(Play(-1, 0, s, b))
            for r in range(13):
                for n in range(1, c[r] + 1):
                    comps.append(Play(r, n, s, b))
    rc = hidden_role_card(g, seat)
    out: Counter[Any] = Counter()
    for p in comps:
        if p.n and p.rank == held and p.size != len(hand):
            continue  # 憋6: the held rank only in the play that empties the hand
        if old is not None:
            # every old card needs its own group of at least one and at most three cards
            if not old.size <= p.size <= 3 * old.size:
                continue
            if not beats(str(p), last["play"], kao=o["kao"]):
                continue
        if rc is None:
            out[p] += 1
            continue
        if rc.rank == SMALL_JOKER:
            uses, spare = p.small >= 1, c[SJ] - 1 >= p.small
        else:
            rs = strength(rc)
            uses = p.n >= 1 and p.rank == rs
            spare = not uses or c[rs] - 1 >= p.n
        if spare:
            out[p] += 1
        if uses:
            out[p._replace(reveal=rc)] += 1
    return out


def dealt_sizes(options: dict[str, Any]) -> list[int]:
    """Cards per seat after the deal (§1), seat by seat."""
    sizes = {"full": [44, 43, 43, 43, 43], "no345": [34, 34, 34, 33, 33], "weihai": [33] * 5}[options["deck"]]
    first = options["first_seat"]
    return [sizes[(s - first) % 5] for s in SEATS]


def swap(deal: list[list[Card]], a: int, x: Card, b: int, y: Card) -> list[list[Card]]:
    """The deal with card x of seat a and card y of seat b exchanged."""
    out = [list(h) for h in deal]
    out[a][out[a].index(x)] = y
    out[b][out[b].index(y)] = x
    return out
