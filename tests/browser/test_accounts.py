"""An account in the browser: register on the first screen, play a Baohuang hand against
computer players by clicks, and see the beans 游戏豆 and the rating changed on the profile,
with the charts drawn; the leaderboard lists the player; log out and log in again.

Computer players hold no beans (the house stands in for them, paiju.server.accounts.settlement), so
a person's balance moves by his own share of the hand; a drawn hand (every point 0) moves
nothing, so the test plays on (at most three hands) until a hand has a score.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from .conftest import HallServer
from .driving import Driver

PASSWORD = "a good password"


def register(page: Page, url: str, username: str) -> None:
    page.goto(url)
    page.get_by_test_id("login-tab-register").click()
    page.get_by_test_id("login-username").fill(username)
    page.get_by_test_id("login-password").fill(PASSWORD)
    page.get_by_test_id("login").click()
    expect(page.get_by_test_id("lobby")).to_be_visible()


@pytest.mark.slow  # a whole scenario of 20-45 s: make test-slow (CI runs it)
def test_register_play_and_see_the_profile(server: HallServer, new_page: Callable[..., Page]) -> None:
    page = new_page()
    register(page, server.url, "browser_player")
    expect(page.get_by_test_id("my-beans")).to_have_text(re.compile(r"\b1000\b"))
    driver = Driver(page, "browser_player", "baohuang")
    driver.create_room("baohuang", preset="standard")
    driver.fill_with_bots()
    driver.start()
    points = 0
    for _hand in range(3):
        driver.play_to_end()
        points = driver.check_scores()[0]
        if points:
            break
        page.get_by_test_id("next-hand").click()  # 准备: the bots are ready, the next hand starts
        expect(driver.table).to_have_attribute("data-status", "playing")
        expect(page.get_by_test_id("scores")).to_have_count(0)  # the last hand's score screen is gone
    assert points, "three drawn hands in a row"
    page.goto(server.url + "#/")
    page.get_by_test_id("my-profile").click()
    profile = page.get_by_test_id("profile")
    expect(profile).to_be_visible()
    beans = profile.get_by_test_id("profile-beans")
    expect(beans).to_be_visible()
    balance = int(re.sub(r"\D", "", beans.inner_text()))
    assert balance != 1000 and (balance > 1000) == (points > 0), (balance, points)
    expect(profile.get_by_test_id("profile-rating-baohuang")).not_to_have_text("–")
    expect(profile.get_by_test_id("profile-title-baohuang")).to_have_text(re.compile(r"\S"))
    expect(profile.get_by_test_id("chart-beans").locator("polyline")).to_have_count(1)
    expect(profile.get_by_test_id("chart-rating-baohuang").locator("polyline")).to_have_count(1)
    expect(profile.get_by_test_id("profile-hands").locator("tbody tr")).not_to_have_count(0)
    # the Baohuang leaderboard by beans won lists the player with what the hands won
    page.goto(server.url + "#/leaderboard")
    page.get_by_test_id("board-by").select_option("beans")
    row = page.locator('[data-testid^="board-row-"]', has_text="browser_player")
    expect(row.locator("td").nth(4)).to_have_text(str(balance - 1000))
    # log out, and in again with the password: the same beans
    page.goto(server.url + "#/")
    page.get_by_test_id("logout").click()
    page.get_by_test_id("login-tab-account").click()
    page.get_by_test_id("login-username").fill("Browser_Player")  # the name is case-insensitive
    page.get_by_test_id("login-password").fill(PASSWORD)
    page.get_by_test_id("login").click()
    expect(page.get_by_test_id("my-beans")).to_have_text(re.compile(rf"\b{balance}\b"))
    assert not page.errors  # type: ignore[attr-defined]


def test_a_wrong_password_is_told_in_the_pages_language(server: HallServer, new_page: Callable[..., Page]) -> None:
    page = new_page(locale="zh-CN")
    page.goto(server.url)
    page.get_by_test_id("login-tab-account").click()
    page.get_by_test_id("login-username").fill("nobody_at_all")
    page.get_by_test_id("login-password").fill("wrong password")
    page.get_by_test_id("login").click()
    expect(page.get_by_test_id("toast")).to_have_text("用户名或密码不对")
