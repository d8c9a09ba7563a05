"""Competition mode 比赛 in the page: the lobby's badge; at the table no 提示 button and
neither 上一轮 nor the hand log during a hand; the room's creator watching is its referee 裁判:
his panel shows every hand face up and pauses the table, which the player's banner says."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from .conftest import HallServer
from .test_admin import guest

pytest.importorskip("playwright.sync_api")


def test_a_competition_table_hides_hints_and_the_past_and_the_referee_pauses_it(
    server: HallServer, new_page: Callable[..., Page]
) -> None:
    referee = guest(new_page, server, "Referee")
    origin = {"Origin": server.url.rstrip("/")}
    r = referee.request.post(
        server.url + "api/rooms",
        data={"name": "the cup", "game": "shuangkou", "options": {"competition": True}},
        headers=origin,
    )
    rid = r.json()["id"]
    expect(referee.get_by_test_id(f"competition-{rid}")).to_be_visible(timeout=10_000)  # the lobby's badge
    player = guest(new_page, server, "Competitor")
    player.goto(server.url + f"#/room/{rid}")
    player.get_by_test_id("sit-0").click()
    table = player.get_by_test_id("table")
    expect(table).to_have_attribute("data-my-seat", "0")
    for seat in (1, 2, 3):
        player.get_by_test_id(f"bot-{seat}-hosted").click()
    player.get_by_test_id("start").click()
    expect(table).to_have_attribute("data-status", "playing")
    expect(player.get_by_test_id("play")).to_be_visible(timeout=20_000)
    expect(player.get_by_test_id("hint")).to_have_count(0)  # 不许提示
    expect(player.get_by_test_id("prev-trick")).to_have_count(0)  # 不许查牌
    expect(player.get_by_test_id("log-toggle")).to_have_count(0)
    # the referee: every hand face up, and the pause the player is told of
    referee.goto(server.url + f"#/room/{rid}")
    expect(referee.get_by_test_id("table")).to_have_attribute("data-status", "playing")
    toggle = referee.get_by_test_id("referee-toggle")
    if not toggle.is_visible():
        referee.get_by_test_id("tools-more").click()
    toggle.click()
    for seat in range(4):
        expect(referee.get_by_test_id(f"referee-hand-{seat}")).to_be_visible()
    referee.get_by_test_id("referee-pause").click()
    expect(player.get_by_test_id("banner")).to_contain_text("The referee paused the table")
    referee.get_by_test_id("referee-pause").click()  # now: resume
    expect(player.get_by_test_id("banner")).to_be_hidden()
    assert not referee.errors and not player.errors  # type: ignore[attr-defined]
