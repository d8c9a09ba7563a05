"""The ``heuristic`` Shuangkou bot (paiju.bots.heuristic_shuangkou): only legal actions,
a hand split into few plays, bombs kept for when they matter, never beating the partner."""

from __future__ import annotations

from typing import Any

import pytest

import paiju
from paiju.bots import Bot, make_bot
from paiju.bots.heuristic_shuangkou import ShuangkouHeuristic, counts_of, plan
from paiju.shuangkou import PASS, Play, parse_play

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"min_triple_run": 2},
    {"four_joker_bomb": True},
    {"min_triple_run": 2, "four_joker_bomb": True, "points_double": 5, "points_single": 3, "points_level": 0},
]


def _play_out(g: Any, bots: list[Any]) -> None:
    while not g.is_over:
        seat = g.to_act
        legal = g.legal_actions()
        action = bots[seat].act(g.view(seat), legal)
        assert action in legal, (seat, action, g.view(seat)["hand"])
        g.apply(action)
    assert len(g.scores) == 4 and sum(g.scores) == 0


def test_registered() -> None:
    bot = make_bot("heuristic", game="shuangkou", seed=3)
    assert isinstance(bot, ShuangkouHeuristic) and isinstance(bot, Bot) and bot.name == "heuristic"


@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "triples2", "four_jokers", "points"])
def test_only_legal_actions_four_heuristics(options: dict[str, Any]) -> None:
    for seed in range(10):
        g = paiju.new_game("shuangkou", seed=seed, **options)
        _play_out(g, [ShuangkouHeuristic(seed=s) for s in range(4)])
        points = {options.get(k, d) for k, d in (("points_double", 3), ("points_single", 2), ("points_level", 1))}
        assert abs(g.scores[0]) in points


@pytest.mark.parametrize("other", ["random", "hosted", "greedy"])
@pytest.mark.parametrize("options", OPTION_SETS[1:], ids=["triples2", "four_jokers", "points"])
def test_only_legal_actions_mixed(other: str, options: dict[str, Any]) -> None:
    for seed in range(6):
        g = paiju.new_game("shuangkou", seed=seed, **options)
        bots = [make_bot("heuristic" if (s + seed) % 2 else other, game="shuangkou", seed=s) for s in range(4)]
        _play_out(g, bots)


def test_beats_greedy_and_hosted_on_the_same_cards() -> None:
    # a small duplicate match: each team plays both sides of every deal
    for other in ("greedy", "hosted"):
        total = 0
        for seed in range(12):
            for mine in (0, 1):
                g = paiju.new_game("shuangkou", seed=seed)
                bots = [make_bot("heuristic" if s % 2 == mine else other, game="shuangkou", seed=s) for s in range(4)]
                _play_out(g, bots)
                total += g.scores[mine]
        assert total > 12, (other, total)


# ---------------------------------------------------------------------------- the plan
def _pieces(hand: str, **options: Any) -> list[str]:
    return sorted(str(p) for p in plan(counts_of(hand.split()), **options)[1])


def test_plan_finds_few_pieces_and_keeps_bombs() -> None:
    assert _pieces("3s 4s 5s 6s 7s 7h 7d 9s 9h 9d 9c BJ") == sorted(["34567", "77", "9999", "BJ"])
    # a pair run beats two pairs and a loose pair; the 2s and jokers stay sets
    assert _pieces("5s 5h 6s 6h 7s 7h 2s 2h SJ SJ") == sorted(["556677", "22", "SJ SJ"])
    # the bomb is not broken for the straight, even though 4-8 would be one piece fewer
    assert "6666" in _pieces("4s 5s 6s 6h 6d 6c 7s 8s")
    # a five-card bomb may lend one card to a straight and stays a bomb
    assert _pieces("4s 5s 6s 6h 6d 6c 6s 7s 8s") == sorted(["45678", "6666"])
    assert _pieces("5s 5h 5d 6s 6h 6d", min_triple_run=2) == ["555666"]
    assert _pieces("5s 5h 5d 6s 6h 6d") == ["555", "666"]
    assert _pieces("SJ SJ BJ BJ 3s", four_joker_bomb=True) == sorted(["3", "BJ BJ SJ SJ"])
    assert _pieces("SJ SJ BJ BJ 3s") == sorted(["3", "BJ BJ", "SJ SJ"])


# ---------------------------------------------------------------------------- positions
FILLER = "3 3 4 4 5 6 7 8 9 T J Q K"


def _position(deal: list[str], actions: list[str], **options: Any) -> Any:
    g = paiju.new_game("shuangkou", seed=1, deal=deal, first_lead=0, **options)
    for text in actions:
        g.apply(g.parse_action(text))
    return g


def _decide(g: Any) -> Any:
    seat = g.to_act
    legal = g.legal_actions()
    action = ShuangkouHeuristic().act(g.view(seat), legal)
    assert action in legal
    return action


def test_does_not_beat_the_partner() -> None:
    seat2 = "7 9 J Q K A A 2 5 5"
    deal = [FILLER, "3 3 4 4 6 6 7 8 9 T J Q K", seat2, "5 5 6 7 8 9 T J Q K A 2 2"]
    # the partner (seat 0) leads a 4 and seat 1 passes: seat 2 lets it stand
    assert _decide(_position(deal, ["4", "pass"])) == PASS
    # the same 4 from an opponent (seat 1, after seat 0's 3) is beaten, cheaply
    got = _decide(_position(deal, ["3", "4"]))
    assert isinstance(got, Play) and got.width == 1 and got.high <= parse_play("J").high


def test_goes_out_over_the_partner() -> None:
    deal = [FILLER, "3 3 4 4 6 6 7 8 9 T J Q K", "A", "5 5 6 7 8 9 T J Q K A 2 2"]
    assert _decide(_position(deal, ["4", "pass"])) == parse_play("A")


def test_no_early_bomb_but_bombs_an_opponent_about_to_go_out() -> None:
    seat2 = "8 8 8 8 3 4 5 6 7 9 T J Q"  # a bomb and low cards: only the bomb beats an A
    many = "3 4 5 6 7 9 T J Q K K Q J T"
    # early (seat 1 keeps 13 cards after his A): seat 2 keeps the bomb
    deal = [FILLER, many + " A", seat2, "5 6 7 9 K K A A 2 2 2 9 T"]
    assert _decide(_position(deal, ["3", "A"])) == PASS
    # seat 1 holds 2 cards after his A: without the bomb he leads and may go out
    deal = [FILLER, "K K A", seat2, "5 6 7 9 K K A A 2 2 2 9 T"]
    assert _decide(_position(deal, ["3", "A"])) == parse_play("8888")
    # ... but never on the partner's A
    deal = ["3 4 5 6 7 9 A", "K K 3", seat2, "5 6 7 9 K K A A 2 2 2 9 T"]
    assert _decide(_position(deal, ["A", "pass"])) == PASS


def test_bombs_when_the_bomb_takes_it_out() -> None:
    # 8888 then the straight 3-7: the bomb wins the lead and the last piece goes out
    deal = [FILLER + " A K", "8 8 8 8 3 4 5 6 7", "9 9", "5 6 7 9 K K A A 2 2 2 9 T"]
    assert _decide(_position(deal, ["A"])) == parse_play("8888")


def test_does_not_break_a_bomb_to_follow() -> None:
    # seat 2's only single above the 8 is a 9 of its bomb 9999
    seat2 = "9 9 9 9 3 4 5 6 7 3 4"
    deal = [FILLER + " 8", "3 4 5 6 7 T J Q K K Q J T", seat2, "5 6 7 K K A A 2 2 2 T"]
    assert _decide(_position(deal, ["8", "pass"])) == PASS  # nobody close: no bomb either
    # an opponent about to go out: the whole bomb, not a 9 of it
    deal = [FILLER, "8 K", seat2, "5 6 7 K K A A 2 2 2 T"]
    got = _decide(_position(deal, ["3", "8"]))
    assert got == parse_play("9999")


def test_leads_plan_pieces_and_goes_out_at_once() -> None:
    deal = ["3 4 5 6 7 9 9 K", FILLER, FILLER, "5 6 7 K K A A 2 2 2 T"]
    assert _decide(_position(deal, [])) == parse_play("34567")  # the low straight, not the 3 alone
    deal = ["5 5 6 6 7 7", FILLER, FILLER, "5 6 7 K K A A 2 2 2 T"]
    assert _decide(_position(deal, [])) == parse_play("556677")


def test_does_not_lead_a_single_to_an_opponent_with_one_card() -> None:
    deal = ["3 9 9 K", "A", FILLER, "5 6 7 K K A A 2 2 2 T"]
    got = _decide(_position(deal, []))
    assert isinstance(got, Play) and got.size >= 2


def test_feeds_a_partner_about_to_go_out() -> None:
    # seat 2 (partner) holds one card: seat 0 leads its lowest single rather than its straight
    deal = [FILLER + " 8 8", "3 4 5 6 7 9 T J Q K Q J T", "A", "5 6 7 K K A A 2 2 2 T"]
    assert _decide(_position(deal, [])) == parse_play("3")
