"""Property tests of the 双扣 Shuangkou engine: random rooms (options), random deals
(seeds), random legal play to the end of the hand; and perft pins.

What is checked, and where:

1. every applied action comes from ``legal_actions()`` and is ``in`` it; its text
   round-trips through ``parse_action``; the lazy lead list agrees with itself (len,
   index, iteration, ``in``, no duplicates); the legal set equals a brute-force
   enumeration: every play the public card reader accepts, held by the seat, filtered by
   §4 written out again in this file (``check_legal``);
2. whose turn it is follows from public information only: a model fed with nothing but
   the public view predicts every ``to_act`` — passes, trick ends, 接风, the end of the
   hand (``TurnModel``); two deals that differ in hidden cards give identical views to
   everybody else (``test_hidden_cards_are_invisible``);
3. cards are conserved: hands + the physical cards of every play = the deal = the deck
   (``check_cards``);
4. scores sum to 0 and follow from the public finishing order (``check_end``);
5. ``paiju.replay`` of the JSON round-tripped record gives the same views for every
   seat and the spectator, mid-game and at the end (``check_replay``);
6. no view holds another seat's cards: every seat's view differs from the spectator's
   only in that seat's own fields (``check_views``);
7. ``clone()`` is equal and independent, both ways (``check_clone``);
8. ``to_act`` is None iff the hand is over; ``legal_actions`` is never empty before;
   ``hosted_action`` and ``hint`` are legal, and what their docstrings say;
9. a 3-hand match: standings sum to 0, are the sum of the hands' scores, and the next
   hand's first lead is the previous first finisher after 单扣 / 平扣, random after 双扣.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections import Counter
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import paiju
from paiju.cards import Card, parse_cards
from paiju.shuangkou import (
    PASS,
    LeadPlays,
    Play,
    Shuangkou,
    deck_cards,
    hint,
    hosted_action,
    parse_play,
)
from paiju.shuangkou.combos import strength

SEATS = range(4)
RANK_TEXT = [*"3456789TJQKA", "2", "SJ", "BJ"]
PERSONAL = ("seat", "hand", "team", "partner", "legal_actions")
"""The fields of a view that belong to its seat alone (check 6)."""


# ---------------------------------------------------------------------------- rooms and oracles
@st.composite
def rooms(draw: st.DrawFn) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    if draw(st.booleans()):
        opts["min_triple_run"] = draw(st.sampled_from([2, 3]))
    if draw(st.booleans()):
        opts["four_joker_bomb"] = draw(st.booleans())
    for name in ("points_double", "points_single", "points_level"):
        if draw(st.integers(0, 3)) == 0:
            opts[name] = draw(st.integers(0, 9))
    if draw(st.booleans()):
        opts["first_lead"] = draw(st.sampled_from([None, 0, 1, 2, 3]))
    return opts


@cache
def universe(min_triple_run: int, four: bool) -> tuple[Play, ...]:
    """Every play there is, found by offering every block of ranks (1-8 cards each) to the
    public card reader."""
    out = []
    for low in range(15):
        for high in range(low, 15):
            for width in range(1, 9):
                text = " ".join(RANK_TEXT[r] for r in range(low, high + 1) for _ in range(width))
                with contextlib.suppress(paiju.IllegalAction):  # not a play: no part of the universe
                    out.append(parse_play(text, min_triple_run=min_triple_run, four_joker_bomb=four))
    return tuple(out)


def spec_beats(new: Play, old: Play) -> bool:
    """§4 once more: bombs by size then rank, the four jokers above all, others by shape."""
    kn, ko = new.kind, old.kind
    if ko == "four_jokers":
        return False
    if kn == "four_jokers":
        return True
    if kn == "bomb" and ko == "bomb":
        return (new.size, new.high) > (old.size, old.high)
    if kn == "bomb" or ko == "bomb":
        return kn == "bomb"
    return kn == ko and new.size == old.size and new.high > old.high


def counts_of(cards: list[Card]) -> list[int]:
    c = [0] * 15
    for card in cards:
        c[strength(card)] += 1
    return c


def brute_legal(g: Shuangkou) -> set[str]:
    seat = g.to_act
    assert seat is not None
    o = g.options
    c = counts_of(g.hand(seat))
    held = [
        p
        for p in universe(o["min_triple_run"], o["four_joker_bomb"])
        if all(c[r] >= p.width for r in range(p.low, p.high + 1))
    ]
    last = g.view(seat)["last_play"]
    if last is None:
        return {str(p) for p in held}
    old = parse_play(last["play"], min_triple_run=o["min_triple_run"], four_joker_bomb=o["four_joker_bomb"])
    return {str(p) for p in held if spec_beats(p, old)} | {"pass"}


# ---------------------------------------------------------------------------- whose turn, from public information
class TurnModel:
    """Predicts ``to_act`` from the public view alone (spec §4, §5)."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.left = list(view["hand_counts"])
        self.last: int | None = None
        self.passes = 0
        self.needed = 0
        self.to_act: int | None = view["first_lead"]

    def _next_holder(self, seat: int) -> int:
        return next(s for s in ((seat + k) % 4 for k in range(1, 4)) if self.left[s])

    def after(self, seat: int, view: dict[str, Any]) -> int | None:
        """``view`` is the spectator's after ``seat`` acted; its last play event says what."""
        event = next(e for e in reversed(view["events"]) if e.get("seat") == seat and "action" in e)
        if event["action"] == "pass":
            assert self.last is not None
            self.passes += 1
            if self.passes < self.needed:
                self.to_act = self._next_holder(seat)
            else:  # everybody else holding cards passed: the last player leads, else 接风
                w = self.last
                mate = (w + 2) % 4
                self.to_act = w if self.left[w] else mate if self.left[mate] else self._next_holder(w)
                self.last = None
            return self.to_act
        self.left[seat] -= len(event["cards"].split())
        self.last, self.passes = seat, 0
        if any(not self.left[a] and not self.left[b] for a, b in ((0, 2), (1, 3))):
            self.to_act = None
            return None
        self.needed = sum(1 for s in SEATS if s != seat and self.left[s])
        self.to_act = self._next_holder(seat)
        return self.to_act


# ---------------------------------------------------------------------------- checks
def views(g: paiju.Game) -> list[str]:
    return [json.dumps(g.view(s), sort_keys=True) for s in [*SEATS, None]]


def snapshot(g: paiju.Game) -> tuple[Any, ...]:
    return (json.dumps(g.record(), sort_keys=True), views(g), g.to_act, [g.hand(s) for s in SEATS])


def check_legal(g: Shuangkou, legal: Any, full: bool) -> None:
    assert len(legal) > 0
    if g.is_leading():
        assert isinstance(legal, LeadPlays)
        assert PASS not in legal
    else:
        assert legal[-1] == PASS
    if not full:
        return
    items = list(legal)
    assert len(items) == len(legal) == len(set(items))
    assert [legal[i] for i in range(len(legal))] == items
    assert all(a in legal for a in items)
    assert {str(a) for a in items} == brute_legal(g)
    for a in items:
        assert g.parse_action(str(a)) == a


def check_cards(g: Shuangkou) -> None:
    dealt = Counter(c for h in g.record()["deal"] for c in parse_cards(h))
    played = Counter(c for e in g.view(None)["events"] if "cards" in e for c in parse_cards(e["cards"]))
    held = Counter(c for s in SEATS for c in g.hand(s))
    assert held + played == dealt
    assert all(dealt[c] <= n for c, n in Counter(deck_cards()).items()) and sum(dealt.values()) == 108


def check_views(g: Shuangkou) -> None:
    public = g.view(None)
    assert public["hand"] is None
    strip = {k: v for k, v in public.items() if k not in PERSONAL}
    for s in SEATS:
        v = g.view(s)
        assert v["hand"] == [str(c) for c in g.hand(s)]
        assert {k: x for k, x in v.items() if k not in PERSONAL} == strip
        assert ("legal_actions" in v) == (s == g.to_act)
        json.dumps(v)


def check_replay(g: Shuangkou) -> None:
    rec = json.loads(json.dumps(g.record()))
    again = paiju.replay(rec)
    assert views(again) == views(g) and again.to_act == g.to_act and again.record() == g.record()


def check_end(g: Shuangkou) -> None:
    assert g.is_over and g.to_act is None and g.phase == "over" and g.legal_actions() == []
    scores = g.scores
    assert sum(scores) == 0 and len(scores) == 4
    order = g.view(None)["finished"]
    first, mate = order[0], (order[0] + 2) % 4
    place = order.index(mate) + 1 if mate in order else 4
    result = {2: "double", 3: "single", 4: "level"}[place]
    assert g.result == result
    points = g.options[f"points_{result}"]
    assert scores == tuple(points if s % 2 == first % 2 else -points for s in SEATS)
    assert (order[-1] + 2) % 4 in order[:-1]  # the last one out completed his team


def random_action(g: paiju.Game, rng: random.Random) -> Any:
    legal = g.legal_actions()
    return legal[rng.randrange(len(legal))]


def play_hand(g: Shuangkou, rng: random.Random, full_every: int = 7) -> int:
    """Random legal play to the end with the checks; returns the number of decisions."""
    model = TurnModel(g.view(None))
    assert g.to_act == model.to_act
    clone_at = rng.randrange(1, 120)
    n = 0
    while g.to_act is not None:
        seat = g.to_act
        legal = g.legal_actions()
        full = n % full_every == 0
        check_legal(g, legal, full)
        a = legal[rng.randrange(len(legal))]
        assert a in legal and g.parse_action(str(a)) == a
        assert hosted_action(g) in legal and hint(g) in legal
        if full:
            check_views(g)
        if n == clone_at:
            check_clone(g, rng)
        if n % 40 == 20:
            check_replay(g)
        g.apply(a)
        n += 1
        assert g.to_act == model.after(seat, g.view(None))
    check_cards(g)
    check_views(g)
    check_end(g)
    check_replay(g)
    return n


def check_clone(g: Shuangkou, rng: random.Random) -> None:
    c = g.clone()
    before = snapshot(g)
    assert snapshot(c) == before
    c.apply(random_action(c, rng))  # the clone moves on: the original does not
    assert snapshot(g) == before
    mark = snapshot(c)
    g2 = g.clone()
    while g2.to_act is not None:  # a second clone plays to the end: neither other moves
        g2.apply(random_action(g2, rng))
    assert snapshot(g) == before and snapshot(c) == mark


# ---------------------------------------------------------------------------- the properties
@settings(max_examples=30, deadline=None)
@given(room=rooms(), seed=st.integers(0, 2**62), play_seed=st.integers(0, 2**32))
def test_random_hands(room: dict[str, Any], seed: int, play_seed: int) -> None:
    g = paiju.new_game("shuangkou", seed=seed, **room)
    assert isinstance(g, Shuangkou)
    check_cards(g)
    decisions = play_hand(g, random.Random(play_seed))
    assert decisions == len(g.history)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**62), play_seed=st.integers(0, 2**32), data=st.data())
def test_hidden_cards_are_invisible(seed: int, play_seed: int, data: st.DataObject) -> None:
    """Swap one card of different rank between two seats: the other seats (and a
    spectator) see the same views and the same turns until a play shows a swapped card."""
    dealt = paiju.new_game("shuangkou", seed=seed)
    a, b = data.draw(st.sampled_from([(x, y) for x in SEATS for y in SEATS if x < y]))
    hands = [[str(c) for c in dealt.hand(s)] for s in SEATS]
    i = data.draw(st.integers(0, 26))
    j = next((k for k in range(27) if Card.parse(hands[b][k]).rank != Card.parse(hands[a][i]).rank), None)
    if j is None:
        return
    g = paiju.new_game("shuangkou", seed=seed, deal=[list(h) for h in hands])
    hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    h = paiju.new_game("shuangkou", seed=seed, deal=hands)
    assert g.to_act == h.to_act == dealt.to_act  # the leader comes from the seed, not the cards
    observers = [s for s in [*SEATS, None] if s not in (a, b)]
    rng = random.Random(play_seed)
    while g.to_act is not None:
        for s in observers:
            assert g.view(s) == h.view(s)
        act = random_action(g, rng)
        if act not in h.legal_actions():
            break
        g.apply(act)
        h.apply(act)
        if g.view(None)["events"][-3:] != h.view(None)["events"][-3:]:
            break  # a swapped card was shown: public now
        assert g.to_act == h.to_act


@settings(max_examples=15, deadline=None)
@given(room=rooms(), seed=st.integers(0, 2**62), play_seed=st.integers(0, 2**32))
def test_match_of_three_hands(room: dict[str, Any], seed: int, play_seed: int) -> None:
    m = paiju.new_match("shuangkou", seed=seed, hands=3, **room)
    rng = random.Random(play_seed)
    total = [0, 0, 0, 0]
    for number in range(1, 4):
        g = m.game
        assert isinstance(g, Shuangkou) and m.hand_number == number
        while g.to_act is not None:
            g.apply(random_action(g, rng))
        total = [t + s for t, s in zip(total, g.scores)]
        assert m.standings == total and sum(m.standings) == 0
        if number == 3:
            assert m.is_over
            with pytest.raises(paiju.IllegalAction):
                m.next_hand()
            break
        nxt = m.next_hand()
        expected = None if g.result == "double" else g.finished[0]
        assert nxt.options["first_lead"] == expected
        if expected is not None:
            assert nxt.to_act == expected
        assert {k: v for k, v in nxt.options.items() if k != "first_lead"} == {
            k: v for k, v in g.options.items() if k != "first_lead"
        }


# ---------------------------------------------------------------------------- perft: pinned counts
def first_lead_count(hand: str, **options: Any) -> int:
    g = paiju.new_game("shuangkou", seed=1, deal=[hand, "K", "K", "K"], first_lead=0, **options)
    legal = g.legal_actions()
    assert len(set(legal)) == len(legal) == len(list(legal))
    return len(legal)


def follow_legal(hand: str, lead: str, **options: Any) -> list[str]:
    g = paiju.new_game("shuangkou", seed=1, deal=[lead, hand, "3", "3"], first_lead=0, **options)
    g.apply(lead)
    return [str(a) for a in g.legal_actions()]


def test_perft_leads_from_small_deals() -> None:
    # six single ranks: 6 singles + straights 34567, 45678, 345678 = 9
    assert first_lead_count("3 4 5 6 7 8") == 9
    # four pairs and two BJ: singles 3 4 5 6 BJ = 5; pairs 33 44 55 66 BJBJ = 5;
    # pair runs 334455, 445566, 33445566 = 3 (no straight: four ranks) → 13
    assert first_lead_count("33 44 55 66 BJ BJ") == 13
    # 333 444 555 6666 2: singles 3 4 5 6 2 = 5; pairs 3 4 5 6 = 4; triples 3 4 5 6 = 4;
    # bomb 6666 = 1; pair runs on 3-6: 2 of 3 pairs + 1 of 4 = 3; triple runs the same 3 → 20;
    # with min_triple_run=2 three more triple runs (333444, 444555, 555666) → 23
    assert first_lead_count("333 444 555 6666 2") == 20
    assert first_lead_count("333 444 555 6666 2", min_triple_run=2) == 23
    # jokers and 2s: singles 3 2 SJ BJ = 4; pairs 22 SJSJ BJBJ = 3; triple 222 = 1;
    # bomb 2222 = 1 → 9; the four jokers are one more play only with the option → 10
    assert first_lead_count("SJ SJ BJ BJ 2222 3") == 9
    assert first_lead_count("SJ SJ BJ BJ 2222 3", four_joker_bomb=True) == 10
    # eight each of 3, 4, 5: 3 singles, 3 pairs, 3 triples, bombs of 4-8 cards: 5 × 3 = 15;
    # pair run 334455 = 1; triple run 333444555 = 1 → 26; min_triple_run=2 adds 333444, 444555 → 28
    assert first_lead_count("33333333 44444444 55555555") == 26
    assert first_lead_count("33333333 44444444 55555555", min_triple_run=2) == 28


def test_perft_follows_from_small_deals() -> None:
    # facing 34567 with 4 5 6 7 8 9 T + 9999: straights of five ending above 7: 45678, 56789,
    # 6789T = 3; bombs from five 9s: 9999, 99999 = 2; pass → 6
    assert follow_legal("4 5 6 7 8 9 T 9999", "34567") == ["45678", "56789", "6789T", "9999", "99999", "pass"]
    # facing 99 with TT JJ QQQ KKKK BJ BJ SJ: pairs TT JJ QQ KK BJBJ (one SJ is no pair) = 5;
    # bomb KKKK = 1; pass → 7
    assert len(follow_legal("TT JJ QQQ KKKK BJ BJ SJ", "99")) == 7
    # facing 445566 with 55 66 77 88 99 2222: three-pair runs ending above 6: 556677,
    # 667788, 778899 = 3 (longer runs have more cards); bomb 2222; pass → 5
    assert follow_legal("55 66 77 88 99 2222", "445566") == ["556677", "667788", "778899", "2222", "pass"]
    # facing the bomb 8888: only bigger bombs: 9999 (same size, higher), 33333 (more cards) → 3
    assert follow_legal("9999 33333 7777", "8888") == ["9999", "33333", "pass"]


def formula_leads(hand: list[Card], min_triple_run: int = 3) -> int:
    """Leads = distinct ranks + ranks ≥2 + ordinary ranks ≥3 + Σ(count − 3) over ordinary
    ranks ≥4 (bombs of 4 … count) + for each stretch of m consecutive ranks 3…A held w
    times, Σ over lengths L ≥ shortest of (m − L + 1)."""
    c = counts_of(hand)
    n = sum(1 for x in c if x) + sum(1 for x in c if x >= 2) + sum(1 for x in c[:13] if x >= 3)
    n += sum(x - 3 for x in c[:13] if x >= 4)
    for width, shortest in ((1, 5), (2, 3), (3, min_triple_run)):
        m = 0
        for r in range(13):
            if r < 12 and c[r] >= width:
                m += 1
                continue
            n += sum(m - length + 1 for length in range(shortest, m + 1))
            m = 0
    return n


@pytest.mark.parametrize(("seed", "pinned"), [(1, 70), (2, 33), (2024, 59)])
def test_perft_first_lead_of_seed_deals(seed: int, pinned: int) -> None:
    g = paiju.new_game("shuangkou", seed=seed)
    assert g.to_act is not None
    n = len(g.legal_actions())
    assert n == formula_leads(g.hand(g.to_act)) == pinned
