"""The over view of every game: ``hands_left`` (the cards still held, public at the end)
and ``score_detail`` (its numbers multiply out to the scores); Baohuang's ``solo_calls``
in the call step (the emperor's own view only)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import paiju
from paiju.baohuang.game import deck_cards
from paiju.shengji.scoring import level_change

SEEDS = range(6)
BAOHUANG = [{}, {"variant": "classic"}, {"variant": "qingdao"}, {"kick": True, "solo_grab": True}]


def random_end(name: str, seed: int, **options: Any) -> paiju.Game:
    rng = random.Random(seed)
    g = paiju.new_game(name, seed=seed, **options)
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    return g


def over_views(g: paiju.Game) -> list[dict[str, Any]]:
    views = [g.view(s) for s in [None, *range(g.num_players)]]
    for v in views[1:]:
        assert v["hands_left"] == views[0]["hands_left"] and v["score_detail"] == views[0]["score_detail"]
    return views


def check_hands_left(g: paiju.Game, v: dict[str, Any]) -> None:
    assert v["hands_left"] == [[str(c) for c in g.hand(s)] for s in range(g.num_players)]


@pytest.mark.parametrize("options", BAOHUANG)
@pytest.mark.parametrize("seed", SEEDS)
def test_baohuang_score_detail(options: dict[str, Any], seed: int) -> None:
    g: Any = random_end("baohuang", seed, **options)
    v = over_views(g)[0]
    check_hands_left(g, v)
    played = Counter(
        c.replace("*", "") for e in v["events"] if "cards" in e and "seat" in e for c in e["cards"].split()
    )
    left = Counter(c.replace("*", "") for h in v["hands_left"] for c in h)
    deck = Counter(str(c) for c in deck_cards(g.options["deck"]))
    assert played + left == deck  # every card is played or still held
    d = v["score_detail"]
    assert d["kind"] == {None: "pair", "open": "open_solo", "hidden": "hidden_solo"}[g.solo]
    m = 1
    for f in d["factors"]:
        m *= f["factor"]
    assert m == d["multiplier"] == v["multiplier"]
    places = {s: i + 1 for i, s in enumerate(v["places"])}
    assert d["places"]["emperor"] == places[g.emperor]
    assert d["kick_split"] == (g.kicks > 0 and g.solo is None)
    for s, score in enumerate(v["scores"]):
        role = "emperor" if s == g.emperor else "guard" if s == g.guard and g.solo is None else "rebel"
        assert score == d["shares"][role] * d["base"] * d["multiplier"], (s, role, d)


@pytest.mark.parametrize("options", [{}, {"decks": 1}, {"decks": 3, "kitty_multiplier": "unit_size"}])
@pytest.mark.parametrize("seed", SEEDS)
def test_shengji_score_detail(options: dict[str, Any], seed: int) -> None:
    g: Any = random_end("shengji", seed, **options)
    v = over_views(g)[0]
    check_hands_left(g, v)
    assert v["hands_left"] == [[]] * 4
    d = v["score_detail"]
    assert d["defender_points"] == d["trick_points"] + d["kitty_counted"] + d["penalty_points"]
    assert d["kitty_counted"] in (0, d["kitty_points"] * d["kitty_multiplier"])
    assert d["step"] == 20 * g.decks and d["take_over_at"] == 2 * d["step"]
    side, n = level_change(d["defender_points"], g.decks, g.options["level_table"])
    lc = d["level_changes"]
    assert lc["levels"] == n and lc["declarers_hold"] == (side == 0)
    assert (lc["team"] == g.declarer % 2) == (side == 0)
    assert v["scores"] == [n if s % 2 == lc["team"] else -n for s in range(4)]


@pytest.mark.parametrize("seed", SEEDS)
def test_shuangkou_score_detail(seed: int) -> None:
    g: Any = random_end("shuangkou", seed)
    v = over_views(g)[0]
    check_hands_left(g, v)
    played = sum(len(e["cards"].split()) for e in v["events"] if "cards" in e)
    assert played + sum(len(h) for h in v["hands_left"]) == 108
    d = v["score_detail"]
    assert d["result"] == v["result"] and d["winners"] == v["winners"] and d["places"] == v["finished"]
    assert d["factor"] == {"double": 3, "single": 2, "level": 1}[d["result"]]
    assert v["scores"] == [d["factor"] if s in d["winners"] else -d["factor"] for s in range(4)]


def test_hands_left_only_when_over() -> None:
    for name in ("baohuang", "shengji", "shuangkou"):
        g = paiju.new_game(name, seed=1)
        assert all("hands_left" not in g.view(s) and "score_detail" not in g.view(s) for s in [None, 0, 1])


def _call_step(seed: int, **options: Any) -> Any:
    g: Any = paiju.new_game("baohuang", seed=seed, variant="classic", **options)
    while g.step not in ("call", "play"):
        names = [str(a) for a in g.legal_actions()]
        g.apply("accept" if "accept" in names else names[0])
    return g


def test_solo_calls_for_the_emperor_only() -> None:
    found = False
    for seed in range(40):
        g = _call_step(seed, guard_choice="choose")
        if g.step != "call":
            continue
        emp = g.emperor
        v = g.view(emp)
        mine = Counter(str(c) for c in g.hand(emp))
        expected = [a for a in v["legal_actions"] if a.startswith("call ") and mine[a[5:]] == 4]
        assert v["solo_calls"] == expected
        found = found or bool(expected)
        for s in [None, *range(5)]:
            if s != emp:
                assert "solo_calls" not in g.view(s)
        for call in v["solo_calls"]:  # such a call is 暗独
            c = g.clone()
            c.apply(call)
            assert c.solo == "hidden"
        for call in set(a for a in v["legal_actions"] if a.startswith("call ")) - set(v["solo_calls"]):
            c = g.clone()
            c.apply(call)
            assert c.solo is None
    assert found
