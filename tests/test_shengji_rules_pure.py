"""Shengji 升级 rules through the pure helpers: the card order and trumps, tractors (§6),
trumping and trick winners (§6), throws (seed 003), the following obligations (§6) and
the scoring tables (§7) — every example of the spec and seeds.
"""

from __future__ import annotations

import itertools

import pytest

import paiju
from paiju import IllegalAction
from paiju.shengji import is_legal_follow, kitty_multiplier, level_change, resolve_throw, trick_winner
from paiju.shengji.follow import follow_problem, legal_follows
from paiju.shengji.scoring import climb
from paiju.shengji.trump import NUM_IDS, card_id, ids_of, trump_order
from paiju.shengji.units import counts_of, decompose, shape_of
from shengji_helpers import S10, tractor


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
