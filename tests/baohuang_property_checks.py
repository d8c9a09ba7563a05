"""The checks of the Baohuang property tests (``test_baohuang_properties_*.py``): random
rooms (every preset, random toggles and owed tribute), random deals (seeds), random legal
play to the end of the hand.

What is checked, and where:

1. every applied action comes from ``legal_actions()`` and is ``in`` it; its text
   round-trips through ``parse_action``; the lazy lead list agrees with itself (len,
   index, iteration, ``in``, no duplicates); in play the legal set equals a brute-force
   enumeration of the hand filtered with the public ``beats`` (with 憋6 and the twins
   that show a hidden role card); ``a in legal_actions()`` exactly when ``apply(a)`` is
   accepted, and a refused action changes nothing (``check_legal``,
   ``check_legal_is_what_apply_accepts``);
2. cards are conserved: hands + cards played publicly + tribute pool + the cards
   travelling with the emperor card = the deck (marks ignored), with exactly one BJ*
   (and one SJ* with a fixed guard) (``check_cards``, ``test_deal``, ``check_tribute``);
3. scores sum to 0 and equal ``hand_scores`` for roles, places and multipliers derived
   from the public events and the position of the role card, not from the engine's own
   bookkeeping; every pre-play question is asked of the right seats in the right order
   (``check_scores``, ``check_rounds``);
4. ``paiju.replay`` of the JSON round-tripped record gives the same state, at random
   mid-game points and at the end; every view is JSON (``check_replay``);
5. no leak: every seat's view differs from the spectator's only in that seat's own
   private fields; while the guard (or a hidden solo) is hidden nobody else's view names
   him (``check_views``); two deals that differ only in *who* holds the role card, or in
   any two hidden cards, give identical views to everybody else and the same ``to_act``
   sequence until the rules let it show (``test_role_card_holder_is_invisible``,
   ``test_hidden_cards_are_invisible``);
6. ``clone()`` is equal and independent (``check_clone``);
7. ``legal_actions`` is never empty while ``to_act`` is set; ``to_act is None`` iff
   ``is_over`` iff ``phase == "over"``; the emperor leads; turns in play follow the
   spec's text (``TrickModel``: pass, 接风, auto-pass after a big joker, pass_is_final,
   让牌); the hand ends exactly when §4 says (``hand_should_end``);
8. ``hosted_action`` and ``hint`` always return a legal action, and the one §7/§8 name;
9. a 3-hand match: standings sum to 0 and are the sum of the hands' scores; the next
   hand's deal start and Qingdao tribute (``test_match_of_three_hands``).

Positions get the cheap checks at every step; the expensive ones at every setup step
and at a sampled share of play steps (``play_hand``).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

import paiju
from baohuang_property_helpers import (
    EMPEROR_CARD,
    GUARD_CARD,
    PERSONAL,
    SEATS,
    Chooser,
    cards_of,
    expected_plays,
    hand_text,
    hidden_role_card,
    legal_texts,
    play_events,
    role_card_holder,
    snapshot,
)
from paiju.baohuang import PASS, YIELD, Declare, Play, deck_cards, hand_scores, hint, hosted_action, tribute_plan
from paiju.baohuang.plays import BJ, SJ, strength, strength_of_text
from paiju.cards import Card, parse_cards

# -------------------------------------------------------------------------- the checks


def check_cards(g: Any) -> None:
    """Check 2: hands + public plays + tribute pool + travelling cards = the deck."""
    pub = g.view(None)
    cards: list[Card] = []
    for s in SEATS:
        cards += g.hand(s)
        assert pub["hand_counts"][s] == len(g.hand(s))
    for e in play_events(pub):
        cards += cards_of(e["cards"])
    cards += parse_cards(pub["tribute_pool"])
    in_hands = any(EMPEROR_CARD in g.hand(s) for s in SEATS) or any(
        EMPEROR_CARD in cards_of(e["cards"]) for e in play_events(pub)
    )
    if not in_hands:
        # the emperor card is travelling 让位 (with the attached cards 贴牌)
        assert pub["emperor"] is None and pub["step"] == "emperor", pub["step"]
        holder = pub["emperor_card_holder"]
        attached = g.view(holder).get("attached_cards", [])
        assert len(attached) == pub["attached"]
        for s in SEATS:
            if s != holder:
                assert "attached_cards" not in g.view(s)
        cards += parse_cards(attached) + [EMPEROR_CARD]
    deal = g.record()["deal"]
    if deal is None or g.deals > 1:
        deck = deck_cards(g.options["deck"])
    else:  # an explicit deal need not deal the whole deck
        deck = [c.unmarked() for h in deal for c in parse_cards(h)]
        assert Counter(deck) <= Counter(deck_cards(g.options["deck"]))
    assert Counter(c.unmarked() for c in cards) == Counter(deck)
    marks = Counter(c for c in cards if c.marked)
    assert marks[EMPEROR_CARD] == 1
    assert marks[GUARD_CARD] == (1 if g.options["guard"] == "card" else 0)


def check_views(g: Any) -> None:
    """Check 5 (per position): a seat's view = the spectator's view + its own secrets."""
    pub = g.view(None)
    hidden = not g.is_over and not g.guard_revealed
    assert pub["hand"] is None and "legal_actions" not in pub and "attached_cards" not in pub
    if hidden:
        assert pub["guard"] is None
        assert "guard" not in pub["roles"]
        assert pub["solo"] in (None, "open")
    # the true guard, from where the role card is (the emperor himself: hidden solo)
    guard = None
    if pub["emperor"] is not None and g.step != "call" and pub["solo"] != "open":
        guard = role_card_holder(g)
        assert guard == g.guard
    for s in SEATS:
        v = g.view(s)
        for k, val in v.items():
            if k not in PERSONAL:
                assert val == pub[k], (s, k)
        assert set(v) - set(pub) <= {"legal_actions", "attached_cards", "solo_calls"}
        assert v["seat"] == s
        assert v["hand"] == hand_text(g, s)
        if s == g.to_act:
            assert v["legal_actions"] == legal_texts(g)
        else:
            assert "legal_actions" not in v
        for t in SEATS:
            if t != s:
                assert v["roles"][t] == pub["roles"][t], (s, t)
        if pub["emperor"] is not None and g.step != "call":
            assert v["roles"][s] == g.role_of(s)
        if hidden:
            # nobody else learns who the guard is, nor that the emperor is alone
            expect_guard = s if (guard == s and s != g.emperor) else None
            assert v["guard"] == expect_guard, (s, v["guard"])
            assert v["roles"].count("guard") == (1 if expect_guard is not None else 0)
            if guard == g.emperor and s != g.emperor:
                assert v["solo"] is None  # 暗独 stays hidden
        else:
            assert v["guard"] == pub["guard"] and v["solo"] == pub["solo"]
        # no other field lists cards: the only card lists are the own hand, own legal
        # actions, own attached cards, and public plays / tribute
        for k in ("hand_counts", "finished", "rebels_declared"):
            assert all(isinstance(x, int) for x in v[k])


def check_legal(g: Any, legal: Any, full: bool) -> None:
    """Checks 1, 7, 8 at one position."""
    assert g.to_act in SEATS and not g.is_over
    assert g.phase in ("setup", "play")
    n = len(legal)
    assert n > 0
    hosted = hosted_action(g)
    assert hosted in legal
    if g.phase == "play":
        h = hint(g)
        assert h in legal
        if g.is_leading():
            assert PASS not in legal and YIELD not in legal
            # 托管 and 提示 lead the lowest single (憋6: not of the held rank), else the
            # whole hand; a single without the hidden role card when there is one
            hand = g.hand(g.to_act)
            o = g.options
            held = strength_of_text(o["hold_rank"]) if o["hold_sixes"] else -1
            free = [strength(c) for c in hand if strength(c) != held or len(hand) == 1]
            for p in (hosted, h):
                if free:
                    assert p.size == 1 and p.sorted_strengths() == [min(free)], (p, free)
                    rc = hidden_role_card(g, g.to_act)
                    if p.reveal is not None:
                        assert rc is not None and hand.count(rc) == sum(strength(c) == min(free) for c in hand)
                else:
                    assert p.size == len(hand)
        else:
            assert PASS in legal and hosted == PASS  # 托管 passes when following
            assert YIELD not in legal or g.options["yield_turn"]
            plays = [a for a in legal if isinstance(a, Play)]
            if plays:
                # 提示: the smallest play that beats (fewest cards, then lowest cards)
                assert isinstance(h, Play)
                best = min((p.size, p.sorted_strengths(), p.reveal is not None) for p in plays)
                assert (h.size, h.sorted_strengths(), h.reveal is not None) == best
            else:
                assert h == PASS
    else:
        names = [a.name for a in legal]
        for default in ("accept", "no"):  # §7: accept when eligible, else say no
            if default in names:
                assert hosted.name == default
                break
    if full:
        items = list(legal)
        assert len(items) == n
        assert [legal[i] for i in range(n)] == items
        assert len(set(items)) == n, "duplicate legal actions"
        for a in items:
            assert a in legal
            assert g.parse_action(str(a)) == a, str(a)
        if g.phase == "play":
            plays = Counter(a for a in items if isinstance(a, Play))
            assert plays == expected_plays(g)
        else:
            assert all(isinstance(a, Declare) for a in items)


def hand_should_end(g: Any, emp: int, guard: int | None, solo: str | None) -> bool:
    """Spec §4: when the hand ends, from the finishing order."""
    done = set(g.view(None)["finished"])
    if solo == "open":
        return bool(done)
    if solo == "hidden":
        return emp in done or len(done) >= 2
    return (emp in done and guard in done) or all(s in done for s in SEATS if s not in (emp, guard))


class TrickModel:
    """Spec §4's turn order in play, written from the text: after a play the others
    holding cards answer in seat order (with ``pass_is_final``, not those who passed
    earlier in the trick); when all have passed the last player leads, or — if he went
    out — the next player holding cards (接风); without ``kao`` a big joker ends the
    trick at once; 让牌: when the circle has passed or yielded without a play, each
    yielder gets one more turn (and may not yield again)."""

    def __init__(self, g: Any) -> None:
        self.kao = g.options["kao"]
        self.final = g.options["pass_is_final"]
        self.yield_turn = g.options["yield_turn"]
        self._new_trick(g.emperor, g)

    def _new_trick(self, last: int, g: Any) -> None:
        sizes = g.view(None)["hand_counts"]
        leader = next(s for s in ((last + k) % 5 for k in range(5)) if sizes[s])
        self.last: int | None = None
        self.circle = [leader]
        self.finals: set[int] = set()
        self.yielders: list[int] = []
        self.second = False

    def check(self, g: Any, legal: Any) -> None:
        assert g.to_act == self.circle[0], (g.to_act, self.circle)
        assert g.is_leading() == (self.last is None)
        if self.last is not None:
            assert (YIELD in legal) == (self.yield_turn and not self.second)

    def after(self, g: Any, seat: int, action: Any) -> None:
        if g.is_over:
            return
        sizes = g.view(None)["hand_counts"]
        if isinstance(action, Play):
            self.last = seat
            if action.big and not self.kao:
                self._new_trick(seat, g)  # 大王 cannot be beaten: everyone passes
                return
            self.circle = [s for s in ((seat + k) % 5 for k in range(1, 5)) if sizes[s] and s not in self.finals]
            self.yielders, self.second = [], False
        else:
            if action == YIELD:
                self.yielders.append(seat)
            elif self.final:
                self.finals.add(seat)
            self.circle.pop(0)
        if not self.circle and self.yielders and not self.second:
            last = self.last
            assert last is not None
            self.circle = sorted(self.yielders, key=lambda s: (s - last) % 5)
            self.yielders, self.second = [], True
        if not self.circle:
            assert self.last is not None
            self._new_trick(self.last, g)


def check_rounds(g: Any, events: list[dict[str, Any]]) -> None:
    """Spec §3: who is asked what before play, and in which order (from the public
    events of the last deal)."""
    o = g.options
    by: dict[str, list[tuple[int, str]]] = {}
    for e in events:
        if "step" in e:
            by.setdefault(e["step"], []).append((e["seat"], e["action"]))
    crowned = [e["seat"] for e in events if e.get("event") == "emperor"]
    em = by["emperor"]
    for (s1, a1), (s2, _) in zip(em, em[1:]):
        # the emperor card goes to the 上家, or two seats on in weihai (once)
        assert a1 == "abdicate"
        assert s2 == ((s1 + 2) % 5 if o["abdication"] == "weihai" else (s1 - 1) % 5)
    calls = by.get("call", [])
    opened = em[-1][1] == "open_solo" or any(a == "open_solo" for _, a in calls)
    assert em[-1] == (crowned[0], "open_solo" if em[-1][1] == "open_solo" else "accept")
    assert [s for s, _ in calls] == ([crowned[0]] if o["guard"] == "call" and em[-1][1] != "open_solo" else [])
    grab = by.get("grab", [])
    if o["solo_grab"] and not opened:
        # nearest to the emperor in the 上家 direction first; the first grab wins
        assert [s for s, _ in grab] == [(crowned[0] - k) % 5 for k in range(1, len(grab) + 1)]
        assert all(a == "no" for _, a in grab[:-1])
        assert len(grab) == 4 or grab[-1][1] == "grab"
        opened = opened or grab[-1][1] == "grab"
    else:
        assert not grab
    emp = crowned[-1]
    others = [(emp + k) % 5 for k in range(1, 5)]
    reveal, rebel, kick = by.get("reveal", []), by.get("rebel", []), by.get("kick", [])
    if opened:
        assert not reveal and not rebel and not kick
        return
    # 明保 is asked of every non-emperor seat until the guard answers it
    assert [s for s, _ in reveal] == others[: len(reveal)]
    assert all(a == "no" for _, a in reveal[:-1])
    assert len(reveal) == 4 or reveal[-1][1] == "reveal"
    shown = reveal[-1][1] == "reveal"
    # a weihai abdication shows who kept the guard card: nobody rebels to unmask him
    known = o["abdication"] == "weihai" and len(em) > 1
    if o["rebellion"] and not shown and not known:
        assert [s for s, _ in rebel] == others  # the guard is asked too
    else:
        assert not rebel
    standing = sum(a == "rebel" for _, a in rebel) >= 2
    if not o["kick"] or not (standing or shown):
        assert not kick
    elif standing:
        side = [emp] + ([g.guard] if g.guard != emp else [])
        assert [s for s, _ in kick] == side[: len(kick)]
        assert all(a == "no" for _, a in kick[:-1])
    else:
        assert [s for s, _ in kick] == [s for s in others if s != g.guard]


def check_scores(g: Any) -> None:
    """Check 3, from the public end view and the public events only."""
    pub = g.view(None)
    assert g.phase == "over" and g.to_act is None and g.is_over
    assert g.legal_actions() == [] or len(g.legal_actions()) == 0
    scores = g.scores
    assert sum(scores) == 0
    assert pub["scores"] == list(scores)
    finished = [e["seat"] for e in pub["events"] if e.get("event") == "finished"]
    assert finished == pub["finished"]
    # players left holding cards: fewer cards place better; equal counts, the one who
    # would play sooner after the last finisher (§4, revised)
    left = [s for s in SEATS if s not in finished]
    if g.options["unfinished_places"] == "cards":
        left.sort(key=lambda s: (pub["hand_counts"][s], (s - finished[-1]) % 5))
    places = finished + left
    assert pub["places"] == places
    place = {s: i + 1 for i, s in enumerate(places)}
    last_deal = max(i for i, e in enumerate(pub["events"]) if e.get("event") == "deal")
    answers = [e for e in pub["events"][last_deal:] if "step" in e]
    check_rounds(g, pub["events"][last_deal:])
    emp = [e["seat"] for e in pub["events"] if e.get("event") == "emperor"][-1]
    assert pub["emperor"] == emp
    open_solo = any(e.get("event") == "open_solo" for e in pub["events"][last_deal:])
    holder = role_card_holder(g)
    solo = "open" if open_solo else "hidden" if holder == emp else None
    guard = None if solo else holder
    assert pub["solo"] == solo and pub["guard"] == guard
    assert hand_should_end(g, emp, guard, solo)
    reveal = [e for e in answers if e["action"] == "reveal"]
    rebels = [e["seat"] for e in answers if e["action"] == "rebel"]
    kicks = [e["seat"] for e in answers if e["action"] == "kick"]
    assert not reveal or reveal[0]["seat"] == guard
    rebellion = len(rebels) >= 2
    n_kicks = 1 if (kicks and rebellion) or len(kicks) >= 2 else 0
    assert (pub["open_guard"], pub["rebellion"], pub["kicks"]) == (bool(reveal), rebellion, n_kicks)
    assert pub["rebels_declared"] == rebels
    n_tribute = 0
    if g.options["tribute"]:
        plan = tribute_plan(emp, guard, places)
        n_tribute = sum(n for _, n in plan["givers"]) if plan else 0
    res = hand_scores(
        place[emp],
        None if solo else place[guard],
        solo=solo,
        open_guard=bool(reveal),
        rebellion=rebellion,
        kicks=n_kicks,
        tribute_cards=n_tribute,
    )
    expect = tuple(res["emperor"] if s == emp else res["guard"] if s == guard else res["rebel"] for s in SEATS)
    assert scores == expect
    mult = (2 if reveal else 1) * (2 if rebellion else 1) * 2**n_kicks * (2 * n_tribute if n_tribute else 1)
    assert pub["multiplier"] == mult


def check_replay(g: Any) -> None:
    """Check 4: the JSON record replays to the same state."""
    rec = json.loads(json.dumps(g.record()))
    snap = snapshot(g)
    assert snapshot(paiju.replay(rec)) == snap
    for v in snap["views"]:  # every view is JSON too
        assert json.loads(json.dumps(v)) == v


def check_clone(g: Any, rng: random.Random) -> None:
    """Check 6: a clone is equal, and acting on it leaves the original alone."""
    before = snapshot(g)
    c = g.clone()
    assert snapshot(c) == before
    legal = c.legal_actions()
    a = legal[rng.randrange(len(legal))]
    c.apply(a)
    assert snapshot(g) == before
    g2 = g.clone()
    g2.apply(a)
    assert snapshot(g2) == snapshot(c)  # deterministic, redeals included


def candidate_actions(g: Any, rng: random.Random) -> list[Any]:
    """Actions of every kind, legal or not, for the seat to act: declarations, pass and
    yield, and random compositions of its hand (one card too many of a kind included),
    with and without a role card marked as shown."""
    hand = g.hand(g.to_act)
    out: list[Any] = [PASS, YIELD, Play(5, 9)]
    out += [Declare(n) for n in ("accept", "abdicate", "open_solo", "grab", "reveal", "rebel", "kick", "no")]
    if hand:
        out += [Declare(n, str(rng.choice(hand))) for n in ("call", "take")]
    c = Counter(strength(x) for x in hand)
    ranks = [r for r in c if r < SJ]
    for _ in range(8):
        s, b = rng.randint(0, c[SJ] + 1), rng.randint(0, c[BJ] + 1)
        if ranks and rng.random() < 0.8:
            r = rng.choice(ranks)
            p = Play(r, rng.randint(1, c[r] + 1), s, b)
        else:
            p = Play(-1, 0, s, b)
        if p.size == 0:
            continue
        reveal = rng.choice([None, None, GUARD_CARD, *(x for x in hand if strength(x) in (p.rank, SJ))])
        out.append(p._replace(reveal=reveal))
    return out


def check_legal_is_what_apply_accepts(g: Any, legal: Any, rng: random.Random) -> None:
    """``a in legal_actions()`` exactly when ``apply(a)`` is accepted; a refused action
    raises IllegalAction (a ValueError) with a reason and changes nothing."""
    before = snapshot(g)
    for a in candidate_actions(g, rng):
        if a in legal:
            g.clone().apply(a)
        else:
            with pytest.raises(paiju.IllegalAction) as err:
                g.apply(a)
            assert isinstance(err.value, ValueError) and str(err.value)
    assert snapshot(g) == before


def play_hand(
    g: Any,
    chooser: Chooser,
    *,
    sample: float,
    replays: float = 0.02,
) -> int:
    """Random legal play to the end of the hand with the checks; returns the number of
    decisions. ``sample`` is the share of positions given the expensive checks (every
    setup position gets them), ``replays`` the share given replay, clone and
    illegal-action checks (each costs a replay of the hand so far)."""
    rng = chooser.rng
    steps = 0
    model: TrickModel | None = None
    started = False
    while not g.is_over:
        assert g.to_act is not None
        if g.phase == "play" and not started:
            started = True
            assert g.to_act == g.emperor and g.is_leading()  # the emperor leads
            model = TrickModel(g)
        legal = g.legal_actions()
        if model is not None:
            model.check(g, legal)
        heavy = g.phase != "play" or rng.random() < sample
        check_legal(g, legal, full=heavy)
        if heavy:
            check_cards(g)
            check_views(g)
        if rng.random() < replays:
            check_replay(g)
            check_clone(g, random.Random(rng.random()))
            check_legal_is_what_apply_accepts(g, legal, random.Random(rng.random()))
        i = chooser.index(g, legal)
        a = legal[i]
        assert a in legal
        text = str(a)
        assert g.parse_action(text) == a
        seat = g.to_act
        rc = hidden_role_card(g, seat) if g.phase == "play" else None
        g.apply(text if rng.random() < 0.5 else a)  # the text form is an action too
        steps += 1
        if isinstance(a, Play) and a.reveal is not None:
            assert a.reveal == rc
            assert g.guard_revealed
        elif isinstance(a, Play) and rc is not None and not g.is_over:
            # a play without the role card keeps it in hand and the role hidden
            assert rc in g.hand(seat) and not g.guard_revealed
        if model is not None:
            model.after(g, seat, a)
        if g.phase == "play" and g.emperor is not None and not g.is_over:
            solo = g.solo
            assert not hand_should_end(g, g.emperor, None if solo else g.guard, solo)
        assert (g.to_act is None) == g.is_over == (g.phase == "over")
    check_cards(g)
    check_views(g)
    check_scores(g)
    check_replay(g)
    return steps
