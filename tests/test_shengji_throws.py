"""Shengji 升级 throws 甩牌 (§6 Lead) and the declarer's succession 轮庄 (§5), each test
written from a line of ``docs/rules/shengji.md`` or of the seeds it quotes: which unit of a
throw can be beaten (single, pair, tractor, longer tractor), whose hands count (every other
player, the partner too), the part the leader must play instead (the beaten unit type
first), throws of trumps, ruffs of a throw under each ``throw_evaluation``, the same
through the engine, a brute-force property, and who declares the next hand.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import paiju
from paiju.shengji import Shengji, hosted_action, resolve_throw
from paiju.shengji.throw import failed_unit
from paiju.shengji.trump import TRUMP, TrumpOrder, trump_order
from paiju.shengji.units import Unit, counts_of, decompose
from shengji_helpers import S10, build_deal, to_play

EVALUATIONS = ["largest_unit", "all", "highest"]

LEAD_RULE = (
    "§6 Lead: A throw stands only if no other player can beat any of its units in that suit "
    "(a higher single than its lowest single, a higher pair than its lowest pair, a higher "
    "tractor of the same length …). If it fails, the leader must play the smallest failing part"
)


def throw(lead: str, others: list[str], **options: Any) -> list[str]:
    """What the leader plays (spades trump, playing 10, unless ``options`` say otherwise)."""
    return [str(c) for c in resolve_throw(lead, others, **{**S10, **options})]


def stands(lead: str, others: list[str], **options: Any) -> bool:
    return sorted(throw(lead, others, **options)) == sorted(lead.split())


# ---------------------------------------------------------------------------- each unit type fails
def test_a_thrown_single_is_beaten_by_a_higher_single() -> None:
    """§6 Lead: a throw fails when another player has "a higher single than its lowest single";
    §3: equal cards — the one played first wins, so an equal single beats nothing."""
    assert throw("Kh Qh Qh", ["3c", "Ah", "2d"]) == ["Kh"]
    assert stands("Kh Qh Qh", ["Kh", "Jh", "2d"])  # the other K is only equal
    assert stands("Kh Qh Qh", ["As", "BJ"])  # trumps do not beat a unit of hearts


def test_a_thrown_pair_is_beaten_by_a_higher_pair_only() -> None:
    """§6 Lead: "a higher pair than its lowest pair"; §1: a pair is two identical cards."""
    assert throw("Ah Qh Qh", ["Kh Kh"]) == ["Qh", "Qh"]
    assert stands("Ah Qh Qh", ["Kh Jh", "Kh"])  # two Ks in two hands, a K and a J: no pair
    assert stands("Ah Qh Qh", ["Jh Jh 9h 9h"])  # lower pairs


def test_a_thrown_tractor_is_beaten_by_a_higher_tractor_only() -> None:
    """§6 Lead: "a higher tractor of the same length"; a tractor is pairs of adjacent ranks."""
    assert throw("Ah 6h 6h 5h 5h", ["9h 9h 8h 8h"]) == ["6h", "6h", "5h", "5h"]
    assert stands("Ah 6h 6h 5h 5h", ["9h 9h 7h 7h", "Kh Kh"])  # pairs, but no tractor
    assert stands("Ah 6h 6h 5h 5h", ["4h 4h 3h 3h"])  # a lower tractor
    # a tractor of two pairs does not beat one of three
    assert stands("Ah 7h 7h 6h 6h 5h 5h", ["Kh Kh Qh Qh", "Jh Jh 9h 9h"])


def test_a_thrown_tractor_is_beaten_by_a_longer_higher_tractor() -> None:
    """§6 Lead: a tractor is beaten by "a higher tractor of the same length": a longer higher
    tractor holds one (99 88 77 holds 99 88), so 66 55 A against 99 88 77 fails to 6655."""
    assert throw("6h 6h 5h 5h Ah", ["9h 9h 8h 8h 7h 7h"]) == ["6h", "6h", "5h", "5h"]
    assert throw("6h 6h 5h 5h Ah", ["2c", "Kh Kh Qh Qh Jh Jh 9h 9h"]) == ["6h", "6h", "5h", "5h"]
    assert stands("6h 6h 5h 5h Ah", ["4h 4h 3h 3h 2h 2h"])  # longer but lower


# ---------------------------------------------------------------------------- the part played instead
def test_the_beaten_unit_type_decides_before_the_lowest_card() -> None:
    """§6 Lead: "the smallest unit that can be beaten (seed: 若其余某家有此花色的J，则首家必须出9；
    若其余某家有此花色的QQ或55，则首家必须出44 — the beaten unit type decides)". With 98844 a Q
    beats the 9, yet QQ forces 44: a beaten pair goes before a beaten single, however low the
    single. So 5 QQ against KK 6 fails to QQ, not to the 5."""
    assert throw("5h Qh Qh", ["Kh Kh 6h"]) == ["Qh", "Qh"]
    assert throw("5h Qh Qh", ["6h", "Kh Kh"]) == ["Qh", "Qh"]  # the beaters in two hands
    assert throw("5h Qh Qh", ["6h", "Jh Jh"]) == ["5h"]  # only the single is beaten
    assert throw("9h 8h 8h 4h 4h", ["Qh Qh"]) == ["4h", "4h"]  # the seed's own example


def test_a_beaten_tractor_goes_before_a_beaten_pair_or_single() -> None:
    """§6 Lead, "the beaten unit type decides": tractors before pairs before singles (throw.py's
    [decision]: the unit with the most cards), then the lowest of that type."""
    assert throw("Qh Qh Jh Jh 3h 3h", ["Ah Ah Kh Kh"]) == ["Qh", "Qh", "Jh", "Jh"]
    assert throw("9h 9h 8h 8h 2h", ["Kh Kh Qh Qh 3h"]) == ["9h", "9h", "8h", "8h"]
    assert throw("Qh Qh Jh Jh 3h 3h", ["Ah Ah", "4h 4h"]) == ["3h", "3h"]  # pairs only: the lower


def test_among_beaten_units_of_one_type_the_lowest_is_played() -> None:
    """§6 Lead: "the smallest unit that can be beaten" — among units of one type, the lowest."""
    assert throw("Ah Qh 5h", ["Kh"]) == ["5h"]
    assert throw("Ah Ah Qh Qh 5h 5h", ["Kh Kh"]) == ["5h", "5h"]
    assert throw("Qh Qh Jh Jh 6h 6h 5h 5h", ["Ah Ah Kh Kh"]) == ["6h", "6h", "5h", "5h"]


def test_triples_a_beaten_tractor_goes_before_a_beaten_triple() -> None:
    """§9 (3 packs, ``triples``): a triple is beaten by a higher triple; throw.py's [decision]
    orders the beaten units by their cards, so a tractor of two pairs (4) before a triple (3)."""
    t5 = dict(trump_suit="h", level="5", decks=3, triples=True)
    lead = "Qs Qs Qs 8s 8s 7s 7s"
    assert throw(lead, ["Ks Ks Ks Ts Ts 9s 9s"], **t5) == ["8s", "8s", "7s", "7s"]
    assert throw(lead, ["Ks Ks Ks"], **t5) == ["Qs", "Qs", "Qs"]
    assert stands(lead, ["Ks Ks 9s 9s"], **t5)


# ---------------------------------------------------------------------------- throws of trumps
@pytest.mark.parametrize("how", EVALUATIONS)
def test_a_throw_of_trumps_fails_by_the_same_rule(how: str) -> None:
    """§6: "all trumps form one suit" and a throw is "several units of one suit"; §3 trump
    order BJ > SJ > trump-suit level > other level cards (equal) > trump A …. The failed-throw
    rule is the same whatever ``throw_evaluation`` (which only compares ruffs, §7)."""
    o = dict(throw_evaluation=how)
    assert throw("Ts Ts As", ["Tc"], **o) == ["As"]  # an off-suit level card beats the trump A
    assert stands("Ts Ts As", ["Ks Ks", "Ah Ah"], **o)  # lower trumps; hearts are no trumps
    assert throw("BJ Th Th", ["SJ SJ"], **o) == ["Th", "Th"]
    assert throw("BJ Th Th", ["Ts Ts"], **o) == ["Th", "Th"]  # the trump-suit level pair is higher
    assert stands("BJ Th Th", ["Tc Tc", "Td Td", "BJ"], **o)  # equal pairs, an equal BJ
    # a tractor of trumps (♠10♠10 ♣10♣10) before the lower single: the type decides
    assert throw("Ts Ts Tc Tc As", ["BJ BJ SJ SJ"], **o) == ["Ts", "Ts", "Tc", "Tc"]
    # a longer higher trump tractor (SJ SJ ♠10♠10 ♥10♥10, a spec example) beats KKQQ
    assert throw("BJ Ks Ks Qs Qs", ["SJ SJ Ts Ts Th Th"], **o) == ["Ks", "Ks", "Qs", "Qs"]
    assert stands("BJ Ks Ks Qs Qs", ["SJ SJ Th Th"], **o)  # SJ and an off-suit 10: not adjacent


def test_an_equal_tractor_of_trumps_does_not_beat() -> None:
    """§6 Lead: "a higher tractor"; §3: equal cards — the one played first wins. With
    ``twos_trump`` at no-trump the 10s (all equal) sit just above the 2s (all equal), so
    ♥10♥10 ♥2♥2 and ♣10♣10 ♣2♣2 are equal tractors; SJ SJ ♣10♣10 is a higher one."""
    nt = dict(trump_suit=None, level="T", twos_trump=True)
    assert stands("Th Th 2h 2h BJ", ["Tc Tc 2c 2c", "Td Td 2d 2d"], **nt)
    assert throw("Th Th 2h 2h BJ", ["SJ SJ Tc Tc"], **nt) == ["Th", "Th", "2h", "2h"]


def test_triples_of_trumps_an_equal_triple_does_not_beat_a_higher_titanic_does() -> None:
    """§9 (playing 5, hearts trump, 3 packs): a triple is beaten by a higher triple, not an
    equal one (off-suit 5s are equal); "(off-suit 5)×3 (trump 5)×3" and "AAA + off-suit 5 ×3"
    are 泰坦尼克, the first higher than the second."""
    t5 = dict(trump_suit="h", level="5", decks=3, triples=True)
    assert stands("5s 5s 5s BJ", ["5c 5c 5c", "5d 5d 5d"], **t5)
    assert throw("5s 5s 5s BJ", ["5h 5h 5h"], **t5) == ["5s", "5s", "5s"]
    titanic = "5s 5s 5s Ah Ah Ah BJ"
    assert throw(titanic, ["5h 5h 5h 5d 5d 5d"], **t5) == ["5s", "5s", "5s", "Ah", "Ah", "Ah"]
    assert stands(titanic, ["5c 5c 5c 5d 5d 5d"], **t5)  # two equal triples: no 泰坦尼克


# ---------------------------------------------------------------------------- through the engine
def spades_trump(prefix: list[str], rest_to: int) -> Shengji:
    """A hand at level 10, spades trump (the 3rd kitty card), declarer 0 to lead: the given
    cards, the hearts not given all to seat ``rest_to``, the kitty buried back."""
    deal = build_deal(prefix, kitty="3c 4c 5s", prefer={rest_to: "h"})
    g = Shengji(seed=1, deal=deal, start_level="T", throw_penalty=10)
    to_play(g)
    assert g.trump_suit == "s" and g.to_act == 0
    return g


def hearts(g: Shengji, seat: int) -> str:
    return " ".join(str(c) for c in g.hand(seat) if c.suit == "h" and c.rank != 10)


def test_engine_failed_throw_plays_the_beaten_pair_before_a_lower_single() -> None:
    """§6 Lead (seed: 若其余某家有此花色的QQ或55，则首家必须出44 — the beaten unit type decides):
    seat 0 tries 5 QQ of hearts, seat 1 holds KK 6: the check accepts the throw, and the
    play is QQ; seat 1 must then follow a pair."""
    g = spades_trump(["Qh Qh 5h", "Kh Kh 6h"], rest_to=3)
    assert g.check("Qh Qh 5h") is None  # a throw is a legal lead; it fails when played
    g.apply("Qh Qh 5h")
    v = g.view(1)
    assert v["trick"] == [{"seat": 0, "cards": "Qh Qh"}] and v["failed_throw"] == "Qh Qh 5h"
    assert g.hand(0).count(paiju.Card.parse("5h")) == 1  # the 5 goes back to the hand
    assert g.penalty_points == 10  # the declarer's throw failed: to the defenders
    err = g.check("Kh 6h")
    assert err is not None and err.code == "must_follow_pair"
    assert g.check("Kh Kh") is None


@pytest.mark.parametrize("beater,rest_to", [(1, 2), (2, 1), (3, 1)])
def test_engine_every_other_hand_counts_the_partner_too(beater: int, rest_to: int) -> None:
    """§6 Lead: "A throw stands only if no other player can beat any of its units" — every
    other player, the partner (seat 2 for seat 0) as much as the defenders."""
    prefix = ["Ah Ah Jh", "", "", ""]
    prefix[beater] = "Kh Kh Qh Qh"
    g = spades_trump(prefix, rest_to=rest_to)
    for s in (1, 2, 3):  # nobody else holds a heart above the J
        assert s == beater or all(c.rank <= 11 for c in g.hand(s) if c.suit == "h"), g.hand(s)
    g.apply("Ah Ah Jh")
    assert g.view(None)["trick"] == [{"seat": 0, "cards": "Jh"}]
    assert g.view(None)["failed_throw"] == "Ah Ah Jh"


def test_engine_a_throw_nobody_can_beat_is_played_whole() -> None:
    """§6 Lead: the throw stands when no other player can beat any of its units."""
    g = spades_trump(["Ah Ah Kh", "", "Kh Qh Qh"], rest_to=1)
    g.apply("Ah Ah Kh")
    assert g.view(None)["trick"] == [{"seat": 0, "cards": "Ah Ah Kh"}]
    assert g.view(None)["failed_throw"] is None and g.penalty_points == 0


def test_engine_a_longer_higher_tractor_beats_a_thrown_tractor() -> None:
    """§6 Lead: a tractor is beaten by a higher tractor of its length; 99 88 77 holds 99 88,
    so 66 55 A fails to 6655 (and seat 1 must follow it with a tractor, §6 Follow)."""
    g = spades_trump(["6h 6h 5h 5h Ah", "9h 9h 8h 8h 7h 7h", "Kh Qh Jh"], rest_to=3)
    assert hearts(g, 3) == "Ah Kh Qh Jh 4h 4h 3h 3h 2h 2h"  # 443322: longer, but lower
    g.apply("6h 6h 5h 5h Ah")
    assert g.view(None)["trick"] == [{"seat": 0, "cards": "6h 6h 5h 5h"}]
    err = g.check("9h 9h 7h 7h")
    assert err is not None and err.code == "must_follow_tractor"
    assert g.check("9h 9h 8h 8h") is None and g.check("8h 8h 7h 7h") is None


@pytest.mark.parametrize("how", EVALUATIONS)
def test_engine_a_throw_of_trumps_fails_to_its_beaten_tractor(how: str) -> None:
    """§6: all trumps are one suit; ♠10♠10 ♣10♣10 is a tractor (spades trump, playing 10),
    beaten by BJ BJ SJ SJ; the beaten tractor is played before the lower single ♠A."""
    deal = build_deal(["Ts Ts Tc Tc As", "BJ BJ SJ SJ"], kitty="3c 4c 5s")
    g = Shengji(seed=1, deal=deal, start_level="T", throw_evaluation=how)
    to_play(g)
    g.apply("Ts Ts Tc Tc As")
    assert g.view(None)["trick"] == [{"seat": 0, "cards": "Ts Ts Tc Tc"}]
    assert g.check("BJ BJ SJ SJ") is None
    g.apply("BJ BJ SJ SJ")
    for _ in range(2):
        g.apply(g.legal_actions()[0])
    assert g.tricks[0]["winner"] == 1 and g.to_act == 1


@pytest.mark.parametrize(
    "ruff1,ruff2,winner",
    [
        # largest unit: 66 > 55; highest: Q > 6; all: the 3 does not beat the Q
        ("Qs 5s 5s", "3s 6s 6s", {"largest_unit": 2, "highest": 1, "all": 1}),
        # largest unit: 44 < 55; highest: A > 5; all: 44 does not beat 55
        ("3s 5s 5s", "As 4s 4s", {"largest_unit": 1, "highest": 2, "all": 1}),
        # every unit higher: the over-ruff wins every way
        ("3s 5s 5s", "4s 6s 6s", {"largest_unit": 2, "highest": 2, "all": 2}),
    ],
)
@pytest.mark.parametrize("how", EVALUATIONS)
def test_engine_ruffs_of_a_standing_throw_by_throw_evaluation(
    how: str, ruff1: str, ruff2: str, winner: dict[str, int]
) -> None:
    """§7 ``throw_evaluation``: "largest_unit (default: compare the largest matching units …
    毙牌的大小以毙牌中的拖拉机和对牌大小为准), all (every unit must beat its counterpart),
    highest (highest card decides)". Seat 0's A KK of hearts stands (the other A is only
    equal); seats 1 and 2, void in hearts, ruff it; the trick's winner leads next."""
    deal = build_deal(["Ah Kh Kh", ruff1, ruff2], kitty="3c 4c 8s", prefer={3: "h"})
    g = Shengji(seed=1, deal=deal, start_level="T", throw_evaluation=how)
    to_play(g)
    assert not hearts(g, 1) and not hearts(g, 2)
    for play in ("Ah Kh Kh", ruff1, ruff2, "Qh Qh Jh"):
        assert g.check(play) is None
        g.apply(play)
    assert g.tricks[0]["plays"][0]["cards"] == "Ah Kh Kh"  # the throw stood
    assert g.tricks[0]["winner"] == winner[how] and g.to_act == winner[how]


# ---------------------------------------------------------------------------- property: brute force
def units_held(counts: dict[int, int], t: TrumpOrder) -> list[tuple[str, int, int]]:
    """Every unit the cards ``counts`` (one play-suit) can form, as ``(kind, length, top)``,
    enumerated from the definitions (§1, §6, §9): a single is a card; a pair two identical
    cards; a tractor k ≥ 2 pairs whose ranks are adjacent in the suit's order (§3 orders
    are consecutive integers: adjacent ⇔ differing by one); a triple three identical cards;
    a 泰坦尼克 two triples of adjacent ranks."""
    o = t.order
    out = [("single", 1, o[c]) for c in counts]
    pairs = {o[c] for c, n in counts.items() if n >= 2}
    out += [("pair", 1, p) for p in pairs]
    for top in pairs:  # k pairs at the orders top, top − 1, …, top − k + 1
        k = 2
        while top - k + 1 in pairs:
            out.append(("tractor", k, top))
            k += 1
    if t.triples:
        trips = [c for c, n in counts.items() if n >= 3]
        out += [("triple", 1, o[c]) for c in trips]
        out += [("titanic", 2, max(o[a], o[b])) for a, b in itertools.combinations(trips, 2) if abs(o[a] - o[b]) == 1]
    return out


def kind_of(u: Unit) -> tuple[str, int]:
    if u.triples:
        return ("triple", 1) if u.triples == 1 else ("titanic", 2)
    return ("single", 1) if u.pairs == 0 else ("pair", 1) if u.pairs == 1 else ("tractor", u.pairs)


def beaten_by(u: Unit, counts: dict[int, int], t: TrumpOrder) -> bool:
    """Can one hand beat unit ``u`` (§6 Lead): a unit of the same kind — for a tractor, of
    the same length — with a higher top (equal cards: the first played wins, §3)."""
    kind, length = kind_of(u)
    return any(k == kind and n == length and top > u.top for k, n, top in units_held(counts, t))


ORDERS = [
    ("s", 10, False, False),
    ("h", 2, False, False),
    (None, 10, False, False),
    ("d", 7, True, False),
    (None, 10, True, False),
]
TRIPLES = ("h", 5, False, True)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_standing_throw_is_beaten_by_no_other_hand(data: st.DataObject) -> None:
    """§6 Lead: "A throw stands only if no other player can beat any of its units in that
    suit … If it fails, the leader must play the smallest failing part … the beaten unit type
    decides". Random throws of one play-suit against the other three hands' cards of that
    suit (2 packs, or 3 with ``triples``): ``failed_unit`` returns None exactly when no unit
    of the throw is beaten by a unit some other hand can form (enumerated by brute force);
    otherwise it returns a beaten unit, none beaten has more cards, and none of as many
    cards is lower."""
    trump, level, twos, triples = data.draw(st.sampled_from([*ORDERS, TRIPLES]))
    t = trump_order(trump, level, twos, triples)
    suit = data.draw(st.sampled_from([s for s in (0, 1, 2, 3, TRUMP) if t.kinds[s]]))  # not the trump suit's
    copies = 3 if triples else 2
    kinds = t.kinds[suit]  # lowest first
    # the leader holds 0 … copies of each kind between two drawn orders (pairs, triples likely);
    # each copy left is another player's (others_pct %: one of three) or nobody's (in the
    # kitty, or played before)
    floor = data.draw(st.integers(0, max(0, len(kinds) - 4)))
    top = floor + data.draw(st.integers(3, 9))
    others_pct = data.draw(st.integers(0, 70))
    spread = data.draw(st.integers(1, 3))  # the others' cards go to 1, 2 or all 3 of them
    rnd = data.draw(st.randoms(use_true_random=False))  # the cards one by one (fast to draw)
    hands: list[dict[int, int]] = [{} for _ in range(4)]
    for i, c in enumerate(kinds):
        mine = rnd.choice([0, 0, 1, 2, 2, copies]) if floor <= i <= top else 0
        if mine:
            hands[0][c] = mine
        for _ in range(copies - mine):
            roll = rnd.randrange(100)
            if roll < others_pct:
                other = hands[1 + roll % spread]
                other[c] = other.get(c, 0) + 1
    units = decompose(hands[0], t)
    others = hands[1:]
    fu = failed_unit(units, others, t)
    if len(units) < 2:
        assert fu is None  # one unit is no throw
    assume(len(units) >= 2)
    beaten = [u for u in units if any(beaten_by(u, h, t) for h in others)]
    if fu is None:
        assert not beaten, (units, others)
        return
    assert fu in beaten
    assert all(u.size <= fu.size for u in beaten)
    assert all(u.top >= fu.top for u in beaten if u.size == fu.size)


def test_units_held_enumerates_by_the_definitions() -> None:
    """The brute force above, on the spec's examples (playing 10, hearts trump): JJ99 is a
    tractor (10 is gone), 554433 holds three tractors of two pairs and one of three."""
    t = trump_order("h", 10)
    ids = paiju.shengji.trump.ids_of
    assert ("tractor", 2, t.order[ids("Js")[0]]) in units_held(counts_of(ids("Js Js 9s 9s")), t)
    held = units_held(counts_of(ids("5s 5s 4s 4s 3s 3s")), t)
    assert sorted(k for k, n, _ in held if k == "tractor") == ["tractor"] * 3
    assert [n for k, n, _ in held if k == "tractor"].count(3) == 1
    assert not [u for u in units_held(counts_of(ids("Ts Ts Tc Tc")), t) if u[0] == "tractor"]


# ---------------------------------------------------------------------------- succession 轮庄 (§5)
STRONG = ["BJ 2s 2h As Ks Ah Kh Ad Kd Ac Kc Ts", "SJ 2d 2c Qs Js Qh Jh Qd Jd Qc Jc Th"]
WEAK = ["9s 8s 7s 6s 5s 4s 3s 9h 8h 7h 6h 5h", "4h 3h 5c 8d 7d 6d 5d 4d 3d 9c Td Tc"]
WEAK_KITTY = "3c 4c 9d 6c 7c 8c"  # no points


def one_sided_hand(declarer: int, declarers_strong: bool) -> Shengji:
    """A one-pack no-trump hand at level 2 where one team holds every trump and the top of
    every suit (each of its players holds cards of every suit above all the other team's):
    that team wins every trick, so the declarers hold (defenders 0 points) or the defenders
    take over (100 points). Played out 托管."""
    strong_seats = (declarer, declarer + 2) if declarers_strong else (declarer + 1, declarer + 3)
    hands = [""] * 4
    for i, s in enumerate(strong_seats):
        hands[s % 4] = STRONG[i]
    for i, s in enumerate(x for x in range(4) if x not in {s % 4 for s in strong_seats}):
        hands[s] = WEAK[i]
    g = Shengji(seed=1, deal=hands, kitty=WEAK_KITTY, decks=1, declarer=declarer, no_bid="no_trump")
    assert g.to_act == declarer  # the deal starts with the declarer of the hand
    to_play(g)
    assert g.declarer == declarer and g.to_act == declarer
    while not g.is_over:
        g.apply(hosted_action(g))
    return g


@pytest.mark.parametrize("declarer", range(4))
def test_declarers_winning_pass_the_deal_to_the_partner(declarer: int) -> None:
    """§5 (seeds 000, 003 3.1.5: 庄家升级时，下一副牌由其对家当庄家): "if the declarer's team
    wins (it levels up or holds), the declarer's partner is next declarer"."""
    g = one_sided_hand(declarer, declarers_strong=True)
    r = g.result
    assert r is not None and r["defender_points"] == 0 and r["declarers_hold"] and r["levels_up"] == 3
    partner = (declarer + 2) % 4
    assert r["next_declarer"] == partner
    opts = g.next_hand_options()
    assert opts["declarer"] == partner
    nxt = Shengji(seed=2, **opts)
    assert nxt.declarer == partner and nxt.level == 5  # the declarers' team level, up 3 from 2


@pytest.mark.parametrize("declarer", range(4))
def test_defenders_taking_over_pass_the_deal_to_the_declarers_next_player(declarer: int) -> None:
    """§5 (seeds 000, 003 3.1.5: 闲家上台时，下一副牌由此副牌的庄家的下家当庄家): "if the defenders
    take over (上台), the declarer's next player (下家) is next declarer" — §1: "Turn order is
    seat order", so the 下家 of seat d is seat d + 1 (seat 3's is seat 0), never d − 1."""
    g = one_sided_hand(declarer, declarers_strong=False)
    r = g.result
    assert r is not None and not r["declarers_hold"] and r["defender_points"] >= 100
    nxt_seat = (declarer + 1) % 4
    assert r["next_declarer"] == nxt_seat
    assert [t["leader"] for t in g.tricks[:2]] == [declarer, g.tricks[0]["winner"]]
    assert g.tricks[0]["winner"] in (nxt_seat, (declarer + 3) % 4)
    opts = g.next_hand_options()
    assert opts["declarer"] == nxt_seat
    nxt = Shengji(seed=2, **opts)
    assert nxt.declarer == nxt_seat and nxt.level == 5  # the new declarers' level, up 3 from 2
    assert nxt.to_act == nxt_seat  # the next deal starts with the new declarer


def test_a_match_passes_the_deal_by_the_rule() -> None:
    """§5 through a match of hands played out 托管: each next hand's declarer is the
    partner when the declarers held, the declarer's 下家 when the defenders took over."""
    m = paiju.new_match("shengji", seed=4, hands=4)
    for _ in range(3):
        g = m.game
        assert isinstance(g, Shengji)
        while not g.is_over:
            g.apply(hosted_action(g))
        r, d = g.result, g.declarer
        assert r is not None and d is not None
        assert r["next_declarer"] == ((d + 2) % 4 if r["declarers_hold"] else (d + 1) % 4)
        if g.match_over:
            break
        nxt = m.next_hand()
        assert isinstance(nxt, Shengji) and nxt.declarer == r["next_declarer"]


@pytest.mark.parametrize("changes", [True, False])
def test_in_later_hands_an_overturn_changes_only_the_suit(changes: bool) -> None:
    """§5: "Trump is declared again every hand at the new declarer team's level";
    ``overturn_changes_declarer`` (第一局翻主翻庄，第二局以后翻主不翻庄): "later an overturn
    changes only the suit". Seat 2 declares hearts, seat 1 overturns with a pair of
    spades: the declarer stays seat 3 (the hand's declarer), trump is spades."""
    deal = build_deal(["", "5s 5s", "5h", ""], kitty="3c 4c 5d")
    g = Shengji(seed=1, deal=deal, declarer=3, team_levels=["2", "5"], overturn_changes_declarer=changes)
    assert g.level == 5 and g.to_act == 3  # seat 3's team level; the deal starts with seat 3
    seats = {3: "", 0: "", 1: "", 2: "declare 5h"}
    for _ in range(4):
        g.apply(seats[g.to_act] or "no")
    while g.phase == "deal":
        legal = [str(a) for a in g.legal_actions()]
        g.apply("declare 5s 5s" if "declare 5s 5s" in legal else "no")
    assert [s for s, _ in g.declarations] == [2, 1]
    assert g.trump_suit == "s" and g.declarer == 3
    assert g.view(3)["kitty_received"]  # the declarer picks up the kitty


def test_first_hand_without_a_declaration_seat_0_declares_and_later_the_hand_s_declarer() -> None:
    """§5: "If nobody declared, seat 0 [decision]" — in the first hand only; a later hand has
    its declarer already (the succession), whether anybody declares or not."""
    first = Shengji(seed=1, deal=build_deal([], kitty="3c 4h 5d"))
    later = Shengji(seed=1, deal=build_deal([], kitty="3c 4h 5d"), declarer=2)
    for g in (first, later):
        assert g.match_over is False  # §2: no team has won a match in a hand not over
        while g.phase == "deal":
            g.apply("no")
    assert first.declarer == 0 and later.declarer == 2
    assert later.to_act == 2 and later.trump_suit == "d"  # the 3rd kitty card


@pytest.mark.parametrize("self_overturn", [True, False])
def test_without_self_overturn_the_declarer_may_not_overturn_himself_with_jokers(self_overturn: bool) -> None:
    """§4: the standing declarer "may reinforce 自保 his own suit by showing the pair"; to
    overturn his own declaration (自反) is allowed by the QQ pages and refused with
    ``self_overturn=False`` (the competition rulebook: 自已叫主后本人不能再翻主) — a pair of
    jokers (no-trump) overturns a suit like any other stronger declaration."""
    deal = build_deal(["2h SJ SJ"], kitty="3c 4c 5d")
    g = Shengji(seed=1, deal=deal, self_overturn=self_overturn)
    g.apply("declare 2h")
    for _ in range(7):
        g.apply("no")
    assert g.to_act == 0 and g.hand(0).count(paiju.Card.parse("SJ")) == 2
    legal = [str(a) for a in g.legal_actions()]
    if self_overturn:
        assert legal == ["no", "declare SJ SJ"]
        g.apply("declare SJ SJ")
        assert g.declaration is not None and g.declaration.suit is None
    else:
        assert legal == ["no"]
        err = g.check("declare SJ SJ")
        assert err is not None and err.code == "own_declaration"
