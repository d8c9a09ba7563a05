"""Shengji 升级 rules: every example of the spec and seeds, declarations, following
obligations, throws, scoring tables — through the pure helpers and through the engine."""

from __future__ import annotations

import itertools

import pytest

import paiju
from paiju import IllegalAction
from paiju.cards import packs
from paiju.shengji import is_legal_follow, kitty_multiplier, level_change, resolve_throw, trick_winner
from paiju.shengji.follow import follow_problem, legal_follows
from paiju.shengji.options import PACK_SIZES
from paiju.shengji.scoring import climb
from paiju.shengji.trump import ID_TEXT, NUM_IDS, card_id, ids_of, trump_order
from paiju.shengji.units import counts_of, decompose, is_tractor, shape_of

H10 = dict(trump_suit="h", level="T")  # the spec's examples: playing 10, hearts trump
S10 = dict(trump_suit="s", level="T")


def tractor(text: str, trump: str | None = "h", level: int = 10, twos: bool = False) -> bool:
    t = trump_order(trump, level, twos)
    ids = ids_of(text)
    if len({t.psuit[c] for c in ids}) != 1:
        return False
    return is_tractor(counts_of(ids), t)


# ---------------------------------------------------------------------------- card order
def test_trump_order_playing_ten_hearts() -> None:
    t = trump_order("h", 10)
    o = t.order
    seq = ["BJ", "SJ", "Th", "Ts", "Ah", "Kh", "Jh", "9h", "2h"]
    vals = [o[card_id(paiju.Card.parse(x))] for x in seq]
    assert vals == sorted(vals, reverse=True) and len(set(vals)) == len(vals)
    assert len({o[card_id(paiju.Card.parse(x))] for x in ("Ts", "Tc", "Td")}) == 1
    assert all(t.is_trump(card_id(paiju.Card.parse(x))) for x in ("Tc", "SJ", "2h"))
    assert not t.is_trump(card_id(paiju.Card.parse("As")))


def test_twos_trump_order() -> None:
    t = trump_order("h", 10, True)
    seq = ["BJ", "SJ", "Th", "Ts", "2h", "2s", "Ah", "3h"]
    vals = [t.order[card_id(paiju.Card.parse(x))] for x in seq]
    assert vals == sorted(vals, reverse=True) and len(set(vals)) == len(vals)
    assert t.is_trump(card_id(paiju.Card.parse("2c")))
    assert tractor("3s 3s 4s 4s", "h", twos=True) and not tractor("As As 3s 3s", "h", twos=True)
    assert tractor("2s 2s 2h 2h", "h", twos=True)  # off-suit 2 and trump-suit 2 are adjacent trumps
    assert tractor("2h 2h Tc Tc", "h", twos=True) and tractor("Ah Ah 2s 2s", "h", twos=True)


def test_no_trump_order() -> None:
    t = trump_order(None, 10)
    assert t.is_trump(card_id(paiju.Card.parse("Th"))) and not t.is_trump(card_id(paiju.Card.parse("Ah")))
    assert t.order[card_id(paiju.Card.parse("Th"))] == t.order[card_id(paiju.Card.parse("Ts"))]
    assert tractor("SJ SJ Th Th", None) and not tractor("Th Th Ts Ts", None)


# ---------------------------------------------------------------------------- tractors (§6)
@pytest.mark.parametrize(
    "text",
    [
        "Ks Ks Qs Qs",
        "Js Js 9s 9s",
        "5s 5s 4s 4s 3s 3s",
        "SJ SJ Th Th",
        "Th Th Ts Ts",
        "Ts Ts Ah Ah",
        "SJ SJ Th Th Ts Ts",
        "BJ BJ SJ SJ",
    ],
)
def test_tractors(text: str) -> None:
    assert tractor(text)


@pytest.mark.parametrize(
    "text",
    ["5s 5s 4s", "5s 4s 4s", "5s 5s 3s 3s", "Js Js Qs", "Ts Ts Tc Tc", "Jh Jh Th Th", "Js Js Ts Ts", "As As 2s 2s"],
)
def test_not_tractors(text: str) -> None:
    assert not tractor(text)


def test_decomposition_of_a_throw() -> None:
    t = trump_order("s", 10)
    units = decompose(counts_of(ids_of("9h 8h 8h 4h 4h")), t)
    assert [u.pairs for u in units] == [1, 1, 0]
    units = decompose(counts_of(ids_of("Ah Kh Kh Qh Qh Jh Jh 3h")), t)
    assert [u.pairs for u in units] == [3, 0, 0]


# ---------------------------------------------------------------------------- trumping (§6)
def test_trump_977_beats_544_and_884_overtrumps() -> None:
    assert trick_winner(["5h 4h 4h", "9s 7s 7s", "3h 2h 6h"], **S10) == 1
    assert trick_winner(["5h 4h 4h", "9s 7s 7s", "8s 8s 4s", "6h 3h 2h"], **S10) == 2


def test_trump_977_beats_567_and_884_does_not_overtrump() -> None:
    assert trick_winner(["5h 6h 7h", "9s 7s 7s", "8s 8s 4s", "3h 2h 2h"], **S10) == 1


def test_trump_998872_beats_ak5544_not_aa5544() -> None:
    assert trick_winner(["Ah Kh 5h 5h 4h 4h", "9s 9s 8s 8s 7s 2s"], **S10) == 1
    assert trick_winner(["Ah Ah 5h 5h 4h 4h", "9s 9s 8s 8s 7s 2s"], **S10) == 0


def test_trick_winner_ties_and_discards() -> None:
    assert trick_winner(["Kh", "Kh", "Ah", "Ah"], **S10, lead_seat=1) == 3  # equal: the earlier wins
    assert trick_winner(["Kh Kh", "Ah Qh", "As 3s"], **S10) == 0  # not pairs: no structure
    assert trick_winner(["Kh Kh", "Ah Ah", "3s 3s"], **S10) == 2
    assert trick_winner(["Th", "Tc", "Td"], **S10) == 0  # off-suit level cards are equal: the first wins
    assert trick_winner(["3s", "Tc", "Td", "Th"], **S10) == 1
    assert trick_winner(["Th", "Tc", "Ts"], **S10) == 2  # the trump-suit level card is higher
    with pytest.raises(IllegalAction):
        trick_winner(["Kh 3s", "Ah Ah"], **S10)


def test_a_mixed_discard_never_wins() -> None:
    """§6: a trump play wins only when *all* its cards are trumps (or, on a trump lead, all
    trumps); a void player's trump plus side card, or a short player's last card of the led
    suit plus a trump, is a discard 垫牌 however high its first card."""
    assert trick_winner(["Ah Kh", "3s 4c", "2h 3h"], **S10) == 0  # trump + club to a hearts throw
    assert trick_winner(["Ah Kh", "3s 4c"], **S10) == 0
    assert trick_winner(["6h 5h", "9s 4c", "3s 2s"], **S10) == 2  # the real ruff wins, not the mixed one
    assert trick_winner(["Ah Kh", "3s 4c", "9s 8s"], **S10) == 2
    assert trick_winner(["5h 4h", "Qh 3s"], **S10) == 0  # last heart + a trump: no structure of hearts
    assert trick_winner(["As Ks", "Ts 4c"], **S10) == 0  # trump lead: a level card + a club discards
    assert trick_winner(["5s 4s", "BJ 4c"], **S10) == 0  # nor does a joker + a club
    assert trick_winner(["Ah Kh", "3s 4c", "2h 3h"], **S10, throw_evaluation="highest") == 0
    assert trick_winner(["Ah Kh", "3s 4c", "2h 3h"], **S10, throw_evaluation="all") == 0


def test_trick_winner_throw_evaluation_options() -> None:
    plays = ["Ah Kh Kh", "3s 4s 4s", "As 2s 2s"]
    assert trick_winner(plays, **S10) == 1  # largest unit: 44 > 22
    assert trick_winner(plays, **S10, throw_evaluation="highest") == 2  # A is the highest card
    assert trick_winner(plays, **S10, throw_evaluation="all") == 1


@pytest.mark.parametrize("how", ["largest_unit", "highest", "all"])
def test_an_equal_ruff_of_a_throw_does_not_overtrump(how: str) -> None:
    """Equal cards: the one played first wins — under every ``throw_evaluation`` a second
    trump play whose units only equal the first's (off-suit level pairs are equal) loses."""
    assert trick_winner(["Ah Kh Kh", "3s Tc Tc", "3s Td Td"], **S10, throw_evaluation=how) == 1
    assert trick_winner(["Ah Kh Kh", "3s Tc Tc", "4s Td Td"], **S10, throw_evaluation=how) == 1  # the pair decides
    assert trick_winner(["Ah Kh Kh", "3s Tc Tc", "4s Ts Ts"], **S10, throw_evaluation=how) == 2  # a higher pair wins


# ---------------------------------------------------------------------------- throws (seed 003)
def test_throw_98844_fails_to_the_nine_with_a_jack_elsewhere() -> None:
    assert [str(c) for c in resolve_throw("9h 8h 8h 4h 4h", ["Jh 3c", "2c", "3d"], **S10)] == ["9h"]


@pytest.mark.parametrize("other", ["Qh Qh", "5h 5h"])
def test_throw_98844_fails_to_44_with_a_higher_pair_elsewhere(other: str) -> None:
    assert [str(c) for c in resolve_throw("9h 8h 8h 4h 4h", ["2c", other, "3d"], **S10)] == ["4h", "4h"]


def test_throw_stands_when_nobody_beats_a_unit() -> None:
    cards = resolve_throw("9h 8h 8h 4h 4h", ["7h 6h 3h", "2h 2h", "As As"], **S10)
    assert sorted(str(c) for c in cards) == sorted(["9h", "8h", "8h", "4h", "4h"])
    # a trump does not beat a throw of a plain suit; the two 7s are no pair (different suits)
    assert len(resolve_throw("Ah Kh Kh", ["3s 3s", "7h 7d", "Qh"], **S10)) == 3


def test_throw_with_jack_and_fives_elsewhere_plays_the_pair() -> None:
    # [decision] the beaten unit type decides: pairs before singles (as QQ → 44 in the seed)
    assert [str(c) for c in resolve_throw("9h 8h 8h 4h 4h", ["Jh", "5h 5h", ""], **S10)] == ["4h", "4h"]


def test_throw_tractor_beaten_by_a_higher_tractor_only() -> None:
    lead = "Qh Qh Jh Jh Ah"
    assert len(resolve_throw(lead, ["Kh Kh 9h 9h"], **S10)) == 5  # two pairs, no tractor
    assert len(resolve_throw(lead, ["Kh Kh"], **S10)) == 5  # a pair does not beat a tractor
    assert [str(c) for c in resolve_throw(lead, ["Kh Kh Qh Qh"], **S10)] == ["Qh", "Qh", "Jh", "Jh"]


# ---------------------------------------------------------------------------- following (§6)
def test_follow_suit_then_pairs() -> None:
    hand = "Ah 9h 9h 3c 3c"
    assert is_legal_follow("8h 8h", hand, "9h 9h", **S10)
    assert not is_legal_follow("8h 8h", hand, "Ah 9h", **S10)
    assert not is_legal_follow("8h 8h", hand, "Ah 3c", **S10)
    assert not is_legal_follow("8h 8h", hand, "3c 3c", **S10)
    assert is_legal_follow("8h", "Ah 3c", "Ah", **S10) and not is_legal_follow("8h", "Ah 3c", "3c", **S10)
    assert is_legal_follow("8h 8h", "Ah 3c 3c", "Ah 3c", **S10)  # short: all hearts plus any
    assert not is_legal_follow("8h 8h", "Ah 3c 3c", "3c 3c", **S10)
    assert is_legal_follow("8h 8h", "3c 3s", "3c 3s", **S10)  # void: anything


FOLLOW_CASES = [
    ("Ah Kh Kh", "Qh Qh 5h 4h 3c 3d"),  # a throw of a pair and a single: the pair is followed
    ("8h 8h", "Ah 9h 9h 3c"),
    ("8h 8h", "Ah 9h 3c 3c"),  # no pair of hearts: any two hearts
    ("8h 8h 7h 7h", "Qh Qh Jh Jh 5h 5h 3h 3c"),  # a tractor held: the tractor
    ("8h 8h 7h 7h", "Qh Qh 9h 9h 5h 3c"),  # two pairs, no tractor (T is the level): both pairs
    ("8h 8h 7h 7h", "Qh Qh 5h 4h 3c"),  # one pair: it and two more hearts
    ("Ah 8h 8h 7h 7h", "Jh Jh 9h 9h 8h 5h 3c"),  # a tractor and a single thrown; JJ99 is a tractor
    ("Ah Kh", "Qh 3c 3c 4d"),  # short of hearts: the heart and any other card
    ("Ah", "Kh 3c"),
    ("Ts Ts", "BJ SJ Tc Tc 4s 5h"),  # a trump pair led: the level pair is a trump pair
    ("4s 4s 3s 3s", "BJ BJ SJ 5s 5s Ah"),  # a trump tractor led: pairs of trumps
]


@pytest.mark.parametrize("lead,hand", FOLLOW_CASES)
def test_legal_follows_are_exactly_the_plays_the_rule_allows(lead: str, hand: str) -> None:
    """The engine's list of follows (lazy or listed) is every play of as many cards as the
    lead that :func:`follow_problem` accepts, each once — nothing more, nothing less."""
    t = trump_order("s", 10)
    lead_ids = ids_of(lead)
    shape = shape_of(decompose(counts_of(lead_ids), t))
    suit, n = t.psuit[lead_ids[0]], len(lead_ids)
    cnt = [0] * NUM_IDS
    for c in ids_of(hand):
        cnt[c] += 1
    offered = [tuple(sorted(p.cards)) for p in legal_follows(suit, shape, n, cnt, t)]
    assert len(offered) == len(set(offered))
    every = set(itertools.combinations(sorted(ids_of(hand)), n))
    assert set(offered) == {p for p in every if follow_problem(suit, shape, n, cnt, p, t) is None}
    assert offered  # there is always a legal follow


@pytest.mark.parametrize(
    "lead,hand,play,message,triples",
    [
        ("8h 8h", "9h 9h 3h", "9h 3h", "you hold a pair of hearts: you must follow the pair", False),
        ("8h 8h 7h 7h", "Qh Qh Jh Jh 5h 3c", "Qh Qh Jh 5h", "a tractor of 2 pairs of hearts: you must follow", False),
        ("8h 8h 7h 7h", "Qh Qh 9h 9h 5h 3c", "Qh Qh 9h 5h", "you hold 2 pairs of hearts: you must play them", False),
        # the tractor is followed, the pair is not: the message names the pair
        ("8h 8h 7h 7h 4h 4h", "Qh Qh Jh Jh 9h 9h 5h 3h", "Qh Qh Jh Jh 5h 3h", "you must follow the pair", False),
        ("5h 5h 5h", "Kh Kh Kh 3h 4c", "Kh Kh 3h", "you hold a triple of hearts: follow the triple", True),
        ("5h 5h 5h 6h 6h 6h", "Kh Kh Kh Qh Qh Qh 3h", "Kh Kh Kh Qh Qh 3h", "you hold a 泰坦尼克 of hearts", True),
    ],
)
def test_follow_messages_name_the_unit_not_followed(
    lead: str, hand: str, play: str, message: str, triples: bool
) -> None:
    t = trump_order("s", 10, triples=triples)
    lead_ids = ids_of(lead)
    shape = shape_of(decompose(counts_of(lead_ids), t))
    cnt = [0] * NUM_IDS
    for c in ids_of(hand):
        cnt[c] += 1
    problem = follow_problem(t.psuit[lead_ids[0]], shape, len(lead_ids), cnt, tuple(ids_of(play)), t)
    assert problem is not None and message in str(problem), problem


def test_a_throw_with_a_pair_is_followed_with_a_pair() -> None:
    assert not is_legal_follow("Ah Kh Kh", "Qh Qh 5h 4h", "Qh 5h 4h", **S10)
    assert is_legal_follow("Ah Kh Kh", "Qh Qh 5h 4h", "Qh Qh 5h", **S10)


def test_follow_tractor_then_pairs() -> None:
    lead = "8h 8h 7h 7h"
    assert not is_legal_follow(lead, "Kh Kh Qh Qh 3h 3h 2h", "Kh Kh 3h 3h", **S10)
    assert is_legal_follow(lead, "Kh Kh Qh Qh 3h 3h 2h", "Kh Kh Qh Qh", **S10)
    assert is_legal_follow(lead, "Kh Kh 5h 5h 3h 2h", "Kh Kh 5h 5h", **S10)
    assert not is_legal_follow(lead, "Kh Kh 5h 5h 3h 2h", "Kh Kh 3h 2h", **S10)
    assert is_legal_follow(lead, "Kh Kh 5h 3h 2h", "Kh Kh 3h 2h", **S10)
    assert not is_legal_follow(lead, "Kh Kh 5h 3h 2h", "Kh 5h 3h 2h", **S10)


def test_follow_trump_lead_counts_level_cards_and_jokers() -> None:
    assert not is_legal_follow("SJ", "Tc Ah 3s", "Ah", **S10)
    assert is_legal_follow("SJ", "Tc Ah 3s", "Tc", **S10)
    assert not is_legal_follow("5s 5s", "Tc Tc 3s Ah", "Tc 3s", **S10)


# ---------------------------------------------------------------------------- scoring (§7)
@pytest.mark.parametrize(
    "decks,points,expected",
    [
        (2, 0, (0, 3)),
        (2, 5, (0, 2)),
        (2, 35, (0, 2)),
        (2, 40, (0, 1)),
        (2, 75, (0, 1)),
        (2, 80, (1, 0)),
        (2, 115, (1, 0)),
        (2, 120, (1, 1)),
        (2, 155, (1, 1)),
        (2, 160, (1, 2)),
        (2, 195, (1, 2)),
        (2, 200, (1, 3)),
        (2, 240, (1, 4)),
        (1, 0, (0, 3)),
        (1, 15, (0, 2)),
        (1, 20, (0, 1)),
        (1, 40, (1, 0)),
        (1, 60, (1, 1)),
        (1, 80, (1, 2)),
        (1, 100, (1, 3)),
        (3, 0, (0, 3)),
        (3, 55, (0, 2)),
        (3, 60, (0, 1)),
        (3, 120, (1, 0)),
        (3, 180, (1, 1)),
        (3, 240, (1, 2)),
        (3, 300, (1, 3)),
    ],
)
def test_level_table(decks: int, points: int, expected: tuple[int, int]) -> None:
    assert level_change(points, decks) == expected


@pytest.mark.parametrize(
    "points,expected",
    [
        (0, (0, 3)),
        (35, (0, 2)),
        (75, (0, 1)),
        (115, (1, 0)),
        (120, (1, 2)),
        (145, (1, 2)),
        (150, (1, 3)),
        (300, (1, 3)),
    ],
)
def test_competition_level_table(points: int, expected: tuple[int, int]) -> None:
    assert level_change(points, 2, "competition") == expected


def test_kitty_multipliers() -> None:
    assert [kitty_multiplier(k) for k in range(4)] == [2, 4, 8, 16]
    assert [kitty_multiplier(k, trump=False) for k in range(4)] == [1, 1, 1, 1]  # 副牌胜出…乘以一
    assert [kitty_multiplier(k, "pairs_power_lead", trump=False) for k in range(4)] == [2, 4, 8, 16]
    assert [kitty_multiplier(k, "unit_size") for k in range(4)] == [2, 4, 8, 12]
    assert [kitty_multiplier(k, "competition") for k in range(4)] == [2, 4, 8, 8]
    assert kitty_multiplier(1, "competition", throw=True) == 2


def test_level_ladder() -> None:
    rungs = [2, 5, 10, 11, 12, 13, 14]
    assert climb(rungs, 2, 1) == 5 and climb(rungs, 5, 2) == 11 and climb(rungs, 13, 3) == 14
    assert climb(list(range(2, 15)), 12, 5) == 14


# ---------------------------------------------------------------------------- engine helpers
def build_deal(prefix: list[str], kitty: str = "", decks: int = 2, prefer: dict[int, str] | None = None) -> list[str]:
    """Hands starting with the given cards (seat s's i-th card is dealt at step 4i+s), the
    rest filled from the remaining cards (``prefer``: seat → suit it is filled with first);
    the kitty starts with ``kitty``."""
    n, k = PACK_SIZES[decks]
    prefix = list(prefix) + [""] * (4 - len(prefix))
    pool = counts_of(card_id(c) for c in packs(decks))
    hands = [ids_of(p) for p in prefix]
    kit = ids_of(kitty)
    for c in [c for h in hands for c in h] + kit:
        pool[c] -= 1
        assert pool[c] >= 0
    rest = [c for c in sorted(pool) for _ in range(pool[c])]
    for seat, suit in (prefer or {}).items():
        mine = [c for c in rest if ID_TEXT[c].endswith(suit)][: n - len(hands[seat])]
        for c in mine:
            rest.remove(c)
        hands[seat] += mine
    for h in hands:
        while len(h) < n:
            h.append(rest.pop())
    kit += rest
    assert len(kit) == k
    return [" ".join(ID_TEXT[c] for c in h) for h in hands] + [" ".join(ID_TEXT[c] for c in kit)]


def to_play(g: paiju.Game, bury: str | None = None) -> None:
    """Answer ``no`` through the deal and bury the given cards (default: the kitty back)."""
    while g.phase == "deal":
        g.apply("no")
    cards = bury.split() if bury is not None else g.view(g.to_act)["kitty_received"]
    for c in cards:
        g.apply(f"bury {c}")
    assert g.phase == "play"


# ---------------------------------------------------------------------------- declarations (§4)
def test_deal_asks_every_receiver_and_one_more_round() -> None:
    g = paiju.new_game("shengji", seed=3)
    seats = []
    while g.phase == "deal":
        seats.append(g.to_act)
        g.apply("no")
    assert seats[:100] == [i % 4 for i in range(100)]
    assert seats[100:] == [0, 1, 2, 3]
    assert g.phase == "bury" and g.declarer == 0  # nobody declared: seat 0 [decision]


def test_declaration_strength_order_and_overturn() -> None:
    deal = build_deal(["2h 2h", "2s 2s", "SJ SJ", "BJ BJ 2c"], kitty="3c 4c 5d")
    g = paiju.new_game("shengji", seed=1, deal=deal)
    assert g.to_act == 0 and [str(a) for a in g.legal_actions()] == ["no", "declare 2h"]
    g.apply("declare 2h")
    assert [str(a) for a in g.legal_actions()] == ["no"]  # seat 1: a single 2s is not stronger
    g.apply("no")
    g.apply("no")  # seat 2: one SJ declares nothing
    g.apply("no")
    # second round: seat 0 may reinforce with the pair; a pair of 2s from seat 1 overturns
    assert [str(a) for a in g.legal_actions()] == ["no", "declare 2h 2h"]
    g.apply("no")
    assert "declare 2s 2s" in [str(a) for a in g.legal_actions()]
    g.apply("declare 2s 2s")
    assert [str(a) for a in g.legal_actions()] == ["no", "declare SJ SJ"]
    with pytest.raises(IllegalAction, match="single joker"):
        g.apply("declare SJ")
    g.apply("declare SJ SJ")
    assert [str(a) for a in g.legal_actions()] == ["no", "declare BJ BJ"]
    g.apply("declare BJ BJ")
    while g.phase == "deal":
        g.apply("no")
    assert g.declarer == 3 and g.trump_suit is None
    assert [d["seat"] for d in g.view(0)["declarations"]] == [0, 1, 2, 3]


def test_self_overturn_by_default_and_not_in_competition_play() -> None:
    """自反 on by default (revised, seeds 000 and 003: 反无主 / 自保 / 反主 / 自反 …
    以上后三条以先出现者为准); ``self_overturn=False`` is the competition rulebook's
    自已叫主后本人不能再翻主. Reinforcing 自保 is allowed either way."""
    deal = build_deal(["2h 2s 2s 2h"], kitty="3c 4c 5d")
    g = paiju.new_game("shengji", seed=1, deal=deal)
    assert g.options["self_overturn"] is True
    g.apply("declare 2h")
    for _ in range(7):
        g.apply("no")
    # seat 0 declared with one 2h and holds 2s 2s: he may overturn himself
    assert [str(a) for a in g.legal_actions()] == ["no", "declare 2s 2s"]
    g.apply("declare 2s 2s")
    while g.phase == "deal":
        g.apply("no")
    assert g.trump_suit == "s" and g.declarer == 0
    strict = paiju.new_game("shengji", seed=1, deal=deal, self_overturn=False)
    strict.apply("declare 2h")
    for _ in range(7):
        strict.apply("no")
    assert [str(a) for a in strict.legal_actions()] == ["no"]
    with pytest.raises(IllegalAction, match="自反"):
        strict.apply("declare 2s 2s")
    for _ in range(4):
        strict.apply("no")
    assert [str(a) for a in strict.legal_actions()] == ["no", "declare 2h 2h"]  # reinforce 自保


def test_overturn_changes_declarer_option() -> None:
    deal = build_deal(["2h", "2s 2s"], kitty="3c 4c 5d")
    for changes, declarer in ((True, 1), (False, 0)):
        g = paiju.new_game("shengji", seed=1, deal=deal, overturn_changes_declarer=changes)
        g.apply("declare 2h")
        for _ in range(4):
            g.apply("no")
        g.apply("declare 2s 2s")
        while g.phase == "deal":
            g.apply("no")
        assert g.declarer == declarer and g.trump_suit == "s"


@pytest.mark.parametrize(
    "rule,trump,card",
    [("kitty_card:3", "d", "5d"), ("kitty_card:1", "c", "3c"), ("kitty_card:4", "s", "6s"), ("no_trump", None, None)],
)
def test_no_bid_rules(rule: str, trump: str | None, card: str | None) -> None:
    """Nobody declared: the 3rd kitty card's suit (seed 000), the 1st (seed 003 rule 七),
    the 4th (seed 003 3.1.3: 也有许多地方实行翻第4张) or no-trump."""
    deal = build_deal([], kitty="3c 4h 5d 6s")
    g = paiju.new_game("shengji", seed=1, deal=deal, no_bid=rule)
    while g.phase == "deal":
        g.apply("no")
    assert g.trump_suit == trump and g.declarer == 0
    assert g.view(2)["revealed_kitty_card"] == card


def test_joker_in_kitty_means_no_trump() -> None:
    g = paiju.new_game("shengji", seed=1, deal=build_deal(["", "", "", ""], kitty="3c 4h BJ"))
    while g.phase == "deal":
        g.apply("no")
    assert g.trump_suit is None


# ---------------------------------------------------------------------------- burying, following in the engine
def follow_game() -> paiju.Game:
    seat1 = "Ah 9h 9h " + " ".join(["3c", "4c", "6c", "7c", "8c", "9c", "Jc", "Qc", "Kc", "Ac", "3d"] * 2)
    deal = build_deal(["8h 8h 7s", seat1, "", ""], kitty="3s 4s 5s")
    g = paiju.new_game("shengji", seed=1, deal=deal, start_level="T")
    to_play(g)
    return g


def test_bury_is_one_card_per_decision_and_kitty_size() -> None:
    g = paiju.new_game("shengji", seed=5)
    while g.phase == "deal":
        g.apply("no")
    assert len(g.hand(g.to_act)) == 33
    legal = g.legal_actions()
    assert all(str(a).startswith("bury ") for a in legal)
    with pytest.raises(IllegalAction):
        g.apply("bury 2h 3h")
    for _ in range(8):
        g.apply(g.legal_actions()[0])
    assert g.phase == "play" and len(g.hand(g.declarer)) == 25


def test_follow_messages_name_the_rule() -> None:
    g = follow_game()
    assert g.trump_suit == "s" and g.to_act == 0
    g.apply("8h 8h")
    assert g.to_act == 1
    with pytest.raises(IllegalAction, match="you hold a pair of hearts: you must follow the pair"):
        g.apply("Ah 9h")
    with pytest.raises(IllegalAction, match="you still hold hearts"):
        g.apply("Ah 3c")
    with pytest.raises(IllegalAction, match="lead has 2"):
        g.apply("9h")
    with pytest.raises(IllegalAction, match="you do not hold 2 × Kh"):
        g.apply("Kh Kh")
    with pytest.raises(IllegalAction, match="you do not hold Qh$"):
        g.apply("Ah Qh")
    assert [str(a) for a in g.legal_actions()] == ["9h 9h"]
    g.apply("9h 9h")


def test_illegal_input_leaves_the_game_unchanged() -> None:
    g = follow_game()
    g.apply("8h 8h")
    before = (g.record(), g.view(1), g.view(None))
    for bad in ("Ah 9h", "Ah 3c", "9h", "no", "declare 2h", "bury 3c", "", "Xy", "Kh Kh", 5):
        with pytest.raises(IllegalAction):
            g.apply(bad)  # type: ignore[arg-type]
    assert (g.record(), g.view(1), g.view(None)) == before


def test_lead_mixing_suits_is_refused() -> None:
    g = follow_game()
    with pytest.raises(IllegalAction, match="mixes"):
        g.apply("8h 7s")


def test_failed_throw_in_the_engine_plays_the_smallest_unit() -> None:
    # seat 0 throws Kh 8h 8h: seat 1's Ah beats the K, nobody holds a heart pair above 8
    seat1 = "Ah 9h 3h " + " ".join(["3c", "4c", "6c", "7c", "8c", "9c", "Jc", "Qc", "Kc", "Ac", "3d"] * 2)
    deal = build_deal(["8h 8h Kh", seat1, "", ""], kitty="3s 4s 5s", prefer={0: "h"})
    g = paiju.new_game("shengji", seed=1, deal=deal, start_level="T", throw_penalty=10)
    to_play(g)
    for s in (2, 3):
        assert not [c for c in g.hand(s) if c.suit == "h" and c.rank > 8], g.hand(s)
    g.apply("Kh 8h 8h")
    v = g.view(2)
    assert v["trick"] == [{"seat": 0, "cards": "Kh"}] and v["failed_throw"] == "Kh 8h 8h"
    assert len(g.hand(0)) == 24 and g.hand(0).count(paiju.Card.parse("8h")) == 2
    assert g.penalty_points == 10  # the declarer's throw failed: 10 points to the defenders
    assert len(g.legal_actions()) == 3  # seat 1 follows with one heart: Ah, 9h or 3h


# ---------------------------------------------------------------------------- scoring in the engine
def test_hosted_playout_scores_and_views() -> None:
    g = paiju.new_game("shengji", seed=11)
    while not g.is_over:
        g.apply(paiju.shengji.hosted_action(g))
    r = g.result
    assert r is not None and sum(g.scores) == 0
    v = g.view(1)
    assert v["kitty"] and v["result"]["kitty_multiplier"] in (1, 2, 4, 8, 16, 32)
    pts = sum(t["points"] for t in g.tricks if t["winner"] % 2 != g.declarer % 2)
    assert r["trick_points"] == pts


def test_match_levels_declarer_and_win_at_a() -> None:
    m = paiju.new_match("shengji", seed=4)
    g = m.game
    while not g.is_over:
        g.apply(paiju.shengji.hosted_action(g))
    r = g.result
    nxt = m.next_hand()
    assert nxt.declarer == r["next_declarer"]
    assert [x for x in nxt.view(0)["team_levels"]] == r["team_levels"]
    # a hand where the declarers are at A and hold wins the match
    g2 = paiju.new_game("shengji", seed=2, team_levels=["A", "5"], declarer=0)
    while not g2.is_over:
        g2.apply(paiju.shengji.hosted_action(g2))
    if g2.result["declarers_hold"]:
        assert g2.match_over
        with pytest.raises(IllegalAction, match="match is over"):
            g2.next_hand_options()


def jack_hand(prefix: list[str], kitty: str, level: str, **options: object) -> paiju.Game:
    """A one-pack hand declarer 0 plays at ``level`` (team 1+3 at 4, or at 5 under a ladder),
    trump the suit of the first kitty card, the kitty buried back, played out 托管 to the end."""
    deal = build_deal(prefix, kitty=kitty, decks=1)
    other = "5" if "levels" in options else "4"
    opts = dict(decks=1, team_levels=[level, other], declarer=0, no_bid="kitty_card:1", **options)
    g = paiju.new_game("shengji", seed=1, deal=deal, **opts)
    to_play(g)
    while not g.is_over:
        g.apply(paiju.shengji.hosted_action(g))
    return g


def last_trick(g: paiju.Game) -> tuple[int, str]:
    """The winner of the hand's last trick and the cards he won it with."""
    t = g.tricks[-1]
    return t["winner"], next(p["cards"] for p in t["plays"] if p["seat"] == t["winner"])


@pytest.mark.parametrize("levels", [None, "2,5,T,J,Q,K,A"])
def test_jack_reset_sends_the_declarers_at_j_back_to_2(levels: str | None) -> None:
    """§2 ``jack_reset``: declarers playing level J whose defenders win the last trick with a
    J fall back to 2 (docs/decisions.md: the defenders' winning last play contains a level J)."""
    ladder = {} if levels is None else {"levels": levels}
    on = jack_hand(["", "Js"], "3s BJ SJ", "J", jack_reset=True, **ladder)
    off = jack_hand(["", "Js"], "3s BJ SJ", "J", jack_reset=False, **ladder)
    assert [t["plays"] for t in on.tricks] == [t["plays"] for t in off.tricks]  # one hand, two rooms
    assert on.level == 11 and last_trick(on) == (3, "Jh")  # a defender takes the last trick with a J
    assert on.result["jack_reset"] is True and off.result["jack_reset"] is False
    assert on.result["team_levels"][0] == "2" and off.result["team_levels"][0] == "J"
    assert on.result["team_levels"][1] == off.result["team_levels"][1]  # the defenders' climb is the same
    assert on.next_hand_options()["team_levels"][0] == "2"  # the match carries the reset on


@pytest.mark.parametrize(
    "prefix,kitty,level,winner,cards,levels",
    [
        (["Js Jh Jd Jc"], "3s BJ SJ", "J", 3, "Ts", ["J", "5"]),  # the defenders win the last trick without a J
        (["", "", "Js Jh Jd Jc"], "3s BJ SJ", "J", 2, "Js", ["J", "4"]),  # the declarers win it with a J
        (["", "Js Jh"], "3d BJ SJ", "Q", 1, "Jd", ["Q", "7"]),  # a defender's J, but the declarers play Q
    ],
)
def test_jack_reset_needs_level_j_and_the_defenders_last_trick_with_a_j(
    prefix: list[str], kitty: str, level: str, winner: int, cards: str, levels: list[str]
) -> None:
    g = jack_hand(prefix, kitty, level, jack_reset=True)
    assert last_trick(g) == (winner, cards)
    assert g.result["jack_reset"] is False and g.result["team_levels"] == levels


def test_option_validation() -> None:
    with pytest.raises(IllegalAction):
        paiju.new_game("shengji", decks=4)
    with pytest.raises(IllegalAction):
        paiju.new_game("shengji", no_bid="dealer")
    with pytest.raises(IllegalAction, match="three packs"):
        paiju.new_game("shengji", decks=2, triples=True)
    with pytest.raises(IllegalAction):
        paiju.new_game("shengji", bogus=1)
    g = paiju.new_game("shengji", levels="2,5,T,J,Q,K,A", start_level="2")
    assert g.options["levels"] == "2,5,T,J,Q,K,A"


# ---------------------------------------------------------------------------- declare_with_joker (§4)
def test_declare_with_joker_needs_a_joker_and_a_level_card() -> None:
    deal = build_deal(["7h SJ", "7s 7s", "7d BJ 7d", "BJ 7c"], kitty="3c 4c 5d")
    g = paiju.new_game("shengji", seed=1, deal=deal, declare_with_joker=True, start_level="7")
    # seat 0 holds 7h only: a level card alone declares nothing
    assert [str(a) for a in g.legal_actions()] == ["no"]
    with pytest.raises(IllegalAction, match="joker plus level cards"):
        g.apply("declare 7h")
    g.apply("no")
    assert [str(a) for a in g.legal_actions()] == ["no"]  # seat 1: 7s, no joker
    g.apply("no")
    assert [str(a) for a in g.legal_actions()] == ["no"]  # seat 2: 7d, no joker yet
    g.apply("no")
    assert [str(a) for a in g.legal_actions()] == ["no"]  # seat 3: BJ, no level card yet
    g.apply("no")
    # seat 0 now holds 7h SJ: a joker plus a level card declares
    assert [str(a) for a in g.legal_actions()] == ["no", "declare SJ 7h"]
    g.apply("declare 7h SJ")  # written in any order
    assert g.declaration is not None and g.declaration.suit == "h" and g.declaration.strength == 1
    assert g.view(1)["declaration"] == {"seat": 0, "cards": "SJ 7h"}
    g.apply("no")
    # seat 2 holds 7d BJ (and a second 7d comes later): a joker and ONE level card does not overturn
    assert [str(a) for a in g.legal_actions()] == ["no"]
    with pytest.raises(IllegalAction, match="nothing that beats"):
        g.apply("declare BJ 7d")
    g.apply("no")
    g.apply("no")
    g.apply("no")
    g.apply("no")
    # seat 2 now holds BJ 7d 7d: a joker plus two level cards of one suit overturns
    assert [str(a) for a in g.legal_actions()] == ["no", "declare BJ 7d 7d"]
    with pytest.raises(IllegalAction, match="joker plus level cards"):
        g.apply("declare 7d 7d")  # a pair of level cards without a joker is no declaration here
    g.apply("declare BJ 7d 7d")
    assert g.declaration is not None and g.declaration.suit == "d" and g.declaration.strength == 2
    while g.phase == "deal":
        g.apply("no")
    assert g.trump_suit == "d" and g.declarer == 2


def test_declare_with_joker_overturn_with_identical_jokers() -> None:
    deal = build_deal(["SJ 7h", "BJ BJ"], kitty="3c 4c 5d")
    g = paiju.new_game("shengji", seed=1, deal=deal, declare_with_joker=True, start_level="7")
    assert [str(a) for a in g.legal_actions()] == ["no"]
    with pytest.raises(IllegalAction, match="single joker"):
        g.apply("declare SJ")
    g.apply("no")
    assert [str(a) for a in g.legal_actions()] == ["no"]  # seat 1: one BJ so far
    for _ in range(3):
        g.apply("no")
    g.apply("declare SJ 7h")
    assert [str(a) for a in g.legal_actions()] == ["no", "declare BJ BJ"]  # two identical jokers overturn
    g.apply("declare BJ BJ")
    while g.phase == "deal":
        g.apply("no")
    assert g.trump_suit is None and g.declarer == 1


def test_declare_with_joker_reinforce_and_either_joker() -> None:
    deal = build_deal(["SJ 7h 7h BJ"], kitty="3c 4c 5d")
    g = paiju.new_game("shengji", seed=1, deal=deal, declare_with_joker=True, start_level="7")
    g.apply("no")
    for _ in range(3):
        g.apply("no")
    assert [str(a) for a in g.legal_actions()] == ["no", "declare SJ 7h"]
    g.apply("declare SJ 7h")
    for _ in range(3):
        g.apply("no")
    # seat 0: SJ 7h 7h — reinforce 自保 with the joker and the pair
    assert [str(a) for a in g.legal_actions()] == ["no", "declare SJ 7h 7h"]
    for _ in range(4):
        g.apply("no")
    # with BJ too, either joker may be shown ([decision]); the pair of BJ/SJ is not identical
    assert [str(a) for a in g.legal_actions()] == ["no", "declare BJ 7h 7h", "declare SJ 7h 7h"]
    with pytest.raises(IllegalAction, match="one joker plus level cards"):
        g.apply("declare BJ SJ 7h 7h")
    g.apply("declare BJ 7h 7h")
    assert g.declaration is not None and g.declaration.strength == 2 and g.declaration.seat == 0


# ---------------------------------------------------------------------------- two_colours (§8)
C1 = dict(decks=1, two_colours=True)


def test_two_colours_pairs_are_same_rank_same_colour() -> None:
    # ♥K♦K is a pair, ♣K♠K is a pair: following a red pair lead, a red pair must be played
    assert is_legal_follow("5h 5d", "Ah Qh Qd 3s", "Qh Qd", **S10, **C1)
    assert not is_legal_follow("5h 5d", "Ah Qh Qd 3s", "Ah Qh", **S10, **C1)
    assert trick_winner(["5h 5d", "Ah Kd", "6d 6h"], **S10, **C1) == 2  # 66 is a pair, AK is not
    assert trick_winner(["5h 5d", "Kc Ks", "6d 6h"], trump_suit="c", level="T", **C1) == 1  # black pair trumps
    # ♥K♠K is no pair: not even one suit (spades trump) — the follower may not treat it as a pair
    assert trick_winner(["5h 5d", "Kh Ks"], **S10, **C1) == 0
    with pytest.raises(IllegalAction, match="mixes"):
        trick_winner(["5h 5d", "Ah Kd"], **S10, decks=1)  # four suits: ♥5♦5 is not even one suit
    with pytest.raises(IllegalAction, match="mixes"):
        trick_winner(["Kh Ks", "3h 4h"], trump_suit=None, level="T", **C1)


def test_two_colours_spec_examples_kh_kd_and_kc_ks() -> None:
    # ♥K♦K is a pair, ♣K♠K is a pair, ♥K♠K is not (§8)
    assert trick_winner(["Qh Qd", "Kh Kd"], **S10, **C1) == 1
    assert trick_winner(["Qh Qd", "Kc Ks"], **S10, **C1) == 1  # spades trump: the black pair trumps
    assert trick_winner(["Qc Qs", "Kc Ks"], trump_suit="h", level="T", **C1) == 1
    assert trick_winner(["Qh Qd", "Kh 3d"], **S10, **C1) == 0  # a K and a 3: no pair
    assert not is_legal_follow("Qh Qd", "Kh Ks Kd 3c", "Kh Ks", **S10, **C1)  # ♥K♠K: not even one suit
    assert is_legal_follow("Qh Qd", "Kh Ks Kd 3c", "Kh Kd", **S10, **C1)


def test_two_colours_tractors() -> None:
    assert trick_winner(["7d 7h 8d 8h", "Ah Ad Kh Kd"], **S10, **C1) == 1  # ♦7♥7♦8♥8 is a tractor, AAKK higher
    assert trick_winner(["7d 7h 8d 8h", "Ah Ad Qh Qd"], **S10, **C1) == 0  # AAQQ: two pairs, no tractor
    # level cards: ♠T♣T (trump colour) above ♥T♦T, adjacent: a tractor in trumps
    assert trick_winner(["3h 3d 4h 4d", "Ts Tc Th Td"], **S10, **C1) == 1
    assert trick_winner(["3h 3d 4h 4d", "Ts Tc As Ac"], **S10, **C1) == 0  # TT and AA not adjacent (T above K)


def test_two_colours_throw_and_follow() -> None:
    # a red throw AA K: a red KK elsewhere does not beat AA; a single ♦A elsewhere does not exist
    assert len(resolve_throw("Ah Ad Kh", ["Qh Qd", "3s"], **S10, **C1)) == 3
    assert [str(c) for c in resolve_throw("Qh Qd 9h", ["Kh", "3s"], **S10, **C1)] == ["9h"]


def test_two_colours_in_the_engine() -> None:
    with pytest.raises(IllegalAction, match="one pack"):
        paiju.new_game("shengji", two_colours=True)
    g = paiju.new_game("shengji", seed=5, **C1)
    while g.phase == "deal":
        g.apply("no")
    assert g.trump_suit in ("h", "s", None)  # the colour of the kitty card (♦ → red, ♣ → black)
    for s in range(4):
        assert all(c.suit in ("s", "h", None) for c in g.hand(s))  # cards are shown as their colour card
    deal = build_deal(["Ts Kd", "Th Td"], kitty="3c 4c 5d", decks=1)
    g = paiju.new_game("shengji", seed=1, deal=deal, start_level="T", **C1)
    g.apply("declare Tc")  # ♣T plays as ♠T: black declared (shown as its colour card Ts)
    assert g.view(1)["declaration"] == {"seat": 0, "cards": "Ts"}
    g.apply("no")
    g.apply("no")
    g.apply("no")
    g.apply("no")
    assert [str(a) for a in g.legal_actions()] == ["no", "declare Th Th"]  # ♥T♦T is a pair: red overturns
    g.apply("declare Th Td")
    while g.phase == "deal":
        g.apply("no")
    assert g.trump_suit == "h" and g.declarer == 1
    assert level_change(40, 1) == (1, 0) and level_change(35, 1) == (0, 1)  # thresholds halved (one pack)


# ---------------------------------------------------------------------------- kitty_steal 抢底 (§5)
def bury_all(g: paiju.Game, n: int = 8) -> list[str]:
    """The seat to act buries its n lowest-id cards (as the 托管 policy would, any cards)."""
    seat = g.to_act
    cards = [str(c) for c in g.hand(seat)][-n:]
    for c in cards:
        g.apply(f"bury {c}")
    return cards


def test_kitty_steal_rounds_after_each_burial() -> None:
    deal = build_deal(["2h", "2s 2s", "SJ SJ"], kitty="3c 4c 5d")
    g = paiju.new_game("shengji", seed=1, deal=deal, kitty_steal=True)
    g.apply("declare 2h")
    while g.phase == "deal":
        g.apply("no")
    assert g.phase == "bury" and g.declarer == 0 and g.trump_suit == "h"
    buried0 = bury_all(g)
    # a round of decisions asked of every seat in order, from the seat after the one who buried
    assert g.phase == "steal" and g.to_act == 1
    assert "declare 2s 2s" in [str(a) for a in g.legal_actions()]
    g.apply("declare 2s 2s")  # 抢底: seat 1 takes the kitty seat 0 buried and buries in turn
    assert g.phase == "bury" and g.to_act == 1 and g.trump_suit == "s" and g.declarer == 0
    assert len(g.hand(1)) == 33 and len(g.hand(0)) == 25
    assert sorted(g.view(1)["kitty_received"]) == sorted(buried0)
    assert "kitty_received" not in g.view(2)
    buried1 = bury_all(g)
    assert g.phase == "steal" and g.to_act == 2
    g.apply("declare SJ SJ")  # a stronger declaration steals again (no-trump)
    assert g.trump_suit is None and sorted(g.view(2)["kitty_received"]) == sorted(buried1)
    buried2 = bury_all(g)
    seats = []
    while g.phase == "steal":
        seats.append(g.to_act)
        assert all(str(a) in ("no", "declare BJ BJ") for a in g.legal_actions())  # only BJ BJ beats SJ SJ
        g.apply("no")
    assert seats == [3, 0, 1, 2]
    # the declarer 庄家 still leads; the kitty is the last one buried
    assert g.phase == "play" and g.to_act == 0 and g.declarer == 0
    assert sorted(g.view(0)["buried"]) == sorted(buried0)  # each seat remembers its own burial
    while not g.is_over:
        g.apply(paiju.shengji.hosted_action(g))
    assert sorted(g.view(3)["kitty"]) == sorted(buried2)
    assert [d["seat"] for d in g.view(3)["declarations"]] == [0, 1, 2]


def test_kitty_steal_needs_a_stronger_declaration_and_is_off_by_default() -> None:
    deal = build_deal(["2h 2h", "2s 2s"], kitty="3c 4c 5d")
    g = paiju.new_game("shengji", seed=1, deal=deal, kitty_steal=True)
    g.apply("no")
    g.apply("no")
    g.apply("no")
    g.apply("no")
    g.apply("declare 2h 2h")
    while g.phase == "deal":
        g.apply("no")
    bury_all(g)
    assert g.to_act == 1 and [str(a) for a in g.legal_actions()] == ["no"]  # 2s 2s is not stronger than 2h 2h
    with pytest.raises(IllegalAction, match="nothing that beats"):
        g.apply("declare 2s 2s")
    with pytest.raises(IllegalAction, match="kitty steal"):
        g.apply("bury 3c")
    for _ in range(4):
        g.apply("no")
    assert g.phase == "play" and g.to_act == 0
    g2 = paiju.new_game("shengji", seed=1, deal=deal)
    to_play(g2)  # without the option, play starts right after the burial


# ---------------------------------------------------------------------------- triples 泰坦尼克 (§9)
T5 = dict(trump_suit="h", level="5", decks=3, triples=True)  # the spec's examples: playing 5


def x3(text: str) -> str:
    return " ".join(c for c in text.split() for _ in range(3))


def units_of(text: str, trump: str | None = "h", level: int = 5) -> list[tuple[int, int]]:
    t = trump_order(trump, level, False, True)
    return [(u.triples, u.pairs) for u in decompose(counts_of(ids_of(text)), t)]


@pytest.mark.parametrize("text", ["3s 4s", "4s 6s", "5s 5h", "SJ BJ", "Ah 5s"])
def test_titanic_examples_at_level_5(text: str) -> None:
    # 333444, 444666, (off-suit 5)×3 (trump 5)×3, SJ×3 BJ×3, AAA + off-suit 5×3
    assert units_of(x3(text)) == [(2, 0)]


def test_not_titanics() -> None:
    assert units_of(x3("5h 6h")) == [(1, 0), (1, 0)]  # 555666 at level 5: two triples
    assert units_of(x3("5s 5c"), trump=None) == [(1, 0), (1, 0)]  # 555555 at no-trump: equal, not adjacent
    assert units_of("3s 3s 3s 4s 4s") == [(1, 0), (0, 1)]  # a triple and a pair
    t = trump_order("h", 5)  # without the option: three identical cards are a pair and a single
    assert [u.pairs for u in decompose(counts_of(ids_of(x3("3s 4s"))), t)] == [2, 0, 0]
    assert units_of(x3("2s 3s 4s")) == [(2, 0), (1, 0)]  # [decision] three adjacent triples: 泰坦尼克 + triple


TITANIC_LEAD = x3("4s 3s")


@pytest.mark.parametrize(
    "hand,good,bad",
    [
        # 泰坦尼克 > two triples
        (x3("Ts 9s Ks"), x3("Ts 9s"), x3("Ts Ks")),
        # two triples > tractor + two singles
        (x3("Ks 9s") + " Qs Qs Js Js", x3("Ks 9s"), "Qs Qs Js Js Ks 9s"),
        # tractor + two singles > triple + pair + single
        ("Ks Ks Qs Qs 3s " + x3("9s"), "Ks Ks Qs Qs 9s 3s", "9s 9s 9s Ks Ks 3s"),
        # triple + pair + single > triple + three singles
        (x3("9s") + " Ks Ks 3s 4s", "9s 9s 9s Ks Ks 3s", "9s 9s 9s Ks 3s 4s"),
        # triple + three singles > two pairs + two singles
        (x3("9s") + " Ks Qs 3s 7s", "9s 9s 9s Ks Qs 3s", "9s 9s Ks Qs 3s 7s"),
        # two pairs + two singles > pair + four singles
        ("9s 9s Ks Ks 3s 7s Js", "9s 9s Ks Ks 3s 7s", "9s 9s Ks 3s 7s Js"),
        # pair + four singles > six singles
        ("9s 9s Ks 3s 7s Js 2s", "9s 9s Ks 3s 7s Js", "Ks 3s 7s Js 2s 9s"),
    ],
)
def test_follow_order_for_a_titanic_lead(hand: str, good: str, bad: str) -> None:
    assert is_legal_follow(TITANIC_LEAD, hand + " 3h", good, **T5)
    assert not is_legal_follow(TITANIC_LEAD, hand + " 3h", bad, **T5)


def test_six_singles_follow_a_titanic_when_nothing_better() -> None:
    assert is_legal_follow(TITANIC_LEAD, "Ks Qs 3s 7s Js 2s 9s", "Ks Qs 3s 7s Js 2s", **T5)


@pytest.mark.parametrize(
    "hand,good,bad",
    [
        (x3("9s") + " Ks Ks 3s", "9s 9s 9s", "Ks Ks 3s"),  # triple > pair + single
        ("Ks Ks 3s 7s", "Ks Ks 3s", "Ks 3s 7s"),  # pair + single > three singles
    ],
)
def test_follow_order_for_a_triple_lead(hand: str, good: str, bad: str) -> None:
    assert is_legal_follow(x3("4s"), hand, good, **T5)
    assert not is_legal_follow(x3("4s"), hand, bad, **T5)
    assert is_legal_follow(x3("4s"), "Ks 3s 7s 2h", "Ks 3s 7s", **T5)


def test_triples_trick_winner() -> None:
    assert trick_winner([x3("4s"), x3("9s"), "Ks Ks As"], **T5) == 1  # a higher triple; a pair + single is not
    assert trick_winner([x3("4s"), x3("3h"), x3("9s")], **T5) == 1  # a trump triple beats the plain suit
    assert trick_winner([x3("4s"), "3h 3h 6h"], **T5) == 0  # no trump triple: a discard
    assert trick_winner([TITANIC_LEAD, x3("3h 4h")], **T5) == 1  # a trump 泰坦尼克 beats it
    assert trick_winner([TITANIC_LEAD, x3("3h 7h")], **T5) == 0  # two trump triples, not adjacent: a discard
    assert trick_winner([TITANIC_LEAD, x3("Qs Ks"), x3("As Ks")], **T5) == 2
    # without the option three 4s are a pair and a single: 99 + 3 beats it
    assert trick_winner([x3("4s"), "9s 9s 3s"], trump_suit="h", level="5", decks=3) == 1


def test_triples_throws_and_kitty() -> None:
    # a triple is beaten by a higher triple only; a 泰坦尼克 by a higher 泰坦尼克
    assert len(resolve_throw(x3("Qs") + " As", ["Ks Ks", "2c"], **T5)) == 4
    assert [str(c) for c in resolve_throw(x3("Qs") + " As", [x3("Ks")], **T5)] == ["Qs"] * 3
    assert len(resolve_throw(x3("Qs Js") + " As", [x3("Ks 9s")], **T5)) == 7
    assert len(resolve_throw(x3("Qs Js") + " As", [x3("Ks As")], **T5)) == 6
    assert kitty_multiplier(1, "unit_size", cards=3) == 6  # triple ×6 (§7)
    assert kitty_multiplier(2, "unit_size", cards=6) == 12
    assert kitty_multiplier(1) == 4 and kitty_multiplier(2) == 8  # [decision] triple as a pair, 泰坦尼克 as a tractor


def test_triples_in_the_engine() -> None:
    with pytest.raises(IllegalAction, match="three packs"):
        paiju.new_game("shengji", triples=True)
    seat1 = x3("Ts 9s") + " Ks " + " ".join(["3c", "4c", "6c", "7c", "8c", "9c", "Jc", "Qc", "Kc", "Ac"] * 3)
    deal = build_deal([x3("4s 3s"), seat1], kitty="3h 4h 6h", decks=3)
    g = paiju.new_game("shengji", seed=1, deal=deal, decks=3, triples=True, start_level="5")
    to_play(g)
    assert g.to_act == 0 and g.trump_suit == "h"  # the 3rd kitty card
    g.apply(TITANIC_LEAD)
    assert g.view(1)["trick"] == [{"seat": 0, "cards": "4s 4s 4s 3s 3s 3s"}]
    with pytest.raises(IllegalAction, match="泰坦尼克"):
        g.apply("Ts Ts Ts 9s 9s Ks")
    assert [str(a) for a in g.legal_actions()] == ["Ts Ts Ts 9s 9s 9s"]
    g.apply("Ts Ts Ts 9s 9s 9s")
