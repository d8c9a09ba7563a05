"""Card notation (docs/api.md, "Card text") and packs."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.cards import (
    BIG_JOKER,
    RANKS,
    SMALL_JOKER,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    format_cards,
    packs,
    parse_cards,
    standard_pack,
)
from paiju.errors import IllegalAction

RANK_VALUES = {c: i + 2 for i, c in enumerate(RANKS)}  # "2" -> 2 … "A" -> 14
SJ = Card(SMALL_JOKER)
BJ = Card(BIG_JOKER)
SJ_MARKED = Card(SMALL_JOKER, marked=True)
BJ_MARKED = Card(BIG_JOKER, marked=True)


def ranks(text: str) -> list[int]:
    return [c.rank for c in parse_cards(text)]


# -- constants ---------------------------------------------------------------------------


def test_notation_constants() -> None:
    assert RANKS == "23456789TJQKA"
    assert SUITS == "shdc"
    assert SUIT_SYMBOLS == {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
    assert (SMALL_JOKER, BIG_JOKER) == (15, 16)


# -- single cards ------------------------------------------------------------------------


@pytest.mark.parametrize("rank_char", list(RANKS))
def test_every_bare_rank(rank_char: str) -> None:
    (card,) = parse_cards(rank_char)
    assert card == Card(RANK_VALUES[rank_char])
    assert card.suit is None
    assert not card.marked
    assert not card.is_joker
    assert card.rank_text == rank_char
    assert str(card) == rank_char


@pytest.mark.parametrize("suit", list(SUITS))
@pytest.mark.parametrize("rank_char", list(RANKS))
def test_every_suited_card(rank_char: str, suit: str) -> None:
    text = rank_char + suit
    assert parse_cards(text) == [Card(RANK_VALUES[rank_char], suit)]
    assert str(Card.parse(text)) == text


@pytest.mark.parametrize(("symbol", "suit"), list(SUIT_SYMBOLS.items()))
@pytest.mark.parametrize("rank_char", list(RANKS))
def test_suit_symbols(rank_char: str, symbol: str, suit: str) -> None:
    card = Card.parse(rank_char + symbol)
    assert card == Card(RANK_VALUES[rank_char], suit)
    assert str(card) == rank_char + suit


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("10", "T"),
        ("10s", "Ts"),
        ("10h", "Th"),
        ("10d", "Td"),
        ("10c", "Tc"),
        ("10♠", "Ts"),
        ("10♥", "Th"),
        ("10♦", "Td"),
        ("10♣", "Tc"),
    ],
)
def test_ten_written_as_10(text: str, canonical: str) -> None:
    card = Card.parse(text)
    assert card.rank == 10
    assert str(card) == canonical
    assert card == Card.parse(canonical)


def test_lowercase_court_ranks_are_accepted() -> None:
    assert parse_cards("t j q k a") == parse_cards("T J Q K A")
    assert str(Card.parse("ts")) == "Ts"


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("SJ", Card(SMALL_JOKER)),
        ("BJ", Card(BIG_JOKER)),
        ("SJ*", Card(SMALL_JOKER, None, True)),
        ("BJ*", Card(BIG_JOKER, None, True)),
    ],
)
def test_jokers(text: str, card: Card) -> None:
    parsed = Card.parse(text)
    assert parsed == card
    assert parsed.is_joker
    assert parsed.suit is None
    assert parsed.rank_text == text.rstrip("*")
    assert str(parsed) == text


def test_marked_jokers_equal_plain_jokers_in_play() -> None:
    assert BJ_MARKED != BJ  # the mark is kept (the emperor card 皇牌 is a distinct card) …
    assert SJ_MARKED != SJ
    assert BJ_MARKED.unmarked() == BJ  # … but it counts as a plain joker in play
    assert SJ_MARKED.unmarked() == SJ
    assert BJ_MARKED.rank == BJ.rank and SJ_MARKED.rank == SJ.rank
    assert BJ.unmarked() is BJ
    assert Card(7, "s").unmarked() == Card(7, "s")


def test_joker_order() -> None:
    assert SJ.rank < BJ.rank
    assert max(RANK_VALUES.values()) < SJ.rank


def test_card_value_semantics() -> None:
    card = Card.parse("Ts")
    assert card == Card(10, "s")
    assert hash(card) == hash(Card(10, "s"))
    assert len({Card.parse("Ts"), Card.parse("10♠"), Card.parse("T")}) == 2
    assert Card.parse("T") != card  # a bare rank is not a suited card
    assert repr(card) == "Card('Ts')"
    assert repr(BJ_MARKED) == "Card('BJ*')"
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = 11  # type: ignore[misc]


@pytest.mark.parametrize("text", ["", "Ts Ah", "7777", "SJ 7"])
def test_card_parse_wants_exactly_one_card(text: str) -> None:
    with pytest.raises(IllegalAction, match="not one card"):
        Card.parse(text)


# -- runs of bare ranks ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7777", [7, 7, 7, 7]),
        ("34567", [3, 4, 5, 6, 7]),
        ("TTT", [10, 10, 10]),
        ("SJ 777", [SMALL_JOKER, 7, 7, 7]),
        ("SJ777", [SMALL_JOKER, 7, 7, 7]),
        ("BJ BJ 8888", [BIG_JOKER, BIG_JOKER, 8, 8, 8, 8]),
        ("BJBJ8888", [BIG_JOKER, BIG_JOKER, 8, 8, 8, 8]),
        ("BJ* SJ* 22", [BIG_JOKER, SMALL_JOKER, 2, 2]),
        ("101010", [10, 10, 10]),
        ("9TJQKA", [9, 10, 11, 12, 13, 14]),
        ("JJQQKK", [11, 11, 12, 12, 13, 13]),
    ],
)
def test_runs_of_bare_ranks(text: str, expected: list[int]) -> None:
    cards = parse_cards(text)
    assert [c.rank for c in cards] == expected
    assert all(c.suit is None for c in cards)


def test_run_keeps_written_order() -> None:
    assert ranks("76543") == [7, 6, 5, 4, 3]
    assert format_cards(parse_cards("SJ 777")) == "SJ 7 7 7"
    assert format_cards(parse_cards("BJ BJ 8888")) == "BJ BJ 8 8 8 8"


def test_suited_cards_may_run_together() -> None:
    assert parse_cards("TsAh2c") == [Card(10, "s"), Card(14, "h"), Card(2, "c")]
    assert parse_cards("10♠10♥") == [Card(10, "s"), Card(10, "h")]
    assert parse_cards("7s7") == [Card(7, "s"), Card(7)]


def test_marked_joker_in_a_run() -> None:
    assert parse_cards("BJ*BJ 33") == [BJ_MARKED, BJ, Card(3), Card(3)]


# -- separators and input forms ----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Ts Ah BJ",
        "Ts,Ah,BJ",
        "Ts, Ah, BJ",
        "  Ts   Ah\tBJ\n",
        "Ts ,Ah ,, BJ",
        "TsAh BJ",
        "10♠ A♥ BJ",
    ],
)
def test_separators(text: str) -> None:
    assert parse_cards(text) == [Card(10, "s"), Card(14, "h"), BJ]


@pytest.mark.parametrize("text", ["", "   ", ",", " , ,"])
def test_empty_text_is_no_cards(text: str) -> None:
    assert parse_cards(text) == []


def test_list_input() -> None:
    expected = [Card(10, "s"), Card(14, "h"), BJ]
    assert parse_cards(["Ts", "Ah", "BJ"]) == expected
    assert parse_cards(("Ts", "Ah", "BJ")) == expected
    assert parse_cards(s for s in ["Ts", "Ah", "BJ"]) == expected
    assert parse_cards(["Ts Ah", "BJ"]) == expected
    assert parse_cards(["7777"]) == [Card(7)] * 4
    assert parse_cards([Card(10, "s"), "Ah", BJ]) == expected
    assert parse_cards(expected) == expected
    assert parse_cards([]) == []


def test_list_input_rejects_non_cards() -> None:
    with pytest.raises(IllegalAction, match="7"):
        parse_cards(["Ts", 7])  # type: ignore[list-item]
    with pytest.raises(IllegalAction, match="None"):
        parse_cards([None])  # type: ignore[list-item]


def test_list_input_reports_bad_text() -> None:
    with pytest.raises(IllegalAction, match="X"):
        parse_cards(["Ts", "X"])


# -- canonical formatting ----------------------------------------------------------------

ONE_PACK_AND_MARKS = [*packs(1), SJ_MARKED, BJ_MARKED]


@pytest.mark.parametrize("card", ONE_PACK_AND_MARKS, ids=str)
def test_every_card_round_trips(card: Card) -> None:
    text = str(card)
    assert parse_cards(text) == [card]
    assert Card.parse(text) == card
    assert format_cards([card]) == text


def test_one_pack_round_trips_as_text() -> None:
    text = format_cards(ONE_PACK_AND_MARKS)
    assert parse_cards(text) == ONE_PACK_AND_MARKS
    assert len(set(text.split())) == 56  # every canonical form is distinct
    assert format_cards(parse_cards(text)) == text


def test_canonical_forms() -> None:
    assert format_cards(parse_cards("10♠ Ah BJ*")) == "Ts Ah BJ*"
    assert format_cards(parse_cards("10♥,2♣, q♦")) == "Th 2c Qd"
    assert format_cards(parse_cards("sj bj")) == "SJ BJ"
    assert format_cards([]) == ""
    assert format_cards(c for c in parse_cards("Ts Ah")) == "Ts Ah"


ALL_CARDS = [
    *(Card(r, s) for s in SUITS for r in range(2, 15)),
    *(Card(r) for r in range(2, 15)),
    SJ,
    BJ,
    SJ_MARKED,
    BJ_MARKED,
]


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=40))
def test_format_parse_round_trip(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards(", ".join(map(str, cards))) == cards


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=40))
def test_canonical_forms_run_together_unambiguously(cards: list[Card]) -> None:
    assert parse_cards("".join(map(str, cards))) == cards


@given(st.lists(st.sampled_from([*RANKS, "10", "SJ", "BJ"]), min_size=1, max_size=30))
def test_bare_rank_runs(parts: list[str]) -> None:
    value = {**RANK_VALUES, "10": 10, "SJ": SMALL_JOKER, "BJ": BIG_JOKER}
    expected = [value[p] for p in parts]
    assert ranks("".join(parts)) == expected
    assert ranks(" ".join(parts)) == expected


# -- bad text ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "bad_part"),
    [
        ("X", "X"),
        ("1", "1"),
        ("1s", "1s"),
        ("7*", "7*"),
        ("Ah*", "Ah*"),
        ("Zs", "Zs"),
        ("S", "S"),
        ("B", "B"),
        ("J*", "J*"),
        ("0", "0"),
        ("11", "11"),
        ("Ts X", "X"),
        ("77X7", "X7"),
        ("Ts, Ah, Qx", "x"),
        ("SJ 7?", "?"),
        ("Ts!", "!"),
        ("♠", "♠"),
        ("7🂡", "🂡"),
    ],
)
def test_bad_text_is_refused_naming_the_bad_part(text: str, bad_part: str) -> None:
    with pytest.raises(IllegalAction) as info:
        parse_cards(text)
    message = str(info.value)
    assert bad_part in message
    assert message  # a sentence, not an empty error


def test_illegal_action_is_a_value_error() -> None:
    assert issubclass(IllegalAction, ValueError)
    with pytest.raises(ValueError):
        parse_cards("Zs")


def test_only_jokers_may_be_marked() -> None:
    with pytest.raises(IllegalAction, match="only jokers"):
        parse_cards("7*")
    with pytest.raises(IllegalAction, match="only jokers"):
        parse_cards("Ts*")


def test_bad_text_message_explains_the_notation() -> None:
    with pytest.raises(IllegalAction) as info:
        parse_cards("X")
    message = str(info.value)
    assert "rank" in message and "SJ" in message and "BJ" in message


# -- packs -------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "size"), [(0, 0), (1, 54), (2, 108), (3, 162), (4, 216)])
def test_pack_sizes(n: int, size: int) -> None:
    assert len(packs(n)) == size


def test_pack_size_without_ranks() -> None:
    assert len(packs(4, without_ranks=(3, 4, 5))) == 168
    assert len(packs(1, without_ranks=(3, 4, 5))) == 42
    assert len(packs(2, jokers=False)) == 104
    assert len(packs(4, without_ranks=iter([3, 4, 5]))) == 168


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_pack_composition(n: int) -> None:
    cards = packs(n)
    by_card = Counter(cards)
    by_rank = Counter(c.rank for c in cards)
    for rank in range(2, 15):
        assert by_rank[rank] == 4 * n
        for suit in SUITS:
            assert by_card[Card(rank, suit)] == n
    assert by_card[SJ] == n
    assert by_card[BJ] == n
    assert len(by_card) == 54
    assert not any(c.marked for c in cards)
    assert all(c.suit is not None for c in cards if not c.is_joker)
    assert all(c.suit is None for c in cards if c.is_joker)


def test_four_packs_composition() -> None:
    cards = packs(4)
    by_card = Counter(cards)
    by_rank = Counter(c.rank for c in cards)
    assert all(by_card[Card(r, s)] == 4 for r in range(2, 15) for s in SUITS)
    assert all(by_rank[r] == 16 for r in range(2, 15))
    assert by_rank[SMALL_JOKER] == 4
    assert by_rank[BIG_JOKER] == 4
    assert Counter(c.suit for c in cards) == {"s": 52, "h": 52, "d": 52, "c": 52, None: 8}


def test_four_packs_without_345() -> None:
    cards = packs(4, without_ranks=(3, 4, 5))
    by_rank = Counter(c.rank for c in cards)
    assert set(by_rank) == {2, *range(6, 15), SMALL_JOKER, BIG_JOKER}
    assert all(by_rank[r] == 16 for r in [2, *range(6, 15)])
    assert by_rank[SMALL_JOKER] == 4 and by_rank[BIG_JOKER] == 4


def test_packs_without_jokers() -> None:
    cards = packs(2, jokers=False)
    assert not any(c.is_joker for c in cards)
    assert Counter(cards) == Counter({Card(r, s): 2 for r in range(2, 15) for s in SUITS})


def test_standard_pack_order() -> None:
    pack = standard_pack()
    assert format_cards(pack[:13]) == "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"
    assert [c.suit for c in pack[:52:13]] == list(SUITS)
    assert pack[52:] == (SJ, BJ)
    assert len(standard_pack(jokers=False)) == 52
    assert packs(1) == list(pack)


def test_packs_are_fresh_lists() -> None:
    a = packs(1)
    a.pop()
    assert len(packs(1)) == 54
