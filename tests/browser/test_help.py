"""The rules pages #/help/{game} (issue 29, item 3) in the browser: from the lobby in Chinese,
the Shengji page shows its vehicle ladder 游戏等级 and the player's progress; the language
switch turns it English; the room form's link shows the rules the form sets, and the table's
menu the rules of its room."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from .conftest import HallServer


def test_the_shengji_rules_page_from_the_lobby_in_both_languages(
    server: HallServer, new_page: Callable[..., Page]
) -> None:
    page = new_page(locale="zh-CN")
    page.goto(server.url)
    page.get_by_test_id("login-name").fill("读规则的人")
    page.get_by_test_id("login").click()
    expect(page.get_by_test_id("lobby")).to_be_visible()

    page.get_by_test_id("help-link-shengji").click()
    expect(page).to_have_url(re.compile(r"#/help/shengji$"))
    expect(page.get_by_test_id("help-heading")).to_have_text("升级 · 游戏说明")
    ladder = page.get_by_test_id("help-ladder")
    expect(ladder.get_by_test_id("ladder-row-10")).to_contain_text("轿车")
    expect(ladder.get_by_test_id("ladder-row-20")).to_contain_text("飞机")
    expect(ladder.get_by_test_id("ladder-row-1")).to_have_class("current")
    expect(page.get_by_test_id("help-progress")).to_contain_text("再得 5 分升到「滑板车」")
    expect(page.get_by_test_id("help-rules")).to_contain_text("2 副牌共 108 张")

    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("help-heading")).to_have_text("Shengji · How to play")
    expect(ladder.get_by_test_id("ladder-row-20")).to_contain_text("Aeroplane")
    expect(page.get_by_test_id("help-progress")).to_contain_text("5 more to Kick scooter")

    # the room form's link: the rules as the form sets them (three packs)
    page.get_by_test_id("help-back").click()
    page.get_by_test_id("opt-game").select_option("shengji")
    page.locator(".more-options summary").click()
    page.get_by_test_id("opt-decks").select_option("3")
    page.get_by_test_id("form-help").click()
    expect(page.get_by_test_id("help-which")).to_contain_text("The rules you chose")
    expect(page.get_by_test_id("help-rules")).to_contain_text("3 packs, 162 cards")

    # the table's menu: the rules of that room (Qingdao: the tribute), and back to the table
    page.get_by_test_id("help-back").click()
    page.get_by_test_id("opt-game").select_option("baohuang")
    page.get_by_test_id("opt-variant").select_option("qingdao")
    page.get_by_test_id("create").click()
    expect(page).to_have_url(re.compile(r"#/room/"))
    expect(page.get_by_test_id("share")).to_be_visible()  # the top bar is drawn
    link = page.get_by_test_id("rules-link")
    if not link.is_visible():
        page.get_by_test_id("tools-more").click()
    link.click()
    expect(page.get_by_test_id("help-which")).to_have_text(re.compile("The rules of this room"))
    expect(page.get_by_test_id("help-rules")).to_contain_text("Tribute")
    page.get_by_test_id("help-back").click()
    expect(page).to_have_url(re.compile(r"#/room/"))
    assert not page.errors  # type: ignore[attr-defined]
