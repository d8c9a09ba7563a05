"""The table as a place to stay (issue 14, item 7, the page's side): the hand log 牌谱 lists
every event of the view and the previous trick 上一轮 shows on the key L; the 记牌器 shows
the counts the hall sent; 准备 between hands with its countdown; 快速开始 from the lobby
seats the person; a quick phrase 快捷语 reaches a spectator's page; the sound switch is
remembered after a reload.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("playwright.sync_api")
if not os.path.exists("/usr/bin/chromium"):
    pytest.skip("the browser tests need Debian's chromium at /usr/bin/chromium", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

from .driving import Driver  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from .conftest import HallServer

UPDATE_JS = "() => window.paijuTable && window.paijuTable.update"


def previous_trick(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The plays (and passes) of the last finished trick, from the event log."""
    cur: list[dict[str, Any]] = []
    prev: list[dict[str, Any]] = []
    for e in events:
        if e.get("event") in ("deal", "redeal"):
            cur, prev = [], []
        elif e.get("event") == "trick":
            prev, cur = cur, []
        elif "event" not in e and "step" not in e and "action" in e:
            cur.append(e)
    return prev


def test_log_previous_trick_tracker_and_ready(server: HallServer, page: Page) -> None:
    person = Driver(page, "Stay", "baohuang")
    person.setup_table(server.url)
    # play until a trick has ended and it is this seat's turn again
    while True:
        what = person.wait_next()
        assert what != "over", "the hand ended before a trick did"
        u = page.evaluate(UPDATE_JS)
        if what == "play" and previous_trick(u["view"]["events"]):
            break
        person.act(what)
    u = page.evaluate(UPDATE_JS)
    events = u["view"]["events"]
    # 牌谱: one row per event of the view, in the page's language
    page.get_by_test_id("log-toggle").click()
    log = page.get_by_test_id("hand-log")
    expect(log).to_have_attribute("data-count", str(len(events)))
    expect(log.get_by_test_id("log-row")).to_have_count(len(events))
    kinds = log.get_by_test_id("log-row").evaluate_all("(els) => els.map((e) => e.dataset.kind)")
    plays = sum(1 for e in events if "event" not in e and "step" not in e and e.get("action") not in ("pass", "yield"))
    assert kinds.count("play") == plays, kinds
    assert kinds[0] == "deal"
    # 上一轮 on the key L: every play of the last finished trick
    page.keyboard.press("l")
    prev = previous_trick(events)
    box = page.get_by_test_id("prev-trick-plays")
    expect(box).to_have_attribute("data-count", str(len(prev)))
    shown = [p.get_attribute("data-cards") or "" for p in box.get_by_test_id("prev-play").all()]
    assert shown == [e.get("cards") or ("" if e["action"] in ("pass", "yield") else e["action"]) for e in prev]
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("panel")).to_be_hidden()
    # 记牌器: the counts the hall sent this seat
    tracker = page.evaluate("() => window.paijuTable.tracker")
    if tracker is not None:  # the room option is on by default
        page.get_by_test_id("tracker-toggle").click()
        for rank, n in tracker.items():
            expect(page.get_by_test_id(f"tracker-{rank}")).to_have_attribute("data-count", str(n))
        page.get_by_test_id("panel-close").click()
    # 准备: after the hand, the countdown and the ready button; bots are ready at once
    person.play_to_end()
    room = page.evaluate(UPDATE_JS)["room"]
    if "ready" in room:
        expect(page.get_by_test_id("scores").get_by_test_id("ready-countdown")).to_contain_text(" s")
        for s in range(1, 5):
            expect(page.get_by_test_id(f"ready-{s}")).to_have_attribute("data-ready", "true")
        expect(page.get_by_test_id("ready-0")).to_have_attribute("data-ready", "false")
        expect(person.table).to_have_attribute("data-status", "between")
    page.get_by_test_id("next-hand").click()
    expect(person.table).to_have_attribute("data-status", "playing")
    expect(person.table).to_have_attribute("data-hand-number", "2")
    assert not page.errors, page.errors  # type: ignore[attr-defined]


def test_quick_start_phrase_and_sound(server: HallServer, new_page: Callable[..., Page]) -> None:
    page = new_page()
    person = Driver(page, "Quick", "shuangkou")
    person.login(server.url)
    page.get_by_test_id("quick-start-shuangkou").click()
    table = page.get_by_test_id("table")
    expect(table).to_be_visible()
    expect(table).to_have_attribute("data-connection", "open")
    expect(table).not_to_have_attribute("data-my-seat", "")
    seat = table.get_attribute("data-my-seat")
    room = table.get_attribute("data-room")
    # the lobby's game filter lists that room under its game only
    watcher_page = new_page()
    watcher = Driver(watcher_page, "Watcher", "shuangkou")
    watcher.login(server.url)
    watcher_page.get_by_test_id("room-filter").select_option("shuangkou")
    expect(watcher_page.locator(f'[data-room-id="{room}"]')).to_be_visible()
    watcher_page.get_by_test_id("room-filter").select_option("baohuang")
    expect(watcher_page.locator(f'[data-room-id="{room}"]')).to_have_count(0)
    watcher_page.goto(server.url + f"#/room/{room}")
    expect(watcher_page.get_by_test_id("watching")).to_be_visible()
    # a phrase from the seat reaches the spectator, in the spectator's language, beside the seat
    page.get_by_test_id("phrases-toggle").click()
    page.get_by_test_id("phrase-well_played").click()
    bubble = watcher_page.get_by_test_id(f"bubble-{seat}")
    expect(bubble).to_have_text("Well played")
    expect(page.get_by_test_id(f"bubble-{seat}")).to_be_visible()
    # too fast: refused, the reason in the message line
    page.get_by_test_id("phrases-toggle").click()
    page.get_by_test_id("phrase-thanks").click()
    expect(page.get_by_test_id("message")).to_have_attribute("data-kind", "error")
    expect(page.get_by_test_id("message")).to_contain_text("too fast")
    # sounds: off by default, the switch remembered after a reload
    toggle = page.get_by_test_id("sound-toggle")
    expect(toggle).to_have_attribute("data-on", "false")
    toggle.click()
    expect(toggle).to_have_attribute("data-on", "true")
    page.reload()
    expect(page.get_by_test_id("table")).to_be_visible()
    expect(page.get_by_test_id("sound-toggle")).to_have_attribute("data-on", "true")
    assert not page.errors and not watcher_page.errors  # type: ignore[attr-defined]
