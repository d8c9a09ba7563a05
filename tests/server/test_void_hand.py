"""亮不起牌 in the hall (Shengji's ``cannot_declare_passes_deal``, seed 003: the winning side
keeps the deal 「除非做庄的一方亮不起牌」): a later hand whose declaring team holds no card it
could declare with is void — stored as a finished hand that scores 0 for everyone, the
standings unchanged — and the match goes on with the other team declaring at its own level.

The hall runs in this process so the test can choose the second deal: after the first hand
the engine is asked which seeds leave the next declarers without a declaration.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import paiju
from paiju.server.tables import autoplay, table
from paiju.server.tables.table import next_options
from paiju.server.web.app import create_app

from .conftest import served
from .harness import Client, Hall, is_my_turn
from .test_newcomer import sit_with


def void_seed(options: dict[str, Any]) -> int:
    """A deal in which the declarers of the hand ``options`` describe hold no declaration."""
    for seed in range(1, 20_000):
        game = paiju.new_game("shengji", seed=seed, **options)
        while not game.is_over and game.view(game.to_act)["phase"] == "deal":
            game.apply("no")
        if game.is_over and game.result.get("deal_passed"):
            return seed
    raise AssertionError("no void deal among 20,000 seeds")


def play_by_hints(c: Client, hands: int) -> dict[str, Any]:
    """Play the seat by 提示 until ``hands`` hands are over: the update that says so."""
    while True:
        m = c.until_update(lambda m: is_my_turn(m) or len(m["room"]["hands"]) >= hands, 60)
        if len(m["room"]["hands"]) >= hands and m["room"]["status"] != "playing":
            return m
        if is_my_turn(m) and m["view"]["phase"] != "deal":  # the deal goes on by itself: he declares nothing
            c.send({"type": "hint"})
            got = c.until(lambda x: x["type"] in ("hint", "error"))
            if got["type"] == "hint":  # (an error: the turn moved on meanwhile)
                c.act(got["action"], m["turn"])


@pytest.fixture
def hall_and_seeds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[tuple[Hall, Any, list[int]]]:
    seeds = [1]
    monkeypatch.setattr(table, "new_seed", lambda: seeds[0])
    monkeypatch.setattr(autoplay, "new_seed", lambda: seeds[0])
    app = create_app(f"sqlite:///{tmp_path / 'hall.db'}", bot_delay=0.0, rate=1000, deal_step=0.001)
    with served(app) as hall:
        yield Hall(hall), app, seeds


@pytest.mark.slow  # a whole hand played first: ~13 s (make test-slow)
def test_a_hand_whose_declarers_cannot_declare_is_void_and_the_other_team_declares(
    hall_and_seeds: tuple[Hall, Any, list[int]],
) -> None:
    hall, app, seeds = hall_and_seeds
    p = hall.login("void hand")
    rid = hall.create_room(p, {"cannot_declare_passes_deal": True}, game="shengji")
    with hall.connect(rid, p) as c:
        sit_with(c, 4, "hosted")
        c.send({"type": "start"})
        first = play_by_hints(c, 1)
        standings = first["room"]["standings"]
        t = app.state.hall.tables[rid]
        options = next_options(t.game, t.engine_options, t.hands, t.penalties)
        declarer = options["declarer"]
        seeds[0] = void_seed(options)
        c.send({"type": "ready"})
        over = c.until_update(lambda m: len(m["room"]["hands"]) == 2, 60)
        hand = over["room"]["hands"][1]
        assert hand["scores"] == [0, 0, 0, 0] and over["room"]["standings"] == standings
        assert over["view"]["result"]["deal_passed"] is True and over["view"]["result"]["declarer"] == declarer
        assert over["view"]["result"]["next_declarer"] == (declarer + 1) % 4
    # the next hand is dealt with the other team declaring, at its own level
    t = app.state.hall.tables[rid]
    after = next_options(t.game, t.engine_options, t.hands, t.penalties)
    assert after["declarer"] == (declarer + 1) % 4
    assert after["team_levels"] == options["team_levels"]
