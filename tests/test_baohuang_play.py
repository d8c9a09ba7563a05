"""Baohuang play (spec §4): what a play is, the every-card-beats rule with and without 烤牌,
tricks, passes, the big-joker automatic pass, 接风, pass_is_final, 让牌, 憋6, the role card
in play; illegal input; 托管 and 提示 (spec §7, §8)."""

from __future__ import annotations

import pytest

import paiju
from baohuang_helpers import (
    SEATS,
    answer_no,
    apply_all,
    assert_illegal,
    guard_in_views,
    hand,
    legal,
    new,
    play,
    ranks,
    snapshot,
)
from paiju import IllegalAction
from paiju.baohuang import beats, hint, hosted_action

# ---------------------------------------------------------------------------- §4 beats

REQUIRED_BEATS = [
    ("8888", "7777"),
    ("BJ SJ SJ SJ", "AAAA"),
    ("SJ 777", "6666"),
    ("BJ 6666", "SJ 5555"),
    ("BJ BJ JJJ", "SJ SJ 999"),
    ("BJ BJ BJ JJ", "SJ SJ 999"),
]


@pytest.mark.parametrize(("new_play", "old"), REQUIRED_BEATS)
def test_required_beats(new_play: str, old: str) -> None:
    assert beats(new_play, old)
    assert beats(new_play, old, kao=True)  # kao only adds ways to beat
    assert not beats(old, new_play)


def test_plain_set_never_beats_a_set_of_equal_size_with_a_joker() -> None:
    assert not beats("9999", "SJ 888")
    assert not beats("2222", "SJ 333")
    assert not beats("9999", "SJ 888", kao=True)


@pytest.mark.parametrize(
    ("new_play", "old", "expected"),
    [
        ("22", "AA", True),  # a 2 is the highest ordinary rank
        ("SJ", "2", True),
        ("BJ", "SJ", True),
        ("AA", "22", False),
        ("7777", "7777", False),  # strictly higher
        ("888", "77", False),  # same number of cards
        ("88", "777", False),
        ("SJ 3", "22", False),  # the 3 does not beat its 2
        ("SJ TTT", "9999", True),
        ("SJ 888", "999", False),
        ("BJ SJ", "SJ SJ", False),  # SJ does not beat SJ
        ("BJ BJ", "SJ SJ", True),
        ("SJ SJ", "BJ 3", False),
        ("BJ 3", "2 2", False),  # the 3 does not beat the 2
        ("BJ 3", "SJ 2", False),
        ("BJ 3", "SJ", False),
        ("SJ SJ 999", "SJ 888 8", False),
        ("BJ SJ 999", "SJ SJ 888", False),  # the SJ does not beat the second SJ
        ("BJ BJ 999", "SJ SJ 888", True),
    ],
)
def test_every_card_beats_its_own_card(new_play: str, old: str, expected: bool) -> None:
    assert beats(new_play, old) is expected


def test_suits_and_marks_do_not_matter() -> None:
    assert beats("8s 8h", "7c 7c")
    assert not beats("7s 7h", "7c 7d")
    assert beats("BJ*", "SJ*") and beats("BJ", "SJ*") and beats("BJ*", "SJ")
    assert not beats("SJ*", "SJ") and not beats("SJ", "SJ*")


@pytest.mark.parametrize("old", ["BJ", "BJ 3", "BJ SJ", "BJ BJ", "BJ 2222", "BJ SJ SJ 77"])
def test_nothing_beats_a_big_joker_without_kao(old: str) -> None:
    n = len(paiju.parse_cards(old))
    candidates = [" ".join(["BJ"] * k + ["SJ"] * (n - k)) for k in range(n + 1)]  # all jokers
    candidates += [" ".join(["BJ"] * k + ["2"] * (n - k)) for k in range(n + 1)]
    candidates += ["BJ BJ", "BJ BJ BJ", "BJ BJ 2", "SJ SJ SJ"]
    for c in candidates:
        assert not beats(c, old), (c, old)


KAO = [
    ("BJ BJ 8888", "BJ 7777"),
    ("BJ BJ BJ SJ 88", "BJ SJ 777"),
    ("BJ BJ SJ SJ", "BJ SJ"),
    ("BJ BJ SJ SJ SJ", "BJ BJ"),
    ("BJ BJ BJ", "BJ SJ"),
    ("BJ SJ SJ", "SJ SJ"),
    ("BJ SJ SJ SJ", "BJ SJ"),
    ("BJ BJ BJ SJ SJ", "BJ SJ SJ"),
]


@pytest.mark.parametrize(("new_play", "old"), KAO)
def test_kao_cases(new_play: str, old: str) -> None:
    assert beats(new_play, old, kao=True)
    assert not beats(new_play, old)  # without kao none of these count sizes differ
    assert not beats(new_play, old, kao=False)


@pytest.mark.parametrize(
    ("new_play", "old", "expected"),
    [
        ("BJ BJ", "BJ", True),  # BJ BJ over a BJ
        ("SJ SJ SJ", "BJ", True),  # SJ SJ SJ over a BJ
        ("SJ SJ", "SJ", True),  # SJ SJ over an SJ
        ("BJ", "SJ", True),  # one strictly higher card
        ("SJ SJ", "BJ", False),  # two small jokers are not enough
        ("BJ SJ", "BJ", False),
        ("BJ BJ 7777", "BJ 7777", False),  # the 7s do not beat 7s
        ("BJ BJ 88888", "BJ 7777", False),  # a fifth 8 faces nothing
        ("BJ BJ BJ 8888", "BJ 7777", False),  # one BJ too many
        ("88888", "7777", False),  # no joker in the old play: plain rule
        ("BJ 8888", "7777 SJ", True),  # plain rule still holds with kao
        ("SJ SJ 8888", "SJ 7777", True),
        ("BJ SJ 888", "SJ SJ 777", False),  # the second SJ needs a BJ or SJ SJ
        ("BJ SJ SJ 888", "SJ SJ 777", True),
    ],
)
def test_kao_groups(new_play: str, old: str, expected: bool) -> None:
    assert beats(new_play, old, kao=True) is expected


@pytest.mark.parametrize(
    ("text", "word"),
    [("89", "one rank"), ("2 3", "2"), ("34567", "straight"), ("", "at least one card"), ("7 Q 7", "one rank")],
)
def test_invalid_plays_raise(text: str, word: str) -> None:
    for args in ((text, "3"), ("3", text)):
        with pytest.raises(IllegalAction) as err:
            beats(*args)
        assert word in str(err.value), str(err.value)
        with pytest.raises(IllegalAction):
            beats(*args, kao=True)


def test_unreadable_card_text_raises() -> None:
    with pytest.raises(IllegalAction, match="cannot read"):
        beats("7x7", "3")
    with pytest.raises(IllegalAction, match="marked"):
        beats("7*", "3")


# ---------------------------------------------------------------------------- tricks and passes


def test_the_emperor_leads_and_the_leader_cannot_pass() -> None:
    g = play(["6", "SJ 4", "BJ 3 9", "5", "7"])
    assert g.emperor == 2 and g.to_act == 2 and g.is_leading()
    assert "pass" not in legal(g)
    assert_illegal(g, "pass", "cannot pass")


def test_perft_leads_and_follows() -> None:
    g = play(["BJ BJ SJ 3 3 4", "SJ* 5 5", "6", "7", "8"])
    leads = legal(g)
    # rank parts 3, 33, 4 times joker parts (0-2 BJ x 0-1 SJ) = 18, plus 5 joker-only plays
    assert len(leads) == len(set(leads)) == 23
    assert {"3", "33", "4", "BJ BJ SJ 33", "BJ", "BJ BJ", "SJ", "BJ SJ", "BJ BJ SJ"} <= set(leads)
    assert not any("*" in a for a in leads)  # BJ* is just a BJ in play
    for a in leads:  # every listed action is accepted
        g.clone().apply(a)
    g.apply("3")
    assert set(legal(g)) == {"5", "SJ*", "pass"}


def test_trick_ends_when_all_others_pass_and_passing_is_not_final() -> None:
    g = play(["BJ 3 9 9", "SJ 4 K", "5 Q", "6 J", "7 T"])
    apply_all(g, "3", "pass", "5", "pass", "pass", "pass")
    assert g.to_act == 1  # seat 1 passed before, and may play again
    g.apply("K")
    for seat in (2, 3, 4, 0):
        assert g.to_act == seat
        g.apply("pass")
    assert g.to_act == 1 and g.is_leading()  # the last player who played leads
    assert g.view(0)["last_play"] is None
    assert "pass" not in legal(g)


def test_pass_is_final() -> None:
    g = play(["BJ 3 9 9", "SJ 4 K", "5 Q", "6 J", "7 T"], pass_is_final=True)
    apply_all(g, "3", "pass", "5", "pass", "pass")
    assert g.to_act == 0
    g.apply("pass")  # seat 1 passed for good: the trick is over
    assert g.to_act == 2 and g.is_leading()


def test_big_joker_play_makes_everyone_pass() -> None:
    g = play(["BJ 3 9", "SJ 4", "5", "6", "7"])
    n = len(g.record()["actions"])
    g.apply("BJ 3")
    assert g.to_act == 0 and g.is_leading()  # he leads the next trick himself
    assert len(g.record()["actions"]) == n + 1  # the forced passes are not actions of anyone
    assert all(g.view(s)["last_play"] is None for s in SEATS)
    assert ranks(g, 0) == ["9"]


def test_big_joker_emptying_the_hand_gives_the_lead_to_the_next_holder() -> None:
    g = play(["6 6 BJ", "SJ 4", "5", "7", "8"], "accept")
    apply_all(g, "66", "pass", "pass", "pass", "pass")
    assert g.to_act == 0
    g.apply("BJ")
    assert g.finished == [0] and not g.is_over
    assert g.to_act == 1 and g.is_leading()


def test_big_joker_with_kao_does_not_pass_automatically() -> None:
    g = play(["BJ 3 9", "SJ 4", "SJ SJ SJ 5", "6", "7"], kao=True)
    g.apply("BJ")
    assert g.to_act == 1 and legal(g) == ["pass"]
    g.apply("pass")
    assert g.to_act == 2 and "SJ SJ SJ" in legal(g)  # SJ SJ SJ over a BJ
    apply_all(g, "pass", "pass", "pass")
    assert g.to_act == 0 and g.is_leading()


def test_kao_follows_listed_exactly() -> None:
    g = play(["BJ SJ 3", "SJ* 4", "BJ BJ BJ SJ SJ 5", "6", "7"], kao=True)
    g.apply("BJ SJ")
    g.apply("pass")
    # BJ faced by BJ BJ (or SJ SJ SJ), SJ faced by BJ (or SJ SJ); ordinary cards face nothing
    assert set(legal(g)) == {"BJ BJ BJ", "BJ BJ SJ SJ", "pass"}


def test_a_play_is_its_rank_composition() -> None:
    g = play(["BJ 7s 7h 7d 3", "SJ 4", "5", "6", "8"])
    assert g.parse_action("7h 7s") == g.parse_action("77") == g.parse_action("7 7")
    assert str(g.parse_action("7d 7h 7s")) == "777"
    assert str(g.parse_action("BJ* 3")) == "BJ 3"  # the emperor card is just a BJ in play
    assert sum(a.startswith("77") and len(a) == 2 for a in legal(g)) == 1  # one action, not one per suit pair


def test_kao_follow_in_play() -> None:
    g = play(["BJ SJ 3 9", "SJ 4", "BJ BJ SJ SJ 5", "6", "7"], kao=True)
    g.apply("BJ SJ")
    g.apply("pass")
    assert "BJ BJ SJ SJ" in legal(g) and "BJ BJ SJ" not in legal(g)
    g.apply("BJ BJ SJ SJ")
    assert g.view(0)["last_play"]["seat"] == 2


def test_lead_after_a_finished_player_jiefeng() -> None:
    g = play(["BJ 3 3", "SJ 4 4", "Q", "K K", "A A"])
    apply_all(g, "3", "pass", "Q")  # seat 2 is out
    assert g.finished == [2]
    apply_all(g, "pass", "pass", "pass", "pass")
    assert g.to_act == 3 and g.is_leading()  # 接风: the next player holding cards


def test_lead_after_a_finished_player_skips_empty_seats() -> None:
    g = play(["BJ 3 3", "SJ 4 4", "Q", "K", "A A"])
    apply_all(g, "3", "pass", "Q", "K")  # seats 2 and 3 are out; seat 3 played last
    apply_all(g, "pass", "pass", "pass")
    assert g.to_act == 4 and g.is_leading()


# ---------------------------------------------------------------------------- 让牌 yield_turn


YIELD_DEAL = ["BJ 3 3", "SJ 4 4", "5 5", "6 6", "7 7"]


def test_yield_gives_one_more_turn_and_passes_stay_passed() -> None:
    g = play(YIELD_DEAL, yield_turn=True)
    g.apply("3")
    assert set(legal(g)) == {"4", "SJ*", "pass", "yield"}
    apply_all(g, "yield", "pass", "pass", "pass")
    assert g.to_act == 1  # the yielder's second turn
    assert "yield" not in legal(g)
    assert_illegal(g, "yield", "yield")
    g.apply("4")
    assert g.to_act == 0  # 2, 3 and 4 passed and stay passed
    g.apply("pass")
    assert g.to_act == 1 and g.is_leading()


def test_two_yielders_each_get_a_turn() -> None:
    g = play(YIELD_DEAL, yield_turn=True)
    apply_all(g, "3", "yield", "yield", "pass", "pass")
    assert g.to_act == 1
    g.apply("pass")
    assert g.to_act == 2 and set(legal(g)) == {"5", "pass"}
    g.apply("pass")
    assert g.to_act == 0 and g.is_leading()


def test_yield_then_someone_beats() -> None:
    g = play(YIELD_DEAL, yield_turn=True)
    apply_all(g, "3", "yield", "5")  # seat 2 beats: the yielder simply gets his normal turn
    assert [g.to_act] == [3]
    apply_all(g, "pass", "pass", "pass")
    assert g.to_act == 1 and "yield" in legal(g)


def test_yield_turn_makes_a_pass_final() -> None:
    g = play(YIELD_DEAL, yield_turn=True)
    apply_all(g, "3", "pass", "5", "pass", "pass", "pass")  # seat 1 passed earlier
    assert g.to_act == 2 and g.is_leading()


def test_yield_only_in_yield_rooms_and_not_when_leading() -> None:
    g = play(YIELD_DEAL)
    g.apply("3")
    assert "yield" not in legal(g)
    assert_illegal(g, "yield", "yield")
    g = play(YIELD_DEAL, yield_turn=True)
    assert_illegal(g, "yield", "lead")


# ---------------------------------------------------------------------------- 憋6 hold_sixes


def test_hold_sixes_only_in_the_play_that_empties_the_hand() -> None:
    g = play(["BJ 3 6 6", "SJ 4 6", "5 5", "7 7", "8 8"], hold_sixes=True)
    leads = legal(g)
    assert not any("6" in a for a in leads)
    assert {"3", "BJ 3", "BJ"} == set(leads)
    assert_illegal(g, "6", "憋6")
    assert_illegal(g, "66", "憋6")
    apply_all(g, "3")
    assert set(legal(g)) == {"4", "SJ*", "pass"}  # not the 6
    assert_illegal(g, "6", "empties")
    apply_all(g, "4", "pass", "pass", "pass", "pass")
    assert g.to_act == 1 and set(legal(g)) == {"SJ*", "SJ* 6"}
    g.apply("SJ 6")  # the whole hand: the 6 goes out last
    assert g.finished == [1]


def test_hold_sixes_a_lone_six_may_follow_when_it_is_the_last_card() -> None:
    g = play(["BJ 3 5 5", "SJ 4 4", "6", "7 7", "8 8"], hold_sixes=True)
    apply_all(g, "5", "pass")
    assert set(legal(g)) == {"6", "pass"}
    g.apply("6")
    assert g.finished == [2]


def test_hold_sixes_without_sixes_plays_freely() -> None:
    free = play(["BJ 3 7 7", "SJ 4", "5", "8", "9"], hold_sixes=True)
    assert set(legal(free)) == set(legal(play(["BJ 3 7 7", "SJ 4", "5", "8", "9"])))


def test_hold_rank_option() -> None:
    g = play(["BJ 3 7", "SJ 4", "5", "8", "9"], hold_sixes=True, hold_rank="7")
    assert "7" not in legal(g) and "3" in legal(g)


# ---------------------------------------------------------------------------- the role card in play


ROLE_DEAL = ["BJ SJ 3 3", "SJ* SJ 4", "5 5", "6 6", "7 7"]


def test_guard_card_play_is_a_separate_action_for_its_holder_only() -> None:
    g = play(ROLE_DEAL)
    assert "SJ" in legal(g) and not any("*" in a for a in legal(g))  # the emperor's SJ is plain
    assert_illegal(g, "SJ*", "hold")
    g.apply("3")
    assert {"SJ", "SJ*", "4"} <= set(legal(g))
    hidden, shown = g.clone(), g.clone()
    hidden.apply("SJ")
    assert "SJ*" in hand(hidden, 1)
    assert guard_in_views(hidden) == [None, 1, None, None, None, None]
    shown.apply("SJ*")
    assert "SJ*" not in hand(shown, 1)
    assert guard_in_views(shown) == [1] * 6  # revealed to all
    assert shown.record()["actions"][-1] != hidden.record()["actions"][-1]


def test_guard_card_reveals_when_it_is_the_only_way() -> None:
    g = play(["BJ 3 3", "SJ 4", "5 5", "6 6", "7 7"])
    g.apply("3")
    assert set(legal(g)) == {"4", "SJ*", "pass"}
    g.apply("SJ")  # his only SJ is the guard card
    assert guard_in_views(g) == [1] * 6


def test_called_card_play_reveals_the_guard() -> None:
    g = new(["BJ 7c 7c 7c 3 3", "7c 7h 4", "5 5", "6 6", "8 8"], variant="classic")
    apply_all(g, "accept", "call 7c")
    answer_no(g)
    g.apply("777")  # the emperor's own copies reveal nothing
    assert guard_in_views(g) == [None, 1, None, None, None, None]
    apply_all(g, "pass", "pass", "pass", "pass")
    g.apply("3")
    assert {"7", "7c"} <= set(legal(g))
    hidden, shown = g.clone(), g.clone()
    hidden.apply("7")
    assert "7c" in hand(hidden, 1)
    assert guard_in_views(hidden) == [None, 1, None, None, None, None]
    shown.apply("7c")
    assert guard_in_views(shown) == [1] * 6


@pytest.mark.parametrize("variant", ["standard", "weihai"])
def test_hidden_guard_is_not_leaked_by_turns_or_public_views(variant: str) -> None:
    # two deals that differ only in which of seats 1 and 3 holds the guard card
    a = new(["BJ 6 6", "SJ* 7", "8 8", "SJ 7", "9 9"], variant=variant)
    b = new(["BJ 6 6", "SJ 7", "8 8", "SJ* 7", "9 9"], variant=variant)
    actions = ["accept", *["no"] * 12] if variant == "weihai" else ["accept", *["no"] * 8]
    actions += ["66", "pass", "88", "pass", "99", "pass", "pass", "pass", "BJ", "7", "pass"]
    for act in actions:
        assert a.to_act == b.to_act
        for s in (0, 2, 4, None):  # everybody but the two candidates, and a spectator
            assert a.view(s) == b.view(s), (act, s)
        assert legal(a) == legal(b) or a.to_act in (1, 3)
        a.apply(act)
        b.apply(act)
    assert a.guard == 1 and b.guard == 3
    assert a.finished == b.finished == [2, 4, 0]
    assert a.view(None)["guard"] is None and b.view(None)["guard"] is None


# ---------------------------------------------------------------------------- illegal input


def _game() -> paiju.Game:
    return play(["BJ 3 3 9 9", "SJ 4 5 5 K", "6 7", "8 8 Q", "T J"])


def test_cards_not_in_hand() -> None:
    g = _game()
    assert_illegal(g, "5", "hold")
    assert_illegal(g, "333", "hold")
    assert_illegal(g, "Ah", "hold")
    assert_illegal(g, "BJ BJ", "hold")


def test_wrong_number_of_cards() -> None:
    g = _game()
    g.apply("3")
    assert_illegal(g, "55", "as many cards")


def test_play_that_does_not_beat() -> None:
    g = _game()
    g.apply("9")
    assert_illegal(g, "5", "beat")
    assert_illegal(g, "4", "beat")


def test_actions_legal_for_nobody_now() -> None:
    g = new(["BJ 3 3 9 9", "SJ 4 5 5 K", "6 7", "8 8 Q", "T J"])
    assert_illegal(g, "3", "decision")  # a play before play starts
    assert_illegal(g, "rebel", "rebel")
    assert_illegal(g, "kick", "kick")
    assert_illegal(g, "call 3s", "call")
    g.apply("accept")
    assert_illegal(g, "accept", "accept")
    g = _game()
    assert_illegal(g, "accept", "not a play")
    assert_illegal(g, "reveal", "not a play")
    assert_illegal(g, "take BJ", "not a play")


def test_malformed_text() -> None:
    g = _game()
    assert_illegal(g, "XYZ", "cannot read")
    assert_illegal(g, "7*", "marked")
    assert_illegal(g, "", "empty")
    assert_illegal(g, "34567", "straight")
    assert_illegal(g, "89", "one rank")
    assert_illegal(g, "2 3", "one rank")
    assert_illegal(g, 42, "not a play")
    s = new(["BJ 3", "SJ 4", "5", "6", "7"])
    assert_illegal(s, "accept now", "argument")
    assert_illegal(s, "call", "card")


def test_a_six_under_hold_sixes() -> None:
    g = play(["BJ 3 6", "SJ 4", "5", "7", "8"], hold_sixes=True)
    msg = assert_illegal(g, "6", "憋6")
    assert "empties" in msg


def test_leading_with_pass() -> None:
    g = _game()
    assert_illegal(g, "pass", "pass")
    assert_illegal(g, "p", "lead")


def test_acting_after_the_hand_is_over() -> None:
    g = new(["BJ SJ", "4", "5", "6", "7"])
    g.apply("open_solo")
    g.apply("BJ SJ")
    assert g.is_over
    assert_illegal(g, "pass", "over")
    assert_illegal(g, "4", "over")


def test_illegal_actions_leave_every_view_unchanged_in_setup() -> None:
    g = new(["BJ 6", "7", "SJ 8", "9", "T"])
    g.apply("accept")
    before = snapshot(g)
    for bad in ("reveal", "rebel", "kick", "grab", "3", "open_solo", "abdicate", "pass"):
        with pytest.raises(IllegalAction):
            g.apply(bad)
    assert snapshot(g) == before


# ---------------------------------------------------------------------------- 托管 hosted_action, 提示 hint


def _hosted(g: paiju.Game) -> str:
    return str(hosted_action(g))


def test_hosted_setup_defaults() -> None:
    g = new(["BJ 6", "7", "SJ 8", "9", "T"])
    assert _hosted(g) == "accept"
    g.apply("accept")
    while g.phase == "setup":
        assert _hosted(g) == "no"  # stay hidden, no rebellion
        g.apply(hosted_action(g))
    assert not g.open_guard and not g.rebels_declared


def test_hosted_classic_defaults() -> None:
    g = new(["BJ 9", "Kd Kd Kd Ah Ah Ah 7c 7c 7c 7c", "Kd", "Ah", "T"], variant="classic")
    assert _hosted(g) == "abdicate"  # not eligible
    g.apply("abdicate")
    assert _hosted(g) == "abdicate"
    apply_all(g, "abdicate", "abdicate", "abdicate")
    assert g.to_act == 1 and _hosted(g) == "accept"
    g.apply("accept")
    assert _hosted(g) == "call Ah"  # the automatic triple, not the four (暗独) nor 明独
    g.apply("call Ah")
    while g.phase == "setup":
        assert _hosted(g) == "no"  # no 抢独, stay hidden, no rebellion
        g.apply(hosted_action(g))


def test_hosted_in_the_forced_cycle_accepts() -> None:
    g = new(["BJ 3s 3s 3s 9", "T", "7", "8", "J"], variant="classic")
    apply_all(g, *["abdicate"] * 5)
    assert _hosted(g) == "accept"


def test_hosted_kick_default_is_no() -> None:
    g = new(["BJ 6", "SJ 7", "8 9", "T J", "Q K"], variant="weihai")
    apply_all(g, "accept", *["no"] * 8, "no", "rebel", "rebel", "no")
    assert g.step == "kick" and _hosted(g) == "no"


def test_hosted_tribute_takes_the_best_card() -> None:
    plan = {"givers": [[2, 1], [3, 1], [4, 1]], "receivers": [[0, 2], [1, 1]]}
    g = new(["BJ 3s 3s 3s", "3s 6", "9 2 7", "A 8", "SJ 5 K"], variant="qingdao", tribute_due=plan)
    assert _hosted(g) == "take SJ"


def test_hosted_leader_plays_the_lowest_single_and_follower_passes() -> None:
    g = play(["BJ 9 3 3 K", "SJ 4 5", "6", "7", "8"])
    assert _hosted(g) == "3"
    g.apply(hosted_action(g))
    assert "5" in legal(g) and _hosted(g) == "pass"


def test_hosted_guard_prefers_not_to_show_the_guard_card() -> None:
    g = play(["BJ 3", "SJ* SJ 4 4", "5", "6", "7"])
    apply_all(g, "3", "SJ", "pass", "pass", "pass", "pass")
    assert g.to_act == 1
    assert _hosted(g) == "4"


def test_hosted_under_hold_sixes() -> None:
    g = play(["BJ 6 6 7 8", "SJ 4", "5", "9", "T"], hold_sixes=True)
    assert _hosted(g) == "7"  # the lowest card that is not a 6
    g = play(["BJ 3 6 6", "SJ 4", "5", "9", "T"], hold_sixes=True)
    apply_all(g, "BJ")  # all pass; he leads again
    apply_all(g, "3", "pass", "pass", "pass", "pass")
    assert ranks(g, 0) == ["6", "6"] and g.to_act == 0
    assert _hosted(g) == "66"  # only 6s left: the whole hand


def test_hint_smallest_beating_play_else_pass() -> None:
    g = play(["BJ 5 5 3", "SJ 9 7 7 Q Q", "3 4", "6 6", "2 2"])
    assert str(hint(g)) == "3"  # a leader gets the lowest single
    g.apply("55")
    assert str(hint(g)) == "77"
    g.apply("77")
    assert str(hint(g)) == "pass"  # seat 2 has nothing that beats 77
    g.apply("pass")
    assert str(hint(g)) == "pass"  # 66 does not beat 77
    g.apply("pass")
    assert str(hint(g)) == "22"


def test_hint_uses_jokers_when_needed() -> None:
    g = play(["BJ A 3", "SJ* 4", "5", "6", "7"])
    g.apply("A")
    assert str(hint(g)) == "SJ*"


def test_hint_only_during_play() -> None:
    g = new(["BJ 3", "SJ 4", "5", "6", "7"])
    with pytest.raises(IllegalAction):
        hint(g)


def test_hosted_after_the_hand_raises() -> None:
    g = new(["BJ SJ", "4", "5", "6", "7"])
    apply_all(g, "open_solo", "BJ SJ")
    with pytest.raises(IllegalAction, match="over"):
        hosted_action(g)
