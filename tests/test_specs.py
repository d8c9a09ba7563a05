"""``paiju.specs``: each game's parts, the same ones its package offers."""

from __future__ import annotations

import random

import pytest

import paiju
from paiju.registry import game_class
from paiju.specs import GAMES, spec


@pytest.mark.parametrize("name", GAMES)
def test_spec_holds_the_packages_parts(name: str) -> None:
    s = spec(name)
    package = getattr(paiju, name)
    assert s.name == name and spec(name) is s
    assert s.game_class is game_class(name) and s.game_class.name == name
    assert s.seats == s.game_class.num_players
    for part in ("resolve_options", "describe_options", "hosted_action", "hint", "hints", "tracker"):
        assert getattr(s, part) is getattr(package, part), part
    assert s.presets == getattr(package, "PRESETS", {})
    assert s.describe_options()["seats"] == s.seats
    assert s.bury_hint is getattr(package, "bury_hint", None)


@pytest.mark.parametrize("name", GAMES)
def test_spec_makes_games_and_worlds(name: str) -> None:
    s = spec(name)
    g = s.new(seed=4)
    assert g.record() == paiju.new_game(name, seed=4).record()
    while g.phase != "play":  # worlds are sampled during play
        g.apply(s.hosted_action(g))
    seat = g.to_act
    assert seat is not None
    world = s.sample_world(g.view(seat), random.Random(1))
    assert world.hand(seat) == g.hand(seat)
    assert isinstance(s.tracker(g.view(seat)), dict)
    if s.count_played is not None:
        assert s.count_played(g.view(seat)["events"]) == {}


def test_unknown_game() -> None:
    for name in ("chess", "", ["baohuang"]):
        with pytest.raises(paiju.IllegalAction) as e:
            spec(name)  # type: ignore[arg-type]
        assert e.value.code == "unknown_game"
    with pytest.raises(paiju.IllegalAction, match="unknown game 'chess'; games are baohuang, shengji, shuangkou"):
        paiju.new_game("chess")
