"""Shengji's presets 玩法 (docs/rules/shengji.md §10): ``variant="competition"`` sets exactly
the options of seed 003's competition rulebook (比赛规则), rule by rule, and nothing else;
an option given with it overrides it; the room form is offered both presets."""

from __future__ import annotations

import pytest

import paiju
from paiju import IllegalAction
from paiju.shengji.options import describe_options, resolve_options

# each option and the rulebook's sentence it comes from
COMPETITION = {
    "levels": "competition",  # 四、比赛级牌为：2、5、10、J、Q、K、A七个级别
    "jack_reset": True,  # 四、庄家打J级时，对家用J牌抠底，庄家重新从2级开始
    "self_overturn": False,  # 六、(自已叫主后本人不能再翻主)
    "no_bid": "kitty_card:1",  # 七、由庄家翻底牌第一张牌花色为主
    "throw_penalty": 10,  # 九、4. 罚10分给对方
    "kitty_multiplier": "competition",  # 十、单抠加倍，双抠两倍，拖拉机抠底四倍
    "level_table": "competition",  # 十一、比赛中每局最高升级为三级
}


def test_the_competition_preset_sets_exactly_the_rulebooks_options() -> None:
    standard, competition = resolve_options(), resolve_options(variant="competition")
    changed = {k: v for k, v in competition.items() if standard[k] != v}
    assert changed == {**COMPETITION, "variant": "competition"}
    # 六、第一局翻主翻庄，第二局以后翻主不翻庄: the default already
    assert competition["overturn_changes_declarer"] is True
    g = paiju.new_game("shengji", variant="competition", seed=7)
    assert {k: g.options[k] for k in COMPETITION} == COMPETITION


def test_an_option_given_with_the_preset_overrides_it_and_a_bad_preset_is_refused() -> None:
    assert resolve_options(variant="competition", throw_penalty=0)["throw_penalty"] == 0
    with pytest.raises(IllegalAction) as e:
        resolve_options(variant="tournament")
    assert e.value.code == "bad_option" and e.value.params == {"option": "variant"}


def test_the_room_form_offers_both_presets() -> None:
    d = describe_options()
    assert d["preset_option"] == "variant" and d["default_preset"] == "standard"
    assert d["presets"] == {"standard": {}, "competition": {**COMPETITION, "overturn_changes_declarer": True}}


def test_a_competition_match_climbs_the_rulebooks_levels() -> None:
    """Two hands of a competition match: the levels reached are rungs of 2,5,T,J,Q,K,A."""
    g = paiju.new_game("shengji", variant="competition", seed=11)
    while g.phase != "over":
        g.apply(g.legal_actions()[0])
    nxt = g.next_hand_options()
    assert set(nxt["team_levels"]) <= {"2", "5", "T", "J", "Q", "K", "A"}
    assert nxt["variant"] == "competition"
