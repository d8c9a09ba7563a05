"""The ``heuristic`` Baohuang bot (paiju.bots.heuristic_baohuang): it only ever returns
legal actions, never beats a known partner, weighs its hand for the setup, leads low and
infers the hidden guard from the public events."""

from __future__ import annotations

from typing import Any

import pytest

import paiju
from paiju import IllegalAction
from paiju.baohuang import PASS, PRESETS, Play
from paiju.bots import Bot, bot_names, make_bot
from paiju.bots.heuristic_baohuang import HeuristicBot, hand_power


def _bots() -> list[Any]:
    return [make_bot("heuristic", game="baohuang") for _ in range(5)]


def _play_out(g: paiju.Game, bots: list[Any]) -> None:
    while not g.is_over:
        seat = g.to_act
        legal = g.legal_actions()
        action = bots[seat].act(g.view(seat), legal)
        assert action in legal, (action, g.view(seat)["step"])
        g.apply(action)
    assert sum(g.scores) == 0


def test_registered_for_every_game() -> None:
    assert "heuristic" in bot_names()
    bot = make_bot("heuristic", game="baohuang")
    assert isinstance(bot, Bot) and bot.name == "heuristic"
    with pytest.raises(IllegalAction, match="does not know chess"):
        make_bot("heuristic", game="chess")
    with pytest.raises(IllegalAction, match="does not play shengji"):
        HeuristicBot(game="shengji")
    for game in ("shengji", "shuangkou"):
        assert make_bot("heuristic", game=game).name == "heuristic"


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_only_legal_actions_in_random_games(variant: str) -> None:
    for seed in range(12):
        extra: dict[str, Any] = {}
        if seed % 4 == 1:
            extra["kao"] = True
        if seed % 4 == 2:
            extra.update(hold_sixes=True, yield_turn=True)
        if seed % 4 == 3:
            extra["pass_is_final"] = True
        g = paiju.new_game("baohuang", seed=seed, variant=variant, **extra)
        _play_out(g, _bots())
        if variant == "qingdao":  # the next hand of the match: tribute picks
            _play_out(paiju.new_game("baohuang", seed=seed + 50, **g.next_hand_options()), _bots())


def _to_play(g: paiju.Game) -> None:
    """Emperor accepts; nobody reveals, rebels or kicks."""
    while g.phase == "setup":
        names = [str(a) for a in g.legal_actions()]
        g.apply("accept" if "accept" in names else "no")


def _act(g: paiju.Game) -> Any:
    seat = g.to_act
    legal = g.legal_actions()
    action = make_bot("heuristic", game="baohuang").act(g.view(seat), legal)
    assert action in legal
    return action


def test_never_beats_the_known_partner() -> None:
    # standard: seat 0 holds the emperor card, seat 1 the guard card
    deal = ["BJ* 3 3 8 K", "SJ* 9 9 A A 2", "4 4 6 Q Q", "5 5 7 J", "6 7 T T"]
    g = paiju.new_game("baohuang", seed=1, deal=deal, variant="standard")
    _to_play(g)
    g.apply("33")  # the emperor leads
    assert g.to_act == 1
    assert _act(g) == PASS  # the guard could beat 33 with 99 or AA, but it is his emperor's
    g.apply("pass")
    assert _act(g) != PASS  # seat 2, a rebel, beats the emperor cheaply
    assert str(_act(g)) == "44"


def test_rebels_do_not_beat_each_other_once_the_guard_is_known() -> None:
    deal = ["BJ* 3 3 8 K", "SJ* 9 9 A A 2", "4 4 6 Q Q", "5 5 7 J J", "6 7 T T"]
    g = paiju.new_game("baohuang", seed=1, deal=deal, variant="standard")
    while g.phase == "setup":  # the guard reveals (明保)
        names = [str(a) for a in g.legal_actions()]
        g.apply("accept" if "accept" in names else "reveal" if "reveal" in names else "no")
    assert g.view(2)["guard"] == 1
    g.apply("33")
    g.apply("pass")  # guard
    g.apply("44")  # rebel 2
    assert g.to_act == 3
    assert _act(g) == PASS  # rebel 3 could beat 44 with JJ, but 2 is his partner
    g.apply("pass")
    g.apply("pass")  # seat 4
    assert g.to_act == 0
    _act(g)  # (legal; the emperor may beat a rebel)


def test_the_emperor_does_not_beat_a_revealed_guard() -> None:
    deal = ["BJ* 3 3 K K", "SJ* 9 9 A A 2", "4 4 6 Q Q", "5 5 7 J", "6 7 T T"]
    g = paiju.new_game("baohuang", seed=1, deal=deal, variant="standard")
    while g.phase == "setup":
        names = [str(a) for a in g.legal_actions()]
        g.apply("accept" if "accept" in names else "reveal" if "reveal" in names else "no")
    g.apply("33")
    g.apply("99")  # the guard beats his emperor anyway
    g.apply("pass")
    g.apply("pass")
    g.apply("pass")
    assert g.to_act == 0
    assert _act(g) == PASS  # KK would beat 99, but it is the guard's


def test_accepts_a_strong_hand_and_abdicates_a_weak_one() -> None:
    strong = ["BJ* BJ 2 2 2 A A 7 7 K K", "SJ* 4 5 6", "4 5 6 7", "5 6 7 8", "6 7 8 9"]
    g = paiju.new_game("baohuang", seed=1, deal=strong, variant="standard")
    assert g.to_act == 0 and str(_act(g)) == "accept"
    weak = ["BJ* 3 4 5 6 7 8 9 T J Q", "SJ* 2 2 A A", "4 5 6 7", "5 6 7 8", "6 7 8 9"]
    g = paiju.new_game("baohuang", seed=1, deal=weak, variant="standard")
    assert g.to_act == 0 and str(_act(g)) == "abdicate"
    assert hand_power(strong[0].split()) > hand_power(weak[0].split())


def test_leads_its_lowest_set_and_goes_out_when_it_can() -> None:
    deal = ["BJ* 5 5 7 9 9 9 K", "SJ* 9 A A 2", "4 4 6 Q Q", "3 5 7 J", "6 7 T T"]
    g = paiju.new_game("baohuang", seed=1, deal=deal, variant="standard")
    _to_play(g)
    assert _act(g) == Play(2, 2)  # 55: all of its lowest rank, no joker
    # one rank and a big joker left: ride the rank on the joker, i.e. the whole hand
    deal = ["BJ* 8 8 8", "SJ* 9 A A 2", "4 4 6 Q Q", "3 5 7 J", "6 7 T T"]
    g = paiju.new_game("baohuang", seed=1, deal=deal, variant="standard")
    _to_play(g)
    assert str(_act(g)) == "BJ 888"
    # two ranks and a big joker: the higher rank rides on the (unbeatable) joker first
    deal = ["BJ* 4 8 8", "SJ* 9 A A 2", "4 4 6 Q Q", "3 5 7 J", "6 7 T T"]
    g = paiju.new_game("baohuang", seed=1, deal=deal, variant="standard")
    _to_play(g)
    assert str(_act(g)) == "BJ 88"


def _view(me: int, events: list[dict[str, Any]], emperor: int = 0) -> dict[str, Any]:
    return {"seat": me, "emperor": emperor, "guard": None, "solo": None, "events": events}


def test_guard_guess_from_the_event_log() -> None:
    bot = HeuristicBot()
    e: list[dict[str, Any]] = [
        {"event": "deal", "number": 1},
        {"seat": 0, "action": "accept", "step": "emperor"},
        {"event": "emperor", "seat": 0},
        {"seat": 1, "action": "no", "step": "rebel"},
        {"seat": 2, "action": "rebel", "step": "rebel"},
        {"seat": 3, "action": "no", "step": "rebel"},
        {"seat": 4, "action": "no", "step": "rebel"},
        # trick 1: the emperor leads 33; seat 1 passes, seat 2 beats, seat 3 beats seat 2
        {"seat": 0, "action": "33", "cards": "3h 3d"},
        {"seat": 1, "action": "pass"},
        {"seat": 2, "action": "55", "cards": "5h 5d"},
        {"seat": 3, "action": "99", "cards": "9h 9d"},
        {"seat": 4, "action": "pass"},
        {"seat": 0, "action": "pass"},
        {"seat": 1, "action": "pass"},
        {"seat": 2, "action": "pass"},
        {"event": "trick", "winner": 3},
        # trick 2: seat 3 leads 6, seat 4 beats it, the emperor passes, seat 1 beats the emperor
        {"seat": 3, "action": "6", "cards": "6h"},
        {"seat": 4, "action": "Q", "cards": "Qh"},
    ]
    # the emperor: seat 2 rebelled; seats 1, 3 and 4 each show one weak guard-like sign: no guess
    assert bot.guard_guess(_view(0, e)) is None
    # ... until seat 1 also lets a second emperor play stand and beats a rebel
    more = [
        {"seat": 0, "action": "K", "cards": "Kh"},
        {"seat": 1, "action": "pass"},
        {"seat": 2, "action": "A", "cards": "Ah"},
        {"seat": 3, "action": "pass"},
        {"seat": 4, "action": "pass"},
        {"seat": 0, "action": "pass"},
        {"seat": 1, "action": "2", "cards": "2h"},
        {"seat": 2, "action": "pass"},
    ]
    assert bot.guard_guess(_view(0, [*e, {"event": "trick", "winner": 4}, *more])) == 1
    # seat 4 (a rebel) sees seat 3 beat its fellow rebel 2 and let nothing of the emperor's pass
    e2 = [
        *e[:7],
        {"seat": 0, "action": "7", "cards": "7h"},
        {"seat": 1, "action": "9", "cards": "9h"},  # seat 1 beats the emperor: a rebel
        {"seat": 2, "action": "pass"},
        {"seat": 3, "action": "pass"},
        {"seat": 4, "action": "J", "cards": "Jh"},
        {"seat": 0, "action": "pass"},
        {"seat": 1, "action": "pass"},
        {"seat": 2, "action": "pass"},
        {"seat": 3, "action": "K", "cards": "Kh"},  # seat 3 beats me (seat 4, a rebel)
        {"seat": 4, "action": "pass"},
    ]
    assert bot.guard_guess(_view(4, e2)) == 3
    # a public guard is simply returned; solos have no guard to guess
    assert bot.guard_guess({**_view(4, e2), "guard": 1}) == 1
    assert bot.guard_guess({**_view(4, e2), "solo": "open"}) is None
    # no evidence, no guess
    assert bot.guard_guess(_view(4, e[:3])) is None


def test_a_classic_hand_plays_out() -> None:
    """Five heuristic bots play a classic hand to its end with legal actions. (The cost of a
    decision is a benchmark figure: ``benchmarks/search.py`` prints it.)"""
    g = paiju.new_game("baohuang", seed=11, variant="classic")
    bots = _bots()
    while not g.is_over:
        seat = g.to_act
        view, legal = g.view(seat), g.legal_actions()
        action = bots[seat].act(view, legal)
        assert action in legal
        g.apply(action)
    assert sum(g.scores) == 0 and g.finished
