"""双扣 Shuangkou: a test for every rule and example of ``docs/rules/shuangkou.md``.

§1 table and cards (deal, teams, explicit deals), §2 first lead (random from the seed,
carried by a match after 单扣 / 平扣), §3 combinations (the table's examples, the invalid
ones, min_triple_run, four_joker_bomb), §4 comparing (same shape, bombs, the four jokers),
passing, tricks, 接风, §5 the end of the hand and the three results with their points;
illegal input leaves the game unchanged; views; 托管 and 提示. Games are built from tiny
explicit deals with a fixed first leader so that every scenario is short and exact.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import product
from typing import Any

import pytest

import paiju
from paiju import IllegalAction
from paiju.cards import Card
from paiju.shuangkou import (
    PASS,
    LeadPlays,
    Play,
    Shuangkou,
    beats,
    combination,
    deck_cards,
    follow_plays,
    hand_result,
    hand_scores,
    hint,
    hosted_action,
    next_leader,
    parse_play,
    play_beats,
    resolve_options,
    valid_plays,
)
from paiju.shuangkou.combos import holds

SEATS = range(4)
RANK_TEXT = [*"3456789TJQKA", "2", "SJ", "BJ"]


# ---------------------------------------------------------------------------- helpers
def new(deal: list[str], first_lead: int = 0, seed: int = 7, **options: Any) -> Shuangkou:
    g = paiju.new_game("shuangkou", seed=seed, deal=deal, first_lead=first_lead, **options)
    assert isinstance(g, Shuangkou)
    return g


def legal(g: paiju.Game) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def ranks(g: paiju.Game, seat: int) -> str:
    return " ".join(c.rank_text for c in g.hand(seat))


def apply_all(g: paiju.Game, *actions: str) -> None:
    for a in actions:
        g.apply(a)


def snapshot(g: paiju.Game) -> tuple[Any, ...]:
    """Everything observable: record, every view, whose turn, phase, hands, legal actions."""
    views = [json.dumps(g.view(s), sort_keys=True) for s in [*SEATS, None]]
    hands = [[str(c) for c in g.hand(s)] for s in SEATS]
    return (json.dumps(g.record(), sort_keys=True), views, g.to_act, g.phase, hands, legal(g))


def assert_illegal(g: paiju.Game, action: Any, *words: str) -> str:
    """``action`` raises IllegalAction whose message holds every word of ``words``
    (case-insensitive), and the game is unchanged afterwards."""
    before = snapshot(g)
    with pytest.raises(IllegalAction) as err:
        g.apply(action)
    msg = str(err.value)
    for w in words:
        assert w.lower() in msg.lower(), f"{w!r} not in {msg!r}"
    assert snapshot(g) == before, f"the game changed after the illegal action {action!r}"
    return msg


def block_text(low: int, high: int, width: int) -> str:
    return " ".join(RANK_TEXT[r] for r in range(low, high + 1) for _ in range(width))


# ---------------------------------------------------------------------------- §1 table and cards
def test_deal_two_packs_27_each_partners_opposite() -> None:
    g = paiju.new_game("shuangkou", seed=11)
    assert g.num_players == 4 and g.name == "shuangkou" and g.phase == "play"
    hands = [g.hand(s) for s in SEATS]
    assert [len(h) for h in hands] == [27] * 4
    assert Counter(c for h in hands for c in h) == Counter(deck_cards()) and len(deck_cards()) == 108
    v = g.view(1)
    assert v["teams"] == {"A": [0, 2], "B": [1, 3]} and v["team"] == "B" and v["partner"] == 3
    assert g.view(2)["team"] == "A" and g.view(None)["team"] is None


def test_same_seed_same_deal_and_leader() -> None:
    a, b = paiju.new_game("shuangkou", seed=5), paiju.new_game("shuangkou", seed=5)
    assert [a.hand(s) for s in SEATS] == [b.hand(s) for s in SEATS] and a.to_act == b.to_act
    assert [a.hand(0)] != [paiju.new_game("shuangkou", seed=6).hand(0)]


def test_hands_are_sorted_low_to_high() -> None:
    g = new(["BJ 2s 3h As 3s", "4", "5", "6"])
    assert [str(c) for c in g.hand(0)] == ["3s", "3h", "As", "2s", "BJ"]


def test_explicit_deal_bare_ranks_take_suits_from_the_deck() -> None:
    g = new(["7 7 7 7 7 7 7 7", "8", "9", "T"], first_lead=1)
    assert sorted(str(c) for c in g.hand(0)) == sorted(["7s", "7h", "7d", "7c"] * 2)
    assert g.record()["deal"][0] == "7s 7s 7h 7h 7d 7d 7c 7c"


@pytest.mark.parametrize(
    ("deal", "words"),
    [
        (["7", "8", "9"], ["4 hands"]),
        ("7 8 9 T", ["4 hands"]),
        (["7 7 7 7 7 7 7 7", "7", "8", "9"], ["more than 8 × 7"]),
        (["7s 7s 7s", "8", "9", "T"], ["more than two 7s"]),
        (["7s 7 7 7 7 7 7 7", "7s", "8", "9"], ["more than 8 × 7"]),
        (["BJ BJ", "BJ", "9", "T"], ["more than two BJ"]),
        (["BJ*", "8", "9", "T"], ["marked"]),
        (["", "8", "9", "T"], ["seat 0", "no cards"]),
        (["7x", "8", "9", "T"], ["cannot read"]),
    ],
)
def test_explicit_deal_errors(deal: Any, words: list[str]) -> None:
    with pytest.raises(IllegalAction) as err:
        paiju.new_game("shuangkou", seed=1, deal=deal)
    for w in words:
        assert w.lower() in str(err.value).lower(), str(err.value)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"variant": "standard"}, ["unknown", "variant"]),
        ({"min_triple_run": 4}, ["min_triple_run", "2 or 3"]),
        ({"min_triple_run": True}, ["min_triple_run"]),
        ({"four_joker_bomb": "yes"}, ["four_joker_bomb", "true or false"]),
        ({"points_double": -1}, ["points_double"]),
        ({"points_level": 1.5}, ["points_level"]),
        ({"first_lead": 4}, ["first_lead", "0-3"]),
        ({"first_lead": True}, ["first_lead"]),
    ],
)
def test_option_errors(options: dict[str, Any], words: list[str]) -> None:
    with pytest.raises(IllegalAction) as err:
        paiju.new_game("shuangkou", seed=1, **options)
    for w in words:
        assert w.lower() in str(err.value).lower(), str(err.value)


def test_option_defaults() -> None:
    assert resolve_options() == {
        "min_triple_run": 3,
        "four_joker_bomb": False,
        "points_double": 3,
        "points_single": 2,
        "points_level": 1,
        "first_lead": None,
    }


# ---------------------------------------------------------------------------- §2 first lead
def test_first_lead_is_random_from_the_seed() -> None:
    leads = set()
    for seed in range(40):
        g = Shuangkou(seed=seed)
        assert g.to_act == g.first_lead == random.Random(seed).randrange(4)  # drawn first, from the seed
        assert g.view(None)["first_lead"] == g.to_act and g.view(None)["events"][0]["first_lead"] == g.to_act
        leads.add(g.to_act)
    assert leads == set(SEATS)


def test_first_lead_with_an_explicit_deal_still_comes_from_the_seed() -> None:
    deal = ["7", "8", "9", "T"]
    for seed in range(10):
        g = paiju.new_game("shuangkou", seed=seed, deal=deal)
        assert g.to_act == paiju.new_game("shuangkou", seed=seed).to_act


def test_first_lead_option() -> None:
    for seat in SEATS:
        assert paiju.new_game("shuangkou", seed=1, first_lead=seat).to_act == seat


# the three small hands of §5, each ending with one result
DOUBLE_DEAL = ["7", "3", "8", "4"]  # 0: 7 out; 1 cannot beat; 2: 8 out → [0, 2]
DOUBLE_PLAY = ("7", "pass", "8")
SINGLE_DEAL = ["7", "3 4", "5 6", "8 9"]
SINGLE_PLAY = ("7", "pass", "pass", "pass", "5", "8", "pass", "pass", "9", "pass", "pass", "3", "6")
LEVEL_DEAL = ["7", "8", "3 4", "9"]
LEVEL_PLAY = ("7", "8", "pass", "9")


def match_after(deal: list[str], actions: tuple[str, ...], seed: int = 3) -> paiju.Match:
    m = paiju.new_match("shuangkou", seed=seed, deal=deal, first_lead=0)
    apply_all(m.game, *actions)
    assert m.game.is_over
    return m


def test_match_first_lead_after_single_is_the_first_finisher() -> None:
    m = match_after(SINGLE_DEAL, SINGLE_PLAY)
    assert m.game.result == "single" and m.game.finished[0] == 0  # type: ignore[attr-defined]
    nxt = m.next_hand()
    assert nxt.to_act == 0 and nxt.options["first_lead"] == 0
    assert [len(nxt.hand(s)) for s in SEATS] == [27] * 4  # a fresh seed deal


def test_match_first_lead_after_level_is_the_first_finisher() -> None:
    # seat 1 leads 8 and is out (1st); seat 2: 9, out (2nd); seat 3 cannot beat; seat 0: T,
    # out (3rd): team A is out, seat 1's partner is last → 平扣 for team B
    m = paiju.new_match("shuangkou", seed=4, deal=["T", "8", "9", "3 4"], first_lead=1)
    apply_all(m.game, "8", "9", "pass", "T")
    g = m.game
    assert g.finished == [1, 2, 0] and g.result == "level"  # type: ignore[attr-defined]
    assert g.scores == (-1, 1, -1, 1)
    assert m.next_hand().to_act == 1


def test_match_first_lead_after_double_is_random() -> None:
    seen = set()
    for seed in range(30):
        m = match_after(DOUBLE_DEAL, DOUBLE_PLAY, seed=seed)
        assert m.game.result == "double"  # type: ignore[attr-defined]
        nxt = m.next_hand()
        assert nxt.options["first_lead"] is None
        assert nxt.to_act == random.Random(nxt.seed).randrange(4)
        seen.add(nxt.to_act)
    assert seen == set(SEATS)  # not always the previous first finisher (seat 0)


def test_match_standings_and_options_carry_over() -> None:
    m = paiju.new_match("shuangkou", seed=9, deal=SINGLE_DEAL, first_lead=0, points_single=5, min_triple_run=2)
    apply_all(m.game, *SINGLE_PLAY)
    assert m.standings == [5, -5, 5, -5]
    nxt = m.next_hand()
    assert nxt.options["points_single"] == 5 and nxt.options["min_triple_run"] == 2
    with pytest.raises(IllegalAction, match="not over"):
        m.next_hand()
    assert m.standings == [5, -5, 5, -5]


def test_next_hand_options_before_the_end_and_after_an_abnormal_end() -> None:
    g = new(SINGLE_DEAL, points_level=4)
    with pytest.raises(IllegalAction, match="not over"):
        g.next_hand_options()
    g.apply("7")  # seat 0 is out first; then a player leaves: the server ends the hand
    assert g.next_hand_options(abnormal=True) == {**g.options, "first_lead": None}
    apply_all(g, "pass", "pass", "pass", "5", "8", "pass", "pass", "9", "pass", "pass", "3", "6")
    assert g.next_hand_options()["first_lead"] == 0 and g.next_hand_options(abnormal=True)["first_lead"] is None


# ---------------------------------------------------------------------------- §3 combinations
@pytest.mark.parametrize(
    ("text", "kind", "canonical"),
    [
        ("7", "single", "7"),
        ("BJ", "single", "BJ"),
        ("SJ", "single", "SJ"),
        ("99", "pair", "99"),
        ("9h 9s", "pair", "99"),
        ("BJ BJ", "pair", "BJ BJ"),
        ("SJ SJ", "pair", "SJ SJ"),
        ("22", "pair", "22"),
        ("QQQ", "triple", "QQQ"),
        ("34567", "straight", "34567"),
        ("TJQKA", "straight", "TJQKA"),
        ("10 J Q K A", "straight", "TJQKA"),
        ("7 3 5 4 6", "straight", "34567"),
        ("3456789TJQKA", "straight", "3456789TJQKA"),
        ("556677", "pair_run", "556677"),
        ("QQKKAA", "pair_run", "QQKKAA"),
        ("555666777", "triple_run", "555666777"),
        ("6666", "bomb", "6666"),
        ("66666", "bomb", "66666"),
        ("2222", "bomb", "2222"),
        ("88888888", "bomb", "88888888"),
    ],
)
def test_the_spec_table_examples(text: str, kind: str, canonical: str) -> None:
    assert combination(text) == kind
    assert str(parse_play(text)) == canonical
    assert parse_play(canonical) == parse_play(text)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("33 44", ["pair run", "at least 3", "not 2"]),
        ("3344", ["pair run", "at least 3"]),
        ("JQKA2", ["2s are never part of a straight"]),
        ("A2345", ["2s"]),
        ("QKA23", ["2s"]),
        ("3456 BJ", ["jokers", "never in a straight"]),
        ("34567 SJ", ["jokers"]),
        ("BJ SJ", ["not a pair", "BJ BJ or SJ SJ"]),
        ("BJ BJ SJ", ["jokers"]),
        ("BJ 3", ["jokers"]),
        ("BJ BJ SJ SJ", ["four_joker_bomb"]),
        ("BJ BJ BJ", ["only 2 × BJ"]),
        ("999999999", ["only 8 × 9"]),
        ("3456", ["straight", "at least 5"]),
        ("34 567 9", ["consecutive"]),
        ("35 67 8", ["consecutive"]),
        ("33345", ["as many cards of each rank"]),
        ("555666", ["triple run", "min_triple_run=3"]),
        ("44445555", ["bomb is one rank"]),
        ("", ["at least one card"]),
    ],
)
def test_invalid_combinations_say_why(text: str, words: list[str]) -> None:
    with pytest.raises(IllegalAction) as err:
        combination(text)
    for w in words:
        assert w.lower() in str(err.value).lower(), str(err.value)
    with pytest.raises(IllegalAction):
        beats(text, "3")


def test_min_triple_run_two_or_three() -> None:
    assert combination("555666", min_triple_run=2) == "triple_run"
    assert combination("555666777", min_triple_run=2) == "triple_run"
    with pytest.raises(IllegalAction, match="min_triple_run=3"):
        combination("555666")
    assert beats("666777", "555666", min_triple_run=2)
    assert not beats("666777888", "555666", min_triple_run=2)  # different length
    assert not beats("555666", "666777", min_triple_run=2)
    g = new(["555666 9", "3", "4", "8"], min_triple_run=2)
    assert "555666" in legal(g) and "555666" not in legal(new(["555666 9", "3", "4", "8"]))


def test_four_jokers_only_with_the_option() -> None:
    assert combination("BJ BJ SJ SJ", four_joker_bomb=True) == "four_jokers"
    assert combination("SJ BJ SJ BJ", four_joker_bomb=True) == "four_jokers"
    assert str(parse_play("SJ SJ BJ BJ", four_joker_bomb=True)) == "BJ BJ SJ SJ"
    with pytest.raises(IllegalAction, match="four_joker_bomb"):
        beats("BJ BJ SJ SJ", "88888888")
    with pytest.raises(IllegalAction, match="unknown"):
        beats("3", "4", kao=True)


def spec_kind(low: int, high: int, width: int, min_triple_run: int, four: bool) -> str | None:
    """§3 written out once more, independently of the engine."""
    length = high - low + 1
    jokers = high >= 13
    if length == 1:
        if jokers:
            return {1: "single", 2: "pair"}.get(width)
        return {1: "single", 2: "pair", 3: "triple"}.get(width, "bomb" if 4 <= width <= 8 else None)
    if jokers:
        return "four_jokers" if four and (low, high, width) == (13, 14, 2) else None
    if high >= 12:  # a 2 in a run
        return None
    shortest = {1: 5, 2: 3, 3: min_triple_run}.get(width)
    if shortest is None or length < shortest:
        return None
    return {1: "straight", 2: "pair_run", 3: "triple_run"}[width]


@pytest.mark.parametrize(("min_triple_run", "four"), list(product((2, 3), (False, True))))
def test_every_block_is_classified_per_spec(min_triple_run: int, four: bool) -> None:
    """Every block of consecutive ranks, 1-8 cards each: a play exactly when §3 says so."""
    n = 0
    for low in range(15):
        for high in range(low, 15):
            for width in range(1, 9):
                expected = spec_kind(low, high, width, min_triple_run, four)
                text = block_text(low, high, width)
                try:
                    got: str | None = combination(text, min_triple_run=min_triple_run, four_joker_bomb=four)
                except IllegalAction:
                    got = None
                if high >= 13 and width > 2:
                    expected = None  # the deck has only two of each joker
                assert got == expected, (text, got, expected)
                n += expected is not None
    assert n == len(valid_plays(min_triple_run, four))
    assert all(p.kind == kind for p, kind in valid_plays(min_triple_run, four).items())


# ---------------------------------------------------------------------------- §4 comparing
@pytest.mark.parametrize(
    ("new_play", "old", "expected"),
    [
        # same type and length: the highest rank decides
        ("8", "7", True),
        ("7", "7", False),
        ("2", "A", True),
        ("SJ", "2", True),
        ("BJ", "SJ", True),
        ("SJ", "BJ", False),
        ("22", "AA", True),
        ("SJ SJ", "22", True),
        ("BJ BJ", "SJ SJ", True),
        ("333", "222", False),
        ("222", "AAA", True),
        ("45678", "34567", True),
        ("TJQKA", "9TJQK", True),
        ("34567", "TJQKA", False),
        ("445566", "334455", True),
        ("666777888", "555666777", True),
        # different type or number of cards: never
        ("345678", "34567", False),
        ("45678", "345678", False),
        ("99", "8", False),
        ("999", "88", False),
        ("33445566", "445566", False),
        ("QQQ", "556677", False),
        # bombs beat every non-bomb
        ("3333", "BJ", True),
        ("3333", "BJ BJ", True),
        ("3333", "3456789TJQKA", True),
        ("3333", "QQQKKKAAA", True),
        # two bombs: more cards wins; equal size → higher rank
        ("4444", "3333", True),
        ("2222", "AAAA", True),
        ("33333", "2222", True),
        ("2222", "33333", False),
        ("333333", "22222", True),
        ("88888888", "2222222", True),
        ("4444", "4444", False),
        ("BJ", "3333", False),
    ],
)
def test_comparing(new_play: str, old: str, expected: bool) -> None:
    assert beats(new_play, old) is expected
    assert beats(new_play, old, four_joker_bomb=True, min_triple_run=2) is expected


@pytest.mark.parametrize("old", ["3333", "88888888", "22222222", "BJ", "BJ BJ", "3456789TJQKA"])
def test_four_jokers_beat_everything(old: str) -> None:
    assert beats("BJ BJ SJ SJ", old, four_joker_bomb=True)
    assert not beats(old, "BJ BJ SJ SJ", four_joker_bomb=True)
    assert not beats("BJ BJ SJ SJ", "BJ BJ SJ SJ", four_joker_bomb=True)


def test_beats_raises_for_invalid_plays() -> None:
    for bad in ("3344", "JQKA2", "BJ SJ"):
        with pytest.raises(IllegalAction, match="not a"):
            beats(bad, "3")
        with pytest.raises(IllegalAction, match="not a"):
            beats("3", bad)


def spec_beats(new_play: Play, old: Play) -> bool:
    """§4 written out once more, from the types the engine names."""
    kn, ko = new_play.kind, old.kind
    if ko == "four_jokers":
        return False
    if kn == "four_jokers":
        return True
    if kn == "bomb" and ko == "bomb":
        return (new_play.size, new_play.high) > (old.size, old.high)
    if kn == "bomb" or ko == "bomb":
        return kn == "bomb"
    return kn == ko and new_play.size == old.size and new_play.high > old.high


def test_every_pair_of_plays_compares_per_spec() -> None:
    plays = list(valid_plays(2, True))
    for a in plays:
        for b in plays:
            assert play_beats(a, b) is spec_beats(a, b), (str(a), str(b))


def test_bomb_order_is_total() -> None:
    bombs = [p for p, k in valid_plays(3, True).items() if k in ("bomb", "four_jokers")]
    bombs.sort(key=lambda p: (p.kind == "four_jokers", p.size, p.high))
    for i, low in enumerate(bombs):
        for high in bombs[i + 1 :]:
            assert play_beats(high, low) and not play_beats(low, high)
    assert str(bombs[0]) == "3333" and str(bombs[-2]) == "22222222" and str(bombs[-1]) == "BJ BJ SJ SJ"


# ---------------------------------------------------------------------------- play: passing, tricks
def test_follows_are_same_shape_that_beat_plus_bombs_plus_pass() -> None:
    g = new(["34567 9", "45678 56789 9999 3", "3", "4"])
    g.apply("34567")
    # seat 1: straights of 5 with a higher top: 45678, 56789 (held: 4 5 5 6 6 7 7 8 8 9…)
    # 6789T needs a T; bombs: 9999 (five 9s: 9999, 99999); then pass
    assert legal(g) == ["45678", "56789", "9999", "99999", "pass"]


def test_after_a_bomb_only_bigger_bombs() -> None:
    g = new(["7777 3", "8888 6666 44444 9", "2", "4"])
    g.apply("7777")
    assert legal(g) == ["8888", "44444", "pass"]  # 6666 is smaller; 44444 has more cards


def test_an_equal_bomb_is_no_follow() -> None:
    """§4: of two bombs more cards wins, equal size → the *higher* rank: the same bomb again
    does not beat (the legal follows, the hint and the engine agree)."""
    g = new(["6666 3", "6666 7777 55555 9", "4", "5"])
    g.apply("6666")
    assert legal(g) == ["7777", "55555", "pass"]
    assert hint(g) == parse_play("7777")
    assert_illegal(g, "6666", "does not beat the bomb 6666")


def test_follow_plays_are_exactly_the_plays_that_beat() -> None:
    """Every answer ``follow_plays`` offers to any play beats it, and it misses none, for a
    hand holding every card (so no equal bomb, no equal single or run slips in)."""
    full = [8] * 13 + [2, 2]
    plays = list(valid_plays(3, True))
    for old in plays:
        offered = follow_plays(full, old, four_joker_bomb=True)
        assert len(offered) == len(set(offered))
        assert set(offered) == {p for p in plays if play_beats(p, old)}, str(old)


def _random_counts(rng: random.Random) -> list[int]:
    """A hand of two packs as counts per strength (3 … 2, SJ, BJ), gaps and bombs included."""
    return [rng.choice([0, 0, 1, 1, 2, 3, 4, 5, 8]) for _ in range(13)] + [rng.randint(0, 2), rng.randint(0, 2)]


def test_the_helpers_default_to_the_room_defaults() -> None:
    o = resolve_options()
    assert valid_plays() == valid_plays(o["min_triple_run"], o["four_joker_bomb"])
    hand = [3, 3, 3] + [0] * 10 + [2, 2]  # 333444555 and both joker pairs
    leads = list(LeadPlays(hand))
    assert leads == list(LeadPlays(hand, o["min_triple_run"], o["four_joker_bomb"]))
    assert parse_play("333444555") in leads and parse_play("333444", min_triple_run=2) not in leads
    assert len(leads) == 15  # 5 singles, 5 pairs, 3 triples, 334455, 333444555; no four jokers


@pytest.mark.parametrize("min_triple_run,four", [(3, False), (2, True)])
def test_the_plays_of_a_hand_are_exactly_the_held_ones(min_triple_run: int, four: bool) -> None:
    """For random hands: the lazy leads are every valid play the hand holds (by index and by
    iteration, each once), and the follows of any play are the held plays that beat it."""
    rng = random.Random(4)
    valid = list(valid_plays(min_triple_run, four))
    for _ in range(40):
        c = _random_counts(rng)
        leads = LeadPlays(c, min_triple_run, four)
        items = list(leads)
        assert [leads[i] for i in range(len(leads))] == items and len(set(items)) == len(items)
        held = {p for p in valid if holds(c, p)}
        assert set(items) == held and all(p in leads for p in held)
        for old in rng.sample(valid, 15):
            offered = follow_plays(c, old, four_joker_bomb=four)
            assert len(offered) == len(set(offered))
            assert set(offered) == {p for p in held if play_beats(p, old)}, (c, str(old))


def test_nothing_beats_the_four_jokers_everyone_passes() -> None:
    g = new(["BJ BJ SJ SJ 3", "88888888 9", "4", "5"], four_joker_bomb=True)
    assert "BJ BJ SJ SJ" in legal(g)
    g.apply("BJ BJ SJ SJ")
    assert g.view(1)["last_play"]["type"] == "four_jokers"
    for seat in (1, 2, 3):
        assert g.to_act == seat and legal(g) == ["pass"]
        g.apply("pass")
    assert g.to_act == 0 and g.is_leading()


def test_trick_ends_when_the_three_others_passed_since_the_last_play() -> None:
    g = new(["5 9 3", "6 8 4", "7 T 3", "8 J 4"])
    apply_all(g, "5", "6", "pass", "pass")
    assert g.to_act == 0 and not g.is_leading()  # two passes: seat 0 still answers seat 1's 6
    g.apply("9")
    apply_all(g, "pass", "T", "pass", "pass")  # seat 2 passed before and may play now
    assert g.to_act == 1 and not g.is_leading()
    g.apply("pass")
    assert g.to_act == 2 and g.is_leading()  # 0, 1 and 3 passed since seat 2's T
    ev = g.view(None)["events"]
    assert ev[-1] == {"event": "trick", "winner": 2, "leader": 2}
    assert g.view(None)["trick"] == [] and g.view(None)["last_play"] is None


def test_partner_lead_jiefeng() -> None:
    g = new(SINGLE_DEAL)
    g.apply("7")  # seat 0 goes out with the last play of the trick
    assert g.finished == [0] and g.to_act == 1
    apply_all(g, "pass", "pass", "pass")  # all three others pass
    assert g.to_act == 2 and g.is_leading()  # the lead goes to the partner 对家, not to seat 1
    assert g.view(3)["events"][-1] == {"event": "trick", "winner": 0, "leader": 2}


def test_no_jiefeng_when_someone_beats_the_last_card() -> None:
    g = new(["7", "9 3", "5 6", "8 4"])
    apply_all(g, "7", "9", "pass", "pass")  # seat 0 is out; circle after 9 is 2, 3
    assert g.to_act == 1 and g.is_leading()


def test_jiefeng_goes_to_the_partner_of_the_last_player_out() -> None:
    g = new(SINGLE_DEAL)
    apply_all(g, "7", "pass", "pass", "pass", "5", "8", "pass", "pass", "9")  # seat 3 out (2nd)
    apply_all(g, "pass", "pass")
    assert g.to_act == 1 and g.view(None)["events"][-1] == {"event": "trick", "winner": 3, "leader": 1}


def test_next_leader_partner_out_goes_to_next_holder() -> None:
    """In a game the partner being out too ends the hand, so the third branch of 接风 is
    exercised through the pure function: the next seat after the winner holding cards."""
    assert next_leader(0, [3, 1, 1, 1]) == 0
    assert next_leader(0, [0, 1, 1, 1]) == 2
    assert next_leader(0, [0, 1, 0, 1]) == 1
    assert next_leader(3, [1, 0, 1, 0]) == 0
    assert next_leader(1, [0, 0, 2, 0]) == 2
    with pytest.raises(IllegalAction):
        next_leader(0, [0, 0, 0, 0])


def test_passed_players_who_are_out_are_skipped() -> None:
    g = new(LEVEL_DEAL)
    apply_all(g, "7", "8")  # seats 0 and 1 out; seat 1's play is answered by 2 and 3 only
    assert g.to_act == 2 and legal(g) == ["pass"]


# ---------------------------------------------------------------------------- §5 end and score
def test_double() -> None:
    g = new(DOUBLE_DEAL)
    apply_all(g, *DOUBLE_PLAY)
    assert g.is_over and g.to_act is None and g.phase == "over"
    assert g.finished == [0, 2] and g.result == "double" and g.scores == (3, -3, 3, -3)
    assert g.legal_actions() == []
    v = g.view(1)
    assert v["result"] == "double" and v["result_name"] == "双扣" and v["winners"] == [0, 2]
    assert v["scores"] == [3, -3, 3, -3] and v["events"][-1]["event"] == "over"


def test_single() -> None:
    g = new(SINGLE_DEAL)
    apply_all(g, *SINGLE_PLAY)
    assert g.finished == [0, 3, 2] and g.result == "single" and g.scores == (2, -2, 2, -2)
    assert g.view(None)["result_name"] == "单扣"


def test_level_first_finishers_team_wins_even_with_2nd_and_3rd_against() -> None:
    g = new(LEVEL_DEAL)
    apply_all(g, *LEVEL_PLAY)
    assert g.finished == [0, 1, 3] and g.result == "level" and g.scores == (1, -1, 1, -1)
    assert ranks(g, 2) == "3 4" and g.view(2)["result_name"] == "平扣"


@pytest.mark.parametrize(
    ("deal", "actions", "result"),
    [(DOUBLE_DEAL, DOUBLE_PLAY, "double"), (SINGLE_DEAL, SINGLE_PLAY, "single"), (LEVEL_DEAL, LEVEL_PLAY, "level")],
)
def test_custom_points(deal: list[str], actions: tuple[str, ...], result: str) -> None:
    points = {"points_double": 10, "points_single": 6, "points_level": 4}
    g = new(deal, **points)
    apply_all(g, *actions)
    p = points[f"points_{result}"]
    assert g.result == result and g.scores == (p, -p, p, -p) and sum(g.scores) == 0


def test_team_b_wins() -> None:
    g = new(["3 4", "8", "9", "T"], first_lead=1)
    apply_all(g, "8", "9", "T")  # seats 1, 2, 3 go out in turn: seat 1's partner is 3rd
    assert g.finished == [1, 2, 3] and g.result == "single" and g.scores == (-2, 2, -2, 2)


def test_scores_before_the_end() -> None:
    with pytest.raises(IllegalAction, match="not over"):
        _ = new(SINGLE_DEAL).scores


def test_hand_result_and_scores_functions() -> None:
    assert hand_result([3, 1]) == "double"
    assert hand_result([3, 0, 1]) == "single"
    assert hand_result([3, 0, 2]) == "level"
    assert hand_scores([3, 0, 2], points_level=7) == (-7, 7, -7, 7)
    for bad in ([0, 1], [0, 0], [0, 2, 1], [0, 5], []):
        with pytest.raises(IllegalAction):
            hand_result(bad)


# ---------------------------------------------------------------------------- illegal input
def test_illegal_inputs_name_the_problem_and_change_nothing() -> None:
    g = new(["34567 99 QQQ 2", "88 KK 6666 3", "4", "5"])
    assert_illegal(g, "pass", "you lead", "cannot pass")
    assert_illegal(g, "45678", "you do not hold 45678", "0 × 8")
    assert_illegal(g, "9h", "do not hold 9h")
    assert_illegal(g, "3344", "pair run")
    assert_illegal(g, "JQKA2", "2s")
    assert_illegal(g, "BJ SJ", "not a pair")
    assert_illegal(g, "xyz", "cannot read")
    assert_illegal(g, "", "empty")
    assert_illegal(g, "BJ*", "marked")
    assert_illegal(g, 42, "not a shuangkou action")
    assert_illegal(g, Play(4, 3, 2), "triple run", "min_triple_run")  # 555666, hand-made
    assert_illegal(g, Play(30, 1), "no play")
    assert_illegal(g, "BJ BJ SJ SJ", "four_joker_bomb")
    g.apply("99")
    assert_illegal(g, "666", "does not beat 99", "a pair of 2 cards")
    assert_illegal(g, "3", "does not beat 99")
    assert_illegal(g, "88", "8 is not higher than 9")
    g.apply("6666")
    apply_all(g, "pass", "pass")
    assert g.to_act == 0
    assert_illegal(g, "QQQ", "does not beat the bomb 6666", "bigger bomb")
    g.apply("pass")
    assert g.to_act == 1 and g.is_leading()


def test_suited_cards_must_be_held_but_only_the_ranks_count() -> None:
    g = new(["9h 9s 3", "4", "5", "6"])
    assert_illegal(g, "9h 9h", "do not hold 2 × 9h")
    g.apply("9s 9h")
    assert g.history == [parse_play("99")] and g.record()["actions"] == ["99"]
    assert g.view(0)["events"][-1]["cards"] in ("9s 9h", "9h 9s")


def test_acting_after_the_end() -> None:
    g = new(DOUBLE_DEAL)
    apply_all(g, *DOUBLE_PLAY)
    assert_illegal(g, "3", "the hand is over")
    assert_illegal(g, "pass", "the hand is over")


def test_bad_seats() -> None:
    g = new(SINGLE_DEAL)
    for bad in (4, -1, "0", True):
        with pytest.raises(IllegalAction, match="seats are 0-3"):
            g.view(bad)  # type: ignore[arg-type]
        with pytest.raises(IllegalAction, match="seats are 0-3"):
            g.hand(bad)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- views
def test_view_shows_own_cards_counts_trick_and_public_events() -> None:
    g = new(["34567 9 9", "45678 3 3", "SJ 4", "BJ 5"])
    g.apply("34567")
    g.apply("45678")
    g.apply("pass")
    v = g.view(3)
    assert v["hand"] == [str(c) for c in g.hand(3)] and v["hand_counts"] == [2, 2, 2, 2]
    assert v["last_play"] == {"seat": 1, "play": "45678", "type": "straight", "cards": v["events"][2]["cards"]}
    assert [t["play"] for t in v["trick"]] == ["34567", "45678"] and v["leader"] == 0
    assert v["events"][1]["type"] == "straight" and len(v["events"][1]["cards"].split()) == 5
    assert v["events"][3] == {"seat": 2, "action": "pass"}
    assert v["legal_actions"] == ["pass"] and v["to_act"] == 3
    assert "legal_actions" not in g.view(0)
    spectator = g.view(None)
    assert spectator["hand"] is None and spectator["seat"] is None and "legal_actions" not in spectator
    json.dumps(v)


def test_no_view_holds_another_seats_cards() -> None:
    g = paiju.new_game("shuangkou", seed=21)
    public = g.view(None)
    for seat in SEATS:
        v = g.view(seat)
        assert v["hand"] == [str(c) for c in g.hand(seat)]
        personal = {"seat", "hand", "team", "partner", "legal_actions"}
        assert {k: x for k, x in v.items() if k not in personal} == {
            k: x for k, x in public.items() if k not in personal
        }


def test_hidden_cards_do_not_change_other_views_or_turns() -> None:
    a = new(["3 9 9", "4 T J", "5 Q K", "6 A 2"])
    b = new(["3 9 9", "4 Q K", "5 T J", "6 A 2"])  # seats 1 and 2 swapped unplayed cards
    for x in (a, b):
        apply_all(x, "3", "4", "5", "6")
    for seat in (0, 3, None):
        assert a.view(seat) == b.view(seat)
    assert a.to_act == b.to_act


# ---------------------------------------------------------------------------- 托管 and 提示
def test_hosted_action_leader_lowest_single_follower_passes() -> None:
    g = new(["9 34567 BJ", "3 K", "4", "5"])
    assert hosted_action(g) == parse_play("3")
    g.apply(hosted_action(g))
    assert hosted_action(g) == PASS  # seat 1 could beat with K but 托管 passes


def test_hint() -> None:
    g = new(["8 Q 3", "9 Q 2222 BJ 3", "4", "5"])
    assert hint(g) == parse_play("3")  # the leader: lowest single
    g.apply("8")
    assert hint(g) == parse_play("9")  # same type, lowest first
    g = new(["2 3", "9 Q 2222 BJ 3", "4", "5"])
    g.apply("2")
    assert hint(g) == parse_play("BJ")  # a higher single before any bomb
    g = new(["BJ 3", "9 Q 2222 55555 3", "4", "5"])
    g.apply("BJ")
    assert legal(g) == ["5555", "2222", "55555", "pass"]
    assert hint(g) == parse_play("5555")  # only bombs beat: the smallest (fewest cards, then rank)
    g = new(["77 3", "9 Q", "4", "5"])
    g.apply("77")
    assert hint(g) == PASS
    g = new(["77777 3", "8888 BJ BJ SJ SJ 66666", "4", "5"], four_joker_bomb=True)
    g.apply("77777")
    assert legal(g) == ["BJ BJ SJ SJ", "pass"] and hint(g) == parse_play("BJ BJ SJ SJ", four_joker_bomb=True)


def test_policies_after_the_end() -> None:
    g = new(DOUBLE_DEAL)
    apply_all(g, *DOUBLE_PLAY)
    for policy in (hint, hosted_action):
        with pytest.raises(IllegalAction, match="over"):
            policy(g)


# ---------------------------------------------------------------------------- the lazy lead list
def test_lead_plays_sequence_protocol() -> None:
    g = new(["333 444 555 6666 2", "4", "5", "6"])
    leads = g.legal_actions()
    assert isinstance(leads, LeadPlays)
    items = list(leads)
    assert [leads[i] for i in range(len(leads))] == items and leads[-1] == items[-1]
    assert len(set(items)) == len(items) == 20
    assert all(p in leads for p in items)
    assert parse_play("66666") not in leads and PASS not in leads and "3" not in leads
    assert Play(4, 3, 2) not in leads  # 555666 is held but no triple run of 2 in this room
    with pytest.raises(IndexError):
        leads[len(leads)]
    assert repr(leads) == "<LeadPlays 20 plays>"
    assert Card.parse("3") not in leads
