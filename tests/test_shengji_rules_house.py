"""Shengji 升级 house rules of seed 003's last answer, through the engine: the points per
level ``level_step`` (§7), the joker colours of ``declare_with_joker="by_colour"`` (§4) and
``cannot_declare_passes_deal`` 亮不起牌 (§5).
"""

from __future__ import annotations

import pytest

import paiju
from paiju import IllegalAction
from paiju.shengji.scoring import level_change
from shengji_helpers import build_deal


def play_out(g: paiju.Game) -> paiju.Game:
    """The first legal action at every decision, to the end of the hand."""
    while g.phase != "over":
        g.apply(g.legal_actions()[0])
    return g


# ---------------------------------------------------------------------------- level_step (§7)
def test_level_step_20_or_40_points_per_level() -> None:
    """Seed 003: 「按40为一个级别（有的约定是20分，可以自行约定）来升降级，取分一方若120分则升一级」
    — 40 points a level by default with two packs; ``level_step=20`` agrees on 20. The
    take-over point stays at 80 ([decision])."""
    assert paiju.new_game("shengji", seed=1).options["level_step"] == 0
    # seed 4: the defenders take 55 — declarers +1 with 40 a level (40–75), +2 with 20 (40–55)
    forty, twenty = (play_out(paiju.new_game("shengji", seed=4, level_step=s)) for s in (40, 20))
    assert forty.result["defender_points"] == twenty.result["defender_points"] == 55
    assert forty.result["declarers_hold"] and forty.result["levels_up"] == 1
    assert twenty.result["declarers_hold"] and twenty.result["levels_up"] == 2
    assert twenty.scores == (2, -2, 2, -2) and twenty.result["team_levels"] == ["4", "2"]
    # seed 7: 100 points — the defenders take over without a level (80–115), or go up 1 (100–115)
    forty, twenty = (play_out(paiju.new_game("shengji", seed=7, level_step=s)) for s in (0, 20))
    assert forty.result["defender_points"] == 100
    assert (forty.result["declarers_hold"], forty.result["levels_up"]) == (False, 0)
    assert (twenty.result["declarers_hold"], twenty.result["levels_up"]) == (False, 1)
    detail = twenty.view(None)["score_detail"]
    assert detail["step"] == 20 and detail["take_over_at"] == 80
    assert forty.view(None)["score_detail"]["step"] == 40


def test_level_step_table_and_validation() -> None:
    twenty = [level_change(p, 2, level_step=20) for p in (0, 5, 20, 40, 60, 75, 80, 95, 100, 120, 140)]
    assert twenty == [(0, 5), (0, 4), (0, 3), (0, 2), (0, 1), (0, 1), (1, 0), (1, 0), (1, 1), (1, 2), (1, 3)]
    assert [level_change(p, 2, level_step=40) for p in range(0, 400, 5)] == [
        level_change(p, 2) for p in range(0, 400, 5)
    ]
    # one pack at 40 a level: take over at 40 still, each 40 beyond it a level
    assert [level_change(p, 1, level_step=40) for p in (0, 5, 35, 40, 79, 80)] == [
        (0, 2),
        (0, 1),
        (0, 1),
        (1, 0),
        (1, 0),
        (1, 1),
    ]
    for bad in (30, True, "20"):
        with pytest.raises(IllegalAction) as e:
            paiju.new_game("shengji", level_step=bad)
        assert e.value.code == "bad_option"
    with pytest.raises(IllegalAction, match="default level table"):
        paiju.new_game("shengji", level_step=20, level_table="competition")


# ---------------------------------------------------------------------------- joker colours (§4)
def test_declare_with_joker_by_colour() -> None:
    """Seed 003: 「亮牌的规则有的需要有鬼牌…就是一鬼牌加至少一张要打的数字牌…（有的规则更严要求要
    大鬼亮红桃和方块的牌，小鬼亮黑桃和梅花的花式牌）」 — with ``declare_with_joker="by_colour"``
    the big joker shows hearts or diamonds, the small joker spades or clubs."""
    deal = build_deal(["BJ 7s", "SJ 7h", "BJ 7d SJ", "7c 7c"], kitty="3c 4c 5d")
    g = paiju.new_game("shengji", seed=1, deal=deal, declare_with_joker="by_colour", start_level="7")
    for _ in range(4):
        g.apply("no")
    # seat 0: BJ 7s — a big joker does not show a black suit
    assert [str(a) for a in g.legal_actions()] == ["no"]
    with pytest.raises(IllegalAction) as e:
        g.apply("declare BJ 7s")
    assert e.value.code == "joker_colour"
    g.apply("no")
    # seat 1: SJ 7h — a small joker does not show a red suit
    assert [str(a) for a in g.legal_actions()] == ["no"]
    with pytest.raises(IllegalAction) as e:
        g.apply("declare SJ 7h")
    assert e.value.code == "joker_colour"
    g.apply("no")
    # seat 2: BJ 7d — the big joker with diamonds declares
    assert [str(a) for a in g.legal_actions()] == ["no", "declare BJ 7d"]
    for _ in range(4):
        g.apply("no")
    # seat 2 now holds BJ 7d SJ: only the big joker may show the diamond
    assert [str(a) for a in g.legal_actions()] == ["no", "declare BJ 7d"]
    g.apply("declare BJ 7d")
    assert g.declaration is not None and g.declaration.suit == "d"
    assert [str(a) for a in g.legal_actions()] == ["no"]  # seat 3: 7c 7c, no joker


def test_declare_with_joker_true_still_takes_either_joker() -> None:
    deal = build_deal(["BJ 7s"], kitty="3c 4c 5d")
    g = paiju.new_game("shengji", seed=1, deal=deal, declare_with_joker=True, start_level="7")
    for _ in range(4):
        g.apply("no")
    assert [str(a) for a in g.legal_actions()] == ["no", "declare BJ 7s"]


def test_declare_with_joker_by_colour_joker_pairs_and_two_colours() -> None:
    # identical jokers still declare no-trump
    g = paiju.new_game("shengji", seed=1, deal=build_deal(["SJ SJ"]), declare_with_joker="by_colour")
    for _ in range(4):
        g.apply("no")
    assert [str(a) for a in g.legal_actions()] == ["no", "declare SJ SJ"]
    # with two_colours (one pack) the red colour is h (♥♦), the black s (♠♣)
    deal = build_deal(["SJ 7d BJ 7c"], kitty="3c 4c", decks=1)
    g = paiju.new_game(
        "shengji", seed=1, deal=deal, decks=1, two_colours=True, declare_with_joker="by_colour", start_level="7"
    )
    for _ in range(4):
        g.apply("no")
    assert [str(a) for a in g.legal_actions()] == ["no"]  # SJ 7h: the small joker is black
    for _ in range(4):
        g.apply("no")
    assert [str(a) for a in g.legal_actions()] == ["no", "declare BJ 7h"]
    for _ in range(4):
        g.apply("no")
    assert [str(a) for a in g.legal_actions()] == ["no", "declare SJ 7s", "declare BJ 7h"]


# ---------------------------------------------------------------------------- 亮不起牌 (§5)
NO_FIVES_FOR_0_AND_2 = build_deal(["", "5s 5s 5h 5h 5d 5d", "", "5c 5c SJ SJ BJ BJ"], kitty="3c 4c")


def later_hand(**options: object) -> paiju.Game:
    """A later hand of a match: seat 0 declares at team 0's level 5, team 1 is at 3."""
    return paiju.new_game("shengji", seed=1, deal=NO_FIVES_FOR_0_AND_2, declarer=0, team_levels=["5", "3"], **options)


def test_cannot_declare_passes_the_deal() -> None:
    """Seed 003: 「第二局以后就是获胜方做庄了，（除非做庄的一方亮不起牌，就是说做庄的一方两位选手连一个鬼
    和一张要打的数字牌都没有，打四的话要有鬼和四，五的话要有鬼和五，以此类推。）」 — with
    ``cannot_declare_passes_deal``, when neither declarer holds a declaration at the end of the
    deal, the hand is void and the declarer's next player 下家 declares the next hand, at his
    own team's level ([decision]); the other team's declarations of the deal lapse."""
    g = later_hand(cannot_declare_passes_deal=True)
    assert g.level == 5
    g.apply("no")
    g.apply("declare 5s")  # seat 1 declares: it changes nothing of the rule
    while g.phase == "deal":
        g.apply("no")
    assert g.phase == "over" and g.to_act is None and g.legal_actions() == []
    r = g.result
    assert r["deal_passed"] is True and g.scores == (0, 0, 0, 0)
    assert r["next_declarer"] == 1 and r["team_levels"] == ["5", "3"] and r["match_winner"] is None
    nxt = paiju.new_game("shengji", seed=2, **g.next_hand_options())
    assert nxt.declarer == 1 and nxt.level == 3
    v = g.view(0)
    assert v["phase"] == "over" and v["result"]["deal_passed"] and v["tricks"] == []
    assert paiju.replay(g.record()).view(2) == g.view(2)


def test_cannot_declare_off_by_default_and_only_when_unable() -> None:
    g = later_hand()
    while g.phase == "deal":
        g.apply("no")
    assert g.phase == "bury" and g.declarer == 0  # off: the declarer keeps the deal
    # seat 0 holds a 5 and did not declare: he could, so he keeps the deal (no_bid decides trump)
    deal = build_deal(["5h", "5s 5s 5h 5d 5d", "", "5c 5c SJ SJ BJ BJ"], kitty="3c 4c")
    g = paiju.new_game(
        "shengji", seed=1, deal=deal, declarer=0, team_levels=["5", "3"], cannot_declare_passes_deal=True
    )
    while g.phase == "deal":
        g.apply("no")
    assert g.phase == "bury" and g.declarer == 0
    # the first hand has no declarer to keep: the rule does not apply
    g = paiju.new_game("shengji", seed=1, deal=NO_FIVES_FOR_0_AND_2, start_level="5", cannot_declare_passes_deal=True)
    while g.phase == "deal":
        g.apply("no")
    assert g.phase == "bury"


def test_cannot_declare_with_declare_with_joker_needs_a_joker_and_a_level_card() -> None:
    """打四的话要有鬼和四: with ``declare_with_joker`` a declarer holding level cards but no
    joker cannot declare either."""
    deal = build_deal(["5h 5h", "SJ SJ BJ", "5s", "BJ"], kitty="3c 4c")
    g = paiju.new_game(
        "shengji",
        seed=1,
        deal=deal,
        declarer=0,
        team_levels=["5", "3"],
        cannot_declare_passes_deal=True,
        declare_with_joker=True,
    )
    while g.phase == "deal":
        g.apply("no")
    assert g.result is not None and g.result["deal_passed"] and g.result["next_declarer"] == 1
